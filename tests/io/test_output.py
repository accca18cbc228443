"""The one output rule (`zheval.io.output`): a symlink's target is written and the link kept (break-it pass 18: the
link was replaced by a regular file, its target left as it was); a FIFO, a character device, a ``/dev/fd/N`` or a
link through ``/proc/self/fd`` is opened and written directly (it was replaced by a regular file, or the write failed
naming a temporary file the user never gave); a new file gets ``open``'s permissions, an existing one keeps its
mode. Nothing here writes to the system's ``/dev``: every path is in ``tmp_path`` or is a pipe of this test."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from zheval.io.output import atomic_write, output_target

pytestmark = pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc/self/fd"),
                                reason="symlinks, FIFOs and /proc/self/fd")

PAYLOAD = "中文报告\n" * 2000  # 26 KB: more than one write, less than a pipe's buffer (64 KB)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_a_symlink_target_is_written_and_the_link_kept(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to("real.json")  # relative, as `ln -s real.json link.json` makes it
    atomic_write(link, PAYLOAD)
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert real.read_text(encoding="utf-8") == PAYLOAD
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640  # the target keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]  # no temporary file left


def test_a_chain_of_links_and_a_dangling_link_write_the_last_target(tmp_path):
    (tmp_path / "sub").mkdir()
    first, second = tmp_path / "a.json", tmp_path / "sub" / "b.json"
    second.symlink_to("new.json")  # dangling: relative to sub/
    first.symlink_to(second)
    old = os.umask(0o027)
    try:
        atomic_write(first, "x")
    finally:
        os.umask(old)
    new = tmp_path / "sub" / "new.json"
    assert first.is_symlink() and second.is_symlink() and new.read_text() == "x"
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o640  # 0o666 & ~umask, as open(path, "w") gives, never 0o600


def test_a_new_file_has_the_permissions_open_gives(tmp_path):
    atomic_write(tmp_path / "r.txt", "x")
    with open(tmp_path / "plain.txt", "w") as fh:
        fh.write("x")
    want = 0o666 & ~_umask()
    assert stat.S_IMODE(os.stat(tmp_path / "r.txt").st_mode) == want
    assert stat.S_IMODE(os.stat(tmp_path / "plain.txt").st_mode) == want


def test_a_fifo_is_written_through_to_its_reader(tmp_path):
    fifo = tmp_path / "ff.json"
    os.mkfifo(fifo)
    code = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"
    reader = subprocess.Popen([sys.executable, "-c", code, str(fifo)], stdout=subprocess.PIPE)
    try:
        atomic_write(fifo, PAYLOAD)
        got, _ = reader.communicate(timeout=30)
    finally:
        if reader.poll() is None:
            reader.kill()
            reader.wait()
    assert got.decode("utf-8") == PAYLOAD
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO, not a regular file in its place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ff.json"]


def _through_pipe(path_of_fd) -> bytes:
    r, w = os.pipe()
    try:
        atomic_write(path_of_fd(w), PAYLOAD)
    finally:
        os.close(w)
    with os.fdopen(r, "rb") as fh:
        return fh.read()


def test_dev_fd_of_a_pipe_gets_the_bytes():
    # `-o >(wc -c)`: the shell passes /dev/fd/63; it failed naming '/dev/fd/.63.xxxx.tmp'
    assert _through_pipe(lambda w: f"/dev/fd/{w}").decode("utf-8") == PAYLOAD


def test_a_link_to_proc_self_fd_gets_the_bytes(tmp_path):
    # what /dev/stdout is (a link to /proc/self/fd/1), made in tmp_path so the system's /dev is never touched
    link = tmp_path / "stdout.json"
    got = _through_pipe(lambda w: (link.symlink_to(f"/proc/self/fd/{w}"), link)[1])
    assert got.decode("utf-8") == PAYLOAD and link.is_symlink()


def test_a_link_to_proc_self_fd_of_a_regular_file_appends_as_stdout_would(tmp_path):
    # `zheval ... -o /dev/stdout >> log`: the log is kept, the report follows it (the log is never replaced)
    log = tmp_path / "log.txt"
    log.write_text("before\n")
    link = tmp_path / "stdout.json"
    with open(log, "a") as fh:
        link.symlink_to(f"/proc/self/fd/{fh.fileno()}")
        atomic_write(link, "report\n")
    assert log.read_text() == "before\nreport\n" and link.is_symlink()


def test_a_character_device_is_written_directly(tmp_path):
    link = tmp_path / "null.json"  # a link to /dev/null: a rename would replace the link, never /dev/null
    link.symlink_to("/dev/null")
    assert output_target(link) == ("/dev/null", True)
    atomic_write(link, PAYLOAD)
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_output_target_decides(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    assert output_target(tmp_path / "f.txt") == (str(tmp_path / "f.txt"), False)
    assert output_target(tmp_path / "new.txt") == (str(tmp_path / "new.txt"), False)
    assert output_target("/dev/stdout")[1] is True  # decided only: nothing is written to /dev here
    with pytest.raises(IsADirectoryError, match="directory"):
        output_target(tmp_path)


def test_errors_name_the_path_as_given_never_a_temporary_file(tmp_path):
    link = tmp_path / "dang.json"
    link.symlink_to("missing/x.json")
    with pytest.raises(FileNotFoundError) as err:
        atomic_write(link, "x")
    assert err.value.filename == f"{link} (a link to {tmp_path / 'missing' / 'x.json'})"
    with pytest.raises(FileNotFoundError) as err:
        atomic_write(tmp_path / "missing" / "r.txt", "x")
    assert err.value.filename == str(tmp_path / "missing" / "r.txt")
    loop = tmp_path / "loop.json"
    loop.symlink_to("loop.json")
    with pytest.raises(OSError) as err:
        atomic_write(loop, "x")
    assert err.value.filename == str(loop)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dang.json", "loop.json"]
