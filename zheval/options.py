"""Resolution of metric options: preset defaults, then explicitly given arguments (shared by BLEU and ROUGE)."""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["apply_preset", "HUB_OPTIONS_REFUSED", "refused_hub_options"]


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


#: Options of the Hugging Face Hub's ``rouge`` and ``bleu`` modules that zheval refuses (a TypeError, never silently
#: ignored), with the reason given in the error.
HUB_OPTIONS_REFUSED = {
    "use_stemmer": (
        "use_stemmer (the Hub rouge module's Porter stemmer) is refused: it stems English words only -- nothing in "
        "Chinese text -- and zheval does not implement it, so accepting it would promise a normalisation that never "
        "happens; for English words in the texts, pass a tokenizer callable that stems"
    ),
    "smooth": (
        "smooth (the Hub bleu module's smoothing: +1 to the matches and totals of every order, unigrams included) is "
        "refused: it is none of sacrebleu's methods; choose smooth_method (\"exp\", the default, \"add-k\": +k for "
        "orders >= 2 as sacrebleu, \"floor\", \"none\" = the Hub module's default, or \"nltk3\")"
    ),
}


def refused_hub_options(names) -> str:
    """The reasons of :data:`HUB_OPTIONS_REFUSED` for those of ``names`` that are in it, as sentences to append to
    an unknown-option error (``""`` when none is)."""
    return "".join(f". {HUB_OPTIONS_REFUSED[n]}" for n in names if n in HUB_OPTIONS_REFUSED)
