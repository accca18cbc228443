"""Break-it pass (compare notes): equal scores from *different* outputs are not identical systems. The notes said
"a zero difference gets the smallest p", but two systems whose outputs differ while their scores tie (here B is A's
outputs in another item order, every item having the same references, so every corpus sum ties) get the test's
ordinary p -- sacrebleu's own PairedTest (``--paired-bs``, ``--paired-ar``) gives the very same p, far above
1/(N + 1). The notes speak only of systems whose outputs are identical line for line, where p = 1/(N + 1) holds."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run, write_jsonl

TEXTS = ["今天天气很好", "我们去公园散步吧", "好的马上处理", "请在订单页申请退货", "明天记得穿外套", "快递已到驿站",
         "我陪着你想聊聊吗", "天气转凉加件外套", "订单已经发货了", "谢谢您的耐心等待", "您好请问有什么可以帮您",
         "退款三天内到账"]
REFS = ["今天天气不错我们去公园", "请在订单页面申请退款"]


def _files(tmp_path):
    data = [{"id": f"q{k}", "query": "问", "responses": REFS, "domain": "售后支持", "difficulty": None}
            for k in range(len(TEXTS))]
    b_texts = TEXTS[1:] + TEXTS[:1]  # the same outputs, another order: every corpus sum (and mean) ties
    paths = {"data": write_jsonl(tmp_path / "data.jsonl", data)}
    for name, texts in (("a", TEXTS), ("b", b_texts), ("same", TEXTS)):
        paths[name] = write_jsonl(tmp_path / f"{name}.jsonl",
                                  [{"id": f"q{k}", "prediction": t} for k, t in enumerate(texts)])
    return paths, b_texts


def _sacrebleu(a, b, test, n, seed, monkeypatch):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    _, res = PairedTest([("A", a), ("B", b)], {"BLEU": BLEU(tokenize="zh")}, [[REFS[0]] * len(a), [REFS[1]] * len(a)],
                        test_type=test, n_samples=n)()
    return res["BLEU"][1].score, res["BLEU"][1].p_value


def _compare(paths: dict, other: str, flags: list) -> tuple:
    """``zheval compare`` of system ``a`` against ``paths[other]`` (BLEU, sacrebleu-zh, seed 12345, ``flags``' test):
    ``(the JSON report, its one comparison row)``."""
    res = run("compare", "-d", paths["data"], "-p", paths["a"], paths[other], "--metrics", "bleu", "--preset",
              "sacrebleu-zh", "--by", "none", "--seed", 12345, *flags, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    (row,) = rep["comparison"]
    return rep, row


@pytest.mark.parametrize("test, flags", [("bs", ["--bootstrap", 1000]), ("ar", ["--test", "ar", "--resamples", 2000])])
def test_equal_scores_from_different_outputs_get_no_identical_outputs_note(tmp_path, monkeypatch, test, flags):
    paths, b_texts = _files(tmp_path)
    rep, row = _compare(paths, "b", flags)
    assert row["delta"] == 0 and row["score_a"] == row["score_b"]
    score_b, p = _sacrebleu(TEXTS, b_texts, test, flags[-1], 12345, monkeypatch)
    assert row["score_b"] * 100 == pytest.approx(score_b, abs=1e-9)
    assert row["p_value"] == p and p > 0.3  # sacrebleu's p: far from its minimum 1/(N + 1)
    notes = " ".join(rep["notes"])
    assert "zero difference" not in notes
    assert not any(n.startswith("no difference:") for n in rep["notes"]), rep["notes"]
    pmin = 1 / (flags[-1] + 1)
    assert f"The +1 makes {pmin:.4f} the smallest possible p, which is what two systems whose outputs are identical " \
           "line for line get" in notes


@pytest.mark.parametrize("test, flags", [("bs", ["--bootstrap", 1000]), ("ar", ["--test", "ar", "--resamples", 2000])])
def test_identical_outputs_get_the_minimum_and_the_note(tmp_path, monkeypatch, test, flags):
    paths, _ = _files(tmp_path)
    rep, row = _compare(paths, "same", flags)
    _, p = _sacrebleu(TEXTS, TEXTS, test, flags[-1], 12345, monkeypatch)
    assert row["p_value"] == p == 1 / (flags[-1] + 1)
    said = [n for n in rep["notes"] if n.startswith("no difference:")]
    assert len(said) == 1 and "identical line for line" in said[0] and f"p = {p:.4f}" in said[0]


def test_the_library_says_the_same(tmp_path):
    from zheval.adapters.compare import compare_predictions
    from zheval.adapters.duck import load_duck

    paths, _ = _files(tmp_path)
    ds = load_duck(str(paths["data"]))
    a = [json.loads(x)["prediction"] for x in paths["a"].read_text(encoding="utf-8").splitlines()]
    b = a[1:] + a[:1]
    rep = compare_predictions(ds, a, b, metrics=["bleu", "rouge"], bootstrap=200)
    assert all(r["delta"] == 0 and r["p_value"] > 1 / 201 for r in rep.comparison)
    assert not any(n.startswith("no difference:") or "zero difference" in n for n in rep.notes)
    rep = compare_predictions(ds, a, list(a), metrics=["bleu"], bootstrap=200)
    assert [n for n in rep.notes if n.startswith("no difference:")]


def test_text_file_commands_say_it_of_identical_outputs_only(tmp_path, monkeypatch):
    """``zheval bleu REF -i A B`` (paired bootstrap): B's tie with A from other outputs gets sacrebleu's p and no
    note; a copy of A gets the note."""
    ref, a, b, c = (tmp_path / f"{n}.txt" for n in ("ref", "a", "b", "c"))
    ref.write_text("".join(REFS[0] + "\n" for _ in TEXTS), encoding="utf-8")
    b_texts = TEXTS[1:] + TEXTS[:1]
    for f, texts in ((a, TEXTS), (b, b_texts), (c, TEXTS)):
        f.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    res = run("bleu", ref, "-i", a, b, "--bootstrap", 1000, "-f", "json")
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.stdout)["paired"]
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    _, sb = PairedTest([("A", TEXTS), ("B", b_texts)], {"BLEU": BLEU(tokenize="zh")}, [[REFS[0]] * len(TEXTS)],
                       test_type="bs", n_samples=1000)()
    assert row["delta"] == 0 and row["p_value"] == sb["BLEU"][1].p_value > 0.3
    table = run("bleu", ref, "-i", a, b, "--bootstrap", 1000).stdout
    assert "no difference: " not in table, table
    table = run("bleu", ref, "-i", a, c, "--bootstrap", 1000).stdout
    assert "outputs identical line for line" in " ".join(table.split()), table
