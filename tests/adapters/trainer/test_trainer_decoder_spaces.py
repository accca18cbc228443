"""The Trainer hook scores the text the model meant, not the decoder's spacing: a BERT-Chinese-style WordPiece
tokenizer decodes ``4.5`` as ``4. 5``, a character WordLevel vocabulary decodes ``KFC`` as ``K F C``. Both tokenizers
are built here from a tiny vocabulary with the ``tokenizers`` library (nothing from the Hub). The right numbers are
``compute_rouge``/``compute_bleu`` called directly on the original texts in each test; where the ids cannot show a
space that could have been real (``hello world`` in a character vocabulary) the hook must say so.
"""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest
import torch
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import EvalPrediction, PreTrainedTokenizerFast

from zheval.adapters.trainer import (
    build_compute_metrics,
    decode_predictions,
    decoder_joins_with_spaces,
    remove_decoder_spaces,
)
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

# (prediction, reference): decimals, Latin words and numbers, English with a real space, Chinese punctuation
PAIRS = [
    ("价格是4.5元", "价格是4.5元左右"),
    ("内存3.5GB够用", "内存是3.5GB"),
    ("去KFC吃饭", "我们去KFC吃饭"),
    ("我买了iPhone 15", "他买了iPhone 15 Pro"),
    ("他说hello world", "她说hello world！"),
    ("今天，天气很好！", "今天天气很好。"),
    ("第3.5节：总结。", "见第3.5节。"),
    ("e.g. 小黄鸭", "例如小黄鸭"),
]
PREDS = [p for p, _ in PAIRS]
REFS = [r for _, r in PAIRS]
ALL_CHARS = sorted(set("".join(PREDS + REFS)) - {" "})


def bert_chinese_style(clean_up: bool) -> PreTrainedTokenizerFast:
    """BERT-Chinese layout: BertNormalizer (lower case, spaces around CJK), BertPreTokenizer (punctuation split
    off), WordPiece over single characters plus ``##`` continuations of letters and digits, WordPiece decoder with
    cleanup (as bert-base-chinese's tokenizer.json)."""
    lower = sorted({c.lower() for c in ALL_CHARS})
    cont = ["##" + c for c in lower if c.isascii() and c.isalnum()]
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *lower, *cont])}
    core = Tokenizer(models.WordPiece(vocab=vocab, unk_token="[UNK]"))
    core.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True)
    core.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    core.decoder = decoders.WordPiece(prefix="##", cleanup=True)
    return PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", clean_up_tokenization_spaces=clean_up,
    )


def char_wordlevel(chars=ALL_CHARS) -> PreTrainedTokenizerFast:
    """One token per character, whitespace dropped, no decoder (``tokenizers`` then joins tokens with spaces)."""
    vocab = {t: i for i, t in enumerate(["<pad>", "</s>", "<unk>", *chars])}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex("."), behavior="isolated")]
    )
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")


def encode(tok, texts, width, fill=-100):
    rows = [tok(t, add_special_tokens=False)["input_ids"] for t in texts]
    assert all(tok.unk_token_id not in r for r in rows)  # every character is in the tiny vocabulary
    return np.array([r + [fill] * (width - len(r)) for r in rows])


def eval_pred(tok, preds=PREDS, refs=REFS):
    return EvalPrediction(predictions=encode(tok, preds, 24, fill=tok.pad_token_id), label_ids=encode(tok, refs, 22))


def library(preds, refs, **options):
    """The offline numbers: zheval's library on the given texts, flattened as the hook flattens them."""
    rouge = compute_rouge(preds, refs, **options)
    bleu = compute_bleu(preds, refs, **options)
    out = {k: rouge[k] for k in ("rouge1", "rouge2", "rougeL", "rougeLsum")}
    out["bleu"] = bleu["bleu"]
    out.update({f"precisions_{i}": p for i, p in enumerate(bleu["precisions"], 1)})
    out.update(translation_length=bleu["translation_length"], reference_length=bleu["reference_length"])
    return out


def subset(hook_out, keys):
    return {k: hook_out[k] for k in keys}


# -- the decoders this is about --------------------------------------------------------------------------------------


@pytest.mark.parametrize("clean_up", [False, True])
def test_the_decoders_put_spaces_inside_runs(clean_up):
    bert = bert_chinese_style(clean_up)
    ids = bert("价格是4.5元", add_special_tokens=False)["input_ids"]
    assert bert.decode(ids) == "价 格 是 4. 5 元"  # the decoder's cleanup glues " ." but not ". "
    char = char_wordlevel()
    assert char.decode(char("去KFC吃饭", add_special_tokens=False)["input_ids"]) == "去 K F C 吃 饭"
    assert decoder_joins_with_spaces(bert) and decoder_joins_with_spaces(char)


# -- WordPiece (BERT-Chinese): every space is recoverable --------------------------------------------------------------


@pytest.mark.parametrize("clean_up", [False, True])
def test_wordpiece_hook_scores_the_original_texts(clean_up, caplog):
    bert = bert_chinese_style(clean_up)
    hook = build_compute_metrics(bert)
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        out = hook(eval_pred(bert))
    # BERT lower-cases; otherwise the decoded texts are the originals: the real spaces between Latin words stay
    # (iphone 15, hello world), the one before 小黄鸭 goes (BERT puts spaces around every CJK character, so the ids
    # cannot show it; the default normalisation removes it as well)
    assert hook.predictions == [p.lower() for p in PREDS[:7]] + ["e.g.小黄鸭"]
    assert hook.references == [r.lower() for r in REFS]
    want = library(PREDS, REFS)  # the default normalisation lower-cases too
    assert subset(out, want) == pytest.approx(want, abs=1e-12)
    assert "ambiguous_spaces" not in out and "ambiguous" not in caplog.text


def test_wordpiece_texts_as_decoded_score_differently():
    """The decoder's spacing matters on this data (so the tests above can fail): the texts as decoded, without the
    hook's whitespace repair, score differently."""
    bert = bert_chinese_style(False)
    raw = build_compute_metrics(bert, clean_whitespace=False)
    out = raw(eval_pred(bert))
    assert raw.predictions[0] == "价 格 是 4. 5 元"
    assert out["bleu"] != pytest.approx(compute_bleu(PREDS, REFS)["bleu"], abs=1e-6)


def test_wordpiece_batch_mode_equals_whole_set():
    bert = bert_chinese_style(True)
    ev = eval_pred(bert)
    whole = build_compute_metrics(bert)(ev)
    hook = build_compute_metrics(bert)
    p, r = torch.tensor(ev.predictions), torch.tensor(ev.label_ids)
    assert hook(EvalPrediction(predictions=p[:3], label_ids=r[:3]), compute_result=False) == {}
    assert hook(EvalPrediction(predictions=p[3:], label_ids=r[3:]), compute_result=True) == whole


# -- character WordLevel: spaces are never encoded ---------------------------------------------------------------------


def without_spaces(text: str) -> str:
    return re.sub(r"\s+", "", text)


def letter_run(text: str) -> bool:
    """Two adjacent Latin letters/digits once the spaces are gone: the vocabulary cannot show whether a space was
    between them (``KFC`` / ``K F C``, ``hello world`` / ``helloworld``)."""
    return re.search(r"[A-Za-z0-9]{2}", without_spaces(text)) is not None


def test_char_vocabulary_hook_texts_and_numbers(caplog):
    char = char_wordlevel()
    hook = build_compute_metrics(char)
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        out = hook(eval_pred(char))
    assert hook.predictions == [without_spaces(p) for p in PREDS]
    assert hook.references == [without_spaces(r) for r in REFS]
    # the hook's numbers are the library's on the texts the ids hold ...
    want = library(hook.predictions, hook.references)
    assert subset(out, want) == pytest.approx(want, abs=1e-12)
    # ... every item whose texts hold a letter/digit run is reported (KFC, 3.5GB, iPhone 15, hello world) ...
    ambiguous = [i for i, (p, r) in enumerate(PAIRS) if letter_run(p) or letter_run(r)]
    assert ambiguous == [1, 2, 3, 4]
    assert out["ambiguous_spaces"] == float(len(ambiguous))
    assert "in 4 of 8 items the token ids cannot show whether there was a space" in caplog.text
    assert "item 1, prediction: '内存3.5GB够用'" in caplog.text
    # ... and the items that are not reported score exactly as their original texts
    clear = [i for i in range(len(PAIRS)) if i not in ambiguous]
    part = build_compute_metrics(char)(eval_pred(char, [PREDS[i] for i in clear], [REFS[i] for i in clear]))
    want = library([PREDS[i] for i in clear], [REFS[i] for i in clear])
    assert "ambiguous_spaces" not in part and subset(part, want) == pytest.approx(want, abs=1e-12)


def test_char_vocabulary_guesses_without_a_space_where_the_ids_cannot_tell():
    """KFC and 3.5GB come out right; 'iPhone 15' and 'hello world' cannot (and were reported above)."""
    char = char_wordlevel()
    texts = char.batch_decode([char(t, add_special_tokens=False)["input_ids"] for t in PREDS])
    out, ambiguous = remove_decoder_spaces(texts, char)
    assert out[:3] == ["价格是4.5元", "内存3.5GB够用", "去KFC吃饭"]
    assert out[3:5] == ["我买了iPhone15", "他说helloworld"]
    assert ambiguous == [1, 2, 3, 4]


def test_char_vocabulary_batch_mode_counts_over_batches(caplog):
    char = char_wordlevel()
    ev = eval_pred(char)
    whole = build_compute_metrics(char)(ev)
    hook = build_compute_metrics(char)
    p, r = torch.tensor(ev.predictions), torch.tensor(ev.label_ids)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        assert hook(EvalPrediction(predictions=p[:2], label_ids=r[:2]), compute_result=False) == {}
        assert hook(EvalPrediction(predictions=p[2:5], label_ids=r[2:5]), compute_result=False) == {}
        out = hook(EvalPrediction(predictions=p[5:], label_ids=r[5:]), compute_result=True)
    assert out == whole and out["ambiguous_spaces"] == 4.0
    assert caplog.text.count("cannot show whether") == 1  # one warning for the evaluation, at its summary
    assert "in 4 of 8 items" in caplog.text and "batch item 1, prediction: '内存3.5GB够用'" in caplog.text


def test_space_sensitive_scoring_tokenizer_counts_every_removed_space():
    """With tokenizer="none" every removed space could have been a token boundary: all items count."""
    char = char_wordlevel()
    out = build_compute_metrics(char, tokenizer="none")(eval_pred(char))
    assert out["ambiguous_spaces"] == float(len(PAIRS))


# -- which spaces go, which stay ---------------------------------------------------------------------------------------


def test_a_space_the_ids_show_is_kept():
    """WordPiece encodes 'hello world' and 'helloworld' differently (world vs ##w ##o ...): the space stays; the
    decoder's spaces around CJK characters and punctuation go."""
    bert = bert_chinese_style(False)
    texts = ["他 说 hello world ！", "我 买 了 iphone 15", "e. g. 小 黄 鸭"]
    assert remove_decoder_spaces(texts, bert) == (["他说hello world！", "我买了iphone 15", "e.g.小黄鸭"], [])


def test_a_pair_decision_that_does_not_hold_in_context_is_redone_space_by_space():
    """A normaliser that rewrites 'xyz': the pairs 'x y' and 'y z' each glue to the same ids, the whole 'xyz' does
    not (it becomes Q). The rebuilt text must still encode like the decoded one: 'xy z' (x, y, z), not 'xyz' (Q)."""
    vocab = {t: i for i, t in enumerate(["<pad>", "<unk>", "x", "y", "z", "Q", "好"])}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.normalizer = normalizers.Replace("xyz", "Q")
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex("."), behavior="isolated")]
    )
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", unk_token="<unk>")
    decoded = tok.decode([vocab["x"], vocab["y"], vocab["z"]])
    assert decoded == "x y z"
    out, _ = remove_decoder_spaces([decoded], tok)
    assert out == ["xy z"]
    assert tok(out[0], add_special_tokens=False)["input_ids"] == [vocab["x"], vocab["y"], vocab["z"]]


def _byte_level_bpe():
    core = Tokenizer(models.BPE(unk_token=None))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<pad>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    core.train_from_iterator([p + " " + r for p, r in PAIRS] * 5 + ["今天 天气 很好"], trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>")


def _metaspace_unigram():
    core = Tokenizer(models.Unigram())
    core.pre_tokenizer = pre_tokenizers.Metaspace()
    core.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=120, special_tokens=["<pad>", "<unk>"], unk_token="<unk>")
    core.train_from_iterator([p + " " + r for p, r in PAIRS] * 5 + ["今天 天气 很好", "hello world"] * 5,
                             trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", unk_token="<unk>")


@pytest.mark.parametrize("make", [_byte_level_bpe, _metaspace_unigram], ids=["byte-level-bpe", "sentencepiece"])
def test_exact_decoders_are_left_alone(make):
    tok = make()
    assert not decoder_joins_with_spaces(tok)
    texts = ["今天 天气 很好", "他说hello world", "价格是4.5元"]
    decoded = tok.batch_decode([tok(t, add_special_tokens=False)["input_ids"] for t in texts])
    assert decoded == texts  # these decoders give the text back, real spaces included
    assert remove_decoder_spaces(decoded, tok) == (texts, [])
    p, r = decode_predictions((encode_any(tok, texts), encode_any(tok, texts)), tok)
    assert p == r == texts


def encode_any(tok, texts):
    rows = [tok(t, add_special_tokens=False)["input_ids"] for t in texts]
    width = max(map(len, rows))
    return np.array([r + [-100] * (width - len(r)) for r in rows])


def test_decode_predictions_logs_ambiguous_texts(caplog):
    char = char_wordlevel()
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        p, r = decode_predictions(eval_pred(char), char)
    assert p[2] == "去KFC吃饭"
    assert "in 4 of 8 items the token ids cannot show whether there was a space" in caplog.text
    raw_p, _ = decode_predictions(eval_pred(char), char, clean_whitespace=False)
    assert raw_p[2] == "去 K F C 吃 饭"


def test_no_state_crosses_calls_when_the_tokenizer_changes():
    """The probe and the pair decisions are made in each call: after add_tokens the same hook decides anew."""
    char = char_wordlevel()
    hook = build_compute_metrics(char)
    ev = eval_pred(char, ["去KFC吃饭"], ["去KFC吃饭"])
    assert hook(ev)["ambiguous_spaces"] == 1.0 and hook.predictions == ["去KFC吃饭"]
    char.add_tokens(["KF"])  # now "KF" glued encodes to the new token: the ids [K, F] mean a space was there
    out = hook(ev)
    assert hook.predictions == ["去K FC吃饭"] and out["ambiguous_spaces"] == 1.0


def test_a_vocabulary_with_a_space_token_and_a_space_joining_decoder_is_reported(caplog):
    """Spaces are tokens here, and the decoder joins tokens with spaces: 'hello world' decodes as
    'h e l l o   w o r l d'. No decoder space can be told from a real one; the hook says so and changes nothing."""
    chars = sorted(set("helloworld今天KFC "))
    vocab = {t: i for i, t in enumerate(["<pad>", "<unk>", *chars])}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", unk_token="<unk>")
    decoded = [tok.decode(tok(t, add_special_tokens=False)["input_ids"]) for t in ["hello world", "今天KFC"]]
    assert decoded == ["h e l l o   w o r l d", "今 天 K F C"]
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        assert remove_decoder_spaces(decoded, tok) == (decoded, [])
    assert "encodes a space as a token and its decoder also puts a space between every two tokens" in caplog.text


def test_cjk_iteration_marks_are_no_spaced_words():
    # 々 and 〆 are CJK letters, one token each as kana are (zheval.text.chars.KANA_CLASS_BODY): a decoder's space
    # beside one is no word boundary, so the items are not ambiguous (they were counted as 'hello world' is)
    char = char_wordlevel("人々a〆b")
    texts = char.batch_decode([char(t, add_special_tokens=False)["input_ids"] for t in ["人々a", "〆b", "a b"]])
    assert texts == ["人 々 a", "〆 b", "a b"]
    out, ambiguous = remove_decoder_spaces(texts, char)
    assert out == ["人々a", "〆b", "ab"] and ambiguous == [2]

