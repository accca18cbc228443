"""Score an iterable of batches with flat memory: [`score_batches`][zheval.compute.batches.score_batches], the one-process streaming door.

Each batch is scored ([`zheval.compute.joint.score_items`][]), reduced to partial sums
(`zheval.compute.sums.batch_sums`) and dropped; the sums of every batch merge exactly
(`zheval.results.partial_sums`), and `zheval.compute.sums.sums_result` gives the result, ``==``
[`zheval.score`][zheval.compute.joint.score] on the concatenated batches. Memory follows the result, not the rows: what is kept is
O(groups x metrics x resamples) numbers, plus the tokenizer's bounded content-keyed cache. Per-item scores, when asked,
are written to a file (JSONL, gzipped JSONL or Parquet) batch by batch as they are computed, never gathered.
"""

from __future__ import annotations

import gzip
import json
import numbers
import os
import re
import warnings
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import numpy as np

from ..results.partial_sums import merge_groups
from ..results.poisson import item_keys
from .batch_checks import BatchRules, id_text
from .guards import ControlCharacterWarning, control_message, dropped_controls, input_slips
from ..io.text_lists import check_text_list
from ..io.output import output_target
from .inputs import EmptyReferenceError, validate_inputs
from .joint import item_scores, score_door_config, score_items
from .options import BleuOptions, ChrfOptions, RougeOptions
from .sums import batch_sums, needs_every_item, sums_result

__all__ = ["score_batches", "stream_sums", "ItemWriter", "ITEM_FORMATS", "items_format"]

_INDEXED = re.compile(r"\b(predictions|references)\[(\d+)\]")


#: The per-item file's name endings, each with the format it is written in (any other name is refused up front).
ITEM_FORMATS = ((".jsonl", "jsonl"), (".jsonl.gz", "jsonl.gz"), (".parquet", "parquet"), (".pq", "parquet"))


def items_format(path: Union[str, os.PathLike], what: str = "per-item output") -> str:
    """The format of a per-item file from its name: ``"jsonl"`` (``.jsonl``), ``"jsonl.gz"`` (``.jsonl.gz``, gzip
    compressed) or ``"parquet"`` (``.parquet``, ``.pq``); the ending's case is ignored. ``what`` names the file in
    the message (``"--items-out"``).

    Raises:
        ValueError: any other name (``.csv``, ``.json``, ``.parquet.gz``, no extension ...), naming the accepted
            endings: nothing is written in a format the name does not say.
    """
    name = os.path.basename(os.fspath(path)).lower()
    for ending, kind in sorted(ITEM_FORMATS, key=lambda e: -len(e[0])):
        if name.endswith(ending) and len(name) > len(ending):
            return kind
    raise ValueError(f"{what} {os.fspath(path)}: the file name must end in {', '.join(e for e, _ in ITEM_FORMATS)} "
                     "(JSON Lines, gzipped JSON Lines, Parquet): its ending says the format written")


def _has_null(t) -> bool:
    """Whether an Arrow type is, or holds, the null type (a column that held only nulls so far: its type is not
    known yet)."""
    import pyarrow as pa

    if pa.types.is_null(t):
        return True
    return any(_has_null(t.field(i).type) for i in range(t.num_fields))


class ItemWriter:
    """Per-item scores written as they are computed: JSONL (one object per item: ``index``, the optional ``id`` (its
    text form, an integer id ``7`` written ``"7"``, as ``zheval score --items`` and ``--items-out`` write the ids they
    read: `zheval.compute.batch_checks.id_text`) and ``group``, the score columns of
    [`zheval.compute.joint.item_scores`][]), gzipped JSONL, or Parquet (the same
    columns, one row group per batch; pyarrow), by the file's name (`items_format`). The rows go to a temporary
    file beside ``path`` (``.partial`` appended), renamed to ``path`` by `close` when every batch was scored and
    removed by `discard` when the run fails: a failed run leaves no file behind. ``path`` is taken by the output
    rule of `zheval.io.output.output_target`: a symlink's target is written (the link kept); a FIFO or a device is
    written directly, batch by batch (JSON Lines only: a failed run has written the batches before it).

    Parquet's ``id`` and ``group`` columns take the type of their first non-null values (``null`` allowed after
    them); a column that held only nulls until then is given that type once, the rows written so far copied a row
    group at a time into a file of the new schema (``.partial-widened``, which then takes the ``.partial`` file's
    place). A value that does not fit the column's type is a ``ValueError`` naming its item.

    Raises:
        ValueError: the path is a file that exists (never overwritten); a name `items_format` refuses; Parquet
            asked of a FIFO or a device. IsADirectoryError: the path is a directory.
    """

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        self.path = os.fspath(path)
        self.format = items_format(self.path)
        self.target, self.direct = output_target(self.path)
        if self.direct and self.format == "parquet":
            raise ValueError(f"per-item output {self.path} is not a regular file (a pipe, a device, /dev/fd/N): "
                             "Parquet is written to a file; name a new .parquet file, or a .jsonl one for a pipe")
        if not self.direct and os.path.lexists(self.target):
            raise ValueError(f"per-item output {self.path} exists; give a new path (it is never overwritten)")
        self.partial = self.target if self.direct else f"{self.target}.partial"
        self.parquet = self.format == "parquet"
        self._writer = None
        self._types: Dict[str, Any] = {}
        self._file = None
        if self.format == "jsonl":
            self._file = open(self.partial, "a" if self.direct else "w", encoding="utf-8")
        elif self.format == "jsonl.gz":
            self._file = gzip.open(self.partial, "at" if self.direct else "wt", encoding="utf-8")

    def write(self, start: int, columns: Dict[str, np.ndarray], ids=None, groups=None) -> None:
        """Write one batch: item indices ``start ..``, score columns (float64 arrays), optional ids and groups.

        Raises:
            ValueError: an id or group that the file cannot hold (a JSON file: a value JSON has no form for, such
                as a date or an infinite number; Parquet: a value of another type than the column's), named by its
                item (``groups[12345]``)."""
        n = len(next(iter(columns.values()))) if columns else 0
        cols: Dict[str, Any] = {"index": np.arange(start, start + n, dtype=np.int64)}
        if ids is not None:  # an id's text form, as the CLI's per-item output writes it (7 -> "7": one id rule)
            cols["id"] = [id_text(v) if isinstance(v, numbers.Integral) else v for v in ids]
        if groups is not None:
            cols["group"] = list(groups)
        cols.update(columns)
        if self.parquet:
            self._write_parquet(start, cols)
            return
        names = list(cols)
        lists = [v.tolist() if isinstance(v, np.ndarray) else v for v in cols.values()]
        lines = []
        for i, row in enumerate(zip(*lists)):
            try:
                lines.append(json.dumps(dict(zip(names, row)), ensure_ascii=False, allow_nan=False) + "\n")
            except (TypeError, ValueError):
                raise ValueError(self._misfit(cols, start + i, "JSON has no form for it; write Parquet (.parquet) "
                                              "or convert the values to str first")) from None
        self._file.write("".join(lines))

    def _misfit(self, cols: Dict[str, Any], item: int, why: str) -> str:
        for name in ("id", "group"):
            if name in cols:
                v = cols[name][item - int(cols["index"][0])]
                try:
                    json.dumps(v, allow_nan=False)
                except (TypeError, ValueError):
                    return (f"per-item output {self.path}: {name}s[{item}] is {type(v).__name__} {v!r}: {why}")
        return f"per-item output {self.path}: item {item} cannot be written: {why}"

    def _column(self, name: str, values: list, start: int):
        """``values`` as an Arrow array of the column's type (the first non-null values' type)."""
        import pyarrow as pa

        t = self._types.get(name)
        try:
            arr = pa.array(values, type=t)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            for i, v in enumerate(values):
                try:
                    pa.array([v], type=t)
                except (pa.ArrowException, TypeError, ValueError, OverflowError):
                    where = f"of the column's type {t} (the type of the items before it)" if t is not None \
                        else "Parquet can hold"
                    raise ValueError(f"per-item output {self.path}: {name}s[{start + i}] is {type(v).__name__} "
                                     f"{v!r}, not a value {where}; no file is written") from None
            raise
        if t is None and not _has_null(arr.type):
            self._types[name] = arr.type
        return arr

    def _write_parquet(self, start: int, cols: Dict[str, Any]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({k: (self._column(k, v, start) if isinstance(v, list) else v) for k, v in cols.items()})
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.partial, table.schema)
        elif table.schema != self._writer.schema:
            old = self._writer.schema
            target = pa.schema([table.schema.field(f.name) if _has_null(f.type) else f for f in old])
            if target != old:
                self._widen(target)
            table = table.cast(target)
        self._writer.write_table(table)

    def _widen(self, schema) -> None:
        """Copy the rows written so far, a row group at a time, into a file of ``schema`` (the null columns given
        their type), which becomes the ``.partial`` file."""
        import pyarrow.parquet as pq

        self._writer.close()
        wider = f"{self.target}.partial-widened"
        writer = pq.ParquetWriter(wider, schema)
        try:
            with pq.ParquetFile(self.partial) as old:
                for i in range(old.num_row_groups):
                    writer.write_table(old.read_row_group(i).cast(schema))
        except BaseException:
            writer.close()
            os.remove(wider)
            raise
        os.remove(self.partial)
        self.partial, self._writer = wider, writer

    def _close_partial(self) -> None:
        if self._writer is not None:
            self._writer.close()
        if self._file is not None:
            self._file.close()

    def close(self) -> None:
        """Flush, close and rename the file to ``path`` (a Parquet file without any batch: none is written).

        Raises:
            ValueError: ``path`` appeared meanwhile (never overwritten; the rows stay in the ``.partial`` file)."""
        self._close_partial()
        if self.direct or not os.path.exists(self.partial):
            return
        if os.path.lexists(self.target):
            raise ValueError(f"per-item output {self.path} appeared during the run; the rows are in {self.partial}")
        os.replace(self.partial, self.target)

    def discard(self) -> None:
        """Close and remove the temporary file (the run failed; a FIFO or a device is only closed)."""
        self._close_partial()
        if not self.direct and os.path.exists(self.partial):
            os.remove(self.partial)


def _global_error(exc: Exception, offset: int) -> Exception:
    if isinstance(exc, EmptyReferenceError):
        return EmptyReferenceError([(offset + i, j) for i, j in exc.positions], exc.texts, exc.reasons, exc.context)
    return type(exc)(_INDEXED.sub(lambda m: f"{m[1]}[{int(m[2]) + offset}]", str(exc)))


def _unpack(batch, index: int):
    shape = "a tuple (predictions, references[, groups[, ids]])"
    if not isinstance(batch, (tuple, list)):
        raise TypeError(f"batch {index} must be {shape}, got {type(batch).__name__}")
    if len(batch) not in (2, 3, 4):
        raise TypeError(f"batch {index} must be {shape} of 2 to 4 elements, got a {type(batch).__name__} of "
                        f"{len(batch)} element(s)")
    preds, refs = batch[0], batch[1]
    if isinstance(preds, (str, bytes)):
        raise TypeError(f"batch {index}: its predictions are a single {type(preds).__name__} ({preds[:40]!r}), so "
                        f"batch {index} is itself a list of texts: batches is an iterable of (predictions, "
                        "references[, groups[, ids]]) tuples — for one batch, score_batches([(predictions, references)]), not score_batches((predictions, "
                        "references))")
    groups = batch[2] if len(batch) > 2 else None
    ids = batch[3] if len(batch) > 3 else None
    for name, col in (("groups", groups), ("ids", ids)):
        if isinstance(col, (str, bytes)):
            raise TypeError(f"batch {index}: {name} must give one value per item (a list), got "
                            f"{type(col).__name__} {col!r} (it would be read as one value per character)")
        if col is not None and len(col) != len(preds):
            raise ValueError(f"batch {index}: {len(col)} {name} for {len(preds)} predictions")
    return preds, refs, groups, ids


def _bar(enabled: Optional[bool]):
    from ..fast.progress import progress_enabled

    if enabled is False or (enabled is None and not progress_enabled()):
        return None
    from tqdm.auto import tqdm

    return tqdm(desc="zheval score", unit=" rows", unit_scale=True, dynamic_ncols=True)


def score_batches(
    batches: Iterable[Sequence],
    metrics: Sequence[str] = ("bleu", "rouge"),
    *,
    items_path: Optional[Union[str, os.PathLike]] = None,
    progress: Optional[bool] = None,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Chinese BLEU, ROUGE and/or chrF of batches that stream by, in flat memory: the result of [`zheval.score`][zheval.compute.joint.score]
    on all their items.

    Args:
        batches: an iterable of tuples ``(predictions, references)``, ``(predictions, references, groups)`` or
            ``(predictions, references, groups, ids)``: ``predictions`` a ``list[str]``, ``references`` per item a
            ``str`` or a non-empty ``list[str]`` (as [`zheval.score`][zheval.compute.joint.score]), ``groups`` one hashable value per item
            (or ``None`` for the whole batch; ``None`` items form a group of their own), ``ids`` one value per item
            (or ``None``; a Poisson key part by its text form -- ``7`` as ``"7"``, as the CLI reads it -- and a column
            of the per-item file). Groups and ids follow the rules of
            `zheval.compute.batch_checks` (those of the engine doors and the CLI): one kind of group value, no NaN;
            ids by the CLI's id rule, of one kind, unique over all batches (24 bytes kept per id), in every batch
            or in none.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (as [`zheval.score`][zheval.compute.joint.score]).
        items_path: optional new file (``.jsonl``, ``.jsonl.gz``, ``.parquet`` or ``.pq``: `items_format`, any
            other name refused before any batch is read) the per-item scores are written to, batch by
            batch (`ItemWriter`; [`zheval.compute.joint.item_scores`][] columns, 0-1), into a ``.partial`` file
            renamed when every batch is scored (a failed run leaves none). Ids are written as their text form
            (``7`` -> ``"7"``, a string column in Parquet), as the CLI writes them, so the files join on ``id``.
        progress: a bar with rows and rows/s on stderr (tqdm): ``None`` shows it on a terminal only
            (``ZHEVAL_PROGRESS=0`` turns it off), ``True``/``False`` force it.
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions], as
            [`zheval.score`][zheval.compute.joint.score].
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions], as ``rouge``.
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions], as ``rouge``.
        options: the same options by name, as [`zheval.score`][zheval.compute.joint.score] (checked before any batch is read); with
            ``bootstrap`` > 0, ``bootstrap_method="poisson"`` (Poisson(1) weights per item keyed by ``(seed, item
            content, resample)``: `zheval.results.poisson`; the multinomial default draws item indices from the whole
            list, so a streaming call refuses it).

    Returns:
        ``{metric: result}`` ``==`` [`zheval.score`][zheval.compute.joint.score] on the concatenated batches (scores on 0-1, signature; with
        ``bootstrap`` the Poisson intervals); with any group value also ``"groups"``: ``{value: {metric: result}}``
        in order of first appearance.

    Raises:
        ValueError: an option that needs every item (``use_aggregator=False``, ``level="sentence"``, a preset, the
            multinomial bootstrap, ``crosscheck``, metrics of different ``bootstrap`` or ``seed``), named with its
            alternative; an unknown ``bootstrap_method``;
            no item at all; the option errors of [`zheval.score`][zheval.compute.joint.score]; an existing ``items_path``
            or one of a name `items_format` refuses; a group or id the rules refuse (`BatchRules.check`) or the
            per-item file cannot hold (`ItemWriter.write`), named by its index over all batches (``groups[123]``).
        TypeError: ``groups`` or ``ids`` given as a ``str``; an unhashable group value.
        TypeError, ValueError, EmptyReferenceError: a bad item, named by its index over all batches
            (``predictions[123456]``), as [`zheval.score`][zheval.compute.joint.score] names it.
    """
    config = score_door_config("score_batches", metrics, {"rouge": rouge, "bleu": bleu, "chrf": chrf}, options)
    why = needs_every_item(config)
    if why is not None:
        raise ValueError(f"score_batches keeps sums, not items: {why}")
    merged, grouped, slips = stream_sums(batches, config, items_path=items_path, progress=progress)
    for category, message in slips.items():
        warnings.warn(message, category, stacklevel=2)
    return _result(merged, config, grouped)


def stream_sums(batches: Iterable[Sequence], config, *, items_path=None, progress: Optional[bool] = None,
                what: str = "score_batches", unique_ids: bool = False):
    """The loop of [`score_batches`][zheval.compute.batches.score_batches] on a checked config (one that
    `zheval.compute.sums.needs_every_item` accepts): ``(merged, grouped, slips)`` -- ``{group value: PartialSums}``
    (``None`` for items without a group), whether any batch had groups, and the input slips' warnings
    (``{category: message}``, from the first batch; the dropped control characters counted over every batch) for
    the caller to issue.

    Every batch's groups and ids are checked by `zheval.compute.batch_checks.BatchRules` before it is scored;
    ``unique_ids``: the caller has refused duplicate ids already (no id is kept here).

    Raises:
        What [`score_batches`][zheval.compute.batches.score_batches] raises for a bad batch or item; ValueError: no
            item at all (the message starts with ``what``).
    """
    boot = config.first.bootstrap
    rules = BatchRules(what, unique_ids=unique_ids)
    writer = ItemWriter(items_path) if items_path is not None else None
    bar = _bar(progress)
    merged: Dict[Any, Any] = {}
    slips: Dict[type, str] = {}
    drops: list = [0, [], []]  # the control characters dropped, over every batch (`dropped_controls`)
    words = config.rouge is not None or config.bleu is not None or config.chrf.uses_tokens  # chrF: characters only
    offset, grouped, done = 0, False, False
    check_text_list(batches, "batches", "an iterable of (predictions, references[, groups[, ids]]) tuples",
                    "for one batch, score_batches([(df['pred'].tolist(), df['ref'].tolist())])")
    try:
        for k, batch in enumerate(batches):
            preds, refs, groups, ids = _unpack(batch, k)
            if not len(preds):
                continue
            groups, ids = rules.check(k, offset, len(preds), groups, ids)
            try:
                items = score_items(preds, refs, config, warn=False)
                canon_preds, canon_refs = validate_inputs(preds, refs)
            except (TypeError, ValueError) as exc:
                raise _global_error(exc, offset) from exc
            first = config.first
            if not slips:
                slips = dict(input_slips(canon_preds, canon_refs, first.tokenizer, first.t2s_applies, controls=False))
            n, where, chars = dropped_controls(canon_preds, canon_refs, first.tokenizer, offset) if words else (0, [], [])
            drops = [drops[0] + n, drops[1] + where, drops[2] + [c for c in chars if c not in drops[2]]]
            keys = item_keys(canon_preds, canon_refs, ids) if boot else None
            grouped = grouped or groups is not None
            merged = merge_groups(merged, batch_sums(items, config, keys=keys, groups=groups))
            if writer is not None:
                writer.write(offset, item_scores(items, config), ids, groups)
            offset += len(preds)
            if bar is not None:
                bar.update(len(preds))
        done = True
    finally:
        if writer is not None:
            if done and offset:
                writer.close()
            else:
                writer.discard()
        if bar is not None:
            bar.close()
    if not offset:
        raise ValueError(f"{what}: no items to score: the batches hold no item")
    if drops[0]:
        slips[ControlCharacterWarning] = control_message(*drops, config.first.tokenizer)
    return merged, grouped, slips


def _result(merged: Dict[Any, Any], config, grouped: bool) -> Dict[str, Any]:
    if not grouped:
        return sums_result(merged[None], config)
    total = None
    for s in merged.values():
        total = s if total is None else total.merge(s)
    out: Dict[str, Any] = dict(sums_result(total, config))
    out["groups"] = {g: sums_result(s, config) for g, s in merged.items()}
    return out
