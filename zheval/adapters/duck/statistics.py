"""Per-item statistics of a 小黄鸭 dataset with ``Dataset.map`` (`item_statistics`), and the references
that cannot be scored, found on the way (`unscorable_problems`, `raise_unscorable`).

* The per-item statistics of each ``map`` batch are the library's items ([`zheval.compute.bleu.bleu_items`][]:
  additive n-gram statistics; [`zheval.compute.rouge.rouge_items`][]: per-item P/R/F), so the overall numbers are
  identical to ``compute_bleu``/``compute_rouge`` on the same texts, and identical for any ``num_proc`` (statistics
  are per item; reductions run in the main process in item order).
* ``map`` gets an explicit ``new_fingerprint`` built from the dataset fingerprint, a hash of the predictions, the
  tokenizer fingerprint and every scoring option (datasets' own hashing of a jieba tokenizer is slow and goes stale
  after dictionary changes). The tokenizer pickles without its jieba instance and rebuilds it lazily in each worker.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

from ...compute.bleu import bleu_items
from ...compute.chrf import chrf_items
from ...compute.inputs import empty_references
from ...compute.rouge import rouge_items
from ...tokenizers import BaseTokenizer
from .config import ScoreConfig

__all__ = ["item_statistics", "unscorable_problems", "raise_unscorable"]

# ---------------------------------------------------------------------------------------------------------------
# per-item statistics (runs inside map workers)


def _score_batch(batch: dict, cfg: ScoreConfig) -> dict:
    tok = cfg.tokenizer
    preds = batch["prediction"]
    refs = [list(r) for r in batch["responses"]]
    out: dict = {}
    # references that cannot be scored, by the library's empty-reference rule (blank, or without a token after
    # normalisation and tokenisation, e.g. "……" with punct="drop"): every one is recorded here and reported together
    # by the caller with its file:line; the items below are computed with the rule's explicit opt-out meanwhile
    bad_idx: list = [[] for _ in refs]
    bad_why: list = [[] for _ in refs]
    # chrF alone counts characters, not tokens: then only references blank after normalisation are unscorable
    token_rule = "bleu" in cfg.metrics or "rouge" in cfg.metrics
    empty = empty_references(refs, tok) if token_rule else \
        [(i, j) for i, rs in enumerate(refs) for j, r in enumerate(rs) if not "".join(tok.normalize(r).split())]
    for i, j in empty:
        bad_idx[i].append(j)
        bad_why[i].append("empty" if not tok.normalize(refs[i][j]).strip() else "no_tokens")
    if "bleu" in cfg.metrics:
        out["bleu_stats"] = bleu_items(preds, refs, cfg.bleu_config, allow_empty_references=True).stats.tolist()
    if "chrf" in cfg.metrics:
        out["chrf_stats"] = chrf_items(preds, refs, cfg.chrf_config, allow_empty_references=True).stats.tolist()
    if "rouge" in cfg.metrics:
        items = rouge_items(preds, refs, cfg.rouge_config, allow_empty_references=True)
        for rt in cfg.rouge_config.types:
            for x, col in (("precision", items.precision), ("recall", items.recall), ("fmeasure", items.fmeasure)):
                out[f"{rt}_{x}"] = col[rt].tolist()
    # as comma-joined strings: lists would be typed list<null> by a batch without any unscorable reference, which a
    # later batch with one cannot be cast to ("Couldn't cast array of type int64 to null"); `unscorable_problems` reads
    # them back
    out["unscorable_refs"] = [",".join(str(j) for j in idx) for idx in bad_idx]
    out["unscorable_why"] = [",".join(why) for why in bad_why]
    return out


def _unscorable_message(text: str, why: str, tok: BaseTokenizer) -> str:
    if why == "empty":
        return (f"is empty after normalisation ({_short(text)}, normalisation {tok.normalizer.name}); remove it "
                "(zheval clean drops and counts such references)")
    return (f"has no tokens after tokenisation ({_short(text)} with tokenizer {tok.signature()}"
            + (", --punct drop" if getattr(tok, "punct", "keep") == "drop" else "")
            + "): a reference without tokens cannot be scored (BLEU would count it as length 0, ROUGE as 0); "
            "remove it, or keep punctuation (--punct keep)")


def _short(text: str, n: int = 30) -> str:
    return repr(text if len(text) <= n else text[:n] + "…")


def unscorable_problems(table: dict, references, tok: BaseTokenizer, ids, locations=None, origin=None) -> list:
    """Every reference `item_statistics` found empty after normalisation or without tokens, as
    [`Problem`][zheval.adapters.duck.load.Problem] s (``file:line`` from ``locations``, else the dataset row).

    Args:
        table: columns of `item_statistics` (``unscorable_refs``/``unscorable_why``: per item the comma-joined
            indices and reasons).
        references: the ``responses`` of the scored rows. tok: the tokenizer used. ids: the item ids.
        locations: optional ``{item id: (path, line)}`` (the CLI passes the 小黄鸭 file's lines), or ``(path, line,
            names)`` with the user's name of each reference (``label``, ``references[1]``: the records door).
        origin: optional, for leave-one-out rows: ``origin[row] = (item id, [original index of each of the row's
            references], item row)``, so a problem names the item's own ``responses[j]`` (and is listed once).
    """
    from .load import Problem

    out, seen = [], set()
    for row, (joined_idx, joined_why) in enumerate(zip(table["unscorable_refs"], table["unscorable_why"])):
        idx = [int(j) for j in joined_idx.split(",")] if joined_idx else []
        why = joined_why.split(",") if joined_why else []
        for k, w in zip(idx, why):
            rid, j = (ids[row], k) if origin is None else (origin[row][0], origin[row][1][k])
            if (rid, j) in seen:
                continue
            seen.add((rid, j))
            loc = (locations or {}).get(rid, (f"dataset row {row if origin is None else origin[row][2]}", 0))
            path, line = loc[0], loc[1]
            field = loc[2][j] if len(loc) > 2 and j < len(loc[2]) else f"responses[{j}]"
            out.append(Problem(path, line, rid, f"{field} {_unscorable_message(references[row][k], w, tok)}"))
    return out


def raise_unscorable(problems) -> None:
    """Raise one `DuckFormatError` listing every problem of
    `unscorable_problems` (nothing when the list is empty)."""
    from .load import DuckFormatError

    if problems:
        raise DuckFormatError(problems, "references that cannot be scored")


#: Version of the columns `_score_batch` writes, part of the ``map`` fingerprint: a datasets cache file written
#: by an older layout (e.g. without ``unscorable_refs``) is never reused.
_STATS_LAYOUT = "stats-5"


def _hash_texts(texts: Sequence[str]) -> str:
    h = hashlib.sha256()
    for t in texts:
        b = t.encode("utf-8")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:16]


def item_statistics(ds, predictions: Sequence[str], cfg: ScoreConfig, num_proc: int | None = None, desc: str = "scoring"):
    """Per-item statistics as a ``datasets.Dataset`` (``Dataset.map(batched=True, num_proc=num_proc)``).

    Args:
        ds: a ``Dataset`` with ``id`` and ``responses`` (and any other columns, kept).
        predictions: one string per row, in row order.
        cfg: a `ScoreConfig`. num_proc: worker processes (``None``/1: in process).

    Returns:
        ``ds`` plus ``prediction``, ``bleu_stats`` (``List(int64)``, layout of `zheval.definitions.bleu`),
        ``chrf_stats`` (with chrF; layout of `zheval.definitions.chrf`),
        ``<type>_precision``/``_recall``/``_fmeasure`` (float64, 0–1) per ROUGE type, and ``unscorable_refs`` /
        ``unscorable_why`` (per item, comma-joined: indices of references that are empty after normalisation, ``"empty"``, or
        have no tokens, ``"no_tokens"``; report them with `unscorable_problems` — the public entry points
        refuse such data, listing every one). The map's fingerprint is ``duck-<sha>`` of the dataset fingerprint,
        the predictions and `fingerprint`.

    Raises:
        ValueError: a different number of predictions than rows.
    """
    if len(predictions) != len(ds):
        raise ValueError(f"{len(predictions)} predictions for {len(ds)} items")
    preds_hash = _hash_texts(predictions)
    base = getattr(ds, "_fingerprint", "") or ""
    with_pred = ds.add_column("prediction", list(predictions), new_fingerprint=f"pred-{hashlib.sha256((base + preds_hash).encode()).hexdigest()[:16]}")
    fp = hashlib.sha256(f"{base}|{preds_hash}|{cfg.fingerprint()}|{_STATS_LAYOUT}".encode()).hexdigest()[:16]
    return with_pred.map(
        _score_batch,
        fn_kwargs={"cfg": cfg},
        batched=True,
        batch_size=256,
        num_proc=num_proc if num_proc and num_proc > 1 else None,
        new_fingerprint=f"duck-{fp}",
        desc=desc,
    )
