"""zheval.score: both metrics in one call equal the separate compute_rouge / compute_bleu calls exactly (also on real
CrossWOZ groups), each distinct text tokenised once, ROUGE-N hits taken from BLEU's pass."""

import pytest

import zheval
from helpers import crosswoz_items
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from zheval.tokenizers import clear_cache

PREDS = ["不客气，祝您玩得愉快！", "地址在北京市东城区。\n电话是010-12345678", "", "好的"]
REFS = [["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。\n电话010-12345678", ["没有"], ["好的。", "好"]]


@pytest.mark.parametrize("options", [
    {},
    {"sentence_split": "newline"},
    {"sentence_split": "newline", "level": "sentence", "smooth_method": "floor", "max_order": 3, "multi_ref": "pool"},
    {"preset": "llamafactory"},  # its types have no rougeLsum: a sentence_split is refused (break-it pass 5 F7)
    {"tokenizer": "jieba", "multi_ref": "mean", "max_order": 2},
    {"tokenizer": "none", "sentence_split": "newline", "bootstrap": 50, "seed": 3},
    {"punct": "drop", "level": "sentence", "return_precision_recall": True, "rouge_types": ["rouge1", "rougeL"]},
    # ROUGE-1..3 come from BLEU's pass (max_order 3), ROUGE-5 is counted by ROUGE itself
    {"sentence_split": "newline", "max_order": 3, "rouge_types": ["rouge5", "rouge3", "rouge1", "rougeLsum"],
     "multi_ref": "mean"},
    {"max_order": 1, "rouge_types": ["rouge2", "rouge1"], "return_precision_recall": True},
    # terms the "punct" rule never cuts: BLEU on ROUGE's sentence tokens; a term with a "。": BLEU on its own
    {"terms": ["北京市", "东直门", "不客气"], "rouge_types": ["rouge1", "rougeLsum"]},
    {"terms": ["东直门。", "不客气！"], "rouge_types": ["rouge1", "rougeLsum"]},
])
def test_score_equals_separate_calls(options):
    clear_cache()
    got = zheval.score(PREDS, REFS, **options)
    rouge_opts = {k: v for k, v in options.items() if k not in ("max_order", "level", "smooth_method")}
    bleu_opts = {k: v for k, v in options.items() if k not in ("sentence_split", "multi_ref", "return_precision_recall",
                                                                "rouge_types")}
    clear_cache()
    assert got["rouge"] == compute_rouge(PREDS, REFS, **rouge_opts)
    clear_cache()
    assert got["bleu"] == compute_bleu(PREDS, REFS, **bleu_opts)
    assert list(got) == ["bleu", "rouge"]


@pytest.mark.parametrize("options, times", [({}, 1), ({"sentence_split": "newline"}, 1),
                                            ({"terms": ["北京市"], "sentence_split": "newline"}, 1),
                                            ({"terms": ["北京市"]}, 1), ({"terms": ["门。"]}, 2)])
def test_score_tokenises_each_distinct_text_once(monkeypatch, options, times):
    # Both metrics from one tokenisation: every distinct text is normalised exactly once in the whole call, whether
    # the corpus is normalised all at once (zheval.text.normalize_corpus, then the char twins or text-by-text
    # tokenisation) or text by text. With a term holding a sentence-final mark and the "punct" split a term may
    # span a sentence cut, so BLEU tokenises the whole texts once more (documented in zheval.compute.joint).
    import zheval.tokenizers.corpus as corpus_mod
    from zheval.tokenizers import BaseTokenizer

    seen = []
    real = BaseTokenizer._normalize
    real_all = corpus_mod.normalize_corpus

    def counting(self, text):
        seen.append(text)
        return real(self, text)

    def counting_all(texts, normalizer):
        seen.extend(texts)
        return real_all(texts, normalizer)

    monkeypatch.setattr(BaseTokenizer, "_normalize", counting)
    monkeypatch.setattr(corpus_mod, "normalize_corpus", counting_all)
    clear_cache()
    got = zheval.score(PREDS, REFS, metrics=["rouge", "bleu"], **options)
    distinct = set(PREDS) | {r for rs in REFS for r in ([rs] if isinstance(rs, str) else rs)}
    assert sorted(seen) == sorted(list(distinct) * times)
    monkeypatch.setattr(BaseTokenizer, "_normalize", real)
    monkeypatch.setattr(corpus_mod, "normalize_corpus", real_all)
    clear_cache()
    assert got["rouge"] == compute_rouge(PREDS, REFS, **options)
    clear_cache()
    assert got["bleu"] == compute_bleu(PREDS, REFS, **{k: v for k, v in options.items() if k != "sentence_split"})


def test_score_errors():
    with pytest.raises(ValueError, match="unknown metric"):
        zheval.score(PREDS, REFS, metrics=["meteor"])
    with pytest.raises(TypeError, match="unknown option"):
        zheval.score(PREDS, REFS, colour="red")


def test_an_empty_metric_list_asks_for_a_metric():
    for empty in ([], ()):  # was "unknown metric(s) []", naming no unknown metric
        with pytest.raises(ValueError) as info:
            zheval.score(PREDS, REFS, metrics=empty)
        assert str(info.value) == "name at least one metric (the known ones: bleu, rouge, chrf)"


def _spy(monkeypatch, module, name, counted, order_of):
    real = getattr(module, name)

    def spy(*args, **kwargs):
        counted.append((name, order_of(*args)))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)


def test_score_counts_rouge_n_once_per_order_by_one_sort(monkeypatch):
    # ROUGE-N hits of every order come from one sort per order over the slot layout (zheval.fast.slots); nothing
    # counts them per text as well; numbers unchanged
    import zheval.fast.rouge as rouge_batch

    counted = []
    _spy(monkeypatch, rouge_batch, "pair_clipped_hits", counted, lambda nc, *a: nc.order)
    _spy(monkeypatch, rouge_batch, "pair_ngram_hits_sorted", counted, lambda lay, n, *a: n)
    types = ["rouge1", "rouge2", "rouge6", "rougeLsum"]  # rougeLsum: the newline split is refused without it
    got = zheval.score(PREDS, REFS, sentence_split="newline", rouge_types=types)
    assert counted == [("pair_ngram_hits_sorted", 1), ("pair_ngram_hits_sorted", 2), ("pair_ngram_hits_sorted", 6)]
    assert got["rouge"] == compute_rouge(PREDS, REFS, sentence_split="newline", rouge_types=types)


def test_score_takes_rouge_n_hits_from_bleus_pass_where_slot_keys_do_not_fit(monkeypatch):
    # where the slot keys cannot fit (usable_for "slot_keys"/"slot_bleu" say no), BLEU's per-text pass also
    # yields the ROUGE-1/2 hits of every pair (no second count), numbers unchanged
    import zheval.fast.rouge as rouge_batch
    import zheval.fast.slots as slots

    monkeypatch.setattr(slots, "KEY_BITS", 4)
    counted = []
    _spy(monkeypatch, rouge_batch, "pair_clipped_hits", counted, lambda nc, *a: nc.order)
    types = ["rouge1", "rouge2", "rouge6", "rougeLsum"]  # rougeLsum: the newline split is refused without it
    got = zheval.score(PREDS, REFS, sentence_split="newline", rouge_types=types)
    assert [n for _, n in counted] == [6]
    counted.clear()
    assert got["rouge"] == compute_rouge(PREDS, REFS, sentence_split="newline", rouge_types=types)
    assert sorted(n for _, n in counted) == [1, 2, 6]


@pytest.mark.parametrize("metrics", [("bleu",), ["bleu"], "bleu", ("rouge",)])
def test_score_one_metric_equals_the_separate_call(metrics):
    # found by review: score(metrics=("bleu",)) raised KeyError('tokenizer')
    got = zheval.score(PREDS, REFS, metrics=metrics)
    if "bleu" in metrics:
        assert got == {"bleu": compute_bleu(PREDS, REFS)}
    else:
        assert got == {"rouge": compute_rouge(PREDS, REFS)}


def test_score_on_crosswoz_equals_separate_calls(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:300])
    opts = dict(tokenizer="char", multi_ref="max", rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"],
                sentence_split="newline")
    clear_cache()
    both = zheval.score(preds, refs, metrics=("rouge", "bleu"), **opts)
    clear_cache()
    assert both["bleu"] == compute_bleu(preds, refs, tokenizer="char")
    clear_cache()
    assert both["rouge"] == compute_rouge(preds, refs, **opts)
