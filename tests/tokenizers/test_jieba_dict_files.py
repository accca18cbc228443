"""A ``jieba_dict`` file is read by the one reader of every input file (`zheval.io.read_text`): a UTF-8 BOM removed,
gzip undone, another encoding named with its ``iconv`` line, an empty file refused by name; a valid UTF-8 file is
handed to jieba byte for byte (same hash, same tokens)."""

from __future__ import annotations

import gzip
import hashlib

import pytest

from zheval.io import EmptyFileError, FileFormatError
from zheval.tokenizers import get_tokenizer

# the dictionary replaces jieba's own: with only these entries, 快递柜 is one word and the rest single characters
ENTRIES = "快递柜 100000 n\n在 10 p\n哪 10 r\n"


def test_a_bom_is_removed_and_the_first_entry_matches(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + ENTRIES.encode("utf-8"))
    tok = get_tokenizer("jieba", jieba_dict=str(path))
    assert tok.tokenize("快递柜在哪") == ["快递柜", "在", "哪"]
    # the hash is that of the content without the BOM (what jieba reads)
    assert tok.dict_sha == hashlib.sha256(ENTRIES.encode("utf-8")).hexdigest()


def test_a_valid_utf8_file_keeps_its_hash(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_bytes(ENTRIES.encode("utf-8"))
    tok = get_tokenizer("jieba", jieba_dict=str(path))
    assert tok.dict_sha == hashlib.sha256(ENTRIES.encode("utf-8")).hexdigest()
    assert tok.tokenize("快递柜在哪") == ["快递柜", "在", "哪"]


def test_a_gzip_file_is_decompressed(tmp_path):
    path = tmp_path / "dict.txt.gz"
    path.write_bytes(gzip.compress(ENTRIES.encode("utf-8")))
    assert get_tokenizer("jieba", jieba_dict=str(path)).tokenize("快递柜在哪") == ["快递柜", "在", "哪"]


@pytest.mark.parametrize("content", [b"", b"\n  \n\n"])
def test_an_empty_file_is_refused_by_name(tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(EmptyFileError) as err:
        get_tokenizer("jieba", jieba_dict=str(path))
    assert f"no items in {path}" in str(err.value)
    assert "jieba_dict file is empty or has only blank lines" in str(err.value)


def test_a_gbk_file_is_named_with_the_iconv_line(tmp_path):
    path = tmp_path / "gbk.txt"
    path.write_bytes(ENTRIES.encode("gbk"))
    with pytest.raises(FileFormatError) as err:
        get_tokenizer("jieba", jieba_dict=str(path))
    msg = str(err.value)
    assert f"invalid jieba_dict file {path}" in msg
    assert "GB18030/GBK" in msg and f"iconv -f GB18030 -t UTF-8 {path}" in msg


def test_a_blank_line_inside_is_refused_naming_its_line(tmp_path):
    # before: jieba's own "invalid dictionary entry in FILE at Line 2: " (nothing saying the line is blank)
    path = tmp_path / "blank.txt"
    path.write_bytes("快递柜 100000 n\n\n在 10 p\n   \n哪 10 r\n".encode("utf-8"))
    with pytest.raises(FileFormatError) as err:
        get_tokenizer("jieba", jieba_dict=str(path))
    assert [(p.line, p.message.split(":")[0]) for p in err.value.problems] == [(2, "a blank line"),
                                                                              (4, "a blank line")]
    assert f"{path}:2: a blank line" in str(err.value) and "invalid dictionary entry" not in str(err.value)


@pytest.mark.parametrize("entry, why", [
    ("在\t10 p", "is not a 'word frequency [tag]' entry"),   # jieba: invalid dictionary entry
    ("在  10 p", "is not a 'word frequency [tag]' entry"),   # two spaces: jieba reads the frequency ''
    ("在", "is not a 'word frequency [tag]' entry"),
    ("在 -5 p", "the frequency '-5' is not a whole number"),   # jieba: accepted, then "math domain error" on cut
    ("在 １０ p", "the frequency '１０' is not a whole number"),  # jieba's int(): 10, silently
    ("在 1_0 p", "the frequency '1_0' is not a whole number"),   # jieba's int(): 10, silently
    ("在 +3 p", "the frequency '+3' is not a whole number"),
])
def test_a_line_jieba_misreads_is_refused_naming_its_line(tmp_path, entry, why):
    path = tmp_path / "bad.txt"
    path.write_bytes(f"快递柜 100000 n\n{entry}\n哪 10 r\n".encode("utf-8"))
    with pytest.raises(FileFormatError) as err:
        get_tokenizer("jieba", jieba_dict=str(path))
    assert f"{path}:2: {entry!r}" in str(err.value) and why in str(err.value), str(err.value)
    assert len(err.value.problems) == 1


def test_crlf_line_ends_and_a_tagless_entry_are_entries(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes("快递柜 100000\r\n在 10 p\r\n哪 10 r\r\n".encode("utf-8"))
    assert get_tokenizer("jieba", jieba_dict=str(path)).tokenize("快递柜在哪") == ["快递柜", "在", "哪"]


def test_a_file_whose_every_frequency_is_0_is_refused_naming_each_line(tmp_path):
    # break-it pass 6: jieba takes log(sum of the frequencies) = log(0): "ValueError: math domain error"
    path = tmp_path / "zero.txt"
    path.write_bytes("今天 00\n天气 0\n".encode("utf-8"))
    with pytest.raises(FileFormatError) as err:
        get_tokenizer("jieba", jieba_dict=str(path)).tokenize("今天天气")
    assert [p.line for p in err.value.problems] == [1, 2]
    assert f"{path}:1: '今天 00': frequency 0, as every entry of the file has" in str(err.value)
    assert "math domain error" in str(err.value)  # named as what jieba would do, not raised by it
    one = tmp_path / "one_zero.txt"  # one entry of frequency 0 beside others is an entry (jieba reads it)
    one.write_bytes("快递柜 0 n\n在 10 p\n哪 10 r\n".encode("utf-8"))
    assert get_tokenizer("jieba", jieba_dict=str(one)).tokenize("快递柜在哪")
