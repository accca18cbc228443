"""The twin check of `zheval.tokenizers.term_ids.term_token_spans` against the char tokenizer with terms
(`CharTokenizer.tokenize_normalized`): random texts over the characters where terms and char tokens interact,
adversarial term lists (overlapping terms, terms at text edges, with punctuation, Latin, digits, marks, flags,
terms changed by normalisation, a term inside a word run) and the shared real data."""

from __future__ import annotations

import contextlib
import random
import re

from helpers.compiled_twins import compiled_modes, kernels_loaded_for_the_check

#: Term lists that exercise every rule of the merge (and every way a text falls back to the tokenizer).
TERM_LISTS = (
    ("小黄鸭", "APP", "快递柜"),
    ("app", "No.", "v1", "C++", "北京酒店", "酒店", "店长", "京酒", "3.5"),
    ("a", ",cd", "b,c", "。再", "🇳🇺", "好的 你", "e\u0301"),
    ("ＡＰＰ", "５G", "①", "Ａｐｐ"),
    ("北京", "地铁站", "酒店", "推荐", "电话", "数据", "研究", "方法"),
)
ALPHABET = "北京酒店长好的你app.5 ,。Gb,cdNo!C+v1e\u0301\ufe0f🇨🇳🇺😀\t"
ADVERSARIAL = ["请打开小黄鸭APP查快递柜取件码！", "APPLE app apps", "No.5 No. 5 v1.5 v1 C++abc C++", "xapp 北京酒店 酒店长",
               "  ", "", "e\u0301app", "🇨🇳🇺🇸 flag 🇳🇺", "ab,cd ,cd", "3.5GB 北京。再见", "Ａpp ＡＰＰ app",
               "京酒店店长", "北京", "酒店", "好的 你好", "\u0301北京", "北京\u0301酒店", "a", "3.5.6"]


def check_term_token_spans(real) -> None:
    from zheval.tokenizers.char import CHAR_MARK, CharTokenizer
    from zheval.tokenizers.corpus import TokenIds
    from zheval.text.normalize_corpus import normalize_corpus
    from zheval.tokenizers.term_ids import term_token_spans

    rng = random.Random(31)
    texts = ADVERSARIAL + ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 16))) for _ in range(1500)]
    if real is not None:
        texts += list(real[0]) + [r for rs in real[1] for r in rs]
    no_marks = [t for t in texts if re.search(CHAR_MARK, CharTokenizer().normalize(t)) is None]
    for batch, terms, punct, compiled in [(b, t, p, c) for b in (texts, no_marks) for t in TERM_LISTS
                                          for p in ("keep", "drop") for c in compiled_modes()]:
        tok = CharTokenizer(terms=terms, punct=punct)
        norm = normalize_corpus(batch, tok.normalizer)
        vocab = TokenIds()
        with kernels_loaded_for_the_check() if compiled else contextlib.nullcontext():
            ids, text_tokens = term_token_spans(norm.codepoints, norm.offsets, tok, vocab, compiled)
        words = list(vocab)
        assert sorted(set(ids.tolist())) == list(range(len(words)))  # dense: exactly the tokens present
        for k, text in enumerate(norm.texts()):
            got = [words[i] for i in ids[text_tokens[k]:text_tokens[k + 1]].tolist()]
            assert got == tok.tokenize_normalized(text), (terms, punct, compiled, text)
