"""``zheval bertscore``: BERTScore of hypothesis text files against reference text files (one segment per line, the
files ``zheval bleu`` / ``zheval chrf`` read) with a local model.

::

    zheval bertscore REF [REF ...] [-i HYP [HYP ...]] --model DIR [--layer N] [--idf] [--rescale-with-baseline]
                     [--baseline-path FILE] [--multi-ref max|best_f] [--batch-size N] [--device cpu|cuda]
                     [-f json|text] [-w N] [--items FILE.jsonl]

The numbers are [`zheval.compute.bertscore.compute_bertscore`][]'s chain (equal to bert-score 0.3.13 on the same
model). ``-f json`` (default) prints, per system, the P, R and F1 means, the truncation counts and the signature;
``-f text`` one line per system (``BERTScore-F1|<signature> = 0.8123 (P 0.8012 R 0.8241)``). ``--items FILE``
writes every item's P, R, F1 as JSON Lines (``{"system", "line", "precision", "recall", "f1"}``), atomically.
Everything printed goes through `zheval.cli.options.echo` (file names are data).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from ..text.terminal import terminal_json
from .commands import app
from .options import UserError, echo, note, run_command
from .params import option, takes
from .textfiles import SystemsCommand, read_text_files

__all__ = ["bertscore", "score_bertscore_files", "format_bertscore"]

_OPTIONS = {
    "bert_model": option(Path, "--model", default=..., help="a local directory with the model and its tokenizer "
                         "(never downloaded: `hf download bert-base-chinese --local-dir ./bert-base-chinese`)"),
    "bert_layer": option(Optional[int], "--layer", min=0, help="hidden layer  [default: bert-score's for the model: "
                         "8 for bert-base-chinese]", show_default=False),
    "bert_idf": option(bool, "--idf", default=False, help="idf weights over the references"),
    "bert_rescale": option(bool, "--rescale-with-baseline", default=False,
                           help="rescale with bert-score's Chinese baseline of the model"),
    "bert_baseline": option(Optional[Path], "--baseline-path", help="a baseline file (LAYER,P,R,F)"),
    "bert_multi_ref": option(str, "--multi-ref", default="max", help="max (bert-score: P, R, F each maximised "
                             "separately) | best_f (the best-F reference's P, R, F)"),
    "bert_batch_size": option(int, "--batch-size", default=64, min=1, help="texts per forward pass"),
    "bert_device": option(Optional[str], "--device", help="cpu, cuda, cuda:1, ...  [default: cuda when available]",
                          show_default=False),
    "bert_format": option(str, "--format", "-f", default="json", help="json | text"),
    "bert_width": option(int, "--width", "-w", default=4, min=0, max=16, help="decimals"),
    "bert_items": option(Optional[Path], "--items", help="write every item's P, R, F1 to FILE (JSON Lines)"),
}


def score_bertscore_files(references: list, systems: list, names: list, options: dict) -> list:
    """``[{"system", **result}]``: the BERTScore result of every system (one model load; idf from the references).

    Args:
        references: per segment a list of references; systems: per system its hypotheses; names: the systems'
        names; options: [`zheval.compute.bertscore.BertScoreOptions`][] fields.
    """
    from ..compute.bertscore import BertScoreOptions, bertscore_config, bertscore_idf, bertscore_items, \
        bertscore_result

    config = bertscore_config(BertScoreOptions(**options))
    weights = bertscore_idf(references, config)
    return [{"system": name, **bertscore_result(bertscore_items(hyps, references, config, weights), config)}
            for name, hyps in zip(names, systems)]


def format_bertscore(results: list, fmt: str, width: int) -> str:
    """JSON (a list with one summary per system) or text lines (module docstring)."""
    if fmt == "text":
        return "".join(f"{r['system']}: BERTScore-F1|{r['signature']} = {r['f1']:.{width}f} "
                       f"(P {r['precision']:.{width}f} R {r['recall']:.{width}f})\n" for r in results)
    keep = ("system", "precision", "recall", "f1", "model", "layer", "idf", "rescaled", "multi_ref", "max_length",
            "truncated_predictions", "truncated_references", "signature")
    doc = [{k: (round(r[k], width) if k in ("precision", "recall", "f1") else r[k]) for k in keep} for r in results]
    return terminal_json(doc if len(doc) > 1 else doc[0], indent=1) + "\n"


def _run(o) -> None:
    from ..adapters.extras import require_extra
    from ..adapters.files import atomic_write
    from .files import check_output_dir

    for package in ("torch", "transformers"):
        require_extra(package, extra="bertscore", purpose="zheval bertscore")
    if o.bert_format not in ("json", "text"):
        raise UserError(f"--format must be json or text, got {o.bert_format!r}")
    check_output_dir(o.bert_items)
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                            o.allow_empty_hypotheses)
    options = dict(model=str(o.bert_model), layer=o.bert_layer, idf=o.bert_idf, rescale_with_baseline=o.bert_rescale,
                   baseline_path=None if o.bert_baseline is None else str(o.bert_baseline),
                   multi_ref=o.bert_multi_ref, batch_size=o.bert_batch_size, device=o.bert_device)
    results = score_bertscore_files(references, systems, names, options)
    for r in results:
        if r["truncated_predictions"] or r["truncated_references"]:
            note(f"{r['system']}: {r['truncated_predictions']} hypothesis and {r['truncated_references']} reference "
                 f"segment(s) truncated at {r['max_length']} pieces (bert-score's rule)")
    if o.bert_items is not None:
        lines = [json.dumps({"system": r["system"], "line": k + 1, "precision": p, "recall": rc, "f1": f},
                            ensure_ascii=False)
                 for r in results for k, (p, rc, f) in enumerate(zip(r["item_precision"], r["item_recall"],
                                                                     r["item_f1"]))]
        atomic_write(o.bert_items, "\n".join(lines) + "\n")
        echo(f"wrote {o.bert_items}", err=True)
    echo(format_bertscore(results, o.bert_format, o.bert_width), nl=False)


@app.command(cls=SystemsCommand)
@takes("references", "hypotheses", "allow_empty_hypotheses", *_OPTIONS, **_OPTIONS)
def bertscore(o) -> None:
    """BERTScore (P, R, F1; equal to bert-score 0.3.13) of hypothesis text files against reference text files, one
    segment per line, with a local model (zheval bertscore REF [REF ...] -i HYP [HYP ...] --model DIR)."""
    run_command(lambda: _run(o))
