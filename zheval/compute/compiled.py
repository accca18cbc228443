"""The compiled kernels as the API offers them to the doors (the ``zheval warmup`` command): compile or load
(`zheval.fast.warmup`). The kernels themselves and the decision when they run are layer 4
(`zheval.fast.compiled`)."""

from __future__ import annotations

__all__ = ["warmup"]


def warmup() -> dict:
    """Compile (the first time on a machine, 8-15 s CPU) or load the compiled twins' kernels (numba, the ``fast``
    extra) so later computations may use them; `zheval.fast.warmup`.

    Returns:
        ``{"state_before": "cold" | "warm" | "loaded" | "off", "seconds": CPU seconds spent, "kernels": [names]}``.
    Raises:
        ImportError: numba is not installed (``pip install 'zheval[fast]'``).
    """
    from ..fast import warmup as fast_warmup

    return fast_warmup()
