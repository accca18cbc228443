"""Huge sizes of the integer options that drive allocation or time (n-gram orders, skip distances) fail fast with
an error naming the option, or give the exact number at a cost set by the data, never by the value. One rule for
every n-gram order: ``max_order``, chrF's ``char_order``/``word_order`` and ROUGE-N's N are bounded by the one
``zheval.definitions.orders.MAX_ORDER`` (1000; one statistics column per order, the result lists one precision per
order, ROUGE-N builds every n-gram of length N), checked against sacrebleu and rouge-score at the bound;
``rouge1001`` (and ``rouge99999999999``) is refused naming the type and the bound. A skip distance is no n-gram
order (a skip-bigram is a pair; the work is set by the text's length): ``rougeS<d>`` with a huge d is
``rougeS*``. Each case runs in-process under a time and a traced-memory bound (small data)."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

import zheval.cli.explain  # noqa: F401  (registers the command)
from helpers.cli import run_cli, write_jsonl
from zheval import compute_bleu, compute_chrf, compute_rouge, explain, score
from zheval.compute.options import BleuOptions, ChrfOptions
from zheval.definitions import bleu as bleu_definition, chrf_score
from zheval.tokenizers import get_tokenizer

PREDS = ["今天天气不错我们去公园", "我们去公园玩吧"]
REFS = ["今天天气很好我们去公园", "我们去公园"]
HUGE = 99_999_999_999
SECONDS = 5.0
BYTES = 200 * 2 ** 20
# the one bound of every n-gram order (1000)
BLEU_MAX_ORDER = CHRF_MAX_ORDER = ROUGE_MAX_ORDER = 1000


def _bounded(call):
    """``call()``'s result (or the exception it raised), checked to take under SECONDS of this process's CPU time
    (not wall time: the suite shares the cores with other jobs) and BYTES traced memory."""
    tracemalloc.start()
    start = time.process_time()
    try:
        out = call()
    except Exception as err:  # noqa: BLE001 -- the table says which error is expected
        out = err
    finally:
        elapsed = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < SECONDS, f"{elapsed:.1f} s"
    assert peak < BYTES, f"{peak / 2 ** 20:.0f} MiB"
    return out


#: (id, the call with a huge value, the option the ValueError must name)
REFUSED = [
    ("compute_bleu max_order", lambda: compute_bleu(PREDS, REFS, max_order=HUGE), "max_order"),
    ("compute_bleu max_order=MAX+1", lambda: compute_bleu(PREDS, REFS, max_order=BLEU_MAX_ORDER + 1), "max_order"),
    ("compute_chrf char_order", lambda: compute_chrf(PREDS, REFS, char_order=HUGE), "char_order"),
    ("compute_chrf char_order=MAX+1", lambda: compute_chrf(PREDS, REFS, char_order=CHRF_MAX_ORDER + 1),
     "char_order"),
    ("compute_chrf word_order", lambda: compute_chrf(PREDS, REFS, word_order=HUGE), "word_order"),
    ("score bleu max_order", lambda: score(PREDS, REFS, metrics=["bleu"], max_order=HUGE), "max_order"),
    ("score chrf char_order", lambda: score(PREDS, REFS, metrics=["chrf"], char_order=HUGE), "char_order"),
    ("explain max_order", lambda: explain(PREDS[0], REFS[0], metrics=["bleu"], max_order=HUGE), "max_order"),
    ("BleuOptions", lambda: BleuOptions(max_order=HUGE), "max_order"),
    ("ChrfOptions", lambda: ChrfOptions(word_order=HUGE), "word_order"),
]


@pytest.mark.parametrize("call,option", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_a_huge_order_is_refused_fast_naming_the_option(call, option):
    err = _bounded(call)
    assert isinstance(err, ValueError), repr(err)
    assert option in str(err) and "at most 1000" in str(err)


def _tokens(text):
    return " ".join(get_tokenizer("char").tokenize(text))


def test_bleu_at_the_bound_equals_sacrebleu():
    for eff in (False, True):
        ours = _bounded(lambda: compute_bleu(PREDS, REFS, max_order=BLEU_MAX_ORDER, effective_order=eff))
        theirs = BLEU(tokenize="none", max_ngram_order=BLEU_MAX_ORDER, effective_order=eff).corpus_score(
            [_tokens(p) for p in PREDS], [[_tokens(r) for r in REFS]])
        assert len(ours["precisions"]) == BLEU_MAX_ORDER
        assert ours["bleu"] == pytest.approx(theirs.score / 100, abs=1e-12)


@pytest.mark.parametrize("option", ["char_order", "word_order"])
def test_chrf_at_the_bound_equals_sacrebleu(option):
    given = {"char_order": 6, "word_order": 0, option: CHRF_MAX_ORDER}
    ours = _bounded(lambda: compute_chrf(PREDS, REFS, normalize=False, **given))
    # sacrebleu's words are the whitespace split: feed it zheval's tokens (chrF's characters ignore the spaces)
    theirs = CHRF(**given).corpus_score([_tokens(p) for p in PREDS], [[_tokens(r) for r in REFS]]).score
    assert len(ours["precisions"]) == sum(given.values())
    assert 0.1 < ours["chrf"] < 1 and ours["chrf"] == pytest.approx(theirs / 100, abs=1e-12)


def _rouge_score_n(n, pred, ref):
    """rouge-score 0.1.2's ROUGE-N F (its own n-gram counting and scoring; its type names stop at rouge9)."""
    tok = get_tokenizer("char")
    grams = [rouge_scorer._create_ngrams(list(tok.tokenize(t)), n) for t in (ref, pred)]
    return rouge_scorer._score_ngrams(*grams).fmeasure


def test_one_bound_for_every_n_gram_order():
    from zheval.definitions import orders, rouge_types

    assert orders.MAX_ORDER == 1000
    assert bleu_definition.MAX_ORDER is orders.MAX_ORDER is chrf_score.MAX_ORDER is rouge_types.MAX_ORDER
    assert rouge_types.parse_rouge_type("rouge1000").n == 1000


@pytest.mark.parametrize("n", [4, ROUGE_MAX_ORDER])
def test_rouge_n_up_to_the_bound_equals_rouge_score_fast(n):
    name = f"rouge{n}"
    ours = _bounded(lambda: compute_rouge(PREDS, REFS, rouge_types=[name]))[name]
    theirs = sum(_rouge_score_n(n, p, r) for p, r in zip(PREDS, REFS)) / len(PREDS)
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert (ours > 0) == (n == 4)


_ROUGE_REFUSAL = "ROUGE type '{name}': n-gram order {n} is above 1000, the largest n-gram order of every metric"


@pytest.mark.parametrize("n", [ROUGE_MAX_ORDER + 1, 1_000_000, HUGE, 10 ** 23])
def test_rouge_n_above_the_bound_is_refused_naming_the_type_and_the_bound(n):
    name = f"rouge{n}"
    for call in (lambda: compute_rouge(PREDS, REFS, rouge_types=[name, "rouge1"]),
                 lambda: score(PREDS, REFS, metrics=["rouge"], rouge_types=[name, "rouge1"]),
                 lambda: explain(PREDS[0], REFS[0], metrics=["rouge"], rouge_types=[name])):
        err = _bounded(call)
        assert isinstance(err, ValueError), repr(err)
        assert _ROUGE_REFUSAL.format(name=name, n=n) in str(err), str(err)


def test_rouge_s_huge_skip_is_unlimited():
    got = _bounded(lambda: compute_rouge(PREDS, REFS, rouge_types=[f"rougeS{HUGE}", "rougeS*", f"rougeSU{HUGE}",
                                                                  "rougeSU*"]))
    assert got[f"rougeS{HUGE}"] == got["rougeS*"] > 0 and got[f"rougeSU{HUGE}"] == got["rougeSU*"] > 0


@pytest.fixture(scope="module")
def warm_cli():
    """The command's modules imported before the timed calls."""
    run_cli("bleu", "--help")
    run_cli("chrf", "--help")


@pytest.mark.usefixtures("warm_cli")
@pytest.mark.parametrize("args,option", [
    (("bleu", "{ref}", "-i", "{hyp}", "--max-order", str(HUGE)), "--max-order"),
    (("chrf", "{ref}", "-i", "{hyp}", "-cc", "100001"), "--chrf-char-order"),
    (("chrf", "{ref}", "-i", "{hyp}", "-cw", str(HUGE)), "--chrf-word-order"),
    (("score", "-p", "{recs}", "--metrics", "chrf", "--chrf-word-order", str(HUGE)), "--chrf-word-order"),
    (("explain", "-p", "{recs}", "--metric", "bleu", "--max-order", str(HUGE)), "--max-order"),
])
def test_cli_refuses_a_huge_order_naming_the_option(tmp_path, args, option):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(PREDS) + "\n", encoding="utf-8")
    recs = write_jsonl(tmp_path / "recs.jsonl", [{"id": str(i), "prediction": p, "references": [r]}
                                                 for i, (p, r) in enumerate(zip(PREDS, REFS))])
    args = [a.format(ref=ref, hyp=hyp, recs=recs) for a in args]
    result = _bounded(lambda: run_cli(*args))
    assert result.exit_code != 0
    assert f"{option} must be at most 1000" in result.output, result.output


@pytest.mark.usefixtures("warm_cli")
@pytest.mark.parametrize("n", [ROUGE_MAX_ORDER + 1, HUGE])
def test_cli_rouge_n_above_the_bound_is_refused(tmp_path, n):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(PREDS) + "\n", encoding="utf-8")
    result = _bounded(lambda: run_cli("rouge", ref, "-i", hyp, "--rouge-types", f"rouge{n},rouge1"))
    assert result.exit_code == 2, result.output
    assert "zheval: error: " + _ROUGE_REFUSAL.format(name=f"rouge{n}", n=n) in result.stderr, result.output
    ok = _bounded(lambda: run_cli("rouge", ref, "-i", hyp, "--rouge-types", f"rouge{ROUGE_MAX_ORDER},rouge1"))
    assert ok.exit_code == 0 and f"ROUGE-{ROUGE_MAX_ORDER}" in ok.output, ok.output


BEYOND_INT64 = 10 ** 23  # no C long holds it: numpy raised OverflowError (a traceback at the command line)


def test_skip_distances_beyond_int64_score_as_any_huge_one():
    # a skip distance is no n-gram order: not bounded, any huge one is rougeS* (ROUGE-N beyond 1000: refused above)
    names = [f"rougeS{BEYOND_INT64}", f"rougeSU{BEYOND_INT64}", "rougeS*", "rougeSU*"]
    got = _bounded(lambda: compute_rouge(PREDS, REFS, rouge_types=names))
    assert got[names[0]] == got["rougeS*"] > 0 and got[names[1]] == got["rougeSU*"] > 0
    assert f"rougeS{BEYOND_INT64}" in got["signature"]  # the name as written


@pytest.mark.usefixtures("warm_cli")
def test_cli_skip_distances_beyond_int64_run(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(PREDS) + "\n", encoding="utf-8")
    for name in (f"rougeS{BEYOND_INT64}", f"rougeSU{BEYOND_INT64}"):
        result = _bounded(lambda: run_cli("rouge", ref, "-i", hyp, "--rouge-types", name, "-b"))
        assert result.exit_code == 0, result.output
