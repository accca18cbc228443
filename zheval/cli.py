"""The ``zheval`` command line (typer): score, clean, compare, ceiling, demo.

::

    zheval score   --data test.jsonl --predictions preds.jsonl [--tokenizer char|jieba|none|sacrebleu-zh]
                   [--metrics bleu,rouge] [--by domain,difficulty] [--bootstrap 1000] [--num-proc N]
                   [--format table|json|markdown] [--output FILE] [--plot FILE.png]
    zheval clean   IN.jsonl -o OUT.jsonl          # prints the drop report
    zheval compare --data D --predictions A.jsonl B.jsonl
    zheval ceiling --data D
    zheval demo                                   # the embedded 小黄鸭 sample

Exit codes: 0 ok; 2 bad usage or bad input (the message names ``file:line`` or the id; no traceback). Output files
are written atomically (complete or not at all), and only after everything has been computed, so an error leaves
no partial output.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional, Tuple

import typer

__all__ = ["app", "main"]

app = typer.Typer(
    name="zheval",
    help="Trustworthy Chinese BLEU and ROUGE for 小黄鸭 dialogue data: per-domain scores with bootstrap intervals.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(str, Enum):
    table = "table"
    json = "json"
    markdown = "markdown"


class UserError(Exception):
    """A problem with the user's input or options: reported as ``zheval: error: …`` with exit code 2."""


def _fail(message: str) -> None:
    typer.echo(f"zheval: error: {message}", err=True)
    raise typer.Exit(code=2)


def _run(fn):
    """Call ``fn()``; user errors become a message and exit code 2 (never a traceback)."""
    from .adapters.duck_load import DuckFormatError

    try:
        return fn()
    except typer.Exit:
        raise
    except (UserError, DuckFormatError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        _fail(str(exc))
    except (ValueError, TypeError) as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))


def _quiet(quiet: bool) -> None:
    if quiet:
        import datasets

        datasets.disable_progress_bars()


def _split_list(value: str) -> list[str]:
    if value is None or value.strip().lower() in ("", "none"):
        return []
    return [v.strip() for v in value.split(",") if v.strip()]


def _check_output_dir(*paths: Optional[Path]) -> None:
    for p in paths:
        if p is not None:
            parent = p.parent if str(p.parent) else Path(".")
            if not parent.is_dir():
                raise UserError(f"output directory does not exist: {parent}")
            if p.is_dir():
                raise UserError(f"output path is a directory: {p}")


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


def _check_paths(inputs: dict, outputs: dict) -> None:
    """Refuse an output path that is one of the command's input files (or another output): writing it would
    destroy the input. ``inputs``/``outputs`` map the option name to a ``Path`` (or ``None`` when not given)."""
    ins = [(k, p) for k, p in inputs.items() if p is not None]
    outs = [(k, p) for k, p in outputs.items() if p is not None]
    for flag, out in outs:
        for in_flag, src in ins:
            if _same_file(out, src):
                raise UserError(f"{flag} must differ from the input file ({flag} {out} is {in_flag} {src})")
    for i, (flag_a, a) in enumerate(outs):
        for flag_b, b in outs[i + 1:]:
            if _same_file(a, b):
                raise UserError(f"{flag_a} and {flag_b} must be different files (both are {a})")


def _check_tokenizer(tokenizer: str) -> None:
    if tokenizer not in CLI_TOKENIZERS:
        raise UserError(f"unknown tokenizer {tokenizer!r}; valid: {', '.join(CLI_TOKENIZERS)}")


def _render(report, fmt: Format) -> str:
    from .report import render_markdown, render_table

    if fmt == Format.json:
        return json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n"
    if fmt == Format.markdown:
        return render_markdown(report)
    return render_table(report)


def _emit(report, fmt: Format, output: Optional[Path], plot: Optional[Path], plot_by: str) -> None:
    """Render everything first, then write (atomically), so a failure leaves no partial output."""
    from .report import atomic_write, plot_report

    text = _render(report, fmt)
    png = notes = None
    if plot is not None:
        png, notes = plot_report(report, plot_by)
    if output is not None:
        atomic_write(output, text)
        typer.echo(f"wrote {output}", err=True)
    else:
        typer.echo(text, nl=False)
    if png is not None:
        atomic_write(plot, png)
        for n in notes:
            typer.echo(f"note: {n}", err=True)
        typer.echo(f"wrote {plot}", err=True)


def _load(data: Path):
    from .adapters.duck_load import load_duck

    if data.is_dir():
        raise UserError(f"--data must be one JSONL file (one split), got a directory: {data}")
    return load_duck(data)


def _bleu_options(smooth: Optional[str], max_order: Optional[int]) -> dict:
    opts = {}
    if smooth is not None:
        opts["smooth_method"] = smooth
    if max_order is not None:
        opts["max_order"] = max_order
    return opts


def _tok_options(jieba_hmm: bool, terms: Optional[Path]) -> dict:
    opts = {}
    if jieba_hmm:
        opts["jieba_hmm"] = True
    if terms is not None:
        try:
            opts["terms"] = [t.strip() for t in terms.read_text(encoding="utf-8-sig").splitlines() if t.strip()]
        except UnicodeDecodeError as exc:
            raise UserError(f"{terms}: not valid UTF-8 ({exc.reason})") from None
    return opts


#: Tokenizer names the command line accepts (``--help`` lists exactly these, and so does the error message).
CLI_TOKENIZERS = ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char")

# shared option declarations
_TOKENIZER = typer.Option("char", "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS))
_METRICS = typer.Option("bleu,rouge", "--metrics", help="comma list of bleu, rouge")
_ROUGE_TYPES = typer.Option("rouge1,rouge2,rougeL", "--rouge-types", help="ROUGE types (F-measure), e.g. rouge1,rouge2,rougeL,rougeLsum")
_BY = typer.Option("domain,difficulty", "--by", help="group columns, comma list ('none' for overall only)")
_BOOTSTRAP = typer.Option(1000, "--bootstrap", min=0, help="bootstrap resamples for 95% intervals (0 = none)")
_SEED = typer.Option(12345, "--seed", help="bootstrap seed")
_NUM_PROC = typer.Option(1, "--num-proc", min=1, help="worker processes for Dataset.map (results are identical)")
_FORMAT = typer.Option(Format.table, "--format", "-f", help="output format")
_OUTPUT = typer.Option(None, "--output", "-o", help="write the report to FILE (atomically) instead of stdout")
_PLOT = typer.Option(None, "--plot", help="draw per-group scores with interval error bars to FILE.png")
_PLOT_BY = typer.Option("domain", "--plot-by", help="group column drawn by --plot")
_QUIET = typer.Option(False, "--quiet", "-q", help="no progress bars")
_MULTI = typer.Option("max", "--multi-ref", help="ROUGE multi-reference rule: max | mean | pool | best_recall")
_SMOOTH = typer.Option(None, "--smooth", help="BLEU smoothing: exp (default) | none | floor | add-k | nltk3")
_ORDER = typer.Option(None, "--max-order", min=1, help="BLEU max n-gram order (default 4)")
_HMM = typer.Option(False, "--jieba-hmm", help="jieba HMM new-word discovery (off by default)")
_TERMS = typer.Option(None, "--terms", help="file with protected terms, one per line")


@app.command()
def score(
    data: Path = typer.Option(..., "--data", "-d", help="小黄鸭 JSONL test file"),
    predictions: Path = typer.Option(..., "--predictions", "-p", help="predictions: JSONL (id+prediction, or LLaMA-Factory predict/label) or text, one per line"),
    tokenizer: str = _TOKENIZER,
    metrics: str = _METRICS,
    rouge_types: str = _ROUGE_TYPES,
    by: str = _BY,
    bootstrap: int = _BOOTSTRAP,
    seed: int = _SEED,
    num_proc: int = _NUM_PROC,
    fmt: Format = _FORMAT,
    output: Optional[Path] = _OUTPUT,
    plot: Optional[Path] = _PLOT,
    plot_by: str = _PLOT_BY,
    multi_ref: str = _MULTI,
    smooth: Optional[str] = _SMOOTH,
    max_order: Optional[int] = _ORDER,
    jieba_hmm: bool = _HMM,
    terms: Optional[Path] = _TERMS,
    items: bool = typer.Option(False, "--items", help="include per-item scores (JSON output)"),
    quiet: bool = _QUIET,
) -> None:
    """Score predictions against a 小黄鸭 test set: BLEU and ROUGE overall, per domain and per difficulty."""

    def go():
        from .adapters.duck_eval import evaluate_predictions

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        _check_paths({"--data": data, "--predictions": predictions, "--terms": terms},
                     {"--output": output, "--plot": plot})
        ds = _load(data)
        report = evaluate_predictions(
            ds, predictions, tokenizer=tokenizer, metrics=_split_list(metrics), by=_split_list(by),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=_split_list(rouge_types),
            multi_ref=multi_ref, bleu_options=_bleu_options(smooth, max_order), keep_items=items, progress=not quiet,
            **_tok_options(jieba_hmm, terms),
        )
        _emit(report, fmt, output, plot, plot_by)

    _run(go)


@app.command()
def ceiling(
    data: Path = typer.Option(..., "--data", "-d", help="小黄鸭 JSONL file"),
    tokenizer: str = _TOKENIZER,
    metrics: str = _METRICS,
    rouge_types: str = _ROUGE_TYPES,
    by: str = _BY,
    bootstrap: int = _BOOTSTRAP,
    seed: int = _SEED,
    num_proc: int = _NUM_PROC,
    fmt: Format = _FORMAT,
    output: Optional[Path] = _OUTPUT,
    plot: Optional[Path] = _PLOT,
    plot_by: str = _PLOT_BY,
    multi_ref: str = _MULTI,
    smooth: Optional[str] = _SMOOTH,
    max_order: Optional[int] = _ORDER,
    jieba_hmm: bool = _HMM,
    terms: Optional[Path] = _TERMS,
    quiet: bool = _QUIET,
) -> None:
    """Human ceiling: each reference scored against the item's other references (needs ≥ 2 references)."""

    def go():
        from .adapters.duck_eval import human_ceiling

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        _check_paths({"--data": data, "--terms": terms}, {"--output": output, "--plot": plot})
        ds = _load(data)
        report = human_ceiling(
            ds, tokenizer=tokenizer, metrics=_split_list(metrics), by=_split_list(by), bootstrap=bootstrap, seed=seed,
            num_proc=num_proc, rouge_types=_split_list(rouge_types), multi_ref=multi_ref,
            bleu_options=_bleu_options(smooth, max_order), progress=not quiet, **_tok_options(jieba_hmm, terms),
        )
        _emit(report, fmt, output, plot, plot_by)

    _run(go)


@app.command()
def compare(
    data: Path = typer.Option(..., "--data", "-d", help="小黄鸭 JSONL test file"),
    predictions: Tuple[Path, Path] = typer.Option(..., "--predictions", "-p", help="two prediction files: A (baseline) B"),
    tokenizer: str = _TOKENIZER,
    metrics: str = _METRICS,
    rouge_types: str = _ROUGE_TYPES,
    by: str = typer.Option("none", "--by", help="group columns for per-group comparisons ('none': overall only)"),
    bootstrap: int = typer.Option(1000, "--bootstrap", min=1, help="paired bootstrap resamples"),
    seed: int = _SEED,
    num_proc: int = _NUM_PROC,
    fmt: Format = _FORMAT,
    output: Optional[Path] = _OUTPUT,
    multi_ref: str = _MULTI,
    smooth: Optional[str] = _SMOOTH,
    max_order: Optional[int] = _ORDER,
    jieba_hmm: bool = _HMM,
    terms: Optional[Path] = _TERMS,
    quiet: bool = _QUIET,
) -> None:
    """Paired bootstrap comparison of two systems on the same items (B − A, interval, sacrebleu's p-value; an exact
    tie is reported as "no difference", since that p-value is then its minimum 1/(resamples + 1))."""

    def go():
        from .adapters.duck_eval import compare_predictions

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output)
        _check_paths({"--data": data, "--predictions A": predictions[0], "--predictions B": predictions[1],
                      "--terms": terms}, {"--output": output})
        ds = _load(data)
        report = compare_predictions(
            ds, predictions[0], predictions[1], tokenizer=tokenizer, metrics=_split_list(metrics), by=_split_list(by),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=_split_list(rouge_types), multi_ref=multi_ref,
            bleu_options=_bleu_options(smooth, max_order), **_tok_options(jieba_hmm, terms),
        )
        _emit(report, fmt, output, None, "")

    _run(go)


@app.command()
def clean(
    source: Path = typer.Argument(..., help="小黄鸭 JSONL input"),
    output: Path = typer.Option(..., "--output", "-o", help="cleaned JSONL output (written atomically)"),
    min_chars: int = typer.Option(5, "--min-chars", min=0, help="drop references shorter than this (characters)"),
    max_chars: int = typer.Option(150, "--max-chars", min=1, help="drop references longer than this (characters)"),
    dedup_threshold: float = typer.Option(0.85, "--dedup-threshold", help="character-bigram Jaccard at or above which a reference is a near duplicate (1 = exact only)"),
    no_dedup: bool = typer.Option(False, "--no-dedup", help="skip near-duplicate removal"),
    min_refs: int = typer.Option(2, "--min-refs", min=1, help="drop queries left with fewer references"),
    no_normalize: bool = typer.Option(False, "--no-normalize", help="keep texts as they are (no normalisation)"),
    report_json: Optional[Path] = typer.Option(None, "--report-json", help="also write the drop report as JSON"),
    num_proc: int = _NUM_PROC,
    quiet: bool = _QUIET,
) -> None:
    """Clean a 小黄鸭 file: normalise, filter reference lengths, drop near duplicates and thin queries; print the
    drop report (every dropped reference and query counted by reason and domain)."""

    def go():
        from .adapters.duck import clean_duck, write_duck

        _quiet(quiet)
        _check_output_dir(output, report_json)
        _check_paths({"SOURCE": source}, {"--output": output, "--report-json": report_json})
        ds = _load(source)
        cleaned, rep = clean_duck(
            ds, normalize=not no_normalize, min_chars=min_chars, max_chars=max_chars,
            dedup_threshold=None if no_dedup else dedup_threshold, min_refs=min_refs,
            num_proc=num_proc if num_proc > 1 else None,
        )
        text = rep.render()
        js = json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n" if report_json else None
        write_duck(cleaned, output)
        if js is not None:
            from .report import atomic_write

            atomic_write(report_json, js)
        typer.echo(text)
        typer.echo(f"wrote {output} ({len(cleaned)} queries)", err=True)
        if len(cleaned) == 0:
            typer.echo(
                f"zheval: warning: {output} has 0 queries: every query was dropped (see the report above); "
                "scoring it will fail with 'no items'. Loosen --min-chars/--max-chars/--min-refs/--dedup-threshold.",
                err=True,
            )

    _run(go)


@app.command()
def demo(
    fmt: Format = _FORMAT,
    output: Optional[Path] = _OUTPUT,
    plot: Optional[Path] = _PLOT,
    bootstrap: int = _BOOTSTRAP,
    num_proc: int = _NUM_PROC,
    tokenizer: str = _TOKENIZER,
    progress: bool = typer.Option(False, "--progress", help="show progress bars"),
) -> None:
    """Run the main job on the embedded 小黄鸭 sample (66 queries written for zheval, baseline predictions)."""

    def go():
        from .adapters.duck import load_duck, sample_files
        from .adapters.duck_eval import evaluate_predictions

        _quiet(not progress)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        with sample_files() as files:
            _check_paths({"the sample data": files["data"], "the sample predictions": files["predictions"]},
                         {"--output": output, "--plot": plot})
            ds = load_duck(files["data"])
            report = evaluate_predictions(
                ds, files["predictions"], tokenizer=tokenizer, bootstrap=bootstrap, num_proc=num_proc, progress=progress
            )
        report.title = f"zheval demo: embedded 小黄鸭 sample, {len(ds)} queries, baseline predictions"
        _emit(report, fmt, output, plot, "domain")
        if fmt == Format.table and output is None:
            typer.echo(
                "\nnext: zheval score --data test.jsonl --predictions generated_predictions.jsonl --plot scores.png\n"
                "      zheval ceiling --data test.jsonl    zheval compare --data test.jsonl --predictions A.jsonl B.jsonl"
            )

    _run(go)


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of the ``zheval`` console script and of ``python -m zheval``.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).

    Exits with the command's exit code (0 ok, 2 usage or input error).
    """
    args = sys.argv[1:] if argv is None else list(argv)
    app(args=args, prog_name="zheval")
