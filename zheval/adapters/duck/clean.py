"""Cleaning a 小黄鸭 dataset: ``.map``/``.filter`` steps, every dropped reference and query counted.

The normalisation only *decides*: every kept query and reference is written exactly as given (the original string,
byte for byte), so scoring the cleaned file gives the numbers of scoring those items in the original file, under any
tokenizer, preset (``sacrebleu-zh`` is case- and punctuation-sensitive), ``--normalize none``, BERTScore and the
judge. ``write_normalized=True`` (``zheval clean --write-normalized``) writes the normalised texts instead; its
report says the texts were rewritten.

Steps, in order (each a ``datasets`` ``map``/``filter`` call, so they run on any size and with ``num_proc``):

1. **normalise** ``query`` and every response with the foundation normaliser (`zheval.text.normalize`; default
   `DEFAULT_STEPS` = NFKC, invisible characters, punctuation variants, whitespace,
   lower-case Latin), into hidden columns beside the originals; the steps below judge the normalised texts.
   A reference that is empty afterwards (or was empty or whitespace only: ``zheval clean``
   loads them, other commands refuse them) is dropped (reason ``empty``).
2. **length filter**: keep references with ``min_chars ≤ len ≤ max_chars`` (reasons ``too_short``/``too_long``).
   Length is counted in characters of the normalised text, whitespace excluded (a Latin word counts one per
   letter). Default 5–150: the range used when building Chinese single-turn dialogue sets from social-media and
   customer-service logs (e.g. LCCC, Wang et al. 2020, who drop too short "嗯嗯/好的" and over-long replies);
   the short end removes back-channel replies that reward degenerate predictions, the long end pasted documents.
3. **near-duplicate removal**: within each query, a reference whose character-bigram Jaccard similarity (of the
   normalised texts) with an earlier *kept* reference is ≥ ``dedup_threshold`` is dropped (reason
   ``near_duplicate``), so the first of a near-duplicate group, in the order the file lists them, is kept, as
   written (``"好的，谢谢！"`` before ``"好的,谢谢!"``: the first one stays, with its full-width punctuation).
   Default 0.85, the usual near-duplicate cut-off for shingle Jaccard (Broder 1997
   resemblance; 0.8–0.9 is the common range in dataset deduplication). Duplicates inflate multi-reference
   BLEU/ROUGE ``max`` rules without adding a real alternative.
4. **query filter**: drop queries left with fewer than ``min_refs`` references (reason ``too_few_refs``; default 2,
   the minimum for multi-reference scoring and for the human ceiling). Their remaining references are counted as
   dropped with reason ``query_dropped``, so ``refs_in == refs_out + sum(dropped references)`` always holds.
5. **duplicate items**: a query kept by step 4 whose normalised text and references (as a set, after the steps
   above) are those of an earlier kept query under another id is dropped (reason ``duplicate_item``; its references
   counted as ``query_dropped``; ``duplicate_of`` maps its id to the kept one's, the first in file order): the same
   item twice weighs twice in every mean and interval, and a second id hides it from the id checks.

`clean_duck` returns the cleaned dataset and a `CleanReport` with counts by reason and by domain.
"""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass, field

import numpy as np

from ...tokenizers import Normalizer, get_normalizer

__all__ = ["CleanReport", "clean_duck", "bigram_jaccard", "REF_REASONS", "QUERY_REASONS", "NULL_LABEL"]

REF_REASONS = ("empty", "too_short", "too_long", "near_duplicate", "query_dropped")
"""Reasons a reference is dropped, in step order."""
QUERY_REASONS = ("too_few_refs", "duplicate_item")
"""Reasons a query is dropped."""
NULL_LABEL = "null"
"""How a ``null`` domain/difficulty is shown in reports and used as a JSON key."""

_COUNT_COLS = ("_drop_empty", "_drop_too_short", "_drop_too_long", "_drop_near_duplicate")


def _bigrams(text: str) -> frozenset:
    if len(text) < 2:
        return frozenset((text,))
    return frozenset(text[i:i + 2] for i in range(len(text) - 1))


def bigram_jaccard(a: str, b: str) -> float:
    """Jaccard similarity (0–1) of the character-bigram *sets* of two strings.

    ``|A ∩ B| / |A ∪ B|``; a string shorter than 2 characters is represented by itself (so two equal one-character
    strings have similarity 1). Example: ``bigram_jaccard("不客气！", "不客气。")`` → 2/4 = 0.5.
    """
    A, B = _bigrams(a), _bigrams(b)
    union = len(A | B)
    return len(A & B) / union if union else 1.0


def _char_len(text: str) -> int:
    return sum(1 for c in text if not c.isspace())


@dataclass
class CleanReport:
    """What `clean_duck` did, with every drop counted.

    Attributes:
        params: the parameters used (``normalize`` as the step names; ``write_normalized``: whether the kept texts
            were rewritten normalised, `texts_line`).
        queries_in / queries_out, refs_in / refs_out: counts before and after.
        dropped_refs: ``{reason: {domain: count}}`` (reasons `REF_REASONS`; ``null`` domain as ``"null"``).
        dropped_queries: ``{reason: {domain: count}}`` (reasons `QUERY_REASONS`).
        dropped_query_ids: ids of the dropped queries, in dataset order.
        duplicate_of: ``{id: id}``, each query dropped as ``duplicate_item`` and the earlier one it repeats.
    """

    params: dict
    queries_in: int = 0
    queries_out: int = 0
    refs_in: int = 0
    refs_out: int = 0
    dropped_refs: dict = field(default_factory=dict)
    dropped_queries: dict = field(default_factory=dict)
    dropped_query_ids: list = field(default_factory=list)
    duplicate_of: dict = field(default_factory=dict)

    def total(self, kind: str = "refs") -> int:
        """Total dropped references (``kind="refs"``) or queries (``"queries"``)."""
        table = self.dropped_refs if kind == "refs" else self.dropped_queries
        return sum(sum(d.values()) for d in table.values())

    def to_dict(self) -> dict:
        """A JSON-ready dict of everything."""
        return {
            "params": dict(self.params),
            "queries_in": self.queries_in,
            "queries_out": self.queries_out,
            "refs_in": self.refs_in,
            "refs_out": self.refs_out,
            "dropped_refs": {k: dict(v) for k, v in self.dropped_refs.items()},
            "dropped_queries": {k: dict(v) for k, v in self.dropped_queries.items()},
            "dropped_query_ids": list(self.dropped_query_ids),
            "duplicate_of": dict(self.duplicate_of),
        }

    def texts_line(self) -> str:
        """The report line that says whether the kept texts are the originals or were rewritten normalised."""
        norm = self.params.get("normalize", "none")
        if self.params.get("write_normalized"):
            return (f"texts: REWRITTEN, the kept query and references are written normalised ({norm}); scoring this "
                    "file on raw text (--preset sacrebleu-zh, --normalize none, bertscore, judge) gives other numbers "
                    "than scoring these items in the original file")
        if norm == "none":
            return "texts: every kept query and reference written exactly as given (no normalisation)"
        return (f"texts: every kept query and reference written exactly as given; the normalisation ({norm}) only "
                "decided what is empty, the lengths and the duplicates")

    def render(self) -> str:
        """A plain-text table: reasons × domains for references and queries, then the totals."""
        from ..report.tables import format_table

        domains = sorted({d for t in (self.dropped_refs, self.dropped_queries) for v in t.values() for d in v})
        lines = [
            f"queries: {self.queries_in} → {self.queries_out} (dropped {self.total('queries')}); "
            f"references: {self.refs_in} → {self.refs_out} (dropped {self.total('refs')})",
            "parameters: " + ", ".join(f"{k}={v}" for k, v in self.params.items()),
            self.texts_line(),
        ]
        for title, table, reasons in (
            ("dropped references", self.dropped_refs, REF_REASONS),
            ("dropped queries", self.dropped_queries, QUERY_REASONS),
        ):
            header = ["reason", *domains, "total"]
            rows = []
            for r in reasons:
                counts = table.get(r, {})
                rows.append([r, *[str(counts.get(d, 0)) for d in domains], str(sum(counts.values()))])
            lines.append("")
            lines.append(title + (" (by domain)" if domains else ""))
            lines.append(format_table(header, rows))
        if self.duplicate_of:
            shown = list(self.duplicate_of.items())
            lines += ["", f"duplicate items dropped ({len(shown)}; the same query and references as an earlier id): "
                      + ", ".join(f"{k!r} = {v!r}" for k, v in shown[:10]) + (", ..." if len(shown) > 10 else "")]
        return "\n".join(lines)


_NQUERY, _NRESPONSES = "_norm_query", "_norm_responses"
"""The hidden columns of the normalised texts the steps judge (the ``query``/``responses`` columns stay as given)."""


def _normalise_batch(batch, norm: Normalizer):
    return {
        _NQUERY: [norm(q) for q in batch["query"]],
        _NRESPONSES: [[norm(r) for r in rs] for rs in batch["responses"]],
    }


def _filter_batch(batch, reasons, row_rule):
    """A ``Dataset.map`` batch of a reference filter: each item's responses are kept where the item's rule
    (``row_rule()``, a new one per item, called on its normalised responses in order) gives None, else counted under
    the reason it gives (``_drop_<reason>`` columns, one per ``reasons``). The original and the normalised lists are
    filtered together, so the i-th kept original is the i-th kept normalised text."""
    kept, kept_norm = [], []
    counts = {reason: [] for reason in reasons}
    for raw, rs in zip(batch["responses"], batch[_NRESPONSES]):
        why = row_rule()
        k, kn, dropped = [], [], dict.fromkeys(reasons, 0)
        for orig, r in zip(raw, rs):
            reason = why(r)
            if reason is None:
                k.append(orig)
                kn.append(r)
            else:
                dropped[reason] += 1
        kept.append(k)
        kept_norm.append(kn)
        for reason in reasons:
            counts[reason].append(dropped[reason])
    return {"responses": kept, _NRESPONSES: kept_norm, **{f"_drop_{reason}": c for reason, c in counts.items()}}


def _write_normalized_batch(batch):
    return {"query": batch[_NQUERY], "responses": batch[_NRESPONSES]}


def _length_reason(r: str, min_chars: int, max_chars: int):
    """Why a reference is dropped for its length in characters (None: kept)."""
    n = _char_len(r)
    if n == 0:
        return "empty"
    if n < min_chars:
        return "too_short"
    if n > max_chars:
        return "too_long"
    return None


def _length_batch(batch, min_chars: int, max_chars: int):
    return _filter_batch(batch, ("empty", "too_short", "too_long"),
                         lambda: functools.partial(_length_reason, min_chars=min_chars, max_chars=max_chars))


def _near_duplicate_rule(threshold: float):
    """The near-duplicate rule of one item: a response whose character-bigram Jaccard similarity with a response
    kept before it reaches ``threshold`` is dropped."""
    grams = []

    def why(r: str):
        g = _bigrams(r)
        for kg in grams:
            union = len(g | kg)
            if (len(g & kg) / union if union else 1.0) >= threshold:
                return "near_duplicate"
        grams.append(g)
        return None

    return why


def _dedup_batch(batch, threshold: float):
    return _filter_batch(batch, ("near_duplicate",), lambda: _near_duplicate_rule(threshold))


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _check_clean_options(min_chars, max_chars, dedup_threshold, min_refs) -> None:
    """`clean_duck`'s numeric options, each named when refused; a bool is not a number (``True`` was read as 1) and
    a string is not one either (``"0.5"`` failed in a comparison, with Python's own TypeError)."""
    if not _is_int(min_chars) or min_chars < 0:
        raise ValueError(f"min_chars must be an integer ≥ 0, got {type(min_chars).__name__} {min_chars!r}")
    if not _is_int(max_chars) or max_chars < min_chars:
        raise ValueError(f"max_chars must be an integer ≥ min_chars ({min_chars}), got "
                         f"{type(max_chars).__name__} {max_chars!r}")
    if dedup_threshold is not None and (
            not isinstance(dedup_threshold, numbers.Real) or isinstance(dedup_threshold, (bool, np.bool_))
            or not (0 < dedup_threshold <= 1)):
        raise ValueError(f"dedup_threshold must be a number in (0, 1] or None, got "
                         f"{type(dedup_threshold).__name__} {dedup_threshold!r}")
    if not _is_int(min_refs) or min_refs < 1:
        raise ValueError(f"min_refs must be an integer ≥ 1, got {type(min_refs).__name__} {min_refs!r}")


def _query_drops(counts: dict, min_refs: int):
    """Steps 4 and 5 over the columns of the filtered dataset (``counts``: ``id``, ``domain``, the normalised
    texts and the ``_drop_*`` counts): the references dropped by steps 1–3 by reason and domain, then which rows
    are kept. Returns ``(keep, dropped_refs, dropped_queries, dropped_ids, duplicate_of)``."""
    dropped_refs: dict = {r: {} for r in REF_REASONS}
    dropped_queries: dict = {r: {} for r in QUERY_REASONS}
    dropped_ids, keep, first_of, duplicate_of = [], [], {}, {}
    for i, dom in enumerate(counts["domain"]):
        d = NULL_LABEL if dom is None else dom
        for col in _COUNT_COLS:
            n = counts[col][i]
            if n:
                reason = col[len("_drop_"):]
                dropped_refs[reason][d] = dropped_refs[reason].get(d, 0) + n
        left = len(counts[_NRESPONSES][i])
        content = (counts[_NQUERY][i], tuple(sorted(counts[_NRESPONSES][i])))
        why = "too_few_refs" if left < min_refs else "duplicate_item" if content in first_of else None
        keep.append(why is None)
        if why is None:
            first_of[content] = counts["id"][i]
            continue
        dropped_queries[why][d] = dropped_queries[why].get(d, 0) + 1
        dropped_ids.append(counts["id"][i])
        if why == "duplicate_item":
            duplicate_of[counts["id"][i]] = first_of[content]
        if left:
            dropped_refs["query_dropped"][d] = dropped_refs["query_dropped"].get(d, 0) + left
    return keep, dropped_refs, dropped_queries, dropped_ids, duplicate_of


def clean_duck(
    ds,
    *,
    normalize=True,
    min_chars: int = 5,
    max_chars: int = 150,
    dedup_threshold: float | None = 0.85,
    min_refs: int = 2,
    write_normalized: bool = False,
    num_proc: int | None = None,
):
    """Clean a 小黄鸭 ``datasets.Dataset`` (see the module docstring for the steps and their defaults).

    Args:
        ds: a ``Dataset`` with the 小黄鸭 features (`load_duck`).
        normalize: normaliser specification (as `zheval.text.normalize.get_normalizer`): ``True`` (default, the
            conservative default steps), ``False`` (no normalisation), step names, or a ``Normalizer``. It decides
            what is empty, each length and the duplicates; the texts kept are written as given.
        min_chars / max_chars: keep references whose normalised length (characters, whitespace excluded) is in
            ``[min_chars, max_chars]``; defaults 5 and 150.
        dedup_threshold: character-bigram Jaccard similarity (0–1] at or above which a later reference of the same
            query is a near duplicate (the first one, as written, is kept); default 0.85; ``None`` skips the step.
        min_refs: drop queries left with fewer references (default 2; ≥ 1). A query that repeats an earlier one under
            another id (the same text and references) is dropped too (``duplicate_item``, module docstring).
        write_normalized: ``True`` writes the normalised query and references instead of the originals (default
            ``False``). Scoring such a file on raw text (``sacrebleu-zh``, ``normalize="none"``, BERTScore, the
            judge) gives other numbers than scoring the original items; the report says so.
        num_proc: ``num_proc`` for the ``map``/``filter`` calls (``None``: one process).

    Returns:
        ``(cleaned Dataset, CleanReport)``. The cleaned dataset has the same features; every kept text is the
        original string unless ``write_normalized``.

    Raises:
        ValueError: ``min_chars`` < 0, ``max_chars`` < ``min_chars``, ``dedup_threshold`` outside (0, 1],
            ``min_refs`` < 1, or any of them a bool or a string (each named), ``write_normalized`` not a bool or
            ``True`` with no normalisation, a dataset without the 小黄鸭 columns.
            TypeError: ``ds`` is not a ``Dataset``.
    """
    from datasets import Dataset

    if not isinstance(ds, Dataset):
        raise TypeError(f"clean_duck expects a datasets.Dataset, got {type(ds).__name__} (pick a split of a DatasetDict)")
    missing = {"id", "query", "responses", "domain"} - set(ds.column_names)
    if missing:
        raise ValueError(f"clean_duck: dataset lacks the 小黄鸭 column(s) {sorted(missing)}")
    _check_clean_options(min_chars, max_chars, dedup_threshold, min_refs)
    norm = get_normalizer(normalize)
    if not isinstance(write_normalized, (bool, np.bool_)):
        raise ValueError(f"write_normalized must be True or False, got {type(write_normalized).__name__} "
                         f"{write_normalized!r}")
    if write_normalized and norm.name == "none":
        raise ValueError("write_normalized=True writes the normalised texts, but normalize gives no normalisation "
                         f"({normalize!r}): give one of them")
    params = {
        "normalize": norm.name,
        "min_chars": min_chars,
        "max_chars": max_chars,
        "dedup_threshold": dedup_threshold,
        "min_refs": min_refs,
        "write_normalized": bool(write_normalized),
    }
    refs_in = sum(len(r) for r in ds["responses"])
    mp = {"batched": True, "num_proc": num_proc, "desc": None}
    out = ds.map(_normalise_batch, fn_kwargs={"norm": norm}, **{**mp, "desc": "clean: normalise"})
    out = out.map(_length_batch, fn_kwargs={"min_chars": min_chars, "max_chars": max_chars}, **{**mp, "desc": "clean: length"})
    if dedup_threshold is not None:
        out = out.map(_dedup_batch, fn_kwargs={"threshold": float(dedup_threshold)}, **{**mp, "desc": "clean: near-duplicates"})
    else:
        out = out.add_column("_drop_near_duplicate", [0] * len(out))

    # count every drop by reason and domain, before the query filter removes rows
    keep, dropped_refs, dropped_queries, dropped_ids, duplicate_of = _query_drops(
        out.select_columns(["id", "domain", _NQUERY, _NRESPONSES, *_COUNT_COLS]).to_dict(), min_refs)
    out = out.select(np.flatnonzero(keep)) if not all(keep) else out
    if write_normalized:
        out = out.map(_write_normalized_batch, **{**mp, "desc": "clean: write normalised"})
    out = out.remove_columns([*_COUNT_COLS, _NQUERY, _NRESPONSES])
    if out.features != ds.features:
        out = out.cast(ds.features)
    report = CleanReport(
        params=params,
        queries_in=len(ds),
        queries_out=len(out),
        refs_in=refs_in,
        refs_out=sum(len(r) for r in out["responses"]),
        dropped_refs=dropped_refs,
        dropped_queries=dropped_queries,
        dropped_query_ids=dropped_ids,
        duplicate_of=duplicate_of,
    )
    assert report.refs_in == report.refs_out + report.total("refs"), "clean_duck lost count of a reference"
    assert report.queries_in == report.queries_out + report.total("queries"), "clean_duck lost count of a query"
    return out, report
