"""``help()`` shows every option, not a link: ``help(zheval.compute_rouge)`` (and BLEU's, chrF's, BERTScore's, the
judge's) and ``help(zheval.RougeOptions)`` (and the others, ``BertScoreOptions`` and ``JudgeOptions`` included) print,
for each option, its text -- written once, as the field's ``metadata["doc"]`` in zheval/compute/options.py,
bertscore.py and judge.py -- and its default: the field's default ("Required." for a field without one), and for a
field left at ``None`` where a preset may set it, the value that then applies (ROUGE's and BLEU's defaults, written
out here by hand). No Markdown cross-reference (``[`x`][zheval...]``) is left in the printed text of an option."""

from __future__ import annotations

import dataclasses
import inspect
import pydoc
import re

import pytest

import zheval


def _help(obj) -> str:
    """The text ``help(obj)`` prints, on one line (a class's `` |  `` margin removed)."""
    lines = pydoc.render_doc(obj, renderer=pydoc.plaintext).splitlines()
    return " ".join(" ".join(re.sub(r"^ \|", "", line) for line in lines).split())


def _first_sentence(doc: str) -> str:
    """The option's text up to its first full stop, as plain text (cross-references as their code span)."""
    text = re.sub(r"\[(`[^`\]]+`)\]\[[\w.]*\]", r"\1", " ".join(doc.split()))
    return text.split(". ")[0]


#: (compute function, options class, {option: the value None stands for without a preset}) -- by hand.
CASES = [
    ("compute_rouge", "RougeOptions", {"tokenizer": "'char'", "rouge_types": "['rouge1', 'rouge2', 'rougeL', "
                                       "'rougeLsum']", "multi_ref": "'max'", "beta": "1.0", "rouge_w_weight": "1.2",
                                       "sentence_split": "'punct'"}),
    ("compute_bleu", "BleuOptions", {"tokenizer": "'char'", "max_order": "4", "smooth_method": "'exp'",
                                     "bp_ref_length": "'closest'", "level": "'corpus'"}),
    ("compute_chrf", "ChrfOptions", {}),
    ("compute_bertscore", "BertScoreOptions", {}),
    ("compute_judge", "JudgeOptions", {}),
]


def _options_class(name: str) -> type:
    from zheval.compute import bertscore, judge

    return getattr(zheval, name, None) or getattr(bertscore, name, None) or getattr(judge, name)


@pytest.mark.parametrize("function, options, effective", CASES, ids=[c[0] for c in CASES])
def test_help_shows_every_option_with_its_default(function, options, effective):
    cls = _options_class(options)
    for obj in (getattr(zheval, function), cls):
        text = _help(obj)
        for f in dataclasses.fields(cls):
            said = _first_sentence(f.metadata["doc"])
            assert said in text, (obj.__name__, f.name, said)
            if f.name in effective:
                default = f"Default: `None`: the preset's value, else `{effective[f.name]}`."
            elif f.default is dataclasses.MISSING:
                default = "Required."
            else:
                default = f"Default: `{f.default!r}`."
            assert default in text, (obj.__name__, f.name, default)
        assert not re.search(r"`\]\[[\w.]*\]", inspect.getdoc(obj)), obj.__name__


@pytest.mark.parametrize("function, options, effective", CASES, ids=[c[0] for c in CASES])
def test_the_compute_functions_args_point_at_the_definition_on_the_site(function, options, effective):
    """The source docstring (what the site renders) keeps the link to each option's definition: help() rewrites
    only the printed copy."""
    import inspect

    source = inspect.getsource(inspect.unwrap(getattr(zheval, function)))
    cls = _options_class(options)
    names = [f.name for f in dataclasses.fields(cls)]
    linked = [n for n in names if f"[`{n}`][{cls.__module__}." in source]
    assert linked == list(names), sorted(set(names) - set(linked))
