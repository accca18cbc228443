# Copyright 2026 The zheval Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""chinese_rouge: the full ROUGE family on Chinese tokens, with a rouge-score cross-check and presets.

A thin evaluate wrapper: all logic lives in the zheval library (zheval.compute.rouge.compute_rouge).
"""

import datasets
import evaluate

from zheval.adapters.evaluate_module import checked_inputs  # From: zheval
from zheval.adapters.evaluate_module import check_seed_and_confidence  # From: zheval
from zheval.adapters.evaluate_module import compute_keeping_batches  # From: zheval
from zheval.adapters.evaluate_module import init_module_state  # From: zheval
from zheval.adapters.evaluate_module import module_lock  # From: zheval
from zheval.adapters.evaluate_module import no_cyclic_gc  # From: zheval
from zheval.adapters.evaluate_module import refuse_load_options  # From: zheval
from zheval.adapters.evaluate_module import store_batch  # From: zheval
from zheval.adapters.evaluate_module import store_item  # From: zheval
from zheval.compute.rouge import ROUGE_OPTIONS  # From: zheval
from zheval.compute.rouge import TOKENIZER_OPTIONS  # From: zheval
from zheval.compute.rouge import build_rouge_tokenizer  # From: zheval
from zheval.compute.rouge import compute_rouge  # From: zheval
from zheval.compute.rouge import resolve_options  # From: zheval
from zheval.compute.options import refused_hub_options  # From: zheval


_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    address = "Barcelona, Spain",
    pages = "74--81",
    url = "https://aclanthology.org/W04-1013",
}
"""

_DESCRIPTION = """\
ROUGE (Lin, 2004) for Chinese: ROUGE-N, ROUGE-L, ROUGE-Lsum, ROUGE-W, ROUGE-S and ROUGE-SU computed on explicit
Chinese tokens (characters by default, or jieba words, or your own tokenizer) after an explicit normalisation,
both named in the result's signature. The Hub's "rouge" module keeps only [a-z0-9] and scores Chinese 0.

rouge1..rouge9 and rougeL equal rouge-score 0.1.2 fed the same tokens (crosscheck=True recomputes them with
rouge-score; the difference is 0). rougeLsum does too with sentence_split="newline" (rouge-score splits on newlines
only); with the default "punct" split it equals rouge-score given our sentences joined by "\n", which is what the
cross-check feeds it. The corpus value is the exact mean of per-item scores. Several references
per item are combined by an explicit rule (multi_ref): "max" (rouge-score's score_multi), "mean", "pool"
(ROUGE-1.5.5 -f A) or "best_recall" (-f B).

Presets reproduce other tools exactly: "rouge155" (ROUGE-1.5.5 -a -n 4 -w 1.2 -2 4 -U -f A -p 0.5 on the same
tokens, quirks included) and "llamafactory" (LLaMA-Factory's / ChatGLM's rouge-1/2/l: jieba words, rouge-chinese
semantics; their own 0-100 numbers are added as llamafactory_rouge_1 etc.).

Scores are on the 0-1 scale of the Hugging Face "rouge" module, whose output keys are kept.
"""

_KWARGS_DESCRIPTION = """
Computes Chinese ROUGE of predictions against references.

Args:
    predictions (`list` of `str`): one prediction per item (an empty string scores 0).
    references (`list` of `list` of `str`, or `list` of `str`): one or more references per item; the number may
        differ between items.
        A string and a list may be mixed across items and across add()/add_batch() calls.
        A blank reference, or one without a token after normalisation and tokenisation (e.g. "……" with
        punct="drop"), is an error naming every such references[i][j]. add()/add_batch() check a batch as compute()
        does and refuse a bad one whole; add/add_batch/compute hold the instance's lock (safe from several threads).
    Options are keyword arguments of compute(); evaluate.load() takes only evaluate's own arguments (a scoring
    option given to evaluate.load raises TypeError instead of being silently ignored).
    tokenizer (`str` or callable): "char" (default: one token per Han character, per run of letters/digits, per
        other symbol), "jieba" (a private jieba instance), "none" (text already split by spaces), or a callable
        `str -> list[str]`.
    rouge_types (`list` of `str`): default ["rouge1", "rouge2", "rougeL", "rougeLsum"]. Valid: "rouge1" ...
        "rouge9" (any N), "rougeL", "rougeLsum", "rougeW", "rougeS4"/"rougeSU4" (any skip distance),
        "rougeS*"/"rougeSU*" (unlimited).
    use_aggregator (`bool`): True (default) returns the mean over items; False one value per item.
    multi_ref (`str`): "max" (default), "mean", "pool" or "best_recall".
    beta (`float`): F-measure beta, default 1 (F1).
    return_precision_recall (`bool`): also return <type>_precision and <type>_recall.
    bootstrap (`int`): number of bootstrap resamples (at most 100000) for a 95% interval of each mean F (0 = none); `seed` seeds it.
    preset (`str`): "rouge155" or "llamafactory"; sets defaults, explicit arguments override them.
    crosscheck (`bool`): also recompute with rouge-score (rouge-chinese for "llamafactory") on the same tokens.
    rouge_w_weight (`float`): w of rougeW, default 1.2.
    sentence_split (`str`): for rougeLsum: "punct" (default: newlines and 。！？；… etc.) or "newline"
        (rouge-score's rule: only then is rougeLsum rouge-score's on the raw text's tokens).
    terms, punct, jieba_hmm, jieba_dict, normalize, t2s: tokenizer options, as in chinese_bleu.
    Options that only chinese_bleu uses (max_order, smooth_method, level, ...) are accepted and ignored, so that
    evaluate.combine([chinese_bleu, chinese_rouge]) takes one set of keyword arguments.

Returns:
    <type> (`float`, or `list` of `float` without the aggregator): F-measure in [0, 1] per ROUGE type.
    <type>_precision, <type>_recall: with return_precision_recall=True.
    <type>_ci_low, <type>_ci_high (`float`): with bootstrap > 0.
    signature (`str`): e.g. "nrefs:1|tok:char|norm:...|metric:rouge|types:...|multi:max|beta:1|split:punct|zheval:0.1.0".
    crosscheck (`dict`): with crosscheck=True: tool, types, items, max_abs_diff, scores.
    llamafactory_rouge_1, llamafactory_rouge_2, llamafactory_rouge_l (`float`): with preset="llamafactory":
        LLaMA-Factory's own numbers (0-100).

Examples:

    >>> chinese_rouge = evaluate.load("./metrics/chinese_rouge")  # from the repository root; Hub: "<owner>/chinese_rouge"
    >>> results = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]])
    >>> {k: round(v, 4) for k, v in results.items() if k != "signature"}
    {'rouge1': 0.7692, 'rouge2': 0.5455, 'rougeL': 0.7692, 'rougeLsum': 0.7692}

    Ragged references, more ROUGE types, and the rouge-score cross-check:

    >>> results = chinese_rouge.compute(
    ...     predictions=["不客气，祝您玩得愉快！", "地址在北京市东城区。"],
    ...     references=[["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。"],
    ...     rouge_types=["rouge1", "rougeL", "rougeSU4"],
    ...     crosscheck=True,
    ... )
    >>> round(results["rougeSU4"], 4), results["crosscheck"]["max_abs_diff"]
    (0.6574, 0.0)
    >>> results["signature"].split("|")[0]
    'nrefs:var'
"""

# Options of chinese_bleu that mean nothing to ROUGE: accepted and ignored (evaluate.combine sends every keyword
# argument to every module).
BLEU_ONLY_OPTIONS = (
    "max_order",
    "smooth_method",
    "smooth_value",
    "bp_ref_length",
    "level",
    "effective_order",
    "weights",
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChineseRouge(evaluate.Metric):
    """Chinese ROUGE as an evaluate metric; see the module card (README.md)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {
                        "predictions": datasets.Value("string", id="sequence"),
                        "references": datasets.Sequence(datasets.Value("string", id="sequence"), id="references"),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Value("string", id="sequence"),
                        "references": datasets.Value("string", id="sequence"),
                    }
                ),
            ],
            codebase_urls=["https://github.com/google-research/google-research/tree/master/rouge"],
            reference_urls=["https://aclanthology.org/W04-1013"],
        )

    def __init__(self, *args, **kwargs):
        """evaluate's own constructor parameters only (what ``evaluate.load`` passes); scoring options go to
        ``compute()``. evaluate would silently swallow ``evaluate.load(path, tokenizer="jieba")``: TypeError instead.
        """
        refuse_load_options("chinese_rouge", kwargs)
        super().__init__(*args, **kwargs)
        init_module_state(self)  # the instance's lock and the record of stored batches

    # Inputs and options are checked, and inputs put in their canonical form (every item a list of reference
    # strings), before evaluate stores anything: evaluate picks its feature set from the first item and coerces
    # the rest (a list reference after a string one became its repr), and a batch refused halfway would stay
    # stored. A failure inside _compute restores the batches added before the call (see compute_keeping_batches).
    # add, add_batch and compute hold the instance's lock (module_lock): calls from several threads run one at a time.

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Check inputs and options, then compute (see the module's inputs description below)."""
        # one call at a time on this instance (evaluate's writer is not thread-safe); no full-heap collection of
        # evaluate's imports mid-computation (see no_cyclic_gc)
        with module_lock(self), no_cyclic_gc():
            _check_options(kwargs)
            if predictions is not None or references is not None:
                predictions, references = checked_inputs(self, predictions, references, "compute()")
            return compute_keeping_batches(self, super().compute, predictions, references, kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Check a batch (item indices in errors; a bad batch is refused whole), then store it in canonical form."""
        with module_lock(self):
            if predictions is not None or references is not None:
                predictions, references = checked_inputs(self, predictions, references, "add_batch()")
                if not kwargs:  # (other keywords: evaluate's add_batch raises its error)
                    return store_batch(self, predictions, references)
            return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Check one item, then store it in canonical form."""
        with module_lock(self):
            if prediction is not None or reference is not None:
                (prediction,), (reference,) = checked_inputs(self, [prediction], [reference], "add()", single=True)
            return store_item(self, super().add, prediction, reference, kwargs)

    def _compute(self, predictions, references, **kwargs):
        # kept until the computation succeeds, so that a failure can put the stored items back
        self._zheval_inputs = (predictions, references)
        # what evaluate hands back is what add/add_batch/compute stored: canonical and validated
        out = compute_rouge(predictions, references, _validated=len(predictions) > 0, **_rouge_options(kwargs))
        self._zheval_inputs = None
        return out


def _rouge_options(kwargs):
    """The options meant for ROUGE; chinese_bleu-only ones are dropped, unknown ones raise TypeError."""
    unknown = sorted(k for k in kwargs if k not in ROUGE_OPTIONS and k not in BLEU_ONLY_OPTIONS)
    if unknown:
        raise TypeError(
            f"chinese_rouge got unknown option(s) {unknown}; valid options: {', '.join(ROUGE_OPTIONS)} "
            f"(chinese_bleu-only options, accepted and ignored: {', '.join(BLEU_ONLY_OPTIONS)})"
            + refused_hub_options(unknown)
        )
    return {k: v for k, v in kwargs.items() if k in ROUGE_OPTIONS}


def _check_options(kwargs):
    """Raise every option error compute_rouge would raise (unknown option or value, preset conflicts, bootstrap,
    seed, confidence, tokenizer name and options, normalize, terms, punct, jieba_dict ...) before evaluate stores
    or consumes anything. The tokenizer is built as compute_rouge builds it (instances are cached)."""
    opts = _rouge_options(kwargs)
    keys = ("tokenizer", "rouge_types", "multi_ref", "beta", "rouge_w_weight", "sentence_split", "normalize")
    resolved = resolve_options(opts.get("preset"), **{k: opts[k] for k in keys if k in opts})
    check_seed_and_confidence(opts)  # bootstrap (bounded), seed and confidence, as compute_rouge checks them
    if opts.get("bootstrap", 0) and not opts.get("use_aggregator", True):
        raise ValueError("bootstrap intervals are computed for the aggregated score; use use_aggregator=True")
    if opts.get("crosscheck") and opts.get("preset") == "rouge155":
        raise ValueError("crosscheck is not available for preset 'rouge155' (ROUGE-1.5.5 is a Perl script)")
    if opts.get("preset") == "llamafactory" and resolved["beta"] != 1.0:
        raise ValueError("preset 'llamafactory' uses rouge-chinese's F1 (2PR/(P+R+1e-8)); beta cannot be changed")
    if opts.get("crosscheck") and resolved["beta"] != 1.0:
        raise ValueError("crosscheck compares F1 with rouge-score/rouge-chinese; it needs beta=1")
    tok_opts = {k: opts[k] for k in TOKENIZER_OPTIONS if k in opts and k != "normalize"}
    if resolved["normalize"] is not None:
        tok_opts["normalize"] = resolved["normalize"]
    build_rouge_tokenizer(resolved["tokenizer"], **tok_opts)
