#!/usr/bin/env python3
"""Check a built Space folder in a fresh virtualenv that holds **only** its requirements (issue 7).

    .venv/bin/python scripts/check_space_venv.py            # both metrics, work dir in a temp folder
    .venv/bin/python scripts/check_space_venv.py --keep /tmp/space-check chinese_rouge

Too slow for the test suite (it installs gradio, datasets, scipy, matplotlib ... from PyPI or the pip cache), so
it is run by hand and its result reported; the suite checks the same folder with the project venv in a fresh
subprocess (tests/repo/test_space_build.py). Steps:

1. ``pip wheel --no-deps`` a copy of the zheval checkout into ``WORK/wheel`` (our library as the Space would get it
   from a release; the checkout itself is never on the new venv's path);
2. ``scripts/build_space.py METRIC WORK/spaces/METRIC --zheval WORK/wheel/zheval-<v>-py3-none-any.whl``;
3. ``python -m venv WORK/venv`` (no ``--system-site-packages``) and ``pip install -r WORK/spaces/METRIC/requirements.txt``
   (timed); then ``pip check``;
4. in that venv, from ``cwd=WORK`` with ``HF_MODULES_CACHE``/``HF_METRICS_CACHE`` in ``WORK`` and
   ``HF_EVALUATE_OFFLINE=HF_HUB_OFFLINE=1``: ``evaluate.load(WORK/spaces/METRIC)`` on real data (``../shared/data``),
   and the folder's ``app.py`` run as the Space would (cwd = the folder, copied to a directory named ``app``), its
   scoring function called on a two-line example;
5. the same numbers computed with the project venv (in-repo module) must be equal (exact float equality).

Exit 0 when every metric passes; prints timings.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("ZHEVAL_SHARED_DATA", REPO.parent / "shared" / "data"))

# Runs inside a venv: loads the metric at argv[1], scores real data, prints JSON. No zheval test helpers needed.
PROBE = r"""
import json, sys
import evaluate
path, data = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(data + "/crosswoz_same_query_groups.jsonl", encoding="utf-8") if l.strip()]
csl = [json.loads(l) for l in open(data + "/csl_ts_test.jsonl", encoding="utf-8") if l.strip()][:300]
m = evaluate.load(path)
out = {"name": m.name, "file": sys.modules[type(m).__module__].__file__}
preds = [g["responses"][0] for g in rows]
refs = [g["responses"][1:] for g in rows]
cp = [r["document"][:20] for r in csl]
cr = [[r["summary"]] for r in csl]
if m.name == "chinese_rouge":
    out["groups"] = m.compute(predictions=preds, references=refs, rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"])
    out["groups_pool_jieba"] = m.compute(predictions=preds, references=refs, tokenizer="jieba", multi_ref="pool")
    out["csl"] = m.compute(predictions=cp, references=cr, use_aggregator=False)
    out["csl_lf"] = m.compute(predictions=cp, references=cr, preset="llamafactory")
    out["csl_155"] = m.compute(predictions=cp, references=cr, preset="rouge155")
else:
    out["groups"] = m.compute(predictions=preds, references=refs)
    out["groups_jieba_sent"] = m.compute(predictions=preds, references=refs, tokenizer="jieba", level="sentence")
    out["csl"] = m.compute(predictions=cp, references=cr)
    out["csl_zh"] = m.compute(predictions=cp, references=cr, preset="sacrebleu-zh")
    out["csl_lf"] = m.compute(predictions=cp, references=cr, preset="llamafactory")
print("PROBE" + json.dumps(out, ensure_ascii=False))
"""

# Runs inside the venv with cwd = the Space folder (named "app", as /home/user/app on a Space).
APP_PROBE = r"""
import json, runpy, sys, os
sys.path.insert(0, os.getcwd())
ns = runpy.run_path("app.py", run_name="space_app_check")
import gradio as gr
assert isinstance(ns["demo"], gr.Blocks), type(ns["demo"])
from zheval.adapters.space import score_rouge, score_bleu
fn = score_rouge if ns["module"].name == "chinese_rouge" else score_bleu
summary, items, sig = fn(ns["module"], "猫坐在垫子上\n今天天气很好", "猫趴在垫子上面\n今天天气不错 ||| 天气很好")
print("APP" + json.dumps({"gradio": gr.__version__, "summary": summary.to_dict("list"),
                          "items": items.to_dict("list"), "signature": sig}, ensure_ascii=False))
"""


def run(cmd, **kw) -> subprocess.CompletedProcess:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, text=True, **kw)


def probe(python: Path, script: str, args: list, cwd: Path, env: dict, tag: str) -> dict:
    res = run([python, "-c", script, *args], cwd=cwd, env=env, capture_output=True)
    line = [ln for ln in res.stdout.splitlines() if ln.startswith(tag)]
    if not line:
        raise RuntimeError(f"no {tag} output; stdout:\n{res.stdout}\nstderr:\n{res.stderr[-3000:]}")
    return json.loads(line[-1][len(tag):])


def clean_env(work: Path, name: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "HF_"))}
    env.update(HF_MODULES_CACHE=str(work / f"hf-{name}" / "modules"), HF_METRICS_CACHE=str(work / f"hf-{name}" / "metrics"),
               HF_DATASETS_CACHE=str(work / f"hf-{name}" / "datasets"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_DATASETS_OFFLINE="1", GRADIO_ANALYTICS_ENABLED="False")
    return env


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics", nargs="*", default=["chinese_rouge", "chinese_bleu"])
    parser.add_argument("--keep", type=Path, help="work directory to use and keep (default: a temp dir, removed)")
    args = parser.parse_args(argv)
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="zheval-space-venv-"))
    work.mkdir(parents=True, exist_ok=True)
    timings = {}
    ok = True
    try:
        t0 = time.perf_counter()
        wheel_dir = work / "wheel"
        shutil.rmtree(wheel_dir, ignore_errors=True)
        # build from a copy, so that setuptools' build/ and *.egg-info never land in the checkout
        src = work / "src"
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                  "__pycache__", ".pytest_cache", ".hypothesis"))
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", wheel_dir, src])
        wheel = next(wheel_dir.glob("zheval-*.whl"))
        timings["wheel"] = time.perf_counter() - t0
        for metric in args.metrics:
            space = work / "spaces" / metric
            run([sys.executable, REPO / "scripts" / "build_space.py", metric, space, "--zheval", wheel, "--force"])
            print((space / "requirements.txt").read_text())
            venv = work / f"venv-{metric}"
            shutil.rmtree(venv, ignore_errors=True)
            t0 = time.perf_counter()
            run([sys.executable, "-m", "venv", venv])
            py = venv / "bin" / "python"
            run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
            run([py, "-m", "pip", "install", "--quiet", "-r", space / "requirements.txt"])
            timings[f"{metric}: venv + pip install"] = time.perf_counter() - t0
            run([py, "-m", "pip", "check"])
            sys_site = subprocess.run([str(py), "-c", "import sys; print(sys.flags.no_site, [p for p in sys.path if 'site-packages' in p])"],
                                      capture_output=True, text=True, check=True).stdout.strip()
            print("venv site-packages:", sys_site)
            frozen = subprocess.run([str(py), "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
            (work / f"freeze-{metric}.txt").write_text(frozen)
            t0 = time.perf_counter()
            fresh = probe(py, PROBE, [space, DATA], work, clean_env(work, metric + "-fresh"), "PROBE")
            timings[f"{metric}: evaluate.load + compute (fresh venv)"] = time.perf_counter() - t0
            repo = probe(Path(sys.executable), PROBE, [REPO / "metrics" / metric, DATA], work,
                         clean_env(work, metric + "-repo"), "PROBE")
            assert Path(fresh["file"]).is_relative_to(work / f"hf-{metric}-fresh"), fresh["file"]
            fresh.pop("file"), repo.pop("file")
            same = fresh == repo
            print(f"{metric}: fresh-venv numbers == in-repo module numbers: {same}")
            ok &= same
            app_dir = work / f"app-{metric}" / "app"
            shutil.rmtree(app_dir.parent, ignore_errors=True)
            shutil.copytree(space, app_dir)
            t0 = time.perf_counter()
            app = probe(py, APP_PROBE, [], app_dir, clean_env(work, metric + "-app"), "APP")
            timings[f"{metric}: app.py build + score (fresh venv)"] = time.perf_counter() - t0
            print(f"{metric}: app.py in the fresh venv (gradio {app['gradio']}): summary {app['summary']}")
            print(f"  per item {app['items']}\n  signature {app['signature']}")
    finally:
        print("\ntimings (s):")
        for k, v in timings.items():
            print(f"  {k}: {v:.1f}")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
