"""ROUGE-N, ROUGE-L and ROUGE-Lsum of a whole tokenised corpus at once (same numbers as `zheval.definitions.rouge`).

`corpus_rouge_scores` takes a `TokenizedCorpus` and returns per-item precision, recall
and F arrays for each ROUGE type. It computes exactly what ``make_item_scorer(types, multi_ref, beta)`` computes item
by item -- the same integer statistics ``(hit, ref_total, hyp_total)`` per (prediction, reference) pair and the same
IEEE float operations for P, R, F and the multi-reference rule -- but organised for speed:

* every structure of a text (n-gram counts, LCS match masks) is built once per **distinct text** of the call
  (`TokenizedCorpus` already shares one `TokenizedText` per distinct
  text);
* ROUGE-N hits of all pairs come from `zheval.fast.ngrams.pair_clipped_hits` (sorted int64 keys, no dicts);
* hits are computed once per **distinct (prediction, reference) pair** of the call; ROUGE-L with the bit-parallel
  LCS vectorised across pairs (`zheval.definitions.lcs.lcs_length_pairs`), reused for ROUGE-Lsum when both texts are one
  sentence (then the union-LCS is that LCS: `zheval.definitions.rouge.summary_level_lcs_hits`); when a text has several
  sentences, ROUGE-L and ROUGE-Lsum of the pair come from one pass (`zheval.definitions.rouge.summary_and_text_lcs_hits`);
* P, R, F of all pairs and the per-item reduction over references run in numpy.

* ROUGE-S/SU hits of all pairs from `zheval.fast.skip_bigrams.corpus_skip_bigram_hits` (skip-bigram counts per
  distinct text, `zheval.fast.skip_bigrams.skip_bigram_counts_by_text`, chunk by chunk of pairs), plus the ROUGE-1 hits for SU.

* ROUGE-W: the weighted LCS of all pairs from `zheval.fast.wlcs.wlcs_pairs` (same floats as
  `zheval.definitions.lcs.wlcs`); its P, R, F and the multi-reference rule per item with
  [`zheval.definitions.rouge.combine_references`][] itself (the ``** (1 / w)`` of the reference, in Python).

Every kind is handled here (`BATCH_KINDS`; S and SU where ``usable_for("skip_bigrams")`` allows, else
``compute_rouge`` scores them with the per-item scorer). Nothing is cached across calls.
"""

from __future__ import annotations

import math
from typing import Dict, Sequence, Tuple

import numpy as np

from ..tokenizers.corpus import TokenizedCorpus
from ..definitions.union_lcs import PackedReference
from .lcs import lcs_length_pairs
from .keys import runs, unique_inverse
from .slot_lcs import mask_words, slot_lcs_lengths
from .slots import SlotLayout, pair_ngram_hits_sorted
from .union_lcs import packed_words, union_lcs_hits_pairs
from .index import CorpusLayout
from .ngrams import pair_clipped_hits
from ..definitions.lcs import wlcs_f
from .wlcs import wlcs_pairs
from .skip_bigrams import corpus_skip_bigram_hits, skip_bigram_totals, skip_bigrams_fit
from ..definitions.rouge import MULTI_REF_MODES, check_scorer_options, combine_references, summary_and_text_lcs_hits
from ..definitions.rouge_types import parse_rouge_type

__all__ = ["BATCH_KINDS", "corpus_rouge_scores", "scores_from_pair_stats"]

#: ROUGE type kinds (`zheval.definitions.rouge.RougeType` ``kind``) scored by this module.
BATCH_KINDS = ("N", "L", "Lsum", "S", "SU", "W")

Arrays = Tuple[np.ndarray, np.ndarray, np.ndarray]


def _lcs_hits(layout: CorpusLayout, u_hyp: np.ndarray, u_ref: np.ndarray, want_l: bool, want_lsum: bool,
              slot_lcs=None):
    """LCS hits (rougeL) and union-LCS hits (rougeLsum) of the distinct (hyp, ref) pairs ``(u_hyp, u_ref)``.

    Whole-text LCS lengths come from `zheval.fast.lcs.lcs_length_pairs` (bit-parallel, vectorised across
    pairs); rougeLsum reuses them where both texts are one sentence (then the union-LCS is that LCS:
    `zheval.definitions.rouge.summary_level_lcs_hits`). The other pairs' union-LCS hits come from
    `zheval.fast.union_lcs.union_lcs_hits_pairs` where ``usable_for("union_lcs")`` allows (a tokenised corpus,
    a reference of bounded width), else from `zheval.definitions.rouge.summary_and_text_lcs_hits` pair by pair.
    ``slot_lcs``: the LCS lengths of all distinct pairs already computed (`zheval.fast.slot_lcs.slot_lcs_lengths`).
    Returns two ``(U,)`` int64 arrays (or None for a type not wanted).
    """
    from . import usable_for

    lcs = np.zeros(len(u_hyp), dtype=np.int64)
    single_pair = np.ones(len(u_hyp), dtype=bool)
    if want_lsum:
        if layout.sentence_counts is not None:
            single = layout.sentence_counts == 1
        else:
            single = np.fromiter((len(t.sentences) == 1 for t in layout.texts), dtype=bool, count=len(layout.texts))
        single_pair = single[u_hyp] & single[u_ref]
    if slot_lcs is not None:
        lcs = slot_lcs
    else:
        sel = np.arange(len(u_hyp)) if want_l else np.flatnonzero(single_pair)
        lcs[sel] = lcs_length_pairs(*layout.flat(), u_hyp[sel], u_ref[sel])
    if not want_lsum:
        return lcs, None
    lsum = np.where(single_pair, lcs, 0)
    todo = np.flatnonzero(~single_pair)
    corpus = layout.corpus
    if len(todo) and corpus is not None:
        todo = _compiled_union(corpus, layout, u_hyp, u_ref, todo, lsum)
    if len(todo) and corpus is not None:
        words = packed_words(corpus.sent_offsets, corpus.text_sents)
        fits = np.zeros(int(words.max()) + 1, dtype=bool)
        for w in np.unique(words[u_ref[todo]]).tolist():
            fits[w] = usable_for("union_lcs", reference_words=w)
        fast = todo[fits[words[u_ref[todo]]]]
        lsum[fast] = union_lcs_hits_pairs(corpus.ids, corpus.sent_offsets, corpus.text_sents, u_hyp[fast],
                                          u_ref[fast])
        todo = todo[~fits[words[u_ref[todo]]]]
    if len(todo):
        texts = layout.texts
        packed: Dict[int, PackedReference] = {}  # one packed layout per distinct reference text of the call
        uses = dict(zip(*(a.tolist() for a in np.unique(u_ref[todo], return_counts=True))))
        for q in todo.tolist():
            h, r = int(u_hyp[q]), int(u_ref[q])
            th, tr = texts[h], texts[r]
            uses[r] -= 1
            if th.tokens and tr.tokens:
                pk = packed.get(r)
                if pk is None:
                    pk = PackedReference(tr.sentences)
                    if uses[r]:
                        packed[r] = pk
                elif not uses[r]:
                    del packed[r]  # last pair of this reference: free its layout
                lsum[q] = summary_and_text_lcs_hits(tr.sentences, th.sentences, pk)[0]
    return (lcs if want_l else None), lsum


#: CPU seconds of the numpy union-LCS twin per (prediction token, 64-bit word of the packed reference) step (for
#: ``usable_for("compiled")``; the reference, which takes the pairs beyond that twin's width, costs more).
NUMPY_SECONDS_PER_UNION_STEP = 3e-8


def _compiled_union(corpus, layout: CorpusLayout, u_hyp, u_ref, todo, lsum):
    """Union-LCS hits of the pairs ``todo`` into ``lsum`` from the compiled twin
    (`zheval.fast.compiled.twins.union_lcs_hits_pairs`) where ``usable_for("compiled")`` allows; returns the
    pairs left for the numpy twin and the reference (all of them, or those beyond the compiled twin's memory bound)."""
    from . import usable_for

    words = (layout.lengths[u_ref[todo]] + 63) // 64 + 1
    steps = int((layout.lengths[u_hyp[todo]] * words).sum())
    if not usable_for("compiled", numpy_seconds=steps * NUMPY_SECONDS_PER_UNION_STEP):
        return todo
    from .compiled.twins import union_lcs_hits_pairs

    got = union_lcs_hits_pairs(corpus.ids, corpus.sent_offsets, corpus.text_sents, u_hyp[todo], u_ref[todo],
                               len(corpus.vocab))
    done = got >= 0
    lsum[todo[done]] = got[done]
    return todo[~done]


def _divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` elementwise, 0.0 where ``b == 0`` (as ``x / y if y else 0.0``)."""
    out = np.zeros(len(a), dtype=np.float64)
    np.divide(a, b, out=out, where=b != 0)
    return out


def _f_measure(p: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
    """`zheval.definitions.rouge.f_measure` elementwise, with the same operation order (so bit-identical)."""
    out = np.zeros(len(p), dtype=np.float64)
    if beta == 1.0:
        s = p + r
        np.divide(2 * p * r, s, out=out, where=s > 0)
    else:
        b2 = beta * beta
        d = r + b2 * p
        np.divide((1 + b2) * p * r, d, out=out, where=d > 0)
    return out


def _first_argmax(v: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per segment, the index of the first maximum of ``v`` (``np.argmax`` semantics; segments non-empty)."""
    mx = np.maximum.reduceat(v, starts)
    cand = np.where(v == np.repeat(mx, counts), np.arange(len(v), dtype=np.int64), len(v))
    return np.minimum.reduceat(cand, starts)


def scores_from_pair_stats(
    hit: np.ndarray, ref_total: np.ndarray, hyp_total: np.ndarray, starts: np.ndarray, counts: np.ndarray,
    multi_ref: str = "max", beta: float = 1.0,
) -> Arrays:
    """Per-item ``(P, R, F)`` float64 arrays from per-pair integer statistics, as [`zheval.definitions.rouge.combine_references`][].

    Args:
        hit, ref_total, hyp_total: ``(P,)`` integer statistics per (prediction, reference) pair, items in order.
        starts, counts: ``(I,)`` first pair and number of pairs (>= 1) of each item.
        multi_ref: ``"max"`` (first best F), ``"best_recall"`` (first best R), ``"mean"`` (``math.fsum`` of P, R,
            F over references / k), ``"pool"`` (summed statistics).
        beta: F beta.
    Returns:
        ``(P, R, F)``, each ``(I,)`` float64 in [0, 1].
    Raises:
        ValueError: unknown ``multi_ref``.
    """
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"Unknown multi_ref {multi_ref!r}; valid values: {', '.join(MULTI_REF_MODES)}")
    if len(starts) == 0:
        z = np.zeros(0, dtype=np.float64)
        return z, z, z
    if multi_ref == "pool":
        hit = np.add.reduceat(hit, starts)
        ref_total = np.add.reduceat(ref_total, starts)
        hyp_total = np.add.reduceat(hyp_total, starts)
        p = _divide(hit.astype(np.float64), hyp_total.astype(np.float64))
        r = _divide(hit.astype(np.float64), ref_total.astype(np.float64))
        return p, r, _f_measure(p, r, beta)
    p = _divide(hit.astype(np.float64), hyp_total.astype(np.float64))
    r = _divide(hit.astype(np.float64), ref_total.astype(np.float64))
    f = _f_measure(p, r, beta)
    if multi_ref == "mean":
        pl, rl, fl = p.tolist(), r.tolist(), f.tolist()
        op, orr, of = [], [], []
        for s, k in zip(starts.tolist(), counts.tolist()):
            if k == 1:
                op.append(pl[s]), orr.append(rl[s]), of.append(fl[s])
            else:
                op.append(math.fsum(pl[s:s + k]) / k)
                orr.append(math.fsum(rl[s:s + k]) / k)
                of.append(math.fsum(fl[s:s + k]) / k)
        return np.asarray(op), np.asarray(orr), np.asarray(of)
    best = _first_argmax(f if multi_ref == "max" else r, starts, counts)
    return p[best], r[best], f[best]


def _wlcs(tokens, offsets, ref, can, weight: float) -> np.ndarray:
    """WLCS of every pair: the compiled twin (`zheval.fast.compiled.twins.wlcs_pairs`) where
    ``usable_for("compiled")`` allows, else `zheval.fast.wlcs.wlcs_pairs`."""
    from . import usable_for
    from .wlcs import ARRAY_CELL_SECONDS, BAND, REFERENCE_CELL_SECONDS

    m, n = offsets[ref + 1] - offsets[ref], offsets[can + 1] - offsets[can]
    # long pairs are few per size band: the numpy twin gives them to the pure-Python reference
    long = (m > 8 * BAND) | (n > 8 * BAND)
    seconds = (int((m * n)[~long].sum()) * ARRAY_CELL_SECONDS + int((m * n)[long].sum()) * REFERENCE_CELL_SECONDS)
    if usable_for("compiled", numpy_seconds=seconds):
        from .compiled.twins import wlcs_pairs as compiled_wlcs_pairs

        return compiled_wlcs_pairs(tokens, offsets, ref, can, weight)
    return wlcs_pairs(tokens, offsets, ref, can, weight)


def _rouge_w(lay: CorpusLayout, u_hyp, u_ref, inverse, nh, nr, multi_ref: str, beta: float, rouge_w_weight: float):
    """Per-item ROUGE-W: WLCS of every distinct pair at once, then the reference's per-reference formula and
    multi-reference rule item by item (``** (1 / w)`` in Python floats, as the reference computes it)."""
    _, weight = check_scorer_options(["rougeW"], multi_ref, beta, rouge_w_weight)
    inv_w = 1.0 / weight
    tokens, offsets = lay.flat()
    nh_l, nr_l = nh.tolist(), nr.tolist()
    wlcs_f(max(nh_l + nr_l, default=0), weight)  # first: a clear error when f(the longest text) overflows
    hits = _wlcs(tokens, offsets, u_ref, u_hyp, weight)[inverse].tolist()
    ps, rs, fs = [], [], []
    for s, k in zip(lay.ref_starts.tolist(), lay.ref_counts.tolist()):
        stats = [((hits[q] if nh_l[q] and nr_l[q] else 0.0), nr_l[q] ** weight, nh_l[q] ** weight)
                 for q in range(s, s + k)]
        sc = combine_references(stats, multi_ref, beta, inv_w)
        ps.append(sc.precision), rs.append(sc.recall), fs.append(sc.fmeasure)
    return np.asarray(ps, dtype=np.float64), np.asarray(rs, dtype=np.float64), np.asarray(fs, dtype=np.float64)


#: CPU seconds of the numpy twins per unit of work, for `zheval.fast.usable_for` ``"compiled"`` (measured on
#: W3 by ``scripts/bench_compiled.py --breakeven``): one n-gram order (or the LCS) over one token of a distinct pair;
#: one skip-bigram of a text.
NUMPY_SECONDS_PER_PAIR_TOKEN = 4e-8
NUMPY_SECONDS_PER_SKIP_BIGRAM = 6e-8
#: Most skip-bigrams of one prediction for the compiled twin (its hash table: 48 bytes per skip-bigram).
COMPILED_MAX_SKIP_BIGRAMS = 1 << 21


def _any_single_sentence_pair(lay: CorpusLayout, u_hyp, u_ref) -> bool:
    """Whether some pair has one sentence on both sides (rougeLsum then takes the whole-text LCS; without rougeL and
    without such a pair, no LCS is computed)."""
    if lay.sentence_counts is None:
        return True
    return bool(((lay.sentence_counts[u_hyp] == 1) & (lay.sentence_counts[u_ref] == 1)).any())


def _compiled_pass(lay: CorpusLayout, u_hyp, u_ref, inverse, orders, want_lcs: bool, given: dict):
    """ROUGE-N hits (into ``given``) and the LCS lengths of the distinct pairs from the compiled twin
    (`zheval.fast.compiled.twins.pair_ngram_lcs_stats`) where ``usable_for("compiled")`` allows and the
    n-grams pack; returns ``(True, LCS or None)``, or ``(False, None)`` when the numpy twins should run."""
    from . import usable_for

    top = max(orders) if orders else 1
    if not (orders or want_lcs):
        return False, None
    from .compiled.twins import packed_fits

    if not packed_fits(lay.vocab_size, top):
        return False, None
    nh = lay.lengths[u_hyp]
    nr = lay.lengths[u_ref]
    units = int((nh + nr).sum()) * (len(orders) + want_lcs) + int((((nh + 63) // 64) * nr).sum())
    if not usable_for("compiled", numpy_seconds=units * NUMPY_SECONDS_PER_PAIR_TOKEN):
        return False, None
    from .compiled.twins import pair_ngram_lcs_stats

    tokens, offsets = lay.flat()
    dh, dcount = runs(u_hyp)
    hits, lcs = pair_ngram_lcs_stats(tokens, offsets, dh, dcount, u_ref, top, lay.vocab_size, want_lcs)
    for n in orders:
        given[n] = hits[:, n - 1][inverse]
    return True, (lcs if want_lcs else None)


def _skip_hits(lay: CorpusLayout, u_hyp, u_ref, skip):
    """Clipped skip-bigram hits of the distinct pairs: the compiled twin where ``usable_for("compiled")`` allows
    (and a prediction's skip-bigrams stay below `zheval.fast.skip_bigrams.MAX_TEXT_SKIP_BIGRAMS`), else
    `zheval.fast.skip_bigrams.corpus_skip_bigram_hits`."""
    from . import usable_for

    totals = skip_bigram_totals(lay.lengths, skip)
    work = int(totals[u_hyp].sum() + totals[u_ref].sum())
    if (int(totals[u_hyp].max(initial=0)) <= COMPILED_MAX_SKIP_BIGRAMS
            and usable_for("compiled", numpy_seconds=work * NUMPY_SECONDS_PER_SKIP_BIGRAM)):
        from .compiled.twins import pair_skip_bigram_hits

        dh, dcount = runs(u_hyp)
        return pair_skip_bigram_hits(*lay.flat(), dh, dcount, u_ref, skip, lay.vocab_size)
    return corpus_skip_bigram_hits(*lay.flat(), lay.vocab_size, skip, u_hyp, u_ref)


def _slot_pass(lay: CorpusLayout, u_hyp, u_ref, inverse, orders, want_lcs: bool, given: dict):
    """ROUGE-N hits (into ``given``, per pair of the layout) and the LCS lengths of the distinct pairs by one sort
    per order over a `zheval.fast.slots.SlotLayout` of the distinct pairs grouped by distinct prediction
    (where ``usable_for("slot_keys")`` allows). Returns ``(orders left to the per-text counts, LCS or None)``."""
    from . import usable_for

    tokens, offsets = lay.flat()
    dh, dcount = runs(u_hyp)  # u_hyp is sorted: the distinct predictions and their distinct references
    slot = SlotLayout(tokens, offsets, dh, u_ref, dcount, lay.vocab_size)
    left = []
    lcs = None
    masks = None
    # the LCS from the unigram sort's masks where that sort runs anyway (ROUGE-1 counted here); otherwise the
    # per-text masks of zheval.fast.lcs (cheaper when the unigram hits came from BLEU's pass)
    if 1 not in orders or not usable_for("slot_keys", slot_layout=slot, order=1, with_pos=True):
        want_lcs = False
    words = mask_words(slot) if want_lcs else 0
    for n in orders:
        if not usable_for("slot_keys", slot_layout=slot, order=n, with_pos=(n == 1 and bool(words))):
            left.append(n)
            continue
        if n == 1 and want_lcs and words:
            hits, masks = pair_ngram_hits_sorted(slot, 1, masks_words=words)
        else:
            hits = pair_ngram_hits_sorted(slot, n)
        given[n] = hits[inverse]
    if want_lcs:
        lcs = slot_lcs_lengths(slot, masks)
    return left, lcs


def corpus_rouge_scores(
    corpus: TokenizedCorpus,
    rouge_types: Sequence[str],
    multi_ref: str = "max",
    beta: float = 1.0,
    layout: CorpusLayout | None = None,
    pair_ngram_hits: "Dict[int, np.ndarray] | None" = None,
    rouge_w_weight: float = 1.2,
) -> Dict[str, Arrays]:
    """Per-item ROUGE of a tokenised corpus: ``{type: (P, R, F)}``, each a ``(n_items,)`` float64 array in [0, 1].

    Equal, bit for bit, to ``make_item_scorer(rouge_types, multi_ref, beta)`` applied to every item's sentences
    (see the module docstring); only types of kinds `BATCH_KINDS` are accepted.

    Args:
        corpus: from `zheval.tokenizers.corpus.tokenize_corpus` (every item has >= 1 reference).
        rouge_types: ``rougeN``/``rougeL``/``rougeLsum`` names.
        multi_ref, beta: as `zheval.definitions.rouge.make_item_scorer`.
        layout: an existing `zheval.fast.index.CorpusLayout` of ``corpus`` to share (e.g. with BLEU).
        pair_ngram_hits: ``{n: (P,) int64}`` ROUGE-N hits of every pair (layout pair order) already computed -- by
            BLEU's pass in [`zheval.compute.joint.score`][] (`zheval.definitions.bleu.layout_stats` ``pair_orders``); those
            orders are not counted again.
        rouge_w_weight: w of ROUGE-W's f(k) = k**w (as `zheval.definitions.rouge.make_item_scorer`).
    Raises:
        ValueError: a type this module does not handle, unknown ``multi_ref``.
    """
    types = [parse_rouge_type(t) for t in rouge_types]
    for rt in types:
        if rt.kind not in BATCH_KINDS:
            raise ValueError(f"corpus_rouge_scores handles rougeN, rougeL, rougeLsum, rougeS and rougeSU, not "
                             f"{rt.name!r}")
    lay = layout if layout is not None else CorpusLayout.from_corpus(corpus)
    longest = int(lay.lengths.max()) if len(lay.lengths) else 0
    for rt in types:
        if rt.kind in ("S", "SU") and not skip_bigrams_fit(longest, rt.skip, lay.vocab_size, len(lay.lengths)):
            raise ValueError(f"{rt.name}: texts of {longest} tokens are beyond the skip-bigram twin's bounds "
                             "(usable_for('skip_bigrams') says no; score it with the per-item scorer)")
    hyp = lay.hyp[lay.pair_item]
    nh = lay.lengths[hyp]
    nr = lay.lengths[lay.ref]
    # Hits are computed once per distinct (hyp, ref) pair of the call and spread back to the pairs.
    n_texts = max(len(lay.lengths), 1)
    uniq, inverse = unique_inverse(hyp * n_texts + lay.ref)
    u_hyp, u_ref = uniq // n_texts, uniq % n_texts
    kinds = {rt.kind for rt in types}
    given = dict(pair_ngram_hits or {})
    orders = sorted({rt.n for rt in types if rt.kind == "N" and rt.n not in given}
                    | ({1} if "SU" in kinds and 1 not in given else set()))
    slot_lcs = None
    want_lcs = "L" in kinds or ("Lsum" in kinds and _any_single_sentence_pair(lay, u_hyp, u_ref))
    compiled, slot_lcs = _compiled_pass(lay, u_hyp, u_ref, inverse, orders, want_lcs, given)
    if compiled:
        orders = []
    elif orders:
        orders, slot_lcs = _slot_pass(lay, u_hyp, u_ref, inverse, orders, "L" in kinds or "Lsum" in kinds, given)
    hits_l = hits_s = None
    if "L" in kinds or "Lsum" in kinds:
        hits_l, hits_s = _lcs_hits(lay, u_hyp, u_ref, "L" in kinds, "Lsum" in kinds, slot_lcs)
        hits_l = None if hits_l is None else hits_l[inverse]
        hits_s = None if hits_s is None else hits_s[inverse]
    if orders:
        lay.ngram_counts(max(orders))  # the orders the slot pass could not key, in one pass
    out: Dict[str, Arrays] = {}
    skip_hits: Dict = {}
    for rt in types:
        if rt.kind == "W":
            out[rt.name] = _rouge_w(lay, u_hyp, u_ref, inverse, nh, nr, multi_ref, beta, rouge_w_weight)
            continue
        if rt.kind == "N":
            th = np.maximum(nh - rt.n + 1, 0)
            tr = np.maximum(nr - rt.n + 1, 0)
            if rt.n in given:
                hit = given[rt.n]
            else:
                hit = pair_clipped_hits(lay.ngram_counts(rt.n), u_hyp, u_ref)[inverse]
            stats = (hit, tr, th)
        elif rt.kind in ("S", "SU"):
            if rt.skip not in skip_hits:
                totals = skip_bigram_totals(lay.lengths, rt.skip)
                hits = _skip_hits(lay, u_hyp, u_ref, rt.skip)
                skip_hits[rt.skip] = (hits[inverse], totals[lay.ref], totals[hyp])
            hit, tr, th = skip_hits[rt.skip]
            if rt.kind == "SU":
                uni = given[1] if 1 in given else pair_clipped_hits(lay.ngram_counts(1), u_hyp, u_ref)[inverse]
                hit, tr, th = hit + uni, tr + nr, th + nh
            stats = (hit, tr, th)
        elif rt.kind == "L":
            stats = (hits_l, nr, nh)
        else:
            stats = (hits_s, nr, nh)
        out[rt.name] = scores_from_pair_stats(*stats, lay.ref_starts, lay.ref_counts, multi_ref, beta)
    return out
