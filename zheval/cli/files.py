"""The files of a command: the 小黄鸭 data file loaded with the ``file:line`` of every item, output paths checked
before any work (their directory exists, none is an input or another output), and the report rendered and written
(atomically, after everything has been computed), with its plot.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


from ..text.terminal import terminal_json
from .options import Format, UserError, echo

__all__ = ["check_output_dir", "check_output_format", "check_jsonl_output", "check_paths", "distinct_inputs", "distinct_texts", "plot_format", "emit_report",
           "load_data"]


def check_output_dir(*paths: Optional[Path]) -> None:
    """Raise `UserError` for an output path whose directory does not exist or which is
    a directory (``None`` paths are skipped); the directory is said as typed (``./out/d.json``: ``./out``)."""
    for p in paths:
        if p is not None:
            parent = p.parent if str(p.parent) else Path(".")
            if not parent.is_dir():
                raise UserError(f"output directory does not exist: {os.path.dirname(str(p)) or parent}")
            if p.is_dir():
                raise UserError(f"output path is a directory: {p}")


#: What an ``--output`` extension names that no ``-f`` writes: JSON Lines, the tables zheval's readers read by their
#: extension, YAML; ``.gz`` (gzip) is refused apart (`check_output_format`, `check_jsonl_output`).
OTHER_FORMATS = {".jsonl": "JSON Lines", ".ndjson": "JSON Lines", ".csv": "CSV", ".tsv": "TSV", ".parquet": "Parquet",
                 ".pq": "Parquet", ".yaml": "YAML", ".yml": "YAML", ".html": "HTML", ".htm": "HTML"}
_KINDS = {"table": "text table", "json": "JSON", "markdown": "Markdown"}
_WRITES = {"table": ("the text table", ".txt"), "json": ("one indented JSON document", ".json"),
           "markdown": ("a Markdown table", ".md")}


def _unzipped(output: Path) -> tuple:
    """``(ext, typed, gz)``: the extension of the name without a trailing ``.gz``, lower-case and as typed, and
    whether the name ends in ``.gz``."""
    gz = output.name.lower().endswith(".gz")
    typed = Path(output.name[:-3] if gz else output.name).suffix
    return typed.lower(), typed, gz


def check_output_format(output: Optional[Path], fmt, html: bool = False,
                        writes: tuple = ("table", "json", "markdown")) -> None:
    """Refuse a ``--output`` file whose extension says another format than ``-f`` writes into it
    (``--output d.json`` without ``-f json`` wrote the text table, saying only ``wrote d.json``), one whose extension
    names a format no ``-f`` writes (``.csv``, ``.tsv``, ``.parquet``, ``.yaml``, ``.jsonl``, ``.html``: written as
    the table or JSON under that name), and one ending in ``.gz`` (every zheval reader takes ``.gz`` for gzip; the
    report is written uncompressed), whose name without ``.gz`` is checked first. A name without an extension, or one
    of no format here, is taken as it is. ``html``: the command has ``--html`` (named for a ``.html`` file);
    ``writes``: the command's ``-f`` choices (``zheval agree``'s sheet mode: table and json).

    Raises:
        UserError: naming ``--output`` as typed, what it would hold, and the ``-f`` or the name to use instead."""
    if output is None:
        return
    # what an extension promises: the -f format it holds (None: no -f writes it)
    formats = {".txt": "table", ".json": "json", ".md": "markdown", ".markdown": "markdown",
               **{ext: None for ext in OTHER_FORMATS}}
    fmt = getattr(fmt, "value", fmt)
    held, own = _WRITES.get(fmt, (fmt, "otherwise"))
    ext, typed, gz = _unzipped(output)
    if ext in formats and formats[ext] != fmt:
        wants = formats[ext]
        if wants in writes:
            fix = f"add -f {wants}"
        elif ext in (".html", ".htm"):
            fix = f"for the HTML report use --html {output}" if html else "-f writes no HTML"
        elif ext in (".jsonl", ".ndjson"):
            fix = "-f writes no JSON Lines" if fmt != "json" else "-f json writes one JSON document, not JSON Lines"
        else:
            said = ", ".join(f"-f {f} {_WRITES[f][0]} ({_WRITES[f][1]})" for f in writes)
            kind = OTHER_FORMATS.get(ext) or _KINDS[wants]
            raise UserError(f"--output {output}: zheval writes no {kind} file ({typed}); it writes what -f "
                            f"says: {said}; name the file {own} for -f {fmt}")
        raise UserError(f"--output {output} holds {held} (-f {fmt}): {fix}, or name the file {own}")
    if gz:
        raise UserError(f"--output {output}: zheval writes no gzip ({output.name[-3:]}), and every zheval reader "
                        f"takes a .gz file for gzip; -f {fmt} writes {held} uncompressed: name the file "
                        f"{str(output)[:-3]} (and compress it afterwards if you need to)")


def check_jsonl_output(flag: str, output: Optional[Path], command: str) -> None:
    """Refuse an output file of JSON Lines (``zheval clean -o``, ``zheval judge -o``) whose name says another format:
    ``.csv``, ``.tsv``, ``.parquet``/``.pq`` (zheval's readers read such a file as that table: the JSON Lines written
    there would not read back), ``.yaml``/``.yml``, ``.md``, ``.html``, or ``.gz`` (read as gzip; the file is written
    uncompressed). ``.jsonl``, ``.json``, ``.ndjson``, ``.txt`` and other names are taken as they are.

    Raises:
        UserError: naming ``flag`` and the file as typed, the extension, and that JSON Lines is written."""
    if output is None:
        return
    ext, typed, gz = _unzipped(output)
    others = {**OTHER_FORMATS, ".md": "Markdown", ".markdown": "Markdown"}
    if ext in others and others[ext] != "JSON Lines":
        raise UserError(f"{flag} {output}: zheval {command} writes JSON Lines, not {others[ext]} ({typed}); name the "
                        f"file .jsonl")
    if gz:
        raise UserError(f"{flag} {output}: zheval {command} writes no gzip (.gz), and every zheval reader takes a .gz "
                        f"file for gzip; it writes JSON Lines uncompressed: name the file {str(output)[:-3]} (and "
                        "compress it afterwards if you need to)")


def _same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` name the same file: equal after resolving symlinks and ``..``, or (both existing)
    the same inode (hard links, case-insensitive file systems)."""
    try:
        if a.resolve() == b.resolve():
            return True
    except (OSError, RuntimeError):
        pass
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: Path, directory: Path) -> bool:
    """True when ``path`` is inside ``directory`` (at any depth), after resolving symlinks and ``..`` of both."""
    try:
        return path.resolve().is_relative_to(directory.resolve())
    except (OSError, RuntimeError):
        return False


def check_paths(inputs, outputs: dict, dirs: Optional[dict] = None) -> None:
    """Refuse an output path that is one of the command's input files (or another output): writing it would
    destroy the input. ``inputs``/``outputs`` map the option name to a ``Path`` (or ``None`` when not given);
    ``inputs`` may also be a list of ``(option name, Path or None)`` pairs (one option given several files, such
    as ``REF...`` or ``-i``); an input ``-`` (standard input) is skipped. ``dirs`` maps the name of an input
    directory -- a model (``--model``, ``--bertscore-model``), the judge's answer cache -- to its ``Path`` (or
    ``None``): an output anywhere inside one is refused, since a file written there can replace one of its files (a
    model's weights or tokenizer files, the cache's database) or be read as one. Raises `UserError` naming both
    options."""
    pairs = inputs.items() if isinstance(inputs, dict) else inputs
    ins = [(k, p) for k, p in pairs if p is not None and str(p) != "-"]
    outs = [(k, p) for k, p in outputs.items() if p is not None]
    for flag, out in outs:
        for dir_flag, d in (dirs or {}).items():
            if d is not None and _inside(out, Path(d)):
                raise UserError(f"{flag} must not be inside {dir_flag} {d} ({flag} {out}): a file written there can "
                                "replace one of its files or be read as one; write it elsewhere")
        for in_flag, src in ins:
            if _same_file(out, src):
                raise UserError(f"{flag} must differ from the input file ({flag} {out} is {in_flag} {src})")
    for i, (flag_a, a) in enumerate(outs):
        for flag_b, b in outs[i + 1:]:
            if _same_file(a, b):
                raise UserError(f"{flag_a} and {flag_b} must be different files (both are {a})")


def distinct_inputs(inputs: list, advice: str = "give each system once") -> None:
    """Refuse one input file given twice where each names another system (``zheval compare -p a.jsonl a.jsonl``,
    ``zheval judge a.jsonl --versus ./a.jsonl``, ``zheval bleu -i h.txt ./h.txt``) or another reference set
    (``zheval bleu r.txt ./r.txt -i h.txt``: one set counted as two, nrefs:2): ``inputs`` is ``[(flag, Path or
    None), ...]``; two entries naming the same file by `check_paths`' rule (equal after resolving symlinks and
    ``..``, or the same inode) raise `UserError` naming both (once when both read alike: ``--scores s.csv``, not
    ``--scores s.csv is --scores s.csv``), ending with ``advice``; ``None`` and ``-`` (standard input) are
    skipped."""
    given = [(k, p) for k, p in inputs if p is not None and str(p) != "-"]
    for i, (flag_a, a) in enumerate(given):
        for flag_b, b in given[i + 1:]:
            if _same_file(a, b):
                both = f"{flag_b} {b}" + ("" if (flag_a, str(a)) == (flag_b, str(b)) else f" is {flag_a} {a}")
                raise UserError(f"{both}: the same file given more than once; {advice}")


def distinct_texts(inputs: list, advice: str) -> None:
    """`distinct_inputs` for contents: refuse two files that hold the same text, line for line, where each names
    another set (``zheval bleu r.txt copy-of-r.txt -i h.txt``: one set of references counted as two, nrefs:2).
    ``inputs`` is ``[(flag, name, lines), ...]`` with each file's lines as read (so a copy with other line ends, a
    byte-order mark or gzip is the same text); `UserError` naming both files, ending with ``advice``."""
    for i, (flag_a, a, text_a) in enumerate(inputs):
        for flag_b, b, text_b in inputs[i + 1:]:
            if text_a == text_b:
                raise UserError(f"{flag_b} {b} holds the same text as {flag_a} {a} (every line equal): the same "
                                f"{flag_a}s given twice; {advice}")


def plot_format(plot: Optional[Path]) -> Optional[str]:
    """The image format of ``--plot FILE`` from its extension (checked before any work is done)."""
    if plot is None:
        return None
    from ..adapters.report.plot import plot_formats

    formats = plot_formats()
    ext = plot.suffix.lower().lstrip(".")
    if not ext:
        raise UserError(f"--plot {plot} has no file extension; name the image format: {', '.join(sorted(formats))}")
    if ext not in formats:
        raise UserError(f"--plot {plot}: unknown image format '.{ext}'; supported: {', '.join(sorted(formats))}")
    return ext


def _render(report, fmt: Format) -> str:
    from ..adapters.report.tables import render_markdown, render_table

    if fmt == Format.json:
        return terminal_json(report.to_dict(), indent=2) + "\n"
    if fmt == Format.markdown:
        return render_markdown(report)
    return render_table(report)


def emit_report(report, fmt: Format, output: Optional[Path], plot: Optional[Path], plot_by: str,
                html: Optional[Path] = None, html_page: Optional[str] = None) -> None:
    """Render everything first, then write (atomically), so a failure leaves no partial output. ``html``: the
    path of ``--html`` and ``html_page`` the page already rendered for it (written last). The library's warnings
    caught in the command (``PresetOverrideWarning`` …, `zheval.cli.options.take_warnings`) join the report's
    warnings, in every format. The report's notes that caution about its intervals
    (`zheval.results.reducers.resample_cautions`: few resamples, an interval without its score) and its warning
    of a ceiling's duplicate references (`zheval.adapters.duck.ceiling.DUPLICATE_REFERENCES`) are printed on
    stderr too."""
    from ..adapters.report.plot import plot_report
    from ..adapters.files import atomic_write

    from .option_names import COMMAND, in_option_names
    from .options import take_warnings

    said = [in_option_names(w, COMMAND.get()) for w in report.warnings]  # the library's words as the options typed
    report.warnings = said + [w for w in take_warnings() if w not in said]
    text = _render(report, fmt)
    from ..adapters.duck.mismatch import GROUP_FORMS_NOTE
    from ..results.reducers import RESAMPLE_CAUTION

    for n in report.notes or []:  # a caution about the intervals (few resamples ...): on stderr too, whatever -f / -o
        if n.startswith((RESAMPLE_CAUTION, GROUP_FORMS_NOTE)):  # and group values written differently
            echo(f"zheval: {n}", err=True)
    from ..adapters.duck.ceiling import DUPLICATE_REFERENCES

    for w in report.warnings:  # references repeated in a ceiling (they raise it): on stderr too, whatever -f / -o
        if w.startswith(DUPLICATE_REFERENCES):
            echo(f"zheval: warning: {w}", err=True)
    png = notes = None
    if plot is not None:
        png, notes = plot_report(report, plot_by, fmt=plot_format(plot))
    if output is not None:
        atomic_write(output, text)
        echo(f"wrote {output}", err=True)
    else:
        echo(text, nl=False)
    if png is not None:
        atomic_write(plot, png)
        for n in notes:
            echo(f"note: {n}", err=True)
        echo(f"wrote {plot}", err=True)
    if html is not None and html_page is not None:
        atomic_write(html, html_page)
        echo(f"wrote {html}", err=True)


def load_data(data: Path, min_refs: Optional[int] = None, max_refs: Optional[int] = None, bounds: bool = True,
              domains=(), empty_refs: bool = False):
    """``(Dataset, {id: (path, line)})`` of one 小黄鸭 file; ``bounds=False`` accepts any number of references;
    ``domains``: the loader's allowed domain values (``()``, the default: the format's three; ``None``: any string;
    see `domain_values`); ``empty_refs``: accept empty or whitespace-only references (``zheval clean`` drops them).

    With ``bounds``, every item needs at least ``min_refs`` (default `MIN_REFS`)
    references; at most `MAX_REFS` unless ``max_refs`` is given: ``--max-refs K``
    means "score with the first K references" (the caller cuts them), so items with more are accepted here."""
    from datasets import Dataset

    from ..adapters.duck.load import DOMAINS, MAX_REFS, MIN_REFS, duck_features, read_duck_rows

    if data.is_dir():
        raise UserError(f"--data must be one JSONL file (one split), got a directory: {data}")
    if bounds:
        lo = MIN_REFS if min_refs is None else min_refs
        hi = MAX_REFS if max_refs is None else None
    else:
        lo = hi = None
    lines: list = []
    rows = read_duck_rows(data, min_refs=lo, max_refs=hi, lines=lines, domains=DOMAINS if domains == () else domains,
                          empty_refs=empty_refs)
    name = str(data)
    return Dataset.from_list(rows, features=duck_features()), {r["id"]: (name, ln) for r, ln in zip(rows, lines)}
