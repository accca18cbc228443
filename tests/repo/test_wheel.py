"""After ``pip install`` (issue 35): a wheel built from the repository (``python -m build``) carries the evaluate
module scripts — byte-equal to ``metrics/<name>/<name>.py``, the files the Hub Spaces publish — where
``zheval.metric_path`` finds them, and the Apache-2.0 licence file. The fresh-venv smoke test of the installed wheel
(CLI demo, ``evaluate.load`` by ``metric_path``, the Trainer hook) is the CI step ``.ci/wheel-smoke``."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import zipfile

import pytest

pytestmark = pytest.mark.commands  # python -m build, and the unpacked wheel in a fresh process: .ci/commands

import zheval
from helpers import REPO
from zheval.adapters.metric_paths import METRICS



@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: the test extra holds setuptools>=77 and build; nothing is downloaded
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(REPO)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (path,) = out.glob("zheval-*.whl")
    return path


def test_setup_and_the_library_name_the_same_modules():
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    (value,) = [n.value for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "METRICS"]
    assert ast.literal_eval(value) == METRICS
    assert sorted(p.name for p in (REPO / "metrics").iterdir() if p.is_dir()) == sorted(METRICS)


def test_wheel_carries_the_metric_scripts_equal_to_metrics(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        for name in METRICS:
            member = f"zheval/adapters/evaluate_scripts/{name}/{name}.py"
            assert member in names, sorted(n for n in names if "evaluate" in n)
            assert zf.read(member) == (REPO / "metrics" / name / f"{name}.py").read_bytes()


def test_wheel_carries_the_licence(wheel):
    with zipfile.ZipFile(wheel) as zf:
        licence = [n for n in zf.namelist() if n.endswith("/LICENSE") and ".dist-info/" in n]
        assert licence, "no LICENSE in the wheel's dist-info"
        text = zf.read(licence[0]).decode()
        meta = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert text == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "License-Expression: Apache-2.0" in meta


def test_metric_path_from_the_unpacked_wheel_loads_with_evaluate(wheel, tmp_path):
    # the wheel's files alone (no clone on the path, run from elsewhere): metric_path points into the package and
    # evaluate.load of it scores as the library does
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    code = (
        "import evaluate, zheval, json\n"
        "out = {}\n"
        "for name in ('chinese_rouge', 'chinese_bleu', 'chinese_chrf'):  # chinese_bertscore: its path below\n"
        "    path = zheval.metric_path(name)\n"
        "    m = evaluate.load(path, keep_in_memory=True)\n"
        "    r = m.compute(predictions=['猫坐在垫子上'], references=[['猫趴在垫子上']])\n"
        "    out[name] = [path, r]\n"
        "out['lib'] = [zheval.compute_rouge(['猫坐在垫子上'], [['猫趴在垫子上']])['rougeL'],\n"
        "              zheval.compute_bleu(['猫坐在垫子上'], [['猫趴在垫子上']])['bleu'],\n"
        "              zheval.compute_chrf(['猫坐在垫子上'], [['猫趴在垫子上']])['chrf']]\n"
        "out['chinese_bertscore'] = [zheval.metric_path('chinese_bertscore'), None]\n"
        "print(json.dumps(out, default=str))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(site), HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               HF_MODULES_CACHE=str(tmp_path / "modules"))
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import json

    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in METRICS:
        path, _ = out[name]
        assert path.startswith(str(site)), path
    assert out["chinese_rouge"][1]["rougeL"] == out["lib"][0]
    assert out["chinese_bleu"][1]["bleu"] == out["lib"][1]
    assert out["chinese_chrf"][1]["chrf"] == out["lib"][2]


def test_metric_path_in_the_clone_is_metrics():
    for name in METRICS:
        assert zheval.metric_path(name) == str(REPO / "metrics" / name)
    assert zheval.metric_path("zheval/chinese_bleu") == str(REPO / "metrics" / "chinese_bleu")
    with pytest.raises(ValueError, match="unknown evaluate module 'rouge'.*chinese_rouge"):
        zheval.metric_path("rouge")
