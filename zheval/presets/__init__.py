"""Layer 5, presets: other tools' numbers on tokens. A preset is a set of option defaults (explicit arguments
override them) plus, where the tool's formula differs, a per-reference formula that plugs into the metric's own
multi-reference rule: :mod:`.rouge155` (ROUGE-1.5.5), :mod:`.llamafactory` (LLaMA-Factory / ChatGLM ROUGE and BLEU-4);
``sacrebleu-zh`` needs only defaults (its tokenizer is :mod:`zheval.tokenizers.sacrebleu_zh`). The leaderboard
presets reproduce published numbers bit for bit: :mod:`.opencompass` (``opencompass-jieba-rouge``: OpenCompass
``JiebaRougeEvaluator``), :mod:`.longbench` (``longbench``: LongBench ``rouge_zh_score``), :mod:`.glm4` (``glm4``:
the GLM-4 / ChatGLM3 fine-tuning demo's ROUGE and BLEU-4).

:data:`ROUGE_PRESETS` and :data:`BLEU_PRESETS` are the registries; :func:`apply_preset` resolves options.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

from .glm4 import GLM4_TYPES
from .llamafactory import LLAMAFACTORY_TYPES
from .longbench import LONGBENCH_TYPES
from .opencompass import OPENCOMPASS_TYPES
from .rouge155 import ROUGE155_TYPES

__all__ = ["ROUGE_PRESETS", "BLEU_PRESETS", "PRESET_NAMES", "ROUGE_CHINESE_PRESETS", "TOOL_ROUGE_PRESETS",
           "apply_preset", "preset_number_scale"]

#: ROUGE presets scored with rouge-chinese 1.0.3's rules on a tool's jieba words (:mod:`.llamafactory`).
ROUGE_CHINESE_PRESETS: Tuple[str, ...] = ("llamafactory", "opencompass-jieba-rouge", "glm4")
#: ROUGE presets whose F formula is the tool's own (``2PR / (P + R + 1e-8)``), so ``beta`` is fixed at 1.
TOOL_ROUGE_PRESETS: Tuple[str, ...] = ROUGE_CHINESE_PRESETS + ("longbench",)

#: Presets are defaults; arguments given explicitly override them (see ``zheval.compute_rouge``).
ROUGE_PRESETS: Dict[str, dict] = {
    "rouge155": {
        "rouge_types": list(ROUGE155_TYPES),
        "multi_ref": "pool",
        "beta": 1.0,
        "rouge_w_weight": 1.2,
    },
    "llamafactory": {
        "tokenizer": "llamafactory-jieba",
        "normalize": False,
        "rouge_types": list(LLAMAFACTORY_TYPES),
        "multi_ref": "max",
        "beta": 1.0,
    },
    "opencompass-jieba-rouge": {
        "tokenizer": "opencompass-jieba",
        "normalize": False,
        "rouge_types": list(OPENCOMPASS_TYPES),
        "multi_ref": "max",
        "beta": 1.0,
    },
    "longbench": {
        "tokenizer": "llamafactory-jieba",
        "normalize": False,
        "rouge_types": list(LONGBENCH_TYPES),
        "multi_ref": "max",
        "beta": 1.0,
    },
    "glm4": {
        "tokenizer": "glm4-jieba",
        "normalize": False,
        "rouge_types": list(GLM4_TYPES),
        "multi_ref": "max",
        "beta": 1.0,
    },
}

#: Presets: defaults that reproduce a known tool. Arguments given explicitly override them. ``tokenizer`` names a
#: preset tokenizer of :mod:`zheval.tokenizers` (``"sacrebleu-zh"``: :func:`sacrebleu_zh_tokenize`; ``"llamafactory-char"``:
#: :func:`llamafactory_tokenize`); neither normalises text. ``level="sentence"`` for llamafactory means the mean of
#: per-item scores is reported.
BLEU_PRESETS: Dict[str, dict] = {
    "sacrebleu-zh": {
        "tokenizer": "sacrebleu-zh",
        "max_order": 4,
        "smooth_method": "exp",
        "smooth_value": None,
        "bp_ref_length": "closest",
        "level": "corpus",
        "effective_order": None,  # as sacrebleu: no for corpus_bleu, yes for sentence_bleu (level="sentence")
        "weights": None,
    },
    "llamafactory": {
        "tokenizer": "llamafactory-char",
        "max_order": 4,
        "smooth_method": "nltk3",
        "smooth_value": None,
        "bp_ref_length": "closest",
        "level": "sentence",
        "effective_order": False,
        "weights": None,
    },
}
# the GLM-4 / ChatGLM3 demo: LLaMA-Factory's BLEU-4 recipe (nltk sentence_bleu method3, mean of the 0-1 values) on
# the demo's jieba words (:mod:`.glm4`)
BLEU_PRESETS["glm4"] = {**BLEU_PRESETS["llamafactory"], "tokenizer": "glm4-jieba"}


#: Every preset name, with the metrics that have it.
PRESET_NAMES: Dict[str, Tuple[str, ...]] = {
    name: tuple(m for m, reg in (("rouge", ROUGE_PRESETS), ("bleu", BLEU_PRESETS)) if name in reg)
    for name in dict.fromkeys([*ROUGE_PRESETS, *BLEU_PRESETS])
}


def preset_number_scale(metric: str, preset: str) -> float:
    """The scale of the numbers a preset adds to a result under its own keys (``llamafactory_rouge_1``,
    ``opencompass_rouge1``, ``longbench_rouge_l``, ``glm4_bleu_4`` ...): its tool's own scale, ``100.0`` for 0-100,
    ``1.0`` for 0-1. (zheval's own keys -- ``rouge1``, ``bleu`` ... -- are always 0-1.)

    Args:
        metric: ``"rouge"`` or ``"bleu"``; preset: a preset of that metric that adds numbers of its own.

    Returns:
        ROUGE: ``llamafactory``, ``opencompass-jieba-rouge``, ``longbench``, ``glm4`` -> 100.0 (each tool reports
        0-100). BLEU: ``llamafactory`` -> 100.0 (LLaMA-Factory's BLEU-4 x 100), ``glm4`` -> 1.0 (the GLM-4 demo's nltk
        BLEU-4, 0-1).

    Raises:
        ValueError: a preset that adds no number of its own (``rouge155``, ``sacrebleu-zh``), or an unknown metric /
        preset.
    """
    scales = {("rouge", name): 100.0 for name in TOOL_ROUGE_PRESETS}
    scales[("bleu", "llamafactory")] = 100.0
    scales[("bleu", "glm4")] = 1.0
    if (metric, preset) not in scales:
        raise ValueError(f"the {metric} preset {preset!r} adds no number of its own; presets that do: "
                         + ", ".join(f"{m} {p!r}" for m, p in scales))
    return scales[(metric, preset)]


def apply_preset(
    defaults: Mapping[str, Any],
    presets: Mapping[str, Mapping[str, Any]],
    preset: str | None,
    given: Mapping[str, Any],
    unset: object,
    other_metric_presets: Mapping[str, str] = {},
) -> dict:
    """Start from ``defaults``, apply the preset's defaults, then every explicitly given option.

    Args:
        defaults: the metric's option defaults; presets: ``{name: {option: value}}``; preset: a name or ``None``.
        given: explicitly given options; values that are ``unset`` (the caller's sentinel) are ignored, so an
            explicit argument always overrides the preset and an omitted one never does.
        other_metric_presets: ``{preset name: metric that has it}`` for a hint in the error message.

    Returns:
        A new dict with every key of ``defaults``.

    Raises:
        ValueError: unknown preset (lists the valid names). TypeError: an option not in ``defaults``.
    """
    if preset is not None and preset not in presets:
        other = other_metric_presets.get(preset)
        hint = f" ({preset!r} is a {other} preset)" if other else ""
        raise ValueError(f"unknown preset {preset!r}{hint}; valid values: {', '.join(presets)} or None")
    opts = dict(defaults)
    if preset is not None:
        opts.update(presets[preset])
    for key, value in given.items():
        if key not in defaults:
            raise TypeError(f"unknown option {key!r}")
        if value is not unset:
            opts[key] = value
    return opts
