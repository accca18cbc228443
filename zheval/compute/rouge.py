"""High-level Chinese ROUGE on texts: validate, normalise, split sentences, tokenise, score per item, average, sign.

:func:`compute_rouge` is what ``metrics/chinese_rouge`` calls. Scoring happens in :mod:`zheval.definitions.rouge` (or the
presets of :mod:`zheval.presets.rouge155`) on per-item token ids from :func:`zheval.tokenizers.corpus.tokenize_corpus`;
the corpus value of each type is the **exact mean** of the per-item scores (not rouge-score's bootstrap "mid"), and
an optional bootstrap interval is reported separately.
"""

from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..presets import ROUGE_PRESETS as PRESETS
from ..presets.llamafactory import llamafactory_item_value, llamafactory_mean, make_llamafactory_item_scorer
from ..tokenizers.llamafactory import llamafactory_jieba_tokenizer as llamafactory_tokenizer
from ..presets.rouge155 import make_rouge155_item_scorer
from ..tokenizers.corpus import tokenize_corpus
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips
from .inputs import check_references, validate_inputs
from ..presets import apply_preset
from .options import refused_hub_options
from ..definitions.rouge import MULTI_REF_MODES, Score, make_item_scorer, parse_rouge_type
from ..fast.index import CorpusLayout
from ..fast.rouge import BATCH_KINDS, corpus_rouge_scores
from ..text.sentences import SENTENCE_SPLITS
from ..results.signature import build_signature
from ..results.reducers import bootstrap_interval, check_interval_options, mean
from ..tokenizers import BaseTokenizer, get_tokenizer

__all__ = [
    "DEFAULT_ROUGE_TYPES",
    "DEFAULTS",
    "PRESET_NAMES",
    "ROUGE_OPTIONS",
    "TOKENIZER_OPTIONS",
    "ROUGE_TOKENIZERS",
    "resolve_options",
    "build_rouge_tokenizer",
    "compute_rouge",
]

logger = logging.getLogger(__name__)

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Valid ``preset`` names.
PRESET_NAMES = tuple(PRESETS)
#: Defaults when neither the caller nor a preset sets an option.
DEFAULTS = {
    "tokenizer": "char",
    "rouge_types": list(DEFAULT_ROUGE_TYPES),
    "multi_ref": "max",
    "beta": 1.0,
    "rouge_w_weight": 1.2,
    "sentence_split": "punct",
    "normalize": None,
}
#: Tokenizer options shared with chinese_bleu (same names, same meaning), forwarded to
#: :func:`zheval.tokenizers.get_tokenizer`.
TOKENIZER_OPTIONS = ("terms", "punct", "jieba_hmm", "jieba_dict", "normalize", "t2s")
#: Every option :func:`compute_rouge` understands.
ROUGE_OPTIONS = tuple(k for k in DEFAULTS if k != "normalize") + TOKENIZER_OPTIONS + (
    "use_aggregator", "return_precision_recall", "bootstrap", "seed", "confidence", "preset", "crosscheck")
#: Tokenizer names that exist only for a preset (they reproduce a tool and take no option).
ROUGE_TOKENIZERS = ("llamafactory-jieba",)

_UNSET: Any = object()


def resolve_options(preset: Optional[str] = None, **given) -> dict:
    """Merge explicit options over a preset over :data:`DEFAULTS`, and validate them.

    Args:
        preset: ``None``, ``"rouge155"`` or ``"llamafactory"``.
        given: options named in :data:`DEFAULTS`; values ``_UNSET`` (not given) are ignored.
    Returns:
        dict with every key of :data:`DEFAULTS` plus ``"preset"``.
    Raises:
        ValueError: unknown preset, multi_ref, sentence_split, ROUGE type (each lists the valid values); bad beta,
            weight or empty rouge_types.
        TypeError: rouge_types not a str or a list of str.
    """
    opts = apply_preset(DEFAULTS, PRESETS, preset, given, _UNSET, {"sacrebleu-zh": "chinese_bleu"})
    rt = opts["rouge_types"]
    if isinstance(rt, str):
        rt = [rt]
    if not isinstance(rt, (list, tuple)) or not all(isinstance(t, str) for t in rt):
        raise TypeError(f"rouge_types must be a list of str, got {rt!r}")
    if not rt:
        raise ValueError("rouge_types must name at least one ROUGE type")
    for t in rt:
        parse_rouge_type(t)
    if len(set(rt)) != len(rt):
        raise ValueError(f"rouge_types has duplicates: {rt}")
    opts["rouge_types"] = list(rt)
    if opts["multi_ref"] not in MULTI_REF_MODES:
        raise ValueError(f"unknown multi_ref {opts['multi_ref']!r}; valid values: {', '.join(MULTI_REF_MODES)}")
    if opts["sentence_split"] not in SENTENCE_SPLITS:
        raise ValueError(
            f"unknown sentence_split {opts['sentence_split']!r}; valid values: {', '.join(SENTENCE_SPLITS)}")
    beta = opts["beta"]
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not np.isfinite(beta) or beta < 0:
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    opts["beta"] = float(beta)
    w = opts["rouge_w_weight"]
    if isinstance(w, bool) or not isinstance(w, (int, float)) or not np.isfinite(w) or w <= 0:
        raise ValueError(f"rouge_w_weight must be a finite number > 0, got {w!r}")
    opts["rouge_w_weight"] = float(w)
    opts["preset"] = preset
    return opts


def build_rouge_tokenizer(tokenizer: Any = "char", **tokenizer_options) -> BaseTokenizer:
    """A zheval tokenizer: a name of :mod:`zheval.tokenizers` (``char``, ``jieba``, ``none``), the llamafactory
    preset's ``"llamafactory-jieba"`` (takes no option: it reproduces LLaMA-Factory exactly), an instance, or a
    user callable. ``tokenizer_options`` (unset ones omitted) go to :func:`zheval.tokenizers.get_tokenizer`.

    Raises:
        ValueError: options given to ``llamafactory-jieba`` (other than no-op values), or as
            :func:`~zheval.tokenizers.get_tokenizer`.
    """
    if isinstance(tokenizer, str) and tokenizer in ROUGE_TOKENIZERS:
        bad = {
            k: v
            for k, v in tokenizer_options.items()
            if not (
                (k == "normalize" and (v is None or v is False or v == "none"))
                or (k == "t2s" and v is False)
                or (k == "jieba_hmm" and v is True)
                or (k == "terms" and not v)
                or (k == "punct" and v == "keep")
                or (k == "jieba_dict" and v is None)
            )
        }
        if bad:
            raise ValueError(
                f"tokenizer {tokenizer!r} reproduces LLaMA-Factory exactly and takes no options; got {bad}"
            )
        return llamafactory_tokenizer()
    return get_tokenizer(tokenizer, **tokenizer_options)


def score_corpus_columns(
    corpus, types: Sequence[str], multi_ref: str = "max", beta: float = 1.0, rouge_w_weight: float = 1.2,
    layout: Optional[CorpusLayout] = None, pair_ngram_hits: Optional[dict] = None,
) -> Dict[str, tuple]:
    """Per-item scores of a tokenised corpus as columns: ``{type: (P list, R list, F list)}`` (Python floats, 0-1).

    rougeN/L/Lsum go through :func:`zheval.fast.rouge.corpus_rouge_scores` (whole corpus at once); other types
    (W, S, SU) through :func:`zheval.definitions.rouge.make_item_scorer` (``layout``: the corpus's
    :class:`~zheval.fast.index.CorpusLayout`, if already built). Both give the numbers of ``make_item_scorer(types,
    multi_ref, beta, rouge_w_weight)`` item by item, bit for bit.
    """
    batch = [t for t in types if parse_rouge_type(t).kind in BATCH_KINDS]
    rest = [t for t in types if t not in batch]
    cols: Dict[str, tuple] = {}
    if batch:
        for t, arrs in corpus_rouge_scores(corpus, batch, multi_ref, beta, layout=layout,
                                           pair_ngram_hits=pair_ngram_hits).items():
            cols[t] = tuple(a.tolist() for a in arrs)
    if rest:
        scorer = make_item_scorer(rest, multi_ref, beta, rouge_w_weight)
        items = [scorer(p.sentences, [r.sentences for r in rs]) for p, rs in zip(corpus.predictions, corpus.references)]
        for t in rest:
            cols[t] = tuple([getattr(it[t], k) for it in items] for k in ("precision", "recall", "fmeasure"))
    return {t: cols[t] for t in types}


def items_from_columns(columns: Dict[str, tuple], types: Sequence[str]) -> List[Dict[str, Score]]:
    """``[{type: Score}]`` per item from :func:`score_corpus_columns` output."""
    n = len(columns[types[0]][2]) if types else 0
    return [{t: Score(columns[t][0][i], columns[t][1][i], columns[t][2][i]) for t in types} for i in range(n)]


@without_cyclic_gc
def compute_rouge(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Any = _UNSET,
    rouge_types: Sequence[str] = _UNSET,
    use_aggregator: bool = True,
    multi_ref: str = _UNSET,
    beta: float = _UNSET,
    return_precision_recall: bool = False,
    bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
    preset: Optional[str] = None,
    crosscheck: bool = False,
    rouge_w_weight: float = _UNSET,
    sentence_split: str = _UNSET,
    _share: Optional[dict] = None,
    _validated: bool = False,
    _warn_slips: bool = True,
    **tokenizer_options,
) -> dict:
    """Chinese ROUGE of predictions against (ragged) references, on the 0-1 scale, with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged across items).
        tokenizer: ``"char"`` (default), ``"jieba"``, ``"none"`` (pre-tokenised, whitespace-split), a zheval
            tokenizer or a callable ``str -> list[str]``; ``"llamafactory-jieba"`` is the llamafactory preset's.
        rouge_types: default ``["rouge1", "rouge2", "rougeL", "rougeLsum"]``; any of ``rouge1`` ... ``rouge9``
            (any N), ``rougeL``, ``rougeLsum``, ``rougeW``, ``rougeS<d>``/``rougeSU<d>``, ``rougeS*``/``rougeSU*``.
        use_aggregator: True -> ``{type: mean F}`` floats; False -> ``{type: [F per item]}``.
        multi_ref: ``"max"`` (default), ``"mean"``, ``"pool"``, ``"best_recall"`` (:mod:`zheval.definitions.rouge`).
        beta: F-measure beta (default 1, F1 as rouge-score).
        return_precision_recall: also ``<type>_precision`` and ``<type>_recall`` (mean or per-item lists).
        bootstrap: number of bootstrap resamples of items (0 = none) for a percentile ``confidence`` interval of
            each type's mean F: ``<type>_ci_low``/``<type>_ci_high``, seeded with ``seed`` (aggregator only).
        preset: ``"rouge155"`` (ROUGE-1.5.5 ``-a -n 4 -w 1.2 -2 4 -U -f A -p 0.5`` numbers per item, averaged
            exactly) or ``"llamafactory"`` (LLaMA-Factory / ChatGLM: raw jieba words, rouge-chinese semantics;
            adds ``llamafactory_rouge_1`` etc., LLaMA-Factory's own numbers on its 0-100 scale). A preset sets
            defaults; arguments given explicitly override them. See :mod:`zheval.presets.rouge155`.
        crosscheck: recompute with rouge-score 0.1.2 fed our exact tokens (rouge1-9, rougeL, rougeLsum; beta 1)
            -- or, with the llamafactory preset, with rouge-chinese -- and add ``crosscheck`` =
            ``{"tool", "types", "items", "pairs", "max_abs_diff", "scores", ...}``. Not available for rouge155.
        rouge_w_weight: w of ``rougeW`` (default 1.2).
        sentence_split: for ``rougeLsum``: ``"punct"`` (default: newlines and sentence-final punctuation) or
            ``"newline"`` (rouge-score's rule). See :mod:`zheval.text.sentences`.
        tokenizer_options: ``terms``, ``punct``, ``jieba_hmm``, ``jieba_dict``, ``normalize``, ``t2s`` -- as
            :func:`zheval.tokenizers.get_tokenizer` and chinese_bleu.
        _share: internal (:func:`zheval.compute.joint.score`): a dict that receives ``tokenizer``, ``sentence_split``
            and the ``layout`` (:class:`zheval.fast.index.CorpusLayout`) of the tokenised corpus, for BLEU to reuse; if
            it holds a callable ``pair_ngram_hits``, that is called with the dict once the layout is in it and may
            return ``{n: (P,) int64}`` ROUGE-N hits per pair (BLEU's pass computes them), used instead of counting.
        _validated: internal (:func:`zheval.compute.joint.score`, the evaluate module): ``predictions`` and ``references``
            are already the output of :func:`zheval.compute.inputs.validate_inputs` (``list[str]``, ``list[list[str]]``).
        _warn_slips: internal (:func:`zheval.compute.joint.score`, which checks once for both metrics): run
            :func:`zheval.compute.guards.warn_input_slips` (default True).

    Returns:
        dict: ``{type: float}`` (or lists), optional ``<type>_precision``/``_recall``/``_ci_low``/``_ci_high``,
        ``signature`` (str), optional ``crosscheck`` and ``llamafactory_*``.

    Raises:
        ValueError: length mismatch, empty reference list, unknown rouge type / multi_ref / preset / sentence_split
            (listing valid values), bootstrap with ``use_aggregator=False``, crosscheck with ``beta != 1`` or preset
            rouge155; ``bootstrap`` not an int in [0, :data:`~zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES`], ``seed``
            outside [0, 2**32 - 1], ``confidence`` outside (0, 1) (:func:`zheval.results.reducers.check_interval_options`).
        EmptyReferenceError (a ValueError): references that are blank or have no token after normalisation and
            tokenisation with this tokenizer, every one named as ``references[i][j]``
            (:func:`zheval.compute.inputs.check_references`; every preset too).
        TypeError: non-``str`` prediction or reference (naming its index), unknown keyword option (with the reason
            for the Hub rouge module's ``use_stemmer``), a non-int ``seed``.

    Warns:
        :class:`zheval.ZhevalWarning` subclasses, once per call (:mod:`zheval.compute.guards`): ``tokenizer="none"`` on
        unsegmented Chinese; Traditional vs Simplified texts with ``t2s`` off.
    """
    bad = sorted(set(tokenizer_options) - set(TOKENIZER_OPTIONS))
    if bad:
        raise TypeError(f"compute_rouge got unknown option(s) {bad}; valid options: {', '.join(ROUGE_OPTIONS)}"
                        f"{refused_hub_options(bad)}")
    norm_given = tokenizer_options.pop("normalize", _UNSET)
    opts = resolve_options(
        preset,
        tokenizer=tokenizer,
        rouge_types=rouge_types,
        multi_ref=multi_ref,
        beta=beta,
        rouge_w_weight=rouge_w_weight,
        sentence_split=sentence_split,
        normalize=norm_given,
    )
    check_interval_options(bootstrap, seed, confidence)
    if bootstrap and not use_aggregator:
        raise ValueError("bootstrap intervals are computed for the aggregated score; use use_aggregator=True")
    if crosscheck and preset == "rouge155":
        raise ValueError("crosscheck is not available for preset 'rouge155' (ROUGE-1.5.5 is a Perl script)")
    if preset == "llamafactory" and opts["beta"] != 1.0:
        raise ValueError("preset 'llamafactory' uses rouge-chinese's F1 (2PR/(P+R+1e-8)); beta cannot be changed")
    if crosscheck and opts["beta"] != 1.0:
        raise ValueError("crosscheck compares F1 with rouge-score/rouge-chinese; it needs beta=1")

    preds, refs = (predictions, references) if _validated else validate_inputs(predictions, references)
    tok_opts = dict(tokenizer_options)
    if opts["normalize"] is not None:
        tok_opts["normalize"] = opts["normalize"]
    tok = build_rouge_tokenizer(opts["tokenizer"], **tok_opts)
    types: List[str] = opts["rouge_types"]
    if _warn_slips:
        warn_input_slips(preds, refs, tok, t2s_option=opts["tokenizer"] not in ROUGE_TOKENIZERS)

    extra: Dict[str, Any] = {}
    columns = None
    if preset == "llamafactory":
        tcache = tok.tokenize_cached
        hyp_tokens = [tcache(p) for p in preds]
        ref_tokens = [[tcache(r) for r in rs] for rs in refs]
        check_references(refs, tok, [len(t) for row in ref_tokens for t in row])
        scorer = make_llamafactory_item_scorer(types, opts["multi_ref"])
        items = [scorer(h, r) for h, r in zip(hyp_tokens, ref_tokens)]
        for t in types:
            rt = parse_rouge_type(t)
            key = "llamafactory_rouge_" + ("l" if rt.kind == "L" else str(rt.n))
            extra[key] = llamafactory_mean([llamafactory_item_value(it[t].fmeasure) for it in items])
        if crosscheck:
            from ..results.crosscheck_rouge import crosscheck_rouge_chinese

            extra["crosscheck"] = crosscheck_rouge_chinese(hyp_tokens, ref_tokens, items, types)
    else:
        # the empty-reference rule is checked there, on this tokenizer's tokens
        corpus = tokenize_corpus(preds, refs, tok, opts["sentence_split"], validated=True)
        if preset == "rouge155":
            scorer = make_rouge155_item_scorer(types, opts["multi_ref"], opts["beta"], opts["rouge_w_weight"])
            items = [
                scorer(p.sentences, [r.sentences for r in rs]) for p, rs in zip(corpus.predictions, corpus.references)
            ]
        else:
            layout = CorpusLayout.from_corpus(corpus)
            pair_hits = None
            if _share is not None:
                _share.update(tokenizer=tok, sentence_split=opts["sentence_split"], layout=layout)
                hook = _share.get("pair_ngram_hits")
                pair_hits = hook(_share) if hook is not None else None
            columns = score_corpus_columns(corpus, types, opts["multi_ref"], opts["beta"], opts["rouge_w_weight"],
                                           layout=layout, pair_ngram_hits=pair_hits)
            items = None
        if crosscheck:
            if items is None:
                items = items_from_columns(columns, types)
            from ..results.crosscheck_rouge import crosscheck_rouge_score

            extra["crosscheck"] = crosscheck_rouge_score(
                [p.sentences for p in corpus.predictions],
                [[r.sentences for r in rs] for rs in corpus.references],
                items,
                types,
                opts["multi_ref"],
            )

    if columns is None:
        columns = {t: tuple([getattr(it[t], k) for it in items] for k in ("precision", "recall", "fmeasure"))
                   for t in types}
    out: Dict[str, Any] = {}
    for t in types:
        f = columns[t][2]
        out[t] = mean(f) if use_aggregator else f
    if return_precision_recall:
        for t in types:
            p, r = columns[t][0], columns[t][1]
            out[f"{t}_precision"] = mean(p) if use_aggregator else p
            out[f"{t}_recall"] = mean(r) if use_aggregator else r
    if bootstrap:
        for t in types:
            if columns[t][2]:
                low, high = bootstrap_interval(np.asarray(columns[t][2], dtype=np.float64),
                                               lambda a: a.mean(axis=-1), int(bootstrap), confidence, seed)
            else:
                low = high = 0.0
            out[f"{t}_ci_low"], out[f"{t}_ci_high"] = low, high

    fields = [("types", "+".join(types)), ("multi", opts["multi_ref"])]
    if preset != "llamafactory":
        fields.append(("beta", opts["beta"]))
    if "rougeLsum" in types and preset != "llamafactory":
        fields.append(("split", opts["sentence_split"]))
    if any(parse_rouge_type(t).kind == "W" for t in types):
        fields.append(("w", opts["rouge_w_weight"]))
    if bootstrap:
        fields += [("bs", int(bootstrap)), ("seed", seed)]
        if confidence != 0.95:
            fields.append(("conf", float(confidence)))
    out["signature"] = build_signature(tok, [len(r) for r in refs], "rouge", fields, preset=preset)
    out.update(extra)
    if "crosscheck" in out and out["crosscheck"]["max_abs_diff"] > 1e-12:
        logger.warning("chinese_rouge crosscheck: |zheval - %s| = %g > 1e-12", out["crosscheck"]["tool"],
                       out["crosscheck"]["max_abs_diff"])
    return out
