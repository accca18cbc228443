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
from typing import List, Optional

from ..results.diagnostics import is_blank
from ..text.terminal import terminal_json
from .commands import app
from .options import UserError, echo, note, one_reference_rules, refuse_orphans, run_command
from .params import bertscore_flags, bertscore_options, option, takes
from .textfiles import SystemsCommand, read_text_files, references_located
from .textfiles_report import blank_lines_note

__all__ = ["bertscore", "score_bertscore_files", "format_bertscore"]

_OPTIONS = {
    **bertscore_flags("", required=True),
    "bert_rescale": option(bool, "--rescale-with-baseline", default=False,
                           help="rescale with bert-score's Chinese baseline of the model"),
    "bert_baseline": option(Optional[Path], "--baseline-path", help="a baseline file (LAYER,P,R,F)"),
    "bert_multi_ref": option(str, "--multi-ref", default="max", help="max (bert-score: P, R, F each maximised "
                             "separately) | best_f (the best-F reference's P, R, F)"),
    "bert_format": option(str, "--format", "-f", default="json", help="json | text"),
    "bert_width": option(int, "--width", "-w", default=4, min=0, max=16, help="decimals"),
    "bert_items": option(Optional[Path], "--items", help="write every item's P, R, F1 to FILE (JSON Lines)"),
}


def score_bertscore_files(references: list, systems: list, names: list, options) -> list:
    """``[{"system", **result}]``: the BERTScore result of every system (one model load; idf from the references:
    [`zheval.compute.bertscore.bertscore_systems`][]).

    Args:
        references: per segment a list of references; systems: per system its hypotheses; names: the systems'
        names; options: a [`zheval.compute.bertscore.BertScoreOptions`][].
    """
    from ..compute.bertscore import bertscore_config, bertscore_systems

    results = bertscore_systems(systems, references, bertscore_config(options))
    return [{"system": name, **r} for name, r in zip(names, results)]


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
    from ..adapters.files import atomic_write
    from .files import check_output_dir, check_paths

    refuse_orphans(o, one_reference_rules(o, [("bert_multi_ref", "--multi-ref")], len(o.references) == 1,
                                          "one REF file"))
    options = bertscore_options(o, "zheval bertscore", rescale_with_baseline=o.bert_rescale,
                                baseline_path=None if o.bert_baseline is None else str(o.bert_baseline),
                                multi_ref=o.bert_multi_ref)
    if o.bert_format not in ("json", "text"):
        raise UserError(f"--format must be json or text, got {o.bert_format!r}")
    check_output_dir(o.bert_items)
    check_paths([*(("REF", p) for p in o.references), *(("--input", p) for p in o.hypotheses or []),
                 ("--baseline-path", o.bert_baseline)], {"--items": o.bert_items}, {"--model": o.bert_model})
    if o.bert_baseline is not None:
        from ..io import existing_file

        existing_file(o.bert_baseline, "--baseline-path")  # before the model loads; said as typed
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                            o.allow_empty_hypotheses)
    for n, s in zip(names, systems):  # blank lines scored (--allow-empty-hypotheses): counted, as at every door
        if (c := sum(map(is_blank, s))):
            note(blank_lines_note(n, c))
    try:
        results = score_bertscore_files(references, systems, names, options)
    except ValueError as exc:  # references[i][j] of the library is line i + 1 of reference file j
        raise references_located(exc, ref_names) from None
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
@takes("references", "hypotheses", "allow_empty_hypotheses", *_OPTIONS, **_OPTIONS,
       hypotheses=option(Optional[List[Path]], "--input", "-i", help="hypothesis text file(s), one segment per line; "
                         "several = several systems, each scored on its own (no paired test); '-' or none: standard "
                         "input"))
def bertscore(o) -> None:
    """BERTScore (P, R, F1; equal to bert-score 0.3.13) of hypothesis text files against reference text files, one
    segment per line, with a local model (zheval bertscore REF [REF ...] -i HYP [HYP ...] --model DIR)."""
    run_command(lambda: _run(o))
