"""Layer 4, fast twins: corpus-at-once (vectorised) versions of the definitions, each naming the reference function
it equals, and the one decision whether a fast path can serve a request.

Every twin is listed in `TWINS` (``tests/fast/test_fast_twins.py`` walks the table and checks each twin against
its reference on random and real inputs; a twin missing from the table fails that test). The compute layer asks
`usable_for` -- and nothing else -- whether to take a fast path; where it says no, the reference runs.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

__all__ = ["Twin", "TWINS", "FAST_ROUGE_KINDS", "TOKEN_PASS_SECONDS_PER_CHAR", "usable_for", "warmup"]


class Twin(NamedTuple):
    """A fast function and the reference it equals (both as ``"module:function"``), and what "equal" means."""

    fast: str
    reference: str
    equal: str


#: Every fast twin of the library, with its reference.
TWINS: tuple[Twin, ...] = (
    Twin("zheval.tokenizers.char_ids:char_token_ids", "zheval.tokenizers.char:CharTokenizer.tokenize_normalized",
         "the same tokens (as ids of one vocabulary) for every piece of normalised text, for the plain char tokenizer"),
    Twin("zheval.tokenizers.char_ids:char_token_spans", "zheval.tokenizers.char:CharTokenizer.tokenize_normalized",
         "the same tokens (ids of one vocabulary, with their positions) of every normalised text, for the char "
         "tokenizer without terms, punct keep or drop"),
    Twin("zheval.tokenizers.term_ids:term_token_spans", "zheval.tokenizers.char:CharTokenizer.tokenize_normalized",
         "the same tokens (ids of one vocabulary holding exactly them) of every normalised text, for the char "
         "tokenizer with terms (none holding a line break), punct keep or drop"),
    Twin("zheval.text.normalize_corpus:normalize_corpus", "zheval.text.normalize:Normalizer.__call__",
         "the same normalised text (as code points) of every text, for every set of steps"),
    Twin("zheval.text.split_corpus:split_corpus", "zheval.text.sentences:split_sentences",
         "the same sentence pieces of every normalised text (per line with 'punct', the lines with 'newline')"),
    Twin("zheval.tokenizers.jieba_rs:jieba_rs_segmenter", "zheval.tokenizers.jieba_words:JiebaTokenizer.tokenize_normalized",
         "the same words of every normalised text, for the jieba tokenizer with HMM off (jieba 0.42.1, rjieba 0.2.2)"),
    Twin("zheval.fast.lcs:lcs_length_pairs", "zheval.definitions.lcs:lcs_length",
         "the LCS length of every (column, row) pair of texts"),
    Twin("zheval.fast.ngrams:pair_clipped_hits", "zheval.definitions.rouge:clipped_overlap",
         "sum over n-grams of min(count in hypothesis, count in reference) for every pair"),
    Twin("zheval.fast.slots:pair_ngram_hits_sorted", "zheval.definitions.rouge:clipped_overlap",
         "sum over n-grams of min(count in prediction, count in reference) for every pair of a slot layout"),
    Twin("zheval.fast.slot_lcs:slot_lcs_lengths", "zheval.definitions.lcs:lcs_length",
         "the LCS length of every (prediction, reference) pair of a slot layout"),
    Twin("zheval.fast.slot_bleu:item_clipped_matches_sorted", "zheval.definitions.bleu:item_stats",
         "the clipped matches of every order of every item of a slot layout (item_stats' matches_1..N columns)"),
    Twin("zheval.fast.ngrams:item_clipped_hits_orders", "zheval.definitions.bleu:item_stats",
         "the clipped matches of every order of every item (item_stats' matches_1..N columns)"),
    Twin("zheval.fast.bleu:corpus_stats", "zheval.definitions.bleu:corpus_stats",
         "the same int64 statistics matrix (item_stats of every item)"),
    Twin("zheval.fast.bleu:layout_stats", "zheval.definitions.bleu:item_stats",
         "item_stats of every item of a corpus layout, stacked"),
    Twin("zheval.fast.union_lcs:union_lcs_hits_pairs", "zheval.definitions.rouge:summary_level_lcs_hits",
         "the ROUGE-Lsum union-LCS hits of every (prediction, reference) pair"),
    Twin("zheval.fast.skip_bigrams:skip_bigram_counts_by_text", "zheval.definitions.rouge:skip_bigram_counts",
         "the same skip-bigram multiset (pair (a, b) as id a * V + b) of every text, for every skip distance"),
    Twin("zheval.fast.skip_bigrams:pair_skip_bigram_hits", "zheval.definitions.rouge:clipped_overlap",
         "sum over skip-bigrams of min(count in hypothesis, count in reference) for every pair"),
    Twin("zheval.fast.skip_bigrams:corpus_skip_bigram_hits", "zheval.definitions.rouge:clipped_overlap",
         "the clipped skip-bigram co-occurrences (of skip_bigram_counts) of every pair, counted chunk by chunk"),
    Twin("zheval.fast.wlcs:wlcs_pairs", "zheval.definitions.lcs:wlcs",
         "the weighted LCS (float64, bit for bit) of every (reference, candidate) pair, for every weight"),
    Twin("zheval.fast.rouge:scores_from_pair_stats", "zheval.definitions.rouge:combine_references",
         "per-item P, R, F (float64, bit for bit) from per-pair statistics, for every multi_ref rule"),
    Twin("zheval.fast.compiled.twins:pair_ngram_lcs_stats", "zheval.definitions.rouge:clipped_overlap",
         "ROUGE-N hits of every order and the LCS length (zheval.definitions.lcs:lcs_length) of every distinct "
         "(prediction, reference) pair, compiled (numba)"),
    Twin("zheval.fast.compiled.twins:item_bleu_matches", "zheval.definitions.bleu:item_stats",
         "the clipped matches of every order of every item (item_stats' matches_1..N columns), compiled (numba)"),
    Twin("zheval.fast.compiled.twins:pair_skip_bigram_hits", "zheval.definitions.rouge:clipped_overlap",
         "sum over skip-bigrams (skip_bigram_counts) of min(count in hypothesis, count in reference) for every "
         "distinct pair, compiled (numba)"),
    Twin("zheval.fast.compiled.twins:wlcs_pairs", "zheval.definitions.lcs:wlcs",
         "the weighted LCS (float64, bit for bit) of every (reference, candidate) pair, compiled (numba)"),
    Twin("zheval.fast.compiled.twins:union_lcs_hits_pairs", "zheval.definitions.rouge:summary_level_lcs_hits",
         "the ROUGE-Lsum union-LCS hits of every (prediction, reference) pair (-1 where the pair is beyond its "
         "memory bound), compiled (numba)"),
    Twin("zheval.fast.rouge:corpus_rouge_scores", "zheval.definitions.rouge:make_item_scorer",
         "per-item P, R, F of rougeN/rougeL/rougeLsum/rougeS/rougeSU/rougeW (bit for bit) of a tokenised corpus"),
)

_log = logging.getLogger("zheval.fast")
#: CPU seconds per character of the numpy token passes (boundaries and ids) that the compiled passes replace (W3:
#: 0.10 s of 2 M characters), for ``usable_for("compiled_tokens")``.
TOKEN_PASS_SECONDS_PER_CHAR = 5e-8

#: ROUGE type kinds (`zheval.definitions.rouge.RougeType` ``kind``) that `zheval.fast.rouge` scores.
FAST_ROUGE_KINDS = ("N", "L", "Lsum", "S", "SU", "W")


def _jieba_rs_usable(tok) -> bool:
    from ..tokenizers.jieba_rs import JIEBA_DICT_SHA, RJIEBA_VERSION, rjieba_version
    from ..tokenizers.jieba_words import JiebaTokenizer

    if not (type(tok) is JiebaTokenizer and not tok.hmm and tok.jieba_version == "0.42.1"
            and tok.dict_sha == JIEBA_DICT_SHA):
        return False
    installed = rjieba_version()
    if installed != RJIEBA_VERSION:
        _log.debug("jieba_rs twin off: rjieba %s is installed, and its words are proven equal to jieba 0.42.1's "
                   "only for rjieba %s; the reference jieba segments", installed or "(none)", RJIEBA_VERSION)
        return False
    return True


def usable_for(task: str, **request) -> bool:
    """Whether a fast twin can serve a request -- the one place this is decided (the scikit-learn
    ``is_usable_for`` pattern); the caller otherwise runs the reference.

    Tasks and their request:

    * ``"char_ids"`` (``tokenizer``): the corpus-at-once twins (`zheval.text.normalize_corpus.normalize_corpus`,
      `zheval.text.split_corpus.split_corpus`, `zheval.tokenizers.char_ids.char_token_spans`) give
      exactly this tokenizer's sentences -- the ``char`` tokenizer without terms (either ``punct``); or, with terms
      (none holding a line break), `zheval.tokenizers.term_ids.term_token_spans` gives its tokens (a call that needs
      ``"punct"`` sentences then normalises all texts at once and tokenises them one by one).
    * ``"normalize_corpus"`` (``tokenizer``): all texts can be normalised at once
      (`zheval.text.normalize_corpus.normalize_corpus`) and then tokenised one by one -- a built-in tokenizer
      whose normalisation is its normaliser on the whole text.
    * ``"rouge_type"`` (``kind``, ``preset``): `zheval.fast.rouge.corpus_rouge_scores` computes this ROUGE type
      kind -- rougeN, rougeL, rougeLsum, rougeS, rougeSU, rougeW -- and no preset replaces the per-reference formula.
    * ``"jieba_rs"`` (``tokenizer``): `zheval.tokenizers.jieba_rs.jieba_rs_segmenter` gives exactly this
      tokenizer's words -- the ``jieba`` tokenizer (not a subclass) of jieba 0.42.1 with HMM off and a dictionary
      whose content is jieba 0.42.1's bundled ``dict.txt`` (`JIEBA_DICT_SHA`), rjieba
      `RJIEBA_VERSION` installed (the words were proven equal for exactly that
      pair of versions, with and without terms, on the shared data and on random text of every character class).
    * ``"skip_bigrams"`` (``longest``, ``skip``, ``vocab_size``, ``n_texts``): `zheval.fast.skip_bigrams` counts
      the ROUGE-S/SU skip-bigrams (maximum skip ``skip``, None = unlimited) of ``n_texts`` texts of at most
      ``longest`` tokens over ``vocab_size`` ids within its memory and 62-bit key bounds (asked for S and SU types
      on top of ``"rouge_type"``).
    * ``"union_lcs"`` (``reference_words``): `zheval.fast.union_lcs.union_lcs_hits_pairs` scores the
      ROUGE-Lsum union-LCS of pairs whose packed reference has this many 64-bit words (at most
      `zheval.fast.union_lcs.MAX_WORDS`; wider ones go to the reference, which bounds their width in blocks).
    * ``"slot_keys"`` (``slot_layout``, ``order``, ``with_pos``): the one-sort-per-order twins of
      `zheval.fast.slots` (ROUGE-N hits, the ROUGE-L match masks with ``with_pos``) and
      `zheval.fast.slot_bleu` can key this `SlotLayout`'s order-``order`` n-grams
      in 63 bits, one item at a time at least (`zheval.fast.slots.slot_keys_fit`); else the per-text-count
      twins of `zheval.fast.ngrams` and `zheval.fast.lcs` run.
    * ``"slot_bleu"`` (``corpus_layout``): `zheval.fast.slot_bleu.item_clipped_matches_sorted` counts the
      BLEU matches of this `CorpusLayout`: every order's keys fit in 63 bits and its
      items' texts hold at most `zheval.fast.slot_bleu.MAX_SPREAD` times the distinct texts' tokens
      (`zheval.fast.slot_bleu.slot_bleu_fits`); else `zheval.fast.ngrams.item_clipped_hits_orders`
      counts them on the distinct texts (cheaper where texts repeat much).
    * ``"compiled"`` (``numpy_seconds``): a compiled twin (`zheval.fast.compiled.twins`, numba, the
      ``zheval[fast]`` extra) replaces numpy work estimated at that many CPU seconds: numba installed, and its
      kernels already loaded, or the on-disk cache warm and the work above
      `zheval.fast.compiled.WARM_SECONDS`, or the cache cold and the work above
      `zheval.fast.compiled.COLD_SECONDS` (the first compile never happens inside a short job);
      ``ZHEVAL_COMPILED=0`` never, ``=1`` whenever numba is installed (`zheval.fast.compiled.compiled_usable`).
      The caller checks the twin's own bounds (packed keys, table sizes) first.
    * ``"compiled_tokens"`` (``predictions``, ``references``): the char tokenizer's corpus-at-once tokens and
      their ids come from the compiled passes (`zheval.tokenizers.char_ids.char_token_spans` ``compiled``):
      ``"compiled"`` asked for the numpy token work of these texts (`TOKEN_PASS_SECONDS_PER_CHAR` per character).
    * ``"shared_tokens"`` (``rouge_tokenizer``, ``bleu_tokenizer``, ``sentence_split``, ``bleu_crosscheck``,
      ``bleu_preset``): BLEU can be counted on ROUGE's tokenised corpus (`zheval.fast.index.CorpusLayout`):
      the same tokenizer (fingerprint), sentences whose tokens concatenate to the whole text's tokens (``"newline"``
      with a tokenizer whose lines concatenate; ``"punct"`` only when the text rule never cuts inside a token), no
      BLEU crosscheck (it needs token strings) and no BLEU preset.

    Each decision is logged at DEBUG level on the ``zheval.fast`` logger (which path ran).

    Raises:
        ValueError: an unknown task. KeyError: a request without the keys its task needs.
    """
    answer = _decide(task, request)
    if _log.isEnabledFor(logging.DEBUG):
        _log.debug("usable_for(%s, %s) -> %s", task, {k: getattr(v, "fingerprint", v) for k, v in request.items()},
                   answer)
    return answer


def _decide(task: str, request: dict) -> bool:
    if task == "compiled":
        from .compiled import compiled_usable

        return compiled_usable(float(request["numpy_seconds"]))
    if task == "compiled_tokens":
        from itertools import chain

        from .compiled import compiled_usable

        chars = sum(map(len, request["predictions"])) + sum(map(len, chain.from_iterable(request["references"])))
        return compiled_usable(chars * TOKEN_PASS_SECONDS_PER_CHAR)
    if task == "char_ids":
        return bool(request["tokenizer"].char_ids_twin() or request["tokenizer"].term_ids_twin())
    if task == "slot_keys":
        from .slots import slot_keys_fit

        return slot_keys_fit(request["slot_layout"], request["order"], request["with_pos"])
    if task == "slot_bleu":
        from .slot_bleu import slot_bleu_fits

        return slot_bleu_fits(request["corpus_layout"])
    if task == "union_lcs":
        from .union_lcs import MAX_WORDS

        return 0 < request["reference_words"] <= MAX_WORDS
    if task == "jieba_rs":
        return _jieba_rs_usable(request["tokenizer"])
    if task == "skip_bigrams":
        from .skip_bigrams import skip_bigrams_fit

        return skip_bigrams_fit(request["longest"], request["skip"], request["vocab_size"], request["n_texts"])
    if task == "normalize_corpus":
        tok = request["tokenizer"]
        return bool(tok.content_keyed and tok.batch_normalizable())
    if task == "rouge_type":
        return request["kind"] in FAST_ROUGE_KINDS and request["preset"] is None
    if task == "shared_tokens":
        tok, bleu_tok = request["rouge_tokenizer"], request["bleu_tokenizer"]
        if request["bleu_crosscheck"] or request["bleu_preset"] is not None:
            return False
        if not tok.lines_concatenate():
            return False
        if request["sentence_split"] != "newline" and not tok.punct_cuts_between_tokens():
            return False
        return bleu_tok.fingerprint == tok.fingerprint
    raise ValueError(f"unknown fast-path task {task!r}; valid: compiled, compiled_tokens, char_ids, normalize_corpus, jieba_rs, skip_bigrams, union_lcs, slot_keys, slot_bleu, rouge_type, shared_tokens")


def warmup() -> dict:
    """Compile (the first time on a machine, about 8 s) or load the compiled twins' kernels
    (`zheval.fast.compiled.warmup`), so that later computations of any size in this process may use them and
    later processes find the on-disk cache warm. ``zheval warmup`` on the command line.

    Returns:
        ``{"state_before": "cold" | "warm" | "loaded" | "off", "seconds": CPU seconds spent, "kernels": [names]}``.
    Raises:
        ImportError: numba is not installed (``pip install 'zheval[fast]'``).
    """
    from .compiled import warmup as compiled_warmup

    return compiled_warmup()
