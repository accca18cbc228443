"""Run LongBench's real scorer (:mod:`oracles.longbench_eval`, verbatim) in a fresh Python with pltrdy ``rouge``
1.0.1 first on ``PYTHONPATH``, the way LongBench's ``python eval.py`` runs it.

pltrdy ``rouge`` and rouge-chinese both install a top-level ``rouge`` package, so pltrdy's is never on this
process's path: ``python3 dev.py test`` installs it with ``pip install --no-deps --target <venv>/pltrdy-rouge``
(pyproject's ``longbench-oracle`` pin); ``$ZHEVAL_PLTRDY_ROUGE`` points elsewhere. Without it a test calling
:func:`pltrdy_dir` skips, and fails under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "longbench_eval.py"


def pltrdy_dir() -> Path:
    """The directory holding pltrdy ``rouge`` 1.0.1 (skips, or fails under ``CI=true``, when it is missing)."""
    path = Path(os.environ.get("ZHEVAL_PLTRDY_ROUGE") or Path(sys.prefix) / "pltrdy-rouge")
    if not (path / "rouge" / "rouge_score.py").is_file() or not (path / "rouge-1.0.1.dist-info").is_dir():
        message = (f"pltrdy rouge 1.0.1 is not installed in {path}: python3 dev.py test installs it "
                   f"(pip install --no-deps --target {path} rouge==1.0.1), or set ZHEVAL_PLTRDY_ROUGE")
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def run_longbench(work_dir: Path, predictions, answers, recursion_limit=None) -> dict:
    """LongBench's ``scorer`` on these items: ``{"score": its number, "items": per-item scores, ...}``."""
    src = Path(work_dir) / "longbench_in.json"
    out = Path(work_dir) / "longbench_out.json"
    src.write_text(json.dumps({"predictions": predictions, "answers": answers, "recursion_limit": recursion_limit},
                              ensure_ascii=False), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(pltrdy_dir()))
    subprocess.run([sys.executable, str(SCRIPT), str(src), str(out)], check=True, env=env, cwd=work_dir, timeout=900)
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["rouge_is_pltrdy"] and result["rouge_module"].startswith(str(pltrdy_dir()))
    return result
