"""User tokenizers (a callable or an object with ``.tokenize``): what text they receive, and that their results are
never reused across calls (issue 13, items 1 and 2).

* No process-wide cache for them: a freshly made lambda or a new instance of one class with other options -- even at
  the address of a freed one, which CPython reuses -- gives its own numbers; a callable whose behaviour changed
  (global ``jieba.lcut`` after ``jieba.add_word``) gives the new numbers.
* They receive the text normalised with ``nfkc+zw+punct+lower`` (no ``space`` step), so a whitespace-splitting
  callable on pre-segmented Chinese or Japanese gives exactly rouge-score's numbers with the same callable; the
  signature's ``norm`` field names those steps.

Expected values come from rouge-score 0.1.2 (``RougeScorer(..., tokenizer=...)``) and sacrebleu 2.6.0
(``tokenize="none"`` on the callable's tokens), computed in the tests.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import sacrebleu
from rouge_score import rouge_scorer

import zheval
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from zheval.results.signature import parse_signature
from zheval.tokenizers import (
    BaseTokenizer,
    CallableTokenizer,
    CharTokenizer,
    USER_TOKENIZER_STEPS,
    cache_info,
    get_tokenizer,
)

TYPES = ["rouge1", "rouge2", "rougeL"]

# Lower-case, half-width, no invisible characters: the normalisation a user tokenizer receives changes nothing here,
# so rouge-score fed the raw texts is the independent reference.
PREDS = ["今天 天气 很 好", "我 想 去 北京 看 故宫", "这 家 店 的 菜 很 好吃", "abc abd abe"]
REFS = [["今天 天气 不错", "天气 很 好"], ["我 想 去 北京"], ["这 家 店 很 好吃 的 菜"], ["abd abc", "abe"]]


class _Wrap:
    """A rouge-score tokenizer object around a callable."""

    def __init__(self, fn):
        self.fn = fn

    def tokenize(self, text):
        return self.fn(text)


def rouge_score_reference(fn, preds=PREDS, refs=REFS, types=TYPES):
    """rouge-score's per-item F (``score_multi``: per type the reference with the best F) and their means."""
    scorer = rouge_scorer.RougeScorer(types, tokenizer=_Wrap(fn))
    items = [scorer.score_multi(rs, p) for p, rs in zip(preds, refs)]
    per_item = {t: [it[t].fmeasure for it in items] for t in types}
    return per_item, {t: sum(v) / len(v) for t, v in per_item.items()}


def sacrebleu_reference(fn, preds=PREDS, refs=REFS):
    """sacrebleu corpus BLEU (0-1) on the callable's tokens joined by spaces (``tokenize="none"``)."""
    n_refs = max(len(r) for r in refs)
    hyps = [" ".join(fn(p)) for p in preds]
    streams = [[" ".join(fn(rs[k])) if k < len(rs) else None for rs in refs] for k in range(n_refs)]
    # sacrebleu needs full streams: give missing references as the item's first one repeated (BLEU's multi-reference
    # rule uses the max count per n-gram and the closest length, so a repeated reference changes nothing)
    streams = [[s if s is not None else " ".join(fn(rs[0])) for s, rs in zip(stream, refs)] for stream in streams]
    return sacrebleu.corpus_bleu(hyps, streams, tokenize="none").score / 100


# Behaviours of the callables made afresh in the loops below (each a different tokenisation of the same texts).
def _behaviour(k):
    if k == 0:
        return lambda s: s.split()
    if k == 1:
        return lambda s: list(s.replace(" ", ""))
    if k == 2:
        return lambda s: [w for w in s.split() if len(w) > 1] or ["空"]
    if k == 3:
        return lambda s: [w[:1] for w in s.split()]
    return lambda s: s.split()[::-1]


def test_fresh_lambdas_at_reused_addresses_give_their_own_rouge():
    seen: dict[int, int] = {}
    reused = 0
    for i in range(60):
        k = i % 5
        fn = _behaviour(k)
        if id(fn) in seen and seen[id(fn)] != k:
            reused += 1  # the freed lambda's address now holds a callable of another behaviour
        seen[id(fn)] = k
        got = compute_rouge(PREDS, REFS, tokenizer=fn, rouge_types=TYPES, use_aggregator=False)
        want, _ = rouge_score_reference(fn)
        for t in TYPES:
            assert got[t] == pytest.approx(want[t], abs=1e-12), (i, k, t)
        del fn
    assert reused > 0, "the loop never reused an address: it does not test what it claims"


class _NGramChars:
    """Characters (spaces removed) grouped n at a time: instances with other n tokenise differently."""

    def __init__(self, n):
        self.n = n

    def tokenize(self, text):
        s = text.replace(" ", "")
        return [s[i:i + self.n] for i in range(0, len(s), self.n)]


def test_new_instances_of_one_class_with_other_options_give_their_own_bleu():
    seen: dict[int, int] = {}
    reused = 0
    for i in range(60):
        n = i % 4 + 1
        obj = _NGramChars(n)
        if id(obj) in seen and seen[id(obj)] != n:
            reused += 1
        seen[id(obj)] = n
        got = compute_bleu(PREDS, REFS, tokenizer=obj)
        assert got["bleu"] == pytest.approx(sacrebleu_reference(obj.tokenize), abs=1e-12), (i, n)
        assert got["translation_length"] == sum(len(obj.tokenize(p)) for p in PREDS)
        del obj
    assert reused > 0, "the loop never reused an address: it does not test what it claims"


def test_score_with_fresh_callables_gives_their_own_numbers():
    for i in range(50):
        fn = _behaviour(i % 5)
        got = zheval.score(PREDS, REFS, tokenizer=fn, rouge_types=TYPES)
        _, want_mean = rouge_score_reference(fn)
        for t in TYPES:
            assert got["rouge"][t] == pytest.approx(want_mean[t], abs=1e-12), (i, t)
        assert got["bleu"]["bleu"] == pytest.approx(sacrebleu_reference(fn), abs=1e-12), i
        del fn


def test_a_user_tokenizer_runs_on_every_call_and_fills_no_cache():
    calls = []

    def counting(text):
        calls.append(text)
        return text.split()

    before = cache_info()["size"]
    compute_rouge(PREDS, REFS, tokenizer=counting, rouge_types=["rouge1"])
    first = len(calls)
    compute_rouge(PREDS, REFS, tokenizer=counting, rouge_types=["rouge1"])
    assert first > 0 and len(calls) == 2 * first  # nothing was taken from an earlier call
    tok = get_tokenizer(counting)
    tok("今天 天气")
    tok("今天 天气")
    assert calls[-2:] == ["今天 天气", "今天 天气"]
    assert cache_info()["size"] == before


def test_user_tokenizer_fingerprints_are_never_equal():
    fn = str.split
    a, b = get_tokenizer(fn), get_tokenizer(fn)
    assert not a.content_keyed and not b.content_keyed
    fps = {a.fingerprint, a.fingerprint, b.fingerprint}
    assert len(fps) == 3  # new on every access: nothing keyed by it is ever reused
    assert all("uncached" in fp for fp in fps)


def test_subclasses_are_not_content_keyed_unless_they_say_so():
    class Upper(CharTokenizer):  # changes the rules without declaring it: must not share the char cache
        def tokenize_normalized(self, text):
            return [t.upper() for t in super().tokenize_normalized(text)]

    class Declared(CharTokenizer):
        content_keyed = True

    class Mine(BaseTokenizer):
        name = "mine"

        def __init__(self):
            from zheval.text.normalize import Normalizer

            super().__init__(Normalizer(()))

        def tokenize_normalized(self, text):
            return text.split()

        def _config(self):
            return {"name": self.name}

    assert CharTokenizer.content_keyed and not Upper.content_keyed and Declared.content_keyed
    assert not Mine.content_keyed and not CallableTokenizer.content_keyed
    plain = CharTokenizer(normalizer=None)
    assert plain("abc 天") == ["abc", "天"]
    assert Upper()("abc 天") == ["ABC", "天"]  # not the plain char tokens cached under an equal fingerprint
    assert plain("abc 天") == ["abc", "天"]
    assert Mine()("a b") == ["a", "b"]


_CHANGING_CALLABLE = r"""
import json, sys
import jieba
from rouge_score import rouge_scorer
from zheval.compute.rouge import compute_rouge
from zheval.tokenizers import get_tokenizer

preds = ["杭研大厦"]
refs = [["他来到了网易杭研大厦"]]
fn = lambda s: jieba.lcut(s, HMM=False)

class Wrap:
    def tokenize(self, text):
        return fn(text)

def reference():
    return rouge_scorer.RougeScorer(["rouge1"], tokenizer=Wrap()).score(refs[0][0], preds[0])["rouge1"].fmeasure

tok = get_tokenizer(fn)  # one wrapper used for both calls, too
out = {"before": [compute_rouge(preds, refs, tokenizer=fn, rouge_types=["rouge1"])["rouge1"],
                  compute_rouge(preds, refs, tokenizer=tok, rouge_types=["rouge1"])["rouge1"], reference(), fn(preds[0])]}
jieba.add_word("杭研大厦")
out["after"] = [compute_rouge(preds, refs, tokenizer=fn, rouge_types=["rouge1"])["rouge1"],
                compute_rouge(preds, refs, tokenizer=tok, rouge_types=["rouge1"])["rouge1"], reference(), fn(preds[0])]
print(json.dumps(out, ensure_ascii=False))
"""


def test_a_callable_whose_behaviour_changed_gives_the_new_numbers():
    # in a subprocess: jieba.add_word changes the global jieba of the whole process
    proc = subprocess.run([sys.executable, "-c", _CHANGING_CALLABLE], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    b_fn, b_tok, b_ref, b_tokens = out["before"]
    a_fn, a_tok, a_ref, a_tokens = out["after"]
    assert b_tokens == ["杭", "研", "大厦"] and a_tokens == ["杭研大厦"]
    # by hand: before, 3 of 3 prediction tokens in the 7-token reference: P = 1, R = 3/7, F = 2*3/7/(1+3/7) = 0.6;
    # after, 1 of 1 in the 5-token reference: P = 1, R = 1/5, F = 1/3
    assert b_ref == pytest.approx(0.6) and a_ref == pytest.approx(1 / 3)
    assert b_fn == b_tok == pytest.approx(b_ref, abs=1e-12)
    assert a_fn == a_tok == pytest.approx(a_ref, abs=1e-12)


# ---------------------------------------------------------------------------------------------------------------
# item 2: what a user tokenizer receives

ZH_PREDS = ["今天 天气 很 好", "我们 明天 去 北京 玩", "这个 问题 很 难"]
ZH_REFS = [["今天 天气 不错", "今天 的 天气 很 好"], ["我们 明天 去 上海 玩"], ["这个 问题 不 难", "问题 很 难"]]
JA_PREDS = ["今日 は いい 天気 です", "明日 東京 へ 行きます", "この 本 は 面白い"]
JA_REFS = [["今日 は 天気 が いい です", "いい 天気 です"], ["明日 大阪 へ 行きます"], ["この 本 は とても 面白い"]]


def _split(s):
    return s.split()


@pytest.mark.parametrize("preds, refs", [(ZH_PREDS, ZH_REFS), (JA_PREDS, JA_REFS)], ids=["chinese", "japanese"])
def test_whitespace_callable_on_presegmented_text_equals_rouge_score(preds, refs):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types, tokenizer=_Wrap(_split))
    want_multi = [scorer.score_multi(rs, p) for p, rs in zip(preds, refs)]
    got_items = compute_rouge(preds, refs, tokenizer=_split, rouge_types=types, use_aggregator=False,
                              sentence_split="newline")
    got_mean = compute_rouge(preds, refs, tokenizer=_split, rouge_types=types, sentence_split="newline")
    for t in types:
        want = [w[t].fmeasure for w in want_multi]
        assert got_items[t] == pytest.approx(want, abs=1e-12), t
        assert got_mean[t] == pytest.approx(sum(want) / len(want), abs=1e-12), t
        assert all(w > 0 for w in want[:1])  # the words are seen: not one token per text scoring 0
    # one reference per item: rouge-score's score() with the same callable
    single = compute_rouge(preds, [rs[0] for rs in refs], tokenizer=_split, rouge_types=types, use_aggregator=False,
                           sentence_split="newline")
    for t in types:
        assert single[t] == pytest.approx([scorer.score(rs[0], p)[t].fmeasure for p, rs in zip(preds, refs)], abs=1e-12)
    # BLEU: sacrebleu on the same words
    assert compute_bleu(preds, refs, tokenizer=_split)["bleu"] == pytest.approx(
        sacrebleu_reference(_split, preds, refs), abs=1e-12)


def test_user_tokenizer_receives_text_normalised_without_the_space_step():
    seen = []

    def record(text):
        seen.append(text)
        return text.split()

    get_tokenizer(record)("ＡＢＣ  今天 天气\u200b 很好！")
    assert seen == ["abc  今天 天气 很好!"]  # nfkc, zw, punct, lower ran; the spaces (both of them) are kept
    assert USER_TOKENIZER_STEPS == ("nfkc", "zw", "punct", "lower")
    seen.clear()
    get_tokenizer(record, normalize=True)("今天 天气")
    assert seen == ["今天天气"]  # normalize=True is the full default, space step included
    seen.clear()
    get_tokenizer(record, normalize=False)("ＡＢ  c")
    assert seen == ["ＡＢ  c"]


@pytest.mark.parametrize("normalize, norm_field", [(None, "nfkc+zw+punct+lower"), (True, "nfkc+zw+punct+space+lower"),
                                                    ("nfkc+space", "nfkc+space"), (False, "none")])
def test_signature_names_the_steps_a_user_tokenizer_received(normalize, norm_field):
    opts = {} if normalize is None else {"normalize": normalize}
    for result in (compute_rouge(PREDS, REFS, tokenizer=_split, **opts), compute_bleu(PREDS, REFS, tokenizer=_split, **opts)):
        sig = parse_signature(result["signature"])
        assert sig["norm"] == norm_field
        assert sig["tok"] == "custom:_split"
        assert sig["case"] == ("lc" if "lower" in norm_field else "mixed")


def test_user_callable_and_object():
    tok = get_tokenizer(lambda s: s.split("|"))
    assert tok("a|b| |c") == ["a", "b", "c"]  # empty/whitespace tokens removed

    class Obj:
        def tokenize(self, text):
            return list(text)

    assert get_tokenizer(Obj())("你好") == ["你", "好"]
    assert get_tokenizer(Obj()).signature().startswith("custom:")


def _fails_on(bad_text, result):
    """A whitespace tokenizer that returns ``result`` (or raises it, if it is an exception) on ``bad_text``."""
    def tok(s):
        if s == bad_text:
            if isinstance(result, BaseException):
                raise result
            return result
        return s.split()
    return tok


@pytest.mark.parametrize("preset", [None, "llamafactory"])
@pytest.mark.parametrize("bad_text, where", [("c", "predictions[1]"), ("d e", "references[1][1]"),
                                             ("x", "references[2][0]")])
def test_a_failing_user_tokenizer_names_the_text(preset, bad_text, where):
    """Every path that tokenises (ROUGE's corpus, ROUGE's llamafactory preset, BLEU, score) names the text a user
    tokenizer failed on; the user's own exception keeps its type and gets a note (Python 3.11+)."""
    preds, refs = ["a b", "c", "e f"], [["a b"], ["c d", "d e"], ["x"]]
    fns = [compute_rouge] if preset else [compute_rouge, compute_bleu, zheval.score]
    kw = {"preset": preset} if preset else {}
    for fn in fns:
        with pytest.raises(TypeError, match=rf"^{re.escape(where)}: custom tokenizer .* returned NoneType"):
            fn(preds, refs, tokenizer=_fails_on(bad_text, None), **kw)
        with pytest.raises(TypeError, match=rf"^{re.escape(where)}: custom tokenizer .* returned a int at token 0"):
            fn(preds, refs, tokenizer=_fails_on(bad_text, [1]), **kw)
        with pytest.raises(ZeroDivisionError) as info:
            fn(preds, refs, tokenizer=_fails_on(bad_text, ZeroDivisionError("boom")), **kw)
        if sys.version_info >= (3, 11):
            assert any(note.startswith(f"{where}: the custom:") for note in info.value.__notes__)
