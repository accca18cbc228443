"""zheval.compute_chrf: a hand computation written out, sacrebleu's own test-suite values, the word rule, the edge
cases (empty prediction, empty reference, one character, mixed Latin/Han, Traditional vs Simplified), intervals,
paired tests and option errors."""

import math
import warnings

import numpy as np
import opencc
import pytest
from sacrebleu.metrics import CHRF

import zheval
from zheval.compute.chrf import ChrfOptions, chrf_config, chrf_items, score_from_sums
from zheval.definitions.chrf import SACREBLEU_PUNCTUATION, item_stats, split_word_punctuation
from zheval.definitions.chrf_score import EPS, score_stats

RAW = {"normalize": False, "tokenizer": "none"}  # sacrebleu's own view of the text: no normalisation


# ---------------------------------------------------------------------------------------------------------------
# hand computations


def test_hand_computation_one_item():
    # hyp 你 vs ref 你好, chrF (char_order 6, beta 2):
    #   order 1: hyp {你: 1}, ref {你: 1, 好: 1} -> hyp 1, ref 2, match 1: P = 1, R = 1/2
    #   order 2: hyp has no bigram, ref {你好: 1} -> [0, 1, 0]; orders 3..6: the reference has none -> [0, 0, 0]
    #   effective order: only order 1 has n-grams on both sides -> P = 1, R = 0.5
    #   F2 = (1 + 4) * 1 * 0.5 / (4 * 1 + 0.5) = 2.5 / 4.5 = 5/9
    r = zheval.compute_chrf(["你"], ["你好"])
    assert r["hyp_counts"] == [1, 0, 0, 0, 0, 0] and r["ref_counts"] == [2, 1, 0, 0, 0, 0]
    assert r["matches"] == [1, 0, 0, 0, 0, 0]
    assert r["chrf"] == pytest.approx(5 / 9, abs=1e-15)
    # eps smoothing: order 1 F = 5/9; order 2: P = eps, R = 0/1 = 0 -> F = 0; orders 3..6: P = R = eps -> F = eps;
    # mean over all 6 orders
    e = zheval.compute_chrf(["你"], ["你好"], eps_smoothing=True)
    assert e["chrf"] == pytest.approx((5 / 9 + 0 + 4 * EPS) / 6, abs=1e-15)
    assert e["chrf"] * 100 == pytest.approx(9.259259, abs=1e-6)


def test_hand_computation_corpus_sums_not_mean():
    # item 1: 好 vs 好 -> [1, 1, 1] at order 1, nothing above; item 2: 是 vs 不是 -> [1, 2, 1], [0, 1, 0]
    # corpus (char_order 2): order 1 [2, 3, 2] -> P 1, R 2/3; order 2 [0, 1, 0] -> not effective
    # F2 = 5 * 1 * (2/3) / (4 + 2/3) = (10/3) / (14/3) = 5/7
    r = zheval.compute_chrf(["好", "是"], ["好", "不是"], char_order=2)
    assert r["chrf"] == pytest.approx(5 / 7, abs=1e-15)
    s = zheval.compute_chrf(["好", "是"], ["好", "不是"], char_order=2, level="sentence")
    # item 1: P = R = 1 -> 1; item 2: P 1, R 1/2 -> 5/9
    assert s["scores"] == pytest.approx([1.0, 5 / 9], abs=1e-15) and s["chrf"] == pytest.approx((1 + 5 / 9) / 2)


def test_hand_computation_chrf_plus_plus_words():
    # chrF++ (char_order 1, word_order 2) of 北京 欢迎 你 vs 北京 欢迎 您 with the whitespace tokenizer:
    #   chars 北京欢迎你 / 北京欢迎您: [5, 5, 4]; words [3, 3, 2]; word bigrams (北京 欢迎), (欢迎 你) vs
    #   (北京 欢迎), (欢迎 您): [2, 2, 1]
    #   P = R = (4/5 + 2/3 + 1/2) / 3 -> F = P
    r = zheval.compute_chrf(["北京 欢迎 你"], ["北京 欢迎 您"], char_order=1, word_order=2, tokenizer="none")
    assert r["hyp_counts"] == [5, 3, 2] and r["matches"] == [4, 2, 1]
    assert r["chrf"] == pytest.approx((4 / 5 + 2 / 3 + 1 / 2) / 3, abs=1e-15)
    assert r["name"] == "chrF2++"


def test_best_reference_is_chosen_by_f_score_first_on_ties():
    # 今天 vs [明天, 今天]: the second reference matches fully; it wins although it comes second
    r = zheval.compute_chrf(["今天"], [["明天", "今天"]])
    assert r["chrf"] == 1.0
    row = item_stats("ab", [], ["xy", "ab", "ab"], [[], [], []], char_order=2)
    assert row == [2, 2, 2, 1, 1, 1]
    # a tie: both references score 0 -> the first one's statistics (its lengths) are kept
    row = item_stats("a", [], ["xyz", "bc"], [[], []], char_order=1)
    assert row == [1, 3, 0]


# ---------------------------------------------------------------------------------------------------------------
# sacrebleu's own test suite (test/test_chrf.py at mjpost/sacrebleu, the values written there), on raw text


SACRE_EPS_CASES = [  # corpus_chrf(..., char_order=6, word_order=0, beta=3, eps_smoothing=True)
    (["abcdefg"], ["hijklmnop"], 0.0),
    (["a"], ["b"], 0.0),
    ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333),
    (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector - these are the "
      "scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the "
      "scientists ."], 63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]
SACRE_EFF_CASES = [  # the same with eps_smoothing=False (sacreBLEU < 2.0 effective order)
    (["a"], ["a"], 100.0),
    ([""], ["reference"], 0.0),
    (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0),
    ([""], ["c"], 0.0),
    (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]
SACRE_SENTENCE_CASES = [  # sentence_chrf(hyp, refs, eps_smoothing=True), default orders and beta 2
    ("Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
     ["Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."], 39.14078509),
    ("Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
     ["A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."], 31.22557079),
    ("Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
     ["Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."], 57.15704367),
]


@pytest.mark.parametrize("hyps,refs,expected", SACRE_EPS_CASES)
def test_sacrebleu_suite_eps_smoothing(hyps, refs, expected):
    r = zheval.compute_chrf(hyps, refs, beta=3, eps_smoothing=True, **RAW)
    assert abs(r["chrf"] * 100 - expected) < 1e-4


@pytest.mark.parametrize("hyps,refs,expected", SACRE_EFF_CASES)
def test_sacrebleu_suite_effective_order(hyps, refs, expected):
    r = zheval.compute_chrf(hyps, refs, beta=3, **RAW)
    assert abs(r["chrf"] * 100 - expected) < 1e-4


@pytest.mark.parametrize("hyp,refs,expected", SACRE_SENTENCE_CASES)
def test_sacrebleu_suite_sentence_level(hyp, refs, expected):
    r = zheval.compute_chrf([hyp], [refs], eps_smoothing=True, level="sentence", **RAW)
    assert abs(r["scores"][0] * 100 - expected) < 1e-4


# ---------------------------------------------------------------------------------------------------------------
# the word rule of chrF++ (sacrebleu's _remove_punctuation on each token)


@pytest.mark.parametrize("tokens", [
    ["hello,", "world."], ["(hi)"], ["a", ",", "!"], ["..."], ["-x", "y-"], ["北京。", "，好"], ["e\u0301!"],
    ["!e\u0301"], ["\"quoted\""],
])
def test_word_rule_is_sacrebleus_on_tokens_joined_by_spaces(tokens):
    assert split_word_punctuation(tokens) == CHRF()._remove_punctuation(" ".join(tokens))


def test_word_rule_documented_examples():
    assert split_word_punctuation(["(hi)"]) == ["(hi", ")"]  # one character only (sacrebleu issue #124)
    assert split_word_punctuation(["北京。"]) == ["北京。"]  # CJK punctuation is not in sacrebleu's set
    assert "。" not in SACREBLEU_PUNCTUATION and len(SACREBLEU_PUNCTUATION) == 32


def test_jieba_words_count_for_chrf_plus_plus():
    # chrF ignores the segmentation; chrF++ with jieba counts jieba's words
    a = zheval.compute_chrf(["我爱北京天安门"], ["我爱北京天安门"], tokenizer="jieba", word_order=2)
    assert a["chrf"] == 1.0 and a["hyp_counts"][6] > 1  # several words
    with pytest.warns(zheval.UnsegmentedTextWarning):
        b = zheval.compute_chrf(["我爱北京天安门"], ["我 爱 北京 天安门"], tokenizer="none", word_order=2,
                                normalize=False)
    assert b["chrf"] < 1.0  # unsegmented text is one word under the whitespace tokenizer


# ---------------------------------------------------------------------------------------------------------------
# edge cases: named errors or documented results


def test_empty_prediction_scores_zero():
    assert zheval.compute_chrf([""], ["你好"])["chrf"] == 0.0
    assert zheval.compute_chrf(["", "你好"], ["你好", "你好"], level="sentence")["scores"] == [0.0, 1.0]
    assert zheval.compute_chrf([""], ["你好"], eps_smoothing=True)["chrf"] < 1e-15


@pytest.mark.parametrize("ref", ["", "   ", "\u200b\u200d", "\u3000"])
def test_empty_reference_after_normalisation_is_a_named_error(ref):
    with pytest.raises(zheval.EmptyReferenceError, match=r"references\[1\]\[0\]"):
        zheval.compute_chrf(["好", "好"], ["好", ref])


def test_punctuation_only_reference_counts_as_characters():
    # the characters of "。" are not removed by the default normalisation: a documented score, not an error
    assert zheval.compute_chrf(["。"], ["。"])["chrf"] == 1.0
    with pytest.raises(zheval.EmptyReferenceError, match="nopunct"):
        zheval.compute_chrf(["好"], ["。"], normalize=["nfkc", "nopunct"])
    # punct="drop" drops punctuation from chrF++'s words only: the word orders of that item are simply empty
    r = zheval.compute_chrf(["。"], ["。"], word_order=2, punct="drop")
    assert r["ref_counts"][6:] == [0, 0] and r["chrf"] == 1.0


def test_one_character_texts():
    assert zheval.compute_chrf(["好"], ["好"])["chrf"] == 1.0
    assert zheval.compute_chrf(["好"], ["坏"])["chrf"] == 0.0
    assert zheval.compute_chrf(["好"], ["好"], eps_smoothing=True)["chrf"] == pytest.approx((1 + 5 * EPS) / 6)
    assert zheval.compute_chrf(["好"], ["好"], word_order=2)["chrf"] == 1.0


def test_mixed_latin_and_han():
    # the default normalisation lower-cases Latin letters and drops spaces next to CJK; chrF then ignores spaces
    r = zheval.compute_chrf(["我用iPhone拍照"], ["我用 iphone 拍照"], word_order=2)
    assert r["chrf"] == 1.0
    # the words of the char tokenizer: 我 用 iphone 拍 照
    assert r["hyp_counts"][6] == 5
    # without normalisation the case differs (sacrebleu's view, lowercase=False)
    raw = zheval.compute_chrf(["我用iPhone拍照"], ["我用 iphone 拍照"], normalize=False)
    theirs = CHRF().corpus_score(["我用iPhone拍照"], [["我用 iphone 拍照"]]).score
    assert raw["chrf"] < 1.0 and abs(raw["chrf"] * 100 - theirs) < 1e-9


def test_traditional_vs_simplified_warns_and_t2s_fixes():
    simp = "我们今天下午在图书馆讨论这个问题，然后一起去吃晚饭，大家都觉得这家餐厅的菜很好吃。"
    trad = opencc.OpenCC("s2t").convert(simp)
    assert trad != simp
    with pytest.warns(zheval.ScriptMismatchWarning):
        low = zheval.compute_chrf([trad], [simp])["chrf"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.ZhevalWarning)
        fixed = zheval.compute_chrf([trad], [simp], t2s=True)
    assert fixed["chrf"] == 1.0 and low < 0.8 and "t2s" in fixed["signature"]


def test_unsegmented_warning_only_when_words_count():
    text = "我们今天下午在图书馆讨论这个问题"
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.ZhevalWarning)
        zheval.compute_chrf([text], [text], tokenizer="none")  # characters only: the tokens play no part
    with pytest.warns(zheval.UnsegmentedTextWarning):
        zheval.compute_chrf([text], [text], tokenizer="none", word_order=2)


# ---------------------------------------------------------------------------------------------------------------
# result shape, signature, intervals, paired tests, batches


def test_signature_fields():
    r = zheval.compute_chrf(["好的"], [["好的", "好"]], word_order=2)
    sig = r["signature"]
    assert sig.startswith("nrefs:2|tok:zh-char|norm:nfkc+zw+punct+space+lower|case:lc|metric:chrf|name:chrF2++|")
    assert "|nc:6|nw:2|beta:2|eff:yes|space:no|zheval:" in sig
    assert "eff:no" in zheval.compute_chrf(["好"], ["好"], eps_smoothing=True)["signature"]
    assert "nrefs:var" in zheval.compute_chrf(["好", "好"], [["好"], ["好", "坏"]])["signature"]
    assert "bs:100|seed:7" in zheval.compute_chrf(["好"], ["好"], bootstrap=100, seed=7)["signature"]


def test_bootstrap_interval_brackets_the_score():
    preds = ["今天天气很好", "我们去公园", "他不在家", "明天见", "谢谢你的帮助"] * 4
    refs = ["今天天气不错", "我们去公园玩", "他在家", "明天再见", "谢谢帮助"] * 4
    r = zheval.compute_chrf(preds, refs, bootstrap=200, seed=3)
    assert r["chrf_ci_low"] <= r["chrf"] <= r["chrf_ci_high"] and r["chrf_ci_low"] < r["chrf_ci_high"]
    # the interval of resampled corpus scores, each from summed statistics (done by hand with the same draws)
    items = chrf_items(preds, [[x] for x in refs], cfg := chrf_config())
    rng = np.random.default_rng(3)
    idx = rng.integers(0, len(preds), size=(200, len(preds)))
    vals = score_from_sums(cfg)(items.stats[idx].sum(axis=1))
    assert (r["chrf_ci_low"], r["chrf_ci_high"]) == pytest.approx(tuple(np.percentile(vals, [2.5, 97.5])))
    s = zheval.compute_chrf(preds, refs, bootstrap=200, seed=3, level="sentence")
    assert s["chrf_ci_low"] <= s["chrf"] <= s["chrf_ci_high"]


def test_paired_tests_from_chrf_statistics_equal_sacrebleus(monkeypatch):
    # sacrebleu's paired bootstrap and AR on chrF (its own statistics and seed) against zheval's reducers on ours
    from sacrebleu.significance import PairedTest

    from zheval.results.reducers import paired_bootstrap
    from zheval.results.significance import paired_approximate_randomization

    refs = ["今天天气不错", "我们去公园玩", "他在家", "明天再见", "谢谢帮助", "这本书很有意思"] * 3
    a = ["今天天气很好", "我们去公园", "他不在家", "明天见", "谢谢你的帮助", "这书有意思"] * 3
    b = ["今天天气不错啊", "我们去玩", "他在家里", "明天见", "谢谢", "这本书很有意思"] * 3
    cfg = chrf_config()
    rows_a, rows_b = (chrf_items(s, [[x] for x in refs], cfg).stats for s in (a, b))
    ours_bs = paired_bootstrap(rows_a, rows_b, score_from_sums(cfg), 1000, 0.95, 12345)
    ours_ar = paired_approximate_randomization(rows_a, rows_b, score_from_sums(cfg), 1000, 12345)
    norm = cfg.tokenizer.normalize
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    named = [("A", [norm(x) for x in a]), ("B", [norm(x) for x in b])]
    for test, ours in (("bs", ours_bs), ("ar", ours_ar)):
        _, res = PairedTest(named, {"chrF": CHRF()}, [[norm(x) for x in refs]], test_type=test, n_samples=1000)()
        assert ours["p_value"] == pytest.approx(res["chrF2"][1].p_value, abs=1e-12), test
        assert ours["delta"] * 100 == pytest.approx(res["chrF2"][1].score - res["chrF2"][0].score, abs=1e-9)


def test_batches_concatenate_to_the_whole():
    from zheval.compute.chrf import ChrfItems, chrf_result

    preds, refs = ["今天天气很好", "我们去公园", "明天见"], [["今天天气不错"], ["我们去公园玩", "去公园"], ["明天再见"]]
    cfg = chrf_config(ChrfOptions(word_order=2))
    whole = chrf_result(chrf_items(preds, refs, cfg), cfg)
    parts = ChrfItems.concat([chrf_items(preds[:1], refs[:1], cfg), chrf_items(preds[1:], refs[1:], cfg)])
    assert chrf_result(parts, cfg) == whole


def test_score_stats_checks_width():
    with pytest.raises(ValueError, match="orders"):
        score_stats([1, 1, 1], char_order=6, word_order=0)
    with pytest.raises(ValueError, match="3 columns"):
        score_stats([1, 1], char_order=1, word_order=0)


@pytest.mark.parametrize("kwargs,err,match", [
    ({"char_order": -1}, ValueError, "char_order"),
    ({"char_order": 0, "word_order": 0}, ValueError, "both 0"),
    ({"word_order": 1.5}, ValueError, "word_order"),
    ({"beta": -1}, ValueError, "beta"),
    ({"beta": math.inf}, ValueError, "beta"),
    ({"beta": "2"}, TypeError, "beta"),
    ({"eps_smoothing": "False"}, TypeError, "eps_smoothing"),
    ({"level": "document"}, ValueError, "corpus, sentence"),
    ({"bootstrap": -1}, ValueError, "bootstrap"),
    ({"max_refs": 0}, ValueError, "max_refs"),
    ({"tokenizer": "nope"}, ValueError, "unknown tokenizer"),
])
def test_option_errors(kwargs, err, match):
    with pytest.raises(err, match=match):
        zheval.compute_chrf(["好"], ["好"], **kwargs)


def test_unknown_option_is_a_type_error():
    with pytest.raises(TypeError):
        zheval.compute_chrf(["好"], ["好"], whitespace=True)


def test_input_errors_name_the_item():
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        zheval.compute_chrf(["好", None], ["好", "好"])
    with pytest.raises(ValueError, match="item 0|references\\[0\\]"):
        zheval.compute_chrf(["好"], [[]])
    with pytest.raises(ValueError):
        zheval.compute_chrf(["好", "好"], ["好"])


def test_max_refs_uses_the_first_references():
    r = zheval.compute_chrf(["好"], [["坏", "好"]], max_refs=1)
    assert r["chrf"] == 0.0 and "maxrefs:1" in r["signature"]
