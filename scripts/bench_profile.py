#!/usr/bin/env python3
"""Profile one of our implementations on a benchmark workload (cProfile, sorted by own time).

    .venv/bin/python scripts/bench_profile.py zheval-rouge W1
    .venv/bin/python scripts/bench_profile.py zheval-bleu W1 --top 25 --sort cumulative
    .venv/bin/python scripts/bench_profile.py zheval-rouge W2-200

Same workloads and the same calls as ``scripts/bench.py`` (``bench_impls.IMPLS``): one warm-up call, the token
cache cleared, one unprofiled run (its CPU time is printed), the cache cleared again, then one profiled run.
cProfile inflates Python-level call overhead several times, so read the shares, not the absolute seconds.
To profile another revision: ``git archive REV zheval metrics | tar -x -C /tmp/rev`` and set
``ZHEVAL_BENCH_SRC=/tmp/rev``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, os.environ.get("ZHEVAL_BENCH_SRC") or str(HERE.parent))  # profile a snapshot: set this

import bench_impls  # noqa: E402
import bench_workloads  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("impl", choices=list(bench_impls.IMPLS))
    ap.add_argument("workload", choices=["W1", "W1-unique", "W2-200", "W2-2000"])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--sort", default="tottime")
    ap.add_argument("--data-dir", default=str(HERE.parent.parent / "shared" / "data"))
    args = ap.parse_args(argv)

    from zheval.tokenizers import clear_cache

    w = bench_workloads.build(args.workload, Path(args.data_dir), args.scale)
    setup = bench_impls.IMPLS[args.impl][1]
    run = setup(w)[0]
    run()
    clear_cache()
    c0 = time.process_time()
    run()
    print(f"{args.impl} on {args.workload} ({w['stats']['items']} items): {time.process_time() - c0:.3f} s CPU unprofiled")
    clear_cache()
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats(args.sort).print_stats(args.top)
    print(s.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
