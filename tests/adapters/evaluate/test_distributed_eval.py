"""evaluate's distributed mode with our metric modules: N processes each ``add_batch`` their shard with
``num_process``, ``process_id``, a shared ``experiment_id`` and a shared cache dir; process 0's result must equal the
single-process result exactly (all keys, including the signature), the other ranks get ``None``.

The workers are this file run as a script, one OS process per rank, with the ``RANK``/``WORLD_SIZE`` environment
variables that ``torchrun`` sets — the setting of a hand-written torchrun/accelerate evaluation loop. One run executes
``readme_distributed_snippet.py`` (the README/docs code) verbatim.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

# the repository root; not helpers.REPO: this file also runs as the workers' script, where tests/ is not on sys.path
REPO = Path(__file__).resolve().parents[3]
METRICS = {name: str(REPO / "metrics" / name) for name in ("chinese_bleu", "chinese_rouge")}
SNIPPET = Path(__file__).with_name("readme_distributed_snippet.py")


def worker() -> None:
    """One rank: for each run of the job, load both modules in distributed mode, add this rank's shard batch by
    batch, compute; print the results as one JSON line."""
    # `import evaluate` imports transformers.pipelines when transformers is installed (~11 s of CPU); a metric
    # module does not need it, so keep the workers light (the hook-free loop of a user pays it, correctness does not
    # depend on it)
    sys.modules["transformers.pipelines"] = None  # type: ignore[assignment]
    import evaluate

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    job = json.loads(Path(os.environ["ZHEVAL_JOB"]).read_text(encoding="utf-8"))
    all_results = []
    for run in job["runs"]:
        preds, refs = run["predictions"], run["references"]
        n = len(preds)
        if run["shard"] == "contiguous":  # uneven contiguous blocks
            bounds = [round(n * k / world) for k in range(world + 1)]
            idx = list(range(bounds[rank], bounds[rank + 1]))
        else:  # interleaved, as torch's DistributedSampler
            idx = list(range(rank, n, world))
        if run.get("snippet"):  # the README code, verbatim
            batches = [idx[s : s + 8] for s in range(0, len(idx), 8)]
            ns = runpy.run_path(
                str(SNIPPET),
                init_globals={
                    "metrics_dir": str(REPO / "metrics"),
                    "run_id": run["experiment_id"],
                    "shared_dir": job["cache_dir"],
                    "my_batches": [([preds[i] for i in b], [refs[i] for i in b]) for b in batches],
                },
            )
            all_results.append(ns["results"])
            continue
        results = {}
        for name, path in METRICS.items():
            module = evaluate.load(
                path,
                num_process=world,
                process_id=rank,
                experiment_id=f"{run['experiment_id']}-{name}",
                cache_dir=job["cache_dir"],
                timeout=120,
            )
            for start in range(0, len(idx), 8):  # several add_batch calls per rank
                batch = idx[start : start + 8]
                module.add_batch(predictions=[preds[i] for i in batch], references=[refs[i] for i in batch])
            results[name] = module.compute(**run["options"].get(name, {}), **run["options"].get("shared", {}))
        all_results.append(results)
    print("RESULT " + json.dumps(all_results, ensure_ascii=False), flush=True)


def run_distributed(tmp_path: Path, runs: list[dict], world: int = 2) -> list[list[dict]]:
    """Launch ``world`` worker processes on ``runs``; returns, per rank, the list of per-run results."""
    job = {"runs": [dict(run, experiment_id=uuid.uuid4().hex) for run in runs], "cache_dir": str(tmp_path / "cache")}
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(job, ensure_ascii=False), encoding="utf-8")
    procs = []
    for rank in range(world):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(world), ZHEVAL_JOB=str(job_file))
        procs.append(
            subprocess.Popen(
                [sys.executable, __file__], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
    outs = []
    for rank, proc in enumerate(procs):
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"rank {rank} failed:\n{stderr[-3000:]}"
        line = [l for l in stdout.splitlines() if l.startswith("RESULT ")]
        assert len(line) == 1, stdout
        outs.append(json.loads(line[0][len("RESULT ") :]))
    return outs


def single_process(predictions, references, options: dict) -> dict:
    import evaluate

    out = {}
    for name, path in METRICS.items():
        module = evaluate.load(path)
        out[name] = module.compute(
            predictions=predictions, references=references, **options.get(name, {}), **options.get("shared", {})
        )
    # the JSON round trip of the workers' results (floats round-trip exactly through repr)
    return json.loads(json.dumps(out, ensure_ascii=False))


def items_from_groups(groups):
    """CrossWOZ same-query groups: first response as the prediction, the others as ragged references."""
    preds = [g["responses"][0] for g in groups]
    refs = [g["responses"][1:] for g in groups]
    return preds, refs


@pytest.fixture(scope="module")
def runs(crosswoz_groups, crosswoz_single):
    preds, refs = items_from_groups(crosswoz_groups)
    # plus single-reference items whose prediction is the previous item's response (low, non-trivial overlap)
    single = crosswoz_single[:60]
    mixed_preds = preds + [single[i - 1]["responses"][0] for i in range(len(single))]
    mixed_refs = refs + [[row["responses"][0]] for row in single]
    return {
        "interleaved-readme-snippet": {
            "predictions": mixed_preds,
            "references": mixed_refs,
            "shard": "interleaved",
            "snippet": True,
            "options": {"shared": {"tokenizer": "jieba"}},  # what the snippet passes to compute()
        },
        "contiguous-options-bootstrap": {
            "predictions": preds,
            "references": refs,
            "shard": "contiguous",
            "options": {
                "shared": {"tokenizer": "jieba", "bootstrap": 200, "seed": 7},
                "chinese_bleu": {"max_order": 2, "smooth_method": "floor"},
                "chinese_rouge": {"rouge_types": ["rouge1", "rougeL"], "multi_ref": "mean"},
            },
        },
    }


@pytest.fixture(scope="module")
def distributed(runs, tmp_path_factory):
    """One launch of 2 ranks for all runs (process start-up dominates the cost)."""
    names = list(runs)
    rank0, rank1 = run_distributed(tmp_path_factory.mktemp("dist"), [runs[n] for n in names])
    return {n: (r0, r1) for n, r0, r1 in zip(names, rank0, rank1)}


@pytest.mark.parametrize("run", ["interleaved-readme-snippet", "contiguous-options-bootstrap"])
def test_two_processes_equal_one_process(run, runs, distributed):
    spec = runs[run]
    expected = single_process(spec["predictions"], spec["references"], spec["options"])
    rank0, rank1 = distributed[run]
    assert rank1 == {"chinese_bleu": None, "chinese_rouge": None}
    assert rank0 == expected
    assert 0 < expected["chinese_bleu"]["bleu"] < 1 and 0 < expected["chinese_rouge"]["rougeL"] < 1
    assert "jieba" in expected["chinese_bleu"]["signature"] and "jieba" in expected["chinese_rouge"]["signature"]
    if run.startswith("contiguous"):
        assert expected["chinese_rouge"]["rougeL_ci_low"] < expected["chinese_rouge"]["rougeL_ci_high"]


if __name__ == "__main__":
    worker()
