"""``zheval agree``: rank correlations between each metric and each human rating column of a filled review sheet
(`zheval.adapters.review.human_review.review_agreement`).

::

    zheval agree --ratings review_sheet.csv --key review_key.json [--ratings-columns overall,faithful]
                 [--scores bertscore.csv ...] [--bootstrap 1000] [--seed S] [--format table|json] [--output FILE]
    zheval agree --predictions preds.jsonl --judge-url http://HOST:PORT/v1 --judge-model NAME
                 [--bertscore-model DIR] ...     # the three layers in one command (zheval.cli.layers)

``--ratings-columns`` chooses the rating columns of the sheet by name (a sheet an LLM judge or raters filled with
their own columns; default: the key's); ``--scores`` (repeatable) adds per-item scores computed elsewhere
(``id,bertscore_f1``: `zheval.adapters.review.external_scores.read_scores`), joined by id and ranked beside the
key's metrics (sentence BLEU, chrF, every ROUGE type sampled), with the same intervals.

Every option belongs to one mode or to both (`MODE_OF`, the one table the command's options are declared from): an
option of the other mode given on the command line is an error naming it and its mode, never ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional


from .commands import app
from ..text.terminal import terminal_json
from .options import Format, UserError, echo, refuse_orphans, run_command, seed_rule
from .layers import LAYER_OPTIONS, run_three_layers
from .params import option, takes

__all__ = ["agree", "MODE_OF", "SHEET", "LAYERS"]

SHEET = "the review sheet mode (--ratings/--key)"
LAYERS = "the three-layer mode (--predictions)"

#: The mode of each option of ``zheval agree`` (``None``: both), in the order ``--help`` lists them; the command
#: takes exactly these options, so a new one must be given a mode here.
MODE_OF = {"ratings": SHEET, "key": SHEET, "ratings_columns": SHEET, "scores": SHEET,
           "bootstrap": None, "seed": None, "fmt": None, "output": None,
           **{name: LAYERS for name in LAYER_OPTIONS}}


#: The declarations of the sheet mode's options (the three-layer mode's: `zheval.cli.layers.LAYER_OPTIONS`).
_SHEET_OPTIONS = {
    "ratings": option(Optional[Path], "--ratings", help="sheet mode: the filled review sheet (the CSV zheval sample "
                      "writes; also .tsv, .jsonl/.json/.ndjson, .parquet/.pq, each also .gz)", show_default=False),
    "key": option(Optional[Path], "--key", help="sheet mode: the review key (JSON): scores and strata of the sampled "
                  "items", show_default=False),
    "ratings_columns": option(Optional[str], "--ratings-columns", help="sheet mode: comma list of the sheet's rating "
                              "columns to correlate (e.g. overall,faithful)  [default: the key's rating columns]",
                              show_default=False),
    "scores": option(Optional[List[Path]], "--scores", help="sheet mode: per-item scores computed elsewhere, by the "
                     "file's name: .csv, .tsv, .jsonl/.json/.ndjson or .parquet/.pq (each also .gz): id and one or "
                     "more score columns (id,bertscore_f1); joined by id, ranked beside the key's metrics; repeatable",
                     show_default=False),
}
_DECLARED = {**_SHEET_OPTIONS, **LAYER_OPTIONS}


def _other_mode_options(o, mode: str) -> list:
    """The flags (``--judge-url``) of the mode other than ``mode`` (`SHEET` or `LAYERS`) that the user gave
    (``o._given``, `zheval.cli.params.takes`: typed on the command line, even with the default value, as
    ``--tokenizer char``), in ``--help`` order."""
    given = o._given
    out = []
    for name, owner in MODE_OF.items():
        if owner is None or owner == mode or name not in given:
            continue
        out.append(max((d for d in _DECLARED[name][1].param_decls if d.startswith("--")), key=len))
    return out


def _check_mode(o, mode: str) -> None:
    other = [m for m in (SHEET, LAYERS) if m != mode][0]
    given = _other_mode_options(o, mode)
    if given:
        raise UserError(f"{', '.join(given)} {'belongs' if len(given) == 1 else 'belong'} to {other} of zheval "
                        f"agree, not to {mode}; give the options of one mode (docs/cli.md)")


@app.command()
@takes(*MODE_OF, **_DECLARED,
       fmt=option(Format, "--format", "-f", default=Format.table, help="output format: table | json (| markdown "
                  "with --predictions)"))
def agree(o) -> None:
    """Spearman and Kendall correlations (bootstrap intervals over items) between each metric of the key (and each
    --scores column) and each rating column of the filled sheet, overall and per domain, and which metric agrees
    best. Empty rating cells are counted and listed. With --predictions FILE: the three layers (BLEU, ROUGE, chrF,
    BERTScore-F1, an LLM judge) on the same items, Spearman, Kendall and Pearson against each judge criterion."""

    def go():
        if o.layer_predictions is not None:
            _check_mode(o, LAYERS)
            # --seed is also sent with each live judge request (JudgeOptions.seed): in use with --judge-url
            refuse_orphans(o, [seed_rule(o, o.bootstrap != 0 or o.judge_url is not None,
                                         "--bootstrap 0, and no --judge-url to send it to")])
            return run_three_layers(o, o.fmt.value)
        _check_mode(o, SHEET)
        refuse_orphans(o, [seed_rule(o, o.bootstrap != 0, "--bootstrap 0")])
        if o.ratings is None or o.key is None:
            raise UserError("give --ratings and --key (a filled review sheet), or --predictions FILE with a judge "
                            "(the three layers: docs/three-layers.md)")
        from ..adapters.review.human_review import read_key, read_ratings, review_agreement
        from ..adapters.review.external_scores import read_scores
        from ..adapters.files import atomic_write
        from .files import check_output_dir, check_output_format, check_paths, distinct_inputs
        from .options import split_list

        if o.fmt == Format.markdown:
            raise UserError("--format markdown is available only in the three-layer mode of agree (--predictions "
                            "FILE); the review sheet mode (--ratings/--key) writes table or json")
        check_output_dir(o.output)
        scores = list(o.scores or [])
        inputs = [("--ratings", o.ratings), ("--key", o.key), *(("--scores", p) for p in scores)]
        check_paths(inputs, {"--output": o.output})
        check_output_format(o.output, o.fmt, writes=("table", "json"))
        distinct_inputs(inputs, "give each file once")  # --scores s.csv --scores ./s.csv: one file's columns twice
        for flag, p in (("--ratings", o.ratings), ("--key", o.key), *(("--scores", p) for p in scores)):
            if p.is_dir():
                raise UserError(f"{flag} must be a file, got a directory: {p}")
        key = read_key(o.key)
        columns = split_list(o.ratings_columns, "--ratings-columns") if o.ratings_columns is not None else None
        if columns is not None and not columns:
            raise UserError("--ratings-columns names no column")
        ratings, info = read_ratings(o.ratings, key, columns)
        taken: dict = {}  # the columns of earlier --scores files (the key's names and the rating columns: read_scores)
        external = []
        for p in scores:
            ext = read_scores(p, key, taken, rating_columns=info["rating_columns"])
            taken.update({c: f"a column of --scores {p}" for c in ext.columns})
            external.append(ext)
        rep = review_agreement(ratings, key, info, bootstrap=o.bootstrap, seed=o.seed,
                               sources={"ratings": str(o.ratings), "key": str(o.key)}, external=external)
        text = terminal_json(rep.to_dict(), indent=2) + "\n" if o.fmt == Format.json else rep.render()
        if o.output is not None:
            atomic_write(o.output, text)
            echo(f"wrote {o.output}", err=True)
        else:
            echo(text, nl=False)
        from .correlated import nothing_to_correlate

        nothing_to_correlate(rep.rows, rep.params["items"], f"fill in the rating columns of {o.ratings} (empty "
                             "cells are listed in the report's notes)")

    run_command(go)
