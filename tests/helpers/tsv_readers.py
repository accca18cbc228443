"""The problems both TSV readers give for one file: the whole-file reader (`zheval.io.read_rows`) and the streaming
one (`zheval.io.chunks.iter_row_chunks`, one row per chunk)."""

from __future__ import annotations

import pytest

from zheval.io import FileFormatError, read_rows
from zheval.io.chunks import iter_row_chunks


def refused_by_both(path) -> list:
    """The whole-file reader's problems (as ``str``), after checking that both readers refuse ``path`` and that the
    streaming reader's problems are the first of them (it stops at the first chunk with a problem)."""
    out = []
    for read in (lambda: read_rows(path), lambda: list(iter_row_chunks(path, chunk_rows=1))):
        with pytest.raises(FileFormatError) as info:
            read()
        out.append([str(p) for p in info.value.problems])
    assert out[1] and out[1] == out[0][:len(out[1])]
    return out[0]
