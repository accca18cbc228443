"""A records file scored in flat memory: [`score_records_stream`][zheval.adapters.records_stream.score_records_stream]
(``zheval score --stream``), the streaming twin of [`score_records`][zheval.adapters.records.score_records].

The file is read `zheval.io.chunks.DEFAULT_CHUNK_ROWS` rows at a time (`zheval.io.chunks.iter_row_chunks`),
each chunk checked by the rules of [`read_records`][zheval.adapters.records.read_records] (`stream_records`), scored
and reduced to partial sums (`zheval.compute.batches.stream_sums`), then dropped. What is kept: the sums per
group (O(groups x metrics x resamples) numbers), Distinct-1/2 and the repeated predictions in compact exact structures
(`zheval.results.distinct.StreamingDistinct`, `zheval.results.distinct.StreamingRepetition`),
and 8 bytes per id (duplicate ids across chunks). Per-item scores go to a file as they are computed
(``items_path``).

What differs from the whole-file report, each said in the report's notes:

* the intervals are the **Poisson bootstrap** (`zheval.results.poisson`; ``bsmethod:poisson`` in the
  signatures), the only one that needs no list of items; the scores themselves are ``==``
  [`score_records`][zheval.adapters.records.score_records]'s (the same sums);
* ROUGE's precision and recall columns, the truncation breakdown, buckets, folds, per-item lists in the report, the
  HTML page and a preset (all need every item) are not offered: the CLI refuses them with ``--stream``;
* a bad row stops the run at the first chunk that has one (every problem of that chunk, ``file:line``).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from dataclasses import replace
from typing import Any, Dict, Iterator, Optional, Sequence

import numpy as np

from ..compute.batches import stream_sums
from ..compute.guards import ResamplingWarning
from ..compute.inputs import EmptyReferenceError
from ..compute.joint import score_config_of
from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from ..compute.sums import needs_every_item, sums_result
from ..io import FileFormatError, Problem
from ..io.chunks import DEFAULT_CHUNK_ROWS, iter_row_chunks
from ..io.fields import id_field_of, id_value
from ..io.row_names import ROW_NAME, place_text, renamed_rows
from ..io.rows import RowFile
from ..results.diagnostics import DiagnosticCounts
from ..results.distinct import DISTINCT_ORDERS, StreamingDistinct, StreamingRepetition
from ..results.sorted_keys import SortedKeys, unique_rows
from .duck.config import DEFAULT_ROUGE_TYPES, make_config, report_options
from .duck.mismatch import group_form_notes, group_type_notes
from .duck.reductions import report_params, rouge_label
from .list_texts import LineBreaks, ListTexts
from .records import (PlainTextRecordsError, Records, RecordsFormatError, checked_records, empty_cell_notes,
                      multiline_notes, plain_text_problem, records_format)
from .report.tables import (MIN_INTERVAL_ITEMS, GroupScore, MetricValue, Report, group_label, group_value,
                            interval_cautions, no_interval_reason)

__all__ = ["stream_records", "score_records_stream"]



class _SeenIds:
    """Ids of the chunks read so far: 64-bit BLAKE2b keys, sorted (8 bytes an id;
    `zheval.results.sorted_keys.SortedKeys`). No line is kept: a key that comes back is looked up in the file again
    (`_first_lines`, read only then -- a duplicate id ends the run), which gives the line of its first occurrence
    and tells a repeated id from two ids that share a key."""

    def __init__(self, path, kind: str, chunk_rows: int) -> None:
        self.table = SortedKeys(1, {})
        self.path, self.kind, self.chunk_rows = path, kind, chunk_rows

    @staticmethod
    def _key(rid: str) -> int:
        return int.from_bytes(hashlib.blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")

    def repeated(self, rows: list, id_field: str, name: str) -> list:
        """Problems for the rows (``(line, {field: value})``) whose id was seen in an earlier chunk, naming both
        lines; rows without a valid id are left to `checked_records`."""
        pairs = [(line, rid) for line, row in rows if id_field in row
                 for rid, err in [id_value(row[id_field], id_field)] if not err]
        if not pairs or not len(self.table):
            return []
        keys = np.fromiter((self._key(r) for _, r in pairs), dtype=np.uint64, count=len(pairs)).reshape(-1, 1)
        order = np.argsort(keys[:, 0], kind="stable")
        _, found = self.table.locate(keys[order])
        hits = [pairs[k] for i, k in enumerate(order) if found[i]]
        if not hits:
            return []
        first = self._first_lines({rid for _, rid in hits}, id_field, rows[0][0])
        return [Problem(name, line, rid, f"duplicate id (first seen at {name}:{first[rid]})")
                for line, rid in sorted(hits) if rid in first]

    def _first_lines(self, wanted: set, id_field: str, before: int) -> dict:
        """``{id: line}`` of the first row before line ``before`` holding each id of ``wanted`` (those found), the
        file read again from its start."""
        out: dict = {}
        for rows in iter_row_chunks(self.path, format=self.kind, what="predictions", chunk_rows=self.chunk_rows,
                                    problems=[]):
            for line, row in rows:
                if line >= before or len(out) == len(wanted):
                    return out
                if id_field in row:
                    rid, err = id_value(row[id_field], id_field)
                    if not err and rid in wanted and rid not in out:
                        out[rid] = line
        return out

    def add(self, records: Records) -> None:
        """Remember a chunk's ids, once its rows passed the checks (`repeated` had reported any id of an earlier
        chunk, and the chunk's own repeats are `checked_records`')."""
        raw = np.fromiter((self._key(r) for r in records.ids), dtype=np.uint64, count=len(records.ids))
        keys, _, _ = unique_rows(raw.reshape(-1, 1))
        pos, found = self.table.locate(keys)
        self.table.insert(pos[~found], keys[~found], {})


def stream_records(path, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                   group_fields: Sequence[str] = (), format: str = "auto",
                   chunk_rows: int = DEFAULT_CHUNK_ROWS) -> Iterator[Records]:
    """The rows of a records file as `zheval.adapters.records.Records`, ``chunk_rows`` at a time, each
    checked by the rules of [`read_records`][zheval.adapters.records.read_records] (arguments as there; the
    fields are found on the first chunk and held for the rest).

    Raises:
        RecordsFormatError (a ValueError): the problems of the first chunk that has any, each ``file:line``; an id
            that repeats one of an earlier chunk (both lines named); an id field that appears only after the first
            chunk. The rest as [`read_records`][zheval.adapters.records.read_records].

    Warns:
        ListTextWarning: references that are lists written as text, as ``read_records``: once, when the last chunk
            has been read, with the count of the whole file (`zheval.adapters.list_texts`).
        LineBreakWarning: reference cells that hold a line break, the same way (`zheval.io.line_break`).
        JsonStringWarning: texts that are themselves JSON string literals, the same way, the shares of the whole
            file (`zheval.adapters.json_texts.JsonFields`).
    """
    kind = records_format(path, format)
    name = str(path)
    seen = _SeenIds(path, kind, chunk_rows)
    fields: Optional[dict] = None
    count = 0
    listed = ListTexts()  # references written as lists, over every chunk: one warning at the end
    breaks = LineBreaks()  # reference cells over several lines, the same way
    problems: list = []  # a chunk's file problems, raised with its rows' problems (read_records' rule, by chunk)
    try:
        for rows in iter_row_chunks(path, format=kind, what="predictions", chunk_rows=chunk_rows, problems=problems):
            text = plain_text_problem(name, kind, rows, problems) if fields is None else None
            if text is not None:
                raise PlainTextRecordsError(text)
            if not rows:
                raise RecordsFormatError(sorted(problems, key=lambda p: p.line))
            header = 1 if kind in ("csv", "tsv") and fields is None and rows[0][0] == 2 else 0  # else not known
            rf = RowFile(name=name, kind=kind, rows=rows, fields=list(rows[0][1]), header_line=header)
            if fields is None:
                records = checked_records(rf, problems, pred_field, ref_field, id_field, group_fields, True)
                fields = records.fields
            else:
                if fields["id"] is None and rf.kind == "jsonl":
                    late = id_field_of([k for _, row in rows for k in row])
                    if late is not None:
                        line = next(ln for ln, row in rows if late in row)
                        raise RecordsFormatError([Problem(name, line, None, (
                            f"this row has an {late!r} field that the {count} rows before it lack: either every row "
                            "carries the id or none does"))])
                if fields["id"] is not None:  # ids of earlier chunks, reported with this chunk's other problems
                    problems += seen.repeated(rows, fields["id"], name)
                records = checked_records(rf, problems, fields["pred"], fields["ref"], fields["id"],
                                          fields["groups"], True, guessed=(not pred_field, not ref_field))
            if fields["id"] is not None:
                seen.add(records)
            count += len(records)
            listed.merge(records.list_texts)
            breaks.merge(records.line_breaks)
            yield records
    except FileFormatError as exc:
        if isinstance(exc, RecordsFormatError):
            raise
        raise RecordsFormatError(exc.problems) from None
    listed.warn(name)
    breaks.warn(name)


def _stream_config(metrics, tokenizer, options: Dict[str, Any], typed: Dict[str, Any], bootstrap: int, seed: int,
                   confidence: float):
    """``(config, params)``: the joint config of the streaming report -- the report's options (`report_options`)
    with its defaults (ROUGE types `DEFAULT_ROUGE_TYPES`, the ``max`` rule, the ``punct`` sentence split) and the
    interval -- and the options part of its ``params``, those of the whole-file report on the same options
    (`zheval.adapters.duck.reductions.report_params`: the metrics, ROUGE types and rule, BLEU's and chrF's options;
    ``num_proc`` 1, the only one ``--stream`` takes)."""
    opts = report_options("score_records_stream", metrics, tokenizer, options, typed,
                          interval=dict(bootstrap=bootstrap, seed=seed, confidence=confidence))
    params = report_params(make_config(opts), bootstrap, seed, confidence, 1, ())
    interval = dict(bootstrap=int(bootstrap), seed=seed, confidence=confidence, bootstrap_method="poisson")
    out = {}
    for metric, o in opts.items():
        if metric == "rouge":
            o = replace(o, rouge_types=list(o.rouge_types or DEFAULT_ROUGE_TYPES), multi_ref=o.multi_ref or "max",
                        sentence_split=o.sentence_split or "punct")
        out[metric] = replace(o, **interval)
    return score_config_of(out, function="score_records_stream"), params


def _group_scores(results: Dict[str, dict], n: int, config, bootstrap: int) -> dict:
    """``{column: MetricValue}`` of one group from its `sums_result`."""
    scores: Dict[str, MetricValue] = {}
    why = no_interval_reason(n) if bootstrap and n < MIN_INTERVAL_ITEMS else None
    for metric in config.metrics:
        r = results[metric]
        if metric == "rouge":
            cols = {t: {} for t in config.rouge.types}
        elif metric == "bleu":
            cols = {"bleu": {k: r[k] for k in ("precisions", "brevity_penalty", "length_ratio", "translation_length",
                                                 "reference_length")}}
        else:
            cols = {"chrf": {"precisions": r["precisions"], "recalls": r["recalls"]}}
        for col, details in cols.items():
            low, high = (None, None) if why else (r.get(f"{col}_ci_low"), r.get(f"{col}_ci_high"))
            scores[col] = MetricValue(r[col], low, high, details, why)
    return scores


def score_records_stream(path, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                         group_fields: Sequence[str] = (), format: str = "auto",
                         metrics: Sequence[str] = ("bleu", "rouge"), tokenizer: Any = "char",
                         by: Optional[Sequence[str]] = None, bootstrap: int = 1000, seed: int = 12345,
                         confidence: float = 0.95, items_path: Optional[os.PathLike] = None,
                         progress: Optional[bool] = None, chunk_rows: int = DEFAULT_CHUNK_ROWS,
                         rouge: Optional[RougeOptions] = None, bleu: Optional[BleuOptions] = None,
                         chrf: Optional[ChrfOptions] = None, **options: Any) -> Report:
    """Score a records file chunk by chunk in flat memory (module docstring): the report of
    [`score_records`][zheval.adapters.records.score_records] with the same scores, Poisson intervals and the
    diversity of ``overall`` and of every group.

    Args:
        path: a JSONL, CSV, TSV or Parquet file (each may be gzip-compressed), one item per row.
        pred_field: the prediction's field, as [`read_records`][zheval.adapters.records.read_records].
        ref_field: the reference field or fields, as ``read_records``.
        id_field: the item id's field, as ``read_records``.
        group_fields: the fields to group by, as ``read_records``.
        format: the file's format, as ``read_records``.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"``, as [`score_records`][zheval.adapters.records.score_records].
        tokenizer: the scoring tokenizer of every metric, as ``score_records``.
        by: the group columns, group fields only (default: the group fields).
        bootstrap: resamples of the Poisson bootstrap (0: none).
        seed: the bootstrap's seed.
        confidence: the intervals' confidence level.
        items_path: a new ``.jsonl``, ``.jsonl.gz``, ``.parquet`` or ``.pq`` file for the per-item scores (0-1),
            written chunk by chunk (`zheval.compute.batches.ItemWriter`; another name is refused before any row is
            read).
        progress: a bar with rows and rows/s (``None``: on a terminal only).
        chunk_rows: rows per chunk (memory follows it, never the file's length).
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions].
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions].
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions].
        options: the metric options by name (each defined once in `zheval.compute.options`), as ``score_records``.

    Returns:
        A `Report` (``kind="score"``, scores on 0-1, ``params["bootstrap_method"] == "poisson"``, the diversity under
        ``breakdowns["diversity"]`` for ``overall`` and every group, as the whole-file report's).

    Raises:
        ValueError: an option that needs every item (a preset, ``crosscheck``), named with its alternative; ``by``
            naming a field that is not a group field; the errors of `stream_records` and of
            [`score_records`][zheval.adapters.records.score_records]'s options.
    """
    config, params = _stream_config(metrics, tokenizer, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf}, bootstrap,
                            seed, confidence)
    why = needs_every_item(config)
    if why is not None:
        raise ValueError(f"score_records_stream keeps sums, not items: {why}")
    groups = list(group_fields)
    by = groups if by is None else list(by)
    missing = [b for b in by if b not in groups]
    if missing:
        raise ValueError(f"by {missing}: a streamed report groups by group fields only (given: {groups or 'none'})")
    tokenizer_obj = config.first.tokenizer
    diversity = _GroupDiversity(by)
    diagnostics = DiagnosticCounts(tokenizer_obj.normalizer, str(path))
    meta: Dict[str, Any] = {"fields": None, "empty": {}, "rows": 0, "multiline": [0, []], "forms": {}}

    def batches():
        for records in stream_records(path, pred_field=pred_field, ref_field=ref_field, id_field=id_field,
                                      group_fields=groups, format=format, chunk_rows=chunk_rows):
            meta["fields"], meta["rows"] = records.fields, meta["rows"] + len(records)
            _count_chunk(meta, records)
            keys = list(zip(*(records.groups[b] for b in by))) if by else None
            diversity.add(records.predictions, records.references, keys, tokenizer_obj)
            diagnostics.add(records.predictions, records.references, records.ids)
            meta["chunk"], meta["offset"] = records, meta["rows"] - len(records)
            # the Poisson key: the item's content and its id when the file has one (never the line: the same
            # items in another file, or in zheval.score, get the same intervals)
            yield records.predictions, records.references, keys, records.ids if records.fields["id"] else None

    try:
        merged, _, slips = stream_sums(batches(), config, items_path=items_path, progress=progress,
                                       what="score_records_stream", unique_ids=True)
    except EmptyReferenceError as exc:  # in the file's words: file:line, the id, the user's reference field
        raise _unscorable(exc, meta["chunk"], meta["offset"]) from None
    total = _total(merged)
    with warnings.catch_warnings():  # the report's notes give the cautions (interval_cautions), with group labels
        warnings.simplefilter("ignore", ResamplingWarning)
        overall, groups = sums_result(total, config), _report_groups(merged, total, by, config, bootstrap)
    f = meta["fields"]
    diag = diagnostics.result(excluded_shown=False)  # breakdowns other than diversity are not kept
    report = Report(kind="score", title=(
        f"zheval score --stream: {meta['rows']} items, predictions and references {path} (prediction "
        f"{f.get('pred')!r}, references {f.get('ref')}" + (f", ids {f['id']!r}" if f.get("id") else "") + ")"),
        metrics=_labels(overall, config), groups=groups,
        signatures={m: r["signature"] for m, r in overall.items()},
        params={**params, "by": list(by), "bootstrap_method": "poisson", "chunk_rows": chunk_rows},
        diagnostics=diag,
        warnings=list(diag.warnings) + _slips_located(list(slips.values()), path, f, format, chunk_rows))
    report.breakdowns["diversity"] = diversity.rows(lambda wanted: _predictions_at(path, f, format, chunk_rows, wanted))
    report.notes.append("streamed (--stream): scores == the whole-file report's; intervals by the Poisson bootstrap "
                        "(bsmethod:poisson); ROUGE precision/recall, breakdowns other than diversity and per-item "
                        "lists are not kept")
    report.notes += empty_cell_notes(meta["empty"]) + group_type_notes(meta["forms"], str(path))
    report.notes += group_form_notes(groups)  # group values written differently
    report.notes += multiline_notes(*meta["multiline"], str(path)) + interval_cautions(groups, report.metrics, bootstrap)
    return report


def _count_chunk(meta: dict, records: Records) -> None:
    """Add to ``meta`` what one chunk's notes count: its empty reference cells, its CSV rows over several lines,
    its group values written as an integer and as a string (`zheval.adapters.duck.mismatch.count_group_form`)."""
    for col, n in records.empty_reference_cells.items():
        meta["empty"][col] = meta["empty"].get(col, 0) + n
    meta["multiline"][0] += len(records.multiline_rows)
    meta["multiline"][1] = meta["multiline"][1] or records.multiline_rows[:1]
    for key, (n, line) in records.group_forms.items():
        meta["forms"].setdefault(key, [0, line])[0] += n


def _rows_at(path, fields: dict, format: str, chunk_rows: int, positions: Sequence[int], pick) -> dict:
    """``{position: pick(records, i)}`` of the items at ``positions`` (0-based, sorted; ``records`` the chunk and
    ``i`` the item's place in it), the file read again up to the last."""
    out: dict = {}
    wanted, offset = set(positions), 0
    for records in stream_records(path, pred_field=fields["pred"], ref_field=fields["ref"], id_field=fields["id"],
                                  group_fields=fields["groups"], format=format, chunk_rows=chunk_rows):
        out.update({offset + i: pick(records, i) for i in range(len(records)) if offset + i in wanted})
        offset += len(records)
        if offset > positions[-1]:
            break
    return out


def _predictions_at(path, fields: dict, format: str, chunk_rows: int, positions: Sequence[int]) -> dict:
    """``{position: prediction as written}`` of the items at ``positions`` (0-based, sorted), the file read again
    up to the last (the most repeated prediction's first occurrence when an earlier chunk held it once)."""
    return _rows_at(path, fields, format, chunk_rows, positions, lambda records, i: records.predictions[i])


def _slips_located(slips: Sequence[str], path, fields: dict, format: str, chunk_rows: int) -> list:
    """The input guards' warnings of a streamed file with the rows they name (``predictions[i]``,
    ``references[i][j]``: positions over every chunk) written as ``FILE:line (id 'x', 'label')``, as the whole-file
    report writes them; the file is read again up to the last row named (only when a warning names one)."""
    positions = sorted({int(m.group(2)) for text in slips for m in ROW_NAME.finditer(text)})
    if not positions:
        return list(slips)
    places = _rows_at(path, fields, format, chunk_rows, positions, lambda records, i: (
        records.source, records.lines[i], records.ids[i],
        records.reference_names[i] if records.reference_names else []))

    def name(kind: str, i: int, j: int):
        if i not in places:
            return None
        source, line, rid, names = places[i]
        if kind == "predictions":
            return place_text(source, line, rid)
        return place_text(source, line, rid, names[j] if j < len(names) else f"references[{j}]")

    return [renamed_rows(text, name) or text for text in slips]


def _unscorable(exc: EmptyReferenceError, records: Records, offset: int) -> RecordsFormatError:
    """The empty references of one chunk (``exc.positions`` counted over every chunk) as problems ``file:line``,
    each with the row's id and the user's name of the reference (``label``, ``references[1]``)."""
    how = f" after normalisation and tokenisation ({exc.context})" if exc.context else ""
    problems = []
    for (i, j), text, why in zip(exc.positions, exc.texts, exc.reasons):
        k = i - offset
        names = records.reference_names[k] if k < len(records.reference_names) else []
        field = names[j] if j < len(names) else f"references[{j}]"
        problems.append(Problem(records.source, records.lines[k], records.ids[k],
                                f"{field} is empty{how}: {text!r} {why or ''}".rstrip()))
    return RecordsFormatError(problems, "references that cannot be scored")


def _labels(overall: Dict[str, dict], config) -> list:
    """``[(column, table label)]`` of the report's metrics, in the whole-file report's order and words."""
    out = []
    for metric in [m for m in ("bleu", "chrf", "rouge") if m in config.metrics]:  # metric_specs' order
        if metric == "rouge":
            out += [(t, rouge_label(t)) for t in config.rouge.types]
        else:
            out.append((metric, "BLEU" if metric == "bleu" else overall["chrf"]["name"]))
    return out


def _total(merged: dict):
    total = None
    for s in merged.values():
        total = s if total is None else total.merge(s)
    return total


def _report_groups(merged: dict, total, by: Sequence[str], config, bootstrap: int) -> list:
    """``overall`` first, then each dimension of ``by`` with its values sorted (``null`` last), as
    `zheval.adapters.report.tables.group_items` orders them; each group's sums are the merge of the combinations
    of group values that hold it (exact)."""
    out = [GroupScore("overall", "all", total.n, _group_scores(sums_result(total, config), total.n, config,
                                                               bootstrap))]
    for j, dim in enumerate(by):
        per: dict = {}
        for combo, s in merged.items():
            per[combo[j]] = s if combo[j] not in per else per[combo[j]].merge(s)
        keys = sorted((k for k in per if k is not None), key=str) + ([None] if None in per else [])
        for k in keys:
            s = per[k]
            out.append(GroupScore(dim, group_label(k), s.n, _group_scores(sums_result(s, config), s.n, config,
                                                                          bootstrap)))
    return out


class _GroupDiversity:
    """Distinct-1/2 of the predictions and of the references and the repeated predictions, for ``overall`` and
    every value of each group dimension, counted chunk by chunk (`StreamingDistinct`, `StreamingRepetition`): the
    rows of the whole-file report's ``breakdowns["diversity"]``
    (`zheval.adapters.report.breakdowns.group_diversity`), in its order. Memory: the compact counts of each group's
    distinct n-grams and texts (so it follows the groups and their vocabularies, not the rows)."""

    def __init__(self, dimensions: Sequence[str]) -> None:
        self.dim_names = list(dimensions)
        self.counts: Dict[Any, list] = {}  # None (overall) or (dimension index, value) -> [n, hyp, ref]
        self.repetition = StreamingRepetition(len(self.dim_names))  # overall and, by group id, every group
        self.group_ids: list = [{} for _ in self.dim_names]  # per dimension: value -> group id

    def _counts(self, key) -> list:
        entry = self.counts.get(key)
        if entry is None:
            shared = self.counts.get(None)
            entry = self.counts[key] = [0, StreamingDistinct(vocab=shared[1].vocab if shared else None),
                                        StreamingDistinct(vocab=shared[2].vocab if shared else None)]
        return entry

    def add(self, predictions, references, keys, tokenizer) -> None:
        """Count one chunk; ``keys``: per item the tuple of its group values (``None`` without groups). The tokens
        are ``tokenize_cached``'s, computed once per chunk without filling the token cache (bounded by entries, not
        bytes: a cache of long distinct texts would hold far more than the sums); a group counts its items' ids."""
        normalized = [tokenizer.normalize(p) for p in predictions]
        overall = self._counts(None)
        hyp, hyp_lens = overall[1].token_ids([tokenizer.tokenize_normalized(p) for p in normalized])
        ref, ref_lens = overall[2].token_ids([tokenizer.tokenize_normalized(tokenizer.normalize(r))
                                              for rs in references for r in rs])
        overall[0] += len(normalized)
        overall[1].add_ids(hyp, hyp_lens)
        overall[2].add_ids(ref, ref_lens)
        ids = np.array([[self.group_ids[j].setdefault(combo[j], len(self.group_ids[j]))
                         for j in range(len(self.dim_names))] for combo in keys], dtype=np.int64) \
            if self.dim_names else None
        self.repetition.add(normalized, ids, shown=predictions)
        ref_item = np.repeat(np.arange(len(references)), [len(rs) for rs in references])
        for j in range(len(self.dim_names)):
            members: Dict[Any, list] = {}
            for i, combo in enumerate(keys):
                members.setdefault(combo[j], []).append(i)
            for value, idx in members.items():
                mask = np.zeros(len(normalized), dtype=bool)
                mask[idx] = True
                entry = self._counts((j, value))
                entry[0] += len(idx)
                entry[1].add_ids(hyp[np.repeat(mask, hyp_lens)], hyp_lens[mask])
                refs = mask[ref_item]
                entry[2].add_ids(ref[np.repeat(refs, ref_lens)], ref_lens[refs])

    def rows(self, read_back) -> list:
        """``[{"dimension", "value", "n", ...}]``: ``overall`` first, then each dimension's values sorted
        (``null`` last), as the report's groups; ``read_back(positions)`` gives ``{position: prediction as written}``
        for the most repeated predictions whose first occurrence was not kept (`StreamingRepetition.missing`)."""
        wanted = self.repetition.missing()
        if wanted:
            self.repetition.fill(read_back(wanted))
        out = [_diversity_row("overall", "all", *self.counts[None], self.repetition.result())]
        for j, dim in enumerate(self.dim_names):
            values = list(self.group_ids[j])
            ordered = sorted((v for v in values if v is not None), key=str) + ([None] if None in values else [])
            out += [_diversity_row(dim, group_value(group_label(v)), *self.counts[(j, v)],
                                   self.repetition.group_result(j, self.group_ids[j][v])) for v in ordered]
        return out


def _diversity_row(dimension: str, value, n: int, hyp: StreamingDistinct, ref: StreamingDistinct,
                   repetition: dict) -> dict:
    d, dc, rd, rdc = {}, {}, {}, {}
    for order in DISTINCT_ORDERS:
        key = f"distinct_{order}"
        d[key], a, b = hyp.distinct(order)
        dc[key] = [a, b]
        rd[key], a, b = ref.distinct(order)
        rdc[key] = [a, b]
    return {"dimension": dimension, "value": value, "n": n, "n_items": n, "distinct": d, "distinct_counts": dc,
            "reference_distinct": rd, "reference_distinct_counts": rdc, "repetition": repetition}
