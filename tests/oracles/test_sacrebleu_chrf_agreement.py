"""zheval.compute_chrf against sacrebleu 2.6.0's ``CHRF`` on all of the shared real data.

sacrebleu is fed the same normalised text (chrF: ``tokenizer.normalize(text)``; chrF++: zheval's tokens joined by
spaces, whose characters are exactly the normalised text without its whitespace -- asserted for every text below, so
the comparison covers both the characters and the words). Corpus and sentence level, chrF and chrF++, both
smoothing modes, 1, 2, 3, 4 and a ragged number of references (sacrebleu's ``None`` entries, ``nrefs:var``), the char
and jieba tokenizers. Agreement is asserted to 1e-9 on the 0-100 scale (in practice a few ulps).

Data (../shared/data, read at run time through ``helpers``):
* csl_ts_test.jsonl: a lead baseline (the abstract's first characters, length varied around the title's) against
  the real title (1 reference);
* crosswoz_single_turn.jsonl: the user turn against the system reply (1 reference, little overlap);
* crosswoz_same_query_groups.jsonl: each reply of a group in turn against the group's other replies (2-4, ragged),
  and the same items cut to exactly k = 1..4 references (items with fewer left out of that set).
"""

import pytest
from sacrebleu.metrics import CHRF

import zheval
from zheval.tokenizers import get_tokenizer
from helpers import crosswoz_items, csl_items

TOLERANCE = 1e-9  # on sacrebleu's 0-100 scale


@pytest.fixture(scope="module")
def datasets(csl_rows, crosswoz_single, crosswoz_groups):
    out = {
        "csl": csl_items(csl_rows),
        "crosswoz_single": ([r["query"] for r in crosswoz_single], [[r["responses"][0]] for r in crosswoz_single]),
        "groups_ragged": crosswoz_items(crosswoz_groups),
    }
    preds, refs = crosswoz_items(crosswoz_groups)
    for k in (1, 2, 3, 4):
        keep = [i for i, rs in enumerate(refs) if len(rs) >= k]
        out[f"groups_{k}refs"] = ([preds[i] for i in keep], [refs[i][:k] for i in keep])
    return out


NAMES = ["csl", "crosswoz_single", "groups_ragged", "groups_1refs", "groups_2refs", "groups_3refs", "groups_4refs"]


def sacre_texts(texts, tok, word_order):
    """What sacrebleu is given: the normalised text (chrF) or the tokens joined by spaces (chrF++)."""
    if word_order == 0:
        return [tok.normalize(t) for t in texts]
    out = []
    for t in texts:
        tokens = tok(t)
        # the tokens carry exactly the normalised text's characters, so sacrebleu's characters are zheval's
        assert "".join(tokens) == "".join(tok.normalize(t).split()), t
        assert not any(c.isspace() for w in tokens for c in w)
        out.append(" ".join(tokens))
    return out


def streams(refs, tok, word_order):
    width = max(len(rs) for rs in refs)
    flat = sacre_texts([r for rs in refs for r in rs], tok, word_order)
    it = iter(flat)
    per_item = [[next(it) for _ in rs] for rs in refs]
    return [[rs[k] if k < len(rs) else None for rs in per_item] for k in range(width)], per_item


def test_data_shape(datasets):
    assert {len(r) for r in datasets["groups_ragged"][1]} == {2, 3, 4}
    for k in (1, 2, 3, 4):
        preds, refs = datasets[f"groups_{k}refs"]
        assert len(preds) > 20 and {len(r) for r in refs} == {k}
    assert len(datasets["csl"][0]) == 1000 and len(datasets["crosswoz_single"][0]) == 2000


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("tokenizer,word_order", [("char", 0), ("char", 2), ("jieba", 2)])
@pytest.mark.parametrize("eps_smoothing", [False, True])
def test_corpus_and_sentence_chrf_equal_sacrebleu(datasets, name, tokenizer, word_order, eps_smoothing):
    preds, refs = datasets[name]
    tok = get_tokenizer(tokenizer)
    sacre = CHRF(word_order=word_order, eps_smoothing=eps_smoothing)
    hyps = sacre_texts(preds, tok, word_order)
    ref_streams, ref_lists = streams(refs, tok, word_order)

    ours = zheval.compute_chrf(preds, refs, tokenizer=tokenizer, word_order=word_order, eps_smoothing=eps_smoothing)
    theirs = sacre.corpus_score(hyps, ref_streams)
    assert ours["name"] == theirs.name == ("chrF2++" if word_order else "chrF2")
    assert 5 < theirs.score < 100  # a real, non-degenerate value
    assert abs(ours["chrf"] * 100 - theirs.score) <= TOLERANCE

    sent = zheval.compute_chrf(preds, refs, tokenizer=tokenizer, word_order=word_order, eps_smoothing=eps_smoothing,
                               level="sentence")
    theirs_items = [sacre.sentence_score(h, rs).score for h, rs in zip(hyps, ref_lists)]
    assert max(abs(a * 100 - b) for a, b in zip(sent["scores"], theirs_items)) <= TOLERANCE
    assert abs(sent["chrf"] * 100 - sum(theirs_items) / len(theirs_items)) <= TOLERANCE


@pytest.mark.parametrize("name", ["csl", "groups_ragged"])
def test_statistics_equal_sacrebleu_statistics(datasets, name):
    """The per-item rows are sacrebleu's own (``_extract_corpus_statistics``), reference choice included."""
    from zheval.compute.chrf import ChrfOptions, chrf_config, chrf_items

    preds, refs = datasets[name]
    tok = get_tokenizer("char")
    sacre = CHRF(word_order=2)
    ref_streams, _ = streams(refs, tok, 2)
    theirs = sacre._extract_corpus_statistics(sacre_texts(preds, tok, 2), ref_streams)
    ours = chrf_items(preds, refs, chrf_config(ChrfOptions(word_order=2))).stats
    assert ours.tolist() == [list(map(int, row)) for row in theirs]


@pytest.mark.parametrize("beta,char_order,word_order", [(1, 6, 0), (3, 6, 0), (2, 4, 1), (2, 0, 2), (0, 6, 2)])
def test_other_orders_and_betas_equal_sacrebleu(datasets, beta, char_order, word_order):
    preds, refs = datasets["groups_ragged"]
    tok = get_tokenizer("char")
    sacre = CHRF(char_order=char_order, word_order=word_order, beta=beta)
    ref_streams, _ = streams(refs, tok, word_order)
    theirs = sacre.corpus_score(sacre_texts(preds, tok, word_order), ref_streams).score
    ours = zheval.compute_chrf(preds, refs, char_order=char_order, word_order=word_order, beta=beta)["chrf"]
    assert abs(ours * 100 - theirs) <= TOLERANCE
