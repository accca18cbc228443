"""The child side of ``scripts/bench.py``: one implementation set up and timed on one workload in a fresh process (wall
and CPU time, peak RSS of the run), its output checked numbers written back for the parent."""

from __future__ import annotations

import gc
import os
import pickle
import sys
import time
from pathlib import Path

import bench_impls

def _proc_status(field: str) -> int | None:
    """A ``/proc/self/status`` memory field in KiB (VmRSS, VmHWM), or None where /proc is unavailable."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0: write 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _block_editable_finder() -> None:
    """With a snapshot, import zheval only from it: drop the editable-install finder (``pip install -e .``), which
    would otherwise serve modules missing from the snapshot (e.g. a file not committed yet) from the working tree."""
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in (getattr(f, "__module__", "") or "")]


def child_main(args) -> int:
    import resource

    if os.environ.get("ZHEVAL_BENCH_SRC"):
        _block_editable_finder()
    with open(args.workload_file, "rb") as fh:
        w = pickle.load(fh)
    kind, setup, ours, _desc = bench_impls.IMPLS[args.child]
    out: dict = {"impl": args.child}
    try:
        run, check, per_item = setup(w)
    except ImportError as e:  # a metric module not written yet, or a peer not installed
        if (getattr(e, "name", None) or "").startswith("zheval"):
            raise  # a broken zheval (e.g. a module missing from the revision under test) is an error, not "n/a"
        out["unavailable"] = f"{type(e).__name__}: {e}"
        _write(args.out, out)
        return 0
    import zheval
    from zheval.tokenizers import clear_cache

    out["zheval_file"] = zheval.__file__
    src = os.environ.get("ZHEVAL_BENCH_SRC")
    if src and not Path(zheval.__file__).resolve().is_relative_to(Path(src).resolve()):
        raise RuntimeError(f"zheval was imported from {zheval.__file__}, not from the snapshot {src}")
    # Warm-up on the first 3 items (untimed): lazy imports, regex compilation, first-call paths -- the steady
    # state of a metric computed after every evaluation. No result of it survives: the cache is cleared below.
    tiny = dict(w, predictions=w["predictions"][:3], references=w["references"][:3])
    setup(tiny)[0]()
    del tiny
    gc.collect()
    clear_cache()
    out["rss_before_mib"] = (_proc_status("VmRSS") or 0) / 1024
    reset = _reset_peak_rss()
    out["load1"] = os.getloadavg()[0]
    t0 = time.perf_counter()
    c0 = time.process_time()
    result = run()
    out["cpu"] = time.process_time() - c0
    out["wall"] = time.perf_counter() - t0
    hwm = _proc_status("VmHWM") if reset else None
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    out["peak_run_mib"] = hwm / 1024 if hwm is not None else maxrss
    out["peak_process_mib"] = maxrss
    from zheval.tokenizers import cache_info

    out["cache_after"] = cache_info()  # the token cache was empty when the timed run started
    out["check"] = check(result)
    if per_item is not None and args.check_items:
        items = check(per_item()).get("items")
        if items:
            out["check"]["items"] = items
    _write(args.out, out)
    return 0


def _write(path: str, obj) -> None:
    with open(path, "wb") as fh:
        pickle.dump(obj, fh)
