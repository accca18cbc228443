"""The ``zheval`` command line (typer): score, clean, compare, ceiling, demo.

::

    zheval score   --data test.jsonl --predictions preds.jsonl [--tokenizer char|jieba|none|sacrebleu-zh]
                   [--metrics bleu,rouge] [--by domain,difficulty] [--bootstrap 1000] [--num-proc N]
                   [--format table|json|markdown] [--output FILE] [--plot FILE.png|.svg|.pdf|.jpg]
                   [--t2s] [--normalize STEPS] [--punct keep|drop] [--preset sacrebleu-zh]
                   [--predictions-format auto|jsonl|text] [--label-check strict|warn|off]
                   [--min-refs N] [--max-refs N] [--items]
    zheval clean   IN.jsonl -o OUT.jsonl          # prints the drop report
    zheval compare --data D --predictions A.jsonl B.jsonl
    zheval ceiling --data D
    zheval demo                                   # the embedded 小黄鸭 sample

Exit codes: 0 ok; 2 bad usage or bad input (the message names ``file:line`` or the id; no traceback). Output files
are written atomically (complete or not at all), and only after everything has been computed, so an error leaves
no partial output; they get the permissions a plain ``open`` would give (``0o666 & ~umask``).

Bounds: ``--bootstrap`` at most :data:`MAX_BOOTSTRAP` resamples, ``--seed`` in 0 … :data:`MAX_SEED`. The 小黄鸭 file
must have :data:`~zheval.adapters.duck.load.MIN_REFS`–:data:`~zheval.adapters.duck.load.MAX_REFS` references per
item unless ``--min-refs``/``--max-refs`` relax it.
"""

from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional, Tuple

import typer

from .results.reducers import MAX_BOOTSTRAP_RESAMPLES, MAX_SEED

__all__ = ["app", "main", "MAX_BOOTSTRAP", "MAX_SEED", "CLI_TOKENIZERS", "CLI_PRESETS", "namespace_shadow"]

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
    from .adapters.duck.load import DuckFormatError

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


def _note(message: str) -> None:
    typer.echo(f"zheval: note: {message}", err=True)


def _split_list(value: str, option: str | None = None) -> list[str]:
    """Split a comma list; an entry given twice is kept once, with a note naming ``option``."""
    if value is None or value.strip().lower() in ("", "none"):
        return []
    items = [v.strip() for v in value.split(",") if v.strip()]
    out = list(dict.fromkeys(items))
    if len(out) != len(items):
        twice = [v for v in out if items.count(v) > 1]
        _note(f"{option or 'the list'} names {', '.join(repr(v) for v in twice)} more than once; each is used once")
    return out


#: Most bootstrap resamples ``--bootstrap`` accepts and largest ``--seed``: the library's bounds
#: (:data:`zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES`, :data:`zheval.results.reducers.MAX_SEED`).
MAX_BOOTSTRAP = MAX_BOOTSTRAP_RESAMPLES


def _bootstrap_bound(value: int) -> int:
    if value is not None and value > MAX_BOOTSTRAP:
        raise typer.BadParameter(
            f"{value} is above the limit of {MAX_BOOTSTRAP:,} resamples (zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES); "
            "1,000-10,000 resamples give stable 95% intervals"
        )
    return value


def _seed_bound(value: int) -> int:
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"{value} is not a valid seed; seeds are integers from 0 to {MAX_SEED} (2**32 - 1)")
    return value


def namespace_shadow() -> str | None:
    """The folder Python imported as the ``zheval`` package when it is a *namespace package* (a folder without
    ``__init__.py``, e.g. a clone of this repository named ``zheval`` in the current directory), else ``None``.

    Then ``zheval/__init__.py`` was never run: ``from zheval import score`` fails with "cannot import name 'score'
    from 'zheval' (unknown location)" and, with an editable install, submodules load but fail on
    ``from . import __version__``. Checked first thing by :func:`main` (``python -m zheval`` and the console script).
    """
    mod = sys.modules.get("zheval")
    if mod is None or getattr(mod, "__file__", None) is not None:
        return None
    paths = list(getattr(mod, "__path__", None) or [])
    return paths[0] if paths else "(unknown folder)"


def shadow_message(folder: str) -> str:
    """The explanation printed when :func:`namespace_shadow` finds a shadowing folder."""
    return (
        f"Python imported the folder {folder} as the 'zheval' package, but it is not the package (it has no "
        "__init__.py): most likely a clone of the zheval repository in the current directory, which hides the "
        f"installed package. Run from another directory, or from inside the clone (cd {folder}), or rename the "
        "clone folder."
    )


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


def _check_tokenizer(tokenizer: Optional[str]) -> None:
    if tokenizer is not None and tokenizer not in CLI_TOKENIZERS:
        raise UserError(f"unknown tokenizer {tokenizer!r}; valid: {', '.join(CLI_TOKENIZERS)}")


def _plot_format(plot: Optional[Path]) -> Optional[str]:
    """The image format of ``--plot FILE`` from its extension (checked before any work is done)."""
    if plot is None:
        return None
    from .adapters.duck.plot import plot_formats

    formats = plot_formats()
    ext = plot.suffix.lower().lstrip(".")
    if not ext:
        raise UserError(f"--plot {plot} has no file extension; name the image format: {', '.join(sorted(formats))}")
    if ext not in formats:
        raise UserError(f"--plot {plot}: unknown image format '.{ext}'; supported: {', '.join(sorted(formats))}")
    return ext


def _render(report, fmt: Format) -> str:
    from .adapters.duck.report import render_markdown, render_table

    if fmt == Format.json:
        return json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n"
    if fmt == Format.markdown:
        return render_markdown(report)
    return render_table(report)


def _emit(report, fmt: Format, output: Optional[Path], plot: Optional[Path], plot_by: str) -> None:
    """Render everything first, then write (atomically), so a failure leaves no partial output."""
    from .adapters.duck.plot import plot_report
    from .adapters.files import atomic_write

    text = _render(report, fmt)
    png = notes = None
    if plot is not None:
        png, notes = plot_report(report, plot_by, fmt=_plot_format(plot))
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


def _load(data: Path, min_refs: Optional[int] = None, max_refs: Optional[int] = None, bounds: bool = True):
    """``(Dataset, {id: (path, line)})`` of one 小黄鸭 file; ``bounds=False`` accepts any number of references."""
    from datasets import Dataset

    from .adapters.duck.load import MAX_REFS, MIN_REFS, duck_features, read_duck_rows

    if data.is_dir():
        raise UserError(f"--data must be one JSONL file (one split), got a directory: {data}")
    if bounds:
        lo = MIN_REFS if min_refs is None else min_refs
        hi = MAX_REFS if max_refs is None else max_refs
        if lo > hi:
            raise UserError(f"--min-refs {lo} is larger than --max-refs {hi}")
    else:
        lo = hi = None
    lines: list = []
    rows = read_duck_rows(data, min_refs=lo, max_refs=hi, lines=lines)
    name = str(data)
    return Dataset.from_list(rows, features=duck_features()), {r["id"]: (name, ln) for r, ln in zip(rows, lines)}


def _check_predictions_format(fmt: str) -> None:
    from .adapters.duck.predictions import PREDICTION_FORMATS

    if fmt not in PREDICTION_FORMATS:
        raise UserError(f"unknown --predictions-format {fmt!r}; valid: {', '.join(PREDICTION_FORMATS)}")


def _check_label_check(value: str) -> str:
    from .adapters.duck.predictions import LABEL_CHECKS

    if value not in LABEL_CHECKS:
        raise UserError(f"unknown --label-check {value!r}; valid: {', '.join(LABEL_CHECKS)}")
    return value


#: ``--preset`` values the 小黄鸭 report implements (the other library presets are refused with the reason).
CLI_PRESETS = ("sacrebleu-zh",)


def _preset_options(preset: Optional[str], metrics: list) -> dict:
    """BLEU options for ``--preset`` (merged into the BLEU options; explicit options still override it)."""
    if preset is None:
        return {}
    if preset == "sacrebleu-zh":
        if metrics != ["bleu"]:
            raise UserError(
                "--preset sacrebleu-zh is a BLEU preset (sacrebleu's corpus_bleu with tokenize='zh' on the raw "
                "text) and has no ROUGE counterpart: add --metrics bleu, or use -t sacrebleu-zh to tokenise both "
                "metrics that way"
            )
        return {"preset": "sacrebleu-zh"}
    if preset == "llamafactory":
        raise UserError(
            "--preset llamafactory reproduces LLaMA-Factory's own numbers (the mean of per-item sentence BLEU-4 "
            "with NLTK smoothing method 3, and rouge-chinese ROUGE on jieba words); this report scores corpus BLEU "
            "with item-level intervals and cannot reproduce them. For LLaMA-Factory's numbers use "
            "compute_bleu/compute_rouge(..., preset='llamafactory') or the chinese_bleu/chinese_rouge modules; "
            "-t llamafactory-char uses its BLEU tokenisation here"
        )
    if preset == "rouge155":
        raise UserError(
            "--preset rouge155 is a ROUGE preset (ROUGE-1.5.5's numbers, per-item rounding and pooled "
            "multi-reference counts) that the 小黄鸭 report does not implement: use compute_rouge(..., "
            "preset='rouge155') or the chinese_rouge module; --multi-ref pool gives its multi-reference rule here"
        )
    raise UserError(f"unknown --preset {preset!r}; valid here: {', '.join(CLI_PRESETS)} "
                    "(llamafactory and rouge155 exist in the library only)")


def _bleu_options(smooth: Optional[str], max_order: Optional[int]) -> dict:
    opts = {}
    if smooth is not None:
        opts["smooth_method"] = smooth
    if max_order is not None:
        opts["max_order"] = max_order
    return opts


def _tok_options(jieba_hmm: bool, terms: Optional[Path], t2s: bool = False, normalize: Optional[str] = None,
                 punct: Optional[str] = None) -> dict:
    """Tokenizer options of :func:`zheval.tokenizers.get_tokenizer` from the command line (unset ones omitted, so
    the tokenizer's defaults apply and the preset tokenizers, which take no option, still work)."""
    from .adapters.duck.load import encoding_problem

    opts: dict = {}
    if jieba_hmm:
        opts["jieba_hmm"] = True
    if t2s:
        opts["t2s"] = True
    if normalize is not None:
        opts["normalize"] = normalize
    if punct is not None:
        opts["punct"] = punct
    if terms is not None:
        raw = terms.read_bytes()
        enc = encoding_problem(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw, str(terms))
        if enc:
            raise UserError(f"--terms {terms}: {enc}")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[:exc.start].count(b"\n") + 1
            raise UserError(f"--terms {terms}:{line}: not valid UTF-8 ({exc.reason})") from None
        opts["terms"] = [t.strip() for t in text.splitlines() if t.strip()]
    return opts


#: Tokenizer names the command line accepts (``--help`` lists exactly these, and so does the error message).
CLI_TOKENIZERS = ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char")

# shared option declarations
_TOKENIZER = typer.Option(None, "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS) + "  [default: char]",
                          show_default=False)
_METRICS = typer.Option("bleu,rouge", "--metrics", help="comma list of bleu, rouge")
_ROUGE_TYPES = typer.Option("rouge1,rouge2,rougeL", "--rouge-types", help="ROUGE types (F-measure), e.g. rouge1,rouge2,rougeL,rougeLsum")
_BY = typer.Option("domain,difficulty", "--by", help="group columns, comma list ('none' for overall only)")
_BOOTSTRAP = typer.Option(1000, "--bootstrap", min=0, callback=_bootstrap_bound,
                          help=f"bootstrap resamples for 95% intervals (0 = none; at most {MAX_BOOTSTRAP:,})")
_SEED = typer.Option(12345, "--seed", callback=_seed_bound, help=f"bootstrap seed (0 to {MAX_SEED})")
_T2S = typer.Option(False, "--t2s", help="convert Traditional to Simplified Chinese (OpenCC t2s) before scoring")
_NORMALIZE = typer.Option(None, "--normalize", help="normalisation: default | none | '+'-joined steps "
                          "(nfkc, zw, t2s, punct, nopunct, space, lower)  [default: the tokenizer's]", show_default=False)
_PUNCT = typer.Option(None, "--punct", help="punctuation tokens: keep | drop  [default: keep]", show_default=False)
_PRESET = typer.Option(None, "--preset", help="BLEU preset: sacrebleu-zh (needs --metrics bleu)")
_PRED_FORMAT = typer.Option("auto", "--predictions-format", help="auto (by extension; a .txt file that looks like "
                            "JSONL is refused) | jsonl | text")
_LABEL_CHECK = typer.Option("strict", "--label-check", help="LLaMA-Factory labels vs references: strict (error when "
                            "more than 20% differ) | warn | off")
_MIN_REFS = typer.Option(None, "--min-refs", min=1, help="fewest references per item  [default: 2; 1 for "
                         "single-reference data]", show_default=False)
_MAX_REFS = typer.Option(None, "--max-refs", min=1, help="most references per item  [default: 5]", show_default=False)
_NUM_PROC = typer.Option(1, "--num-proc", min=1, help="worker processes for Dataset.map (results are identical)")
_FORMAT = typer.Option(Format.table, "--format", "-f", help="output format")
_OUTPUT = typer.Option(None, "--output", "-o", help="write the report to FILE (atomically) instead of stdout")
_PLOT = typer.Option(None, "--plot", help="draw per-group scores with interval error bars to FILE (.png, .svg, .pdf, .jpg, …: the format follows the extension)")
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
    t2s: bool = _T2S,
    normalize: Optional[str] = _NORMALIZE,
    punct: Optional[str] = _PUNCT,
    preset: Optional[str] = _PRESET,
    predictions_format: str = _PRED_FORMAT,
    label_check: str = _LABEL_CHECK,
    min_refs: Optional[int] = _MIN_REFS,
    max_refs: Optional[int] = _MAX_REFS,
    items: bool = typer.Option(False, "--items", help="include per-item scores (every format)"),
    quiet: bool = _QUIET,
) -> None:
    """Score predictions against a 小黄鸭 test set: BLEU and ROUGE overall, per domain and per difficulty."""

    def go():
        from .adapters.duck.evaluate import evaluate_predictions

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        _check_paths({"--data": data, "--predictions": predictions, "--terms": terms},
                     {"--output": output, "--plot": plot})
        _plot_format(plot)
        mets = _split_list(metrics, "--metrics")
        bleu_opts = {**_preset_options(preset, mets), **_bleu_options(smooth, max_order)}
        _check_label_check(label_check)
        _check_predictions_format(predictions_format)
        ds, where = _load(data, min_refs, max_refs)
        report = evaluate_predictions(
            ds, predictions, tokenizer=tokenizer, metrics=mets, by=_split_list(by, "--by"),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=_split_list(rouge_types, "--rouge-types"),
            multi_ref=multi_ref, bleu_options=bleu_opts, keep_items=items, progress=not quiet,
            locations=where, label_check=label_check, predictions_format=predictions_format,
            **_tok_options(jieba_hmm, terms, t2s, normalize, punct),
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
    t2s: bool = _T2S,
    normalize: Optional[str] = _NORMALIZE,
    punct: Optional[str] = _PUNCT,
    preset: Optional[str] = _PRESET,
    min_refs: Optional[int] = _MIN_REFS,
    max_refs: Optional[int] = _MAX_REFS,
    quiet: bool = _QUIET,
) -> None:
    """Human ceiling: each reference scored against the item's other references (needs ≥ 2 references)."""

    def go():
        from .adapters.duck.ceiling import human_ceiling

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        _check_paths({"--data": data, "--terms": terms}, {"--output": output, "--plot": plot})
        _plot_format(plot)
        mets = _split_list(metrics, "--metrics")
        bleu_opts = {**_preset_options(preset, mets), **_bleu_options(smooth, max_order)}
        ds, where = _load(data, min_refs, max_refs)
        report = human_ceiling(
            ds, tokenizer=tokenizer, metrics=mets, by=_split_list(by, "--by"), bootstrap=bootstrap, seed=seed,
            num_proc=num_proc, rouge_types=_split_list(rouge_types, "--rouge-types"), multi_ref=multi_ref,
            bleu_options=bleu_opts, progress=not quiet, locations=where,
            **_tok_options(jieba_hmm, terms, t2s, normalize, punct),
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
    bootstrap: int = typer.Option(1000, "--bootstrap", min=1, callback=_bootstrap_bound,
                                  help=f"paired bootstrap resamples (1 to {MAX_BOOTSTRAP:,})"),
    seed: int = _SEED,
    num_proc: int = _NUM_PROC,
    fmt: Format = _FORMAT,
    output: Optional[Path] = _OUTPUT,
    multi_ref: str = _MULTI,
    smooth: Optional[str] = _SMOOTH,
    max_order: Optional[int] = _ORDER,
    jieba_hmm: bool = _HMM,
    terms: Optional[Path] = _TERMS,
    t2s: bool = _T2S,
    normalize: Optional[str] = _NORMALIZE,
    punct: Optional[str] = _PUNCT,
    preset: Optional[str] = _PRESET,
    predictions_format: str = _PRED_FORMAT,
    label_check: str = _LABEL_CHECK,
    min_refs: Optional[int] = _MIN_REFS,
    max_refs: Optional[int] = _MAX_REFS,
    quiet: bool = _QUIET,
) -> None:
    """Paired bootstrap comparison of two systems on the same items (B − A, interval, sacrebleu's p-value; an exact
    tie is reported as "no difference", since that p-value is then its minimum 1/(resamples + 1))."""

    def go():
        from .adapters.duck.compare import compare_predictions

        _quiet(quiet)
        _check_tokenizer(tokenizer)
        _check_output_dir(output)
        _check_paths({"--data": data, "--predictions A": predictions[0], "--predictions B": predictions[1],
                      "--terms": terms}, {"--output": output})
        mets = _split_list(metrics, "--metrics")
        bleu_opts = {**_preset_options(preset, mets), **_bleu_options(smooth, max_order)}
        _check_label_check(label_check)
        _check_predictions_format(predictions_format)
        ds, where = _load(data, min_refs, max_refs)
        report = compare_predictions(
            ds, predictions[0], predictions[1], tokenizer=tokenizer, metrics=mets, by=_split_list(by, "--by"),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=_split_list(rouge_types, "--rouge-types"),
            multi_ref=multi_ref, bleu_options=bleu_opts, progress=not quiet, locations=where, label_check=label_check,
            predictions_format=predictions_format, **_tok_options(jieba_hmm, terms, t2s, normalize, punct),
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
        ds, _ = _load(source, bounds=False)  # cleaning is for raw data: any number of references is accepted
        cleaned, rep = clean_duck(
            ds, normalize=not no_normalize, min_chars=min_chars, max_chars=max_chars,
            dedup_threshold=None if no_dedup else dedup_threshold, min_refs=min_refs,
            num_proc=num_proc if num_proc > 1 else None,
        )
        text = rep.render()
        js = json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n" if report_json else None
        write_duck(cleaned, output)
        if js is not None:
            from .adapters.files import atomic_write

            atomic_write(report_json, js)
        typer.echo(text)
        typer.echo(f"wrote {output} ({len(cleaned)} queries)", err=True)
        from .adapters.duck.load import MAX_REFS

        many = sum(1 for r in cleaned["responses"] if len(r) > MAX_REFS) if len(cleaned) else 0
        if many:
            typer.echo(
                f"zheval: warning: {many} quer{'y has' if many == 1 else 'ies have'} more than {MAX_REFS} references; "
                f"the 小黄鸭 format has {MAX_REFS} at most, so scoring {output} needs --max-refs", err=True)
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
    tokenizer: str = typer.Option("char", "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS)),
    progress: bool = typer.Option(False, "--progress", help="show progress bars"),
) -> None:
    """Run the main job on the embedded 小黄鸭 sample (66 queries written for zheval, baseline predictions)."""

    def go():
        from .adapters.duck import load_duck, sample_files
        from .adapters.duck.evaluate import evaluate_predictions

        _quiet(not progress)
        _check_tokenizer(tokenizer)
        _check_output_dir(output, plot)
        _plot_format(plot)
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

    Exits with the command's exit code (0 ok, 2 usage or input error). First checks that ``zheval`` is the real
    package and not a folder of the current directory imported as a namespace package (:func:`namespace_shadow`).
    """
    folder = namespace_shadow()
    if folder is not None:
        typer.echo(f"zheval: error: {shadow_message(folder)}", err=True)
        raise SystemExit(2)
    args = sys.argv[1:] if argv is None else list(argv)
    app(args=args, prog_name="zheval")
