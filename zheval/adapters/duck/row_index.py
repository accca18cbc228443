"""A field of a predictions file without ids that numbers its lines — a row index, exact (each of ``0``..``N-1`` or
``1``..``N`` once) or loose (a line without it, a repeat, a gap, an offset, ``"q3"``) — in another order than the
lines': refused, or said in a warning, before the predictions are paired with the items by line order (called by
`zheval.adapters.duck.id_like.row_index_check`, after the fields holding the data's ids are set aside).

Break-it: a shuffled file whose ``idx`` numbered the lines with one flaw was paired by line order with only a note
(BLEU 0.049 instead of 0.939); then a ROTATED file (its last line moved first: shards concatenated in the wrong
order) with ``idx`` from 1000 or one ``null`` passed the rule of a longest in-order run (1 line of 8 out of it),
BLEU 0.010 instead of 0.311; index fields named ``Unnamed: 0``, ``num``, ``item``, ``題號`` or holding ``"q3"`` were
not read; and ``score`` 3, 1, 2 or ``rank`` 1..8 on a small file were refused as a row index. Then (BLEU 0.0052
instead of 0.3107, paired silently): ``"3.0"`` (pandas' float column), prefixes holding a digit or in two cases
(``"gsm8k_3"``, ``"c3-q3"``, ``"Q3"``/``"q3"``), one ``"nan"`` among ``"q3"`` values were not read; ``idx_in_batch``
(``i % 64``), ``index_in_shard``, ``idx_on_gpu``, ``sent_num``, ``speaker_id`` in order were refused; a repeat or a
gap in line order was noted without the field.

The rule (all of it, for a file of N lines, N at least `MIN_ROW_INDEX_LINES`):

- The field's name (`name_kind`) reads as an index (``idx``, ``row``, ``sample_id``, ``num``, ``#``, ``Unnamed: 0``,
  ``序号`` … : `index_named`), as a value that is never a row index (``rank``, ``score``, ``rating``, ``tokens``,
  ``length``, ``turn``, ``label``, ``count``, a time … : never read by this rule, whatever its values), or neither
  (``n``, ``k``, ``value`` …: ``n`` and ``k`` more often count something than number the lines). A never word
  wins over every other (``idx_in_batch``, ``index_in_shard``, ``idx_on_gpu``: a position within a batch); an id
  or number of something else than the item (``speaker_id``, ``doc_id``, ``task_id``, ``sent_num``) is neither.
- Its numbers (`field_numbers`): the whole number of each line's value (`row_number`: ``3``, ``3.0``, ``"3"``,
  ``"３"``, ``"3.0"``, ``"3.00"``: the rule of `zheval.adapters.duck.mismatch.whole_id`), or the LAST run of digits
  of a string between the prefix and suffix (casefolded) that most of the field's other strings share (``"q3"``,
  ``"Q3"``, ``"item-3"``, ``"sample_0003"``, ``"第3题"``, ``"gsm8k_3"``, ``"c3-q3"``, ``"v2-3"``); any other string
  (``"nan"``, ``"N/A"``, ``"-"``) is a line without a number, as ``null`` is.
- It numbers the lines when at least `ROW_INDEX_SHARE` of them (and `MIN_ROW_INDEX_LINES`) hold distinct numbers
  within one run of N consecutive numbers: mostly repeated values (a 0/1 label) or values spread wide are no
  numbering.
- Its numbers are in the lines' order (`out_of_place`) when they never decrease down the file (a line without one,
  a repeat, gaps, an offset: sorting the lines by them changes nothing), or when all numbered lines but one hold
  ``s + i`` on line ``i`` (one mistyped number), ``s`` being the numbering's start: ``0``, ``1``, the least number,
  or the next least (the mistyped one may be the least), one below which no line's number lies within N (else a
  rotation the other way, first line moved last, would pass as a typo); a start no line holds only when the
  mistyped number is an item's (else ``8, 1 … 7`` would pass as ``0``..``7``). Otherwise each line out of place
  is paired with another item: a rotation has no line in place, adjacent swaps two per swap.
- Out of order, a field named as an index is refused; so is, under any other name (not a never-index one), an
  exact numbering ``0``..``N-1`` / ``1``..``N`` of at least `MIN_UNNAMED_LINES` lines. Below that, or loose, such
  a field is said in a warning (`row_index_warning`): if it numbers the items, the pairing by line order is wrong.
- In order but loose (a repeat, a gap: `loose_in_order`), a field named as an index is named in the note of the
  pairing with the first numbered line not on ``s + i`` (the lines after a gap are paired with other items than
  their numbers give).

Not told apart: a rotation whose moved line lost its number (``null``, 0, 1 … 6) looks in order, and is paired as
noted; one mistyped number on the FIRST line above an offset start (1005, 1001, 1002 … 1007, as a rotation of a
numbering from 1000 writes 1007, 1000 … 1006), one just below the start (99 among 100 …), or a first line's
number of no item where no line holds the start (60, 1, 2 … 7, as 1..8 rotated writes 8, 1 … 7), is refused.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from typing import Optional

from ...io import predictions_arguments
from .mismatch import whole_id

__all__ = ["MIN_ROW_INDEX_LINES", "MIN_UNNAMED_LINES", "ROW_INDEX_SHARE", "field_numbers", "index_named", "loose_in_order", "name_kind",
           "numbering_message", "out_of_place", "row_index_warning", "row_number"]

MIN_ROW_INDEX_LINES = 3
"""The least number of lines whose field numbering them in another order is refused or warned of: in two lines,
``1`` and ``0`` (a yes/no field) say nothing of the order."""

MIN_UNNAMED_LINES = 8
"""The least number of lines whose field with a name that is not an index's (nor a never-index one) numbering them
exactly (each of ``0``..``N-1`` or ``1``..``N`` once) in another order is refused; below it, warned of: three
values ``2``, ``0``, ``1`` of a field ``value`` may be anything, a permutation of 8 hardly."""

ROW_INDEX_SHARE = 0.8
"""The share of a file's N lines that must hold distinct numbers within one run of N consecutive numbers for a
field to be read as numbering them loosely: four lines in five — of six lines, one without a number, or with a
repeated one, or beyond N, is a numbering still."""

_INDEX_WORDS = frozenset({"idx", "idxs", "index", "indices", "id", "ids", "row", "line", "lineno", "rowid", "no",
                          "nr", "num", "number", "i", "seq", "pos", "position", "order", "key", "item", "sample",
                          "example", "record", "entry", "instance", "case", "question", "problem", "q"})
_INDEX_ENDS = ("id", "idx", "index")
_INDEX_SIGNS = frozenset({"#", "№", "no.", "nº"})
_INDEX_HAN = ("序号", "编号", "行号", "索引", "题号", "序號", "編號", "行號", "題號")
_NEVER_WORDS = frozenset({"rank", "ranking", "score", "scores", "rating", "ratings", "stars", "vote", "votes",
                          "token", "tokens", "length", "len", "turn", "turns", "round", "rounds", "label", "labels",
                          "count", "counts", "cnt", "time", "timestamp", "ts", "date", "year", "month", "day", "epoch",
                          "step", "steps", "seconds", "sec", "ms", "latency", "duration", "size", "char", "chars",
                          "word", "words", "loss", "seed", "age", "price", "cost", "temperature", "gpu", "device",
                          "worker", "shard", "node", "thread", "batch", "pid", "port", "gpus", "devices", "workers",
                          "shards", "nodes", "threads", "batches", "proc", "process", "host", "replica", "partition",
                          "chunk", "chunks", "cuda", "tp", "dp", "pp"})
_OTHER_THINGS = frozenset({"speaker", "user", "role", "model", "session", "conversation", "conv", "dialog", "dialogue",
                           "doc", "document", "passage", "context", "paragraph", "para", "category", "cat", "class",
                           "task", "source", "lang", "language", "sent", "sentence", "utterance", "utt", "author",
                           "annotator", "rater", "topic", "group", "cluster", "domain", "type", "kind", "article",
                           "page", "chapter", "section", "system", "run", "version", "persona", "agent", "file",
                           "image", "img", "video", "audio", "template", "subject"})
_ITEM_NOUNS = frozenset({"item", "sample", "example", "ex", "question", "q", "row", "line", "record", "entry",
                         "instance", "case", "problem", "data", "datum", "test", "query", "input", "seq", "serial",
                         "idx", "index", "id", "original", "orig", "global", "src", "dataset", "prompt",
                         "instruction", "pred", "prediction", "output", "response", "generation", "gen", "eval"})
_COUNT_ENDS = frozenset({"num", "number", "nums", "no", "nr"})
_NEVER_HAN = ("分数", "得分", "评分", "排名", "长度", "字数", "轮次", "标签", "時間", "时间", "分數", "評分", "長度")
_AFFIXED = re.compile(r"(|.*\D)0*(\d+)(\D*)", re.S)


def name_kind(field) -> str:
    """How the field name ``field`` reads: ``"index"``, ``"never"`` (a value never numbering the lines) or
    ``"other"``. Its words: split at characters other than ASCII letters and digits and where lower case turns
    upper (``sample_id``, ``sampleId``, ``line-no``), casefolded. Never first: any never word below, whatever the
    other words (``idx_in_batch``, ``index_in_shard``, ``idx_on_gpu``). An index: a name holding ``序号``, ``编号``,
    ``行号``, ``索引``, ``题号`` (or their Traditional forms ``序號``, ``編號``, ``行號``, ``題號``); ``#``, ``№``,
    ``No.``; a first word ``idx`` or ``index`` (``idx_in_data``, pyarrow's ``__index_level_0__``); pandas' written
    back index ``Unnamed: 0`` (``Unnamed: N``). Never: any word ``rank``, ``score``, ``rating``, ``token(s)``,
    ``length``/``len``, ``turn``, ``round``, ``label``, ``count``/``cnt``, a time (``time``, ``timestamp``, ``date``,
    ``year``, ``epoch``, ``step``, ``latency`` …), ``size``, ``char(s)``, ``word(s)``, ``loss``, ``seed``, ``age``,
    ``price``, where it ran (``gpu``, ``device``, ``worker``, ``shard``, ``batch``, ``pid``) … or ``分数``, ``得分``, ``评分``, ``排名``, ``长度``, ``字数``, ``轮次``, ``标签``, ``时间``
    (``num_tokens``, ``token_num``, ``turn_id``, ``batch_idx`` are never an index). Then an index: a last word ``idx``, ``index``,
    ``id``, ``ids``, ``row``, ``line``, ``no``, ``nr``, ``num``, ``number``, ``i``, ``seq``, ``pos``, ``order``,
    ``key``, ``item``, ``sample``, ``example``, ``record``, ``entry``, ``question``, ``q`` …, or one ending in
    ``id``, ``idx`` or ``index`` (``qid``, ``uid``, ``rowidx``, ``example_num``) — but an index word after a word
    naming something else than the item (``speaker_id``, ``user_id``, ``doc_id``, ``task_id``, ``session_id``), or
    ``num``/``number``/``no``/``nr`` after a word that is not the item's (``sent_num``: a count) is ``"other"``.
    Any other name is ``"other"``:
    ``n`` and ``k`` among them (a count, a top-k, as often as an index)."""
    name = str(field)
    words = [w.casefold() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)]
    if any(w in _NEVER_WORDS for w in words) or any(han in name for han in _NEVER_HAN):
        return "never"
    if any(han in name for han in _INDEX_HAN) or name.strip().casefold() in _INDEX_SIGNS:
        return "index"
    if words and (words[0] in ("idx", "index") or (len(words) == 2 and words[0] == "unnamed" and words[1].isdigit())):
        return "index"
    if len(words) >= 2 and words[-1] in _INDEX_WORDS | set(_INDEX_ENDS) and (
            words[-2] in _OTHER_THINGS or (words[-1] in _COUNT_ENDS and words[-2] not in _ITEM_NOUNS)):
        return "other"  # speaker_id, doc_id, sent_num: an id or a count of something else than the item
    if words and (words[-1] in _INDEX_WORDS or words[-1].endswith(_INDEX_ENDS)):
        return "index"
    return "other"


def index_named(field) -> bool:
    """Whether the field name ``field`` reads as an index (`name_kind` ``"index"``)."""
    return name_kind(field) == "index"


def row_number(value) -> Optional[int]:
    """The whole number ``value`` writes (an integer, ``2.0``, a string of digits, full-width or with spaces
    around them: NFKC, or a whole number written as a decimal, ``"3.0"``, ``"3."``, ``"003.00"``: what pandas
    writes for a float column, by the rule of `zheval.adapters.duck.mismatch.whole_id` that the id hints and
    `zheval.adapters.duck.id_like` share), else ``None`` (``None``, ``""``, a bool, ``2.5``, ``"3.5"``, ``"-1"``,
    ``"3e0"``: no index is written so, text)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = whole_id(value.strip()).strip()
        return int(text) if text.isascii() and text.isdigit() else None
    return None


def field_numbers(rows: list, field) -> tuple:
    """``(numbers, affix)`` of ``field`` on ``rows`` (one dict per line): each line's whole number (`row_number`)
    or ``None``; of the field's other strings (NFKC, stripped), those whose LAST run of ASCII digits stands between
    the prefix and suffix (compared casefolded) that most of them share — ``"q3"``/``"Q3"``, ``"item-3"``,
    ``"sample_0003"``, ``"gsm8k_3"``, ``"c3-q3"``, ``"v2-3"`` —, those digits' number, and ``affix`` ``(prefix,
    suffix)`` as the first of them writes it (``None`` when no string is read so). A string with no digits or
    another prefix (``"nan"``, ``"N/A"``, ``"-"``) is a line without a number, as ``null`` is: whether the field
    still numbers the lines is `numbers_lines`' (`ROW_INDEX_SHARE`)."""
    numbers = [row_number(row.get(field)) for row in rows]
    texts = {i: unicodedata.normalize("NFKC", row[field]).strip() for i, row in enumerate(rows)
             if numbers[i] is None and isinstance(row.get(field), str) and row[field].strip()}
    parts = {i: m for i, m in ((i, _AFFIXED.fullmatch(t)) for i, t in texts.items())
             if m is not None and m.group(2).isascii()}
    if not parts:
        return numbers, None
    keys = Counter((m.group(1).casefold(), m.group(3).casefold()) for m in parts.values())
    key = keys.most_common(1)[0][0]
    chosen = [(i, m) for i, m in parts.items() if (m.group(1).casefold(), m.group(3).casefold()) == key]
    for i, m in chosen:
        numbers[i] = int(m.group(2))
    return numbers, (chosen[0][1].group(1), chosen[0][1].group(3))


def loose_in_order(numbers: list) -> Optional[tuple]:
    """For ``numbers`` (one per line, ``None`` for a line without one) that number the lines (`numbers_lines`) in
    their order (`out_of_place` ``None``) but not each line ``i`` as ``s + i``: ``(s, [line index whose number is
    not s + i])``, ``s`` the start with the fewest such lines (the first in this order: the first numbered line's
    number less its index, ``0``, ``1``, the least number; none above the least number) — a repeat or a gap pairs
    the lines after it with another item than their number gives (``0, 1, 2, 4 … 8``: from 0, line 3 on).
    ``None`` when every numbered line holds ``s + i`` for one start."""
    numbered = [(i, v) for i, v in enumerate(numbers) if v is not None]
    if not numbered:
        return None
    least, best = min(v for _, v in numbered), None
    for s in (s for s in dict.fromkeys([numbered[0][1] - numbered[0][0], 0, 1, least]) if s <= least):
        wrong = [i for i, v in numbered if v != s + i]
        if best is None or len(wrong) < len(best[1]):
            best = (s, wrong)
    return best if best[1] else None


def exact_start(numbers: list) -> Optional[int]:
    """``0`` or ``1`` when ``numbers`` (one per line) are each of ``0``..``N-1``, or of ``1``..``N``, once (in any
    order), else ``None``."""
    if not numbers or None in numbers or len(set(numbers)) != len(numbers):
        return None
    return min(numbers) if min(numbers) in (0, 1) and max(numbers) == min(numbers) + len(numbers) - 1 else None


def _densest(values: list, width: int) -> int:
    """The most of the sorted distinct ``values`` within one run of ``width`` consecutive numbers."""
    best, lo = 0, 0
    for hi, v in enumerate(values):
        while v - values[lo] >= width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def numbers_lines(numbers: list) -> bool:
    """Whether ``numbers`` (one per line, ``None`` for a line without one) number the lines, exactly or loosely:
    at least `ROW_INDEX_SHARE` of the N lines, and `MIN_ROW_INDEX_LINES`, hold distinct numbers within one run of N
    consecutive numbers."""
    distinct = sorted({v for v in numbers if v is not None})
    return _densest(distinct, len(numbers)) >= max(MIN_ROW_INDEX_LINES, math.ceil(ROW_INDEX_SHARE * len(numbers)))


def out_of_place(numbers: list) -> Optional[tuple]:
    """``(s, [line index out of place])`` when ``numbers`` (one per line, ``None`` for a line without one) are out
    of the lines' order: they decrease somewhere down the file, and for every start ``s`` at least two numbered
    lines ``i`` hold another number than ``s + i``. The starts: ``0``, ``1``, the least number, the next least —
    each only when no line's number lies within N below it (a mistyped ``57`` among ``100``..``105`` leaves the
    start 100; the ``1000`` of a file whose first line, numbered from 1000, was moved last does not leave 1001),
    and a start no line holds (0 or 1, below the least) only when the one line out of place holds the number of
    an item (``8, 1, 2, None, 4 … 7`` of 8 lines is ``1``..``8`` rotated, not ``0``..``7`` with a mistyped first
    line; ``5, 1, 2, 3, 4, 5`` of 6 lines is the latter).
    ``s`` is the start with the fewest lines out of place (the first of them in that order: the least, 0, 1, the
    next least). ``None`` when they are in order: never decreasing (gaps, an offset, repeats, lines without one),
    or all numbered lines but one on ``s + i`` (one mistyped number)."""
    numbered = [(i, v) for i, v in enumerate(numbers) if v is not None]
    if all(a[1] <= b[1] for a, b in zip(numbered, numbered[1:])):
        return None
    distinct, n = sorted({v for _, v in numbered}), len(numbers)
    best = None
    for s in dict.fromkeys([distinct[0], 0, 1] + distinct[1:2]):
        if any(s - n <= v < s for v in distinct):
            continue
        wrong = [i for i, v in numbered if v != s + i]
        if s < distinct[0] and len(wrong) == 1 and not s <= numbers[wrong[0]] < s + n:
            continue  # 8, 1, 2 … 7 of 8 lines: not 0..7 with its first line mistyped, but 1..8 rotated
        if best is None or len(wrong) < len(best[1]):
            best = (s, wrong)
    return None if len(best[1]) <= 1 else best


def _has(row: dict, field) -> str:
    """How a line's value of ``field`` is written: ``has 'idx' 3``, ``has 'idx' None``, ``has no 'idx'``."""
    return f"has {field!r} {row[field]!r}" if field in row else f"has no {field!r}"


def numbering_message(predictions, ids: list, rows: list, field, numbers: list, affix, place: tuple,
                      warn: bool = False) -> str:
    """The refusal (or, ``warn``, the warning; the library's words: the command line writes ``--id-field NAME``)
    of ``field`` of ``predictions``' file (``rows``: one per line; ``ids``: the items they are paired with by line
    order) numbering the lines out of their order: ``numbers`` and ``affix`` its `field_numbers`, ``place`` its
    `out_of_place`. It names the file, the field, its numbers, the first line out of place (FILE:LINE, the value
    as the file writes it, the item that number gives from the start ``s`` and the item its place pairs it with),
    the lines without a number and those repeating one, and the ways out: sort the lines by it, write the items'
    ids, or remove it."""
    src, lines, named = predictions.source, predictions.lines, predictions_arguments('id_field="NAME"')
    n, (s, wrong) = len(rows), place
    numbered = [i for i, v in enumerate(numbers) if v is not None]
    distinct = sorted({numbers[i] for i in numbered})
    first = wrong[0]
    whose = (f"item {numbers[first] - s}'s number" if 0 <= numbers[first] - s < n
             else "the number of no item")
    written = f" (written {affix[0]!r} + digits + {affix[1]!r})" if affix else ""
    exact = exact_start(numbers) is not None
    what = (f"numbers their {n} lines from {s} to {s + n - 1}{written}" if exact else
            f"holds {len(distinct)} distinct whole numbers from {distinct[0]} to {distinct[-1]}{written} on "
            f"{len(numbered)} of their {n} lines")
    body = (f"{what}; numbering the items from {s}, {len(wrong)} of them are not on the line their number gives "
            f"({src}:{lines[first]} {_has(rows[first], field)}, {whose}, but by its place is paired with item "
            f"{first} of the data, {ids[first]!r})")
    bare = [i for i, v in enumerate(numbers) if v is None]
    if bare:
        body += (f"; {len(bare)} line(s) hold no number in it (first: {src}:{lines[bare[0]]} "
                 f"{_has(rows[bare[0]], field)})")
    seen: dict = {}
    for i in numbered:
        seen.setdefault(numbers[i], i)
    repeats = [(i, seen[numbers[i]]) for i in numbered if seen[numbers[i]] != i]
    if repeats:
        i, j = repeats[0]
        body += (f"; {len(repeats)} line(s) repeat an earlier line's number (first: {src}:{lines[i]} "
                 f"{_has(rows[i], field)}, as {src}:{lines[j]} does)")
    fix = ", after giving each line its own number" if bare or repeats else ""
    by = "its number" if affix else "it"
    ways = (f"sort the file's lines by {by}{fix}; or write the items' ids in an 'id' field (or in another field, "
            f"joined by it with {named})")
    if warn:
        return (f"the predictions ({src}) have no 'id' field and were paired with the items by line order, but "
                f"their field {field!r} looks like a numbering of the lines in another order than theirs: it {body}. "
                f"If {field!r} numbers the data's items, this pairing is wrong: {ways}; if it does not, remove it "
                "from the file to drop this warning")
    return (f"predictions ({src}) have no 'id' field, but their field {field!r} numbers their lines in another order "
            f"than the lines': it {body}: the file looks keyed by a row index of the data in another order, and "
            f"paired by line order each prediction would be scored against another item's references. If "
            f"{field!r} numbers the data's items from {s}, {ways}; if {field!r} does not number the items, remove "
            "it from the file")


def row_index_warning(predictions, which: str = "") -> Optional[str]:
    """The warning of predictions paired by line order whose field, not named as an index, looks like a numbering
    of their lines in another order (``predictions.row_index_doubt``, set by
    `zheval.adapters.duck.id_like.row_index_check`), prefixed with ``which``; else ``None``."""
    doubt = getattr(predictions, "row_index_doubt", None)
    return f"{which}{doubt}" if doubt and getattr(predictions, "paired_by_order", False) else None
