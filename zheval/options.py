"""Resolution of metric options: preset defaults, then explicitly given arguments (shared by BLEU and ROUGE)."""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["apply_preset"]


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
