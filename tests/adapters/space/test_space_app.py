"""The Space widget (zheval.adapters.space and metrics/*/app.py) on the installed gradio: input parsing, the scoring
functions on a two-line example against hand computations, the app objects built (not launched) from the repo
folders and from a copy named ``app`` (as a Space serves it from /home/user/app).

gradio comes with the ``space`` extra (``python3 dev.py test`` installs it); these tests do not skip without it.
"""

from __future__ import annotations

import math
import os
import runpy
import shutil
import sys
from fractions import Fraction as F

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402  (the space extra; a missing gradio is a failure, not a skip)

from zheval.adapters.space import (  # noqa: E402
    MAX_BOX_CHARS, MAX_ITEMS, MAX_LINE_CHARS, MAX_MESSAGE_CHARS, _message_html, build_demo, parse_inputs, score_bleu,
    score_chrf, score_rouge, space_app, widget_message,
)
from helpers import REPO

PREDS = "猫坐在垫子上\n今天天气很好\n"
REFS = "猫趴在垫子上面\n今天天气不错 ||| 天气很好\n\n"


def _f1(p: F, r: F) -> float:
    return float(2 * p * r / (p + r)) if p + r else 0.0


@pytest.fixture(scope="module")
def apps():
    """``{metric: namespace of its app.py}``, each run from the repository folder."""
    return {m: runpy.run_path(str(REPO / "metrics" / m / "app.py"), run_name="space_app_test")
            for m in ("chinese_rouge", "chinese_bleu")}


# --- parsing -------------------------------------------------------------------------------------------------------

def test_parse_lines_delimiter_and_trailing_blanks():
    preds, refs = parse_inputs(PREDS, REFS)
    assert preds == ["猫坐在垫子上", "今天天气很好"]
    assert refs == [["猫趴在垫子上面"], ["今天天气不错", "天气很好"]]
    # CRLF, spaces around the delimiter, a blank prediction inside (an empty prediction, scores 0)
    preds, refs = parse_inputs("a\r\n\r\nc", "x|||y\r\nz\r\nw")
    assert preds == ["a", "", "c"] and refs == [["x", "y"], ["z"], ["w"]]
    # one or two pipes inside a reference are text; exactly three separate
    assert parse_inputs("a", "x|y ||| u||v")[1] == [["x|y", "u||v"]]


def test_a_lone_cr_is_text_as_in_every_door():
    """A lone CR inside a line is text (the line rule of every file door, zheval.io.lines.split_lines); the boxes
    split a line there (issue 35, break-it 5 F19). Boxes whose lines all end in a lone CR are refused, as files are."""
    assert parse_inputs("a\rb\nc", "x\ny") == (["a\rb", "c"], [["x"], ["y"]])
    assert parse_inputs("a\nb", "x\ry|||z\nw") == (["a", "b"], [["x\ry", "z"], ["w"]])
    with pytest.raises(ValueError, match=r"the prediction lines end in CR \(\\r\) only .* read as one line instead of 2"):
        parse_inputs("a\rb\r", "x\ny")


@pytest.mark.parametrize(
    "preds, refs, message",
    [
        ("", "x", "no prediction"),
        ("a\nb", "x", "prediction line 2 has no reference line (2 prediction lines, 1 reference lines)"),
        ("a\nb\nc\nd", "x", "prediction line 2 has no reference line (4 prediction lines, 1 reference lines)"),
        ("a\nb", "x\n \ny", "reference line 3 has no prediction line (2 prediction lines, 3 reference lines)"),
        ("a\nb\nc", "x\n \ny", "reference line 2 is empty"),
        ("a\nb", "x\ny ||| ", "reference line 2: reference 2 is empty"),
        ("a\nb", "x\n|||y", "reference line 2: reference 1 is empty"),
        # x||||y: x and |y, or x| and y? (was read as [x, |y] without a word)
        ("a\nb", "z\nx||||y", "reference line 2: '||||' is 4 '|' characters in a row, longer than the separator"),
        ("a", "x|||||y", "reference line 1: '|||||' is 5 '|' characters in a row"),
        ("a", "x||||||y", "reference line 1: '||||||' is 6 '|' characters in a row"),
        ("a\n" * (MAX_ITEMS + 1), "x\n" * (MAX_ITEMS + 1),
         f"prediction line {MAX_ITEMS + 1}: the widget scores at most {MAX_ITEMS} lines"),
        ("a", "x\n" * (MAX_ITEMS + 5), f"reference line {MAX_ITEMS + 1}: the widget scores at most {MAX_ITEMS} lines"),
        ("a\n" + "长" * (MAX_LINE_CHARS + 1), "x\ny", f"prediction line 2 has {MAX_LINE_CHARS + 1:,} characters"),
        ("a\nb", "x\n" + "长" * 100_000, "reference line 2 has 100,000 characters"),
        ("a\nb", "x\ny ||| " + "长" * MAX_LINE_CHARS, f"reference line 2 has {MAX_LINE_CHARS + 6:,} characters"),
        (("长" * MAX_LINE_CHARS + "\n") * (MAX_BOX_CHARS // MAX_LINE_CHARS + 1), "x",
         f"prediction line {MAX_BOX_CHARS // MAX_LINE_CHARS + 1} brings the predictions to"),
    ],
)
def test_parse_errors_name_the_line(preds, refs, message):
    with pytest.raises(ValueError) as err:
        parse_inputs(preds, refs)
    assert message in str(err.value)


# --- scoring: the two-line example by hand ---------------------------------------------------------------------------
#
# Characters (default normalisation changes nothing here):
#   item 1: pred 猫坐在垫子上 (6), ref 猫趴在垫子上面 (7)
#     unigrams shared: 猫 在 垫 子 上 = 5                -> P 5/6, R 5/7
#     bigrams: pred 猫坐 坐在 在垫 垫子 子上 (5); ref 猫趴 趴在 在垫 垫子 子上 上面 (6); shared 在垫 垫子 子上 = 3
#     LCS: 猫在垫子上 = 5 (one sentence, so rougeLsum = rougeL)
#     3-grams: shared 在垫子 垫子上 = 2 of 4; 4-grams: shared 在垫子上 = 1 of 3
#   item 2: pred 今天天气很好 (6: 今 天 天 气 很 好), refs a = 今天天气不错 (6), b = 天气很好 (4)
#     vs a: unigrams 今 天 天 气 = 4 (P 4/6 R 4/6); bigrams 今天 天天 天气 = 3 of 5/5; LCS 今天天气 = 4
#     vs b: unigrams 天 气 很 好 = 4 (P 4/6 R 4/4); bigrams 天气 气很 很好 = 3 (P 3/5 R 3/3); LCS 天气很好 = 4
#     multi_ref "max" keeps the reference with the best F per type: b for all three.
#     BLEU clips against the larger count in any one reference: unigrams 6/6 (天 twice in a), bigrams 今天 天天 天气
#     (a) 气很 很好 (b) = 5/5, 3-grams 今天天 天天气 (a) 天气很 气很好 (b) = 4/4, 4-grams 今天天气 (a) 天气很好 (b) = 2/3
#     (天天气很 in neither); closest reference length to 6 is 6.

R1_ITEMS = [_f1(F(5, 6), F(5, 7)), _f1(F(4, 6), F(4, 4))]
R2_ITEMS = [_f1(F(3, 5), F(3, 6)), _f1(F(3, 5), F(3, 3))]
RL_ITEMS = [_f1(F(5, 6), F(5, 7)), _f1(F(4, 6), F(4, 4))]


def test_rouge_table_matches_hand_computation(apps):
    module = apps["chinese_rouge"]["module"]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    summary, items, signature, run = score_rouge(module, PREDS, REFS, "char", types, "max", "(none)")
    assert run == {"predictions": ["猫坐在垫子上", "今天天气很好"],
                   "references": [["猫趴在垫子上面"], ["今天天气不错", "天气很好"]],
                   "options": {"tokenizer": "char", "multi_ref": "max", "rouge_types": types}}
    assert R1_ITEMS == pytest.approx([10 / 13, 0.8]) and R2_ITEMS == pytest.approx([6 / 11, 0.75])  # sanity
    assert list(summary.columns) == ["", "rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert summary.iloc[0, 0] == "mean F"
    expected_mean = {"rouge1": sum(R1_ITEMS) / 2, "rouge2": sum(R2_ITEMS) / 2, "rougeL": sum(RL_ITEMS) / 2,
                     "rougeLsum": sum(RL_ITEMS) / 2}
    for col, value in expected_mean.items():
        assert summary[col].iloc[0] == pytest.approx(value, abs=5e-5)
    assert list(items.columns) == ["#", "prediction", "references", "rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert items["#"].tolist() == [1, 2]
    assert items["prediction"].tolist() == ["猫坐在垫子上", "今天天气很好"]
    assert items["references"].tolist() == ["猫趴在垫子上面", "今天天气不错 ||| 天气很好"]
    assert items["rouge1"].tolist() == pytest.approx(R1_ITEMS, abs=5e-5)
    assert items["rouge2"].tolist() == pytest.approx(R2_ITEMS, abs=5e-5)
    assert items["rougeL"].tolist() == pytest.approx(RL_ITEMS, abs=5e-5)
    assert items["rougeLsum"].tolist() == pytest.approx(RL_ITEMS, abs=5e-5)
    assert signature.startswith("nrefs:var|tok:zh-char|") and "|multi:max|" in signature

    # multi_ref="pool" (ROUGE-1.5.5 -f A) for item 2, rouge1: hits 4+4 over reference lengths 6+4 and 2x6 predicted
    _, items, signature, _ = score_rouge(module, PREDS, REFS, "char", ["rouge1"], "pool", "(none)")
    assert items["rouge1"].tolist() == pytest.approx([10 / 13, _f1(F(8, 12), F(8, 10))], abs=5e-5)
    assert "|multi:pool|" in signature


def test_bleu_table_matches_hand_computation(apps):
    module = apps["chinese_bleu"]["module"]
    summary, items, signature, run = score_bleu(module, PREDS, REFS, "char", "corpus", "exp", "closest", 4, "(none)")
    assert run["options"] == {"tokenizer": "char", "level": "corpus", "smooth_method": "exp",
                              "bp_ref_length": "closest", "max_order": 4}
    p = [F(5 + 6, 6 + 6), F(3 + 5, 5 + 5), F(2 + 4, 4 + 4), F(1 + 2, 3 + 3)]
    bp = math.exp(1 - 13 / 12)  # hypothesis 12 tokens, closest reference lengths 7 + 6 = 13
    bleu = bp * math.exp(sum(math.log(x) for x in p) / 4)
    assert list(summary.columns) == ["level", "BLEU", "P1", "P2", "P3", "P4", "BP", "ratio", "hyp_len", "ref_len"]
    row = summary.iloc[0]
    assert row["level"] == "corpus"
    assert row["BLEU"] == pytest.approx(bleu, abs=5e-5)
    assert [row[f"P{n}"] for n in range(1, 5)] == pytest.approx([float(x) for x in p], abs=5e-5)
    assert row["BP"] == pytest.approx(bp, abs=5e-5) and row["ratio"] == pytest.approx(12 / 13, abs=5e-5)
    assert (row["hyp_len"], row["ref_len"]) == (12, 13)
    # each item alone (sentence BLEU; no zero count, so smoothing plays no part)
    item1 = math.exp(1 - 7 / 6) * float(F(5, 6) * F(3, 5) * F(2, 4) * F(1, 3)) ** 0.25
    item2 = 1.0 * float(F(2, 3)) ** 0.25
    assert list(items.columns) == ["#", "prediction", "references", "sentence BLEU"]
    assert items["sentence BLEU"].tolist() == pytest.approx([item1, item2], abs=5e-5)
    assert signature.startswith("nrefs:var|tok:zh-char|") and "|level:corpus|order:4|smooth:exp|bp:closest|" in signature

    # max_order=2, no brevity penalty: sqrt(11/12 * 8/10)
    summary, _, signature, _ = score_bleu(module, PREDS, REFS, "char", "corpus", "exp", "none", 2, "(none)")
    assert summary.iloc[0]["BLEU"] == pytest.approx(math.sqrt(11 / 12 * 8 / 10), abs=5e-5)
    assert "P3" not in summary.columns and "|order:2|" in signature and "|bp:none|" in signature


def test_presets_reach_the_module(apps):
    _, _, sig, _ = score_rouge(apps["chinese_rouge"]["module"], PREDS, REFS, "char", None, "max", "llamafactory")
    assert "|preset:llamafactory|" in sig
    summary, _, sig, _ = score_bleu(apps["chinese_bleu"]["module"], PREDS, REFS, "char", "corpus", "exp", "closest", 4,
                                 "sacrebleu-zh")
    assert "|preset:sacrebleu-zh|" in sig and summary.iloc[0]["level"] == "corpus"


def _compute_fn(demo):
    fns = [f for f in demo.fns.values() if f.api_name == "compute"]
    assert len(fns) == 1
    return fns[0]


@pytest.mark.parametrize("metric", ["chinese_rouge", "chinese_bleu"])
def test_app_builds_without_launching_and_is_wired(apps, metric):
    ns = apps[metric]
    demo = ns["demo"]
    assert isinstance(demo, gr.Blocks) and ns["module"].name == metric
    fn = _compute_fn(demo)
    assert [c.elem_id for c in fn.inputs][:2] == ["predictions", "references"]
    assert [c.elem_id for c in fn.outputs][:4] == ["message", "summary", "per_item", "signature"]
    assert isinstance(fn.outputs[4], gr.State)
    # the registered function, with the components' default values, gives the same table as the scorer
    defaults = [c.value for c in fn.inputs[2:]]
    message, summary, items, signature, run, explained = fn.fn(PREDS, REFS, *defaults)
    assert summary["visible"] is True and items["visible"] is True
    assert explained.count('class="zheval-explain"') == 2 and 'class="zheval-match"' in explained
    summary, items = summary["value"], items["value"]
    first = summary.iloc[0]["rouge1" if metric == "chinese_rouge" else "BLEU"]
    assert first == pytest.approx(sum(R1_ITEMS) / 2 if metric == "chinese_rouge" else 0.66626, abs=5e-5)
    assert len(items) == 2 and signature.startswith("nrefs:var|tok:zh-char|")
    assert "zheval-ok" in message and "Scored 2 lines (3 references)." in message
    assert run["predictions"] == ["猫坐在垫子上", "今天天气很好"]
    # bad input: a message in the page naming the line, no exception into gradio, outputs cleared
    message, summary, items, signature, run, explained = fn.fn("a\nb", "x", *defaults)
    assert "zheval-error" in message and "prediction line 2 has no reference line" in message
    assert (signature, run, explained) == ("", None, "")
    assert summary == items == {"__type__": "update", "value": None, "visible": False}
    # the module's 0-based indices become the widget's lines (a reference that normalisation empties)
    message, *_ = fn.fn("a\nb", "x\ny ||| \u200b", *defaults)
    assert "reference line 2, reference 2 is empty after normalisation" in message, message
    assert "references[" not in message and "Indices of this compute() call" not in message
    # the card is shown without its YAML header
    assert not any("sdk_version" in str(getattr(b, "value", "")) for b in demo.blocks.values())


def test_an_unexpected_error_is_one_line_in_the_page_and_logged(apps, caplog):
    class Broken:
        name = "chinese_rouge"

        def compute(self, **kwargs):
            raise KeyError("bug")

    fn = _compute_fn(build_demo(Broken()))
    with caplog.at_level("ERROR", logger="zheval.adapters.space"):
        message, summary, items, signature, run, explained = fn.fn(PREDS, REFS, "char", ["rouge1"], "max", "(none)")
    assert "internal error (KeyError)" in message and "Traceback" not in message
    assert (signature, run, explained) == ("", None, "")
    assert summary == items == {"__type__": "update", "value": None, "visible": False}
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)


def test_message_quoting_input_is_escaped_and_cut():
    message = widget_message(ValueError("references[0][0] <b>x</b> " + "长" * 5000))
    assert message.startswith("reference line 1, reference 1 <b>")
    assert message.endswith(f"(message cut at {MAX_MESSAGE_CHARS} characters)")
    assert "&lt;b&gt;" in _message_html("error", message) and "<b>x" not in _message_html("error", message)
    assert widget_message(ValueError("predictions[9] is not a string")) == "prediction line 10 is not a string"


def test_app_runs_from_a_space_root_named_app(tmp_path, monkeypatch):
    """A Space serves its files from /home/user/app: app.py must not rely on the folder's name or the repo."""
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    for name in ("chinese_rouge.py", "README.md", "app.py"):
        shutil.copy(REPO / "metrics" / "chinese_rouge" / name, app_dir / name)
    # a marker in the copy shows that the script next to app.py was loaded, not the repository's
    with open(app_dir / "chinese_rouge.py", "a", encoding="utf-8") as f:
        f.write("\nSPACE_ROOT_MARKER = 'the app folder copy'\n")
    monkeypatch.chdir(app_dir)
    monkeypatch.setattr(sys, "path", [str(app_dir), *sys.path])
    ns = runpy.run_path("app.py", run_name="space_root_test")
    assert ns["module"].name == "chinese_rouge"
    assert sys.modules[type(ns["module"]).__module__].SPACE_ROOT_MARKER == "the app folder copy"
    _, summary, _, _, _, _ = _compute_fn(ns["demo"]).fn(PREDS, REFS, "char", ["rouge1"], "max", "(none)")
    assert summary["value"]["rouge1"].iloc[0] == pytest.approx(sum(R1_ITEMS) / 2, abs=5e-5)


def test_space_app_refuses_another_metric_or_a_missing_script(tmp_path):
    with pytest.raises(ValueError, match="chinese_rouge, chinese_bleu, chinese_chrf"):
        space_app(tmp_path / "app.py", "rouge")
    with pytest.raises(FileNotFoundError, match="chinese_bleu.py not found"):
        space_app(tmp_path / "app.py", "chinese_bleu")


def test_chrf_app_is_wired_and_equals_sacrebleu():
    from sacrebleu.metrics import CHRF

    ns = runpy.run_path(str(REPO / "metrics" / "chinese_chrf" / "app.py"), run_name="space_app_test")
    assert ns["module"].name == "chinese_chrf"
    fn = _compute_fn(ns["demo"])
    assert [c.elem_id for c in fn.inputs] == ["predictions", "references", "tokenizer", "word_order",
                                              "eps_smoothing", "level"]
    message, summary, items, signature, run, explained = fn.fn(PREDS, REFS, "char", 2, False, "corpus")
    assert "Scored 2 lines (3 references)." in message and signature.startswith("nrefs:var|tok:zh-char|")
    theirs = CHRF(word_order=2).corpus_score(["猫 坐 在 垫 子 上", "今 天 天 气 很 好"],
                                             [["猫 趴 在 垫 子 上 面", "今 天 天 气 不 错"], [None, "天 气 很 好"]]).score
    assert summary["value"]["chrF2++"].iloc[0] == pytest.approx(theirs / 100, abs=5e-5)
    assert list(summary["value"].columns)[:4] == ["level", "chrF2++", "P c1", "R c1"]
    _, items, _, _ = score_chrf(ns["module"], PREDS, REFS)
    assert items["sentence chrF"].tolist() == pytest.approx(
        [CHRF().sentence_score(h, r).score / 100 for h, r in
         [("猫坐在垫子上", ["猫趴在垫子上面"]), ("今天天气很好", ["今天天气不错", "天气很好"])]], abs=5e-5)
    assert explained.count('class="zheval-explain"') == 2 and "sentence chrF2++" in explained
    assert 'class="zheval-match"' in explained
    message, *_ = fn.fn("a\nb", "x\ny ||| \u200b", "char", 0, False, "corpus")
    assert "reference line 2, reference 2 is empty after normalisation" in message, message


@pytest.mark.parametrize("metric", ["chinese_rouge", "chinese_bleu"])
def test_input_slip_warnings_reach_the_page(apps, metric):
    # Traditional predictions against Simplified references: the library warns (ScriptMismatchWarning), and the
    # page shows that warning under the numbers, every time (not once per process), with the numbers kept
    import warnings

    import zheval

    hyp = ["今天天氣很好，我們去公園散步吧。", "這個軟件的內存不夠用，需要更新驅動程序。"]
    ref = ["今天天气很好，我们去公园散步吧。", "这个软件的内存不够用，需要更新驱动程序。"]
    preds, refs = "\n".join(hyp), "\n".join(ref)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zheval.compute_rouge(hyp, [[r] for r in ref])
    (lib,) = [str(w.message) for w in caught if issubclass(w.category, zheval.ZhevalWarning)]
    fn = _compute_fn(apps[metric]["demo"])
    defaults = [c.value for c in fn.inputs[2:]]
    for _ in range(2):
        message, summary, *_ = fn.fn(preds, refs, *defaults)
        assert summary["visible"] is True and "zheval-ok" in message
        assert message.count("zheval-warning") == 1 and "<strong>Warning:</strong>" in message
        assert _message_html("warning", lib).split("</strong> ", 1)[1] in message  # the library's own text
    message, *_ = fn.fn(PREDS, REFS, *defaults)  # Simplified on both sides: no warning
    assert "zheval-warning" not in message


def test_score_rouge_reads_a_string_as_a_comma_list(apps):
    # before: list("rougeL") made the types 'r', 'o', 'u', ... ("Unknown ROUGE type 'r'")
    module = apps["chinese_rouge"]["module"]
    summary, _, _, run = score_rouge(module, PREDS, REFS, "char", "rouge1,rougeL", "max", "(none)")
    assert run["options"]["rouge_types"] == ["rouge1", "rougeL"] and list(summary.columns) == ["", "rouge1", "rougeL"]
    with pytest.raises(ValueError, match=r"^rouge_types 'rouge1,,rougeL' has an empty entry \(entry 2\)$"):
        score_rouge(module, PREDS, REFS, "char", "rouge1,,rougeL", "max", "(none)")


def test_choosing_a_preset_ticks_its_own_rouge_types(apps):
    """Issue 35: the preset ``llamafactory`` with the default boxes (rougeLsum ticked) was refused ("computes rougeN
    and rougeL only") until the user unticked rougeLsum. Choosing a preset now ticks its own types and offers only
    those it computes (gradio's change event of the dropdown, its update applied to the CheckboxGroup); ``(none)``
    ticks the defaults again. The llamafactory numbers are rouge-chinese's on jieba words (LLaMA-Factory's recipe)."""
    from zheval.presets.rouge155 import ROUGE155_TYPES

    demo, module = apps["chinese_rouge"]["demo"], apps["chinese_rouge"]["module"]
    by_id = {b.elem_id: b for b in demo.blocks.values() if getattr(b, "elem_id", None)}
    preset, boxes = by_id["preset"], by_id["rouge_types"]
    (change,) = [f for f in demo.fns.values() if (preset._id, "change") in f.targets]
    assert list(change.inputs) == [preset] and list(change.outputs) == [boxes]
    compute = _compute_fn(demo)
    assert [c.elem_id for c in compute.inputs[2:]] == ["tokenizer", "rouge_types", "multi_ref", "preset"]
    everything = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
    for name, choices, ticked in (
            ("llamafactory", ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL"], ["rouge1", "rouge2", "rougeL"]),
            ("rouge155", everything, list(ROUGE155_TYPES)),
            ("(none)", everything, ["rouge1", "rouge2", "rougeL", "rougeLsum"])):
        update = change.fn(name)
        assert update["choices"] == choices and update["value"] == ticked, name
        shown = gr.CheckboxGroup(choices=update["choices"], value=update["value"])  # the boxes after the update
        assert shown.preprocess(shown.value) == ticked  # gradio accepts them (every ticked type is a choice)
        message, summary, *_, signature, run, _ = compute.fn(PREDS, REFS, "char", shown.value, "max", name)
        assert "zheval-ok" in message, message
        assert list(summary["value"].columns) == ["", *ticked]
        assert "overridden" not in signature  # the preset's own recipe
    # llamafactory, one line: LLaMA-Factory's rouge-chinese F on jieba words (rouge-chinese is a test extra; the
    # gradio-floor venv of .ci/extras-floor has gradio and the runtime only)
    import jieba

    Rouge = pytest.importorskip("rouge_chinese").Rouge
    message, summary, *_ = compute.fn("今天北京天气晴朗", "北京今天天气很好", "char",
                                      change.fn("llamafactory")["value"], "max", "llamafactory")
    hyp, ref = " ".join(jieba.cut("今天北京天气晴朗")), " ".join(jieba.cut("北京今天天气很好"))
    theirs = Rouge().get_scores(hyp, ref)[0]
    for t, key in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
        assert summary["value"][t].iloc[0] == pytest.approx(theirs[key]["f"], abs=5e-5), t
