"""The metric back-ends of the Trainer hook: one object per metric that scores a whole set (``compute``) or
accumulates batches (``add``/``summary``, ``batch_eval_metrics=True``) — the zheval library for ``chinese_rouge`` /
``chinese_bleu``, any loaded ``evaluate`` module otherwise — and how a metric specification becomes one
(:func:`make_backend`, ``evaluate.load`` of a module path or Hub id).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

__all__ = [
    "LIBRARY_METRICS",
    "Backend",
    "space_sensitive",
    "library_scoring_tokenizer",
    "library_options",
    "make_backend",
]

LIBRARY_METRICS = ("chinese_rouge", "chinese_bleu")
"""Metric names that :func:`~zheval.adapters.trainer.hook.build_compute_metrics` computes with the zheval library
directly (no evaluate module load, no cache files; the numbers are identical to the ``metrics/<name>`` evaluate
modules)."""


# ---------------------------------------------------------------------------------------------------------------
# Metric back-ends: the zheval library (chinese_rouge, chinese_bleu) or any loaded evaluate module

def space_sensitive(options: Mapping) -> bool:
    """True when the scoring tokenizer named in ``options`` may take spaces as token boundaries: ``"none"`` (or a
    :class:`zheval.tokenizers.WhitespaceTokenizer`) and a user callable / ``.tokenize`` object (which receives the
    text with its spaces). For such a metric every space the hook removes from a decoded text (one the token ids
    cannot show, :func:`~zheval.adapters.trainer.spaces.remove_decoder_spaces`) counts as ambiguous. ``char`` and
    ``jieba`` (default) are not: their default normalisation removes spaces next to Chinese characters anyway."""
    from ...tokenizers import BaseTokenizer, CallableTokenizer, WhitespaceTokenizer

    tok = options.get("tokenizer")
    if tok is None or isinstance(tok, str):
        return tok == "none"
    if isinstance(tok, BaseTokenizer):
        return isinstance(tok, (WhitespaceTokenizer, CallableTokenizer))
    return True  # a user callable or object with .tokenize


def library_scoring_tokenizer(name: str, options: Mapping):
    """The zheval tokenizer that ``compute_bleu`` (``name="chinese_bleu"``) or ``compute_rouge``
    (``"chinese_rouge"``) builds from these options — their own option resolution, preset included — so that the
    hook can tell which references have no tokens before calling them. Options the metric does not take are ignored.
    Raises what the library raises for bad option values."""
    if name == "chinese_bleu":
        from ...compute import bleu as lib
    elif name == "chinese_rouge":
        from ...compute import rouge as lib
    else:
        raise ValueError(f"not a library metric: {name!r}; valid: {LIBRARY_METRICS}")
    own = {k: v for k, v in options.items() if k in library_options(name)}
    given = {k: v for k, v in own.items() if k in lib.DEFAULTS}
    resolved = lib.resolve_options(own.get("preset"), **given)
    tok_opts = {k: v for k, v in own.items() if k in lib.TOKENIZER_OPTIONS}
    if name == "chinese_bleu":
        return lib.build_bleu_tokenizer(resolved["tokenizer"], **tok_opts)
    tok_opts.pop("normalize", None)  # compute_rouge: the resolved value (a preset may set it) replaces the given one
    if resolved["normalize"] is not None:
        tok_opts["normalize"] = resolved["normalize"]
    return lib.build_rouge_tokenizer(resolved["tokenizer"], **tok_opts)


def _probe(compute) -> set:
    """Run ``compute`` on a one-item probe to raise bad option values when the hook is built; return the result's
    keys. A scoring tokenizer that gives the probe reference no token (a user callable) raises the data error
    :class:`~zheval.compute.inputs.EmptyReferenceError`, which says nothing about the options: the keys are then unknown
    (empty set)."""
    from ...compute.inputs import EmptyReferenceError

    try:
        return set(compute(["好"], ["好"]))
    except EmptyReferenceError:
        return set()


class Backend:
    """One metric of the hook. ``compute`` scores a whole set; ``add``/``summary`` accumulate batches."""

    name: str
    options: dict

    @property
    def space_sensitive(self) -> bool:
        """Whether this metric's scoring tokenizer may split on spaces (see :func:`space_sensitive`)."""
        return space_sensitive(self.options)

    def scoring_tokenizers(self) -> list:
        """``[(metric name, zheval tokenizer)]`` this metric scores with (built anew for each call: a user callable is
        never kept between calls); empty when the hook cannot know it (an evaluate module other than ours)."""
        return [(self.name, library_scoring_tokenizer(self.name, self.options))]

    def _take_options(self, options: dict, known) -> None:
        """Keep ``options``; refuse unknown ones and ``crosscheck`` (both metrics share these rules)."""
        self.options = dict(options)
        bad = sorted(set(self.options) - set(known))
        if bad:
            raise TypeError(f"{self.name} got unknown option(s) {bad}; valid options: {', '.join(sorted(known))}")
        if self.options.get("crosscheck"):
            raise ValueError("crosscheck=True is not supported inside a Trainer hook; run it on saved predictions")

    def compute(self, predictions: list[str], references: list[str]) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def add(self, predictions: list[str], references: list[str]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def summary(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def reset(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class _BleuBackend(Backend):
    """:func:`zheval.compute.bleu.compute_bleu`; batches keep the additive per-item statistics matrix."""

    name = "chinese_bleu"

    def __init__(self, options: dict):
        from ...compute import bleu as bleu_corpus

        self._lib = bleu_corpus
        self._take_options(options, bleu_corpus.BLEU_OPTIONS)
        # split as compute_bleu does: preset + scoring options, tokenizer options, interval options
        tok_opts = {k: v for k, v in self.options.items() if k in bleu_corpus.TOKENIZER_OPTIONS}
        given = {k: v for k, v in self.options.items() if k in bleu_corpus.DEFAULTS}
        self._opts = bleu_corpus.resolve_options(self.options.get("preset"), **given)
        self._tok_opts = tok_opts
        self._interval = {k: self.options[k] for k in ("bootstrap", "seed", "confidence") if k in self.options}
        self._stats: list[np.ndarray] = []
        # fail fast (bad option values) when the hook is built, not after training; the keys of this probe tell
        # which option-dependent extras compute_bleu adds (they do not depend on the data)
        self._probe_keys = _probe(self.compute)

    def compute(self, predictions, references):
        return self._lib.compute_bleu(predictions, references, **self.options)

    def add(self, predictions, references):
        o = self._opts
        self._stats.append(
            self._lib.bleu_stats(predictions, references, o["tokenizer"], o["max_order"], **self._tok_opts)
        )

    def summary(self):
        o = self._opts
        width = 3 + 2 * o["max_order"]
        stats = np.concatenate(self._stats, axis=0) if self._stats else np.zeros((0, width), dtype=np.int64)
        self._stats = []
        keys = ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")
        score_opts = {k: o[k] for k in keys}
        out = self._lib.result_from_stats(stats, level=o["level"], **self._interval, **score_opts)
        if "llamafactory_bleu_4" in self._probe_keys:
            from ...presets.llamafactory import llamafactory_bleu4

            out["llamafactory_bleu_4"] = llamafactory_bleu4(out["scores"])
        return out

    def reset(self):
        self._stats = []


class _RougeBackend(Backend):
    """:func:`zheval.compute.rouge.compute_rouge`; batches keep the per-item P/R/F of every ROUGE type and the summary
    takes their exact mean (``math.fsum``, order-independent), as ``compute_rouge`` does."""

    name = "chinese_rouge"

    def __init__(self, options: dict):
        from ...compute import rouge as rouge_corpus

        self._lib = rouge_corpus
        self._take_options(options, rouge_corpus.ROUGE_OPTIONS)
        if self.options.get("use_aggregator", True) is False:
            raise ValueError(
                "use_aggregator=False returns per-item lists; a Trainer needs one number per key (the per-item "
                "values of the last call are in hook.results only when use_aggregator=True is kept)"
            )
        self._items: dict[str, list[float]] = {}
        _probe(self.compute)  # fail fast (bad option values) when the hook is built, not after training

    def compute(self, predictions, references):
        return self._lib.compute_rouge(predictions, references, **self.options)

    def add(self, predictions, references):
        per_item = {**self.options, "use_aggregator": False, "bootstrap": 0, "return_precision_recall": True}
        res = self._lib.compute_rouge(predictions, references, **per_item)
        for key, value in res.items():
            if isinstance(value, list):
                self._items.setdefault(key, []).extend(value)

    def summary(self):
        from ...results.reducers import bootstrap_interval, mean

        items, self._items = self._items, {}
        types = [k for k in items if not k.endswith(("_precision", "_recall"))]
        out: dict[str, Any] = {t: mean(items[t]) for t in types}
        if self.options.get("return_precision_recall"):
            for t in types:
                out[f"{t}_precision"] = mean(items[f"{t}_precision"])
                out[f"{t}_recall"] = mean(items[f"{t}_recall"])
        n_boot = self.options.get("bootstrap", 0)
        if n_boot:
            seed, confidence = self.options.get("seed", 12345), self.options.get("confidence", 0.95)
            for t in types:
                values = np.asarray(items[t])
                if len(values):
                    low, high = bootstrap_interval(values, lambda a: a.mean(axis=-1), int(n_boot), confidence, seed)
                else:
                    low = high = 0.0
                out[f"{t}_ci_low"], out[f"{t}_ci_high"] = low, high
        if self.options.get("preset") == "llamafactory":
            from ...presets.llamafactory import llamafactory_item_value, llamafactory_mean
            from ...definitions.rouge import parse_rouge_type

            for t in types:
                rt = parse_rouge_type(t)
                key = "llamafactory_rouge_" + ("l" if rt.kind == "L" else str(rt.n))
                out[key] = llamafactory_mean([llamafactory_item_value(f) for f in items[t]])
        return out

    def reset(self):
        self._items = {}


def _is_zheval_module(module) -> bool:
    """A loaded ``metrics/chinese_rouge`` / ``metrics/chinese_bleu`` script of this package (its module calls this
    zheval's ``compute_rouge`` / ``compute_bleu``), not merely a module of that name."""
    import sys

    name = getattr(module, "name", None)
    if name not in LIBRARY_METRICS:
        return False
    from ...compute import bleu as bleu_corpus, rouge as rouge_corpus

    script = sys.modules.get(type(module).__module__)
    fn = rouge_corpus.compute_rouge if name == "chinese_rouge" else bleu_corpus.compute_bleu
    return getattr(script, fn.__name__, None) is fn


class _ModuleBackend(Backend):
    """A loaded ``evaluate`` module: ``compute`` for a whole set, ``add_batch`` + ``compute`` for batches."""

    def __init__(self, module, options: dict):
        members = getattr(module, "evaluation_modules", None) or [module]  # evaluate.combine(...) or one module
        for m in members:
            if getattr(m, "num_process", 1) != 1:
                raise ValueError(
                    f"evaluate module {getattr(m, 'name', m)!r} was loaded with num_process={m.num_process}: the "
                    "Trainer already gathers predictions from every rank and calls compute_metrics on each of them, "
                    "so evaluate's distributed mode must not be used inside a Trainer (load it without num_process)"
                )
        self.module = module
        names = getattr(module, "evaluation_module_names", None)
        self.name = getattr(module, "name", None) or ("+".join(names) if names else type(module).__name__)
        self.options = dict(options)

    def scoring_tokenizers(self) -> list:
        """For zheval's own modules (``metrics/chinese_rouge``, ``metrics/chinese_bleu``, alone or in
        ``evaluate.combine``) the tokenizer their ``compute`` builds from the options; nothing for other modules."""
        members = getattr(self.module, "evaluation_modules", None) or [self.module]
        return [(m.name, library_scoring_tokenizer(m.name, self.options)) for m in members if _is_zheval_module(m)]

    def compute(self, predictions, references):
        return self.module.compute(predictions=predictions, references=references, **self.options)

    def add(self, predictions, references):
        self.module.add_batch(predictions=predictions, references=references)

    def summary(self):
        return self.module.compute(**self.options)

    def reset(self):
        # evaluate has no public reset; compute() on the rows added so far empties the buffer
        try:
            self.module.compute(**self.options)
        except Exception:  # nothing was added, or the rows are unusable: either way the buffer is gone
            pass


def _load_module(spec: str):
    """``evaluate.load`` a module path or Hub id once (local paths made absolute: evaluate resolves relative paths
    against the CWD)."""
    import os

    import evaluate

    path = os.path.abspath(os.path.expanduser(spec)) if os.path.exists(os.path.expanduser(spec)) else spec
    return evaluate.load(path, keep_in_memory=True)


def make_backend(spec, options: dict) -> Backend:
    """The back-end of one metric specification of :func:`~zheval.adapters.trainer.hook.build_compute_metrics`.

    Args:
        spec: ``"chinese_rouge"`` / ``"chinese_bleu"`` (the library; each keeps only the options it takes), another
            string (an evaluate module path or Hub id, loaded here once), or a loaded evaluate module / ``combine``.
        options: the metric's options (shared and its own).

    Raises:
        TypeError: any other ``spec``; what the back-end raises for bad options.
    """
    if isinstance(spec, str):
        if spec == "chinese_bleu":
            return _BleuBackend(_own_options(options, spec))
        if spec == "chinese_rouge":
            return _RougeBackend(_own_options(options, spec))
        return _ModuleBackend(_load_module(spec), options)
    if hasattr(spec, "compute") and hasattr(spec, "add_batch"):
        return _ModuleBackend(spec, options)
    raise TypeError(
        f"a metric must be 'chinese_rouge', 'chinese_bleu', an evaluate module path or Hub id, a loaded evaluate "
        f"module, or a (metric, options) pair; got {type(spec).__name__}"
    )


def library_options(name: str) -> tuple[str, ...]:
    """Option names taken by a library metric (the keyword options of its compute function)."""
    if name == "chinese_bleu":
        from ...compute.bleu import BLEU_OPTIONS

        return tuple(BLEU_OPTIONS)
    from ...compute.rouge import ROUGE_OPTIONS

    return tuple(ROUGE_OPTIONS)


def _own_options(options: dict, name: str) -> dict:
    mine = set(library_options(name))
    return {k: v for k, v in options.items() if k in mine}
