"""Output files of the adapters: `atomic_write` (`zheval.io.output`, the one rule for writing an output: a regular
file completely or not at all, with the permissions a plain ``open(path, "w")`` would give it; a symlink's target
written, the link kept; a FIFO, a device, ``/dev/fd/N``, ``/dev/stdout`` written directly) for the CLI's reports and
plots and `zheval.adapters.duck.write_duck`.
"""

from __future__ import annotations

from ..io.output import atomic_write

__all__ = ["atomic_write"]
