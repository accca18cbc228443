"""Every output of the ``zheval`` command goes where its path leads (break-it pass 18): a symlink's target is written
and the link kept (``-o``, ``--plot``, ``--html``, ``clean -o`` / ``--report-json``, ``sample -o`` / ``--key``,
``--items-out``: each replaced the link by a regular file and left the target as it was); a FIFO's reader, a
``/dev/fd/N`` pipe (``-o >(wc -c)``) and a link through ``/proc/self/fd`` (what ``/dev/stdout`` is) receive the
bytes (the FIFO was replaced and its reader hung; ``/dev/fd/63`` failed naming ``/dev/fd/.63.xxxx.tmp``). The
"wrote X" line names the path as typed. Nothing here writes to the system's ``/dev``: every path is in
``tmp_path`` or is a pipe of this test."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl, write_sample_files

pytestmark = pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc/self/fd"),
                                reason="symlinks, FIFOs and /proc/self/fd")


@pytest.fixture()
def files(tmp_path):
    return write_sample_files(tmp_path)


def _score(files, *extra):
    data, preds, _, _ = files
    return run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", *extra)


def _link_to_old(tmp_path, name, real_name):
    real = tmp_path / real_name
    real.write_text("old", encoding="utf-8")
    link = tmp_path / name
    link.symlink_to(real_name)
    return link, real


@pytest.mark.parametrize("flag, name", [("-o", "r.json"), ("--plot", "p.png"), ("--html", "page.html")])
def test_score_writes_a_symlink_target_and_keeps_the_link(files, tmp_path, flag, name):
    link, real = _link_to_old(tmp_path, name, "real-" + name)
    res = _score(files, "-f", "json", flag, link)
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_bytes() != b"old" and len(real.read_bytes()) > 100
    if flag == "-o":
        assert json.loads(real.read_text(encoding="utf-8"))["groups"][0]["n"] == 3
    assert f"wrote {link}" in res.stderr  # the path as typed


def test_clean_and_sample_write_symlink_targets(files, tmp_path):
    data, preds, _, _ = files
    out, out_real = _link_to_old(tmp_path, "c.jsonl", "c-real.jsonl")
    js, js_real = _link_to_old(tmp_path, "c.json", "c-real.json")
    res = run("clean", data, "-o", out, "--report-json", js, "-q")
    assert res.exit_code == 0, res.output
    assert out.is_symlink() and js.is_symlink()
    assert len(out_real.read_text(encoding="utf-8").splitlines()) == 3 and "near_duplicate" in js_real.read_text()
    sheet, sheet_real = _link_to_old(tmp_path, "s.csv", "s-real.csv")
    key, key_real = _link_to_old(tmp_path, "k.json", "k-real.json")
    res = run("sample", "-d", data, "-p", preds, "--k", 3, "-o", sheet, "--key", key, "-q", "--force")
    assert res.exit_code == 0, res.output
    assert sheet.is_symlink() and key.is_symlink()
    assert sheet_real.read_text(encoding="utf-8-sig").count("\n") >= 4
    assert json.loads(key_real.read_text(encoding="utf-8"))


def _reader(path):
    """A process that reads the FIFO ``path`` to its end and prints what it read."""
    code = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"
    return subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE)


def test_a_fifo_output_reaches_its_reader(files, tmp_path):
    want = _score(files, "-f", "json").stdout.encode("utf-8")
    fifo = tmp_path / "ff.json"
    os.mkfifo(fifo)
    reader = _reader(fifo)
    try:
        res = _score(files, "-f", "json", "-o", fifo)
        got, _ = reader.communicate(timeout=60)
    finally:
        if reader.poll() is None:  # the FIFO replaced by a regular file: its reader waits forever
            reader.kill()
            reader.wait()
    assert res.exit_code == 0 and f"wrote {fifo}" in res.stderr, res.output
    assert got == want
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _pipe_output(files, path_of_fd) -> tuple:
    r, w = os.pipe()
    try:
        res = _score(files, "-f", "json", "-o", path_of_fd(w))
    finally:
        os.close(w)
    with os.fdopen(r, "rb") as fh:
        return res, fh.read()


def test_dev_fd_and_proc_self_fd_outputs_get_the_report(files, tmp_path):
    want = _score(files, "-f", "json").stdout.encode("utf-8")
    res, got = _pipe_output(files, lambda w: f"/dev/fd/{w}")  # -o >(wc -c)
    assert res.exit_code == 0 and f"wrote /dev/fd/" in res.stderr and ".tmp" not in res.output, res.output
    assert got == want
    link = tmp_path / "stdout.json"  # what /dev/stdout is, made here so the system's /dev is never touched
    res, got = _pipe_output(files, lambda w: (link.symlink_to(f"/proc/self/fd/{w}"), link)[1])
    assert res.exit_code == 0 and f"wrote {link}" in res.stderr, res.output
    assert got == want and link.is_symlink()


@pytest.fixture()
def records(tmp_path):
    rows = [{"id": f"g{i}", "prediction": "今天天气很好" * (i + 1), "references": ["今天天气不错", "天气很好"]}
            for i in range(5)]
    return write_jsonl(tmp_path / "rows.jsonl", rows)


def test_items_out_follows_a_link_and_streams_to_a_fifo(records, tmp_path):
    link = tmp_path / "items.jsonl"
    link.symlink_to("out/items-real.jsonl")  # dangling: the file is new
    (tmp_path / "out").mkdir()
    res = run("score", "-p", records, "--stream", "--items-out", link, "-q")
    assert res.exit_code == 0, res.output
    real = tmp_path / "out" / "items-real.jsonl"
    assert link.is_symlink() and [json.loads(x)["id"] for x in real.read_text(encoding="utf-8").splitlines()] == \
        [f"g{i}" for i in range(5)]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["items-real.jsonl"]  # no .partial left
    res = run("score", "-p", records, "--stream", "--items-out", link, "-q")  # the target exists now: never overwritten
    assert res.exit_code == 2 and "exists" in res.stderr and real.read_text(encoding="utf-8").count("\n") == 5
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    reader = _reader(fifo)
    try:
        res = run("score", "-p", records, "--stream", "--items-out", fifo, "-q")
        got, _ = reader.communicate(timeout=60)
    finally:
        if reader.poll() is None:
            reader.kill()
            reader.wait()
    assert res.exit_code == 0, res.output
    assert got.decode("utf-8") == real.read_text(encoding="utf-8") and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_items_out_parquet_to_a_fifo_is_refused_by_name(records, tmp_path):
    fifo = tmp_path / "pipe.parquet"
    os.mkfifo(fifo)
    res = run("score", "-p", records, "--stream", "--items-out", fifo, "-q")
    assert res.exit_code == 2, res.output
    assert f"{fifo} is not a regular file" in res.stderr and "Parquet" in res.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
