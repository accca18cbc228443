"""docs/three-layers.md stays true: its shell blocks, run as written (from a clone's root: ``tests/`` is there, the
``zheval`` command and ``python`` are the test's own), build the sample, a tiny BERT and the scripted server, and run
the three layers and the one-command table on the embedded sample. Only the port is changed (to a free one)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.commands  # the page's shell blocks: a tiny BERT, a served judge, three layers: .ci/commands

from helpers import REPO


DOC = (REPO / "docs" / "three-layers.md").read_text(encoding="utf-8")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_page_runs_all_three_layers_on_the_embedded_sample(tmp_path):
    blocks = re.findall(r"```bash\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 5
    script = "\n".join(blocks).replace("8765", str(free_port()))
    (tmp_path / "tests").symlink_to(REPO / "tests")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "zheval").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m zheval "$@"\n')
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    for shim in bin_dir.iterdir():
        shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(REPO),
           "ZHEVAL_PROGRESS": "0", "NO_COLOR": "1", "COLUMNS": "200"}
    res = subprocess.run(["bash", "-e", "-c", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + script],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    demo = tmp_path / "demo"
    ratings = [json.loads(x) for x in (demo / "ratings.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(ratings) == 66 and all(isinstance(r["overall"], int) for r in ratings)
    assert "zheval judge: 66 of 66 items rated" in out
    assert "sig" in out and "metric:bertscore|model:tiny-bert|" in out  # layer 2's printed signature
    assert "bertscore: nrefs:" in out and "|layer:2|idf:no|" in out  # zheval score --bertscore-model's signature
    assert "zheval agree: three layers on 66 items" in out
    for label in ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "chrF", "BERTScore-F1", "judge:overall"):
        assert label in out, label
    html = (demo / "agree.html").read_text(encoding="utf-8")
    assert "BERTScore-F1" in html and "<script" not in html
    assert Path(demo / "tiny-bert" / "config.json").is_file()
