"""Optional extras: import a package that only one door needs, or fail with one line naming the extra.

Every door whose package is an optional extra of ``pyproject.toml`` (``html``: jinja2, ``plot``: matplotlib,
``space``: gradio, ``trainer``: transformers/torch, ``ray``, ``spark``, ``docs``) imports it through
`require_extra`, so a missing package is a `MissingExtraError` whose message is one line: what needs
it, the extra, and the pip command. The ``zheval`` command prints that line and exits 2 (no traceback).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["MissingExtraError", "require_extra"]


class MissingExtraError(ModuleNotFoundError):
    """An optional package is not installed. ``extra`` is the pyproject extra that installs it; the message is
    one line: ``<purpose> needs <package> (the '<extra>' extra): pip install "zheval[<extra>]"``."""

    def __init__(self, package: str, extra: str, purpose: str):
        super().__init__(f'{purpose} needs {package} (the \'{extra}\' extra): pip install "zheval[{extra}]"',
                         name=package)
        self.package = package
        self.extra = extra
        self.purpose = purpose


def require_extra(module: str, *, extra: str, purpose: str) -> ModuleType:
    """``importlib.import_module(module)``, or `MissingExtraError` when the package is not installed.

    Args:
        module: the module to import (``"jinja2"``, ``"ray.data"``).
        extra: the pyproject extra that installs it (``"html"``, ``"ray"``).
        purpose: what needs it, for the message (``"the HTML report (--html)"``).

    Raises:
        MissingExtraError: the top-level package of ``module`` is not installed. An ``ImportError`` raised while
        importing an installed package (a broken install) propagates unchanged.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        if exc.name is not None and exc.name.split(".")[0] == top:
            raise MissingExtraError(top, extra, purpose) from None
        raise
