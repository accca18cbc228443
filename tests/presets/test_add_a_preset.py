"""docs/presets.md, "Add a preset", proven: a toy ROUGE preset defined and registered here -- its own per-reference
formula (Dice on distinct Han characters, plugged into the multi-reference rule) and a fixed tokenizer -- works
through every door without a line of ``zheval/`` changed: ``zheval.compute_rouge``, ``zheval.explain``, the
evaluate module ``metrics/chinese_rouge`` (``evaluate.load`` of the local script), ``zheval rouge`` on text files,
and the Space's preset dropdown. Its numbers are checked against the hand computation written out below.

The code between the ``docs/presets.md`` markers is the page's example, character for character (a test checks),
and the page's code blocks run as written: each names its file (``# my_presets.py``), they are saved as those files
and ``python score.py`` and the ``my_zheval.py`` command of the page are run in a fresh process.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import subprocess
import sys
from fractions import Fraction as F

import pytest

import zheval
from helpers import METRICS, REPO
from helpers.cli import run_cli

# --- docs/presets.md: begin
# my_presets.py
from dataclasses import dataclass

from zheval.definitions.rouge import Score, combine_references
from zheval.presets import Preset, RougePreset, register_preset


def han_characters(text):
    """The preset's fixed tokenizer: the Han characters of a text, one token each (punctuation, Latin and digits
    are not counted)."""
    return [c for c in text if "\u4e00" <= c <= "\u9fff"]


def dice(hit, ref_total, hyp_total):
    """The per-reference formula: P, R and F (= Dice, 2 hit / (|H| + |R|)) of distinct characters."""
    p = hit / hyp_total if hyp_total else 0.0
    r = hit / ref_total if ref_total else 0.0
    return Score(p, r, 2 * p * r / (p + r) if p + r else 0.0)


@dataclass(frozen=True, eq=False)
class DiceRouge(RougePreset):
    def check_types(self, types):
        if list(types) != ["rouge1"]:
            raise ValueError(f"preset {self.name!r} computes rouge1 only, got {list(types)}")

    def item_scorer(self, types, multi_ref, beta, rouge_w_weight):
        def scorer(hyp_tokens, refs_tokens):
            hyp = set(hyp_tokens)
            stats = [(len(hyp & set(ref)), len(set(ref)), len(hyp)) for ref in refs_tokens]
            return {"rouge1": combine_references(stats, multi_ref, score=dice)}
        return scorer

    def tool_numbers(self, fmeasure, extra):
        values = list(fmeasure["rouge1"])
        return {"dice_rouge1": 100 * sum(values) / len(values) if values else 0.0}


DICE = Preset(
    name="dice-chars",
    rouge=DiceRouge(
        name="dice-chars",
        defaults={"tokenizer": han_characters, "rouge_types": ["rouge1"], "multi_ref": "max"},
        units="tokens",          # the scorer gets each text's tokens, flat
        counting="set",          # explain counts distinct n-grams
        fixed_beta=True,         # F is the tool's own; beta stays 1
        f_formula="2PR/(P+R)",
        doors=frozenset({"text", "space"}),
        number_scale=100.0,      # dice_rouge1 is on 0-100
        summary="Dice of distinct Han characters (adds dice_rouge1, 0-100)",
    ),
)
# --- docs/presets.md: end

PREDS = ["猫坐在垫子上。", "今天天气很好"]
REFS = [["猫趴在垫子上面。", "狗在睡觉"], ["今天天气不错", "天气很好"]]
# By hand, on distinct Han characters:
#   item 0: H = {猫坐在垫子上} (6); ref 0 = {猫趴在垫子上面} (7), hits 猫在垫子上 = 5 -> F = 2*5/(6+7) = 10/13;
#           ref 1 = {狗在睡觉} (4), hit 在 -> F = 2/(6+4) = 1/5; max -> ref 0, P = 5/6, R = 5/7, F = 10/13.
#   item 1: H = {今天气很好} (5: 天 twice); ref 0 = {今天气不错} (5), hits 今天气 = 3 -> F = 6/10 = 3/5;
#           ref 1 = {天气很好} (4), hits 4 -> F = 8/9; max -> ref 1, P = 4/5, R = 1, F = 8/9.
ITEM_F = [F(10, 13), F(8, 9)]
MEAN_F = (ITEM_F[0] + ITEM_F[1]) / 2  # 97/117


@pytest.fixture()
def dice_preset():
    register_preset(DICE)
    try:
        yield DICE
    finally:
        from zheval.presets import unregister_preset

        unregister_preset("dice-chars")


def test_the_docs_example_is_this_code():
    page = (REPO / "docs" / "presets.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- example: begin -->\n```python\n(.*?)```\n<!-- example: end -->", page, re.S).group(1)
    here = (REPO / "tests" / "presets" / "test_add_a_preset.py").read_text(encoding="utf-8")
    code = here.split("# --- docs/presets.md: begin\n", 1)[1].split("# --- docs/presets.md: end\n", 1)[0]
    assert block == code


def test_compute_rouge(dice_preset):
    res = zheval.compute_rouge(PREDS, REFS, preset="dice-chars")
    assert res["rouge1"] == pytest.approx(float(MEAN_F), abs=1e-15)
    assert res["dice_rouge1"] == pytest.approx(float(100 * MEAN_F), abs=1e-12)
    assert list(res) == ["rouge1", "signature", "dice_rouge1"]
    assert "preset:dice-chars" in res["signature"] and "beta" not in res["signature"]
    items = zheval.compute_rouge(PREDS, REFS, preset="dice-chars", use_aggregator=False, return_precision_recall=True)
    assert items["rouge1"] == [pytest.approx(float(f), abs=1e-15) for f in ITEM_F]
    assert items["rouge1_precision"] == [pytest.approx(5 / 6), pytest.approx(4 / 5)]
    assert items["rouge1_recall"] == [pytest.approx(5 / 7), 1.0]
    # the preset's checks and defaults: its own types and formula; explicit options override defaults
    with pytest.raises(ValueError, match="computes rouge1 only"):
        zheval.compute_rouge(PREDS, REFS, preset="dice-chars", rouge_types=["rougeL"])
    with pytest.raises(ValueError, match=r"\(2PR/\(P\+R\)\); beta cannot be changed"):
        zheval.compute_rouge(PREDS, REFS, preset="dice-chars", beta=2.0)
    with pytest.raises(ValueError, match="crosscheck is not available for preset 'dice-chars'"):
        zheval.compute_rouge(PREDS, REFS, preset="dice-chars", crosscheck=True)
    mean = zheval.compute_rouge(PREDS, REFS, preset="dice-chars", multi_ref="mean")
    assert mean["rouge1"] == pytest.approx(float(((F(10, 13) + F(1, 5)) / 2 + (F(3, 5) + F(8, 9)) / 2) / 2))
    # it is a ROUGE preset only
    with pytest.raises(ValueError, match=r"'dice-chars' is a chinese_rouge preset"):
        zheval.compute_bleu(PREDS, REFS, preset="dice-chars")


def test_registry(dice_preset):
    from zheval.presets import get_preset, preset_names, register_preset, unregister_preset

    assert get_preset("dice-chars") is DICE and preset_names("rouge")[-1] == "dice-chars"
    assert "dice-chars" not in preset_names("bleu") and "dice-chars" in preset_names("rouge", door="space")
    register_preset(DICE)  # the same object again: nothing happens
    with pytest.raises(ValueError, match="a different preset is already registered as 'dice-chars'"):
        register_preset(Preset(name="dice-chars", rouge=DiceRouge(name="dice-chars", defaults={})))
    with pytest.raises(ValueError, match="already registered as 'rouge155'"):
        register_preset(Preset(name="rouge155", rouge=DiceRouge(name="rouge155", defaults={})))
    with pytest.raises(ValueError, match="built-in"):
        unregister_preset("glm4")


def test_unregistered_after_the_test():
    with pytest.raises(ValueError, match="unknown preset 'dice-chars'"):
        zheval.compute_rouge(PREDS, REFS, preset="dice-chars")


def test_explain(dice_preset):
    e = zheval.explain(PREDS[0], REFS[0], preset="dice-chars")
    assert set(e) >= {"rouge", "highlight", "signature"} and "bleu" not in e
    r1 = e["rouge"]["rouge1"]
    assert r1["formula"] == "dice-chars" and r1["rule"] == "max" and r1["selected"] == 0
    assert r1["score"]["fmeasure"] == pytest.approx(10 / 13, abs=1e-15)
    first, second = r1["per_reference"]
    assert (first["hits"], first["reference_total"], first["prediction_total"]) == (5, 7, 6)
    assert (second["hits"], second["fmeasure"]) == (1, pytest.approx(1 / 5))
    assert first["counting"] == "set"
    assert r1["units"]["prediction"] == list("猫坐在垫子上")


def test_evaluate_module(dice_preset):
    import evaluate

    module = evaluate.load(str(METRICS / "chinese_rouge"))
    res = module.compute(predictions=PREDS, references=REFS, preset="dice-chars")
    assert res["rouge1"] == pytest.approx(float(MEAN_F), abs=1e-15)
    assert res["dice_rouge1"] == pytest.approx(float(100 * MEAN_F), abs=1e-12)


def test_text_file_command(dice_preset, tmp_path):
    ref0, ref1, hyp = tmp_path / "ref0.txt", tmp_path / "ref1.txt", tmp_path / "hyp.txt"
    ref0.write_text("".join(r[0] + "\n" for r in REFS), encoding="utf-8")
    ref1.write_text("".join(r[1] + "\n" for r in REFS), encoding="utf-8")
    hyp.write_text("".join(p + "\n" for p in PREDS), encoding="utf-8")
    res = run_cli("rouge", ref0, ref1, "-i", hyp, "--preset", "dice-chars", "--scale", "1", "-w", 15, "-f", "json")
    assert res.exit_code == 0, res.output
    system = json.loads(res.stdout)["systems"][0]
    assert system["scores"] == {"rouge1": pytest.approx(float(MEAN_F), abs=1e-14)}
    assert system["preset_scores"]["dice_rouge1"] == pytest.approx(float(100 * MEAN_F), abs=1e-12)
    res = run_cli("bleu", ref0, "-i", hyp, "--preset", "dice-chars")
    assert res.exit_code == 2 and "dice-chars is a ROUGE preset: use zheval rouge --preset dice-chars" in res.output


def test_space_choices(dice_preset):
    pytest.importorskip("gradio")  # the space extra (python3 dev.py test installs it)
    import evaluate

    from zheval.adapters.space import build_demo, preset_choices, score_rouge

    assert preset_choices("rouge")[-1] == "dice-chars" and "dice-chars" not in preset_choices("bleu")
    module = evaluate.load(str(METRICS / "chinese_rouge"))
    demo = build_demo(module)
    dropdown = next(b for b in demo.blocks.values() if getattr(b, "elem_id", None) == "preset")
    assert "dice-chars" in [c[0] if isinstance(c, (tuple, list)) else c for c in dropdown.choices]
    out = score_rouge(module, "\n".join(PREDS), "\n".join(" ||| ".join(r) for r in REFS), preset="dice-chars")
    assert list(out.summary.columns) == ["", "rouge1"]
    assert out.summary["rouge1"][0] == round(float(MEAN_F), 4)
    assert "preset:dice-chars" in out.signature


def _page_files() -> dict:
    """docs/presets.md's Python blocks as files: each block's first line names its file (``# my_presets.py``); a
    block whose first line says ``, continued`` is appended to the file."""
    page = (REPO / "docs" / "presets.md").read_text(encoding="utf-8")
    files: dict = {}
    for block in re.findall(r"```python\n(.*?)```", page, flags=re.S):
        m = re.match(r"# (\w+\.py)(, continued)?\b", block)
        assert m, f"a code block of docs/presets.md does not name its file: {block.splitlines()[0]!r}"
        assert bool(m.group(2)) == (m.group(1) in files), m.group(0)
        files[m.group(1)] = files.get(m.group(1), "") + block
    return files


def test_the_page_runs_as_written(tmp_path):
    files = _page_files()
    assert set(files) == {"my_presets.py", "score.py", "my_zheval.py"}
    for name, code in files.items():
        (tmp_path / name).write_text(code, encoding="utf-8")
    run = dict(cwd=tmp_path, capture_output=True, text=True, timeout=300)
    proc = subprocess.run([sys.executable, "score.py"], **run)
    assert proc.returncode == 0, proc.stderr[-3000:]
    res = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    # by hand (the item of the page is item 0 above): max over the references -> ref 0, F = 2*5/(6+7) = 10/13
    assert res["rouge1"] == pytest.approx(10 / 13, abs=1e-15) and str(res["rouge1"]).startswith("0.769")
    assert res["dice_rouge1"] == pytest.approx(1000 / 13, abs=1e-12)
    assert "|preset:dice-chars|metric:rouge|types:rouge1|multi:max|" in res["signature"]
    # the command of my_zheval.py's usage line, on one item
    usage = shlex.split(re.search(r"usage: (python my_zheval\.py .*)", files["my_zheval.py"]).group(1))
    (tmp_path / "REF.txt").write_text("猫趴在垫子上面。\n", encoding="utf-8")
    (tmp_path / "HYP.txt").write_text("猫坐在垫子上。\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, *usage[1:]], **run)  # as written: the table, 0-100
    assert proc.returncode == 0 and "76.9" in proc.stdout, proc.stdout + proc.stderr[-3000:]
    proc = subprocess.run([sys.executable, *usage[1:], "-f", "json", "--scale", "1", "-w", "15"], **run)
    assert proc.returncode == 0, proc.stderr[-3000:]
    system = json.loads(proc.stdout)["systems"][0]
    assert system["scores"] == {"rouge1": pytest.approx(10 / 13, abs=1e-14)}
    assert system["preset_scores"]["dice_rouge1"] == pytest.approx(1000 / 13, abs=1e-12)
