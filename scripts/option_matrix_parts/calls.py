"""Entry points resolved and called, and outputs made canonical JSON (the option matrix's calling job)."""

from __future__ import annotations

import importlib
import json
import numbers
import os
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]  # scripts/option_matrix_parts/calls.py -> the repository
DEFAULT_DATA_DIR = REPO.parent / "shared" / "data"
DATA_FILES = ("crosswoz_same_query_groups.jsonl", "crosswoz_single_turn.jsonl", "csl_ts_test.jsonl")

# ---------------------------------------------------------------------------------------------------------------
# Entry points: the new public names first, then the current module paths ("module:attribute").

ENTRY_POINTS: dict[str, tuple[str, ...]] = {
    "compute_rouge": ("zheval:compute_rouge", "zheval.compute.rouge:compute_rouge"),
    "compute_bleu": ("zheval:compute_bleu", "zheval.compute.bleu:compute_bleu"),
    "score": ("zheval:score", "zheval.compute.joint:score"),
    "get_tokenizer": ("zheval:get_tokenizer", "zheval.tokenizers:get_tokenizer"),
    "bleu_stats": ("zheval:bleu_stats", "zheval.compute.bleu:bleu_stats"),
    "result_from_stats": ("zheval:result_from_stats", "zheval.compute.bleu:result_from_stats"),
    "build_compute_metrics": ("zheval.adapters.trainer:build_compute_metrics",),
    "load_duck": ("zheval.adapters.duck:load_duck", "zheval.adapters.duck.load:load_duck"),
    "clean_duck": ("zheval.adapters.duck:clean_duck", "zheval.adapters.duck.clean:clean_duck"),
    "read_predictions": ("zheval.adapters.duck:read_predictions", "zheval.adapters.duck.predictions:read_predictions"),
    "evaluate_predictions": ("zheval.adapters.duck:evaluate_predictions",
                             "zheval.adapters.duck.evaluate:evaluate_predictions"),
    "human_ceiling": ("zheval.adapters.duck:human_ceiling", "zheval.adapters.duck.ceiling:human_ceiling"),
    "compare_predictions": ("zheval.adapters.duck:compare_predictions",
                            "zheval.adapters.compare:compare_predictions",
                            "zheval.adapters.duck.compare:compare_predictions"),
}


class EntryPointNotFound(Exception):
    """None of the candidate paths of an entry point exists."""


_resolved: dict[str, tuple[str, Any]] = {}


def resolve(name: str):
    """The object of entry point ``name`` (first candidate of :data:`ENTRY_POINTS` that imports)."""
    if name in _resolved:
        return _resolved[name][1]
    tried = []
    for cand in ENTRY_POINTS[name]:
        mod_name, attr = cand.split(":")
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError as exc:
            # only "this module does not exist" means "try the next"; a missing dependency is a real error
            if exc.name and (mod_name == exc.name or mod_name.startswith(exc.name + ".")):
                tried.append(cand)
                continue
            raise
        try:
            obj = getattr(mod, attr)
        except AttributeError:
            tried.append(cand)
            continue
        _resolved[name] = (cand, obj)
        return obj
    raise EntryPointNotFound(f"{name}: none of {', '.join(tried)}")


def call(name: str, *args, **kwargs):
    return resolve(name)(*args, **typed_options(kwargs))


def typed_options(kwargs: dict) -> dict:
    """The 小黄鸭 doors' ``bleu_options``/``chrf_options`` dicts as the options objects that replaced them
    (``bleu=BleuOptions(...)``, ``chrf=ChrfOptions(...)``), where the library has them; the config ids stay the same, so
    recordings before and after compare."""
    if "bleu_options" not in kwargs and "chrf_options" not in kwargs:
        return kwargs
    try:
        from zheval.compute.options import BleuOptions, ChrfOptions
    except ImportError:  # the library before the options classes: the dicts as they were
        return kwargs
    out = dict(kwargs)
    if "bleu_options" in out:
        out["bleu"] = BleuOptions(**out.pop("bleu_options"))
    if "chrf_options" in out:
        out["chrf"] = ChrfOptions(**out.pop("chrf_options"))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Canonical output

_ADDR = re.compile(r"0x[0-9a-fA-F]+")
_REPLACEMENTS: list[tuple[str, str]] = []


def set_path_replacements(pairs: list[tuple[Path, str]]) -> None:
    """Strings to replace in every recorded string (longest first; both the path and its realpath)."""
    out = []
    for p, label in pairs:
        for s in {str(p), os.path.realpath(str(p))}:
            out.append((s, label))
    _REPLACEMENTS[:] = sorted(out, key=lambda x: -len(x[0]))


def norm_str(s: str) -> str:
    for old, new in _REPLACEMENTS:
        if old in s:
            s = s.replace(old, new)
    return s


def canon(x: Any) -> Any:
    """JSON-safe exact form of an output (see the module docstring)."""
    import numpy as np

    if x is None or isinstance(x, bool):
        return x
    if isinstance(x, str):
        return norm_str(x)
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, dict) or (hasattr(x, "keys") and hasattr(x, "__getitem__") and not hasattr(x, "to_dict")):
        return {norm_str(k) if isinstance(k, str) else repr(k): canon(x[k]) for k in x.keys()}
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    if isinstance(x, np.ndarray):
        return canon(x.tolist())
    if hasattr(x, "detach") and hasattr(x, "tolist"):  # torch tensor
        return canon(x.tolist())
    if type(x).__name__ == "Dataset" and hasattr(x, "to_list"):
        return {"dataset_rows": canon(x.to_list()), "features": str(x.features)}
    if hasattr(x, "to_dict"):
        return canon(x.to_dict())
    return {"repr": _ADDR.sub("0x?", norm_str(repr(x))), "type": type(x).__name__}


def error_output(exc: BaseException) -> dict:
    return {"error": type(exc).__name__, "message": norm_str(_ADDR.sub("0x?", str(exc)))}


def dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, sort_keys=True)
