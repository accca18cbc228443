"""The zheval version (``zheval.__version__``): one place, importable by every layer without importing the package's
public API. It is part of every signature and of every content-keyed tokenizer fingerprint, beside `code_digest` (the
package's source), so a persisted cache never outlives a change of the code that filled it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Optional

__version__ = "0.1.0"

_CODE_DIGEST: Optional[str] = None


def code_digest() -> str:
    """sha256 (first 16 hex digits) of every ``.py`` file of the installed ``zheval`` package: each relative path
    (POSIX) and its bytes, in path order. Content-keyed caches that outlive the process (the ``datasets`` map cache
    of `zheval.adapters.duck.statistics`, keyed by the tokenizer's fingerprint) change with it, so code installed
    from a commit under an unchanged ``__version__`` never reuses numbers computed by other code. Read once per
    process (the package's files do not change under a running interpreter; ~2.5 MB, a few ms)."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        root = Path(__file__).resolve().parent
        h = hashlib.sha256()
        for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
            rel = path.relative_to(root).as_posix().encode()
            data = path.read_bytes()
            h.update(b"%d:%s%d:" % (len(rel), rel, len(data)))
            h.update(data)
        _CODE_DIGEST = h.hexdigest()[:16]
    return _CODE_DIGEST
