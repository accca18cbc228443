"""``zheval bleu`` and ``zheval rouge``: plain text files, one segment per line, the sacrebleu way.

::

    zheval bleu  REF [REF ...] [-i HYP [HYP ...]] [-b] [--format table|json] [-w N] [--scale 100|1]
                 [--tokenizer char|jieba|none|sacrebleu-zh|llamafactory-char] [--preset sacrebleu-zh|...]
                 [--smooth ...] [--max-order N] [--t2s] [--normalize ...] [--punct ...] [--jieba-hmm] [--terms F]
                 [--bootstrap N] [--seed S] [--allow-empty-hypotheses]
    zheval rouge REF [REF ...] [-i HYP ...] [--rouge-types rouge1,rouge2,rougeL] [--multi-ref max|...] [...]

Conventions follow sacrebleu 2.6.0's command line (``sacrebleu REF [REF ...] -i HYP``): line *k* of every
reference file is a reference of segment *k* (several reference files = several references per segment); the
hypotheses come from ``-i`` or, without it, from standard input; several ``-i`` files are several systems, scored
side by side with a paired bootstrap test of each against the first (`zheval.results.reducers.paired_bootstrap`,
sacrebleu's ``--paired-bs`` test: same resampled segments for both systems, its p-value); ``-b`` prints the score
only; ``-w`` the decimals (default 1 on the 0–100 scale, as sacrebleu; 4 with ``--scale 1``). Scores are on the
0–100 scale by default (sacrebleu's); ``--scale 1`` gives the library's 0–1. ``--preset sacrebleu-zh`` is exactly
``sacrebleu REF -i HYP --tokenize zh``.

Every number is the library's ([`zheval.compute.bleu.bleu_items`][] / [`bleu_result`][zheval.compute.bleu.bleu_result],
[`zheval.compute.rouge.rouge_items`][] / [`rouge_result`][zheval.compute.rouge.rouge_result]), with its signature.

Refused, each naming the file and line (all problems listed together): a file that is not UTF-8 (a BOM and CRLF
line ends are accepted), an empty or whitespace-only line in a reference file (an empty reference cannot be scored)
or in a hypothesis file (unless ``--allow-empty-hypotheses``: then it is an empty prediction, scored 0, and the
count is printed), files with different numbers of lines (ragged reference files included). A final line break
does not start another segment. Line ends are removed; nothing else is stripped (the tokenizers normalise spaces).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import numpy as np
import typer
from typer.core import TyperCommand

from .commands import app
from .options import TextFormat, UserError, apply_quiet, bleu_options, check_tokenizer, note, run_command, split_list, tokenizer_options
from .params import option, takes
from .options import echo
from ..text.terminal import terminal_json

__all__ = ["bleu", "rouge", "read_segments", "read_text_files", "score_text_files", "spread_inputs", "SystemsCommand", "STDIN"]

STDIN = "<stdin>"
"""The name standard input gets in messages and reports."""


def _problem(path: str, line: int, message: str):
    from ..io import Problem

    return Problem(path, line, None, message)


def read_segments(name: str, data: bytes, role: str, allow_empty: bool, problems: list) -> list:
    """The segments (lines) of one text file, read by [`zheval.io.rows.read_lines`][] (gzip undone, the encoding
    and line rules of every door).

    Args:
        name: the file name for messages. data: its bytes. role: ``"reference"`` or ``"hypothesis"``.
        allow_empty: accept empty lines (hypotheses only: empty predictions).
        problems: list the [`Problem`][zheval.io.problems.Problem] s are appended to (not UTF-8, another encoding, a
            gzip that cannot be read, CR-only line ends, an empty line).

    Returns:
        One string per line (line ends removed; a final line break does not start another line); ``[]`` after a
        problem of the whole file.
    """
    from ..io import read_lines

    lines = read_lines(name, role, problems, data=data)
    if lines is None:
        return []
    out = []
    for k, text in lines:
        if not text.strip() and not allow_empty:
            what = ("an empty reference cannot be scored; every line of a reference file is a reference of that "
                    "segment" if role == "reference" else
                    "an empty hypothesis; pass --allow-empty-hypotheses to score it as an empty prediction (0)")
            problems.append(_problem(name, k, f"empty line: {what}"))
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


def read_text_files(refs: List[Path], hyps: Optional[List[Path]], allow_empty: bool):
    """``(reference names, per-segment reference lists, hypothesis names, per-system segment lists)``, or a
    [`FileFormatError`][zheval.io.problems.FileFormatError] listing every problem (encoding, empty lines, line counts)."""
    from ..io import FileFormatError

    problems: list = []
    ref_names = [str(p) for p in refs]
    ref_streams = [read_segments(str(p), _read_file(p, "reference"), "reference", False, problems) for p in refs]
    if hyps:
        hyp_names = [STDIN if str(p) == "-" else str(p) for p in hyps]
        datas = [_read_stdin() if str(p) == "-" else _read_file(p, "hypothesis") for p in hyps]
    else:
        hyp_names, datas = [STDIN], [_read_stdin()]
    systems = [read_segments(n, d, "hypothesis", allow_empty, problems) for n, d in zip(hyp_names, datas)]
    names = ref_names + hyp_names
    streams = ref_streams + systems
    counts = [len(s) for s in streams]
    if not problems:
        from ..io import EMPTY_FILE

        problems += [_problem(n, 0, f"no items in {n} ({EMPTY_FILE})") for n, c in zip(names, counts) if not c]
    if not problems and len(set(counts)) > 1:
        base = counts[0]
        for n, c in zip(names[1:], counts[1:]):
            if c != base:
                line = min(c, base) + 1
                longer, shorter = (n, names[0]) if c > base else (names[0], n)
                problems.append(_problem(n, 0, f"has {c} line(s) but {names[0]} has {base}: line {line} of {longer} "
                                               f"has no counterpart in {shorter} (every file needs one line per "
                                               "segment; ragged reference files are not supported)"))
    if problems:
        raise FileFormatError(problems, "invalid text files")
    references = [list(r) for r in zip(*ref_streams)]
    return ref_names, references, hyp_names, systems


def _located(exc: ValueError, ref_names: list) -> ValueError:
    """An [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError] of the library (``references[i][j]``) as the
    problems of the reference files, each ``file:line`` (segment *i* is line *i* + 1 of reference file *j*); any
    other error as it is."""
    from ..compute.inputs import EmptyReferenceError
    from ..io import FileFormatError

    if not isinstance(exc, EmptyReferenceError):
        return exc
    how = f"empty after normalisation and tokenisation ({exc.context})" if exc.context else "empty"
    problems = [_problem(ref_names[j], i + 1, f"{how}: {text!r} {why or ''}".rstrip() + "; an empty reference "
                         "cannot be scored: remove the segment or give a real reference")
                for (i, j), text, why in zip(exc.positions, exc.texts, exc.reasons + [None] * len(exc.positions))]
    return FileFormatError(problems, "references that cannot be scored")


def _rouge_sums(sums: np.ndarray) -> np.ndarray:
    return sums[:, 0] / sums[:, 1]


def score_text_files(metric: str, references: list, systems: list, names: list, options: dict,
                     bootstrap: int = 1000, seed: int = 12345) -> dict:
    """Score one or more systems against per-segment references (0–1 scale).

    Args:
        metric: ``"bleu"`` or ``"rouge"``. references: per segment a list of reference strings.
        systems: per system a list of hypothesis strings (one per segment). names: the systems' names.
        options: options of [`zheval.compute.bleu.bleu_config`][] / [`zheval.compute.rouge.rouge_config`][].
        bootstrap: resamples for each system's 95% percentile interval and for the paired test (0: none; the
            paired test needs ≥ 1). seed: their seed.

    Returns:
        ``{"metric", "keys" (score names: ["bleu"] or the ROUGE types), "signature", "segments", "systems": [{"system",
        "scores": {key: value}, "intervals": {key: [low, high]} (with bootstrap), "result": the library result}],
        "paired": [{"system", "baseline", "metric", "delta", "delta_low", "delta_high", "p_value", ...}],
        "warnings": [the library's input-slip warnings, per system]}``.

    Raises:
        ValueError / TypeError: the library's option errors; ValueError: several systems with ``bootstrap=0``;
        [`zheval.compute.inputs.EmptyReferenceError`][]: a reference without tokens.
    """
    from ..results.reducers import paired_bootstrap

    if len(systems) > 1 and not bootstrap:
        raise UserError("several systems are compared with a paired bootstrap test: --bootstrap must be ≥ 1")
    out_systems, rows = [], []
    if metric == "bleu":
        from ..compute.bleu import BleuOptions, bleu_config, bleu_items, bleu_result, score_from_sums

        cfg = bleu_config(BleuOptions.from_names("zheval bleu", {**options, "bootstrap": bootstrap, "seed": seed}))
        keys = ["bleu"]
        # corpus BLEU from summed statistics; sentence BLEU is the mean of per-segment scores, rows (score, 1)
        from_sums = score_from_sums(cfg) if cfg.level == "corpus" else _rouge_sums
        for name, hyps in zip(names, systems):
            items = bleu_items(hyps, references, cfg)
            res = bleu_result(items, cfg)
            if cfg.level == "corpus":
                rows.append({"bleu": np.asarray(items.stats, dtype=np.int64)})
            else:
                scores = np.asarray(res["scores"], dtype=np.float64)
                rows.append({"bleu": np.column_stack([scores, np.ones_like(scores)])})
            sysrow = {"system": name, "scores": {"bleu": res["bleu"]}, "result": res}
            if bootstrap:
                sysrow["intervals"] = {"bleu": [res["bleu_ci_low"], res["bleu_ci_high"]]}
            out_systems.append(sysrow)
        signature = out_systems[0]["result"]["signature"]
        sums = {"bleu": from_sums}
    else:
        from ..compute.rouge import RougeOptions, rouge_config, rouge_items, rouge_result

        cfg = rouge_config(RougeOptions.from_names("zheval rouge", {**options, "bootstrap": bootstrap, "seed": seed}))
        keys = list(cfg.types)
        for name, hyps in zip(names, systems):
            items = rouge_items(hyps, references, cfg)
            res = rouge_result(items, cfg)
            f = {t: np.asarray(items.fmeasure[t], dtype=np.float64) for t in keys}
            rows.append({t: np.column_stack([f[t], np.ones_like(f[t])]) for t in keys})
            sysrow = {"system": name, "scores": {t: res[t] for t in keys}, "result": res}
            if bootstrap:
                sysrow["intervals"] = {t: [res[f"{t}_ci_low"], res[f"{t}_ci_high"]] for t in keys}
            out_systems.append(sysrow)
        signature = out_systems[0]["result"]["signature"]
        sums = {t: _rouge_sums for t in keys}
    paired = []
    for k in range(1, len(systems)):
        for key in keys:
            res = paired_bootstrap(rows[0][key], rows[k][key], sums[key], int(bootstrap), 0.95, seed)
            # an exact tie (identical outputs) gets sacrebleu's minimal p = 1/(resamples + 1): "no difference"
            paired.append({"system": names[k], "baseline": names[0], "metric": key, **res,
                           "no_difference": res["score_a"] == res["score_b"]})
    return {"metric": metric, "keys": keys, "signature": signature, "segments": len(references),
            "systems": out_systems, "paired": paired, "warnings": _input_warnings(systems, references, names, cfg)}


def _input_warnings(systems: list, references: list, names: list, cfg) -> list:
    """The library's input-slip warnings (`zheval.compute.guards.input_slips`: ``none`` on unsegmented
    Chinese, Traditional against Simplified) for each system, as ``zheval score`` reports them."""
    from ..compute.guards import ScriptMismatchWarning, input_slips

    out = []
    for name, hyps in zip(names, systems):
        for cat, msg in input_slips(list(hyps), references, cfg.tokenizer, t2s_option=cfg.t2s_applies):
            msg += " On the command line: --t2s." if cat is ScriptMismatchWarning and cfg.t2s_applies else ""
            out.append(f"{name}: {msg}" if len(systems) > 1 else msg)
    return out


# ---------------------------------------------------------------------------------------------------------------
# output


def _fmt(x: float, scale: int, width: int, signed: bool = False) -> str:
    v = x * scale
    s = f"{v:+.{width}f}" if signed else f"{v:.{width}f}"
    return s


def _label(key: str) -> str:
    return {"bleu": "BLEU", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum", "rougeW": "ROUGE-W"}.get(
        key, "ROUGE-" + key[len("rouge"):] if key.startswith("rouge") else key)


def _bleu_details(res: dict, scale: int, width: int) -> str:
    prec = "/".join(_fmt(p, scale, width) for p in res["precisions"])
    if res.get("level") == "sentence":  # the precisions and BP are means over the sentences, the ratio is corpus-wide
        return (f"{prec} (means of the sentences; mean BP = {res['brevity_penalty']:.3f}; corpus ratio = "
                f"{res['length_ratio']:.3f} hyp_len = {res['translation_length']} ref_len = {res['reference_length']})")
    return (f"{prec} (BP = {res['brevity_penalty']:.3f} ratio = {res['length_ratio']:.3f} "
            f"hyp_len = {res['translation_length']} ref_len = {res['reference_length']})")


def _table(out: dict, scale: int, width: int, ref_names: list, empty_hyps: dict) -> str:
    """One row per (system, score): the score, its 95% interval (with bootstrap), and for every system after the
    first the difference to the first with its paired-bootstrap interval and p-value."""
    keys = out["keys"]
    has_ci = any("intervals" in s for s in out["systems"])
    paired = {(p["system"], p["metric"]): p for p in out["paired"]}
    base = out["systems"][0]["system"]
    head = ["system", "metric", "score"] + (["95% interval"] if has_ci else [])
    if paired:
        head += [f"Δ vs {base}", "95% interval of Δ", "p"]
    body = []
    for i, s in enumerate(out["systems"]):
        for k in keys:
            row = [s["system"], _label(k), _fmt(s["scores"][k], scale, width)]
            if has_ci:
                lo, hi = s["intervals"][k]
                row.append(f"[{_fmt(lo, scale, width)}, {_fmt(hi, scale, width)}]")
            if paired:
                if i == 0:
                    row += ["(baseline)", "", ""]
                else:
                    p = paired[(s["system"], k)]
                    row += [_fmt(p["delta"], scale, width, signed=True),
                            f"[{_fmt(p['delta_low'], scale, width, True)}, {_fmt(p['delta_high'], scale, width, True)}]",
                            f"{p['p_value']:.4f}" + (" (no difference)" if p["no_difference"] else "")]
            body.append(row)
    widths = [max(len(r[c]) for r in [head] + body) for c in range(len(head))]
    lines = [f"zheval {out['metric']}: {out['segments']} segments, {len(ref_names)} reference file(s) "
             f"({', '.join(ref_names)}), scores on 0–{scale}"]
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in body]
    if out["metric"] == "bleu":
        lines.append("")
        lines += [f"{s['system']}: {_bleu_details(s['result'], scale, width)}" for s in out["systems"]]
    extras = [(s["system"], preset_numbers(s["result"], keys)) for s in out["systems"]]
    if any(x for _, x in extras):
        lines.append("")
        lines += [f"{name}: the preset's own numbers (its tool's scale) and counts: "
                  + ", ".join(f"{k} = {v}" for k, v in x.items()) for name, x in extras if x]
    if paired:
        n = out["paired"][0]["n_resamples"]
        lines.append("")
        lines.append(f"paired bootstrap ({n} resamples, seed {out['paired'][0]['seed']}; sacrebleu's test): p = (1 + "
                     f"resamples whose |B − A|, shifted to mean 0, exceeds the observed |B − A|) / ({n} + 1)")
        ties = [f"{p['system']} {_label(p['metric'])}" for p in out["paired"] if p["no_difference"]]
        if ties:
            lines.append(f"no difference: {', '.join(ties)} score(s) exactly as {base} (Δ = 0); the p shown there "
                         f"(1/({n} + 1) when every resample ties too) is an artefact of the +1, not evidence of a "
                         "difference")
    for name, count in empty_hyps.items():
        lines.append(f"note: {name}: {count} empty hypothesis line(s) scored as empty predictions")
    lines.append("")
    lines.append(f"signature: {out['signature']}")
    return "\n".join(lines) + "\n"


def _json(out: dict, scale: int, width: int, ref_names: list, empty_hyps: dict) -> str:
    def r(x):
        return round(x * scale, width)

    systems = []
    for s in out["systems"]:
        d = {"system": s["system"], "scores": {k: r(v) for k, v in s["scores"].items()}}
        if "intervals" in s:
            d["intervals"] = {k: [r(a), r(b)] for k, (a, b) in s["intervals"].items()}
        res = s["result"]
        if out["metric"] == "bleu":
            d["precisions"] = [r(p) for p in res["precisions"]]
            d.update({k: res[k] for k in ("brevity_penalty", "length_ratio", "translation_length",
                                          "reference_length", "counts", "totals")})
        extra = preset_numbers(res, out["keys"])
        if extra:
            d["preset_scores"] = extra  # the preset's own numbers and counts, on the preset's own scale
        if s["system"] in empty_hyps:
            d["empty_hypotheses"] = empty_hyps[s["system"]]
        systems.append(d)
    paired = [{"system": p["system"], "baseline": p["baseline"], "metric": p["metric"], "delta": r(p["delta"]),
               "delta_low": r(p["delta_low"]), "delta_high": r(p["delta_high"]), "p_value": p["p_value"],
               "n_resamples": p["n_resamples"], "seed": p["seed"], "no_difference": p["no_difference"]}
              for p in out["paired"]]
    doc = {"metric": out["metric"], "scale": f"0-{scale}", "width": width, "segments": out["segments"],
           "references": ref_names, "signature": out["signature"], "systems": systems}
    if paired:
        doc["paired"] = paired
    doc["warnings"] = list(out["warnings"])
    return terminal_json(doc, indent=1) + "\n"


#: Keys of a BLEU result that every BLEU result has (with or without a preset).
_BLEU_KEYS = ("bleu", "bleu_ci_low", "bleu_ci_high", "brevity_penalty", "length_ratio", "translation_length",
              "reference_length")


def preset_numbers(res: dict, keys: list) -> dict:
    """The numbers a preset adds to a library result — its tool's own scores on the tool's scale and its counts
    (LLaMA-Factory's ``bleu-4``, OpenCompass's placeholder predictions, LongBench's recursion cutoff …): every
    numeric entry that is not one of the result's own keys (the scores of ``keys``, their precision, recall and
    interval, and BLEU's length fields)."""
    own = set(_BLEU_KEYS)
    for k in keys:
        own.update({k, f"{k}_precision", f"{k}_recall", f"{k}_ci_low", f"{k}_ci_high"})
    return {k: v for k, v in res.items()
            if k not in own and isinstance(v, (int, float)) and not isinstance(v, bool)}


def _score_only(out: dict, scale: int, width: int) -> str:
    return "".join(" ".join(_fmt(s["scores"][k], scale, width) for k in out["keys"]) + "\n" for s in out["systems"])


# ---------------------------------------------------------------------------------------------------------------
# the commands


def _check_preset(preset: Optional[str], metric: str) -> None:
    """Refuse a ``--preset`` that is not offered at the ``text`` door for ``metric`` (naming the other command when
    the preset is the other metric's)."""
    from ..presets import find_preset, preset_names

    if preset is None:
        return
    found = find_preset(preset)
    part = found.part(metric) if found is not None else None
    if part is None or "text" not in part.doors:
        other = "rouge" if metric == "bleu" else "bleu"
        theirs = found.part(other) if found is not None else None
        hint = (f" ({preset} is a {other.upper()} preset: use zheval {other} --preset {preset})"
                if theirs is not None and "text" in theirs.doors else "")
        raise UserError(f"unknown --preset {preset!r} for zheval {metric}; valid: "
                        f"{', '.join(preset_names(metric, door='text'))}{hint}")


def _run(o, metric: str) -> None:
    apply_quiet(True)
    check_tokenizer(o.tokenizer)
    _check_preset(o.preset, metric)
    if o.scale not in (1, 100):
        raise UserError(f"--scale must be 100 (sacrebleu's 0–100) or 1 (0–1), got {o.scale}")
    width = o.width if o.width is not None else (1 if o.scale == 100 else 4)
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                      o.allow_empty_hypotheses)
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise UserError(f"-i names {twice} more than once; give each system once")
    options = dict(tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct))
    if o.tokenizer is not None:
        options["tokenizer"] = o.tokenizer
    if o.preset is not None:
        options["preset"] = o.preset
    if metric == "bleu":
        options.update(bleu_options(o.smooth, o.max_order))
        given = {"smooth_value": o.smooth_value, "bp_ref_length": o.bp_ref_length, "level": o.level,
                 "effective_order": o.effective_order}
    else:
        if o.preset is None or o.rouge_types != "rouge1,rouge2,rougeL":  # else the preset's own types (longbench: L)
            options["rouge_types"] = split_list(o.rouge_types, "--rouge-types")
        given = {"multi_ref": o.multi_ref, "beta": o.beta, "rouge_w_weight": o.rouge_w_weight,
                 "sentence_split": o.sentence_split}
    options.update({k: v for k, v in given.items() if v is not None})
    empty = {n: sum(1 for t in s if not t.strip()) for n, s in zip(names, systems)}
    empty = {n: c for n, c in empty.items() if c}
    try:
        out = score_text_files(metric, references, systems, names, options, bootstrap=0 if o.score_only and
                               len(systems) == 1 else o.bootstrap, seed=o.seed)
    except ValueError as exc:
        raise _located(exc, ref_names) from None
    for msg in out["warnings"]:
        typer.echo(f"zheval: warning: {msg}", err=True)
    if o.score_only:
        text = _score_only(out, o.scale, width)
    elif o.text_format == TextFormat.json:
        text = _json(out, o.scale, width, ref_names, empty)
    else:
        text = _table(out, o.scale, width, ref_names, empty)
    for n, c in empty.items():
        if o.score_only or o.text_format == TextFormat.json:
            note(f"{n}: {c} empty hypothesis line(s) scored as empty predictions")
    echo(text, nl=False)


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
@takes(*_COMMON, "smooth", "smooth_value", "max_order", "bp_ref_length", "level", "effective_order",
       preset=_PRESET_BLEU)
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

