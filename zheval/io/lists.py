"""The one comma-list rule of the library doors: ``"bleu,rouge"`` as ``["bleu", "rouge"]``.

A door that takes a list also takes it as one comma-separated string, as the command line writes it
(``metrics="bleu,rouge"``, ``by="domain,difficulty"``, ``rouge_types="rouge1,rougeL"``, ``buckets="10,20,50"``).
Entries are stripped of spaces. An empty string (or only spaces) names no entry and is refused, as an empty entry
is (break-it pass 5 F7: ``by=""`` meant the overall row only, without a word; pass ``[]`` for no entry). An
**empty entry**
(``"bleu,,rouge"``, ``"rouge1,"``, ``",10"``) is refused, naming the option and the entry's 1-based position: it is a
typo (a value left out), and dropping it without a word would score something other than what was asked for.
The command line's ``split_list`` (`zheval.cli.options`) refuses the same entries with the same message.
"""

from __future__ import annotations

__all__ = ["empty_entry_message", "split_entries"]


def empty_entry_message(value: str, option: str, positions: list) -> str:
    """The message for the comma list ``value`` of ``option`` whose entries at 1-based ``positions`` are empty:
    ``"metrics 'bleu,,rouge' has an empty entry (entry 2)"``, ``"... (entries 2, 4)"``."""
    many = len(positions) > 1
    return f"{option} {value!r} has an empty entry (entr{'ies' if many else 'y'} {', '.join(map(str, positions))})"


def split_entries(value: str, option: str) -> list:
    """The stripped entries of the comma list ``value`` (a ``str``), in order, duplicates kept (the door decides).

    Args:
        value: ``"a,b,c"``.
        option: the option's name for the message (``"metrics"``, ``"--buckets"``).

    Returns:
        ``list[str]``, at least one entry, every entry non-empty.

    Raises:
        ValueError: ``""`` or only spaces (no entry: a list of none is ``[]``, not a string), naming ``option``;
            an empty entry, naming ``option`` and its position (`empty_entry_message`).
    """
    if not value.strip():
        raise ValueError(f"{option} {value!r} names no entry; give a comma list (for none: an empty list, or "
                         "'none' on the command line)")
    items = [v.strip() for v in value.split(",")]
    empty = [j for j, v in enumerate(items, 1) if not v]
    if empty:
        raise ValueError(empty_entry_message(value, option, empty))
    return items
