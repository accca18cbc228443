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
  "confidence"], then every signature field, "warnings"}``, indented by one space (``"warnings"``: zheval's, with
  ``zheval bleu -f json``'s key and contents: a copied reference file, input slips, the library's warnings, the
  resampling cautions, the blank lines' counts; all but the counts are printed on standard error too); ``-f text``: ``chrF2|<signature> = 37.4``
  (``(μ = 37.3 ± 2.2)`` appended with ``--confidence``); ``-b``: the score (and that interval) only;
* several systems (the first is the baseline): ``-f json``: a list of ``{"system", "<name>": score}`` (with a
  paired test: ``{"score", "p_value", "mean", "ci"}`` per system, what sacrebleu 2.6.0 means to print and fails to
  with a float32 error); ``-f text``: one row per system (``score (μ ± CI)`` and ``(p = 0.0010)*`` under a paired
  test; ``*`` marks p < 0.05).

The statistical options and the output shapes are `zheval.cli.resampling`'s, which ``zheval bleu -f text``
shares; a file of one segment gets ``(n=1, no interval)`` (``"no_interval"`` in JSON) instead of sacrebleu's
``μ = 40.0 ± 0.0`` and no p-value. JSON is `zheval.text.terminal.terminal_json` (``json.dumps`` with control
characters escaped) and every line
goes through `zheval.cli.options.echo` (file names are data). The signature is zheval's (normalisation and
tokenizer included), so it differs from sacrebleu's; the score, the
interval and the p-values are sacrebleu's on the same normalised text: the same resampling draws
(`zheval.results.reducers.resampled_scores`, `paired_bootstrap`,
`zheval.results.significance.paired_approximate_randomization`, seed ``--seed``, default 12345 like
sacrebleu's ``SACREBLEU_SEED``).
"""

from __future__ import annotations

from typing import Optional, Sequence

from .commands import app
from .options import (UserError, apply_quiet, check_tokenizer, echo, note, refuse_orphans, resampling_rules,
                      run_command, seed_rule, take_warnings, tokenizer_options, refuse_tool_tokenizer_options)
from .params import option, takes
from .resampling import (confidence_option, confidence_resamples, format_single, format_systems, paired_resamples,
                         paired_test, resample_systems, resampled_signature, resampling_cautions,
                         rounded_perfect_notes)
from ..results.diagnostics import is_blank
from .textfiles import SystemsCommand, input_warnings, read_text_files, references_located
from .textfiles_report import blank_lines_note

__all__ = ["chrf", "score_chrf_files"]

_OPTIONS = {
    "chrf_format": option(str, "--format", "-f", default="json", help="json (sacrebleu's default) | text"),
    "chrf_width": option(int, "--width", "-w", default=1, min=0, max=16, help="decimals (sacrebleu's default 1)"),
    "char_order": option(int, "--chrf-char-order", "-cc", default=6, min=0, help="character n-gram order"),
    "word_order": option(int, "--chrf-word-order", "-cw", default=0, min=0,
                         help="word n-gram order (2 = chrF++; the words are the tokenizer's tokens)"),
    "chrf_beta": option(float, "--chrf-beta", default=2.0, min=0, help="recall weight"),
    "eps_smoothing": option(bool, "--chrf-eps-smoothing", default=False,
                            help="chrF++.py / NLTK / Moses epsilon smoothing instead of the effective order"),
}


def score_chrf_files(references: list, systems: list, names: list, options: dict, *, confidence_n: int = 0,
                     paired: Optional[str] = None, paired_n: int = 1000, seed: int = 12345,
                     ref_names: Sequence[str] = ()) -> dict:
    """Score one or more systems with chrF (0-1 scale, the library's; the output multiplies by 100, sacrebleu's).

    Args:
        references: per segment a list of reference strings; systems: per system a list of hypotheses;
        names: the systems' names; options: fields of [`zheval.compute.options.ChrfOptions`][];
        confidence_n: resamples for the ``μ ± CI`` of every system (0: none); paired: ``"bs"``, ``"ar"`` or
        ``None``; paired_n: its resamples / trials; seed: the seed of both; ref_names: the reference files' names
        (warnings name ``FILE:line``: `zheval.cli.textfiles.input_warnings`).

    Returns:
        ``{"name", "signature" (with the resampling's ``bs``/``ar``/``seed``,
        `zheval.cli.resampling.resampled_signature`), "systems": the rows of `zheval.cli.resampling.resample_systems`,
        "paired", "paired_n", "warnings": the library's input-slip warnings per system (`compute_chrf`'s, e.g.
        ``UnsegmentedTextWarning`` for ``tokenizer="none"`` on unsegmented text under chrF++)}``.

    Raises:
        ValueError / TypeError: the library's option errors; EmptyReferenceError: a reference without a character.
    """
    from ..compute.chrf import ChrfOptions, chrf_config, chrf_items, chrf_result, score_from_sums

    cfg = chrf_config(ChrfOptions(**options))
    items = [chrf_items(hyps, references, cfg) for hyps in systems]
    results = [chrf_result(it, cfg) for it in items]
    rows = resample_systems(names, [r["chrf"] for r in results], [it.stats for it in items], score_from_sums(cfg),
                            confidence_n=confidence_n, paired=paired, paired_n=paired_n, seed=seed)
    signature = resampled_signature(results[0]["signature"], confidence_n=confidence_n, paired=paired,
                                    paired_n=paired_n, seed=seed)
    return {"name": cfg.name, "signature": signature, "systems": rows, "paired": paired, "paired_n": paired_n,
            "warnings": input_warnings(systems, references, names, cfg, ref_names)}


def _run(o) -> None:
    apply_quiet(True)
    check_tokenizer(o.tokenizer)
    if o.chrf_format not in ("json", "text"):
        raise UserError(f"--format must be json or text, got {o.chrf_format!r}")
    paired_test(o)
    _refuse_word_options(o)
    refuse_tool_tokenizer_options(o)
    copies: list = []  # a hypothesis file that holds a reference file's text: in the warnings (and -f json's)
    ref_names, references, names, systems = read_text_files(list(o.references), list(o.hypotheses or []),
                                                            o.allow_empty_hypotheses, said=copies)
    paired = paired_test(o, len(systems))
    refuse_orphans(o, resampling_rules(o) + [seed_rule(o, bool(paired or o.confidence), "no --confidence, "
                                                                                        "--paired-bs or --paired-ar")])
    options = dict(tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct))
    from ..compute.option_rules import check_normalize_flags
    check_normalize_flags(options)  # the options typed (unset ones are left out): --punct keep beside nopunct
    if o.tokenizer is not None:
        options["tokenizer"] = o.tokenizer
    # the float as typed: the library keeps a whole beta an int (sacrebleu's name chrF2) where int arithmetic holds
    options.update(char_order=o.char_order, word_order=o.word_order, beta=o.chrf_beta, eps_smoothing=o.eps_smoothing)
    try:
        res = score_chrf_files(references, systems, names, options, confidence_n=confidence_resamples(o, paired),
                               paired=paired, paired_n=paired_resamples(o, paired), seed=o.seed,
                               ref_names=ref_names)
    except ValueError as exc:  # references[i][j] of the library is line i + 1 of reference file j
        raise references_located(exc, ref_names) from None
    blanks = [blank_lines_note(n, c) for n, s in zip(names, systems)  # the emptiness rule of every door
              if (c := sum(map(is_blank, s)))]
    for msg in blanks:
        note(msg)
    cautions = resampling_cautions({res["name"]: res["systems"]}, confidence_n=confidence_resamples(o, paired),
                                   paired=paired, paired_n=res["paired_n"], confidence_option=confidence_option(paired))
    said = copies + res["warnings"] + take_warnings() + cautions  # the library's too: in -f json, as zheval bleu's
    shape = dict(width=o.chrf_width, fmt=o.chrf_format, score_only=o.score_only, scale=100)
    for msg in rounded_perfect_notes([(s["system"], res["name"], s["score"]) for s in res["systems"]], 100,
                                     o.chrf_width):
        note(msg)
    if len(systems) == 1:
        text = format_single(res["name"], res["signature"], res["systems"][0], warnings=said + blanks, **shape)
    else:
        text = format_systems(res["name"], res["signature"], res["systems"], paired=paired, paired_n=res["paired_n"],
                              **shape)
    echo(text, nl=False)
    for msg in said:
        echo(f"zheval: warning: {msg}", err=True)


_WORDS_ONLY = ("acts only on chrF++'s word n-grams (the characters of chrF are the normalised text's, which it does "
               "not change): add --chrf-word-order 2 (chrF++) or leave it out")


def _refuse_word_options(o) -> None:
    """Refuse, without word n-grams (``--chrf-word-order 0``, the default), the options that act on chrF++'s words
    only: ``--tokenizer jieba`` (its normaliser is ``char``'s), ``--punct drop``, ``--terms``, ``--jieba-hmm``
    (`zheval.compute.option_rules.check_chrf_word_options`, in the command's words)."""
    words = o.word_order > 0
    refuse_orphans(o, [
        ("tokenizer", "--tokenizer jieba", words or o.tokenizer != "jieba", _WORDS_ONLY),
        ("punct", "--punct drop", words or o.punct != "drop", _WORDS_ONLY
         + "; to remove punctuation from the characters, --normalize with the nopunct step"),
        ("terms", "--terms", words, _WORDS_ONLY),
        ("jieba_hmm", "--jieba-hmm", words or not o.jieba_hmm, _WORDS_ONLY),
    ])


@app.command(cls=SystemsCommand)
@takes("references", "hypotheses", "score_only", "chrf_format", "chrf_width", "char_order", "word_order",
       "chrf_beta", "eps_smoothing", "confidence", "confidence_n", "paired_bs", "paired_ar", "paired_bs_n",
       "paired_ar_n", "seed", "tokenizer", "jieba_hmm", "terms", "t2s", "normalize", "punct",
       "allow_empty_hypotheses", **_OPTIONS)
def chrf(o) -> None:
    """chrF / chrF++ of hypothesis text files against reference text files, one segment per line, printed as
    sacrebleu --metrics chrf prints it (zheval chrf REF [REF ...] -i HYP [HYP ...]; stdin without -i)."""
    run_command(lambda: _run(o))

