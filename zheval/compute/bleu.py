"""High-level Chinese BLEU on texts: validate, tokenise, per-item statistics, reduce, sign.

:func:`compute_bleu` is what ``metrics/chinese_bleu`` calls; all scoring happens in :mod:`zheval.definitions.bleu` on the
additive per-item statistics, so corpus BLEU, sentence BLEU, bootstrap intervals and shards all come from one
``(n_items, 3 + 2 * max_order)`` integer matrix (:func:`bleu_stats` returns it for sharded/streamed use).
"""

from __future__ import annotations

import logging
from typing import Any, Optional, Sequence

import numpy as np

from ..presets import BLEU_PRESETS as PRESETS
from ..presets.llamafactory import llamafactory_bleu4
from ..definitions.bleu import (
    BP_REF_LENGTHS,
    SMOOTH_METHODS,
    score_stats,
    stats_max_order,
    sum_stats,
    validate_options,
)
from ..fast.bleu import corpus_stats, layout_stats
from ..tokenizers.llamafactory import LlamaFactoryCharTokenizer
from ..tokenizers.sacrebleu_zh import SacrebleuZhTokenizer
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips
from .inputs import check_references, validate_inputs
from ..presets import apply_preset
from .options import refused_hub_options
from ..results.signature import build_signature
from ..results.reducers import bootstrap_interval, check_bootstrap, check_interval_options, mean
from ..tokenizers import BaseTokenizer, get_tokenizer

__all__ = [
    "LEVELS",
    "PRESET_NAMES",
    "BLEU_OPTIONS",
    "TOKENIZER_OPTIONS",
    "DEFAULTS",
    "compute_bleu",
    "bleu_stats",
    "resolve_options",
    "build_bleu_tokenizer",
    "result_from_stats",
    "check_call",
]

logger = logging.getLogger(__name__)

#: Valid ``level`` values.
LEVELS = ("corpus", "sentence")
#: Valid ``preset`` names.
PRESET_NAMES = tuple(PRESETS)

#: Defaults when neither the caller nor a preset sets an option. ``effective_order=None`` means "yes at sentence
#: level, no at corpus level" (sacrebleu's ``sentence_bleu`` / ``corpus_bleu`` defaults).
DEFAULTS = {
    "tokenizer": "char",
    "max_order": 4,
    "smooth_method": "exp",
    "smooth_value": None,
    "bp_ref_length": "closest",
    "level": "corpus",
    "effective_order": None,
    "weights": None,
}
#: Tokenizer options shared with chinese_rouge (same names, same meaning), forwarded to
#: :func:`zheval.tokenizers.get_tokenizer`.
TOKENIZER_OPTIONS = ("terms", "punct", "jieba_hmm", "jieba_dict", "normalize", "t2s")
#: Every option :func:`compute_bleu` understands.
BLEU_OPTIONS = tuple(DEFAULTS) + TOKENIZER_OPTIONS + ("preset", "crosscheck", "bootstrap", "seed", "confidence")

#: Tokenizer names that only BLEU presets use (in addition to zheval.tokenizers' registry).
BLEU_TOKENIZERS = {"sacrebleu-zh": SacrebleuZhTokenizer, "llamafactory-char": LlamaFactoryCharTokenizer}

_UNSET = object()


def resolve_options(preset: Optional[str] = None, **given) -> dict:
    """Merge explicit options over a preset over :data:`DEFAULTS`; validate them.

    Args:
        preset: ``None``, ``"sacrebleu-zh"`` or ``"llamafactory"``.
        given: explicitly given options (keys of :data:`DEFAULTS`); ``_UNSET`` values are ignored.

    Returns:
        A dict with every key of :data:`DEFAULTS` resolved (``effective_order`` as a bool, ``smooth_value`` as the
        method's default when not given, ``weights`` as a tuple or None), plus ``"preset"``.

    Raises:
        ValueError: unknown preset / smooth_method / bp_ref_length / level (each lists the valid values), bad
            ``max_order``, ``smooth_value`` or ``weights``.
    """
    opts = apply_preset(DEFAULTS, PRESETS, preset, given, _UNSET, {"rouge155": "chinese_rouge"})
    if opts["level"] not in LEVELS:
        raise ValueError(f"unknown level {opts['level']!r}; valid values: {', '.join(LEVELS)}")
    max_order = opts["max_order"]
    if isinstance(max_order, bool) or not isinstance(max_order, (int, np.integer)) or max_order < 1:
        raise ValueError(f"max_order must be an int >= 1, got {max_order!r}")
    opts["max_order"] = int(max_order)
    if opts["smooth_method"] not in SMOOTH_METHODS:
        raise ValueError(f"unknown smooth_method {opts['smooth_method']!r}; valid values: {', '.join(SMOOTH_METHODS)}")
    if opts["bp_ref_length"] not in BP_REF_LENGTHS:
        raise ValueError(f"unknown bp_ref_length {opts['bp_ref_length']!r}; valid values: {', '.join(BP_REF_LENGTHS)}")
    # a preset's smooth_value belongs to the preset's smoothing method: when the caller changes the method,
    # the value falls back to the new method's default unless given explicitly
    if given.get("smooth_value", _UNSET) is _UNSET and given.get("smooth_method", _UNSET) is not _UNSET:
        opts["smooth_value"] = None
    opts["smooth_value"], opts["weights"] = validate_options(
        opts["smooth_method"], opts["smooth_value"], opts["bp_ref_length"], opts["weights"], opts["max_order"]
    )
    eff = opts["effective_order"]
    if eff is None:
        eff = opts["level"] == "sentence"
    if not isinstance(eff, (bool, np.bool_)):
        raise TypeError(f"effective_order must be True, False or None, got {eff!r}")
    opts["effective_order"] = bool(eff)
    opts["preset"] = preset
    return opts


def build_bleu_tokenizer(tokenizer: Any = "char", **tokenizer_options) -> BaseTokenizer:
    """A zheval tokenizer for ``tokenizer``: a name of :mod:`zheval.tokenizers` (``char``, ``jieba``, ``none``), a
    BLEU preset tokenizer (``sacrebleu-zh``, ``llamafactory-char``), a tokenizer instance, or a user callable.

    ``tokenizer_options`` (:data:`TOKENIZER_OPTIONS`, unset ones omitted) go to
    :func:`zheval.tokenizers.get_tokenizer`. The preset tokenizers reproduce a tool exactly and take no option:
    ``normalize`` False/None/"none", ``t2s`` False, no ``terms``, ``punct="keep"``, no jieba options are accepted
    (they change nothing); anything else raises ``ValueError``.
    """
    if isinstance(tokenizer, str) and tokenizer in BLEU_TOKENIZERS:
        bad = {
            k: v
            for k, v in tokenizer_options.items()
            if not (
                (k == "normalize" and (v is None or v is False or v == "none"))
                or (k in ("t2s", "jieba_hmm") and v is False)
                or (k == "terms" and not v)
                or (k == "punct" and v == "keep")
                or (k == "jieba_dict" and v is None)
            )
        }
        if bad:
            raise ValueError(
                f"tokenizer {tokenizer!r} reproduces a reference tool exactly and takes no options; got {bad}"
            )
        return _preset_tokenizer(tokenizer)
    return get_tokenizer(tokenizer, **tokenizer_options)


_PRESET_TOKENIZERS: dict = {}


def _preset_tokenizer(name: str) -> BaseTokenizer:
    tok = _PRESET_TOKENIZERS.get(name)
    if tok is None:
        tok = _PRESET_TOKENIZERS[name] = BLEU_TOKENIZERS[name]()
    return tok


def _tokenize_checked(preds, refs, tok: BaseTokenizer):
    """Tokenise (cached); refuse empty references (:func:`zheval.compute.inputs.check_references`, naming every index)."""
    tcache = tok.tokenize_cached
    hyp_tokens = [tcache(p) for p in preds]
    ref_tokens = [[tcache(r) for r in rs] for rs in refs]
    check_references(refs, tok, [len(t) for row in ref_tokens for t in row])
    return hyp_tokens, ref_tokens


def bleu_stats(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Any = "char",
    max_order: int = 4,
    **tokenizer_options,
) -> np.ndarray:
    """Validate and tokenise texts; return the per-item statistics matrix (see :mod:`zheval.definitions.bleu`).

    For sharded or streamed evaluation: the matrices of shards concatenate (or their column sums add) to those of
    the whole, and :func:`result_from_stats` scores them. Errors as :func:`compute_bleu`.
    """
    preds, refs = validate_inputs(predictions, references)
    tok = build_bleu_tokenizer(tokenizer, **tokenizer_options)
    hyp_tokens, ref_tokens = _tokenize_checked(preds, refs, tok)
    return corpus_stats(hyp_tokens, ref_tokens, max_order)


def _smooth_field(method: str, value) -> str:
    if value is None:
        return method
    return f"{method}[{format(float(value), 'g')}]"


def result_from_stats(
    stats,
    *,
    smooth_method: str = "exp",
    smooth_value=None,
    bp_ref_length: str = "closest",
    level: str = "corpus",
    effective_order: bool = False,
    weights=None,
    bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
) -> dict:
    """The result dict of :func:`compute_bleu` (without signature/crosscheck) from a per-item statistics matrix.

    Keys (0-1 scale): ``bleu``, ``precisions``, ``brevity_penalty``, ``length_ratio``, ``translation_length``,
    ``reference_length``, ``counts``, ``totals``, ``level``; at sentence level also ``scores`` (per item);
    with ``bootstrap > 0`` also ``bleu_ci_low``, ``bleu_ci_high``.
    """
    arr = np.asarray(stats)
    if arr.ndim != 2:
        raise ValueError(f"statistics must be an items x columns matrix, got shape {arr.shape}")
    order = stats_max_order(arr)
    opts = dict(
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        bp_ref_length=bp_ref_length,
        effective_order=effective_order,
        weights=weights,
    )
    total = score_stats(sum_stats(arr), **opts)
    out = {
        "bleu": total.score,
        "precisions": list(total.precisions),
        "brevity_penalty": total.brevity_penalty,
        "length_ratio": total.length_ratio,
        "translation_length": total.hyp_len,
        "reference_length": total.ref_len,
        "counts": list(total.counts),
        "totals": list(total.totals),
        "level": level,
    }
    item_scores = None
    if level == "sentence":
        items = [score_stats(row, **opts) for row in arr.tolist()]
        item_scores = [s.score for s in items]
        out["bleu"] = mean(item_scores)
        out["precisions"] = [mean(ps) for ps in zip(*[s.precisions for s in items])] if items else [0.0] * order
        out["brevity_penalty"] = mean([s.brevity_penalty for s in items]) if items else 1.0
        out["scores"] = item_scores
    if check_bootstrap(bootstrap):
        if arr.shape[0] == 0:
            low = high = 0.0
        elif level == "sentence":
            low, high = bootstrap_interval(np.asarray(item_scores), lambda r: r.mean(axis=-1), int(bootstrap),
                                           confidence, seed)
        else:
            width = arr.shape[1]

            def corpus_statistic(r: np.ndarray) -> np.ndarray:
                sums = r.sum(axis=-2).reshape(-1, width)
                vals = np.array([score_stats(row, **opts).score for row in sums.tolist()])
                return vals.reshape(r.shape[:-2])

            def sums_statistic(sums: np.ndarray) -> np.ndarray:
                return np.array([score_stats(row, **opts).score for row in sums.tolist()])

            low, high = bootstrap_interval(arr, corpus_statistic, int(bootstrap), confidence, seed,
                                           sums_statistic=sums_statistic)
        out["bleu_ci_low"], out["bleu_ci_high"] = low, high
    return out


@without_cyclic_gc
def compute_bleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Any = _UNSET,
    max_order: int = _UNSET,
    smooth_method: str = _UNSET,
    smooth_value: Optional[float] = _UNSET,
    bp_ref_length: str = _UNSET,
    level: str = _UNSET,
    effective_order: Optional[bool] = _UNSET,
    weights: Optional[Sequence[float]] = _UNSET,
    preset: Optional[str] = None,
    crosscheck: bool = False,
    bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
    _validated: bool = False,
    _warn_slips: bool = True,
    **tokenizer_options,
) -> dict:
    """Chinese BLEU of predictions against (ragged) references, on the 0-1 scale, with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged). Not sacrebleu's transposed streams.
        tokenizer: ``"char"`` (default), ``"jieba"``, ``"none"`` (whitespace-split, pre-tokenised text),
            ``"sacrebleu-zh"``, ``"llamafactory-char"``, a zheval tokenizer, or a callable ``str -> list[str]``.
        max_order: highest n-gram order (default 4).
        smooth_method: ``"exp"`` (default, sacrebleu's), ``"none"``, ``"floor"``, ``"add-k"``, ``"nltk3"``.
        smooth_value: for ``floor`` (default 0.1) and ``add-k`` (default 1).
        bp_ref_length: ``"closest"`` (default), ``"shortest"``, ``"none"`` (no brevity penalty).
        level: ``"corpus"`` (default; Papineni's micro-average from summed statistics) or ``"sentence"`` (each item
            alone, the mean is reported as ``bleu`` and the per-item list as ``scores``).
        effective_order: default ``True`` at sentence level, ``False`` at corpus level (sacrebleu's defaults).
        weights: optional ``max_order`` per-order weights (default uniform).
        preset: ``"sacrebleu-zh"`` (exactly ``sacrebleu.corpus_bleu(..., tokenize="zh")`` on raw text) or
            ``"llamafactory"`` (LLaMA-Factory's BLEU-4: per-item nltk method-3 BLEU on ``list(text)``, averaged;
            adds ``llamafactory_bleu_4``, their number on their 0-100 scale with their per-item rounding). A preset
            sets defaults; arguments given explicitly override them.
        crosscheck: recompute with sacrebleu ``tokenize="none"`` on our exact tokens (nltk for ``nltk3`` at
            sentence level; plus sacrebleu ``tokenize="zh"`` on raw text with the sacrebleu-zh tokenizer) and add
            ``crosscheck`` = ``{"tool", "bleu", "max_abs_diff", "items", ...}``.
        bootstrap: number of bootstrap resamples of items (0 = none) for a percentile ``confidence`` interval
            (``bleu_ci_low``, ``bleu_ci_high``), seeded with ``seed``.
        tokenizer_options: ``terms``, ``punct``, ``jieba_hmm``, ``jieba_dict``, ``normalize``, ``t2s`` -- as in
            :func:`zheval.tokenizers.get_tokenizer` and chinese_rouge.
        _validated: internal (the evaluate module): ``predictions`` and ``references`` are already the output of
            :func:`zheval.compute.inputs.validate_inputs` (``list[str]``, ``list[list[str]]``).
        _warn_slips: internal (:func:`zheval.compute.joint.score`, which checks once for both metrics): run
            :func:`zheval.compute.guards.warn_input_slips` (default True).

    Returns:
        ``{"bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length"}``
        (the Hugging Face ``bleu`` module's keys and scale) plus ``counts``, ``totals`` (per order, summed over
        items), ``level``, ``signature``; ``scores`` at sentence level (where ``precisions`` and
        ``brevity_penalty`` are per-item means); ``bleu_ci_low``/``bleu_ci_high`` with bootstrap; ``crosscheck``;
        ``llamafactory_bleu_4`` with the llamafactory preset.

    Raises:
        ValueError: length mismatch (with a hint for sacrebleu's transposed layout), an empty reference list (naming
            the item), unknown option values (listing the valid ones), options that do not apply to the tokenizer,
            a crosscheck the tools cannot express; ``bootstrap`` not an int in
            [0, :data:`~zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES`], ``seed`` outside [0, 2**32 - 1], ``confidence``
            outside (0, 1) (:func:`zheval.results.reducers.check_interval_options`).
        EmptyReferenceError (a ValueError): references that are blank or have no token after normalisation and
            tokenisation with this tokenizer (a reference length of 0 would cancel the brevity penalty), every one
            named as ``references[i][j]`` (:func:`zheval.compute.inputs.check_references`; every preset too).
        TypeError: a non-``str`` prediction or reference (naming its index), an unknown keyword option (with the
            reason for the Hub bleu module's ``smooth``), a non-int ``seed``.

    Warns:
        :class:`zheval.ZhevalWarning` subclasses, once per call (:mod:`zheval.compute.guards`): ``tokenizer="none"`` on
        unsegmented Chinese; Traditional vs Simplified texts with ``t2s`` off.
    """
    opts, tok = _prepare(
        preset=preset,
        tokenizer=tokenizer,
        max_order=max_order,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        bp_ref_length=bp_ref_length,
        level=level,
        effective_order=effective_order,
        weights=weights,
        bootstrap=bootstrap,
        crosscheck=crosscheck,
        seed=seed,
        confidence=confidence,
        **tokenizer_options,
    )
    preds, refs = (predictions, references) if _validated else validate_inputs(predictions, references)
    if _warn_slips:
        warn_input_slips(preds, refs, tok, t2s_option=not (isinstance(opts["tokenizer"], str)
                                                          and opts["tokenizer"] in BLEU_TOKENIZERS))
    hyp_tokens, ref_tokens = _tokenize_checked(preds, refs, tok)
    stats = corpus_stats(hyp_tokens, ref_tokens, opts["max_order"])
    return _finish(stats, opts, tok, preds, refs, hyp_tokens, ref_tokens, preset, crosscheck, bootstrap, seed,
                   confidence)


def compute_bleu_from_layout(layout, layout_tokenizer: BaseTokenizer, predictions, references, _stats=None,
                             **options) -> dict:
    """:func:`compute_bleu` on an already tokenised corpus (used by :func:`zheval.compute.joint.score`).

    ``layout`` is a :class:`zheval.fast.index.CorpusLayout` whose texts' token ids are exactly ``layout_tokenizer``'s
    tokens of ``predictions``/``references`` (validated lists; references already checked non-empty with it).
    ``options`` as :func:`compute_bleu`; they must resolve to this tokenizer (same fingerprint) and no crosscheck,
    else ``ValueError``. The result equals ``compute_bleu(predictions, references, **options)``. ``_stats``:
    internal, the statistics matrix :func:`zheval.definitions.bleu.layout_stats` already computed for this layout and
    ``max_order`` (by :func:`zheval.compute.joint.score`).
    """
    preset = options.pop("preset", None)
    crosscheck = options.pop("crosscheck", False)
    bootstrap = options.pop("bootstrap", 0)
    seed = options.pop("seed", 12345)
    confidence = options.pop("confidence", 0.95)
    opts, tok = _prepare(preset=preset, bootstrap=bootstrap, crosscheck=crosscheck, seed=seed, confidence=confidence,
                         **options)
    if crosscheck or tok.fingerprint != layout_tokenizer.fingerprint:
        raise ValueError("compute_bleu_from_layout needs the layout's own tokenizer and no crosscheck")
    # the empty-reference rule on the layout's own token counts (the layout's builder checked it already)
    check_references(references, tok, layout.lengths[layout.ref])
    stats = _stats if _stats is not None else layout_stats(layout, opts["max_order"])
    return _finish(stats, opts, tok, predictions, references, None, None, preset, crosscheck, bootstrap, seed,
                   confidence)


def _prepare(preset=None, bootstrap=0, crosscheck=False, seed=12345, confidence=0.95, **options):
    """Resolve and validate every option (no text is touched); return ``(opts, tokenizer)``."""
    given = {k: options.pop(k) for k in list(options) if k in DEFAULTS}
    bad = sorted(set(options) - set(TOKENIZER_OPTIONS))
    if bad:
        raise TypeError(f"compute_bleu got unknown option(s) {bad}; valid options: {', '.join(BLEU_OPTIONS)}"
                        f"{refused_hub_options(bad)}")
    opts = resolve_options(preset, **given)
    check_interval_options(bootstrap, seed, confidence)
    tok = build_bleu_tokenizer(opts["tokenizer"], **options)
    if crosscheck:
        from ..results.crosscheck_bleu import unsupported_reason

        reason = unsupported_reason(**{k: opts[k] for k in ("smooth_method", "bp_ref_length", "effective_order",
                                                            "weights", "level")})
        if reason:
            raise ValueError(f"crosscheck=True: {reason}")
    return opts, tok


def check_call(predictions=None, references=None, **options) -> None:
    """Raise exactly the errors :func:`compute_bleu` would raise for these inputs and options, without scoring.

    Used by the evaluate module before evaluate stores a batch (evaluate would otherwise coerce non-strings or
    report a length mismatch without the transposed-layout hint). ``predictions``/``references`` may be ``None``
    to check options only. Tokens computed here are cached, so the later computation does not redo them.
    """
    _, tok = _prepare(**options)
    if predictions is not None or references is not None:
        preds, refs = validate_inputs(predictions, references)
        _tokenize_checked(preds, refs, tok)


def _finish(stats, opts, tok, preds, refs, hyp_tokens, ref_tokens, preset, crosscheck, bootstrap, seed, confidence):
    score_opts = {k: opts[k] for k in ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")}
    out = result_from_stats(
        stats, level=opts["level"], bootstrap=int(bootstrap), seed=seed, confidence=confidence, **score_opts
    )

    fields = [
        ("level", opts["level"]),
        ("order", opts["max_order"]),
        ("smooth", _smooth_field(opts["smooth_method"], opts["smooth_value"])),
        ("bp", opts["bp_ref_length"]),
        ("eff", opts["effective_order"]),
    ]
    if opts["weights"] is not None:
        fields.append(("weights", "/".join(format(w, "g") for w in opts["weights"])))
    if bootstrap:
        fields += [("bs", int(bootstrap)), ("seed", seed)]
        if confidence != 0.95:
            fields.append(("conf", float(confidence)))
    out["signature"] = build_signature(tok, [len(r) for r in refs], "bleu", fields, preset=preset)

    if preset == "llamafactory" and opts["level"] == "sentence":
        # LLaMA-Factory's own number (0-100, per-item rounding to 4 decimals), only when the per-item scores are
        # what LLaMA-Factory computes
        if (opts["tokenizer"], opts["smooth_method"], opts["max_order"], opts["effective_order"], opts["weights"],
                opts["bp_ref_length"]) == ("llamafactory-char", "nltk3", 4, False, None, "closest"):
            out["llamafactory_bleu_4"] = llamafactory_bleu4(out["scores"])

    if crosscheck:
        from ..results.crosscheck_bleu import crosscheck_bleu

        raw = opts["tokenizer"] == "sacrebleu-zh"
        out["crosscheck"] = crosscheck_bleu(
            hyp_tokens,
            ref_tokens,
            ours=out["bleu"],
            ours_per_item=out.get("scores"),
            max_order=opts["max_order"],
            level=opts["level"],
            raw_predictions=preds if raw else None,
            raw_references=refs if raw else None,
            **score_opts,
        )
        if out["crosscheck"]["max_abs_diff"] > 1e-12:
            logger.warning("chinese_bleu crosscheck: |zheval - %s| = %g > 1e-12", out["crosscheck"]["tool"],
                           out["crosscheck"]["max_abs_diff"])
    return out

