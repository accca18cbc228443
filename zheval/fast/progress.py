"""A progress bar for long computations of the fast twins (tqdm, already a dependency), shown only when one will
take over about two seconds, on stderr, and only when stderr is a terminal.

Quiet otherwise: not a terminal (a log file, a notebook's captured stream, CI), ``ZHEVAL_PROGRESS=0`` in the
environment, or tqdm's own ``TQDM_DISABLE=1``. The bar never changes a number; it counts work units (DP cells) and
is closed when the computation ends or fails.
"""

from __future__ import annotations

import os
import sys

__all__ = ["SHOW_AFTER_SECONDS", "progress_enabled", "work_bar"]

#: Expected duration (seconds) from which a bar is shown.
SHOW_AFTER_SECONDS = 2.0


def progress_enabled() -> bool:
    """Whether a bar may be shown: stderr is a terminal and neither ``ZHEVAL_PROGRESS=0`` nor ``TQDM_DISABLE`` is
    set."""
    if os.environ.get("ZHEVAL_PROGRESS", "").strip() in ("0", "false", "no", "off"):
        return False
    if os.environ.get("TQDM_DISABLE", "").strip() not in ("", "0"):
        return False
    stream = sys.stderr
    return bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def work_bar(total: int, seconds_per_unit: float, desc: str, unit: str = "cell"):
    """A tqdm bar over ``total`` units when they are expected to take more than `SHOW_AFTER_SECONDS`
    (``total * seconds_per_unit``) and `progress_enabled`; otherwise an object whose ``update``/``close`` do
    nothing. The caller calls ``update(k)`` as work is done and ``close()`` at the end (also on an error)."""
    if total * seconds_per_unit < SHOW_AFTER_SECONDS or not progress_enabled():
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=int(total), desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False)
