"""The options' documentation as a reader sees it: each option's text (``metadata["doc"]`` of its field,
`option_field`, the one place it is written: in `zheval.compute.options`, and in the options classes of BERTScore
and of the judge, [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions] and
[`JudgeOptions`][zheval.compute.judge.JudgeOptions]) and its default -- for a field left at ``None`` where a
preset may set it, the value that then applies -- rendered as the options classes' ``Attributes:`` section and into
the ``Args:`` of [`compute_rouge`][zheval.compute.rouge.compute_rouge],
[`compute_bleu`][zheval.compute.bleu.compute_bleu], [`compute_chrf`][zheval.compute.chrf.compute_chrf],
[`compute_bertscore`][zheval.compute.bertscore.compute_bertscore] and
[`compute_judge`][zheval.compute.judge.compute_judge], so that ``help()`` shows every option's text, not a link.
The docs site shows the same text and default on the API page (``scripts/griffe_option_fields.py``, a griffe
extension, reads them from here).

Nothing here imports `zheval.compute.options`: the classes and their metric defaults are passed in.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import textwrap
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

__all__ = ["option_field", "documented", "option_doc", "option_default", "plain_text", "attributes_section",
           "with_option_texts"]

#: A cross-reference of the docs site: ``[`text`][target]`` or ``[`text`][]``.
_AUTOREF = re.compile(r"\[(`[^`\]]+`)\]\[[\w.]*\]")

#: An ``Args:`` entry of a compute function that only points at the option's definition:
#: ``name: [`name`][zheval.compute.options.X.name].``
_POINTER = re.compile(r"^(?P<indent>[ \t]+)(?P<name>\w+): \[`(?P=name)`\]\[[\w.]*\]\.$", re.M)


def option_field(default: Any = dataclasses.MISSING, check: Optional[Callable[[str, Any], Any]] = None, *,
                 doc: str) -> Any:
    """A dataclass field with its default (none given: a required option), its check (``check(name, value)``
    raising, run by the options classes of `zheval.compute.options` when built; a ``None`` value of a field whose
    default is ``None`` is never checked: it means "not set") and its documentation, ``metadata["doc"]`` (Markdown,
    dedented; rendered for ``help()`` by `attributes_section` and `with_option_texts`, and on the API page by the
    site's griffe extension)."""
    return dataclasses.field(default=default, metadata={"check": check, "doc": inspect.cleandoc(doc)})


def documented(cls: type, metric_defaults: Sequence[Tuple[type, Mapping[str, Any]]] = ()) -> type:
    """Give the options class ``cls`` (its fields made with `option_field`) the docstring ``help()`` shows: its own
    text as plain text (`plain_text`) followed by the ``Attributes:`` section of its fields (`attributes_section`;
    ``metric_defaults`` as there). Returns ``cls`` (usable as a class decorator, above ``@dataclass``)."""
    cls.__doc__ = f"{plain_text((cls.__doc__ or '').rstrip())}\n\n{attributes_section(cls, metric_defaults)}\n    "
    return cls


def option_doc(cls: type, name: str) -> str:
    """The documentation of option ``name`` of the options class ``cls`` (Markdown, as on the site)."""
    return _field(cls, name).metadata["doc"]


def option_default(cls: type, name: str, metric_defaults: Sequence[Tuple[type, Mapping[str, Any]]]) -> str:
    """The default of option ``name`` of ``cls`` as a sentence: ``Default: `'keep'`.``, or for a field left at
    ``None`` where a preset may set it, ``Default: `None`: the preset's value, else `1.2`.`` -- the value of
    ``metric_defaults`` (``(options class, {option: value})`` pairs, e.g. ``(RougeOptions, ROUGE_DEFAULTS)``) of
    every metric class that has the option (one value when they agree; each metric's when they differ); for a field
    without a default, ``Required.``."""
    default = _field(cls, name).default
    if default is dataclasses.MISSING:
        return "Required."
    if default is not None:
        return f"Default: `{default!r}`."
    values = [(metric, values[name]) for metric, values in metric_defaults
              if issubclass(metric, cls) and name in values and _field(metric, name).default is None
              and values[name] is not None]
    if not values:
        return "Default: `None`."
    if len({repr(v) for _, v in values}) == 1:
        return f"Default: `None`: the preset's value, else `{values[0][1]!r}`."
    said = "; ".join(f"{metric.__name__}: `{v!r}`" for metric, v in values)
    return f"Default: `None`: the preset's value, else the metric's ({said})."


def plain_text(text: str) -> str:
    """Markdown of the site as plain ``help()`` text: a cross-reference ``[`x`][target]`` becomes ``x``'s code
    span."""
    return _AUTOREF.sub(r"\1", text)


def attributes_section(cls: type, metric_defaults: Sequence[Tuple[type, Mapping[str, Any]]]) -> str:
    """The ``Attributes:`` section of ``cls``'s docstring: each option with its type, its text and its default,
    plain text, each line indented by 4 (the class docstring's indentation)."""
    lines = ["Attributes:"]
    for f in dataclasses.fields(cls):
        lines.append(f"    {f.name} ({_annotation(f)}):")
        lines.extend(_wrapped(_option_text(cls, f.name, metric_defaults), "        ", "        "))
    return "\n".join("    " + line if line else line for line in lines)


def with_option_texts(doc: Optional[str], cls: type, metric_defaults: Sequence[Tuple[type, Mapping[str, Any]]]) \
        -> Optional[str]:
    """A compute function's docstring with each ``Args:`` entry that only points at an option of ``cls``
    (``name: [`name`][...].``) replaced by the option's text and default; the rest kept as written, every
    cross-reference shown as its code span (`plain_text`: ``help()`` shows no link target)."""
    if not doc:
        return doc
    names = {f.name for f in dataclasses.fields(cls)}

    def text(m: re.Match) -> str:
        name, indent = m.group("name"), m.group("indent")
        if name not in names:
            return m.group(0)
        return "\n".join(_wrapped(f"{name}: {_option_text(cls, name, metric_defaults)}", indent, indent + "    "))

    return plain_text(_POINTER.sub(text, doc))


def _option_text(cls: type, name: str, metric_defaults) -> str:
    return plain_text(f"{option_doc(cls, name)} {option_default(cls, name, metric_defaults)}")


def _wrapped(text: str, first: str, rest: str) -> list:
    return textwrap.wrap(" ".join(text.split()), width=116, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def _annotation(f: dataclasses.Field) -> str:
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", repr(f.type))


def _field(cls: type, name: str) -> dataclasses.Field:
    return {f.name: f for f in dataclasses.fields(cls)}[name]
