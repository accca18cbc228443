"""What ``zheval bleu`` / ``zheval rouge`` print from `zheval.cli.textfiles.score_text_files`: zheval's aligned table
(``-f table``), its JSON (``-f json``), the scores only (``-b``) and, for BLEU, sacrebleu's own output (``-f text``,
`zheval.cli.resampling.format_single` / `format_systems`, the shapes ``zheval chrf`` prints).

A file of one segment has no interval and no p-value: ``(n=1, no interval)`` in the table and the text line,
``null`` with a ``no_interval`` reason in JSON (`zheval.adapters.report.tables.no_interval_label`, the words of
``zheval score``).
"""

from __future__ import annotations

from ..adapters.report.tables import no_interval_label
from ..results.diagnostics import BLANK_SCORED
from ..text.terminal import terminal_json
from .resampling import format_single, format_systems, score_text

__all__ = ["metric_label", "table_text", "json_text", "score_only_text", "sacrebleu_text", "preset_numbers",
           "blank_lines_note"]


def blank_lines_note(name: str, count: int) -> str:
    """What every text-file door (``zheval bleu`` / ``rouge`` / ``chrf`` / ``bertscore``) says of ``count`` blank
    hypothesis lines of the file ``name`` scored under ``--allow-empty-hypotheses`` (`BLANK_SCORED`): on standard
    error as a note, in ``-f json``'s ``"warnings"``."""
    return f"{name}: {count} empty hypothesis line(s) ({BLANK_SCORED})"


def _fmt(x: float, scale: int, width: int, signed: bool = False) -> str:
    v = x * scale
    return f"{v:+.{width}f}" if signed else f"{v:.{width}f}"


def metric_label(key: str) -> str:
    """The printed name of a score key: ``"bleu"`` -> ``BLEU``, ``"rougeL"`` -> ``ROUGE-L``, ``"rouge1"`` ->
    ``ROUGE-1``; any other key as it is. Raises nothing."""
    return {"bleu": "BLEU", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum", "rougeW": "ROUGE-W"}.get(
        key, "ROUGE-" + key[len("rouge"):] if key.startswith("rouge") else key)


def _bleu_details(res: dict, scale: int, width: int) -> str:
    prec = "/".join(_fmt(p, scale, width) for p in res["precisions"])
    if res.get("level") == "sentence":  # the precisions and BP are means over the sentences, the ratio is corpus-wide
        return (f"{prec} (means of the sentences; mean BP = {res['brevity_penalty']:.3f}; corpus ratio = "
                f"{res['length_ratio']:.3f} hyp_len = {res['translation_length']} ref_len = {res['reference_length']})")
    return (f"{prec} (BP = {res['brevity_penalty']:.3f} ratio = {res['length_ratio']:.3f} "
            f"hyp_len = {res['translation_length']} ref_len = {res['reference_length']})")


def _test_cells(p: dict, scale: int, width: int, n: int) -> list:
    """Δ, its interval and p of one paired row of ``n`` segments (–: no interval, of AR or of a one-segment file)."""
    if p.get("no_interval"):
        return [_fmt(p["delta"], scale, width, True), f"({no_interval_label(n)})", "–"]
    interval = ("–" if p["delta_low"] is None else
                f"[{_fmt(p['delta_low'], scale, width, True)}, {_fmt(p['delta_high'], scale, width, True)}]")
    return [_fmt(p["delta"], scale, width, True), interval,
            f"{p['p_value']:.4f}" + (" (no difference)" if p["no_difference"] else "")]


def _test_lines(out: dict) -> list:
    first = out["paired"][0]
    n, seed = first.get("n_resamples", first.get("n_trials")), first["seed"]
    if first["test"] == "ar":
        lines = [f"paired approximate randomisation ({n} trials, seed {seed}; sacrebleu's test): p = (1 + trials "
                 f"whose |A' − B'| exceeds the observed |B − A|) / ({n} + 1); no interval of Δ"]
    else:
        lines = [f"paired bootstrap ({n} resamples, seed {seed}; sacrebleu's test): p = (1 + resamples whose "
                 f"|B − A|, shifted to mean 0, exceeds the observed |B − A|) / ({n} + 1)"]
    same = set(out.get("identical", ()))  # outputs identical line for line to the first system's (`score_text_files`)
    ties = [f"{p['system']} {metric_label(p['metric'])}" for p in out["paired"]
            if p["system"] in same and p.get("p_value") is not None]
    if ties:
        base = out["systems"][0]["system"]
        lines.append(f"no difference: {', '.join(ties)}: outputs identical line for line to {base}'s, so Δ = 0 on "
                     f"every resample and p = 1/({n} + 1), an artefact of the +1, not evidence of a difference")
    return lines


def table_text(out: dict, scale: int, width: int, ref_names: list, empty_hyps: dict) -> str:
    """One row per (system, score): the score, its 95% interval (with bootstrap), sacrebleu's ``μ ± CI`` (with
    ``--confidence``), and for every system after the first the difference to the first with its paired-bootstrap
    interval and p-value (or the approximate randomisation's p)."""
    keys, tests = out["keys"], out["tests"]
    has_ci = any("intervals" in s for s in out["systems"])
    has_mu = bool(out["confidence_n"])
    paired = {(p["system"], p["metric"]): p for p in out["paired"]}
    base = out["systems"][0]["system"]
    head = ["system", "metric", "score"] + (["95% interval"] if has_ci else []) + (["μ ± 95% CI"] if has_mu else [])
    if paired:
        head += [f"Δ vs {base}", "95% interval of Δ", "p (AR)" if out["paired"][0]["test"] == "ar" else "p"]
    body = []
    for i, s in enumerate(out["systems"]):
        for k in keys:
            row = [s["system"], metric_label(k), _fmt(s["scores"][k], scale, width)]
            if has_ci:
                iv = s["intervals"][k]
                row.append(f"({no_interval_label(out['segments'])})" if iv is None else
                           f"[{_fmt(iv[0], scale, width)}, {_fmt(iv[1], scale, width)}]")
            if has_mu:
                t = tests[k][i]
                row.append(f"({no_interval_label(t['n'])})" if t["no_interval"] else "" if t["mean"] is None else
                           f"{_fmt(t['mean'], scale, width)} ± {_fmt(t['ci'], scale, width)}")
            if paired:
                row += ["(baseline)", "", ""] if i == 0 else _test_cells(paired[(s["system"], k)], scale, width,
                                                                             out["segments"])
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
        if note := preset_numbers_note(out):
            lines.append(f"note: {note}")
    if paired:
        lines += [""] + _test_lines(out)
    why = next((r["no_interval"] for k in keys for r in tests[k] if r["no_interval"]),
               out["systems"][0].get("no_interval"))
    if why:
        lines += ["", f"no interval{' and no p-value' if paired else ''}: {why}"]
    for name, count in empty_hyps.items():
        lines.append(f"note: {blank_lines_note(name, count)}")
    if out.get("empty_references"):
        lines.append(f"note: {out['empty_references']} empty reference line(s) scored as the preset's tool scores "
                     "them (reference length 0, no n-gram; see the warning)")
    if out.get("bom_lines"):
        lines.append(f"note: {out['bom_lines']} line(s) starting with a byte-order mark (U+FEFF) inside a file, "
                     "scored as sacrebleu reads them (see the warning)")
    lines.append("")
    lines.append(f"signature: {out['signature']}")
    return "\n".join(lines) + "\n"


def json_text(out: dict, scale: int, width: int, ref_names: list, empty_hyps: dict) -> str:
    """zheval's JSON of the scores: ``{"metric", "scale", "width", "segments", "references", "signature",
    "systems": [{"system", "scores", ["intervals"], ["confidence": {key: {"mean", "ci"}}], ["no_interval"],
    BLEU's precisions and lengths, ...}], ["paired"], ["empty_references": the count a preset scored], "warnings": the
    run's warnings and the blank lines' counts (`blank_lines_note`)}`` (scores, intervals and deltas on ``scale``,
    rounded to ``width``)."""
    def r(x):
        return None if x is None else round(x * scale, width)

    systems = []
    for i, s in enumerate(out["systems"]):
        d = {"system": s["system"], "scores": {k: r(v) for k, v in s["scores"].items()}}
        if "intervals" in s:
            d["intervals"] = {k: None if iv is None else [r(iv[0]), r(iv[1])] for k, iv in s["intervals"].items()}
        conf = {k: {"mean": r(out["tests"][k][i]["mean"]), "ci": r(out["tests"][k][i]["ci"])}
                for k in out["keys"] if out["tests"][k][i]["mean"] is not None}
        if conf:
            d["confidence"] = conf  # sacrebleu's μ ± 95% half-width
        why = s.get("no_interval") or next((out["tests"][k][i]["no_interval"] for k in out["keys"]
                                            if out["tests"][k][i]["no_interval"]), None)
        if why:
            d["no_interval"] = why
        res = s["result"]
        if out["metric"] == "bleu":
            d["precisions"] = [r(p) for p in res["precisions"]]
            d.update({k: res[k] for k in ("brevity_penalty", "length_ratio", "translation_length",
                                          "reference_length", "counts", "totals")})
        extra = preset_numbers(res, out["keys"])
        if extra:
            d["preset_scores"] = extra  # the preset's own numbers and counts, on the preset's own scale
            if note := preset_numbers_note(out):
                d["preset_scores_note"] = note
        if s["system"] in empty_hyps:
            d["empty_hypotheses"] = empty_hyps[s["system"]]
        systems.append(d)
    paired = [{**p, "delta": r(p["delta"]), "delta_low": r(p["delta_low"]), "delta_high": r(p["delta_high"])}
              for p in out["paired"]]
    doc = {"metric": out["metric"], "scale": f"0-{scale}", "width": width, "segments": out["segments"],
           "references": ref_names, "signature": out["signature"], "systems": systems}
    if paired:
        doc["paired"] = paired
    if out.get("empty_references"):
        doc["empty_references"] = out["empty_references"]  # scored by the preset as its tool scores them
    doc["warnings"] = list(out["warnings"]) + [blank_lines_note(n, c) for n, c in empty_hyps.items()]
    return terminal_json(doc, indent=1) + "\n"


def score_only_text(out: dict, scale: int, width: int) -> str:
    """``-b``: one line per system, its scores in the order of ``out["keys"]`` (with ``--confidence`` each followed
    by sacrebleu's ``(μ = … ± …)``, `zheval.cli.resampling.score_text`)."""
    return "".join(" ".join(score_text(out["tests"][k][i], width, scale) for k in out["keys"]) + "\n"
                   for i in range(len(out["systems"])))


def sacrebleu_text(out: dict, width: int, paired, paired_n: int) -> str:
    """``zheval bleu -f text``: sacrebleu's BLEU output on the 0–100 scale. One system: ``BLEU|<signature> = 37.4
    [(μ = 37.3 ± 2.2)] 67.8/44.1/29.6/20.5 (BP = 1.000 ratio = 1.000 hyp_len = … ref_len = …)`` (the precisions
    with one decimal, as sacrebleu); several: its table (`zheval.cli.resampling.format_systems`)."""
    rows = out["tests"]["bleu"]
    shape = dict(width=width, fmt="text", score_only=False, scale=100)
    if len(rows) == 1:
        return format_single("BLEU", out["signature"], rows[0], verbose=_bleu_details(out["systems"][0]["result"],
                                                                                       100, 1), **shape)
    return format_systems("BLEU", out["signature"], rows, paired=paired, paired_n=paired_n, **shape)


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


def preset_numbers_note(out: dict) -> str:
    """What the preset's own numbers of a text-file command's output ``out`` are (the preset's ``numbers_note``,
    `zheval.presets.base.RougePreset`), read from its signature's ``preset:NAME`` (or ``preset:NAME(overridden:…)``,
    when a tool option such as its ROUGE types was changed: the numbers are still the tool's); ``""`` when it has
    none."""
    from ..presets import find_preset

    name = next((f[len("preset:"):].split("(")[0] for f in out.get("signature", "").split("|")
                 if f.startswith("preset:")), None)  # preset:rouge155(overridden:rouge_types) too
    preset = find_preset(name) if name else None
    part = getattr(preset, out.get("metric", ""), None) if preset is not None else None
    return getattr(part, "numbers_note", "") or ""

