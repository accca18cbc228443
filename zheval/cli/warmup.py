"""``zheval warmup``: compile (the first time on a machine) or load the compiled twins' kernels
(`zheval.fast.warmup`; numba, the ``fast`` extra), so that later computations may use them from the first call.

::

    zheval warmup [--format table|json]

Without numba it says so and exits 2 (``pip install "zheval[fast]"``). The first compile takes 8-15 s of CPU, once
per machine (numba's on-disk cache; ``NUMBA_CACHE_DIR`` overrides where); later runs load the cached kernels.
"""

from __future__ import annotations

from .commands import app
from ..text.terminal import terminal_json
from .options import TextFormat, UserError, echo, run_command
from .params import option, takes

__all__ = ["warmup"]


@app.command()
@takes("fmt", fmt=option(TextFormat, "--format", "-f", default=TextFormat.table, help="output format: table | json"))
def warmup(o) -> None:
    """Compile or load the compiled twins (numba, the fast extra): the first compile happens once per machine, and
    only here or in a computation long enough to pay for it."""

    def go():
        from ..compute.compiled import warmup as fast_warmup

        try:
            info = fast_warmup()
        except ImportError as exc:
            raise UserError(f"{exc}") from None
        if o.fmt == TextFormat.json:
            echo(terminal_json(info))
            return
        done = "compiled" if info["state_before"] == "cold" else "loaded"
        echo(f"zheval warmup: {len(info['kernels'])} kernels {done} in {info['seconds']:.1f} s CPU "
             f"(cache was {info['state_before']}); computations in later processes find them in the cache")

    run_command(go)
