"""What `join_predictions` says when predictions do not match a dataset's items: the ids missing and extra (with a
hint when a missing and an extra id are the same id written differently: an invisible character (U+200B, U+FEFF …),
Unicode normalisation, which prints them alike, leading zeros, full-width characters, a decimal ``.0``), and, for
predictions matched in order, the count — with the lines that are blank when the extra ones are only blank lines
at the end of a text file (the wording of ``zheval bleu``'s text files) and the lines holding a lone CR.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

__all__ = ["CLOSENESS", "IdPairs", "blank_last_line_note", "count_group_form", "count_mismatch_message", "id_hints", "id_mismatch_lines",
           "id_pairs", "invisible_key", "invisible_pairs", "plain_written", "whole_id", "visible_id", "GROUP_FORMS_NOTE",
           "group_form_notes", "group_type_notes"]

_SHOWN = 10  # ids shown in a message
_LONE_CR = re.compile("\r(?!\n)")


def visible_id(value) -> str:
    """``repr(value)`` with every combining mark and invisible character (`invisible_key`: a variation selector, which
    ``repr`` keeps) written as its ``\\u`` escape (``'cafe\\u0301-1'``, ``'x\\ufe0f'``), so that two ids that differ
    only in Unicode normalisation or an invisible character do not print alike. A non-str id is ``repr`` as it
    is."""
    text = repr(value)
    if not isinstance(value, str):
        return text
    from ...text.terminal import without_invisible

    return "".join((f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
                   if unicodedata.combining(c) or not without_invisible(c) else c for c in text)


def invisible_key(value):
    """``value`` (a str) without its invisible characters (`zheval.text.terminal.without_invisible`: every
    default-ignorable code point — U+200B ZWSP, U+FEFF, U+2060 WJ, U+00AD, ZWJ, ZWNJ, variation selectors, tags —,
    U+2800, U+FFF9–U+FFFB), NFC: what two ids equal once such characters are removed share; ``None`` for a non-str
    id or one that has none of them (`invisible_pairs`)."""
    if not isinstance(value, str):
        return None
    from ...text.terminal import without_invisible

    return unicodedata.normalize("NFC", without_invisible(value))


def invisible_pairs(missing, extra) -> list:
    """The pairs ``(missing id, extra id)``, in ``missing``'s order, equal once their invisible characters are
    removed (`invisible_key`; after NFC too), not equal as written or after NFC alone (`id_pairs`' first kind):
    ``'x\\u200by'`` and ``'xy'``, ``'\\ufeff7'`` and ``'7'``. Each missing id with its first such extra id."""
    return _matched(list(missing), list(extra), invisible_key, lambda m, e: unicodedata.normalize("NFC", str(m))
                    != unicodedata.normalize("NFC", str(e)))


def _first(xs, n: int = _SHOWN) -> str:
    xs = list(xs)
    return ", ".join(repr(x) for x in xs[:n]) + (f", … ({len(xs) - n} more)" if len(xs) > n else "")


def _no_leading_zeros(value) -> str:
    return re.sub(r"^0+(?=\d)", "", str(value))


def _whole_number(value) -> str:
    """``'7.0'``/``7.0``/``'007.00'``/``'7.'`` → ``'7'``: a whole number written as a decimal (a spreadsheet or pandas read
    the ids as floats), without its leading zeros; any other id as `_no_leading_zeros` writes it."""
    return re.sub(r"^(\d+)\.0*$", r"\1", _no_leading_zeros(value))


def whole_id(value) -> str:
    """``value`` written plainly (NFKC), without leading zeros or a decimal ``.0``: the id that the ways of writing
    of `id_pairs` (but Unicode normalisation) stand for (``'００７.0'`` → ``'7'``)."""
    return _whole_number(_plain(value))


def _plain(value) -> str:
    """``value`` as text with its full-width and other compatibility characters written plainly (NFKC): the first
    step of the keys of leading zeros and decimals, so that the causes compose (``'００７'`` is ``'007'``, then
    ``'7'``)."""
    return unicodedata.normalize("NFKC", str(value))


def plain_written(m, e) -> bool:
    """Whether NFKC changes ``m`` or ``e`` (as text): a pair of `id_pairs` that differs in leading zeros or a
    decimal ``.0`` once full-width or other compatibility characters are written plainly (``'００７'`` and ``'7'``)
    is worded with both causes."""
    return any(_plain(x) != str(x) for x in (m, e))


def _matched(missing: list, extra: list, key, also=lambda m, e: True) -> list:
    """The pairs ``(missing id, extra id)`` whose ``key`` is the same, not written alike, ``also(m, e)`` true: for
    each missing id, the first such extra id that needs no NFKC (`plain_written`), else the first such one."""
    by_key: dict = {}
    for x in extra:
        k = key(x)
        if k is not None:
            by_key.setdefault(k, []).append(x)
    out = []
    for m in missing:
        k = key(m)
        fits = [e for e in by_key.get(k, ()) if str(m) != str(e) and also(m, e)] if k is not None else []
        if fits:
            out.append((m, min(fits, key=lambda e: plain_written(m, e))))
    return out


class IdPairs(NamedTuple):
    """The kinds of `id_pairs`, each a list of ``(missing id, extra id)``; a pair is of one kind."""
    nfc: list  #: equal after NFC normalisation (NFC vs NFD: they print alike)
    zeros: list  #: equal once leading zeros are removed, after NFKC (``'001'``, ``'００１'`` and ``'1'`` or ``1``)
    compat: list  #: equal after NFKC only: full-width or other compatibility characters (``'７'`` and ``'7'``)
    decimals: list  #: a whole number written as a decimal, after NFKC (``'7.0'``, ``'７.０'`` and ``'7'`` or ``7``)


def id_pairs(missing, extra) -> IdPairs:
    """The pairs ``(missing id, extra id)`` that are the same id written differently, in ``missing``'s order, of
    four kinds (`IdPairs`): equal after NFC normalisation; equal after NFKC normalisation but not NFC (``'７'``,
    full-width, and ``'7'`` or ``7``); equal once the leading zeros of the one written with more are removed
    (``'001'`` and ``'1'`` or ``1``); equal but for a decimal ``.0`` (``'7.0'`` and ``7``). The causes compose:
    leading zeros and decimals are looked for after NFKC, so ``'００７'`` (full-width, zero-padded) pairs with
    ``'7'`` as leading zeros, `plain_written` telling that NFKC was needed too. Each pair is of one kind, and each
    missing id is paired in its closest kind only (`CLOSENESS`: with the extra ids ``'007'`` and ``'7'``, the
    missing ``'７'`` pairs with ``'7'``, full-width, not with ``'007'``), with its closest extra id of that kind
    (one that needs no NFKC first). Each door words them for its inputs (`id_hints` for two files; ``zheval
    explain --id`` for a typed id)."""
    missing, extra = list(missing), list(extra)
    kinds = {"nfc": _matched(missing, extra, lambda x: unicodedata.normalize("NFC", x) if isinstance(x, str) else None),
             "zeros": _matched(missing, extra, lambda x: _no_leading_zeros(_plain(x)),
                               lambda m, e: _no_leading_zeros(_plain(m))[:1].isdigit() and _plain(m) != _plain(e)),
             "compat": _matched(missing, extra, _plain, lambda m, e: unicodedata.normalize("NFC", str(m))
                                != unicodedata.normalize("NFC", str(e))),
             "decimals": _matched(missing, extra, lambda x: _whole_number(_plain(x)), lambda m, e: _whole_number(
                 _plain(m))[:1].isdigit() and _no_leading_zeros(_plain(m)) != _no_leading_zeros(_plain(e)))}
    paired: set = set()
    for kind in CLOSENESS:
        kinds[kind] = [(m, e) for m, e in kinds[kind] if _key(m) not in paired]
        paired.update(_key(m) for m, _ in kinds[kind])
    return IdPairs(**kinds)


CLOSENESS = ("nfc", "compat", "zeros", "decimals")
"""The kinds of `IdPairs`, closest first: printed alike (NFC), then only full-width or other compatibility
characters (NFKC), then leading zeros, then a decimal ``.0`` (a number's writing changed). A missing id that pairs
in several kinds is kept in the closest; `id_hints` says them in this order."""


def _key(value) -> tuple:
    """A missing id as `id_pairs` tells them apart: ``7`` and ``'7'`` are two."""
    return (type(value).__name__, str(value))


def id_hints(missing, extra, missing_in: str = "the dataset", extra_in: str = "the predictions") -> list[str]:
    """Why two sets of unmatched ids may be the same ids written differently: ``missing`` (ids of ``missing_in``
    that the other side lacks) and ``extra`` (ids of ``extra_in`` that ``missing_in`` lacks), in any order, of any
    type (str or int). One line (no indent) per cause found (`id_pairs`: each missing id in its closest kind),
    closest first (`CLOSENESS`), each naming how many and the first pair:

    - a missing and an extra id equal once invisible characters are removed (`invisible_pairs`: ``'x\\u200by'`` and
      ``'xy'``; shown with `visible_id`);
    - a missing and an extra id equal after NFC normalisation (they print alike; shown with `visible_id`);
    - a missing and an extra id equal after NFKC normalisation only (``'７'``, full-width, and ``'7'``);
    - a missing and an extra id equal once the leading zeros of the one written with more are removed
      (``'001'`` and ``'1'`` or ``1``: a spreadsheet read the ids as numbers);
    - a missing and an extra id equal but for a decimal ``.0`` (``'7.0'`` and ``'7'`` or ``7``).

    The causes compose: leading zeros and a decimal ``.0`` are looked for after NFKC, and their line then names the
    full-width characters too (``'００７'`` and ``'7'``: "but for leading zeros and full-width or other
    compatibility characters (NFKC)").

    Worded for two files (``missing_in`` and ``extra_in``): every door that reports unmatched ids between files (join
    of predictions, ``zheval compare`` of records files, ``zheval agree``'s sheet, ``--scores`` and
    ``--judge-ratings``) adds these lines (``zheval explain --id`` words the pairs for a typed id). Returns ``[]``
    when no pair is found."""
    out = []
    hidden = invisible_pairs(missing, extra)
    if hidden:
        m, e = hidden[0]
        out.append(f"{len(hidden)} id(s) of {missing_in} equal an id of {extra_in} once invisible characters "
                   f"(zero-width space U+200B, U+FEFF, joiners, variation selectors …) are removed, e.g. "
                   f"{visible_id(m)} in {missing_in} and {visible_id(e)} in {extra_in}: remove them from the ids "
                   "(ids are matched exactly; re.sub('[\\u200b-\\u200d\\u2060\\ufeff]', '', id) removes the usual ones)")
    pairs, zeros, compat, decimals = id_pairs(missing, extra)
    if pairs:
        m, e = pairs[0]
        out.append(f"{len(pairs)} id(s) of {missing_in} differ from an id of {extra_in} only in Unicode "
                   f"normalisation (NFC vs NFD; they print alike), e.g. {visible_id(m)} in {missing_in} and "
                   f"{visible_id(e)} in {extra_in}: write the ids of both files in the same normal form (NFC: "
                   "unicodedata.normalize('NFC', id))")
    if compat:
        m, e = compat[0]
        out.append(f"{len(compat)} id(s) of {missing_in} equal an id of {extra_in} once full-width or other "
                   f"compatibility characters are written plainly (NFKC), e.g. {visible_id(m)} in {missing_in} and "
                   f"{visible_id(e)} in {extra_in}: write the ids of both files with the same characters (NFKC: "
                   "unicodedata.normalize('NFKC', id))")
    if zeros:
        m, e = zeros[0]
        out.append(f"{len(zeros)} id(s) of {missing_in} equal an id of {extra_in} but for leading "
                   f"zeros{_too(zeros)}, e.g. {m!r} in {missing_in} and {e!r} in {extra_in}: ids look like numbers whose leading zeros were "
                   "removed (a spreadsheet?); write the ids as text in both files (in a spreadsheet: format the id "
                   "column as Text before opening or pasting)")
    if decimals:
        m, e = decimals[0]
        out.append(f"{len(decimals)} id(s) of {missing_in} equal an id of {extra_in} but for a decimal "
                   f"'.0'{_too(decimals)}, e.g. {m!r} in {missing_in} and {e!r} in {extra_in}: ids look like whole numbers written as decimals "
                   "(read as floats by a spreadsheet or pandas?); write the ids as text in both files")
    return out


def _too(pairs: list) -> str:
    """The NFKC part of the leading-zeros or decimal line of `id_hints` when its pairs needed NFKC too
    (`plain_written`): of all of them when all did, else of some when any did; ``""`` when none did."""
    needed = [plain_written(m, e) for m, e in pairs]
    if all(needed):
        return " and full-width or other compatibility characters (NFKC)"
    if any(needed):
        return " (some also in full-width or other compatibility characters: NFKC)"
    return ""


def id_mismatch_lines(missing: list, extra: list) -> list[str]:
    """The lines after the counts: the first missing ids (in the dataset, not in the predictions), the first extra
    ids (in the predictions, not in the dataset), and the lines of `id_hints` (ids written differently: Unicode
    normalisation, leading zeros, full-width characters, a decimal ``.0``, or several of these), indented."""
    out = []
    if missing:
        out.append(f"  first missing ids: {_first(missing)}")
    if extra:
        out.append(f"  first extra ids: {_first(extra)}")
    out += [f"  {h}" for h in id_hints(missing, extra)]
    return out


def blank_last_line_note(predictions, ids: list) -> str | None:
    """The note of a text predictions file (``kind == "text"``) paired by line order whose last line is empty and
    so scored as the last item's prediction (the line count happened to equal the items': a line break too many
    at the end, and one prediction missing?); ``None`` otherwise."""
    texts = predictions.texts
    if predictions.kind != "text" or not texts or texts[-1] != "" or len(texts) != len(ids):
        return None
    return (f"the last line of {predictions.source} is empty: scored as an empty prediction for {ids[-1]} "
            "(a line break too many at the end?)")


def count_mismatch_message(src, n_predictions: int, n_items: int, texts: list, lines: list | None,
                           fields: bool = False) -> str:
    """Predictions without ids matched in dataset order, but their number is not the items': the counts, the
    last prediction's line, and when every extra prediction is blank, the lines that are (a line break too many at
    the end of a text file?). ``fields``: read from a file with fields (JSONL, CSV …), which has no ``id`` field
    (another may be an id or a row number: they are never said to have "no ids")."""
    which = "have no 'id' field" if fields and lines else "have no ids"
    msg = (f"predictions ({src}) {which}, so they are matched in dataset order, but there are {n_predictions} "
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


GROUP_FORMS_NOTE = "group values written differently"
"""The start of `group_form_notes`' notes (printed on stderr too, whatever the format)."""


def _forms(values: list) -> str:
    """Why the values of one cluster of `group_form_notes` differ: NFC vs NFD, NFKC, invisible characters."""
    nfc = {unicodedata.normalize("NFC", v) for v in values}
    nfkc = {unicodedata.normalize("NFKC", v) for v in values}
    why = []
    if len(nfc) < len(values):
        why.append("Unicode normalisation, NFC vs NFD: they print alike")
    if len(nfkc) < len(nfc):
        why.append("full-width or other compatibility characters: NFKC")
    if len({invisible_key(v) for v in values}) < len(nfkc):
        why.append("invisible characters")
    return "; ".join(why)


def group_form_notes(groups) -> list[str]:
    """The notes on group values that are one value written differently: equal once NFKC-normalised (NFC vs NFD,
    which print alike; full-width ``ｃａｆｅ`` and ``cafe``) or once invisible characters are removed
    (`invisible_key`) -- kept as separate groups (never merged silently), named with `visible_id` (break-it 18 B:
    ``caf\\u00e9`` and ``cafe\\u0301`` were two rows ``g=café`` with no word). ``groups``: objects with
    ``dimension`` and ``value`` (the report's `GroupScore` rows; ``overall`` skipped); one note per dimension, each
    starting with `GROUP_FORMS_NOTE`; ``[]`` when there is none."""
    by_dim: dict = {}
    for g in groups:
        if g.dimension != "overall" and isinstance(g.value, str):
            key = unicodedata.normalize("NFKC", invisible_key(g.value))
            by_dim.setdefault(g.dimension, {}).setdefault(key, []).append(g.value)
    out = []
    for dim, clusters in by_dim.items():
        same = [vs for vs in clusters.values() if len(vs) > 1]
        if same:
            shown = "; ".join(f"{', '.join(visible_id(v) for v in vs)} ({_forms(vs)})" for vs in same[:5])
            more = f"; … ({len(same) - 5} more)" if len(same) > 5 else ""
            out.append(f"{GROUP_FORMS_NOTE} in {dim!r}: {shown}{more}: each set is one value written differently, "
                       f"scored as separate groups (not merged); write the values in one form to score them as one "
                       f"group (unicodedata.normalize('NFKC', value), invisible characters removed)")
    return out


def count_group_form(forms: dict, field: str, raw, value, line) -> None:
    """Count in ``forms`` (``{(field, value, "integer" or "string"): [rows, first line]}``) the row at ``line``
    whose group ``field`` holds ``raw``, read as the group ``value`` (an integer is the string of its digits,
    ``1`` ≡ ``"1"``, as an id is: `zheval.adapters.records`); ``None`` (no value) is not counted."""
    if value is None:
        return
    kind = "integer" if isinstance(raw, int) and not isinstance(raw, bool) else "string"
    forms.setdefault((field, value, kind), [0, line])[0] += 1


def group_type_notes(forms: dict, source: str) -> list[str]:
    """The notes (one per group field, each starting with `GROUP_FORMS_NOTE`) on group values written as an integer
    on some rows and as the string of its digits on others (JSONL ``1`` and ``"1"``), which are one group (the
    rows pooled): the counts of each form and the first ``file:line`` of each (``forms``: `count_group_form`'s);
    ``[]`` when there is none."""
    out, both = [], {}
    for (field, value, kind), (n, line) in forms.items():
        if kind == "integer" and (field, value, "string") in forms:
            m, line_s = forms[(field, value, "string")]
            both.setdefault(field, []).append(f"{value} on {n} row(s) (first {source}:{line}) and {value!r} on {m} "
                                              f"row(s) (first {source}:{line_s})")
    for field, shown in both.items():
        more = f"; … ({len(shown) - 5} more)" if len(shown) > 5 else ""
        out.append(f"{GROUP_FORMS_NOTE} in {field!r}: {'; '.join(shown[:5])}{more}: an integer and the string of its "
                   "digits are one group value (as for ids, 1 ≡ '1'), so each pair is scored as one group; write the "
                   "values in one form (all integers, or all strings) if that is not meant")
    return out
