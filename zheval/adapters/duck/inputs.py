"""The inputs of a 小黄鸭 evaluation: the dataset and its group columns checked (:func:`check_dataset`,
:func:`check_by`, :func:`group_columns`), predictions in any accepted form read (:func:`as_predictions`), and the
warnings for slips that give a wrong number without an error (:func:`input_warnings`: a whitespace tokenizer on
unspaced Chinese, Traditional against Simplified; :func:`label_mismatch_warning`: LLaMA-Factory labels that match
no reference).
"""

from __future__ import annotations

from typing import Sequence

from ...tokenizers import BaseTokenizer
from .predictions import Predictions

__all__ = [
    "check_dataset",
    "check_by",
    "group_columns",
    "as_predictions",
    "input_warnings",
    "label_mismatch_warning",
]


def group_columns(ds, by: Sequence[str]) -> dict:
    """``{column: list of its values per row}`` of the group columns ``by`` of ``ds`` (for
    :func:`~zheval.adapters.duck.report.group_items`)."""
    return {dim: list(ds[dim]) for dim in by}


def check_by(ds, by) -> tuple:
    """The group columns ``by`` (a sequence, or a comma list as one string) as a tuple, checked against ``ds``.

    Raises:
        ValueError: a column given twice; a column ``ds`` lacks, or one of ``id``/``query``/``responses`` (the
            message lists the group columns there are).
    """
    if isinstance(by, str):
        by = [b.strip() for b in by.split(",") if b.strip()]
    by = tuple(by or ())
    dup = sorted({b for b in by if by.count(b) > 1})
    if dup:
        raise ValueError(f"by lists {dup} more than once (each group would be reported twice); give each column once")
    bad = [b for b in by if b not in ds.column_names or b in ("id", "query", "responses")]
    if bad:
        raise ValueError(f"cannot group by {bad}; group columns: {[c for c in ds.column_names if c not in ('id', 'query', 'responses')]}")
    return by


def check_dataset(ds, what: str = "evaluate"):
    """Check that ``ds`` is a non-empty ``datasets.Dataset`` with ``id`` and ``responses``; ``what`` names the
    caller in the message.

    Raises:
        TypeError: not a ``Dataset`` (e.g. a ``DatasetDict``). ValueError: no rows, or a missing column.
    """
    from datasets import Dataset

    if not isinstance(ds, Dataset):
        raise TypeError(f"{what} expects a datasets.Dataset, got {type(ds).__name__} (pick a split of a DatasetDict)")
    if len(ds) == 0:
        raise ValueError(f"{what}: the dataset has no items")
    missing = {"id", "responses"} - set(ds.column_names)
    if missing:
        raise ValueError(f"{what}: dataset lacks column(s) {sorted(missing)}")


def as_predictions(predictions, predictions_format: str = "auto"):
    """``(predictions ready for join_predictions, source name)``: a path is read
    (:func:`~zheval.adapters.duck.predictions.read_predictions` with ``format=predictions_format``), a
    :class:`~zheval.adapters.duck.predictions.Predictions` or a dict is kept, any other iterable becomes a list.

    Raises:
        what :func:`~zheval.adapters.duck.predictions.read_predictions` raises for a file.
    """
    import os

    from .predictions import read_predictions

    if isinstance(predictions, Predictions):
        return predictions, predictions.source
    if isinstance(predictions, (str, os.PathLike)):
        p = read_predictions(predictions, format=predictions_format)
        return p, p.source
    if isinstance(predictions, dict):
        return predictions, "<memory>"
    return list(predictions), "<memory>"


def label_mismatch_warning(predictions, which: str = "") -> str | None:
    """The warning for LLaMA-Factory labels that match none of their item's references (below the error threshold,
    or with ``label_check="warn"``)."""
    if not isinstance(predictions, Predictions) or not predictions.label_mismatches:
        return None
    mm = predictions.label_mismatches
    where = [f"{predictions.source}:{ln}" if ln else rid for rid, ln in zip(mm, predictions.label_mismatch_lines or [None] * len(mm))]
    return (
        f"{which}{len(mm)} of {predictions.labelled} item(s) have a LLaMA-Factory 'label' that is none of their "
        f"references (first: {', '.join(f'{r} ({w})' for r, w in zip(mm[:5], where[:5]))}): is the predictions file "
        "from this split, in this order?"
    )


#: Fraction of Han characters that OpenCC t2s changes above which a side counts as Traditional Chinese (Simplified
#: text changes ~0%; Traditional text ~20–30%), and below which the other side counts as Simplified.
_TRADITIONAL_MIN, _SIMPLIFIED_MAX = 0.05, 0.01


#: Han characters per side that the Traditional/Simplified check converts (a sample is enough for a share).
_T2S_SAMPLE_CHARS = 200_000


def _traditional_fraction(texts) -> float:
    """Share (0–1) of the Han characters of ``texts`` (the first :data:`_T2S_SAMPLE_CHARS`) that OpenCC t2s
    changes; converted in one call."""
    import re

    from ...text.normalize import t2s

    han = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
    parts, total = [], 0
    for t in texts:
        for run in han.findall(t):
            parts.append(run)
            total += len(run)
        if total >= _T2S_SAMPLE_CHARS:
            break
    if not total:
        return 0.0
    chars = "".join(parts)
    conv = t2s(chars)
    if len(conv) != len(chars):  # a phrase conversion changed the length: compare run by run
        changed = sum(sum(a != b for a, b in zip(r, t2s(r))) for r in parts)
    else:
        changed = sum(a != b for a, b in zip(chars, conv))
    return changed / total


def input_warnings(predictions, references, tok: BaseTokenizer) -> list:
    """Warnings for two user slips that give a wrong number without an error.

    * ``tokenizer="none"`` (whitespace split) on Chinese written without spaces: most texts with Han characters
      contain no space, so each reply is one token and BLEU/ROUGE compare whole replies.
    * Traditional predictions against Simplified references (or the reverse) without the ``t2s`` step: OpenCC t2s
      changes at least 5% of the Han characters of one side and at most 1% of the other's, so equal words count
      as different characters.

    TODO(issue 13, library guards): the library is getting the same checks in compute_bleu/compute_rouge (another
    helper); once merged, call them here instead of this local copy so that both paths warn with the same rule.
    """
    import re

    out = []
    han = re.compile(r"[\u3400-\u9fff]")
    if tok.name == "none":
        texts = [t for t in list(predictions) + [r for rs in references for r in rs] if han.search(t)]
        unspaced = sum(1 for t in texts if len(han.findall(t)) >= 2 and not re.search(r"\s", t.strip()))
        if texts and unspaced * 2 > len(texts):
            out.append(
                f"tokenizer 'none' splits on whitespace only, but {unspaced} of {len(texts)} Chinese texts have no "
                "space: each is a single token, so BLEU/ROUGE compare whole replies; use -t char or -t jieba "
                "unless the texts are pre-segmented"
            )
    if "t2s" not in tok.normalizer.steps:
        try:
            fp = _traditional_fraction(predictions)
            fr = _traditional_fraction(r for rs in references for r in rs)
        except ImportError:  # opencc missing: t2s is unavailable anyway
            fp = fr = 0.0
        if (fp >= _TRADITIONAL_MIN and fr <= _SIMPLIFIED_MAX) or (fr >= _TRADITIONAL_MIN and fp <= _SIMPLIFIED_MAX):
            trad, simp = ("predictions", "references") if fp > fr else ("references", "predictions")
            out.append(
                f"the {trad} look like Traditional Chinese ({max(fp, fr):.0%} of their Han characters change under "
                f"OpenCC t2s) and the {simp} like Simplified ({min(fp, fr):.0%}): the same words count as different "
                "characters; add --t2s (t2s=True) to convert both to Simplified first"
            )
    return out
