"""What `join_predictions` says when predictions do not match a dataset's items: the ids missing and extra (with a
hint when a missing and an extra id differ only in Unicode normalisation, which prints them alike), and, for
predictions matched in order, the count — with the lines that are blank when the extra ones are only blank lines
at the end of a text file (the wording of ``zheval bleu``'s text files) and the lines holding a lone CR.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["count_mismatch_message", "id_mismatch_lines", "visible_id"]

_SHOWN = 10  # ids shown in a message
_LONE_CR = re.compile("\r(?!\n)")


def visible_id(value) -> str:
    """``repr(value)`` with every combining mark written as its ``\\u`` escape (``'cafe\\u0301-1'``), so that two
    ids that differ only in Unicode normalisation do not print alike. A non-str id is ``repr`` as it is."""
    text = repr(value)
    if not isinstance(value, str):
        return text
    return "".join(f"\\u{ord(c):04x}" if unicodedata.combining(c) else c for c in text)


def _first(xs, n: int = _SHOWN) -> str:
    xs = list(xs)
    return ", ".join(repr(x) for x in xs[:n]) + (f", … ({len(xs) - n} more)" if len(xs) > n else "")


def id_mismatch_lines(missing: list, extra: list) -> list[str]:
    """The lines after the counts: the first missing ids (in the dataset, not in the predictions), the first extra
    ids (in the predictions, not in the dataset), and, when some missing id and some extra id are equal after NFC
    normalisation, a line naming the first such pair with its combining marks escaped (`visible_id`)."""
    out = []
    if missing:
        out.append(f"  first missing ids: {_first(missing)}")
    if extra:
        out.append(f"  first extra ids: {_first(extra)}")
    by_nfc = {unicodedata.normalize("NFC", x): x for x in extra if isinstance(x, str)}
    pairs = [(m, by_nfc[key]) for m in missing if isinstance(m, str)
             and (key := unicodedata.normalize("NFC", m)) in by_nfc]
    if pairs:
        m, e = pairs[0]
        out.append(f"  {len(pairs)} missing id(s) differ from an extra id only in Unicode normalisation (NFC vs NFD; "
                   f"they print alike), e.g. {visible_id(m)} in the dataset and {visible_id(e)} in the predictions: "
                   "write the ids of both files in the same normal form (NFC: unicodedata.normalize('NFC', id))")
    return out


def count_mismatch_message(src, n_predictions: int, n_items: int, texts: list, lines: list | None) -> str:
    """Predictions without ids matched in dataset order, but their number is not the items': the counts, the
    last prediction's line, and when every extra prediction is blank, the lines that are (a line break too many at
    the end of a text file?)."""
    msg = (f"predictions ({src}) have no ids, so they are matched in dataset order, but there are {n_predictions} "
           f"predictions for {n_items} items")
    if lines:
        msg += f" (last prediction at line {lines[-1]})"
    rest = texts[n_items:]
    if rest and not any(t.strip() for t in rest):
        where = ""
        if lines:
            first, last = lines[n_items], lines[-1]
            where = f"line {first} is" if first == last else f"lines {first}–{last} are"
        else:
            where = f"the last {len(rest)} prediction(s) are"
        msg += f"; {where} blank: the extra predictions are empty (a line break too many at the end?)"
    merged = [i for i, t in enumerate(texts) if isinstance(t, str) and _LONE_CR.search(t)]
    if merged:
        at = [lines[i] for i in merged] if lines else [i + 1 for i in merged]
        shown = ", ".join(str(k) for k in at[:_SHOWN]) + (f", … ({len(at) - _SHOWN} more)" if len(at) > _SHOWN else "")
        which = "line" if lines else "prediction"
        msg += (f"; {which}{'s' if len(at) > 1 else ''} {shown} hold{'' if len(at) > 1 else 's'} a lone carriage "
                "return (CR, \\r) inside: a line end of another system, two predictions merged into one? (lines "
                "end at LF or CRLF; a lone CR is text) write the file with LF or CRLF line ends")
    return msg
