"""Recompute a zheval BLEU number with an independent implementation fed our exact tokens.

* Smoothing ``none``/``floor``/``add-k``/``exp`` with the closest reference length and uniform weights:
  ``sacrebleu.metrics.BLEU(tokenize="none", force=True, smooth_method=..., smooth_value=..., max_ngram_order=...,
  effective_order=...)`` (sacrebleu 2.4.0 to 2.6.0 tested; the result names the installed version) on our tokens joined by single spaces. References are transposed into
  sacrebleu's streams (``streams[k][i]`` = k-th reference of item i); an item with fewer references than the widest
  item gets ``None`` in the missing slots, which ``Metric._cache_references`` drops for that segment (an empty string
  would instead count as a zero-length reference, and streams of unequal length would be silently truncated by
  ``zip``). ``level="corpus"`` uses ``corpus_score``; ``level="sentence"`` uses ``sentence_score`` per item and
  compares each item and the mean.
* With the ``sacrebleu-zh`` tokenizer, additionally ``sacrebleu.corpus_bleu(raw, tokenize="zh")`` on the *raw* texts
  (this checks the tokenisation too).
* ``smooth_method="nltk3"`` at sentence level: nltk 3.x ``sentence_bleu(refs, hyp, weights,
  SmoothingFunction().method3)`` per item.

Tokens are joined as they are when every token is a non-empty ``str`` without whitespace (sacrebleu re-splits on
whitespace); otherwise (int ids, whitespace tokens of the ``llamafactory-char`` tokenizer) every distinct token is
first replaced by a surrogate ``t<k>``, which changes no count.

Configurations the tools cannot express (``bp_ref_length`` other than ``"closest"``, custom ``weights`` for
sacrebleu, corpus-level ``nltk3`` -- nltk's corpus denominators differ, see ``zheval.definitions.bleu``) raise ``ValueError``.
sacrebleu and nltk are imported lazily (they are test/cross-check dependencies, not runtime ones).
"""

from __future__ import annotations

import contextlib
import logging
import math
from typing import Hashable, List, Optional, Sequence

from zheval.results.tool_versions import check_tool_version

__all__ = ["sacrebleu_streams", "join_tokens", "unsupported_reason", "crosscheck_bleu"]


def unsupported_reason(
    smooth_method: str, bp_ref_length: str, effective_order: bool, weights, level: str
) -> Optional[str]:
    """Why no reference tool can recompute this configuration exactly, or ``None`` if one can."""
    if bp_ref_length != "closest":
        return (f"sacrebleu and nltk only know the closest reference length; bp_ref_length={bp_ref_length!r} "
                "cannot be cross-checked")
    if smooth_method == "nltk3":
        if level != "sentence":
            return ("corpus-level nltk3 has no exact reference (nltk's corpus_bleu adds max(1, total) denominators "
                    "per item); use level='sentence'")
        if effective_order:
            return "nltk has no effective order; use effective_order=False with nltk3"
        return None
    if weights is not None:
        return "sacrebleu has no n-gram weights; leave weights=None to cross-check"
    return None


def sacrebleu_streams(references: Sequence[Sequence[str]]) -> List[List[Optional[str]]]:
    """Transpose per-item reference lists (ragged) into sacrebleu's equal-length streams, padding with ``None``."""
    width = max((len(rs) for rs in references), default=0)
    return [[rs[k] if k < len(rs) else None for rs in references] for k in range(width)]


def join_tokens(
    hypotheses: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Sequence[Hashable]]]
) -> tuple:
    """Space-join token sequences so that ``str.split()`` gives the same tokens back (or surrogates of them).

    Returns ``(hyp_lines, ref_lines_per_item, surrogates_used)``.
    """

    def safe(tok) -> bool:
        return isinstance(tok, str) and tok != "" and not any(c.isspace() for c in tok)

    plain = all(safe(t) for h in hypotheses for t in h) and all(safe(t) for rs in references for r in rs for t in r)
    if plain:
        return [" ".join(h) for h in hypotheses], [[" ".join(r) for r in rs] for rs in references], False
    vocab: dict = {}

    def enc(seq) -> str:
        return " ".join(f"t{vocab.setdefault(t, len(vocab))}" for t in seq)

    return [enc(h) for h in hypotheses], [[enc(r) for r in rs] for rs in references], True


def crosscheck_bleu(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    *,
    ours: float,
    ours_per_item: Optional[Sequence[float]] = None,
    max_order: int = 4,
    level: str = "corpus",
    raw_predictions: Optional[Sequence[str]] = None,
    raw_references: Optional[Sequence[Sequence[str]]] = None,
    **score_options,
) -> dict:
    """Recompute BLEU with sacrebleu (or nltk for ``nltk3``) and compare with ``ours`` (0-1 scale).

    Args:
        hypotheses, references: our exact tokens (per item; references ragged).
        ours: our BLEU (0-1): the corpus score, or the mean of per-item scores at sentence level.
        ours_per_item: per-item scores (0-1), required at sentence level.
        raw_predictions, raw_references: raw texts, given only with the ``sacrebleu-zh`` tokenizer, to add the
            ``tokenize="zh"`` check.
        score_options: the keyword options of `zheval.definitions.bleu_score.score_stats` (``smooth_method``,
            ``smooth_value``, ``effective_order``, ``bp_ref_length``, ``weights``; its defaults).

    Returns:
        ``{"tool": "sacrebleu <installed version> tokenize=none" | "nltk <version> sentence_bleu method3",
        "tool_version": str, "tool_tested": bool, "bleu": value (0-1), "max_abs_diff": float, "items": int}``
        (``tool_tested``: the installed version is one the equality is tested on,
        `zheval.results.tool_versions.TESTED_VERSIONS`) plus ``"sacrebleu_zh_bleu"`` / ``"sacrebleu_zh_abs_diff"`` for
        raw-text sacrebleu-zh. ``max_abs_diff`` is over the corpus value (or the mean) and every per-item value;
        it is 0.0 except where sacrebleu's float rounding exceeds 100 and zheval clamps to 1.0 (< 1e-15).

    Raises:
        ValueError: a configuration the tools cannot express (see the module docstring).
        ImportError: sacrebleu / nltk missing.

    Warns:
        UntestedToolVersionWarning: the tool's installed version is outside the tested span.
    """
    smooth_method = score_options.get("smooth_method", "exp")
    smooth_value = score_options.get("smooth_value")
    effective_order = score_options.get("effective_order", False)
    weights = score_options.get("weights")
    reason = unsupported_reason(smooth_method, score_options.get("bp_ref_length", "closest"), effective_order,
                                weights, level)
    if reason:
        raise ValueError(f"crosscheck: {reason}")
    if level == "sentence" and ours_per_item is None:
        raise ValueError("crosscheck at sentence level needs the per-item scores")
    n = len(hypotheses)
    if smooth_method == "nltk3":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu  # test/cross-check dependency
        import nltk

        method3 = SmoothingFunction().method3
        w = tuple(weights) if weights is not None else (1 / max_order,) * max_order
        theirs_items = [sentence_bleu(list(map(list, rs)), list(h), weights=w, smoothing_function=method3)
                        for h, rs in zip(hypotheses, references)]
        theirs = math.fsum(theirs_items) / n if n else 0.0
        diff = max([abs(ours - theirs)] + [abs(a - b) for a, b in zip(ours_per_item, theirs_items)])
        return {"tool": f"nltk {nltk.__version__} sentence_bleu method3", **check_tool_version("nltk"),
                "bleu": theirs, "max_abs_diff": diff, "items": n}

    import sacrebleu  # test/cross-check dependency
    from sacrebleu.metrics import BLEU

    hyp_lines, ref_lines, _ = join_tokens(hypotheses, references)
    metric = BLEU(
        tokenize="none",
        force=True,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_order,
        effective_order=effective_order,
    )
    out = {"tool": f"sacrebleu {sacrebleu.__version__} tokenize=none", **check_tool_version("sacrebleu"), "items": n}
    with _quiet_sacrebleu():
        _sacrebleu_values(out, metric, sacrebleu, hyp_lines, ref_lines, ours, ours_per_item, level, n,
                          max_order, smooth_method, smooth_value, effective_order, raw_predictions, raw_references)
    return out


@contextlib.contextmanager
def _quiet_sacrebleu():
    # sacrebleu logs one warning per sentence_score call without effective_order; the user asked for that setting
    log = logging.getLogger("sacrebleu")
    old = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(old)


def _sacrebleu_values(out, metric, sacrebleu, hyp_lines, ref_lines, ours, ours_per_item, level, n, max_order,
                      smooth_method, smooth_value, effective_order, raw_predictions, raw_references) -> None:
    if level == "sentence":
        theirs_items = [metric.sentence_score(h, rs).score / 100 for h, rs in zip(hyp_lines, ref_lines)]
        theirs = math.fsum(theirs_items) / n if n else 0.0
        diffs = [abs(a - b) for a, b in zip(ours_per_item, theirs_items)]
    else:
        theirs = metric.corpus_score(hyp_lines, sacrebleu_streams(ref_lines)).score / 100 if n else 0.0
        diffs = []
    out["bleu"] = theirs
    out["max_abs_diff"] = max([abs(ours - theirs)] + diffs)
    if raw_predictions is not None and raw_references is not None and n and max_order == 4:
        # sacrebleu's compat functions have no max_ngram_order argument: only the default order 4 is checked
        kwargs = dict(tokenize="zh", smooth_method=smooth_method, smooth_value=smooth_value)
        if level == "sentence":
            zh_items = [
                sacrebleu.sentence_bleu(p, list(rs), use_effective_order=effective_order, **kwargs).score / 100
                for p, rs in zip(raw_predictions, raw_references)
            ]
            zh = math.fsum(zh_items) / n if n else 0.0
        else:
            zh = sacrebleu.corpus_bleu(
                list(raw_predictions), sacrebleu_streams(raw_references), use_effective_order=effective_order,
                **kwargs,
            ).score / 100
        out["sacrebleu_zh_bleu"] = zh
        out["sacrebleu_zh_abs_diff"] = abs(ours - zh)
