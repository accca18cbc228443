"""小黄鸭 adapter: JSONL → ``datasets.Dataset`` → cleaning → ``.map`` batch evaluation → per-domain report.

This module is the public face; each job lives in its own module:

* `load` — `load_duck` (strict line-by-line validation, explicit ``Features``);
* `clean` — `clean_duck` (length filter, near-duplicate removal, ``min_refs``, judged on normalised text; every
  kept text written as given; every drop counted by reason and domain);
* `predictions` — `read_predictions`, `join_predictions` (id-keyed JSONL,
  LLaMA-Factory ``generated_predictions.jsonl``, plain text);
* [`evaluate`][zheval.adapters.duck.evaluate] — [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions]; [`ceiling`][zheval.adapters.duck.ceiling] —
  [`human_ceiling`][zheval.adapters.duck.ceiling.human_ceiling]; [`compare`][zheval.adapters.compare] — [`compare_predictions`][zheval.adapters.compare.compare_predictions]; all three on the
  options of `config` (`make_config`), the inputs checked by
  `inputs`, the per-item statistics of `statistics`
  (`item_statistics`, with ``Dataset.map``) and the metric reductions of `reductions`;
* `tables` — grouped scores with bootstrap intervals and their tables (text, Markdown,
  JSON); `plot` — the plot. The text diagnostics a report carries are
  `zheval.results.diagnostics`.

Example::

    from zheval.adapters.duck import load_duck, clean_duck, evaluate_predictions
    ds = load_duck("test.jsonl")
    ds, drops = clean_duck(ds)
    report = evaluate_predictions(ds, "generated_predictions.jsonl", num_proc=4)
    print(report.score("bleu", "domain", "售后支持"))
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from ..files import atomic_write
from .clean import CleanReport, bigram_jaccard, clean_duck
from .ceiling import human_ceiling
from .config import make_config
from .evaluate import evaluate_predictions
from .statistics import item_statistics
from .load import DIFFICULTIES, DOMAINS, DUCK_KEYS, DuckFormatError, Problem, duck_features, load_duck, read_duck_rows
from .predictions import PredictionMismatchError, Predictions, join_predictions, read_predictions


def __getattr__(name: str):
    # compare_predictions moved to zheval.adapters.compare, which imports this package's modules: re-exported
    # lazily, so importing zheval.adapters.compare first (the zheval compare command) is not a circular import
    if name == "compare_predictions":
        from ..compare import compare_predictions

        return compare_predictions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DOMAINS",
    "DIFFICULTIES",
    "DUCK_KEYS",
    "SAMPLE_FILES",
    "DuckFormatError",
    "Problem",
    "PredictionMismatchError",
    "Predictions",
    "CleanReport",
    "duck_features",
    "load_duck",
    "read_duck_rows",
    "write_duck",
    "clean_duck",
    "bigram_jaccard",
    "read_predictions",
    "join_predictions",
    "make_config",
    "item_statistics",
    "evaluate_predictions",
    "human_ceiling",
    "compare_predictions",
    "sample_files",
]

SAMPLE_FILES = {
    "data": "duck_sample.jsonl",
    "predictions": "duck_sample_predictions.jsonl",
    "predictions_short": "duck_sample_predictions_short.jsonl",
}
"""Files of the embedded sample (package data in ``zheval/data``): 66 小黄鸭 queries written for zheval (3 domains
× 3 difficulties plus unlabelled items, 3–5 references each), a baseline model's predictions, and a weaker
"first clause only" system for ``zheval compare``."""


@contextmanager
def sample_files():
    """Context manager yielding ``{name: Path}`` of the embedded sample files (`SAMPLE_FILES`), read with
    `importlib.resources` (works from a wheel or a zip too)."""
    root = resources.files("zheval").joinpath("data")
    with resources.as_file(root) as base:
        yield {k: Path(base) / v for k, v in SAMPLE_FILES.items()}


def write_duck(ds, path) -> int:
    """Write a 小黄鸭 ``Dataset`` as JSONL (keys in `DUCK_KEYS` order, UTF-8, no ASCII escaping), atomically
    (a temporary file, then rename: never a partial file). Returns the number of rows written.

    Raises:
        ValueError: the dataset lacks a 小黄鸭 column. OSError: the directory is not writable.
    """
    missing = [k for k in DUCK_KEYS if k not in ds.column_names]
    if missing:
        raise ValueError(f"write_duck: dataset lacks column(s) {missing}")
    lines = []
    for row in ds.select_columns(list(DUCK_KEYS)):
        lines.append(json.dumps({k: row[k] for k in DUCK_KEYS}, ensure_ascii=False))
    atomic_write(path, "".join(line + "\n" for line in lines))
    return len(lines)
