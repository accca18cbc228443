"""A predictions file whose ids sit under ' id' or 'ID' is refused naming the field and the way out (issue 35
break-it): it was read as a file without ids and paired with the items by line order -- a shuffled file then scored
BLEU 0.020 instead of 0.354, with only a note."""

from __future__ import annotations

import json
import re

import pytest

from zheval.adapters.duck.predictions import read_predictions


@pytest.mark.parametrize("key", [" id", "ID", "Id "])
def test_an_id_field_under_another_spelling_is_refused(tmp_path, key):
    path = tmp_path / "preds.jsonl"
    path.write_text("".join(json.dumps({key: f"q{i}", "prediction": "好的"}) + "\n" for i in range(3)),
                    encoding="utf-8")
    tail = f"name it with read_records(FILE, id_field={key!r}, with_references=False) and predictions_from_records"
    with pytest.raises(ValueError, match=rf"preds\.jsonl:1: the field {key!r} is not 'id'.*{re.escape(tail)}\n"):
        read_predictions(path)  # the library's words (the command line says --id-field)


def test_a_file_with_id_and_another_id_like_field_is_read_by_id(tmp_path):
    path = tmp_path / "preds.jsonl"
    path.write_text("".join(json.dumps({"id": f"q{i}", "ID": i, "prediction": "好的"}) + "\n" for i in range(3)),
                    encoding="utf-8")
    assert read_predictions(path).ids == ["q0", "q1", "q2"]
