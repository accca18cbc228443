"""What the HTML report leaves out when a report has many groups, and why (`page_limits`).

Grouping by a field with one value per row (an id, a timestamp: a plausible slip) gives thousands of groups. Every
group on the page costs a table row, a bar of a plot and three explained items; 10,000 groups made a 121 MB page in
184 s and 6.2 GB. So, per group column (dimension):

* more than `MAX_PLOT_GROUPS` groups: the column is not plotted (a bar chart of hundreds of groups is
  unreadable anyway);
* more than `MAX_SAMPLE_GROUPS` groups: its groups get no items to read (the overall group and the other
  columns keep theirs);
* more than `MAX_TABLE_GROUPS` groups: the score table shows its first `MAX_TABLE_GROUPS` groups (the
  report's order) and one line saying how many more there are.

Each cut is a note on the page and on the terminal (``zheval: note: …``), naming the column and the counts; the JSON
report (``--format json``) always has every group. Nothing is cut below these numbers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["MAX_PLOT_GROUPS", "MAX_SAMPLE_GROUPS", "MAX_TABLE_GROUPS", "PageLimits", "page_limits"]

MAX_PLOT_GROUPS = 40
"""Most groups of one column that are plotted."""
MAX_SAMPLE_GROUPS = 50
"""Most groups of one column whose lowest / median / highest items are shown with their explanations."""
MAX_TABLE_GROUPS = 500
"""Most groups of one column in the page's score table."""


@dataclass
class PageLimits:
    """What the page leaves out: ``unplotted`` and ``unsampled`` columns, ``table_cut`` ``{column: groups left out
    of the table}``, and the ``notes`` saying so (empty when nothing is cut)."""

    unplotted: set = field(default_factory=set)
    unsampled: set = field(default_factory=set)
    table_cut: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


def page_limits(groups, n_items: int) -> PageLimits:
    """The cuts of the page for a report's ``groups`` (`GroupScore` list, or
    anything with ``dimension``) over ``n_items`` items (module docstring)."""
    counts = Counter(g.dimension for g in groups if g.dimension != "overall")
    out = PageLimits()
    for dim, k in counts.items():
        if k <= min(MAX_PLOT_GROUPS, MAX_SAMPLE_GROUPS, MAX_TABLE_GROUPS):
            continue
        slip = (f" — one per item: is {dim!r} a per-row field (an id)?" if k == n_items else "")
        parts = []
        if k > MAX_PLOT_GROUPS:
            out.unplotted.add(dim)
            parts.append(f"not plotted (at most {MAX_PLOT_GROUPS} groups per plot)")
        if k > MAX_SAMPLE_GROUPS:
            out.unsampled.add(dim)
            parts.append(f"no items to read for its groups (at most {MAX_SAMPLE_GROUPS})")
        if k > MAX_TABLE_GROUPS:
            out.table_cut[dim] = k - MAX_TABLE_GROUPS
            parts.append(f"the table shows its first {MAX_TABLE_GROUPS} groups, {k - MAX_TABLE_GROUPS:,} more are in "
                         "the JSON report (--format json)")
        out.notes.append(f"the page leaves out part of {dim!r}: it has {k:,} groups{slip}; " + "; ".join(parts))
    return out
