"""Benchmark (not a test): BLEU+ROUGE of N items through zheval.score in one process, through Ray
(zheval.adapters.ray.score_dataset, ray.init(num_cpus=2)) and through Spark (zheval.adapters.spark.score_dataframe,
local[2]): wall time, the driver's memory, the size of what comes back to the driver and the merge cost.

The items are the shared real data (CrossWOZ same-query groups as leave-one-out items, CrossWOZ single turns, CSL
abstracts vs titles) repeated to N rows and written once to a Parquet file; each engine reads that file on its
workers, so no text passes through its driver. Each (engine, N) runs in a fresh process; memory is that process's
resident set (``VmRSS``, sampled every 20 ms): ``base`` after the engine started, ``peak`` during the scoring call.
The merge cost is the driver's own work: unpickling the records, ``ScoreItems.concat`` and ``score_result``.
Numbers are checked ``==`` zheval.score on the same rows.

Run with the engines' venv (ray, pyspark and pyarrow installed), from the repository root:

    /work/venvs/engines/bin/python scripts/bench_engines.py --rows 50000 200000 --engines one ray spark

It prints one JSON line per run and a Markdown table; the machine's load average is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Row groups of the Parquet file, blocks of the Ray Dataset, partitions of the Spark DataFrame.
BLOCKS = 16
DATA = Path(os.environ.get("ZHEVAL_SHARED_DATA") or REPO.parent / "shared" / "data")


def real_items():
    preds, refs = [], []
    with open(DATA / "crosswoz_same_query_groups.jsonl", encoding="utf-8") as fh:
        for line in fh:
            resp = json.loads(line)["responses"]
            for k in range(len(resp)):
                preds.append(resp[k])
                refs.append(resp[:k] + resp[k + 1:])
    with open(DATA / "crosswoz_single_turn.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            preds.append(row["query"])
            refs.append(list(row["responses"]))
    with open(DATA / "csl_ts_test.jsonl", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            row = json.loads(line)
            preds.append(row["document"][: max(1, len(row["summary"]) + (i % 9) - 4)])
            refs.append([row["summary"]])
    return preds, refs


def write_parquet(n: int, path: Path) -> None:
    """N rows as :data:`BLOCKS` Parquet files in the folder ``path`` (``part-00.parquet`` ...: row order = file
    order), so each engine reads them as that many blocks / partitions."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    preds, refs = real_items()
    idx = [i % len(preds) for i in range(n)]
    table = pa.table({"prediction": [preds[i] for i in idx], "references": [refs[i] for i in idx],
                      "source": [i % 3 for i in range(n)]})
    path.mkdir(parents=True)
    step = -(-n // BLOCKS)
    for k in range(BLOCKS):
        pq.write_table(table.slice(k * step, step), path / f"part-{k:02d}.parquet")


def read_rows(path: Path):
    """The rows of the folder, in file order (one table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    return pa.concat_tables([pq.read_table(p) for p in sorted(path.glob("*.parquet"))])


class RssSampler:
    """The peak resident set of this process while it runs (``/proc/self/status`` VmRSS, every 20 ms)."""

    def __init__(self):
        self.peak = rss_mb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb())

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def timed_reduce(module):
    """Wrap ``module.reduce_records`` so that it first drains the records (waiting on the engine) and then times
    its own work: the merge cost, and the bytes that came back."""
    original = module.reduce_records
    stats = {}

    def wrapper(records, request, engine):
        blobs = list(records)
        stats["record_bytes"] = sum(len(b) for b in blobs)
        stats["records"] = len(blobs)
        t = time.perf_counter()
        out = original(blobs, request, engine)
        stats["merge_s"] = time.perf_counter() - t
        return out

    module.reduce_records = wrapper
    return stats


def run_one(engine: str, path: Path, n: int) -> dict:
    import zheval

    out = {"engine": engine, "rows": n}
    t0 = time.perf_counter()
    if engine == "one":
        out["start_s"] = 0.0
        out["base_mb"] = rss_mb()
        with RssSampler() as mem:
            t = time.perf_counter()
            table = read_rows(path)
            preds = table.column("prediction").to_pylist()
            refs = table.column("references").to_pylist()
            result = zheval.score(preds, refs)
            out["score_s"] = time.perf_counter() - t
        out["peak_mb"] = mem.peak
    elif engine == "ray":
        import ray
        import ray.data

        import zheval.adapters.ray as adapter

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        # Ray reads these small files as one block: repartition (on the workers) so that 16 tasks score them
        ds = ray.data.read_parquet(sorted(str(p) for p in path.glob("*.parquet"))).repartition(BLOCKS)
        out["start_s"] = time.perf_counter() - t0
        stats = timed_reduce(adapter)
        out["base_mb"] = rss_mb()
        with RssSampler() as mem:
            t = time.perf_counter()
            result = adapter.score_dataset(ds)
            out["score_s"] = time.perf_counter() - t
        out["peak_mb"] = mem.peak
        out.update(stats)
    else:
        os.environ["PYSPARK_PYTHON"] = sys.executable
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
        from pyspark.sql import SparkSession

        import zheval.adapters.spark as adapter

        spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                 .config("spark.sql.shuffle.partitions", "2")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.read.parquet(*sorted(str(p) for p in path.glob("*.parquet")))
        out["start_s"] = time.perf_counter() - t0
        stats = timed_reduce(adapter)
        out["base_mb"] = rss_mb()
        with RssSampler() as mem:
            t = time.perf_counter()
            result = adapter.score_dataframe(df)
            out["score_s"] = time.perf_counter() - t
        out["peak_mb"] = mem.peak
        out.update(stats)
        out["partitions"] = df.rdd.getNumPartitions()
    if engine != "one":
        table = read_rows(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = zheval.score(table.column("prediction").to_pylist(), table.column("references").to_pylist())
        out["equal_to_score"] = result == want
    out["bleu"] = result["bleu"]["bleu"]
    out["rougeL"] = result["rouge"]["rougeL"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[50_000, 200_000])
    parser.add_argument("--engines", nargs="+", default=["one", "ray", "spark"], choices=["one", "ray", "spark"])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/zheval-bench-engines"))
    parser.add_argument("--child", nargs=3, metavar=("ENGINE", "PATH", "ROWS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, path, n = args.child
        print(json.dumps(run_one(engine, Path(path), int(n))), flush=True)
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    results = []
    for n in args.rows:
        path = args.workdir / f"items-{n}"
        if not path.exists():
            write_parquet(n, path)
        for engine in args.engines:
            load = os.getloadavg()[0]
            proc = subprocess.run([sys.executable, __file__, "--child", engine, str(path), str(n)], cwd=REPO,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"{engine} {n}: failed\n{proc.stderr[-3000:]}")
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            row["load_before"] = round(load, 1)
            row["load_after"] = round(os.getloadavg()[0], 1)
            print(json.dumps(row), flush=True)
            results.append(row)
    print("\n| engine | rows | start (s) | score (s) | driver RSS base → peak (MB) | back to driver (MB) | records |"
          " merge (s) | == score | load avg (1 min, before/after) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        back = f"{r['record_bytes'] / 2**20:.1f}" if "record_bytes" in r else "-"
        print(f"| {r['engine']} | {r['rows']:,} | {r['start_s']:.1f} | {r['score_s']:.1f} | "
              f"{r['base_mb']:.0f} → {r['peak_mb']:.0f} | {back} | {r.get('records', '-')} | "
              f"{r.get('merge_s', 0):.2f} | {r.get('equal_to_score', '-')} | {r['load_before']}/{r['load_after']} |")
    print(f"\ncores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
