"""The metric cards (metrics/*/README.md): the YAML header a Hub metric Space needs, the sections the card promises,
every ```python example run as a doctest, and the real-data table reproduced by scripts/card_tables.py."""

from __future__ import annotations

import doctest
import importlib.metadata as md
import importlib.util
import re

import pytest
import yaml

import evaluate
from helpers import REPO

METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf")
TITLES = {"chinese_rouge": "Chinese ROUGE", "chinese_bleu": "Chinese BLEU", "chinese_chrf": "Chinese chrF"}
#: The works each card cites (the chrF card cites chrF's papers and Post 2018, not BLEU's and ROUGE's).
CITATIONS = {"chinese_rouge": ("papineni-etal-2002-bleu", "lin-2004-rouge", "post-2018-call"),
             "chinese_bleu": ("papineni-etal-2002-bleu", "lin-2004-rouge", "post-2018-call"),
             "chinese_chrf": ("popovic-2015-chrf", "popovic-2017-chrf", "post-2018-call")}
COLORS = {"red", "yellow", "green", "blue", "indigo", "purple", "pink", "gray"}
SECTIONS = ("## Metric Description", "## How to Use", "### Inputs", "### Output Values",
            "### How tokenisation and multi-reference rules change the numbers", "### Presets", "### The signature",
            "### Examples", "### The Space widget", "## Limitations and Bias", "## Citation", "## Further References")


def _card(metric: str) -> str:
    return (REPO / "metrics" / metric / "README.md").read_text(encoding="utf-8")


def _header(text: str) -> dict:
    m = re.match(r"\A---\n(.*?)\n---\n", text, flags=re.S)
    assert m, "the card must start with a YAML header between '---' lines"
    return yaml.safe_load(m.group(1))


def _card_tables():
    spec = importlib.util.spec_from_file_location("card_tables", REPO / "scripts" / "card_tables.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("metric", METRICS)
def test_yaml_header_has_the_space_fields(metric):
    meta = _header(_card(metric))
    assert meta["title"] == TITLES[metric]
    assert isinstance(meta["emoji"], str) and meta["emoji"]
    assert meta["colorFrom"] in COLORS and meta["colorTo"] in COLORS
    assert meta["sdk"] == "gradio" and meta["app_file"] == "app.py" and meta["pinned"] is False
    assert {"evaluate", "metric"} <= set(meta["tags"])
    assert isinstance(meta["description"], str) and len(meta["description"]) > 50
    # sdk_version: a full version string (not a float), the gradio major we test with, inside the [space] extra
    sdk = meta["sdk_version"]
    assert isinstance(sdk, str) and re.fullmatch(r"\d+\.\d+\.\d+", sdk)
    installed = md.version("gradio")
    assert sdk.split(".")[0] == installed.split(".")[0], (sdk, installed)
    assert 5 <= int(sdk.split(".")[0]) < 7
    # a Python version that the pinned gradio supports, as a string (3.10 written as a float would become 3.1)
    assert isinstance(meta["python_version"], str) and tuple(map(int, meta["python_version"].split("."))) >= (3, 10)


@pytest.mark.parametrize("metric", METRICS)
def test_card_has_its_sections_and_citations(metric):
    text = _card(metric)
    positions = [text.find(s) for s in SECTIONS]
    assert all(p >= 0 for p in positions), [s for s, p in zip(SECTIONS, positions) if p < 0]
    assert positions == sorted(positions)
    for key in CITATIONS[metric]:
        assert key in text
    for phrase in ("surface", "Synonyms", "Open-ended dialogue", "|||", "scripts/card_tables.py"):
        assert phrase in text, phrase


@pytest.mark.parametrize("metric", METRICS)
def test_card_examples_pass_as_doctests(metric, monkeypatch):
    # run exactly as written, from where the card says: the root of a clone (the first example loads
    # "./metrics/<metric>", a path relative to the current directory)
    monkeypatch.chdir(REPO)
    blocks = re.findall(r"```python\n(.*?)```", _card(metric), flags=re.S)
    assert f'evaluate.load("./metrics/{metric}")' in blocks[0]
    assert f'evaluate.load("<owner>/{metric}")' in _card(metric) and "from the root of a clone" in _card(metric)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {"evaluate": evaluate}, metric, "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 15, (runner.failures, runner.tries)


def test_card_tables_are_reproduced_from_the_real_data(shared_data_dir):
    mod = _card_tables()
    mod.DATA = shared_data_dir  # the folder the tests read (skips without it; fails under CI=true)
    fresh = mod.tables()
    for metric in METRICS:
        assert mod.card_table(_card(metric)) == fresh[metric], "regenerate: python scripts/card_tables.py --write"


QUALIFICATIONS = {
    "chinese_rouge": ("`use_stemmer` is refused", "`sentence_split`", "chinese_rouge_signature", "force_prefix=True"),
    "chinese_bleu": ('`smooth=True` is refused', '`smooth_method="none"`', "chinese_bleu_signature",
                     "force_prefix=True"),
}


@pytest.mark.parametrize("metric", tuple(QUALIFICATIONS))
def test_the_drop_in_claim_carries_its_qualifications(metric):
    text = _card(metric)
    start = text.index("**A drop-in for the Hub's")
    block = text[start:text.index("\n\n", text.index("\n* ", start) + 1)]  # the claim and its bullet list
    for phrase in QUALIFICATIONS[metric]:
        assert phrase in block, phrase
    readme = (REPO / "docs" / "metric-modules.md").read_text(encoding="utf-8")
    claim = readme[readme.index("Outputs are a drop-in for the Hub's"):]
    claim = claim[:claim.index("\n\n")]
    for phrase in ("`use_stemmer`", "`smooth`", "`sentence_split`", "chinese_bleu_signature", "chinese_rouge_signature"):
        assert phrase in claim, phrase


def test_the_stated_combine_renaming_is_what_evaluate_does(monkeypatch):
    monkeypatch.chdir(REPO)
    p, r = ["你好世界"], [["你好世界"]]
    paths = ["./metrics/chinese_bleu", "./metrics/chinese_rouge"]
    keys = set(evaluate.combine(paths).compute(predictions=p, references=r, crosscheck=True))
    assert {"chinese_bleu_signature", "chinese_rouge_signature", "chinese_bleu_crosscheck",
            "chinese_rouge_crosscheck", "bleu", "rouge1", "precisions"} <= keys
    assert not {"signature", "crosscheck"} & keys
    keys = set(evaluate.combine(paths, force_prefix=True).compute(predictions=p, references=r))
    assert all(k.startswith(("chinese_bleu_", "chinese_rouge_")) for k in keys) and "chinese_bleu_bleu" in keys
    keys = set(evaluate.combine(dict(zip("br", paths))).compute(predictions=p, references=r))
    assert {"b_signature", "r_signature", "bleu"} <= keys
    twice = evaluate.combine([paths[1], paths[1]]).compute(predictions=p, references=r)
    assert {"chinese_rouge_0_rouge1", "chinese_rouge_1_rouge1", "chinese_rouge_0_signature"} <= set(twice)


@pytest.mark.parametrize("metric, option, why", [
    ("chinese_rouge", dict(use_stemmer=True), "stems English words only"),
    ("chinese_bleu", dict(smooth=True), "unigrams included"),
])
def test_refused_hub_options_say_why(metric, option, why, monkeypatch):
    monkeypatch.chdir(REPO)
    module = evaluate.load(f"./metrics/{metric}")
    with pytest.raises(TypeError, match=why):
        module.compute(predictions=["你好"], references=["你好"], **option)
    import zheval

    with pytest.raises(TypeError, match=why):
        zheval.score(["你好"], ["你好"], **option)
