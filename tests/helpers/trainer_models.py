"""Tiny, offline models and tokenizers for the Trainer tests (nothing is loaded from the Hub).

* :func:`make_tokenizer`: a ``tokenizers`` WordLevel model over a small Chinese character vocabulary (one token per
  character, whitespace dropped), wrapped in ``PreTrainedTokenizerFast`` with ``<pad>``, ``</s>`` and ``<unk>``. It
  has no decoder, so ``decode`` joins characters with spaces (``今 天 天 气``) — like BERT-style Chinese vocabularies.
* :func:`make_t5` / :func:`make_causal_lm`: a T5 encoder-decoder and a GPT-2 causal LM built from configs with
  random weights (seeded), d_model 32, one layer.
* :func:`seq2seq_dataset` / :func:`causal_dataset`: tokenised ``datasets.Dataset`` objects of a few items.

Importing this module sets ``torch.set_num_threads(1)`` for the test process.

This module holds no tests; the Trainer tests (``tests/adapters/trainer/``) and
``tests/adapters/evaluate/test_combine_metrics.py`` import it (``from helpers.trainer_models import ...``).
"""

from __future__ import annotations

import torch
from datasets import Dataset
from tokenizers import Regex, Tokenizer, models, pre_tokenizers, processors
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

PAIRS = [
    ("今天天气很好", "今天天气很好"),
    ("我们去公园散步", "我们去公园散步"),
    ("明天有雨记得带伞", "明天有雨记得带伞"),
    ("小黄鸭快递柜取件码", "快递柜取件码"),
    ("请打开小黄鸭", "请打开小黄鸭"),
    ("天气很好我们散步", "天气很好"),
    ("记得带伞", "记得带伞"),
    ("取件码是多少", "取件码"),
]
EVAL_PAIRS = [
    ("今天天气很好", "今天天气很好"),
    ("明天有雨", "明天有雨记得带伞"),
    ("请打开快递柜", "请打开快递柜"),
    ("我们去散步", "我们去公园散步"),
    ("小黄鸭", "小黄鸭"),
]
#: (generated text, reference) pairs the hook tests decode from token ids; the tests take this list or a part of it.
HOOK_PAIRS = [
    ("今天天气很好", "今天天气很好"),
    ("明天有雨", "明天有雨记得带伞"),
    ("我们去公园", "我们去公园散步"),
    ("快递柜取件码是多少", "小黄鸭快递柜取件码"),
    ("", "请打开小黄鸭"),  # empty generation: scored as 0, not skipped
    ("天气很好我们散步", "天气很好"),
    ("请打开快递柜", "请打开小黄鸭快递柜"),
    ("记得带伞", "明天记得带伞"),
    ("小黄鸭", "小黄鸭"),
]

SPECIALS = ["<pad>", "</s>", "<unk>"]

# Tiny models run fastest on one thread, and a busy 2-core CI box makes torch's intra-op threads spin (10x slower).
torch.set_num_threads(1)


def make_tokenizer(
    with_pad: bool = True, eos: bool = True, extra_chars: str = "", specials_last: bool = False
) -> PreTrainedTokenizerFast:
    """Character-level WordLevel tokenizer; ids 0/1/2 are ``<pad>``/``</s>``/``<unk>`` (the last three ids with
    ``specials_last``, so that id 0 is an ordinary character as in GPT-2's vocabulary); appends ``</s>`` if ``eos``.
    ``extra_chars`` (whitespace ignored) extends the vocabulary."""
    chars = sorted({c for a, b in PAIRS + EVAL_PAIRS for c in a + b} | set("多少是") | set("".join(extra_chars.split())))
    order = chars + SPECIALS if specials_last else SPECIALS + chars
    vocab = {tok: i for i, tok in enumerate(order)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex("."), behavior="isolated")]
    )
    if eos:
        tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", vocab["</s>"])])
    kwargs = {"eos_token": "</s>", "unk_token": "<unk>"}
    if with_pad:
        kwargs["pad_token"] = "<pad>"
    return PreTrainedTokenizerFast(tokenizer_object=tok, **kwargs)


def _vocabulary(tokenizer) -> dict:
    """What a toy model's config takes from its tokenizer: the vocabulary size and the pad and end ids."""
    return {"vocab_size": len(tokenizer), "pad_token_id": tokenizer.pad_token_id,
            "eos_token_id": tokenizer.eos_token_id}


def make_t5(tokenizer, seed: int = 0) -> T5ForConditionalGeneration:
    """A one-layer T5 (d_model 32) with random weights; generation up to 16 tokens, greedy."""
    torch.manual_seed(seed)
    config = T5Config(d_model=32, d_ff=64, d_kv=16, num_layers=1, num_decoder_layers=1, num_heads=2, dropout_rate=0.0,
                      decoder_start_token_id=tokenizer.pad_token_id, **_vocabulary(tokenizer))
    model = T5ForConditionalGeneration(config)
    model.generation_config.max_length = 16
    model.generation_config.num_beams = 1
    model.generation_config.do_sample = False
    return model


def make_causal_lm(tokenizer, seed: int = 0, output_hidden_states: bool = True) -> GPT2LMHeadModel:
    """A one-layer GPT-2 (n_embd 32) with random weights. ``output_hidden_states`` makes the Trainer's predictions a
    tuple ``(logits, hidden_states)``."""
    torch.manual_seed(seed)
    config = GPT2Config(n_positions=64, n_embd=32, n_layer=1, n_head=2, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                        bos_token_id=tokenizer.eos_token_id, output_hidden_states=output_hidden_states,
                        use_cache=False, **_vocabulary(tokenizer))
    return GPT2LMHeadModel(config)


def seq2seq_dataset(tokenizer, pairs=PAIRS) -> Dataset:
    """``input_ids``/``attention_mask`` from the source, ``labels`` (with ``</s>``) from the target."""
    rows = []
    for src, tgt in pairs:
        enc = tokenizer(src)
        labels = tokenizer(tgt)["input_ids"]
        rows.append({"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "labels": labels})
    return Dataset.from_list(rows)


def causal_dataset(tokenizer, pairs=PAIRS) -> Dataset:
    """Prompt + answer + ``</s>`` as one sequence; labels are -100 on the prompt (only the answer is scored)."""
    rows = []
    for src, tgt in pairs:
        p = tokenizer(src, add_special_tokens=False)["input_ids"]
        a = tokenizer(tgt)["input_ids"]  # ends with </s>
        ids = p + a
        rows.append({"input_ids": ids, "attention_mask": [1] * len(ids), "labels": [-100] * len(p) + a})
    return Dataset.from_list(rows)


def causal_collator(tokenizer):
    """Right-pad input_ids with pad, labels with -100 (different lengths per batch, as real data)."""

    def collate(features):
        n = max(len(f["input_ids"]) for f in features)
        out = {"input_ids": [], "attention_mask": [], "labels": []}
        for f in features:
            k = n - len(f["input_ids"])
            out["input_ids"].append(f["input_ids"] + [tokenizer.pad_token_id] * k)
            out["attention_mask"].append(f["attention_mask"] + [0] * k)
            out["labels"].append(f["labels"] + [-100] * k)
        return {key: torch.tensor(v) for key, v in out.items()}

    return collate
