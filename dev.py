#!/usr/bin/env python3
"""Project runner: needs only ``python3``. Each command creates ``.venv`` and installs what it needs first.

    python3 dev.py demo     # the main job on the embedded sample (zheval demo)
    python3 dev.py test     # the whole test suite (what .ci/run calls)

Further arguments are passed on (``python3 dev.py test -k rouge``; ``python3 dev.py demo --format json``).
The install is skipped when ``pyproject.toml``/``requirements.txt``/``.ci/tested-pins.txt`` have not changed since the
last one.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")

TARGETS = {
    # command: (pip install arguments, stamp name)
    "demo": (["-r", "requirements.txt", "-e", ".[html]"], "runtime"),  # the html extra: README's --html example
    # the test target installs the extras at the versions the suite is run on (.ci/tested-pins.txt: pyproject.toml
    # declares ranges); the demo takes whatever the ranges allow
    "test": (["-r", "requirements.txt", "-c", ".ci/tested-pins.txt",
             "-e", ".[test,trainer,space,bench,docs,fast,bertscore,judge]"], "test"),
}


def _run(cmd: list[str], **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def ensure_env(target: str) -> None:
    """Create .venv and install the packages for ``target`` unless already done for these files."""
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    args, stamp_name = TARGETS[target]
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "requirements.txt", ".ci/tested-pins.txt"):
        digest.update((ROOT / name).read_bytes())
    digest.update(" ".join(args).encode())
    stamp = VENV / f".installed-{stamp_name}"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    if _run([PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip"]) != 0:
        sys.exit("pip upgrade failed")
    if _run([PY, "-m", "pip", "install", "--quiet", *args]) != 0:
        sys.exit(f"installing the {target} dependencies failed")
    stamp.write_text(digest.hexdigest())


#: Where the test target installs pltrdy's ``rouge`` (pyproject's ``longbench-oracle`` extra), apart from the
#: environment: it would clash with rouge-chinese's top-level ``rouge`` package (tests/presets/test_leaderboard_presets.py).
PLTRDY_DIR = VENV / "pltrdy-rouge"


def ensure_pltrdy_rouge() -> None:
    """Install the ``longbench-oracle`` pin of pyproject.toml into :data:`PLTRDY_DIR` with ``pip --target``."""
    import re

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'^longbench-oracle = \["([^"]+)"\]', text, flags=re.M)
    if not match:
        sys.exit("pyproject.toml has no longbench-oracle extra")
    pin = match.group(1)
    stamp = PLTRDY_DIR / ".installed"
    if stamp.exists() and stamp.read_text() == pin:
        return
    if _run([PY, "-m", "pip", "install", "--quiet", "--no-deps", "--upgrade", "--target", PLTRDY_DIR, pin]) != 0:
        sys.exit(f"installing {pin} into {PLTRDY_DIR} failed")
    stamp.write_text(pin)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in TARGETS:
        print(__doc__)
        return 2
    target, rest = argv[0], argv[1:]
    ensure_env(target)
    if target == "test":
        ensure_pltrdy_rouge()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if target == "demo":
        return _run([PY, "-m", "zheval", "demo", *rest], env=env)
    if target == "test" and not any(a.startswith(("-n", "--numprocesses")) for a in rest):
        # one worker per core (2 on the CI machine), whole test files per worker (their module fixtures, e.g. a
        # served Space, stay in one process); pass -n 0 to run in this process
        rest = ["-n", "auto", "--dist", "loadfile", *rest]
    code = _run([PY, "-m", "pytest", *rest], env=env)
    if code == 5:
        print("pytest collected no tests: that is a failure here", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
