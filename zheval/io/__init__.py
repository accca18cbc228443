"""Reading input files, for every door (layer 1: the standard library only; pyarrow when a Parquet file is read).

One reader for JSONL, CSV, TSV (no quoting), Parquet and plain text, each also gzip-compressed
([`rows`][zheval.io.rows], `source`); one encoding rule (UTF-8 with or without a BOM; UTF-16/UTF-32
and GB18030 recognised and named: `encoding`); one line rule (`lines`); one comma-list rule (`lists`: empty entries refused); one rule for what cannot stand for a list of texts (`text_lists`: a DataFrame, a mapping, a set); one rule for a reference that is a list written as
text (`list_text`: scored as written, counted and said); one rule for the lines of a text file written as JSON
string literals (`json_strings`: refused when all are, counted and said when some have escapes); one rule for
field names and ids ([`fields`][zheval.io.fields]); one number rule
(`numbers`: ratings, scores, numbers in records); one ``file:line`` error style ([`problems`][zheval.io.problems]). The
小黄鸭 loader and predictions, the records door, the text-file commands, ``--terms`` and the review sheets of
``zheval agree`` all read through it.
"""

from .encoding import decode, encoding_problem, lone_surrogate
from .fields import (FIELD_FAMILIES, ID_FIELD, PREDICTION_FIELDS, REFERENCE_FIELDS, UniqueIds, group_spaces_problem, id_field_of, id_value, near_id_problem,
                     field_arguments, pair_fields, prediction_field, predictions_arguments, spaced_names)
from .jsonl import (JsonIntegerTooLong, JsonTooDeep, duplicate_key_problem, json_document_problem, json_error_message, json_like, json_line_or_problem,
                    jsonl_rows, parse_json_line, text_line_problem)
from .lines import line_end_problem, split_lines
from .json_strings import (QUOTED_SHARE, JsonStringLines, json_escaped, json_escapes_message, json_string, json_string_check,
                           json_strings_message, quoted_counted, shown_text)
from .list_text import LIST_TEXT_REMEDY, RESPONSES_REMEDY, list_text, list_text_message
from .lists import empty_entry_message, split_entries
from .numbers import NUMBER_GRAMMAR, JsonNumber, NumberFormatError, number_reason, parse_number
from .problems import EMPTY_FILE, MAX_REPORTED, EmptyFileError, FileFormatError, Problem, type_name
from .rows import ROW_FORMATS, RowFile, read_lines, read_rows, read_text, row_format
from .source import GivenPath, existing_file, format_suffix, given_path, read_bytes
from .table import csv_rows, parquet_rows, tsv_rows

__all__ = [
    "decode", "encoding_problem", "lone_surrogate",
    "FIELD_FAMILIES", "ID_FIELD", "PREDICTION_FIELDS", "REFERENCE_FIELDS", "UniqueIds", "group_spaces_problem", "id_field_of", "id_value", "near_id_problem",
    "pair_fields", "prediction_field", "spaced_names", "field_arguments", "predictions_arguments",
    "JsonIntegerTooLong", "JsonTooDeep", "duplicate_key_problem", "json_document_problem", "json_error_message", "json_like", "json_line_or_problem",
    "jsonl_rows", "parse_json_line", "text_line_problem",
    "line_end_problem", "split_lines",
    "JsonStringLines", "json_escaped", "json_escapes_message", "json_string", "json_string_check", "json_strings_message",
    "QUOTED_SHARE", "quoted_counted", "shown_text",
    "LIST_TEXT_REMEDY", "RESPONSES_REMEDY", "list_text", "list_text_message",
    "empty_entry_message", "split_entries",
    "NUMBER_GRAMMAR", "JsonNumber", "NumberFormatError", "number_reason", "parse_number",
    "EMPTY_FILE", "MAX_REPORTED", "EmptyFileError", "FileFormatError", "Problem", "type_name",
    "ROW_FORMATS", "RowFile", "read_lines", "read_rows", "read_text", "row_format",
    "GivenPath", "existing_file", "format_suffix", "given_path", "read_bytes",
    "csv_rows", "parquet_rows", "tsv_rows",
]
