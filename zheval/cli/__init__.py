"""The ``zheval`` command line (typer): score, clean, compare, ceiling, demo, bleu, rouge, chrf, sample, agree, explain.

::

    zheval score   --data test.jsonl --predictions preds.jsonl [--tokenizer char|jieba|none|sacrebleu-zh]
                   [--metrics bleu,rouge] [--by domain,difficulty] [--bootstrap 1000] [--num-proc N]
                   [--format table|json|markdown] [--output FILE] [--plot FILE.png|.svg|.pdf|.jpg]
                   [--t2s] [--normalize STEPS] [--punct keep|drop] [--preset sacrebleu-zh]
                   [--predictions-format auto|jsonl|text] [--label-check strict|warn|off]
                   [--min-refs N] [--max-refs N] [--items]
                   [--domains any|LIST] [--pred-field F] [--id-field F]
    zheval score   --predictions generated_predictions.jsonl   # no --data: the file carries its references
                   [--pred-field F] [--ref-field F ...] [--id-field F] [--group-field F ...]   # JSONL/CSV/TSV/Parquet
    zheval bleu    REF [REF ...] [-i HYP [HYP ...]] [-b] [-w N] [--format table|json] [--preset sacrebleu-zh]
    zheval rouge   REF [REF ...] [-i HYP [HYP ...]] [--rouge-types ...]   # text files, sacrebleu's conventions
    zheval clean   IN.jsonl -o OUT.jsonl          # prints the drop report; kept texts written as given
                   [--min-chars N] [--max-chars N] [--dedup-threshold X | --no-dedup] [--min-refs N]
                   [--no-normalize | --write-normalized] [--report-json FILE] [--domains any|LIST]
    zheval compare --data D --predictions A.jsonl B.jsonl [C.jsonl ...] [--test bootstrap|ar] [--resamples N]
    zheval ceiling --data D
    zheval sample  --data D --predictions P --k 30 --seed S [--by-metric rougeL] [-o review_sheet.csv] [--key review_key.json]
    zheval agree   --ratings review_sheet.csv --key review_key.json [--format table|json]
    zheval demo                                   # the embedded 小黄鸭 sample
    zheval explain --data D --predictions P [--id ITEM_ID ...] [--worst K | --best K | --sample K --seed S]
                   [--metric rougeL] [--format table|json]   # why each item scored what it did (zheval/cli/explain.py)

Exit codes: 0 ok; 2 bad usage or bad input (the message names ``file:line`` or the id; no traceback). Output files
are written atomically (complete or not at all), and only after everything has been computed, so an error leaves
no partial output; they get the permissions a plain ``open`` would give (``0o666 & ~umask``).

Bounds: ``--bootstrap`` at most `MAX_BOOTSTRAP` resamples, ``--seed`` in 0 … `MAX_SEED`. The 小黄鸭 file
must have `MIN_REFS`–`MAX_REFS` references per
item unless ``--min-refs`` relaxes the lower bound; ``--max-refs K`` scores with the first K references of every
item (items with more are cut and counted, not refused; ``docs/diagnostics.md``).

The package: `commands` (the typer app and its commands), `textfiles` (``bleu``
and ``rouge`` on text files), `options` (checks and
conversions of the option values, how a user error is reported), `files` (the files a command reads
and writes); `main` here.
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

# the other public names of the package are importable from here too (not in __all__)
from ..adapters.extras import MissingExtraError
from .commands import app, ceiling, clean, compare, demo, score  # noqa: F401
from . import agree, sample  # noqa: F401,E402 - register the commands on app
from . import textfiles  # noqa: F401  (registers zheval bleu / zheval rouge on app)
from . import explain  # noqa: F401,E402 - registers the explain command
from . import chrf  # noqa: F401,E402 - registers zheval chrf
from . import bertscore, judge  # noqa: F401,E402 - register zheval bertscore and zheval judge
from . import warmup  # noqa: F401,E402 - registers zheval warmup
from .options import CLI_TOKENIZERS, MAX_BOOTSTRAP, MAX_SEED, Format, UserError  # noqa: F401

__all__ = ["app", "main", "repeated_options", "MAX_BOOTSTRAP", "MAX_SEED", "CLI_TOKENIZERS", "namespace_shadow"]


def namespace_shadow() -> str | None:
    """The folder Python imported as the ``zheval`` package when it is a *namespace package* (a folder without
    ``__init__.py``, e.g. a clone of this repository named ``zheval`` in the current directory), else ``None``.

    Then ``zheval/__init__.py`` was never run: ``from zheval import score`` fails with "cannot import name 'score'
    from 'zheval' (unknown location)" and, with an editable install, submodules load but fail on
    ``from . import __version__``. Checked first thing by `main` (``python -m zheval`` and the console script).
    """
    mod = sys.modules.get("zheval")
    if mod is None or getattr(mod, "__file__", None) is not None:
        return None
    paths = list(getattr(mod, "__path__", None) or [])
    return paths[0] if paths else "(unknown folder)"


def shadow_message(folder: str) -> str:
    """The explanation printed when `namespace_shadow` finds a shadowing folder."""
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

    Exits with the command's exit code (0 ok, 2 usage or input error, or a missing optional extra: one line naming
    it, `MissingExtraError`). First checks that ``zheval`` is the real
    package and not a folder of the current directory imported as a namespace package (`namespace_shadow`).
    """
    folder = namespace_shadow()
    if folder is not None:
        typer.echo(f"zheval: error: {shadow_message(folder)}", err=True)
        raise SystemExit(2)
    args = sys.argv[1:] if argv is None else list(argv)
    repeated = repeated_options(args)
    if repeated:
        typer.echo(f"zheval: error: {repeated}", err=True)
        raise SystemExit(2)
    try:
        app(args=args, prog_name="zheval")
    except MissingExtraError as exc:  # an optional extra is not installed: one line, no traceback
        typer.echo(f"zheval: error: {exc}", err=True)
        raise SystemExit(2) from None


def repeated_options(args: List[str]) -> Optional[str]:
    """The message for a single-valued option given more than once (click would keep the last value silently:
    ``compare -p A B -p C D`` would drop systems A and B), or ``None``. Options that take several values by
    repetition (``multiple``) and counters are not single-valued; arguments after ``--`` are not options."""
    root = typer.main.get_command(app)
    commands = getattr(root, "commands", None)
    if not args or not commands:
        return None
    cmd = commands.get(args[0])
    if cmd is None:
        return None
    single = {}
    for p in cmd.params:
        if getattr(p, "param_type_name", "") == "option" and not p.multiple and not getattr(p, "count", False):
            for name in (*p.opts, *p.secondary_opts):
                single[name] = p
    seen: dict = {}
    for a in args[1:]:
        if a == "--":
            break
        name = a.split("=", 1)[0] if a.startswith("--") else a
        p = single.get(name)
        if p is None:
            continue
        if p.name in seen:
            hint = " (several systems follow one -p: -p A.jsonl B.jsonl C.jsonl)" if p.name == "predictions" else ""
            both = name if seen[p.name] == name else f"{seen[p.name]} / {name}"
            return f"option {both} given twice: give it once{hint}"
        seen[p.name] = name
    return None
