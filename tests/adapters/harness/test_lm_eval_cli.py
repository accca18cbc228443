"""zheval inside the REAL ``lm_eval`` command of lm-evaluation-harness 0.4.13 (its console script, in a subprocess),
offline: the commands of docs/harnesses.md "lm-evaluation-harness: a first run" run verbatim (the stub server of
``examples/lm_eval/serve_stored_predictions.py`` on 127.0.0.1 and lm-eval's own ``local-completions`` client), the
numbers and zheval's signatures in the printed table and in ``results_*.json`` compared with ``zheval.compute_*`` on
the pairs lm-eval scored (its samples file); a task YAML beside a ``zheval/`` folder; a YAML that names zheval's
metrics without any ``!function``. Made from ``shared/realclient/lmeval_check.py``.

Offline: ``HF_*_OFFLINE=1`` and, inside every ``lm_eval`` process, a ``sitecustomize`` guard that refuses any socket
connection or name lookup that is not for this machine and records it; the test fails if one was attempted. Each
``lm_eval`` run takes 10-40 s here, mostly imports.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.commands  # the real lm_eval command, 10-40 s a run: .ci/commands
from helpers import REPO, read_jsonl
from helpers.docs import doc_section

pytest.importorskip("lm_eval", reason="lm-eval is in the test extra (pip install -e '.[test]')")

import zheval  # noqa: E402

LM_EVAL = str(Path(sys.executable).parent / "lm_eval")

GUARD = textwrap.dedent('''
    import os, socket
    _LOCAL = ("127.0.0.1", "::1", "localhost")
    _LOG = os.environ["ZHEVAL_TEST_NETWORK_LOG"]
    def _record(what):
        with open(_LOG, "a", encoding="utf-8") as f:
            f.write(repr(what) + "\\n")
    _connect, _getaddrinfo = socket.socket.connect, socket.getaddrinfo
    def _guarded_connect(sock, address):
        if isinstance(address, tuple) and address[0] not in _LOCAL:
            _record(address)
            raise OSError(f"network access refused by the test: {address!r}")
        return _connect(sock, address)
    def _guarded_getaddrinfo(host, *args, **kwargs):
        if host not in _LOCAL:
            _record(host)
            raise OSError(f"name lookup refused by the test: {host!r}")
        return _getaddrinfo(host, *args, **kwargs)
    socket.socket.connect = _guarded_connect
    socket.getaddrinfo = _guarded_getaddrinfo
''')


@pytest.fixture
def offline_env(tmp_path):
    """The environment of an ``lm_eval`` subprocess: this checkout's zheval first, the network guard, offline HF."""
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(GUARD, encoding="utf-8")
    log = tmp_path / "network.log"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(guard), str(REPO)]), ZHEVAL_TEST_NETWORK_LOG=str(log),
               HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    yield env
    attempts = log.read_text(encoding="utf-8") if log.exists() else ""
    assert not attempts, f"network access attempted inside lm_eval: {attempts}"


def docs_bash_block(heading: str) -> list[str]:
    return re.search(r"```bash\n(.*?)```", doc_section(heading), flags=re.S).group(1).strip().splitlines()


def results_and_samples(out: Path, task: str):
    res = sorted(glob.glob(str(out / "**" / "results_*.json"), recursive=True))[-1]
    samp = sorted(glob.glob(str(out / "**" / f"samples_{task}_*.jsonl"), recursive=True))[-1]
    results = json.loads(Path(res).read_text(encoding="utf-8"))["results"][task]
    samples = sorted((json.loads(line) for line in Path(samp).read_text(encoding="utf-8").splitlines()),
                     key=lambda s: s["doc_id"])
    return Path(res), results, samples


def test_docs_stored_generations_commands_verbatim(tmp_path, offline_env):
    """The docs' three commands, run as written from a copy of the repository's examples folder: lm-eval scores the
    stored predictions; every number equals zheval's on the pairs lm-eval scored, and each metric's zheval
    signature is in the printed table and in results_*.json."""
    serve, run, stop = docs_bash_block("## lm-evaluation-harness: a first run")
    assert serve.endswith(" &") and run.startswith("lm_eval ") and stop == "kill %1"
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    server = subprocess.Popen([sys.executable] + shlex.split(serve[: -len(" &")])[1:], cwd=tmp_path,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith("serving 3 stored predictions on http://127.0.0.1:8765/")
        p = subprocess.run([LM_EVAL] + shlex.split(run)[1:], cwd=tmp_path, env=offline_env, capture_output=True,
                           text=True, timeout=600)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert p.returncode == 0, p.stderr[-3000:]
    path, results, samples = results_and_samples(tmp_path / "lm_eval_out", "zheval_zh_example_stored")
    assert path.parent.name == "stored"  # lm_eval_out/stored/results_*.json, as the docs say
    stored = {json.loads(line)["id"]: json.loads(line)["prediction"] for line in
              (REPO / "examples/lm_eval/zh_example_predictions.jsonl").read_text(encoding="utf-8").splitlines()}
    preds = [s["filtered_resps"][0] for s in samples]
    refs = [s["doc"]["references"] for s in samples]
    assert preds == [stored[s["doc"]["id"]] for s in samples] and len(preds) == 3
    table = p.stdout
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        ours = zheval.compute_rouge(preds, refs, rouge_types=[t])
        assert results[f"zheval_{t}_char,none"] == ours[t]
        assert results[f"zheval_{t}_char_signature,none"] == ours["signature"]
        assert ours["signature"].replace("|", "\\|") in table
    bleu = zheval.compute_bleu(preds, refs)
    assert results["zheval_bleu_char,none"] == bleu["bleu"]
    assert results["zheval_bleu_char_signature,none"] == bleu["signature"]
    assert results["zheval_bleu_char_signature_stderr,none"] == "N/A"
    assert bleu["signature"].replace("|", "\\|") in table


def _task(directory: Path, body: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    rows = read_jsonl("crosswoz_single_turn.jsonl")[:20]
    data = directory / "cw.jsonl"
    data.write_text("".join(json.dumps({"id": r["id"], "query": r["query"], "summary": r["responses"][0]},
                                       ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (directory / "task.yaml").write_text(
        f"task: zh_cw\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: {data}\ntest_split: test\n"
        'output_type: generate_until\ndoc_to_text: "{{query}}"\ndoc_to_target: "{{summary}}"\n'
        "generation_kwargs:\n  until: []\n" + body + "metadata:\n  version: 1.0\n", encoding="utf-8")


def test_a_task_yaml_beside_a_zheval_folder_runs(tmp_path, offline_env):
    """lm-eval's !function resolver first looks for <yaml folder>/zheval/adapters/lm_eval_harness.py (here: a folder
    holding a copy of the package, as a clone's root does); the door is a package, so there is no such file and the
    resolver imports the importable zheval package by name."""
    root = tmp_path / "clone"
    shutil.copytree(REPO / "zheval", root / "zheval", ignore=shutil.ignore_patterns("__pycache__"))
    _task(root, "metric_list:\n  - metric: zheval_bleu_char\n"
                "    aggregation: !function zheval.adapters.lm_eval_harness.bleu_char\n    higher_is_better: true\n"
                "  - metric: zheval_bleu_char_signature\n    aggregation: zheval_bleu_char_signature\n"
                "    higher_is_better: null\n")
    p = subprocess.run([LM_EVAL, "--model", "dummy", "--include_path", str(root), "--tasks", "zh_cw", "--output_path",
                        str(tmp_path / "out"), "--log_samples"], cwd=root, env=offline_env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert not (root / "zheval" / "adapters" / "lm_eval_harness.py").exists()
    _, results, samples = results_and_samples(tmp_path / "out", "zh_cw")
    preds, refs = [s["filtered_resps"][0] for s in samples], [[s["doc"]["summary"]] for s in samples]
    assert set(preds) == {"lol"}  # lm-eval's dummy model
    ours = zheval.compute_bleu(preds, refs)
    assert results["zheval_bleu_char,none"] == ours["bleu"]
    assert results["zheval_bleu_char_signature,none"] == ours["signature"]


def test_a_task_yaml_without_any_function_fails_as_the_docs_say(tmp_path, offline_env):
    """lm-eval never imports zheval for such a YAML (it has no plug-in discovery), so the failure is lm-eval's own;
    the docs' troubleshooting quotes its first line and says what to add."""
    _task(tmp_path / "tasks", "metric_list:\n  - metric: zheval_bleu_char\n    higher_is_better: true\n")
    p = subprocess.run([LM_EVAL, "--model", "dummy", "--include_path", str(tmp_path / "tasks"), "--tasks", "zh_cw"],
                       cwd=tmp_path, env=offline_env, capture_output=True, text=True, timeout=600)
    assert p.returncode != 0
    first = "Could not find registered metric 'zheval_bleu_char' in lm-eval, searching in HF Evaluate library..."
    assert first in p.stderr and "KeyError: None" in p.stderr
    docs = (REPO / "docs" / "harnesses.md").read_text(encoding="utf-8")
    troubleshooting = docs.split("### Troubleshooting", 1)[1].split("\n### ", 1)[0]
    assert first in troubleshooting and "aggregation: !function zheval.adapters.lm_eval_harness.bleu_char" in \
        troubleshooting


def test_names_only_yaml_runs_through_zheval_s_launcher(tmp_path, offline_env):
    """The docs' other fix: the same YAML through ``python -m zheval.adapters.lm_eval_harness.cli`` (lm-eval's own command,
    zheval's metrics registered first) runs, and its number is zheval's."""
    _task(tmp_path / "tasks", "metric_list:\n  - metric: zheval_bleu_char\n    higher_is_better: true\n")
    troubleshooting = " ".join(doc_section("### Troubleshooting").split())
    command = re.search(r"`(python -m zheval\.adapters\.lm_eval_harness\.cli [^`]*)`", troubleshooting).group(1)
    assert command == ("python -m zheval.adapters.lm_eval_harness.cli --model dummy --include_path tasks --tasks zh_cw "
                       "--output_path out --log_samples")
    p = subprocess.run([sys.executable] + shlex.split(command)[1:], cwd=tmp_path, env=offline_env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    _, results, samples = results_and_samples(tmp_path / "out", "zh_cw")
    preds, refs = [s["filtered_resps"][0] for s in samples], [[s["doc"]["summary"]] for s in samples]
    assert results["zheval_bleu_char,none"] == zheval.compute_bleu(preds, refs)["bleu"]
