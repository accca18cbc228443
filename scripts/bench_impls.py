"""The implementations that ``scripts/bench.py`` times, each on identical inputs.

Every implementation is ``setup(workload) -> run`` where ``run()`` does the timed work and returns its raw output,
and ``check(output) -> dict`` turns that output (untimed) into comparable numbers:

* ROUGE: ``{"mean": {type: (P, R, F)}, "items": {type: [(P, R, F), ...]} }`` (``items`` when available);
* BLEU: ``{"bleu": float}`` on the 0–1 scale (plus counts/totals when the tool reports them);
* floors: whatever they compute (LCS lengths, token counts), compared between the two LCS kernels.

``setup`` does everything that is not part of the measured job: imports, building scorer objects and
``evaluate.load`` (its file copy and import), and, for the *pre-tokenised* peers (``sacrebleu-none``, ``nltk``,
the n-gram and LCS floors), the tokenisation of their input with our char tokenizer. The zheval implementations
always start from raw text with an empty token cache (``zheval.tokenizers.clear_cache()`` right before ``run``).

Fairness (issue 8): rouge-score and rouge-score-rs get our char tokenizer *object* (rouge-score's ``tokenizer=``
interface; the object keeps its per-text token cache, cleared before each run, as for our own runs), the ROUGE
types ``rouge1, rouge2, rougeL, rougeLsum`` and ``score_multi`` (max F over references, ties to the first — our
``multi_ref="max"``). rougeLsum texts have one sentence per line (W2) and both sides split on ``"\\n"``.

The implementations are in modules by kind, each ``bench_impls_*.py`` beside this one (copied with it for the
children): ``_common`` (the path to the code under test, the shared output normalisation), ``_zheval``, ``_peers``,
``_floors`` and ``_w3`` (issue 17); this module is the registry `IMPLS` and where each one runs (`applicable`).
"""

from __future__ import annotations

from bench_impls_common import ROOT, SRC  # noqa: F401  (importing it puts the code under test first on sys.path)
from bench_impls_floors import floor_ngrams, floor_tokenize, lcs_bitparallel, lcs_dp
from bench_impls_peers import (nltk_bleu, rouge_score_peer, rouge_score_rs_native, rouge_score_rs_pytok, sacrebleu_none,
                               sacrebleu_zh)
from bench_impls_w3 import (TERMS, TYPES_12L, _zheval_rouge_with, floor_lcs_corpus, floor_ngrams_corpus, floor_normalize,
                            floor_tokenize_corpus, rouge_rust_jieba, rouge_rust_pytok, rouge_rust_scoring)
from bench_impls_zheval import (evaluate_bleu, evaluate_rouge, zheval_bleu, zheval_bleu_sacrebleu_zh, zheval_both,
                                zheval_rouge)

_LONG_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


# ---------------------------------------------------------------------------------------------------------------
# registry: name -> (kind, setup, ours?, description)

IMPLS = {
    "zheval-rouge": ("rouge", zheval_rouge, True, "zheval compute_rouge(tokenizer='char', multi_ref='max')"),
    "evaluate-chinese_rouge": ("rouge", evaluate_rouge, True, "evaluate.load('metrics/chinese_rouge').compute"),
    "rouge-score": ("rouge", rouge_score_peer, False, "rouge-score 0.1.2 score_multi, our char tokenizer object"),
    "rouge-score-rs/pytok": ("rouge", rouge_score_rs_pytok, False, "rouge-score-rs 0.2.1 score_multi, our char tokenizer object"),
    "rouge-score-rs/native": ("rouge", rouge_score_rs_native, False, "rouge-score-rs 0.2.1 score_multi, its Rust UnicodeTokenizer"),
    "zheval-bleu": ("bleu", zheval_bleu, True, "zheval compute_bleu(tokenizer='char'), raw text"),
    "zheval-bleu/sacrebleu-zh": ("bleu", zheval_bleu_sacrebleu_zh, True, "zheval compute_bleu(preset='sacrebleu-zh'), raw text"),
    "evaluate-chinese_bleu": ("bleu", evaluate_bleu, True, "evaluate.load('metrics/chinese_bleu').compute"),
    "sacrebleu-zh": ("bleu", sacrebleu_zh, False, "sacrebleu 2.6.0 BLEU(tokenize='zh') on raw text"),
    "sacrebleu-none": ("bleu", sacrebleu_none, False, "sacrebleu 2.6.0 BLEU(tokenize='none') on our tokens, space-joined"),
    "nltk": ("bleu", nltk_bleu, False, "nltk corpus_bleu on our token lists"),
    "zheval-both": ("both", zheval_both, True, "zheval.score(metrics=('rouge','bleu')): one tokenisation for both"),
    "floor-tokenize": ("floor", floor_tokenize, False, "normalise + char-tokenise each distinct text once"),
    "floor-ngrams": ("floor", floor_ngrams, False, "n-gram Counters, orders 1-4, every text occurrence"),
    "lcs-dp": ("floor", lcs_dp, False, "LCS lengths of all pairs, O(m*n) DP in Python"),
    "lcs-bitparallel": ("floor", lcs_bitparallel, False, "LCS lengths of all pairs, zheval.definitions.lcs bit-parallel"),
    # issue 17
    "zheval-rouge/default": ("rouge", _zheval_rouge_with({}), True,
                             "zheval compute_rouge defaults: char, rouge1/2/L/Lsum, sentence_split='punct'"),
    "zheval-both/default": ("both", _zheval_rouge_with({}, both=True), True,
                            "zheval.score(metrics=('rouge','bleu')) defaults"),
    "zheval-rouge/12L": ("rouge", _zheval_rouge_with({"rouge_types": TYPES_12L}), True,
                         "zheval compute_rouge(rouge_types=rouge1/2/L), char"),
    "zheval-rouge/punct-drop": ("rouge", _zheval_rouge_with({"punct": "drop"}), True,
                                "zheval compute_rouge(punct='drop') defaults otherwise"),
    "zheval-rouge/terms": ("rouge", _zheval_rouge_with({"terms": TERMS}), True,
                           "zheval compute_rouge(terms=<20 frequent words>)"),
    "zheval-rouge/none": ("rouge", _zheval_rouge_with({"tokenizer": "none"}, pretokenised=True), True,
                          "zheval compute_rouge(tokenizer='none') on the texts' char tokens joined by spaces"),
    "zheval-rouge/jieba": ("rouge", _zheval_rouge_with({"tokenizer": "jieba"}), True,
                           "zheval compute_rouge(tokenizer='jieba') defaults otherwise"),
    "zheval-rouge/jieba-12L": ("rouge", _zheval_rouge_with({"tokenizer": "jieba", "rouge_types": TYPES_12L}), True,
                               "zheval compute_rouge(tokenizer='jieba', rouge_types=rouge1/2/L)"),
    "zheval-both/jieba": ("both", _zheval_rouge_with({"tokenizer": "jieba"}, both=True), True,
                          "zheval.score(metrics=('rouge','bleu'), tokenizer='jieba')"),
    "zheval-rouge/jieba-terms": ("rouge", _zheval_rouge_with({"tokenizer": "jieba", "terms": TERMS}), True,
                                 "zheval compute_rouge(tokenizer='jieba', terms=<20 frequent words>)"),
    "rouge-rust/pytok": ("rouge", rouge_rust_pytok, False,
                         "rouge-rust 0.1.12 score_batch_flat, fed our char tokens (tokenised in Python, ASCII ids)"),
    "rouge-rust/jieba": ("rouge", rouge_rust_jieba, False,
                         "rouge-rust 0.1.12 score_batch_flat, fed our jieba tokens (jieba 0.42.1 in Python)"),
    "rouge-rust/scoring": ("floor", rouge_rust_scoring, False,
                           "rouge-rust 0.1.12 score_batch_flat alone, on ASCII-id strings made in setup"),
    "floor-normalize": ("floor", floor_normalize, False, "zheval corpus-at-once normalisation of the distinct texts"),
    "floor-tokenize/corpus": ("floor", floor_tokenize_corpus, False,
                              "zheval char tokenisation of the corpus (normalise + sentences + ids)"),
    "floor-ngrams/corpus": ("floor", floor_ngrams_corpus, False,
                            "zheval n-gram counts (orders 1-2) and ROUGE-1/2 hits of every pair, tokenised corpus"),
    "floor-lcs/corpus": ("floor", floor_lcs_corpus, False, "zheval whole-text LCS of every pair, tokenised corpus"),
}
for _t in ("rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"):
    IMPLS[f"zheval-rouge/{_t[5:]}"] = ("rouge", _zheval_rouge_with({"rouge_types": [_t]}), True,
                                       f"zheval compute_rouge(rouge_types=['{_t}']), char")
for _t in _LONG_TYPES:
    IMPLS[f"zheval-type/{_t}"] = ("long", _zheval_rouge_with({"rouge_types": [_t]}), True,
                                  f"zheval compute_rouge(rouge_types=['{_t}']), char, defaults otherwise")

IMPLS["zheval-both/12L"] = ("both", _zheval_rouge_with({"rouge_types": TYPES_12L}, both=True), True,
                            "zheval.score(metrics=('rouge','bleu'), rouge_types=rouge1/2/L), char")
try:  # issue 26: the perf-floor prototype, side by side (registered only where ../shared/perf-floor is)
    from bench_floor3_impls import IMPLS as _FLOOR3_IMPLS
except ImportError:  # run from elsewhere than scripts/
    _FLOOR3_IMPLS = {}
IMPLS.update(_FLOOR3_IMPLS)

#: Implementations that use every core (rouge-rust's Rayon pool): their children run without RAYON_NUM_THREADS=1.
MULTI_THREADED = {"rouge-rust/pytok", "rouge-rust/jieba", "rouge-rust/scoring"}
#: Implementations measured on W3 only (the distinct-text workload of issue 17).
W3_ONLY = {n for n in IMPLS if n.startswith(("zheval-rouge/", "zheval-both/", "rouge-rust/", "floor3/"))
           or n in ("floor-normalize", "floor-tokenize/corpus", "floor-ngrams/corpus", "floor-lcs/corpus")}
#: ... except these, which also run on W2-200 (issue 17: ROUGE-W on long summaries, against the previous code).
ALSO_ON_W2_200 = {"zheval-rouge/W"}
#: The long single-pair workloads, where only the ``zheval-type/*`` implementations run.
LONG_WORKLOADS = {"L100k", "L10kx10"}

#: Implementations that take minutes on W2-2000 and are left out there unless named with --only.
SLOW_ON_LARGE = {"rouge-score", "lcs-dp"}
#: Implementations that make no sense on W2 (BLEU on 1-reference long texts is still meaningful; all run).
ROUGE_ONLY_WORKLOADS = {"W2-200", "W2-2000"}


def applicable(name: str, workload: str) -> bool:
    kind = IMPLS[name][0]
    if workload in LONG_WORKLOADS or kind == "long":
        return workload in LONG_WORKLOADS and kind == "long"
    if name in W3_ONLY:
        return workload == "W3" or (workload == "W2-200" and name in ALSO_ON_W2_200)
    if workload in ROUGE_ONLY_WORKLOADS and kind in ("bleu", "both"):
        return False
    if workload in ROUGE_ONLY_WORKLOADS and name in ("floor-ngrams",):
        return False
    return True
