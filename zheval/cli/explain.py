"""``zheval explain``: why each item scored what it scored, for a person (highlighted, in the terminal) or a machine
(``--format json``).

::

    zheval explain --data test.jsonl --predictions preds.jsonl [--id ITEM_ID ...] [--worst K | --best K |
                   --sample K --seed S] [--metric rougeL] [--format table|json] [scoring options]
    zheval explain --predictions records.jsonl [--pred-field F --ref-field R --id-field I] [...]

Without ``--data`` the predictions file carries its references (LLaMA-Factory ``predict``/``label``, or the fields
named by ``--pred-field``/``--ref-field``/``--id-field`` in any JSONL, CSV, TSV or Parquet file), read exactly as
``zheval score`` reads it (every bad row named ``file:line``); its items are named by the id field, or ``line N``
without one (``--id "line 3"``).

Each item shows the prediction and the winning reference side by side with their matched tokens highlighted (the
clipped unigram matches of [`zheval.explain`][zheval.compute.explain.explain]'s ``highlight``), then one line per metric: every ROUGE type's
F/P/R and the reference the ``multi_ref`` rule chose, the sentence BLEU with its matches/totals per order and the
reference length, and with ``--metrics ...,chrf`` the sentence chrF with its matches per character and word order
and the matched character 1-2-grams and word n-grams (``--chrf-word-order 2``: chrF++). Colours follow the terminal: off when stdout is not a TTY or ``NO_COLOR`` is set; matched runs
are then written in ``[...]``, the text's own ``[``, ``]``, ``\\`` as ``\\[``, ``\\]``, ``\\\\`` (unambiguous:
`zheval.adapters.highlight.bracketed`). ``--format json`` prints ``[{"id", "line", "score", "explanation"}]`` with the
explanation of [`zheval.explain`][zheval.compute.explain.explain] (``docs/explain.md``).

Items: every item (file order) unless ``--id`` (those items, in the order given), ``--worst K`` / ``--best K``
(ranked by ``--metric``: the per-item number of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] / sentence BLEU of
[`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] / sentence chrF of [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf]; ties keep file order) or ``--sample K`` (drawn with `random.Random` seeded
with ``--seed``, shown in file order). Bad input -- an unknown id, an id given twice, K larger than the data, two
selections at once -- is an error naming the id or option, exit code 2. ``--metric`` must be a number the
explanation shows, as ``zheval sample --by-metric`` checks it: a ROUGE type in ``--rouge-types``, ``bleu`` or ``chrf``
in ``--metrics`` (under ``--preset`` without ``--metrics``, the preset's metrics and types; ``--metrics``,
``--rouge-types`` and ``--multi-ref`` typed on the command line are used even at their default values, and a
``--metrics`` entry the preset has no rules for is refused); without ``--metric``, the default ``rougeL`` when it is computed, else the first computed metric (``--rouge-types rouge1``:
``bleu``; ``--preset sacrebleu-zh``: ``bleu``), named in every row. ``--preset`` is checked before any file is read: a leaderboard preset (``glm4``,
``longbench``, ``opencompass-jieba-rouge``) is refused. A reference the scoring refuses (empty once normalised or
tokenised) is named ``FILE:line``, with its id and field (``'label'``, ``responses[1]``), as ``zheval score`` names it
(`zheval.cli.located`), whichever items are shown.
"""

from __future__ import annotations

import os
import random
import re
import sys
import unicodedata
from typing import Any, Dict, List


from .commands import (app, check_records_format, check_records_options, named_predictions, read_records_file,
                       record_fields, refuse_records_fields)
from .files import check_paths, load_data
from .located import rows_named
from .options import (MAX_SEED, UserError, apply_quiet, bleu_options, check_label_check, check_predictions_format,
                      check_tokenizer, domain_values, refuse_metric_options, run_command, split_list,
                      tokenizer_options, refuse_tool_tokenizer_options)
from .params import DATA_OPTIONAL, takes
from .options import echo, one_reference_note
from ..text.terminal import escaped_text, terminal_json, terminal_text

__all__ = ["explain", "select_items", "render_table"]

_FORMATS = ("table", "json")


def _id_candidates(v: str, ids: List[str]) -> tuple:
    """`zheval.adapters.duck.mismatch.id_pairs` of ``--id v`` with every id of ``ids`` it may stand for (not only
    the first of each kind; each id in its closest kind), each kind's pairs best first: the id ``v`` is without a
    decimal ``.0`` (``--id 007.0``: ``'007'``), then the id it is once written plainly, without leading zeros or a
    decimal ``.0`` (``--id 7.0`` with the ids ``'007'`` and ``7``: ``'7'``, then ``'007'``)."""
    from ..adapters.duck.mismatch import id_pairs

    kinds = ([], [], [], [])
    for e in ids:
        for kind, pairs in zip(kinds, id_pairs([v], [e])):
            kind += pairs
    return tuple(sorted(k, key=_best_first(v)) for k in kinds)


def _best_first(v: str):
    """The sort key of `_id_candidates`' pairs ``(v, id)``, best first (its docstring)."""
    from ..adapters.duck.mismatch import whole_id

    near, best = re.sub(r"\.0+$", "", v), whole_id(v)
    return lambda p: (str(p[1]) != near, str(p[1]) != best, len(str(p[1])))


def _spaced(v: str, ids: List[str]) -> list:
    """The pairs ``(v, id)`` of the ids of ``ids`` that ``--id v`` equals but for spaces around it or case (after
    NFKC, which the hint then names too), not NFKC alone (`_id_candidates`); the id ``v.strip()`` first."""

    def key(x: str) -> str:
        return unicodedata.normalize("NFKC", x).strip().casefold()

    plain = unicodedata.normalize("NFKC", v)
    pairs = [(v, e) for e in ids if e != v and key(e) == key(v) and unicodedata.normalize("NFKC", e) != plain]
    return sorted(pairs, key=lambda p: (p[1] != v.strip(), p[1] != plain.strip(), len(p[1])))


def _ends(text: str) -> tuple:
    """The spaces before and after ``text``."""
    return text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]


def _others(pairs: list) -> str:
    """``" (or --id 'B', which it equals too)"`` naming the other ids of ``pairs`` (`_id_candidates`) after the
    first; ``""`` when there is one."""
    if len(pairs) < 2:
        return ""
    more = ", ".join(f"--id {e!r}" for _, e in pairs[1:4]) + (" …" if len(pairs) > 4 else "")
    return f" (or {more}, which it equals too)"


def _id_hint(v: str, ids: List[str], source: str) -> str:
    """``"; <why>"`` when ``--id v`` is an id of ``ids`` written differently, worded for an id typed on the command
    line (naming the id as ``source`` writes it); else ``""``. One hint, with one instruction: of the closest way of
    writing found (an invisible character, `zheval.adapters.duck.mismatch.invisible_pairs`, then
    `zheval.adapters.duck.mismatch.CLOSENESS`, with spaces and case after NFKC) -- Unicode normalisation (NFC vs NFD), then full-width or other compatibility characters (NFKC) alone, then spaces around
    it or case, then leading zeros or a decimal ``.0`` (`zheval.adapters.duck.mismatch.id_pairs`, which score,
    compare and agree hint at for unmatched ids): ``--id ７`` with the ids ``'007'`` and ``7`` names ``'7'``."""
    from ..adapters.duck.mismatch import invisible_pairs, plain_written, visible_id

    hidden = invisible_pairs([v], ids)
    if hidden:
        return (f"; --id {visible_id(v)} equals the id {visible_id(hidden[0][1])} of {source} once invisible "
                f"characters (zero-width space U+200B, U+FEFF, joiners, variation selectors …) are removed: ids are "
                f"matched exactly, so give --id with the id's invisible characters, or remove them from the ids of "
                f"{source}")
    nfc, zeros, compat, decimals = _id_candidates(v, ids)
    nfkc = " and full-width or other compatibility characters (NFKC)"  # the causes compose: '００７' and '7'
    if nfc:
        return (f"; --id {visible_id(v)} differs from the id {visible_id(nfc[0][1])} of {source} only in Unicode "
                f"normalisation (NFC vs NFD; they print alike): ids are matched exactly, so type the id as "
                f"{source} writes it")
    if compat:
        return (f"; --id {visible_id(v)} equals the id {visible_id(compat[0][1])} of {source} once its full-width "
                f"or other compatibility characters are written plainly (NFKC): ids are matched exactly, so give "
                f"--id {visible_id(compat[0][1])}{_others(compat)}")
    spaced = _spaced(v, ids)
    if spaced and spaced[0][1] == v.strip():
        return (f"; --id {v!r} has spaces around it: ids are matched exactly, so it is not the id {v.strip()!r} of "
                f"{source}; give --id {v.strip()!r}")
    if spaced:
        e = spaced[0][1]
        a, b = (unicodedata.normalize("NFKC", x) for x in (v, e))
        what = " and ".join(w for w, differs in (("spaces around it", _ends(a) != _ends(b)),
                                                 ("case", a.strip() != b.strip())) if differs)
        return (f"; --id {v!r} equals the id {e!r} of {source} but for {what}{nfkc if plain_written(v, e) else ''}: "
                f"ids are matched exactly, so give --id {e!r}{_others(spaced)}")
    rest = sorted(zeros + decimals, key=_best_first(v))
    if not rest:
        return ""
    e = rest[0][1]
    why = "leading zeros" if rest[0] in zeros else "a decimal '.0'"
    return (f"; --id {v!r} equals the id {e!r} of {source} but for {why}{nfkc if plain_written(v, e) else ''}: ids "
            f"are matched as text, so give --id {e!r}{_others(rest)}")


def select_items(ids: List[str], scores: List[float], o, source: str) -> List[int]:
    """Indices of the items to explain from the selection options of ``o`` (module docstring).

    Raises:
        UserError: two selections at once, ``--seed`` without ``--sample``, an id given twice or not in the data,
            K larger than the data.
    """
    chosen = [name for name, v in (("--id", o.ids), ("--worst", o.worst), ("--best", o.best), ("--sample", o.sample))
              if v]
    if len(chosen) > 1:
        raise UserError(f"{' and '.join(chosen)} select items in different ways; give one of them")
    if o.sample_seed is not None and not o.sample:
        raise UserError("--seed is the seed of --sample; add --sample K")
    n = len(ids)
    if o.ids:
        seen, out = {}, []
        where = {v: i for i, v in enumerate(ids)}
        for v in o.ids:
            if v in seen:
                raise UserError(f"--id {v!r} is given twice")
            seen[v] = True
            if v not in where:
                from ..adapters.duck.mismatch import visible_id  # combining marks escaped: NFD prints as NFC

                raise UserError(f"--id {visible_id(v)}: no item with this id in {source}{_id_hint(v, ids, source)}")
            out.append(where[v])
        return out
    for name, k in (("--worst", o.worst), ("--best", o.best), ("--sample", o.sample)):
        if k and k > n:
            raise UserError(f"{name} {k} is larger than the data: {source} has {n} item{'s' if n != 1 else ''}")
    if o.worst:
        return sorted(range(n), key=lambda i: (scores[i], i))[:o.worst]
    if o.best:
        return sorted(range(n), key=lambda i: (-scores[i], i))[:o.best]
    if o.sample:
        seed = 12345 if o.sample_seed is None else o.sample_seed
        if not 0 <= seed <= MAX_SEED:
            raise UserError(f"--seed must be in 0 … {MAX_SEED}, got {seed}")
        return sorted(random.Random(seed).sample(range(n), o.sample))
    return list(range(n))


def _metric_lines(expl: Dict[str, Any]) -> List[str]:
    lines = []
    for t, te in expl.get("rouge", {}).items():
        s = te["score"]
        lines.append(f"{t:<10} F {s['fmeasure']:.4f}  P {s['precision']:.4f}  R {s['recall']:.4f}  — {te['why']}")
    b = expl.get("bleu")
    if b is not None:
        orders = " ".join(f"{o['matches']}/{o['total']}" for o in b["orders"])
        lines.append(f"{'bleu':<10} {b['sentence_bleu']:.4f}  matches/totals {orders}  BP {b['brevity_penalty']:.4f}"
                     f"  — {b['why']}")
    c = expl.get("chrf")
    if c is not None:
        orders = " ".join(f"{o['kind'][0]}{o['n']} {o['matches']}/{o['hyp']}/{o['ref']}" for o in c["orders"])
        lines.append(f"{c['name']:<10} {c['sentence_chrf']:.4f}  matches/prediction/reference {orders}  — {c['why']}")
        for o in c["orders"]:
            if o["kind"] == "word" or o["n"] <= 2:  # the matched units a reader checks first (the JSON has all)
                grams = [" ".join(g["ngram"]) if isinstance(g["ngram"], list) else g["ngram"] for g in o["matched"]]
                lines.append(f"{'':<10} matched {o['kind']} {o['n']}-grams: {' | '.join(grams) or '(none)'}")
    return lines


def render_table(item_id: str, score_label: str, expl: Dict[str, Any], console) -> None:
    """Print one explained item on a rich ``console``: a two-column table (prediction | winning reference) with the
    matched runs highlighted (``[...]`` when the console has no colour), then one line per metric.

    Every text of the data (id, prediction, reference, the ``why`` lines) goes through
    `zheval.text.terminal.terminal_text` (the id and the texts of the cells first through ``escaped_text``: every
    backslash doubled, so an id ``x\\x1b`` never reads as one holding ESC) and into a rich ``Text`` (never parsed as markup), so neither a
    control sequence nor ``[bold]`` in a prediction changes what the terminal shows."""
    from rich.table import Table
    from rich.text import Text

    from ..adapters.highlight import bracketed, highlight_runs

    h = expl["highlight"]
    ref_entry = expl["references"][h["reference"]]
    plain = console.no_color or not console.is_terminal

    def cell(entry, idx):
        if not entry["text"]:
            return Text("(empty)", style=None if plain else "dim")
        if plain:
            return Text(terminal_text(bracketed(entry, idx)))
        t = Text()
        for s, m in highlight_runs(entry, idx):
            t.append(terminal_text(s), style="bold black on green" if m else None)
        return t

    # the id as the cells' text: every backslash doubled, so an id "x\\x1b" never reads as one holding ESC
    table = Table(title=Text(terminal_text(f"{escaped_text(item_id, one_line=True)}  {score_label}", one_line=True)),
                  title_justify="left",
                  show_lines=False, expand=True)
    table.add_column("prediction", ratio=1, overflow="fold")
    # numbered from 1, as a person counts ("reference 2 of 2"); the JSON's index fields stay 0-based
    table.add_column(f"reference {h['reference'] + 1} of {len(expl['references'])} (winning)", ratio=1, overflow="fold")
    table.add_row(cell(expl["prediction"], h["prediction"]), cell(ref_entry, h["reference_tokens"]))
    console.print(table)
    for line in _metric_lines(expl):
        console.print(Text(terminal_text(line, one_line=True)), soft_wrap=True)  # one line per metric, never wrapped
    console.print()


def _scores(preds, refs, metric: str, opts: Dict[str, Any]) -> List[float]:
    """The per-item number that ranks items: sentence BLEU, sentence chrF or a ROUGE type's F, from the metrics
    themselves."""
    import warnings

    from ..compute.bleu import BLEU_OPTIONS, compute_bleu
    from ..compute.chrf import CHRF_OPTIONS, compute_chrf
    from ..compute.rouge import ROUGE_OPTIONS, compute_rouge

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the explanations' own call warns once
        if metric == "chrf":
            c = {k: v for k, v in opts.items() if k in CHRF_OPTIONS}
            return compute_chrf(preds, refs, **{**c, "level": "sentence"})["scores"]
        if metric == "bleu":
            b = {k: v for k, v in opts.items() if k in BLEU_OPTIONS}
            b.setdefault("level", "sentence")
            return compute_bleu(preds, refs, **b)["scores"]
        r = {k: v for k, v in opts.items() if k in ROUGE_OPTIONS}
        r["rouge_types"] = [metric]
        return compute_rouge(preds, refs, use_aggregator=False, **r)[metric]


def explainable_preset(name: str):
    """The preset ``name`` of ``zheval explain --preset`` (a `zheval.presets.base.Preset`), checked before any file
    is read: an unknown name, or a leaderboard preset the explanation does not cover (``explainable=False``: its
    numbers follow the harness's own rules), is a `UserError` listing the presets explain takes."""
    from ..presets import find_preset, preset_names

    def covered(p):
        return all(part.explainable for part in (p.rouge, p.bleu) if part is not None)

    ok = [n for n in preset_names() if covered(find_preset(n))]
    preset = find_preset(name)
    if preset is None:
        raise UserError(f"--preset {name!r}: unknown preset; explain takes {', '.join(ok)}")
    if not covered(preset):
        raise UserError(f"--preset {name!r}: explain does not cover this preset -- its numbers follow the harness's "
                        "own post-processing, tokens and formulas, which an explanation built on zheval's rules "
                        f"would not equal (docs/leaderboard_presets.md); explain takes {', '.join(ok)}")
    return preset


def ranking_metrics(o, mets: List[str], opts: Dict[str, Any]) -> List[str]:
    """The values ``--metric`` may take: the per-item numbers the explanation shows -- ``bleu`` and ``chrf`` when
    computed, and every computed ROUGE type (``--rouge-types``, or the preset's own types when it is not given), in
    the order of ``zheval sample --by-metric``. Under ``--preset`` without ``--metrics`` (``o._given``: typed on the
    command line, even with the default value), the metrics are the preset's (``sacrebleu-zh``: bleu only;
    ``rouge155``: its eight ROUGE types)."""
    shown = list(mets)
    types = list(opts.get("rouge_types") or split_list(o.rouge_types, "--rouge-types"))
    if o.explain_preset is not None:
        from ..presets import find_preset

        preset = find_preset(o.explain_preset)
        if "metrics" not in o._given:
            shown = list(preset.metrics)
        if "rouge_types" not in opts and preset.rouge is not None:
            types = list(preset.rouge.defaults.get("rouge_types", types))
    return ((["bleu"] if "bleu" in shown else []) + (types if "rouge" in shown else [])
            + (["chrf"] if "chrf" in shown else []))


def check_ranking_metric(o, mets: List[str], opts: Dict[str, Any]) -> str:
    """The metric items are ranked and labelled by: ``--metric`` when it is among `ranking_metrics`; when
    ``--metric`` was not given and the default ``rougeL`` is not computed, the first of them (``--metrics bleu,chrf``:
    ``bleu``; every row and the table name it); a given ``--metric`` that is not computed is refused, as ``zheval
    sample --by-metric`` does: items are never ranked or labelled by a number the explanation does not show.

    Raises:
        UserError: naming the metric, the valid values and what to add.
    """
    valid = ranking_metrics(o, mets, opts)
    if o.metric in valid:
        return o.metric
    if "metric" not in getattr(o, "_given", {"metric"}) and valid:
        # the default rougeL when ROUGE-L is not computed: the first metric that is, named in every row and header
        return valid[0]
    if o.explain_preset is not None and "metrics" not in o._given:
        fix = f"--preset {o.explain_preset} computes {', '.join(valid)}: add --metric {valid[0]}"
    else:
        what = o.metric if o.metric in ("bleu", "chrf") else "rouge" if "rouge" not in mets else None
        fix = f"add {what} to --metrics" if what else f"add {o.metric} to --rouge-types"
        fix += f" or rank by a computed one (--metric {valid[0]})" if valid else ""
    raise UserError(f"--metric {o.metric!r} is not a computed metric; valid: {', '.join(valid) or '(none)'} (bleu = "
                    "sentence BLEU, chrf = sentence chrF; a ROUGE type must be in --rouge-types, bleu and chrf need "
                    f"their name in --metrics); {fix}")


def _items(o):
    """``(dataset, {id: (file, line, ...)}, predictions, places)`` of ``zheval explain``: the 小黄鸭 file
    (``--data``) and the predictions joined to it (read by ``--pred-field``/``--id-field`` when given; how they were
    paired printed on stderr, `pairing_messages`), or without ``--data`` the predictions file that carries its
    references, read as ``zheval score`` reads it (`zheval.cli.commands.read_records_file`; its rows named ``line
    N`` when it has no id field); ``places()``: the `zheval.cli.located.RowPlaces` that name a row error of the
    library ``FILE:line`` with the user's field."""
    from ..adapters.duck.predictions import join_predictions, read_predictions
    from .located import RowPlaces

    if o.data is None:
        records = read_records_file(o.predictions, record_fields(o))
        ds, where = records.dataset(), records.locations()
        return ds, where, list(records.predictions), \
            lambda: RowPlaces(list(ds["id"]), where, records.fields.get("pred"))
    ds, where = load_data(o.data, o.min_refs, o.max_refs, domains=domain_values(o.domains))
    named = o.pred_field is not None or o.id_field is not None
    preds_file = named_predictions(o) if named else read_predictions(o.predictions, o.predictions_format)
    preds = join_predictions(ds, preds_file, label_check=o.label_check)
    pairing_messages(preds_file)

    def places():
        ids = list(ds["id"])
        keys = [str(i) for i in preds_file.ids] if preds_file.ids is not None else ids
        lines = {k: (preds_file.source, ln) for k, ln in zip(keys, preds_file.lines or [])}
        return RowPlaces(ids, where, o.pred_field, {i: lines[str(i)] for i in ids if str(i) in lines})

    return ds, where, preds, places


def pairing_messages(predictions) -> None:
    """Print on stderr what ``zheval score`` puts in its report's notes and warnings about how the predictions were
    paired with the items: the note of predictions paired by line order, and the warnings of labels and stored
    queries that are not their item's (`zheval.adapters.duck.inputs`)."""
    from ..adapters.duck.inputs import order_notes, stored_field_warnings
    from .option_names import COMMAND, in_option_names

    for note in order_notes(predictions):
        echo(f"note: {note}", err=True)
    for w in stored_field_warnings(predictions):  # the library's words as the options typed (as score's report)
        echo(f"warning: {in_option_names(w, COMMAND.get())}", err=True)


def _first_references(refs: list, max_refs: int) -> list:
    """The first ``max_refs`` references of every item, with the note ``zheval score`` gives (on stderr) when the
    limit cuts nothing (`zheval.results.breakdowns.reference_limit_notes`)."""
    from ..results.breakdowns import first_references, reference_limit, reference_limit_notes

    for n in reference_limit_notes(reference_limit([len(r) for r in refs], max_refs)):
        echo(f"note: {n}", err=True)
    return first_references(refs, max_refs)


@app.command()
@takes("data", "predictions", "pred_field", "ref_field", "id_field", "ids", "worst", "best", "sample", "sample_seed", "metric", "explain_format",
       "tokenizer", "metrics", "rouge_types", "multi_ref", "smooth", "max_order", "jieba_hmm", "terms", "t2s",
       "normalize", "punct", "explain_preset", "predictions_format", "label_check", "min_refs", "max_refs", "domains",
       "quiet", "chrf_word_order", data=DATA_OPTIONAL)
def explain(o) -> None:
    """Why this number: each item with its matched tokens highlighted, the winning reference beside it, and one
    line per metric (or --format json)."""

    def go():
        from ..compute.explain import explain_items

        apply_quiet(True)
        check_tokenizer(o.tokenizer)
        if o.explain_format not in _FORMATS:
            raise UserError(f"--format must be one of {', '.join(_FORMATS)}, got {o.explain_format!r}")
        check_label_check(o.label_check)
        if o.data is None:
            check_records_options(o)
        elif o.pred_field is not None or o.id_field is not None:
            refuse_records_fields(o)
            check_records_format(o.predictions_format)
        else:
            refuse_records_fields(o)
            check_predictions_format(o.predictions_format)
        check_paths({"--data": o.data, "--predictions": o.predictions, "--terms": o.terms}, {})
        from ..compute.explain import EXPLAIN_METRICS
        from ..compute.options import check_metrics

        mets = check_metrics(split_list(o.metrics, "--metrics"), EXPLAIN_METRICS)  # before --metric is checked
        refuse_metric_options(o, mets)
        bleu_opts = bleu_options(o.smooth, o.max_order)
        opts: Dict[str, Any] = dict(**bleu_opts, **tokenizer_options(o.jieba_hmm, o.terms, o.t2s, o.normalize, o.punct))
        if "rouge" in mets:  # ROUGE's options go to ROUGE only (an option no metric uses is an error)
            opts.update(rouge_types=split_list(o.rouge_types, "--rouge-types"), multi_ref=o.multi_ref)
        if o.tokenizer is not None:
            opts["tokenizer"] = o.tokenizer
        if o.max_refs is not None:  # the signatures' maxrefs:K, as zheval score writes them
            opts["max_refs"] = o.max_refs
        if o.chrf_word_order:
            opts["word_order"] = o.chrf_word_order
        if o.explain_preset is not None:
            preset = explainable_preset(o.explain_preset)  # before any file is read or scored (F10: glm4 first)
            beyond = [m for m in mets if m not in preset.metrics]
            if "metrics" in o._given and beyond:
                raise UserError(f"--preset {o.explain_preset} has the rules of {', '.join(preset.metrics)} only; "
                                f"--metrics names {', '.join(beyond)}: drop --metrics (the preset's metrics) or "
                                f"give --metrics {','.join(preset.metrics)}")
            opts["preset"] = o.explain_preset
            for name in ("rouge_types", "multi_ref"):  # the preset's own, unless typed (even at the default)
                if name not in o._given:
                    opts.pop(name, None)
        refuse_tool_tokenizer_options(o, mets if o.explain_preset is None or "metrics" in o._given else
                                      preset.metrics, o.explain_preset)
        if o.metric not in ("bleu", "chrf"):
            from ..compute.options import check_rouge_types

            try:
                check_rouge_types(o.metric)
            except ValueError as exc:  # the library's message, in the options' names (--rouge-w-weight)
                from .option_names import in_option_names

                raise UserError(f"--metric {o.metric!r}: bleu, chrf or a ROUGE type. "
                                f"{in_option_names(str(exc), 'explain')}") from None
        o.metric = check_ranking_metric(o, mets, opts)
        ds, where, preds, places = _items(o)
        ids, refs = list(ds["id"]), [list(r) for r in ds["responses"]]
        if o.max_refs is not None:  # --max-refs K: the first K references of every item, as zheval score does
            refs = _first_references(refs, o.max_refs)
        if "rouge" in mets and (one := one_reference_note(o, bool(refs) and all(len(r) == 1 for r in refs))):
            echo(f"note: {one}", err=True)  # score says it in its report's notes (`report_one_reference_note`)
        needs_scores = bool(o.worst or o.best)
        with rows_named(places):  # the library's predictions[i] / references[i][j] as FILE:line and field
            scores = _scores(preds, refs, o.metric, opts) if needs_scores else []
        chosen = select_items(ids, scores, o, str(o.data or o.predictions))
        if not needs_scores and chosen:
            scores = [None] * len(ids)
            with rows_named(places, index=chosen):  # item k of this call is item chosen[k]
                sub = _scores([preds[i] for i in chosen], [refs[i] for i in chosen], o.metric, opts)
            for i, s in zip(chosen, sub):
                scores[i] = s
        with rows_named(places):
            expls = explain_items(preds, refs, indices=chosen,
                                  metrics=mets if o.explain_preset is None or "metrics" in o._given else None,
                                  **opts) if chosen else []
        if o.explain_format == "json":
            rows = [{"id": ids[i], "line": where[ids[i]][1], "metric": o.metric, "score": scores[i],
                     "explanation": e} for i, e in zip(chosen, expls)]
            echo(terminal_json(rows))
            return
        from rich.console import Console

        console = Console(file=sys.stdout, no_color=bool(os.environ.get("NO_COLOR")) or None, highlight=False,
                          soft_wrap=False)
        for i, e in zip(chosen, expls):
            render_table(f"{ids[i]} ({where[ids[i]][0]}:{where[ids[i]][1]})", f"{o.metric} {scores[i]:.4f}", e,
                         console)

    run_command(go)
