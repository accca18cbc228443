"""What the metric modules take and store (metrics/chinese_rouge, metrics/chinese_bleu through evaluate): string and
list references mixed in one call and across add / add_batch, options given to evaluate.load (refused) and
evaluate's own arguments (kept), zero items, and the storage path: store_canonical writes what evaluate's own
add_batch writes (same Arrow data), compute(predictions=..., references=...) skips the Arrow round trip with the same
result, and the modules' numbers equal the library calls on real CrossWOZ data. Expected values are hand
computations written out here (character tokens, clipped counts) or the library called directly, never our own
output."""

from __future__ import annotations

import math
from pathlib import Path

import evaluate
import pytest

from helpers import METRICS, crosswoz_items
from zheval.adapters.evaluate_module import canonical_inputs, store_canonical
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

# "猫坐在垫子上" (6 characters) against "猫趴在垫子上面" (7): common unigrams 猫 在 垫 子 上 = 5, so
# rouge1 F = 2 * 5 / (6 + 7) = 10/13.
CAT_P, CAT_R, CAT_ROUGE1 = "猫坐在垫子上", "猫趴在垫子上面", 10 / 13
# "我爱北京天安门" (7) against "我爱北京的天安门" (8): clipped matches 7/7, 5/6, 3/5, 1/4 (product 1/8), brevity
# penalty exp(1 - 8/7).
BJ_P, BJ_R = "我爱北京天安门", "我爱北京的天安门"
BJ_BLEU = math.exp(1 - 8 / 7) * (1 / 8) ** 0.25


def _load(name, **kw):
    return evaluate.load(str(METRICS / name), **kw)


@pytest.fixture(params=[False, True], ids=["on-disk", "in-memory"])
def keep_in_memory(request):
    return request.param


# ---- string and list references mix freely (items, add / add_batch calls) --------------------------------------


@pytest.mark.parametrize(
    "references",
    [
        [["今天天气很好", "x"], "猫坐在垫子上"],  # list first: the string used to be scored against a wrong form
        ["今天天气很好", ["猫坐在垫子上", "y"]],  # string first: the list used to become its Python repr
    ],
)
def test_rouge_mixed_reference_forms_in_one_call(references):
    # each prediction is identical to one of its references: F = 1 for both items
    out = _load("chinese_rouge").compute(
        predictions=["今天天气很好", "猫坐在垫子上"], references=references, use_aggregator=False, rouge_types=["rouge1"]
    )
    assert out["rouge1"] == [1.0, 1.0]


@pytest.mark.parametrize(
    "references", [[["今天天气很好", "x"], "猫坐在垫子上了"], ["今天天气很好", ["猫坐在垫子上了", "y"]]]
)
def test_bleu_mixed_reference_forms_in_one_call(references):
    # both predictions equal a reference (6 + 7 characters): every n-gram matches, no brevity penalty: BLEU = 1
    out = _load("chinese_bleu").compute(predictions=["今天天气很好", "猫坐在垫子上了"], references=references)
    assert out["bleu"] == 1.0
    assert out["counts"] == [13, 11, 9, 7] and out["totals"] == [13, 11, 9, 7]
    assert out["reference_length"] == 13


def test_mixed_forms_across_add_batch_and_add(keep_in_memory):
    r = _load("chinese_rouge", keep_in_memory=keep_in_memory)
    r.add_batch(predictions=[CAT_P], references=[[CAT_R, "狗"]])
    r.add_batch(predictions=[CAT_P], references=[CAT_R])  # used to raise "Got a string but expected a list"
    r.add(prediction=CAT_P, reference=CAT_R)
    r.add(prediction=CAT_P, reference=[CAT_R])
    out = r.compute(rouge_types=["rouge1"], use_aggregator=False)
    # "狗" shares nothing with the prediction, so the max over references is the CAT_R value for every item
    assert out["rouge1"] == pytest.approx([CAT_ROUGE1] * 4, abs=1e-12)

    b = _load("chinese_bleu", keep_in_memory=keep_in_memory)
    b.add(prediction=BJ_P, reference=BJ_R)
    b.add_batch(predictions=[BJ_P], references=[[BJ_R]])
    out = b.compute()
    # two copies of one item: the summed counts are doubled, the ratios (and BLEU) unchanged
    assert out["counts"] == [14, 10, 6, 2] and out["totals"] == [14, 12, 10, 8]
    assert out["bleu"] == pytest.approx(BJ_BLEU, abs=1e-12)


# ---- options given to evaluate.load are refused, evaluate's own arguments still work ------------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_load_options_are_refused(name):
    with pytest.raises(TypeError, match=r"\['tokenizer'\].*compute\(\)"):
        _load(name, tokenizer="jieba")
    with pytest.raises(TypeError, match=r"\['max_order', 'rouge_types'\]"):
        _load(name, rouge_types=["rouge1"], max_order=2)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_evaluate_own_load_arguments_are_kept(name, tmp_path):
    m = _load(
        name,
        config_name="cfg",
        experiment_id="exp-1",
        cache_dir=str(tmp_path),
        keep_in_memory=False,
        num_process=1,
        process_id=0,
        seed=7,
        max_concurrent_cache_files=5,
        timeout=10,
    )
    assert m.config_name == "cfg" and m.experiment_id == "exp-1" and m.seed == 7 and m.timeout == 10
    assert str(tmp_path) in m.data_dir
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    out = m.compute(predictions=[p], references=[r])
    assert (out["rouge1"] if name == "chinese_rouge" else out["bleu"]) == pytest.approx(
        CAT_ROUGE1 if name == "chinese_rouge" else BJ_BLEU, abs=1e-12
    )


# ---- zero items ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_zero_items_is_a_clear_value_error(name, keep_in_memory):
    m = _load(name, keep_in_memory=keep_in_memory)
    with pytest.raises(ValueError, match="no items"):
        m.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="no items"):
        m.add_batch(predictions=[], references=[])
    with pytest.raises(ValueError, match="no items"):
        m.compute()
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    assert m.compute(predictions=[p], references=[r])  # still usable


# ---- storage: what add_batch writes, compute with all the data, the library's numbers ---------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
@pytest.mark.parametrize("keep_in_memory", [False, True])
def test_store_canonical_writes_what_evaluate_add_batch_writes(name, keep_in_memory, crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:300])
    mixed = [r[0] if k % 3 == 0 else r for k, r in enumerate(refs)]
    p, r = canonical_inputs(preds, mixed)
    ours = evaluate.load(str(METRICS / name), keep_in_memory=keep_in_memory, experiment_id="ours")
    theirs = evaluate.load(str(METRICS / name), keep_in_memory=keep_in_memory, experiment_id="theirs")
    store_canonical(ours, p[:100], r[:100])
    store_canonical(ours, p[100:], r[100:])
    evaluate.Metric.add_batch(theirs, predictions=p[:100], references=r[:100])
    evaluate.Metric.add_batch(theirs, predictions=p[100:], references=r[100:])
    assert len(ours) == len(theirs) == len(preds)
    assert ours.selected_feature_format == theirs.selected_feature_format
    ours._finalize()
    theirs._finalize()
    assert ours.data.data.table.equals(theirs.data.data.table)
    assert ours.data["references"][:] == r and ours.data["predictions"][:] == p
    for m in (ours, theirs):  # release the files / locks as evaluate does after a computation
        for lock, path in zip(m.filelocks or [], m.file_paths or []):
            m.data = None
            Path(path).unlink()
            lock.release()


def test_modules_equal_library_calls_on_crosswoz(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:400])
    mixed = [r[0] if k % 2 else r for k, r in enumerate(refs)]
    rouge = evaluate.load(str(METRICS / "chinese_rouge"))
    bleu = evaluate.load(str(METRICS / "chinese_bleu"))
    opts = dict(tokenizer="char", sentence_split="newline", rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    assert rouge.compute(predictions=preds, references=mixed, **opts) == compute_rouge(preds, mixed, **opts)
    assert bleu.compute(predictions=preds, references=mixed) == compute_bleu(preds, mixed)
    # the same through add_batch (stored in two batches) and through add
    rouge.add_batch(predictions=preds[:150], references=mixed[:150])
    for p, r in zip(preds[150:], mixed[150:]):
        rouge.add(prediction=p, reference=r)
    assert rouge.compute(**opts) == compute_rouge(preds, mixed, **opts)
    bleu.add_batch(predictions=preds[:7], references=mixed[:7])
    assert bleu.compute(predictions=preds[7:], references=mixed[7:]) == compute_bleu(preds, mixed)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
@pytest.mark.parametrize("keep_in_memory", [False, True])
def test_compute_with_all_the_data_skips_the_arrow_round_trip(monkeypatch, name, keep_in_memory, crosswoz_groups):
    # compute(predictions=..., references=...) on an empty single-process module hands the inputs to _compute
    # directly: same result as storing them first (add_batch, then compute()), nothing left stored, errors leave
    # the module empty and usable
    from zheval.adapters import evaluate_module as evaluate_glue

    preds, refs = crosswoz_items(crosswoz_groups[:30])
    refs = [r if i % 3 else r[0] for i, r in enumerate(refs)]  # string and list references mixed
    mod = evaluate.load(str(METRICS / name), keep_in_memory=keep_in_memory, experiment_id=f"fast-{keep_in_memory}")
    writes = []
    real = evaluate_glue.store_canonical
    monkeypatch.setattr(evaluate_glue, "store_canonical", lambda *a: writes.append(1) or real(*a))
    fast = mod.compute(predictions=preds, references=refs, tokenizer="char")
    assert writes == [] and len(mod) == 0 and mod.writer is None
    mod.add_batch(predictions=preds, references=refs)
    stored = mod.compute(tokenizer="char")
    assert fast == stored
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] is empty"):
        mod.compute(predictions=["好", "好"], references=["好", "\u200b"], tokenizer="char")  # empty once normalised
    assert len(mod) == 0 and mod.writer is None
    assert mod.compute(predictions=preds, references=refs, tokenizer="char") == fast
