"""The ``zheval`` command line (typer): score, clean, compare, ceiling, demo.

::

    zheval score   --data test.jsonl --predictions preds.jsonl [--tokenizer char|jieba|none|sacrebleu-zh]
                   [--metrics bleu,rouge] [--by domain,difficulty] [--bootstrap 1000] [--num-proc N]
                   [--format table|json|markdown] [--output FILE] [--plot FILE.png|.svg|.pdf|.jpg]
                   [--t2s] [--normalize STEPS] [--punct keep|drop] [--preset sacrebleu-zh]
                   [--predictions-format auto|jsonl|text] [--label-check strict|warn|off]
                   [--min-refs N] [--max-refs N] [--items]
    zheval clean   IN.jsonl -o OUT.jsonl          # prints the drop report
    zheval compare --data D --predictions A.jsonl B.jsonl
    zheval ceiling --data D
    zheval demo                                   # the embedded 小黄鸭 sample

Exit codes: 0 ok; 2 bad usage or bad input (the message names ``file:line`` or the id; no traceback). Output files
are written atomically (complete or not at all), and only after everything has been computed, so an error leaves
no partial output; they get the permissions a plain ``open`` would give (``0o666 & ~umask``).

Bounds: ``--bootstrap`` at most :data:`MAX_BOOTSTRAP` resamples, ``--seed`` in 0 … :data:`MAX_SEED`. The 小黄鸭 file
must have :data:`~zheval.adapters.duck.load.MIN_REFS`–:data:`~zheval.adapters.duck.load.MAX_REFS` references per
item unless ``--min-refs``/``--max-refs`` relax it.

The package: :mod:`~zheval.cli.commands` (the typer app and its commands), :mod:`~zheval.cli.options` (checks and
conversions of the option values, how a user error is reported), :mod:`~zheval.cli.files` (the files a command reads
and writes); :func:`main` here.
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

# the other public names of the package are importable from here too (not in __all__)
from .commands import app, ceiling, clean, compare, demo, score  # noqa: F401
from .options import CLI_PRESETS, CLI_TOKENIZERS, MAX_BOOTSTRAP, MAX_SEED, Format, UserError  # noqa: F401

__all__ = ["app", "main", "MAX_BOOTSTRAP", "MAX_SEED", "CLI_TOKENIZERS", "CLI_PRESETS", "namespace_shadow"]


def namespace_shadow() -> str | None:
    """The folder Python imported as the ``zheval`` package when it is a *namespace package* (a folder without
    ``__init__.py``, e.g. a clone of this repository named ``zheval`` in the current directory), else ``None``.

    Then ``zheval/__init__.py`` was never run: ``from zheval import score`` fails with "cannot import name 'score'
    from 'zheval' (unknown location)" and, with an editable install, submodules load but fail on
    ``from . import __version__``. Checked first thing by :func:`main` (``python -m zheval`` and the console script).
    """
    mod = sys.modules.get("zheval")
    if mod is None or getattr(mod, "__file__", None) is not None:
        return None
    paths = list(getattr(mod, "__path__", None) or [])
    return paths[0] if paths else "(unknown folder)"


def shadow_message(folder: str) -> str:
    """The explanation printed when :func:`namespace_shadow` finds a shadowing folder."""
    return (
        f"Python imported the folder {folder} as the 'zheval' package, but it is not the package (it has no "
        "__init__.py): most likely a clone of the zheval repository in the current directory, which hides the "
        f"installed package. Run from another directory, or from inside the clone (cd {folder}), or rename the "
        "clone folder."
    )


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of the ``zheval`` console script and of ``python -m zheval``.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).

    Exits with the command's exit code (0 ok, 2 usage or input error). First checks that ``zheval`` is the real
    package and not a folder of the current directory imported as a namespace package (:func:`namespace_shadow`).
    """
    folder = namespace_shadow()
    if folder is not None:
        typer.echo(f"zheval: error: {shadow_message(folder)}", err=True)
        raise SystemExit(2)
    args = sys.argv[1:] if argv is None else list(argv)
    app(args=args, prog_name="zheval")
