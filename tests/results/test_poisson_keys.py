"""zheval.results.poisson.item_keys against the hash its docstring writes out, by hand: an id is keyed by its text
form under the CLI's id rule (issue 35: 7, numpy's int64 7 and "7" are one id, one key), and an id the rule refuses
is named, never hashed as something else."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from zheval.results.poisson import item_keys


def _by_hand(rid_text, pred: str, refs: list) -> int:
    """BLAKE2b-64 of repr(id text), 0x00, the prediction, then 0x01 and each reference (UTF-8), little-endian."""
    data = b"" if rid_text is None else repr(rid_text).encode("utf-8")
    data += b"\x00" + pred.encode("utf-8") + b"".join(b"\x01" + r.encode("utf-8") for r in refs)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def test_an_integer_id_is_keyed_by_its_decimal_text():
    preds, refs = ["今天天气很好", "我们去公园"], [["今天天气不错"], ["我们去公园吧", "去公园"]]
    want = [_by_hand("7", preds[0], refs[0]), _by_hand("12", preds[1], refs[1])]
    for ids in ([7, 12], ["7", "12"], np.array([7, 12], dtype=np.int64), [np.int32(7), np.uint8(12)]):
        assert item_keys(preds, refs, ids).tolist() == want, ids
    assert item_keys(preds, refs).tolist() == [_by_hand(None, p, r) for p, r in zip(preds, refs)]
    assert item_keys(preds, refs, ["x7", "12"]).tolist()[0] != want[0]


@pytest.mark.parametrize("bad", [None, True, 7.0, "", " 7"])
def test_an_id_the_rule_refuses_is_named(bad):
    with pytest.raises(ValueError, match=r"^item_keys: ids\[1\]: "):
        item_keys(["a", "b"], [["a"], ["b"]], ["ok", bad])
