"""``zheval bleu`` and ``zheval rouge``: plain text files, one segment per line, the sacrebleu way.

::

    zheval bleu  REF [REF ...] [-i HYP [HYP ...]] [-b] [--format table|json] [-w N] [--scale 100|1]
                 [--tokenizer char|jieba|none|sacrebleu-zh|llamafactory-char] [--preset sacrebleu-zh|...]
                 [--smooth ...] [--max-order N] [--t2s] [--normalize ...] [--punct ...] [--jieba-hmm] [--terms F]
                 [--bootstrap N] [--seed S] [--allow-empty-hypotheses] [-f table|json|text]
                 [--confidence [--confidence-n K]] [--paired-bs [--paired-bs-n K] | --paired-ar [--paired-ar-n T]]
    zheval rouge REF [REF ...] [-i HYP ...] [--rouge-types rouge1,rouge2,rougeL] [--multi-ref max|...] [...]

Conventions follow sacrebleu 2.6.0's command line (``sacrebleu REF [REF ...] -i HYP``): line *k* of every
reference file is a reference of segment *k* (several reference files = several references per segment); the
hypotheses come from ``-i`` or, without it, from standard input; several ``-i`` files are several systems, scored
side by side with a paired bootstrap test of each against the first (`zheval.results.reducers.paired_bootstrap`,
sacrebleu's ``--paired-bs`` test: same resampled segments for both systems, its p-value); ``-b`` prints the score
only; ``-w`` the decimals (default 1 on the 0–100 scale, as sacrebleu; 4 with ``--scale 1``). Scores are on the
0–100 scale by default (sacrebleu's); ``--scale 1`` gives the library's 0–1. ``--preset sacrebleu-zh`` is exactly
``sacrebleu REF -i HYP --tokenize zh``. ``zheval bleu`` also takes sacrebleu's ``--confidence``, ``--paired-bs``,
``--paired-ar`` and ``-f text`` with sacrebleu's meaning and output (`zheval.cli.resampling`, the code of ``zheval
chrf``); a file of one segment has no interval and no p-value
(``n=1, no interval``). ``--bootstrap`` is the resample count of zheval's percentile interval of the table and JSON:
typed with a count beside ``-b`` or ``-f text``, which compute none, it is refused (`_bootstrap_rule`). The output is `zheval.cli.textfiles_report`'s.

Every number is the library's ([`zheval.compute.bleu.bleu_items`][] / [`bleu_result`][zheval.compute.bleu.bleu_result],
[`zheval.compute.rouge.rouge_items`][] / [`rouge_result`][zheval.compute.rouge.rouge_result]), with its signature.

Refused, each naming the file and line (all problems listed together): a file that is not UTF-8 (a BOM and CRLF
line ends are accepted; a removed BOM is named in a note, since sacrebleu keeps it as a character), a line that
starts with a BOM inside the file (``cat a.txt b.txt``: the JSON Lines door's refusal, `zheval.io.encoding.INNER_BOM`;
``--preset sacrebleu-zh`` scores it as sacrebleu does, a character, with a warning naming ``FILE:line``:
`zheval.cli.textfile_presets.keeps_bom`), an empty or whitespace-only line in a reference file (an empty reference
cannot be scored;
``--preset sacrebleu-zh`` scores it as sacrebleu does, reference length 0, counted in a warning naming the first
``FILE:line`` and in the table's note and the JSON's ``empty_references``; a line with no token, e.g. only U+200B, is
refused by the empty-reference rule once tokenised) or a blank line in a hypothesis file
(`zheval.text.normalize.is_blank`, the emptiness rule of every door: only whitespace and invisible characters such as
U+200B; unless ``--allow-empty-hypotheses``: then it is scored as the tokenizer reads it -- 0 unless it keeps an invisible character as a token -- and the count is printed), files with different numbers of lines (ragged reference files included), a file whose every non-blank line is a JSON
string literal (``print(json.dumps(text))``: `zheval.io.json_strings`; scored and said under ``--preset sacrebleu-zh``;
some such lines with escapes: scored, said). A final line break
does not start another segment. Line ends are removed; nothing else is stripped (the tokenizers normalise spaces).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional, Sequence

import numpy as np
import typer
from typer.core import TyperCommand

from ..results.copies import copy_kind
from ..results.diagnostics import describe_blank, is_blank
from .commands import app
from .options import (UserError, apply_quiet, bleu_options, check_tokenizer, echo, note, one_reference_rules,
                      refuse_orphans, take_warnings,
                      resampling_rules, run_command, seed_rule, split_list, tokenizer_options,
                      refuse_tool_tokenizer_options)
from .option_names import caution_option
from .params import BLEU_FORMAT, option, takes
from .resampling import (confidence_option, confidence_resamples, paired_resamples, paired_test, resample_systems,
                         resampled_signature, resampling_cautions, rounded_perfect_notes)
from .textfile_presets import (bom_lines_warning, starts_with_bom, check_text_preset, empty_references_note, empty_references_seen,
                               keeps_bom, preset_scores_empty)
from .textfiles_report import blank_lines_note, json_text, metric_label, sacrebleu_text, score_only_text, table_text

__all__ = ["bleu", "rouge", "read_segments", "read_text_files", "references_located", "score_text_files", "spread_inputs",
           "SystemsCommand", "STDIN", "input_warnings"]

STDIN = "<stdin>"
"""The name standard input gets in messages and reports."""


def _problem(path: str, line: int, message: str):
    from ..io import Problem

    return Problem(path, line, None, message)


def read_segments(name: str, data: bytes, role: str, allow_empty: bool, problems: list,
                  bom_lines: Optional[list] = None) -> list:
    """The segments (lines) of one text file, read by [`zheval.io.rows.read_lines`][] (gzip undone, the encoding
    and line rules of every door).

    Args:
        name: the file name for messages. data: its bytes. role: ``"reference"`` or ``"hypothesis"``.
        allow_empty: accept empty lines (hypotheses only: empty predictions).
        problems: list the [`Problem`][zheval.io.problems.Problem] s are appended to (not UTF-8, another encoding, a
            gzip that cannot be read, CR-only line ends, an empty line, a line that starts with a byte-order mark
            inside the file, in the JSON Lines door's words: `zheval.io.encoding.INNER_BOM`).
        bom_lines: ``None``: such a line is a problem; a list: it is kept as read (U+FEFF a character of the
            segment, as sacrebleu reads it) and ``(name, line)`` appended (`zheval.cli.textfile_presets.keeps_bom`).

    Returns:
        One string per line (line ends removed; a final line break does not start another line); ``[]`` after a
        problem of the whole file.
    """
    from ..io import read_lines
    from ..io.encoding import INNER_BOM

    lines = read_lines(name, role, problems, data=data)
    if lines is None:
        return []
    out = []
    for k, text in lines:
        if text.startswith("\ufeff"):  # the file's own BOM is removed before line 1: `cat a.txt b.txt`
            if bom_lines is None:  # a blank line so is also an empty line (below): both named
                problems.append(_problem(name, k, f"{INNER_BOM} remove it"))
            else:
                bom_lines.append((name, k))
        # a hypothesis: the emptiness rule of every door (blank: only whitespace and invisible characters such as
        # U+200B); a reference line: blank by whitespace here, the empty-reference rule (no token) after tokenising
        if (is_blank(text) if role == "hypothesis" else not text.strip()) and not allow_empty:
            what = ("an empty reference cannot be scored; every line of a reference file is a reference of that "
                    "segment" if role == "reference" else
                    "an empty hypothesis; pass --allow-empty-hypotheses to score it as the tokenizer reads it (0 "
                    "unless it keeps an invisible character as a token)")
            held = describe_blank(text)  # what the blank line holds (NBSP, U+200B ...), every character listed
            problems.append(_problem(name, k, f"empty line{f' ({held})' if held else ''}: {what}"))
        out.append(text)
    return out


def _read_file(path: Path, role: str) -> bytes:
    from ..io import existing_file

    return existing_file(path, role).read_bytes()


def _read_stdin() -> bytes:
    stream = typer.get_binary_stream("stdin")
    if sys.stdin is not None and getattr(sys.stdin, "isatty", lambda: False)():
        raise UserError("no hypotheses: give them with -i HYP.txt or on standard input (zheval bleu REF.txt < HYP.txt)")
    return stream.read()


#: The names of standard input after ``-i`` (``/dev/stdin`` is no regular file when it is a pipe: it was "not found").
_STDIN_NAMES = ("-", "/dev/stdin")

_REFS_TWICE = ("give each reference file once (one file twice is one set of references, not two: the signature "
               "would read nrefs:2)")
#: Said when a hypothesis file holds a reference file's text (the file itself, or a copy): no score is promised (two
#: one-character lines get BLEU 0, as in sacrebleu; see `zheval.results.copies`).
_SELF_SCORED = ("if that is not the point (a sanity check), give the system's output with -i and the references "
                "before -i")


def read_text_files(refs: List[Path], hyps: Optional[List[Path]], allow_empty: bool, empty_refs: bool = False,
                    said: Optional[list] = None, bom_lines: Optional[list] = None):
    """``(reference names, per-segment reference lists, hypothesis names, per-system segment lists)``, or a
    [`FileFormatError`][zheval.io.problems.FileFormatError] listing every problem (encoding, empty lines, line counts);
    `UserError` when ``-i`` names a file (or ``-``, standard input) more than once, a reference is ``-`` (standard
    input is for hypotheses only, as in sacrebleu's CLI), or the references name one file more than once
    (`zheval.cli.files.distinct_inputs`: one set of references is not two), before anything is read; two
    reference files holding the same text (`zheval.cli.files.distinct_texts`) after they are read. A hypothesis file
    that holds a reference file's text (the file itself or a copy) is scored, as sacrebleu
    scores it, with a warning naming both (a sanity check is legitimate; a mix-up is then said): appended to
    ``said`` when it is given (the command prints it with its other warnings and puts it in its JSON), else printed.
    ``empty_refs``: accept empty reference lines (a preset whose tool scores empty references,
    ``scores_empty_references``). ``bom_lines``: `read_segments`' (``None``: a line that starts with a byte-order
    mark inside a file is refused at FILE:line, as the JSON Lines door refuses it)."""
    from ..io import FileFormatError, json_string_check

    given = [str(p) for p in hyps or []]
    twice = sorted({n for n in given if given.count(n) > 1})
    if twice:  # before any file is read: '-' twice would read standard input twice (empty the second time)
        stdin = ("; '-' is standard input, which can be read once: give one system on it and the others as files"
                 if "-" in twice else "")
        raise UserError(f"-i names {twice} more than once; give each system once{stdin}")
    if "-" in [str(p) for p in refs]:  # sacrebleu's CLI too reads references from files and hypotheses from stdin
        raise UserError("standard input ('-') is not accepted for references: references are read from files, "
                        "hypotheses from -i HYP.txt or standard input (as sacrebleu reads them); save the references "
                        "to a file")
    from .files import distinct_inputs, distinct_texts

    distinct_inputs([("-i", p) for p in hyps or []])  # -i h ./h: one file, by compare's and judge's rule
    distinct_inputs([("reference", p) for p in refs], _REFS_TWICE)
    problems: list = []
    ref_names = [str(p) for p in refs]
    ref_datas = [_read_file(p, "reference") for p in refs]
    ref_streams = [read_segments(str(p), d, "reference", empty_refs, problems, bom_lines)
                   for p, d in zip(refs, ref_datas)]
    if hyps:
        hyp_names = [STDIN if str(p) in _STDIN_NAMES else str(p) for p in hyps]
        datas = [_read_stdin() if str(p) in _STDIN_NAMES else _read_file(p, "hypothesis") for p in hyps]
    else:
        hyp_names, datas = [STDIN], [_read_stdin()]
    systems = [read_segments(n, d, "hypothesis", allow_empty, problems, bom_lines) for n, d in zip(hyp_names, datas)]
    names = ref_names + hyp_names
    streams = ref_streams + systems
    counts = [len(s) for s in streams]
    if not problems:
        from ..io import EMPTY_FILE

        problems += [_problem(n, 0, f"no items in {n} ({EMPTY_FILE})") for n, c in zip(names, counts) if not c]
    # the line counts are compared even when some lines are empty: a second line break at the end of one file is
    # first of all a line too many, and is named as such beside its empty-line problem
    if all(counts) and len(set(counts)) > 1:
        base = counts[0]
        for n, s, c in zip(names[1:], streams[1:], counts[1:]):
            if c != base:
                line = min(c, base) + 1
                longer, shorter = (n, names[0]) if c > base else (names[0], n)
                rest = (s if c > base else streams[0])[line - 1:]
                blank = (f"; the extra line(s) of {longer} are empty (a line break too many at the end?)"
                         if all(map(is_blank, rest)) else "")
                problems.append(_problem(n, 0, f"has {c} line(s) but {names[0]} has {base}: line {line} of {longer} "
                                               f"has no counterpart in {shorter} (every file needs one line per "
                                               f"segment; ragged reference files are not supported){blank}"))
    # lines written as JSON strings (`zheval.io.json_strings`): all refused, unless a preset reads as sacrebleu does
    checks = [json_string_check(n, enumerate(s, 1), _JSON_STRINGS_INSTEAD, bom_lines is None) for n, s in zip(names, streams)]
    problems += [bad for bad, _ in checks if bad is not None]
    if problems:
        raise FileFormatError(problems, "invalid text files")
    _say([text for _, text in checks if text is not None], said)
    distinct_texts([("reference", n, r) for n, r in zip(ref_names, ref_streams)], _REFS_TWICE)
    for hyp_name, hyp in zip(hyp_names, systems):  # -i the reference file or a copy: scored, said
        for ref_name, ref in zip(ref_names, ref_streams):
            kind = copy_kind(hyp, [[r] for r in ref])  # the check of every door (`zheval.results.copies`)
            if kind is not None:
                how = " up to whitespace and invisible characters" if kind == "spacing" else ""
                text = (f"-i {hyp_name} holds the same text as reference {ref_name} (every line equal{how}): "
                        f"{_SELF_SCORED}")
                _say([text], said)
    for name, data in zip(names, ref_datas + datas):
        if starts_with_bom(name, data):
            note(f"{name}: a UTF-8 byte-order mark (BOM) before line 1 was removed, as every zheval door does; "
                 "sacrebleu keeps it as a character of the first segment, so its score of this file can differ "
                 "(save the file without the BOM to compare)")
    references = [list(r) for r in zip(*ref_streams)]
    return ref_names, references, hyp_names, systems


def _say(texts: list, said: Optional[list]) -> None:
    """The warnings ``texts`` appended to ``said`` (the command prints them with its others and puts them in its
    JSON), or printed when it is ``None``."""
    for text in texts:
        if said is None:
            echo(f"zheval: warning: {text}", err=True)
        else:
            said.append(text)


_JSON_STRINGS_INSTEAD = ("or score a JSON Lines file of the texts with zheval score -p FILE.jsonl (--pred-field and "
                         "--ref-field name its fields)")


def references_located(exc: ValueError, ref_names: list, hypothesis: Optional[str] = None) -> ValueError:
    """A row error of the library (``predictions[i]``, ``references[i][j]``, an
    [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]) in the files' words: segment *i* is line
    *i* + 1 of reference file *j* and of the hypothesis file ``hypothesis`` (`zheval.cli.located.located_error` with
    `zheval.cli.located.TextFilePlaces`); any other error as it is."""
    from .located import TextFilePlaces, located_error

    return located_error(exc, TextFilePlaces(ref_names, hypothesis))


def _rouge_sums(sums: np.ndarray) -> np.ndarray:
    return sums[:, 0] / sums[:, 1]


def score_text_files(metric: str, references: list, systems: list, names: list, options: dict,
                     bootstrap: int = 1000, seed: int = 12345, *, paired: Optional[str] = "bs",
                     paired_n: Optional[int] = None, confidence_n: int = 0, ref_names: Sequence[str] = ()) -> dict:
    """Score one or more systems against per-segment references (0–1 scale).

    Args:
        metric: ``"bleu"`` or ``"rouge"``. references: per segment a list of reference strings.
        systems: per system a list of hypothesis strings (one per segment). names: the systems' names.
        options: options of [`zheval.compute.bleu.bleu_config`][] / [`zheval.compute.rouge.rouge_config`][].
        bootstrap: resamples for each system's 95% percentile interval (0: none). seed: the seed of every resampling.
        paired: the test of every system after the first against it: ``"bs"`` (paired bootstrap), ``"ar"``
            (approximate randomisation) or ``None``; paired_n: its resamples / trials (``None``: ``bootstrap`` for
            ``"bs"``, 10,000 for ``"ar"``); confidence_n: resamples of sacrebleu's ``μ ± CI`` of every system (0:
            none) -- all three as `zheval.cli.resampling.resample_systems`. ref_names: as `input_warnings`.

    Returns:
        ``{"metric", "keys" (score names: ["bleu"] or the ROUGE types), "signature" (the library's, with the
        resampling of the tests and ``μ ± CI``: `zheval.cli.resampling.resampled_signature`), "segments", "systems": [{"system",
        "scores": {key: value}, "intervals": {key: [low, high] or None} (with bootstrap), "result": the library result,
        ["no_interval": why there is none (a file of one segment)]}], "tests": {key: the rows of `resample_systems`},
        "paired": [{"system", "baseline", "metric", "test", "delta", "delta_low", "delta_high", "p_value",
        "n_resamples" or "n_trials", "seed", "no_difference", ["no_interval"]}], "confidence_n", "identical": [the
        systems whose outputs are identical line for line to the first's], "warnings": [the
        library's input-slip warnings, per system], "empty_references": the library's
        `zheval.compute.guards.EmptyReferenceWarning` (``positions``, its message) or ``None``}``.

    Raises:
        ValueError / TypeError: the library's option errors; ValueError: a paired bootstrap with ``bootstrap=0``
        and no ``paired_n``; [`zheval.compute.inputs.EmptyReferenceError`][]: a reference without tokens.
    """
    from ..adapters.report.tables import MIN_INTERVAL_ITEMS, no_interval_reason
    from ..results.significance import AR_DEFAULT_TRIALS

    several = paired if len(systems) > 1 else None
    if several == "bs" and paired_n is None and not bootstrap:
        raise UserError("several systems are compared with a paired bootstrap test: --bootstrap must be ≥ 1")
    paired_n = paired_n if paired_n is not None else bootstrap if several == "bs" else AR_DEFAULT_TRIALS
    out_systems, rows, empty_refs = [], [], None
    if metric == "bleu":
        from ..compute.bleu import BleuOptions, bleu_config, bleu_items, bleu_result, score_from_sums

        cfg = bleu_config(BleuOptions.from_names("zheval bleu", {**options, "bootstrap": bootstrap, "seed": seed}))
        keys = ["bleu"]
        # corpus BLEU from summed statistics; sentence BLEU is the mean of per-segment scores, rows (score, 1)
        sums = {"bleu": score_from_sums(cfg) if cfg.level == "corpus" else _rouge_sums}
        for name, hyps in zip(names, systems):
            try:
                with empty_references_seen() as seen:  # a preset's scored empty references: said in FILE:line
                    res = bleu_result(items := bleu_items(hyps, references, cfg), cfg)
            except ValueError as exc:  # predictions[i] of the library is line i + 1 of this system's file
                raise references_located(exc, [], name) from None
            empty_refs = seen[0] if seen else None
            if cfg.level == "corpus":
                rows.append({"bleu": np.asarray(items.stats, dtype=np.int64)})
            else:
                scores = np.asarray(res["scores"], dtype=np.float64)
                rows.append({"bleu": np.column_stack([scores, np.ones_like(scores)])})
            out_systems.append({"system": name, "scores": {"bleu": res["bleu"]}, "result": res})
    else:
        from ..compute.rouge import RougeOptions, rouge_config, rouge_items, rouge_result

        cfg = rouge_config(RougeOptions.from_names("zheval rouge", {**options, "bootstrap": bootstrap, "seed": seed}))
        if options.get("sentence_split") is not None and "rougeLsum" not in cfg.types:
            raise UserError(f"--sentence-split splits the sentences of rougeLsum, which the ROUGE types computed do not "
                            f"name ({','.join(cfg.types)}), so it would change nothing: add rougeLsum to --rouge-types "
                            "or leave --sentence-split out")
        keys = list(cfg.types)
        sums = {t: _rouge_sums for t in keys}
        for name, hyps in zip(names, systems):
            try:
                res = rouge_result(items := rouge_items(hyps, references, cfg), cfg)
            except ValueError as exc:  # predictions[i] of the library is line i + 1 of this system's file
                raise references_located(exc, [], name) from None
            f = {t: np.asarray(items.fmeasure[t], dtype=np.float64) for t in keys}
            rows.append({t: np.column_stack([f[t], np.ones_like(f[t])]) for t in keys})
            out_systems.append({"system": name, "scores": {t: res[t] for t in keys}, "result": res})
    small = len(references) < MIN_INTERVAL_ITEMS
    for sysrow in out_systems:
        if bootstrap:  # resampling one segment always returns it: no interval, as zheval score says
            res = sysrow["result"]
            sysrow["intervals"] = {k: None if small else [res[f"{k}_ci_low"], res[f"{k}_ci_high"]] for k in keys}
            if small:
                sysrow["no_interval"] = no_interval_reason(len(references))
    tests = {k: resample_systems(names, [s["scores"][k] for s in out_systems], [r[k] for r in rows], sums[k],
                                 confidence_n=confidence_n, paired=several, paired_n=paired_n, seed=seed)
             for k in keys}
    n_key = "n_resamples" if several == "bs" else "n_trials"
    paired_rows = [{"system": names[k], "baseline": names[0], "metric": key, "test": several,
                    **{f: tests[key][k].get(f) for f in ("delta", "delta_low", "delta_high", "p_value",
                                                          "no_difference")},
                    n_key: paired_n, "seed": seed,
                    **({"no_interval": tests[key][k]["no_interval"]} if tests[key][k]["no_interval"] else {})}
                   for k in range(1, len(systems) if several else 1) for key in keys]
    signature = resampled_signature(out_systems[0]["result"]["signature"], confidence_n=confidence_n,
                                    paired=several, paired_n=paired_n, seed=seed)
    return {"metric": metric, "keys": keys, "signature": signature,
            "segments": len(references), "systems": out_systems, "tests": tests, "paired": paired_rows,
            "confidence_n": confidence_n, "empty_references": empty_refs,
            "identical": [n for n, s in zip(names[1:], systems[1:]) if s == systems[0]],
            "warnings": input_warnings(systems, references, names, cfg, ref_names)}


def input_warnings(systems: list, references: list, names: list, cfg, ref_names: Sequence[str] = ()) -> list:
    """The library's input-slip warnings (`zheval.compute.guards.input_slips`: ``none`` on unsegmented
    Chinese, Traditional against Simplified) for each system, as ``zheval score`` reports them, in the options of the
    command line (`zheval.cli.option_names.in_option_names`); ``cfg`` is the
    metric's config (BLEU's, ROUGE's or chrF's: chrF's ``uses_tokens`` says whether its words are scored); with
    ``ref_names``, the texts a warning names (``predictions[i]``, ``references[i][j]``: control characters) as
    ``FILE:line`` (`references_located`)."""
    from ..compute.guards import input_slips
    from .option_names import COMMAND, in_option_names

    out = []
    for name, hyps in zip(names, systems):
        for _, msg in input_slips(list(hyps), references, cfg.tokenizer, t2s_option=cfg.t2s_applies,
                                  words=getattr(cfg, "uses_tokens", True)):
            msg = in_option_names(msg, COMMAND.get())  # ``t2s=True`` as ``--t2s`` …
            if ref_names:  # predictions[i] is line i + 1 of this system's file, references[i][j] of reference file j
                msg = str(references_located(ValueError(msg), list(ref_names), name))
            out.append(f"{name}: {msg}" if len(systems) > 1 else msg)
    return out


# ---------------------------------------------------------------------------------------------------------------
# the commands


def _run(o, metric: str) -> None:
    apply_quiet(True)
    check_tokenizer(o.tokenizer)
    check_text_preset(o.preset, metric)
    refuse_tool_tokenizer_options(o, [metric], o.preset)
    if o.scale not in (1, 100):
        raise UserError(f"--scale must be 100 (sacrebleu's 0–100) or 1 (0–1), got {o.scale}")
    width = o.width if o.width is not None else (1 if o.scale == 100 else 4)
    refuse_orphans(o, [_bootstrap_rule(o, metric)] + one_reference_rules(
        o, [("bp_ref_length", "--bp-ref-length")] if metric == "bleu" else [("multi_ref", "--multi-ref")],
        len(o.references) == 1, "one REF file"))
    if metric == "bleu":
        paired_test(o)
        if o.text_format.value == "text" and o.scale != 100 and not o.score_only:
            raise UserError("-f text is sacrebleu's output, on its 0–100 scale: drop --scale 1 (or use -f json)")
    copies: list = []  # a hypothesis file that holds a reference file's text: in the warnings (and -f json's)
    boms = [] if keeps_bom(o.preset, metric) else None  # sacrebleu-zh: as sacrebleu reads them, said
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                      o.allow_empty_hypotheses, preset_scores_empty(o.preset, metric),
                                                      copies, bom_lines=boms)
    options = dict(tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct))
    from ..compute.option_rules import check_normalize_flags
    check_normalize_flags(options)  # the options typed (unset ones are left out): --punct keep beside nopunct
    if o.tokenizer is not None:
        options["tokenizer"] = o.tokenizer
    if o.preset is not None:
        options["preset"] = o.preset
    if metric == "bleu":
        options.update(bleu_options(o.smooth, o.max_order))
        given = {"smooth_value": o.smooth_value, "bp_ref_length": o.bp_ref_length, "level": o.level,
                 "effective_order": o.effective_order}
    else:
        if o.preset is None or "rouge_types" in o._given:  # else the preset's own (longbench: L); typed: judged
            # even at the default value (--preset longbench --rouge-types rouge1,rouge2,rougeL is refused, not L)
            options["rouge_types"] = split_list(o.rouge_types, "--rouge-types")
        given = {"multi_ref": o.multi_ref, "beta": o.beta, "rouge_w_weight": o.rouge_w_weight,
                 "sentence_split": o.sentence_split}
    options.update({k: v for k, v in given.items() if v is not None})
    empty = {n: sum(map(is_blank, s)) for n, s in zip(names, systems)}  # the emptiness rule of every door
    empty = {n: c for n, c in empty.items() if c}
    fmt, tests = o.text_format.value, _tests(o, metric, len(systems))
    resampled = tests["bootstrap"] or tests.get("confidence_n") or (tests["paired"] and len(systems) > 1)
    refuse_orphans(o, (resampling_rules(o) if metric == "bleu" else [])
                   + [seed_rule(o, bool(resampled), _seed_unused_why(o, metric, fmt))])
    try:
        out = score_text_files(metric, references, systems, names, options, seed=o.seed, ref_names=ref_names, **tests)
    except ValueError as exc:
        raise references_located(exc, ref_names) from None
    caught = take_warnings()  # the library's (PresetOverrideWarning …): in -f json too
    if getattr(o, "paired_bs", False):  # the library's interval had --paired-bs-n resamples (`_tests`), not --bootstrap
        caught = [caution_option(w, "--paired-bs-n", "--bootstrap") for w in caught]
    out["warnings"] = copies + list(out["warnings"]) + caught
    if out["empty_references"] is not None:  # scored by the preset as its tool scores them: counted and said
        out["empty_references"], said = empty_references_note(out["empty_references"], ref_names)
        out["warnings"].append(said)
    if boms:
        out["bom_lines"] = len(boms)
        out["warnings"].append(bom_lines_warning(boms, o.preset))
    out["warnings"] += resampling_cautions(  # few resamples of μ ± CI and Δ's interval (the library's own: above)
        {metric_label(k): out["tests"][k] for k in out["keys"]}, confidence_n=out["confidence_n"],
        paired=out["paired"][0]["test"] if out["paired"] else None,
        paired_n=out["paired"][0].get("n_resamples", 0) if out["paired"] else 0,
        paired_option="--paired-bs-n" if getattr(o, "paired_bs", False) else "--bootstrap",
        confidence_option=confidence_option(tests["paired"] if fmt == "text" else None))  # as `_tests` counts
    for msg in out["warnings"]:
        typer.echo(f"zheval: warning: {msg}", err=True)
    if metric == "rouge" and o.sentence_split == "newline":
        note("each segment is one line of a text file and holds no newline, so --sentence-split newline makes every "
             "segment one sentence: ROUGE-Lsum equals ROUGE-L here (split:newline in the signature); --sentence-split "
             "punct (the default) splits at sentence-final punctuation, or give the texts as JSONL to keep newlines")
    if o.score_only:
        text = score_only_text(out, o.scale, width)
    elif fmt == "text":
        text = sacrebleu_text(out, width, tests["paired"], tests["paired_n"])
    elif fmt == "json":
        text = json_text(out, o.scale, width, ref_names, empty)
    else:
        text = table_text(out, o.scale, width, ref_names, empty)
    for n, c in empty.items():
        if o.score_only or fmt != "table":
            note(blank_lines_note(n, c))
    scale = 100 if fmt == "text" and not o.score_only else o.scale
    for msg in rounded_perfect_notes([(s["system"], metric_label(k), s["scores"][k]) for s in out["systems"]
                                      for k in out["keys"]], scale, width):
        note(msg)
    echo(text, nl=False)


def _bootstrap_rule(o, metric: str) -> tuple:
    """The `refuse_orphans` rule of ``--bootstrap``, the resamples of zheval's percentile interval (and of the paired
    test) of ``-f table`` and ``-f json``: typed with a count where no such interval is computed -- ``-b`` (the score
    only) or ``-f text`` (sacrebleu's output) -- it would change nothing, while ``-f text -ci`` said ``bs:1000``
    (``--confidence-n``'s count) under ``--bootstrap 50`` (issue 35). sacrebleu has no ``--bootstrap``: its interval
    is ``--confidence`` (``-ci``) with ``--confidence-n`` (``-cin``) resamples, 1000 by default, which is what the
    error points to. ``--bootstrap 0`` (no interval) is what runs there and passes."""
    ci = f"for sacrebleu's μ ± CI give --confidence --confidence-n {o.bootstrap}"
    if o.score_only:
        advice = ("is the resample count of zheval's percentile interval, which -b (the score only) does not print: "
                  + (f"{ci}, " if metric == "bleu" else "") + "drop -b, or leave --bootstrap out")
    else:
        advice = ("is the resample count of zheval's percentile interval of -f table and -f json; -f text is "
                  f"sacrebleu's output, whose interval is --confidence (-ci) with --confidence-n resamples "
                  f"(--paired-bs-n under --paired-bs): {ci}, or use -f table")
    in_use = o.bootstrap == 0 or not (o.score_only or o.text_format.value == "text")
    return ("bootstrap", "--bootstrap", in_use, advice)


def _seed_unused_why(o, metric: str, fmt: str) -> str:
    """What turned the resampling off, in the options the command has (``zheval rouge`` has no ``--confidence``:
    its ``-b`` never resamples)."""
    if o.score_only:
        return ("-b without --confidence" if metric == "bleu"
                else f"-b prints the scores alone: zheval {metric} -b has no interval")
    return "-f text without --confidence or a paired test" if fmt == "text" else "--bootstrap 0"


def _tests(o, metric: str, n_systems: int) -> dict:
    """The resampling of a run: ``{"bootstrap", "paired", "paired_n", "confidence_n"}`` for `score_text_files`.
    ``-b`` prints scores only (no percentile interval, no test; ``--confidence``'s ``μ ± CI`` if asked); ``-f
    text`` is sacrebleu's output (its flags only: ``--confidence``, ``--paired-bs``/``--paired-ar``); the table and
    JSON keep zheval's percentile interval (``--bootstrap``) and compare several systems with a paired bootstrap
    (``--bootstrap`` resamples) unless ``--paired-bs``/``--paired-ar`` name the test and its resamples; under
    ``--paired-bs`` the interval uses ``--paired-bs-n`` too, so the signature's one ``bs:`` is what ran (as
    sacrebleu's), and a ``--bootstrap`` given with another count is refused."""
    if metric != "bleu":
        return {"bootstrap": 0 if o.score_only else o.bootstrap, "paired": None if o.score_only else "bs"}
    paired = paired_test(o, n_systems)
    if paired == "bs" and "bootstrap" in getattr(o, "_given", ()) and o.bootstrap != o.paired_bs_n:
        raise UserError(f"--bootstrap {o.bootstrap} and --paired-bs-n {o.paired_bs_n} disagree: under --paired-bs "
                        "the interval and the test share one resample count, --paired-bs-n's (sacrebleu's bs:); "
                        "leave --bootstrap out")
    confidence = o.confidence_n if o.confidence else 0
    if o.score_only:
        return {"bootstrap": 0, "paired": None, "confidence_n": confidence}
    if o.text_format.value == "text":
        return {"bootstrap": 0, "paired": paired, "paired_n": paired_resamples(o, paired),
                "confidence_n": confidence_resamples(o, paired)}
    return {"bootstrap": o.paired_bs_n if paired == "bs" else o.bootstrap, "paired": paired or "bs",
            "confidence_n": confidence,
            "paired_n": paired_resamples(o, paired) if paired else None}


class SystemsCommand(TyperCommand):
    """A command whose ``-i``/``--input`` takes one or more files, as sacrebleu's ``-i HYP [HYP ...]`` (click
    options take one value each): every argument after ``-i`` that is not an option (``-`` is standard input) is one
    more ``-i`` value, up to the next option or ``--``. Reference files therefore come before ``-i``."""

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, spread_inputs(list(args)))


def spread_inputs(args: list) -> list:
    """``[..., "-i", "a", "b", "-b"]`` → ``[..., "-i", "a", "-i", "b", "-b"]`` (see `SystemsCommand`)."""
    out, i, taking = [], 0, False
    while i < len(args):
        a = args[i]
        if a == "--":
            out += args[i:]
            break
        if a in ("-i", "--input"):
            taking = True
            out.append(a)
            if i + 1 < len(args):
                out.append(args[i + 1])
                i += 1
        elif taking and (a == "-" or not a.startswith("-")):
            out += ["-i", a]
        else:
            taking = False
            out.append(a)
        i += 1
    return out


_COMMON = ("references", "hypotheses", "score_only", "text_format", "width", "scale", "tokenizer", "preset",
           "jieba_hmm", "terms", "t2s", "normalize", "punct", "bootstrap", "seed", "allow_empty_hypotheses")
_PRESET_BLEU = option(Optional[str], "--preset", help="BLEU preset of the library: sacrebleu-zh (= sacrebleu "
                      "--tokenize zh), llamafactory, ...")
_PRESET_ROUGE = option(Optional[str], "--preset", help="ROUGE preset of the library: rouge155, llamafactory, ...")
_MULTI_REF = option(Optional[str], "--multi-ref", help="ROUGE multi-reference rule: max (default) | mean | pool | "
                    "best_recall")


@app.command(cls=SystemsCommand)
@takes(*_COMMON, "smooth", "smooth_value", "max_order", "bp_ref_length", "level", "effective_order", "confidence",
       "confidence_n", "paired_bs", "paired_ar", "paired_bs_n", "paired_ar_n", preset=_PRESET_BLEU,
       text_format=BLEU_FORMAT)
def bleu(o) -> None:
    """Corpus BLEU of hypothesis text files against reference text files, one segment per line (sacrebleu's
    command line: zheval bleu REF [REF ...] -i HYP [HYP ...]; stdin without -i)."""
    run_command(lambda: _run(o, "bleu"))


@app.command(cls=SystemsCommand)
@takes(*_COMMON, "rouge_types", "multi_ref", "beta", "rouge_w_weight", "sentence_split", preset=_PRESET_ROUGE,
       multi_ref=_MULTI_REF)
def rouge(o) -> None:
    """Mean ROUGE F of hypothesis text files against reference text files, one segment per line (zheval rouge REF
    [REF ...] -i HYP [HYP ...]; stdin without -i)."""
    run_command(lambda: _run(o, "rouge"))

