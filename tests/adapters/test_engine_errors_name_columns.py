"""An error about a row speaks the user's own column names (issue 35): the engine doors' driver reduction names
``column 'model_output'`` and ``gold[0]``, not the library's ``predictions[1]`` / ``references[1][0]``. Runs the
workers' record and the driver's reduction on pyarrow tables (no engine needed)."""

from __future__ import annotations

import pyarrow as pa
import pytest

from zheval.adapters.engine_batches import BatchRequest, batch_record, reduce_records
from zheval.compute.joint import score_config

ENGINE = "zheval.adapters.ray.score_dataset"


def _reduce(rows, id_column=None):
    request = BatchRequest(score_config(), "model_output", "gold", id_column=id_column)
    table = pa.Table.from_pylist(rows)
    return reduce_records([batch_record(table, request)], request, ENGINE)


def test_a_null_prediction_names_the_users_column():
    rows = [{"model_output": "猫坐在垫子上", "gold": ["猫趴在垫子上"]}, {"model_output": None, "gold": ["你好"]}]
    with pytest.raises(TypeError) as info:
        _reduce(rows)
    assert str(info.value) == f"{ENGINE}: row 1: column 'model_output' must be str, got None"


def test_an_empty_reference_list_names_the_users_column_and_the_id():
    rows = [{"k": "a", "model_output": "猫坐在垫子上", "gold": ["猫趴在垫子上"]},
            {"k": "b", "model_output": "你好", "gold": []}]
    with pytest.raises(ValueError) as info:
        _reduce(rows, id_column="k")
    message = str(info.value)
    assert message.startswith(f"{ENGINE}: row 1 (k 'b'): column 'gold' is an empty list"), message
    assert "references" not in message and "predictions" not in message
