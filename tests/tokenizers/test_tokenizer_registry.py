"""zheval.tokenizers.get_tokenizer and the tokenizer interface (zheval.tokenizers.base): fingerprints cover every
option, rouge-score's tokenizer interface, non-str input named by type, unknown names and options refused, pickling
for workers, the bounded content-keyed token cache, boolean options type-checked."""

import pickle
from pathlib import Path

import pytest

from zheval.tokenizers import CharTokenizer, JiebaTokenizer, cache_info, clear_cache, get_tokenizer


def _fingerprint_of_copy(package: Path, edit: str = "") -> str:
    """``get_tokenizer("char").fingerprint`` in a fresh interpreter importing the copy ``package/zheval`` whose
    ``text/normalize.py`` has ``edit`` appended."""
    import subprocess
    import sys

    if edit:
        f = package / "zheval" / "text" / "normalize.py"
        f.write_text(f.read_text(encoding="utf-8") + edit, encoding="utf-8")
    code = "import zheval; from zheval.tokenizers import get_tokenizer; print(zheval.__file__, get_tokenizer('char').fingerprint)"
    out = subprocess.run([sys.executable, "-c", code], cwd=package, capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "PYTHONPATH": str(package)}).stdout.split()
    assert out[0].startswith(str(package)), out  # the copy was imported
    return out[1]


def test_fingerprint_changes_with_the_package_source(tmp_path):
    # the fingerprint keys the datasets map cache on disk (zheval.adapters.duck.statistics): with the version alone
    # (0.1.0 at every commit), a checkout whose tokenisation changed reused statistics computed by the old code
    import shutil

    import zheval

    src = Path(zheval.__file__).resolve().parent
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        shutil.copytree(src, d / "zheval", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    assert _fingerprint_of_copy(a) == _fingerprint_of_copy(b)  # the same code: the same fingerprint
    assert _fingerprint_of_copy(a) != _fingerprint_of_copy(b, "\n# a change of the normalisation code\n")


def test_fingerprint_covers_options():
    fps = {
        get_tokenizer("char").fingerprint,
        get_tokenizer("char", punct="drop").fingerprint,
        get_tokenizer("char", normalize=False).fingerprint,
        get_tokenizer("char", t2s=True).fingerprint,
        get_tokenizer("char", terms=["a"]).fingerprint,
        get_tokenizer("jieba").fingerprint,
        get_tokenizer("none").fingerprint,
    }
    assert len(fps) == 7
    assert get_tokenizer("char").fingerprint == CharTokenizer().fingerprint  # stable for equal config


def test_rouge_score_tokenizer_interface():
    from rouge_score import rouge_scorer

    tok = get_tokenizer("char")
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=tok)
    s = scorer.score("今天天气很好", "今天天气不错")
    # 4 of 6 characters shared: P = R = F = 4/6
    assert s["rouge1"].fmeasure == pytest.approx(4 / 6)
    assert tok.tokenize("你好") == tok("你好") == ["你", "好"]


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["list"]])
def test_non_str_raises_typeerror_naming_type(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        get_tokenizer("char")(bad)
    with pytest.raises(TypeError, match=type(bad).__name__):
        get_tokenizer("jieba")(bad)


def test_unknown_names_and_options():
    with pytest.raises(ValueError, match="char.*jieba.*none"):
        get_tokenizer("bpe")
    with pytest.raises(ValueError, match="keep"):
        get_tokenizer("char", punct="maybe")
    with pytest.raises(ValueError, match="jieba_hmm"):
        get_tokenizer("char", jieba_hmm=True)
    with pytest.raises(ValueError, match="valid steps"):
        get_tokenizer("char", normalize="nfkc+nope")
    with pytest.raises(TypeError):
        get_tokenizer("char", terms="小黄鸭")
    with pytest.raises(TypeError, match=r"terms\[1\]"):
        get_tokenizer("char", terms=["a", None])
    with pytest.raises(ValueError, match=r"terms\[0\]"):
        get_tokenizer("char", terms=[" "])
    with pytest.raises(TypeError):
        get_tokenizer(None)


def test_pickle_roundtrip_for_workers():
    for tok in (get_tokenizer("char", terms=["小黄鸭"]), JiebaTokenizer(terms=["取件码"])):
        tok("小黄鸭取件码")
        clone = pickle.loads(pickle.dumps(tok))
        assert clone("小黄鸭取件码") == tok("小黄鸭取件码")
        assert clone.fingerprint == tok.fingerprint
    assert len(pickle.dumps(JiebaTokenizer())) < 10_000  # never ships the jieba dictionary


def test_cache_is_bounded_and_clearable():
    clear_cache()
    tok = get_tokenizer("char")
    tok("缓存测试")
    tok("缓存测试")
    info = cache_info()
    assert info["hits"] >= 1 and info["size"] >= 1 and info["maxsize"] > 0
    out = tok("缓存测试")
    out.append("mutated")
    assert tok("缓存测试") == ["缓", "存", "测", "试"]  # callers get a fresh list
    clear_cache()
    assert cache_info()["size"] == 0


@pytest.mark.parametrize("flag", ["t2s", "jieba_hmm"])
def test_boolean_options_are_type_checked(flag):
    with pytest.raises(TypeError, match=flag):
        get_tokenizer("jieba", **{flag: "yes"})


@pytest.mark.parametrize("terms", ["/tmp/terms.txt", Path("/tmp/terms.txt")])
def test_a_terms_path_at_the_library_door_is_refused(terms):
    # the library takes the terms themselves; a path (str or Path) is not read as a file here
    with pytest.raises(TypeError) as err:
        get_tokenizer("char", terms=terms)
    assert "terms must be a list of strings, not a single string or path" in str(err.value)
    assert "pass the list of its terms" in str(err.value)
