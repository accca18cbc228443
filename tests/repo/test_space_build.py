"""scripts/build_space.py: the Space folder it writes (files, requirements pins, card header) and evaluate.load on
that folder in a fresh subprocess (own HF caches in a temp dir, cwd elsewhere, offline), which must give exactly the
numbers of the in-repo module on real data.

This uses the project venv for the subprocess. The stricter check -- a new virtualenv holding only the folder's
requirements.txt -- installs gradio & co. and takes minutes, so it is ``scripts/check_space_venv.py``, run by hand.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import evaluate
from helpers import REPO


BUILD = REPO / "scripts" / "build_space.py"
METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf")

# The workload, run identically in the fresh subprocess and here: real CrossWOZ groups (ragged 2-4 references)
# and the first 200 CSL abstracts (lead-20 prediction, title reference), several option sets per metric.
WORKLOAD = r'''
def workload(m, data):
    import json
    rows = [json.loads(l) for l in open(data + "/crosswoz_same_query_groups.jsonl", encoding="utf-8") if l.strip()]
    csl = [json.loads(l) for l in open(data + "/csl_ts_test.jsonl", encoding="utf-8") if l.strip()][:200]
    preds, refs = [g["responses"][0] for g in rows], [g["responses"][1:] for g in rows]
    cp, cr = [r["document"][:20] for r in csl], [[r["summary"]] for r in csl]
    if m.name == "chinese_rouge":
        return {
            "groups": m.compute(predictions=preds, references=refs,
                                rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]),
            "groups_jieba_pool": m.compute(predictions=preds, references=refs, tokenizer="jieba", multi_ref="pool"),
            "csl_items": m.compute(predictions=cp, references=cr, use_aggregator=False),
            "csl_rouge155": m.compute(predictions=cp, references=cr, preset="rouge155"),
        }
    if m.name == "chinese_chrf":
        return {
            "groups": m.compute(predictions=preds, references=refs),
            "groups_jieba_chrfpp": m.compute(predictions=preds, references=refs, tokenizer="jieba", word_order=2),
            "csl_sentence_eps": m.compute(predictions=cp, references=cr, level="sentence", eps_smoothing=True),
        }
    return {
        "groups": m.compute(predictions=preds, references=refs),
        "groups_jieba_sentence": m.compute(predictions=preds, references=refs, tokenizer="jieba", level="sentence"),
        "csl": m.compute(predictions=cp, references=cr),
        "csl_sacrebleu_zh": m.compute(predictions=cp, references=cr, preset="sacrebleu-zh"),
    }
'''
exec(WORKLOAD)  # defines workload() here exactly as in the subprocess

PROBE = WORKLOAD + r'''
import json, sys
import evaluate
out = {}
for path in sys.argv[2:]:
    m = evaluate.load(path)
    out[m.name] = {"file": sys.modules[type(m).__module__].__file__, "results": workload(m, sys.argv[1])}
print("PROBE" + json.dumps(out, ensure_ascii=False))
'''


def _project() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the installed metadata (dev.py reinstalls when pyproject changes)
        return {"version": md.version("zheval"),
                "dependencies": [r for r in md.requires("zheval") or [] if "extra ==" not in r]}
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def _build(metric: str, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BUILD), metric, str(out), *extra], capture_output=True, text=True)


@pytest.fixture(scope="module")
def spaces(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("spaces")
    for metric in METRICS:
        res = _build(metric, root / metric, "--zheval", "git+https://github.com/OWNER/zheval@v0.1.0")
        assert res.returncode == 0, res.stderr
    return root


def _card_yaml(text: str) -> dict:
    import yaml

    return yaml.safe_load(re.match(r"\A---\n(.*?)\n---\n", text, flags=re.S).group(1))


@pytest.mark.parametrize("metric", METRICS)
def test_folder_contents(spaces, metric):
    out = spaces / metric
    assert sorted(p.name for p in out.iterdir()) == sorted([f"{metric}.py", "README.md", "app.py", "requirements.txt"])
    for name in (f"{metric}.py", "README.md", "app.py"):
        assert (out / name).read_bytes() == (REPO / "metrics" / metric / name).read_bytes(), name


@pytest.mark.parametrize("metric", METRICS)
def test_requirements_pin_our_library_and_the_tested_versions(spaces, metric):
    lines = [ln for ln in (spaces / metric / "requirements.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0] == "git+https://github.com/OWNER/zheval@v0.1.0"
    pins = dict(ln.split("==") for ln in lines[1:])
    sdk_version = str(_card_yaml((REPO / "metrics" / metric / "README.md").read_text(encoding="utf-8"))["sdk_version"])
    assert pins.pop("gradio") == sdk_version
    # evaluate, datasets and every runtime dependency of zheval, each at the installed (tested) version
    deps = _project()["dependencies"]
    wanted = {"evaluate", "datasets"} | {re.match(r"[A-Za-z0-9._-]+", d).group(0) for d in deps}
    assert set(pins) == wanted
    for name, version in pins.items():
        assert version == md.version(name), name
    # the metric script's own column-0 imports are covered (evaluate's import check at load time)
    script = (REPO / "metrics" / metric / f"{metric}.py").read_text()
    imported = set(re.findall(r"^(?:import|from) ([A-Za-z_]+)", script, flags=re.M)) - {"zheval"}
    assert imported <= set(pins), imported - set(pins)


def test_default_zheval_pin_is_the_project_version(tmp_path):
    res = _build("chinese_bleu", tmp_path / "chinese_bleu")
    assert res.returncode == 0, res.stderr
    reqs = (tmp_path / "chinese_bleu" / "requirements.txt").read_text().splitlines()
    version = _project()["version"]
    assert f"zheval=={version}" in reqs


def test_refuses_a_badly_named_or_foreign_folder(tmp_path):
    res = _build("chinese_rouge", tmp_path / "space")
    assert res.returncode == 2 and "OUT_DIR must be named 'chinese_rouge'" in res.stderr
    out = tmp_path / "chinese_rouge"
    assert _build("chinese_rouge", out).returncode == 0
    res = _build("chinese_rouge", out)
    assert res.returncode == 2 and "pass --force" in res.stderr
    assert _build("chinese_rouge", out, "--force").returncode == 0
    (out / "notes.txt").write_text("mine")
    res = _build("chinese_rouge", out, "--force")
    assert res.returncode == 2 and "notes.txt" in res.stderr and (out / "notes.txt").exists()


def test_evaluate_load_on_the_folder_in_a_fresh_process_gives_the_repo_numbers(shared_data_dir, spaces, tmp_path):
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("PYTHONPATH")}
    env.update(HF_MODULES_CACHE=str(tmp_path / "modules"), HF_METRICS_CACHE=str(tmp_path / "metrics"),
               HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1")
    res = subprocess.run([sys.executable, "-c", PROBE, str(shared_data_dir), *(str(spaces / m) for m in METRICS)],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    fresh = json.loads(next(ln for ln in res.stdout.splitlines() if ln.startswith("PROBE"))[len("PROBE"):])
    for metric in METRICS:
        # the subprocess ran the copy evaluate made of the Space folder's script, in its own temp cache
        loaded = Path(fresh[metric]["file"])
        assert loaded.is_relative_to(tmp_path / "modules") and loaded.name == f"{metric}.py"
        assert loaded.read_bytes() == (spaces / metric / f"{metric}.py").read_bytes()
        here = workload(evaluate.load(str(REPO / "metrics" / metric)), str(shared_data_dir))
        assert fresh[metric]["results"] == json.loads(json.dumps(here, ensure_ascii=False)), metric
