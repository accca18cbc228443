"""Where the evaluate module scripts are, after ``pip install zheval`` and in a clone: `metric_path`.

``evaluate.load`` takes a Hub id or a local path. A clone has the scripts in ``metrics/<name>/``; a wheel (``pip
install zheval``, from PyPI, a file or a git URL) carries the very same files as package data,
``zheval/adapters/evaluate_scripts/<name>/<name>.py``, copied from ``metrics/`` when the wheel is built (the
repository's ``setup.py``). So, wherever zheval is installed::

    import evaluate, zheval
    rouge = evaluate.load(zheval.metric_path("chinese_rouge"))

loads the script the Hub Space publishes, without a clone and without the network.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["METRICS", "metric_path"]

METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf", "chinese_bertscore")
"""The evaluate modules zheval ships (each a folder holding ``<name>.py``)."""

_PACKAGED = Path(__file__).resolve().parent / "evaluate_scripts"
_CLONE = Path(__file__).resolve().parent.parent.parent / "metrics"


def metric_path(name: str) -> str:
    """The folder of the evaluate module ``name``, for ``evaluate.load(metric_path(name))``.

    Args:
        name: one of `METRICS` (``"chinese_rouge"``, ``"chinese_bleu"``, ``"chinese_chrf"``,
            ``"chinese_bertscore"``, which needs the ``zheval[bertscore]`` extra when it computes); the Hub-style
            ``"zheval/chinese_rouge"`` is accepted too.

    Returns:
        An absolute path (``str``) of a folder holding ``<name>.py``: the installed package's copy
        (``zheval/adapters/evaluate_scripts/<name>``), else, in a clone, ``metrics/<name>``.

    Raises:
        ValueError: an unknown name (the message lists `METRICS`).
        FileNotFoundError: neither place holds the script (an install made without the build step that copies it:
            the message says how to reinstall).
    """
    if not isinstance(name, str) or name.rsplit("/", 1)[-1] not in METRICS:
        raise ValueError(f"metric_path: unknown evaluate module {name!r}; zheval ships {', '.join(METRICS)}")
    name = name.rsplit("/", 1)[-1]
    for folder in (_PACKAGED / name, _CLONE / name):
        if (folder / f"{name}.py").is_file():
            return str(folder)
    raise FileNotFoundError(
        f"metric_path: the evaluate script {name}.py is neither in the installed package ({_PACKAGED / name}) nor in "
        f"a clone's metrics/ ({_CLONE / name}); reinstall zheval from a wheel or sdist built by its setup.py "
        "(pip install zheval, or pip install git+<repository URL>)"
    )
