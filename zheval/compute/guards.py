"""Guards against user slips that give a wrong number without a word: warnings, issued once per scoring call.

[`zheval.compute.rouge.compute_rouge`][], [`zheval.compute.bleu.compute_bleu`][], [`zheval.score`][zheval.compute.joint.score] (once for
both metrics) and the evaluate modules (through them) call `warn_input_slips` once per call, on a bounded,
deterministic sample of the texts. Each warning is a subclass of [`ZhevalWarning`][zheval.compute.guards.ZhevalWarning], so it can be filtered:

    import warnings, zheval
    warnings.simplefilter("ignore", zheval.ZhevalWarning)          # all of them
    warnings.simplefilter("error", zheval.ScriptMismatchWarning)   # or make one category an error

The slips and their exact rules:

* [`UnsegmentedTextWarning`][zheval.compute.guards.UnsegmentedTextWarning] -- ``tokenizer="none"`` (whitespace-split, for pre-tokenised text) on Chinese that
  is not split into words: every whitespace-free run becomes one token, so nearly nothing matches. A text counts as
  *unsegmented* when it holds a run of at least `UNSEGMENTED_MIN_RUN` consecutive Han characters; the
  warning fires when at least `UNSEGMENTED_SHARE` of the sampled predictions, or of the sampled references,
  that contain a Han character are unsegmented. (On the samples of the shared real data -- CrossWOZ replies and
  queries, CSL titles and abstracts -- jieba-segmented text has such runs in at most 12.5 % of the texts, from long
  words such as 中华人民共和国; raw text in 59-100 %: the threshold lies between.)
* [`UnsegmentedTextWarning`][zheval.compute.guards.UnsegmentedTextWarning] too -- a **user tokenizer** (a callable) whose tokens hold such runs: the same
  measure on its output (each sampled text tokenised, its tokens joined by spaces), so ``tokenizer=str.split`` on raw
  Chinese warns as ``"none"`` does. (Every built-in tokenizer splits Han text by construction -- ``char`` and
  ``sacrebleu-zh`` one token per character, ``jieba`` and the presets' jieba into words -- so the guard measures the
  output of ``"none"`` and of callables; a callable that raises is left to the scoring, which names the item.)
* [`ScriptMismatchWarning`][zheval.compute.guards.ScriptMismatchWarning] -- predictions in Traditional and references in Simplified Chinese (or the
  reverse) with ``t2s`` off: the same word in the two scripts shares no character token. The measure of a side is
  the share of its sampled Han characters that OpenCC ``t2s`` (the converter of the ``t2s`` normalisation step)
  changes (`traditional_share`): 0.29-0.39 for the samples of the shared real data converted to Traditional
  with OpenCC ``s2t``, at most 0.003 for the data as it is (Simplified). A side is *Traditional* at
  `TRADITIONAL_MIN_SHARE` or more, *not Traditional* (Simplified or script-neutral) at
  `SIMPLIFIED_MAX_SHARE` or less; the warning fires when one side is Traditional and the other is not, each
  with at least `SCRIPT_MIN_HAN` Han characters sampled, and the tokenizer's normalisation has no ``t2s``
  step.

* [`ControlCharacterWarning`][zheval.compute.guards.ControlCharacterWarning] -- control characters (NUL, BEL, ESC …:
  category ``Cc`` but whitespace) that the tokenizer makes no token of: the ``char`` and ``jieba`` tokenizers read
  each as a break between tokens (``12\x0034`` gives ``12``, ``34``), even with ``normalize="none"`` (sacrebleu's
  ``zh`` tokenizer keeps each as a token), so the texts are scored without them; likewise the invisible characters
  (U+200B, U+FEFF, bidi marks …: `zheval.text.invisible.INVISIBLE_RANGES`) when the normalisation has no ``zw``
  step to remove them first (``normalize="none"``), except those a token keeps (a variation selector after its
  character). Not sampled: every text is scanned (one regular
  expression over the joined texts) and the texts holding one are tokenised again, so the count is exact
  (`dropped_controls`). Not for chrF without word n-grams, which counts characters (controls included).

The sample (`sample_texts`): at most `SAMPLE_ITEMS` items spread evenly over the corpus (the first,
the last and equal steps between), their prediction and one of their references (rotating over the reference
positions), each cut to its first `SAMPLE_CHARS_PER_TEXT` characters. Measured on the shared real data (2 cores,
busy): 0.05-0.2 ms per call, under 2 % of ``compute_bleu``/``compute_rouge`` on those corpora except the smallest
(85 items) with ``tokenizer="none"``, whose BLEU takes only 2.3-3 ms: 3-5 % there
(tests/compute/test_input_guards.py checks < 5 % on every file). The first calls in a process also build OpenCC's
t2s converter (about 5 ms, once, shared with the ``t2s`` normalisation step) and convert each Han character the
first time it is seen (memoised, see ``_TABLE``).
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from typing import List, Sequence, Tuple

import numpy as np

from ..text.chars import HAN_RANGES, INVISIBLE_CLASS_BODY
from ..text.normalize import t2s

__all__ = [
    "ZhevalWarning",
    "UnsegmentedTextWarning",
    "ScriptMismatchWarning",
    "EmptyReferenceWarning",
    "DuplicateReferenceWarning",
    "ControlCharacterWarning",
    "dropped_controls",
    "control_message",
    "PresetOverrideWarning",
    "ResamplingWarning",
    "warn_resampling",
    "warn_preset_override",
    "UNSEGMENTED_MIN_RUN",
    "UNSEGMENTED_SHARE",
    "TRADITIONAL_MIN_SHARE",
    "SIMPLIFIED_MAX_SHARE",
    "SCRIPT_MIN_HAN",
    "SAMPLE_ITEMS",
    "SAMPLE_CHARS_PER_TEXT",
    "sample_texts",
    "one_drop_warning",
    "unsegmented_share",
    "traditional_share",
    "input_slips",
    "warn_input_slips",
]


class ZhevalWarning(UserWarning):
    """Base category of every warning zheval issues about its inputs (filter it with `warnings`)."""


class UnsegmentedTextWarning(ZhevalWarning):
    """``tokenizer="none"`` on Chinese text that is not split into words (see `UNSEGMENTED_MIN_RUN`)."""


class ScriptMismatchWarning(ZhevalWarning):
    """Traditional predictions against Simplified references, or the reverse, with ``t2s`` off."""


class ResamplingWarning(ZhevalWarning):
    """A caution about a bootstrap interval, never a refusal (`warn_resampling`): it comes from fewer than
    `zheval.results.reducers.SOUND_RESAMPLES` resamples, or it does not contain its own score."""


def warn_resampling(out: dict, names: Sequence[str], bootstrap: int, stacklevel: int = 3) -> None:
    """`ResamplingWarning` for each caution of `zheval.results.reducers.resample_cautions` about the intervals of a
    result ``out`` (``<name>_ci_low``/``_ci_high`` beside each score ``<name>`` of ``names``); nothing when no
    interval was computed (``bootstrap=0``, a single item)."""
    from ..results.reducers import resample_cautions

    with_ci = [n for n in names if out.get(f"{n}_ci_low") is not None]
    if not bootstrap or not with_ci:
        return
    intervals = [(n, out[n], out[f"{n}_ci_low"], out[f"{n}_ci_high"]) for n in with_ci if isinstance(out[n], float)]
    for message in resample_cautions(int(bootstrap), intervals):
        warnings.warn(message, ResamplingWarning, stacklevel=stacklevel)


class PresetOverrideWarning(ZhevalWarning):
    """An option given explicitly departs from a preset's recipe (``preset="longbench", tokenizer="char"``): the
    scores are zheval's under those options, not the tool's (`warn_preset_override`)."""


class EmptyReferenceWarning(ZhevalWarning):
    """Empty references scored as the preset's tool scores them (reference length 0, no n-gram): a preset that
    reproduces sacrebleu (``BleuPreset.scores_empty_references``) scores what sacrebleu scores, counted and said
    (`zheval.compute.inputs.scored_empty_references`). ``positions`` holds every ``(i, j)``."""

    def __init__(self, message: str, positions: Sequence[Tuple[int, int]] = ()):
        super().__init__(message)
        self.positions = list(positions)


class DuplicateReferenceWarning(ZhevalWarning):
    """Items of the human ceiling whose references repeat one another (exactly, or equal after the tokenizer's
    normalisation): each copy, held out, is scored against its twin, which raises the ceiling
    (`zheval.adapters.duck.ceiling.human_ceiling`; the scores are still those of the references given)."""


class ControlCharacterWarning(ZhevalWarning):
    """Control characters in the texts that no token of the tokenizer holds (each is read as a break between
    tokens, as a space is), and invisible ones when no ``zw`` step removed them first: counted, with the texts that
    hold one (`dropped_controls`)."""


#: The control characters a tokenizer could drop: Unicode category ``Cc`` but the whitespace ones (``\t \n \v \f
#: \r``, U+001C-U+001F, U+0085), which separate tokens in every tokenizer, sacrebleu's too.
_CONTROL_CLASS_BODY = "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f"
#: ... and the invisible characters (`zheval.text.invisible.INVISIBLE_RANGES`: U+200B, U+FEFF, bidi marks ...),
#: which the ``zw`` step removes; without it (``normalize="none"``) the tokenizer drops those that no token keeps.
_CONTROL_RE = re.compile(f"[{_CONTROL_CLASS_BODY}{INVISIBLE_CLASS_BODY}]")
_CC_RE = re.compile(f"[{_CONTROL_CLASS_BODY}]")


def dropped_controls(predictions: Sequence[str], references: Sequence[Sequence[str]],
                     tokenizer, offset: int = 0) -> Tuple[int, List[str], List[str]]:
    """``(count, texts, chars)``: the control characters (`_CONTROL_RE`) of the texts as ``tokenizer`` normalises
    them that none of its tokens holds, the texts that lose one (``predictions[i]``, ``references[i][j]``; ``i``
    counted from ``offset``, a batch's first item) and the distinct characters lost (``U+0000``), in order. Exact:
    the texts are scanned joined, and only those holding a control character are normalised and tokenised again; a
    tokenizer that raises is left to the scoring."""
    search = _CONTROL_RE.search
    if search("\n".join(predictions)) is None and search("\n".join(r for rs in references for r in rs)) is None:
        return 0, [], []
    named = [(f"predictions[{i}]", p) for i, p in enumerate(predictions, offset)]
    named += [(f"references[{i}][{j}]", r) for i, rs in enumerate(references, offset) for j, r in enumerate(rs)]
    count, where, chars = 0, [], {}
    for name, text in named:
        if search(text) is None:
            continue
        try:
            had = _CONTROL_RE.findall(tokenizer.normalize(text))
            kept = _CONTROL_RE.findall("".join(tokenizer.tokenize(text))) if had else []
        except Exception:  # noqa: BLE001 - the scoring tokenises the same text and names the item that fails
            continue
        lost = len(had) - len(kept)
        if lost > 0:
            count, where = count + lost, where + [name]
            chars.update(dict.fromkeys(c for c in had if c not in kept))
    return count, where, [f"U+{ord(c):04X}" for c in chars]


def _control_slip(predictions, references, tokenizer) -> List[Tuple[type, str]]:
    count, where, chars = dropped_controls(predictions, references, tokenizer)
    return [(ControlCharacterWarning, control_message(count, where, chars, tokenizer))] if count else []


def control_message(count: int, where: Sequence[str], chars: Sequence[str], tokenizer) -> str:
    """The `ControlCharacterWarning` text of `dropped_controls`' ``(count, texts, chars)`` (``count`` > 0)."""
    texts = ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
    control = [c for c in chars if _CC_RE.match(chr(int(c[2:], 16)))]
    kind = ("control" if len(control) == len(chars) else "invisible" if not control else "control and invisible")
    return (
        f"{count} {kind} character{'s' if count > 1 else ''} ({', '.join(chars[:5])}{', …' if len(chars) > 5 else ''}) "
        f"in {len(where)} text{'s' if len(where) > 1 else ''} ({texts}) {'are' if count > 1 else 'is'} in no token "
        f"(tok:{tokenizer.signature()}): the tokenizer reads such a character as a break between tokens (a "
        f"{'NUL' if kind == 'control' else 'U+200B'} between 12 and 34 gives the tokens 12 and 34), even without "
        "normalisation, so those texts are scored without them (sacrebleu's zh tokenizer keeps each as a token)"
        + ("; the zw normalisation step removes invisible ones before tokenisation (no break)" if kind != "control"
           else "") + ". Remove them from the data, or check how it was decoded.")


#: A text is *unsegmented* when it holds this many consecutive Han characters (no space between them).
UNSEGMENTED_MIN_RUN = 5
#: `UnsegmentedTextWarning` fires when at least this share of the sampled predictions or references that
#: contain a Han character is unsegmented.
UNSEGMENTED_SHARE = 0.35
#: A side whose sampled Han characters are changed by OpenCC ``t2s`` in at least this share is Traditional.
TRADITIONAL_MIN_SHARE = 0.1
#: A side with at most this share is Simplified (or script-neutral).
SIMPLIFIED_MAX_SHARE = 0.02
#: Each side needs at least this many Han characters in the sample for its script to be judged.
SCRIPT_MIN_HAN = 20
#: At most this many items are sampled (evenly spread; their prediction and one reference each).
SAMPLE_ITEMS = 32
#: Each sampled text is cut to its first this many characters.
SAMPLE_CHARS_PER_TEXT = 32

def sample_texts(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> Tuple[List[str], List[str]]:
    """The sampled predictions and references (module docstring): at most `SAMPLE_ITEMS` items spread evenly
    (the first, the last and equal steps between); their predictions, and one reference of each (the k-th sampled
    item gives its reference ``k mod n_refs``, so every reference position is visited); each text cut to its first
    `SAMPLE_CHARS_PER_TEXT` characters. Deterministic."""
    n = len(predictions)
    if n <= SAMPLE_ITEMS:
        idx = range(n)
    else:
        idx = [k * (n - 1) // (SAMPLE_ITEMS - 1) for k in range(SAMPLE_ITEMS)]  # distinct: n - 1 >= SAMPLE_ITEMS
    cut = SAMPLE_CHARS_PER_TEXT
    preds = [predictions[i][:cut] for i in idx]
    refs = [references[i][k % len(references[i])][:cut] for k, i in enumerate(idx)]
    return preds, refs


_HAN_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" if lo != hi else chr(lo) for lo, hi in HAN_RANGES)
_HAN_RE = re.compile(f"[{_HAN_CLASS}]")
_RUN_RE = re.compile(f"[{_HAN_CLASS}]{{{UNSEGMENTED_MIN_RUN}}}")

# One byte per code point below _TABLE_SIZE (every Han range lies below it; a larger code point is looked up as the
# last entry, which is no Han character): _HAN (a Han character of zheval.text.normalize.HAN_RANGES), _CHECKED (whether
# OpenCC t2s changes it, converted alone, is known) and _CHANGED (it does). The Han bits are set here; the t2s bits
# are filled as characters are first seen. This module-level memo outlives a call safely: each byte depends only on
# its code point and the installed OpenCC, nothing a call can change, and a byte is only ever set to that one value,
# so threads filling it at once agree.
_HAN, _CHECKED, _CHANGED = 1, 2, 4
_TABLE_SIZE = max(hi for _, hi in HAN_RANGES) + 2
_TABLE = np.zeros(_TABLE_SIZE, dtype=np.uint8)
for _lo, _hi in HAN_RANGES:
    _TABLE[_lo:_hi + 1] = _HAN
del _lo, _hi


def _lookup(codes: np.ndarray) -> np.ndarray:
    """The table bytes of ``codes``, with the t2s bits of their Han characters filled in."""
    codes = np.minimum(codes, _TABLE_SIZE - 1)
    flags = _TABLE[codes]
    unknown = flags == _HAN
    if unknown.any():
        new = np.unique(codes[unknown])
        chars = [chr(c) for c in new.tolist()]
        converted = t2s("\n".join(chars)).split("\n")
        if len(converted) != len(chars):  # (never seen: the line breaks keep the characters apart)
            converted = [t2s(c) for c in chars]
        _TABLE[new] = [_HAN | _CHECKED | (_CHANGED if a != b else 0) for a, b in zip(chars, converted)]
        flags = _TABLE[codes]
    return flags


def _measure(texts: Sequence[str], split: int, runs: bool, script: bool) -> List[dict]:
    """The measures of ``texts[:split]`` and ``texts[split:]`` (two sides): ``han`` (Han characters), ``changed``
    (of them, changed by OpenCC t2s, each converted alone; with ``script``), ``texts`` (texts with a Han
    character) and ``runs`` (texts with a run of `UNSEGMENTED_MIN_RUN` Han characters; with ``runs``). The
    character counts come from one table lookup of the code points, the text counts from a regular expression per
    text."""
    texts = list(texts)
    first = "\n".join(texts[:split])
    joined = first + "\n" + "\n".join(texts[split:])
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    if script:
        flags = _lookup(codes)
    else:
        flags = _TABLE[np.minimum(codes, _TABLE_SIZE - 1)]
    out = []
    for part in (flags[:len(first)], flags[len(first) + 1:]):
        counts = np.bincount(part, minlength=8).tolist()
        side = {"han": sum(counts[v] for v in range(8) if v & _HAN)}
        if script:
            side["changed"] = sum(counts[v] for v in range(8) if v & _CHANGED)
        out.append(side)
    if runs:
        search_han, search_run = _HAN_RE.search, _RUN_RE.search
        for side, part in zip(out, (texts[:split], texts[split:])):
            with_han = [t for t in part if search_han(t)]
            side["texts"] = len(with_han)
            side["runs"] = sum(1 for t in with_han if search_run(t))
    return out


def _token_texts(texts: Sequence[str], tokenizer) -> List[str] | None:
    """Each text's tokens under ``tokenizer`` (normalised as for scoring), joined by spaces: a token with a run of Han
    characters keeps it, tokens never join. None when the tokenizer raises or returns no list of ``str`` (the
    scoring then reports it, naming the item)."""
    out = []
    try:
        for text in texts:
            toks = tokenizer.tokenize(text)
            if not isinstance(toks, list) or not all(isinstance(t, str) for t in toks):
                return None
            out.append(" ".join(toks))
    except Exception:  # noqa: BLE001 - the scoring calls the same function and names the item that fails
        return None
    return out


def unsegmented_share(texts: Sequence[str]) -> Tuple[float, int]:
    """``(share, n)``: of the ``n`` texts that contain a Han character, the share holding a run of
    `UNSEGMENTED_MIN_RUN` consecutive Han characters (``(0.0, 0)`` when none contains one)."""
    m = _measure(texts, len(texts), runs=True, script=False)[0]
    return (m["runs"] / m["texts"], m["texts"]) if m["texts"] else (0.0, 0)


def traditional_share(texts: Sequence[str]) -> Tuple[float, int]:
    """``(share, n)``: of the ``n`` Han characters in ``texts`` (occurrences), the share that OpenCC ``t2s`` (the
    converter of the ``t2s`` normalisation step) changes, each character converted alone; ``(0.0, 0)`` without
    Han characters."""
    m = _measure(texts, len(texts), runs=False, script=True)[0]
    return (m["changed"] / m["han"], m["han"]) if m["han"] else (0.0, 0)


def _unsegmented_sides(sides) -> str:
    """The sides (predictions, references) whose share of texts with a Han character that hold an unsegmented run
    reaches `UNSEGMENTED_SHARE`, in a warning's words ("" when none)."""
    bad = [(name, m["runs"] / m["texts"], m["texts"]) for name, m in zip(("predictions", "references"), sides)
           if m["texts"] and m["runs"] / m["texts"] >= UNSEGMENTED_SHARE]
    return " and ".join(f"{share:.0%} of the sampled {name} ({n} with Han characters)" for name, share, n in bad)


def input_slips(predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer,
                t2s_option: bool = True, words: bool = True, controls: bool = True) -> List[Tuple[type, str]]:
    """The slips found in a corpus scored with ``tokenizer``: ``[(warning category, message)]`` (module docstring).

    Args:
        predictions: ``list[str]``; references: ``list[list[str]]`` (validated, canonical, one entry per item);
        tokenizer: the `BaseTokenizer` used;
        t2s_option: whether ``t2s=True`` can be given with this tokenizer (False for the preset tokenizers that
            reproduce another tool), which changes the advice;
        words: whether the metric scores the tokenizer's tokens (False for chrF without word n-grams, which counts
            characters only: then unsegmented text under ``tokenizer="none"`` is no slip, nor a control character);
        controls: look for dropped control characters (False: the caller counts them over its batches itself).
    """
    if not predictions:
        return []
    found = _control_slip(predictions, references, tokenizer) if words and controls else []
    return found + _sampled_slips(predictions, references, tokenizer, t2s_option, words)


def _sampled_slips(predictions, references, tokenizer, t2s_option: bool, words: bool) -> List[Tuple[type, str]]:
    """The slips of `input_slips` measured on the sample (`sample_texts`): unsegmented text, script mismatch."""
    preds, refs = sample_texts(predictions, references)
    name = getattr(tokenizer, "name", None)
    runs = words and name == "none"
    tokens = _token_texts(preds + refs, tokenizer) if words and name == "custom" else None
    script = "t2s" not in tokenizer.normalizer.steps
    if not (runs or script or tokens is not None):
        return []
    sides = _measure(preds + refs, len(preds), runs, script)
    found: List[Tuple[type, str]] = []
    if tokens is not None:
        for side, measured in zip(sides, _measure(tokens, len(preds), True, False)):
            side.update(texts=measured["texts"], runs=measured["runs"])
        what = _unsegmented_sides(sides)
        if what:
            found.append((UnsegmentedTextWarning, (
                f"the tokenizer {tokenizer.signature()!r} does not split Chinese: for {what}, one of its tokens holds "
                f"a run of {UNSEGMENTED_MIN_RUN} or more Han characters, so almost nothing matches. Make it split "
                'Chinese into words or characters, or use tokenizer="char" (the default) or "jieba".')))
    what = _unsegmented_sides(sides) if runs else ""
    if what:
        found.append((UnsegmentedTextWarning, (
            f'tokenizer="none" splits on whitespace only, but {what} have runs of {UNSEGMENTED_MIN_RUN} or more '
            "Han characters without a space: such text is not segmented into words, and each run becomes one "
            'token, so almost nothing matches. Use tokenizer="char" (the default) or "jieba" for raw Chinese, or '
            'segment the text first (words separated by spaces) if you mean tokenizer="none".')))
    if script:
        hp, hr = sides[0]["han"], sides[1]["han"]
        if hp >= SCRIPT_MIN_HAN and hr >= SCRIPT_MIN_HAN:
            sp, sr = sides[0]["changed"] / hp, sides[1]["changed"] / hr
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


_HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_PASS_THROUGH = ("chinese_rouge.py", "chinese_bleu.py", "chinese_chrf.py")  # the metric scripts (evaluate copies them to its cache)


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside zheval, evaluate and the metric scripts."""
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        fn = frame.f_code.co_filename
        if not os.path.isabs(fn):
            fn = os.path.abspath(fn)
        if not (fn.startswith(_HERE) or frame.f_globals.get("__name__", "").startswith("evaluate.")
                or fn.endswith(_PASS_THROUGH)):
            return level
        frame = frame.f_back
        level += 1
    return level


def warn_input_slips(predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer,
                     t2s_option: bool = True, words: bool = True) -> None:
    """Issue each slip of `input_slips` as a `warnings` warning of its category, pointed at the first
    caller outside zheval. Called once per scoring call."""
    for category, message in input_slips(predictions, references, tokenizer, t2s_option, words):
        warnings.warn(message, category, stacklevel=_user_stacklevel())


def _tokens_of(preset, option: str) -> str:
    """For an overridden tokenizer of a preset that says whose tokens it reproduces (``tokens_of``: LongBench's
    jieba, although the tokenizer is named ``llamafactory-jieba``), that tool; else ``""``."""
    return f", the tokens of {preset.tokens_of}" if option == "tokenizer" and preset.tokens_of else ""


def warn_preset_override(config) -> None:
    """Issue a `PresetOverrideWarning` when a resolved ROUGE or BLEU ``config`` overrides an option its preset
    fixes ([`zheval.presets.RougePreset.departures`][zheval.presets.base.RougePreset.departures]), naming each
    overridden option with the preset's value: the signature's ``preset`` then reads ``name(overridden:...)``, and
    unless every one is an option the tool itself offers (``tool_departures`` empty) the preset's own numbers are
    left out. Nothing without a preset or without an override."""
    preset = getattr(config, "preset", None)
    departures = preset.departures(config) if preset is not None else ()
    if not departures:
        return
    given = ", ".join(f"{k} (the preset's: {preset.defaults[k]!r}{_tokens_of(preset, k)})" for k in departures)
    if preset.tool_departures(config):
        what = ("so the scores are zheval's under these options, not the tool's: the preset's own numbers are left "
                "out and")
    else:
        stay = " (its own numbers stay)" if preset.has_tool_numbers else ""  # none to keep: sacrebleu-zh
        what = (f"each a choice the tool itself offers, so the scores are still the tool's{stay} but not the "
                "preset's, and")
    warnings.warn(f"preset {preset.name!r}: {given} overridden, {what} the signature reads "
                  f"preset:{preset.signature_name(config)}", PresetOverrideWarning, stacklevel=_user_stacklevel())


def one_drop_warning(*tokenizers) -> None:
    """One `zheval.tokenizers.custom.DroppedTokensWarning` per call: the user tokenizers among ``tokenizers`` (the
    configs' tokenizers of one call; ``None`` and built-in tokenizers are skipped) that wrap the same callable share
    the warning (`zheval.tokenizers.custom.CallableTokenizer.share_warning`), so that a call scoring several metrics
    with one callable warns once, not once a metric."""
    from ..tokenizers import CallableTokenizer

    firsts: List[CallableTokenizer] = []
    for tok in tokenizers:
        if not isinstance(tok, CallableTokenizer):
            continue
        same = next((f for f in firsts if f.obj is tok.obj), None)
        if same is None:
            firsts.append(tok)
        elif same is not tok:
            tok.share_warning(same)
