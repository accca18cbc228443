"""`unescaped_text` undoes `escaped_text` (the review sheet's escaping) and refuses a backslash that starts no escape;
`text_digest` is SHA-256 of the UTF-8 bytes (the FIPS 180-2 example digest of "abc", written out)."""

from __future__ import annotations

from zheval.text.controls import escaped_text, text_digest, unescaped_text


def test_unescaping_inverts_the_sheet_escaping():
    for text in ["k\x1b", "k\\x1b", "路径 C:\\temp\r\n第二行", "a\tb\nc", "\u202e\u2028", "\\\\n", "\x9b"]:
        for one_line in (False, True):
            assert unescaped_text(escaped_text(text, one_line=one_line)) == text
    assert unescaped_text("k\\\\x1b") == "k\\x1b" and unescaped_text("k\\x1b") == "k\x1b"
    assert unescaped_text("a\\u202eb\\r") == "a\u202eb\r"


def test_a_backslash_that_starts_no_escape_is_no_sheet_text():
    assert unescaped_text("C:\\qemu") is None and unescaped_text("end\\") is None and unescaped_text("\\x1") is None


def test_text_digest_is_sha256_of_utf8():
    assert text_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
