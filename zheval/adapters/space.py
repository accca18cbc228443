"""The Hub Space widget of ``chinese_rouge`` and ``chinese_bleu`` on current gradio (5.x/6.x), instead of
``evaluate.utils.launch_gradio_widget`` (gradio 3 API, removed in gradio 4).

A Space's ``app.py`` stays a few lines: load the metric script that sits next to it **by its file path** (a Space is
served from ``/home/user/app``, and ``evaluate.load(<dir>)`` would look for ``<dir>/app.py``), then::

    demo = build_demo(module, card=HERE / "README.md")
    demo.launch()

Input format (the same for both metrics):

* **Predictions**: one prediction per line. A blank line inside the text is an empty prediction (it scores 0);
  blank lines at the end are ignored.
* **References**: one line per prediction, in the same order; several references of one item go on its line,
  separated by ``|||`` (as in Moses/sacrebleu n-best files), e.g. ``今天天气不错 ||| 天气很好``. Spaces around
  ``|||`` are removed. A blank reference line, or an empty reference between delimiters, is an error naming the line.

The scoring functions (:func:`score_rouge`, :func:`score_bleu`) are plain functions of the texts and options that
return pandas DataFrames and the signature, so they are tested without a browser; :func:`build_demo` wires them
into a ``gradio.Blocks`` app without launching it. ``gradio`` (the ``space`` extra) is imported only here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple, Union

import pandas as pd

__all__ = [
    "REF_DELIMITER",
    "MAX_ITEMS",
    "ROUGE_TYPE_CHOICES",
    "parse_inputs",
    "score_rouge",
    "score_bleu",
    "card_body",
    "build_demo",
]

#: Separator of several references on one line of the references box.
REF_DELIMITER = "|||"
#: At most this many lines are scored in the widget (a Space runs on a shared CPU); use the module for more.
MAX_ITEMS = 1000
#: ROUGE types offered in the widget (the module accepts more: rouge1..rouge9, rougeS<d>, rougeS*, ...).
ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4")
#: Decimals shown in the tables (the module's results are not rounded).
DECIMALS = 4
NO_PRESET = "(none)"

ROUGE_EXAMPLE = ("猫坐在垫子上\n今天天气很好", "猫趴在垫子上面\n今天天气不错 ||| 天气很好")
BLEU_EXAMPLE = ROUGE_EXAMPLE


def _lines(text: str) -> List[str]:
    lines = (text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def parse_inputs(predictions_text: str, references_text: str, delimiter: str = REF_DELIMITER
                 ) -> Tuple[List[str], List[List[str]]]:
    """Parse the two text boxes into ``(predictions, references)`` for the metric modules.

    Args:
        predictions_text: one prediction per line (``str``); trailing blank lines are ignored, a blank line
            inside is an empty prediction.
        references_text: one line per prediction; references of one item separated by ``delimiter``.
        delimiter: default ``"|||"``.
    Returns:
        ``(list[str], list[list[str]])``: predictions stripped of surrounding spaces; per item a non-empty list of
        stripped references (ragged across items).
    Raises:
        ValueError: no prediction, more than :data:`MAX_ITEMS` lines, different line counts, a blank reference
            line or an empty reference between delimiters (naming the 1-based line and reference number).
    """
    preds = [p.strip() for p in _lines(predictions_text)]
    ref_lines = _lines(references_text)
    if not preds:
        raise ValueError("no prediction: write one prediction per line")
    if len(preds) > MAX_ITEMS:
        raise ValueError(f"{len(preds)} lines: the widget scores at most {MAX_ITEMS}; use evaluate.load for more")
    if len(ref_lines) != len(preds):
        raise ValueError(
            f"{len(preds)} prediction line(s) but {len(ref_lines)} reference line(s): write one reference line per "
            f"prediction, with several references of one item on its line separated by {delimiter!r}"
        )
    refs: List[List[str]] = []
    for i, line in enumerate(ref_lines, start=1):
        if not line.strip():
            raise ValueError(f"reference line {i} is empty (every prediction needs at least one reference)")
        parts = [r.strip() for r in line.split(delimiter)]
        for j, r in enumerate(parts, start=1):
            if not r:
                raise ValueError(f"reference line {i}: reference {j} is empty (check the {delimiter!r} separators)")
        refs.append(parts)
    return preds, refs


def _round(x: float) -> float:
    return round(float(x), DECIMALS)


def _preset(value: Optional[str]) -> Optional[str]:
    return None if value in (None, "", NO_PRESET) else value


def _item_frame(preds: Sequence[str], refs: Sequence[Sequence[str]], columns: dict) -> pd.DataFrame:
    data = {"#": list(range(1, len(preds) + 1)), "prediction": list(preds),
            "references": [f" {REF_DELIMITER} ".join(rs) for rs in refs]}
    data.update({k: [_round(v) for v in vs] for k, vs in columns.items()})
    return pd.DataFrame(data)


def score_rouge(module: Any, predictions_text: str, references_text: str, tokenizer: str = "char",
                rouge_types: Optional[Sequence[str]] = None, multi_ref: str = "max",
                preset: Optional[str] = None) -> Tuple[pd.DataFrame, pd.DataFrame, str]:
    """Score the two text boxes with a loaded ``chinese_rouge`` module.

    Args:
        module: ``evaluate.load(".../chinese_rouge.py")``.
        predictions_text, references_text: see :func:`parse_inputs`.
        tokenizer: ``"char"`` or ``"jieba"`` (ignored with a preset, which sets its own).
        rouge_types: ROUGE types (default: the module's ``rouge1, rouge2, rougeL, rougeLsum``; with a preset, the
            preset's own types when not given).
        multi_ref: ``"max"``, ``"mean"``, ``"pool"`` or ``"best_recall"`` (ignored with a preset).
        preset: ``None``/``"(none)"``, ``"rouge155"`` or ``"llamafactory"``.
    Returns:
        ``(summary, per_item, signature)``: ``summary`` has one row, ``"mean F"`` over the items, one column per
        ROUGE type (0-1, rounded to 4 decimals); ``per_item`` has ``#``, ``prediction``, ``references`` and the
        per-item F of each type; ``signature`` is the module's reproducibility signature.
    Raises:
        ValueError, TypeError: from :func:`parse_inputs` or the module (bad option, reference empty after
            normalisation ...).
    """
    preds, refs = parse_inputs(predictions_text, references_text)
    preset = _preset(preset)
    opts: dict = {"preset": preset} if preset else {"tokenizer": tokenizer, "multi_ref": multi_ref}
    if rouge_types is not None:
        if not rouge_types:
            raise ValueError("choose at least one ROUGE type")
        opts["rouge_types"] = list(rouge_types)
    mean_res = module.compute(predictions=preds, references=refs, **opts)
    item_res = module.compute(predictions=preds, references=refs, use_aggregator=False, **opts)
    types = [k for k in mean_res if k != "signature" and not k.startswith("llamafactory_")]
    summary = pd.DataFrame({"": ["mean F"], **{t: [_round(mean_res[t])] for t in types}})
    per_item = _item_frame(preds, refs, {t: item_res[t] for t in types})
    return summary, per_item, mean_res["signature"]


def score_bleu(module: Any, predictions_text: str, references_text: str, tokenizer: str = "char",
               level: str = "corpus", smooth_method: str = "exp", bp_ref_length: str = "closest",
               max_order: int = 4, preset: Optional[str] = None) -> Tuple[pd.DataFrame, pd.DataFrame, str]:
    """Score the two text boxes with a loaded ``chinese_bleu`` module.

    Args:
        module: ``evaluate.load(".../chinese_bleu.py")``.
        predictions_text, references_text: see :func:`parse_inputs`.
        tokenizer: ``"char"`` or ``"jieba"``; level: ``"corpus"`` or ``"sentence"``; smooth_method: ``"exp"``,
            ``"none"``, ``"floor"``, ``"add-k"`` or ``"nltk3"``; bp_ref_length: ``"closest"``, ``"shortest"`` or
            ``"none"``; max_order: 1-4. All ignored with a preset, which sets its own.
        preset: ``None``/``"(none)"``, ``"sacrebleu-zh"`` or ``"llamafactory"``.
    Returns:
        ``(summary, per_item, signature)``: ``summary`` has one row with ``level``, ``BLEU``, ``P1``..``Pn``
        (n-gram precisions), ``BP``, ``ratio``, ``hyp_len``, ``ref_len`` (BLEU/P/BP on 0-1, rounded to 4 decimals);
        ``per_item`` has ``#``, ``prediction``, ``references`` and ``sentence BLEU`` (each item scored alone,
        sacrebleu's effective order, same other options); ``signature`` is the module's signature for ``summary``.
    Raises:
        ValueError, TypeError: from :func:`parse_inputs` or the module.
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
    return summary, per_item, res["signature"]


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


def _guarded(fn):
    """Turn our ValueError/TypeError messages into gradio errors shown in the page (not a stack trace)."""
    import gradio as gr

    def wrapper(*args):
        try:
            return fn(*args)
        except (ValueError, TypeError) as exc:
            raise gr.Error(str(exc)) from exc

    wrapper.__name__ = fn.__name__
    return wrapper


def build_demo(module: Any, card: Union[str, Path, None] = None):
    """A ``gradio.Blocks`` app for a loaded ``chinese_rouge`` or ``chinese_bleu`` module (not launched).

    Args:
        module: the loaded evaluate module; ``module.name`` picks the widget (``chinese_rouge``/``chinese_bleu``).
        card: path of the metric card (README.md); its body is shown under the widget.
    Returns:
        ``gradio.Blocks``; call ``.launch()`` on it (a Space's ``app.py`` does).
    Raises:
        ValueError: a module that is neither chinese_rouge nor chinese_bleu.
    """
    import gradio as gr

    name = getattr(module, "name", None)
    if name not in ("chinese_rouge", "chinese_bleu"):
        raise ValueError(f"build_demo: expected the chinese_rouge or chinese_bleu module, got {name!r}")
    is_rouge = name == "chinese_rouge"
    title = "Chinese ROUGE" if is_rouge else "Chinese BLEU"
    help_md = (
        f"# {title}\n\nOne **prediction per line**; on the matching line of **references**, one or more "
        f"references separated by `{REF_DELIMITER}` (e.g. `今天天气不错 {REF_DELIMITER} 天气很好`). "
        f"Up to {MAX_ITEMS} lines. Scores are on 0-1; the signature says exactly what was computed."
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
                rouge_types = gr.CheckboxGroup(list(ROUGE_TYPE_CHOICES), value=["rouge1", "rouge2", "rougeL",
                                               "rougeLsum"], label="rouge_types", elem_id="rouge_types")
                multi_ref = gr.Dropdown(["max", "mean", "pool", "best_recall"], value="max", label="multi_ref",
                                        elem_id="multi_ref")
                preset = gr.Dropdown([NO_PRESET, "rouge155", "llamafactory"], value=NO_PRESET,
                                     label="preset (overrides tokenizer and multi_ref)", elem_id="preset")
                options = [tokenizer, rouge_types, multi_ref, preset]
            else:
                level = gr.Dropdown(["corpus", "sentence"], value="corpus", label="level", elem_id="level")
                smooth = gr.Dropdown(["exp", "none", "floor", "add-k", "nltk3"], value="exp",
                                     label="smooth_method", elem_id="smooth_method")
                bp = gr.Dropdown(["closest", "shortest", "none"], value="closest", label="bp_ref_length",
                                 elem_id="bp_ref_length")
                order = gr.Slider(1, 4, value=4, step=1, label="max_order", elem_id="max_order")
                preset = gr.Dropdown([NO_PRESET, "sacrebleu-zh", "llamafactory"], value=NO_PRESET,
                                     label="preset (overrides the other options)", elem_id="preset")
                options = [tokenizer, level, smooth, bp, order, preset]
        button = gr.Button("Compute", variant="primary", elem_id="compute")
        summary = gr.Dataframe(label="Score", interactive=False, elem_id="summary")
        per_item = gr.Dataframe(label="Per item", interactive=False, elem_id="per_item")
        signature = gr.Textbox(label="Signature", interactive=False, elem_id="signature")

        score = score_rouge if is_rouge else score_bleu

        def run(p, r, *opts):
            return score(module, p, r, *opts)

        run.__name__ = score.__name__
        button.click(_guarded(run), inputs=[preds, refs, *options], outputs=[summary, per_item, signature],
                     api_name="compute")
        gr.Examples([list(ROUGE_EXAMPLE if is_rouge else BLEU_EXAMPLE)], inputs=[preds, refs])
        body = card_body(card)
        if body:
            gr.Markdown(body)
    return demo
