"""zheval.results.signature: the fields of a signature in order, their values, and what a signature refuses."""

import pytest

from zheval.results.signature import build_signature, nrefs_field, parse_signature
from zheval.tokenizers import get_tokenizer
from zheval.version import __version__


def test_signature_fields_in_order():
    tok = get_tokenizer("char", terms=["小黄鸭"])
    sig = build_signature(tok, [2, 3, 2], "rouge", [("multi", "max"), ("beta", 1.0)])
    fields = parse_signature(sig)
    assert list(fields) == ["nrefs", "tok", "norm", "case", "metric", "multi", "beta", "zheval"]
    assert fields["nrefs"] == "var"
    assert fields["tok"].startswith("zh-char+terms.")
    assert fields["norm"] == "nfkc+zw+punct+space+lower"
    assert fields["case"] == "lc"
    assert fields["beta"] == "1"
    assert fields["zheval"] == __version__


def test_signature_preset_jieba_and_t2s():
    tok = get_tokenizer("jieba", jieba_hmm=True, t2s=True, normalize=False)
    sig = parse_signature(build_signature(tok, [1, 1], "bleu", [("bp", None), ("eff", True)], preset="llamafactory"))
    assert sig["nrefs"] == "1"
    assert sig["tok"].startswith("jieba-0.42.1+dict.") and sig["tok"].endswith("+hmm")
    assert sig["norm"] == "t2s" and sig["case"] == "mixed"
    assert sig["preset"] == "llamafactory" and sig["bp"] == "none" and sig["eff"] == "yes"


def test_nrefs_field():
    assert nrefs_field([]) == "0"
    assert nrefs_field([4, 4]) == "4"
    assert nrefs_field([4, 3]) == "var"


def test_signature_rejects_reserved_characters():
    with pytest.raises(ValueError, match="reserved"):
        build_signature(get_tokenizer("char"), [1], "rouge", [("x", "a|b")])


def test_t2s_signature_names_the_opencc_version():
    """The t2s step's output is OpenCC's dictionaries: a signature with t2s names the installed OpenCC (which
    pyproject pins exactly); without t2s there is no opencc field."""
    import importlib.metadata as md

    import zheval
    from zheval.results.signature import parse_signature

    for fn in (zheval.compute_rouge, zheval.compute_bleu):
        on = parse_signature(fn(["頭髮很好"], [["头发很好"]], t2s=True)["signature"])
        assert on["opencc"] == md.version("opencc") and "t2s" in on["norm"].split("+")
        off = parse_signature(fn(["頭髮很好"], [["头发很好"]])["signature"])
        assert "opencc" not in off
    custom = parse_signature(zheval.compute_rouge(["頭髮"], [["头发"]], normalize=["t2s"])["signature"])
    assert custom["opencc"] == md.version("opencc")


def test_zheval_char_tokenizer_is_not_signed_as_sacrebleus_char():
    # break-it: zheval's signature said tok:char, the very field sacrebleu writes for its own char tokenizer, which
    # splits every character (iOS -> i O S); zheval's keeps letter/digit runs whole (iOS -> iOS)
    from sacrebleu.metrics import BLEU

    sacre = BLEU(tokenize="char")
    sacre.corpus_score(["iOS 好"], [["iOS 好"]])
    sacre_tok = dict(f.split(":", 1) for f in sacre.get_signature().format().split("|"))["tok"]
    assert sacre_tok == "char" and sacre.tokenizer("iOS") == "i O S"
    ours = get_tokenizer("char", normalize=False)
    assert ours("iOS") == ["iOS"]
    assert parse_signature(build_signature(ours, [1], "bleu"))["tok"] == "zh-char"
    assert parse_signature(build_signature(get_tokenizer("char", punct="drop"), [1], "bleu"))["tok"] == "zh-char+nopunct"
