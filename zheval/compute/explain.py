"""Why this number: the explanation of one item's BLEU and ROUGE, from the very statistics the metrics compute.

[`explain`][zheval.compute.explain.explain] (one prediction with its references) and [`explain_items`][zheval.compute.explain.explain_items] (a corpus, with each item's share of
the corpus BLEU statistics) return a JSON-serialisable dict per item. Nothing here re-implements a rule: the options
are resolved by [`rouge_config`][zheval.compute.rouge.rouge_config] / [`bleu_config`][zheval.compute.bleu.bleu_config] (presets
included), the tokens come from the config's tokenizer, every P/R/F is the metric's own item scorer
(`zheval.definitions.rouge.make_item_scorer` or the preset's), the multi-reference choice is
[`zheval.definitions.rouge.combine_references`][], the BLEU statistics are
`zheval.definitions.bleu.item_stats` and the sentence BLEU is `zheval.definitions.bleu_score.score_stats`.
The breakdowns (which n-gram matched, where the LCS aligned) are listed from the same counting units
(`zheval.definitions.rouge.ngram_counts`, `zheval.definitions.lcs.lcs_ref_positions`,
`zheval.definitions.union_lcs.union_lcs_ref_positions`, ...), and ``tests/compute/test_explain.py`` checks that
they add up to the metric's hits on all of the shared real data.

The schema (keys always present unless marked optional; all scores on the 0-1 scale)::

    {"prediction": TEXT, "references": [TEXT, ...],
     "rouge": {"<type>": {                                   # only when "rouge" is among the metrics
         "per_reference": [{"reference": j, "precision", "recall", "fmeasure",
                            "hits", "reference_total", "prediction_total", ...type-specific...}],
         "selected": int | None,     # the reference the multi_ref rule chose (max, best_recall); None for mean/pool
         "rule": "max" | "mean" | "pool" | "best_recall",    # multi_ref
         "formula": "zheval" | PRESET NAME,                  # whose per-reference formula (the preset's)
         "why": str,                   # one sentence: why this reference (numbered from 1: "reference 2 of 2")
         "score": {"precision", "recall", "fmeasure"}}},     # == compute_rouge's per-item numbers, exactly
     "bleu": {"orders": [{"n", "ngrams": [{"ngram": [tok, ...], "count", "clipped", "clip_references": [j, ...]}],
                          "matches", "total"}],
              "hyp_len", "ref_len", "ref_len_rule": "closest" | "shortest" | "none", "ref_len_reference": j,
              "why": str, "sentence_bleu", "precisions": [...], "brevity_penalty", "level", "statistics": [row],
              "corpus_share": {...}},                        # corpus_share: explain_items only
     "highlight": {"reference": j, "prediction": [token indices], "reference_tokens": [token indices],
                   "rule": "unigram"},
     "signature": {"rouge": str, "bleu": str}}               # the metrics' signatures for this one item

    TEXT = {"text": str (original), "normalized": str, "tokenizer": str,
            "tokens": [{"token": str, "start": int, "end": int}],   # [start, end) in the ORIGINAL text
            "spans": "exact" | "approximate",
            # optional, only when BLEU's tokenizer differs from ROUGE's (preset llamafactory):
            "bleu_normalized": str, "bleu_tokens": [...same shape...], "bleu_tokenizer": str}

ROUGE type-specific keys of ``per_reference`` entries:

* ``rougeN``: ``matched`` = ``[{"ngram", "prediction_count", "reference_count", "match"}]`` (match = the clipped
  count, ``min`` of the two), ``unmatched_prediction`` / ``unmatched_reference`` = ``[{"ngram", "count"}]``;
  ``counting``: ``"multiset"`` (zheval, rouge155) or ``"set"`` (llamafactory: rouge-chinese counts distinct
  n-grams, so ``match`` is 1 and the totals are the numbers of distinct n-grams).
* ``rougeL``: ``alignment`` = ``[[prediction position, reference position], ...]``, one LCS (the one rouge-score
  and ROUGE-1.5.5 pick on the reference side; the prediction side is its leftmost embedding).
* ``rougeLsum``: ``sentences`` = ``[{"reference_sentence": k, "union": [...], "hits": [...]}]``: the union-LCS
  positions of reference sentence k and those of them that count after clipping, as positions in the whole
  (flattened) reference.
* ``rougeW``: ``weight``, ``alignment_reference`` (the reference positions of the weighted LCS path); ``hits`` is
  the WLCS value and the totals are f(length) (rouge155: its own hit and f(f(|ref|)), see
  `zheval.presets.rouge155`).
* ``rougeS<d>`` / ``rougeSU<d>``: ``skip``, ``skip_bigram_hits``, ``unigram_hits`` (SU), the totals.

Positions index the ``tokens`` of the text entries, except under the ``llamafactory`` ROUGE preset, where they
index the word lists rouge-chinese scores, given as ``units`` (``{"prediction": [...], "references": [[...]]}``)
in the type's entry.

Character spans: the tokens are found in order in the normalised text, and each normalised character is mapped to
the original character it came from by normalising the original one character at a time. When that reproduces the
normalised text (the usual case: NFKC of one character, punctuation unification, lower-casing, zero-width removal)
the spans are **exact**. When a step depends on context (the ``space`` step joining across characters, NFKC
composition of a base and a combining mark, OpenCC ``t2s`` phrases), the two are aligned with
`difflib.SequenceMatcher`: characters in equal runs stay exact, a token touching a changed run gets the
span of the whole original run, and the text entry says ``"spans": "approximate"`` (a changed run
between tokens, such as a collapsed space, leaves the spans exact).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

from ..definitions import bleu as bleu_def
from ..definitions.bleu_score import score_stats
from ..definitions.lcs import lcs_ref_positions, wlcs, wlcs_f, wlcs_ref_positions
from ..definitions.rouge import (clipped_overlap, combine_references, make_item_scorer, ngram_counts,
                                  parse_rouge_type, skip_bigram_counts)
from ..definitions.union_lcs import union_lcs_ref_positions
from ..presets import find_preset
from .bleu import BleuConfig, bleu_config, bleu_reference_rule
from .chrf import chrf_config
from .explain_chrf import chrf_explanation
from .guards import one_drop_warning, warn_input_slips
from ..io.text_lists import check_text_list
from .inputs import check_references, validate_inputs
from .option_rules import check_explain_options, check_shared_beta
from .options import BleuOptions, ChrfOptions, RougeOptions, check_metrics, options_for_metrics
from .rouge import RougeConfig, rouge_config
from .spans import token_spans

__all__ = ["EXPLAIN_METRICS", "DEFAULT_EXPLAIN_METRICS", "explain", "explain_items"]

#: The metrics an explanation can cover.
EXPLAIN_METRICS = ("bleu", "rouge", "chrf")

#: The metrics explained when none are named (chrF on request).
DEFAULT_EXPLAIN_METRICS = ("bleu", "rouge")


def _score_dict(s) -> Dict[str, float]:
    return {"precision": float(s.precision), "recall": float(s.recall), "fmeasure": float(s.fmeasure)}


def _gram(g, n: int) -> list:
    return [g] if n == 1 else list(g)


def _ngram_detail(hyp: Sequence, ref: Sequence, n: int, as_set: bool) -> Dict[str, Any]:
    ch, cr = ngram_counts(hyp, n), ngram_counts(ref, n)
    matched, unmatched_h = [], []
    for g, c in ch.items():
        rc = cr.get(g, 0)
        if rc:
            matched.append({"ngram": _gram(g, n), "prediction_count": c, "reference_count": rc,
                            "match": 1 if as_set else min(c, rc)})
        else:
            unmatched_h.append({"ngram": _gram(g, n), "count": c})
    unmatched_r = [{"ngram": _gram(g, n), "count": c} for g, c in cr.items() if g not in ch]
    if as_set:
        hits, rt, pt = len(matched), len(cr), len(ch)
    else:
        hits, rt, pt = clipped_overlap(ch, cr), max(len(ref) - n + 1, 0), max(len(hyp) - n + 1, 0)
    return {"hits": hits, "reference_total": rt, "prediction_total": pt,
            "counting": "set" if as_set else "multiset", "matched": matched,
            "unmatched_prediction": unmatched_h, "unmatched_reference": unmatched_r}


def _alignment(hyp: Sequence, ref: Sequence) -> List[List[int]]:
    """One LCS as ``[[hyp position, ref position]]``: the reference positions rouge-score picks
    (`lcs_ref_positions`), embedded leftmost in the prediction."""
    ref_pos = lcs_ref_positions(ref, hyp) if hyp and ref else []
    out, j = [], 0
    for rp in ref_pos:
        while hyp[j] != ref[rp]:
            j += 1
        out.append([j, rp])
        j += 1
    return out


def _lsum_detail(hyp_sents, ref_sents) -> Dict[str, Any]:
    """Union-LCS positions per reference sentence and the hits that survive clipping (rouge-score's walk)."""
    unions = union_lcs_ref_positions(ref_sents, hyp_sents) if any(hyp_sents) and any(ref_sents) else \
        [[] for _ in ref_sents]
    ref_left = Counter(t for s in ref_sents for t in s)
    hyp_left = Counter(t for s in hyp_sents for t in s)
    sentences, offset, hits = [], 0, 0
    for k, (sent, union) in enumerate(zip(ref_sents, unions)):
        counted = []
        for p in union:
            t = sent[p]
            if ref_left[t] > 0 and hyp_left[t] > 0:
                ref_left[t] -= 1
                hyp_left[t] -= 1
                counted.append(offset + p)
        hits += len(counted)
        sentences.append({"reference_sentence": k, "union": [offset + p for p in union], "hits": counted})
        offset += len(sent)
    return {"hits": hits, "sentences": sentences}


def _rouge_pair_detail(rt, config: RougeConfig, hyp, ref) -> Dict[str, Any]:
    """The counting-unit breakdown of one ROUGE type for one (prediction, reference); ``hyp``/``ref`` are
    sentence tuples, or under a preset that counts sets (rouge-chinese's rules) word lists."""
    preset = config.preset
    if preset is not None and preset.counting == "set":
        hf, rf = hyp, ref
        if rt.kind == "N":
            return _ngram_detail(hf, rf, rt.n, as_set=True) if hf and rf else \
                {**_ngram_detail([], [], rt.n, True), "hits": 0, "reference_total": 0, "prediction_total": 0}
        al = _alignment(hf, rf) if hf and rf else []
        return {"hits": len(al), "reference_total": len(rf) if hf else 0, "prediction_total": len(hf) if rf else 0,
                "alignment": al}
    hf = [t for s in hyp for t in s]
    rf = [t for s in ref for t in s]
    w = config.rouge_w_weight
    if rt.kind == "N":
        return _ngram_detail(hf, rf, rt.n, as_set=False)
    if rt.kind == "L":
        al = _alignment(hf, rf)
        return {"hits": len(al), "reference_total": len(rf), "prediction_total": len(hf), "alignment": al}
    if rt.kind == "Lsum":
        d = _lsum_detail(hyp, ref)
        return {"hits": d["hits"], "reference_total": len(rf), "prediction_total": len(hf),
                "sentences": d["sentences"]}
    if rt.kind == "W":
        path = wlcs_ref_positions(rf, hf, w) if hf and rf else []
        own = preset.explain_wlcs_hit(rf, hf, w) if preset is not None else None
        if own is not None:
            hit, base = own
            return {"weight": w, "hits": hit, "reference_total": wlcs_f(base, w),
                    "prediction_total": wlcs_f(len(hf), w), "alignment_reference": path}
        return {"weight": w, "hits": wlcs(rf, hf, w) if hf and rf else 0.0, "reference_total": wlcs_f(len(rf), w),
                "prediction_total": wlcs_f(len(hf), w), "alignment_reference": path}
    # S / SU
    own = preset.explain_su_counts(hf, rt.skip) if preset is not None and rt.kind == "SU" else None
    if own is not None:
        (sh, uh), (sr, ur) = own, preset.explain_su_counts(rf, rt.skip)
    else:
        sh, sr = skip_bigram_counts(hf, rt.skip), skip_bigram_counts(rf, rt.skip)
        uh, ur = (Counter(hf), Counter(rf)) if rt.kind == "SU" else (Counter(), Counter())
    skip_hits, uni_hits = clipped_overlap(sh, sr), clipped_overlap(uh, ur)
    out = {"skip": rt.skip, "skip_bigram_hits": skip_hits,
           "skip_bigram_reference_total": sum(sr.values()), "skip_bigram_prediction_total": sum(sh.values())}
    if rt.kind == "SU":
        out.update(unigram_hits=uni_hits, unigram_reference_total=sum(ur.values()),
                   unigram_prediction_total=sum(uh.values()))
    out.update(hits=skip_hits + uni_hits, reference_total=sum(sr.values()) + sum(ur.values()),
               prediction_total=sum(sh.values()) + sum(uh.values()))
    return out


class _RougeExplainer:
    """The ROUGE part of explanations under one config (the scorers built once)."""

    def __init__(self, config: RougeConfig):
        self.config = config
        self.types = [parse_rouge_type(t) for t in config.types]
        names = list(config.types)
        preset = self.preset = config.preset
        make = preset.item_scorer if preset is not None else make_item_scorer
        self.formula = preset.name if preset is not None else "zheval"
        self.scorer = make(names, config.multi_ref, config.beta, config.rouge_w_weight)
        self.flat = preset is not None and preset.units == "tokens"

    def units(self, text: str):
        """What the scorer is fed for one text: sentence tuples, or (a preset on ``"tokens"``) the flat tokens."""
        tok = self.config.tokenizer
        if self.flat:
            return tok.tokenize_cached(text)
        return tok.tokenize_sentences(text, self.config.sentence_split)

    def explain(self, hyp_units, refs_units) -> Dict[str, Any]:
        cfg, k = self.config, len(refs_units)
        combined = self.scorer(hyp_units, refs_units)
        per_ref = [self.scorer(hyp_units, [r]) for r in refs_units] if k > 1 else [combined]
        if self.flat:  # the words the preset counts: flat lists (sets counted), else one sentence per text
            hyp_w = self.preset.explain_words(hyp_units)
            refs_w = [self.preset.explain_words(r) for r in refs_units]
            if self.preset.counting == "set":
                hyp_d, refs_d = hyp_w, refs_w
            else:
                hyp_d, refs_d = [tuple(hyp_w)], [[tuple(r)] for r in refs_w]
        else:
            hyp_d, refs_d = hyp_units, refs_units
        out: Dict[str, Any] = {}
        for rt in self.types:
            t = rt.name
            entries = []
            for j in range(k):
                entry = {"reference": j, **_score_dict(per_ref[j][t])}
                entry.update(_rouge_pair_detail(rt, cfg, hyp_d, refs_d[j]))
                entries.append(entry)
            selected, why = self._select(t, per_ref, combined, k)
            te = {"per_reference": entries, "selected": selected, "rule": cfg.multi_ref, "formula": self.formula,
                  "why": why, "score": _score_dict(combined[t])}
            if self.flat:
                te["units"] = {"prediction": list(hyp_w), "references": [list(r) for r in refs_w]}
            out[t] = te
        return out

    def _select(self, t: str, per_ref, combined, k: int):
        mode = self.config.multi_ref
        if k == 1:
            return 0, "one reference"
        if mode in ("mean", "pool"):
            if mode == "mean":
                return None, (f"multi_ref='mean': the mean of the {k} per-reference precisions, recalls and "
                              "F-measures (each averaged separately)")
            return None, f"multi_ref='pool' (ROUGE-1.5.5 -f A): hits and totals summed over the {k} references, then scored"
        # THE rule, on the per-reference scores of the metric's own formula
        stats = [(j, 0, 0) for j in range(k)]
        best = combine_references(stats, mode, score=lambda j, _r, _h: per_ref[j][t],
                                  recall=lambda st: per_ref[st[0]][t].recall)
        sel = next(j for j in range(k) if per_ref[j][t] is best)
        if tuple(per_ref[sel][t]) != tuple(combined[t]):
            # rouge155 -f B compares its own unrounded recall for L/W; pick the reference whose score it reports
            sel = next(j for j in range(k) if tuple(per_ref[j][t]) == tuple(combined[t]))
        s = per_ref[sel][t]
        if mode == "max":
            ties = [j for j in range(k) if per_ref[j][t].fmeasure == s.fmeasure]
            why = f"multi_ref='max': reference {sel + 1} has the highest F ({s.fmeasure:.4f}) of {k} references"
            key = "F"
        else:
            ties = [j for j in range(k) if per_ref[j][t].recall == s.recall]
            why = f"multi_ref='best_recall': reference {sel + 1} has the highest recall ({s.recall:.4f}) of {k} references"
            key = "recall"
        if len(ties) > 1:
            why += f"; references {[j + 1 for j in ties]} tie on {key}, the first wins"
        return sel, why


# ----------------------------------------------------------------------------------------------------------------
# BLEU


class _BleuExplainer:
    """The BLEU part of explanations under one config."""

    def __init__(self, config: BleuConfig):
        self.config = config
        self.score_options = config.score_options

    def explain(self, hyp: Sequence, refs: Sequence[Sequence]) -> Dict[str, Any]:
        cfg = self.config
        N = cfg.max_order
        row = bleu_def.item_stats(list(hyp), [list(r) for r in refs], N)
        orders = []
        for n in range(1, N + 1):
            h = bleu_def.ngram_counts(hyp, n)
            rcs = [bleu_def.ngram_counts(r, n) for r in refs]
            grams = []
            if len(rcs) == 1:
                get = rcs[0].get
                for g, c in h.items():
                    mx = get(g, 0)
                    grams.append({"ngram": [g] if n == 1 else list(g), "count": c, "clipped": c if c < mx else mx,
                                  "clip_references": [0] if mx else []})
            else:
                for g, c in h.items():
                    counts = [rc.get(g, 0) for rc in rcs]
                    mx = max(counts)
                    grams.append({"ngram": [g] if n == 1 else list(g), "count": c, "clipped": c if c < mx else mx,
                                  "clip_references": [j for j, x in enumerate(counts) if mx and x == mx]})
            orders.append({"n": n, "ngrams": grams, "matches": int(row[3 + n - 1]), "total": int(row[3 + N + n - 1])})
        hyp_len, closest, shortest = int(row[0]), int(row[1]), int(row[2])
        ref_lens = [len(r) for r in refs]
        rule = cfg.bp_ref_length
        ref_len = shortest if rule == "shortest" else closest
        which = ref_lens.index(ref_len)
        if rule == "shortest":
            why = f"bp_ref_length='shortest': reference {which + 1} is the shortest ({ref_len} tokens)"
        else:
            why = (f"bp_ref_length='{rule}': reference {which + 1} ({ref_len} tokens) is the closest in length to the "
                   f"prediction ({hyp_len} tokens)")
            if len(refs) > 1:
                why += f" among lengths {ref_lens} (ties go to the shorter)"
            if rule == "none":
                why += "; no brevity penalty is applied"
        s = score_stats(row, **self.score_options)
        return {"orders": orders, "hyp_len": hyp_len, "ref_len": ref_len, "ref_len_rule": rule,
                "ref_len_reference": which, "why": why, "sentence_bleu": float(s.score),
                "precisions": [float(p) for p in s.precisions], "brevity_penalty": float(s.brevity_penalty),
                "level": cfg.level, "statistics": [int(x) for x in row]}


# ----------------------------------------------------------------------------------------------------------------
# Highlight


def _unigram_marks(a: Sequence[str], b: Sequence[str]) -> List[int]:
    """Indices of ``a``'s tokens that match a token of ``b``, clipped, left to right."""
    left = Counter(b)
    out = []
    for i, t in enumerate(a):
        if left[t] > 0:
            left[t] -= 1
            out.append(i)
    return out


def _highlight(expl: Dict[str, Any], rouge_cfg: Optional[RougeConfig]) -> Dict[str, Any]:
    """The winning reference for display and the matched display tokens (clipped unigram matches)."""
    pred = [t["token"] for t in expl["prediction"]["tokens"]]
    refs = [[t["token"] for t in r["tokens"]] for r in expl["references"]]
    winner = None
    if "rouge" in expl:
        first = expl["rouge"][rouge_cfg.types[0]]
        winner = first["selected"]
        if winner is None:
            fs = [e["fmeasure"] for e in first["per_reference"]]
            winner = fs.index(max(fs))
    if winner is None and "chrf" in expl:
        winner = expl["chrf"]["selected"]
    if winner is None:
        hits = [len(_unigram_marks(pred, r)) for r in refs]
        winner = hits.index(max(hits))
    return {"reference": winner, "prediction": _unigram_marks(pred, refs[winner]),
            "reference_tokens": _unigram_marks(refs[winner], pred), "rule": "unigram"}


# ----------------------------------------------------------------------------------------------------------------
# Public API


def _configs(metrics, options, typed):
    """``(metrics, ROUGE config, BLEU item config, BLEU corpus config, chrF config)`` of an explanation: the options
    by name and the typed objects split by [`options_for_metrics`][zheval.compute.options.options_for_metrics]; metrics default to
    those of the typed objects given, else the preset's, else `DEFAULT_EXPLAIN_METRICS`."""
    typed = {m: o for m, o in typed.items() if o is not None}
    name = options.get("preset") or next((o.preset for o in typed.values() if getattr(o, "preset", None)), None)
    preset = find_preset(name)
    if metrics is None:
        metrics = list(typed) if typed else preset.metrics if preset is not None else DEFAULT_EXPLAIN_METRICS
    metrics = check_metrics(metrics, EXPLAIN_METRICS)
    if "chrf" in metrics and options.get("preset") is not None:
        raise ValueError("explain: chrF has no preset; explain chrF in a call without preset")
    objs = options_for_metrics("explain", metrics, check_shared_beta("explain", metrics, options), typed)
    check_explain_options("explain", objs, options)  # bootstrap, seed, crosscheck ... would change nothing here
    if preset is not None and not all(p.explainable for p in (preset.rouge, preset.bleu) if p is not None):
        raise ValueError(f"explain does not cover preset {name!r}: its numbers follow the harness's own "
                         "post-processing, tokens and formulas (zheval.presets), which an explanation built on "
                         "zheval's rules would not equal; explain the item without the preset, or see "
                         "docs/leaderboard_presets.md for what the preset computes")
    rouge_cfg = bleu_cfg = corpus_cfg = chrf_cfg = None
    if "chrf" in metrics:
        chrf_cfg = chrf_config(dataclasses.replace(objs["chrf"], level="sentence"))
    if "rouge" in metrics:
        rouge_cfg = rouge_config(objs["rouge"])
    if "bleu" in metrics:
        b = objs["bleu"]
        bleu_cfg = bleu_config(b, caller_level="sentence")  # explain's own level: no override of the preset's
        corpus_cfg = bleu_config(dataclasses.replace(b, level=None), caller_level="corpus")
    one_drop_warning(*(c.tokenizer for c in (rouge_cfg, bleu_cfg, corpus_cfg, chrf_cfg) if c is not None))
    return metrics, rouge_cfg, bleu_cfg, corpus_cfg, chrf_cfg


def explain_items(predictions: Sequence[str], references: Sequence[Any], metrics: Optional[Sequence[str]] = None,
                  indices: Optional[Sequence[int]] = None, *, rouge: Optional[RougeOptions] = None,
                  bleu: Optional[BleuOptions] = None, chrf: Optional[ChrfOptions] = None,
                  **options: Any) -> List[Dict[str, Any]]:
    """Explanations of every item of a corpus (the schema in the module docstring), each with its share of the
    corpus BLEU statistics.

    Args:
        predictions: ``list[str]``.
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged).
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"``; default: the metrics of the options objects given,
            else those that have the ``preset`` given (``rouge155``: ROUGE only; ``sacrebleu-zh``: BLEU only;
            ``llamafactory``: both), else BLEU and ROUGE.
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions].
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions].
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions].
        options: the same options by name, split as [`zheval.score`][zheval.compute.joint.score] splits them
            ([`options_for_metrics`][zheval.compute.options.options_for_metrics]: an unknown option, or one no requested metric
            uses, is a TypeError). BLEU's ``level`` defaults to ``"sentence"`` here (an item is explained by its
            sentence BLEU, as ``compute_bleu(level="sentence")["scores"]``); the corpus share uses the same options
            at ``level="corpus"``; chrF at sentence level; ``max_refs=K``: the first K references (``maxrefs:K``).
        indices: explain only these items (in this order; ints in ``[0, len(predictions))``); the corpus share is
            still that of the whole corpus (every item's BLEU statistics are counted). Default: every item.

    Returns:
        one dict per explained item; ``bleu.corpus_share`` = ``{"hyp_len", "ref_len", "matches": [...], "totals": [...]}``
        (this item's fraction, 0-1, of each summed statistic; 0 where the corpus sum is 0), ``"corpus_bleu"`` (the
        corpus score of all items) and ``"corpus_bleu_without_item"`` (the corpus score of the others).

    Raises:
        TypeError: a bad input of `validate_inputs` (naming ``predictions[i]`` / ``references[i][j]``), or an unknown option.
        ValueError: a bad input or option value (the configs' checks), an unknown metric, an index that is not an item,
            an option that would change nothing here (``bootstrap``, ``seed``, ``crosscheck`` ...:
            `zheval.compute.option_rules.check_explain_options`).
        EmptyReferenceError: a reference without tokens ([`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]).
    """
    metrics, rouge_cfg, bleu_cfg, corpus_cfg, chrf_cfg = _configs(metrics, options, dict(rouge=rouge, bleu=bleu, chrf=chrf))
    first = rouge_cfg or bleu_cfg or chrf_cfg
    preds, refs = validate_inputs(predictions, references)
    refs = refs if first.max_refs is None else [list(r)[:first.max_refs] for r in refs]  # as compute_bleu
    chosen = _checked_items(preds, refs, indices, rouge_cfg, bleu_cfg, chrf_cfg)
    rx = _RougeExplainer(rouge_cfg) if rouge_cfg is not None else None
    bx = _BleuExplainer(bleu_cfg) if bleu_cfg is not None else None
    display_tok = first.tokenizer
    other_tok = bleu_cfg.tokenizer if (rouge_cfg is not None and bleu_cfg is not None and
                                       bleu_cfg.tokenizer.fingerprint != rouge_cfg.tokenizer.fingerprint) else None

    memo: Dict[str, str] = {}
    other_memo: Dict[str, str] = {}

    def entry(text: str) -> Dict[str, Any]:
        e = token_spans(text, display_tok, memo)
        if other_tok is not None:
            o = token_spans(text, other_tok, other_memo)
            e.update(bleu_normalized=o["normalized"], bleu_tokens=o["tokens"], bleu_tokenizer=o["tokenizer"])
            if o["spans"] != "exact":
                e["spans"] = "approximate"
        return e

    signatures: Dict[int, Dict[str, str]] = {}
    btok = bleu_cfg.tokenizer.tokenize_cached if bleu_cfg is not None else None
    out = []
    for pred, rs in ((preds[i], refs[i]) for i in chosen):
        expl: Dict[str, Any] = {"prediction": entry(pred), "references": [entry(r) for r in rs]}
        sig = signatures.get(len(rs))
        if sig is None:
            sig = signatures[len(rs)] = {m: cfg.signature([len(rs)]) for m, cfg in (("rouge", rouge_cfg),
                                                                                     ("bleu", bleu_cfg),
                                                                                     ("chrf", chrf_cfg))
                                         if cfg is not None}
        if rx is not None:
            expl["rouge"] = rx.explain(rx.units(pred), [rx.units(r) for r in rs])
        if bx is not None:
            expl["bleu"] = bx.explain(btok(pred), [btok(r) for r in rs])
        if chrf_cfg is not None:
            expl["chrf"] = _chrf_item(pred, rs, chrf_cfg)
        expl["highlight"] = _highlight(expl, rouge_cfg)
        expl["signature"] = dict(sig)
        out.append(expl)
    if bx is not None and out:
        if indices is None:
            all_rows = [e["bleu"]["statistics"] for e in out]
        else:
            N = bleu_cfg.max_order
            all_rows = [bleu_def.item_stats(btok(p), [btok(r) for r in rs], N) for p, rs in zip(preds, refs)]
        _corpus_shares(out, [sum(col) for col in zip(*all_rows)], corpus_cfg)
    return out


def _checked_items(preds: list, refs: list, indices, rouge_cfg, bleu_cfg, chrf_cfg) -> List[int]:
    """The items to explain (``indices``, checked; default every item), after the input guards and the
    empty-reference rule of every metric (chrF's: characters after normalisation).

    Raises:
        ValueError: an index that is not an item; EmptyReferenceError."""
    if indices is None:
        chosen = list(range(len(preds)))
    else:
        chosen = list(indices)
        for i in chosen:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(preds):
                raise ValueError(f"indices: {i!r} is not an item index (0 to {len(preds) - 1})")
    first = rouge_cfg or bleu_cfg or chrf_cfg
    warn_input_slips(preds, refs, first.tokenizer, t2s_option=first.t2s_applies,
                     words=first is not chrf_cfg or chrf_cfg.uses_tokens)
    for cfg in (c for c in (rouge_cfg, bleu_cfg) if c is not None):  # BLEU: a preset may score empty ones (warned)
        lengths = [len(cfg.tokenizer.tokenize_cached(r)) for rs in refs for r in rs]
        if cfg is bleu_cfg:
            bleu_reference_rule(refs, cfg.tokenizer, lengths, cfg, False)
        else:
            check_references(refs, cfg.tokenizer, lengths)
    if chrf_cfg is not None:
        ctok = chrf_cfg.tokenizer
        check_references(refs, ctok, [len("".join(ctok.normalize(r).split())) for rs in refs for r in rs])
    return chosen


def _chrf_item(pred: str, refs: Sequence[str], cfg) -> Dict[str, Any]:
    tok = cfg.tokenizer
    words = tok.tokenize_cached if cfg.uses_tokens else (lambda t: ())
    return chrf_explanation(tok.normalize(pred), words(pred), [tok.normalize(r) for r in refs],
                            [words(r) for r in refs], cfg)


def _corpus_shares(out: List[Dict[str, Any]], total: List[int], corpus_cfg: BleuConfig) -> None:
    rows = [e["bleu"]["statistics"] for e in out]
    N = corpus_cfg.max_order
    opts = corpus_cfg.score_options
    corpus_bleu = float(score_stats(total, **opts).score)
    ref_col = 2 if corpus_cfg.bp_ref_length == "shortest" else 1

    def frac(a, b):
        return a / b if b else 0.0

    for e, row in zip(out, rows):
        rest = [t - x for t, x in zip(total, row)]
        e["bleu"]["corpus_share"] = {
            "hyp_len": frac(row[0], total[0]), "ref_len": frac(row[ref_col], total[ref_col]),
            "matches": [frac(row[3 + n], total[3 + n]) for n in range(N)],
            "totals": [frac(row[3 + N + n], total[3 + N + n]) for n in range(N)],
            "corpus_bleu": corpus_bleu,
            "corpus_bleu_without_item": float(score_stats(rest, **opts).score),
        }


def explain(prediction: str, references: Any, metrics: Optional[Sequence[str]] = None, *,
            rouge: Optional[RougeOptions] = None, bleu: Optional[BleuOptions] = None,
            chrf: Optional[ChrfOptions] = None, **options: Any) -> Dict[str, Any]:
    """Why one prediction scores what it scores: tokens with character spans, per n-gram order the matched and
    unmatched n-grams, the LCS alignment, per reference P/R/F and the reference the ``multi_ref`` rule chose, BLEU's
    statistics, reference length and sentence BLEU (the schema in the module docstring, also ``docs/explain.md``).

    Every number equals the metric's own per-item number exactly (``compute_rouge(..., use_aggregator=False)``,
    ``compute_bleu(..., level="sentence")["scores"]`` and the BLEU statistics row of ``bleu_items``).

    Args:
        prediction: ``str``.
        references: a ``str`` or a non-empty ``list[str]``.
        metrics: as [`explain_items`][zheval.compute.explain.explain_items] (no ``corpus_share``: one item is no corpus).
        rouge: as [`explain_items`][zheval.compute.explain.explain_items].
        bleu: as [`explain_items`][zheval.compute.explain.explain_items].
        chrf: as [`explain_items`][zheval.compute.explain.explain_items].
        options: as [`explain_items`][zheval.compute.explain.explain_items].

    Returns:
        a JSON-serialisable dict (scores on the 0-1 scale).

    Raises:
        TypeError: ``prediction`` or ``references`` a DataFrame, a mapping or a set (`zheval.io.text_lists`); else
            as [`explain_items`][zheval.compute.explain.explain_items] (``predictions[0]``, ``references[0][j]``).
        ValueError, EmptyReferenceError: as [`explain_items`][zheval.compute.explain.explain_items].
    """
    check_text_list(prediction, "prediction", "a str", "pass one prediction, prediction=df.loc[i, 'pred']")
    check_text_list(references, "references", "a str or a list of str (the references of this one prediction)",
                    "pass this item's references, references=df.loc[i, 'ref'] or a list of str")
    expl = explain_items([prediction], [references], metrics=metrics, rouge=rouge, bleu=bleu, chrf=chrf, **options)[0]
    if "bleu" in expl:
        expl["bleu"].pop("corpus_share", None)
    return expl
