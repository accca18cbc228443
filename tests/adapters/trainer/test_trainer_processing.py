"""The Trainer hook takes anything with ``batch_decode`` (zheval/adapters/trainer/processing.py): a processor
(``transformers.ProcessorMixin``: no ``len()``, no ``pad_token_id``, the tokenizer in ``.tokenizer``) and user
wrappers whose ``batch_decode`` takes fewer keyword options. The numbers equal ``compute_rouge`` / ``compute_bleu``
on the texts the test encoded (the hook decodes them back). And the library's input-slip warnings
(``zheval/compute/guards.py``) fire through the hook as they do in the library.

Before the fix, every decoder here failed in ``build_compute_metrics`` or in the first call: the processor and the
minimal wrapper with ``ValueError: ... has no pad_token_id``, the wrapper without ``clean_up_tokenization_spaces``
with ``TypeError`` (from ``len()`` on the wrapper, then from the keyword)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from transformers import EvalPrediction, ProcessorMixin

import zheval
from helpers.trainer_models import HOOK_PAIRS, make_tokenizer
from zheval.adapters.trainer import build_compute_metrics
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

PAIRS = [HOOK_PAIRS[i] for i in (0, 1, 2, 3, 5, 7)]  # no empty generation


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer(extra_chars="".join(p + r for p, r in PAIRS))


class MinimalDecoder:
    """Only ``batch_decode(ids, skip_special_tokens=True)``: no pad id, no len(), no encoding, no other keyword."""

    def __init__(self, tokenizer):
        self._tok = tokenizer

    def batch_decode(self, ids, skip_special_tokens=True):
        return [self._tok.decode(row, skip_special_tokens=skip_special_tokens) for row in ids]


class WrapperWithoutCleanup:
    """A user's tokenizer wrapper: pad id, len() and encoding, but a ``batch_decode`` without
    ``clean_up_tokenization_spaces=``."""

    def __init__(self, tokenizer):
        self._tok = tokenizer
        self.pad_token_id = tokenizer.pad_token_id
        self.all_special_ids = tokenizer.all_special_ids

    def __len__(self):
        return len(self._tok)

    def __call__(self, texts, add_special_tokens=True):
        return self._tok(texts, add_special_tokens=add_special_tokens)

    def batch_decode(self, ids, skip_special_tokens=False):
        return self._tok.batch_decode(ids, skip_special_tokens=skip_special_tokens)


class TextOnlyProcessor(ProcessorMixin):
    """A real transformers processor holding only a tokenizer (as AutoProcessor returns for many models)."""

    def __init__(self, tokenizer):
        super().__init__(tokenizer)


def encode(tok, texts, width, fill=-100):
    rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    return np.array([r + [fill] * (width - len(r)) for r in rows])


def eval_pred(tok, pairs=PAIRS):
    return EvalPrediction(predictions=encode(tok, [p for p, _ in pairs], 14),
                          label_ids=encode(tok, [r for _, r in pairs], 12))


def expected(pairs=PAIRS):
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    rouge = compute_rouge(predictions=preds, references=refs, bootstrap=0)
    bleu = compute_bleu(predictions=preds, references=refs, bootstrap=0)
    return rouge, bleu


def check_numbers(out, rouge, bleu):
    for key in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert out[key] == rouge[key], key
    assert out["bleu"] == bleu["bleu"]
    assert out["brevity_penalty"] == bleu["brevity_penalty"]
    assert [out[f"precisions_{n}"] for n in range(1, 5)] == bleu["precisions"]


def test_processor_without_len_decodes_through_its_tokenizer(tok):
    processor = TextOnlyProcessor(tok)
    with pytest.raises(TypeError):
        len(processor)  # what the old hook called
    assert not hasattr(processor, "pad_token_id")
    hook = build_compute_metrics(processor, bootstrap=0)
    out = hook(eval_pred(tok))
    check_numbers(out, *expected())
    # the decoder's spaces were checked with the processor's tokenizer: the texts come back as encoded
    assert hook.predictions == [p for p, _ in PAIRS]
    assert hook.references == [r for _, r in PAIRS]


def test_processor_in_batch_eval_metrics_mode(tok):
    processor = TextOnlyProcessor(tok)
    hook = build_compute_metrics(processor, bootstrap=0)
    ep = eval_pred(tok)
    assert hook(EvalPrediction(torch.tensor(ep.predictions[:4]), torch.tensor(ep.label_ids[:4])),
                compute_result=False) == {}
    out = hook(EvalPrediction(torch.tensor(ep.predictions[4:]), torch.tensor(ep.label_ids[4:])), compute_result=True)
    check_numbers(out, *expected())


def test_minimal_batch_decode_only(tok, caplog):
    hook = build_compute_metrics(MinimalDecoder(tok), bootstrap=0)
    ep = eval_pred(tok)
    assert (ep.predictions == -100).any() and (ep.label_ids == -100).any()  # -100 padding in both
    with caplog.at_level("WARNING", logger="zheval.adapters.trainer"):
        out = hook(ep)
    check_numbers(out, *expected())
    # no encoder: the spaces of this space-joining decoder cannot be checked; scored as decoded, and said
    assert hook.predictions == [" ".join(p) for p, _ in PAIRS]
    assert any("cannot be checked" in r.getMessage() for r in caplog.records)


def test_wrapper_whose_batch_decode_takes_no_cleanup_option(tok):
    hook = build_compute_metrics(WrapperWithoutCleanup(tok), bootstrap=0)
    out = hook(eval_pred(tok))
    check_numbers(out, *expected())
    assert hook.predictions == [p for p, _ in PAIRS]  # spaces checked through the wrapper's own encoding


def test_wrapper_keyword_filter_passes_only_accepted_options(tok):
    from zheval.adapters.trainer.processing import batch_decode

    seen = []

    class Strict:
        def batch_decode(self, ids, *, skip_special_tokens):
            seen.append(skip_special_tokens)
            return [tok.decode(r, skip_special_tokens=skip_special_tokens) for r in ids]

    ids = [tok("今天", add_special_tokens=False)["input_ids"] + [tok.eos_token_id]]
    assert batch_decode(Strict(), ids, skip_special_tokens=True, clean_up_tokenization_spaces=False) == ["今 天"]
    assert seen == [True]


def test_processor_with_tokenizer_without_pad_says_what_to_set():
    processor = TextOnlyProcessor(make_tokenizer(with_pad=False))
    with pytest.raises(ValueError, match=r"has no pad_token_id.*tokenizer\.pad_token = tokenizer\.eos_token"):
        build_compute_metrics(processor)


def test_object_without_batch_decode_is_refused(tok):
    with pytest.raises(TypeError, match="first argument"):
        build_compute_metrics(object())


# -- the library's input-slip warnings through the hook ---------------------------------------------------------

SIMPLIFIED = ["我们今天去公园散步，天气很好", "明天有雨，记得带伞出门", "请打开小黄鸭快递柜取件", "这个问题的答案是多少",
              "我们应该认真学习中国历史"]
TRADITIONAL = ["我們今天去公園散步，天氣很好", "明天有雨，記得帶傘出門", "請打開小黃鴨快遞櫃取件", "這個問題的答案是多少",
               "我們應該認真學習中國歷史"]


def slip_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [w.category for w in caught if issubclass(w.category, zheval.ZhevalWarning)]


@pytest.mark.parametrize("decoder", ["tokenizer", "processor"])
def test_script_mismatch_warns_through_the_hook(decoder):
    pairs = list(zip(TRADITIONAL, SIMPLIFIED))
    tok = make_tokenizer(extra_chars="".join(TRADITIONAL + SIMPLIFIED))
    obj = tok if decoder == "tokenizer" else TextOnlyProcessor(tok)
    ep = EvalPrediction(predictions=encode(tok, TRADITIONAL, 20), label_ids=encode(tok, SIMPLIFIED, 20))
    library = slip_warnings(lambda: compute_rouge(predictions=TRADITIONAL, references=SIMPLIFIED, bootstrap=0))
    assert library == [zheval.ScriptMismatchWarning]
    hook = build_compute_metrics(obj, bootstrap=0)
    through_hook = slip_warnings(lambda: hook(ep))
    assert hook.predictions == TRADITIONAL  # the texts the library was given
    assert through_hook == [zheval.ScriptMismatchWarning]  # once, not once per metric
    # with t2s the library and the hook are silent
    assert slip_warnings(lambda: build_compute_metrics(obj, bootstrap=0, t2s=True)(ep)) == []
    assert pairs


def test_unsegmented_text_with_tokenizer_none_warns_through_the_hook():
    tok = make_tokenizer(extra_chars="".join(SIMPLIFIED))
    ep = EvalPrediction(predictions=encode(tok, SIMPLIFIED, 20), label_ids=encode(tok, SIMPLIFIED[::-1], 20))
    library = slip_warnings(lambda: compute_rouge(predictions=SIMPLIFIED, references=SIMPLIFIED[::-1],
                                                  tokenizer="none", bootstrap=0))
    assert library == [zheval.UnsegmentedTextWarning]
    hook = build_compute_metrics(tok, bootstrap=0, tokenizer="none")
    through_hook = slip_warnings(lambda: hook(ep))
    assert through_hook == [zheval.UnsegmentedTextWarning]  # once, not once per metric (ROUGE and BLEU)
    # batch_eval_metrics: the first batch warns as well, once
    hook = build_compute_metrics(tok, bootstrap=0, tokenizer="none")
    batched = slip_warnings(lambda: hook(EvalPrediction(torch.tensor(ep.predictions), torch.tensor(ep.label_ids)),
                                         compute_result=True))
    assert batched == [zheval.UnsegmentedTextWarning]
