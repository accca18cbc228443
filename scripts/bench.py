#!/usr/bin/env python3
"""Benchmark zheval's Chinese ROUGE and BLEU against rouge-score, rouge-score-rs, sacrebleu and nltk (issue 8).

Run from the repository root, after ``python3 dev.py test`` has built ``.venv`` (peers come with the ``bench`` and
``test`` extras)::

    .venv/bin/python scripts/bench.py                 # full run: W1, W2-200, W2-2000, medians of 5 (~25 min)
    .venv/bin/python scripts/bench.py --quick         # smoke run: 1/10 of the items, 2 repetitions (~1 min)
    .venv/bin/python scripts/bench.py --only 'zheval-*,rouge-score-rs/*' --workloads W1 --repeats 3
    .venv/bin/python scripts/bench.py --list          # the implementations

What it does
    1. builds deterministic workloads from ``../shared/data`` (``scripts/bench_workloads.py``; their sha256
       fingerprints are printed, so two runs can be checked to have timed the same inputs);
    2. runs every (implementation, repetition) in a **fresh child process** (``scripts/bench_impls.py`` says what
       each one does): setup (imports, scorer construction, ``evaluate.load``) is not timed; the child clears
       zheval's token cache, resets its peak-RSS counter, then times ``run()`` with ``perf_counter`` (wall) and
       ``process_time`` (CPU of that process) and reports the peak RSS reached during the run;
    3. interleaves repetitions (A B C, B C A, C A B, ... — each round rotated by one so no implementation always
       runs first or right after a heavy one) and reports **medians**;
    4. before printing any time, asserts that the numbers agree where they must (max |diff| <= 1e-12):
       our ROUGE-1/2/L/Lsum (P, R, F, per item and mean) vs rouge-score and rouge-score-rs given our tokenizer;
       our BLEU vs sacrebleu ``tokenize="none"`` on our tokens and vs nltk ``corpus_bleu``; our
       ``preset="sacrebleu-zh"`` vs sacrebleu ``tokenize="zh"`` on raw text; the evaluate modules vs the library
       calls; the bit-parallel LCS vs the O(m·n) DP. A disagreement aborts (exit 2) with the offending values.

Noise: timings are wall-clock on a shared 2-core machine. The child's CPU time and the 1-minute load average at
each run are reported next to the wall times; when wall >> CPU, other processes were competing. Ratios are
computed from medians of the same run (so a slow period affects both sides of most ratios alike, thanks to the
interleaving).

The code: this file is the command line and the parent (workloads, snapshot, scheduling); ``bench_child.py`` the timed
child, ``bench_report.py`` the agreement check and the tables, ``bench_impls.py`` (with its ``bench_impls_*.py``)
the implementations, ``bench_workloads.py`` the workloads; the children run copies of all of them.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import pickle
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, os.environ.get("ZHEVAL_BENCH_SRC") or str(ROOT))

import bench_impls  # noqa: E402
import bench_workloads  # noqa: E402
from bench_child import child_main  # noqa: E402
from bench_report import (_maxdiff, check_agreement, print_summary, print_summary_17, print_summary_26,  # noqa: E402
                          print_workload_table)

DEFAULT_WORKLOADS = ["W1", "W2-200", "W2-2000", "W3", "L100k", "L10kx10"]
SNAPSHOT = ""  # set by main(): folder holding the snapshot of zheval/ and metrics/ under test
CHILD_SCRIPT = ""  # set by main(): a copy of this script (and its helpers) that the children run
CHILD_ENV = {
    "PYTHONHASHSEED": "0",
    "RAYON_NUM_THREADS": "1",  # rouge-score-rs: one process, one thread (score_multi is serial anyway)
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "HF_EVALUATE_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


# ---------------------------------------------------------------------------------------------------------------
# parent


def source_hash(base: Path) -> str:
    """sha256 (12 hex) of every ``.py``/``.txt``/``.jsonl`` file under ``base/zheval`` and ``base/metrics``."""
    import hashlib

    h = hashlib.sha256()
    for sub in ("zheval", "metrics"):
        for f in sorted((base / sub).rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix in (".py", ".txt", ".jsonl", ".md"):
                h.update(str(f.relative_to(base)).encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:12]


def snapshot_sources(dest: Path, rev: str) -> str:
    """Copy zheval/ and metrics/ to ``dest`` -- from git revision ``rev`` (``git archive``), or from the working tree
    when ``rev == "worktree"`` -- so the code under test stays fixed even if the tree changes during the run; return
    their source hash."""
    import io
    import shutil
    import tarfile

    dest.mkdir(parents=True, exist_ok=True)
    if rev == "worktree":
        for sub in ("zheval", "metrics"):
            shutil.copytree(ROOT / sub, dest / sub, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        tar = subprocess.run(["git", "archive", "--format=tar", rev, "--", "zheval", "metrics"], cwd=ROOT,
                             capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            tf.extractall(dest, filter="data")
    return source_hash(dest)


def run_child(name: str, wfile: Path, tmp: Path, check_items: bool, timeout: float) -> dict:
    """One timed run in a fresh process; ``{"impl", "timeout"}`` when it did not finish in ``timeout`` seconds."""
    try:
        return _run_child(name, wfile, tmp, check_items, timeout)
    except subprocess.TimeoutExpired:
        return {"impl": name, "timeout": timeout}


def _run_child(name: str, wfile: Path, tmp: Path, check_items: bool, timeout: float) -> dict:
    out = tmp / f"out-{os.getpid()}-{time.monotonic_ns()}.pkl"
    script = Path(CHILD_SCRIPT or Path(__file__).resolve())
    cmd = [sys.executable, str(script), "--child", name, "--workload-file", str(wfile),
           "--out", str(out)]
    if check_items:
        cmd.append("--check-items")
    env = dict(os.environ, **CHILD_ENV)
    if name in bench_impls.MULTI_THREADED:  # rouge-rust's own design: its Rayon pool on every core
        env["RAYON_NUM_THREADS"] = str(os.cpu_count() or 1)
    if SNAPSHOT:
        env["ZHEVAL_BENCH_SRC"] = SNAPSHOT
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)
    if proc.returncode != 0 or not out.exists():
        return {"impl": name, "error": (proc.stderr or proc.stdout).strip()[-3000:]}
    with open(out, "rb") as fh:
        res = pickle.load(fh)
    out.unlink()
    return res


def machine_description() -> dict:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass
    from importlib.metadata import PackageNotFoundError, version

    vers = {}
    for pkg in ("zheval", "rouge-score", "rouge-score-rs", "sacrebleu", "nltk", "evaluate", "numpy"):
        try:
            vers[pkg] = version(pkg)
        except PackageNotFoundError:
            vers[pkg] = "missing"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = ""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": vers,
        "commit": commit,
    }


def select(names_arg: str | None) -> list[str]:
    names = list(bench_impls.IMPLS)
    if not names_arg:
        return names
    picked = []
    for pat in names_arg.split(","):
        pat = pat.strip()
        hits = [n for n in names if fnmatch.fnmatchcase(n, pat)]
        if not hits:
            raise SystemExit(f"--only: {pat!r} matches no implementation; see --list")
        picked += [h for h in hits if h not in picked]
    return picked


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=None, help="repetitions per implementation (default 5; 2 with --quick)")
    ap.add_argument("--quick", action="store_true", help="smoke run: 1/10 of the items, 2 repetitions")
    ap.add_argument("--scale", type=float, default=None, help="fraction of the workload items (default 1, 0.1 with --quick)")
    ap.add_argument("--only", help="comma-separated implementation names or globs (see --list)")
    ap.add_argument("--workloads", default=",".join(DEFAULT_WORKLOADS), help="comma-separated: W1, W2-200, W2-2000 (default), W1-unique (optional)")
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"), help="the shared data folder")
    ap.add_argument("--json", help="also write all measurements to this JSON file")
    ap.add_argument("--slow-repeats", type=int, default=None,
                    help="repetitions for the minutes-long pure-Python baselines (rouge-score, lcs-dp); default = --repeats")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per child run (default 3600)")
    ap.add_argument("--long-timeout", type=float, default=120,
                    help="seconds per child run on the long single-pair workloads L100k/L10kx10 (default 120; a run "
                         "that takes longer is reported as not finished, the targets there are 10 s)")
    ap.add_argument("--code", default="HEAD",
                    help="code under test: a git revision (default HEAD, exported with git archive) or 'worktree' "
                         "(a copy of the working tree, uncommitted edits included); taken once at start, so edits "
                         "made while the benchmark runs cannot mix code versions")
    ap.add_argument("--no-snapshot", action="store_true",
                    help="import zheval from the live working tree in every child (not recommended)")
    ap.add_argument("--list", action="store_true", help="list the implementations and exit")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--workload-file", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--check-items", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        return child_main(args)
    if args.list:
        for n, (kind, _s, ours, desc) in bench_impls.IMPLS.items():
            print(f"{n:26s} {kind:6s} {'ours' if ours else 'peer' if kind in ('rouge', 'bleu') else 'floor':5s} {desc}")
        return 0

    repeats = args.repeats or (2 if args.quick else 5)
    slow_repeats = min(repeats, args.slow_repeats or repeats)
    scale = args.scale if args.scale is not None else (0.1 if args.quick else 1.0)
    selected = select(args.only)
    explicit = set(select(args.only)) if args.only else set()
    wnames = [x.strip() for x in args.workloads.split(",") if x.strip()]
    data_dir = Path(args.data_dir)
    mach = machine_description()
    print(f"# zheval benchmark — {mach['date']}, commit {mach['commit']}")
    print(f"machine: {mach['cpu']}, {mach['cores']} cores, {mach['memory']}; Python {mach['python']}; {mach['platform']}")
    print("versions: " + ", ".join(f"{k} {v}" for k, v in mach["versions"].items()))
    print(f"repeats {repeats} (interleaved, rotated; {slow_repeats} for {', '.join(sorted(bench_impls.SLOW_ON_LARGE))}), scale {scale}, one child process per run, load avg at start "
          f"{'/'.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.stdout.flush()

    all_results: dict = {"machine": mach, "repeats": repeats, "scale": scale, "workloads": {}}
    timeouts: dict = {}
    all_results["timeouts"] = timeouts
    with tempfile.TemporaryDirectory(prefix="zheval-bench-") as tmpd:
        tmp = Path(tmpd)
        global SNAPSHOT, CHILD_SCRIPT
        import shutil

        # the children run a copy of the benchmark scripts too: editing scripts/ during a run changes nothing
        (tmp / "scripts").mkdir()
        for f in HERE.glob("bench*.py"):
            shutil.copy2(f, tmp / "scripts" / f.name)
        CHILD_SCRIPT = str(tmp / "scripts" / "bench.py")
        if args.no_snapshot:
            code = f"working tree, source hash {source_hash(ROOT)} at start"
        else:
            SNAPSHOT = str(tmp / "src")
            shash = snapshot_sources(Path(SNAPSHOT), args.code)
            if args.code == "worktree":
                dirty = subprocess.run(["git", "status", "--porcelain", "--", "zheval", "metrics"], cwd=ROOT,
                                       capture_output=True, text=True).stdout.strip()
                code = (f"working tree copied at start (git HEAD {mach['commit']}"
                        + (" + uncommitted changes" if dirty else ", clean") + ")")
            else:
                rev = subprocess.run(["git", "rev-parse", "--short", args.code], cwd=ROOT, capture_output=True,
                                     text=True).stdout.strip()
                code = f"git {args.code} = {rev} (zheval/ + metrics/ exported at start)"
            code += f", source hash {shash}"
        print(f"code under test: {code}", flush=True)
        all_results["code"] = code
        for wname in wnames:
            w = bench_workloads.build(wname, data_dir, scale)
            wfile = tmp / f"{wname}.pkl"
            with open(wfile, "wb") as fh:
                pickle.dump(w, fh)
            n_items = w["stats"]["items"]
            names = [n for n in selected if bench_impls.applicable(n, wname)
                     and (wname != "W2-2000" or n not in bench_impls.SLOW_ON_LARGE or n in explicit)]
            print(f"\n## {wname}: {w['description']}; fingerprint {w['fingerprint']}")
            print("stats: " + ", ".join(f"{k} {v}" for k, v in w["stats"].items()))
            skipped = [n for n in selected if n not in names and bench_impls.applicable(n, wname)]
            if skipped:
                print(f"not run here (minutes per run; name them with --only to force): {', '.join(skipped)}")
            sys.stdout.flush()
            runs: dict = {n: [] for n in names}
            first: dict = {}
            unavailable: dict = {}
            for rep in range(repeats):
                active = [n for n in names if n not in unavailable
                          and (n not in bench_impls.SLOW_ON_LARGE or rep < slow_repeats)]
                if not active:
                    break
                k = rep % len(active)
                order = active[k:] + active[:k]
                for n in order:
                    r = run_child(n, wfile, tmp, check_items=(rep == 0 and wname not in bench_impls.LONG_WORKLOADS),
                                  timeout=args.long_timeout if wname in bench_impls.LONG_WORKLOADS else args.timeout)
                    if "unavailable" in r:
                        unavailable[n] = r["unavailable"]
                        print(f"  {n}: not available ({r['unavailable']})")
                        continue
                    if "timeout" in r:
                        unavailable[n] = f"no result within {r['timeout']:.0f} s (timeout)"
                        timeouts.setdefault(wname, {})[n] = r["timeout"]
                        print(f"  {n}: no result within {r['timeout']:.0f} s", flush=True)
                        continue
                    if "error" in r:
                        print(f"\nERROR: {n} failed on {wname}:\n{r['error']}", file=sys.stderr)
                        return 3
                    if rep == 0:
                        first[n] = r
                    else:
                        # the same numbers every time (determinism, and no state carried between runs)
                        for key in ("mean", "bleu"):
                            if key in r["check"] and _maxdiff(r["check"][key] if key == "bleu" else
                                                              [r["check"][key][t] for t in sorted(r["check"][key])],
                                                              first[n]["check"][key] if key == "bleu" else
                                                              [first[n]["check"][key][t] for t in sorted(first[n]["check"][key])]) > 0:
                                print(f"DISAGREEMENT: {n} gave different {key} in repetition {rep + 1}", file=sys.stderr)
                                return 2
                    runs[n].append(r)
                    c = r.get("cache_after") or {}
                    print(f"  rep {rep + 1}/{repeats} {n:26s} {r['wall']:8.3f} s wall {r['cpu']:8.3f} s cpu "
                          f"peak {r['peak_run_mib']:7.1f} MiB load {r['load1']:.2f} token cache after "
                          f"{c.get('size', '?')} entries ({c.get('hits', '?')} hits)", flush=True)
                if rep == 0:
                    fails, info = check_agreement(first)
                    for line in info:
                        print("  agree: " + line)
                    if fails:
                        print("\nDISAGREEMENT — no times are reported:", file=sys.stderr)
                        for line in fails:
                            print("  " + line, file=sys.stderr)
                        return 2
            all_results["workloads"][wname] = {
                "stats": w["stats"],
                "fingerprint": w["fingerprint"],
                "unavailable": unavailable,
                "runs": {n: [{k: v for k, v in r.items() if k != "check"} for r in rs] for n, rs in runs.items() if rs},
                "n_items": n_items,
            }
            print_workload_table(wname, all_results["workloads"][wname])
            sys.stdout.flush()
    print_summary(all_results)
    print_summary_17(all_results)
    print_summary_26(all_results)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(all_results, fh, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
