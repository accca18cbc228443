"""Model predictions for a 小黄鸭 dataset: read them from a file and join them to the dataset's items.

Accepted files:

* **JSONL with ids**: ``{"id": str, "prediction": str}`` per line (other keys are ignored) → joined **by id**.
* **LLaMA-Factory** ``generated_predictions.jsonl``: ``{"prompt": str, "predict": str, "label": str}`` per line
  (written by LLaMA-Factory's ``save_predictions`` / ``vllm_infer``), no id → joined **in dataset order**. The
  ``label`` is used as a sanity check: items whose label is not one of their references (after normalisation)
  are counted (:attr:`Predictions.label_mismatches`), which catches a file made for another split or order.
  ``"predict"`` may also be used together with ``"id"``.
* **plain text**: one prediction per line, in dataset order (an empty line is an empty prediction; a final line
  break does not start another prediction).

``format="auto"`` picks JSONL for ``.jsonl``/``.json`` files, text for ``.txt``, and otherwise JSONL when the first
non-blank line is a JSON object. A UTF-8 BOM and CRLF line ends are accepted.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .duck_load import DuckFormatError, Problem, lone_surrogate

__all__ = ["Predictions", "PredictionMismatchError", "read_predictions", "join_predictions", "PREDICTION_KEYS"]

PREDICTION_KEYS = ("prediction", "predict")
"""Field names accepted for the prediction text (``predict`` is LLaMA-Factory's)."""

_SHOWN = 10


@dataclass
class Predictions:
    """Predictions read from a file.

    Attributes:
        texts: the prediction strings in file order. ids: one id per prediction, or ``None`` (ordered file).
        labels: LLaMA-Factory ``label`` values, or ``None``. lines: 1-based line number of each prediction.
        source: the file path; kind: ``"jsonl"`` or ``"text"``.
        label_mismatches: set by :func:`join_predictions`: ids of items whose label is not among their references.
    """

    texts: list
    ids: list | None = None
    labels: list | None = None
    lines: list = field(default_factory=list)
    source: str = "<memory>"
    kind: str = "jsonl"
    label_mismatches: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.texts)


class PredictionMismatchError(ValueError):
    """Predictions do not match the dataset (counts, missing / extra / duplicate ids); the message lists the counts
    and the first ids of each kind."""


def _read_lines(path: Path) -> list[tuple[int, str]]:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out, problems = [], []
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()  # final line break
    for i, raw in enumerate(parts, start=1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            out.append((i, raw.decode("utf-8")))
        except UnicodeDecodeError as exc:
            problems.append(Problem(str(path), i, None, f"not valid UTF-8 (byte {exc.start})"))
    if problems:
        raise DuckFormatError(problems, "invalid predictions file")
    return out


def _sniff(path: Path, lines) -> str:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json"):
        return "jsonl"
    if suffix == ".txt":
        return "text"
    for _, text in lines:
        if text.strip():
            try:
                return "jsonl" if isinstance(json.loads(text), dict) else "text"
            except json.JSONDecodeError:
                return "text"
    return "text"


def read_predictions(path, format: str = "auto") -> Predictions:
    """Read a predictions file (formats in the module docstring).

    Args:
        path: the file. format: ``"auto"`` (default), ``"jsonl"`` or ``"text"``.

    Returns:
        :class:`Predictions`.

    Raises:
        DuckFormatError (ValueError): undecodable UTF-8, malformed JSON, a line that is not an object, no or two
            prediction fields, a non-string prediction/id/label, ids on some lines only, a duplicate id — every
            problem named ``file:line`` (first 20 listed).
        FileNotFoundError: missing file. IsADirectoryError: ``path`` is a directory. ValueError: unknown ``format``.
        A prediction, id or label with a lone surrogate (a JSON ``\\ud800`` escape without its pair) is a problem
        named ``file:line`` and id.
    """
    if format not in ("auto", "jsonl", "text"):
        raise ValueError(f"unknown predictions format {format!r}; valid: auto, jsonl, text")
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"predictions path {path} is a directory, not a file")
    if not path.is_file():
        raise FileNotFoundError(f"predictions file not found: {path}")
    lines = _read_lines(path)
    kind = _sniff(path, lines) if format == "auto" else format
    name = str(path)
    if kind == "text":
        return Predictions(texts=[t for _, t in lines], lines=[i for i, _ in lines], source=name, kind="text")
    problems: list[Problem] = []
    texts, ids, labels, linenos = [], [], [], []
    with_id = without_id = 0
    seen: dict[str, int] = {}
    for lineno, text in lines:
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            problems.append(Problem(name, lineno, None, f"malformed JSON: {exc.msg} at column {exc.colno}"))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(name, lineno, None, "expected a JSON object with an id and a prediction"))
            continue
        rid = obj.get("id")
        bad = [f"{k!r} {lone_surrogate(obj[k])}" for k in ("id",) + PREDICTION_KEYS + ("label",)
               if isinstance(obj.get(k), str) and lone_surrogate(obj[k])]
        if bad:
            problems.extend(Problem(name, lineno, rid if isinstance(rid, str) else None, b) for b in bad)
            continue
        if "id" in obj:
            if not isinstance(rid, str) or not rid.strip():
                problems.append(Problem(name, lineno, None, f"'id' must be a non-empty string, got {rid!r}"))
                continue
            if rid in seen:
                problems.append(Problem(name, lineno, rid, f"duplicate id (first at line {seen[rid]})"))
                continue
            seen[rid] = lineno
            with_id += 1
        else:
            without_id += 1
        keys = [k for k in PREDICTION_KEYS if k in obj]
        if len(keys) != 1:
            what = "no prediction field" if not keys else f"two prediction fields {keys}"
            problems.append(Problem(name, lineno, rid, f"{what}; expected exactly one of {list(PREDICTION_KEYS)}"))
            continue
        pred = obj[keys[0]]
        if not isinstance(pred, str):
            problems.append(Problem(name, lineno, rid, f"{keys[0]!r} must be a string, got {type(pred).__name__ if pred is not None else 'null'}"))
            continue
        label = obj.get("label")
        if label is not None and not isinstance(label, str):
            problems.append(Problem(name, lineno, rid, f"'label' must be a string, got {type(label).__name__}"))
            continue
        texts.append(pred)
        ids.append(rid)
        labels.append(label)
        linenos.append(lineno)
    if with_id and without_id:
        problems.append(Problem(name, 0, None, f"{with_id} line(s) have an 'id' and {without_id} do not; use ids on every line or on none"))
    if problems:
        raise DuckFormatError(problems, "invalid predictions file")
    return Predictions(
        texts=texts,
        ids=ids if with_id else None,
        labels=labels if any(lbl is not None for lbl in labels) else None,
        lines=linenos,
        source=name,
        kind="jsonl",
    )


def _first(xs, n=_SHOWN) -> str:
    xs = list(xs)
    return ", ".join(repr(x) for x in xs[:n]) + (f", … ({len(xs) - n} more)" if len(xs) > n else "")


def join_predictions(ds, predictions, normalize=True) -> list[str]:
    """Align predictions with the items of ``ds``.

    Args:
        ds: a 小黄鸭 ``Dataset`` (needs ``id``; ``responses`` for the LLaMA-Factory label check).
        predictions: a :class:`Predictions`, a path (read with :func:`read_predictions`), a list of strings (dataset
            order) or a ``{id: prediction}`` dict.
        normalize: normaliser for the label check (as :func:`zheval.normalize.get_normalizer`).

    Returns:
        ``list[str]``, one prediction per dataset item, in dataset order. For a :class:`Predictions` with labels,
        its ``label_mismatches`` is filled in.

    Raises:
        PredictionMismatchError (ValueError): by id — missing ids (in the dataset, not in the predictions) or extra
            ids (in the predictions, not in the dataset), with both counts and the first ids of each; in order —
            a different number of predictions than items. TypeError: a non-string prediction in a list/dict.
    """
    from ..normalize import get_normalizer

    if isinstance(predictions, (str, os.PathLike)):
        predictions = read_predictions(predictions)
    if isinstance(predictions, dict):
        bad = [k for k, v in predictions.items() if not isinstance(v, str)]
        if bad:
            raise TypeError(f"predictions must be strings; not for id(s) {_first(bad)}")
        predictions = Predictions(texts=list(predictions.values()), ids=list(predictions.keys()))
    elif not isinstance(predictions, (Predictions, str, bytes)) and hasattr(predictions, "__iter__"):
        predictions = list(predictions)  # a list, a tuple, a datasets Column, …
        for i, p in enumerate(predictions):
            if not isinstance(p, str):
                raise TypeError(f"predictions[{i}] must be str, got {type(p).__name__ if p is not None else 'None'}")
        predictions = Predictions(texts=list(predictions))
    elif not isinstance(predictions, Predictions):
        raise TypeError(f"predictions must be a path, a Predictions, a list or a dict, got {type(predictions).__name__}")
    ids = list(ds["id"])
    src = predictions.source
    if predictions.ids is not None:
        by_id = dict(zip(predictions.ids, predictions.texts))
        idset = set(ids)
        missing = [i for i in ids if i not in by_id]
        extra = [i for i in predictions.ids if i not in idset]
        if missing or extra:
            msg = [f"predictions ({src}) do not match the dataset: {len(ids)} items, {len(predictions)} predictions; "
                   f"{len(missing)} missing, {len(extra)} extra"]
            if missing:
                msg.append(f"  first missing ids: {_first(missing)}")
            if extra:
                msg.append(f"  first extra ids: {_first(extra)}")
            raise PredictionMismatchError("\n".join(msg))
        out = [by_id[i] for i in ids]
        pos = {k: j for j, k in enumerate(predictions.ids)}
        order = [pos[i] for i in ids] if predictions.labels is not None else None
    else:
        if len(predictions) != len(ids):
            raise PredictionMismatchError(
                f"predictions ({src}) have no ids, so they are matched in dataset order, but there are "
                f"{len(predictions)} predictions for {len(ids)} items"
                + (f" (last prediction at line {predictions.lines[-1]})" if predictions.lines else "")
            )
        out = list(predictions.texts)
        order = list(range(len(ids))) if predictions.labels is not None else None
    if order is not None:
        norm = get_normalizer(normalize)
        refs = list(ds["responses"])
        mism = []
        for i, j in enumerate(order):
            lbl = predictions.labels[j]
            if lbl is None:
                continue
            nl = norm(lbl)
            if not any(norm(r) == nl for r in refs[i]):
                mism.append(ids[i])
        predictions.label_mismatches = mism
    return out
