"""Text diagnostics of predictions against their references: length ratio, truncation (how a text ends:
`ending_kind`, `is_truncated`), empty predictions and reference counts (`compute_diagnostics` →
`Diagnostics`). Computed from the normalised texts, never from scores; no number of a metric depends on them.

**Truncated** (a prediction cut by ``max_new_tokens``) means: a non-empty prediction whose `ending_kind` is
``no_final_punct`` (it just stops) or ``mid_word`` (it stops after a comma, colon, opening bracket or a dangling
connective). Examples, after normalisation:

============================== ================== ==============================================================
text                           ending_kind        truncated?
============================== ================== ==============================================================
``好的。``                     ``final``          no
``他说：“好的。”``             ``final``          no (closing quotes/brackets after the mark are skipped:
                                                  ``” ’ " ' 」 』 ） ) 】 》 〉 ]``)
``「走吧！」`` ``『行。』`` ``（对。）`` ``final``   no
``加油🎉`` ``好的👍🏽`` ``爱你❤️``  ``final``          no (an emoji ends a reply; its skin-tone modifier, variation
                                                  selector, zero-width joiner or keycap mark is part of it)
``他说“好的”``                 ``no_final_punct`` yes (the closing quote does not end the sentence by itself)
``会变黑，香蕉最好放在常温``   ``no_final_punct`` yes
``可以先冷静下来，``           ``mid_word``       yes
``建议您联系客服因为``         ``mid_word``       yes
``""``, U+200B only (blank)    ``empty``          no (counted as an empty prediction instead)
============================== ================== ==============================================================

The warning threshold is `TRUNCATION_WARN` (5%).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..io.text_lists import check_text_list
from .copies import combine_copy_kinds, copies_warning, copy_kind
from ..text.normalize import BLANK_SCORED, describe_blank, is_blank  # the emptiness rule of every door, here for the top floor (rule 7)
from .breakdowns import reference_limit_text
from .exact_sum import exact_int, exact_mean, exact_value

__all__ = [
    "FINAL_PUNCT",
    "LENGTH_RATIO_WARN",
    "TRUNCATION_WARN",
    "EXCLUDED_SHOWN",
    "EXCLUDED_ELSEWHERE",
    "is_truncated",
    "Diagnostics",
    "ending_kind",
    "DiagnosticCounts",
    "SystemDiagnostics",
    "compute_diagnostics",
    "is_blank",
    "describe_blank",
]

LENGTH_RATIO_WARN = 0.30
"""Warn when the mean prediction/reference length ratio is outside ``1 ± LENGTH_RATIO_WARN``."""
#: The end of the truncation warning when the report shows the scores without the truncated predictions, and
#: when it does not (a stream, a comparison, ``zheval sample``'s scoring, which shows no report).
EXCLUDED_SHOWN = "the report shows the scores without them next to the scores on all items"
EXCLUDED_ELSEWHERE = ("zheval score of these predictions (without --stream) shows the scores without them next to the "
                      "scores on all items")

TRUNCATION_WARN = 0.05
"""Warn when more than this share of the predictions is truncated (`is_truncated`) -- and more than twice the
references' own rate, since replies in some data sets often end without a mark. Above 5% the generation length
(``max_new_tokens``) must be fixed before the score means anything; the report then also shows the scores with the
truncated predictions excluded."""

FINAL_PUNCT = "。！？!?…~～.；;"
"""Sentence-final marks: a prediction ending in one of these (optionally followed by closing quotes/brackets or an
emoji) is not counted as truncated."""
_CLOSERS = "\"'”’」』）)】》〉]"
_OPEN_ENDINGS = "，,、：:（(“‘「『《【-—"
_DANGLING = ("因为", "所以", "但是", "而且", "并且", "如果", "或者", "以及", "比如", "包括", "然后", "和", "与", "及", "或", "把", "被", "向", "从", "跟")


def _is_emoji(c: str) -> bool:
    return unicodedata.category(c) == "So"


def _is_emoji_tail(c: str) -> bool:
    """A character that continues an emoji: skin-tone modifiers, variation selectors, the zero-width joiner, the
    keycap mark and tag characters (flag sub-regions)."""
    o = ord(c)
    return (0x1F3FB <= o <= 0x1F3FF or 0xFE00 <= o <= 0xFE0F or o == 0x200D or o == 0x20E3
            or 0xE0020 <= o <= 0xE007F)


def ending_kind(text: str) -> str:
    """Classify how a (normalised) prediction ends.

    Returns:
        ``"empty"`` (blank: `zheval.text.normalize.is_blank`, only whitespace and invisible characters); ``"final"`` (ends in a sentence-final mark of `FINAL_PUNCT`, optionally followed by
        closing quotes/brackets, or in an emoji); ``"mid_word"`` (ends in a comma/colon/opening bracket or a
        dangling connective such as ``因为``/``和``/``把`` — cut in the middle of a clause); or ``"no_final_punct"``
        (anything else: the text just stops).
    """
    if is_blank(text):  # the emptiness rule of every door (only whitespace and invisible characters)
        return "empty"
    t = text.rstrip()
    core = t.rstrip(_CLOSERS) or t
    last = core[-1]
    if _is_emoji_tail(last):
        bare = core.rstrip("".join(c for c in core[-8:] if _is_emoji_tail(c)))
        if bare and _is_emoji(bare[-1]):
            return "final"
    if last in FINAL_PUNCT or _is_emoji(last):
        return "final"
    if last in _OPEN_ENDINGS or core.endswith(_DANGLING):
        return "mid_word"
    return "no_final_punct"


def is_truncated(text: str) -> bool:
    """Whether a (normalised) prediction is truncated: non-empty and `ending_kind` is ``no_final_punct`` or
    ``mid_word`` (examples in the module docstring)."""
    return ending_kind(text) in ("no_final_punct", "mid_word")


def _nchars(text: str) -> int:
    return sum(1 for c in text if not c.isspace())


@dataclass
class Diagnostics:
    """Output checks the 小黄鸭 seeds call for (lengths in normalised characters, whitespace excluded).

    Attributes:
        n_items: items checked.
        length_ratio: mean over items of ``len(prediction) / mean(len(reference))``; ``length_ratio_corpus``: the
            same with totals; a warning is raised when ``length_ratio`` is outside ``1 ± LENGTH_RATIO_WARN``.
        truncated / truncation_rate: non-empty predictions that do not end a sentence (``ending_kind`` is
            ``no_final_punct`` or ``mid_word``); ``endings``: counts per ending kind; ``reference_truncation_rate``:
            the same rate over all references, the data's own baseline.
        empty_predictions: count (empty after normalisation); ``empty_ids``: their ids (first 20).
        ref_count_distribution: ``{references per item: items}``.
        warnings: human-readable warnings.
        reference_limit: with ``max_refs`` K, what scoring with the first K references did
            (`zheval.results.breakdowns.reference_limit`: items with fewer, items cut, references left out), counted
            before the cut; ``None`` (and absent from `to_dict`) without it. ``zheval compare`` gives it per system
            (``zheval score`` reports it in its breakdowns).
    """

    n_items: int
    length_ratio: float
    length_ratio_corpus: float
    truncated: int
    truncation_rate: float
    endings: dict
    reference_truncation_rate: float
    empty_predictions: int
    empty_ids: list
    ref_count_distribution: dict
    warnings: list
    reference_limit: Optional[dict] = None

    def to_dict(self) -> dict:
        return {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                for k, v in self.__dict__.items() if not (k == "reference_limit" and v is None)}

    def lines(self) -> list[str]:
        """Human-readable summary lines."""
        dist = ", ".join(f"{k} refs: {v}" for k, v in sorted(self.ref_count_distribution.items()))
        return [
            f"length ratio (prediction / reference, chars): mean {self.length_ratio:.2f}, corpus {self.length_ratio_corpus:.2f}",
            f"truncation: {self.truncated}/{self.n_items} ({self.truncation_rate:.1%}) do not end a sentence "
            f"(no final punctuation {self.endings.get('no_final_punct', 0)}, mid-clause {self.endings.get('mid_word', 0)}); "
            f"references: {self.reference_truncation_rate:.1%}",
            f"empty predictions: {self.empty_predictions}"
            + (f" ({', '.join(self.empty_ids[:5])}{', …' if len(self.empty_ids) > 5 else ''})" if self.empty_ids else ""),
            f"references per item: {dist}",
        ] + ([reference_limit_text(self.reference_limit)] if self.reference_limit else [])


@dataclass
class SystemDiagnostics:
    """The `Diagnostics` of each system of a ``zheval compare`` report (the report's ``diagnostics``; a score
    report has one `Diagnostics` there).

    Attributes:
        systems: ``{label: (source, Diagnostics)}`` in the systems' order (``A``, ``B``, …; ``source``: the
            system's file, or ``<memory>``).
    """

    systems: dict

    def to_dict(self) -> dict:
        """``{label: {"source": source, **Diagnostics.to_dict()}}`` (JSON-ready)."""
        return {lbl: {"source": src, **d.to_dict()} for lbl, (src, d) in self.systems.items()}

    def lines(self) -> list[str]:
        """Per system, a line ``label (source):`` followed by its `Diagnostics.lines`, indented."""
        out = []
        for lbl, (src, d) in self.systems.items():
            out += [f"{lbl} ({src}):"] + [f"  {s}" for s in d.lines()]
        return out


class DiagnosticCounts:
    """The counts behind `Diagnostics`, added chunk by chunk (`add`) and read once (`result`): the same
    `Diagnostics` as `compute_diagnostics` on the whole list, whatever the chunks (the two length means are exact
    sums, `zheval.results.exact_sum`, so they equal ``math.fsum`` of the whole).

    Args:
        normalize: the normaliser spec applied first (`zheval.text.normalize.get_normalizer`).
        source: the predictions' file, named in the warning of predictions that all copy their references
            (`zheval.results.copies`), or ``None``.
    """

    def __init__(self, normalize=True, source: Optional[str] = None) -> None:
        from ..text.normalize import get_normalizer

        self.norm = get_normalizer(normalize)
        self.source = source
        self.copies: Optional[str] = "exact"  # `copy_kind` of the items so far (None: some prediction is no copy)
        self.n = 0
        self.ratio_sum, self.ratio_n, self.pred_total, self.ref_total = 0, 0, 0, 0
        self.endings: dict = {"final": 0, "no_final_punct": 0, "mid_word": 0, "empty": 0}
        self.empty_ids: list = []
        self.ref_trunc = self.ref_n = 0
        self.dist: dict = {}

    def add(self, predictions: Sequence[str], references: Sequence[Sequence[str]], ids: Sequence[str]) -> None:
        """Count one chunk: one string per item, per item a non-empty list of strings, the items' ids.

        Raises:
            ValueError: different lengths."""
        if not len(predictions) == len(references) == len(ids):
            raise ValueError(f"{len(predictions)} predictions, {len(references)} reference lists, {len(ids)} ids")
        if self.copies is not None:  # stops at the first prediction that is no copy
            self.copies = combine_copy_kinds(self.copies, copy_kind(predictions, references) if len(predictions)
                                             else "exact")
        ratios, ref_lens = [], []
        for i, (p, rs) in enumerate(zip(predictions, references)):
            np_ = self.norm(p)
            lp = _nchars(np_)
            nrs = [self.norm(r) for r in rs]
            lr = sum(_nchars(r) for r in nrs) / len(nrs) if nrs else 0.0
            if lr > 0:
                ratios.append(lp / lr)
            self.pred_total += lp
            ref_lens.append(lr)
            kind = ending_kind(np_)
            self.endings[kind] += 1
            if kind == "empty" and len(self.empty_ids) < 20:
                self.empty_ids.append(ids[i])
            for r in nrs:
                self.ref_n += 1
                self.ref_trunc += ending_kind(r) in ("no_final_punct", "mid_word")
            self.dist[len(rs)] = self.dist.get(len(rs), 0) + 1
        self.ratio_sum += exact_int(np.asarray(ratios, dtype=np.float64))
        self.ratio_n += len(ratios)
        self.ref_total += exact_int(np.asarray(ref_lens, dtype=np.float64))
        self.n += len(predictions)

    def result(self, excluded_shown: bool = True) -> "Diagnostics":
        """The `Diagnostics` of every item added, with its warnings. ``excluded_shown``: the report shows the scores
        without the truncated predictions (``zheval score``'s ``truncation_excluded``), which the truncation warning
        then points to; ``False`` (``compare``, ``score --stream``): the warning points to ``zheval score`` for
        them instead."""
        n, endings = self.n, self.endings
        truncated = endings["no_final_punct"] + endings["mid_word"]
        ratio = exact_mean(self.ratio_sum, self.ratio_n) if self.ratio_n else 0.0
        ref_total = exact_value(self.ref_total)
        warnings = []
        if n and abs(ratio - 1) > LENGTH_RATIO_WARN:
            warnings.append(
                f"predictions are on average {abs(ratio - 1):.0%} {'shorter' if ratio < 1 else 'longer'} than the "
                f"references (ratio {ratio:.2f}, beyond ±{LENGTH_RATIO_WARN:.0%}): BLEU's brevity penalty and ROUGE "
                "precision/recall are affected"
            )
        rate = truncated / n if n else 0.0
        ref_rate = self.ref_trunc / self.ref_n if self.ref_n else 0.0
        if n and rate > max(TRUNCATION_WARN, 2 * ref_rate):
            warnings.append(f"{rate:.0%} of predictions do not end a sentence (above {TRUNCATION_WARN:.0%}; "
                            f"references: {ref_rate:.0%}): check max_new_tokens / truncation; "
                            + (EXCLUDED_SHOWN if excluded_shown else EXCLUDED_ELSEWHERE))
        if endings["empty"]:
            warnings.append(f"{endings['empty']} empty prediction(s) ({BLANK_SCORED})")
        if n and self.copies is not None:  # warned, never refused: scoring the references is a sanity check
            warnings.append(copies_warning(n, self.copies, self.source))
        return Diagnostics(n_items=n, length_ratio=ratio,
                           length_ratio_corpus=self.pred_total / ref_total if ref_total else 0.0,
                           truncated=truncated, truncation_rate=rate, endings=dict(endings),
                           reference_truncation_rate=ref_rate, empty_predictions=endings["empty"],
                           empty_ids=list(self.empty_ids), ref_count_distribution=dict(sorted(self.dist.items())),
                           warnings=warnings)


def compute_diagnostics(predictions: Sequence[str], references: Sequence[Sequence[str]], ids: Sequence[str] | None = None,
                        normalize=True, excluded_shown: bool = True, source: Optional[str] = None) -> Diagnostics:
    """Compute `Diagnostics` for predictions against their (ragged) references (`DiagnosticCounts` on the whole
    list).

    Args:
        predictions: one string per item; references: per item a non-empty list of strings; ids: item ids for the
            empty-prediction list (default: indices); normalize: normaliser spec applied first
            (`zheval.text.normalize.get_normalizer`); excluded_shown: as `DiagnosticCounts.result`; source: the
            predictions' file, named in the warning of predictions that all copy their references (`zheval.results.copies`).

    Raises:
        ValueError: different lengths. TypeError: ``predictions`` or ``references`` a table (a pandas DataFrame),
            a mapping or a set (`zheval.io.text_lists`).
    """
    check_text_list(predictions, "predictions")  # a DataFrame would give its column names (`zheval.io.text_lists`)
    check_text_list(references, "references", "a list with one list of references per item")
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} reference lists")
    counts = DiagnosticCounts(normalize, source)
    counts.add(predictions, references, list(ids) if ids is not None else [str(i) for i in range(len(predictions))])
    return counts.result(excluded_shown)
