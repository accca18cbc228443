"""The one encoding rule of every input file: UTF-8, with or without a BOM; everything else refused with one
message for the whole file that names the encoding it looks like (UTF-16/UTF-32 with or without a byte-order mark,
GB18030/GBK) and how to re-save it (`encoding_problem`), or, for a file that is mostly UTF-8, one problem per
line that is not (`decode`).
"""

from __future__ import annotations

from .problems import Problem

__all__ = ["UTF8_BOM", "INNER_BOM", "lone_surrogate", "encoding_problem", "decode"]

UTF8_BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark, accepted at the start of a file and removed."""

INNER_BOM = ("a byte-order mark (U+FEFF) starts this line, inside the file: files joined together (the second one's "
             "BOM is then in the middle)?")
"""What every line door says of a line that starts with a byte-order mark after the file's own (`cat a b`): the
JSON Lines door (`zheval.io.jsonl.json_error_message`, then `` remove it``) and the text-file doors
(`zheval.cli.textfiles.read_segments`)."""


def lone_surrogate(text: str) -> str | None:
    """``None`` if ``text`` is valid Unicode text, else where its first lone surrogate is (a JSON ``\\ud800``-style
    escape without its pair decodes to one; Arrow, files and terminals cannot encode it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"contains a lone surrogate ({text[exc.start:exc.end]!r} at position {exc.start}), which is not valid "
                "Unicode text (a \\uD800-\\uDFFF escape without its pair)")
    return None


def _nul_pattern(data: bytes) -> str | None:
    """``"UTF-16 LE"``/``"UTF-16 BE"``/``"UTF-32 LE"``/``"UTF-32 BE"`` when the NUL bytes of ``data`` fall where
    those encodings put them for ASCII text (JSONL is mostly ASCII punctuation and keys; for text that is mostly
    Chinese, with few ASCII characters: NULs mostly on one byte parity, in a sample that is not UTF-8 but decodes as
    that UTF-16), else ``None``."""
    sample = data[:4096]
    n = len(sample)
    if n < 4 or b"\x00" not in sample:
        return None
    zeros = [sum(1 for i in range(r, n, 4) if sample[i] == 0) for r in range(4)]
    per = max(1, n // 4)
    frac = [z / per for z in zeros]
    if frac[1] > 0.4 and frac[2] > 0.4 and frac[3] > 0.4 and frac[0] < 0.2:
        return "UTF-32 LE"
    if frac[0] > 0.4 and frac[1] > 0.4 and frac[2] > 0.4 and frac[3] < 0.2:
        return "UTF-32 BE"
    odd, even = (frac[1] + frac[3]) / 2, (frac[0] + frac[2]) / 2
    if odd > 0.25 and even < 0.05:
        return "UTF-16 LE"
    if even > 0.25 and odd < 0.05:
        return "UTF-16 BE"
    # mostly-Chinese text has few ASCII characters, hence few NULs: NULs mostly on one parity (at least 3 to 1; the
    # other parity holds the characters U+xx00), in a sample that is not UTF-8 but decodes as that UTF-16 (cut to
    # whole code units), is UTF-16 too
    even_nul, odd_nul = zeros[0] + zeros[2], zeros[1] + zeros[3]
    cut = sample[:n - n % 2]
    for name, codec, here, there in (("UTF-16 LE", "utf-16-le", odd_nul, even_nul),
                                     ("UTF-16 BE", "utf-16-be", even_nul, odd_nul)):
        if here and here >= 3 * there and _decodes(cut, codec) and not _decodes(sample, "utf-8"):
            return name
    return None


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError as exc:
        # a multi-byte sequence cut at the end of the sample is not an error
        return exc.start >= len(data) - 3 and codec == "utf-8"
    return True


_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE", "FF FE 00 00"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE", "00 00 FE FF"),
    (b"\xff\xfe", "UTF-16 LE", "FF FE"),
    (b"\xfe\xff", "UTF-16 BE", "FE FF"),
)


def encoding_problem(data: bytes, path: str = "FILE") -> str | None:
    """One message for a whole file that is not UTF-8 but clearly another encoding, else ``None``.

    Recognised: UTF-16 and UTF-32 with a byte-order mark (``FF FE``, ``FE FF``, ``FF FE 00 00``, ``00 00 FE FF``)
    or without one (NUL bytes at every second / every fourth byte, as ASCII characters take in those encodings);
    and GB18030/GBK (the whole file decodes as GB18030, is not UTF-8, and most of its non-ASCII lines are not UTF-8).
    A UTF-8 BOM is not a problem (it is accepted and removed). The message says which encoding it looks like and
    how to re-save the file as UTF-8, instead of one "not valid UTF-8" problem per line.
    """
    for bom, name, hexes in _BOMS:
        if data.startswith(bom):
            return (f"looks like {name} (byte-order mark {hexes}), not UTF-8: re-save it as UTF-8 "
                    f"(e.g. iconv -f {name.split()[0]} -t UTF-8 {path} > {path}.utf8)")
    kind = _nul_pattern(data)
    if kind is not None:
        return (f"looks like {kind} without a byte-order mark (NUL bytes between the characters), not UTF-8: "
                f"re-save it as UTF-8 (e.g. iconv -f {kind.replace(' ', '')} -t UTF-8 {path} > {path}.utf8)")
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    try:
        data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    non_ascii = bad = 0
    for raw in data.split(b"\n"):
        if raw.isascii():
            continue
        non_ascii += 1
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            bad += 1
    if non_ascii and bad * 2 >= non_ascii:
        return (f"is not UTF-8 ({bad} of {non_ascii} lines with non-ASCII text are not); it looks like GB18030/GBK "
                f"(a common Chinese encoding): re-save it as UTF-8 (e.g. iconv -f GB18030 -t UTF-8 {path} > {path}.utf8)")
    return None


def decode(data: bytes, name: str, problems: list) -> str | None:
    """The text of a file's bytes under the one encoding rule, or ``None`` with the problems appended.

    Args:
        data: the file's bytes (already decompressed). name: the file's name in messages.
        problems: a list the [`Problem`][zheval.io.problems.Problem] s are appended to: one for the whole file when
            it looks like another encoding (`encoding_problem`), else one per line that is not valid UTF-8
            (``file:line: not valid UTF-8 (byte N of the line: b'…')``, N counted from 1 at the start of the line).

    Returns:
        The text, a UTF-8 BOM removed; line ends untouched.
    """
    if data.startswith(UTF8_BOM):
        data = data[3:]
    enc = encoding_problem(data, name)
    if enc is not None:
        problems.append(Problem(name, 0, None, enc))
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(Problem(name, lineno, None, f"not valid UTF-8 (byte {exc.start + 1} of the line: "
                                                         f"{raw[exc.start:exc.start + 4]!r})"))
    return None
