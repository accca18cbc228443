"""Stored fields under other common names (break-it of the stored-field check): a shuffled predictions file without
ids that stored the question or references as ``question``/``answer``, the 小黄鸭 data's own ``responses``,
``input``/``target``, a CSV column ``Query``, or a ShareGPT ``conversations`` / OpenAI ``messages`` chat was scored
silently (BLEU 0.0052 instead of 0.3107 on the first 8 items of the bundled sample, lines shuffled
[3, 0, 6, 1, 7, 2, 5, 4]). Now these names are compared with the item as ``query`` and ``references`` are (a share
above 20% of mismatches refused, below it warned); the same file in line order, or joined by id, is scored with
sacrebleu's number (``zh`` tokens, every reference of each item), computed here. A field that may hold the model's
own output (``response``, ``output``) or something else (``"answer": 42``) is never refused."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from helpers.cli import write_jsonl
from zheval.adapters.duck import PredictionMismatchError, evaluate_predictions, load_duck

_SAMPLE = Path(__file__).resolve().parents[3] / "zheval" / "data"
ITEMS = [json.loads(ln) for ln in (_SAMPLE / "duck_sample.jsonl").read_text(encoding="utf-8").splitlines()]
PREDS = [json.loads(ln)["prediction"]
         for ln in (_SAMPLE / "duck_sample_predictions.jsonl").read_text(encoding="utf-8").splitlines()]
SHUFFLED = [3, 0, 6, 1, 7, 2, 5, 4]  # line j holds item SHUFFLED[j]'s prediction and stored fields
IN_ORDER = list(range(8))


def _bleu(order: list) -> float:
    """sacrebleu's corpus BLEU (``zh``) of line j's prediction (item ``order[j]``'s) against item j's references
    (what pairing by line order scores), as a fraction."""
    import sacrebleu

    refs = [ITEMS[k]["responses"] for k in range(len(order))]
    streams = [[r[j] if j < len(r) else None for r in refs] for j in range(max(map(len, refs)))]
    return sacrebleu.corpus_bleu([PREDS[k] for k in order], streams, tokenize="zh").score / 100


def _chat(k: int, turns: str) -> list:
    it = ITEMS[k]
    if turns == "sharegpt":
        return [{"from": "system", "value": "你是客服。"}, {"from": "human", "value": it["query"]},
                {"from": "gpt", "value": it["responses"][0]}]
    return [{"role": "user", "content": it["query"]}, {"role": "assistant", "content": it["responses"][0]}]


STORES = {  # name -> what line j stores beside item k's prediction
    "question+answer": lambda k: {"question": ITEMS[k]["query"], "answer": ITEMS[k]["responses"][0]},
    "question": lambda k: {"question": ITEMS[k]["query"]},
    "answer": lambda k: {"answer": ITEMS[k]["responses"][0]},
    "answers": lambda k: {"answers": ITEMS[k]["responses"][:2]},
    "responses": lambda k: {"responses": ITEMS[k]["responses"]},
    "input+target": lambda k: {"input": ITEMS[k]["query"], "target": ITEMS[k]["responses"][1]},
    "target": lambda k: {"target": ITEMS[k]["responses"][-1]},
    "gold": lambda k: {"gold": ITEMS[k]["responses"][0]},
    "ground_truth": lambda k: {"ground_truth": ITEMS[k]["responses"]},
    "Query": lambda k: {"Query": ITEMS[k]["query"]},
    "conversations": lambda k: {"conversations": _chat(k, "sharegpt")},
    "messages": lambda k: {"messages": _chat(k, "openai")},
}


def _rows(order: list, store: str, ids: bool = False) -> list:
    rows = []
    for k in order:
        row = {"id": ITEMS[k]["id"]} if ids else {}
        row.update(STORES[store](k))
        row["prediction"] = PREDS[k]
        rows.append(row)
    return rows


def _data(tmp_path):
    return write_jsonl(tmp_path / "data8.jsonl", ITEMS[:8])


def test_the_first_eight_items_differ_in_query_and_references():
    # what the refusals rely on: no item's query is in another's, no reference is another item's
    for a in range(8):
        for b in range(8):
            if a != b:
                assert ITEMS[a]["query"] not in ITEMS[b]["query"]
                assert not set(ITEMS[a]["responses"]) & set(ITEMS[b]["responses"])
    assert _bleu(SHUFFLED) < 0.01 < 0.3 < _bleu(IN_ORDER)  # what the shuffled file scored silently


@pytest.mark.parametrize("store", sorted(STORES))
def test_a_common_name_is_compared_shuffled_refused_in_order_or_by_id_scored(tmp_path, store):
    data = load_duck(_data(tmp_path))
    p = write_jsonl(tmp_path / "p.jsonl", _rows(SHUFFLED, store))
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(data, str(p), bootstrap=0, by=())
    msg = str(err.value)
    fields = store.split("+")  # either one named (references are checked first)
    assert any(repr(f) in msg for f in fields) and "line order" in msg and f"{p}:1" in msg, msg
    for name, rows in (("order", _rows(IN_ORDER, store)), ("ids", _rows(SHUFFLED, store, ids=True))):
        rep = evaluate_predictions(data, str(write_jsonl(tmp_path / f"{name}.jsonl", rows)), bootstrap=0, by=())
        assert rep.score("bleu").value == pytest.approx(_bleu(IN_ORDER), abs=1e-12)
        assert not [w for w in rep.warnings if "not their item's" in w or "not among" in w], rep.warnings


def test_one_of_eight_disagreeing_is_warned_not_refused(tmp_path):
    rows = _rows(IN_ORDER, "question+answer")
    rows[5]["question"] = ITEMS[6]["query"]
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    rep = evaluate_predictions(load_duck(_data(tmp_path)), str(p), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu(IN_ORDER), abs=1e-12)
    (w,) = [w for w in rep.warnings if "'question'" in w]
    assert "1 of 8 prediction line(s) store a 'question'" in w and f"{p}:6" in w, w


def test_a_query_column_of_a_csv_named_in_capitals_is_compared(tmp_path):
    def write(name, order):
        path = tmp_path / name
        with path.open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["Query", "prediction"])
            w.writerows([ITEMS[k]["query"], PREDS[k]] for k in order)
        return path

    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(_data(tmp_path)), str(write("s.csv", SHUFFLED)), bootstrap=0, by=())
    assert "'Query'" in str(err.value)
    rep = evaluate_predictions(load_duck(_data(tmp_path)), str(write("o.csv", IN_ORDER)), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu(IN_ORDER), abs=1e-12)


@pytest.mark.parametrize("extra", [
    lambda k, j: {"response": PREDS[k] + "（原始）", "output": "模型：" + PREDS[k]},  # the model's own output
    lambda k, j: {"answer": "模型：" + PREDS[k], "target": "另一个数据集的参考"},  # no item's references
    lambda k, j: {"answer": 42, "answers": {"text": ["x"], "answer_start": [0]}},  # not text: not read
    lambda k, j: {"input": [101, 2345, 102], "target": None},  # token ids, a null target
    lambda k, j: {"Query": "x", "QUERY": "y"},  # two case variants: ambiguous, not read
    lambda k, j: {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]},  # parts: not read
], ids=["model-output", "own-answer", "not-text", "token-ids", "two-cases", "content-parts"])
def test_fields_that_are_not_the_items_are_never_refused(tmp_path, extra):
    # a shuffled file storing such fields is scored (as line order pairs it: sacrebleu's number of that pairing)
    rows = [{**extra(k, j), "prediction": PREDS[k]} for j, k in enumerate(SHUFFLED)]
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    rep = evaluate_predictions(load_duck(_data(tmp_path)), str(p), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu(SHUFFLED), abs=1e-12)
    assert not [w for w in rep.warnings if "not their item's" in w or "not among" in w], rep.warnings


def test_an_answer_beside_predict_is_compared_and_the_prediction_is_not(tmp_path):
    # LLaMA-Factory's "predict" beside an "answer" that is the item's reference: the prediction itself is never
    # read as a stored reference (PREDICTION_FIELDS), the answer is
    rows = [{"predict": PREDS[k], "answer": ITEMS[k]["responses"][0]} for k in IN_ORDER]
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    rep = evaluate_predictions(load_duck(_data(tmp_path)), str(p), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu(IN_ORDER), abs=1e-12)
    rows = [{"predict": PREDS[k], "answer": ITEMS[k]["responses"][0]} for k in SHUFFLED]
    with pytest.raises(PredictionMismatchError):
        evaluate_predictions(load_duck(_data(tmp_path)), str(write_jsonl(tmp_path / "s.jsonl", rows)), bootstrap=0,
                             by=())
