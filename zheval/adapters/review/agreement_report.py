"""The agreement of each metric with each rating column of a filled review sheet (``zheval agree --ratings``):
Spearman's ρ and Kendall's τ-b with bootstrap intervals over items (`zheval.results.agreement.rank_correlations`),
overall and per domain of the key's items, the empty cells counted and listed (`review_agreement`), and the report
as a table and JSON (`AgreementReport`). The sheet and its key are read by `zheval.adapters.review.human_review`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...results.agreement import (NO_CORRELATION, TIE_TOLERANCE, best_first, rank_correlations, rank_separators,
                                  tied_scores, unranked_groups)
from ..report.tables import NULL_LABEL, format_table
from .review_files import listed

__all__ = ["AgreementReport", "ranking_line", "review_agreement"]


@dataclass
class AgreementReport:
    """Correlations of each metric with each rating column (`review_agreement`).

    Attributes:
        rows: ``[{"group", "metric", "label", "rating", "n", "empty", **rank_correlations}]``, overall first, then
            per domain when an item has one (``domain=null``: the items without a domain, beside items with one).
        empty: ``{rating column: [ids with an empty cell]}`` (left out of that column's correlations).
        params: bootstrap, seed, confidence, the key's sampling (``by_metric``, ``k``, ``seed``), sources.
        notes: messages for the reader.
        empty_rows: lines of the sheet's rows whose every cell is empty (skipped: no item; counted in a note).
    """

    rows: list
    empty: dict
    params: dict
    notes: list = field(default_factory=list)
    empty_rows: list = field(default_factory=list)

    def ranked(self) -> dict:
        """``{rating column: [(overall row, rank)]}``: which metric agrees best with each rating, best Spearman ρ
        first, with competition ranks (1, 1, 1, 4, ...: tied ρ, within
        `zheval.results.agreement.TIE_TOLERANCE`, share a rank and are listed in key order); rows without a
        correlation last, in key order, rank ``None`` (`zheval.results.agreement.best_first`)."""
        out: dict = {}
        for r in self.rows:
            if r["group"] == "overall":
                out.setdefault(r["rating"], []).append(r)
        return {c: [(rs[i], rank) for i, rank in best_first([None if r["undefined"] else r["spearman"] for r in rs])]
                for c, rs in out.items()}

    def ranking(self) -> dict:
        """``{rating column: [overall rows, best Spearman ρ first]}`` (`ranked` without the ranks)."""
        return {c: [r for r, _ in rs] for c, rs in self.ranked().items()}

    def to_dict(self) -> dict:
        """JSON-ready dict with everything (``ranking``: per rating column the metric names, best ρ first;
        ``ranking_rank``: their competition ranks, equal for tied ρ -- within ``tie_tolerance`` --, null without a
        correlation; ``empty_rows``: the sheet's empty rows by line)."""
        ranked = self.ranked()
        return {"kind": "agreement", "rows": [dict(r) for r in self.rows], "empty": dict(self.empty),
                "empty_rows": list(self.empty_rows),
                "ranking": {c: [r["metric"] for r, _ in rs] for c, rs in ranked.items()},
                "ranking_rank": {c: [k for _, k in rs] for c, rs in ranked.items()}, "tie_tolerance": TIE_TOLERANCE,
                "params": dict(self.params), "notes": list(self.notes)}

    def render(self) -> str:
        """Aligned plain-text table (CJK-aware), then the notes."""

        def num(v, fmt="+.3f"):
            return "–" if v is None else format(v, fmt)

        header = ["group", "metric", "rating", "n", "Spearman ρ [95% CI]", "Kendall τ [95% CI]"]
        out = []
        for r in self.rows:
            if r["undefined"]:
                rho = tau = f"– ({r['undefined']})"
            else:
                ci = r["spearman_low"] is not None
                rho = num(r["spearman"]) + (f" [{num(r['spearman_low'])}, {num(r['spearman_high'])}]" if ci else "")
                tau = num(r["kendall"]) + (f" [{num(r['kendall_low'])}, {num(r['kendall_high'])}]" if ci else "")
            out.append([r["group"], r["label"], r["rating"], str(r["n"]), rho, tau])
        bs = self.params.get("bootstrap")
        head = (f"zheval agree: {self.params.get('ratings')} against {self.params.get('key')} "
                f"({self.params.get('items')} items)")
        sub = (f"rank correlations over items; [95% bootstrap interval, {bs} resamples of items, seed "
               f"{self.params.get('seed')}]" if bs else "rank correlations over items (no bootstrap interval)")
        lines = [head, sub, "", format_table(header, out, right_from=3)]
        rank = self.ranked()
        if any(len(rs) > 1 for rs in rank.values()):
            lines += ["", f"which metric agrees best (overall, by Spearman ρ; '=': tied, |Δρ| ≤ "
                          f"{TIE_TOLERANCE:g})"]
            lines += [f"  {c}: {ranking_line(rs)}" for c, rs in rank.items()]
        if self.notes:
            lines += ["", "notes"] + [f"  {n}" for n in self.notes]
        return "\n".join(lines) + "\n"


def ranking_line(ranked: list) -> str:
    """One rating column's line of "which metric agrees best" (``ranked``: `AgreementReport.ranked`'s ``[(row,
    rank)]``): the metrics with a correlation, best ρ first (``=`` between tied ρ, ``>`` otherwise), then those
    without one, never ranked, as the table's notes say them: ``; no correlation (<reason>): <labels>``
    (`zheval.results.agreement.unranked_groups`)."""
    ranks = [k for _, k in ranked]
    shown = [(r, k) for r, k in ranked if k is not None]
    text = "".join(f"{sep}{r['label']} {format(r['spearman'], '+.3f')}"
                   for (r, _), sep in zip(shown, rank_separators([k for _, k in shown])))
    for sep, reason, idx in unranked_groups(ranks, [r["undefined"] for r, _ in ranked]):
        text += f"{sep}{NO_CORRELATION} ({reason}): " + ", ".join(ranked[i][0]["label"] for i in idx)
    return text


def review_agreement(ratings: dict, key: dict, info: dict | None = None, bootstrap: int = 1000, seed: int = 12345,
                     confidence: float = 0.95, sources: dict | None = None, external=()) -> AgreementReport:
    """Spearman's ρ and Kendall's τ-b between each metric of the key (and each external score column) and each rating
    column, overall and per domain.

    Args:
        ratings, info: from `read_ratings` (``info["rating_columns"]``: the columns read; default the key's).
        key: from `read_key`. bootstrap: resamples of items for the intervals (0 = none). seed, confidence: of
            the intervals. sources: ``{"ratings": path, "key": path}`` for the report's title.
        external: `ExternalScores` of ``--scores`` files: each column is
            one more metric, ranked beside the key's (its label is the column name). The key's own scores are
            ranked with the scores equal to within `zheval.results.agreement.SCORE_TIE_TOLERANCE` tied
            (`zheval.results.agreement.tied_scores`); external scores and ratings exactly as written.

    Returns:
        An `AgreementReport`: overall, then per domain of the key's items (none when no item has a domain; the
        items without one, beside items with one, as ``domain=null``, with a note). Items with an empty cell in a
        column are left out of that column's correlations; ``n`` says how many remain, ``empty`` how many were left
        out (and ``AgreementReport.empty`` lists them by id, as does a note).

    Raises:
        ValueError: bad ``bootstrap``/``seed``/``confidence`` (from
            `rank_correlations`).
    """
    cols = list((info or {}).get("rating_columns") or key["rating_columns"])
    metrics = [(m["name"], m.get("label", m["name"])) for m in key["metrics"]]
    value = {m: (lambda it, m=m: it["scores"][m]) for m, _ in metrics}
    own = set(value)  # the key's own scores: tied within SCORE_TIE_TOLERANCE before ranking (tied_scores); --scores: as written
    for ext in external:
        for c in ext.columns:
            metrics.append((c, c))
            value[c] = (lambda it, c=c, sc=ext.scores: sc[it["id"]][c])
    items = [it for it in key["items"] if it["id"] in ratings]
    groups = [("overall", items)]
    doms: dict = {}
    for it in items:
        doms.setdefault(it.get("domain"), []).append(it)
    if set(doms) == {None}:  # no item has a domain (a records sample): a domain=null group would repeat overall
        doms = {}
    for d in sorted((d for d in doms if d is not None), key=str) + ([None] if None in doms else []):
        groups.append((f"domain={NULL_LABEL if d is None else d}", doms[d]))
    rows = []
    for gname, its in groups:
        for name, label in metrics:
            for c in cols:
                have = [it for it in its if ratings[it["id"]].get(c) is not None]
                xs = [value[name](it) for it in have]
                res = rank_correlations(tied_scores(xs) if name in own else xs, [ratings[it["id"]][c] for it in have],
                                        bootstrap, confidence, seed)
                rows.append({"group": gname, "metric": name, "label": label, "rating": c,
                             "empty": len(its) - len(have), **res})
    empty = dict((info or {}).get("empty") or {c: [] for c in cols})
    notes = ["ρ: Spearman (Pearson of average ranks); τ: Kendall τ-b (ties corrected); p-values are SciPy's "
             "(two-sided), in the JSON output"]
    for c in cols:
        ids = empty.get(c) or []
        if ids:
            notes.append(f"{c}: {len(ids)} empty cell{'s' if len(ids) != 1 else ''} (id{'s' if len(ids) != 1 else ''} "
                         f"{', '.join(ids[:10])}{' …' if len(ids) > 10 else ''}) left out of its correlations; "
                         f"n counts the rated items")
    if None in doms:
        notes.append(f"{len(doms[None])} of {len(items)} item(s) have no domain in the key: their rows are "
                     f"domain={NULL_LABEL}")
    blank_rows = list((info or {}).get("empty_rows") or [])
    if blank_rows:
        notes.append(f"{len(blank_rows)} empty row(s) of the sheet skipped (every cell empty: no id, no rating): "
                     f"line{'s' if len(blank_rows) != 1 else ''} {listed(blank_rows, str)}")
    notes += list((info or {}).get("notes") or [])  # read_ratings': predictions the sheet could not be checked on
    degenerate = sum(r["degenerate"] for r in rows)
    if degenerate:
        notes.append(f"{degenerate} bootstrap resample(s) in all had a constant metric or rating column (no "
                     "correlation) and were left out of the intervals (per row: 'degenerate' in the JSON output)")
    undefined = [f"{r['group']} {r['label']}×{r['rating']}" for r in rows if r["undefined"]]
    if undefined:
        notes.append(f"no correlation for {len(undefined)} row(s): fewer than 3 rated items or a constant column")
    ignored = (info or {}).get("ignored_columns") or []
    if ignored:
        notes.append(f"columns not used: {', '.join(ignored)} (not rating columns"
                     f"{' of the key' if cols == list(key['rating_columns']) else ' chosen'})")
    for ext in external:
        notes.append(f"external scores from {ext.source}: {', '.join(ext.columns)} (joined by id; computed "
                     "elsewhere, ranked as they are)")
    params = {"bootstrap": int(bootstrap), "seed": seed, "confidence": confidence, "items": len(items),
              "rating_columns": cols, "sample": {k: key.get(k) for k in ("by_metric", "k", "seed", "n_items")},
              "external": [{"source": e.source, "columns": list(e.columns)} for e in external],
              **(sources or {})}
    return AgreementReport(rows, empty, params, notes, blank_rows)
