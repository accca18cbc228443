#!/usr/bin/env python3
"""A screenshot of a zheval HTML report (``zheval score ... --html report.html``) in headless Chromium, and the page
helpers the browser test uses (tests/adapters/report/test_html_report.py imports :func:`open_report` and
:func:`screenshot` from here).

    # Debian packages chromium, chromium-driver and fonts-noto-cjk; selenium comes with the test extra
    .venv/bin/zheval score --data test.jsonl --predictions generated_predictions.jsonl --html report.html
    .venv/bin/python scripts/html_report_screenshot.py report.html report.png            # the whole page
    .venv/bin/python scripts/html_report_screenshot.py report.html top.png --max-height 2400

The page is opened as a ``file://`` URL with the browser set-up of scripts/space_screenshot.py
(:func:`headless_chromium`: Debian's Chromium under Debian's ChromeDriver, no host name resolves), the window is
grown to the page's height (at most ``--max-height`` pixels) and saved as PNG. It prints how many resources the
page loaded besides itself (0 for a self-contained report).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _browser_kit():
    spec = importlib.util.spec_from_file_location("zheval_space_screenshot", REPO / "scripts" / "space_screenshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


browser_kit = _browser_kit()
headless_chromium = browser_kit.headless_chromium
browser_missing = browser_kit.browser_missing

#: JS: every resource the page fetched besides the document (a self-contained page fetches none).
LOADED_RESOURCES = "return performance.getEntriesByType('resource').map(e => e.name)"


def open_report(driver, html: Path) -> None:
    """Load ``html`` (a file) in ``driver`` and wait until the document is complete."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(Path(html).resolve().as_uri())
    WebDriverWait(driver, 20, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.readyState") == "complete", message="the report did not load")


def screenshot(driver, png: Path, max_height: int = 16000) -> Path:
    """Save the loaded page as a PNG, the window grown to the page's height (at most ``max_height`` px)."""
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
    driver.set_window_size(width, min(max_height, int(height) + 140))  # + the browser's own chrome height
    time.sleep(0.2)
    driver.execute_script("window.scrollTo(0, 0)")
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(png))
    return png


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", type=Path, help="the report (zheval score ... --html FILE)")
    parser.add_argument("png", type=Path, help="the screenshot to write")
    parser.add_argument("--width", type=int, default=1300)
    parser.add_argument("--max-height", type=int, default=16000)
    args = parser.parse_args(argv)
    why = browser_missing()
    if why:
        print(f"html_report_screenshot: {why}", file=sys.stderr)
        return 2
    if not args.html.is_file():
        print(f"html_report_screenshot: no such file: {args.html}", file=sys.stderr)
        return 2
    with headless_chromium(args.width, 1000) as driver:
        open_report(driver, args.html)
        loaded = driver.execute_script(LOADED_RESOURCES)
        screenshot(driver, args.png, args.max_height)
    print(f"wrote {args.png}; resources loaded besides the page: {len(loaded)}{' ' + str(loaded) if loaded else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
