#!/usr/bin/env python3
"""Screenshots of the Space widgets in a real headless browser, and the browser set-up the test suite uses
(tests/adapters/space/test_space_browser.py imports :func:`served_space`, :func:`headless_chromium` and :class:`WidgetPage` from
here).

    # Debian packages chromium, chromium-driver and fonts-noto-cjk; selenium comes with the test extra
    .venv/bin/python scripts/space_screenshot.py dist/screenshots       # chinese_rouge.png and chinese_bleu.png
    .venv/bin/python scripts/space_screenshot.py /tmp/shots --metric chinese_bleu

For each metric the script builds the Space folder with scripts/build_space.py into a temp folder (as the Hub serves
it), launches its ``app.py`` on 127.0.0.1 with a free port in a subprocess (its own process group, always killed at
the end), types a two-line example with ragged references, switches the tokenizer to ``jieba``, clicks Compute,
waits for the result and saves ``OUT_DIR/<metric>.png`` (the page from the title down to the signature). It prints
the message, the tables and the signature the page shows.

The served app runs as on a Space and offline: no ``HF_*_OFFLINE`` switch is set, but a ``sitecustomize`` on its
path refuses every connection and name lookup outside loopback and writes each attempt to a log
(:meth:`ServedSpace.network_attempts`; the test fails on any), and hides the Trainer extra (``transformers``,
``torch``, ``accelerate``), which the Space's requirements.txt does not install (evaluate would import
``transformers`` at start-up for its evaluator, 6 s here). gradio analytics are off. Chromium runs with the flags
known to work here (headless, no sandbox as root, no GPU, no QUIC, no background networking, component updates or
sync, a new empty profile) and resolves no host name but 127.0.0.1 (gradio's theme asks Google Fonts for its fonts;
the page falls back to the system fonts, Noto CJK for Chinese).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Dict, Iterator, List, Optional

REPO = Path(__file__).resolve().parents[1]
METRICS = ("chinese_rouge", "chinese_bleu")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Chromium flags that work on this project's machines (as root, no display, closed network).
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
#: Installed here (the Trainer extra) but not in a Space's requirements.txt: hidden from the served app.
HIDDEN_MODULES = ("transformers", "torch", "accelerate")

#: The served app's ``sitecustomize``: refuse (and log) non-loopback connections and name lookups; hide modules.
SITECUSTOMIZE = r'''"""Written by zheval's scripts/space_screenshot.py for a served Space app (not part of the project)."""
import ipaddress
import os
import socket
import sys

import importlib.abc
import importlib.machinery

_LOG = os.environ["ZHEVAL_SPACE_NETWORK_LOG"]
_HIDDEN = frozenset(filter(None, os.environ.get("ZHEVAL_SPACE_HIDDEN_MODULES", "").split(",")))


class _Hidden(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Importing a hidden package raises ModuleNotFoundError, as where it is not installed. (A spec is still
    found, so find_spec probes see it: sys.modules[name] = None would be cleaner but breaks scipy's
    sys.modules.get("torch") checks.)"""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in _HIDDEN:
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        raise ModuleNotFoundError(f"No module named {spec.name!r} (hidden: not in the Space's requirements)",
                                  name=spec.name)

    def exec_module(self, module):  # never reached
        raise ModuleNotFoundError(module.__name__)


if _HIDDEN:
    sys.meta_path.insert(0, _Hidden())


def _loopback(host):
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = "" if host is None else str(host)
    if host in ("", "localhost") or host.endswith(".localhost"):
        return True
    try:
        addr = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


def _refuse(what, target):
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write(f"{what} {target!r}\n")
    raise OSError(101, f"network is unreachable (the Space test refuses {what} {target!r})")


_connect, _connect_ex, _getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo


def _checked(sock, address, what):
    if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        _refuse(what, address)


def connect(self, address):
    _checked(self, address, "connect")
    return _connect(self, address)


def connect_ex(self, address):
    _checked(self, address, "connect")
    return _connect_ex(self, address)


def getaddrinfo(host, *args, **kwargs):
    if not _loopback(host):
        with open(_LOG, "a", encoding="utf-8") as f:
            f.write(f"getaddrinfo {host!r}\n")
        raise socket.gaierror(socket.EAI_NONAME, f"name lookup refused by the Space test: {host!r}")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = connect, connect_ex, getaddrinfo
'''


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(f"zheval_scripts_{name}", REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_space_folder(metric: str, root: Path, zheval_spec: str = "zheval") -> Path:
    """``scripts/build_space.py``'s folder of ``metric`` under ``root`` (``root/<metric>``)."""
    return _load_script("build_space").build_space(metric, Path(root) / metric, zheval_spec=zheval_spec)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServedSpace:
    """A Space folder's ``app.py`` running in a subprocess on ``127.0.0.1:<port>`` (see :func:`served_space`)."""

    def __init__(self, folder: Path, proc: subprocess.Popen, port: int, work: Path):
        self.folder, self.proc, self.port, self.work = folder, proc, port, work
        self.url = f"http://127.0.0.1:{port}/"
        self.log_path = work / "app.log"
        self.network_log = work / "network.log"

    def log(self) -> str:
        """What the app printed so far (stdout and stderr)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def network_attempts(self) -> List[str]:
        """Every connection or name lookup outside loopback the app tried (each was refused)."""
        if not self.network_log.exists():
            return []
        return [ln for ln in self.network_log.read_text(encoding="utf-8").splitlines() if ln.strip()]

    def wait_ready(self, timeout: float = 180) -> float:
        """Block until the page answers HTTP 200; returns the seconds waited. Raises RuntimeError if the app exits,
        TimeoutError after ``timeout`` seconds (each with the app's log)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.folder.name}/app.py exited with {self.proc.returncode}:\n{self.log()[-4000:]}")
            try:
                with urllib.request.urlopen(self.url, timeout=5) as r:
                    if r.status == 200:
                        return time.monotonic() - start
            except OSError:
                time.sleep(0.25)
        raise TimeoutError(f"{self.url} did not answer in {timeout} s:\n{self.log()[-4000:]}")

    def stop(self) -> None:
        """Kill the app's whole process group (SIGTERM, then SIGKILL after 10 s)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        else:  # the leader is gone; children of its group may not be
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def served_space(folder: Path, python: str = sys.executable, hidden: tuple = HIDDEN_MODULES) -> Iterator[ServedSpace]:
    """Start ``python app.py`` in ``folder`` (cwd, as on a Space) on a free loopback port; yields at once (call
    :meth:`ServedSpace.wait_ready`), and kills the process group on exit, also when the body raises.

    The app gets temp Hugging Face caches, gradio analytics off, the network guard and hidden modules of
    :data:`SITECUSTOMIZE`, and the caller's ``PYTHONPATH`` after the guard (so a worktree's zheval stays first).
    """
    folder = Path(folder).resolve()
    work = Path(tempfile.mkdtemp(prefix=f"zheval-space-{folder.name}-"))
    guard = work / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "GRADIO_"))}
    env.update(
        GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False",
        GRADIO_TEMP_DIR=str(work / "gradio"), HF_HUB_DISABLE_TELEMETRY="1", HF_HOME=str(work / "hf"),
        HF_MODULES_CACHE=str(work / "hf" / "modules"), HF_METRICS_CACHE=str(work / "hf" / "metrics"),
        MPLCONFIGDIR=str(work / "mpl"), PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join([str(guard), *filter(None, [os.environ.get("PYTHONPATH")])]),
        ZHEVAL_SPACE_NETWORK_LOG=str(work / "network.log"), ZHEVAL_SPACE_HIDDEN_MODULES=",".join(hidden),
    )
    with open(work / "app.log", "wb") as log:
        proc = subprocess.Popen([python, "app.py"], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    served = ServedSpace(folder, proc, port, work)
    try:
        yield served
    finally:
        served.stop()
        shutil.rmtree(work / "gradio", ignore_errors=True)
        shutil.rmtree(work / "hf", ignore_errors=True)


def browser_missing() -> Optional[str]:
    """Why the browser test cannot run here (``None`` when it can)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        return f"{' and '.join(missing)} missing: apt-get install -y chromium-driver chromium (.ci/run does)"
    if importlib.util.find_spec("selenium") is None:
        return "selenium missing: pip install -e '.[test]'"
    return None


@contextlib.contextmanager
def headless_chromium(width: int = 1400, height: int = 1600):
    """Debian's Chromium under Debian's ChromeDriver via selenium (no driver or browser download), with a new empty
    profile removed at the end; the driver is quit on exit, also when the body raises."""
    from selenium import webdriver

    profile = tempfile.mkdtemp(prefix="zheval-chromium-")
    opts = webdriver.ChromeOptions()
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        opts.add_argument(flag)
    opts.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# JS: set a textarea's value as a paste would (Svelte's bind:value listens to "input").
_SET_VALUE = """
const el = arguments[0];
Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, arguments[1]);
el.dispatchEvent(new Event('input', {bubbles: true}));
el.dispatchEvent(new Event('change', {bubbles: true}));
"""
# JS: watch the signature's status tracker; a run is over when it was shown (pending) and is hidden again.
_WATCH = """
const tracker = document.querySelector('#signature [data-testid="status-tracker"]');
window.__zhevalRun = {busy: false, done: false};
const seen = () => {
  const hidden = tracker.classList.contains('hide');
  if (!hidden) window.__zhevalRun.busy = true;
  else if (window.__zhevalRun.busy) window.__zhevalRun.done = true;
};
if (window.__zhevalObserver) window.__zhevalObserver.disconnect();
window.__zhevalObserver = new MutationObserver(seen);
window.__zhevalObserver.observe(tracker, {attributes: true, attributeFilter: ['class']});
"""
# JS: a gradio Dataframe as {"headers": [...], "rows": [[...], ...], "visible": bool} (the cells it rendered;
# a hidden table is empty).
_READ_TABLE = """
const root = document.getElementById(arguments[0]);
if (!root || !root.offsetParent) return {headers: [], rows: [], visible: false};
const headers = [...root.querySelectorAll('[data-testid^="header-"]')]
  .sort((a, b) => a.dataset.heading - b.dataset.heading).map(th => th.innerText.trim());
const rows = {};
for (const cell of root.querySelectorAll('[data-testid^="cell-"]')) {
  const [, r, c] = cell.dataset.testid.split('-').map(Number);
  (rows[r] = rows[r] || [])[c] = cell.innerText.trim();
}
return {headers, rows: Object.keys(rows).map(Number).sort((a, b) => a - b).map(r => rows[r]), visible: true};
"""

# JS: message, tables and signature at once (one round trip).
_READ_SHOWN = """
const readTable = new Function(%s);
const msg = document.querySelector('#message .zheval-message');
const kind = !msg ? null : msg.classList.contains('zheval-error') ? 'error' : msg.classList.contains('zheval-ok') ? 'ok' : null;
return {message: msg ? msg.innerText.trim() : '', kind,
        summary: readTable('summary'), per_item: readTable('per_item'),
        signature: document.querySelector('#signature textarea').value};
""" % json.dumps(_READ_TABLE)  # a JS string literal


class WidgetPage:
    """The widget page in a selenium driver, used as a visitor would: type, choose options, click Compute, read."""

    def __init__(self, driver, url: str, timeout: float = 60):
        self.driver, self.url, self.timeout = driver, url, timeout

    def _wait(self, condition, what: str):
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, self.timeout, poll_frequency=0.05).until(condition, message=what)

    def _find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def open(self) -> "WidgetPage":
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as ec

        self.driver.get(self.url)
        self._wait(ec.element_to_be_clickable((By.CSS_SELECTOR, "#compute")), "the page did not load")
        return self

    def type_text(self, elem_id: str, text: str) -> None:
        """Clear a text box and type ``text`` key by key (newlines are Enter presses in the textarea)."""
        from selenium.webdriver.common.keys import Keys

        box = self._find(f"#{elem_id} textarea")
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        box.send_keys(text)
        self._wait(lambda d: box.get_property("value") == text, f"#{elem_id} does not hold the typed text")

    def paste_text(self, elem_id: str, text: str) -> None:
        """Put ``text`` into a text box at once, as a paste does (for inputs too long to type)."""
        box = self._find(f"#{elem_id} textarea")
        self.driver.execute_script(_SET_VALUE, box, text)
        self._wait(lambda d: box.get_property("value") == text, f"#{elem_id} does not hold the pasted text")

    def choose(self, elem_id: str, value: str) -> None:
        """Pick ``value`` in a dropdown: open it, click the option."""
        self._find(f"#{elem_id} input").click()
        self._wait(lambda d: self._find(f'#{elem_id} li[aria-label="{value}"]'), f"no option {value!r}").click()
        self._wait(lambda d: self._find(f"#{elem_id} input").get_property("value") == value,
                   f"#{elem_id} did not take {value!r}")

    def set_checked(self, elem_id: str, name: str, checked: bool) -> None:
        box = self._find(f'#{elem_id} input[name="{name}"]')
        if box.is_selected() != checked:
            box.click()
        self._wait(lambda d: box.is_selected() == checked, f"{elem_id}/{name} not {checked}")

    def set_number(self, elem_id: str, value: int) -> None:
        """Type a value into a slider's number box and leave it (Enter)."""
        from selenium.webdriver.common.keys import Keys

        box = self._find(f'#{elem_id} input[type="number"]')
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(str(value), Keys.ENTER)
        self._wait(lambda d: box.get_property("value") == str(value), f"#{elem_id} did not take {value}")

    def compute(self) -> Dict[str, object]:
        """Click Compute, wait until the run is over and the page has settled, return :meth:`shown`.

        Over = the outputs' status tracker was shown and is hidden again; settled = a message is shown, after a
        success both tables are visible with their headers, and two reads 100 ms apart agree (a loaded machine
        renders the tables a few frames after the tracker hides)."""
        self.driver.execute_script(_WATCH)
        self._find("#compute").click()
        self._wait(lambda d: d.execute_script("return window.__zhevalRun.done"), "the run did not finish")
        last: Optional[Dict[str, object]] = None

        def settled(_driver) -> bool:
            nonlocal last
            now = self.shown()
            ready = now["kind"] == "error" or (now["kind"] == "ok" and all(
                now[t]["visible"] and now[t]["headers"] and now[t]["rows"] for t in ("summary", "per_item")))
            same, last = now == last, now
            if not (ready and same):
                time.sleep(0.1)
                return False
            return True

        self._wait(settled, "the page did not settle after the run")
        return last

    def table(self, elem_id: str) -> Dict[str, list]:
        """A Dataframe's ``{"headers", "rows", "visible"}`` as rendered: gradio's table is virtual, so only the rows
        in view are there (all of them for a few dozen rows)."""
        return self.driver.execute_script(_READ_TABLE, elem_id)

    def shown(self) -> Dict[str, object]:
        """What the page shows: ``message`` (its text) and ``kind`` (``"ok"``, ``"error"`` or ``None``: no
        message), the ``summary`` and ``per_item`` tables (:meth:`table`) and the ``signature``, read in one
        script."""
        return self.driver.execute_script(_READ_SHOWN)

    def page_contains(self, text: str) -> bool:
        """Whether the rendered page text (``innerText``) contains ``text``."""
        return self.driver.execute_script("return document.body.innerText.includes(arguments[0])", text)

    def screenshot(self, png: Path, bottom_id: str = "signature") -> None:
        """Save the page from the top down to the bottom of ``#bottom_id`` as a PNG."""
        measure = (f"const r = document.getElementById('{bottom_id}').getBoundingClientRect();"
                   "return Math.ceil(r.bottom + window.scrollY + 24);")
        width = self.driver.get_window_size()["width"]
        bottom, last = self.driver.execute_script(measure), None
        for _ in range(20):  # until the layout has settled (tables appearing, the window resized)
            if bottom == last:
                break
            self.driver.set_window_size(width, max(600, int(bottom) + 140))  # + the browser's own chrome height
            time.sleep(0.25)
            last, bottom = bottom, self.driver.execute_script(measure)
        self.driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        png.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(png))


#: What the screenshot shows: two lines, the second with two references.
SHOT_PREDICTIONS = "猫坐在垫子上\n今天天气很好，我们去公园散步吧"
SHOT_REFERENCES = "猫趴在垫子上面\n今天天气不错，去公园走走吧 ||| 天气很好，我们出去散步"


def shoot(metric: str, out_dir: Path, python: str = sys.executable) -> Path:
    """Build, serve and screenshot one widget (see the module docstring); returns the PNG path."""
    with tempfile.TemporaryDirectory(prefix="zheval-spaces-") as root:
        folder = build_space_folder(metric, Path(root))
        with served_space(folder, python) as served, headless_chromium() as driver:
            served.wait_ready()
            page = WidgetPage(driver, served.url).open()
            page.type_text("predictions", SHOT_PREDICTIONS)
            page.type_text("references", SHOT_REFERENCES)
            page.choose("tokenizer", "jieba")
            shown = page.compute()
            if shown["kind"] != "ok":
                raise RuntimeError(f"{metric}: the run did not succeed: {shown['message']!r}\n{served.log()[-3000:]}")
            png = Path(out_dir) / f"{metric}.png"
            page.screenshot(png)
            print(f"{metric}: {shown['message']}")
            for name in ("summary", "per_item"):
                print(f"  {name}: {json.dumps(shown[name], ensure_ascii=False)}")
            print(f"  signature: {shown['signature']}")
            if served.network_attempts():
                print(f"  network attempts (refused): {served.network_attempts()}")
            print(f"  screenshot: {png}")
            return png


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, help="folder for <metric>.png")
    parser.add_argument("--metric", choices=METRICS, action="append", help="default: both")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs app.py (default: this one)")
    args = parser.parse_args(argv)
    why = browser_missing()
    if why:
        print(f"space_screenshot: {why}", file=sys.stderr)
        return 2
    for metric in args.metric or METRICS:
        shoot(metric, args.out_dir, args.python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
