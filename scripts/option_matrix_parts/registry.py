"""The configurations' registry (`add`, `cid`, `Config`), the run context, and the option lists and helpers the case
modules share."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any, Callable

from .calls import call
from .data import Data, TERMS


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
