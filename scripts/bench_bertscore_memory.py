#!/usr/bin/env python3
"""Peak memory of zheval.compute_bertscore as the corpus grows: each size runs in a fresh process (peak RSS from
``resource.getrusage``, CPU time beside wall time), on distinct texts built from the embedded 小黄鸭 sample.

    python tests/helpers/tiny_bert.py /tmp/tiny-bert 2          # any local model directory will do
    python scripts/bench_bertscore_memory.py --model /tmp/tiny-bert --layer 2 --sizes 1000 10000 100000

Memory is bounded by the chunk of items scored at once (``zheval.compute.bertscore.CHUNK_ITEMS``), not by the
corpus: the peak RSS of 100,000 items should be that of 10,000 plus the per-item outputs (three floats per item)
and the texts themselves. bert-score's own ``score`` keeps every text's embeddings until the end.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from importlib.resources import files
import torch
import zheval
torch.set_num_threads(1)
n, model, layer = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
pkg = files("zheval") / "data"
rows = [json.loads(x) for x in (pkg / "duck_sample.jsonl").read_text(encoding="utf-8").splitlines()]
preds = [json.loads(x)["prediction"] for x in (pkg / "duck_sample_predictions.jsonl").read_text(encoding="utf-8").splitlines()]
P = [f"{preds[i % len(preds)]}{i}" for i in range(n)]
R = [[f"{rows[i % len(rows)]['responses'][0]}{i}"] for i in range(n)]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0, c0 = time.perf_counter(), time.process_time()
out = zheval.compute_bertscore(P, R, model=model, layer=layer, batch_size=64)
print(json.dumps({"n": n, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rss_before_mb": base / 1024, "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
                  "f1": out["f1"]}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a local model directory")
    parser.add_argument("--layer", type=int, required=True)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args()
    for n in args.sizes:
        res = subprocess.run([sys.executable, "-c", CHILD, str(n), args.model, str(args.layer)], capture_output=True,
                             text=True, check=True)
        print(json.dumps(json.loads(res.stdout.strip().splitlines()[-1])), flush=True)


if __name__ == "__main__":
    main()
