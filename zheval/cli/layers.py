"""``zheval agree --predictions FILE``: the three evaluation layers on the same items and the table of how well each
metric agrees with the judge, in one command ([`zheval.compute.three_layers.three_layer_agreement`][]).

::

    zheval agree --predictions preds.jsonl [--pred-field F] [--ref-field F ...] [--id-field F] [--group-field F]
                 [--source-field F]
                 [--judge-url http://HOST:PORT/v1 --judge-model NAME [--api-key SECRET] [--rubric R.json] [--judge-cache-dir PATH]]
                 [--judge-ratings FILE.jsonl]       # the output of zheval judge --output, joined by id
                 [--bertscore-model DIR [--bertscore-layer N] [--bertscore-idf] [--bertscore-batch-size N] [--bertscore-device D]]
                 [--bootstrap 1000] [--seed S] [--format table|json|markdown] [--output FILE] [--html FILE]

Columns: sentence BLEU, ROUGE-1/2/L F and sentence chrF (``--tokenizer``, default char), BERTScore-F1 (with
``--bertscore-model``), and the judge's criteria (``judge:<criterion>``, from ``--judge-url``/``--judge-model``,
or ``rating:<criterion>`` from ``--judge-ratings``). Rows: Spearman, Kendall and Pearson with bootstrap intervals,
overall and per ``--group-field`` value. Items the judge could not rate are left out of its columns and listed.
The table is printed through `zheval.cli.options.echo`; ``--html`` writes one page (jinja2 autoescape).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from .options import UserError, echo
from .params import bertscore_flags, bertscore_options, option

__all__ = ["LAYER_OPTIONS", "read_judge_ratings", "run_three_layers"]

#: The options of ``zheval agree``'s three-layer mode (``takes`` variants of the command).
LAYER_OPTIONS = {
    "layer_predictions": option(Optional[Path], "--predictions", "-p", help="three-layer mode: a records file "
                                "(JSONL, CSV, TSV, Parquet with predictions and references)", show_default=False),
    "pred_field": option(Optional[str], "--pred-field", help="the prediction's field", show_default=False),
    "ref_field": option(Optional[List[str]], "--ref-field", help="the reference field(s)", show_default=False),
    "id_field": option(Optional[str], "--id-field", help="the item id's field  [default: id when present]",
                       show_default=False),
    "group_field": option(Optional[str], "--group-field", help="a field to repeat the table per value of",
                          show_default=False),
    "source_field": option(Optional[str], "--source-field", help="a field with the source text or question the judge "
                           "also sees", show_default=False),
    "judge_url": option(Optional[str], "--judge-url", help="the judge's OpenAI-compatible endpoint (base URL)",
                        show_default=False),
    "judge_model": option(Optional[str], "--judge-model", help="the model name the endpoint serves",
                          show_default=False),
    "api_key": option(Optional[str], "--api-key", help="the endpoint's key  [default: $OPENAI_API_KEY]",
                      show_default=False),
    "rubric": option(Optional[Path], "--rubric", help="a rubric JSON file for the judge", show_default=False),
    "judge_cache_dir": option(Optional[Path], "--judge-cache-dir", help="the judge's answer cache",
                              show_default=False),
    "judge_ratings": option(Optional[Path], "--judge-ratings", help="ratings already made (zheval judge --output), "
                            "joined by id", show_default=False),
    **bertscore_flags("bertscore-", required=False),
    "layer_tokenizer": option(str, "--tokenizer", "-t", default="char", help="tokenizer of the n-gram metrics"),
    "html": option(Optional[Path], "--html", help="also write the table as one HTML page", show_default=False),
}


def read_judge_ratings(path: Path, ids: list) -> dict:
    """``{"rating:<criterion>": per-item values}`` from a ``zheval judge --output`` file, joined by ``id`` to
    ``ids`` (a null value: no rating).

    Raises:
        UserError: an id of ``ids`` missing from the file, a value that is not a number or null (``file:line``),
            no criterion column.
    """
    from ..io.rows import read_rows

    rows = read_rows(path, what="ratings").rows
    by_id = {}
    for line, row in rows:
        by_id[str(row.get("id"))] = (line, row)
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise UserError(f"{path}: no rating row for id(s) {missing[:10]}" + (" ..." if len(missing) > 10 else ""))
    skip = {"id", "reason", "failure"}
    names = [k for k in rows[0][1] if k not in skip]
    if not names:
        raise UserError(f"{path}: no rating column (expected the fields of zheval judge --output)")
    out = {f"rating:{k}": [] for k in names}
    for i in ids:
        line, row = by_id[i]
        for k in names:
            v = row.get(k)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise UserError(f"{path}:{line}: {k} must be a number or null, got {v!r}")
            out[f"rating:{k}"].append(None if v is None else float(v))
    return out


def _judge_options(o):
    from ..compute.judge import JudgeOptions

    if (o.judge_url is None) != (o.judge_model is None):
        raise UserError("--judge-url and --judge-model go together")
    if o.judge_url is None:
        return None
    return JudgeOptions(base_url=o.judge_url, model=o.judge_model,
                        api_key=o.api_key if o.api_key is not None else os.environ.get("OPENAI_API_KEY"),
                        rubric=None if o.rubric is None else str(o.rubric), seed=o.seed,
                        cache_dir=None if o.judge_cache_dir is None else str(o.judge_cache_dir))


def run_three_layers(o, fmt: str) -> None:
    """The three-layer mode of ``zheval agree`` (module docstring); ``fmt``: ``table``, ``json`` or ``markdown``."""
    from ..adapters.files import atomic_write
    from ..adapters.layers_report import render_html, render_json, render_markdown, render_table
    from ..adapters.records import read_records
    from ..compute.three_layers import three_layer_agreement
    from .files import check_output_dir, check_paths
    from .judge import read_sources

    check_output_dir(o.output, o.html)
    check_paths({"--predictions": o.layer_predictions}, {"--output": o.output, "--html": o.html})
    from ..adapters.extras import require_extra

    judge = _judge_options(o)
    if judge is not None:
        require_extra("openai", extra="judge", purpose="zheval agree --judge-url")
    bert = bertscore_options(o, "zheval agree --bertscore-model")
    if judge is None and o.judge_ratings is None:
        raise UserError("three layers need the judge: --judge-url and --judge-model, or --judge-ratings FILE")
    groups = [o.group_field] if o.group_field else []
    records = read_records(o.layer_predictions, pred_field=o.pred_field, ref_field=o.ref_field, id_field=o.id_field,
                           group_fields=groups)
    ids = list(records.ids)
    ratings = read_judge_ratings(o.judge_ratings, ids) if o.judge_ratings is not None else None
    sources = read_sources(o.layer_predictions, o.source_field, len(records)) if o.source_field else None
    report = three_layer_agreement(records.predictions, records.references, bertscore=bert, judge=judge,
                                   ratings=ratings, sources=sources,
                                   groups=records.groups[o.group_field] if o.group_field else None,
                                   tokenizer=o.layer_tokenizer, bootstrap=o.bootstrap, seed=o.seed)
    params = {"bootstrap": o.bootstrap, "seed": o.seed, "predictions": str(o.layer_predictions)}
    render = {"table": render_table, "json": render_json, "markdown": render_markdown}[fmt]
    text = render(report, params=params, ids=ids)
    if o.html is not None:
        atomic_write(o.html, render_html(report, params=params, ids=ids))
        echo(f"wrote {o.html}", err=True)
    if o.output is not None:
        atomic_write(o.output, text)
        echo(f"wrote {o.output}", err=True)
    else:
        echo(text, nl=False)
