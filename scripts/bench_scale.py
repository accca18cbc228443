"""Benchmark (not a test): scoring at scale on DISTINCT texts -- the one-process streaming door
(zheval.score_batches over a JSONL file read in chunks; ``cli``: ``zheval score --stream`` on the file, the whole
report), zheval.score on the whole list (the in-memory baseline),
Ray (zheval.adapters.ray.score_dataset) and Spark (zheval.adapters.spark.score_dataframe) -- at 200k, 1M and 2M rows:
wall time, CPU time, peak RSS of the driver and of the workers, bytes that reach the driver, partitions; then the
estimate on paper for 1 billion rows on 100 nodes from the measured per-row costs.

Distinct texts: every row is a deterministic recombination of clauses of the shared real data (CSL abstracts and
titles, CrossWOZ turns), drawn by ``random.Random(row index)``: a prediction of 2-4 clauses and 1-3 references, each
the prediction with clauses replaced, dropped or reordered -- so no two rows repeat and the tokenizer's
content-keyed cache cannot hide the cost (the mistake of the earlier "2.5 KB a row" figure).

Each (door, rows) runs in a fresh process. Memory: VmRSS sampled every 20 ms (the driver), and for the engines the
largest VmRSS of any other process of the machine's zheval workers (Ray workers, Spark's Python workers and JVM),
sampled the same way. Run from the repository root; the engines need their venv (ray, pyspark):

    python scripts/bench_scale.py --rows 200000 1000000 2000000 --doors stream cli
    /var/tmp/zheval-ci/engines-*/bin/python scripts/bench_scale.py --rows 200000 --doors ray spark

Prints one JSON line per run and a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("ZHEVAL_SHARED_DATA") or REPO.parent / "shared" / "data")
BLOCKS = 16
_CUT = re.compile(r"[，。；！？,.;!?、：:]+")


def clauses() -> list:
    """Clauses (4-30 characters) of the shared data, in file order."""
    out = []
    for name, fields in (("csl_ts_test.jsonl", ("document", "summary")),
                         ("crosswoz_single_turn.jsonl", ("query", "responses")),
                         ("crosswoz_same_query_groups.jsonl", ("responses",))):
        with open(DATA / name, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                for f in fields:
                    values = row[f] if isinstance(row[f], list) else [row[f]]
                    for v in values:
                        out += [c.strip() for c in _CUT.split(v) if 4 <= len(c.strip()) <= 30]
    return list(dict.fromkeys(out))


def make_row(i: int, pool: list) -> dict:
    """Row ``i``: a function of ``i`` and the pool only."""
    rng = random.Random(i)
    pred = [rng.choice(pool) for _ in range(rng.randint(2, 4))]
    refs = []
    for _ in range(rng.randint(1, 3)):
        ref = list(pred)
        for _ in range(rng.randint(1, 2)):
            k = rng.randrange(len(ref))
            roll = rng.random()
            if roll < 0.5:
                ref[k] = rng.choice(pool)
            elif roll < 0.7 and len(ref) > 1:
                del ref[k]
            else:
                rng.shuffle(ref)
        refs.append("，".join(ref) + "。")
    return {"id": f"row-{i}", "prediction": "，".join(pred) + "。", "references": refs, "source": i % 3}


def write_data(n: int, workdir: Path) -> Path:
    """``rows-N.jsonl`` and ``rows-N/part-XX.parquet`` (:data:`BLOCKS` files, row order = file order)."""
    jsonl = workdir / f"rows-{n}.jsonl"
    folder = workdir / f"rows-{n}"
    if jsonl.exists() and folder.exists():
        return jsonl
    import pyarrow as pa
    import pyarrow.parquet as pq

    pool = clauses()
    folder.mkdir(parents=True, exist_ok=True)
    step = -(-n // BLOCKS)
    with open(jsonl, "w", encoding="utf-8") as fh:
        for k in range(BLOCKS):
            rows = [make_row(i, pool) for i in range(k * step, min(n, (k + 1) * step))]
            fh.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
            pq.write_table(pa.Table.from_pylist(rows), folder / f"part-{k:02d}.parquet")
    return jsonl


def rss_mb(pid="self") -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def worker_pids() -> list:
    """Processes of this user that are engine workers (Ray workers/raylet, Spark's JVM and Python workers)."""
    me, out = os.getpid(), []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == me:
            continue
        try:
            cmd = open(f"/proc/{d}/cmdline", "rb").read().replace(b"\0", b" ")
        except OSError:
            continue
        if any(k in cmd for k in (b"ray::", b"default_worker.py", b"raylet", b"pyspark.daemon", b"pyspark.worker",
                                  b"org.apache.spark", b"gcs_server")):
            out.append(d)
    return out


def cpu_of(pid) -> float:
    """CPU seconds of a process and of its waited-for children (utime, stime, cutime, cstime); 0 if gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Sampler:
    """Peak VmRSS of this process and of the largest engine worker, every 20 ms; the workers' CPU seconds during
    the run (processes alive at the start count from their CPU then; forked workers through their parent)."""

    def __init__(self, workers: bool):
        self.peak = rss_mb()
        self.worker_peak = 0.0
        self.workers = workers
        self.cpu_start = {p: cpu_of(p) for p in worker_pids()} if workers else {}
        self.cpu_last = dict(self.cpu_start)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        tick = 0
        pids = worker_pids() if self.workers else []
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb())
            if self.workers:
                tick += 1
                if tick % 50 == 0:
                    pids = worker_pids()
                self.worker_peak = max([self.worker_peak] + [rss_mb(p) for p in pids])
                if tick % 25 == 0:
                    for p in pids:
                        self.cpu_last[p] = max(self.cpu_last.get(p, 0.0), cpu_of(p))

    @property
    def worker_cpu(self) -> float:
        """CPU seconds the workers spent during the run."""
        return sum(v - self.cpu_start.get(p, 0.0) for p, v in self.cpu_last.items())

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())
        for p in list(self.cpu_last) + (worker_pids() if self.workers else []):
            self.cpu_last[p] = max(self.cpu_last.get(p, 0.0), cpu_of(p))


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_stream(path: Path, out: dict) -> dict:
    import zheval
    from zheval.io.chunks import iter_row_chunks

    def batches():
        for chunk in iter_row_chunks(path, chunk_rows=10_000):
            yield [r["prediction"] for _, r in chunk], [r["references"] for _, r in chunk]

    with Sampler(False) as mem:
        t, c = time.perf_counter(), cpu_s()
        result = zheval.score_batches(batches(), progress=False)
        out["score_s"], out["cpu_s"] = time.perf_counter() - t, cpu_s() - c
    out["peak_mb"], out["back_bytes"], out["partitions"] = mem.peak, 0, "-"
    return result


def run_score(path: Path, out: dict) -> dict:
    import zheval

    with Sampler(False) as mem:
        t, c = time.perf_counter(), cpu_s()
        preds, refs = [], []
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                preds.append(row["prediction"])
                refs.append(row["references"])
        result = zheval.score(preds, refs)
        out["score_s"], out["cpu_s"] = time.perf_counter() - t, cpu_s() - c
    out["peak_mb"], out["back_bytes"], out["partitions"] = mem.peak, 0, "-"
    return result


def _request(dumps):
    from zheval.adapters.engine_batches import BatchRequest, pack_request
    from zheval.compute.joint import score_config

    return pack_request(BatchRequest(score_config(("bleu", "rouge")), "prediction", "references"), dumps, "bench")


def run_engine(engine: str, path: Path, out: dict) -> dict:
    """The engine's sums reduction (what its door runs for options that need only sums): map on the workers, the
    engine's own aggregation, one merged record to the driver."""
    folder = path.with_suffix("")
    files = sorted(str(p) for p in folder.glob("*.parquet"))
    t0 = time.perf_counter()
    stats: dict = {}
    if engine == "ray":
        import ray
        import ray.cloudpickle
        import ray.data

        from zheval.adapters.ray_reduce import reduce_dataset

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        ds = ray.data.read_parquet(files).select_columns(["prediction", "references"])
        packed = _request(ray.cloudpickle.dumps)
        call = lambda: reduce_dataset(ds, packed, stats=stats)  # noqa: E731
        out["partitions"] = f"{BLOCKS} files"
    else:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
        from pyspark.sql import SparkSession
        import pyspark.cloudpickle

        from zheval.adapters.spark_reduce import reduce_dataframe

        spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                 .config("spark.driver.memory", "1g").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.read.parquet(*files).select("prediction", "references")
        out["partitions"] = df.rdd.getNumPartitions()
        packed = _request(pyspark.cloudpickle.dumps)
        call = lambda: reduce_dataframe(df, packed, stats=stats)  # noqa: E731
    out["start_s"] = time.perf_counter() - t0
    out["base_mb"] = rss_mb()
    with Sampler(True) as mem:
        t, c = time.perf_counter(), cpu_s()
        result = call()
        out["score_s"], out["cpu_s"] = time.perf_counter() - t, cpu_s() - c
    out["peak_mb"], out["worker_peak_mb"] = mem.peak, mem.worker_peak
    out["worker_cpu_s"] = mem.worker_cpu
    out["back_bytes"] = stats["bytes_to_driver"]
    return result


def run_cli(path: Path, out: dict) -> dict:
    """``zheval score -p rows.jsonl --stream -f json`` (records, 3 groups, Poisson bootstrap 1000, diversity) in its
    own process: wall and CPU time and peak RSS (``ru_maxrss``) of that process."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "zheval", "score", "-p", str(path), "--stream", "--group-field",
                           "source", "-q", "-f", "json"], cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"zheval score --stream failed\n{proc.stderr[-3000:]}")
    out["score_s"] = time.perf_counter() - t
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    out["cpu_s"], out["peak_mb"] = r.ru_utime + r.ru_stime, r.ru_maxrss / 1024
    out["back_bytes"], out["partitions"] = 0, "-"
    groups = json.loads(proc.stdout)["groups"][0]["scores"]
    return {"bleu": {"bleu": groups["bleu"]["value"]}, "rouge": {"rougeL": groups["rougeL"]["value"]}}


def run_child(door: str, path: Path, n: int) -> dict:
    out = {"door": door, "rows": n, "base_mb": rss_mb()}
    if door == "cli":
        result = run_cli(path, out)
    elif door == "stream":
        result = run_stream(path, out)
    elif door == "score":
        result = run_score(path, out)
    else:
        result = run_engine(door, path, out)
    out["bleu"], out["rougeL"] = result["bleu"]["bleu"], result["rouge"]["rougeL"]
    return out


def paper_estimate(rows: list) -> list:
    """1 billion rows on 100 nodes from the largest measured run of each door: per-row CPU seconds x 1e9 spread
    over 100 nodes (of this machine's 2 cores each, and of 32 cores), plus what the driver receives."""
    lines = []
    best = {}
    for r in rows:
        if r["door"] in ("stream", "ray", "spark") and r["rows"] >= best.get(r["door"], {}).get("rows", 0):
            best[r["door"]] = r
    for door, r in best.items():
        cpu_row = (r["cpu_s"] + r.get("worker_cpu_s", 0.0)) / r["rows"]
        core_hours = cpu_row * 1e9 / 3600
        lines.append(f"- {door}: {cpu_row * 1e6:.0f} µs of CPU a row (from {r['rows']:,} rows) -> 1e9 rows = "
                     f"{core_hours:,.0f} core-hours: {core_hours / 200:.1f} h on 100 nodes x 2 cores, "
                     f"{core_hours / 3200 * 60:.0f} min on 100 nodes x 32 cores")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 1_000_000, 2_000_000])
    parser.add_argument("--doors", nargs="+", default=["stream"], choices=["cli", "stream", "score", "ray", "spark"])
    parser.add_argument("--workdir", type=Path, default=Path("/var/tmp/zheval-bench-scale"))
    parser.add_argument("--child", nargs=3, metavar=("DOOR", "PATH", "ROWS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        door, path, n = args.child
        print(json.dumps(run_child(door, Path(path), int(n))), flush=True)
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    results = []
    for n in args.rows:
        path = write_data(n, args.workdir)
        for door in args.doors:
            load = os.getloadavg()[0]
            proc = subprocess.run([sys.executable, __file__, "--child", door, str(path), str(n)], cwd=REPO,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"{door} {n}: failed\n{proc.stderr[-3000:]}")
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            row["load"] = f"{load:.1f}/{os.getloadavg()[0]:.1f}"
            print(json.dumps(row), flush=True)
            results.append(row)
    print("\n| door | rows | wall (s) | driver CPU (s) | workers CPU (s) | driver peak RSS (MB) |"
          " worker peak RSS (MB) | bytes to driver | partitions | load (before/after) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        wcpu = f"{r['worker_cpu_s']:.0f}" if "worker_cpu_s" in r else "-"
        wrss = f"{r['worker_peak_mb']:.0f}" if "worker_peak_mb" in r else "-"
        print(f"| {r['door']} | {r['rows']:,} | {r['score_s']:.0f} | {r['cpu_s']:.0f} | {wcpu} | {r['peak_mb']:.0f} | "
              f"{wrss} | {r['back_bytes']} | {r['partitions']} | {r['load']} |")
    print("\nEstimate on paper, 1 billion rows on 100 nodes:")
    print("\n".join(paper_estimate(results)))
    print(f"\ncores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
