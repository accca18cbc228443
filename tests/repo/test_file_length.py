"""No file of the repository's code, tests, scripts or docs over 600 lines: every ``.py``, ``.md`` and ``.sh`` file
git tracks (or would track: new files not ignored count too) under ``zheval/``, ``tests/``, ``scripts/``, ``docs/``
and ``metrics/``. A file that grows past it is split by job (a module with one job, e.g.
``scripts/option_matrix_parts/``), never trimmed of its docs. The limit was checked by hand before; 605-line
``zheval/adapters/space.py`` and 1,682-line ``scripts/option_matrix.py`` got through."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import REPO

MAX_LINES = 600
FOLDERS = ("zheval", "tests", "scripts", "docs", "metrics")
SUFFIXES = (".py", ".md", ".sh")


def checked_files(root: Path) -> list:
    """The files of `FOLDERS` with a suffix of `SUFFIXES` under ``root``, as git lists them (tracked, and untracked
    but not ignored); every file on disk, ``__pycache__`` aside, where ``root`` is not a git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", *FOLDERS],
                             cwd=root, capture_output=True, check=True).stdout.decode("utf-8")
        paths = [root / p for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        paths = [p for d in FOLDERS for p in (root / d).rglob("*") if "__pycache__" not in p.parts]
    return sorted(p for p in paths if p.suffix in SUFFIXES and p.is_file())


def line_count(path: Path) -> int:
    """Lines as ``wc -l`` counts them, plus a last line without its line break."""
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def too_long(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): n for p in checked_files(root) if (n := line_count(p)) > MAX_LINES}


def test_no_file_is_over_600_lines():
    files = checked_files(REPO)
    assert len(files) > 300 and any(p.name == "option_matrix.py" for p in files)  # the listing found the repository
    long = too_long(REPO)
    assert not long, f"files over {MAX_LINES} lines (split them by job): {long}"


def test_the_check_finds_a_long_file(tmp_path):
    """The check itself on a folder that is no git checkout: 601 lines (the last without its line break) is over,
    600 is not, and a suffix outside `SUFFIXES` is not looked at."""
    for d in ("docs", "scripts"):
        (tmp_path / d).mkdir()
    (tmp_path / "docs" / "long.md").write_text("x\n" * 600 + "x", encoding="utf-8")
    (tmp_path / "scripts" / "ok.py").write_text("pass\n" * 600, encoding="utf-8")
    (tmp_path / "scripts" / "data.txt").write_text("x\n" * 900, encoding="utf-8")
    assert too_long(tmp_path) == {"docs/long.md": 601}
