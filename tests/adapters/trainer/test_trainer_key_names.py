"""The hook's result keys are named as ``evaluate.combine`` names them (break-it pass 18): a result key returned by
two metrics is prefixed with the metric name *before* its list is flattened, so adding chrF prefixes every order of
BLEU's and chrF's ``precisions`` (before: ``chinese_chrf_precisions_1..4`` and bare ``precisions_5``/``_6``, the
prefix decided on the flattened names). The reference is ``evaluate.combine`` over the repo's ``metrics/`` modules
on the same decoded texts, flattened here as docs/trainer.md step 7 says; docs/trainer.md's key list is checked too."""

from __future__ import annotations

import re

import evaluate
import numpy as np
import pytest

from helpers import REPO
from helpers.trainer_models import HOOK_PAIRS, make_tokenizer
from zheval.adapters.trainer import DROP_KEYS, build_compute_metrics
from zheval.adapters.trainer.hook import _merge_results

PAIRS = [HOOK_PAIRS[i] for i in (0, 1, 2, 4, 5)]
SETS = [["chinese_rouge", "chinese_bleu", "chinese_chrf"], ["chinese_bleu", "chinese_chrf"], ["chinese_bleu"]]


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer(extra_chars="".join(p + r for p, r in PAIRS))


@pytest.fixture(scope="module")
def modules():
    return {name: evaluate.load(str(REPO / "metrics" / name), keep_in_memory=True)
            for name in ("chinese_rouge", "chinese_bleu", "chinese_chrf")}


def encode(tok, texts, width=14):
    rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    return np.array([r + [-100] * (width - len(r)) for r in rows])


def combine_flat(merged: dict, names: list[str]) -> dict:
    """combine's merged result flattened as docs/trainer.md step 7 says: strings out, the raw counts out
    (``DROP_KEYS``, bare or behind a metric's prefix), a list of numbers → ``<key>_1``, ``<key>_2``, ..."""
    dropped = set(DROP_KEYS) | {f"{n}_{k}" for n in names for k in DROP_KEYS}
    out = {}
    for key, value in merged.items():
        if key in dropped or isinstance(value, str):
            continue
        if isinstance(value, list):
            out.update({f"{key}_{i}": float(v) for i, v in enumerate(value, 1)})
        else:
            out[key] = float(value)
    return out


@pytest.mark.parametrize("names", SETS, ids=["+".join(n.split("_")[1] for n in s) for s in SETS])
def test_keys_and_values_are_combines(tok, modules, names):
    preds, refs = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    hook = build_compute_metrics(tok, metrics=names)
    got = hook((encode(tok, preds), encode(tok, refs)))
    assert hook.predictions == preds and hook.references == refs
    combined = evaluate.combine([modules[n] for n in names])
    want = combine_flat(combined.compute(predictions=preds, references=refs), names)
    got.pop("empty_predictions", None)
    assert list(got) == list(want)  # the same names, in combine's order
    assert got == pytest.approx(want, rel=0, abs=0)
    # no bare key of one metric is a key of another: a bare name's result key belongs to one metric only
    for key in got:
        if not any(key.startswith(f"{n}_") for n in names):
            raw = key if any(key in hook.results[n] for n in names) else re.sub(r"_\d+$", "", key)
            owners = [n for n in names if raw in hook.results[n]]
            assert len(owners) == 1, (key, owners)


def test_chrf_added_keeps_every_order_under_one_name(tok):
    preds, refs = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    got = build_compute_metrics(tok, metrics=SETS[0], word_order=2)((encode(tok, preds), encode(tok, refs)))
    assert [k for k in got if "precisions" in k] == (
        [f"chinese_bleu_precisions_{i}" for i in range(1, 5)] + [f"chinese_chrf_precisions_{i}" for i in range(1, 9)])
    assert [k for k in got if "recalls" in k] == [f"recalls_{i}" for i in range(1, 9)]
    alone = build_compute_metrics(tok, metrics=["chinese_bleu"])((encode(tok, preds), encode(tok, refs)))
    assert [k for k in alone if "precisions" in k] == [f"precisions_{i}" for i in range(1, 5)]


def test_docs_key_list_is_the_hooks(tok):
    text = (REPO / "docs" / "trainer.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- trainer keys: rouge bleu chrf -->(.*?)<!-- end trainer keys -->", text, re.S).group(1)
    documented = re.findall(r"`([^`]+)`", block)
    preds, refs = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    got = build_compute_metrics(tok, metrics=SETS[0])((encode(tok, preds), encode(tok, refs)))
    got.pop("empty_predictions", None)
    assert documented == list(got)


def test_names_that_clash_only_once_flattened_keep_both_values():
    # combine keeps {"x_1": ...} and {"x": [...]} apart; flattened they would share "x_1"
    out = _merge_results({"a": {"x_1": 1.0, "y": 3.0}, "b": {"x": [2.0], "z": 4.0}})
    assert out == {"a_x_1": 1.0, "y": 3.0, "b_x_1": 2.0, "z": 4.0}
