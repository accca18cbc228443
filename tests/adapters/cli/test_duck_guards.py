"""Guards against user slips on the 小黄鸭 path: the module options on the command line (--t2s, --normalize,
--punct, --preset) give the library's numbers; Traditional vs Simplified and -t none on unsegmented Chinese warn;
a LLaMA-Factory file whose labels mostly match no reference (reversed, other split) is refused above
LABEL_MISMATCH_MAX_FRACTION, and warned about below it. Expected values: the library called directly, sacrebleu for
the sacrebleu-zh preset, and the label rule written out in the test."""

from __future__ import annotations

import csv
import json

import pytest

from helpers import read_jsonl
from helpers.cli import run_cli as run, twin, write_jsonl
from zheval.adapters.duck.predictions import LABEL_MISMATCH_MAX_FRACTION
from zheval.compute.bleu import compute_bleu
from zheval.text.normalize import normalize
from zheval.compute.rouge import compute_rouge

TYPES = ["rouge1", "rouge2", "rougeL"]


@pytest.fixture(scope="module")
def groups(tmp_path_factory):
    rows = read_jsonl("crosswoz_same_query_groups.jsonl")
    d = tmp_path_factory.mktemp("guards")
    data = write_jsonl(d / "duck.jsonl", [{**r, "responses": r["responses"][1:]} for r in rows])
    preds = [r["responses"][0] for r in rows]
    refs = [r["responses"][1:] for r in rows]
    pred = write_jsonl(d / "pred.jsonl", [{"id": r["id"], "prediction": p} for r, p in zip(rows, preds)])
    return d, rows, data, pred, preds, refs


def _json(res):
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _overall(rep):
    return {k: v["value"] for k, v in rep["groups"][0]["scores"].items()}


def _expected(preds, refs, **opts):
    b = compute_bleu(preds, refs, **opts)["bleu"]
    r = compute_rouge(preds, refs, rouge_types=TYPES, **opts)
    return {"bleu": b, **{t: r[t] for t in TYPES}}


# ---- module options on the command line -------------------------------------------------------------------------


def test_t2s_option_and_the_traditional_warning(groups):
    import opencc

    d, rows, data, _, preds, refs = groups
    s2t = opencc.OpenCC("s2t")
    trad = [s2t.convert(p) for p in preds]
    assert sum(a != b for a, b in zip("".join(trad), "".join(preds))) > 50  # really Traditional
    p = write_jsonl(d / "trad.jsonl", [{"id": r["id"], "prediction": t} for r, t in zip(rows, trad)])
    base = ("score", "-d", data, "-p", p, "-q", "--bootstrap", 0, "--by", "none", "-f", "json")
    plain = _json(run(*base))
    assert _overall(plain) == _expected(trad, refs)
    assert any("look like Traditional Chinese" in w and "--t2s" in w for w in plain["warnings"])
    conv = _json(run(*base, "--t2s"))
    assert _overall(conv) == _expected(trad, refs, t2s=True)
    assert _overall(conv)["bleu"] > _overall(plain)["bleu"]
    assert "t2s" in conv["signatures"]["bleu"] and not any("Traditional" in w for w in conv["warnings"])
    same = _json(run("score", "-d", data, "-p", groups[3], "-q", "--bootstrap", 0, "--by", "none", "-f", "json"))
    assert not any("Traditional" in w for w in same["warnings"])  # Simplified vs Simplified: no warning


@pytest.mark.parametrize("args, opts", [
    (["--normalize", "none"], {"normalize": "none"}),
    (["--normalize", "nfkc+space"], {"normalize": "nfkc+space"}),
    (["--punct", "drop"], {"punct": "drop"}),
    (["--punct", "drop", "-t", "jieba"], {"punct": "drop", "tokenizer": "jieba"}),
])
def test_normalize_and_punct_options_give_the_library_numbers(groups, args, opts):
    d, rows, data, pred, preds, refs = groups
    rep = _json(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--by", "none", "-f", "json", *args))
    assert _overall(rep) == _expected(preds, refs, **opts)
    assert rep["signatures"]["bleu"] == compute_bleu(preds, refs, **opts)["signature"]


def test_bad_option_values_exit_2(groups):
    d, rows, data, pred, *_ = groups
    for args, needle in ((["--punct", "strip"], "unknown --punct mode 'strip'"),
                         (["--normalize", "nfkd"], "nfkd"),
                         (["-t", "sacrebleu-zh", "--t2s", "--metrics", "bleu"], "takes no options")):
        res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, *args)
        assert res.exit_code == 2 and needle in res.stderr, (args, res.output)


def test_sacrebleu_zh_preset_equals_sacrebleu_and_needs_bleu_only(groups):
    import sacrebleu

    d, rows, data, pred, preds, refs = groups
    rep = _json(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--by", "none", "-f", "json",
                    "--preset", "sacrebleu-zh", "--metrics", "bleu"))
    streams = [[x[k] if k < len(x) else None for x in refs] for k in range(max(map(len, refs)))]
    expected = sacrebleu.corpus_bleu(preds, streams, tokenize="zh").score / 100
    assert rep["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(expected, abs=1e-12)
    assert "tok:sacrebleu-zh" in rep["signatures"]["bleu"]
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--preset", "sacrebleu-zh")
    assert res.exit_code == 2 and "--preset sacrebleu-zh is a BLEU preset" in res.stderr and "--metrics bleu" in res.stderr
    for preset, needle in (("llamafactory", "compute_bleu/compute_rouge(..., preset='llamafactory')"),
                           ("rouge155", "compute_rouge(..., preset='rouge155')"),
                           ("bogus", "unknown --preset 'bogus'; valid here: sacrebleu-zh")):
        res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--preset", preset)
        assert res.exit_code == 2 and needle in res.stderr, res.output
    res = run("ceiling", "-d", data, "-q", "--bootstrap", 0, "--preset", "llamafactory")
    assert res.exit_code == 2 and "cannot reproduce them" in res.stderr


def test_tokenizer_none_on_unsegmented_chinese_warns(groups):
    d, rows, data, pred, preds, refs = groups
    rep = _json(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--by", "none", "-f", "json", "-t", "none"))
    assert any("--tokenizer none splits on whitespace only" in w for w in rep["warnings"])  # as typed
    assert _overall(rep)["bleu"] == compute_bleu(preds, refs, tokenizer="none")["bleu"]
    # pre-segmented text (words separated by spaces) is what -t none is for: no warning
    import jieba

    seg = lambda t: " ".join(jieba.lcut(t))  # noqa: E731
    sdata = write_jsonl(d / "seg.jsonl", [{**r, "responses": [seg(x) for x in r["responses"][1:]]} for r in rows])
    spred = write_jsonl(d / "seg_pred.jsonl", [{"id": r["id"], "prediction": seg(p)} for r, p in zip(rows, preds)])
    rep = _json(run("score", "-d", sdata, "-p", spred, "-q", "--bootstrap", 0, "--by", "none", "-f", "json", "-t", "none"))
    assert not any("splits on whitespace only" in w for w in rep["warnings"])


def test_ceiling_warns_of_a_tokenizer_that_does_not_split_chinese(groups):
    # zheval ceiling scores each held-out reference as a prediction: the same slip gives the same wrong number there
    d, rows, data, pred, preds, refs = groups
    rep = _json(run("ceiling", "-d", data, "-q", "--bootstrap", 0, "--by", "none", "-f", "json", "-t", "none"))
    assert any("--tokenizer none splits on whitespace only" in w for w in rep["warnings"]), rep["warnings"]
    rep = _json(run("ceiling", "-d", data, "-q", "--bootstrap", 0, "--by", "none", "-f", "json"))
    assert not any("splits on whitespace only" in w for w in rep["warnings"])


# ---- LLaMA-Factory labels ---------------------------------------------------------------------------------------


def _lf(path, rows, order, labels=None):
    """generated_predictions.jsonl as LLaMA-Factory writes it: predict = responses[0], label = responses[1]."""
    out = []
    for k, i in enumerate(order):
        r = rows[i]
        out.append({"prompt": r["query"], "predict": r["responses"][0],
                    "label": labels[k] if labels else r["responses"][1]})
    return write_jsonl(path, out)


def _mismatches(rows, order, labels=None):
    # the rule, written out: item k's label (normalised) is none of item k's references (normalised)
    n = []
    for k, i in enumerate(order):
        label = labels[k] if labels else rows[i]["responses"][1]
        if normalize(label) not in {normalize(x) for x in rows[k]["responses"][1:]}:
            n.append(k)
    return n


def test_reversed_llamafactory_file_is_refused(groups):
    d, rows, data, *_ = groups
    order = list(reversed(range(len(rows))))
    lf = _lf(d / "reversed.jsonl", rows, order)
    bad = _mismatches(rows, order)
    assert len(bad) > LABEL_MISMATCH_MAX_FRACTION * len(rows)  # 81 of 85 on this data
    res = run("score", "-d", data, "-p", lf, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    assert f"{len(bad)} of {len(rows)} items have a LLaMA-Factory 'label' that is none of the item's references" in res.stderr
    assert "more than 20%" in res.stderr
    first = bad[0]
    assert f"{lf}:{first + 1}: item {rows[first]['id']!r}: label" in res.stderr
    assert "--label-check warn" in res.stderr
    res = run("compare", "-d", data, "-p", lf, twin(lf), "-q", "--bootstrap", 10)
    assert res.exit_code == 2 and "LLaMA-Factory 'label'" in res.stderr
    # --label-check warn: scored (against the wrong references, as asked) with the count in the warnings
    rep = _json(run("score", "-d", data, "-p", lf, "-q", "--bootstrap", 0, "-f", "json", "--label-check", "warn"))
    assert any(w.startswith(f"{len(bad)} of {len(rows)} item(s) have a LLaMA-Factory 'label'") for w in rep["warnings"])
    rep = _json(run("score", "-d", data, "-p", lf, "-q", "--bootstrap", 0, "-f", "json", "--label-check", "off"))
    assert not any("LLaMA-Factory" in w for w in rep["warnings"])


def test_one_mismatch_is_a_warning_with_the_count_and_line(groups):
    d, rows, data, pred, preds, refs = groups
    order = list(range(len(rows)))
    labels = [r["responses"][1] for r in rows]
    labels[6] = "这条标签不是任何一条参考回复。"
    lf = _lf(d / "one_off.jsonl", rows, order, labels)
    assert _mismatches(rows, order, labels) == [6]
    rep = _json(run("score", "-d", data, "-p", lf, "-q", "--bootstrap", 0, "--by", "none", "-f", "json"))
    w = [x for x in rep["warnings"] if "LLaMA-Factory" in x]
    assert len(w) == 1 and w[0].startswith(f"1 of {len(rows)} item(s)") and f"{rows[6]['id']} ({lf}:7)" in w[0]
    assert _overall(rep) == _expected(preds, refs)  # in dataset order, scored as usual


def test_threshold_boundary(tmp_path):
    """20% exactly is still a warning; one more is an error (5 items: 1 mismatch ok, 2 refused)."""
    from zheval.adapters.duck.load import load_duck

    rows = [{"id": f"q{i}", "query": "q", "responses": [f"参考回复{i}甲。", f"参考回复{i}乙。"], "domain": None,
             "difficulty": None} for i in range(5)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    for k, code in ((1, 0), (2, 2)):
        labels = ["别的" if i < k else r["responses"][0] for i, r in enumerate(rows)]
        lf = write_jsonl(tmp_path / f"lf{k}.jsonl", [{"prompt": "q", "predict": "好的。", "label": lb} for lb in labels])
        res = run("score", "-d", data, "-p", lf, "-q", "--bootstrap", 0)
        assert res.exit_code == code, res.output
    assert len(load_duck(data)) == 5


def test_a_stored_label_is_checked_whatever_the_prediction_field_is_called(groups):
    """A stored ``label`` is compared with the item's references beside ``predict`` and beside ``prediction`` alike,
    in JSONL and CSV (issue 35 F3: beside ``prediction`` a label of other items scored silently, exit 0);
    ``--label-check off`` skips it (the numbers are then the base run's)."""
    d, rows, data, pred, preds, _ = groups
    n = len(rows)
    base = _json(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "-f", "json"))
    for field in ("prediction", "predict"):
        jl = write_jsonl(d / f"class_{field}.jsonl", [{"id": r["id"], field: p, "label": "positive"}
                                                      for r, p in zip(rows, preds)])
        csv_path = d / f"class_{field}.csv"
        with open(csv_path, "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows([["id", field, "label"]] + [[r["id"], p, "positive"] for r, p in zip(rows, preds)])
        for path in (jl, csv_path):
            res = run("score", "-d", data, "-p", path, "-q", "--bootstrap", 0, "-f", "json")
            assert res.exit_code == 2, (field, path, res.output)  # "positive" is none of any item's references
            assert f"{n} of {n} items have a LLaMA-Factory 'label' that is none of the item's references" in res.stderr
            assert f"{path}:" in res.stderr
            rep = _json(run("score", "-d", data, "-p", path, "-q", "--bootstrap", 0, "-f", "json",
                            "--label-check", "off"))
            assert _overall(rep) == _overall(base)
