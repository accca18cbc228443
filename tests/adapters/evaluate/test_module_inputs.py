"""Fast paths of input validation and of the evaluate glue give exactly what the general paths give: validate_inputs'
C-level check vs its item-by-item loop, store_canonical vs evaluate's own add_batch (same Arrow data), the modules'
compute vs the library calls -- on real CrossWOZ data and on every kind of bad input."""

from pathlib import Path

import evaluate
import pytest

import zheval.compute.inputs as inputs
from helpers import crosswoz_items
from zheval.adapters.evaluate_module import canonical_inputs, store_canonical
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from helpers import METRICS



def _general(monkeypatch, predictions, references, **kw):
    with monkeypatch.context() as m:
        m.setattr(inputs, "_fast_canonical", lambda preds, refs: None)
        return inputs.validate_inputs(predictions, references, **kw)


class Text(str):
    """A str subclass: accepted by both paths (isinstance), kept as given."""


def _shapes(preds, refs):
    """The same items in every reference shape the fast path accepts (and some it hands to the loop)."""
    mixed = [r[0] if len(r) == 1 else r for r in refs]
    return [
        (preds, refs),
        (tuple(preds), [tuple(r) for r in refs]),
        (preds, mixed),
        (preds, [r[0] for r in refs]),
        ([Text(p) for p in preds], [[Text(x) for x in r] for r in refs]),
        (preds, [iter_free(r) for r in refs]),  # a sequence type that is neither list nor tuple: loop path
        ([], []),
    ]


class iter_free:  # noqa: N801 - reads like a container type in the list above
    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


def test_validate_inputs_fast_path_equals_loop_on_crosswoz(monkeypatch, crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:500])
    refs[3] = refs[3][:1]
    for p, r in _shapes(preds, refs):
        fast = inputs.validate_inputs(p, r, allow_empty=True)
        general = _general(monkeypatch, p, r, allow_empty=True)
        assert fast == general
        assert [type(x) for x in fast[0]] == [type(x) for x in general[0]]
        assert all(type(rs) is list for rs in fast[1])
        assert [type(x) for rs in fast[1] for x in rs] == [type(x) for rs in general[1] for x in rs]
    # the fast path really ran on regular input and returned fresh lists (the caller's lists are not aliased)
    got = inputs._fast_canonical(list(preds), refs)
    assert got == refs and all(a is not b for a, b in zip(got, refs))


@pytest.mark.parametrize(
    "predictions, references",
    [
        (["a", "b"], ["x", ["y", None]]),
        (["a", 3], ["x", "y"]),
        (["a", None], ["x", "y"]),
        (["a", "b\ud800"], ["x", "y"]),
        (["a", "b"], ["x", ["y", "\udfffz"]]),
        (["a", "b"], ["x\udc00", "y"]),
        (["a", "b"], ["x", []]),
        (["a", "b"], ["x", ()]),
        (["a", "b"], ["x", 5]),
        (["a", "b"], ["x", None]),
        (["a", "b"], ["x", b"y"]),
        (["a", "b"], [["x"], [b"y"]]),
        (["a\ud800", 3], ["x", "y"]),  # type errors are reported before surrogates, as the loop does
    ],
)
def test_bad_input_takes_the_loop_and_gets_the_same_error(monkeypatch, predictions, references):
    assert inputs._fast_canonical(list(predictions), list(references)) is None
    with pytest.raises((TypeError, ValueError)) as general:
        _general(monkeypatch, predictions, references)
    with pytest.raises(general.type) as fast:
        inputs.validate_inputs(predictions, references)
    assert str(fast.value) == str(general.value)


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


def test_empty_reference_error_names_this_calls_index_whether_or_not_items_are_stored():
    bleu = evaluate.load(str(METRICS / "chinese_bleu"))
    bad = dict(predictions=["好", "好"], references=[["好"], ["好", ""]])
    with pytest.raises(ValueError, match=r"references\[1\]\[1\] is empty"):
        bleu.compute(**bad)  # nothing stored: raised inside _compute
    assert len(bleu) == 0
    bleu.add_batch(predictions=["好"] * 3, references=["好"] * 3)
    with pytest.raises(ValueError, match=r"references\[1\]\[1\] is empty"):
        bleu.compute(**bad)  # items stored: checked before storing, indices of this call
    assert len(bleu) == 3
    assert bleu.compute()["counts"][0] == 3


def test_no_cyclic_gc_restores_the_collector_state():
    import gc

    from zheval.adapters.evaluate_module import no_cyclic_gc

    assert gc.isenabled()
    with no_cyclic_gc():
        assert not gc.isenabled()
        with no_cyclic_gc():  # nested: the inner exit does not turn it back on early
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with no_cyclic_gc():
            raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with no_cyclic_gc():
            pass
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()
    # the modules leave it on after a computation and after a failed one
    rouge = evaluate.load(str(METRICS / "chinese_rouge"))
    rouge.compute(predictions=["猫"], references=["猫"])
    assert gc.isenabled()
    with pytest.raises(ValueError):
        rouge.compute(predictions=["猫"], references=["\u200b"])
    assert gc.isenabled()


def test_library_entry_points_pause_the_collector_and_restore_it():
    # compute_rouge / compute_bleu / score run with the cyclic GC off (a tokenizer callable sees it) and leave it as
    # they found it, also after an error; the numbers are those of a run with the collector on
    import gc

    import zheval
    from zheval.compute.bleu import compute_bleu
    from zheval.compute.rouge import compute_rouge

    seen = []

    def tok(text):
        seen.append(gc.isenabled())
        return list(text)

    preds, refs = ["今天天气好", "明天见"], [["今天天气不错"], ["明天见", "后天见"]]
    assert gc.isenabled()
    r = compute_rouge(preds, refs, tokenizer=tok)
    b = compute_bleu(preds, refs, tokenizer=tok)
    both = zheval.score(preds, refs, tokenizer=tok)
    assert seen and not any(seen) and gc.isenabled()
    assert both["rouge"] == r and both["bleu"] == b
    with pytest.raises(ValueError):
        compute_rouge(["好"], [[]], tokenizer=tok)
    assert gc.isenabled()
    gc.disable()
    try:
        assert compute_rouge(preds, refs, tokenizer=tok) == r and not gc.isenabled()
    finally:
        gc.enable()


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
