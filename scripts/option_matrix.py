#!/usr/bin/env python
"""Record the outputs of a broad zheval option matrix on the shared real data, and compare two recordings.

Usage (from the repository root; the script puts this checkout's ``zheval`` first on ``sys.path`` itself and
refuses to run if another copy is imported)::

    python scripts/option_matrix.py record OUT.json [--data-dir ../shared/data] [--only GLOB ...] [--quiet]
    python scripts/option_matrix.py compare OLD.json NEW.json [--ignore-error-messages]
    python scripts/option_matrix.py list [--only GLOB ...]

Why: issue 14 redesigns the code layout with every number unchanged. ``record`` is run at the old commit and at
the new one; ``compare`` must then report every configuration identical (``==`` on the canonical JSON of each
output, no tolerance). ``compare`` prints the number of identical outputs, every difference (config id, the first
differing key path, both values), missing and extra configurations, and exits 1 if anything differs.

Entry points are looked up through :data:`ENTRY_POINTS`: the public names of the new layout first
(``zheval.compute_rouge``), then the current module paths (``zheval.compute.rouge.compute_rouge``). ``record``
prints which one each name resolved to. A name that resolves nowhere makes every configuration using it an
``{"error": "EntryPointNotFound", ...}`` output (a difference, not a crash); extend the candidate lists if a name
moves. The evaluate modules are loaded from ``<repo>/metrics/chinese_rouge`` and ``chinese_bleu``; the CLI runs as
``python -m zheval ...`` in a subprocess.

Families of configurations (the id's first parts; each id is ``family/.../key=value/...``, stable and readable):

* ``tokens/<set>/tok=...``: ``get_tokenizer`` for every tokenizer and option: ``normalize()`` and ``tokenize()`` of
  80 texts of the set plus tricky texts from all the data (decimals, Latin runs, full-width forms, ranges, ...),
  and ``signature()``.
* ``rouge/lib/...``: ``compute_rouge``: every tokenizer (``char`` with/without terms, ``punct="drop"``, ``jieba``
  with/without HMM, terms, a dictionary; ``none`` on pre-segmented text; a lambda, ``str.split``, an object with
  ``.tokenize``, a tokenizer instance; ``normalize`` False/True/step strings/lists; ``t2s``), every ROUGE type
  alone and together, both sentence splits, every ``multi_ref``, ``beta``, ``rouge_w_weight``, aggregation,
  precision/recall, bootstrap (seeds, confidence), the presets, crosscheck, and the errors (``rouge/lib/errors``).
* ``bleu/lib/...``: ``compute_bleu``: ``max_order`` 1-5, every smoothing method with and without ``smooth_value``,
  every ``bp_ref_length``, both levels, ``effective_order``, ``weights``, every tokenizer and the preset
  tokenizers, the presets, crosscheck, bootstrap, errors; ``bleu/stats``: ``bleu_stats`` shards +
  ``result_from_stats``.
* ``score/...``: ``zheval.score`` with both metrics and each alone over tokenizer x sentence split (the
  combinations that decide whether BLEU counts on ROUGE's tokens), BLEU orders vs ROUGE-N types, presets,
  crosscheck, bootstrap and the other options.
* ``evaluate/chinese_rouge|chinese_bleu|combine/...``: the evaluate modules: ``compute`` with all the data,
  ``add_batch`` in several batches then ``compute``, ``add`` per item, cache files, an error followed by a
  successful ``compute``, errors; ``evaluate.combine`` of both.
* ``trainer/...``: ``build_compute_metrics`` with an offline char-level ``tokenizers`` WordLevel tokenizer over the
  data's characters (every other prediction's characters only, so some predicted characters are ``<unk>``): ids
  padded with ``-100``, EvalPrediction / tuple / torch / logits inputs, causal LM, empty labels, evaluate modules as
  metrics, ``batch_eval_metrics`` calls with ``compute_result=False/True``. Output: the returned dict,
  ``hook.results``, a hash and the first two of the decoded texts.
* ``duck/lib/...``: the 小黄鸭 library adapter (``load_duck``, ``clean_duck``, ``read_predictions``,
  ``evaluate_predictions``, ``human_ceiling``, ``compare_predictions``); ``cli/...``: ``python -m zheval score``,
  ``ceiling``, ``compare`` (``--format json``), ``demo``, ``clean`` and ``score -o`` (the written files are read
  back), one markdown and one table rendering, error exits.

Item sets (built from ``--data-dir``, default ``../shared/data`` relative to the repository root; never copied
into the repository; the script refuses to run without the three files). Each set is capped at a few hundred
items so that the whole matrix runs in a few minutes on two cores:

* ``woz_groups``: CrossWOZ same-query groups, leave-one-out (each reply in turn is the prediction, the group's
  other 2-4 replies its ragged references; ``crosswoz_items`` of tests/helpers), all 85 groups (342 items).
* ``woz_single``: CrossWOZ single turns. A user turn is no prediction of a reply, so the prediction is the
  *next* row's system reply and the reference the row's own reply, as a plain ``str`` (rows are consecutive turns,
  mostly of the same dialogue, so they share place names, prices and phrasing: a realistic partial overlap).
  300 items.
* ``woz_mixed``: ``woz_groups`` with every even item's references replaced by its first reference as a plain
  ``str`` (``str`` and ``list`` references mixed in one call).
* ``woz_empty_pred``: ``woz_groups`` with every 10th prediction ``""`` (a model that produced nothing).
* ``woz_preseg``: ``woz_groups`` pre-segmented by jieba itself (a private ``jieba.Tokenizer``, HMM off, words
  joined by one space), for the ``none`` tokenizer and whitespace-splitting callables.
* ``woz_trad``: ``woz_groups`` with the predictions converted to Traditional Chinese by OpenCC ``s2t`` (the
  references stay Simplified), for ``t2s=True``.
* ``csl_lead``: CSL, the abstract's first sentence (cut at ``。！？!?；;`` or a ``.`` not followed by a letter
  or digit) as the prediction, the title as the one reference. 300 items.
* ``csl_next``: CSL, the next row's title vs the row's title (low overlap: smoothing and brevity matter). 300.
* ``csl_lsum``: multi-line texts for ROUGE-Lsum: prediction = the abstract's sentences 1-2 joined by ``"\\n"``,
  references = [sentences 2-4 joined by ``"\\n"``, the title]; rows with at least 3 sentences, at most 100.
* ``csl_lsum_preseg``: ``csl_lsum`` pre-segmented by jieba line by line (the newlines kept).

The 小黄鸭 files for the CLI and the library adapter are written to the run's temporary directory from the
CrossWOZ groups. The loader needs exactly the keys ``id, query, responses, domain, difficulty``, a non-empty
``responses`` list and ``domain``/``difficulty`` from its label sets or ``null``; the groups already have those
keys (labels ``null``). Minimal adaptation, so that the per-group code paths run: ``domain`` = ``"生活咨询"`` (the
only plausible label, data README) except for thanks/bye queries (containing 谢, 再见 or 拜), which stay ``null``;
``difficulty`` = 易/中/难 for groups of 3/4/5 replies (a synthetic label, for grouping only). ``duck_test.jsonl``
holds every group with ``responses[1:]`` (2-4 references); system A predicts ``responses[0]``, system B only the
first clause of it (cut after the first ``，。！？,!?``); ``duck_full.jsonl`` holds all replies (for ``ceiling``).

Canonical output. Each configuration's output is the exact result made JSON-safe: dict keys as strings (written
sorted), tuples as lists, numpy scalars and arrays as Python numbers and lists, floats kept exactly (``json``
writes ``repr``, which round-trips; ``NaN``/``Infinity`` as JSON's extensions; ``1`` and ``1.0`` stay distinct),
signature strings as they are, 小黄鸭 ``Report`` objects via ``to_dict()``, datasets as their rows. An exception is
an output too: ``{"error": type name, "message": str}``. Warnings logged by ``zheval`` loggers during a
configuration are added under ``"_log"``. For the CLI: ``{"exit_code", "stdout"}`` (parsed JSON when it is JSON)
plus ``"stderr"`` = the lines starting with ``zheval:`` (error/warning lines; progress bars and "wrote FILE" left
out) and the files it wrote. The CLI configurations run one at a time in a worker thread while the in-process
ones run (the outputs do not depend on the order).

Normalised before recording (the only things that vary legitimately between runs): the run's temporary directory
(``<TMP>``), the repository path (``<REPO>``) and the data directory (``<DATA>``) inside any string (file paths in
messages and report titles; the CLI also runs with relative file names inside ``<TMP>``), and memory addresses
``0x...`` in reprs (``0x?``). Nothing else: no output of zheval carries a timing or a git hash (checked: the
signature ends in ``zheval:<version>``, and the version is ``zheval.__version__``; the tokenizer fingerprint,
which holds ``id()`` of a user callable, is never part of an output).

``compare --ignore-error-messages`` treats two errors of the same type as identical (the redesign unifies error
wordings); the differences it ignores are still counted and listed as such. Without it they are differences.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import hashlib
import importlib
import json
import logging
import numbers
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
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


# ---------------------------------------------------------------------------------------------------------------
# Real data → item sets

CAP = 300
LSUM_CAP = 100
TERMS = ["北京", "酒店", "地铁站", "免费市内电话", "不客气", "经济型", "景点", "研究", "患者", "wifi"]
JIEBA_DICT_WORDS = ["北京", "酒店", "地址", "经济型", "不客气", "谢谢", "地铁站", "附近", "推荐", "餐馆", "景点",
                    "电话", "免费", "市内", "研究", "分析", "方法", "结果", "应用", "性能"]
_SENT_CUT = re.compile(r"(?<=[。！？!?；;])|(?<=\.)(?![0-9A-Za-z])")
_CLAUSE = re.compile(r"^(.+?[，。！？,!?])")
_THANKS = re.compile(r"谢|再见|拜")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_CUT.split(text) if s.strip()]


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def loo(groups: list[dict]) -> tuple[list[str], list[list[str]]]:
    preds, refs = [], []
    for g in groups:
        resp = g["responses"]
        for k in range(len(resp)):
            preds.append(resp[k])
            refs.append(resp[:k] + resp[k + 1:])
    return preds, refs


class Data:
    """The item sets (built on first use) and the files written for the CLI and the 小黄鸭 adapter."""

    def __init__(self, data_dir: Path, tmp: Path):
        self.dir = data_dir
        self.tmp = tmp
        self.groups = read_jsonl(data_dir / DATA_FILES[0])
        self.single = read_jsonl(data_dir / DATA_FILES[1])
        self.csl = read_jsonl(data_dir / DATA_FILES[2])
        self._sets: dict[str, tuple] = {}
        self._seg = None
        self._lock = threading.RLock()
        self._files: dict | None = None

    def _segment(self, text: str) -> str:
        if self._seg is None:
            import jieba

            jieba.setLogLevel(logging.ERROR)
            self._seg = jieba.Tokenizer()
            self._seg.initialize()
        return "\n".join(" ".join(w for w in self._seg.cut(line, HMM=False) if w.strip()) for line in text.split("\n"))

    def _build(self, name: str) -> tuple[list[str], list]:
        if name == "woz_groups":
            return loo(self.groups)
        if name == "woz_single":
            replies = [r["responses"][0] for r in self.single]
            n = min(CAP, len(replies) - 1)
            return replies[1:n + 1], replies[:n]
        if name == "woz_mixed":
            p, r = self.items("woz_groups")
            return p, [rs[0] if i % 2 == 0 else rs for i, rs in enumerate(r)]
        if name == "woz_empty_pred":
            p, r = self.items("woz_groups")
            return ["" if i % 10 == 0 else x for i, x in enumerate(p)], r
        if name in ("woz_preseg", "csl_lsum_preseg"):
            p, r = self.items({"woz_preseg": "woz_groups", "csl_lsum_preseg": "csl_lsum"}[name])
            return [self._segment(x) for x in p], [[self._segment(x) for x in rs] for rs in r]
        if name == "woz_trad":
            import opencc

            conv = opencc.OpenCC("s2t")
            p, r = self.items("woz_groups")
            return [conv.convert(x) for x in p], r
        if name == "csl_lead":
            rows = self.csl[:CAP]
            return [sentences(r["document"])[0] for r in rows], [[r["summary"]] for r in rows]
        if name == "csl_next":
            n = min(CAP, len(self.csl) - 1)
            return [self.csl[i + 1]["summary"] for i in range(n)], [[self.csl[i]["summary"]] for i in range(n)]
        if name == "csl_lsum":
            preds, refs = [], []
            for r in self.csl:
                s = sentences(r["document"])
                if len(s) < 3:
                    continue
                preds.append("\n".join(s[:2]))
                refs.append(["\n".join(s[1:4]), r["summary"]])
                if len(preds) == LSUM_CAP:
                    break
            return preds, refs
        raise KeyError(f"unknown item set {name!r}")

    def items(self, name: str) -> tuple[list[str], list]:
        """Fresh copies of the set's predictions and references (a call cannot change another's inputs)."""
        with self._lock:
            if name not in self._sets:
                self._sets[name] = self._build(name)
        p, r = self._sets[name]
        return list(p), [list(x) if isinstance(x, list) else x for x in r]

    # -- files ---------------------------------------------------------------------------------------------------
    def files(self) -> dict[str, Path]:
        with self._lock:
            if self._files is None:
                self._files = self._write_files()
        return self._files

    def _write_files(self) -> dict[str, Path]:
        t = self.tmp
        f = {k: t / v for k, v in {
            "test": "duck_test.jsonl", "full": "duck_full.jsonl", "a": "preds_a.jsonl", "b": "preds_b.jsonl",
            "a_txt": "preds_a.txt", "lf": "preds_lf.jsonl", "missing": "preds_missing.jsonl", "terms": "terms.txt",
            "bad": "duck_bad.jsonl", "jieba_dict": "jieba_dict.txt"}.items()}
        test, full, a, b, lf = [], [], [], [], []
        for g in self.groups:
            resp = g["responses"]
            row = {"id": g["id"], "query": g["query"], "responses": resp,
                   "domain": None if _THANKS.search(g["query"]) else "生活咨询",
                   "difficulty": {3: "易", 4: "中", 5: "难"}.get(len(resp))}
            full.append(row)
            test.append({**row, "responses": resp[1:]})
            a.append({"id": g["id"], "prediction": resp[0]})
            m = _CLAUSE.match(resp[0])
            b.append({"id": g["id"], "prediction": m.group(1) if m else resp[0]})
            lf.append({"prompt": g["query"], "predict": resp[0], "label": resp[1]})

        def write(path, rows):
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")

        write(f["test"], test)
        write(f["full"], full)
        write(f["a"], a)
        write(f["b"], b)
        write(f["lf"], lf)
        write(f["missing"], a[:-1])
        f["a_txt"].write_text("".join(r["prediction"].replace("\n", " ") + "\n" for r in a), encoding="utf-8")
        f["terms"].write_text("\n".join(TERMS) + "\n", encoding="utf-8")
        bad = [dict(test[0]), {**test[1], "domain": "旅游"}, {k: v for k, v in test[2].items() if k != "query"},
               {**test[3], "responses": []}, {**test[4], "id": test[0]["id"]}]
        write(f["bad"], bad)
        f["jieba_dict"].write_text("".join(f"{w} 1000 n\n" for w in JIEBA_DICT_WORDS), encoding="utf-8")
        return f


# ---------------------------------------------------------------------------------------------------------------
# Configurations


@dataclass
class Config:
    id: str
    fn: Callable[["Ctx"], Any]
    external: bool = False  # runs a subprocess (scheduled in a worker thread)


CONFIGS: dict[str, Config] = {}


def add(cid: str, fn: Callable[["Ctx"], Any], external: bool = False) -> None:
    if cid in CONFIGS:
        raise RuntimeError(f"duplicate config id {cid}")
    CONFIGS[cid] = Config(cid, fn, external)


def cid(*parts, **fields) -> str:
    out = [str(p) for p in parts]
    out += [f"{k}={v}" for k, v in fields.items() if v is not None]
    return "/".join(out).replace(" ", "")  # ids without spaces (reprs of tuples), so they need no shell quoting


class Lazy:
    """An option value built at run time (a path in the temporary directory, a tokenizer instance)."""

    def __init__(self, fn: Callable[["Ctx"], Any]):
        self.fn = fn


def nospace_chars(s):
    return list(s.replace(" ", ""))


class SpaceSplitter:
    """An object with ``.tokenize`` (rouge-score's tokenizer interface), splitting on whitespace."""

    def tokenize(self, text):
        return text.split()

    def __repr__(self):
        return "SpaceSplitter()"


class Ctx:
    def __init__(self, data: Data):
        self.data = data
        self.tmp = data.tmp
        self._cache: dict = {}
        self._lock = threading.RLock()

    def items(self, name):
        return self.data.items(name)

    def opts(self, options: dict) -> dict:
        return {k: (v.fn(self) if isinstance(v, Lazy) else v) for k, v in options.items()}

    def once(self, key, fn):
        with self._lock:
            if key not in self._cache:
                self._cache[key] = fn()
            return self._cache[key]


JIEBA_DICT = Lazy(lambda ctx: str(ctx.data.files()["jieba_dict"]))
JIEBA_INSTANCE = Lazy(lambda ctx: call("get_tokenizer", "jieba", terms=TERMS))
CHAR_INSTANCE = Lazy(lambda ctx: call("get_tokenizer", "char", punct="drop"))

ROUGE_ALL = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4",
             "rougeS*", "rougeSU*"]
ROUGE_N4L = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]
#: every kind of ROUGE type but the unlimited-gap skip-bigrams (the slowest), for the larger grids
ROUGE_MOST = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
MULTI = ["max", "mean", "pool", "best_recall"]
LEVELS = ["corpus", "sentence"]
SMOOTH = ["exp", "none", "floor", "add-k", "nltk3"]
SMOOTH_VALUE = {"exp": 0.5, "none": 0.5, "floor": 0.05, "add-k": 2, "nltk3": 0.5}
BP = ["closest", "shortest", "none"]

#: (label, natural item set, tokenizer options) -- every tokenizer and tokenizer option.
TOKENIZERS = [
    ("char", "woz_groups", {}),
    ("char+terms", "woz_groups", {"terms": TERMS}),
    ("char+punct=drop", "woz_groups", {"punct": "drop"}),
    ("char+terms+punct=drop", "csl_lead", {"terms": TERMS, "punct": "drop"}),
    ("char+norm=false", "woz_groups", {"normalize": False}),
    ("char+norm=true", "csl_lead", {"normalize": True}),
    ("char+norm=nfkc+space", "woz_groups", {"normalize": "nfkc+space"}),
    ("char+norm=list-nfkc-zw-lower", "csl_lead", {"normalize": ["nfkc", "zw", "lower"]}),
    ("char+norm=default+nopunct", "woz_groups", {"normalize": "nfkc+zw+punct+space+lower+nopunct"}),
    ("char+t2s", "woz_trad", {"t2s": True}),
    ("char-without-t2s", "woz_trad", {}),
    ("jieba", "woz_groups", {"tokenizer": "jieba"}),
    ("jieba+hmm", "woz_groups", {"tokenizer": "jieba", "jieba_hmm": True}),
    ("jieba+terms", "woz_groups", {"tokenizer": "jieba", "terms": TERMS}),
    ("jieba+hmm+terms+punct=drop", "csl_lead", {"tokenizer": "jieba", "jieba_hmm": True, "terms": TERMS,
                                                "punct": "drop"}),
    ("jieba+dict", "woz_groups", {"tokenizer": "jieba", "jieba_dict": JIEBA_DICT}),
    ("jieba+t2s", "woz_trad", {"tokenizer": "jieba", "t2s": True}),
    ("none", "woz_preseg", {"tokenizer": "none"}),
    ("none+punct=drop", "woz_preseg", {"tokenizer": "none", "punct": "drop"}),
    ("none+norm=true", "woz_preseg", {"tokenizer": "none", "normalize": True}),
    ("none-on-raw-text", "woz_groups", {"tokenizer": "none"}),
    ("callable-nospace", "woz_groups", {"tokenizer": nospace_chars}),
    ("callable-lambda", "csl_lead", {"tokenizer": lambda s: list(s.replace(" ", ""))}),
    ("callable-str.split", "woz_preseg", {"tokenizer": str.split}),
    ("callable-str.split+norm=false", "woz_preseg", {"tokenizer": str.split, "normalize": False}),
    ("object-tokenize+norm=false", "woz_preseg", {"tokenizer": SpaceSplitter(), "normalize": False}),
    ("instance-jieba+terms", "woz_groups", {"tokenizer": JIEBA_INSTANCE}),
    ("instance-char+punct=drop", "csl_lead", {"tokenizer": CHAR_INSTANCE}),
]
TOK = {label: (s, o) for label, s, o in TOKENIZERS}


def lib(prefix: str, entry: str, set_name: str, options: dict, **fields) -> None:
    """A library call ``entry(predictions, references, **options)`` on an item set."""
    add(cid(prefix, set_name, **fields), lambda ctx: call(entry, *ctx.items(set_name), **ctx.opts(options)))


def lib_inputs(cid_: str, entry: str, make_inputs: Callable[["Ctx"], tuple], options: dict) -> None:
    add(cid_, lambda ctx: call(entry, *make_inputs(ctx), **ctx.opts(options)))


def slice_with(set_name: str, n: int = 6, pred=None, ref=None, refs_item=None):
    """Inputs: the first ``n`` items of a set with item 3 changed (its prediction, its reference 0 or its whole
    reference entry)."""

    def make(ctx):
        p, r = ctx.items(set_name)
        p, r = p[:n], r[:n]
        if pred is not None:
            p[3] = pred
        if ref is not None:
            r[3] = [ref] + list(r[3][1:])
        if refs_item is not None:
            r[3] = refs_item
        return p, r

    return make


# -- tokenizers -------------------------------------------------------------------------------------------------

_TRICKY = [re.compile(p) for p in (r"\d\.\d", r"[A-Za-z]{2,}", r"#", r"[０-９Ａ-Ｚａ-ｚ，！？：；（）]", r"……",
                                   r"\d+-\d+", r"[“”‘’]", r"\s", r"[A-Za-z]\.[A-Za-z]", r"%")]


def token_texts(ctx, set_name: str) -> list[str]:
    """Texts to tokenise: the set's first 40 predictions and first references, and from all the data the first 3
    texts with each tricky pattern (decimals, Latin runs, #, full-width forms, ……, ranges, quotes, whitespace,
    dotted abbreviations, %)."""
    p, r = ctx.items(set_name)
    texts = p[:40] + [x if isinstance(x, str) else x[0] for x in r[:40]]
    pool = ([x["responses"][0] for x in ctx.data.single] + [x["document"] for x in ctx.data.csl]
            + ctx.items("csl_lsum")[0])
    for pat in _TRICKY:
        texts += [t for t in pool if pat.search(t)][:3]
    return texts


def tokens_configs() -> None:
    for label, s, o in TOKENIZERS:
        def run(ctx, s=s, o=o):
            o = ctx.opts(o)
            tok = o.pop("tokenizer", "char")
            t = call("get_tokenizer", tok, **o)
            texts = token_texts(ctx, s)
            return {"signature": t.signature(), "norm": t.normalizer.name,
                    "normalized": [t.normalize(x) for x in texts], "tokens": [t.tokenize(x) for x in texts]}

        add(cid("tokens", s, tok=label), run)


# -- ROUGE ------------------------------------------------------------------------------------------------------


def rouge_configs() -> None:
    R = "rouge/lib"
    for s in ["woz_groups", "woz_single", "woz_mixed", "woz_empty_pred", "csl_lead", "csl_next", "csl_lsum"]:
        for m in (MULTI if s != "csl_lsum" else ("max", "pool")):  # csl_lsum: the slowest set, two rules suffice
            lib(R, "compute_rouge", s, {"rouge_types": ROUGE_ALL, "multi_ref": m, "return_precision_recall": True},
                tok="char", types="all", multi=m, pr="yes")
    for label, s, o in TOKENIZERS:
        if label != "char":  # char: in the grid above
            lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_ALL, "return_precision_recall": True},
                tok=label, types="all", multi="max", pr="yes")
            lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_MOST, "multi_ref": "pool"},
                tok=label, types="most", multi="pool")
        lib(R, "compute_rouge", s, o, tok=label, types="default", multi="default")
    for label in ("llamafactory-jieba", "sacrebleu-zh", "llamafactory-char", "bogus"):
        lib(R, "compute_rouge", "woz_groups", {"tokenizer": label}, tok=label, types="default")
    lib(R, "compute_rouge", "woz_groups", {"tokenizer": "llamafactory-jieba", "t2s": True}, tok="llamafactory-jieba+t2s")
    lib(R, "compute_rouge", "woz_groups", {"tokenizer": "llamafactory-jieba", "jieba_hmm": True, "punct": "keep",
                                            "normalize": "none"}, tok="llamafactory-jieba+noop-options")
    # ROUGE-Lsum and the sentence split, across tokenizers whose sentence tokens are built differently
    for s in ("csl_lsum", "woz_groups", "csl_lead"):
        for split in ("punct", "newline"):
            for label in ("char", "char+terms", "char+punct=drop", "jieba", "callable-nospace", "none-on-raw-text"):
                o = TOK[label][1]
                lib(R, "compute_rouge", s, {**o, "rouge_types": ["rougeLsum", "rougeL"], "sentence_split": split},
                    tok=label, types="rougeLsum+rougeL", split=split)
    for split in ("punct", "newline"):
        for m in MULTI:
            lib(R, "compute_rouge", "csl_lsum_preseg", {"tokenizer": "none", "rouge_types": ["rougeLsum"],
                                                         "sentence_split": split, "multi_ref": m},
                tok="none", types="rougeLsum", split=split, multi=m)
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ROUGE_ALL, "sentence_split": split, "multi_ref": "pool",
                                              "use_aggregator": False}, tok="char", types="all", split=split,
            multi="pool", agg="no")
    # each type alone, per item
    for t in ROUGE_ALL + ["rouge5", "rouge9", "rougeS0", "rougeS1", "rougeSU9"]:
        lib(R, "compute_rouge", "woz_groups", {"rouge_types": [t], "use_aggregator": False,
                                                "return_precision_recall": True}, types=t, agg="no", pr="yes")
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": t, "multi_ref": "mean", "use_aggregator": False},
            types=t, multi="mean", agg="no", form="str")
    # beta, rouge_w_weight
    for b in (0, 0.5, 2.0, 1, 1.0):
        for m in ("max", "best_recall"):
            lib(R, "compute_rouge", "woz_groups", {"rouge_types": ROUGE_MOST, "beta": b, "multi_ref": m,
                                                    "return_precision_recall": True},
                types="most", beta=repr(b), multi=m)
    for b in (-1, "1", True, float("inf")):
        lib(R, "compute_rouge", "woz_groups", {"beta": b}, beta=repr(b))
    for w in (1.0, 1.5, 2.0, 0, -1):
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ["rougeW", "rougeL"], "rouge_w_weight": w,
                                              "multi_ref": "pool"}, types="rougeW+rougeL", w=repr(w))
    # bootstrap
    for n, seed, conf in ((100, 1, 0.95), (1000, None, None), (500, 7, 0.9), (1, 3, None), (200, 0, 0.99)):
        o = {"bootstrap": n}
        if seed is not None:
            o["seed"] = seed
        if conf is not None:
            o["confidence"] = conf
        lib(R, "compute_rouge", "woz_groups", o, types="default", bootstrap=n, seed=seed, conf=conf)
    lib(R, "compute_rouge", "csl_lsum", {"bootstrap": 300, "seed": 5, "rouge_types": ROUGE_ALL, "multi_ref": "pool",
                                          "return_precision_recall": True}, types="all", bootstrap=300, seed=5)
    for o, label in (({"bootstrap": 100, "use_aggregator": False}, "agg=no"), ({"bootstrap": -1}, "-1"),
                     ({"bootstrap": True}, "True"), ({"bootstrap": 2.5}, "2.5")):
        lib(R, "compute_rouge", "woz_groups", o, bootstrap_error=label)
    # presets
    for m in MULTI:
        lib(R, "compute_rouge", "woz_groups", {"preset": "rouge155", "multi_ref": m}, preset="rouge155", multi=m)
        if m in ("max", "pool"):
            lib(R, "compute_rouge", "csl_lsum", {"preset": "rouge155", "multi_ref": m, "rouge_types": ROUGE_ALL},
                preset="rouge155", types="all", multi=m)
        lib(R, "compute_rouge", "woz_groups", {"preset": "rouge155", "multi_ref": m, "rouge_types": ROUGE_ALL},
            preset="rouge155", types="all", multi=m)
        lib(R, "compute_rouge", "woz_groups", {"preset": "llamafactory", "multi_ref": m}, preset="llamafactory",
            multi=m)
    for label, o in (
        ("tok=jieba", {"tokenizer": "jieba"}),
        ("tok=none", {"tokenizer": "none"}),
        ("beta=0.5", {"beta": 0.5}),
        ("split=newline", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rougeL"]}),
        ("w=1.5+bootstrap=200", {"rouge_w_weight": 1.5, "bootstrap": 200, "seed": 2}),
        ("agg=no+pr", {"use_aggregator": False, "return_precision_recall": True}),
        ("crosscheck", {"crosscheck": True}),
        ("normalize=false", {"normalize": False}),
    ):
        s = "woz_preseg" if label == "tok=none" else "csl_lsum"
        lib(R, "compute_rouge", s, {"preset": "rouge155", **o}, preset="rouge155", opt=label)
    for label, o in (
        ("crosscheck", {"crosscheck": True, "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("crosscheck+multi=mean", {"crosscheck": True, "multi_ref": "mean"}),
        ("types=all", {"rouge_types": ROUGE_ALL}),
        ("types=rouge3+rougeLsum", {"rouge_types": ["rouge3", "rougeLsum"]}),
        ("tok=char", {"tokenizer": "char"}),
        ("tok=jieba+terms", {"tokenizer": "jieba", "terms": TERMS}),
        ("beta=2", {"beta": 2.0}),
        ("beta=1", {"beta": 1}),
        ("pr", {"return_precision_recall": True}),
        ("agg=no", {"use_aggregator": False}),
        ("bootstrap=200", {"bootstrap": 200, "seed": 9}),
        ("t2s", {"t2s": True}),
    ):
        for s in ("woz_groups", "csl_lead"):
            lib(R, "compute_rouge", s, {"preset": "llamafactory", **o}, preset="llamafactory", opt=label)
    for p in ("bogus", "sacrebleu-zh"):
        lib(R, "compute_rouge", "woz_groups", {"preset": p}, preset=p)
    # crosscheck against rouge-score / rouge-chinese
    for label in ("char", "char+terms", "char+punct=drop", "jieba", "jieba+hmm", "none", "callable-nospace",
                  "char+t2s", "char+norm=false"):
        s, o = TOK[label]
        lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_N4L, "crosscheck": True}, tok=label, types="n4l",
            crosscheck="yes")
    for m in ("mean", "pool", "best_recall"):
        lib(R, "compute_rouge", "woz_groups", {"rouge_types": ROUGE_N4L, "crosscheck": True, "multi_ref": m},
            tok="char", types="n4l", multi=m, crosscheck="yes")
    for split in ("punct", "newline"):
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ["rougeLsum", "rouge2"], "crosscheck": True,
                                              "sentence_split": split}, tok="char", types="rougeLsum+rouge2",
            split=split, crosscheck="yes")
    for label, o in (("types=all", {"rouge_types": ROUGE_ALL}), ("beta=2", {"beta": 2.0}),
                     ("agg=no", {"use_aggregator": False}), ("bootstrap=100", {"bootstrap": 100})):
        lib(R, "compute_rouge", "woz_groups", {"crosscheck": True, **o}, crosscheck="yes", opt=label)
    # errors and input forms
    E = "rouge/lib/errors"
    for label, o in (
        ("types=rouge0", {"rouge_types": ["rouge0"]}), ("types=rougeX", {"rouge_types": ["rougeX"]}),
        ("types=dup", {"rouge_types": ["rouge1", "rouge1"]}), ("types=empty", {"rouge_types": []}),
        ("types=int", {"rouge_types": [1]}), ("types=rougeS", {"rouge_types": ["rougeS"]}),
        ("multi=min", {"multi_ref": "min"}), ("split=comma", {"sentence_split": "comma"}),
        ("option=foo", {"foo": 1}), ("option=max_order", {"max_order": 2}),
        ("terms+none", {"tokenizer": "none", "terms": TERMS}), ("hmm+char", {"jieba_hmm": True}),
        ("punct=bad", {"punct": "bad"}), ("normalize=bogus", {"normalize": "bogus"}),
        ("normalize=int", {"normalize": 3}), ("t2s=yes", {"t2s": "yes"}), ("terms=str", {"terms": "北京"}),
        ("instance+options", {"tokenizer": JIEBA_INSTANCE, "punct": "drop"}), ("tokenizer=None", {"tokenizer": None}),
        ("tokenizer=int", {"tokenizer": 3}), ("callable-returns-str", {"tokenizer": lambda s: s}),
        ("jieba_dict=missing", {"tokenizer": "jieba", "jieba_dict": "/nonexistent/zheval-dict.txt"}),
        ("callable+terms", {"tokenizer": nospace_chars, "terms": TERMS}),
    ):
        lib_inputs(cid(E, opt=label), "compute_rouge", slice_with("woz_groups"), o)
    for label, mk in (
        ("empty-reference", slice_with("woz_groups", ref="")),
        ("whitespace-reference", slice_with("woz_groups", ref="  \t")),
        ("invisible-reference", slice_with("woz_groups", ref="\u200b\u200b")),
        ("punct-only-reference", slice_with("woz_groups", ref="。！")),
        ("empty-reference-list", slice_with("woz_groups", refs_item=[])),
        ("int-prediction", slice_with("woz_groups", pred=7)),
        ("none-reference", slice_with("woz_groups", refs_item=[None])),
        ("bytes-reference", slice_with("woz_groups", refs_item="好的".encode())),
        ("tuple-references", slice_with("woz_groups", refs_item=("好的", "不客气"))),
        ("empty-prediction", slice_with("woz_groups", pred="")),
        ("punct-only-prediction", slice_with("woz_groups", pred="！！")),
        ("length-mismatch", lambda ctx: (ctx.items("woz_groups")[0][:5], ctx.items("woz_groups")[1][:4])),
        ("empty-corpus", lambda ctx: ([], [])),
        ("str-predictions", lambda ctx: ("好的", ["好的"])),
    ):
        lib_inputs(cid(E, input=label), "compute_rouge", mk, {"rouge_types": ROUGE_ALL})
    lib_inputs(cid(E, input="punct-only-reference", opt="punct=drop"), "compute_rouge",
               slice_with("woz_groups", ref="。！"), {"punct": "drop"})
    lib_inputs(cid(E, input="punct-only-reference", opt="nopunct"), "compute_rouge",
               slice_with("woz_groups", ref="。！"), {"normalize": "nfkc+nopunct"})
    lib_inputs(cid(E, input="empty-reference", opt="llamafactory"), "compute_rouge",
               slice_with("woz_groups", ref=""), {"preset": "llamafactory"})
    lib_inputs(cid(E, input="empty-reference", opt="rouge155"), "compute_rouge",
               slice_with("woz_groups", ref=""), {"preset": "rouge155"})


# -- BLEU -------------------------------------------------------------------------------------------------------


def bleu_configs() -> None:
    B = "bleu/lib"
    for n in (1, 2, 3, 4, 5):
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {"max_order": n, "level": lv}, tok="char", order=n, level=lv)
    for s in ("woz_single", "woz_mixed", "woz_empty_pred", "csl_lead", "csl_next", "csl_lsum", "woz_trad"):
        for lv in LEVELS:
            lib(B, "compute_bleu", s, {"level": lv}, tok="char", level=lv)
    for lv in LEVELS:
        for sm in SMOOTH:
            for with_value in (False, True):
                o = {"level": lv, "smooth_method": sm}
                if with_value:
                    o["smooth_value"] = SMOOTH_VALUE[sm]
                lib(B, "compute_bleu", "csl_next", o, level=lv, smooth=sm,
                    value=repr(SMOOTH_VALUE[sm]) if with_value else None)
    for sm in SMOOTH:
        lib(B, "compute_bleu", "woz_groups", {"level": "sentence", "smooth_method": sm, "max_order": 4},
            level="sentence", smooth=sm, order=4)
    for sm, v in (("floor", 0), ("add-k", 0), ("floor", -0.1), ("add-k", "1"), ("exp", None), ("bogus", None)):
        lib(B, "compute_bleu", "csl_next", {"level": "sentence", "smooth_method": sm, "smooth_value": v},
            level="sentence", smooth=sm, value=repr(v))
    for bp in BP:
        for lv in LEVELS:
            for s in ("woz_groups", "csl_lead"):
                lib(B, "compute_bleu", s, {"bp_ref_length": bp, "level": lv}, bp=bp, level=lv)
    for eff in (True, False, None):
        for lv in LEVELS:
            lib(B, "compute_bleu", "csl_next", {"effective_order": eff, "level": lv}, eff=repr(eff), level=lv)
        lib(B, "compute_bleu", "csl_next", {"effective_order": eff, "level": "sentence", "smooth_method": "none"},
            eff=repr(eff), level="sentence", smooth="none")
    for w, n in (((0.25, 0.25, 0.25, 0.25), 4), ((0.1, 0.2, 0.3, 0.4), 4), ((1, 0, 0, 0), 4), ((0.5, 0.5), 2),
                 ([0.7, 0.3, 0.0, 0.0], 4)):
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {"weights": w, "max_order": n, "level": lv},
                weights="/".join(map(str, w)), order=n, level=lv)
    for w in ((0.5, 0.5, 0.0), (-0.5, 0.5, 0.5, 0.5), (0, 0, 0, 0), "abc"):
        lib(B, "compute_bleu", "woz_groups", {"weights": w}, weights_error=repr(w))
    for label, s, o in TOKENIZERS + [("sacrebleu-zh", "woz_groups", {"tokenizer": "sacrebleu-zh"}),
                                     ("sacrebleu-zh-csl", "csl_lead", {"tokenizer": "sacrebleu-zh"}),
                                     ("llamafactory-char", "woz_groups", {"tokenizer": "llamafactory-char"}),
                                     ("llamafactory-jieba", "woz_groups", {"tokenizer": "llamafactory-jieba"})]:
        lib(B, "compute_bleu", s, o, tok=label, level="corpus")
        lib(B, "compute_bleu", s, {**o, "level": "sentence", "max_order": 2}, tok=label, level="sentence", order=2)
    for label, o in (("t2s", {"t2s": True}), ("terms", {"terms": TERMS}), ("noop-options",
                     {"normalize": False, "t2s": False, "punct": "keep", "jieba_hmm": False})):
        lib(B, "compute_bleu", "woz_groups", {"tokenizer": "sacrebleu-zh", **o}, tok="sacrebleu-zh", opt=label)
    # presets
    for label, o in (
        ("default", {}), ("level=sentence", {"level": "sentence"}), ("crosscheck", {"crosscheck": True}),
        ("smooth=floor", {"smooth_method": "floor"}), ("tok=char", {"tokenizer": "char"}),
        ("order=2", {"max_order": 2}), ("t2s", {"t2s": True}), ("bootstrap=200", {"bootstrap": 200, "seed": 4}),
        ("bp=none", {"bp_ref_length": "none"}), ("weights", {"weights": (0.4, 0.3, 0.2, 0.1)}),
        ("tok=jieba", {"tokenizer": "jieba"}), ("eff=True", {"effective_order": True}),
    ):
        for p in ("sacrebleu-zh", "llamafactory"):
            for s in ("woz_groups", "csl_lead"):
                lib(B, "compute_bleu", s, {"preset": p, **o}, preset=p, opt=label)
    for p in ("bogus", "rouge155"):
        lib(B, "compute_bleu", "woz_groups", {"preset": p}, preset=p)
    # crosscheck against sacrebleu / nltk
    for label in ("char", "char+terms", "char+punct=drop", "jieba", "none", "callable-nospace", "char+t2s"):
        s, o = TOK[label]
        lib(B, "compute_bleu", s, {**o, "crosscheck": True}, tok=label, level="corpus", crosscheck="yes")
    for lv in LEVELS:
        for sm in SMOOTH:
            lib(B, "compute_bleu", "csl_next", {"crosscheck": True, "level": lv, "smooth_method": sm},
                level=lv, smooth=sm, crosscheck="yes")
        for label, o in (("weights", {"weights": (0.1, 0.2, 0.3, 0.4)}), ("bp=shortest", {"bp_ref_length": "shortest"}),
                         ("bp=none", {"bp_ref_length": "none"}), ("eff=True", {"effective_order": True}),
                         ("order=2", {"max_order": 2}), ("floor=0.3", {"smooth_method": "floor", "smooth_value": 0.3})):
            lib(B, "compute_bleu", "woz_groups", {"crosscheck": True, "level": lv, **o}, level=lv, crosscheck="yes",
                opt=label)
    # bootstrap
    for n, seed, conf in ((100, 1, None), (1000, None, None), (200, 7, 0.9)):
        o = {"bootstrap": n, **({"seed": seed} if seed is not None else {}), **({"confidence": conf} if conf else {})}
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {**o, "level": lv}, level=lv, bootstrap=n, seed=seed, conf=conf)
    lib(B, "compute_bleu", "csl_next", {"bootstrap": 300, "seed": 11, "weights": (0.4, 0.3, 0.2, 0.1),
                                         "smooth_method": "floor"}, bootstrap=300, seed=11, opt="weights+floor")
    # errors and input forms
    E = "bleu/lib/errors"
    for label, o in (
        ("order=0", {"max_order": 0}), ("order=True", {"max_order": True}), ("order=str", {"max_order": "4"}),
        ("order=2.5", {"max_order": 2.5}), ("smooth=bogus", {"smooth_method": "bogus"}),
        ("bp=longest", {"bp_ref_length": "longest"}), ("level=doc", {"level": "doc"}),
        ("eff=yes", {"effective_order": "yes"}), ("option=foo", {"foo": 1}),
        ("option=rouge_types", {"rouge_types": ["rouge1"]}), ("bootstrap=-1", {"bootstrap": -1}),
        ("bootstrap=True", {"bootstrap": True}), ("tokenizer=bogus", {"tokenizer": "bogus"}),
        ("terms+none", {"tokenizer": "none", "terms": TERMS}), ("punct=bad", {"punct": "bad"}),
        ("crosscheck+callable", {"tokenizer": nospace_chars, "crosscheck": True}),
        ("confidence=1.5", {"bootstrap": 10, "confidence": 1.5}),
    ):
        lib_inputs(cid(E, opt=label), "compute_bleu", slice_with("woz_groups"), o)
    for label, mk in (
        ("empty-reference", slice_with("woz_groups", ref="")),
        ("whitespace-reference", slice_with("woz_groups", ref="  ")),
        ("invisible-reference", slice_with("woz_groups", ref="\u200b")),
        ("empty-reference-list", slice_with("woz_groups", refs_item=[])),
        ("int-prediction", slice_with("woz_groups", pred=7)),
        ("none-reference", slice_with("woz_groups", refs_item=[None])),
        ("empty-prediction", slice_with("woz_groups", pred="")),
        ("length-mismatch", lambda ctx: (ctx.items("woz_groups")[0][:5], ctx.items("woz_groups")[1][:4])),
        ("sacrebleu-transposed", lambda ctx: (ctx.items("woz_single")[0][:5], [ctx.items("woz_single")[1][:5]])),
        ("empty-corpus", lambda ctx: ([], [])),
    ):
        for lv in LEVELS:
            lib_inputs(cid(E, input=label, level=lv), "compute_bleu", mk, {"level": lv})
    # streaming statistics: shards of per-item statistics, then one result
    for lv, o in (("corpus", {}), ("sentence", {"smooth_method": "floor"}), ("corpus", {"bootstrap": 100, "seed": 2})):
        def stats_run(ctx, lv=lv, o=o):
            import numpy as np

            p, r = ctx.items("woz_groups")
            shards = ((0, 100), (100, 250), (250, len(p)))
            try:
                resolve("bleu_stats")
            except EntryPointNotFound:  # the items/result API (issue 14): bleu_items per shard, one result
                from zheval.compute.bleu import bleu_config, bleu_items, result_from_stats
                from zheval.compute.inputs import validate_inputs

                # the old result_from_stats defaulted to effective_order=False at every level
                opts = dict(tokenizer="jieba", max_order=4, level=lv, effective_order=False, **o)
                try:
                    from zheval.compute.options import BleuOptions
                except ImportError:  # the library before the options classes: bleu_config took the options by name
                    config = bleu_config(**opts)
                else:
                    config = bleu_config(BleuOptions(**opts))
                parts = [bleu_items(*validate_inputs(p[a:b], r[a:b]), config).stats for a, b in shards]
                stats = np.concatenate(parts, axis=0)
                return {"stats_sum": stats.sum(axis=0), "result": result_from_stats(stats, config)}
            parts = [call("bleu_stats", p[a:b], r[a:b], "jieba", 4) for a, b in shards]
            stats = np.concatenate(parts, axis=0)
            res = call("result_from_stats", stats, level=lv, **o)
            return {"stats_sum": stats.sum(axis=0), "result": res}

        add(cid("bleu/stats", "woz_groups", tok="jieba", level=lv, opt="+".join(f"{k}={v}" for k, v in o.items()) or None),
            stats_run)


# -- score() ----------------------------------------------------------------------------------------------------


def score_configs() -> None:
    S = "score"
    for s0 in ("woz_groups", "csl_lsum"):
        for label in ("char", "char+terms", "char+punct=drop", "char+norm=false", "jieba", "jieba+hmm", "none",
                      "callable-nospace", "callable-str.split+norm=false", "instance-jieba+terms"):
            s, o = TOK[label]
            if s == "woz_preseg":
                s = s0 + "_preseg" if s0 == "csl_lsum" else "woz_preseg"
            elif s != s0:
                s = s0
            for split in ("punct", "newline"):
                lib(S, "score", s, {**o, "sentence_split": split}, tok=label, split=split, metrics="both")
    for metrics in (("bleu",), ("rouge",), "bleu", "rouge", ("rouge", "bleu"), ["bleu", "rouge"]):
        names = ",".join([metrics] if isinstance(metrics, str) else metrics)
        for label, split in (("char", "newline"), ("char", "punct"), ("jieba", "punct")):
            lib(S, "score", "csl_lsum", {**TOK[label][1], "sentence_split": split, "metrics": metrics},
                tok=label, split=split, metrics=f"{type(metrics).__name__}:{names}")
    for n in (1, 2, 4, 6):
        for split in ("punct", "newline"):
            lib(S, "score", "woz_groups", {"max_order": n, "sentence_split": split,
                                           "rouge_types": ["rouge1", "rouge2", "rouge3", "rouge4"]},
                tok="char", split=split, order=n, types="rouge1-4")
    for label, o in (
        ("level=sentence", {"level": "sentence"}), ("smooth=floor", {"smooth_method": "floor", "smooth_value": 0.2}),
        ("bp=none", {"bp_ref_length": "none"}), ("weights", {"weights": (0.1, 0.2, 0.3, 0.4)}),
        ("eff=True", {"effective_order": True}), ("types=all", {"rouge_types": ROUGE_ALL}),
        ("multi=pool", {"multi_ref": "pool"}), ("multi=best_recall", {"multi_ref": "best_recall"}),
        ("beta=2", {"beta": 2.0}), ("agg=no", {"use_aggregator": False}), ("pr", {"return_precision_recall": True}),
        ("w=1.5", {"rouge_w_weight": 1.5, "rouge_types": ["rougeW"]}),
        ("bootstrap=200", {"bootstrap": 200, "seed": 3}), ("bootstrap+conf", {"bootstrap": 100, "confidence": 0.8}),
        ("bootstrap+agg=no", {"bootstrap": 100, "use_aggregator": False}),
        ("crosscheck", {"crosscheck": True}), ("crosscheck+jieba", {"crosscheck": True, "tokenizer": "jieba"}),
        ("t2s", {"t2s": True}), ("normalize=nfkc+space", {"normalize": "nfkc+space"}),
        ("preset=llamafactory", {"preset": "llamafactory"}),
        ("preset=llamafactory+crosscheck", {"preset": "llamafactory", "crosscheck": True,
                                            "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("preset=sacrebleu-zh", {"preset": "sacrebleu-zh"}),
        ("preset=sacrebleu-zh+metrics=bleu", {"preset": "sacrebleu-zh", "metrics": ("bleu",)}),
        ("preset=rouge155", {"preset": "rouge155"}),
        ("preset=rouge155+metrics=rouge", {"preset": "rouge155", "metrics": ("rouge",)}),
        ("tok=sacrebleu-zh", {"tokenizer": "sacrebleu-zh"}),
        ("tok=sacrebleu-zh+metrics=bleu", {"tokenizer": "sacrebleu-zh", "metrics": ["bleu"]}),
        ("tok=llamafactory-jieba+metrics=rouge", {"tokenizer": "llamafactory-jieba", "metrics": ["rouge"]}),
        ("metrics=meteor", {"metrics": ["meteor"]}), ("metrics=empty", {"metrics": []}),
        ("option=foo", {"foo": 1}), ("order=0", {"max_order": 0}), ("types=rougeX", {"rouge_types": ["rougeX"]}),
    ):
        s = "woz_trad" if label == "t2s" else "woz_groups"
        lib(S, "score", s, o, opt=label)
        if label in ("level=sentence", "types=all", "multi=pool", "crosscheck", "preset=llamafactory", "pr"):
            lib(S, "score", "csl_lsum", {**o, "sentence_split": "newline"}, split="newline", opt=label)
    lib_inputs(cid(S, "errors", input="empty-reference"), "score", slice_with("woz_groups", ref=""), {})
    lib_inputs(cid(S, "errors", input="empty-reference", metrics="bleu"), "score", slice_with("woz_groups", ref=""),
               {"metrics": ["bleu"]})
    lib_inputs(cid(S, "errors", input="int-prediction"), "score", slice_with("woz_groups", pred=3), {})
    lib_inputs(cid(S, "inputs", input="empty-prediction", split="newline"), "score",
               slice_with("woz_groups", pred=""), {"sentence_split": "newline"})
    lib_inputs(cid(S, "inputs", input="str-reference"), "score", lambda ctx: ctx.items("woz_single"), {})


# -- evaluate modules --------------------------------------------------------------------------------------------


def load_module(name: str, keep_in_memory: bool = True, **kwargs):
    import evaluate

    return evaluate.load(str(REPO / "metrics" / name), keep_in_memory=keep_in_memory, **kwargs)


def eval_configs() -> None:
    X = "evaluate"
    rouge_opts = [
        ("default", "woz_groups", {}),
        ("types=all+pr", "woz_groups", {"rouge_types": ROUGE_ALL, "return_precision_recall": True}),
        ("jieba+terms+pool", "woz_groups", {"tokenizer": "jieba", "terms": TERMS, "multi_ref": "pool"}),
        ("bootstrap=100+seed=2", "woz_groups", {"bootstrap": 100, "seed": 2}),
        ("rouge155", "csl_lsum", {"preset": "rouge155", "rouge_types": ROUGE_ALL}),
        ("llamafactory+crosscheck", "woz_groups", {"preset": "llamafactory", "crosscheck": True,
                                                   "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("agg=no", "csl_lead", {"use_aggregator": False, "rouge_types": ["rougeL", "rougeSU4"]}),
        ("split=newline", "csl_lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum"]}),
        ("str-references", "woz_single", {}),
        ("mixed-references", "woz_mixed", {"multi_ref": "best_recall"}),
        ("callable", "csl_lead", {"tokenizer": nospace_chars}),
        ("none", "woz_preseg", {"tokenizer": "none", "punct": "drop"}),
        ("t2s", "woz_trad", {"t2s": True}),
        ("crosscheck", "woz_groups", {"crosscheck": True, "rouge_types": ROUGE_N4L}),
        ("bleu-only-option", "woz_groups", {"max_order": 2, "smooth_method": "floor"}),
        ("beta=0.5+w=2", "csl_lead", {"beta": 0.5, "rouge_w_weight": 2.0, "rouge_types": ["rougeW", "rouge1"]}),
    ]
    bleu_opts = [
        ("default", "woz_groups", {}),
        ("level=sentence", "woz_groups", {"level": "sentence"}),
        ("sacrebleu-zh", "csl_lead", {"preset": "sacrebleu-zh"}),
        ("llamafactory", "woz_groups", {"preset": "llamafactory"}),
        ("crosscheck", "woz_groups", {"crosscheck": True}),
        ("floor+order=2", "csl_next", {"smooth_method": "floor", "max_order": 2}),
        ("bootstrap=100", "woz_groups", {"bootstrap": 100, "seed": 5}),
        ("jieba+terms", "woz_groups", {"tokenizer": "jieba", "terms": TERMS}),
        ("weights+bp=shortest", "woz_groups", {"weights": (0.4, 0.3, 0.2, 0.1), "bp_ref_length": "shortest"}),
        ("str-references", "woz_single", {}),
        ("rouge-only-option", "woz_groups", {"rouge_types": ["rouge1"], "multi_ref": "pool"}),
        ("sentence+nltk3", "csl_next", {"level": "sentence", "smooth_method": "nltk3"}),
    ]
    for mod, table in (("chinese_rouge", rouge_opts), ("chinese_bleu", bleu_opts)):
        for label, s, o in table:
            def compute_all(ctx, mod=mod, s=s, o=o):
                p, r = ctx.items(s)
                return load_module(mod).compute(predictions=p, references=r, **ctx.opts(o))

            add(cid(X, mod, "compute", s, opt=label), compute_all)
        for label, s, o in table[:3] + table[8:10]:
            def batches(ctx, mod=mod, s=s, o=o):
                p, r = ctx.items(s)
                m = load_module(mod)
                for a, b in ((0, 40), (40, 41), (41, 200), (200, len(p))):
                    m.add_batch(predictions=p[a:b], references=r[a:b])
                return m.compute(**ctx.opts(o))

            add(cid(X, mod, "add_batch", s, opt=label), batches)

        def add_items(ctx, mod=mod):
            p, r = ctx.items("woz_mixed")
            m = load_module(mod)
            for x, y in zip(p[:30], r[:30]):
                m.add(prediction=x, reference=y)
            return m.compute()

        add(cid(X, mod, "add", "woz_mixed", n=30), add_items)

        def cached(ctx, mod=mod):
            p, r = ctx.items("woz_groups")
            return load_module(mod, keep_in_memory=False).compute(predictions=p, references=r)

        add(cid(X, mod, "compute", "woz_groups", opt="cache-files"), cached)

        def recover(ctx, mod=mod):
            p, r = ctx.items("woz_groups")
            m = load_module(mod)
            m.add_batch(predictions=p[:100], references=r[:100])
            m.add_batch(predictions=p[100:], references=r[100:])
            try:
                m.compute(rouge_types=["rougeX"]) if mod == "chinese_rouge" else m.compute(max_order=0)
                first = "no error"
            except Exception as exc:  # noqa: BLE001 - the error is an output
                first = error_output(exc)
            return {"first": first, "second": m.compute()}

        add(cid(X, mod, "add_batch", "woz_groups", opt="error-then-compute"), recover)
        for label, fn in (
            ("unknown-option", lambda m, p, r: m.compute(predictions=p, references=r, foo=1)),
            ("bad-value", lambda m, p, r: m.compute(predictions=p, references=r, tokenizer="bogus")),
            ("int-prediction", lambda m, p, r: m.compute(predictions=[3] + p[1:], references=r)),
            ("empty-reference", lambda m, p, r: m.compute(predictions=p, references=[[""]] + r[1:])),
            ("length-mismatch", lambda m, p, r: m.compute(predictions=p, references=r[:-1])),
            ("add_batch-bad", lambda m, p, r: m.add_batch(predictions=p[:3], references=[["好"], 5, ["好"]])),
        ):
            def err(ctx, mod=mod, fn=fn):
                p, r = ctx.items("woz_groups")
                p, r = p[:10], r[:10]
                return fn(load_module(mod), p, r)

            add(cid(X, mod, "errors", opt=label), err)
        add(cid(X, mod, "errors", opt="load-option"), lambda ctx, mod=mod: load_module(mod, tokenizer="jieba"))
    combine_opts = [
        ("default", "woz_groups", {}),
        ("shared", "woz_groups", {"tokenizer": "jieba", "terms": ["快递柜", "北京"], "rouge_types": ["rouge1", "rouge2",
                                  "rougeL"], "multi_ref": "mean", "max_order": 2, "smooth_method": "floor",
                                  "bootstrap": 100, "seed": 3}),
        ("llamafactory", "woz_groups", {"preset": "llamafactory"}),
        ("newline", "csl_lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rouge1"]}),
        ("sentence", "csl_next", {"level": "sentence", "smooth_method": "add-k"}),
    ]
    for label, s, o in combine_opts:
        def comb(ctx, s=s, o=o):
            import evaluate

            p, r = ctx.items(s)
            c = evaluate.combine([load_module("chinese_bleu"), load_module("chinese_rouge")])
            return c.compute(predictions=p, references=r, **ctx.opts(o))

        add(cid(X, "combine", "compute", s, opt=label), comb)

    def comb_batches(ctx):
        import evaluate

        p, r = ctx.items("woz_groups")
        c = evaluate.combine([str(REPO / "metrics" / "chinese_rouge"), str(REPO / "metrics" / "chinese_bleu")])
        for a, b in ((0, 150), (150, len(p))):
            c.add_batch(predictions=p[a:b], references=r[a:b])
        return c.compute(tokenizer="char", bootstrap=50)

    add(cid(X, "combine", "add_batch", "woz_groups", opt="paths+bootstrap=50"), comb_batches)


# -- Trainer hook -----------------------------------------------------------------------------------------------

TRAINER_N = 200


def trainer_texts(ctx) -> tuple[list[str], list[str]]:
    p, r = ctx.items("woz_single")
    return p[:TRAINER_N], r[:TRAINER_N]


def trainer_tokenizer(ctx, with_pad: bool = True):
    def build():
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, processors
        from transformers import PreTrainedTokenizerFast

        p, r = trainer_texts(ctx)
        # the references' characters and those of every other prediction: some predicted characters are <unk>
        chars = sorted({c for t in r + p[::2] for c in t if not c.isspace()})
        vocab = {tok: i for i, tok in enumerate(["<pad>", "</s>", "<unk>"] + chars)}
        core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
        core.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex("."), behavior="isolated")])
        core.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
        kw = {"eos_token": "</s>", "unk_token": "<unk>"}
        if with_pad:
            kw["pad_token"] = "<pad>"
        return PreTrainedTokenizerFast(tokenizer_object=core, **kw)

    return ctx.once(("trainer_tok", with_pad), build)


def _pad(rows, value, width=None):
    import numpy as np

    width = width or max((len(x) for x in rows), default=0)
    out = np.full((len(rows), width), value, dtype=np.int64)
    for i, x in enumerate(rows):
        out[i, :len(x)] = x
    return out


def run_hook(ctx, metrics=None, options=None, hook_kwargs=None, pred_pad=-100, form="evalprediction",
             empty_every=0, causal=False, batches=0, subset=None, with_pad=True):
    import numpy as np
    from transformers import EvalPrediction

    tok = trainer_tokenizer(ctx, with_pad)
    p, r = trainer_texts(ctx)
    if subset:
        p, r = p[:subset], r[:subset]
    p_ids = [tok(t)["input_ids"] for t in p]
    l_ids = [tok(t)["input_ids"] for t in r]
    if empty_every:
        for i in range(0, len(l_ids), empty_every):
            l_ids[i] = []
    pad_value = -100 if pred_pad == -100 else tok.pad_token_id
    if causal:
        prompt = 3
        rows_p, rows_l = [], []
        for a, b in zip(p_ids, l_ids):
            rows_l.append([-100] * prompt + b)
            shifted = [(a[k] if k < len(a) else tok.pad_token_id) for k in range(len(b))]
            rows_p.append([5] * (prompt - 1) + shifted + [7])  # position t predicts label t+1
        width = max(len(x) for x in rows_l)
        P, L = _pad(rows_p, pad_value, width), _pad(rows_l, -100, width)
    else:
        P, L = _pad(p_ids, pad_value), _pad(l_ids, -100)
    kw = dict(hook_kwargs or {})
    if metrics is not None:
        kw["metrics"] = metrics(ctx) if callable(metrics) else metrics
    hook = call("build_compute_metrics", tok, **kw, **ctx.opts(options or {}))

    def wrap(P, L):
        if form == "tuple":
            return (P, L)
        if form == "logits":
            vocab = len(tok)
            logits = np.zeros(P.shape + (vocab,), dtype=np.float32)
            for i in range(P.shape[0]):
                for j in range(P.shape[1]):
                    if P[i, j] == -100:
                        logits[i, j, :] = -100
                    else:
                        logits[i, j, P[i, j]] = 1.0
            return EvalPrediction(predictions=(logits, np.zeros(1)), label_ids=L)
        if form == "torch":
            import torch

            return EvalPrediction(predictions=torch.tensor(P), label_ids=torch.tensor(L))
        return EvalPrediction(predictions=P, label_ids=L)

    if batches:
        bounds = np.linspace(0, len(p), batches + 1).astype(int)
        returns = []
        for k in range(batches):
            a, b = bounds[k], bounds[k + 1]
            Pk, Lk = P[a:b], L[a:b]
            w = max(1, int((Lk != -100).sum(axis=1).max()), int((Pk != pad_value).sum(axis=1).max()))
            returns.append(hook(wrap(Pk[:, :w], Lk[:, :w]), compute_result=(k == batches - 1)))
        out = {"returns": returns}
    else:
        out = {"return": hook(wrap(P, L))}
    out["results"] = hook.results
    h = hashlib.sha256(json.dumps([hook.predictions, hook.references], ensure_ascii=False).encode()).hexdigest()
    out["decoded_sha256"] = h[:16]
    out["decoded_first"] = [hook.predictions[:2], hook.references[:2]]
    return out


def trainer_configs() -> None:
    T = "trainer"
    variants = [
        ("default", {}),
        ("metrics=rouge", {"metrics": ("chinese_rouge",)}),
        ("metrics=bleu", {"metrics": ["chinese_bleu"]}),
        ("metrics=bleu,rouge", {"metrics": ("chinese_bleu", "chinese_rouge")}),
        ("jieba+terms", {"options": {"tokenizer": "jieba", "terms": TERMS}}),
        ("types=all+pr", {"options": {"rouge_types": ROUGE_ALL, "return_precision_recall": True}}),
        ("order=2+floor", {"options": {"max_order": 2, "smooth_method": "floor"}}),
        ("level=sentence", {"options": {"level": "sentence"}}),
        ("llamafactory", {"options": {"preset": "llamafactory"}}),
        ("bleu-sacrebleu-zh-pair", {"metrics": ("chinese_rouge", ("chinese_bleu", {"preset": "sacrebleu-zh"}))}),
        ("pairs", {"metrics": [("chinese_rouge", {"rouge_types": ["rougeL"]}), ("chinese_bleu", {"max_order": 2})]}),
        ("bootstrap=100", {"options": {"bootstrap": 100, "seed": 3}}),
        ("tok=none", {"options": {"tokenizer": "none"}}),
        ("clean_whitespace=false", {"hook_kwargs": {"clean_whitespace": False}}),
        ("clean_whitespace=false+tok=nospace", {"hook_kwargs": {"clean_whitespace": False},
                                                "options": {"tokenizer": nospace_chars}}),
        ("pred_pad=pad", {"pred_pad": "pad"}),
        ("input=tuple", {"form": "tuple"}),
        ("input=torch", {"form": "torch"}),
        ("input=logits", {"form": "logits", "subset": 40}),
        ("empty_refs=skip", {"empty_every": 20}),
        ("empty_refs=error", {"empty_every": 20, "hook_kwargs": {"empty_references": "error"}}),
        ("empty_refs=all", {"empty_every": 1, "subset": 10}),
        ("causal_lm", {"causal": True, "hook_kwargs": {"causal_lm": True}}),
        ("module=chinese_rouge-path", {"metrics": lambda ctx: [str(REPO / "metrics" / "chinese_rouge")]}),
        ("module=combine", {"metrics": lambda ctx: [__import__("evaluate").combine(
            [load_module("chinese_bleu"), load_module("chinese_rouge")])]}),
        ("error=use_aggregator", {"options": {"use_aggregator": False}}),
        ("error=crosscheck", {"options": {"crosscheck": True}}),
        ("error=unknown-option", {"options": {"foo": 1}}),
        ("error=no-pad", {"with_pad": False}),
        ("error=metrics-empty", {"metrics": []}),
        ("error=seed", {"options": {"bootstrap": 10, "seed": "3"}}),
    ]
    for label, kw in variants:
        add(cid(T, "woz_single", opt=label), lambda ctx, kw=kw: run_hook(ctx, **kw))
    for label, kw in (
        ("default", {}),
        ("jieba+bootstrap+sentence+pr", {"options": {"tokenizer": "jieba", "bootstrap": 100, "seed": 1,
                                                    "level": "sentence", "return_precision_recall": True}}),
        ("llamafactory", {"options": {"preset": "llamafactory"}}),
        ("empty_refs=skip", {"empty_every": 7}),
        ("module=chinese_bleu-path", {"metrics": lambda ctx: [str(REPO / "metrics" / "chinese_bleu"),
                                                              "chinese_rouge"]}),
    ):
        add(cid(T, "woz_single", "batch_eval_metrics", opt=label),
            lambda ctx, kw=kw: run_hook(ctx, form="torch", batches=4, **kw))


# -- 小黄鸭 adapter (library) and CLI -----------------------------------------------------------------------------


def duck_configs() -> None:
    D = "duck/lib"

    def ds(ctx, which="test"):
        return call("load_duck", ctx.data.files()[which])

    score_variants = [
        ("default", {}),
        ("bootstrap=0", {"bootstrap": 0}),
        ("jieba+terms+hmm", {"tokenizer": "jieba", "terms": TERMS, "jieba_hmm": True, "bootstrap": 200}),
        ("newline+lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rouge1"], "bootstrap": 100}),
        ("preset=sacrebleu-zh", {"bleu_options": {"preset": "sacrebleu-zh"}, "bootstrap": 100}),
        ("tok=sacrebleu-zh", {"tokenizer": "sacrebleu-zh", "bootstrap": 100}),
        ("tok=llamafactory-char", {"tokenizer": "llamafactory-char", "bootstrap": 100}),
        ("tok=llamafactory-jieba", {"tokenizer": "llamafactory-jieba", "bootstrap": 100}),
        ("bleu-options", {"bleu_options": {"smooth_method": "floor", "max_order": 2, "bp_ref_length": "shortest",
                                           "weights": (0.6, 0.4)}, "bootstrap": 100}),
        ("bleu-level=sentence", {"bleu_options": {"level": "sentence"}}),
        ("confidence=0.9+seed=7", {"confidence": 0.9, "seed": 7, "bootstrap": 300}),
        ("keep_items", {"keep_items": True, "bootstrap": 0}),
        ("metrics=rouge+types=all", {"metrics": ["rouge"], "rouge_types": ROUGE_ALL, "bootstrap": 50}),
        ("metrics=bleu", {"metrics": "bleu", "bootstrap": 50}),
        ("multi=pool", {"multi_ref": "pool", "bootstrap": 50}),
        ("multi=best_recall+by=difficulty", {"multi_ref": "best_recall", "by": ["difficulty"], "bootstrap": 50}),
        ("by=none", {"by": [], "bootstrap": 50}),
        ("by=query", {"by": ["query"], "bootstrap": 0}),
        ("normalize=false", {"normalize": False, "bootstrap": 0}),
        ("t2s", {"t2s": True, "bootstrap": 0}),
        ("callable", {"tokenizer": nospace_chars, "bootstrap": 0}),
        ("num_proc=2", {"num_proc": 2, "bootstrap": 50}),
        ("predictions=list", {"predictions": lambda ctx: [json.loads(x)["prediction"] for x in
                                                          ctx.data.files()["a"].read_text("utf-8").splitlines()]}),
        ("predictions=dict", {"predictions": lambda ctx: {json.loads(x)["id"]: json.loads(x)["prediction"] for x in
                                                          ctx.data.files()["a"].read_text("utf-8").splitlines()}}),
        ("predictions=text", {"predictions": lambda ctx: ctx.data.files()["a_txt"]}),
        ("predictions=llamafactory", {"predictions": lambda ctx: ctx.data.files()["lf"]}),
        ("predictions=missing", {"predictions": lambda ctx: ctx.data.files()["missing"]}),
    ]
    for label, kw in score_variants:
        def run(ctx, kw=kw):
            kw = dict(kw)
            preds = kw.pop("predictions", None)
            preds = preds(ctx) if preds else ctx.data.files()["a"]
            if kw.get("t2s"):
                import opencc

                conv = opencc.OpenCC("s2t")
                preds = {r["id"]: conv.convert(r["prediction"]) for r in map(json.loads,
                         ctx.data.files()["a"].read_text("utf-8").splitlines())}
            return call("evaluate_predictions", ds(ctx), preds, **kw)

        add(cid(D, "evaluate_predictions", opt=label), run)
    for label, kw in (
        ("default", {}), ("multi=mean+by=difficulty", {"multi_ref": "mean", "by": ["difficulty"], "bootstrap": 100}),
        ("types=all+jieba", {"rouge_types": ROUGE_ALL, "tokenizer": "jieba", "bootstrap": 50}),
        ("bleu-options", {"bleu_options": {"smooth_method": "add-k", "max_order": 3}, "bootstrap": 50}),
        ("metrics=bleu+bootstrap=0", {"metrics": ["bleu"], "bootstrap": 0}),
    ):
        add(cid(D, "human_ceiling", opt=label), lambda ctx, kw=kw: call("human_ceiling", ds(ctx, "full"), **kw))
    add(cid(D, "human_ceiling", opt="test-file"), lambda ctx: call("human_ceiling", ds(ctx), bootstrap=100))
    for label, kw in (
        ("default", {}), ("by=domain,difficulty+seed=3", {"by": ["domain", "difficulty"], "bootstrap": 200, "seed": 3}),
        ("jieba+smooth=add-k", {"tokenizer": "jieba", "bleu_options": {"smooth_method": "add-k"}, "bootstrap": 100}),
        ("bootstrap=0", {"bootstrap": 0}), ("conf=0.9+types", {"confidence": 0.9, "bootstrap": 100,
                                                              "rouge_types": ["rouge1", "rougeW"]}),
    ):
        add(cid(D, "compare_predictions", opt=label),
            lambda ctx, kw=kw: call("compare_predictions", ds(ctx), ctx.data.files()["a"], ctx.data.files()["b"], **kw))
    add(cid(D, "compare_predictions", opt="identical"),
        lambda ctx: call("compare_predictions", ds(ctx), ctx.data.files()["a"], ctx.data.files()["a"], bootstrap=100))
    for label, kw in (
        ("default", {}), ("normalize=false", {"normalize": False}), ("chars=2-40", {"min_chars": 2, "max_chars": 40}),
        ("dedup=1.0", {"dedup_threshold": 1.0}), ("no-dedup+min_refs=3", {"dedup_threshold": None, "min_refs": 3}),
        ("dedup=0.3", {"dedup_threshold": 0.3}), ("error=min_chars", {"min_chars": -1}),
    ):
        def clean(ctx, kw=kw):
            cleaned, rep = call("clean_duck", ds(ctx, "full"), **kw)
            return {"rows": cleaned.to_list(), "report": rep.to_dict(), "render": rep.render()}

        add(cid(D, "clean_duck", opt=label), clean)
    add(cid(D, "load_duck", opt="bad-file"), lambda ctx: call("load_duck", ctx.data.files()["bad"]))
    add(cid(D, "load_duck", opt="test-file"), lambda ctx: call("load_duck", ctx.data.files()["test"]))
    for fmt in ("auto", "jsonl", "text"):
        for which in ("a", "lf", "a_txt"):
            def rp(ctx, fmt=fmt, which=which):
                pr = call("read_predictions", ctx.data.files()[which], format=fmt)
                return {k: getattr(pr, k) for k in ("texts", "ids", "lines", "source", "kind", "labels")
                        if hasattr(pr, k)}

            add(cid(D, "read_predictions", file=which, format=fmt), rp)


def cli(args: list[str], ctx, outputs: tuple[str, ...] = ()) -> dict:
    """``python -m zheval ARGS`` in the temporary directory (relative file names), this checkout first on the path;
    ``outputs``: files the command writes, read back into the output (JSON parsed)."""
    ctx.data.files()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-m", "zheval", *args], cwd=ctx.tmp, env=env, capture_output=True,
                          text=True, timeout=600)
    out: dict = {"exit_code": proc.returncode}
    try:
        out["stdout"] = json.loads(proc.stdout) if proc.stdout.strip() else ""
    except json.JSONDecodeError:
        out["stdout"] = proc.stdout
    out["stderr"] = [line for line in proc.stderr.splitlines() if line.startswith("zheval:")]
    for name in outputs:
        path = ctx.tmp / name
        if not path.exists():
            out[name] = None
            continue
        text = path.read_text(encoding="utf-8")
        try:
            out[name] = [json.loads(x) for x in text.splitlines() if x.strip()] if name.endswith(".jsonl") \
                else json.loads(text)
        except json.JSONDecodeError:
            out[name] = text
        path.unlink()
    return out


def cli_configs() -> None:
    C = "cli"
    J = ["--format", "json", "--quiet"]
    runs = [
        ("score/default", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl"]),
        ("score/jieba+hmm+terms+bootstrap=200+seed=7", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl",
                                                        "-t", "jieba", "--jieba-hmm", "--terms", "terms.txt",
                                                        "--bootstrap", "200", "--seed", "7"]),
        ("score/bleu+floor+order=2+by=none", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--metrics",
                                              "bleu", "--smooth", "floor", "--max-order", "2", "--by", "none"]),
        ("score/rouge+types+pool+by=domain", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--metrics",
                                              "rouge", "--rouge-types", "rouge1,rougeL,rougeLsum,rougeW,rougeSU4",
                                              "--multi-ref", "pool", "--by", "domain", "--bootstrap", "100"]),
        ("score/sacrebleu-zh+items+bootstrap=0", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "-t",
                                                  "sacrebleu-zh", "--items", "--bootstrap", "0"]),
        ("score/llamafactory-char+best_recall", ["score", "-d", "duck_test.jsonl", "-p", "preds_lf.jsonl", "-t",
                                                 "llamafactory-char", "--multi-ref", "best_recall", "--bootstrap",
                                                 "100"]),
        ("score/none+text-predictions+num-proc=2", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.txt", "-t",
                                                    "none", "--num-proc", "2", "--bootstrap", "50"]),
        ("ceiling/default", ["ceiling", "-d", "duck_full.jsonl"]),
        ("ceiling/rouge+mean+by=difficulty+nltk3", ["ceiling", "-d", "duck_full.jsonl", "--metrics", "bleu,rouge",
                                                    "--multi-ref", "mean", "--by", "difficulty", "--smooth", "nltk3",
                                                    "--bootstrap", "100"]),
        ("ceiling/jieba+bootstrap=0", ["ceiling", "-d", "duck_full.jsonl", "-t", "jieba", "--bootstrap", "0"]),
        ("compare/default", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_b.jsonl"]),
        ("compare/by+add-k+seed=3", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_b.jsonl",
                                     "--by", "domain,difficulty", "--bootstrap", "200", "--seed", "3", "--smooth",
                                     "add-k"]),
        ("compare/identical", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_a.jsonl",
                               "--bootstrap", "100"]),
        ("error/tokenizer=bogus", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "-t", "bogus"]),
        ("error/missing-prediction", ["score", "-d", "duck_test.jsonl", "-p", "preds_missing.jsonl"]),
        ("error/multi-ref=bogus", ["ceiling", "-d", "duck_full.jsonl", "--multi-ref", "bogus"]),
        ("error/bad-data", ["score", "-d", "duck_bad.jsonl", "-p", "preds_a.jsonl"]),
        ("demo/bootstrap=200", ["demo", "--bootstrap", "200"]),
    ]
    for label, args in runs:
        extra = ["--format", "json"] if label.startswith("demo") else J
        add(cid(C, label), lambda ctx, args=args, extra=extra: cli(args + extra, ctx), external=True)
    other = [
        ("score/format=markdown", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--format", "markdown",
                                   "--bootstrap", "100", "-q"], ()),
        ("score/format=table", ["score", "-d", "duck_test.jsonl", "-p", "preds_b.jsonl", "--bootstrap", "100", "-q"],
         ()),
        ("score/output-file", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--format", "json", "-o",
                               "score_report.json", "--bootstrap", "100", "-q"], ("score_report.json",)),
        ("clean/default", ["clean", "duck_full.jsonl", "-o", "cleaned_default.jsonl", "--report-json",
                           "clean_default.json", "-q"], ("cleaned_default.jsonl", "clean_default.json")),
        ("clean/no-dedup+min-refs=4+chars=2-30", ["clean", "duck_full.jsonl", "-o", "cleaned_b.jsonl", "--no-dedup",
                                                  "--min-refs", "4", "--min-chars", "2", "--max-chars", "30", "-q"],
         ("cleaned_b.jsonl",)),
    ]
    for label, args, outputs in other:
        add(cid(C, label), lambda ctx, args=args, outputs=outputs: cli(args, ctx, outputs), external=True)


def build_configs() -> dict[str, Config]:
    if not CONFIGS:
        for f in (tokens_configs, rouge_configs, bleu_configs, score_configs, eval_configs, trainer_configs, duck_configs,
                  cli_configs):
            f()
    return CONFIGS


# ---------------------------------------------------------------------------------------------------------------
# Running


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.local = threading.local()

    def emit(self, record):
        buf = getattr(self.local, "buf", None)
        if buf is not None:
            buf.append(f"{record.name}: {record.levelname}: {record.getMessage()}")


def run_one(cfg: Config, ctx: Ctx, capture: _Capture) -> Any:
    capture.local.buf = []
    try:
        out = canon(cfg.fn(ctx))
    except Exception as exc:  # noqa: BLE001 - every error is an output
        out = error_output(exc)
    logs = capture.local.buf
    capture.local.buf = None
    if logs:
        out = out if isinstance(out, dict) else {"value": out}
        out["_log"] = [norm_str(x) for x in logs]
    json.dumps(out, allow_nan=True)  # must serialise
    return out


def setup_environment(tmp: Path) -> None:
    """Offline, private caches in the run's temporary directory; this checkout's zheval first."""
    for var, sub in (("HF_MODULES_CACHE", "modules"), ("HF_METRICS_CACHE", "metrics"),
                     ("HF_DATASETS_CACHE", "datasets"), ("HF_HOME", "hf")):
        os.environ[var] = str(tmp / sub)
    for var in ("HF_EVALUATE_OFFLINE", "HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        os.environ[var] = "1"
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if str(REPO) not in sys.path[:1]:
        sys.path.insert(0, str(REPO))
    import zheval

    if Path(zheval.__file__).resolve().parent != REPO / "zheval":
        raise SystemExit(f"option_matrix: imported zheval from {zheval.__file__}, not from {REPO}")


def remove_jieba_cache(dictionary: Path) -> None:
    """jieba caches a custom dictionary as ``<tempdir>/jieba.u<md5 of its path>.cache`` (jieba 0.42.1
    ``Tokenizer.initialize``); the run's dictionary lives in its temporary directory, so its cache goes too."""
    for p in {str(dictionary), os.path.realpath(str(dictionary))}:
        name = "jieba.u%s.cache" % hashlib.md5(p.encode("utf-8", "replace")).hexdigest()
        try:
            os.remove(os.path.join(tempfile.gettempdir(), name))
        except FileNotFoundError:
            pass


def check_data_dir(data_dir: Path) -> None:
    missing = [f for f in DATA_FILES if not (data_dir / f).is_file()]
    if missing:
        raise SystemExit(f"option_matrix: the real test data is needed: {', '.join(missing)} not found in {data_dir} "
                         "(pass --data-dir PATH; see ../shared/data/README.md)")


def selected(configs: dict[str, Config], only: list[str] | None) -> list[Config]:
    if not only:
        return list(configs.values())
    return [c for c in configs.values() if any(c.id == g or fnmatch.fnmatchcase(c.id, g) for g in only)]


def record(out_path: Path, data_dir: Path, only: list[str] | None, quiet: bool) -> int:
    data_dir = data_dir.resolve()
    check_data_dir(data_dir)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="zheval-option-matrix-") as tmp_name:
        tmp = Path(tmp_name)
        setup_environment(tmp)
        set_path_replacements([(tmp, "<TMP>"), (REPO, "<REPO>"), (data_dir, "<DATA>")])
        import numpy  # noqa: F401 - canon needs it

        try:
            import torch

            torch.set_num_threads(1)
        except ImportError:
            pass
        zlog = logging.getLogger("zheval")
        capture = _Capture()
        zlog.addHandler(capture)
        zlog.propagate = False
        logging.getLogger("zheval").setLevel(logging.WARNING)
        configs = selected(build_configs(), only)
        if not configs:
            print(f"option_matrix: no configuration matches {only}", file=sys.stderr)
            return 2
        ctx = Ctx(Data(data_dir, tmp))
        results: dict[str, Any] = {}
        lock = threading.Lock()
        done = [0]
        total = len(configs)

        def report(cfg, dt, out):
            with lock:
                done[0] += 1
                if not quiet:
                    status = f"error {out['error']}" if isinstance(out, dict) and "error" in out else "ok"
                    print(f"[{done[0]:4d}/{total}] {dt:6.2f}s {cfg.id}: {status}", file=sys.stderr, flush=True)

        def timed(cfg):
            t = time.perf_counter()
            out = run_one(cfg, ctx, capture)
            report(cfg, time.perf_counter() - t, out)
            return out

        external = [c for c in configs if c.external]
        internal = [c for c in configs if not c.external]
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            futures = {c.id: pool.submit(timed, c) for c in external}
            for c in internal:
                results[c.id] = timed(c)
            for k, f in futures.items():
                results[k] = f.result()
        ordered = {c.id: results[c.id] for c in configs}
        remove_jieba_cache(ctx.data.tmp / "jieba_dict.txt")
        tmp_out = out_path.with_name(out_path.name + ".tmp")
        tmp_out.write_text(json.dumps(ordered, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp_out, out_path)
    n_err = sum(1 for v in ordered.values() if isinstance(v, dict) and "error" in v)
    print(f"option_matrix: {len(ordered)} configurations ({n_err} are errors) in {time.perf_counter() - t0:.1f}s "
          f"-> {out_path}", file=sys.stderr)
    for name, (cand, _) in sorted(_resolved.items()):
        print(f"  entry point {name} = {cand}", file=sys.stderr)
    return 0


# -- compare ----------------------------------------------------------------------------------------------------


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first key path (in sorted key order) where ``a`` and ``b`` differ, with both values."""
    if dumps(a) == dumps(b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return (f"{path}.{k}" if path else k, a.get(k, "<missing>"), b.get(k, "<missing>"))
            d = first_difference(a[k], b[k], f"{path}.{k}" if path else k)
            if d:
                return d
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return (f"{path}.length", len(a), len(b))
    return (path or "<root>", a, b)


def _short(x: Any, n: int = 300) -> str:
    s = dumps(x)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def compare(old_path: Path, new_path: Path, ignore_error_messages: bool) -> int:
    old = json.loads(old_path.read_text(encoding="utf-8"))
    new = json.loads(new_path.read_text(encoding="utf-8"))
    same, diffs, msg_only = 0, [], []
    for k in old:
        if k not in new:
            continue
        a, b = old[k], new[k]
        if dumps(a) == dumps(b):
            same += 1
            continue
        if (isinstance(a, dict) and isinstance(b, dict) and "error" in a and "error" in b
                and a["error"] == b["error"]):
            msg_only.append(k)
            if ignore_error_messages:
                same += 1
                continue
        diffs.append(k)
    missing = [k for k in old if k not in new]
    extra = [k for k in new if k not in old]
    common = len([k for k in old if k in new])
    print(f"identical: {same} of {common} common configurations ({len(old)} in {old_path.name}, {len(new)} in "
          f"{new_path.name})")
    for k in diffs:
        path, a, b = first_difference(old[k], new[k])
        tag = " (error message only)" if k in msg_only else ""
        print(f"DIFF {k}{tag}\n  at {path}\n  old: {_short(a)}\n  new: {_short(b)}")
    if ignore_error_messages and msg_only:
        print(f"ignored (same error type, different message): {len(msg_only)}")
        for k in msg_only:
            print(f"  {k}: {_short(old[k].get('message'), 160)} -> {_short(new[k].get('message'), 160)}")
    for k in missing:
        print(f"MISSING in new: {k}")
    for k in extra:
        print(f"EXTRA in new: {k}")
    print(f"summary: {same} identical, {len(diffs)} different, {len(missing)} missing, {len(extra)} extra")
    return 1 if diffs or missing or extra else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="run the matrix and write {config_id: canonical output} as JSON")
    r.add_argument("out", type=Path)
    r.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                   help=f"the shared real data (default {DEFAULT_DATA_DIR})")
    r.add_argument("--only", action="append", metavar="GLOB",
                   help="run only the config ids equal to GLOB or matching it as a glob (repeatable)")
    r.add_argument("--quiet", action="store_true", help="no per-configuration progress lines")
    c = sub.add_parser("compare", help="compare two recordings; exit 1 if any output differs")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--ignore-error-messages", action="store_true",
                   help="count two errors of the same type as identical (listed separately)")
    ls = sub.add_parser("list", help="print the config ids")
    ls.add_argument("--only", action="append", metavar="GLOB")
    args = ap.parse_args(argv)
    if args.cmd == "record":
        return record(args.out, args.data_dir, args.only, args.quiet)
    if args.cmd == "compare":
        return compare(args.old, args.new, args.ignore_error_messages)
    for c in selected(build_configs(), args.only):
        print(c.id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
