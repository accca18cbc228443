"""Output files of the adapters: `atomic_write` writes a file completely or not at all, with the permissions a
plain ``open(path, "w")`` would give it (the CLI's reports and plots, `zheval.adapters.duck.write_duck`).
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

__all__ = ["atomic_write"]


_UMASK_LOCK = threading.Lock()


def _new_file_mode(path: Path) -> int:
    """The permission bits ``open(path, "w")`` would leave: an existing file keeps its mode; a new one gets
    ``0o666 & ~umask``."""
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    with _UMASK_LOCK:  # os.umask can only be read by setting it; restore at once, under a lock
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then ``os.replace``.

    A crash or an error leaves either the old file or nothing, never a partial file. The file gets the permissions
    a plain ``open(path, "w")`` would give it: an existing file keeps its mode, a new one gets ``0o666 & ~umask``
    (``tempfile.mkstemp`` alone would make every output ``0o600``).

    Raises:
        OSError: the directory does not exist or is not writable (nothing is written).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    mode = _new_file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            try:
                os.fchmod(fh.fileno(), mode)
            except (AttributeError, OSError):  # no fchmod (Windows): chmod after closing
                pass
        if not hasattr(os, "fchmod"):
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
