"""lm-evaluation-harness (``lm-eval`` 0.4.x) metrics: zheval's Chinese ROUGE, BLEU and chrF as per-document functions and
corpus aggregations, which a task YAML names through the door module `zheval.adapters.lm_eval_harness`
(``!function zheval.adapters.lm_eval_harness.<name>``; that module re-exports every name of this one).

Importing it (which a task YAML's ``!function`` does) registers, in lm-eval's registries, for each metric name of
[`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS]:

* an **aggregation** of that name (``zheval_rouge1_char`` ...): the corpus score of the documents' items, computed
  by [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] (the exact mean of per-item F, 0-1), [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] (corpus BLEU
  from summed statistics, 0-1) or [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf] (corpus chrF / chrF++ from summed statistics, 0-1:
  ``zheval_chrf_<tok>``, ``zheval_chrfpp_<tok>``; chrF alone counts characters, so ``zheval_chrf_char`` and
  ``zheval_chrf_jieba`` are equal: both are computed with ``char``) in one call over all documents -- not a mean of per-document scores, and no second
  implementation;
* a **metric** of that name: the per-document passthrough [`document_item`][zheval.adapters.lm_eval_harness.metrics.document_item] (lm-eval calls it with
  ``references=[gold], predictions=[pred]`` when the task has no ``process_results``), whose default aggregation and
  ``higher_is_better`` (True) are the above.

Several references per document (ragged: any count per document, no truncation to the shortest list -- lm-eval's own
``bleu`` cuts every document to the shortest reference list and scores Chinese 0.0 with sacrebleu's 13a tokenizer)
go through ``process_results``: `process_results_char`, `process_results_jieba`, `process_results`
(both), or [`make_process_results`][zheval.adapters.lm_eval_harness.metrics.make_process_results] for other metric sets and reference fields. A list-valued
``doc_to_target`` must not be used: lm-eval then binarises every metric (``1.0 if any(...)``); the aggregation
detects that and says so.

**Standard errors.** lm-eval gives a custom aggregation no stderr (its ``stderr_for_metric`` knows only its own
aggregations, by identity). Importing this module wraps ``lm_eval.evaluator_utils.stderr_for_metric`` (the name the
evaluator calls) and ``lm_eval.api.metrics.stderr_for_metric`` once: for an aggregation of this module it returns
the aggregation's own standard error; everything else goes to lm-eval's function unchanged. With
``bootstrap_iters=0`` there is no stderr (lm-eval's rule). The standard errors are computed from zheval's per-item
statistics, never by re-tokenising resamples:

* ROUGE (a mean of per-item F): lm-eval's closed form for every mean, ``mean_stderr`` -- sample standard deviation
  of the per-item F over ``sqrt(n)``;
* BLEU and chrF (corpus statistics): bootstrap standard error (`zheval.results.reducers.bootstrap_standard_error`:
  sample standard deviation, ``ddof=1`` as lm-eval's ``bootstrap_stderr``) of the corpus score over
  ``min(bootstrap_iters, BLEU_MAX_RESAMPLES)`` resamples of the documents' summed statistics, seeded with
  `SEED` (lm-eval caps its own corpus metrics at 100 resamples).

**Signatures.** Each metric ``M`` has a companion ``M_signature`` (`SIGNATURE_METRICS`; a registered metric
and aggregation of that name): listed in a task's ``metric_list`` (and emitted by its ``process_results``, see
[`make_process_results`][zheval.adapters.lm_eval_harness.metrics.make_process_results]), its value is the zheval signature of ``M`` on the same documents -- a string, so it is
shown in the results table of an ``lm_eval`` run and kept in its ``results_*.json`` (lm-eval keeps a metric's
aggregated value as it is; its stderr is ``N/A``). The number itself stays a float under ``M``.

**Item indices.** ``process_results`` does not learn a document's index, so a document with a problem (missing
reference field, a non-string, an empty list) gives an item that records the problem, and the aggregation --
which sees every document in order -- raises one ``ValueError`` listing every bad document as ``doc i`` (its
position in the order lm-eval scored the documents: the ``doc_id`` of a single-process run). An empty reference
found by zheval's empty-reference rule is named ``references[i][j]`` with the same ``doc i``.

Scale: 0-1, as every zheval score (lm-eval's built-in ``bleu`` reports sacrebleu's 0-100). Predictions reach the
metrics as the model produced them (lm-eval does not strip them; add a filter in the YAML if needed). Each
aggregation logs its zheval signature at INFO on the logger ``zheval.adapters.lm_eval_harness`` (lm-eval's results
hold floats only). Requires ``lm-eval`` (``pip install lm-eval==0.4.13``; the ``test`` extra installs it).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np


try:
    import lm_eval.api.metrics as _lm_metrics
    import lm_eval.evaluator_utils as _lm_evaluator_utils
    from lm_eval.api import registry as _lm_registry
except ImportError as exc:  # pragma: no cover - exercised only without lm-eval
    raise ImportError("zheval.adapters.lm_eval_harness needs lm-evaluation-harness: pip install lm-eval==0.4.13 "
                      f"(the zheval 'test' extra installs it); importing it failed: {exc}") from exc

from ...compute.bleu import BleuOptions, bleu_config, bleu_items, compute_bleu
from ...compute.bleu import score_from_sums as bleu_from_sums
from ...compute.chrf import ChrfOptions, chrf_config, chrf_items, compute_chrf
from ...compute.chrf import score_from_sums as chrf_from_sums
from ...compute.guards import warn_input_slips
from ...compute.inputs import EmptyReferenceError, validate_inputs
from ...compute.rouge import RougeOptions, compute_rouge, rouge_config, rouge_items
from ...io.lists import split_entries
from ...results.reducers import MIN_BOOTSTRAP_RESAMPLES, bootstrap_standard_error, corpus_statistic

__all__ = [
    "METRICS",
    "SIGNATURE_METRICS",
    "CHAR_METRICS",
    "JIEBA_METRICS",
    "CHRF_METRICS",
    "BLEU_MAX_RESAMPLES",
    "SEED",
    "HarnessMetric",
    "document_item",
    "make_process_results",
    "process_results",
    "process_results_char",
    "process_results_jieba",
    "process_results_signed",
    "process_results_char_signed",
    "process_results_jieba_signed",
    "process_results_chrf",
    "process_results_chrf_signed",
    "process_results_all",
    "corpus_score",
    "corpus_signature",
    "standard_error",
    "rouge1_char", "rouge2_char", "rougeL_char", "rougeLsum_char", "bleu_char",
    "rouge1_jieba", "rouge2_jieba", "rougeL_jieba", "rougeLsum_jieba", "bleu_jieba",
    "chrf_char", "chrfpp_char", "chrf_jieba", "chrfpp_jieba",
]

logger = logging.getLogger("zheval.adapters.lm_eval_harness")

#: At most this many bootstrap resamples for a BLEU standard error (lm-eval's ``bootstrap_iters`` defaults to
#: 100 000; lm-eval itself uses 100 for its corpus metrics ``bleu``/``chrf``/``ter``).
BLEU_MAX_RESAMPLES = 1000
#: Seed of the BLEU bootstrap (zheval's default seed), so a run's stderr is reproducible.
SEED = 12345
#: How many bad documents an error message lists (all are counted).
MAX_LISTED = 20


@dataclass(frozen=True)
class HarnessMetric:
    """One metric this module offers to lm-eval.

    Attributes:
        name: the metric, aggregation and result key in lm-eval (``zheval_<type>_<tokenizer>``).
        kind: ``"rouge"``, ``"bleu"`` or ``"chrf"``. rouge_type: the ROUGE type (``rouge1``, ``rouge2``, ``rougeL``,
            ``rougeLsum``) or None. tokenizer: the zheval tokenizer name (``char`` or ``jieba``). word_order: chrF's
            word n-gram order (0: chrF, 2: chrF++; 0 for the other kinds).
    """

    name: str
    kind: str
    rouge_type: Optional[str]
    tokenizer: str
    word_order: int = 0

    def options(self) -> Dict[str, Any]:
        """The keyword options of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] / [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] /
        [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf] for this metric. chrF without word n-grams
        (``zheval_chrf_jieba``) is given ``char``: jieba's words play no part in it, and its characters are char's
        (`zheval.compute.option_rules.check_chrf_word_options` refuses ``jieba`` there), so its signature says
        ``tok:zh-char``, as ``zheval_chrf_char``'s."""
        if self.kind == "rouge":
            return {"tokenizer": self.tokenizer, "rouge_types": [self.rouge_type]}
        if self.kind == "chrf":
            return {"tokenizer": self.tokenizer if self.word_order else "char", "word_order": self.word_order}
        return {"tokenizer": self.tokenizer}


def _metrics() -> Dict[str, HarnessMetric]:
    out = {}
    for tok in ("char", "jieba"):
        for rt in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
            out[f"zheval_{rt}_{tok}"] = HarnessMetric(f"zheval_{rt}_{tok}", "rouge", rt, tok)
        out[f"zheval_bleu_{tok}"] = HarnessMetric(f"zheval_bleu_{tok}", "bleu", None, tok)
    for tok in ("char", "jieba"):
        for label, order in (("chrf", 0), ("chrfpp", 2)):
            out[f"zheval_{label}_{tok}"] = HarnessMetric(f"zheval_{label}_{tok}", "chrf", None, tok, order)
    return out


METRICS: Dict[str, HarnessMetric] = _metrics()
"""Every metric name of this module -> its [`HarnessMetric`][zheval.adapters.lm_eval_harness.metrics.HarnessMetric] (read only). Each name is also an lm-eval
aggregation, and ``<name>_signature`` its signature companion (`SIGNATURE_METRICS`).

| metric | tokenizer ``char`` | tokenizer ``jieba`` |
|---|---|---|
| ROUGE-1 F | ``zheval_rouge1_char`` | ``zheval_rouge1_jieba`` |
| ROUGE-2 F | ``zheval_rouge2_char`` | ``zheval_rouge2_jieba`` |
| ROUGE-L F | ``zheval_rougeL_char`` | ``zheval_rougeL_jieba`` |
| ROUGE-Lsum F | ``zheval_rougeLsum_char`` | ``zheval_rougeLsum_jieba`` |
| corpus BLEU | ``zheval_bleu_char`` | ``zheval_bleu_jieba`` |
| chrF (``word_order=0``) | ``zheval_chrf_char`` | ``zheval_chrf_jieba`` |
| chrF++ (``word_order=2``; the tokenizer gives its words) | ``zheval_chrfpp_char`` | ``zheval_chrfpp_jieba`` |

All on the 0-1 scale, corpus values (the ROUGE ones the mean of per-document F, BLEU and chrF from summed
statistics)."""
#: The char-tokenizer ROUGE and BLEU metrics, in order: ROUGE-1, ROUGE-2, ROUGE-L, ROUGE-Lsum, BLEU.
CHAR_METRICS = tuple(n for n, m in METRICS.items() if n.endswith("_char") and m.kind != "chrf")
#: The jieba-tokenizer ROUGE and BLEU metrics, in the same order.
JIEBA_METRICS = tuple(n for n, m in METRICS.items() if n.endswith("_jieba") and m.kind != "chrf")
#: The chrF metrics: chrF and chrF++ with the char tokenizer's words, then with jieba's.
CHRF_METRICS = tuple(n for n, m in METRICS.items() if m.kind == "chrf")
#: The signature companion of every metric of `METRICS`, in the same order: ``<metric>_signature`` (its value
#: is that metric's zheval signature, a str).
SIGNATURE_METRICS = tuple(f"{n}_signature" for n in METRICS)


def _scored_metric(name: str) -> HarnessMetric:
    """The [`HarnessMetric`][zheval.adapters.lm_eval_harness.metrics.HarnessMetric] a metric or signature name scores with (KeyError naming the valid names)."""
    base = name[: -len("_signature")] if name.endswith("_signature") else name
    if base not in METRICS:
        raise KeyError(f"unknown zheval lm-eval metric {name!r}; valid names: {', '.join(METRICS)} and each with "
                       "_signature")
    return METRICS[base]


# ---------------------------------------------------------------------------------------------------------------
# per document
# ---------------------------------------------------------------------------------------------------------------

def _describe(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _problem(message: str) -> Tuple[None, str]:
    return (None, message)


def _item(prediction: Any, references: Any) -> Tuple[Optional[str], Any]:
    """The item of one document: ``(prediction, [reference, ...])`` or, for bad input, ``(None, problem)``.

    A tuple, not a dict: lm-eval spreads a dict returned by a metric function into one result key per dict key."""
    if isinstance(prediction, (list, tuple)) and len(prediction) == 1:
        prediction = prediction[0]
    if not isinstance(prediction, str):
        return _problem(f"the model's output must be one str, got {_describe(prediction)} (several outputs per "
                        "document need a take_first filter)")
    if references is None:
        return _problem("the references are missing (None: the field is null, or absent from this row of the data "
                        "file, which datasets fills with null)")
    if isinstance(references, str):
        refs = [references]
    elif isinstance(references, (list, tuple)):
        refs = list(references)
        if not refs:
            return _problem("the reference list is empty; every document needs at least one reference")
        bad = [j for j, r in enumerate(refs) if not isinstance(r, str)]
        if bad:
            return _problem(f"references[{bad[0]}] must be str, got {_describe(refs[bad[0]])}")
    else:
        return _problem(f"the references must be a str or a list of str, got {_describe(references)}")
    return (prediction, refs)


def document_item(references: Sequence[Any], predictions: Sequence[Any], **options: Any) -> Tuple[Optional[str], Any]:
    """Per-document function for a task without ``process_results``: lm-eval calls it as
    ``fn(references=[gold], predictions=[prediction])`` (``gold`` from ``doc_to_target``, one string).

    Args:
        references: a one-element list: the document's reference (a str).
        predictions: a one-element list: the model's output (a str).
        options: none are accepted (the metric entry's extra keys would land here).

    Returns:
        The document's item for the aggregations of this module: ``(prediction, [reference])``, or
        ``(None, problem)`` when the input is bad (the aggregation raises naming the document's index).

    Raises:
        TypeError: an option (the metric's options are fixed by its name; use another metric name), or a bare
            string instead of the one-element lists.
        ValueError: ``references`` and ``predictions`` of different lengths, or not one element each.
    """
    if options:
        raise TypeError(f"zheval's lm-eval metrics take no options (got {sorted(options)}); the metric name fixes the "
                        f"tokenizer and type: {', '.join(METRICS)}")
    for name, value in (("references", references), ("predictions", predictions)):
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            raise TypeError(f"{name} must be a one-element list (lm-eval's per-document call), got {_describe(value)}")
    if len(references) != len(predictions):
        raise ValueError(f"references and predictions must have the same length (one each per document); got "
                         f"{len(references)} references and {len(predictions)} predictions")
    if len(predictions) != 1:
        raise ValueError(f"a per-document call has exactly one prediction and one reference; got {len(predictions)} "
                         "(score whole corpora with zheval.compute_rouge / compute_bleu)")
    return _item(predictions[0], references[0])


def make_process_results(metrics: Sequence[str] = CHAR_METRICS, reference_field: str = "references"
                         ) -> Callable[[Mapping[str, Any], Sequence[Any]], Dict[str, Any]]:
    """A ``process_results(doc, results)`` for a task YAML (put ``process_results = make_process_results(...)`` in a
    ``utils.py`` beside the YAML and name it with ``!function utils.process_results``).

    Args:
        metrics: metric names of [`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS] and of `SIGNATURE_METRICS`; the task's ``metric_list`` must
            list exactly these (lm-eval averages any key it has no aggregation for, which fails on items). A list, or
            one string as a comma list (``"zheval_bleu_char,zheval_rouge1_char"``, `zheval.io.lists.split_entries`:
            entries stripped, an empty entry refused).
        reference_field: the document field holding the references: a str or a list of str (any count per document).

    Returns:
        ``process_results(doc, results) -> {metric: item}`` (the same item under every metric name), where
        ``results`` is lm-eval's list of the document's filtered outputs (one str for ``generate_until``).

    Raises:
        ValueError: an unknown metric name (listing the valid ones), no metric, a repeated name, an empty entry of a
            comma list, an empty field name.
    """
    # one string is a comma list ("zheval_bleu_char,zheval_rouge1_char"; tuple() would read its characters as names)
    metrics = tuple(split_entries(metrics, "metrics") if isinstance(metrics, str) else metrics)
    unknown = [m for m in metrics if m not in METRICS and m not in SIGNATURE_METRICS]
    if unknown:
        raise ValueError(f"unknown zheval lm-eval metric(s) {unknown}; valid names: {', '.join(METRICS)}, each also "
                         "with _signature")
    if not metrics or len(set(metrics)) != len(metrics):
        raise ValueError(f"metrics must name at least one metric, each once; got {list(metrics)}")
    if not isinstance(reference_field, str) or not reference_field:
        raise ValueError(f"reference_field must be a non-empty field name, got {reference_field!r}")

    def process_results(doc: Mapping[str, Any], results: Sequence[Any]) -> Dict[str, Any]:
        if not isinstance(doc, Mapping):
            item = _problem(f"the document must be a mapping of fields, got {_describe(doc)}")
        elif reference_field not in doc:
            item = _problem(f"field {reference_field!r} (the references) is missing; the document's fields: "
                            f"{', '.join(map(str, doc))}")
        elif not isinstance(results, (list, tuple)) or len(results) != 1:
            item = _problem(f"lm-eval passed {_describe(results)} as the document's outputs; one output "
                            "(output_type: generate_until) is expected")
        else:
            item = _item(results[0], doc[reference_field])
        return {m: item for m in metrics}

    process_results.__doc__ = (f"lm-eval ``process_results``: the document's item under the metrics "
                               f"{', '.join(metrics)}; references from the field {reference_field!r}.")
    return process_results


#: ``process_results`` for the char metrics (`CHAR_METRICS`), references in the field ``references``.
process_results_char = make_process_results(CHAR_METRICS)
#: ``process_results`` for the jieba metrics (`JIEBA_METRICS`), references in the field ``references``.
process_results_jieba = make_process_results(JIEBA_METRICS)
#: ``process_results`` for the ten ROUGE and BLEU metrics (char and jieba), references in the field ``references``
#: (`process_results_all` adds chrF).
process_results = make_process_results(CHAR_METRICS + JIEBA_METRICS)
#: `process_results_char` plus the five metrics' signatures (``zheval_rouge1_char_signature`` ...).
process_results_char_signed = make_process_results(CHAR_METRICS + tuple(f"{m}_signature" for m in CHAR_METRICS))
#: `process_results_jieba` plus the five metrics' signatures.
process_results_jieba_signed = make_process_results(JIEBA_METRICS + tuple(f"{m}_signature" for m in JIEBA_METRICS))
#: `process_results` plus every metric's signature (`SIGNATURE_METRICS`).
process_results_signed = make_process_results(CHAR_METRICS + JIEBA_METRICS + tuple(
    f"{m}_signature" for m in CHAR_METRICS + JIEBA_METRICS))
#: ``process_results`` for the chrF metrics (`CHRF_METRICS`), references in the field ``references``.
process_results_chrf = make_process_results(CHRF_METRICS)
#: `process_results_chrf` plus their signatures.
process_results_chrf_signed = make_process_results(CHRF_METRICS + tuple(f"{m}_signature" for m in CHRF_METRICS))
#: ``process_results`` for every metric of `METRICS` (ROUGE, BLEU and chrF, char and jieba).
process_results_all = make_process_results(tuple(METRICS))


# ---------------------------------------------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------------------------------------------

def _pairs(name: str, items: Sequence[Any]) -> Tuple[List[str], List[List[str]]]:
    """Predictions and references of the items, or one ValueError listing every bad document."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise TypeError(f"{name}: the aggregation takes lm-eval's list of per-document items, got {_describe(items)}")
    if not items:
        raise ValueError(f"{name}: no documents to score")
    preds: List[str] = []
    refs: List[List[str]] = []
    problems: List[str] = []
    for i, item in enumerate(items):
        pair = len(item) == 2 if isinstance(item, (list, tuple)) else False  # a list after a JSON round trip
        if pair and item[0] is None and isinstance(item[1], str):
            problems.append(f"doc {i}: {item[1]}")
        elif pair and isinstance(item[0], str) and isinstance(item[1], list) and item[1] and all(
                isinstance(r, str) for r in item[1]):
            preds.append(item[0])
            refs.append(item[1])
        else:
            problems.append(
                f"doc {i}: got {_describe(item)}, not a zheval item; the metric feeding this aggregation must be "
                "zheval's (document_item or a process_results of this module) -- a number here usually means a "
                "list-valued doc_to_target, which lm-eval binarises (use process_results for several references)")
    if problems:
        listed = problems[:MAX_LISTED]
        more = f"\n  ... and {len(problems) - len(listed)} more" if len(problems) > len(listed) else ""
        raise ValueError(f"{name}: {len(problems)} of {len(items)} documents cannot be scored (doc i = the i-th "
                         "document in the order lm-eval scored them, the doc_id of a single-process run):\n  "
                         + "\n  ".join(listed) + more)
    return preds, refs


def _relocated(name: str, error: EmptyReferenceError) -> EmptyReferenceError:
    return error.relocated(lambda i: f"doc {i}",
                           note=f"({name}: doc i = the i-th document in the order lm-eval scored them)")


def corpus_score(name: str, items: Sequence[Any]) -> float:
    """The corpus score of lm-eval items under the metric ``name`` of [`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS] (0-1).

    Args:
        name: a metric name of [`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS].
        items: lm-eval's per-document items, in document order (from [`document_item`][zheval.adapters.lm_eval_harness.metrics.document_item] or a
            ``process_results`` of this module).

    Returns:
        For ROUGE ``zheval.compute_rouge(predictions, references, tokenizer=..., rouge_types=[type])[type]`` (mean F);
        for BLEU ``zheval.compute_bleu(predictions, references, tokenizer=...)["bleu"]`` (corpus BLEU). The signature
        is logged at INFO.

    Raises:
        KeyError: an unknown metric name. ValueError: bad documents (all listed, ``doc i``), empty references
            ([`zheval.EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError], ``references[i][j]`` with ``doc i``). TypeError: not a list.
    """
    value, _ = _corpus_result(name, items)
    return value


def corpus_signature(name: str, items: Sequence[Any]) -> str:
    """The zheval signature of [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score] ``(metric, items)``, for ``name`` = ``<metric>_signature`` (or the
    metric's own name): the aggregation of the signature metrics (`SIGNATURE_METRICS`).

    Raises:
        as [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score].
    """
    _, signature = _corpus_result(_scored_metric(name).name, items)
    return signature


def _corpus_result(name: str, items: Sequence[Any]) -> Tuple[float, str]:
    spec = METRICS[name]
    preds, refs = _pairs(name, items)
    try:
        if spec.kind == "rouge":
            result = compute_rouge(preds, refs, **spec.options())
            value = result[spec.rouge_type]
        elif spec.kind == "chrf":
            result = compute_chrf(preds, refs, **spec.options())
            value = result["chrf"]
        else:
            result = compute_bleu(preds, refs, **spec.options())
            value = result["bleu"]
    except EmptyReferenceError as e:
        raise _relocated(name, e) from None
    logger.info("%s = %.6f over %d documents; zheval signature %s", name, value, len(preds), result["signature"])
    return float(value), result["signature"]


def _check_resamples(name: str, n_resamples) -> None:
    """`standard_error`'s ``n_resamples``: an int (not a bool) ≥ 1, or ValueError (1 is `standard_error`'s NaN)."""
    if isinstance(n_resamples, (bool, np.bool_)) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise ValueError(f"{name}: n_resamples (lm-eval's bootstrap_iters) must be an int >= 1 (1 gives NaN: "
                         f"a standard error needs {MIN_BOOTSTRAP_RESAMPLES}; BLEU and chrF use at most "
                         f"{BLEU_MAX_RESAMPLES}), got {n_resamples!r}")


def standard_error(name: str, items: Sequence[Any], n_resamples: int = BLEU_MAX_RESAMPLES) -> float:
    """The standard error of [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score] (module docstring, "Standard errors"), on the 0-1 scale.

    Args:
        name: a metric name of [`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS].
        items: as [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score].
        n_resamples: lm-eval's ``bootstrap_iters``, an ``int`` ≥ `MIN_BOOTSTRAP_RESAMPLES` (2: one resample has no
            spread); BLEU / chrF use ``min(n_resamples, BLEU_MAX_RESAMPLES)`` resamples, ROUGE's closed form
            ignores it (it is checked all the same).

    Returns:
        For ROUGE ``lm_eval.api.metrics.mean_stderr`` of the per-item F of zheval's
        [`rouge_items`][zheval.compute.rouge.rouge_items]; for BLEU / chrF
        `zheval.results.reducers.bootstrap_standard_error` of the corpus score over the items' statistics
        ([`bleu_items`][zheval.compute.bleu.bleu_items], [`chrf_items`][zheval.compute.chrf.chrf_items]), seeded
        with `SEED`.

    Raises:
        ValueError: ``n_resamples`` not an int (a bool included) or below 1 (it was read as 2 without a word),
            naming it and the accepted range (1: a warning and NaN for BLEU and chrF, one resample has no spread); fewer than 2 documents (lm-eval asks only from 2
            on); and as
            [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score] (KeyError, ValueError,
            TypeError).
    """
    spec = METRICS[name]
    _check_resamples(name, n_resamples)
    if n_resamples < MIN_BOOTSTRAP_RESAMPLES and spec.kind != "rouge":
        # lm-eval --bootstrap_iters 1: one resample has no spread. Said and NaN, not 2 resamples without a word, and
        # not an error after the whole generation run (ROUGE's closed form needs no resample)
        logger.warning("%s: no standard error from %d bootstrap resample (lm-eval's bootstrap_iters); it needs at "
                       "least %d: NaN", name, n_resamples, MIN_BOOTSTRAP_RESAMPLES)
        return float("nan")
    preds, refs = _pairs(name, items)
    if len(preds) < 2:
        raise ValueError(f"{name}: a standard error needs at least 2 documents, got {len(preds)}")
    preds, refs = validate_inputs(preds, refs)
    try:
        if spec.kind == "rouge":
            config = rouge_config(RougeOptions(**spec.options()))
            warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
            f = rouge_items(preds, refs, config).fmeasure[spec.rouge_type].tolist()
            return float(_lm_metrics.mean_stderr(f))
        if spec.kind == "chrf":
            config = chrf_config(ChrfOptions(**spec.options()))
            warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies, words=config.uses_tokens)
            stats, of_sums = chrf_items(preds, refs, config).stats, chrf_from_sums(config)
        else:
            config = bleu_config(BleuOptions(**spec.options()))
            warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
            stats, of_sums = bleu_items(preds, refs, config).stats, bleu_from_sums(config)
    except EmptyReferenceError as e:
        raise _relocated(name, e) from None
    resamples = min(int(n_resamples), BLEU_MAX_RESAMPLES)
    return bootstrap_standard_error(stats, corpus_statistic(of_sums, stats.shape[1]), resamples, SEED,
                                    sums_statistic=of_sums)


def _corpus_aggregation(name: str, function_name: str) -> Callable[[Sequence[Any]], float]:
    spec = METRICS[name]

    def aggregation(items: Sequence[Any]) -> float:
        return corpus_score(name, items)

    what = (f"{spec.rouge_type} F (mean over documents)" if spec.kind == "rouge" else
            f"corpus {'chrF++' if spec.word_order else 'chrF'} (summed statistics)" if spec.kind == "chrf" else
            "corpus BLEU (summed statistics)")
    aggregation.__name__ = aggregation.__qualname__ = function_name
    aggregation.__doc__ = (
        f"lm-eval aggregation ``{name}``: {what} with zheval's ``{spec.tokenizer}`` tokenizer, 0-1, over all the "
        f"documents' items ([`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score]); several references per document, ragged. Its standard error: "
        f"[`standard_error`][zheval.adapters.lm_eval_harness.metrics.standard_error]. Raises as [`corpus_score`][zheval.adapters.lm_eval_harness.metrics.corpus_score].")
    aggregation.zheval_metric = name
    return aggregation


rouge1_char = _corpus_aggregation("zheval_rouge1_char", "rouge1_char")
rouge2_char = _corpus_aggregation("zheval_rouge2_char", "rouge2_char")
rougeL_char = _corpus_aggregation("zheval_rougeL_char", "rougeL_char")
rougeLsum_char = _corpus_aggregation("zheval_rougeLsum_char", "rougeLsum_char")
bleu_char = _corpus_aggregation("zheval_bleu_char", "bleu_char")
rouge1_jieba = _corpus_aggregation("zheval_rouge1_jieba", "rouge1_jieba")
rouge2_jieba = _corpus_aggregation("zheval_rouge2_jieba", "rouge2_jieba")
rougeL_jieba = _corpus_aggregation("zheval_rougeL_jieba", "rougeL_jieba")
rougeLsum_jieba = _corpus_aggregation("zheval_rougeLsum_jieba", "rougeLsum_jieba")
bleu_jieba = _corpus_aggregation("zheval_bleu_jieba", "bleu_jieba")
chrf_char = _corpus_aggregation("zheval_chrf_char", "chrf_char")
chrfpp_char = _corpus_aggregation("zheval_chrfpp_char", "chrfpp_char")
chrf_jieba = _corpus_aggregation("zheval_chrf_jieba", "chrf_jieba")
chrfpp_jieba = _corpus_aggregation("zheval_chrfpp_jieba", "chrfpp_jieba")


# ---------------------------------------------------------------------------------------------------------------
# registration in lm-eval
# ---------------------------------------------------------------------------------------------------------------

def _signature_aggregation(name: str) -> Callable[[Sequence[Any]], str]:
    def aggregation(items: Sequence[Any]) -> str:
        return corpus_signature(name, items)

    aggregation.__name__ = aggregation.__qualname__ = name
    aggregation.__doc__ = (f"lm-eval aggregation ``{name}``: the zheval signature (a str) of ``{name[:-10]}`` on the "
                           "same documents (`corpus_signature`).")
    return aggregation


def _register() -> None:
    """Register every aggregation and metric of [`METRICS`][zheval.adapters.lm_eval_harness.metrics.METRICS] in lm-eval (idempotent) and wrap its
    ``stderr_for_metric`` once."""
    aggregations = {f.zheval_metric: f for f in (rouge1_char, rouge2_char, rougeL_char, rougeLsum_char, bleu_char,
                                                 rouge1_jieba, rouge2_jieba, rougeL_jieba, rougeLsum_jieba,
                                                 bleu_jieba, chrf_char, chrfpp_char, chrf_jieba, chrfpp_jieba)}
    for name, agg in aggregations.items():
        if name not in _lm_registry.AGGREGATION_REGISTRY:
            _lm_registry.register_aggregation(name)(agg)
        elif getattr(_lm_registry.AGGREGATION_REGISTRY.get(name), "zheval_metric", None) != name:
            logger.warning("lm-eval already has an aggregation named %r that is not zheval's; it is left alone (name "
                           "zheval's with !function zheval.adapters.lm_eval_harness.%s)", name, agg.__name__)
        if name not in _lm_registry.METRIC_REGISTRY:
            _lm_registry.register_metric(metric=name, higher_is_better=True, aggregation=name)(document_item)
        signed = f"{name}_signature"
        if signed not in _lm_registry.AGGREGATION_REGISTRY:
            _lm_registry.register_aggregation(signed)(_signature_aggregation(signed))
        if signed not in _lm_registry.METRIC_REGISTRY:
            _lm_registry.register_metric(metric=signed, aggregation=signed)(document_item)
    for module in (_lm_evaluator_utils, _lm_metrics):
        original = getattr(module, "stderr_for_metric", None)
        if original is None:
            logger.warning("lm-eval's %s has no stderr_for_metric: zheval's aggregations report stderr N/A",
                           module.__name__)
            continue
        if getattr(original, "zheval_wrapped", None) is not None:
            continue
        module.stderr_for_metric = _stderr_wrapper(original)


def _stderr_wrapper(original: Callable) -> Callable:
    @functools.wraps(original)
    def stderr_for_metric(metric, bootstrap_iters):
        name = getattr(metric, "zheval_metric", None)
        if name is None or METRICS.get(name) is None or getattr(metric, "__module__", None) != __name__:
            return original(metric, bootstrap_iters)
        if bootstrap_iters <= 0:
            return None
        return functools.partial(standard_error, name, n_resamples=bootstrap_iters)

    stderr_for_metric.zheval_wrapped = original
    return stderr_for_metric


_register()
