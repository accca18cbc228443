"""Layer 5, presets: other tools' numbers on tokens, one object per tool ([`Preset`][zheval.presets.base.Preset]) in
one registry.

A preset is a set of option defaults (explicit arguments override them) plus, where the tool's formula differs, a
per-reference formula that plugs into the metric's own multi-reference rule, the tool's own numbers and counts, and
the doors that offer it: `.rouge155` (ROUGE-1.5.5), `.llamafactory` (LLaMA-Factory / ChatGLM ROUGE and
BLEU-4), `.sacrebleu_zh` (sacrebleu ``tokenize="zh"``, defaults only). The leaderboard presets reproduce
published numbers bit for bit: `.opencompass` (``opencompass-jieba-rouge``: OpenCompass
``JiebaRougeEvaluator``), `.longbench` (``longbench``: LongBench ``rouge_zh_score``), `.glm4` (``glm4``:
the GLM-4 / ChatGLM3 fine-tuning demo's ROUGE and BLEU-4).

The registry, like sacrebleu's ``_TOKENIZERS``, names the built-in presets' modules and imports one when it is first
asked for; [`register_preset`][zheval.presets.register_preset] adds a preset from user code (``docs/presets.md``, "Add a preset").
[`get_preset`][zheval.presets.get_preset], [`find_preset`][zheval.presets.find_preset], [`preset_names`][zheval.presets.preset_names], [`rouge_preset`][zheval.presets.rouge_preset], [`bleu_preset`][zheval.presets.bleu_preset] look presets up;
`apply_preset` resolves options.
"""

from __future__ import annotations

import threading
from importlib import import_module
from typing import Any, Dict, Mapping, Optional, Tuple

from .base import DOORS, BleuPreset, Preset, RougePreset, tokens_tool

__all__ = ["Preset", "RougePreset", "BleuPreset", "DOORS", "get_preset", "find_preset", "preset_names",
           "scores_empty_references", "rouge_preset",
           "bleu_preset", "register_preset", "unregister_preset", "apply_preset", "tokens_tool"]

#: The built-in presets: ``{name: "module.ATTRIBUTE"}`` under `zheval.presets`, imported on first use. The
#: order is the order of every listing (error messages, the command line's choices, the Space's dropdowns).
_BUILTIN: Dict[str, str] = {
    "rouge155": "rouge155.PRESET",
    "sacrebleu-zh": "sacrebleu_zh.PRESET",
    "llamafactory": "llamafactory.PRESET",
    "opencompass-jieba-rouge": "opencompass.PRESET",
    "longbench": "longbench.PRESET",
    "glm4": "glm4.PRESET",
}

# Loaded built-ins and presets registered from user code, by name (the registry key is the preset's name; a name
# is bound to one object for the life of the process unless unregistered). Guarded by _lock.
_presets: Dict[str, Preset] = {}
_lock = threading.Lock()

_MODULES = {"rouge": "chinese_rouge", "bleu": "chinese_bleu"}


def _load(name: str) -> Optional[Preset]:
    preset = _presets.get(name)
    if preset is None and name in _BUILTIN:
        module, attr = _BUILTIN[name].rsplit(".", 1)
        preset = getattr(import_module(f".{module}", __name__), attr)
        with _lock:
            preset = _presets.setdefault(name, preset)
    return preset


def _all_names() -> Tuple[str, ...]:
    return tuple(dict.fromkeys([*_BUILTIN, *_presets]))


def get_preset(name: str) -> Preset:
    """The preset registered under ``name``.

    Raises:
        ValueError: no such preset (listing the registered names). TypeError: ``name`` not a str.
    """
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a str, got {type(name).__name__}")
    preset = _load(name)
    if preset is None:
        raise ValueError(f"unknown preset {name!r}; valid values: {', '.join(_all_names())}")
    return preset


def find_preset(name: Any) -> Optional[Preset]:
    """The preset registered under ``name``, or ``None`` (``None``, an unknown name or not a str: the caller's
    option checks say what is wrong)."""
    return _load(name) if isinstance(name, str) else None


def preset_names(metric: Optional[str] = None, door: Optional[str] = None) -> Tuple[str, ...]:
    """The registered preset names, built-ins first in their order, then registered ones in registration order.

    Args:
        metric: ``"rouge"`` or ``"bleu"``: only the presets that have that metric; ``None``: every preset.
        door: one of [`DOORS`][zheval.presets.base.DOORS]: only the presets offered there (for ``metric``, or for
            any metric when ``metric`` is None); ``None``: every door.

    Raises:
        ValueError: an unknown metric or door.
    """
    if metric not in (None, "rouge", "bleu"):
        raise ValueError(f"presets exist for 'rouge' and 'bleu', not {metric!r}")
    if door is not None and door not in DOORS:
        raise ValueError(f"unknown door {door!r}; valid: {', '.join(DOORS)}")
    out = []
    for name in _all_names():
        preset = _load(name)
        parts = [preset.part(metric)] if metric is not None else [preset.rouge, preset.bleu]
        if any(p is not None and (door is None or door in p.doors) for p in parts):
            out.append(name)
    return tuple(out)


def scores_empty_references(metric: str, name: Any = None) -> bool:
    """Whether the ``metric`` part (``"rouge"``/``"bleu"``/any other: ``False``) of preset ``name`` scores empty
    references as its tool does (``BleuPreset.scores_empty_references``: sacrebleu-zh); ``name=None``: whether any
    registered preset's part does (a door that stores references before it knows the preset: the evaluate module's
    ``add_batch``). An unknown name: ``False`` (the option checks say what is wrong)."""
    if metric not in ("rouge", "bleu"):
        return False
    names = _all_names() if name is None else (name,)
    for one in names:
        preset = find_preset(one)
        if getattr(preset.part(metric) if preset is not None else None, "scores_empty_references", False):
            return True
    return False


def _metric_part(metric: str, name: Optional[str]):
    if name is None:
        return None
    preset = _load(name) if isinstance(name, str) else None
    part = preset.part(metric) if preset is not None else None
    if part is None:
        other = [m for m in (preset.metrics if preset is not None else ())]
        hint = f" ({name!r} is a {_MODULES[other[0]]} preset)" if other else ""
        raise ValueError(f"unknown preset {name!r}{hint}; valid values: {', '.join(preset_names(metric))} or None")
    return part


def rouge_preset(name: Optional[str]) -> Optional[RougePreset]:
    """The ROUGE part of the preset ``name`` (``None`` for ``None``).

    Raises:
        ValueError: no such preset, or one without ROUGE (saying which module has it), listing the ROUGE presets.
    """
    return _metric_part("rouge", name)


def bleu_preset(name: Optional[str]) -> Optional[BleuPreset]:
    """The BLEU part of the preset ``name`` (``None`` for ``None``).

    Raises:
        ValueError: no such preset, or one without BLEU (saying which module has it), listing the BLEU presets.
    """
    return _metric_part("bleu", name)


def register_preset(preset: Preset) -> Preset:
    """Register a preset from user code under its name, for every door (``compute_rouge(preset=name)``, the
    evaluate modules, ``explain``, and the doors its parts list). Registering the same object again does nothing.

    This is process-wide state keyed by the preset's name (docs/DESIGN.md, module state).

    Args:
        preset: a [`Preset`][zheval.presets.base.Preset].

    Returns:
        ``preset``.

    Raises:
        TypeError: not a [`Preset`][zheval.presets.base.Preset]. ValueError: the name is taken by another object (a built-in or an
            earlier registration; [`unregister_preset`][zheval.presets.unregister_preset] frees a registered name).
    """
    if not isinstance(preset, Preset):
        raise TypeError(f"register_preset takes a zheval.presets.Preset, got {type(preset).__name__}")
    existing = _load(preset.name)
    if existing is not None and existing is not preset:
        raise ValueError(f"a different preset is already registered as {preset.name!r}")
    with _lock:
        _presets.setdefault(preset.name, preset)
    return preset


def unregister_preset(name: str) -> None:
    """Remove a preset registered with [`register_preset`][zheval.presets.register_preset] (a built-in stays).

    Raises:
        ValueError: ``name`` is a built-in or not registered.
    """
    if name in _BUILTIN:
        raise ValueError(f"{name!r} is a built-in preset; it cannot be unregistered")
    with _lock:
        if name not in _presets:
            raise ValueError(f"no preset {name!r} is registered")
        del _presets[name]


def apply_preset(defaults: Mapping[str, Any], preset: Any, given: Mapping[str, Any], unset: object) -> dict:
    """Start from ``defaults``, apply the preset's defaults, then every explicitly given option.

    Args:
        defaults: the metric's option defaults; preset: a [`RougePreset`][zheval.presets.base.RougePreset] / [`BleuPreset`][zheval.presets.base.BleuPreset] or ``None``.
        given: explicitly given options; values that are ``unset`` (the caller's sentinel) are ignored, so an
            explicit argument always overrides the preset and an omitted one never does.

    Returns:
        A new dict with every key of ``defaults`` (lists copied).

    Raises:
        TypeError: an option not in ``defaults``.
    """
    opts = dict(defaults)
    if preset is not None:
        opts.update({k: list(v) if isinstance(v, list) else v for k, v in preset.defaults.items()})
    for key, value in given.items():
        if key not in defaults:
            raise TypeError(f"unknown option {key!r}")
        if value is not unset:
            opts[key] = value
    return opts
