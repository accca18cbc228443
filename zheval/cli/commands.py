"""The ``zheval`` typer app and its commands (score, ceiling, compare, clean, demo), with the option declarations
they share. Each command checks its options and paths first, then runs the 小黄鸭 adapter
(`zheval.adapters.duck`) and writes what it produced (`zheval.cli.files`).
"""

from __future__ import annotations

from contextlib import contextmanager

from pathlib import Path
from typing import Optional

import typer

from ..text.terminal import terminal_json
from .files import check_jsonl_output, check_output_dir, check_output_format, check_paths, distinct_inputs, emit_report, load_data, plot_format
from .located import RowPlaces, rows_named
from .option_names import notes_in_option_names
from .sacrebleu_flags import ZhevalGroup
from .params import (BOOTSTRAP_PAIRED, BY_SCORE, DATA_ANY, DATA_OPTIONAL, PLOT_BY_SCORE, PREDICTIONS_AB,
                     bertscore_flags, bertscore_options, option, takes)
from .options import (
    CLI_TOKENIZERS,
    Format,
    UserError,
    apply_quiet,
    refuse_metric_options,
    refuse_tool_tokenizer_options,
    refuse_orphans,
    one_reference_rules,
    report_one_reference_note,
    seed_rule,
    bleu_options,
    check_label_check,
    check_predictions_format,
    check_tokenizer,
    domain_values,
    echo,
    note,
    preset_options,
    run_command,
    split_list,
    tokenizer_options,
)

__all__ = ["app", "score", "ceiling", "compare", "clean", "demo"]

#: The BERTScore options of score and compare (``--bertscore-model DIR`` adds the BERTScore-F1 column).
BERTSCORE_FLAGS = tuple(bertscore_flags("bertscore-", required=False))

app = typer.Typer(
    name="zheval",
    cls=ZhevalGroup,  # sacrebleu's flags (-tok zh, -lc, ...) answered with zheval's spelling
    help="Trustworthy Chinese BLEU, ROUGE and chrF: per-domain scores of 小黄鸭 dialogue data with bootstrap "
         "intervals, any predictions file that carries its references, and text files (sacrebleu style).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

def _score_page(o, report, scored_dataset, kwargs: dict):
    """The HTML page of ``zheval score --html`` (None without it): the report's page with the scored items explained
    (``scored_dataset()``: the dataset they were scored from; its first K references with ``--max-refs``). The
    report's items were kept for the page only unless ``--items``."""
    if o.html is None:
        return None
    from ..adapters.report.html_page import score_html_for_options

    scored = scored_dataset()
    if o.max_refs is not None:  # the evaluation scored the first K references: explain those
        from ..adapters.duck.evaluate import first_references_of

        scored = first_references_of(scored, o.max_refs)
    page = score_html_for_options(report, scored, o.html_metric, kwargs)
    page_notes(report)
    if not o.items:  # kept for the page only
        report.items = None
    return page


def max_refs_one_rules(o) -> list:
    """The `refuse_orphans` rule of ``--multi-ref`` under ``--max-refs 1``: every item is then scored against its
    first reference only, so the rule that combines several would change nothing (`one_reference_rules`)."""
    return one_reference_rules(o, [("multi_ref", "--multi-ref")], o.max_refs == 1, "--max-refs 1")


def plot_by_rule(o) -> tuple:
    """The `refuse_orphans` rule of ``--plot-by``: it names the column ``--plot`` draws."""
    return ("plot_by", "--plot-by", o.plot is not None, "is the group column drawn by --plot; add --plot FILE")


@app.command()
@takes("data", "predictions", "pred_field", "ref_field", "id_field", "group_field", "tokenizer", "metrics",
       "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt", "output", "plot", "plot_by", "multi_ref", "smooth",
       "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct", "preset", "predictions_format", "label_check",
       "min_refs", "max_refs", "domains", "items", "quiet", "buckets", "folds", "html",
       "html_metric", "chrf_word_order", "stream", "items_out", *BERTSCORE_FLAGS, data=DATA_OPTIONAL, by=BY_SCORE,
       plot_by=PLOT_BY_SCORE)
def score(o) -> None:
    """Score predictions: against a 小黄鸭 test set (--data; overall, per domain and per difficulty), or, without
    --data, against the references the predictions file carries (LLaMA-Factory predict/label, or the fields named by
    --pred-field/--ref-field/--id-field/--group-field in any JSONL, CSV, TSV or Parquet file)."""

    def go():
        refuse_orphans(o, [plot_by_rule(o), ("html_metric", "--html-metric", o.html is not None,
                                             "chooses the items of the HTML report; add --html FILE"),
                           seed_rule(o, o.bootstrap != 0 or o.folds is not None, "--bootstrap 0, no --folds"),
                           *max_refs_one_rules(o)])
        if o.stream or o.items_out is not None:
            report, by = streamed_report(o)
            emit_report(notes_in_option_names(report_one_reference_note(o, report)), o.fmt, o.output, o.plot,
                        o.plot_by or (by[0] if by else ""))
            return
        if o.data is None:
            from ..adapters.records import score_records

            records, kwargs = records_arguments(o)
            with rows_named(lambda: RowPlaces(records.ids, records.locations(), records.fields.get("pred"))):
                report = score_records(records, keep_items=o.items or o.html is not None,
                                       buckets=report_buckets(o.buckets), folds=report_folds(o.folds, len(records)),
                                       max_refs=o.max_refs, **kwargs)
            page = _score_page(o, notes_in_option_names(report_one_reference_note(o, report)), records.dataset, kwargs)
            emit_report(report, o.fmt, o.output, o.plot, o.plot_by or (kwargs["by"][0] if kwargs["by"] else ""),
                        html=o.html, html_page=page)
            return
        from ..adapters.duck.evaluate import evaluate_predictions

        refuse_records_fields(o)
        named = o.pred_field is not None or o.id_field is not None
        ds, kwargs = scoring_arguments(o, {"--data": o.data, "--predictions": o.predictions}, named_fields=named)
        preds = named_predictions(o) if named else o.predictions
        with rows_named(lambda: data_places(ds, kwargs["locations"])):
            report = evaluate_predictions(ds, preds, keep_items=o.items or o.html is not None,
                                          label_check=o.label_check, predictions_format=o.predictions_format,
                                          max_refs=o.max_refs, buckets=report_buckets(o.buckets),
                                          folds=report_folds(o.folds, len(ds)), **kwargs)
        page = _score_page(o, notes_in_option_names(report_one_reference_note(o, report)), lambda: ds, kwargs)
        emit_report(report, o.fmt, o.output, o.plot, o.plot_by or "domain", html=o.html, html_page=page)

    run_command(go)


@app.command()
@takes("data", "tokenizer", "metrics", "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt", "output",
       "plot", "plot_by", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct",
       "preset", "min_refs", "max_refs", "domains", "quiet", data=DATA_ANY)
def ceiling(o) -> None:
    """Human ceiling: each reference scored against the item's other references (needs ≥ 2 references)."""

    def go():
        from ..adapters.duck.ceiling import human_ceiling

        # the ceiling scores each reference against the item's other ones: under --max-refs 2 that is one
        refuse_orphans(o, [plot_by_rule(o), seed_rule(o, o.bootstrap != 0, "--bootstrap 0"),
                           *one_reference_rules(o, [("multi_ref", "--multi-ref")], o.max_refs == 2,
                                                "--max-refs 2 (the ceiling scores each reference against the item's "
                                                "others)")])
        # human_ceiling cuts to the first K references and counts the cut (its signatures carry maxrefs:K, as score's)
        ds, kwargs = scoring_arguments(o, {"--data": o.data})
        emit_report(notes_in_option_names(human_ceiling(ds, max_refs=o.max_refs, **kwargs)), o.fmt, o.output, o.plot,
                    o.plot_by)

    run_command(go)


@app.command()
@takes("data", "predictions", "tokenizer", "metrics", "rouge_types", "by", "bootstrap", "seed", "num_proc", "fmt",
       "output", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s", "normalize", "punct", "preset",
       "predictions_format", "label_check", "min_refs", "max_refs", "domains", "quiet", "test", "resamples",
       "more_predictions", "html", "chrf_word_order", "pred_field", "ref_field", "id_field", "group_field",
       *BERTSCORE_FLAGS, predictions=PREDICTIONS_AB, by=BY_SCORE, bootstrap=BOOTSTRAP_PAIRED, data=DATA_OPTIONAL)
def compare(o) -> None:
    """Paired comparison of systems on the same items, each against the first (A): X − A with its paired-bootstrap
    interval and sacrebleu's p-value of --test bootstrap (paired bootstrap) or ar (paired approximate
    randomisation); an exact tie (X − A = 0) is marked "no difference", and systems whose outputs are identical
    line for line get that p-value's minimum 1/(resamples + 1), with a note saying it is no evidence. More systems
    follow B: --predictions A.jsonl B.jsonl C.jsonl … Without --data each file
    carries its references (as zheval score reads one): A's items and references are compared, and every other
    file must hold the same items with the same references."""

    def go():
        from ..adapters.compare import COMPARE_TESTS, compare_predictions, system_labels

        refuse_orphans(o, max_refs_one_rules(o))
        more = list(o.more_predictions or [])
        systems = [*o.predictions, *more]
        taken = [str(p) for p in o.predictions if str(p).startswith("-") and not p.exists()]
        if taken:  # click's two-value --predictions took the next option as the second system
            raise UserError(f"compare needs at least two systems: --predictions A.jsonl B.jsonl [C.jsonl …] (only one "
                            f"file was given; {taken[0]!r} is an option, not a predictions file)")
        if o.test not in COMPARE_TESTS:
            raise UserError(f"unknown --test {o.test!r}; valid: {', '.join(COMPARE_TESTS)}")
        if o.test == "bootstrap" and o.resamples is not None and o.resamples != o.bootstrap:
            raise UserError(f"--resamples {o.resamples} is for --test ar (approximate-randomisation trials); the "
                            f"paired bootstrap's p-value and interval use --bootstrap ({o.bootstrap}): give "
                            "--bootstrap N, or add --test ar")
        inputs = {"--data": o.data}
        for lbl, p in zip(system_labels(len(systems)), systems):
            inputs[f"--predictions {lbl}"] = p
        distinct_inputs([(k, p) for k, p in inputs.items() if k != "--data"])  # -p a.jsonl a.jsonl: a system against itself
        ds, systems, kwargs = _compare_inputs(o, systems, inputs)
        with rows_named(lambda: data_places(ds, kwargs["locations"])):  # references: A's file or --data
            report = compare_predictions(ds, *systems, label_check=o.label_check,
                                         predictions_format=o.predictions_format, test=o.test, resamples=o.resamples,
                                         max_refs=o.max_refs, **kwargs)
        notes_in_option_names(report)  # its cautions' bootstrap as --bootstrap, in every format and the page
        page = None
        if o.html is not None:
            from ..adapters.report.html_page import render_html

            page = render_html(report)
        emit_report(report, o.fmt, o.output, None, "", html=o.html, html_page=page)

    run_command(go)


def _compare_inputs(o, systems: list, inputs: dict):
    """``(dataset, the systems' predictions, keyword arguments of compare_predictions)``: the 小黄鸭 file and the
    predictions files (read by ``--pred-field``/``--id-field`` when given), or without ``--data`` predictions files
    that carry their references, read as ``zheval score`` reads them (`read_records_file`; every file must carry
    each ``--group-field``): the first file's items, references and groups are compared (``--by`` defaults to every
    ``--group-field``, as in ``score``), and every other file must hold the same items with the same references
    ([`zheval.adapters.records_compare.same_items`][]: by id, else row by row; each difference named file:line);
    the notes ``score`` gives of each file's rows are in the report, per system
    ([`zheval.adapters.records_compare.compared_predictions`][])."""
    from ..adapters.records_compare import compared_predictions

    if o.data is not None:
        refuse_records_fields(o)
        named = o.pred_field is not None or o.id_field is not None
        ds, kwargs = scoring_arguments(o, inputs, named_fields=named)  # compare_predictions cuts
        return ds, [named_predictions(o, p) for p in systems] if named else systems, kwargs
    check_records_options(o)
    kwargs = checked_options(o, inputs)
    by = records_by(o)
    records = [read_records_file(p, record_fields(o), notes_on_stderr=False) for p in systems]
    preds = compared_predictions(records)  # each with the notes score gives of its rows, in the report per system
    ds = records[0].dataset()  # --max-refs: compare_predictions cuts (and counts the cut in each system's diagnostics)
    return ds, preds, {**kwargs, "by": by, "locations": records[0].locations()}


def data_places(ds, locations: dict, predictions_on_rows: bool = False):
    """The `zheval.cli.located.RowPlaces` of a scored dataset: each item's ``file:line`` from ``locations`` (the
    小黄鸭 file's, or a records file's with its reference fields). A prediction is located only when it is on that
    row (``predictions_on_rows``: a records file); else a ``predictions[i]`` of the library is left as it is."""
    return RowPlaces(list(ds["id"]), locations, None, None if predictions_on_rows else {})


def page_notes(report) -> None:
    """Print what the HTML page leaves out of a report with many groups (`zheval.adapters.report.html_limits`)."""
    from ..adapters.report.html_limits import page_limits

    for n in page_limits(report.groups, report.groups[0].n if report.groups else 0).notes:
        note(n)


def report_buckets(value: Optional[str]):
    """``--buckets``: ``None`` (off), ``True`` for ``default``, or the checked edges (``ValueError`` naming
    ``--buckets`` when they are not increasing numbers > 0)."""
    from ..results.breakdowns import check_buckets

    if value is None:
        return None
    if value.strip().lower() == "default":
        return True
    return check_buckets(value, "--buckets")


def report_folds(value: Optional[int], n_items: int):
    """``--folds``: ``None`` (off) or the checked number (``ValueError`` naming ``--folds`` below 2 or above the
    number of items)."""
    from ..results.breakdowns import check_folds

    return None if value is None else check_folds(value, n_items, "--folds")


def scoring_arguments(o, inputs: dict, named_fields: bool = False):
    """The shared part of score / ceiling / compare: check the options and paths (before any work), load the
    小黄鸭 file, and return ``(dataset, keyword arguments of the 小黄鸭 evaluation)``. ``named_fields``: the
    predictions are read by ``--pred-field``/``--id-field`` (`named_predictions`), so ``--predictions-format``
    takes the records formats.

    ``--max-refs K`` means "score with the first K references of every item" for every command: the file's items
    may then have more than the 小黄鸭 format's 5 (``--min-refs`` is still checked). The dataset is returned whole:
    ``score``, ``ceiling``, ``compare`` and ``sample`` pass ``max_refs`` to the library, which cuts, counts the cut
    before it (the diagnostics' references line; `zheval.results.breakdowns.reference_limit_notes` when it cut
    nothing) and writes ``maxrefs:K`` in the signatures."""
    kwargs = checked_options(o, inputs)
    if hasattr(o, "label_check"):
        if named_fields:
            check_records_format(o.predictions_format)
        else:
            check_predictions_format(o.predictions_format)
    ds, where = load_data(o.data, o.min_refs, o.max_refs, domains=domain_values(getattr(o, "domains", None)))
    by = o.by if o.by is not None else "domain,difficulty"
    return ds, {**kwargs, "by": split_list(by, "--by"), "locations": where}


def checked_options(o, inputs: dict) -> dict:
    """The options every scoring command shares, checked (tokenizer, output paths, plot format, metrics, preset,
    BLEU and tokenizer options), as keyword arguments of the 小黄鸭 evaluation (without ``by`` and ``locations``)."""
    progress = apply_quiet(o.quiet)  # bars on a terminal only (never in a log or CI), and not with -q
    check_tokenizer(o.tokenizer)
    plot = getattr(o, "plot", None)
    html = getattr(o, "html", None)
    check_output_dir(o.output, plot, html)
    check_paths({**inputs, "--terms": o.terms}, {"--output": o.output, "--plot": plot, "--html": html},
                {"--bertscore-model": getattr(o, "bert_model", None)})
    if hasattr(o, "fmt"):  # sample's --output is its review sheet
        check_output_format(o.output, o.fmt, html=hasattr(o, "html"))
    plot_format(plot)
    mets = split_list(o.metrics, "--metrics")
    refuse_metric_options(o, mets)
    if html is not None:
        from ..adapters.report.html_page import check_sample_metric, require_jinja2

        require_jinja2()  # before any scoring: a missing html extra is one line, not a wait and a traceback

        check_sample_metric(getattr(o, "html_metric", None), mets, split_list(o.rouge_types, "--rouge-types"),
                            "--html-metric")
    bleu_opts = {**preset_options(o.preset, mets), **bleu_options(o.smooth, o.max_order)}
    refuse_tool_tokenizer_options(o, mets, getattr(o, "preset", None))
    if hasattr(o, "label_check"):
        check_label_check(o.label_check)
    chrf = {"word_order": getattr(o, "chrf_word_order", 0)} if "chrf" in mets else {}
    if bleu_opts and "bleu" not in mets:  # --preset (its metrics checked by preset_options); --smooth, --max-order above
        raise UserError(f"{', '.join(BLEU_FLAGS[k] for k in bleu_opts)} applies to BLEU: add bleu to --metrics")
    rouge = {"rouge_types": split_list(o.rouge_types, "--rouge-types"), "multi_ref": o.multi_ref} \
        if "rouge" in mets else {}
    bert = bertscore_options(o, "--bertscore-model (the BERTScore-F1 column)") if hasattr(o, "bert_model") else None
    return dict(
        **chrf, **bleu_opts, **rouge, **({"bertscore": bert} if bert is not None else {}),
        tokenizer=o.tokenizer, metrics=mets, bootstrap=o.bootstrap, seed=o.seed,
        num_proc=o.num_proc, progress=progress,
        **tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct),
    )


#: The command-line flag of each BLEU option of the report commands.
BLEU_FLAGS = {"preset": "--preset", "smooth_method": "--smooth", "max_order": "--max-order"}


def refuse_records_fields(o) -> None:
    """With ``--data`` the references and groups come from the 小黄鸭 file: ``--ref-field`` and ``--group-field``
    are refused (naming each one given); ``--pred-field``/``--id-field`` name the predictions file's fields."""
    given = [flag for flag, v in (("--ref-field", o.ref_field), ("--group-field", getattr(o, "group_field", None)))
             if v]
    if given:
        raise UserError(f"{', '.join(given)} name(s) the fields of a predictions file that carries its references, "
                        "used without --data; with --data the references and groups come from the 小黄鸭 file "
                        "(group it with --by; --pred-field and --id-field name the predictions file's fields)")


def check_records_format(fmt: str) -> None:
    """Raise `UserError` for a ``--predictions-format`` that is not a records format."""
    from ..adapters.records import RECORD_FORMATS

    if fmt == "text":
        raise UserError("--predictions-format text: --pred-field/--id-field name fields of a JSONL, CSV, TSV or "
                        "Parquet file; a text file has one prediction per line and no fields")
    if fmt not in RECORD_FORMATS:
        raise UserError(f"unknown --predictions-format {fmt!r}; valid with named fields: {', '.join(RECORD_FORMATS)}")


def named_predictions(o, path=None):
    """``score --data D --predictions P --pred-field F [--id-field I]`` (and explain, compare, sample): the
    predictions of any JSONL, CSV, TSV or Parquet file (``path``, default ``--predictions``) by their field names
    ([`zheval.adapters.records.read_records`][] without references), joined to the 小黄鸭 file by id (with
    ``--id-field``) or in order."""
    from ..adapters.records import predictions_from_records, read_records

    records = read_records(o.predictions if path is None else path, pred_field=o.pred_field, id_field=o.id_field,
                           format=o.predictions_format, with_references=False)
    return predictions_from_records(records)


def records_arguments(o):
    """``score`` without ``--data``: the predictions file read as records ([`zheval.adapters.records.read_records`][])
    after every option is checked, and the keyword arguments of [`zheval.adapters.records.score_records`][]."""
    check_records_options(o)
    kwargs = checked_options(o, {"--predictions": o.predictions})
    by = records_by(o)
    if o.plot is not None and not by and getattr(o, "group_field", None):
        raise UserError(f"--plot draws the scores per group, and --by {o.by} leaves the report without groups: drop "
                        f"--by {o.by} (the groups are then --group-field's: {', '.join(o.group_field)}) or leave "
                        "out --plot")
    if o.plot is not None and not by:
        raise UserError("--plot draws the scores per group: name a group field with --group-field (without --data "
                        "the report has no groups otherwise)")
    fields = record_fields(o)
    if getattr(o, "stream", False):
        return fields, {**kwargs, "by": by}
    return read_records_file(o.predictions, fields, notes_on_stderr=False), {**kwargs, "by": by}


def check_records_options(o) -> None:
    """Refuse what a predictions file that carries its references (``-p`` without ``--data``: score, explain,
    compare, sample) cannot take, each option named: ``--predictions-format text`` or unknown, ``--min-refs`` and
    ``--domains`` (options of a 小黄鸭 file), ``--label-check`` (typed on the command line, even as its default)."""
    from ..adapters.records import RECORD_FORMATS

    if o.predictions_format == "text":
        raise UserError("--predictions-format text: a text file has no references; score it with --data (a 小黄鸭 "
                        "file), or use the sacrebleu-style commands: zheval bleu REF.txt -i HYP.txt, zheval rouge "
                        "REF.txt -i HYP.txt")
    if o.predictions_format not in RECORD_FORMATS:
        raise UserError(f"unknown --predictions-format {o.predictions_format!r}; valid without --data: "
                        f"{', '.join(RECORD_FORMATS)}")
    files = o.predictions if isinstance(o.predictions, (list, tuple)) else [o.predictions]  # compare: several
    for flag, v in (("--min-refs", getattr(o, "min_refs", None)), ("--domains", getattr(o, "domains", None))):
        if v is not None:
            raise UserError(f"{flag} is an option of the 小黄鸭 file (--data); without --data every row of "
                            f"{', '.join(str(f) for f in files)} is scored with its own references")
    if "label_check" in getattr(o, "_given", ()):  # typed, even as the default strict: it has no meaning here
        raise UserError("--label-check compares LLaMA-Factory labels with a 小黄鸭 file's references (--data); "
                        "without --data the labels are the references")


def records_by(o) -> list:
    """The group columns of a records report: ``--by`` (default: every ``--group-field``), each one a
    ``--group-field`` (`UserError` naming the others)."""
    groups = list(getattr(o, "group_field", None) or [])
    by = groups if o.by is None else split_list(o.by, "--by")
    missing = [b for b in by if b not in groups]
    if missing:
        raise UserError(f"--by {','.join(missing)}: without --data the report groups by --group-field fields only "
                        f"(given: {groups or 'none'}); add --group-field {missing[0]}")
    return by


def record_fields(o) -> dict:
    """The field arguments of [`zheval.adapters.records.read_records`][] from ``--pred-field``, ``--ref-field``,
    ``--id-field``, ``--group-field`` (when the command has it) and ``--predictions-format``."""
    return dict(pred_field=o.pred_field, ref_field=list(o.ref_field or []) or None, id_field=o.id_field,
                group_fields=list(getattr(o, "group_field", None) or []), format=o.predictions_format)


def read_records_file(path, fields: dict, *, notes_on_stderr: bool = True):
    """The records of ``path`` ([`zheval.adapters.records.read_records`][] with ``fields``): every problem named
    file:line; a field-name error in the command line's words. With ``notes_on_stderr`` (explain, sample; ``score``
    and ``compare`` put them in their reports instead), the notes ``score`` gives of the file's rows, each on stderr
    after the file's name ([`zheval.adapters.records.records_notes`][]: a reference field left empty or null in some
    rows, whose references are then the ones they have; quoted cells over several lines)."""
    from ..adapters.records import read_records, records_notes

    with _field_flags():
        records = read_records(path, **fields)
    if notes_on_stderr:
        for n in records_notes(records):
            note(f"{records.source}: {n}")
    return records


@contextmanager
def _field_flags():
    """A field-name error of the records readers in the command line's words (``--ref-field``, not ``ref_field``:
    `zheval.cli.option_names.in_field_options`, which leaves the quoted field names alone)."""
    from .option_names import COMMAND, in_field_options

    try:
        yield
    except ValueError as exc:
        if getattr(exc, "problems", None) is None:
            raise UserError(in_field_options(str(exc), COMMAND.get())) from None
        raise


def streamed_report(o):
    """``score --stream`` ([`zheval.adapters.records_stream.score_records_stream`][]): the options checked first
    (the ones that need every item refused, each named), then the file scored chunk by chunk. Returns
    ``(report, by)``."""
    from ..adapters.records_stream import score_records_stream
    from ..compute.batches import items_format

    if not o.stream:
        raise UserError("--items-out writes the per-item scores of --stream: add --stream (or use --items)")
    given = [flag for flag, on in (("--data", o.data is not None), ("--html", o.html is not None),
                                   ("--items", o.items), ("--buckets", o.buckets is not None),
                                   ("--folds", o.folds is not None), ("--max-refs", o.max_refs is not None),
                                   ("--num-proc", o.num_proc != 1),
                                   ("--bertscore-model", o.bert_model is not None)) if on]
    if given:
        raise UserError(f"--stream keeps sums, not items: {', '.join(given)} cannot be used with it (score without "
                        "--stream for them; per-item scores: --items-out FILE)")
    check_output_dir(o.items_out)  # before: "[Errno 2] No such file or directory: 'nope/x.jsonl.partial'"
    check_paths({"--predictions": o.predictions, "--terms": o.terms}, {"--items-out": o.items_out, "--output": o.output})
    if o.items_out is not None:
        try:
            items_format(o.items_out, "--items-out")
        except ValueError as exc:
            raise UserError(str(exc)) from None
    fields, kwargs = records_arguments(o)
    kwargs.pop("num_proc", None)
    kwargs["progress"] = None if kwargs.get("progress") else False  # rows and rows/s, on a terminal only
    with _field_flags():
        report = score_records_stream(o.predictions, **fields, items_path=o.items_out, **kwargs)
    return report, kwargs["by"]


@app.command()
@takes("source", "output", "min_chars", "max_chars", "dedup_threshold", "no_dedup", "min_refs", "no_normalize",
       "write_normalized", "report_json", "num_proc", "domains", "quiet",
       source=option(Path, "ARGUMENT", default=..., help="小黄鸭 JSONL input"),
       output=option(Path, "--output", "-o", default=..., help="cleaned JSONL output (written atomically)"),
       min_chars=option(int, "--min-chars", default=5, min=0, help="drop references shorter than this (characters)"),
       max_chars=option(int, "--max-chars", default=150, min=1, help="drop references longer than this (characters)"),
       dedup_threshold=option(float, "--dedup-threshold", default=0.85, help="character-bigram Jaccard at or above "
                              "which a reference is a near duplicate (1 = exact only)"),
       no_dedup=option(bool, "--no-dedup", default=False, help="skip near-duplicate removal"),
       min_refs=option(int, "--min-refs", default=2, min=1, help="drop queries left with fewer references"),
       no_normalize=option(bool, "--no-normalize", default=False, help="decide empty references, lengths and "
                           "duplicates on the texts as given (no normalisation)"),
       write_normalized=option(bool, "--write-normalized", default=False, help="write the normalised texts instead "
                               "of the originals (default: every kept text exactly as given); raw-text scoring "
                               "(--preset sacrebleu-zh, --normalize none, bertscore, judge) of the output then differs"),
       report_json=option(Optional[Path], "--report-json", help="also write the drop report as JSON"))
def clean(o) -> None:
    """Clean a 小黄鸭 file: filter reference lengths, drop near duplicates and thin queries, judged on normalised
    text; every kept text is written exactly as given (--write-normalized writes the normalised ones). Prints the
    drop report (every dropped reference and query counted by reason and domain). --domains any (or a comma list)
    accepts other domain values, as in score."""

    def go():
        from ..adapters.duck import clean_duck, write_duck

        refuse_orphans(o, [("dedup_threshold", "--dedup-threshold", not o.no_dedup,
                            "is the threshold of near-duplicate removal, which --no-dedup skips; give one of them"),
                           ("write_normalized", "--write-normalized", not o.no_normalize,
                            "writes the normalised texts, which --no-normalize turns off; give one of them")])
        apply_quiet(o.quiet)
        check_output_dir(o.output, o.report_json)
        check_paths({"SOURCE": o.source}, {"--output": o.output, "--report-json": o.report_json})
        check_jsonl_output("--output", o.output, "clean")
        # cleaning is for raw data: any number of references, empty ones (dropped as 'empty'); domains as score's
        ds, _ = load_data(o.source, bounds=False, domains=domain_values(o.domains), empty_refs=True)
        cleaned, rep = clean_duck(
            ds, normalize=not o.no_normalize, min_chars=o.min_chars, max_chars=o.max_chars,
            dedup_threshold=None if o.no_dedup else o.dedup_threshold, min_refs=o.min_refs,
            write_normalized=o.write_normalized,
            num_proc=o.num_proc if o.num_proc > 1 else None,
        )
        text = rep.render()
        js = terminal_json(rep.to_dict(), indent=2) + "\n" if o.report_json else None
        write_duck(cleaned, o.output)
        if js is not None:
            from ..adapters.files import atomic_write

            atomic_write(o.report_json, js)
        echo(text)
        echo(f"wrote {o.output} ({len(cleaned)} queries)", err=True)
        from ..adapters.duck.load import MAX_REFS

        many = sum(1 for r in cleaned["responses"] if len(r) > MAX_REFS) if len(cleaned) else 0
        if many:
            echo(f"zheval: warning: {many} quer{'y has' if many == 1 else 'ies have'} more than {MAX_REFS} references; "
                 f"the 小黄鸭 format has {MAX_REFS} at most, so scoring {o.output} needs --max-refs", err=True)
        if len(cleaned) == 0:
            echo(f"zheval: warning: {o.output} has 0 queries: every query was dropped (see the report above); "
                 "scoring it will fail with 'no items'. Loosen --min-chars/--max-chars/--min-refs/--dedup-threshold.",
                 err=True)

    run_command(go)


@app.command()
@takes("fmt", "output", "plot", "bootstrap", "num_proc", "tokenizer", "quiet",
       tokenizer=option(str, "--tokenizer", "-t", default="char", help=" | ".join(CLI_TOKENIZERS)))
def demo(o) -> None:
    """Run the main job on the embedded 小黄鸭 sample (66 queries written for zheval, baseline predictions)."""

    def go():
        from ..adapters.duck import load_duck, sample_files
        from ..adapters.duck.evaluate import evaluate_predictions

        progress = apply_quiet(o.quiet)  # as every command: bars on a terminal only, -q none (was --progress)
        check_tokenizer(o.tokenizer)
        check_output_dir(o.output, o.plot)
        plot_format(o.plot)
        with sample_files() as files:
            check_paths({"the sample data": files["data"], "the sample predictions": files["predictions"]},
                         {"--output": o.output, "--plot": o.plot})
            check_output_format(o.output, o.fmt)
            ds = load_duck(files["data"])
            report = evaluate_predictions(
                ds, files["predictions"], tokenizer=o.tokenizer, bootstrap=o.bootstrap, num_proc=o.num_proc,
                progress=progress,
            )
        notes_in_option_names(report)
        report.title = f"zheval demo: embedded 小黄鸭 sample, {len(ds)} queries, baseline predictions"
        emit_report(report, o.fmt, o.output, o.plot, "domain")
        if o.fmt == Format.table and o.output is None:
            echo(
                "\nnext: zheval score --data test.jsonl --predictions generated_predictions.jsonl --plot scores.png\n"
                "      zheval ceiling --data test.jsonl    zheval compare --data test.jsonl --predictions A.jsonl B.jsonl"
            )

    run_command(go)
