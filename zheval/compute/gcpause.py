"""Pause Python's cyclic garbage collector while a computation runs (a speed measure; no number depends on it).

A corpus computation allocates hundreds of thousands of small tuples and lists (tokens, per-text structures) that
never form reference cycles and are freed by reference counting. Each allocation burst advances the collector's
counters, and a full collection traverses every tracked object of the *process*: in a training or evaluation
process (torch, transformers, datasets, pyarrow imported: several hundred thousand objects) one full pass costs
about 0.3 s, as much as scoring 13,000 items. The entry points [`zheval.compute.rouge.compute_rouge`][],
[`zheval.compute.bleu.compute_bleu`][], [`zheval.compute.joint.score`][] and the evaluate modules' ``compute`` therefore
pause it and restore it on exit (also after an error). It is a no-op when the collector is already off, so nested
calls (``score`` calling ``compute_rouge``) and concurrent calls never turn it on early; objects freed meanwhile are
freed by reference counting as usual, and any cycle is collected at the next collection after the call.
"""

from __future__ import annotations

import functools
import gc
from contextlib import contextmanager

__all__ = ["no_cyclic_gc", "without_cyclic_gc"]


@contextmanager
def no_cyclic_gc():
    """Context manager: ``gc.disable()`` for its duration when the collector is on, ``gc.enable()`` on exit."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def without_cyclic_gc(func):
    """Decorator: run ``func`` inside `no_cyclic_gc` (signature and docstring kept via ``functools.wraps``)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with no_cyclic_gc():
            return func(*args, **kwargs)

    return wrapper
