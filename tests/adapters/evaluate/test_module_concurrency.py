"""One module instance used from several threads (issue 13, item 9): evaluate's Arrow writer is not thread-safe, so
our modules hold a per-instance lock for add/add_batch/compute (zheval.adapters.evaluate_module.module_lock). 8 threads
x 50 add_batch calls must store every item exactly once: compute() then equals the library on the same items (corpus
BLEU statistics are sums and the ROUGE mean is math.fsum, so the order in which the threads stored them does not
matter)."""

from __future__ import annotations

import threading

import evaluate
import pytest

from helpers import crosswoz_items
from zheval.adapters.evaluate_module import module_lock
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from helpers import METRICS

THREADS, CALLS, BATCH = 8, 50, 2


@pytest.fixture(scope="module")
def items(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups)
    n = THREADS * CALLS * BATCH
    reps = -(-n // len(preds))
    return (preds * reps)[:n], (refs * reps)[:n]


def _run_threads(target):
    start = threading.Barrier(THREADS)
    errors = []

    def worker(t):
        try:
            start.wait()
            target(t)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []


@pytest.mark.parametrize("keep_in_memory", [False, True], ids=["on-disk", "in-memory"])
@pytest.mark.parametrize("name", ["chinese_bleu", "chinese_rouge"])
def test_threads_adding_batches_lose_nothing(name, keep_in_memory, items):
    preds, refs = items
    module = evaluate.load(str(METRICS / name), keep_in_memory=keep_in_memory,
                           experiment_id=f"threads-{name}-{keep_in_memory}")

    def add(t):
        for c in range(CALLS):
            k = (t * CALLS + c) * BATCH
            if c % 5 == 4:  # some items one by one, through add()
                for i in range(k, k + BATCH):
                    module.add(prediction=preds[i], reference=refs[i])
            else:
                module.add_batch(predictions=preds[k:k + BATCH], references=refs[k:k + BATCH])

    _run_threads(add)
    assert len(module) == len(preds)
    out = module.compute()
    if name == "chinese_bleu":
        want = compute_bleu(preds, refs)
        for key in ("counts", "totals", "translation_length", "reference_length", "bleu", "signature"):
            assert out[key] == want[key], key
    else:
        want = compute_rouge(preds, refs)
        assert out == want
    assert len(module) == 0


@pytest.mark.parametrize("name", ["chinese_bleu", "chinese_rouge"])
def test_compute_waits_for_an_add_batch_in_progress(name, items):
    # compute() from one thread while another holds the instance's lock (inside add_batch): compute sees the batch
    preds, refs = items
    module = evaluate.load(str(METRICS / name), experiment_id=f"wait-{name}")
    lock = module_lock(module)
    assert module_lock(module) is lock
    result = {}
    with lock:  # what add_batch holds while it stores
        module.add_batch(predictions=preds[:10], references=refs[:10])
        th = threading.Thread(target=lambda: result.setdefault("out", module.compute()))
        th.start()
        th.join(timeout=0.5)
        assert th.is_alive()  # waiting for the lock
        module.add_batch(predictions=preds[10:20], references=refs[10:20])
    th.join()
    lib = compute_bleu if name == "chinese_bleu" else compute_rouge
    assert result["out"] == lib(preds[:20], refs[:20])


def test_two_instances_do_not_share_a_lock():
    a = evaluate.load(str(METRICS / "chinese_bleu"), experiment_id="lock-a")
    b = evaluate.load(str(METRICS / "chinese_bleu"), experiment_id="lock-b")
    assert module_lock(a) is not module_lock(b)
