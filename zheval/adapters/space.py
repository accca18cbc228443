"""The Hub Space widget of ``chinese_rouge``, ``chinese_bleu`` and ``chinese_chrf`` on current gradio (5.x/6.x),
instead of ``evaluate.utils.launch_gradio_widget`` (gradio 3 API, removed in gradio 4).

A Space's ``app.py`` is three lines: `space_app` loads the metric script that sits next to it **by its file
path** (a Space is served from ``/home/user/app``, and ``evaluate.load(<dir>)`` would look for ``<dir>/app.py``) and
builds the app; ``app.py`` launches it::

    from zheval.adapters.space import space_app
    module, demo = space_app(__file__, "chinese_rouge")
    if __name__ == "__main__":
        demo.launch()

Input format (the same for both metrics):

* **Predictions**: one prediction per line. A blank line inside the text is an empty prediction (`zheval.text.normalize.BLANK_SCORED`);
  blank lines at the end are ignored.
* **References**: one line per prediction, in the same order; several references of one item go on its line,
  separated by ``|||`` (as in Moses/sacrebleu n-best files), e.g. ``今天天气不错 ||| 天气很好``. Spaces around
  ``|||`` are removed. A blank reference line, an empty reference between delimiters, or four or more ``|`` in a
  row (``x||||y``: ``x`` and ``|y``, or ``x|`` and ``y``?), is an error naming the line; ``|`` and ``||`` inside a
  reference are text.
* Limits (a Space runs on a shared CPU; `evaluate.load` scores more): at most `MAX_ITEMS` lines, lines of
  at most `MAX_LINE_CHARS` characters, and at most `MAX_BOX_CHARS` characters per box.

The boxes are read, and a refused input's message worded, by `zheval.adapters.space_inputs` (`parse_inputs`,
`widget_message`, the limits; imported here under the same names).

Bad input never raises into gradio: the page shows a message naming the 1-based line (``reference line 2 is
empty``; the module's ``references[1][0]`` becomes ``reference line 2, reference 1``), the tables are hidden and
the signature cleared (no stale numbers next to an error), and the server goes on serving. An unexpected exception (a bug) is
logged with its traceback on the server and shown in the page as one line without the traceback.

The scoring functions (`score_rouge`, `score_bleu`) are plain functions of the texts and options that
return a `WidgetResult` (pandas DataFrames, the signature, the parsed lines), so they are tested without a
browser; `build_demo` wires them into a ``gradio.Blocks`` app without launching it. ``gradio`` (the ``space``
extra) is imported only here.

Choosing a ROUGE preset ticks the preset's own ROUGE types and offers only the types it computes
(`rouge_type_boxes`; ``llamafactory`` has no ``rougeLsum``, which the default boxes tick), so a preset works as
chosen; ``(none)`` ticks `DEFAULT_ROUGE_TYPES` again.

Under the tables, every scored line is explained (`explain_html`, at most `MAX_EXPLAINED_LINES` lines;
the panel says when it stops): the prediction and the winning reference side by side with their matched tokens
marked ``<mark class="zheval-match">`` (the ``highlight`` of [`zheval.explain`][zheval.compute.explain.explain], run with the options the
module was given), and the line's numbers -- each ROUGE type's F, or the sentence BLEU with its matches per order.

Text from a model is data (issue 35): every text the page shows -- the per-item table's ``prediction`` and
``references`` cells, the explanation panel, the message line, the signature -- goes through the rule of every zheval
HTML page (`zheval.adapters.report.html_page.page_environment`): control characters shown as visible escapes by
`zheval.text.controls.visible_controls` (ESC as ``\\x1b``, NUL as ``\\x00``, U+202E as ``\\u202e``, CR as ``\\r``;
in a table cell also ``\\n`` and ``\\t``), then HTML-escaped where it becomes HTML, model texts of the panel isolated
in ``<bdi>``. The tables are ``gr.Dataframe(datatype="str")``: gradio shows their cells as text (never as Markdown
or HTML). `WidgetResult.run` keeps the parsed texts exactly (what was scored).
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import pandas as pd

from ..io.lists import split_entries
from ..presets import preset_names, rouge_preset
from ..text.terminal import visible_controls
from .extras import require_extra
from .space_inputs import (MAX_BOX_CHARS, MAX_ITEMS, MAX_LINE_CHARS, MAX_MESSAGE_CHARS, REF_DELIMITER,  # noqa: F401
                           parse_inputs, widget_message)

__all__ = [
    "preset_choices",
    "DEFAULT_ROUGE_TYPES",
    "rouge_type_boxes",
    "REF_DELIMITER",
    "MAX_ITEMS",
    "MAX_LINE_CHARS",
    "MAX_BOX_CHARS",
    "ROUGE_TYPE_CHOICES",
    "WidgetResult",
    "parse_inputs",
    "score_rouge",
    "score_bleu",
    "score_chrf",
    "widget_message",
    "MAX_EXPLAINED_LINES",
    "explain_html",
    "card_body",
    "build_demo",
    "space_app",
]

logger = logging.getLogger(__name__)

#: What needs gradio, for the one-line message of a missing ``space`` extra
SPACE_PURPOSE = "the Space widget"
#: ROUGE types offered in the widget (the module accepts more: rouge1..rouge9, rougeS<d>, rougeS*, ...).
ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4")
#: The boxes ticked without a preset (the module's default types).
DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: Decimals shown in the tables (the module's results are not rounded).
DECIMALS = 4
NO_PRESET = "(none)"
#: At most this many lines are explained under the tables (each explanation is a few milliseconds; the panel says
#: where it stops).
MAX_EXPLAINED_LINES = 200

ROUGE_EXAMPLE = ("猫坐在垫子上\n今天天气很好", "猫趴在垫子上面\n今天天气不错 ||| 天气很好")
BLEU_EXAMPLE = ROUGE_EXAMPLE
#: The widgets by module name: (title, scoring function name).
WIDGETS = {"chinese_rouge": "Chinese ROUGE", "chinese_bleu": "Chinese BLEU", "chinese_chrf": "Chinese chrF"}


class WidgetResult(NamedTuple):
    """What one run of the widget shows (a tuple, so ``summary, per_item, signature, run = result`` works).

    Attributes:
        summary: one-row ``DataFrame`` (see `score_rouge` / `score_bleu`).
        per_item: one row per input line; its ``prediction`` and ``references`` are the texts as shown
            (`zheval.text.controls.visible_controls` with ``one_line=True``: control characters as escapes).
        signature: the module's reproducibility signature (``str``).
        run: ``{"predictions": list[str], "references": list[list[str]], "options": dict}`` -- the parsed lines and
            the options passed to ``module.compute``, kept for a per-line panel (see the module docstring).
    """

    summary: pd.DataFrame
    per_item: pd.DataFrame
    signature: str
    run: Dict[str, Any]


def _round(x: float) -> float:
    return round(float(x), DECIMALS)


def _preset(value: Optional[str]) -> Optional[str]:
    return None if value in (None, "", NO_PRESET) else value


def preset_choices(metric: str) -> List[str]:
    """The Space's preset dropdown for ``metric`` (``"rouge"`` or ``"bleu"``): ``"(none)"`` and the presets offered
    at the ``space`` door ([`zheval.presets.preset_names`][]), asked when the page is built (so a preset
    registered before `build_demo` is offered)."""
    return [NO_PRESET, *preset_names(metric, door="space")]


def rouge_type_boxes(preset: Optional[str]) -> Tuple[List[str], List[str]]:
    """``(choices, ticked)`` of the ROUGE-type boxes for the preset dropdown's value (issue 35): without a preset
    every type of `ROUGE_TYPE_CHOICES` with `DEFAULT_ROUGE_TYPES` ticked; with a preset the types it computes
    (those its [`check_types`][zheval.presets.base.RougePreset.check_types] accepts: ``llamafactory`` has no
    ``rougeLsum``) with the preset's own types ticked, so that choosing a preset gives its recipe and a type it
    cannot compute cannot be ticked. The page calls it when the preset changes."""
    name = _preset(preset)
    if name is None:
        return list(ROUGE_TYPE_CHOICES), list(DEFAULT_ROUGE_TYPES)
    part = rouge_preset(name)
    choices = []
    for t in ROUGE_TYPE_CHOICES:
        try:
            part.check_types([t])
        except ValueError:
            continue
        choices.append(t)
    own = set(part.defaults.get("rouge_types", DEFAULT_ROUGE_TYPES))
    return choices, [t for t in choices if t in own]


def _item_frame(preds: Sequence[str], refs: Sequence[Sequence[str]], columns: dict) -> pd.DataFrame:
    # the cells show data: control characters made visible (a table cell is one line: \n and \t too)
    data = {"#": list(range(1, len(preds) + 1)), "prediction": [visible_controls(p, one_line=True) for p in preds],
            "references": [visible_controls(f" {REF_DELIMITER} ".join(rs), one_line=True) for rs in refs]}
    data.update({k: [_round(v) for v in vs] for k, vs in columns.items()})
    return pd.DataFrame(data)


def _run(preds: List[str], refs: List[List[str]], opts: dict) -> Dict[str, Any]:
    return {"predictions": preds, "references": refs, "options": dict(opts)}


def score_rouge(module: Any, predictions_text: str, references_text: str, tokenizer: str = "char",
                rouge_types: Optional[Sequence[str]] = None, multi_ref: str = "max",
                preset: Optional[str] = None) -> WidgetResult:
    """Score the two text boxes with a loaded ``chinese_rouge`` module.

    Args:
        module: ``evaluate.load(".../chinese_rouge.py")``.
        predictions_text, references_text: see `parse_inputs`.
        tokenizer: ``"char"`` or ``"jieba"`` (ignored with a preset, which sets its own).
        rouge_types: ROUGE types, a list or a comma list ``"rouge1,rougeL"`` (`zheval.io.lists.split_entries`)
            (default: the module's ``rouge1, rouge2, rougeL, rougeLsum``; with a preset, the preset's own types when
            not given).
        multi_ref: ``"max"``, ``"mean"``, ``"pool"`` or ``"best_recall"`` (ignored with a preset).
        preset: ``None``/``"(none)"`` or a name of `preset_choices` ``("rouge")``.
    Returns:
        `WidgetResult`: ``summary`` has one row, ``"mean F"`` over the items, one column per ROUGE type
        (0-1, rounded to 4 decimals); ``per_item`` has ``#``, ``prediction``, ``references`` and the per-item F of
        each type; ``signature`` is the module's reproducibility signature.
    Raises:
        ValueError, TypeError: from `parse_inputs` or the module (bad option, reference empty after
            normalisation ...).
    """
    preds, refs = parse_inputs(predictions_text, references_text)
    preset = _preset(preset)
    opts: dict = {"preset": preset} if preset else {"tokenizer": tokenizer, "multi_ref": multi_ref}
    if rouge_types is not None:
        if not rouge_types:
            raise ValueError("choose at least one ROUGE type")
        # one string is a comma list ("rouge1,rougeL"; list() would read its characters as types)
        opts["rouge_types"] = split_entries(rouge_types, "rouge_types") if isinstance(rouge_types, str) \
            else list(rouge_types)
    mean_res = module.compute(predictions=preds, references=refs, **opts)
    item_res = module.compute(predictions=preds, references=refs, use_aggregator=False, **opts)
    types = [k for k, v in item_res.items() if isinstance(v, list)]  # per-item lists: the types, not a preset's numbers
    summary = pd.DataFrame({"": ["mean F"], **{t: [_round(mean_res[t])] for t in types}})
    per_item = _item_frame(preds, refs, {t: item_res[t] for t in types})
    return WidgetResult(summary, per_item, mean_res["signature"], _run(preds, refs, opts))


def score_bleu(module: Any, predictions_text: str, references_text: str, tokenizer: str = "char",
               level: str = "corpus", smooth_method: str = "exp", bp_ref_length: str = "closest",
               max_order: int = 4, preset: Optional[str] = None) -> WidgetResult:
    """Score the two text boxes with a loaded ``chinese_bleu`` module.

    Args:
        module: ``evaluate.load(".../chinese_bleu.py")``.
        predictions_text, references_text: see `parse_inputs`.
        tokenizer: ``"char"`` or ``"jieba"``; level: ``"corpus"`` or ``"sentence"``; smooth_method: ``"exp"``,
            ``"none"``, ``"floor"``, ``"add-k"`` or ``"nltk3"``; bp_ref_length: ``"closest"``, ``"shortest"`` or
            ``"none"``; max_order: 1-4. All ignored with a preset, which sets its own.
        preset: ``None``/``"(none)"`` or a name of `preset_choices` ``("bleu")``.
    Returns:
        `WidgetResult`: ``summary`` has one row with ``level``, ``BLEU``, ``P1``..``Pn`` (n-gram
        precisions), ``BP``, ``ratio``, ``hyp_len``, ``ref_len`` (BLEU/P/BP on 0-1, rounded to 4 decimals);
        ``per_item`` has ``#``, ``prediction``, ``references`` and ``sentence BLEU`` (each item scored alone,
        sacrebleu's effective order, same other options); ``signature`` is the module's signature for ``summary``.
    Raises:
        ValueError, TypeError: from `parse_inputs` or the module.
    """
    preds, refs = parse_inputs(predictions_text, references_text)
    preset = _preset(preset)
    if preset:
        opts: dict = {"preset": preset}
    else:
        opts = {"tokenizer": tokenizer, "level": level, "smooth_method": smooth_method,
                "bp_ref_length": bp_ref_length, "max_order": int(max_order)}
    res = module.compute(predictions=preds, references=refs, **opts)
    row = {"level": [res["level"]], "BLEU": [_round(res["bleu"])]}
    for n, p in enumerate(res["precisions"], start=1):
        row[f"P{n}"] = [_round(p)]
    row.update({"BP": [_round(res["brevity_penalty"])], "ratio": [_round(res["length_ratio"])],
                "hyp_len": [int(res["translation_length"])], "ref_len": [int(res["reference_length"])]})
    summary = pd.DataFrame(row)
    if res["level"] == "sentence":
        scores = res["scores"]
    else:
        scores = module.compute(predictions=preds, references=refs, **{**opts, "level": "sentence"})["scores"]
    per_item = _item_frame(preds, refs, {"sentence BLEU": scores})
    return WidgetResult(summary, per_item, res["signature"], _run(preds, refs, opts))


def score_chrf(module: Any, predictions_text: str, references_text: str, tokenizer: str = "char",
               word_order: int = 0, eps_smoothing: bool = False, level: str = "corpus") -> WidgetResult:
    """Score the two text boxes with a loaded ``chinese_chrf`` module.

    Args:
        module: ``evaluate.load(".../chinese_chrf.py")``.
        predictions_text, references_text: see `parse_inputs`.
        tokenizer: ``"char"`` or ``"jieba"``; word_order: 0 (chrF) to 2 (chrF++); eps_smoothing: sacrebleu's option;
            level: ``"corpus"`` or ``"sentence"``.
    Returns:
        `WidgetResult`: ``summary`` has one row with ``level``, the score under its name (``chrF2``,
        ``chrF2++``), and ``P``/``R`` per order (``c1``..``c6`` characters, ``w1``, ``w2`` words; 0-1, rounded to 4
        decimals); ``per_item`` has ``#``, ``prediction``, ``references`` and ``sentence chrF``; ``signature`` is the
        module's signature for ``summary``.
    Raises:
        ValueError, TypeError: from `parse_inputs` or the module.
    """
    preds, refs = parse_inputs(predictions_text, references_text)
    opts = {"tokenizer": tokenizer, "word_order": int(word_order), "eps_smoothing": bool(eps_smoothing),
            "level": level}
    res = module.compute(predictions=preds, references=refs, **opts)
    row: dict = {"level": [res["level"]], res["name"]: [_round(res["chrf"])]}
    labels = [f"c{n}" for n in range(1, res["char_order"] + 1)] + [f"w{n}" for n in range(1, res["word_order"] + 1)]
    for lab, p, r in zip(labels, res["precisions"], res["recalls"]):
        row[f"P {lab}"], row[f"R {lab}"] = [_round(p)], [_round(r)]
    scores = res["scores"] if res["level"] == "sentence" else \
        module.compute(predictions=preds, references=refs, **{**opts, "level": "sentence"})["scores"]
    per_item = _item_frame(preds, refs, {"sentence chrF": scores})
    return WidgetResult(pd.DataFrame(row), per_item, res["signature"], _run(preds, refs, opts))


#: Inline styles of the message line (gradio 6 takes page CSS only in ``launch()``, which ``app.py`` calls bare).
_OK_STYLE = "padding:0.5em 0.8em;border-radius:6px;background:#edf7ed;color:#1e4620;border:1px solid #c3e6cb"
_WARNING_STYLE = ("padding:0.5em 0.8em;border-radius:6px;background:#fff8e1;color:#5d4200;border:1px solid #ffe08a;"
                  "margin-top:0.3em;white-space:pre-wrap")
_ERROR_STYLE = ("padding:0.5em 0.8em;border-radius:6px;background:#fdecea;color:#611a15;border:1px solid #f5c2c7;"
                "white-space:pre-wrap")


_MARK_STYLE = "background:#b7e4c7;color:inherit;padding:0 1px;border-radius:2px"
_PANEL_STYLE = "border:1px solid #ddd;border-radius:6px;padding:0.5em 0.8em;margin:0.4em 0"
_SIDE_STYLE = "flex:1;min-width:0;white-space:pre-wrap;line-height:1.6"


def explain_html(run: Dict[str, Any], metric: str) -> str:
    """The explanation panel of one run: one ``<div class="zheval-explain" data-line="i">`` per line (1-based)
    with the line's numbers, and the prediction (``.zheval-explain-prediction``) and winning reference
    (``.zheval-explain-reference``, ``data-reference`` = its 1-based number) with the matched runs in
    ``<mark class="zheval-match">`` (`zheval.adapters.highlight.highlight_html`).

    Args:
        run: `WidgetResult.run` (``predictions``, ``references``, the ``options`` passed to the module).
        metric: ``"chinese_rouge"`` (ROUGE is explained), ``"chinese_bleu"`` (BLEU, at ``level="sentence"``: the
            per-item table's sentence BLEU) or ``"chinese_chrf"`` (sentence chrF with its matches per order).
    Returns:
        HTML (every text escaped); the first `MAX_EXPLAINED_LINES` lines, then a note naming the lines left.
    Raises:
        ValueError, TypeError: as [`zheval.explain_items`][zheval.compute.explain.explain_items] (not for input the module accepted).
    """
    from ..compute.explain import explain_items
    from .highlight import highlight_html

    preds, refs = run["predictions"], run["references"]
    opts = dict(run["options"])
    if metric in ("chinese_bleu", "chinese_chrf"):  # each line is explained by its sentence score
        opts["level"] = "sentence"
    n = min(len(preds), MAX_EXPLAINED_LINES)
    short = {"chinese_rouge": "rouge", "chinese_bleu": "bleu", "chinese_chrf": "chrf"}[metric]
    items = explain_items(preds, refs, metrics=[short], indices=list(range(n)), **opts)
    parts = ['<div class="zheval-explanations"><h3 style="margin:0.3em 0">Why these numbers: matched tokens, '
             'prediction and winning reference</h3>']
    for i, e in enumerate(items, start=1):
        h = e["highlight"]
        k = h["reference"]
        if "rouge" in e:
            nums = " · ".join(f"{t} F {te['score']['fmeasure']:.{DECIMALS}f}" for t, te in e["rouge"].items())
        elif "chrf" in e:
            c = e["chrf"]
            nums = f"sentence {c['name']} {c['sentence_chrf']:.{DECIMALS}f} · matches " + " ".join(
                f"{o['kind'][0]}{o['n']} {o['matches']}/{o['hyp']}" for o in c["orders"])
        else:
            b = e["bleu"]
            nums = f"sentence BLEU {b['sentence_bleu']:.{DECIMALS}f} · matches " + " ".join(
                f"{o['matches']}/{o['total']}" for o in b["orders"])
        pred_html = highlight_html(e["prediction"], h["prediction"], _MARK_STYLE) or "<em>(empty)</em>"
        ref_html = highlight_html(e["references"][k], h["reference_tokens"], _MARK_STYLE)
        parts.append(
            f'<div class="zheval-explain" data-line="{i}" style="{_PANEL_STYLE}">'
            f'<div class="zheval-explain-head"><strong>line {i}</strong> · {html.escape(visible_controls(nums))} · '
            f'winning reference '
            f'{k + 1} of {len(e["references"])}</div>'
            f'<div style="display:flex;gap:1.2em">'
            f'<div class="zheval-explain-prediction" style="{_SIDE_STYLE}"><small>prediction</small><br>'
            f'{pred_html}</div>'
            f'<div class="zheval-explain-reference" data-reference="{k + 1}" style="{_SIDE_STYLE}"><small>reference '
            f'{k + 1}</small><br>{ref_html}</div></div></div>')
    if len(preds) > n:
        parts.append(f'<p class="zheval-explain-more">Lines {n + 1}-{len(preds)} are scored above but not explained '
                     f'here (the widget explains at most {MAX_EXPLAINED_LINES} lines; use zheval.explain_items).</p>')
    parts.append("</div>")
    return "".join(parts)


def scored_with_slips(score, module, *args):
    """``(score(module, *args), [the input-slip warnings' messages])``: the library's warnings about the inputs
    ([`zheval.compute.guards.ZhevalWarning`][]: Traditional against Simplified text, ``none`` on unsegmented
    Chinese, ...) are caught, each message once, so that the page shows them to the user as the library shows them
    to a caller; any other warning is issued again unchanged (to the server log)."""
    import warnings

    from ..compute.guards import ZhevalWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ZhevalWarning)
        res = score(module, *args)
    slips: list = []
    for w in caught:
        if issubclass(w.category, ZhevalWarning):
            if str(w.message) not in slips:
                slips.append(str(w.message))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return res, slips


def _message_html(kind: str, text: str) -> str:
    """The message line under the Compute button; ``kind`` is ``"ok"``, ``"warning"`` (an input slip) or ``"error"``
    (it may quote input: control characters made visible, then HTML-escaped)."""
    label = {"error": "<strong>Error:</strong> ", "warning": "<strong>Warning:</strong> "}.get(kind, "")
    role, style = {"error": ("alert", _ERROR_STYLE), "warning": ("status", _WARNING_STYLE)}.get(kind, ("status", _OK_STYLE))
    return (f'<div class="zheval-message zheval-{kind}" role="{role}" style="{style}">'
            f"{label}{html.escape(visible_controls(text))}</div>")


def card_body(card: Union[str, Path, None]) -> str:
    """The metric card's Markdown without its YAML header (``""`` when there is no card)."""
    if card is None:
        return ""
    path = Path(card)
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    m = re.match(r"\A---\n.*?\n---\n", text, flags=re.S)
    return text[m.end():] if m else text


def _page_outputs(score, module):
    """The click handler: ``(message_html, summary, per_item, signature, last_run, explanations_html)`` for any
    input, never raising.

    On success the two tables are shown (``gr.update(value=<DataFrame>, visible=True)``). A refused input
    (``ValueError``/``TypeError``: `parse_inputs`, the module's checks) gives its `widget_message`;
    anything else is a bug: logged with its traceback, shown as one line. Either way the tables are hidden and
    emptied, the signature and the explanations are ``""`` and ``last_run`` is ``None`` (no stale numbers next to an
    error).
    """
    import warnings

    gr = require_extra("gradio", extra="space", purpose=SPACE_PURPOSE)

    from ..compute.guards import ZhevalWarning

    def failed(text: str):
        hidden = gr.update(value=None, visible=False)
        return _message_html("error", text), hidden, hidden, "", None, ""

    def run(predictions_text, references_text, *options):
        try:
            res, slips = scored_with_slips(score, module, predictions_text, references_text, *options)
        except (ValueError, TypeError) as exc:
            return failed(widget_message(exc))
        except Exception as exc:  # a bug: the server log has the traceback, the page one line
            logger.exception("zheval widget: unexpected error")
            return failed(f"internal error ({type(exc).__name__}); the input was not scored. Please report it with "
                          "the input that caused it.")
        n_refs = sum(len(r) for r in res.run["references"])
        text = f"Scored {len(res.run['predictions'])} lines ({n_refs} references)."
        try:
            with warnings.catch_warnings():  # the same input slips, already shown above
                warnings.simplefilter("ignore", ZhevalWarning)
                explained = explain_html(res.run, module.name)
        except Exception as exc:  # a bug: the numbers stay, the panel says it failed, the log has the traceback
            logger.exception("zheval widget: explanation failed")
            explained = _message_html("error", f"the explanation failed ({type(exc).__name__}); the numbers above "
                                      "are not affected. Please report it with the input that caused it.")
        message = _message_html("ok", text) + "".join(_message_html("warning", w) for w in slips)
        return (message, gr.update(value=res.summary, visible=True),
                gr.update(value=res.per_item, visible=True), visible_controls(res.signature), res.run, explained)

    run.__name__ = score.__name__
    return run


def _preset_boxes(preset: Optional[str]):
    """The preset dropdown's change handler: the ROUGE-type boxes of `rouge_type_boxes` as a ``gr.update``."""
    gr = require_extra("gradio", extra="space", purpose=SPACE_PURPOSE)

    choices, ticked = rouge_type_boxes(preset)
    return gr.update(choices=choices, value=ticked)


def build_demo(module: Any, card: Union[str, Path, None] = None):
    """A ``gradio.Blocks`` app for a loaded ``chinese_rouge``, ``chinese_bleu`` or ``chinese_chrf`` module (not
    launched).

    Args:
        module: the loaded evaluate module; ``module.name`` picks the widget (a key of `WIDGETS`).
        card: path of the metric card (README.md); its body is shown under the widget.
    Returns:
        ``gradio.Blocks``; call ``.launch()`` on it (a Space's ``app.py`` does). Its one event, ``api_name=
        "compute"``, takes the two boxes and the options and returns ``(message, summary, per_item, signature,
        last_run, explanations)`` (elem_ids ``message``, ``summary``, ``per_item``, ``signature``,
        ``explanations``; ``last_run`` is a ``gr.State`` holding `WidgetResult.run`).
    Raises:
        ValueError: a module that is not one of `WIDGETS`.
        MissingExtraError: gradio is not installed (one line naming the ``space`` extra).
    """
    gr = require_extra("gradio", extra="space", purpose=SPACE_PURPOSE)

    name = getattr(module, "name", None)
    if name not in WIDGETS:
        raise ValueError(f"build_demo: expected the {', '.join(WIDGETS)} module, got {name!r}")
    is_rouge = name == "chinese_rouge"
    title = WIDGETS[name]
    help_md = (
        f"# {title}\n\nOne **prediction per line**; on the matching line of **references**, one or more "
        f"references separated by `{REF_DELIMITER}` (e.g. `今天天气不错 {REF_DELIMITER} 天气很好`). "
        f"Up to {MAX_ITEMS} lines of at most {MAX_LINE_CHARS:,} characters ({MAX_BOX_CHARS:,} per box). "
        "Scores are on 0-1; the signature says exactly what was computed."
    )
    with gr.Blocks(title=title) as demo:
        gr.Markdown(help_md)
        with gr.Row():
            preds = gr.Textbox(label="Predictions (one per line)", lines=6, elem_id="predictions")
            refs = gr.Textbox(label=f"References (one line per prediction, several separated by {REF_DELIMITER})",
                              lines=6, elem_id="references")
        with gr.Row():
            tokenizer = gr.Dropdown(["char", "jieba"], value="char", label="tokenizer", elem_id="tokenizer")
            if is_rouge:
                rouge_types = gr.CheckboxGroup(list(ROUGE_TYPE_CHOICES), value=list(DEFAULT_ROUGE_TYPES),
                                               label="rouge_types", elem_id="rouge_types")
                multi_ref = gr.Dropdown(["max", "mean", "pool", "best_recall"], value="max", label="multi_ref",
                                        elem_id="multi_ref")
                preset = gr.Dropdown(preset_choices("rouge"), value=NO_PRESET,
                                     label="preset (overrides tokenizer and multi_ref; ticks its own rouge_types)",
                                     elem_id="preset")
                options = [tokenizer, rouge_types, multi_ref, preset]
                # a preset ticks its own types and offers only those it computes (rouge_type_boxes)
                preset.change(_preset_boxes, inputs=[preset], outputs=[rouge_types], api_visibility="private")
            elif name == "chinese_chrf":
                word_order = gr.Slider(0, 2, value=0, step=1, label="word_order (2 = chrF++)", elem_id="word_order")
                eps = gr.Checkbox(value=False, label="eps_smoothing", elem_id="eps_smoothing")
                level = gr.Dropdown(["corpus", "sentence"], value="corpus", label="level", elem_id="level")
                options = [tokenizer, word_order, eps, level]
            else:
                level = gr.Dropdown(["corpus", "sentence"], value="corpus", label="level", elem_id="level")
                smooth = gr.Dropdown(["exp", "none", "floor", "add-k", "nltk3"], value="exp",
                                     label="smooth_method", elem_id="smooth_method")
                bp = gr.Dropdown(["closest", "shortest", "none"], value="closest", label="bp_ref_length",
                                 elem_id="bp_ref_length")
                order = gr.Slider(1, 4, value=4, step=1, label="max_order", elem_id="max_order")
                preset = gr.Dropdown(preset_choices("bleu"), value=NO_PRESET,
                                     label="preset (overrides the other options)", elem_id="preset")
                options = [tokenizer, level, smooth, bp, order, preset]
        button = gr.Button("Compute", variant="primary", elem_id="compute")
        message = gr.HTML("", elem_id="message")
        # shown once there are numbers (hidden again by an error)
        # datatype "str": cells are shown as text, never as Markdown/HTML (the texts are data)
        summary = gr.Dataframe(label="Score", interactive=False, elem_id="summary", visible=False, datatype="str")
        per_item = gr.Dataframe(label="Per item", interactive=False, elem_id="per_item", visible=False,
                                datatype="str")
        signature = gr.Textbox(label="Signature", interactive=False, elem_id="signature")
        explanations = gr.HTML("", elem_id="explanations")  # every scored line explained (explain_html)
        last_run = gr.State(None)

        score = {"chinese_rouge": score_rouge, "chinese_bleu": score_bleu, "chinese_chrf": score_chrf}[name]
        button.click(_page_outputs(score, module), inputs=[preds, refs, *options],
                     outputs=[message, summary, per_item, signature, last_run, explanations], api_name="compute")
        gr.Examples([list(ROUGE_EXAMPLE if is_rouge else BLEU_EXAMPLE)], inputs=[preds, refs])  # (chrF: BLEU's)
        body = card_body(card)
        if body:
            gr.Markdown(body)
    return demo


def space_app(app_file: Union[str, Path], metric: str):
    """Load the metric script next to a Space's ``app.py`` and build its widget (not launched).

    Args:
        app_file: the Space's ``app.py`` (pass ``__file__``); ``<its folder>/<metric>.py`` is loaded by file path
            and ``<its folder>/README.md`` is the card shown under the widget.
        metric: ``"chinese_rouge"``, ``"chinese_bleu"`` or ``"chinese_chrf"``.
    Returns:
        ``(module, demo)``: the loaded evaluate module and the ``gradio.Blocks`` of `build_demo`.
    Raises:
        ValueError: another metric name; FileNotFoundError: no ``<metric>.py`` next to ``app_file``.
    """
    import evaluate

    if metric not in WIDGETS:
        raise ValueError(f"space_app: metric must be one of {', '.join(WIDGETS)}, got {metric!r}")
    here = Path(app_file).resolve().parent
    script = here / f"{metric}.py"
    if not script.is_file():
        raise FileNotFoundError(f"space_app: {script} not found (the metric script sits next to app.py)")
    module = evaluate.load(str(script))
    return module, build_demo(module, card=here / "README.md")
