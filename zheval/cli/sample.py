"""``zheval sample``: a blind review sheet and its key, stratified by a metric's per-item score
(`zheval.adapters.review.human_review.review_sample`).

::

    zheval sample --data test.jsonl --predictions preds.jsonl --k 30 --seed 7 [--by-metric rougeL]
                  [--output review_sheet.csv] [--key review_key.json]
    zheval sample --predictions records.jsonl [--pred-field F --ref-field R --id-field I] --k 30 [...]

Without ``--data`` the predictions file carries its references, read as ``zheval score`` reads it (every bad row
named ``file:line``); the sheet's query column is then empty.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional
from types import SimpleNamespace


from .commands import (app, check_records_options, checked_options, named_predictions,
                       read_records_file, record_fields, refuse_records_fields, scoring_arguments)
from ..io import given_path
from ..text.terminal import terminal_json
from .options import UserError, echo, run_command, seed_bound
from .params import DATA_OPTIONAL, option, takes

__all__ = ["sample", "default_key", "refuse_overwrite"]


def default_key(sheet: Path) -> Path:
    """The key's path when ``--key`` is not given: beside the sheet, named after it (``out/sheet2.csv`` →
    ``out/sheet2.key.json``), so two samples written to two places never share (and overwrite) one key; its
    directory is said as the sheet's was typed (``./s.csv`` → ``./s.key.json``)."""
    return given_path(os.path.join(os.path.dirname(str(sheet)), sheet.stem + ".key.json"))


def refuse_overwrite(sheet: Path, key: Path, force: bool) -> None:
    """Raise `UserError` when the sheet or the key exists already and ``force`` is off: a sheet may hold
    ratings typed in since it was written, and a key belongs to one sheet (``zheval agree`` needs both)."""
    if force:
        return
    there = [f"{flag} {p}" for flag, p in (("--output", sheet), ("--key", key)) if p.exists() or p.is_symlink()]
    if there:
        raise UserError(f"{' and '.join(there)} exist(s) already: a review sheet may hold ratings, and its key "
                        "belongs to it; choose other paths (-o / --key) or add --force to overwrite")


def _sample_inputs(o):
    """``(dataset, predictions, keyword arguments of review_sample)``: the 小黄鸭 file (``--data``) and the
    predictions file, or without ``--data`` the predictions file that carries its references, read as ``zheval
    score`` reads it (`zheval.cli.commands.read_records_file`; the sheet's query column is then empty)."""
    if o.data is not None:
        refuse_records_fields(o)
        if o.pred_field is not None or o.id_field is not None:
            ds, kwargs = scoring_arguments(o, {"--data": o.data, "--predictions": o.predictions},
                                           named_fields=True)  # review_sample cuts and counts (its notes)
            return ds, named_predictions(o), kwargs
        ds, kwargs = scoring_arguments(o, {"--data": o.data, "--predictions": o.predictions})
        return ds, o.predictions, kwargs
    check_records_options(o)
    kwargs = checked_options(o, {"--predictions": o.predictions})
    records = read_records_file(o.predictions, record_fields(o))
    ds = records.dataset()  # --max-refs: review_sample cuts and counts it (its notes, as zheval score's)
    return ds, records.as_predictions(), {**kwargs, "locations": records.locations()}


@app.command()
@takes("data", "predictions", "pred_field", "ref_field", "id_field", "k", "seed", "by_metric", "output", "key", "tokenizer", "metrics", "rouge_types",
       "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct", "predictions_format",
       "label_check", "min_refs", "max_refs", "domains", "num_proc", "quiet", "force", "chrf_word_order",
       output=option(Path, "--output", "-o", default=Path("review_sheet.csv"),
                     help="the blind review sheet: id, query, prediction, references, empty rating columns; no "
                          "scores; in the format its name says: .csv (UTF-8), .tsv, .jsonl/.json/.ndjson, "
                          ".parquet/.pq, each also .gz"),
       key=option(Optional[Path], "--key",
                  help="the key (JSON): every metric's score and the stratum of each sampled item  [default: beside "
                       "the sheet, SHEET.key.json: review_sheet.key.json, out/sheet2.key.json]", show_default=False),
       force=option(bool, "--force", default=False,
                    help="overwrite an existing sheet or key (a filled-in sheet holds ratings: off by default)"),
       seed=option(int, "--seed", default=12345, callback=seed_bound, help="seed of the sample (0 to 4294967295)"),
       data=DATA_OPTIONAL)
def sample(o) -> None:
    """Sample K items stratified low / middle / high by one metric's per-item score: a blind review sheet to rate
    (CSV, or the format -o names: TSV, JSON Lines, Parquet; no scores, shuffled) and its key (JSON) for zheval agree."""

    def go():
        from ..adapters.review.human_review import review_sample
        from ..adapters.review.sheet_formats import sheet_bytes, sheet_format
        from ..adapters.files import atomic_write

        try:  # a name that says no format the sheet is read back in, refused before any work (issue 35 F5)
            sheet_format(o.output)
        except ValueError as exc:
            raise UserError(f"--output: {exc}") from None
        o.key = default_key(o.output) if o.key is None else o.key
        refuse_overwrite(o.output, o.key, o.force)
        shared = SimpleNamespace(**vars(o), by="none", bootstrap=0, preset=None)
        shared.output = None  # checked below with --key, against the inputs too
        ds, predictions, kwargs = _sample_inputs(shared)
        from .files import check_output_dir, check_paths

        check_output_dir(o.output, o.key)
        check_paths({"--data": o.data, "--predictions": o.predictions, "--terms": o.terms},
                    {"--output": o.output, "--key": o.key})
        from ..adapters.duck.config import METRICS
        from ..compute.options import check_metrics

        mets = check_metrics(kwargs["metrics"], METRICS)  # before --by-metric is checked against them
        valid = ((["bleu"] if "bleu" in mets else []) + (list(kwargs["rouge_types"]) if "rouge" in mets else [])
                 + (["chrf"] if "chrf" in mets else []))
        if o.by_metric not in valid:
            raise UserError(f"--by-metric {o.by_metric!r} is not a computed metric; valid: {', '.join(valid)} (bleu = "
                            "sentence BLEU, chrf = sentence chrF; a ROUGE type must be in --rouge-types, bleu and "
                            "chrf need their name in --metrics)")
        from ..results.agreement import MIN_CORRELATION_ITEMS

        if o.k < MIN_CORRELATION_ITEMS:  # a sheet zheval agree can never use (issue 35)
            raise UserError(f"--k {o.k} is too few: zheval agree needs at least {MIN_CORRELATION_ITEMS} rated items "
                            f"for a correlation; give --k {MIN_CORRELATION_ITEMS} or more")
        if o.k > len(ds):
            raise UserError(f"--k {o.k} is larger than the data: {o.data or o.predictions} has {len(ds)} item"
                            f"{'s' if len(ds) != 1 else ''}")
        kwargs.pop("bootstrap", None)
        kwargs.pop("by", None)
        kwargs.pop("seed", None)
        res = review_sample(ds, predictions, o.k, seed=o.seed, by_metric=o.by_metric, label_check=o.label_check,
                            predictions_format=o.predictions_format, max_refs=o.max_refs, **kwargs)
        res.key["data"] = str(o.data if o.data is not None else o.predictions)
        res.key["sheet"] = str(o.output)
        sheet = sheet_bytes(res.sheet, o.output)
        key = terminal_json(res.key, indent=2) + "\n"
        atomic_write(o.output, sheet)
        atomic_write(o.key, key)
        from .option_names import COMMAND, in_option_names

        for line in res.messages:  # a warning's library words as the options typed (as score's report)
            echo(in_option_names(line, COMMAND.get()) if line.startswith("warning: ") else line, err=True)
        counts = ", ".join(f"{s['name']} {s['sampled']}" for s in res.key["strata"])
        n = len(res.sheet)
        echo(f"wrote {o.output} ({n} item{'s' if n != 1 else ''} to rate: {counts}; by {o.by_metric}, seed {o.seed}) "
                   f"and {o.key}", err=True)

    run_command(go)
