#!/usr/bin/env python3
"""Headless browser check of a Space widget: launch its app.py on 127.0.0.1, fill the form with Chromium, click
Compute, wait for the signature, save a screenshot (issue 7; optional, not part of the test suite).

    # Debian packages chromium and chromium-driver; selenium in the Python running this script (any venv)
    python scripts/space_screenshot.py metrics/chinese_rouge /tmp/chinese_rouge.png
    python scripts/space_screenshot.py dist/spaces/chinese_bleu /tmp/chinese_bleu.png --python .venv/bin/python

The app runs in a subprocess with ``--python`` (default: the repository's ``.venv``), cwd = the Space folder (as on
a Space), offline, with temp evaluate caches; it is stopped at the end. Prints the page's signature and table text.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PREDS = "猫坐在垫子上\n今天天气很好"
REFS = "猫趴在垫子上面\n今天天气不错 ||| 天气很好"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, proc: subprocess.Popen, timeout: float = 300) -> None:
    start = time.time()
    while time.time() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise TimeoutError(f"{url} did not answer in {timeout} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("space", type=Path, help="a folder with app.py (metrics/<metric> or a built Space)")
    parser.add_argument("png", type=Path)
    parser.add_argument("--python", default=str(REPO / ".venv" / "bin" / "python"))
    args = parser.parse_args(argv)

    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    space = args.space.resolve()
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="zheval-shot-"))
    env = dict(os.environ, GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port),
               GRADIO_ANALYTICS_ENABLED="False", HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_MODULES_CACHE=str(tmp / "modules"), HF_METRICS_CACHE=str(tmp / "metrics"))
    log = open(tmp / "app.log", "w")
    proc = subprocess.Popen([args.python, "app.py"], cwd=space, env=env, stdout=log, stderr=subprocess.STDOUT)
    driver = None
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_http(url, proc)
        opts = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,2200", "--lang=zh-CN"):
            opts.add_argument(flag)
        opts.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(service=webdriver.ChromeService("/usr/bin/chromedriver"), options=opts)
        driver.get(url)
        wait = WebDriverWait(driver, 120)
        pred = wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "#predictions textarea")))
        pred.send_keys(PREDS)
        driver.find_element(By.CSS_SELECTOR, "#references textarea").send_keys(REFS)
        driver.find_element(By.CSS_SELECTOR, "#compute").click()
        sig = (By.CSS_SELECTOR, "#signature textarea, #signature input")
        wait.until(lambda d: d.find_element(*sig).get_attribute("value"))
        time.sleep(1)
        print("signature:", driver.find_element(*sig).get_attribute("value"))
        print("score table:", driver.find_element(By.CSS_SELECTOR, "#summary").text.replace("\n", " | "))
        print("per item:", driver.find_element(By.CSS_SELECTOR, "#per_item").text.replace("\n", " | "))
        driver.execute_script("window.scrollTo(0, 0)")
        args.png.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(args.png))
        print("screenshot:", args.png)
    finally:
        if driver is not None:
            driver.quit()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
