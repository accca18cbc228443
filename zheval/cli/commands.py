"""The ``zheval`` typer app and its commands (score, ceiling, compare, clean, demo), with the option declarations
they share. Each command checks its options and paths first, then runs the 小黄鸭 adapter
(:mod:`zheval.adapters.duck`) and writes what it produced (:mod:`zheval.cli.files`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .files import check_output_dir, check_paths, emit_report, load_data, plot_format
from .params import BOOTSTRAP_PAIRED, BY_COMPARE, DATA_ANY, PREDICTIONS_AB, option, takes
from .options import (
    CLI_TOKENIZERS,
    Format,
    apply_quiet,
    bleu_options,
    check_label_check,
    check_predictions_format,
    check_tokenizer,
    preset_options,
    run_command,
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

@app.command()
@takes("data", "predictions", "tokenizer", "metrics", "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt",
       "output", "plot", "plot_by", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize",
       "punct", "preset", "predictions_format", "label_check", "min_refs", "max_refs", "items", "quiet")
def score(o) -> None:
    """Score predictions against a 小黄鸭 test set: BLEU and ROUGE overall, per domain and per difficulty."""

    def go():
        from ..adapters.duck.evaluate import evaluate_predictions

        ds, kwargs = scoring_arguments(o, {"--data": o.data, "--predictions": o.predictions})
        report = evaluate_predictions(ds, o.predictions, keep_items=o.items, label_check=o.label_check,
                                      predictions_format=o.predictions_format, **kwargs)
        emit_report(report, o.fmt, o.output, o.plot, o.plot_by)

    run_command(go)


@app.command()
@takes("data", "tokenizer", "metrics", "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt", "output",
       "plot", "plot_by", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct",
       "preset", "min_refs", "max_refs", "quiet", data=DATA_ANY)
def ceiling(o) -> None:
    """Human ceiling: each reference scored against the item's other references (needs ≥ 2 references)."""

    def go():
        from ..adapters.duck.ceiling import human_ceiling

        ds, kwargs = scoring_arguments(o, {"--data": o.data})
        emit_report(human_ceiling(ds, **kwargs), o.fmt, o.output, o.plot, o.plot_by)

    run_command(go)


@app.command()
@takes("data", "predictions", "tokenizer", "metrics", "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt",
       "output", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct", "preset",
       "predictions_format", "label_check", "min_refs", "max_refs", "quiet",
       predictions=PREDICTIONS_AB, by=BY_COMPARE, bootstrap=BOOTSTRAP_PAIRED)
def compare(o) -> None:
    """Paired bootstrap comparison of two systems on the same items (B − A, interval, sacrebleu's p-value; an exact
    tie is reported as "no difference", since that p-value is then its minimum 1/(resamples + 1))."""

    def go():
        from ..adapters.duck.compare import compare_predictions

        ds, kwargs = scoring_arguments(o, {"--data": o.data, "--predictions A": o.predictions[0],
                                           "--predictions B": o.predictions[1]})
        report = compare_predictions(ds, o.predictions[0], o.predictions[1], label_check=o.label_check,
                                     predictions_format=o.predictions_format, **kwargs)
        emit_report(report, o.fmt, o.output, None, "")

    run_command(go)


def scoring_arguments(o, inputs: dict):
    """The shared part of score / ceiling / compare: check the options and paths (before any work), load the
    小黄鸭 file, and return ``(dataset, keyword arguments of the 小黄鸭 evaluation)``."""
    apply_quiet(o.quiet)
    check_tokenizer(o.tokenizer)
    plot = getattr(o, "plot", None)
    check_output_dir(o.output, plot)
    check_paths({**inputs, "--terms": o.terms}, {"--output": o.output, "--plot": plot})
    plot_format(plot)
    mets = split_list(o.metrics, "--metrics")
    bleu_opts = {**preset_options(o.preset, mets), **bleu_options(o.smooth, o.max_order)}
    if hasattr(o, "label_check"):
        check_label_check(o.label_check)
        check_predictions_format(o.predictions_format)
    ds, where = load_data(o.data, o.min_refs, o.max_refs)
    return ds, dict(
        tokenizer=o.tokenizer, metrics=mets, by=split_list(o.by, "--by"), bootstrap=o.bootstrap, seed=o.seed,
        num_proc=o.num_proc, rouge_types=split_list(o.rouge_types, "--rouge-types"), multi_ref=o.multi_ref,
        bleu_options=bleu_opts, progress=not o.quiet, locations=where,
        **tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct),
    )


@app.command()
@takes("source", "output", "min_chars", "max_chars", "dedup_threshold", "no_dedup", "min_refs", "no_normalize",
       "report_json", "num_proc", "quiet",
       source=option(Path, "ARGUMENT", default=..., help="小黄鸭 JSONL input"),
       output=option(Path, "--output", "-o", default=..., help="cleaned JSONL output (written atomically)"),
       min_chars=option(int, "--min-chars", default=5, min=0, help="drop references shorter than this (characters)"),
       max_chars=option(int, "--max-chars", default=150, min=1, help="drop references longer than this (characters)"),
       dedup_threshold=option(float, "--dedup-threshold", default=0.85, help="character-bigram Jaccard at or above "
                              "which a reference is a near duplicate (1 = exact only)"),
       no_dedup=option(bool, "--no-dedup", default=False, help="skip near-duplicate removal"),
       min_refs=option(int, "--min-refs", default=2, min=1, help="drop queries left with fewer references"),
       no_normalize=option(bool, "--no-normalize", default=False, help="keep texts as they are (no normalisation)"),
       report_json=option(Optional[Path], "--report-json", help="also write the drop report as JSON"))
def clean(o) -> None:
    """Clean a 小黄鸭 file: normalise, filter reference lengths, drop near duplicates and thin queries; print the
    drop report (every dropped reference and query counted by reason and domain)."""

    def go():
        from ..adapters.duck import clean_duck, write_duck

        apply_quiet(o.quiet)
        check_output_dir(o.output, o.report_json)
        check_paths({"SOURCE": o.source}, {"--output": o.output, "--report-json": o.report_json})
        ds, _ = load_data(o.source, bounds=False)  # cleaning is for raw data: any number of references is accepted
        cleaned, rep = clean_duck(
            ds, normalize=not o.no_normalize, min_chars=o.min_chars, max_chars=o.max_chars,
            dedup_threshold=None if o.no_dedup else o.dedup_threshold, min_refs=o.min_refs,
            num_proc=o.num_proc if o.num_proc > 1 else None,
        )
        text = rep.render()
        js = json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n" if o.report_json else None
        write_duck(cleaned, o.output)
        if js is not None:
            from ..adapters.files import atomic_write

            atomic_write(o.report_json, js)
        typer.echo(text)
        typer.echo(f"wrote {o.output} ({len(cleaned)} queries)", err=True)
        from ..adapters.duck.load import MAX_REFS

        many = sum(1 for r in cleaned["responses"] if len(r) > MAX_REFS) if len(cleaned) else 0
        if many:
            typer.echo(
                f"zheval: warning: {many} quer{'y has' if many == 1 else 'ies have'} more than {MAX_REFS} references; "
                f"the 小黄鸭 format has {MAX_REFS} at most, so scoring {o.output} needs --max-refs", err=True)
        if len(cleaned) == 0:
            typer.echo(
                f"zheval: warning: {o.output} has 0 queries: every query was dropped (see the report above); "
                "scoring it will fail with 'no items'. Loosen --min-chars/--max-chars/--min-refs/--dedup-threshold.",
                err=True,
            )

    run_command(go)


@app.command()
@takes("fmt", "output", "plot", "bootstrap", "num_proc", "tokenizer", "progress",
       tokenizer=option(str, "--tokenizer", "-t", default="char", help=" | ".join(CLI_TOKENIZERS)),
       progress=option(bool, "--progress", default=False, help="show progress bars"))
def demo(o) -> None:
    """Run the main job on the embedded 小黄鸭 sample (66 queries written for zheval, baseline predictions)."""

    def go():
        from ..adapters.duck import load_duck, sample_files
        from ..adapters.duck.evaluate import evaluate_predictions

        apply_quiet(not o.progress)
        check_tokenizer(o.tokenizer)
        check_output_dir(o.output, o.plot)
        plot_format(o.plot)
        with sample_files() as files:
            check_paths({"the sample data": files["data"], "the sample predictions": files["predictions"]},
                         {"--output": o.output, "--plot": o.plot})
            ds = load_duck(files["data"])
            report = evaluate_predictions(
                ds, files["predictions"], tokenizer=o.tokenizer, bootstrap=o.bootstrap, num_proc=o.num_proc,
                progress=o.progress,
            )
        report.title = f"zheval demo: embedded 小黄鸭 sample, {len(ds)} queries, baseline predictions"
        emit_report(report, o.fmt, o.output, o.plot, "domain")
        if o.fmt == Format.table and o.output is None:
            typer.echo(
                "\nnext: zheval score --data test.jsonl --predictions generated_predictions.jsonl --plot scores.png\n"
                "      zheval ceiling --data test.jsonl    zheval compare --data test.jsonl --predictions A.jsonl B.jsonl"
            )

    run_command(go)
