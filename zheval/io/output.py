"""The one rule for writing an output file, for every door that writes one (the CLI's reports, plots, sheets and
cleaned data through `atomic_write`; the per-item file of `zheval.compute.batches.ItemWriter` through
`output_target`).

A path is written where it leads, never in place of what it names:

- a symlink is followed (every link of a chain; a dangling one to where it points): the file it points to is
  written, and the link stays a link;
- a path that exists and is not a regular file -- a FIFO, a character device (``/dev/null``, a terminal), a
  ``/dev/fd/N`` or ``/dev/stdout`` (a link through ``/proc/*/fd``, whatever it leads to) -- is opened and written
  directly: no temporary file, no rename (a rename would put a regular file in its place);
- a directory is refused (`IsADirectoryError` naming the path as given);
- anything else, a regular file or a new one, is written atomically: a temporary file beside it, then
  ``os.replace``, with the permissions a plain ``open(path, "w")`` gives (an existing file keeps its mode, a new
  one gets ``0o666 & ~umask``).

An ``OSError`` names the path as given (and the file it leads to, when a link leads elsewhere), never a temporary
file the user did not name.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import threading
from typing import Tuple, Union

__all__ = ["atomic_write", "output_target"]

_UMASK_LOCK = threading.Lock()
_MAX_LINKS = 40  # the kernel's own bound on a chain of symlinks (ELOOP beyond it)


def _in_proc(path: str) -> bool:
    """Whether the directory holding ``path`` is under ``/proc`` (``/proc/self/fd``, ``/dev/fd`` -> it): its links
    are open files of a process, not names of files."""
    parent = os.path.realpath(os.path.dirname(path) or ".")
    return parent == "/proc" or parent.startswith("/proc/")


def output_target(path: Union[str, os.PathLike]) -> Tuple[str, bool]:
    """Where writing ``path`` goes: ``(target, direct)``. ``target`` is ``path`` with its symlinks followed (the
    file a link points to, existing or not); ``direct`` is true when ``target`` must be opened and written in place
    (it exists and is not a regular file, or it is an open file of a process, ``/dev/fd/N``, ``/dev/stdout``), false
    when it is a regular file or a new one (written atomically).

    Raises:
        IsADirectoryError: ``path`` is a directory. OSError: a symlink loop (each naming ``path`` as given).
    """
    given = os.fspath(path)
    try:
        st = os.stat(given)
    except FileNotFoundError:
        st = None
    except OSError as exc:  # a loop of links, a component that is not a directory ...
        raise _named(exc, given, given) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "output path is a directory", given)
    target = given
    for _ in range(_MAX_LINKS):
        if not os.path.islink(target):
            break
        if _in_proc(target):  # /dev/stdout, /dev/fd/N: the open file itself, whatever it is
            return target, True
        target = os.path.join(os.path.dirname(target), os.readlink(target))
    else:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), given)
    direct = st is not None and not stat.S_ISREG(st.st_mode)
    return target, direct


def _new_file_mode(path: str) -> int:
    """The permission bits ``open(path, "w")`` would leave: an existing file keeps its mode; a new one gets
    ``0o666 & ~umask``."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    with _UMASK_LOCK:  # os.umask can only be read by setting it; restore at once, under a lock
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def _named(exc: OSError, given: str, target: str) -> OSError:
    """``exc`` again, naming the path as given (and where it leads, when elsewhere) instead of a temporary file."""
    name = given if target == given else f"{given} (a link to {target})"
    out = type(exc)(exc.errno, exc.strerror or str(exc), name) if exc.errno is not None else type(exc)(f"{name}: {exc}")
    return out


def _write_direct(target: str, payload: bytes) -> None:
    """Open ``target`` (a FIFO, a device, an open file of a process) and write ``payload``: appended, as a process
    writing to that stream would (a ``/dev/stdout`` redirected ``>> log`` keeps the log)."""
    fd = os.open(target, os.O_WRONLY | os.O_APPEND)
    with os.fdopen(fd, "wb") as fh:
        fh.write(payload)


def _write_replacing(target: str, payload: bytes) -> None:
    directory = os.path.dirname(target) or "."
    mode = _new_file_mode(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            try:
                os.fchmod(fh.fileno(), mode)
            except (AttributeError, OSError):  # no fchmod (Windows): chmod after closing
                pass
        if not hasattr(os, "fchmod"):
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write(path: Union[str, os.PathLike], data: Union[str, bytes]) -> None:
    """Write ``data`` (``str``: as UTF-8) to ``path`` by the module's rule: a regular file or a new one completely
    or not at all (a temporary file beside it, then ``os.replace``: a crash or an error leaves the old file or
    nothing, never a partial file), with the permissions a plain ``open(path, "w")`` would give it (an existing file
    keeps its mode, a new one gets ``0o666 & ~umask``; ``tempfile.mkstemp`` alone would make every output
    ``0o600``); a symlink's target written, the link kept; a FIFO, a device, ``/dev/fd/N`` or ``/dev/stdout``
    written directly.

    Raises:
        IsADirectoryError: ``path`` is a directory. OSError: the directory does not exist or is not writable
            (nothing is written), naming ``path`` as given.
    """
    given = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    target, direct = output_target(given)
    try:
        if direct:
            _write_direct(target, payload)
        else:
            _write_replacing(target, payload)
    except OSError as exc:
        raise _named(exc, given, target) from None
