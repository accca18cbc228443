"""Predictions that are copies of their references: the one check of every door that warns about them.

Scored against themselves, predictions usually score at or near the top, though not always (two one-character lines
have no BLEU bigram: 0, as sacrebleu; a copy up to whitespace under ``-t none`` or with a U+200B under
``--preset sacrebleu-zh`` is no exact copy to the tokenizer), so the warning says only that they are copies. Scoring
them is a legitimate sanity check, so no door
refuses it, but every door says it (a predictions file that holds the references by mistake is a mix-up worth a
word): the text-file commands (``zheval bleu`` / ``rouge`` / ``chrf`` / ``bertscore``: a hypothesis file that holds a
reference file's lines, `zheval.cli.textfiles.read_text_files`) and the records and 小黄鸭 doors (``zheval score``,
``score --data``, ``score --stream``, ``compare``, ``sample``: every prediction equal to one of its item's references,
a warning of the report's diagnostics, `zheval.results.diagnostics.DiagnosticCounts`).

**A copy** is a text equal to the reference after the whitespace handling of scoring (`copy_key`: the ``zw`` and
``space`` steps of the default normalisation -- invisible characters removed, runs of whitespace collapsed, leading
and trailing whitespace stripped, a space next to a CJK character removed), so a copy that differs only by trailing
spaces or a zero-width space is a copy too.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..text.normalize import normalize_space, remove_invisible

__all__ = ["copy_key", "copy_kind", "combine_copy_kinds", "copies_warning"]


def copy_key(text: str) -> str:
    """``text`` as copies are compared: invisible characters removed, then the ``space`` step
    (`zheval.text.normalize.normalize_space`): ``"今天 天气 \\u200b"`` → ``"今天天气"``."""
    return normalize_space(remove_invisible(text))


def copy_kind(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> Optional[str]:
    """Whether every prediction is a copy of one of its item's references: ``"exact"`` (each equals one exactly),
    ``"spacing"`` (each equals one after `copy_key`, some only so), or ``None`` (some prediction is no copy, or there
    is no item). Stops at the first prediction that is no copy (the usual case: item 0), so it costs nothing then.

    Args:
        predictions: one ``str`` per item. references: per item a list of ``str``.
    """
    kind = "exact" if len(predictions) else None
    for p, refs in zip(predictions, references):
        if p in refs:
            continue
        key = copy_key(p)
        if not any(copy_key(r) == key for r in refs):
            return None
        kind = "spacing"
    return kind


def combine_copy_kinds(a: Optional[str], b: Optional[str]) -> Optional[str]:
    """The kind of two chunks together (`copy_kind` of each): ``None`` if either is, else ``"spacing"`` if
    either is, else ``"exact"``."""
    if a is None or b is None:
        return None
    return "spacing" if "spacing" in (a, b) else "exact"


def copies_warning(n: int, kind: str, source: Optional[str] = None) -> str:
    """The warning of ``n`` predictions (of ``source``, a file name, when known) that are all copies
    (`copy_kind` ``kind``) of their references."""
    where = f" of {source}" if source and not source.startswith("<") else ""
    how = " (up to whitespace and invisible characters)" if kind == "spacing" else ""
    return (f"all {n} prediction(s){where} equal their references{how}; if that is not the point (a sanity check), "
            "check that the predictions are the system's output and not a copy of the references")
