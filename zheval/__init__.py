"""zheval: trustworthy, fast Chinese BLEU, ROUGE and chrF for the Hugging Face ecosystem.

Public API (imported on first use, so ``import zheval`` stays light):

* [`compute_rouge`][zheval.compute.rouge.compute_rouge], [`compute_bleu`][zheval.compute.bleu.compute_bleu], [`compute_chrf`][zheval.compute.chrf.compute_chrf] -- one metric on texts (``zheval.compute.rouge``
  / ``.bleu`` / ``.chrf``);
* `score` -- both metrics with one tokenisation (``zheval.compute.joint``);
* [`RougeOptions`][zheval.compute.options.RougeOptions], [`BleuOptions`][zheval.compute.options.BleuOptions], [`ChrfOptions`][zheval.compute.options.ChrfOptions] -- every option of a metric, as one object
  (``score(..., rouge=RougeOptions(...))``; ``zheval.compute.options``);
* [`score_batches`][zheval.compute.batches.score_batches] -- the same result from batches that stream by, in flat memory (``zheval.compute.batches``);
* `explain`, [`explain_items`][zheval.compute.explain.explain_items] -- why an item scored what it did (``zheval.compute.explain``);
* [`get_tokenizer`][zheval.tokenizers.get_tokenizer] -- every tokenizer name in one registry (``zheval.tokenizers``);
* `metric_path` -- the folder of an evaluate module script, also after ``pip install``
  (``evaluate.load(zheval.metric_path("chinese_rouge"))``; ``zheval.adapters.metric_paths``);
* [`compute_bertscore`][zheval.compute.bertscore.compute_bertscore] -- BERTScore with a local model, equal to bert-score (``zheval.compute.bertscore``; the
  ``bertscore`` extra); [`compute_judge`][zheval.compute.judge.compute_judge], [`judge_pairwise`][zheval.compute.judge.judge_pairwise] -- an LLM judge through an OpenAI-compatible
  endpoint (``zheval.compute.judge``; the ``judge`` extra);
* the warning categories of the input guards and [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError];
* [`distinct_n`][zheval.results.distinct.distinct_n], [`diversity`][zheval.results.distinct.diversity] -- Distinct-n of predictions and their diversity against the references
  (``zheval.results.distinct``).

The layers, bottom to top, are described in ``docs/DESIGN.md``: ``text`` → ``tokenizers`` → ``definitions`` →
``fast`` → ``presets`` → ``results`` → ``compute`` → ``cli``/``adapters``.
"""

from .version import __version__

__all__ = ["__version__", "compute_rouge", "compute_bleu", "compute_chrf", "score", "score_batches",
           "RougeOptions", "BleuOptions", "ChrfOptions", "get_tokenizer", "explain", "explain_items", "metric_path",
           "compute_bertscore", "compute_judge", "judge_pairwise", "ZhevalWarning",
           "UnsegmentedTextWarning", "ScriptMismatchWarning", "PresetOverrideWarning", "EmptyReferenceWarning",
           "DuplicateReferenceWarning", "ControlCharacterWarning", "ResamplingWarning", "EmptyReferenceError", "distinct_n", "diversity"]

#: Public names imported on first use (so that ``import zheval`` stays light): name -> module.
_LAZY = {
    "compute_rouge": "zheval.compute.rouge",
    "compute_bleu": "zheval.compute.bleu",
    "compute_chrf": "zheval.compute.chrf",
    "score": "zheval.compute.joint",
    # the options of each metric as one object (their fields are the compute functions' keyword parameters)
    "RougeOptions": "zheval.compute.options",
    "BleuOptions": "zheval.compute.options",
    "ChrfOptions": "zheval.compute.options",
    "score_batches": "zheval.compute.batches",
    "get_tokenizer": "zheval.tokenizers",
    "explain": "zheval.compute.explain",
    "explain_items": "zheval.compute.explain",
    "metric_path": "zheval.adapters.metric_paths",
    # the model-based layers: torch/transformers and openai are imported only when they run
    "compute_bertscore": "zheval.compute.bertscore",
    "compute_judge": "zheval.compute.judge",
    "judge_pairwise": "zheval.compute.judge",
    # warning categories of the input guards, for warnings.filterwarnings(..., category=...)
    "ZhevalWarning": "zheval.compute.guards",
    "UnsegmentedTextWarning": "zheval.compute.guards",
    "ScriptMismatchWarning": "zheval.compute.guards",
    "PresetOverrideWarning": "zheval.compute.guards",
    "EmptyReferenceWarning": "zheval.compute.guards",  # empty references a preset scored as its tool does
    "DuplicateReferenceWarning": "zheval.compute.guards",  # repeated references in a human ceiling
    "ControlCharacterWarning": "zheval.compute.guards",  # control characters the tokenizer drops, counted
    "ResamplingWarning": "zheval.compute.guards",
    # the empty-reference error (a ValueError)
    "EmptyReferenceError": "zheval.compute.inputs",
    # diagnostics: Distinct-n and the diversity of predictions vs references (zheval.results.distinct)
    "distinct_n": "zheval.results.distinct",
    "diversity": "zheval.results.distinct",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is not None:
        from importlib import import_module

        return getattr(import_module(module), name)
    raise AttributeError(f"module 'zheval' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_LAZY])
