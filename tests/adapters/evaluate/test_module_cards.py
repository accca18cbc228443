"""The evaluate scripts are shells: what a loaded module shows (``MetricInfo``, the class docstring) comes from its
card record (zheval/adapters/evaluate_cards/), each work is cited once in citations.bib, and a script holds no
``_info``, description or citation of its own."""

from __future__ import annotations

import ast
import re

import evaluate
import pytest

from helpers import METRICS
from zheval.adapters.evaluate_cards import CARDS, card

SCRIPTS = {"rouge": "chinese_rouge", "bleu": "chinese_bleu", "chrf": "chinese_chrf", "bertscore": "chinese_bertscore"}


@pytest.mark.parametrize("metric", sorted(SCRIPTS))
def test_loaded_module_shows_its_card(metric):
    module = evaluate.load(str(METRICS / SCRIPTS[metric]))
    c = card(metric)
    assert module.description == c.description and module.inputs_description == c.inputs_description
    assert module.citation == c.citation and module.codebase_urls == list(c.codebase_urls)
    # every cited work's page (ACL Anthology; OpenReview for BERTScore), in the order cited (written out: the urls
    # are not derived from themselves here)
    acl = {"rouge": ["W04-1013"], "bleu": ["P02-1040", "W18-6319", "W14-3346"],
           "chrf": ["W15-3049", "W17-4770", "W18-6319"], "bertscore": []}[metric]
    other = {"bertscore": ["https://openreview.net/forum?id=SkeHuCVFDr"]}.get(metric, [])
    assert module.reference_urls == [f"https://aclanthology.org/{a}" for a in acl] + other
    assert re.findall(r"@inproceedings\{([^,]+),", module.citation) == list(c.cites)
    doc = type(module).__doc__
    assert doc.startswith(c.description) and c.inputs_description in doc and doc.endswith(c.summary)
    assert module.inputs_description.count(">>> ") >= 4  # the doctested examples travel with the card


def test_each_work_is_cited_once():
    text = (CARDS["rouge"].citation, CARDS["bleu"].citation, CARDS["chrf"].citation)
    assert "post-2018-call" in text[1] and "post-2018-call" in text[2]
    from zheval.adapters import evaluate_cards

    bib = (evaluate_cards._HERE / "citations.bib").read_text(encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,]+),", bib, flags=re.M)
    assert len(keys) == len(set(keys)) == 7  # 8 citations, Post (2018) in two cards


@pytest.mark.parametrize("script", sorted(SCRIPTS.values()))
def test_script_is_a_shell(script):
    tree = ast.parse((METRICS / script / f"{script}.py").read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [type(n).__name__ for n in cls.body] == ["Assign"]  # ZHEVAL_METRIC = "..." and nothing else
    assert not [n for n in tree.body if isinstance(n, ast.Assign)]  # no _DESCRIPTION, _CITATION, ...


def test_unknown_metric_names_the_known_cards():
    with pytest.raises(KeyError, match="known: rouge, bleu, chrf, bertscore"):
        card("meteor")
