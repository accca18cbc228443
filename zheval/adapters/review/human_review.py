"""Human review of a model's outputs, as the practice this project serves does it: before trusting a score, read a
stratified sample of items with low, middle and high scores, rate them blind, and check how well the metric agrees
with the ratings.

* `review_sample` draws ``k`` items stratified by one metric's per-item score (the 小黄鸭 evaluation's own
  per-item scores, [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] with ``keep_items``) and returns the
  **blind sheet** (id, query, prediction, references and empty rating columns — no score, no stratum, shuffled) and
  the **key** (every metric's score of each sampled item, its stratum, domain and difficulty, and how the sample was
  drawn). `sheet_csv` renders the sheet with the ``csv`` module.
* `read_ratings` reads a filled sheet back against its key (ids, duplicates, numbers checked; every problem
  named by ``file:line``); `review_agreement` gives Spearman's ρ and Kendall's τ-b between each metric and
  each rating column, overall and per domain, with bootstrap intervals
  (`zheval.results.agreement.rank_correlations`). Empty rating cells are not errors — a rater may skip an
  item — but they are counted per column and listed by id in every output, never dropped silently.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ...compute.options import BleuOptions, ChrfOptions, RougeOptions
from ...results.reducers import check_seed
from ...io import JsonIntegerTooLong, given_path, json_error_message, parse_json_line, read_text
from ...io.fields import UniqueIds, keyed_rows
from ..duck.mismatch import id_hints
from ...io.numbers import JsonNumber, SameFloat, number_cells, number_reason
from .review_files import (ReviewFileError, columns_of, lacking, listed, problems_heading, raise_problems,
                           read_review_file, typed)
from .sheet_columns import RATING_COLUMNS, SHEET_COLUMNS  # the sheet's columns (`sheet_columns`)
from .sheet_predictions import sheet_predictions
from .agreement_report import AgreementReport, review_agreement  # the correlations of a read sheet (its own job)
from ...text.terminal import escaped_text, visible_controls, sheet_text, text_digest

__all__ = ["RATING_COLUMNS", "SHEET_COLUMNS", "STRATA", "KEY_KIND", "ReviewSample", "ReviewFileError", "review_sample",
           "sheet_csv", "read_key", "read_ratings", "review_agreement", "AgreementReport"]

#: Strata of the sample, by rank of the chosen metric's per-item score: the lowest, middle and highest third.
STRATA = ("low", "middle", "high")
#: ``kind`` of a key file.
KEY_KIND = "zheval-review-key"
#: How the references of an item are joined in one sheet cell (`sheet_csv`: a line break inside a reference is
#: written ``\\n``, so each line of the cell is one reference).
REFERENCE_SEPARATOR = "\n"

_METRIC_LABELS = {"bleu": "sentence BLEU", "chrf": "sentence chrF", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum",
                  "rougeW": "ROUGE-W"}


def _metric_label(name: str) -> str:
    return _METRIC_LABELS.get(name) or ("ROUGE-" + name[len("rouge"):] if name.startswith("rouge") else name)


@dataclass
class ReviewSample:
    """A blind review sheet and its key (`review_sample`).

    Attributes:
        sheet: rows of the sheet, ``{column: text}`` for `SHEET_COLUMNS` (rating cells empty), shuffled; texts
            exact (`sheet_csv` escapes them), ``references`` the list of the item's references.
        key: JSON-ready dict: ``kind`` (`KEY_KIND`), ``items`` (in sheet order: ``id``, ``stratum``,
            ``domain``, ``difficulty``, ``scores`` {metric: 0–1}, ``prediction_sha256``), ``metrics``, ``by_metric``, ``strata`` (per
            stratum: items in the data, sampled, score range), ``k``, ``seed``, ``n_items``, ``rating_columns``,
            ``params``, ``signatures``, sources, ``notes`` (the scoring's, e.g. predictions paired by line order)
            and ``warnings`` (the scoring report's, e.g. stored queries that are not their item's).
        messages: the scoring report's notes and warnings (``report.notes`` then
            ``report.warnings``; with ``max_refs`` first its references line and, when it cut nothing, the note
            ``zheval score`` gives, `zheval.results.breakdowns.reference_limit_notes`), which ``zheval sample`` prints.
    """

    sheet: list
    key: dict
    messages: list = field(default_factory=list)


def _quotas(k: int, sizes: list[int]) -> list[int]:
    """``k`` split over strata of ``sizes`` as evenly as possible (the remainder to middle, then high), capped at
    each stratum's size, the shortfall given to the strata with room (middle, high, low)."""
    base = [k // 3] * 3
    for j in (1, 2)[: k % 3]:
        base[j] += 1
    q = [min(b, s) for b, s in zip(base, sizes)]
    left = k - sum(q)
    for j in (1, 2, 0):
        add = min(left, sizes[j] - q[j])
        q[j] += add
        left -= add
    return q


def review_sample(ds, predictions, k: int, *, seed: int = 12345, by_metric: str = "rougeL",
                  rating_columns: Sequence[str] = RATING_COLUMNS, metrics: Sequence[str] = ("bleu", "rouge"),
                  tokenizer: Any = "char", num_proc: Optional[int] = None, progress: bool = False,
                  locations: Optional[Mapping] = None,
                  label_check: str = "strict", predictions_format: str = "auto", max_refs: Optional[int] = None,
                  rouge: Optional[RougeOptions] = None, bleu: Optional[BleuOptions] = None,
                  chrf: Optional[ChrfOptions] = None, **options: Any) -> ReviewSample:
    """Draw ``k`` items stratified low / middle / high by ``by_metric``'s per-item score: the blind sheet and its key.

    The items are ranked by ``by_metric`` (ties in dataset order) and cut into three strata of equal size (±1,
    ``numpy.array_split``): the lowest, middle and highest third. ``k`` is split as evenly as possible over the
    strata (``k = 30``: 10 each; a remainder goes to middle, then high); within a stratum the items are drawn without
    replacement by ``numpy.random.default_rng(seed)``, and the sampled items are shuffled by the same generator, so
    the sheet's order says nothing about the scores. The same data, predictions, options and seed give the same
    sample.

    Args:
        ds: a 小黄鸭 ``Dataset``. predictions: as in [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions].
        k: number of items to sample, 1 to ``len(ds)``. seed: an int in ``[0, MAX_SEED]``.
        by_metric: ``"bleu"`` (sentence BLEU: effective order, the report's smoothing), ``"chrf"`` (sentence chrF,
            with ``"chrf"`` in ``metrics``) or a computed ROUGE type (``rouge1``, ``rougeL``, …; F-measure).
        rating_columns: the empty rating columns of the sheet (default `RATING_COLUMNS`).
        metrics: as [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions], and so are ``tokenizer``,
            ``num_proc``, ``progress``, ``locations``, ``label_check``, ``predictions_format``, ``max_refs``,
            ``rouge``/``bleu``/``chrf`` and the metric options by name (each defined once in
            `zheval.compute.options`); no interval, no groups.

    Returns:
        A `ReviewSample`.

    Raises:
        ValueError: ``k`` < 1 or larger than the data (naming both), ``by_metric`` not among the computed metrics
            (listing them), bad rating column names; the errors of ``evaluate_predictions``.
    """
    from ..duck.evaluate import evaluate_predictions

    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k must be a positive int (items to sample), got {k!r}")
    seed = check_seed(seed)
    cols = tuple(rating_columns)
    if not cols or len(set(cols)) != len(cols) or any(c in SHEET_COLUMNS[:4] or not str(c).strip() for c in cols):
        raise ValueError(f"rating_columns must be distinct non-empty names other than {SHEET_COLUMNS[:4]}, got {cols}")
    n = len(ds)
    if k > n:
        raise ValueError(f"k={k} is larger than the data: {n} item{'s' if n != 1 else ''}")
    from ..duck.inputs import as_predictions

    predictions, source = as_predictions(predictions, predictions_format)
    report = evaluate_predictions(ds, predictions, keep_items=True, bootstrap=0, by=(), metrics=metrics,
                                  tokenizer=tokenizer, num_proc=num_proc, progress=progress, locations=locations,
                                  label_check=label_check, predictions_format=predictions_format, max_refs=max_refs,
                                  rouge=rouge, bleu=bleu, chrf=chrf, **options)
    names = [name for name, _ in report.metrics]
    if by_metric not in names:
        raise ValueError(f"unknown by_metric {by_metric!r}; the computed metrics are {', '.join(names)} (bleu = "
                         "sentence BLEU; ROUGE types need --rouge-types)")
    values, parts, quotas, chosen = _draw(report, by_metric, int(k), seed, n)
    limit = (report.breakdowns or {}).get("reference_limit")
    if limit is not None:  # counted on the whole references (a note of them below); the sheet shows the first K
        from ..duck.evaluate import first_references_of

        ds = first_references_of(ds, limit["max_refs"])
    sheet, key = _sheet_and_key(ds, report, chosen, values, parts, quotas, cols, by_metric, int(k), seed, source)
    key["signatures"].update(_sentence_signatures(ds, dict(
        metrics=metrics, tokenizer=tokenizer, max_refs=max_refs, rouge=rouge, bleu=bleu, chrf=chrf, **options)))
    from ...results.diagnostics import EXCLUDED_ELSEWHERE, EXCLUDED_SHOWN

    warnings = [w.replace(EXCLUDED_SHOWN, EXCLUDED_ELSEWHERE) for w in report.warnings]  # no report here to show them
    from ...results.breakdowns import reference_limit_text

    notes = ([reference_limit_text(limit)] if limit is not None else []) + list(report.notes)  # score's diagnostics line
    return ReviewSample(sheet, key, [f"note: {n}" for n in notes] + [f"warning: {w}" for w in warnings])


def _sentence_signatures(ds, options: dict) -> dict:
    """The signatures of the key's per-item ``bleu`` and ``chrf``: sentence BLEU with effective order and sentence
    chrF, with the report's other options (``level:sentence|…|eff:yes``, as ``compute_bleu(level="sentence",
    effective_order=True)`` and ``compute_chrf(level="sentence")`` write them), not the report's corpus signatures
    (issue 35 F6: the key said ``level:corpus|…|eff:no`` beside sentence scores). ROUGE's F is per item either way."""
    from dataclasses import replace

    from ..duck.evaluate import report_config

    cfg = report_config(options)
    counts = [len(r) if cfg.max_refs is None else min(len(r), cfg.max_refs) for r in ds["responses"]]
    out = {}
    if "bleu" in cfg.metrics:
        out["bleu"] = replace(cfg.bleu_config, level="sentence", effective_order=True).signature(counts)
    if "chrf" in cfg.metrics:
        out["chrf"] = replace(cfg.chrf_config, level="sentence").signature(counts)
    return out


def _key_params(params: dict) -> dict:
    """The key's ``params``: the scoring report's options (no interval, groups or workers: the key has none), with
    ``bleu`` stating the per-item scores the key stores -- sentence BLEU with effective order (``level: sentence``,
    ``effective_order: True``), as its signature (`_sentence_signatures`) -- not the report's corpus BLEU."""
    out = {k: v for k, v in params.items() if k not in ("bootstrap", "confidence", "by", "seed", "num_proc")}
    if "bleu" in out.get("metrics", ()):
        out["bleu"] = {**out["bleu"], "level": "sentence", "effective_order": True}
    return out


def _score_key(names: list) -> dict:
    return {nm: ("sentence_bleu" if nm == "bleu" else nm) for nm in names}


def _draw(report, by_metric: str, k: int, seed: int, n: int) -> tuple:
    """The stratified draw of `review_sample`: ``(scores of by_metric, strata, quotas, chosen items in sheet
    order)``."""
    values = np.array([it[_score_key([by_metric])[by_metric]] for it in report.items], dtype=np.float64)
    order = np.lexsort((np.arange(n), values))  # by score, ties in dataset order
    parts = np.array_split(order, 3)
    quotas = _quotas(k, [len(p) for p in parts])
    rng = np.random.default_rng(seed)
    chosen = []
    for part, q in zip(parts, quotas):
        if q:
            chosen += sorted(rng.choice(part, size=q, replace=False).tolist())
    chosen = [chosen[j] for j in rng.permutation(len(chosen)).tolist()]
    return values, parts, quotas, chosen


def _sheet_and_key(ds, report, chosen: list, values, parts: list, quotas: list, cols: tuple, by_metric: str, k: int,
                   seed: int, source) -> tuple:
    """The blind sheet and its key of `review_sample`'s drawn items."""
    n = len(ds)
    stratum_of = {i: s for s, part in zip(STRATA, parts) for i in part.tolist()}
    names = [name for name, _ in report.metrics]
    score_key = _score_key(names)
    items = report.items
    queries = ds["query"] if "query" in ds.column_names else [""] * n
    refs = ds["responses"]
    domains = ds["domain"] if "domain" in ds.column_names else [None] * n
    levels = ds["difficulty"] if "difficulty" in ds.column_names else [None] * n
    sheet, key_items = [], []
    for i in chosen:
        it = items[i]
        sheet.append({"id": str(it["id"]), "query": queries[i] or "", "prediction": it["prediction"],
                      "references": list(refs[i]), **{c: "" for c in cols}})
        key_items.append({"id": str(it["id"]), "stratum": stratum_of[i], "domain": domains[i], "difficulty": levels[i],
                          "scores": {nm: float(it[score_key[nm]]) for nm in names},
                          "prediction_sha256": text_digest(it["prediction"])})  # sheet_predictions checks the sheet
    strata = []
    for s, part, q in zip(STRATA, parts, quotas):
        v = values[part]
        strata.append({"name": s, "items": int(len(part)), "sampled": int(q),
                       "min": float(v.min()) if len(v) else None, "max": float(v.max()) if len(v) else None})
    key = {
        "kind": KEY_KIND,
        "format_version": 1,
        "by_metric": by_metric,
        "k": k,
        "seed": seed,
        "n_items": n,
        "metrics": [{"name": nm, "label": _metric_label(nm)} for nm in names],
        "scale": "0-1",
        "rating_columns": list(cols),
        "strata": strata,
        "items": key_items,
        "params": _key_params(report.params),  # the scoring options
        "signatures": dict(report.signatures),
        "predictions": source,
        "notes": ((["bleu is sentence BLEU per item (effective order, the smoothing of params.bleu; params.bleu and "
                    "the bleu signature are those of sentence BLEU: level sentence, effective order on); ROUGE scores "
                    "are F-measures"] if "bleu" in names
                   else ["ROUGE scores are F-measures"])
                  + (["chrf is sentence chrF per item (the options of params.chrf; the chrf signature is that of "
                      "sentence chrF: level:sentence)"]
                     if "chrf" in names else []) + list(report.notes)),
        "warnings": list(report.warnings),
    }
    return sheet, key


def sheet_csv(sheet: list, columns=None) -> str:
    """The review sheet as CSV text (``csv`` module, ``QUOTE_MINIMAL``; a cell with a comma, quote or line break is
    quoted), starting with a UTF-8 byte-order mark so that spreadsheet programs open the Chinese text as UTF-8
    (`read_ratings` accepts the file with or without it). ``columns`` default: the keys of the first row.

    The sheet is for reading, and model text's ESC sequences, NUL or bidi controls would act on a terminal or
    reorder a spreadsheet's cell: every cell is escaped by `zheval.text.controls.escaped_text` — control
    characters as visible escapes (``\\x1b``, ``\\u202e``: the rule of the terminal and the HTML report) and every
    backslash as ``\\\\``, so the escaping is injective (an id holding ESC, ``k\\x1b`` on the sheet, and the literal
    id ``k\\x1b``, ``k\\\\x1b`` on the sheet, stay two ids; break-it F6). Line breaks and tabs of the query and the
    prediction are kept; the id is one line (``\\n``, ``\\t`` escaped). A list cell (``references``) is one
    reference per line: each reference escaped on one line (a line break inside it is ``\\n``), joined by
    `REFERENCE_SEPARATOR`, so every line break of the cell separates two references. The key holds every text
    exactly; `read_ratings` maps each sheet id back to its key id. A text cell that would start a spreadsheet
    formula (``=``, ``+``, ``-``, ``@``, tab) gets OWASP's ``'`` in front, and a text that starts with ``'`` has
    that ``'`` written ``\\x27`` (`zheval.text.controls.sheet_text`: ``=1+1`` is written ``'=1+1``, ``'=x``
    ``\\x27=x``; one-to-one, whether a spreadsheet keeps the guard or drops it)."""
    cols = list(columns or (sheet[0].keys() if sheet else SHEET_COLUMNS))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\r\n")
    w.writeheader()
    for row in sheet:
        w.writerow({c: _sheet_cell(c, v) for c, v in row.items()})
    return "\ufeff" + buf.getvalue()


def _sheet_cell(column: str, value):
    """One cell of `sheet_csv`, escaped, a formula start guarded (`zheval.text.controls.sheet_text`)."""
    if isinstance(value, (list, tuple)):
        # the cell's start is its first reference's: that one guarded (a later line starts no formula)
        return REFERENCE_SEPARATOR.join(sheet_text(v, one_line=True) if j == 0 else escaped_text(v, one_line=True)
                                        for j, v in enumerate(value))
    if isinstance(value, str):
        return sheet_text(value, one_line=column == "id")
    return value


def read_key(path) -> dict:
    """A key file written by ``zheval sample`` (`review_sample`), checked.

    Raises:
        ReviewFileError: not JSON, not a key (``kind``), items without an id, an id twice, missing or non-numeric
            scores (each named by the item's index and id); a file that is not UTF-8 (its encoding named, as for
            every input file). FileNotFoundError, IsADirectoryError, PermissionError: the file cannot be read.
    """
    path = given_path(path)  # said as given
    read_problems: list = []
    text = read_text(path, "review key", read_problems, lines=False)  # the reader of every door (zheval.io)
    if text is None:
        raise ReviewFileError(f"{path} is not a review key", [str(p) for p in read_problems])
    try:  # numbers kept as written, so that the one number rule judges them (1e-400 is not 0.0)
        key = parse_json_line(text, numbers=True)[0]
    except JsonIntegerTooLong as exc:  # more than 4300 digits (sys.get_int_max_str_digits)
        raise ReviewFileError(f"{path} is not a review key",
                              [f"{path}:{exc.lineno}: {json_error_message(exc)}"]) from None
    except json.JSONDecodeError as exc:  # JsonTooDeep too: nested deeper than Python reads (a RecursionError)
        raise ReviewFileError(f"{path} is not a review key",
                              [f"{path}:{exc.lineno}: not JSON ({exc.msg})"]) from None
    except ValueError as exc:  # an integer too long that parse_json_line could not locate
        raise ReviewFileError(f"{path} is not a review key", [f"{path}: not JSON Python can read ({exc})"]) from None
    if not isinstance(key, dict) or key.get("kind") != KEY_KIND:
        raise ReviewFileError(f"{path} is not a review key",
                              [f"{path}: 'kind' is not {KEY_KIND!r} (write the key with zheval sample --key)"])
    problems = []
    metrics = [m.get("name") for m in key.get("metrics", []) if isinstance(m, dict)]
    cols = key.get("rating_columns")
    if not metrics:
        problems.append(f"{path}: 'metrics' lists no metric")
    if not isinstance(cols, list) or not cols or not all(isinstance(c, str) and c for c in cols):
        problems.append(f"{path}: 'rating_columns' must be a list of column names")
    items = key.get("items")
    if not isinstance(items, list) or not items:
        problems.append(f"{path}: 'items' must be a non-empty list")
        items = []
    seen: dict = {}
    for j, it in enumerate(items):
        rid = it.get("id") if isinstance(it, dict) else None
        if not isinstance(rid, str) or not rid:
            problems.append(f"{path}: items[{j}] has no id")
            continue
        if rid in seen:
            problems.append(f"{path}: items[{j}] id {rid!r} is also items[{seen[rid]}]")
        seen.setdefault(rid, j)
        scores = it.get("scores")
        for m in metrics:
            v = scores.get(m) if isinstance(scores, dict) else None
            why = "missing" if v is None else number_reason(v) if isinstance(v, (int, float)) else (
                f"a {type(v).__name__}")
            if why is not None:
                problems.append(f"{path}: items[{j}] (id {rid!r}) has no numeric score {m!r} ({why})")
    if problems:
        raise ReviewFileError(f"{path} is not a usable review key", problems)
    return _plain_numbers(key)


def _plain_numbers(value):
    """``value`` with every `JsonNumber` (a float that keeps its JSON text) made a plain ``float``."""
    if isinstance(value, JsonNumber):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_numbers(v) for v in value]
    return value


def read_ratings(path, key: dict, columns=None) -> tuple[dict, dict]:
    """Read a filled review sheet against its key: CSV (as ``zheval sample`` writes it), TSV, JSON Lines or Parquet,
    each also gzip-compressed, by the file's name (`zheval.adapters.review.review_files`).

    ``columns`` chooses the rating columns by name (a sheet an LLM judge or raters filled with their own columns,
    ``["overall", "faithful"]``); default: the key's ``rating_columns``.

    A CSV/TSV sheet id is matched by the form `sheet_csv` writes (`zheval.text.controls.sheet_text`, one-to-one, so
    each sheet id is at most one key id), or exactly when it holds control characters (no sheet form has any); one
    key id given twice, in two forms, is a duplicate (both lines named). A JSON Lines or Parquet sheet holds every
    text exactly (`zheval.adapters.review.sheet_formats`): its ids are matched as they are, never unescaped (issue
    35: the id ``k\\x1b``, written so, was read as the key id ``k<ESC>``).
    Every sheet row must be an item of the key, every item of the key must be in the sheet, each once; each rating
    cell is a number (``4``, ``3.5``) or empty (JSON Lines, Parquet: a number or ``null``; a string ``"4"`` is
    refused). Blank lines are ignored (they hold no item); a row whose every cell is empty (``,,,,,,``: a
    spreadsheet's empty row) holds no item either and is skipped, but counted: its line is in ``info["empty_rows"]``
    (break-it F5: it was skipped without a word). Columns other than the key's rating columns and the sheet's own
    are ignored (and named in ``info["ignored_columns"]``).

    Returns:
        ``(ratings, info)``: ``ratings`` = ``{id: {column: float or None}}`` (``None``: an empty cell);
        ``info`` = ``{"empty": {column: [ids with an empty cell]}, "ignored_columns": [...], "lines": {id: line},
        "rating_columns": [the columns read], "empty_rows": [lines of rows whose every cell is empty], "notes":
        [predictions that could not be checked: `zheval.adapters.review.sheet_predictions`]}``.

    Raises:
        ReviewFileError: every problem at once, each naming ``file:line``: a name that says no accepted format, one
            JSON object wrapping the rows (``{"data": [...]}``), no ``id`` column or a missing rating column (in the
            header; JSON Lines: a row lacking a rating column other rows have), a row without an id, an id twice
            (both lines), ids the key does not have, ids of the key the sheet lacks (listed), a non-numeric or
            non-finite rating (column and value), two different numbers of a column that read as the same float64
            (both lines: `zheval.io.numbers.SameFloat`), prediction cells that are not the predictions the key was
            scored on (`sheet_predictions`: another system's sheet).
        OSError: the file cannot be read.
        ReviewFileError also when the file is not UTF-8 but looks like UTF-16/UTF-32 or GB18030/GBK (what
        spreadsheets save as "Unicode text" or as CSV in a Chinese locale), saying which and how to re-save it
        (`zheval.io.encoding.encoding_problem`); the sheet is read by `zheval.io` (a ``.gz`` sheet too; no
        cell-size limit; every row as many cells as the header).
    """
    path = given_path(path)  # said as given
    cols = list(key["rating_columns"]) if columns is None else [str(c).strip() for c in columns]
    if not cols or len(set(cols)) != len(cols) or any(not c or c in SHEET_COLUMNS[:4] for c in cols):
        raise ValueError(f"rating columns must be distinct non-empty names other than {', '.join(SHEET_COLUMNS[:4])}, "
                         f"got {cols}")
    rf = read_review_file(path, "ratings sheet", hint="; save the sheet as UTF-8 CSV", fields=["id", *cols])
    rows, is_typed = rf.rows, typed(rf)
    key_ids = [it["id"] for it in key["items"]]
    # a CSV/TSV sheet shows an id escaped, with the formula guard (sheet_text: injective), so each sheet form is one
    # key id -- the guard kept or dropped by a spreadsheet: only a guard starts a cell with ', so both forms are one
    # id; an id with control characters is no sheet form (those have none) and is matched as is. A typed sheet
    # (JSON Lines, Parquet) holds the exact texts: matched as they are, never unescaped
    forms = {} if is_typed else {sheet_text(i, one_line=True): i for i in key_ids}
    forms.update({f[1:]: i for f, i in list(forms.items()) if f.startswith("'")})
    problems: list[str] = []
    header = columns_of(rf)
    missing = [c for c in ["id", *cols] if c not in header]
    if missing:  # named once, with the columns expected and those present (not once per row: issue 35)
        chosen = "--ratings-columns" if columns is not None else "the key's; --ratings-columns chooses others"
        where, has = {"csv": (f"{path}:1: the header lacks", "the header has"), "tsv": (
            f"{path}:1: the header lacks", "the header has"), "jsonl": (f"{path}: no row has", "the rows have")}.get(
            rf.kind, (f"{path}: the file lacks", "it has"))
        problems.append(f"{where} column(s) {', '.join(missing)}: expected id and the rating columns "
                        f"{', '.join(cols)} ({chosen}); {has} {', '.join(header) or 'no column'}")
    problems += lacking(rf, path, [c for c in cols if c in header], "null is no rating")
    if problems:
        raise ReviewFileError(f"cannot read the ratings sheet {path}", problems)
    ignored = [h for h in header if h not in SHEET_COLUMNS[:4] and h not in cols]
    ratings: dict = {}
    lines: dict = {}
    shown_at: dict = {}
    empty: dict = {c: [] for c in cols}
    known = set(key_ids)
    unknown, values, blank_rows, same = [], [], [], SameFloat()
    for line, shown, cell in keyed_rows(rows, path, problems, UniqueIds(), typed=is_typed, blank_rows=blank_rows):
        exact = is_typed or visible_controls(shown, one_line=True) != shown  # a raw character escaping shows
        rid = forms.get(shown, shown if exact else None)
        if rid is None:
            rid = shown
        elif rid in lines:
            problems.append(f"{path}:{line}: key id {rid!r} (written {shown!r}) is also line {lines[rid]} (written "
                            f"{shown_at[rid]!r})")
            continue
        lines[rid] = line
        shown_at[rid] = shown
        if rid not in known:
            unknown.append((rid, line))
            continue
        ratings[rid] = number_cells(cell, cols, f"{path}:{line}", rid, values, kind="a number",
                                    blank=lambda c, _rid=rid: empty[c].append(_rid), typed=is_typed, same=same)
    if unknown:
        problems.append(f"{path}: {len(unknown)} id(s) of the sheet are not in the key: "
                        + listed(unknown, lambda u: f"{u[0]!r} (line {u[1]})"))
    absent = [r for r in key_ids if r not in lines]
    if absent:
        problems.append(f"{path}: {len(absent)} id(s) of the key are not in the sheet: {listed(absent)}")
    problems += [f"{path}: {hint}" for hint in id_hints(absent, [u[0] for u in unknown], "the key", "the sheet")]
    checked = sheet_predictions(path, rf, lines, key)  # the texts rated are the ones the key was scored on
    raise_problems(f"the ratings sheet {path}", "its key", values, problems + checked.problems, same.problems)
    return ratings, {"empty": empty, "ignored_columns": ignored, "lines": lines, "rating_columns": cols,
                     "empty_rows": blank_rows, "notes": checked.notes}
