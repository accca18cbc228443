"""The library's presets at the text-file doors (``zheval bleu`` / ``zheval rouge --preset``): which presets a
command offers, and the empty references a preset scores as its tool does (sacrebleu-zh), kept and said in FILE:line."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from .options import UserError

__all__ = ["starts_with_bom", "check_text_preset", "empty_references_note", "empty_references_seen", "preset_scores_empty", "keeps_bom",
           "bom_lines_warning"]


def check_text_preset(preset: Optional[str], metric: str) -> None:
    """Refuse a ``--preset`` that is not offered at the ``text`` door for ``metric`` (naming the other command when
    the preset is the other metric's)."""
    from ..presets import find_preset, preset_names

    if preset is None:
        return
    found = find_preset(preset)
    part = found.part(metric) if found is not None else None
    if part is None or "text" not in part.doors:
        other = "rouge" if metric == "bleu" else "bleu"
        theirs = found.part(other) if found is not None else None
        hint = (f" ({preset} is a {other.upper()} preset: use zheval {other} --preset {preset})"
                if theirs is not None and "text" in theirs.doors else "")
        raise UserError(f"unknown --preset {preset!r} for zheval {metric}; valid: "
                        f"{', '.join(preset_names(metric, door='text'))}{hint}")


def preset_scores_empty(preset: Optional[str], metric: str) -> bool:
    """Whether ``--preset``'s part for ``metric`` scores empty references as its tool does
    (``scores_empty_references``: sacrebleu-zh), so that empty reference lines are read, scored, counted and said."""
    from ..presets import scores_empty_references

    return preset is not None and scores_empty_references(metric, preset)


def keeps_bom(preset: Optional[str], metric: str) -> bool:
    """Whether ``--preset``'s part for ``metric`` reproduces sacrebleu (its tokens are sacrebleu's:
    `zheval.presets.tokens_tool`; sacrebleu-zh), whose command line reads a byte-order mark that starts a line
    inside a file (``cat a.txt b.txt``) as a character of the segment: the line is then scored so and said
    (`bom_lines_warning`); without such a preset it is refused at FILE:line, as the JSON Lines door refuses it."""
    from ..presets import find_preset, tokens_tool

    found = find_preset(preset) if preset is not None else None
    part = found.part(metric) if found is not None else None
    return part is not None and tokens_tool(part).startswith("sacrebleu")


def bom_lines_warning(lines: list, preset: str) -> str:
    """The warning of the ``(FILE, line)`` s whose line starts with a byte-order mark, kept by `keeps_bom`: the
    first one in the JSON Lines door's words (`zheval.io.encoding.INNER_BOM`) with how it was scored, then up to 5
    more named."""
    from ..io.encoding import INNER_BOM

    (name, line), rest = lines[0], [f"{n}:{k}" for n, k in lines[1:]]
    more = f" (also at {', '.join(rest[:5])}{' …' if len(rest) > 5 else ''})" if rest else ""
    return (f"{name}:{line}: {INNER_BOM} --preset {preset} scores it as sacrebleu reads it, a character of the "
            f"segment{more}; remove it to score the text alone")


@contextmanager
def empty_references_seen():
    """Keep the library's `zheval.compute.guards.EmptyReferenceWarning` (every system of a run has the same
    references: one is enough) in the yielded list, for `empty_references_note` to say in FILE:line; every other
    warning goes on to the command's catcher as it would have."""
    import warnings

    from ..compute.guards import EmptyReferenceWarning

    kept: list = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield kept
    for w in caught:
        if isinstance(w.message, EmptyReferenceWarning):
            kept.append(w.message)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def empty_references_note(warning, ref_names: list) -> tuple:
    """``(count, message)`` of the empty references a preset scored, the library's message with its first
    ``references[i][j]`` as ``FILE:line`` (`zheval.cli.located.TextFilePlaces`)."""
    from .located import TextFilePlaces

    i, j = warning.positions[0]
    path, line, _, _ = TextFilePlaces(ref_names).reference(i, j)
    text = str(warning).replace(f"references[{i}][{j}]", f"{path}:{line}")
    return len(warning.positions), text.replace("empty reference(s)", "empty reference line(s)", 1)


def starts_with_bom(name: str, data: bytes) -> bool:
    """Whether a file's text (gzip undone by `zheval.io.source.read_bytes`, as its reader did) begins with a UTF-8
    byte-order mark."""
    from ..io.encoding import UTF8_BOM
    from ..io.source import read_bytes

    raw = read_bytes(name, "text file", [], data=data)
    return raw is not None and raw.startswith(UTF8_BOM)
