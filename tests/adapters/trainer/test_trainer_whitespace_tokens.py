"""The Trainer hook with a word-level vocabulary and the whitespace-splitting scoring tokenizer ("none"): decoded
"今天 天气 很好" must stay three tokens (the hook's whitespace cleaning would merge it into one). Expected values are
hand counts written out below."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import EvalPrediction, PreTrainedTokenizerFast

from zheval.adapters.trainer import build_compute_metrics

WORDS = ["今天", "天气", "很好", "不错", "明天", "下雨"]


@pytest.fixture(scope="module")
def word_tok():
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2, **{w: i + 3 for i, w in enumerate(WORDS)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    core.decoder = decoders.WordPiece(prefix="##", cleanup=False)  # joins words with one space
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")
    return tok


def _ids(tok, texts, width):
    rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    return np.array([r + [-100] * (width - len(r)) for r in rows])


PREDS = ["今天 天气 很好", "明天 下雨"]
REFS = ["今天 天气 不错", "明天 下雨"]
# item 1: tokens [今天 天气 很好] vs [今天 天气 不错]: unigram hits 2 of 3 and 3 -> F1 2/3; bigrams
#   (今天,天气) (天气,很好) vs (今天,天气) (天气,不错): 1 of 2 and 2 -> F1 1/2.
# item 2: identical two-word texts -> rouge1 = rouge2 = 1.
# Merged into one token each ("今天天气很好" vs "今天天气不错") item 1 would score 0 for both.
ROUGE1 = (2 / 3 + 1) / 2
ROUGE2 = (1 / 2 + 1) / 2
# BLEU on word tokens, summed over the items: hypothesis n-grams 3+2, 2+1, 1+0, 0; clipped matches 2+2, 1+1, 0, 0.
COUNTS, TOTALS = [4, 2, 0, 0], [5, 3, 1, 0]


def test_decoding_keeps_the_spaces(word_tok):
    assert word_tok.decode(word_tok("今天 天气 很好", add_special_tokens=False)["input_ids"]) == "今天 天气 很好"


@pytest.mark.parametrize("clean_whitespace", [True, False])
def test_none_tokenizer_scores_words_not_merged_texts(word_tok, clean_whitespace):
    hook = build_compute_metrics(word_tok, tokenizer="none", clean_whitespace=clean_whitespace,
                                 rouge_types=["rouge1", "rouge2"])
    ev = EvalPrediction(predictions=_ids(word_tok, PREDS, 5), label_ids=_ids(word_tok, REFS, 4))
    out = hook(ev)
    assert out["rouge1"] == pytest.approx(ROUGE1, abs=1e-12)
    assert out["rouge2"] == pytest.approx(ROUGE2, abs=1e-12)
    assert hook.results["chinese_bleu"]["counts"] == COUNTS and hook.results["chinese_bleu"]["totals"] == TOTALS
    assert hook.predictions == PREDS and hook.references == REFS


def test_none_tokenizer_in_batch_eval_mode(word_tok):
    hook = build_compute_metrics(word_tok, tokenizer="none", rouge_types=["rouge1", "rouge2"])
    p, r = _ids(word_tok, PREDS, 5), _ids(word_tok, REFS, 4)
    assert hook(EvalPrediction(predictions=torch.tensor(p[:1]), label_ids=torch.tensor(r[:1])), compute_result=False) == {}
    out = hook(EvalPrediction(predictions=torch.tensor(p[1:]), label_ids=torch.tensor(r[1:])), compute_result=True)
    assert out["rouge1"] == pytest.approx(ROUGE1, abs=1e-12) and out["rouge2"] == pytest.approx(ROUGE2, abs=1e-12)
    assert hook.results["chinese_bleu"]["counts"] == COUNTS


def test_only_the_whitespace_metric_gets_the_raw_text(word_tok):
    # ROUGE on words ("none"), BLEU on characters without its own normaliser: BLEU still gets the cleaned text
    hook = build_compute_metrics(
        word_tok,
        metrics=[("chinese_rouge", {"tokenizer": "none"}), ("chinese_bleu", {"tokenizer": "char", "normalize": False})],
        rouge_types=["rouge1"],
    )
    out = hook(EvalPrediction(predictions=_ids(word_tok, PREDS, 5), label_ids=_ids(word_tok, REFS, 4)))
    assert out["rouge1"] == pytest.approx(ROUGE1, abs=1e-12)
    # characters: 今天天气很好 (6) vs 今天天气不错, 明天下雨 (4) identical: hypothesis n-grams 6+4, 5+3, 4+2, 3+1;
    # matches 4+4, 3+3, 2+2, 1+1
    assert hook.results["chinese_bleu"]["totals"] == [10, 8, 6, 4]
    assert hook.results["chinese_bleu"]["counts"] == [8, 6, 4, 2]


@pytest.mark.parametrize("seed", ["1", 1.5, None, True])
def test_non_int_seed_fails_when_the_hook_is_built(word_tok, seed):
    with pytest.raises(TypeError, match="seed must be an int"):
        build_compute_metrics(word_tok, seed=seed, bootstrap=10)


# -- a user callable that splits on spaces (issue 13 item 2, hook part) ---------------------------------------------

CALLABLE_WORDS = ["今天", "天气", "很", "好", "不错", "明天", "下雨", "也"]
CALLABLE_PREDS = ["今天 天气 很 好", "明天 也 下雨", "天气 不错"]
CALLABLE_REFS = ["今天 天气 不错", "明天 下雨", "今天 天气 很 好"]


@pytest.fixture(scope="module")
def words_and_chars_tok():
    """Word-level vocabulary with single-character words too (很, 好, 也): the decoder joins every two tokens with
    a space, so the hook's repair runs — and must keep these spaces, which the ids show (今天天气 is not a word)."""
    vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2, **{w: i + 3 for i, w in enumerate(CALLABLE_WORDS)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]", eos_token="[EOS]")


def split_words(text):
    return text.split()


def _callable_eval(tok):
    return EvalPrediction(predictions=_ids(tok, CALLABLE_PREDS, 6), label_ids=_ids(tok, CALLABLE_REFS, 6))


def test_hook_keeps_the_spaces_a_whitespace_callable_needs(words_and_chars_tok):
    from zheval.adapters.trainer import decoder_joins_with_spaces

    assert decoder_joins_with_spaces(words_and_chars_tok)
    hook = build_compute_metrics(words_and_chars_tok, tokenizer=split_words)  # clean_whitespace left on
    out = hook(_callable_eval(words_and_chars_tok))
    assert hook.predictions == CALLABLE_PREDS and hook.references == CALLABLE_REFS
    assert "ambiguous_spaces" not in out  # no space was removed


def test_whitespace_callable_in_the_hook_equals_rouge_score_and_sacrebleu(words_and_chars_tok):
    """The same callable in rouge-score (the Hub rouge module's scorer) and sacrebleu on the same decoded texts."""
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    class Split:
        def tokenize(self, text):
            return text.split()

    hook = build_compute_metrics(words_and_chars_tok, tokenizer=lambda s: s.split(),
                                 rouge_types=["rouge1", "rouge2", "rougeL"])
    out = hook(_callable_eval(words_and_chars_tok))
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Split())
    items = [scorer.score(r, p) for p, r in zip(CALLABLE_PREDS, CALLABLE_REFS)]
    for t in ("rouge1", "rouge2", "rougeL"):
        assert out[t] == pytest.approx(sum(it[t].fmeasure for it in items) / len(items), abs=1e-12), t
    sacre = BLEU(tokenize="none", force=True).corpus_score(CALLABLE_PREDS, [CALLABLE_REFS])
    assert out["bleu"] == pytest.approx(sacre.score / 100, abs=1e-12)
    assert hook.results["chinese_bleu"]["counts"] == sacre.counts
