"""The two text boxes of the Space widget (`zheval.adapters.space`) read into the modules' inputs, and a refused
input's message in the widget's own terms: `parse_inputs` (one prediction per line; several references of one
item on its line, separated by `REF_DELIMITER`; the limits `MAX_ITEMS`, `MAX_LINE_CHARS`, `MAX_BOX_CHARS`, each
error naming the 1-based line) and `widget_message` (the modules' 0-based ``references[i][j]`` and
``predictions[i]`` as the widget's lines, cut to `MAX_MESSAGE_CHARS`). Plain text in, plain text out: no gradio,
no pandas."""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from ..io.lines import line_end_problem, split_lines

__all__ = ["REF_DELIMITER", "MAX_ITEMS", "MAX_LINE_CHARS", "MAX_BOX_CHARS", "MAX_MESSAGE_CHARS", "parse_inputs",
           "widget_message"]

#: Separator of several references on one line of the references box.
REF_DELIMITER = "|||"
#: At most this many lines are scored in the widget (a Space runs on a shared CPU); use the module for more.
MAX_ITEMS = 1000
#: At most this many characters on one line (either box): ROUGE-L/W/S cost grows with the product of the lengths
#: (two 2,000-character texts take ~0.7 s for rougeW+rougeS4+rougeSU4 on one core; 10,000 take ~20 s).
MAX_LINE_CHARS = 2000
#: At most this many characters in one box (newlines not counted).
MAX_BOX_CHARS = 50_000
#: Longest message shown in the page (a message quoting a long input line is cut, saying so).
MAX_MESSAGE_CHARS = 1500


def _lines(text: str, box: str) -> List[str]:
    """The lines of one box by the line rule of every door (`zheval.io.lines.split_lines`: a line ends at LF or
    CRLF, a lone CR is text), trailing blank lines dropped; a box whose lines all end in a lone CR is refused, as a
    file is (it would be one line)."""
    text = text or ""
    if line_end_problem(text, box) is not None:
        n = text.rstrip("\r").count("\r") + 1
        raise ValueError(f"the {box} lines end in CR (\\r) only (classic Mac OS line ends): they would be read as one "
                         f"line instead of {n}; use LF line ends")
    lines = split_lines(text)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _check_sizes(lines: Sequence[str], box: str) -> None:
    """Line count, line length and box size of one box (``box`` = ``"prediction"``/``"reference"``)."""
    if len(lines) > MAX_ITEMS:
        raise ValueError(f"{box} line {MAX_ITEMS + 1}: the widget scores at most {MAX_ITEMS} lines ({len(lines)} "
                         f"{box} lines given); score more with evaluate.load(...).compute")
    total = 0
    for i, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE_CHARS:
            raise ValueError(f"{box} line {i} has {len(line):,} characters: the widget scores lines of at most "
                             f"{MAX_LINE_CHARS:,} characters; score longer texts with evaluate.load(...).compute")
        total += len(line)
        if total > MAX_BOX_CHARS:
            raise ValueError(f"{box} line {i} brings the {box}s to {total:,} characters: the widget scores at most "
                             f"{MAX_BOX_CHARS:,} characters per box; score more with evaluate.load(...).compute")


def parse_inputs(predictions_text: str, references_text: str, delimiter: str = REF_DELIMITER
                 ) -> Tuple[List[str], List[List[str]]]:
    """Parse the two text boxes into ``(predictions, references)`` for the metric modules.

    Args:
        predictions_text: one prediction per line (``str``); trailing blank lines are ignored, a blank line
            inside is an empty prediction.
        references_text: one line per prediction; references of one item separated by ``delimiter``.
        delimiter: default ``"|||"``.
    Returns:
        ``(list[str], list[list[str]])``: predictions stripped of surrounding spaces; per item a non-empty list of
        stripped references (ragged across items).
    Raises:
        ValueError, each naming the 1-based line (lines end at LF or CRLF; a lone CR inside a line is text, as
            in every door, and a box whose lines all end in a lone CR is refused): no prediction; more than `MAX_ITEMS` lines, a line over
            `MAX_LINE_CHARS` characters or a box over `MAX_BOX_CHARS` characters; a prediction line
            without a reference line or the other way round; a blank reference line or an empty reference between
            delimiters (with its 1-based reference number); a run of the delimiter's character longer than the
            delimiter (``"x||||y"``: ``x`` and ``|y``, or ``x|`` and ``y``?). A ``|`` or ``||`` inside a reference is
            text.
    """
    pred_lines = _lines(predictions_text, "prediction")
    ref_lines = _lines(references_text, "reference")
    if not pred_lines:
        raise ValueError("no prediction: write one prediction per line")
    _check_sizes(pred_lines, "prediction")
    _check_sizes(ref_lines, "reference")
    preds = [p.strip() for p in pred_lines]
    how = (f"write one reference line per prediction, with several references of one item on its line separated "
           f"by {delimiter!r}")
    if len(ref_lines) < len(preds):
        raise ValueError(f"prediction line {len(ref_lines) + 1} has no reference line ({len(preds)} prediction "
                         f"lines, {len(ref_lines)} reference lines): {how}")
    if len(ref_lines) > len(preds):
        raise ValueError(f"reference line {len(preds) + 1} has no prediction line ({len(preds)} prediction "
                         f"lines, {len(ref_lines)} reference lines): {how}")
    refs: List[List[str]] = []
    for i, line in enumerate(ref_lines, start=1):
        if not line.strip():
            raise ValueError(f"reference line {i} is empty (every prediction needs at least one reference)")
        run = _long_run(line, delimiter)
        if run is not None:
            raise ValueError(f"reference line {i}: {run!r} is {len(run)} {delimiter[0]!r} characters in a row, "
                             f"longer than the separator {delimiter!r}: it cannot be split unambiguously (an empty "
                             f"reference, or a reference that starts or ends with {delimiter[0]!r}?); separate "
                             f"references with exactly {delimiter!r}")
        parts = [r.strip() for r in line.split(delimiter)]
        for j, r in enumerate(parts, start=1):
            if not r:
                raise ValueError(f"reference line {i}: reference {j} is empty (check the {delimiter!r} separators)")
        refs.append(parts)
    return preds, refs


def _long_run(line: str, delimiter: str):
    """The first run of the delimiter's character longer than the delimiter (``"||||"`` for ``"|||"``), or
    ``None``; only for a delimiter of one repeated character (``"x||||y"`` could be ``x`` and ``|y`` or ``x|`` and
    ``y``)."""
    if not delimiter or len(set(delimiter)) != 1:
        return None
    m = re.search(f"{re.escape(delimiter[0])}{{{len(delimiter) + 1},}}", line)
    return m.group(0) if m else None


_REF_INDEX = re.compile(r"\breferences\[(\d+)\]\[(\d+)\]")
_PRED_INDEX = re.compile(r"\bpredictions\[(\d+)\]")


def widget_message(exc: BaseException) -> str:
    """The text the page shows for a refused input: the exception's message with the modules' 0-based indices as
    the widget's 1-based lines (``references[1][0]`` -> ``reference line 2, reference 1``; ``predictions[3]`` ->
    ``prediction line 4``), without the modules' note on stored batches (the widget stores none), cut to
    `MAX_MESSAGE_CHARS` characters."""
    from zheval.compute.inputs import EmptyReferenceError

    if isinstance(exc, EmptyReferenceError):
        exc = exc.relocated(lambda i: "", note="")
    text = str(exc).strip()
    text = _REF_INDEX.sub(lambda m: f"reference line {int(m.group(1)) + 1}, reference {int(m.group(2)) + 1}",
                          text)
    text = _PRED_INDEX.sub(lambda m: f"prediction line {int(m.group(1)) + 1}", text)
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[:MAX_MESSAGE_CHARS] + f" ... (message cut at {MAX_MESSAGE_CHARS} characters)"
    return text
