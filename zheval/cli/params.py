"""Every option of the ``zheval`` commands, declared once (:data:`OPTIONS`), and :func:`takes`, which gives a command
the options it names, in that order: the command function receives them as one namespace.

typer reads a command's parameters from its signature; :func:`takes` builds that signature from :data:`OPTIONS`
(with per-command variants where a command's option differs, e.g. ``compare --by``), so an option's flag, default,
bounds and help exist once however many commands take it.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Optional, Tuple

import typer

from .options import CLI_TOKENIZERS, MAX_BOOTSTRAP, MAX_SEED, Format, bootstrap_bound, seed_bound

__all__ = ["OPTIONS", "option", "takes", "DATA_ANY", "PREDICTIONS_AB", "BY_COMPARE", "BOOTSTRAP_PAIRED"]


def option(annotation, *decls, default=None, **kwargs):
    """One option: ``(annotation, typer parameter)`` (``typer.Option`` of ``decls``, or ``typer.Argument`` when
    ``decls`` is ``("ARGUMENT",)``)."""
    if decls == ("ARGUMENT",):
        return annotation, typer.Argument(default, **kwargs)
    return annotation, typer.Option(default, *decls, **kwargs)


#: Every option, by parameter name.
OPTIONS = {
    "data": option(Path, "--data", "-d", default=..., help="小黄鸭 JSONL test file"),
    "predictions": option(Path, "--predictions", "-p", default=..., help="predictions: JSONL (id+prediction, or "
                          "LLaMA-Factory predict/label) or text, one per line"),
    "tokenizer": option(Optional[str], "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS) + "  [default: char]",
                        show_default=False),
    "metrics": option(str, "--metrics", default="bleu,rouge", help="comma list of bleu, rouge"),
    "rouge_types": option(str, "--rouge-types", default="rouge1,rouge2,rougeL",
                          help="ROUGE types (F-measure), e.g. rouge1,rouge2,rougeL,rougeLsum"),
    "by": option(str, "--by", default="domain,difficulty", help="group columns, comma list ('none' for overall only)"),
    "bootstrap": option(int, "--bootstrap", default=1000, min=0, callback=bootstrap_bound,
                        help=f"bootstrap resamples for 95% intervals (0 = none; at most {MAX_BOOTSTRAP:,})"),
    "seed": option(int, "--seed", default=12345, callback=seed_bound, help=f"bootstrap seed (0 to {MAX_SEED})"),
    "num_proc": option(int, "--num-proc", default=1, min=1,
                       help="worker processes for Dataset.map (results are identical)"),
    "fmt": option(Format, "--format", "-f", default=Format.table, help="output format"),
    "output": option(Optional[Path], "--output", "-o",
                     help="write the report to FILE (atomically) instead of stdout"),
    "plot": option(Optional[Path], "--plot", help="draw per-group scores with interval error bars to FILE (.png, "
                   ".svg, .pdf, .jpg, …: the format follows the extension)"),
    "plot_by": option(str, "--plot-by", default="domain", help="group column drawn by --plot"),
    "multi_ref": option(str, "--multi-ref", default="max",
                        help="ROUGE multi-reference rule: max | mean | pool | best_recall"),
    "smooth": option(Optional[str], "--smooth", help="BLEU smoothing: exp (default) | none | floor | add-k | nltk3"),
    "max_order": option(Optional[int], "--max-order", min=1, help="BLEU max n-gram order (default 4)"),
    "jieba_hmm": option(bool, "--jieba-hmm", default=False, help="jieba HMM new-word discovery (off by default)"),
    "terms": option(Optional[Path], "--terms", help="file with protected terms, one per line"),
    "t2s": option(bool, "--t2s", default=False,
                  help="convert Traditional to Simplified Chinese (OpenCC t2s) before scoring"),
    "normalize": option(Optional[str], "--normalize", help="normalisation: default | none | '+'-joined steps (nfkc, "
                        "zw, t2s, punct, nopunct, space, lower)  [default: the tokenizer's]", show_default=False),
    "punct": option(Optional[str], "--punct", help="punctuation tokens: keep | drop  [default: keep]",
                    show_default=False),
    "preset": option(Optional[str], "--preset", help="BLEU preset: sacrebleu-zh (needs --metrics bleu)"),
    "predictions_format": option(str, "--predictions-format", default="auto", help="auto (by extension; a .txt "
                                 "file that looks like JSONL is refused) | jsonl | text"),
    "label_check": option(str, "--label-check", default="strict", help="LLaMA-Factory labels vs references: strict "
                          "(error when more than 20% differ) | warn | off"),
    "min_refs": option(Optional[int], "--min-refs", min=1, help="fewest references per item  [default: 2; 1 for "
                       "single-reference data]", show_default=False),
    "max_refs": option(Optional[int], "--max-refs", min=1, help="most references per item  [default: 5]",
                       show_default=False),
    "items": option(bool, "--items", default=False, help="include per-item scores (every format)"),
    "quiet": option(bool, "--quiet", "-q", default=False, help="no progress bars"),
}

# per-command variants
DATA_ANY = option(Path, "--data", "-d", default=..., help="小黄鸭 JSONL file")
PREDICTIONS_AB = option(Tuple[Path, Path], "--predictions", "-p", default=...,
                        help="two prediction files: A (baseline) B")
BY_COMPARE = option(str, "--by", default="none", help="group columns for per-group comparisons ('none': overall only)")
BOOTSTRAP_PAIRED = option(int, "--bootstrap", default=1000, min=1, callback=bootstrap_bound,
                          help=f"paired bootstrap resamples (1 to {MAX_BOOTSTRAP:,})")


def takes(*names: str, **variants):
    """Decorator: the command's parameters are the options ``names`` of :data:`OPTIONS`, in this order (``variants``
    replace an option's declaration for this command: ``name=option(...)``); the decorated function is called with
    one ``types.SimpleNamespace`` holding their values.

    Raises:
        KeyError: a name that is neither in :data:`OPTIONS` nor in ``variants``.
    """
    decls = {n: variants[n] if n in variants else OPTIONS[n] for n in names}

    def deco(fn):
        @functools.wraps(fn)
        def command(**values):
            return fn(SimpleNamespace(**values))

        del command.__wrapped__  # typer must read the signature below, not fn's
        command.__signature__ = inspect.Signature(
            [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d[1], annotation=d[0])
             for n, d in decls.items()], return_annotation=None)
        command.__annotations__ = {n: d[0] for n, d in decls.items()}
        return command

    return deco
