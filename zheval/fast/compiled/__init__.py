"""Compiled twins (numba, the ``zheval[fast]`` extra): whether they can run, the state of their on-disk cache, and
the work size at which they pay -- the inputs of `zheval.fast.usable_for` ``"compiled"``.

Nothing here imports numba: ``import zheval`` stays as fast as without the extra. The kernels
(`zheval.fast.compiled.kernels`) are imported only when a computation is large enough to pay for it
(`compiled_usable`) or when `warmup` is called.

Cache states (`cache_state`)
    ``"unavailable"`` (numba not installed), ``"off"`` (``ZHEVAL_COMPILED=0``), ``"loaded"`` (the kernels are in
    this process), ``"warm"`` (compiled on this machine: numba's cache files listed by our marker exist and the
    kernel source is unchanged), ``"cold"`` (never compiled here, or the cache was removed).

The decision (`compiled_usable`), from the estimated CPU seconds of the numpy twin it would replace:
    loaded: always; warm: when that estimate exceeds `WARM_SECONDS` (importing numba and loading the kernels
    from the cache, measured); cold: only above `COLD_SECONDS` (compiling every kernel, measured), so the first
    compile never happens inside a short job -- unless asked: ``ZHEVAL_COMPILED=1`` (whenever numba is installed)
    or `warmup` (``zheval warmup`` on the command line). ``ZHEVAL_COMPILED=0`` turns the compiled twins off.

Where numba keeps the cache: ``__pycache__`` beside ``kernels.py``, or numba's user-wide cache directory when that
is read-only; ``NUMBA_CACHE_DIR`` overrides both. Our marker (`marker_path`) lives in ``ZHEVAL_CACHE_DIR``, else
``$XDG_CACHE_HOME/zheval``, else ``~/.cache/zheval``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

__all__ = ["COLD_SECONDS", "WARM_SECONDS", "KERNELS", "cache_state", "compiled_usable", "load_kernels",
           "marker_path", "warmup", "write_marker"]

#: CPU seconds of numpy work above which a warm cache pays: importing numba (0.28 s) and loading the first kernel
#: from the cache (about 0.3 s; all seven 0.54 s) in a fresh process, while the compiled twins take about 0.3 of the
#: numpy twins' time (``scripts/bench_compiled.py --breakeven``, docs/performance.md): 0.6 s / 0.7 rounded up.
WARM_SECONDS = 1.0
#: CPU seconds of numpy work above which compiling every kernel (8-14 s CPU on the 2-core reference machine, once
#: per machine) pays within the job that triggers it: 14 s / 0.7.
COLD_SECONDS = 20.0
#: The kernels `warmup` compiles (functions of `zheval.fast.compiled.kernels`).
KERNELS = ("rouge_pair_stats", "bleu_item_matches", "skip_bigram_pair_hits", "wlcs_many", "wlcs_rows",
           "union_lcs_hits", "token_bounds", "token_ids", "merge_terms")

_KERNELS_FILES = (Path(__file__).with_name("kernels.py"), Path(__file__).with_name("union_kernel.py"),
                  Path(__file__).parent.parent.parent / "tokenizers" / "char_spans_kernel.py",
                  Path(__file__).parent.parent.parent / "tokenizers" / "term_spans_kernel.py")
#: Process state: the kernels module once imported by this process (None before).
_LOADED: dict = {}


def _setting() -> str:
    return os.environ.get("ZHEVAL_COMPILED", "").strip().lower()


def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def marker_path() -> Path:
    """Our record of a compile on this machine: a JSON file named by the numba and Python versions and the sha256
    of the kernels' source, listing numba's index files of every kernel."""
    from importlib.metadata import version

    root = os.environ.get("ZHEVAL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "zheval")
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in _KERNELS_FILES)).hexdigest()[:16]
    py = f"{sys.version_info[0]}{sys.version_info[1]}"
    return Path(root) / f"compiled-numba{version('numba')}-py{py}-{digest}.json"


def _source_stats() -> list:
    return [[st.st_mtime_ns, st.st_size] for st in (f.stat() for f in _KERNELS_FILES)]


def _marker_ok() -> bool:
    try:
        data = json.loads(marker_path().read_text(encoding="utf-8"))
        stats = _source_stats()
    except (OSError, ValueError):
        return False
    if data.get("source_stat") != stats or data.get("numba_cache_dir") != os.environ.get(
            "NUMBA_CACHE_DIR"):
        return False
    return bool(data.get("index_files")) and all(os.path.exists(p) for p in data["index_files"])


def cache_state() -> str:
    """``"unavailable"``, ``"off"``, ``"loaded"``, ``"warm"`` or ``"cold"`` (module docstring)."""
    if _setting() == "0":
        return "off"
    if "module" in _LOADED:
        return "loaded"
    if not _numba_installed():
        return "unavailable"
    return "warm" if _marker_ok() else "cold"


def compiled_usable(numpy_seconds: float) -> bool:
    """Whether a compiled twin should replace numpy work estimated at ``numpy_seconds`` CPU seconds (module
    docstring: loaded always; warm above `WARM_SECONDS`; cold above `COLD_SECONDS`; ``ZHEVAL_COMPILED``
    ``=1`` whenever numba is installed, ``=0`` never). Cheap checks first: below `WARM_SECONDS` nothing is
    looked up on disk."""
    setting = _setting()
    if setting == "0":
        return False
    if "module" in _LOADED:
        return True
    if setting == "1":
        return _numba_installed()
    if numpy_seconds < WARM_SECONDS or not _numba_installed():
        return False
    if numpy_seconds >= COLD_SECONDS:
        return True
    return _marker_ok()


def load_kernels():
    """The kernels module (`zheval.fast.compiled.kernels`), imported on first use; after a compile the marker
    is written (so later processes know the cache is warm)."""
    mod = _LOADED.get("module")
    if mod is None:
        from . import kernels as mod

        _LOADED["module"] = mod
    return mod


def _index_files(mod) -> list:
    out = []
    for name in KERNELS:
        cache = getattr(getattr(mod, name), "_cache", None)
        path = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
        if path:
            out.append(path)
    return out


def write_marker(mod) -> None:
    """Record that every kernel is compiled into numba's cache (after `warmup` or a first compile)."""
    files = _index_files(mod)
    if not files or not all(os.path.exists(p) for p in files):
        return
    stats = _source_stats()
    path = marker_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"index_files": files, "source_stat": stats,
                                   "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR")}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only home: the cache still works, only the warm state is not known to later processes
        pass


def warmup() -> dict:
    """Compile (first time on a machine) or load (afterwards) every compiled kernel, so later computations of any
    size may use them; ``zheval warmup`` on the command line.

    Returns:
        ``{"state_before": cache state, "seconds": CPU seconds spent, "kernels": [names]}``.
    Raises:
        ImportError: numba is not installed (``pip install 'zheval[fast]'``).
    """
    if not _numba_installed():
        raise ImportError("the compiled twins need numba: pip install 'zheval[fast]'")
    before = cache_state()
    t0 = time.process_time()
    mod = load_kernels()
    from .twins import exercise

    exercise(mod)
    write_marker(mod)
    return {"state_before": before, "seconds": time.process_time() - t0, "kernels": list(KERNELS)}
