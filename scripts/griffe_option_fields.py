"""A griffe extension of the docs site (``mkdocs.yml``): the API page shows every option of
`zheval.compute.options`, of ``BertScoreOptions`` (`zheval.compute.bertscore`) and of ``JudgeOptions``
(`zheval.compute.judge`) with its true default and its text.

mkdocstrings reads the source, where an option is written ``name: type = _option(default, check, doc="...")`` (or
``option_field(...)``): alone, griffe would show that call as the field's value and no documentation. This extension
imports those modules (the one definition) and gives each field of the options classes

* its value: ``repr`` of the field's default (so the page shows ``beta: Optional[float] = None``, and griffe's
  dataclass support, which runs after this extension, builds the class's ``__init__`` with the same defaults); no
  value for a field without a default (a required option: ``model: Any``);
* its docstring: the field's ``metadata["doc"]`` and the sentence of its default
  (`zheval.compute.option_docs.option_default`: for a field left at ``None`` where a preset may set it, the value
  that then applies) -- the same text ``help()`` shows.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import griffe

#: The options classes the API page documents, as (module of ``zheval``, class name).
CLASSES = (("compute.options", "TokenizerOptions"), ("compute.options", "IntervalOptions"),
           ("compute.options", "RougeOptions"), ("compute.options", "BleuOptions"), ("compute.options", "ChrfOptions"),
           ("compute.bertscore", "BertScoreOptions"), ("compute.judge", "JudgeOptions"))


class OptionFields(griffe.Extension):
    """Set each option field's value and docstring from the runtime definition (see the module's docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name == "zheval":
            document_option_fields(pkg)

    #: griffe 1's name of the same hook (the docs extra allows mkdocstrings-python >= 1.12); setting twice is harmless
    on_package_loaded = on_package


def document_option_fields(pkg: griffe.Module) -> None:
    """Set the value and the docstring of every field of the options classes in the loaded package ``pkg``."""
    options = importlib.import_module("zheval.compute.options")
    docs = importlib.import_module("zheval.compute.option_docs")
    for module_name, name in CLASSES:
        module = pkg
        for part in module_name.split("."):
            module = module[part]
        cls, griffe_cls = getattr(importlib.import_module(f"zheval.{module_name}"), name), module[name]
        for f in dataclasses.fields(cls):
            attribute = griffe_cls.members.get(f.name)
            if attribute is None or attribute.is_alias:  # inherited: documented on the class that defines it
                continue
            attribute.value = None if f.default is dataclasses.MISSING else repr(f.default)
            text = f"{docs.option_doc(cls, f.name)}\n\n{docs.option_default(cls, f.name, options.METRIC_DEFAULTS)}"
            attribute.docstring = griffe.Docstring(text, parent=attribute)
