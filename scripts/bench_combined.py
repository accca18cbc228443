#!/usr/bin/env python3
"""Time ``zheval.score`` (ROUGE and BLEU in one call, one tokenisation) against ``compute_rouge`` alone (issue 8:
"both metrics in one call <= ROUGE time + 30%"), and against ``compute_rouge`` + ``compute_bleu``.

    .venv/bin/python scripts/bench_combined.py                 # W1, 5 interleaved repetitions
    .venv/bin/python scripts/bench_combined.py --workload W1-unique --repeats 3

Same workloads as ``scripts/bench.py`` (``scripts/bench_workloads.py``), same options (char tokenizer, rouge1/2/L/
Lsum, ``multi_ref="max"``, ``sentence_split="newline"``). Each repetition runs in a fresh child process with an
empty token cache (the three variants interleaved, rotated); medians of CPU time (``time.process_time``) and wall
time are reported with the load average. Before timing, the results of ``score`` are checked to equal the separate
calls exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ROUGE_KW = {"rouge_types": ["rouge1", "rouge2", "rougeL", "rougeLsum"], "tokenizer": "char", "multi_ref": "max",
            "sentence_split": "newline"}
VARIANTS = ("rouge", "rouge+bleu", "score")


def child(variant: str, workload: str, data_dir: str) -> dict:
    import gc
    import time

    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT))
    import bench_workloads

    import zheval
    from zheval.compute.bleu import compute_bleu
    from zheval.compute.rouge import compute_rouge
    from zheval.tokenizers import clear_cache

    w = bench_workloads.build(workload, Path(data_dir), 1.0)
    preds, refs = w["predictions"], w["references"]

    def run():
        if variant == "rouge":
            return compute_rouge(preds, refs, **ROUGE_KW)
        if variant == "rouge+bleu":
            return {"rouge": compute_rouge(preds, refs, **ROUGE_KW), "bleu": compute_bleu(preds, refs, tokenizer="char")}
        return zheval.score(preds, refs, metrics=("rouge", "bleu"), **ROUGE_KW)

    zheval.score(preds[:3], refs[:3], **ROUGE_KW)  # warm-up (imports, regex compilation)
    clear_cache()
    gc.collect()
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    out = run()
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    check = None
    if variant == "score":
        clear_cache()
        sep = {"rouge": compute_rouge(preds, refs, **ROUGE_KW), "bleu": compute_bleu(preds, refs, tokenizer="char")}
        check = out == sep
    return {"cpu": cpu, "wall": wall, "load": load, "equal": check}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workload", default="W1")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.workload, args.data_dir)))
        return 0
    runs: dict = {v: [] for v in VARIANTS}
    for rep in range(args.repeats):
        order = VARIANTS[rep % 3:] + VARIANTS[:rep % 3]
        for v in order:
            proc = subprocess.run([sys.executable, __file__, "--child", v, "--workload", args.workload,
                                   "--data-dir", args.data_dir], capture_output=True, text=True, cwd=ROOT,
                                  env=dict(os.environ, PYTHONHASHSEED="0"))
            if proc.returncode:
                print(proc.stderr, file=sys.stderr)
                return 3
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            if r["equal"] is False:
                print("DISAGREEMENT: zheval.score differs from compute_rouge + compute_bleu", file=sys.stderr)
                return 2
            runs[v].append(r)
            print(f"  rep {rep + 1} {v:10s} {r['wall']:7.3f} s wall {r['cpu']:7.3f} s cpu load {r['load']:.2f}", flush=True)
    med = {v: {k: statistics.median(r[k] for r in rs) for k in ("cpu", "wall")} for v, rs in runs.items()}
    print(f"\n### {args.workload}: medians of {args.repeats} interleaved runs")
    print("| variant | CPU s | wall s | / rouge (CPU) | / rouge (wall) |\n|---|---:|---:|---:|---:|")
    for v in VARIANTS:
        print(f"| {v} | {med[v]['cpu']:.3f} | {med[v]['wall']:.3f} | {med[v]['cpu'] / med['rouge']['cpu']:.2f} | "
              f"{med[v]['wall'] / med['rouge']['wall']:.2f} |")
    loads = [r["load"] for rs in runs.values() for r in rs]
    print(f"1-min load average: min {min(loads):.2f}, median {statistics.median(loads):.2f}, max {max(loads):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
