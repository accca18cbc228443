"""zheval.compute.gcpause.no_cyclic_gc: the cyclic garbage collector is paused during a computation and restored
after it (nested, after an error, when it was already off) — in the library entry points (compute_rouge,
compute_bleu, score: the numbers those of a run with the collector on) and in the evaluate modules."""

import evaluate
import pytest

from helpers import METRICS


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
