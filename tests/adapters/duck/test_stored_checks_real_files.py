"""Stored fields of real pipelines' files compared with the joined items without false refusals (break-it 25): an
unlabelled LLaMA-Factory test set (``label`` ``""``) has its ``prompt`` checked instead; a few-shot chat holds the
query in its last user turn; ``max_refs`` does not make a stored reference it cut "another split's"; a label with a
trailing line break is its reference under ``normalize="none"``. Each file in order (or joined by id) scores
sacrebleu's ``zh`` BLEU of the right pairing, computed here; the same file shuffled without ids is refused."""

from __future__ import annotations

import pytest

from helpers.cli import write_jsonl
from helpers.duck_sample import ITEMS, PREDS, refused, sample_bleu, sample_data
from zheval.adapters.duck import evaluate_predictions, load_duck

N = 8
SHUFFLED = [3, 0, 6, 1, 7, 2, 5, 4]
TEMPLATE = "<|im_start|>user\n{}<|im_end|>\n<|im_start|>assistant\n"
FEW_SHOT = [{"role": "system", "content": "你是一个乐于助人的助手。"}, {"role": "user", "content": "你好"},
            {"role": "assistant", "content": "你好！有什么可以帮你？"}]


def _score(data, path, **options) -> float:
    return evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=(), **options).score("bleu").value


def test_an_unlabelled_llamafactory_file_is_checked_by_its_prompt(tmp_path):
    data = sample_data(tmp_path, N)
    rows = [{"prompt": TEMPLATE.format(ITEMS[k]["query"]), "predict": PREDS[k], "label": ""} for k in range(N)]
    assert _score(data, write_jsonl(tmp_path / "in_order.jsonl", rows)) == pytest.approx(
        sample_bleu(PREDS[:N], N), abs=1e-12)
    shuffled = write_jsonl(tmp_path / "shuffled.jsonl", [rows[k] for k in SHUFFLED])
    assert "'prompt'" in refused(data, shuffled)


def test_a_few_shot_chat_holds_the_query_in_its_last_user_turn(tmp_path):
    data = sample_data(tmp_path, N)
    rows = [{"messages": FEW_SHOT + [{"role": "user", "content": ITEMS[k]["query"]}], "prediction": PREDS[k]}
            for k in range(N)]
    by_id = write_jsonl(tmp_path / "by_id.jsonl", [{"id": ITEMS[k]["id"], **rows[k]} for k in SHUFFLED])
    assert _score(data, by_id) == pytest.approx(sample_bleu(PREDS[:N], N), abs=1e-12)
    shuffled = write_jsonl(tmp_path / "shuffled.jsonl", [rows[k] for k in SHUFFLED])
    assert "'messages'" in refused(data, shuffled)


def test_max_refs_compares_the_stored_references_with_all_of_the_items(tmp_path):
    import sacrebleu

    data = sample_data(tmp_path, N)
    two = [[ITEMS[k]["responses"][j] for k in range(N)] for j in range(2)]
    want = sacrebleu.corpus_bleu(PREDS[:N], two, tokenize="zh").score / 100  # the first two references
    stored = write_jsonl(tmp_path / "stored.jsonl", [{"id": ITEMS[k]["id"], "responses": ITEMS[k]["responses"],
                                                      "prediction": PREDS[k]} for k in range(N)])
    assert _score(data, stored, max_refs=2) == pytest.approx(want, abs=1e-12)
    # LLaMA-Factory's label is the item's second reference; --max-refs 1 keeps the first only
    one = sacrebleu.corpus_bleu(PREDS[:N], two[:1], tokenize="zh").score / 100
    second = write_jsonl(tmp_path / "second.jsonl", [{"prompt": ITEMS[k]["query"], "predict": PREDS[k],
                                                      "label": ITEMS[k]["responses"][1]} for k in range(N)])
    assert _score(data, second, max_refs=1) == pytest.approx(one, abs=1e-12)


def test_a_label_with_a_trailing_line_break_is_its_reference_without_normalisation(tmp_path):
    data = sample_data(tmp_path, N)
    rows = [{"prompt": ITEMS[k]["query"], "predict": PREDS[k], "label": ITEMS[k]["responses"][0] + "\n"}
            for k in range(N)]
    path = write_jsonl(tmp_path / "in_order.jsonl", rows)
    assert _score(data, path, normalize="none") == pytest.approx(sample_bleu(PREDS[:N], N), abs=1e-12)
    assert "'label'" in refused(data, write_jsonl(tmp_path / "shuffled.jsonl", [rows[k] for k in SHUFFLED]))
