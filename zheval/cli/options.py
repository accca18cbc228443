"""What the command line accepts, and how it refuses the rest: checks and conversions of option values (lists,
bounds, tokenizer, preset, predictions format, label check) into the library's options, and the report of a user
error (``zheval: error: …``, exit code 2, no traceback).
"""

from __future__ import annotations

import os
import sys
from contextvars import ContextVar
from enum import Enum
from pathlib import Path
from typing import Optional, Sequence, Tuple

import typer

from ..results.reducers import MAX_BOOTSTRAP_RESAMPLES, MAX_SEED, check_bootstrap, check_trials
from ..text.terminal import terminal_text
from .terms_file import read_terms

__all__ = [
    "Format",
    "TextFormat",
    "BleuFormat",
    "UserError",
    "read_terms",
    "run_command",
    "take_warnings",
    "CAUGHT",
    "echo",
    "apply_quiet",
    "progress_wanted",
    "note",
    "split_list",
    "MAX_BOOTSTRAP",
    "MAX_SEED",
    "bootstrap_bound",
    "resamples_bound",
    "trials_bound",
    "seed_bound",
    "CLI_TOKENIZERS",
    "check_tokenizer",
    "check_predictions_format",
    "check_label_check",
    "preset_options",
    "bleu_options",
    "tokenizer_options",
    "domain_values",
    "METRIC_OPTIONS",
    "refuse_metric_options",
    "refuse_orphans",
    "TOKENIZER_FLAGS",
    "refuse_tool_tokenizer_options",
    "seed_rule",
    "one_reference_rules",
    "resampling_rules",
]

class Format(str, Enum):
    """``--format`` of a report: an aligned ``table``, ``json`` (everything), or ``markdown``."""

    table = "table"
    json = "json"
    markdown = "markdown"


class TextFormat(str, Enum):
    """``--format`` of ``zheval rouge`` and ``zheval warmup``: an aligned ``table`` or ``json``."""

    table = "table"
    json = "json"


class BleuFormat(str, Enum):
    """``--format`` of ``zheval bleu``: `TextFormat`'s two and ``text``, sacrebleu's own output (its score line
    for one system, its table for several)."""

    table = "table"
    json = "json"
    text = "text"


class UserError(Exception):
    """A problem with the user's input or options: reported as ``zheval: error: …`` with exit code 2."""


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` on stdout (``err``: stderr) through `zheval.text.terminal.terminal_text`: the one way the
    command writes to the terminal, so no control character of the data (predictions, references, ids, group values
    inside a table, a note or an error message) reaches it raw. ``nl``: end with a newline."""
    typer.echo(terminal_text(text), err=err, nl=nl)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """``warnings.showwarning`` of the command: the warning's text escaped like everything else it prints."""
    import warnings

    text = warnings.formatwarning(message, category, filename, lineno, line)
    typer.echo(terminal_text(text), err=True, nl=False)


#: The library's own warnings (``ZhevalWarning``: ``PresetOverrideWarning`` …) caught while a command runs
#: (`run_command`), written in the command's options, each once; a report takes them into its warnings
#: (`take_warnings`), and the ones no report took are printed as ``zheval: warning: …`` lines when the command ends.
CAUGHT: ContextVar[Optional[list]] = ContextVar("zheval_caught_warnings", default=None)


def take_warnings() -> list:
    """The library warnings caught so far in this command (`CAUGHT`), which the caller puts in its report's
    warnings (so they are printed there, not again on stderr); ``[]`` outside a command."""
    caught = CAUGHT.get()
    if not caught:
        return []
    taken = list(caught)
    caught.clear()
    return taken


def _catch(message, category, filename, lineno, file=None, line=None) -> None:
    """``warnings.showwarning`` of a command: a ``ZhevalWarning`` is kept (once) in `CAUGHT`, in the command's words
    (`zheval.cli.option_names.warning_text`), its rows as ``FILE:line`` inside a `zheval.cli.located.rows_named`
    block (`zheval.cli.located.warning_located`); any other warning is printed as Python prints it, escaped (`_show_warning`)."""
    from ..compute.guards import ZhevalWarning
    from .located import warning_located
    from .option_names import COMMAND, warning_text

    caught = CAUGHT.get()
    if caught is None or not issubclass(category, ZhevalWarning):
        return _show_warning(message, category, filename, lineno, file, line)
    text = warning_text(warning_located(str(message)), category, COMMAND.get())
    if text not in caught:
        caught.append(text)


def _print_caught() -> None:
    for text in take_warnings():
        echo(f"zheval: warning: {text}", err=True)


def _fail(message: str) -> None:
    _print_caught()  # the warnings before the error
    echo(f"zheval: error: {message}", err=True)
    raise typer.Exit(code=2)


def run_command(fn):
    """Call ``fn()``; user errors become a message and exit code 2 (never a traceback); in a library's
    ``ValueError``/``TypeError`` the parameter names are written as the command's options
    (`zheval.cli.option_names.in_option_names`). Warnings raised meanwhile are printed escaped (`echo`); the
    library's own (``ZhevalWarning``) go to the report's warnings (`take_warnings`), or else are printed once each
    as ``zheval: warning: …`` when the command ends."""
    import warnings

    from ..io import FileFormatError

    from ..compute.guards import ZhevalWarning

    token = CAUGHT.set([])
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _catch
            warnings.simplefilter("always", ZhevalWarning)  # once per message (`_catch`), not per line of code
            return fn()
    except typer.Exit:
        raise
    except FileFormatError as exc:  # the arguments naming a field as the options typed, nothing else of it
        from .option_names import COMMAND, in_field_options

        _fail(in_field_options(str(exc), COMMAND.get()))
    except (UserError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        _fail(str(exc))
    except (ValueError, TypeError) as exc:  # a library's error: its parameter names written as the options typed
        from .option_names import COMMAND, in_option_names

        _fail(in_option_names(str(exc), COMMAND.get()))
    except OSError as exc:
        _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
    finally:  # the library's warnings no report took, once each
        _print_caught()
        CAUGHT.reset(token)


def progress_wanted(quiet: bool) -> bool:
    """Whether the command shows progress bars: not ``--quiet``, and stderr is a terminal -- never in a log, a pipe or
    CI (tqdm's ``disable=None``) -- and neither ``ZHEVAL_PROGRESS=0`` nor ``TQDM_DISABLE=1`` is set (the rule of the
    library's own bars, `zheval.fast.progress`; break-it 18 C: ``scoring: 0%|…`` filled CI logs)."""
    if quiet or os.environ.get("ZHEVAL_PROGRESS", "").strip() in ("0", "false", "no", "off"):
        return False
    if os.environ.get("TQDM_DISABLE", "").strip() not in ("", "0"):
        return False
    stream = sys.stderr
    return bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())


def apply_quiet(quiet: bool) -> bool:
    """Turn off datasets' progress bars (``scoring``, ``map``) unless `progress_wanted` (``--quiet``, or stderr not
    a terminal); nothing else changes. Returns `progress_wanted`, for the command's own bars."""
    wanted = progress_wanted(quiet)
    if not wanted:
        import datasets

        datasets.disable_progress_bars()
    return wanted


def note(message: str) -> None:
    """Print ``zheval: note: <message>`` on stderr."""
    echo(f"zheval: note: {message}", err=True)


def _no_empty_entry(value: str, option: str | None) -> list[str]:
    """The stripped entries of the comma list ``value``, or `UserError` naming ``option`` and the empty entries
    (``bleu,,rouge``, ``rouge1,``: break-it F11, they were dropped without a word); the library doors' rule
    (`zheval.io.lists.split_entries`)."""
    from ..io.lists import split_entries

    try:
        return split_entries(value, option or "the list")
    except ValueError as err:
        raise UserError(str(err)) from None


def split_list(value: str, option: str | None = None) -> list[str]:
    """Split a comma list (``none``: the empty list); an entry given twice is kept once, with a note
    naming ``option``.

    Raises:
        UserError: a blank value (``--by ''``: it named nothing, and meant the overall row only without a word;
            ``none`` says so), an empty entry (``bleu,,rouge``, ``rouge1,``), naming ``option`` (and the entry's
            position).
    """
    if value is None or value.strip().lower() == "none":
        return []
    if not value.strip():
        raise UserError(f"{option or 'the list'} {value!r} names nothing; give a comma list, or 'none' for none")
    items = _no_empty_entry(value, option)
    out = list(dict.fromkeys(items))
    if len(out) != len(items):
        twice = [v for v in out if items.count(v) > 1]
        note(f"{option or 'the list'} names {', '.join(repr(v) for v in twice)} more than once; each is used once")
    return out


#: Most bootstrap resamples ``--bootstrap`` accepts and largest ``--seed``: the library's bounds
#: (`zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES`, `zheval.results.reducers.MAX_SEED`).
MAX_BOOTSTRAP = MAX_BOOTSTRAP_RESAMPLES


def _bound(check, value, hint: str = ""):
    """``value`` checked by the library's ``check`` (None passes), or ``typer.BadParameter`` with its message: the
    one rule of the count, stated alike for every value it refuses (0, 1, negative, above the maximum)."""
    if value is not None:
        try:
            check(value)
        except ValueError as err:  # the library's message, without its constants' names
            from .option_names import in_option_names

            raise typer.BadParameter(f"{in_option_names(str(err))}{hint}") from None
    return value


_STABLE = "; 1,000-10,000 resamples give stable 95% intervals"


def bootstrap_bound(value: int) -> int:
    """typer callback of ``--bootstrap`` where 0 means no interval (``score``, ``ceiling``): the value, or
    ``typer.BadParameter`` with the library's message (`zheval.results.reducers.check_bootstrap`: 0 or 2 to
    `MAX_BOOTSTRAP`; one resample has no spread), for 1 and for a negative count alike."""
    return _bound(lambda v: check_bootstrap(v, "the number of resamples"), value, _STABLE)


def resamples_bound(value: int) -> int:
    """typer callback of the resample counts where 0 has no meaning (``compare --bootstrap``, ``--confidence-n``,
    ``--paired-bs-n``): the value, or ``typer.BadParameter`` with the library's message without the 0
    (`zheval.results.reducers.check_bootstrap` with ``zero=False``: 2 to `MAX_BOOTSTRAP`), for 0 and 1 alike."""
    return _bound(lambda v: check_bootstrap(v, "the number of resamples", zero=False), value, _STABLE)


def trials_bound(value: int) -> int:
    """typer callback of the approximate-randomisation trial counts (``--paired-ar-n``, ``--resamples``): the value,
    or ``typer.BadParameter`` with the library's message (`zheval.results.reducers.check_trials`: 1 to
    `MAX_BOOTSTRAP`; one trial is a valid, if coarse, test: its p-value is 1/2 or 1)."""
    return _bound(lambda v: check_trials(v, "the number of trials"), value)


def seed_bound(value: int) -> int:
    """typer callback of ``--seed``: the value, or ``typer.BadParameter`` outside 0 … `MAX_SEED`."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"{value} is not a valid seed; seeds are integers from 0 to {MAX_SEED} (2**32 - 1)")
    return value


#: Tokenizer names the command line accepts (``--help`` lists exactly these, and so does the error message).
CLI_TOKENIZERS = ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char")


def check_tokenizer(tokenizer: Optional[str]) -> None:
    """Raise `UserError` for a ``--tokenizer`` not in `CLI_TOKENIZERS` (``None``: the default)."""
    if tokenizer is not None and tokenizer not in CLI_TOKENIZERS:
        raise UserError(f"unknown -t/--tokenizer {tokenizer!r}; valid: {', '.join(CLI_TOKENIZERS)}")
def check_predictions_format(fmt: str) -> None:
    """Raise `UserError` for an unknown ``--predictions-format``."""
    from ..adapters.duck.predictions import PREDICTION_FORMATS

    if fmt not in PREDICTION_FORMATS:
        raise UserError(f"unknown --predictions-format {fmt!r}; valid: {', '.join(PREDICTION_FORMATS)}")


def check_label_check(value: str) -> str:
    """The ``--label-check`` value, or `UserError` when it is unknown."""
    from ..adapters.duck.predictions import LABEL_CHECKS

    if value not in LABEL_CHECKS:
        raise UserError(f"unknown --label-check {value!r}; valid: {', '.join(LABEL_CHECKS)}")
    return value


def preset_options(preset: Optional[str], metrics: list) -> dict:
    """BLEU options for ``--preset`` (merged into the BLEU options; explicit options still override it): the
    presets offered at the ``report`` door ([`zheval.presets.preset_names`][]), for the metrics that have them;
    any other preset is refused with its own reason (``Preset.report_refusal``)."""
    from ..presets import find_preset, preset_names

    if preset is None:
        return {}
    found = find_preset(preset)
    if found is None:
        here = preset_names(door="report")
        text = [f"zheval {m} --preset {'|'.join(names)}" for m in ("rouge", "bleu")
                if (names := preset_names(m, door="text"))]
        raise UserError(f"unknown --preset {preset!r}; valid here: {', '.join(here)}"
                        + (f" (the text-file commands take {' and '.join(text)}; every preset works in "
                           "compute_rouge/compute_bleu(..., preset=...) and the chinese_rouge/chinese_bleu modules)"
                           if text else ""))
    takes = [m for m in found.metrics if "report" in found.part(m).doors]
    if not takes:
        raise UserError(found.report_refusal or f"--preset {preset} is not available in this report: use "
                        f"compute_rouge/compute_bleu(..., preset={preset!r}) or the text-file commands")
    missing = [m for m in metrics if m not in takes]
    if missing:
        raise UserError(_partial_preset_refusal(found, takes, metrics, missing))
    return {"preset": preset}


def _partial_preset_refusal(found, takes: list, metrics: list, missing: list) -> str:
    """The error of ``--preset`` when ``--metrics`` asks for metrics the preset has no part for here: it names
    those metrics (not a metric that is not asked for), the ones it serves, and a tool tokenizer of the same
    defaults (``-t``) for the others."""
    def names(ms):
        shown = {"bleu": "BLEU", "rouge": "ROUGE", "chrf": "chrF"}
        return " and ".join(shown.get(m, m) for m in ms)

    part = found.part(takes[0])
    tok = part.defaults.get("tokenizer")
    served = [m for m in metrics if m in takes]
    hint = (f"; or, without --preset, -t {tok} tokenises every metric as the preset does" if isinstance(tok, str)
            else "")
    return (f"--preset {found.name} is a {names(takes)} preset ({part.summary}) and has no {names(missing)} "
            f"counterpart, which --metrics {','.join(metrics)} asks for: "
            + f"use --metrics {','.join(served or takes)} with it, and score {names(missing)} in a run without "
              f"--preset" + hint)


def bleu_options(smooth: Optional[str], max_order: Optional[int]) -> dict:
    """BLEU options of ``--smooth`` and ``--max-order`` (the ones not given are left out: the defaults apply)."""
    opts = {}
    if smooth is not None:
        opts["smooth_method"] = smooth
    if max_order is not None:
        opts["max_order"] = max_order
    return opts


#: The options of one metric of the report commands (score, ceiling, compare, sample, explain): parameter name →
#: ``(flag, metric)``; the metric is a name of ``--metrics``, or ``bertscore`` (requested by ``--bertscore-model``).
#: `refuse_metric_options` refuses each one given without its metric (break-it F8: ``--rouge-types`` with
#: ``--metrics bleu`` was dropped without a word).
METRIC_OPTIONS = {
    "rouge_types": ("--rouge-types", "rouge"),
    "multi_ref": ("--multi-ref", "rouge"),
    "smooth": ("--smooth", "bleu"),
    "max_order": ("--max-order", "bleu"),
    "chrf_word_order": ("--chrf-word-order", "chrf"),
    "bert_layer": ("--bertscore-layer", "bertscore"),
    "bert_idf": ("--bertscore-idf", "bertscore"),
    "bert_batch_size": ("--bertscore-batch-size", "bertscore"),
    "bert_device": ("--bertscore-device", "bertscore"),
}
_METRIC_LABELS = {"rouge": "ROUGE", "bleu": "BLEU", "chrf": "chrF", "bertscore": "BERTScore"}


def refuse_metric_options(o, metrics) -> None:
    """Raise `UserError` when an option of `METRIC_OPTIONS` was given (``o._given``, `zheval.cli.params.takes`)
    without its metric in ``metrics`` (for ``bertscore``: without ``--bertscore-model``), naming every such option
    and its metric: ``--rouge-types applies to ROUGE: add rouge to --metrics``. Options left at their defaults are
    not refused (``--rouge-types`` has a default value)."""
    given = getattr(o, "_given", frozenset())
    requested = set(metrics) | ({"bertscore"} if getattr(o, "bert_model", None) is not None else set())
    unused: dict = {}
    for name, (flag, metric) in METRIC_OPTIONS.items():
        if name in given and metric not in requested:
            unused.setdefault(metric, []).append(flag)
    if unused:
        raise UserError("; ".join(
            f"{' and '.join(flags)} appl{'ies' if len(flags) == 1 else 'y'} to {_METRIC_LABELS[m]}: "
            + ("add --bertscore-model" if m == "bertscore" else f"add {m} to --metrics") for m, flags in unused.items()))


def refuse_orphans(o, rules) -> None:
    """Raise `UserError` when an option that only means something beside another was given (``o._given``,
    `zheval.cli.params.takes`) without it, as ``compare --resamples`` without ``--test ar`` and ``explain --seed``
    without ``--sample`` are: ``--plot-by`` without ``--plot`` would be dropped without a word. Options left at
    their defaults are not refused.

    Args:
        o: the command's namespace; rules: ``(name, flag, in_use, advice)`` tuples: the option ``name`` (its
            ``--flag``) is refused when given while ``in_use`` is false, with ``"<flag> <advice>"`` (every such
            option named, joined by ``; ``).
    """
    given = getattr(o, "_given", frozenset())
    bad = [f"{flag} {advice}" for name, flag, in_use, advice in rules if name in given and not in_use]
    if bad:
        raise UserError("; ".join(bad))


def one_reference_rules(o, names: Sequence[Tuple[str, str]], one_ref: bool, why: str) -> list:
    """The `refuse_orphans` rules of the multi-reference options ``names`` (``(parameter name, flag)`` pairs:
    ``--multi-ref``, ``--bp-ref-length``): refused when typed with a value that chooses among an item's references
    while the options or the command's structure alone guarantee one reference per item (``one_ref``: one REF file,
    ``--max-refs 1``; ``why`` says which), where it would change nothing and the signature would still name it
    (``nrefs:1|...|multi:mean``; issue 35). ``--bp-ref-length none`` (no brevity penalty) acts on one reference too
    and passes, as an unknown value does (its own error names the valid ones). Data that merely happens to hold one
    reference per item is not refused: the same options serve any data."""
    from ..compute.bertscore import MULTI_REF_RULES
    from ..compute.options import BP_REF_LENGTHS, MULTI_REF_MODES

    choosing = {"multi_ref": (MULTI_REF_MODES, "combines the scores of an item's several references"),
                "bert_multi_ref": (MULTI_REF_RULES, "combines the scores of an item's several references"),
                "bp_ref_length": (tuple(v for v in BP_REF_LENGTHS if v != "none"),
                                  "picks which reference's length the brevity penalty compares with")}
    more = "" if why.startswith("--max-refs") else ", or give more REF files"
    return [(name, flag, not (one_ref and getattr(o, name, None) in choosing[name][0]),
             f"{choosing[name][1]}, and {why} gives every item one reference, so it would change nothing: leave "
             f"{flag} out{more}") for name, flag in names]


def one_reference_note(o, one_each: bool) -> Optional[str]:
    """The note of ``--multi-ref`` typed (even at its default) on data where every item that was scored has exactly
    one reference (``one_each``; counted after ``--max-refs``): the rule that combines several references changed
    nothing. Not refused (the command line alone does not guarantee one reference, `one_reference_rules`; the same
    options serve any data), but said, since the signature still names it (``nrefs:1|...|multi:mean``). ``None``
    otherwise."""
    if "multi_ref" not in getattr(o, "_given", ()) or not one_each:
        return None
    return (f"every item had one reference, so --multi-ref {o.multi_ref} changed nothing (it combines the scores of an "
            "item's several references)")


def report_one_reference_note(o, report):
    """``report`` with the `one_reference_note` of ``zheval score`` in its notes (every format's, JSON ``notes``),
    one reference per item read from its ROUGE signature: ``nrefs:1`` (the references scored, after
    ``--max-refs``). Returns ``report``."""
    from ..results.signature import parse_signature

    sig = (report.signatures or {}).get("rouge")
    text = one_reference_note(o, bool(sig) and parse_signature(sig).get("nrefs") == "1")
    if text is not None:
        report.notes.append(text)
    return report


#: The tokenizer options of the command line (`tokenizer_options`): ``(parameter name, flag)`` pairs.
TOKENIZER_FLAGS = (("normalize", "--normalize"), ("punct", "--punct"), ("t2s", "--t2s"), ("jieba_hmm", "--jieba-hmm"),
                   ("terms", "--terms"))


def refuse_tool_tokenizer_options(o, metrics=(), preset: Optional[str] = None) -> None:
    """Raise `UserError` when a tokenizer option (`TOKENIZER_FLAGS`) was typed (``o._given``,
    `zheval.cli.params.takes`: typed, whatever its value) while the tokenizer in use is a tool tokenizer
    (`zheval.tokenizers.TOOL_TOKENIZERS`), which takes no options: the ``-t`` one, or without ``-t`` the tokenizer
    ``--preset`` fixes for one of ``metrics`` (its parts' ``tokenizer`` default). The library accepts the values
    that change nothing (``--punct keep``, ``--normalize none``), so judging by value let those through without a
    word while ``--normalize default`` was refused (break-it pass 6; issue 35).

    Args:
        o: the command's namespace (``tokenizer``, ``_given``); metrics: the metric names whose part of
            ``preset`` (the ``--preset`` name, or None) is looked at.
    """
    from ..presets import find_preset, tokens_tool
    from ..tokenizers import TOOL_TOKENIZERS

    given = getattr(o, "_given", frozenset())
    flags = [flag for name, flag in TOKENIZER_FLAGS if name in given]
    if not flags:
        return
    tok, where = getattr(o, "tokenizer", None), "-t"
    tool = TOOL_TOKENIZERS[tok].TOOL if tok in TOOL_TOKENIZERS else ""
    if tok is None and preset is not None and (found := find_preset(preset)) is not None:
        parts = [found.part(m) for m in metrics if m in found.metrics]
        tools = [p for p in parts if p is not None and p.defaults.get("tokenizer") in TOOL_TOKENIZERS]
        tok = tools[0].defaults["tokenizer"] if tools else None
        tool, where = (tokens_tool(tools[0]) if tools else ""), f"the tokenizer of --preset {preset}"
    if tok in TOOL_TOKENIZERS:
        raise UserError(f"{' and '.join(flags)}: tokenizer {tok!r} ({where}) reproduces {tool} "
                        f"exactly and takes no options, whatever their value: leave "
                        f"{'it' if len(flags) == 1 else 'them'} out, or pick another tokenizer with -t")


_SEED_UNUSED = "seeds the resampling, and none runs here{}: leave --seed out"


def seed_rule(o, in_use: bool, why: str = "") -> tuple:
    """The `refuse_orphans` rule of ``--seed``: refused when given while nothing is resampled (``--bootstrap 0``,
    ``-b`` without ``--confidence``, ...; break-it pass 5 F7), ``why`` saying what turned the resampling off."""
    return ("seed", "--seed", in_use, _SEED_UNUSED.format(f" ({why})" if why else ""))


def resampling_rules(o) -> list:
    """The `refuse_orphans` rules of ``zheval bleu`` / ``zheval chrf``'s resample counts: ``--confidence-n``
    without ``--confidence``, ``--paired-bs-n`` without ``--paired-bs``, ``--paired-ar-n`` without
    ``--paired-ar`` (each would change nothing)."""
    return [("confidence_n", "--confidence-n", o.confidence, "is the resample count of --confidence; add --confidence"),
            ("paired_bs_n", "--paired-bs-n", o.paired_bs, "is the resample count of --paired-bs; add --paired-bs"),
            ("paired_ar_n", "--paired-ar-n", o.paired_ar, "is the trial count of --paired-ar; add --paired-ar")]


def tokenizer_options(jieba_hmm: bool, terms: Optional[Path], t2s: bool = False, normalize: Optional[str] = None,
                 punct: Optional[str] = None) -> dict:
    """Tokenizer options of [`zheval.tokenizers.get_tokenizer`][] from the command line (unset ones omitted, so
    the tokenizer's defaults apply and the preset tokenizers, which take no option, still work)."""
    from ..io import FileFormatError, read_lines

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
        opts["terms"] = read_terms(terms)
    return opts


def domain_values(domains: Optional[str]):
    """The ``domains`` of the 小黄鸭 loader for ``--domains``: ``None`` (not given) → the format's three
    (`zheval.adapters.duck.load.DOMAINS`); ``any`` → ``None`` (any string); a comma list → those values.

    Raises:
        UserError: an empty list, an empty entry (``生活咨询,,售后支持``), ``any`` within a list (``any,生活咨询``:
            ``any`` is given alone).
    """
    from ..adapters.duck.load import DOMAINS

    if domains is None:
        return DOMAINS
    if domains.strip().lower() == "any":
        return None
    if not domains.replace(",", "").strip():
        raise UserError(f"--domains {domains!r} names no domain; give 'any' or a comma list such as 生活咨询,售后支持")
    values = tuple(dict.fromkeys(_no_empty_entry(domains, "--domains")))
    if any(v.strip().lower() == "any" for v in values):
        raise UserError(f"--domains {domains!r}: 'any' accepts every domain and must be given alone (--domains any); "
                        "a comma list names the domains accepted, such as 生活咨询,售后支持")
    if not values:
        raise UserError(f"--domains {domains!r} names no domain; give 'any' or a comma list such as 生活咨询,售后支持")
    return values
