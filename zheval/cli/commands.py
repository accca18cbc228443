"""The ``zheval`` typer app and its commands (score, ceiling, compare, clean, demo), with the option declarations
they share. Each command checks its options and paths first, then runs the 小黄鸭 adapter
(:mod:`zheval.adapters.duck`) and writes what it produced (:mod:`zheval.cli.files`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, Tuple

import typer

from .files import check_output_dir, check_paths, emit_report, load_data, plot_format
from .options import (
    CLI_TOKENIZERS,
    MAX_BOOTSTRAP,
    MAX_SEED,
    Format,
    apply_quiet,
    bleu_options,
    bootstrap_bound,
    check_label_check,
    check_predictions_format,
    check_tokenizer,
    preset_options,
    run_command,
    seed_bound,
    split_list,
    tokenizer_options,
)

__all__ = ["app", "score", "ceiling", "compare", "clean", "demo"]

app = typer.Typer(
    name="zheval",
    help="Trustworthy Chinese BLEU and ROUGE for 小黄鸭 dialogue data: per-domain scores with bootstrap intervals.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# shared option declarations
_TOKENIZER = typer.Option(None, "--tokenizer", "-t", help=" | ".join(CLI_TOKENIZERS) + "  [default: char]",
                          show_default=False)
_METRICS = typer.Option("bleu,rouge", "--metrics", help="comma list of bleu, rouge")
_ROUGE_TYPES = typer.Option("rouge1,rouge2,rougeL", "--rouge-types", help="ROUGE types (F-measure), e.g. rouge1,rouge2,rougeL,rougeLsum")
_BY = typer.Option("domain,difficulty", "--by", help="group columns, comma list ('none' for overall only)")
_BOOTSTRAP = typer.Option(1000, "--bootstrap", min=0, callback=bootstrap_bound,
                          help=f"bootstrap resamples for 95% intervals (0 = none; at most {MAX_BOOTSTRAP:,})")
_SEED = typer.Option(12345, "--seed", callback=seed_bound, help=f"bootstrap seed (0 to {MAX_SEED})")
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
        from ..adapters.duck.evaluate import evaluate_predictions

        apply_quiet(quiet)
        check_tokenizer(tokenizer)
        check_output_dir(output, plot)
        check_paths({"--data": data, "--predictions": predictions, "--terms": terms},
                     {"--output": output, "--plot": plot})
        plot_format(plot)
        mets = split_list(metrics, "--metrics")
        bleu_opts = {**preset_options(preset, mets), **bleu_options(smooth, max_order)}
        check_label_check(label_check)
        check_predictions_format(predictions_format)
        ds, where = load_data(data, min_refs, max_refs)
        report = evaluate_predictions(
            ds, predictions, tokenizer=tokenizer, metrics=mets, by=split_list(by, "--by"),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=split_list(rouge_types, "--rouge-types"),
            multi_ref=multi_ref, bleu_options=bleu_opts, keep_items=items, progress=not quiet,
            locations=where, label_check=label_check, predictions_format=predictions_format,
            **tokenizer_options(jieba_hmm, terms, t2s, normalize, punct),
        )
        emit_report(report, fmt, output, plot, plot_by)

    run_command(go)


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
        from ..adapters.duck.ceiling import human_ceiling

        apply_quiet(quiet)
        check_tokenizer(tokenizer)
        check_output_dir(output, plot)
        check_paths({"--data": data, "--terms": terms}, {"--output": output, "--plot": plot})
        plot_format(plot)
        mets = split_list(metrics, "--metrics")
        bleu_opts = {**preset_options(preset, mets), **bleu_options(smooth, max_order)}
        ds, where = load_data(data, min_refs, max_refs)
        report = human_ceiling(
            ds, tokenizer=tokenizer, metrics=mets, by=split_list(by, "--by"), bootstrap=bootstrap, seed=seed,
            num_proc=num_proc, rouge_types=split_list(rouge_types, "--rouge-types"), multi_ref=multi_ref,
            bleu_options=bleu_opts, progress=not quiet, locations=where,
            **tokenizer_options(jieba_hmm, terms, t2s, normalize, punct),
        )
        emit_report(report, fmt, output, plot, plot_by)

    run_command(go)


@app.command()
def compare(
    data: Path = typer.Option(..., "--data", "-d", help="小黄鸭 JSONL test file"),
    predictions: Tuple[Path, Path] = typer.Option(..., "--predictions", "-p", help="two prediction files: A (baseline) B"),
    tokenizer: str = _TOKENIZER,
    metrics: str = _METRICS,
    rouge_types: str = _ROUGE_TYPES,
    by: str = typer.Option("none", "--by", help="group columns for per-group comparisons ('none': overall only)"),
    bootstrap: int = typer.Option(1000, "--bootstrap", min=1, callback=bootstrap_bound,
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
        from ..adapters.duck.compare import compare_predictions

        apply_quiet(quiet)
        check_tokenizer(tokenizer)
        check_output_dir(output)
        check_paths({"--data": data, "--predictions A": predictions[0], "--predictions B": predictions[1],
                      "--terms": terms}, {"--output": output})
        mets = split_list(metrics, "--metrics")
        bleu_opts = {**preset_options(preset, mets), **bleu_options(smooth, max_order)}
        check_label_check(label_check)
        check_predictions_format(predictions_format)
        ds, where = load_data(data, min_refs, max_refs)
        report = compare_predictions(
            ds, predictions[0], predictions[1], tokenizer=tokenizer, metrics=mets, by=split_list(by, "--by"),
            bootstrap=bootstrap, seed=seed, num_proc=num_proc, rouge_types=split_list(rouge_types, "--rouge-types"),
            multi_ref=multi_ref, bleu_options=bleu_opts, progress=not quiet, locations=where, label_check=label_check,
            predictions_format=predictions_format, **tokenizer_options(jieba_hmm, terms, t2s, normalize, punct),
        )
        emit_report(report, fmt, output, None, "")

    run_command(go)


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
        from ..adapters.duck import clean_duck, write_duck

        apply_quiet(quiet)
        check_output_dir(output, report_json)
        check_paths({"SOURCE": source}, {"--output": output, "--report-json": report_json})
        ds, _ = load_data(source, bounds=False)  # cleaning is for raw data: any number of references is accepted
        cleaned, rep = clean_duck(
            ds, normalize=not no_normalize, min_chars=min_chars, max_chars=max_chars,
            dedup_threshold=None if no_dedup else dedup_threshold, min_refs=min_refs,
            num_proc=num_proc if num_proc > 1 else None,
        )
        text = rep.render()
        js = json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n" if report_json else None
        write_duck(cleaned, output)
        if js is not None:
            from ..adapters.files import atomic_write

            atomic_write(report_json, js)
        typer.echo(text)
        typer.echo(f"wrote {output} ({len(cleaned)} queries)", err=True)
        from ..adapters.duck.load import MAX_REFS

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

    run_command(go)


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
        from ..adapters.duck import load_duck, sample_files
        from ..adapters.duck.evaluate import evaluate_predictions

        apply_quiet(not progress)
        check_tokenizer(tokenizer)
        check_output_dir(output, plot)
        plot_format(plot)
        with sample_files() as files:
            check_paths({"the sample data": files["data"], "the sample predictions": files["predictions"]},
                         {"--output": output, "--plot": plot})
            ds = load_duck(files["data"])
            report = evaluate_predictions(
                ds, files["predictions"], tokenizer=tokenizer, bootstrap=bootstrap, num_proc=num_proc, progress=progress
            )
        report.title = f"zheval demo: embedded 小黄鸭 sample, {len(ds)} queries, baseline predictions"
        emit_report(report, fmt, output, plot, "domain")
        if fmt == Format.table and output is None:
            typer.echo(
                "\nnext: zheval score --data test.jsonl --predictions generated_predictions.jsonl --plot scores.png\n"
                "      zheval ceiling --data test.jsonl    zheval compare --data test.jsonl --predictions A.jsonl B.jsonl"
            )

    run_command(go)
