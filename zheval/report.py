"""Per-item statistics → grouped score tables with bootstrap intervals, diagnostics, and their rendering.

The unit of work is a per-item statistics table (one row per dataset item), produced by
:func:`zheval.adapters.duck_eval.item_statistics`. Everything here is a reduction of those rows:

* corpus BLEU of a group = BLEU scored from the **summed** BLEU statistics of its rows (Papineni 2002, 2.2);
  mean ROUGE F of a group = the mean of its rows' F values;
* a bootstrap interval resamples the group's rows and recomputes the same reduction
  (:func:`zheval.stats.bootstrap_interval`);
* diagnostics (length ratio, truncation, empty predictions, reference counts) are computed from the texts.

Rendering: :func:`render_table` (plain text, aligned for CJK double-width characters), :func:`render_markdown`,
:meth:`Report.to_dict` (JSON carries everything), and :func:`plot_report` (matplotlib). :func:`atomic_write`
writes an output file completely or not at all.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

__all__ = [
    "NULL_LABEL",
    "GroupScore",
    "MetricValue",
    "Report",
    "Diagnostics",
    "compute_diagnostics",
    "display_width",
    "format_table",
    "render_table",
    "render_markdown",
    "plot_report",
    "atomic_write",
    "FINAL_PUNCT",
    "LENGTH_RATIO_WARN",
]

NULL_LABEL = "null"
"""Label of the group of items whose domain/difficulty is ``null``."""

LENGTH_RATIO_WARN = 0.30
"""Warn when the mean prediction/reference length ratio is outside ``1 ± LENGTH_RATIO_WARN``."""


# ---------------------------------------------------------------------------------------------------------------
# plain-text tables


def display_width(text: str) -> int:
    """Terminal column width of ``text``: East Asian wide/full-width characters count 2, combining marks 0."""
    w = 0
    for c in text:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    """Align a table of strings for a terminal (CJK-aware). Columns from ``right_from`` on are right-aligned."""
    cols = len(header)
    widths = [max(display_width(str(r[i])) for r in [header, *rows]) for i in range(cols)]
    out = []
    for k, r in enumerate([header, *rows]):
        out.append("  ".join(_pad(str(r[i]), widths[i], right=i >= right_from) for i in range(cols)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------------
# atomic output


def atomic_write(path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then ``os.replace``.

    A crash or an error leaves either the old file or nothing, never a partial file.

    Raises:
        OSError: the directory does not exist or is not writable (nothing is written).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
