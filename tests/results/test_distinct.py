"""zheval.results.distinct: Distinct-n (Li et al. 2016: distinct n-grams / total n-grams over the whole corpus) by
hand and against an independent count written here, repeated predictions by hand, and diversity() on the metrics'
tokens (the config's tokenizer)."""

from __future__ import annotations

import random

import pytest

from zheval.results.distinct import distinct_n, diversity, repetition
from zheval.tokenizers import get_tokenizer


def _independent_distinct(texts, n):
    """A second implementation: every n-gram as a joined string in a list, distinct via a dict."""
    grams = []
    for t in texts:
        for i in range(len(t) - n + 1):
            grams.append("\x00".join(t[i:i + n]))
    return (len(dict.fromkeys(grams)) / len(grams) if grams else None), len(dict.fromkeys(grams)), len(grams)


def test_distinct_by_hand():
    texts = [["我", "很", "好"], ["我", "很", "好"], ["你", "好"]]
    # unigrams: 8 in all; distinct 我 很 好 你 = 4 -> 0.5
    assert distinct_n(texts, 1) == (0.5, 4, 8)
    # bigrams: 我很 很好 我很 很好 你好 = 5; distinct 3 -> 0.6
    assert distinct_n(texts, 2) == (0.6, 3, 5)
    # n-grams never cross two texts: "好 你" is not a bigram
    assert distinct_n([["好"], ["你"]], 2) == (None, 0, 0)  # no bigram at all: 0/0 is undefined, not 0
    assert distinct_n([[], []], 1) == (None, 0, 0)
    assert distinct_n([], 1) == (None, 0, 0)


def test_distinct_is_corpus_level_not_a_mean_of_ratios():
    texts = [["a", "a", "a", "a"], ["b"]]
    # corpus: 2 distinct / 5 total = 0.4; the mean of per-text ratios would be (0.25 + 1) / 2 = 0.625
    assert distinct_n(texts, 1)[0] == pytest.approx(0.4)


def test_distinct_matches_an_independent_count_on_random_corpora():
    rng = random.Random(7)
    for _ in range(50):
        texts = [[rng.choice("的了是我你好吗") for _ in range(rng.randint(0, 9))] for _ in range(rng.randint(0, 12))]
        for n in (1, 2, 3):
            assert distinct_n(texts, n) == pytest.approx(_independent_distinct(texts, n))


@pytest.mark.parametrize("n", [0, -1, 1.0, True, "2"])
def test_distinct_order_is_checked(n):
    with pytest.raises(ValueError, match="n must be an int >= 1"):
        distinct_n([["a"]], n)


def test_repetition_by_hand():
    r = repetition(["好的。", "好的。", "再见", "好的。", "再见", "谢谢"])
    # 好的 x3 and 再见 x2 are duplicates: 5 of 6 predictions
    assert r == {"duplicate_share": 5 / 6, "duplicates": 5, "most_frequent": "好的。", "most_frequent_count": 3}
    # ties: the text seen first
    assert repetition(["b", "a", "a", "b"])["most_frequent"] == "b"
    # nothing repeats: no "most frequent" text (break-it 18 D: was "x", 1 -- an arbitrary prediction in the JSON)
    assert repetition(["x", "y"]) == {"duplicate_share": 0.0, "duplicates": 0, "most_frequent": None,
                                      "most_frequent_count": 0}
    assert repetition([]) == {"duplicate_share": 0.0, "duplicates": 0, "most_frequent": None, "most_frequent_count": 0}


def test_diversity_uses_the_metrics_tokens_and_normalisation():
    preds = ["好的，谢谢！", "好的,谢谢!", "我不知道"]  # the first two are equal after the char tokenizer's normalisation
    refs = [["好的。"], ["谢谢你。", "不客气"], ["不知道。"]]
    tok = get_tokenizer("char")
    d = diversity(preds, refs, tok)
    hyp = [list(tok.tokenize(p)) for p in preds]
    assert hyp[0] == ["好", "的", ",", "谢", "谢", "!"]  # punctuation is a token of the metrics, so it counts
    # predictions: 好 的 , 谢 谢 ! twice + 我 不 知 道 = 16 unigrams; distinct 好 的 , 谢 ! 我 不 知 道 = 9
    assert d.distinct_counts["distinct_1"] == [9, 16] and d.distinct["distinct_1"] == 9 / 16
    # bigrams: 5 + 5 + 3 = 13; distinct 好的 的, ,谢 谢谢 谢! 我不 不知 知道 = 8
    assert d.distinct_counts["distinct_2"] == [8, 13]
    # references, every one a text: 好的。 / 谢谢你。 / 不客气 / 不知道。 -> 3 + 4 + 3 + 4 = 14 unigrams;
    # distinct 好 的 。 谢 你 不 客 气 知 道 = 10
    assert d.reference_distinct_counts["distinct_1"] == [10, 14]
    assert d.repetition["duplicates"] == 2 and d.repetition["most_frequent_count"] == 2
    # jieba words are other tokens, so other numbers: the same function with the config's tokenizer
    dj = diversity(preds, refs, get_tokenizer("jieba"))
    assert dj.distinct_counts["distinct_1"][1] < 16
    with pytest.raises(ValueError, match="3 predictions but 2 reference lists"):
        diversity(preds, refs[:2], tok)


def test_long_ngrams_over_a_large_vocabulary_are_compared_whole():
    """V ** n beyond 62 bits: the n-grams are compared as rows (no integer encoding that could collide)."""
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(5000)]
    texts = [[rng.choice(vocab[:40]) for _ in range(rng.randint(0, 12))] for _ in range(30)]
    texts.append(vocab[:]) # the whole vocabulary once, so V = 5000 and 5000 ** 6 > 2 ** 62
    for n in (5, 6, 9):
        assert distinct_n(texts, n) == pytest.approx(_independent_distinct(texts, n))


def test_counter_subsets_equal_the_subset_alone():
    from zheval.results.distinct import NgramCounter

    rng = random.Random(11)
    items = [[[rng.choice("甲乙丙丁戊") for _ in range(rng.randint(0, 6))] for _ in range(rng.randint(1, 3))]
             for _ in range(40)]
    c = NgramCounter(items, (1, 2, 3))
    for _ in range(20):
        idx = sorted(rng.sample(range(40), rng.randint(0, 40)))
        texts = [t for i in idx for t in items[i]]
        for n in (1, 2, 3):
            assert c.distinct(n, idx) == pytest.approx(_independent_distinct(texts, n))


@pytest.mark.parametrize("bad, where", [
    (["今天 天气", "我 爱"], r"token_lists\[0\] is a str"),  # texts instead of token lists: spaces would be tokens
    ([["我", "好"], "你好"], r"token_lists\[1\] is a str"),
    ("今天", r"token_lists must be a list of token lists, got str"),
    ([["我"], None], r"token_lists\[1\] must be a list of str tokens, got NoneType"),
    ([["我", 3]], r"token_lists\[0\]\[1\] must be a str token, got int"),
])
def test_distinct_refuses_what_is_not_token_lists(bad, where):
    with pytest.raises(TypeError, match=where):
        distinct_n(bad, 1)


def test_diversity_takes_a_tokenizer_name_or_callable_and_names_bad_items():
    preds = ["今天天气", "今天天气"]
    refs = [["今天天气"], ["明天"]]
    # by hand: predictions 今 天 天 气 twice = 8 unigrams, distinct 今 天 气 = 3; bigrams 今天 天天 天气 twice = 6,
    # distinct 3; references 今天天气 + 明天 = 6 unigrams, distinct 今 天 气 明 = 4
    for tok in ("char", lambda s: list(s)):
        d = diversity(preds, refs, tok)
        assert d.distinct_counts == {"distinct_1": [3, 8], "distinct_2": [3, 6]}
        assert d.reference_distinct_counts["distinct_1"] == [4, 6]
    with pytest.raises(TypeError, match=r"predictions\[1\] must be str, got NoneType"):
        diversity(["好", None], refs, "char")
    with pytest.raises(TypeError, match=r"references\[1\] must be a list of str, got str"):
        diversity(preds, [["好"], "明天"], "char")
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be str, got int"):
        diversity(preds, [["好", 1], ["明天"]], "char")


def test_streaming_distinct_and_repetition_equal_the_whole_list_on_real_data(csl_rows, crosswoz_single):
    """The chunked, packed-key counters give the numbers of distinct_n / repetition on the whole list (and of the
    independent count above), for 1, 2, 8 and 64 chunks, char and jieba tokens, references included."""
    from zheval.results.distinct import StreamingDistinct, StreamingRepetition

    texts = [r["summary"] for r in csl_rows] + [r["document"] for r in csl_rows[:300]]
    texts += [r["responses"][0] for r in crosswoz_single] + [r["query"] for r in crosswoz_single]
    texts += texts[:500]  # repeated texts for the duplicate statistics
    for name in ("char", "jieba"):
        tok = get_tokenizer(name)
        token_lists = [list(tok.tokenize_cached(t)) for t in texts]
        for parts in (1, 2, 8, 64):
            sd, sr = StreamingDistinct((1, 2, 3)), StreamingRepetition()
            step = -(-len(texts) // parts)
            for start in range(0, len(texts), step):
                sd.add(token_lists[start:start + step])
                sr.add([tok.normalize(t) for t in texts[start:start + step]])
            for n in (1, 2, 3):
                assert sd.distinct(n) == distinct_n(token_lists, n) == pytest.approx(
                    _independent_distinct(token_lists, n)), (name, parts, n)
            assert sr.result() == repetition([tok.normalize(t) for t in texts]), (name, parts)


def test_streaming_repetition_by_hand_and_ties():
    from zheval.results.distinct import StreamingRepetition

    for chunks in ([["好的。", "好的。", "再见"], ["好的。", "再见", "谢谢"]], [["a", "b"], ["b", "a"]], [["x"], ["y"]],
                   [[]]):
        sr = StreamingRepetition()
        for c in chunks:
            sr.add(c)
        assert sr.result() == repetition([t for c in chunks for t in c])


def test_streaming_repetition_per_group_equals_repetition_of_each_group():
    """Per group (two dimensions), from the one table: == repetition() on the group's texts in order, for chunkings
    where a text repeats inside a chunk, across chunks, first seen in another group, and ties on the count."""
    import random

    from zheval.results.distinct import StreamingRepetition

    rng = random.Random(7)
    pool = ["好的。", "再见", "谢谢", "不客气", "明天见", "x", "y"]
    texts = [rng.choice(pool) + (str(rng.randrange(40)) if rng.random() < 0.5 else "") for _ in range(400)]
    groups = [(rng.randrange(3), rng.randrange(5)) for _ in texts]
    for size in (1, 7, 64, 400):
        sr = StreamingRepetition(dimensions=2)
        for start in range(0, len(texts), size):
            sr.add(texts[start:start + size], [list(g) for g in groups[start:start + size]])
        assert sr.result() == repetition(texts)
        for j, count in ((0, 3), (1, 5)):
            for g in range(count):
                mine = [t for t, gs in zip(texts, groups) if gs[j] == g]
                assert sr.group_result(j, g) == repetition(mine), (size, j, g)
    # by hand: "a" first seen in group 0, then twice in group 1 ("b", "a", "a": 2 of 3 texts repeat, "a" twice)
    sr = StreamingRepetition(dimensions=1)
    sr.add(["a", "b"], [[0], [1]])
    sr.add(["a", "b", "a"], [[1], [0], [1]])
    assert sr.group_result(0, 0) == {"duplicate_share": 0.0, "duplicates": 0, "most_frequent": None,
                                     "most_frequent_count": 0}
    assert sr.group_result(0, 1) == {"duplicate_share": 2 / 3, "duplicates": 2, "most_frequent": "a",
                                     "most_frequent_count": 2}


def test_most_frequent_is_shown_as_written_at_its_first_occurrence():
    """Normalised forms count as one text; the one shown is the first occurrence as the model wrote it, whole-list
    and streamed alike (any chunking, per group, with the positions an earlier chunk did not keep read back)."""
    import random

    from zheval.results.distinct import StreamingRepetition

    # by hand: '好的！' (full-width) and '好的!' normalise alike: 3 of 4 texts, shown as first written
    r = repetition(["好的!", "再见", "好的!", "好的!"], shown=["好的！", "再见", "好的!", "好的 !"])
    assert r["most_frequent"] == "好的！" and r["most_frequent_count"] == 3
    with pytest.raises(ValueError, match="shown has 1 strings for 2 texts"):
        repetition(["a", "b"], shown=["a"])
    rng = random.Random(11)
    forms = {"好的!": ["好的！", "好的!", "好的 !"], "再见": ["再见", "再 见"], "x": ["x", "ｘ"], "谢谢": ["谢谢"]}
    norm = [rng.choice(list(forms)) + (str(rng.randrange(3)) if rng.random() < 0.3 else "") for _ in range(300)]
    shown = [rng.choice(forms[t.rstrip("012")]) + t[len(t.rstrip("012")):] for t in norm]
    groups = [(rng.randrange(4),) for _ in norm]
    for size in (1, 2, 7, 300):
        sr = StreamingRepetition(dimensions=1)
        for start in range(0, len(norm), size):
            sr.add(norm[start:start + size], [list(g) for g in groups[start:start + size]],
                   shown=shown[start:start + size])
        wanted = sr.missing()
        assert (size == 300) == (wanted == [])  # one chunk keeps every first occurrence it shows
        sr.fill({p: shown[p] for p in wanted})
        assert sr.result() == repetition(norm, shown)
        for g in range(4):
            idx = [i for i, gs in enumerate(groups) if gs[0] == g]
            assert sr.group_result(0, g) == repetition([norm[i] for i in idx], [shown[i] for i in idx]), (size, g)
    with pytest.raises(ValueError, match="shown has 1 strings for 2 texts"):
        StreamingRepetition().add(["a", "b"], shown=["a"])


def test_sorted_keys_equal_first_words_and_widening():
    """SortedKeys orders 128-bit keys by both words (equal first words side by side), finds each, and widens a payload
    column instead of wrapping it; unique_rows gives each distinct row's first index and count (by hand)."""
    import numpy as np

    from zheval.results.sorted_keys import SortedKeys, unique_rows

    rows = np.array([[5, 9], [5, 1], [2, 7], [5, 9], [5, 4]], dtype=np.uint64)
    keys, first, counts = unique_rows(rows)
    assert keys.tolist() == [[2, 7], [5, 1], [5, 4], [5, 9]]
    assert first.tolist() == [2, 1, 4, 0] and counts.tolist() == [1, 1, 1, 2]
    table = SortedKeys(2, {"n": np.uint32})
    pos, found = table.locate(keys)
    assert not found.any()
    table.insert(pos, keys, {"n": counts})
    more = np.array([[5, 3], [5, 9], [6, 0]], dtype=np.uint64)
    pos, found = table.locate(more)
    assert found.tolist() == [False, True, False] and pos.tolist() == [2, 3, 4]
    table.insert(pos[~found], more[~found], {"n": np.array([2**32 + 5, 1])})  # a value past uint32: widened
    assert [(int(a), int(b)) for a, b in zip(*table.words)] == [(2, 7), (5, 1), (5, 3), (5, 4), (5, 9), (6, 0)]
    assert table.payload["n"].dtype == np.int64 and int(table.payload["n"][2]) == 2**32 + 5


def test_packed_keys_merge_in_place_equals_one_unique(monkeypatch):
    """The packed-key set merged by insertion (many merges: a small pending threshold) == np.unique of all keys."""
    import numpy as np

    from zheval.results import distinct

    monkeypatch.setattr(distinct._SortedKeys, "_MIN_PENDING", 5)
    rng = np.random.default_rng(3)
    chunks = [rng.integers(0, 500, size=int(rng.integers(0, 40))) for _ in range(200)]
    keys = distinct._SortedKeys()
    for c in chunks:
        keys.add(c.astype(np.int64))
    assert len(keys) == len(np.unique(np.concatenate(chunks)))
    assert keys.main.tolist() == np.unique(np.concatenate(chunks)).tolist()


def test_narrow_columns_widen_a_byte_at_a_time():
    """The duplicate table keeps a uint8 count and group: a text seen 300 times across chunks, in 300 groups, gives
    repetition()'s numbers (counted by hand: 300 copies + "b" twice = 302 duplicates of 303 texts), and widened()
    steps uint8 -> uint16 -> uint32 -> int64 only as far as needed."""
    import numpy as np

    from zheval.results.distinct import StreamingRepetition
    from zheval.results.sorted_keys import widened

    texts = ["好的。"] * 300 + ["b", "b", "c"]
    sr = StreamingRepetition(dimensions=1)
    for start in range(0, len(texts), 7):
        sr.add(texts[start:start + 7], [[i] for i in range(start, min(start + 7, len(texts)))])
    assert sr.result() == repetition(texts) == {"duplicate_share": 302 / 303, "duplicates": 302,
                                                 "most_frequent": "好的。", "most_frequent_count": 300}
    assert sr.group_result(0, 299) == repetition(["好的。"])
    assert sr.table.payload["count"].dtype == np.uint16 and sr.table.payload["group0"].dtype == np.uint16
    col = np.array([1, 2], dtype=np.uint8)
    assert widened(col, 255) is col
    assert [widened(col, v).dtype for v in (256, 70_000, 2**32)] == [np.uint16, np.uint32, np.int64]
    assert widened(col, 2**32).tolist() == [1, 2]
