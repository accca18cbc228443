"""Guards against user slips that give a wrong number without a word: warnings, issued once per scoring call.

:func:`zheval.rouge_corpus.compute_rouge`, :func:`zheval.bleu_corpus.compute_bleu`, :func:`zheval.score` (once for
both metrics) and the evaluate modules (through them) call :func:`warn_input_slips` once per call, on a bounded,
deterministic sample of the texts. Each warning is a subclass of :class:`ZhevalWarning`, so it can be filtered::

    import warnings, zheval
    warnings.simplefilter("ignore", zheval.ZhevalWarning)          # all of them
    warnings.simplefilter("error", zheval.ScriptMismatchWarning)   # or make one category an error

The slips and their exact rules:

* :class:`UnsegmentedTextWarning` -- ``tokenizer="none"`` (whitespace-split, for pre-tokenised text) on Chinese that
  is not split into words: every whitespace-free run becomes one token, so nearly nothing matches. A text counts as
  *unsegmented* when it holds a run of at least :data:`UNSEGMENTED_MIN_RUN` consecutive Han characters; the
  warning fires when at least :data:`UNSEGMENTED_SHARE` of the sampled predictions, or of the sampled references,
  that contain a Han character are unsegmented. (On the shared real data, jieba-segmented text has such runs in
  at most 9 % of texts -- long words such as 中华人民共和国; raw text in 65-100 %.)
* :class:`ScriptMismatchWarning` -- predictions in Traditional and references in Simplified Chinese (or the
  reverse) with ``t2s`` off: the same word in the two scripts shares no character token. The measure of a side is
  the share of its sampled Han characters that OpenCC ``t2s`` (the converter of the ``t2s`` normalisation step)
  changes (:func:`traditional_share`): 0.30-0.39 for the shared real data converted to Traditional with OpenCC
  ``s2t``, at most 0.003 for the data as it is (Simplified). A side is *Traditional* at
  :data:`TRADITIONAL_MIN_SHARE` or more, *not Traditional* (Simplified or script-neutral) at
  :data:`SIMPLIFIED_MAX_SHARE` or less; the warning fires when one side is Traditional and the other is not, each
  with at least :data:`SCRIPT_MIN_HAN` Han characters sampled, and the tokenizer's normalisation has no ``t2s``
  step.

The sample (:func:`sample_texts`): at most :data:`SAMPLE_ITEMS` items spread evenly over the corpus (the first,
the last and equal steps between), their prediction and one of their references (rotating over the reference
positions), each cut to its first :data:`SAMPLE_CHARS_PER_TEXT` characters. Measured cost: well under 5 % of a computation on the shared real data
(tests/test_input_guards.py measures it).
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .normalize import HAN_RANGES, t2s

__all__ = [
    "ZhevalWarning",
    "UnsegmentedTextWarning",
    "ScriptMismatchWarning",
    "UNSEGMENTED_MIN_RUN",
    "UNSEGMENTED_SHARE",
    "TRADITIONAL_MIN_SHARE",
    "SIMPLIFIED_MAX_SHARE",
    "SCRIPT_MIN_HAN",
    "SAMPLE_ITEMS",
    "SAMPLE_CHARS_PER_TEXT",
    "sample_texts",
    "unsegmented_share",
    "traditional_share",
    "input_slips",
    "warn_input_slips",
]


class ZhevalWarning(UserWarning):
    """Base category of every warning zheval issues about its inputs (filter it with :mod:`warnings`)."""


class UnsegmentedTextWarning(ZhevalWarning):
    """``tokenizer="none"`` on Chinese text that is not split into words (see :data:`UNSEGMENTED_MIN_RUN`)."""


class ScriptMismatchWarning(ZhevalWarning):
    """Traditional predictions against Simplified references, or the reverse, with ``t2s`` off."""


#: A text is *unsegmented* when it holds this many consecutive Han characters (no space between them).
UNSEGMENTED_MIN_RUN = 5
#: :class:`UnsegmentedTextWarning` fires when at least this share of the sampled predictions or references that
#: contain a Han character is unsegmented.
UNSEGMENTED_SHARE = 0.5
#: A side whose sampled Han characters are changed by OpenCC ``t2s`` in at least this share is Traditional.
TRADITIONAL_MIN_SHARE = 0.05
#: A side with at most this share is Simplified (or script-neutral).
SIMPLIFIED_MAX_SHARE = 0.01
#: Each side needs at least this many Han characters in the sample for its script to be judged.
SCRIPT_MIN_HAN = 20
#: At most this many items are sampled (evenly spread; their prediction and one reference each).
SAMPLE_ITEMS = 64
#: Each sampled text is cut to its first this many characters.
SAMPLE_CHARS_PER_TEXT = 32

_HAN_BOUNDS = np.array([x for lo, hi in HAN_RANGES for x in (lo, hi + 1)], dtype=np.uint32)


def sample_texts(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> Tuple[List[str], List[str]]:
    """The sampled predictions and references (module docstring): at most :data:`SAMPLE_ITEMS` items spread evenly
    (the first, the last and equal steps between); their predictions, and one reference of each (the k-th sampled
    item gives its reference ``k mod n_refs``, so every reference position is visited); each text cut to its first
    :data:`SAMPLE_CHARS_PER_TEXT` characters. Deterministic."""
    n = len(predictions)
    if n <= SAMPLE_ITEMS:
        idx = range(n)
    else:
        idx = [k * (n - 1) // (SAMPLE_ITEMS - 1) for k in range(SAMPLE_ITEMS)]  # distinct: n - 1 >= SAMPLE_ITEMS
    cut = SAMPLE_CHARS_PER_TEXT
    preds = [predictions[i][:cut] for i in idx]
    refs = [references[i][k % len(references[i])][:cut] for k, i in enumerate(idx)]
    return preds, refs


class _Side:
    """One side's sampled texts joined by newlines (so that no run or phrase spans two texts), as code points, with
    the Han mask (:data:`zheval.normalize.HAN_RANGES`) computed once for both measures."""

    def __init__(self, texts: Sequence[str]):
        self.texts = list(texts)
        self.joined = "\n".join(self.texts)
        self.codes = np.frombuffer(self.joined.encode("utf-32-le"), dtype=np.uint32)
        self.han = (np.searchsorted(_HAN_BOUNDS, self.codes, side="right") & 1).astype(bool)
        self.n_han = int(np.count_nonzero(self.han))

        self.lengths = np.fromiter(map(len, self.texts), dtype=np.int64, count=len(self.texts))
        self.starts = np.zeros(len(self.texts), dtype=np.int64)  # where each text starts in the joined string
        if len(self.texts) > 1:
            np.cumsum(self.lengths[:-1] + 1, out=self.starts[1:])

    def texts_with(self, mask: np.ndarray) -> np.ndarray:
        """Per text: whether ``mask`` (over the joined string) is True somewhere inside it."""
        cum = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        return cum[self.starts + self.lengths] > cum[self.starts]


def unsegmented_share(texts: Sequence[str], _side: Optional[_Side] = None) -> Tuple[float, int]:
    """``(share, n)``: of the ``n`` texts that contain a Han character, the share holding a run of
    :data:`UNSEGMENTED_MIN_RUN` consecutive Han characters (``(0.0, 0)`` when none contains one)."""
    side = _side if _side is not None else _Side(texts)
    if not side.n_han:
        return 0.0, 0
    han = side.han
    # maximal runs of Han characters lie between non-Han positions (the newlines joining the texts are non-Han, so
    # a run never spans two texts); the text of a long run is the last text starting at or before it
    edges = np.concatenate(([-1], np.flatnonzero(~han), [len(han)]))
    long_starts = edges[:-1][np.diff(edges) - 1 >= UNSEGMENTED_MIN_RUN] + 1
    with_run = np.unique(np.searchsorted(side.starts, long_starts, side="right") - 1)
    n = int(np.count_nonzero(side.texts_with(han)))
    return len(with_run) / n, n


def _same_length_t2s(text: str) -> str:
    """t2s of ``text``, or character by character (keeping a character whose conversion is not one character)
    when a phrase conversion changed the length."""
    out = t2s(text)
    if len(out) == len(text):
        return out
    return "".join(c if len(c) == 1 else ch for ch in text for c in (t2s(ch),))


def traditional_share(texts: Sequence[str], _side: Optional[_Side] = None) -> Tuple[float, int]:
    """``(share, n)``: of the ``n`` Han characters in ``texts`` (occurrences), the share that OpenCC ``t2s`` (the
    converter of the ``t2s`` normalisation step) changes; ``(0.0, 0)`` without Han characters. The texts are
    converted joined by newlines (no phrase spans two texts) and compared position by position."""
    side = _side if _side is not None else _Side(texts)
    if not side.n_han:
        return 0.0, 0
    converted = t2s(side.joined)
    if len(converted) != len(side.joined):  # a phrase became longer or shorter: text by text, char by char
        converted = "\n".join(_same_length_t2s(t) for t in side.texts)
    changed = side.codes != np.frombuffer(converted.encode("utf-32-le"), dtype=np.uint32)
    return int(np.count_nonzero(changed & side.han)) / side.n_han, side.n_han


def input_slips(predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer,
                t2s_option: bool = True) -> List[Tuple[type, str]]:
    """The slips found in a corpus scored with ``tokenizer``: ``[(warning category, message)]`` (module docstring).

    Args:
        predictions: ``list[str]``; references: ``list[list[str]]`` (validated, canonical, one entry per item);
        tokenizer: the :class:`~zheval.tokenizers.BaseTokenizer` used;
        t2s_option: whether ``t2s=True`` can be given with this tokenizer (False for the preset tokenizers that
            reproduce another tool), which changes the advice.
    """
    if not predictions:
        return []
    preds, refs = (_Side(texts) for texts in sample_texts(predictions, references))
    found: List[Tuple[type, str]] = []
    if getattr(tokenizer, "name", None) == "none":
        sides = [(name, *unsegmented_share((), side)) for name, side in (("predictions", preds), ("references", refs))]
        bad = [(name, share, n) for name, share, n in sides if n and share >= UNSEGMENTED_SHARE]
        if bad:
            what = " and ".join(f"{share:.0%} of the sampled {name} ({n} with Han characters)" for name, share, n in bad)
            found.append((UnsegmentedTextWarning, (
                f'tokenizer="none" splits on whitespace only, but {what} have runs of {UNSEGMENTED_MIN_RUN} or more '
                "Han characters without a space: such text is not segmented into words, and each run becomes one "
                'token, so almost nothing matches. Use tokenizer="char" (the default) or "jieba" for raw Chinese, or '
                'segment the text first (words separated by spaces) if you mean tokenizer="none".')))
    if "t2s" not in tokenizer.normalizer.steps:
        (sp, hp), (sr, hr) = traditional_share((), preds), traditional_share((), refs)
        if hp >= SCRIPT_MIN_HAN and hr >= SCRIPT_MIN_HAN:
            if sp >= TRADITIONAL_MIN_SHARE and sr <= SIMPLIFIED_MAX_SHARE:
                trad, simp = ("predictions", sp), ("references", sr)
            elif sr >= TRADITIONAL_MIN_SHARE and sp <= SIMPLIFIED_MAX_SHARE:
                trad, simp = ("references", sr), ("predictions", sp)
            else:
                trad = None
            if trad is not None:
                fix = ("Pass t2s=True to convert both to Simplified before tokenising (the signature then names the "
                       "t2s step)." if t2s_option else
                       f"The tokenizer {tokenizer.signature()!r} reproduces another tool exactly and takes no t2s "
                       "option: convert the texts to one script first (e.g. with opencc), or score without the preset "
                       "and with t2s=True.")
                found.append((ScriptMismatchWarning, (
                    f"the {trad[0]} look like Traditional Chinese and the {simp[0]} like Simplified Chinese "
                    f"(OpenCC t2s changes {trad[1]:.1%} vs {simp[1]:.1%} of their sampled Han characters) and t2s is "
                    "off: the same word in the two scripts shares no character token, so the score is too low. "
                    + fix)))
    return found


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside zheval (and evaluate's machinery)."""
    here = os.path.dirname(os.path.abspath(__file__))
    skip = (here + os.sep,)
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        fn = frame.f_code.co_filename
        name = frame.f_globals.get("__name__", "")
        if not (os.path.abspath(fn).startswith(skip) or name.startswith("evaluate.")
                or os.path.basename(fn) in ("chinese_rouge.py", "chinese_bleu.py")):
            return level
        frame = frame.f_back
        level += 1
    return level


def warn_input_slips(predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer,
                     t2s_option: bool = True) -> None:
    """Issue each slip of :func:`input_slips` as a :mod:`warnings` warning of its category, pointed at the first
    caller outside zheval. Called once per scoring call."""
    for category, message in input_slips(predictions, references, tokenizer, t2s_option):
        warnings.warn(message, category, stacklevel=_user_stacklevel())
