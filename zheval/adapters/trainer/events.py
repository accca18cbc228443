"""The hook as a Trainer callback: with ``batch_eval_metrics=True`` the hook keeps the batches of an evaluation until
the call with ``compute_result=True``; an evaluation that stops before that call (a ``KeyboardInterrupt`` in a
notebook, an exception in a callback or in the model) leaves its batches behind, and the Trainer gives no sign that a
new evaluation starts. Registered as a callback too (``Trainer(..., compute_metrics=hook, callbacks=[hook])``), the
hook sees ``on_prediction_step``, which the Trainer fires on every evaluation step before calling ``compute_metrics``
with the ``eval_dataloader`` of that evaluation: a step of another dataloader while batches are kept means the kept
batches belong to an evaluation that did not finish, and they are discarded with a warning naming how many rows.

When one dataloader object serves every evaluation (``dataloader_persistent_workers=True``), a new evaluation cannot
be told from the old one at its start; the summary then warns when it holds more batches than the dataloader yields
in one pass, naming the rows carried over (they are counted in that result; call ``hook.reset()``).

Not registered as a callback, the hook cannot see an evaluation start: it warns once, at its first batch, what to do.
"""

from __future__ import annotations

import warnings

__all__ = ["TrainerEvents", "LEFTOVER_HELP"]

#: What to do about the batches of an interrupted evaluation (the warnings and ``docs/trainer.md`` say it).
LEFTOVER_HELP = (
    "register the hook as a callback too (Trainer(..., compute_metrics=hook, callbacks=[hook]) or "
    "trainer.add_callback(hook)) so that the batches of an evaluation that did not finish are discarded when the "
    "next one starts, or call hook.reset() before evaluating again after an interrupted evaluation"
)


def _rows(n_rows: int, n_batches: int) -> str:
    return f"{n_rows} row(s) in {n_batches} batch(es)"


class TrainerEvents:
    """The ``TrainerCallback`` events of `ZhevalComputeMetrics` (duck-typed: the Trainer's ``CallbackHandler``
    calls ``getattr(callback, event)(args, state, control, **kwargs)`` for every event).

    ``on_prediction_step`` does the work (see the module docstring); every other ``on_*`` event is a no-op that
    returns ``None`` (the Trainer keeps its ``control``). The class using it keeps ``_batch_rows`` (the number of
    decoded rows of each batch kept since the last summary) and has ``reset()``.
    """

    _batch_rows: list  # every one set by the class's __init__ (`_init_events`)
    _loader: object
    _registered: bool
    _advised: bool

    def _init_events(self) -> None:
        """No batch kept, no dataloader seen, not registered yet, not advised yet."""
        self._batch_rows, self._loader, self._registered, self._advised = [], None, False, False

    def __getattr__(self, name: str):
        if name.startswith("on_") and not name.startswith("on__"):
            return _no_event
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def on_prediction_step(self, args=None, state=None, control=None, eval_dataloader=None, **kwargs) -> None:
        """An evaluation step of the Trainer (fired before its ``compute_metrics`` call): discard, with a warning,
        the batches kept from another dataloader's evaluation, which did not reach ``compute_result=True``."""
        self._registered = True
        if eval_dataloader is None:
            return None
        if self._batch_rows and self._loader is not None and self._loader is not eval_dataloader:
            rows, batches = sum(self._batch_rows), len(self._batch_rows)
            self.reset()
            warnings.warn(
                f"zheval compute_metrics: discarded {_rows(rows, batches)} left over from an earlier evaluation "
                "that did not finish (interrupted before its last batch); this evaluation is scored on its own "
                "batches only",
                UserWarning,
                stacklevel=2,
            )
        self._loader = eval_dataloader
        return None

    def on_init_end(self, args=None, state=None, control=None, **kwargs) -> None:
        """The Trainer was built with the hook among its callbacks."""
        self._registered = True
        return None

    def _note_batch(self, n_rows: int) -> None:
        """A ``batch_eval_metrics`` call with ``n_rows`` decoded rows; the first one of an unregistered hook warns
        what to do after an interrupted evaluation (once per hook)."""
        self._batch_rows.append(int(n_rows))
        if not self._registered and not self._advised:
            self._advised = True
            warnings.warn(
                "zheval compute_metrics (batch_eval_metrics): the hook keeps the batches of an evaluation until the "
                "call with compute_result=True, and cannot see a new evaluation start; if an evaluation is "
                f"interrupted, its batches would be counted in the next one: {LEFTOVER_HELP}",
                UserWarning,
                stacklevel=3,
            )

    def _check_carried_over(self) -> None:
        """At the summary: more batches kept than the dataloader of this evaluation yields in one pass means the
        first ones were carried over from an evaluation that did not finish (the same dataloader object served both:
        ``dataloader_persistent_workers``); warn, naming the rows."""
        try:
            steps = len(self._loader) if self._loader is not None else None
        except TypeError:
            steps = None
        extra = len(self._batch_rows) - steps if steps else 0
        if extra > 0:
            warnings.warn(
                f"zheval compute_metrics: this result counts {_rows(sum(self._batch_rows[:extra]), extra)} carried "
                f"over from an earlier evaluation that did not finish ({len(self._batch_rows)} batches kept, the "
                f"evaluation dataloader has {steps}); {LEFTOVER_HELP}",
                UserWarning,
                stacklevel=3,
            )


def _no_event(*args, **kwargs) -> None:
    """A Trainer event the hook does not use."""
    return None
