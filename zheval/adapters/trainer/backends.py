"""The metric back-ends of the Trainer hook: one object per metric that scores a whole set (``compute``) or
accumulates batches (``add``/``summary``, ``batch_eval_metrics=True``) — the zheval library for ``chinese_rouge`` /
``chinese_bleu`` / ``chinese_chrf``, any loaded ``evaluate`` module otherwise — and how a metric specification becomes one
(`make_backend`, ``evaluate.load`` of a module path or Hub id).
"""

from __future__ import annotations

import warnings
from typing import Mapping

import numpy as np

from ...compute.guards import PresetOverrideWarning, warn_input_slips
from ...compute.inputs import validate_inputs
from ...compute.metric_table import metric_api
from ...results.poisson import poisson_keys

__all__ = [
    "LIBRARY_METRICS",
    "DEFAULT_METRICS",
    "Backend",
    "LibraryBackend",
    "space_sensitive",
    "library_scoring_tokenizer",
    "library_options",
    "make_backend",
]

LIBRARY_METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf")
"""Metric names that [`build_compute_metrics`][zheval.adapters.trainer.hook.build_compute_metrics] computes with the zheval library
directly (no evaluate module load, no cache files; the numbers are identical to the ``metrics/<name>`` evaluate
modules)."""

DEFAULT_METRICS = ("chinese_rouge", "chinese_bleu")
"""The metrics of the hook when none are named (chrF on request: ``metrics=[..., "chinese_chrf"]``)."""


# ---------------------------------------------------------------------------------------------------------------
# Metric back-ends: the zheval library (chinese_rouge, chinese_bleu) or any loaded evaluate module

def space_sensitive(options: Mapping) -> bool:
    """True when the scoring tokenizer named in ``options`` may take spaces as token boundaries: ``"none"`` (or a
    `zheval.tokenizers.WhitespaceTokenizer`) and a user callable / ``.tokenize`` object (which receives the
    text with its spaces). For such a metric every space the hook removes from a decoded text (one the token ids
    cannot show, `remove_decoder_spaces`) counts as ambiguous. ``char`` and
    ``jieba`` (default) are not: their default normalisation removes spaces next to Chinese characters anyway."""
    from ...tokenizers import BaseTokenizer, CallableTokenizer, WhitespaceTokenizer

    tok = options.get("tokenizer")
    if tok is None or isinstance(tok, str):
        return tok == "none"
    if isinstance(tok, BaseTokenizer):
        return isinstance(tok, (WhitespaceTokenizer, CallableTokenizer))
    return True  # a user callable or object with .tokenize


def rebuilt_config(api, options: Mapping):
    """``api.config(**options)`` built again when the hook is called (a jieba dictionary edited meanwhile is read
    again), without its `PresetOverrideWarning`: the hook warned once when it was built (`LibraryBackend`), and the
    same warning at every evaluation, for each config built, said it again and again (issue 35)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PresetOverrideWarning)
        return api.config(**options)


def library_scoring_tokenizer(name: str, options: Mapping):
    """The zheval tokenizer that the library metric ``name`` (``"chinese_bleu"`` / ``"chinese_rouge"``) builds from
    these options -- its own config (`zheval.compute.metric_table`), preset included -- so that the hook can tell
    which references have no tokens before scoring (for ``"chinese_chrf"`` the tokenizer of its words; a reference
    without tokens is skipped by the hook even when chrF alone could count its characters). Options the metric does not take are ignored. Raises what the
    library raises for bad option values (a ValueError for a name that is not a library metric)."""
    api = metric_api(name)
    return rebuilt_config(api, {k: v for k, v in options.items() if k in api.options}).tokenizer


class Backend:
    """One metric of the hook. ``compute`` scores a whole set; ``add``/``summary`` accumulate batches."""

    name: str
    options: dict

    @property
    def space_sensitive(self) -> bool:
        """Whether this metric's scoring tokenizer may split on spaces (see `space_sensitive`)."""
        return space_sensitive(self.options)

    def scoring_tokenizers(self) -> list:
        """``[(metric name, zheval tokenizer)]`` this metric scores with (built anew for each call: a user callable is
        never kept between calls); empty when the hook cannot know it (an evaluate module other than ours)."""
        return [(self.name, library_scoring_tokenizer(self.name, self.options))]

    def compute(self, predictions: list[str], references: list[str]) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def add(self, predictions: list[str], references: list[str]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def summary(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def reset(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class LibraryBackend(Backend):
    """``chinese_rouge``, ``chinese_bleu`` or ``chinese_chrf`` straight from the library's items/result pair
    (`zheval.compute.metric_table`): ``compute`` is ``result(items(whole set))``; with ``batch_eval_metrics`` every
    batch adds its items and the summary is the result of their concatenation -- the whole-set numbers exactly
    (BLEU and chrF statistics are additive; ROUGE's mean is ``math.fsum`` over the per-item values).

    The config is built (and every option checked) when the hook is built, and again for each evaluation, so that a
    jieba dictionary edited between evaluations is read again (nothing keyed by a user callable is kept)."""

    def __init__(self, name: str, options: dict):
        self.api = metric_api(name)
        self.name = self.api.name
        self.options = dict(options)
        bad = sorted(set(self.options) - set(self.api.options))
        if bad:
            raise TypeError(f"{self.name} got unknown option(s) {bad}; valid options: "
                            f"{', '.join(sorted(self.api.options))}")
        if self.options.get("crosscheck"):
            raise ValueError("crosscheck=True is not supported inside a Trainer hook; run it on saved predictions")
        if self.api.short == "rouge" and self.options.get("use_aggregator", True) is False:
            raise ValueError(
                "use_aggregator=False returns per-item lists; a Trainer needs one number per key (the per-item "
                "values of the last call are in hook.results only when use_aggregator=True is kept)"
            )
        # fail fast: bad option values when the hook is built, and the rules of compute_<metric>'s door (an option
        # that would change nothing -- seed without bootstrap, sentence_split without rougeLsum -- is refused)
        self.config = self.api.door("build_compute_metrics", self.options)
        self._parts: list = []
        self._keys: list = []  # the Poisson bootstrap's item keys of each part (None without it)
        self._batch_config = None

    def compute(self, predictions, references):
        config = rebuilt_config(self.api, self.options)
        preds, refs = validate_inputs(predictions, references)
        warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies,
                         words=getattr(config, "uses_tokens", True))
        return self.api.result(self.api.items(preds, refs, config), config, **_keyed(preds, refs, config))

    def add(self, predictions, references):
        if self._batch_config is None:
            self._batch_config = rebuilt_config(self.api, self.options)
        config = self._batch_config
        preds, refs = validate_inputs(predictions, references)
        if not self._parts:
            warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies,
                             words=getattr(config, "uses_tokens", True))
        self._parts.append(self.api.items(preds, refs, config))
        self._keys.append(_keyed(preds, refs, config).get("keys"))

    def summary(self):
        config = self._batch_config if self._batch_config is not None else rebuilt_config(self.api, self.options)
        parts, self._parts, self._batch_config = self._parts, [], None
        keys, self._keys = self._keys, []
        items = self.api.concat(parts) if parts else self.api.empty(config)
        if parts and keys[0] is not None:
            return self.api.result(items, config, keys=np.concatenate(keys))
        return self.api.result(items, config)

    def reset(self):
        self._parts, self._keys, self._batch_config = [], [], None


def _keyed(preds, refs, config) -> dict:
    """``{"keys": ...}`` when ``config`` asks for the Poisson bootstrap (`zheval.results.poisson.poisson_keys`), else
    ``{}`` (BERTScore's result takes no keys)."""
    keys = poisson_keys(preds, refs, config)
    return {} if keys is None else {"keys": keys}


def _is_zheval_module(module) -> bool:
    """A loaded ``metrics/chinese_rouge`` / ``metrics/chinese_bleu`` / ``metrics/chinese_chrf`` script of this package (its class is built on
    [`zheval.adapters.evaluate_module.ZhevalMetricMixin`][]), not merely a module of that name."""
    from ..evaluate_module import ZhevalMetricMixin

    return getattr(module, "name", None) in LIBRARY_METRICS and isinstance(module, ZhevalMetricMixin)


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
        for m in members:  # zheval's own modules: their option errors now, not at the first evaluation
            if _is_zheval_module(m):
                m._zheval.check(**m._zheval_options(options))
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


HUB_LOOKALIKES = {"rouge": "chinese_rouge", "bleu": "chinese_bleu", "sacrebleu": "chinese_bleu",
                  "google_bleu": "chinese_bleu"}
"""Bare metric names that ``evaluate.load`` would fetch from the Hub, whose modules tokenise for English (the Hub's
``rouge`` keeps only ASCII words, so Chinese scores 0; ``bleu``, ``sacrebleu`` and ``google_bleu`` split on spaces
and punctuation, so a run of Chinese is one word), mapped to zheval's metric. (The Hub's ``chrf`` is sacrebleu's
character chrF and scores Chinese: not refused.)"""


def _refuse_bare_hub_name(spec: str) -> None:
    """Refuse ``spec`` when it is one of `HUB_LOOKALIKES` and no local path: it would load the Hub's English module
    (issue 35 break-it pass 17); ``evaluate-metric/rouge`` loads it on purpose."""
    import os

    name = spec.strip().lower()
    if name in HUB_LOOKALIKES and not os.path.exists(os.path.expanduser(spec)):
        raise ValueError(f"metric {spec!r} would load the Hugging Face Hub's {name} module with evaluate.load, whose "
                         f"English tokenisation scores Chinese as 0 (rouge) or reads a run of Chinese as one word "
                         f"(the BLEUs): use {HUB_LOOKALIKES[name]!r} (zheval's), or write 'evaluate-metric/{name}' to "
                         f"load the Hub module on purpose")


def make_backend(spec, options: dict) -> Backend:
    """The back-end of one metric specification of [`build_compute_metrics`][zheval.adapters.trainer.hook.build_compute_metrics].

    Args:
        spec: ``"chinese_rouge"`` / ``"chinese_bleu"`` / ``"chinese_chrf"`` (the library; each keeps only the options
            it takes), another
            string (an evaluate module path or Hub id, loaded here once), or a loaded evaluate module / ``combine``.
        options: the metric's options (shared and its own).

    Raises:
        TypeError: any other ``spec``; what the back-end raises for bad options.
        ValueError: a string ``spec`` with surrounding spaces that is not an existing path (a list entry
            ``" chinese_bleu"``; one string ``metrics`` is stripped by `zheval.io.lists.split_entries` before);
            a bare ``rouge`` / ``bleu`` / ``sacrebleu`` / ``google_bleu`` that is no local path (`HUB_LOOKALIKES`: the Hub's
            English modules; ``evaluate-metric/rouge`` loads one on purpose).
    """
    import os

    if isinstance(spec, str):
        if spec != spec.strip() and not os.path.exists(os.path.expanduser(spec)):
            # " chinese_bleu" would go to evaluate as a Hub id; a comma-list string is stripped (split_entries), an
            # entry of a list is refused, as zheval.score refuses metrics=[" bleu"]
            raise ValueError(f"metric name {spec!r} has surrounding spaces (not an existing path); write "
                             f"{spec.strip()!r}")
        if spec in LIBRARY_METRICS:
            return LibraryBackend(spec, _own_options(options, spec))
        _refuse_bare_hub_name(spec)
        return _ModuleBackend(_load_module(spec), options)
    if hasattr(spec, "compute") and hasattr(spec, "add_batch"):
        return _ModuleBackend(spec, options)
    raise TypeError(
        f"a metric must be 'chinese_rouge', 'chinese_bleu', 'chinese_chrf', an evaluate module path or Hub id, a "
        f"loaded evaluate "
        f"module, or a (metric, options) pair; got {type(spec).__name__}"
    )


def library_options(name: str) -> tuple[str, ...]:
    """Option names taken by a library metric (the keyword options of its compute function)."""
    return tuple(metric_api(name).options)


def _own_options(options: dict, name: str) -> dict:
    mine = set(library_options(name))
    return {k: v for k, v in options.items() if k in mine}
