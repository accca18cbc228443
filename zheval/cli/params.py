"""Every option of the ``zheval`` commands, declared once (`OPTIONS`), and `takes`, which gives a command
the options it names, in that order: the command function receives them as one namespace.

typer reads a command's parameters from its signature; `takes` builds that signature from `OPTIONS`
(with per-command variants where a command's option differs, e.g. ``compare --by``), so an option's flag, default,
bounds and help exist once however many commands take it.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import List, Optional, Tuple

import typer

from ..io.source import GivenPath, given_path
from .option_names import COMMAND
from .option_numbers import number_parser
from .options import (CLI_TOKENIZERS, MAX_BOOTSTRAP, MAX_SEED, BleuFormat, Format, TextFormat, bootstrap_bound,
                      resamples_bound, seed_bound, trials_bound)

__all__ = ["OPTIONS", "option", "takes", "bertscore_flags", "bertscore_options", "DATA_ANY", "PREDICTIONS_AB", "BOOTSTRAP_PAIRED",
           "DATA_OPTIONAL", "BY_SCORE", "PLOT_BY_SCORE", "BLEU_FORMAT"]


def option(annotation, *decls, default=None, **kwargs):
    """One option: ``(annotation, typer parameter)`` (``typer.Option`` of ``decls``, or ``typer.Argument`` when
    ``decls`` is ``("ARGUMENT",)``). An ``int`` or ``float`` option (``Optional`` too) is read by
    `zheval.cli.option_numbers.number_parser` with its ``min``/``max``: the file doors' number rule."""
    kind = {int: int, Optional[int]: int, float: float, Optional[float]: float}.get(annotation)
    if kind is not None and "parser" not in kwargs:
        kwargs["parser"] = number_parser(kind, kwargs.pop("min", None), kwargs.pop("max", None))
    labels = {Path: _PathLabel, Optional[Path]: Optional[_PathLabel], List[Path]: List[_PathsLabel],
              Optional[List[Path]]: Optional[List[_PathsLabel]], Tuple[Path, Path]: Tuple[_PathsLabel, _PathsLabel]}
    if annotation in labels and "parser" not in kwargs:
        kwargs["parser"] = typed_path  # a path prints as typed (TypedPath), one of a list or a pair too
        annotation = labels[annotation]
    if decls == ("ARGUMENT",):
        return annotation, typer.Argument(default, **kwargs)
    return annotation, typer.Option(default, *decls, **kwargs)


TypedPath = GivenPath
"""A path option's value, which prints as the user typed it (``-o ./d.jsonl`` is said ``./d.jsonl``, not
``d.jsonl``: pathlib drops the ``./``): `zheval.io.source.GivenPath`, so that the readers' messages
(`zheval.io.source.existing_file`) keep the text too."""


def typed_path(value) -> Path:
    """The parser of a path option: a `TypedPath` of the text typed (a default path as it is)."""
    return given_path(value)


class _PathLabel:
    """The annotation of a single path option: typer's help labels it after the class, ``<path>`` as before. Not a
    `pathlib.Path` subclass, so that no typer (0.16 converts a Path-annotated value with ``Path(value)`` after the
    parser) turns `typed_path`'s `TypedPath` back into a plain path."""


_PathLabel.__name__ = "path"


class _PathsLabel:
    """`_PathLabel` of a list or a pair of paths (``REF...``, ``bleu -i``, ``compare -p A B``): typer's help labels
    them ``<list[Path]>`` and ``<Path,Path>`` as before, and no typer turns their `TypedPath` values back into plain
    paths (0.16 converts each element of a Path-annotated list or tuple with ``Path(value)`` after the parser)."""


_PathsLabel.__name__ = _PathsLabel.__qualname__ = "Path"


def bertscore_flags(prefix: str, *, required: bool) -> dict:
    """The BERTScore options of a command, declared once: ``bert_model``, ``bert_layer``, ``bert_idf``,
    ``bert_batch_size``, ``bert_device`` as the flags ``--<prefix>model``, ``--<prefix>layer``, ... (``zheval
    bertscore``: ``prefix=""``, bert-score's own names, the model ``required``; the report commands and ``zheval
    agree``: ``"bertscore-"``, the model optional: it adds the BERTScore-F1 column)."""
    model_help = ("a local directory with the model and its tokenizer (never downloaded: `hf download "
                  "bert-base-chinese --local-dir ./bert-base-chinese`)" + ("" if required else
                                                                           "; adds the BERTScore-F1 column"))
    return {
        "bert_model": option(Path if required else Optional[Path], f"--{prefix}model",
                             default=... if required else None, help=model_help, show_default=False),
        "bert_layer": option(Optional[int], f"--{prefix}layer", min=0, help="BERTScore's hidden layer  [default: "
                             "bert-score's for the model: 8 for bert-base-chinese]", show_default=False),
        "bert_idf": option(bool, f"--{prefix}idf", default=False, help="BERTScore: idf weights over the references"),
        "bert_batch_size": option(int, f"--{prefix}batch-size", default=64, min=1,
                                  help="BERTScore: texts per forward pass"),
        "bert_device": option(Optional[str], f"--{prefix}device", help="BERTScore's device: cpu, cuda, cuda:1, ...  "
                              "[default: cuda when available]", show_default=False),
    }


def bertscore_options(o, purpose: str, **more):
    """The [`zheval.compute.bertscore.BertScoreOptions`][] of the `bertscore_flags` values in ``o`` (and ``more``
    fields), or ``None`` when no model is given; the ``bertscore`` extra is checked first (one line naming
    ``purpose`` when torch or transformers is missing)."""
    if o.bert_model is None:
        return None
    from ..adapters.extras import require_extra
    from ..compute.bertscore import BertScoreOptions

    for package in ("torch", "transformers"):
        require_extra(package, extra="bertscore", purpose=purpose)
    return BertScoreOptions(model=str(o.bert_model), layer=o.bert_layer, idf=o.bert_idf, batch_size=o.bert_batch_size,
                            device=o.bert_device, **more)


#: Every option, by parameter name.
OPTIONS = {
    **bertscore_flags("bertscore-", required=False),
    "data": option(Path, "--data", "-d", default=..., help="小黄鸭 JSONL test file"),
    "predictions": option(Path, "--predictions", "-p", default=..., help="predictions: JSONL (id+prediction, or "
                          "LLaMA-Factory predict/label) or text, one per line"),
    "pred_field": option(Optional[str], "--pred-field", help="the prediction's field of a JSONL, CSV, TSV or Parquet "
                         "predictions file  [default: predict, else prediction]", show_default=False),
    "ref_field": option(Optional[List[str]], "--ref-field", help="without --data: the reference field (a string or "
                        "a list of strings per row); repeat for several fields  [default: label, else references, "
                        "else reference]", show_default=False),
    "id_field": option(Optional[str], "--id-field", help="the item id's field (string or integer; unique); with "
                       "--data the predictions are joined to the 小黄鸭 ids by it  [default: id when the file "
                       "has an id field, else none: rows in order, named by line]", show_default=False),
    "group_field": option(Optional[List[str]], "--group-field", help="without --data: a field to group the report "
                          "by (string, integer or null per row); repeatable", show_default=False),
    "domains": option(Optional[str], "--domains", help="小黄鸭 domain values accepted besides null: 'any' (any "
                      "string) or a comma list  [default: 生活咨询,售后支持,情感陪伴]", show_default=False),
    "tokenizer": option(Optional[str], "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS) + "  [default: char]",
                        show_default=False),
    "metrics": option(str, "--metrics", default="bleu,rouge", help="comma list of bleu, rouge, chrf"),
    "chrf_word_order": option(int, "--chrf-word-order", default=0, min=0,
                              help="with --metrics chrf: word n-gram order (0 = chrF, 2 = chrF++)"),
    "rouge_types": option(str, "--rouge-types", default="rouge1,rouge2,rougeL",
                          help="ROUGE types (F-measure), e.g. rouge1,rouge2,rougeL,rougeLsum"),
    "by": option(str, "--by", default="domain,difficulty", help="group columns, comma list ('none' for overall only)"),
    "bootstrap": option(int, "--bootstrap", default=1000, callback=bootstrap_bound,
                        help=f"bootstrap resamples for 95% intervals (0 = none, else 2 to {MAX_BOOTSTRAP:,})"),
    "seed": option(int, "--seed", default=12345, callback=seed_bound, help=f"bootstrap seed (0 to {MAX_SEED})"),
    "num_proc": option(int, "--num-proc", default=1, min=1,
                       help="worker processes for Dataset.map (results are identical)"),
    "fmt": option(Format, "--format", "-f", default=Format.table, help="output format"),
    "output": option(Optional[Path], "--output", "-o",
                     help="write the report to FILE (atomically) instead of stdout"),
    "plot": option(Optional[Path], "--plot", help="draw per-group scores with interval error bars to FILE (.png, "
                   ".svg, .pdf, .jpg, …: the format follows the extension)"),
    "plot_by": option(str, "--plot-by", default="domain", help="group column drawn by --plot"),
    "html": option(Optional[Path], "--html", help="also write one self-contained HTML report to FILE: the tables "
                   "with intervals, diagnostics, plots, and per group the lowest/median/highest items explained "
                   "(no network needed to view it)"),
    "html_metric": option(Optional[str], "--html-metric", help="metric choosing the HTML report's items (bleu = "
                          "sentence BLEU, or a ROUGE type)  [default: rougeL if reported, else the first ROUGE type, "
                          "else bleu]", show_default=False),
    "multi_ref": option(str, "--multi-ref", default="max",
                        help="ROUGE multi-reference rule: max | mean | pool | best_recall"),
    "smooth": option(Optional[str], "--smooth", help="BLEU smoothing: exp (default) | none | floor | add-k | nltk3"),
    "max_order": option(Optional[int], "--max-order", min=1, help="BLEU max n-gram order (default 4)"),
    "jieba_hmm": option(bool, "--jieba-hmm", default=False, help="jieba HMM new-word discovery (off by default)"),
    "terms": option(Optional[Path], "--terms", help="file with protected terms, one per line"),
    "t2s": option(bool, "--t2s", default=False,
                  help="convert Traditional to Simplified Chinese (OpenCC t2s) before scoring"),
    "normalize": option(Optional[str], "--normalize", help="normalisation: default | none | '+'-joined steps, run in "
                        "this order whatever order they are named in: nfkc, zw, t2s, punct, nopunct, space, lower  "
                        "[default: the tokenizer's]", show_default=False),
    "punct": option(Optional[str], "--punct", help="punctuation tokens: keep | drop  [default: keep]",
                    show_default=False),
    "preset": option(Optional[str], "--preset", help="BLEU preset: sacrebleu-zh (needs --metrics bleu)"),
    "predictions_format": option(str, "--predictions-format", default="auto", help="auto (by extension; a .txt "
                                 "file that looks like JSONL is refused) | jsonl | text; with named fields or "
                                 "without --data: auto | jsonl | csv | tsv | parquet"),
    "label_check": option(str, "--label-check", default="strict", help="LLaMA-Factory labels vs references: strict "
                          "(error when more than 20% differ) | warn | off"),
    "min_refs": option(Optional[int], "--min-refs", min=1, help="fewest references per item  [default: 2; 1 for "
                       "single-reference data]", show_default=False),
    "max_refs": option(Optional[int], "--max-refs", min=1, help="score with the first K references of every item "
                       "(items with more are cut and counted, not refused; items with fewer keep theirs; the "
                       "signature gets maxrefs:K)  [default: every reference, at most 5 per item as the 小黄鸭 "
                       "format]", show_default=False),
    "buckets": option(Optional[str], "--buckets", help="scores per reference-length bucket: increasing edges in "
                      "tokens, e.g. 10,20,50 ([0,10) [10,20) [20,50) [50,∞)), or 'default' (10,20,50)",
                      show_default=False),
    "folds": option(Optional[int], "--folds", help="split the items into K random folds (seeded with --seed) and "
                    "report each fold's scores, their mean, std and max deviation (K >= 2, at most the items)",
                    show_default=False),
    # zheval bleu / zheval rouge (text files, sacrebleu's conventions)
    "references": option(List[Path], "ARGUMENT", default=..., metavar="REF...", help="reference text files, one "
                         "segment per line; several files = several references per segment"),
    "hypotheses": option(Optional[List[Path]], "--input", "-i", help="hypothesis text file(s), one segment per "
                         "line; several = several systems, each tested against the first (paired bootstrap); '-' "
                         "or none: standard input"),
    "score_only": option(bool, "--score-only", "-b", default=False, help="print the score(s) only, one line per "
                         "system"),
    "text_format": option(TextFormat, "--format", "-f", default=TextFormat.table, help="output format"),
    "width": option(Optional[int], "--width", "-w", min=0, max=16, help="decimals  [default: 1 on the 0-100 "
                    "scale, 4 on 0-1]", show_default=False),
    "scale": option(int, "--scale", default=100, help="100 (sacrebleu's 0-100) or 1 (0-1)"),
    "smooth_value": option(Optional[float], "--smooth-value", help="BLEU smoothing value of floor (default 0.1) "
                           "and add-k (default 1)"),
    "bp_ref_length": option(Optional[str], "--bp-ref-length", help="BLEU brevity-penalty reference length: closest "
                            "(default) | shortest | none"),
    "level": option(Optional[str], "--level", help="BLEU level: corpus (default; from summed statistics) | sentence "
                    "(the mean of per-segment BLEU)"),
    "effective_order": option(Optional[bool], "--effective-order/--no-effective-order", help="BLEU effective order  "
                              "[default: on at sentence level, off at corpus level]", show_default=False),
    "beta": option(Optional[float], "--beta", help="ROUGE F-measure beta (default 1)"),
    "rouge_w_weight": option(Optional[float], "--rouge-w-weight", help="ROUGE-W weight w >= 1 (default 1.2; 1 gives ROUGE-L)"),
    "sentence_split": option(Optional[str], "--sentence-split", help="ROUGE-Lsum sentence split: punct (default) | "
                             "newline"),
    # sacrebleu's statistical options of zheval bleu / zheval chrf (zheval.cli.resampling)
    "confidence": option(bool, "--confidence", "-ci", default=False,
                         help="bootstrap mean ± 95% half-width of the score (sacrebleu's)"),
    "confidence_n": option(int, "--confidence-n", "-cin", default=1000, callback=resamples_bound,
                           help="bootstrap resamples of --confidence"),
    "paired_bs": option(bool, "--paired-bs", "-pbs", default=False,
                        help="paired bootstrap test of every system against the first (sacrebleu's)"),
    "paired_ar": option(bool, "--paired-ar", "-par", default=False,
                        help="paired approximate randomisation test of every system against the first (sacrebleu's)"),
    "paired_bs_n": option(int, "--paired-bs-n", "-pbsn", default=1000, callback=resamples_bound,
                          help="paired bootstrap resamples"),
    "paired_ar_n": option(int, "--paired-ar-n", "-parn", default=10000, callback=trials_bound,
                          help="approximate randomisation trials"),
    "allow_empty_hypotheses": option(bool, "--allow-empty-hypotheses", default=False, help="score a blank "
                                     "hypothesis line (empty or only whitespace/invisible characters) instead of "
                                     "refusing it: 0 unless the tokenizer keeps an invisible character as a token"),
    "items": option(bool, "--items", default=False, help="include per-item scores (every format)"),
    "stream": option(bool, "--stream", default=False, help="without --data: read, score and reduce the file in "
                     "chunks, in flat memory whatever its length (the same scores; Poisson bootstrap intervals; "
                     "no --html, --items, --buckets, --folds, --max-refs)"),
    "items_out": option(Optional[Path], "--items-out", help="with --stream: write the per-item scores to FILE "
                        "(a new .jsonl, .jsonl.gz, .parquet or .pq file) as they are computed"),
    "test": option(str, "--test", default="bootstrap", help="significance test of compare: bootstrap (paired "
                   "bootstrap) | ar (paired approximate randomisation); both with sacrebleu's p-value"),
    "resamples": option(Optional[int], "--resamples", callback=trials_bound,
                        help="approximate-randomisation trials of --test ar  [default: 10000, as sacrebleu]",
                        show_default=False),
    "k": option(int, "--k", "-k", default=..., min=1, help="items to sample for human review (3 or more: zheval agree's "
                "correlations need 3 rated items; at most the data's)"),
    "by_metric": option(str, "--by-metric", default="rougeL", help="metric whose per-item score stratifies the "
                        "sample low / middle / high: bleu (sentence BLEU) or a ROUGE type of --rouge-types"),
    "key": option(Path, "--key", default=..., help="the review key (JSON): scores and strata of the sampled items"),
    "ratings": option(Path, "--ratings", default=..., help="the filled review sheet (CSV written by zheval sample)"),
    "more_predictions": option(Optional[List[Path]], "ARGUMENT", metavar="C.jsonl", show_default=False,
                               help="more systems, each compared with A (as sacrebleu's --paired-bs)"),
    "quiet": option(bool, "--quiet", "-q", default=False, help="no progress bars (shown only when stderr is a terminal)"),
    # zheval explain
    "ids": option(Optional[List[str]], "--id", help="explain the item with this id (repeat for several)"),
    "worst": option(Optional[int], "--worst", min=1, help="explain the K lowest-scoring items by --metric"),
    "best": option(Optional[int], "--best", min=1, help="explain the K highest-scoring items by --metric"),
    "sample": option(Optional[int], "--sample", min=1, help="explain K items drawn at random (with --seed)"),
    "sample_seed": option(Optional[int], "--seed", help=f"seed of --sample (0 to {MAX_SEED})  [default: 12345]",
                          show_default=False),
    "metric": option(str, "--metric", "-m", default="rougeL",
                     help="metric that ranks --worst/--best and labels each item: bleu (sentence BLEU), chrf (sentence "
                          "chrF) or a ROUGE type (F), one the explanation computes (a ROUGE type in --rouge-types, bleu "
                          "and chrf in --metrics, or the preset's)"),
    "explain_format": option(str, "--format", "-f", default="table", help="table (highlighted, for people) | json"),
    "explain_preset": option(Optional[str], "--preset", help="library preset: rouge155 | llamafactory | "
                             "sacrebleu-zh (explains the metrics that have it; rank by one of them: --preset sacrebleu-zh --metric "
                             "bleu); the leaderboard presets are refused"),
}

# per-command variants
DATA_ANY = option(Path, "--data", "-d", default=..., help="小黄鸭 JSONL file")
PREDICTIONS_AB = option(Tuple[Path, Path], "--predictions", "-p", default=...,
                        help="prediction files A (baseline) B; more systems (C …) may follow "
                        "B, each compared with A")
DATA_OPTIONAL = option(Optional[Path], "--data", "-d", help="小黄鸭 JSONL test file; without it the predictions file "
                       "carries the references (LLaMA-Factory predict/label, or --pred-field/--ref-field on any "
                       "JSONL, CSV, TSV or Parquet file)")
BY_SCORE = option(Optional[str], "--by", help="group columns, comma list ('none' for overall only)  [default: "
                  "domain,difficulty; without --data: the --group-field fields]", show_default=False)
PLOT_BY_SCORE = option(Optional[str], "--plot-by", help="group column drawn by --plot  [default: domain; without "
                       "--data: the first --group-field]", show_default=False)
BLEU_FORMAT = option(BleuFormat, "--format", "-f", default=BleuFormat.table, help="output format (text: "
                     "sacrebleu's line, BLEU|<signature> = 37.4 ..., or its table for several systems)")
BOOTSTRAP_PAIRED = option(int, "--bootstrap", default=1000, callback=resamples_bound,
                          help=f"paired bootstrap resamples (2 to {MAX_BOOTSTRAP:,})")


#: The parameter through which typer hands a command its context (typer injects a ``typer.Context`` parameter).
_CONTEXT = "zheval_typer_context"


def _given(values: dict, decls: dict, ctx) -> frozenset:
    """The names of ``values`` the user gave: those whose parameter source in ``ctx`` (the click context typer
    injected; typer may vendor its own click, so the source is compared by name) is not a default; without a
    context (the function called directly), the names whose value is not the declared default."""
    if ctx is None:
        return frozenset(n for n, v in values.items() if v != decls[n][1].default)
    sources = {n: ctx.get_parameter_source(n) for n in values}
    return frozenset(n for n, s in sources.items() if s is not None and s.name not in ("DEFAULT", "DEFAULT_MAP"))


def takes(*names: str, **variants):
    """Decorator: the command's parameters are the options ``names`` of `OPTIONS`, in this order (``variants``
    replace an option's declaration for this command: ``name=option(...)``); the decorated function is called with
    one ``types.SimpleNamespace`` holding their values.

    The namespace's ``_given`` is the frozenset of the option names the user gave (click's parameter source is not
    a default: ``--multi-ref max`` is given, an absent ``--multi-ref`` is not), so that a check refuses only what was
    given (`zheval.cli.options.refuse_metric_options`).

    Raises:
        KeyError: a name that is neither in `OPTIONS` nor in ``variants``.
    """
    decls = {n: variants[n] if n in variants else OPTIONS[n] for n in names}

    def deco(fn):
        @functools.wraps(fn)
        def command(**values):
            ctx = values.pop(_CONTEXT, None)
            # the options' names in library errors, for this command only (typer vendors its own click, so the
            # context is passed down here, not looked up)
            token = COMMAND.set(getattr(ctx, "info_name", None) or fn.__name__)
            try:
                return fn(SimpleNamespace(**values, _given=_given(values, decls, ctx)))
            finally:
                COMMAND.reset(token)

        del command.__wrapped__  # typer must read the signature below, not fn's
        command.__signature__ = inspect.Signature(
            [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d[1], annotation=d[0])
             for n, d in decls.items()]
            + [inspect.Parameter(_CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)],
            return_annotation=None)
        command.__annotations__ = {**{n: d[0] for n, d in decls.items()}, _CONTEXT: typer.Context}
        return command

    return deco
