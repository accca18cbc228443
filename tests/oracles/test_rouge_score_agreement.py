"""Exact agreement of zheval.definitions.rouge with rouge-score 0.1.2 fed the same tokens (``RougeScorer(..., tokenizer=obj)``,
``score(target, prediction)``; rougeLsum texts joined with ``"\\n"``), on all of the shared real data."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from zheval.definitions.rouge import make_item_scorer, score_item
from zheval.text.sentences import split_sentences
from zheval.tokenizers import get_tokenizer

TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]


class _NormalizedChar:
    """rouge-score tokenizer object: zheval's char tokenizer on already-normalised text (our exact tokens)."""

    def __init__(self):
        self.tok = get_tokenizer("char")

    def tokenize(self, text):
        return self.tok.tokenize_normalized(text)


def _prepare(text, tok, split):
    norm = tok.tok.normalize(text)
    sents = split_sentences(norm, split)
    return "\n".join(sents), [tok.tokenize(s) for s in sents]


def _compare(pairs, split):
    """Score (prediction, [references]) pairs both ways; return (max abs diff, number of item-type values)."""
    tok = _NormalizedChar()
    scorer = rouge_scorer.RougeScorer(TYPES, tokenizer=tok)
    ours = make_item_scorer(TYPES)
    worst = 0.0
    count = 0
    for pred, refs in pairs:
        p_text, p_sents = _prepare(pred, tok, split)
        prepared = [_prepare(r, tok, split) for r in refs]
        if len(refs) == 1:
            expected = scorer.score(prepared[0][0], p_text)
        else:
            expected = scorer.score_multi([t for t, _ in prepared], p_text)
        got = ours(p_sents, [s for _, s in prepared])
        for t in TYPES:
            for a, b in zip(expected[t], got[t]):
                worst = max(worst, abs(a - b))
            count += 1
    return worst, count


def test_csl_lead_vs_title_all_rows(csl_rows):
    # prediction = the abstract's lead with as many characters as the title; reference = the title.
    pairs = [(r["document"][: len(r["summary"])], [r["summary"]]) for r in csl_rows]
    assert len(pairs) == 1000
    worst, count = _compare(pairs, "punct")
    assert count == 1000 * len(TYPES)
    assert worst <= 1e-12, worst


def test_csl_multi_sentence_lsum(csl_rows):
    # Longer multi-sentence texts exercise union-LCS: first half of the abstract vs the whole abstract.
    pairs = [(r["document"][: len(r["document"]) // 2], [r["document"]]) for r in csl_rows[:100]]
    worst, count = _compare(pairs, "punct")
    assert count == 100 * len(TYPES)
    assert worst <= 1e-12


def test_crosswoz_single_turn_all_rows(crosswoz_single):
    pairs = [(r["query"], r["responses"]) for r in crosswoz_single]
    assert len(pairs) == 2000 and all(len(r) == 1 for _, r in pairs)
    worst, count = _compare(pairs, "punct")
    assert count == 2000 * len(TYPES)
    assert worst <= 1e-12, worst


def test_crosswoz_groups_max_is_score_multi(crosswoz_groups):
    # multi_ref="max" is rouge-score's score_multi (best F per type, first wins ties).
    pairs = [(g["query"], g["responses"]) for g in crosswoz_groups]
    pairs += [(g["responses"][0], g["responses"][1:]) for g in crosswoz_groups]
    for split in ("punct", "newline"):
        worst, count = _compare(pairs, split)
        assert count == 2 * 85 * len(TYPES)
        assert worst <= 1e-12, (split, worst)


class _Split:
    def tokenize(self, text):
        return text.split()


sent = st.lists(st.sampled_from("abc"), min_size=1, max_size=8)
text = st.lists(sent, min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(text, st.lists(text, min_size=1, max_size=3))
def test_random_small_alphabet_texts_with_many_ties(hyp, refs):
    scorer = rouge_scorer.RougeScorer(TYPES, tokenizer=_Split())
    join = lambda s: "\n".join(" ".join(x) for x in s)  # noqa: E731
    if len(refs) == 1:
        expected = scorer.score(join(refs[0]), join(hyp))
    else:
        expected = scorer.score_multi([join(r) for r in refs], join(hyp))
    got = score_item(hyp, refs, TYPES)
    for t in TYPES:
        assert tuple(got[t]) == tuple(expected[t]), t
