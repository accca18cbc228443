"""The ``compute_metrics`` callable for ``Trainer`` / ``Seq2SeqTrainer``: [`build_compute_metrics`][zheval.adapters.trainer.hook.build_compute_metrics] routes the
shared options to the metrics and sets each one up once; `ZhevalComputeMetrics` decodes every call, skips and
counts the items whose reference is empty, scores (whole set, or batch by batch with ``batch_eval_metrics``) and
returns the flat ``{str: float}`` dict the Trainer logs (`flatten_result`).
"""

from __future__ import annotations

import logging
import math
import numbers
import warnings
from collections import Counter
from contextlib import contextmanager
from typing import Any, Mapping, Sequence

from ...compute.inputs import empty_references
from ...compute.metric_table import metric_api
from ...results.diagnostics import is_blank
from ...compute.options import OPTIONS_CLASSES, BleuOptions, ChrfOptions, RougeOptions, options_for_metrics
from .backends import DEFAULT_METRICS, LIBRARY_METRICS, Backend, make_backend
from .decode import IGNORE_INDEX, decode_with_ambiguity, pad_token_id_of
from .decoder_spaces import ambiguous_example, ambiguous_message
from .events import TrainerEvents

__all__ = [
    "DROP_KEYS",
    "ZhevalComputeMetrics",
    "build_compute_metrics",
    "flatten_result",
]

# the package's logger (records are named ``zheval.adapters.trainer``, whichever file of the package logs)
logger = logging.getLogger(__package__)

#: Result keys left out of the hook's flat dict by default: per-order raw counts (kept in ``hook.results``: BLEU's
#: ``counts``/``totals``, chrF's ``hyp_counts``/``ref_counts``/``matches``), chrF's options echoed in its result
#: (``char_order``, ``word_order``, ``beta``), the per-item ``scores`` list of sentence level, and strings
#: (``signature``, ``level``, chrF's ``name``) which are always left out.
DROP_KEYS = ("counts", "totals", "scores", "hyp_counts", "ref_counts", "matches", "char_order", "word_order", "beta")


# ---------------------------------------------------------------------------------------------------------------
# Results


def flatten_result(result: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Keep the numeric values of a metric result as a flat ``{str: float}`` dict.

    * numbers (``int``, ``float``, ``bool``, numpy scalars, 0-d arrays/tensors) → ``float``;
    * lists/tuples/1-d arrays of numbers → ``<key>_1``, ``<key>_2``, ... (``precisions`` → ``precisions_1`` ...);
    * nested dicts → ``<key>_<subkey>``;
    * strings (the ``signature``) and ``None`` are left out (they cannot be logged as scalars).

    Args:
        result: a metric's result dict. prefix: prepended to every key.

    Returns:
        A new dict (insertion order kept).
    """
    out: dict[str, float] = {}
    for key, value in result.items():
        name = f"{prefix}{key}"
        if isinstance(value, (str, bytes)) or value is None:
            continue
        if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
            value = value.tolist()  # numpy scalar/array, torch tensor
        if isinstance(value, Mapping):
            out.update(flatten_result(value, prefix=f"{name}_"))
        elif isinstance(value, (list, tuple)):
            if all(isinstance(v, numbers.Number) for v in value):
                for i, v in enumerate(value, 1):
                    out[f"{name}_{i}"] = float(v)
        elif isinstance(value, numbers.Number):
            out[name] = float(value)
    return out


def _merge_results(results: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """The hook's flat dict of several metrics' results ``{metric name: result dict}``, keys named as
    ``evaluate.combine`` names them: a result key that more than one metric returns is prefixed with the metric
    name, every other key is kept bare -- decided on the result keys themselves, *before* lists are flattened, so a
    metric's list is named as one (BLEU's and chrF's ``precisions`` → ``chinese_bleu_precisions_1`` ... ``_4`` and
    ``chinese_chrf_precisions_1`` ... ``_6``; chrF's ``recalls`` alone → ``recalls_1`` ...). `DROP_KEYS` are left
    out, the rest flattened by `flatten_result`. A flat name that two metrics still share after that (``x_1`` of one,
    ``x`` = ``[...]`` of the other, which combine keeps apart) is prefixed for each of them, so no value is lost."""
    keys = Counter(k for res in results.values() for k in res)
    flats = {
        name: {
            flat_key: value
            for key, v in res.items() if key not in DROP_KEYS
            for flat_key, value in flatten_result({key: v}, prefix=f"{name}_" if keys[key] > 1 else "").items()
        }
        for name, res in results.items()
    }
    seen = Counter(k for flat in flats.values() for k in flat)
    return {(k if seen[k] == 1 else f"{name}_{k}"): v for name, flat in flats.items() for k, v in flat.items()}


# ---------------------------------------------------------------------------------------------------------------
# The hook


_EMPTY_SET_MESSAGE = (
    "compute_metrics got an empty evaluation set (0 items in {where}): there is nothing to score. Check "
    "eval_dataset (empty split, or every row removed by filtering/max_length); the Trainer itself does not call "
    "compute_metrics for an empty dataloader"
)




@contextmanager
def _each_warning_once():
    """The warnings raised inside, issued once each (the same category and text once, in order, through the
    warning filters as usual): the metrics of one hook call check the same texts with the same tokenizer."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen = set()
    for w in caught:
        key = (w.category, str(w.message))
        if key not in seen:
            seen.add(key)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

class ZhevalComputeMetrics(TrainerEvents):
    """The callable returned by [`build_compute_metrics`][zheval.adapters.trainer.hook.build_compute_metrics] (see there); pass it as ``compute_metrics``,
    and with ``batch_eval_metrics=True`` as a callback too (``callbacks=[hook]``; `zheval.adapters.trainer.events`).

    Call forms (transformers 5.x):

    * ``hook(eval_pred)`` — the whole evaluation set at once (default Trainer behaviour). Stateless.
    * ``hook(eval_pred, compute_result=False|True)`` — ``batch_eval_metrics=True``: one call per batch (torch
      tensors); per-item statistics are kept, the call with ``compute_result=True`` returns the summary and resets
      the state. Calls with ``compute_result=False`` return ``{}``. An evaluation interrupted before its last
      batch leaves its batches behind: registered as a callback (``Trainer(..., compute_metrics=hook,
      callbacks=[hook])``) the hook discards them when the next evaluation starts, with a warning naming the rows;
      otherwise call ``hook.reset()`` (the first batch of an unregistered hook warns once).

    Returns:
        ``dict[str, float]``: for each metric its numeric keys (`flatten_result`, minus `DROP_KEYS`),
        e.g. ``rouge1, rouge2, rougeL, rougeLsum, bleu, precisions_1 .. precisions_4, brevity_penalty,
        length_ratio, translation_length, reference_length``; a result key produced by two metrics is prefixed with
        the metric name before lists are flattened, exactly as ``evaluate.combine`` names it (`_merge_results`:
        with chrF, ``chinese_bleu_precisions_1`` .. ``_4`` and ``chinese_chrf_precisions_1`` .. ``_6``). These counts
        are added when they are not 0: ``out_of_vocabulary_ids``
        (prediction ids beyond the tokenizer's vocabulary, left out of their rows), ``unknown_tokens`` /
        ``reference_unknown_tokens`` (prediction / label ids of the tokenizer's unknown token, which decoding drops as
        a special token), ``empty_predictions`` (scored items whose prediction decodes to blank text: 0), ``empty_references`` (items
        skipped because their reference decoded to an empty string or has no tokens for a metric's scoring
        tokenizer) and ``ambiguous_spaces`` (scored items whose prediction or reference lost a decoder space that
        could have been a real one, `remove_decoder_spaces`). When every item
        was skipped, every score is ``nan``. Scale: ROUGE and BLEU scores, precisions and the brevity penalty on 0–1
        (the ``llamafactory_*`` keys of the ``llamafactory`` presets on LLaMA-Factory's 0–100);
        ``translation_length``/``reference_length`` in tokens of the scoring tokenizer.

    Raises:
        ValueError: an empty evaluation set (0 items in a whole-set call, or in all the batches of a
            ``batch_eval_metrics`` evaluation); with ``empty_references="error"``, an item whose reference is empty;
            bad arrays (see `prediction_ids`).

    Attributes:
        metrics: the metric back-ends, in order. results: the full result dict of each metric from the last summary
            (with ``signature``, per-order ``counts``/``totals``, per-item ``scores``); ``predictions`` and
            ``references``: the decoded texts scored by the last whole-set call (for inspection/logging).
    """

    def __init__(
        self,
        tokenizer,
        backends: Sequence[Backend],
        *,
        causal_lm: bool = False,
        ignore_index: int = IGNORE_INDEX,
        clean_whitespace: bool = True,
        empty_references: str = "skip",
    ):
        self.tokenizer = tokenizer
        self.metrics = list(backends)
        self.causal_lm = bool(causal_lm)
        self.ignore_index = int(ignore_index)
        self.clean_whitespace = bool(clean_whitespace)
        self.empty_references = empty_references
        self.results: dict[str, dict] = {}
        self.predictions: list[str] = []
        self.references: list[str] = []
        self._n_items = 0
        self._n_skipped = 0
        self._n_ambiguous = 0
        self._counts: dict = {}
        self._ambiguous_example: str | None = None
        self._init_events()  # the batches kept (batch_eval_metrics) and what the Trainer's events showed

    # -- calls ---------------------------------------------------------------------------------------------------
    def __call__(self, eval_pred, compute_result: bool | None = None) -> dict[str, float]:
        preds, refs, amb_p, amb_r, counts = self._decode(eval_pred)
        if compute_result is None and not preds:
            raise ValueError(_EMPTY_SET_MESSAGE.format(where="this call"))
        keep, skipped = self._scorable(preds, refs)
        ambiguous = sum(1 for i in keep if amb_p[i] or amb_r[i])
        example = ambiguous_example(preds, refs, amb_p, amb_r, keep) if ambiguous else None
        preds = [preds[i] for i in keep]
        refs = [refs[i] for i in keep]
        counts["empty_predictions"] = sum(map(is_blank, preds))  # scored as every door (BLANK_SCORED); counted
        if compute_result is None:
            self.predictions, self.references = preds, refs
            with _each_warning_once():  # every metric checks the same texts: one warning, not one a metric
                results = {b.name: b.compute(preds, refs) for b in self.metrics} if preds else None
            return self._summarise(results, len(preds), skipped, ambiguous, example, counts)
        self._note_batch(len(keep) + skipped)
        if preds:
            with _each_warning_once():
                for b in self.metrics:
                    b.add(preds, refs)
        self._n_items += len(preds)
        self._n_skipped += skipped
        self._n_ambiguous += ambiguous
        for key, value in counts.items():
            self._counts[key] = self._counts.get(key, 0) + value
        if example is not None and self._ambiguous_example is None:
            self._ambiguous_example = f"batch item {example[len('item '):]}"
        if not compute_result:
            return {}
        self._check_carried_over()
        self._batch_rows, self._loader = [], None
        n, skipped, ambiguous, example = self._n_items, self._n_skipped, self._n_ambiguous, self._ambiguous_example
        counts, self._counts = self._counts, {}
        self._n_items = self._n_skipped = self._n_ambiguous = 0
        self._ambiguous_example = None
        if n + skipped == 0:
            self.reset()
            raise ValueError(_EMPTY_SET_MESSAGE.format(where="the batches of this evaluation"))
        try:
            results = {b.name: b.summary() for b in self.metrics} if n else None  # summary() empties each state
        except BaseException:
            self.reset()
            raise
        return self._summarise(results, n, skipped, ambiguous, example, counts)

    def decode(self, eval_pred) -> tuple[list[str], list[str]]:
        """Decoded ``(predictions, references)`` of one call, as the hook scores them (before items with an empty
        reference are skipped): see `decode_predictions`."""
        preds, refs, _, _, _ = self._decode(eval_pred)
        return preds, refs

    def _decode(self, eval_pred):
        """``decode_with_ambiguity``'s four lists and its counts (``out_of_vocabulary_ids``, ``unknown_tokens``)."""
        counts: dict = {}
        out = decode_with_ambiguity(
            eval_pred,
            self.tokenizer,
            causal_lm=self.causal_lm,
            ignore_index=self.ignore_index,
            clean_whitespace=self.clean_whitespace,
            space_sensitive=any(b.space_sensitive for b in self.metrics),
            counts=counts,
        )
        return (*out, counts)

    def reset(self) -> None:
        """Forget the batches accumulated in ``batch_eval_metrics`` mode (done after every summary, and when the hook,
        registered as a callback, sees a new evaluation start; call it yourself after an interrupted evaluation
        otherwise)."""
        self._batch_rows = []
        self._loader = None
        self._n_items = 0
        self._n_skipped = 0
        self._n_ambiguous = 0
        self._counts = {}
        self._ambiguous_example = None
        for b in self.metrics:
            b.reset()

    # -- helpers -------------------------------------------------------------------------------------------------
    def _scorable(self, preds: list[str], refs: list[str]) -> tuple[list[int], int]:
        """Indices of the items to score and the number skipped: an item is skipped when its reference decodes to
        an empty string or has no tokens for the scoring tokenizer of one of the metrics (``punct="drop"`` and a
        reference that is only punctuation; a user tokenizer returning ``[]``) — every metric scores the same items.
        With ``empty_references="error"`` the first such item raises ValueError."""
        tokenizers = [pair for b in self.metrics for pair in b.scoring_tokenizers()]
        reasons = {i: "decodes to an empty string (all label positions are -100/pad/special tokens)"
                   for (i, _) in empty_references([[r] for r in refs])}
        for name, tok in tokenizers:  # the library's empty-reference rule, with each metric's scoring tokenizer
            for i, _ in empty_references([[r] for r in refs], tok):
                reasons.setdefault(i, f"has no tokens for the scoring tokenizer of {name} ({refs[i]!r})")
        keep = [i for i in range(len(refs)) if i not in reasons]
        if reasons and self.empty_references == "error":
            first = min(reasons)
            raise ValueError(
                f"item {first} of this evaluation call (and {len(reasons) - 1} more) has a reference that "
                f"{reasons[first]}; use empty_references='skip' to skip and count such items"
            )
        return keep, len(reasons)

    def _summarise(self, results: dict | None, n_items: int, skipped: int, ambiguous: int = 0,
                   example: str | None = None, counts: Mapping[str, int] | None = None) -> dict[str, float]:
        if ambiguous:
            sensitive = any(b.space_sensitive for b in self.metrics)
            logger.warning(ambiguous_message(ambiguous, n_items, example, sensitive))
        if skipped:
            logger.warning(
                "zheval compute_metrics: skipped %d of %d items whose reference is empty (decodes to an empty string "
                "or has no tokens for a metric's scoring tokenizer; reported as 'empty_references')",
                skipped,
                skipped + n_items,
            )
        if results is None:
            # nothing to score: the same keys as a successful call, as nan (never a made-up 0)
            probe = {b.name: b.compute(["好"], ["好"]) for b in self.metrics}
            flat = self._flatten(probe)
            out = {k: math.nan for k in flat}
            logger.warning("zheval compute_metrics: no item with a non-empty reference; every score is nan")
            self.results = {}
        else:
            out = self._flatten(results)
            self.results = results
        if skipped:
            out["empty_references"] = float(skipped)
        if ambiguous:
            out["ambiguous_spaces"] = float(ambiguous)
        if (counts or {}).get("empty_predictions"):
            logger.warning("zheval compute_metrics: %d of %d predictions decode to blank text (0 unless the tokenizer "
                           "keeps an invisible character as a token; counted as 'empty_predictions')",
                           counts["empty_predictions"], n_items + skipped)
        for key, value in (counts or {}).items():  # what decoding left out or emptied (decode logged the ids)
            if value:
                out[key] = float(value)
        return out

    def _flatten(self, results: dict[str, dict]) -> dict[str, float]:
        return _merge_results(results)


def _metric_list(metrics):
    """``metrics`` of `build_compute_metrics` as a sequence: one ``(spec, options)`` pair is a list of one; one
    string is an existing path (kept whole, commas and spaces and all) or else a comma list read by
    `zheval.io.lists.split_entries`: ``"chinese_rouge,chinese_bleu"``, and one name alone by the same rule, so its
    surrounding spaces are stripped as a list's entries are (``" chinese_bleu"`` is ``chinese_bleu``, never a Hub id
    ``" chinese_bleu"``); an empty entry (``"chinese_rouge,,chinese_bleu"``) is refused naming ``metrics``; never one
    Hub id with commas in it. A list is kept as given (`make_backend` refuses an entry with surrounding spaces)."""
    import os

    if isinstance(metrics, tuple) and len(metrics) == 2 and isinstance(metrics[1], dict):
        return [metrics]
    if not isinstance(metrics, str):
        return metrics
    if os.path.exists(os.path.expanduser(metrics)):
        return [metrics]
    from ...io.lists import split_entries

    return split_entries(metrics, "metrics")


def _check_options_used(specs: list, shared: Mapping, function: str = "build_compute_metrics") -> None:
    """When every metric is a library metric: every shared option must be taken by at least one of them
    ([`options_for_metrics`][zheval.compute.options.options_for_metrics]; an
    evaluate module takes every option, so nothing is refused beside one). ``function`` names the call in the
    errors."""
    if all(isinstance(spec, str) and spec in LIBRARY_METRICS for spec in specs):
        options_for_metrics(function, [metric_api(spec).short for spec in specs], shared)


def _typed_options(specs: list, typed: Mapping) -> dict:
    """``{library metric name: options set in its typed object}`` (the fields changed from their defaults).

    Raises:
        TypeError: an object of the wrong class, or for a metric that is not asked for as a library metric."""
    out = {}
    for short, obj in typed.items():
        if obj is None:
            continue
        cls = OPTIONS_CLASSES[short]
        if not isinstance(obj, cls):
            raise TypeError(f"build_compute_metrics: {short}= takes a {cls.__name__}, got {type(obj).__name__}")
        name = metric_api(short).name
        if name not in specs:
            raise TypeError(f"build_compute_metrics: {short}={cls.__name__}(...) was given but {name!r} is not "
                            "among the metrics")
        out[name] = {k: getattr(obj, k) for k in obj.changed()}
    return out


def _check_shared_preset(specs: list, shared: Mapping) -> None:
    """A ``preset`` shared by the metrics must have a part for each library metric asked for: ``sacrebleu-zh`` is
    BLEU only, ``rouge155`` ROUGE only. The ValueError says how to use it in the hook -- only its metrics, or the
    preset on its metric alone -- rather than the library's bare "unknown preset" (issue 35)."""
    from ...presets import find_preset

    name = shared.get("preset")
    preset = find_preset(name) if isinstance(name, str) else None
    if preset is None:
        return
    library = [spec for spec in specs if isinstance(spec, str) and spec in LIBRARY_METRICS]
    missing = [spec for spec in library if "preset" in metric_api(spec).options
               and metric_api(spec).short not in preset.metrics]
    if not missing:
        return
    own = tuple(metric_api(m).name for m in preset.metrics)
    only = own[0]
    others = [(spec, {"preset": name}) if spec in own else spec for spec in library]
    raise ValueError(f"build_compute_metrics: preset {name!r} has no {' or '.join(missing)} (it is a "
                     f"{' and '.join(own)} preset) but the metrics are {tuple(specs)}: score only its metric "
                     f"with metrics={own!r}, preset={name!r}, or give the preset to {only} alone: "
                     f"metrics={others!r} without preset=")


def _metric_pairs(metrics: list, metric_options: Mapping, typed: Mapping) -> list:
    """``[(metric, its options)]``: the shared options, a typed object's fields and a pair's own options, each
    checked (an option given twice, one no library metric takes, a seed that is not an int)."""
    specs = [spec[0] if isinstance(spec, tuple) and spec else spec for spec in metrics]
    _check_shared_preset(specs, metric_options)
    typed = _typed_options(specs, typed)
    pairs = []
    for spec in metrics:
        extra: Mapping = {}
        if isinstance(spec, tuple):
            if len(spec) != 2 or not isinstance(spec[1], Mapping):
                raise TypeError(f"a (metric, options) pair needs an options dict, got {spec!r}")
            spec, extra = spec
            if isinstance(spec, str) and spec in LIBRARY_METRICS:
                _check_options_used([spec], dict(extra), spec)
        own = typed.get(spec, {}) if isinstance(spec, str) else {}
        twice = sorted(k for k in own if k in metric_options or k in extra)
        if twice:
            raise TypeError(f"build_compute_metrics: option(s) {twice} of {spec} given both by name and in its "
                            "options object; give each once")
        pairs.append((spec, {**metric_options, **own, **extra}))
        seed = pairs[-1][1].get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an int (it seeds the bootstrap), got {type(seed).__name__} {seed!r}")
    _check_options_used([spec for spec, _ in pairs], metric_options)
    return pairs


def build_compute_metrics(
    tokenizer=None,
    /,
    metrics: Sequence = DEFAULT_METRICS,
    *,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
    clean_whitespace: bool = True,
    empty_references: str = "skip",
    rouge: RougeOptions | None = None,
    bleu: BleuOptions | None = None,
    chrf: ChrfOptions | None = None,
    **metric_options: Any,
) -> ZhevalComputeMetrics:
    """Build a ``compute_metrics`` callable for ``transformers.Trainer`` / ``Seq2SeqTrainer`` (transformers 5.x).

    Every metric is set up here, once: library metrics validate their options (a bad option fails now, not after
    the first training epoch) and evaluate modules are loaded here, never inside the hook.

    Args:
        tokenizer: (positional) the transformers tokenizer that decodes predictions and labels — the Trainer's
            ``processing_class``. It needs ``pad_token_id``.
        metrics: a sequence of metrics (default ``("chinese_rouge", "chinese_bleu")``), or one string: a metric or a
            comma list of them (``"chinese_rouge,chinese_bleu"``, a single name too: `_metric_list`); each is

            * ``"chinese_rouge"`` / ``"chinese_bleu"`` / ``"chinese_chrf"``: computed with the zheval library directly
              ([`zheval.compute.rouge.compute_rouge`][], [`zheval.compute.bleu.compute_bleu`][],
              [`zheval.compute.chrf.compute_chrf`][] — what the
              ``metrics/chinese_*`` evaluate modules call, so the numbers are identical, without evaluate's module
              loading, Arrow cache files or locks);
            * any other string: a path to an evaluate module folder or script, or a Hub id, loaded once with
              ``evaluate.load(..., keep_in_memory=True)`` (relative paths are made absolute);
            * a loaded evaluate module (``EvaluationModule``) or ``evaluate.combine([...])``, used as it is (not
              in distributed mode);
            * a pair ``(metric, options)`` whose ``options`` dict is added to the shared options for that metric only.

        causal_lm: predictions are teacher-forced logits/ids of a causal LM: shift by one and score only positions
            whose label is not ``ignore_index`` (see `prediction_ids`). Leave
            False for ``Seq2SeqTrainer`` with ``predict_with_generate=True``.
        ignore_index: the label padding value (``-100``).
        clean_whitespace: remove the spaces a space-joining decoder (WordPiece, a character vocabulary) put between
            tokens where the ids cannot show a space (``今 天 天 气`` → ``今天天气``, ``4. 5`` → ``4.5``), keeping every
            space the ids show (``hello world`` in WordPiece; the word boundaries of a word-level vocabulary, which a
            scoring tokenizer that splits on spaces — ``"none"`` or your callable — needs). Default on for every
            scoring tokenizer, user callables included; byte-level BPE/SentencePiece texts are never changed. Items
            where a removed space could have been real are counted as ``ambiguous_spaces`` and logged (every removed
            space counts for ``"none"``/callables). False: score the texts exactly as ``batch_decode`` returns them.
        empty_references: ``"skip"`` (default): items whose reference decodes to ``""`` (all labels -100/special), or
            has no tokens for the scoring tokenizer of one of the metrics (library metrics and zheval's own evaluate
            modules; e.g. ``punct="drop"`` and a reference that is only punctuation), are left out of every metric,
            counted in the result as ``empty_references`` and logged; ``"error"``: raise ValueError naming the first.
        rouge: ``chinese_rouge``'s options as one [`RougeOptions`][zheval.compute.options.RougeOptions] (only
            with it in ``metrics``).
        bleu: ``chinese_bleu``'s options as one [`BleuOptions`][zheval.compute.options.BleuOptions], as ``rouge``.
        chrf: ``chinese_chrf``'s options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions], as ``rouge``.
        metric_options: options shared by the metrics, by name, each defined once in `zheval.compute.options`
            (``tokenizer="jieba"``, ``rouge_types``, ``max_order``, ``preset`` ...). For the library metrics each
            option goes to the metric(s) that take it; an option none of them takes raises TypeError
            ([`options_for_metrics`][zheval.compute.options.options_for_metrics]). Evaluate modules receive all shared options (as
            ``evaluate.combine`` does). Note: the keyword ``tokenizer=`` is the *scoring* tokenizer; the
            transformers tokenizer is the first, positional argument.

    Returns:
        A `ZhevalComputeMetrics`: ``hook(eval_pred)`` or ``hook(eval_pred, compute_result=...)`` →
        ``dict[str, float]``.

    Raises:
        ValueError: the tokenizer has no ``pad_token_id`` (says what to set); bad option values (from the metric);
            ``empty_references`` not ``"skip"``/``"error"``; an evaluate module in distributed mode.
        TypeError: no transformers tokenizer given; an unknown option or metric specification; a ``seed`` that is
            not an int.
    """
    if tokenizer is None or not hasattr(tokenizer, "batch_decode"):
        hint = ""
        if hasattr(metric_options.get("tokenizer"), "batch_decode"):
            hint = (
                " — pass it positionally: build_compute_metrics(tokenizer, ...); the keyword tokenizer= is the "
                "scoring tokenizer ('char', 'jieba', ...)"
            )
        raise TypeError(f"build_compute_metrics needs the transformers tokenizer as its first argument{hint}")
    pad_token_id_of(tokenizer)
    if empty_references not in ("skip", "error"):
        raise ValueError(f"empty_references must be 'skip' or 'error', got {empty_references!r}")
    metrics = _metric_list(metrics)
    if not metrics:
        raise ValueError("metrics is empty; name at least one metric")
    pairs = _metric_pairs(metrics, metric_options, {"rouge": rouge, "bleu": bleu, "chrf": chrf})
    backends = [make_backend(spec, options) for spec, options in pairs]
    names = [b.name for b in backends]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"metric(s) {dup} given twice; their keys would clash")
    return ZhevalComputeMetrics(
        tokenizer,
        backends,
        causal_lm=causal_lm,
        ignore_index=ignore_index,
        clean_whitespace=clean_whitespace,
        empty_references=empty_references,
    )
