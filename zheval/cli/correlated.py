"""What ``zheval agree`` does when its report holds no correlation for want of ratings (issue 35): both modes -- the
review sheet (`zheval.cli.agree`) and the three layers (`zheval.cli.layers`) -- write their report, then exit 1
with one line saying so (`nothing_to_correlate`), as ``zheval judge`` does when nothing is rated
(`zheval.cli.judge.none_rated`).
"""

from __future__ import annotations

from .options import echo

__all__ = ["nothing_to_correlate"]


def nothing_to_correlate(rows: list, items: int, advice: str) -> None:
    """After the report is written: when no rating column has the rated items a correlation needs (at least
    `zheval.results.agreement.MIN_CORRELATION_ITEMS`: none rated, or one or two),
    ``zheval: error: nothing to correlate: ...`` naming each rating column's rated items and ``advice``, and exit code
    1, as ``zheval judge`` when nothing is rated (issue 35: a sheet without a rating, or a live judge that rated
    nothing, exited 0 with n=0 in every row). Rated items whose correlation is undefined otherwise (a constant
    column) are a result, said in the report's notes. ``rows``: the report's rows (``group``, ``rating``, ``n``);
    ``items``: the items of the report."""
    import typer

    from ..results.agreement import MIN_CORRELATION_ITEMS

    rated: dict = {}
    for r in rows:
        if r["group"] == "overall":
            rated[r["rating"]] = max(rated.get(r["rating"], 0), r["n"])
    if not rated or any(n >= MIN_CORRELATION_ITEMS for n in rated.values()):
        return
    echo(f"zheval: error: nothing to correlate: a correlation needs at least {MIN_CORRELATION_ITEMS} rated items, "
         "and no rating column has them (" + ", ".join(f"{c}: {n} of {items} item(s) rated" for c, n in rated.items())
         + f"); {advice}", err=True)
    raise typer.Exit(code=1)
