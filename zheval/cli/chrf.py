"""``zheval chrf``: chrF / chrF++ of plain text files, one segment per line, printed as ``sacrebleu --metrics chrf``
prints it.

::

    zheval chrf REF [REF ...] [-i HYP [HYP ...]] [-b] [-w N] [-f json|text] [--chrf-char-order N]
                [--chrf-word-order N] [--chrf-beta B] [--chrf-eps-smoothing] [--confidence [--confidence-n K]]
                [--paired-bs [--paired-bs-n K] | --paired-ar [--paired-ar-n T]] [--seed S]
                [--tokenizer char|jieba|none] [--normalize ...] [--t2s] [--punct ...] [--jieba-hmm] [--terms F]

The files are read as ``zheval bleu`` reads them (`zheval.cli.textfiles.read_text_files`: line *k* of every
reference file is a reference of segment *k*; hypotheses from ``-i`` or standard input; every problem named
file:line). The numbers are [`zheval.compute.chrf.chrf_items`][] / [`chrf_result`][zheval.compute.chrf.chrf_result] (on the
0-100 scale here, sacrebleu's); the output has sacrebleu 2.6.0's shape (``sacrebleu/metrics/base.py``
``Score.format``, ``sacrebleu/utils.py`` ``print_results_table``):

* one system, ``-f json`` (default): ``{"name", "score", "signature", ["confidence_mean", "confidence_var",
  "confidence"], then every signature field}``, indented by one space; ``-f text``: ``chrF2|<signature> = 37.4``
  (``(μ = 37.3 ± 2.2)`` appended with ``--confidence``); ``-b``: the score (and that interval) only;
* several systems (the first is the baseline): ``-f json``: a list of ``{"system", "<name>": score}`` (with a
  paired test: ``{"score", "p_value", "mean", "ci"}`` per system, what sacrebleu 2.6.0 means to print and fails to
  with a float32 error); ``-f text``: one row per system (``score (μ ± CI)`` and ``(p = 0.0010)*`` under a paired
  test; ``*`` marks p < 0.05).

JSON is `zheval.text.terminal.terminal_json` (``json.dumps`` with control characters escaped) and every line
goes through `zheval.cli.options.echo` (file names are data). The signature is zheval's (normalisation and
tokenizer included), so it differs from sacrebleu's; the score, the
interval and the p-values are sacrebleu's on the same normalised text: the same resampling draws
(`zheval.results.reducers.resampled_scores`, `paired_bootstrap`,
`zheval.results.significance.paired_approximate_randomization`, seed ``--seed``, default 12345 like
sacrebleu's ``SACREBLEU_SEED``).
"""

from __future__ import annotations

from typing import Optional

from ..text.terminal import terminal_json
from .commands import app
from .options import UserError, apply_quiet, check_tokenizer, echo, note, run_command, tokenizer_options
from .params import option, takes
from .textfiles import SystemsCommand, read_text_files

__all__ = ["chrf", "score_chrf_files", "format_single", "format_systems"]

_OPTIONS = {
    "chrf_format": option(str, "--format", "-f", default="json", help="json (sacrebleu's default) | text"),
    "chrf_width": option(int, "--width", "-w", default=1, min=0, max=16, help="decimals (sacrebleu's default 1)"),
    "char_order": option(int, "--chrf-char-order", "-cc", default=6, min=0, help="character n-gram order"),
    "word_order": option(int, "--chrf-word-order", "-cw", default=0, min=0,
                         help="word n-gram order (2 = chrF++; the words are the tokenizer's tokens)"),
    "chrf_beta": option(float, "--chrf-beta", default=2.0, min=0, help="recall weight"),
    "eps_smoothing": option(bool, "--chrf-eps-smoothing", default=False,
                            help="chrF++.py / NLTK / Moses epsilon smoothing instead of the effective order"),
    "confidence": option(bool, "--confidence", "-ci", default=False,
                         help="bootstrap mean ± 95% half-width of the score (sacrebleu's)"),
    "confidence_n": option(int, "--confidence-n", "-cin", default=1000, min=1, help="bootstrap resamples"),
    "paired_bs": option(bool, "--paired-bs", "-pbs", default=False,
                        help="paired bootstrap test of every system against the first"),
    "paired_ar": option(bool, "--paired-ar", "-par", default=False,
                        help="paired approximate randomisation test of every system against the first"),
    "paired_bs_n": option(int, "--paired-bs-n", "-pbsn", default=1000, min=1, help="paired bootstrap resamples"),
    "paired_ar_n": option(int, "--paired-ar-n", "-parn", default=10000, min=1, help="approximate randomisation "
                          "trials"),
}


def score_chrf_files(references: list, systems: list, names: list, options: dict, *, confidence_n: int = 0,
                     paired: Optional[str] = None, paired_n: int = 1000, seed: int = 12345) -> dict:
    """Score one or more systems with chrF (0-100 scale, as sacrebleu).

    Args:
        references: per segment a list of reference strings; systems: per system a list of hypotheses;
        names: the systems' names; options: fields of [`zheval.compute.options.ChrfOptions`][];
        confidence_n: resamples for the ``μ ± CI`` of every system (0: none); paired: ``"bs"``, ``"ar"`` or
        ``None``; paired_n: its resamples / trials; seed: the seed of both.

    Returns:
        ``{"name", "signature", "systems": [{"system", "score", "mean", "ci", "p_value"}], "paired", "paired_n"}``
        (``mean``/``ci`` ``None`` without resampling, ``p_value`` ``None`` for the baseline and without a paired
        test).

    Raises:
        ValueError / TypeError: the library's option errors; EmptyReferenceError: a reference without a character.
    """
    from ..compute.chrf import ChrfOptions, chrf_config, chrf_items, chrf_result, score_from_sums
    from ..results.reducers import mean_and_halfwidth, paired_bootstrap, resampled_scores
    from ..results.significance import paired_approximate_randomization

    cfg = chrf_config(ChrfOptions(**options))
    from_sums = score_from_sums(cfg)
    out = []
    rows = []
    for name, hyps in zip(names, systems):
        items = chrf_items(hyps, references, cfg)
        res = chrf_result(items, cfg)
        rows.append(items.stats)
        row = {"system": name, "score": 100 * res["chrf"], "mean": None, "ci": None, "p_value": None,
               "signature": res["signature"]}
        n = paired_n if paired == "bs" else confidence_n
        if n:
            m, ci = mean_and_halfwidth(resampled_scores(items.stats, from_sums, n, seed))
            row["mean"], row["ci"] = 100 * m, 100 * ci
        out.append(row)
    for k in range(1, len(systems)):
        # an exact tie (identical outputs, delta 0) is "no difference", whatever the test's minimal p says
        out[k]["no_difference"] = bool(paired) and out[k]["score"] == out[0]["score"]
        if paired == "bs":
            out[k]["p_value"] = paired_bootstrap(rows[0], rows[k], from_sums, paired_n, 0.95, seed)["p_value"]
        elif paired == "ar":
            out[k]["p_value"] = paired_approximate_randomization(rows[0], rows[k], from_sums, paired_n,
                                                                 seed)["p_value"]
    return {"name": cfg.name, "signature": out[0]["signature"], "systems": out, "paired": paired,
            "paired_n": paired_n}


def _score_text(row: dict, width: int) -> str:
    sc = f"{row['score']:.{width}f}"
    if row["mean"] is not None:
        sc += f" (μ = {row['mean']:.{width}f} ± {row['ci']:.{width}f})"
    return sc


def format_single(res: dict, width: int, fmt: str, score_only: bool) -> str:
    """One system, as sacrebleu's ``Score.format`` (see the module docstring)."""
    row = res["systems"][0]
    if score_only:
        return _score_text(row, width) + "\n"
    if fmt == "text":
        return f"{res['name']}|{res['signature']} = {_score_text(row, width)}\n"
    d = {"name": res["name"], "score": float(f"{row['score']:.{width}f}"), "signature": res["signature"]}
    if row["mean"] is not None:
        m, ci = f"{row['mean']:.{width}f}", f"{row['ci']:.{width}f}"
        d.update(confidence_mean=float(m), confidence_var=float(ci), confidence=f"μ = {m} ± {ci}")
    for field in res["signature"].split("|"):
        key, value = field.split(":", 1)
        d[key] = value
    return terminal_json(d, indent=1) + "\n"


def format_systems(res: dict, width: int, fmt: str, score_only: bool, paired: Optional[str]) -> str:
    """Several systems (the first is the baseline), as sacrebleu's multi-system table (module docstring)."""
    systems = res["systems"]
    if score_only:
        return "".join(f"{s['score']:.{width}f}\n" for s in systems)
    name = res["name"]
    if fmt == "json":
        doc = []
        for s in systems:
            if paired:
                value = {"score": round(s["score"], width), "p_value": s["p_value"],
                         "no_difference": s.get("no_difference", False),
                         "mean": None if s["mean"] is None else round(s["mean"], width),
                         "ci": None if s["ci"] is None else round(s["ci"], width)}
            else:
                value = f"{s['score']:.{width}f}"
            doc.append({"system": s["system"], name: value})
        return terminal_json(doc, indent=4) + "\n"
    cells = []
    for i, s in enumerate(systems):
        sc = f"{s['score']:.{width}f}"
        if s["mean"] is not None:
            sc += f" ({s['mean']:.{width}f} ± {s['ci']:.{width}f})"
        if s["p_value"] is not None:
            if s.get("no_difference"):
                sc += f" (p = {s['p_value']:.4f}, no difference)"
            else:
                sc += f" (p = {s['p_value']:.4f})" + ("*" if s["p_value"] <= 0.05 else "")
        cells.append(("Baseline: " if paired and i == 0 else "") + s["system"])
        cells.append(sc)
    head = ("System", name + (" (μ ± 95% CI)" if systems[0]["mean"] is not None else ""))
    rows = [head] + [tuple(cells[k:k + 2]) for k in range(0, len(cells), 2)]
    w0, w1 = (max(len(r[c]) for r in rows) for c in (0, 1))
    lines = [f"{a.rjust(w0)}  {b}".rstrip() for a, b in rows]
    lines.insert(1, f"{'-' * w0}  {'-' * w1}")
    if paired:
        test = (f"paired bootstrap resampling test with {res['paired_n']} resamples" if paired == "bs" else
                f"paired approximate randomization test with {res['paired_n']} trials")
        lines += ["", f"{test} (seed and draws as sacrebleu's): each system against {systems[0]['system']}; "
                      "p <= 0.05 marked with *; a system that scores exactly as the baseline (delta 0) is 'no "
                      "difference', never starred"]
    lines += ["", f"signature: {res['signature']}"]
    return "\n".join(lines) + "\n"


def _run(o) -> None:
    apply_quiet(True)
    check_tokenizer(o.tokenizer)
    if o.chrf_format not in ("json", "text"):
        raise UserError(f"--format must be json or text, got {o.chrf_format!r}")
    if o.paired_bs and o.paired_ar:
        raise UserError("--paired-bs and --paired-ar are mutually exclusive (sacrebleu's rule)")
    paired = "bs" if o.paired_bs else "ar" if o.paired_ar else None
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                            o.allow_empty_hypotheses)
    if len(set(names)) != len(names):
        raise UserError(f"-i names {sorted({n for n in names if names.count(n) > 1})} more than once")
    if paired and len(systems) < 2:
        raise UserError(f"--paired-{paired} compares systems: give at least two -i files")
    options = dict(tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct))
    if o.tokenizer is not None:
        options["tokenizer"] = o.tokenizer
    beta = int(o.chrf_beta) if float(o.chrf_beta).is_integer() else o.chrf_beta
    options.update(char_order=o.char_order, word_order=o.word_order, beta=beta, eps_smoothing=o.eps_smoothing)
    res = score_chrf_files(references, systems, names, options,
                           confidence_n=o.confidence_n if o.confidence else 0, paired=paired,
                           paired_n=o.paired_bs_n if paired == "bs" else o.paired_ar_n, seed=o.seed)
    for n, s in zip(names, systems):
        empty = sum(1 for t in s if not t.strip())
        if empty:
            note(f"{n}: {empty} empty hypothesis line(s) scored as empty predictions")
    if len(systems) == 1:
        text = format_single(res, o.chrf_width, o.chrf_format, o.score_only)
    else:
        text = format_systems(res, o.chrf_width, o.chrf_format, o.score_only, paired)
    echo(text, nl=False)


@app.command(cls=SystemsCommand)
@takes("references", "hypotheses", "score_only", "chrf_format", "chrf_width", "char_order", "word_order",
       "chrf_beta", "eps_smoothing", "confidence", "confidence_n", "paired_bs", "paired_ar", "paired_bs_n",
       "paired_ar_n", "seed", "tokenizer", "jieba_hmm", "terms", "t2s", "normalize", "punct",
       "allow_empty_hypotheses", **_OPTIONS)
def chrf(o) -> None:
    """chrF / chrF++ of hypothesis text files against reference text files, one segment per line, printed as
    sacrebleu --metrics chrf prints it (zheval chrf REF [REF ...] -i HYP [HYP ...]; stdin without -i)."""
    run_command(lambda: _run(o))

