"""The 小黄鸭 report as a picture: `plot_report` draws per-group scores with bootstrap-interval error bars
(matplotlib, Agg backend; a CJK font when one is installed, else English group names), in any format of
`plot_formats`.
"""

from __future__ import annotations

import numpy as np

from ...text.terminal import visible_controls
from .tables import Report, no_interval_reason

__all__ = ["plot_formats", "plot_report"]

_ENGLISH = {"生活咨询": "life advice", "售后支持": "after-sales", "情感陪伴": "companionship", "易": "easy", "中": "medium", "难": "hard"}
_CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
              "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "Noto Sans CJK JP", "AR PL UMing CN")


def _cjk_font() -> str | None:
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    for n in _CJK_FONTS:
        if n in names:
            return n
    return None


def _glyph_checker(font: str | None):
    """``drawable(text)``: whether matplotlib's font for the plot (``font``, else DejaVu Sans, as ``rc`` asks) has a
    glyph for every character of ``text`` (`matplotlib.ft2font.FT2Font.get_char_index` is 0 for a missing one)."""
    from matplotlib import font_manager, ft2font

    face = ft2font.FT2Font(font_manager.findfont(font_manager.FontProperties(family=[font or "DejaVu Sans"])))
    return lambda text: all(face.get_char_index(ord(c)) != 0 for c in text if not c.isspace())


#: The label of the bar of every item; a group whose value reads the same is drawn quoted (`_group_labels`).
_OVERALL_LABEL = "overall"


def _group_labels(groups: list, font: str | None, svg_text: bool) -> tuple[list[str], list[str]]:
    """``([the x label of each group, in the groups' order], notes)``. The bar of every item is `_OVERALL_LABEL`; a
    group whose value is ``overall`` is drawn as a JSON string (``"overall"``, as `group_label` writes ``"null"``: a
    value in double quotes is already written escaped), so it never reads as that bar. A group value is drawn as it
    is (control characters shown, `visible_controls`) when the font has its glyphs (``"café"`` in DejaVu Sans), or
    with ``svg_text`` (the browser draws it); else a known domain/difficulty name in English (``售后支持`` →
    ``after-sales``) or ``group N``, and the note lists each replacement with the value, so a custom group
    (``价格$5``) is still named (issue 35)."""
    import json

    drawable = _glyph_checker(font) if not svg_text else (lambda text: True)
    labels, replaced = [], []
    for i, g in enumerate(groups):
        if g.dimension == "overall":
            labels.append(_OVERALL_LABEL)
            continue
        value = json.dumps(g.value, ensure_ascii=False) if g.value == _OVERALL_LABEL else g.value
        shown = visible_controls(value, one_line=True)
        if drawable(shown):  # shown: its control characters escaped
            labels.append(shown)
            continue
        labels.append(_ENGLISH.get(g.value, f"group {i}"))
        replaced.append(f"{labels[-1]} = {shown}")
    if not replaced:
        return labels, []
    return labels, [f"no font with these characters' glyphs found (for Chinese e.g. apt install fonts-noto-cjk): "
                    f"group label(s) drawn as {'; '.join(replaced)}"]


def _draw_bars(ax, report: Report, groups: list) -> None:
    """One bar per group and metric, side by side; an error bar (its interval) only on the bars of a group with an
    interval: none with ``bootstrap=0`` or for a group of fewer than `MIN_INTERVAL_ITEMS` items (no zero-width
    bar drawn there)."""
    k = len(report.metrics)
    width = 0.8 / k
    x = np.arange(len(groups))
    for j, (name, lbl) in enumerate(report.metrics):
        scores = [g.scores[name] for g in groups]
        xs = x + (j - (k - 1) / 2) * width
        vals = np.array([v.value for v in scores])
        ax.bar(xs, vals, width, label=lbl)
        has = np.array([v.low is not None and v.high is not None for v in scores])
        if has.any():
            lows = np.array([v.low for v, h in zip(scores, has) if h])
            highs = np.array([v.high for v, h in zip(scores, has) if h])
            yerr = np.vstack([np.clip(vals[has] - lows, 0, None), np.clip(highs - vals[has], 0, None)])
            ax.errorbar(xs[has], vals[has], yerr=yerr, fmt="none", ecolor="k", capsize=3, elinewidth=1)


def plot_formats() -> dict:
    """Image formats `plot_report` can write: ``{extension without dot: description}``, matplotlib's
    ``FigureCanvasBase.get_supported_filetypes()`` minus ``pgf`` (it needs a LaTeX installation) and, when Pillow
    is not installed, minus the formats written through Pillow (``jpg``/``jpeg``, ``tif``/``tiff``, ``webp``,
    ``gif``, ``avif``). A format Pillow cannot write (e.g. AVIF without its plugin) fails as ``ValueError``."""
    from matplotlib.backend_bases import FigureCanvasBase

    types = dict(FigureCanvasBase.get_supported_filetypes())
    types.pop("pgf", None)
    try:
        import PIL  # noqa: F401
    except ImportError:
        for ext in ("jpg", "jpeg", "tif", "tiff", "webp", "gif", "avif"):
            types.pop(ext, None)
    return types


def plot_report(report: Report, dimension: str = "domain", fmt: str = "png",
                svg_text: bool = False) -> tuple[bytes, list[str]]:
    """Draw the groups of ``dimension`` (plus ``overall``) as grouped bars per metric with bootstrap-interval error
    bars (matplotlib, Agg backend). Returns ``(image bytes in format fmt, notes)``.

    Every text is drawn literally (matplotlib's ``text.parse_math`` off): a group value ``$x^2$`` is not mathtext.
    Chinese group labels are drawn with a CJK font when one is installed (Noto Sans CJK, WenQuanYi, SimHei, …);
    a label whose glyphs the font lacks (Han in matplotlib's default font, which would draw empty boxes) is drawn as
    its English name when it is a known domain/difficulty (``售后支持`` → ``after-sales``), else as ``group N``, and a
    note lists each (``group 4 = 价格$5``); labels the font can draw (``café``) are kept (`_group_labels`). The bar of
    every item is ``overall``, a group whose value is ``overall`` is drawn ``"overall"``. A group of fewer than
    `MIN_INTERVAL_ITEMS` items is drawn without an error bar, labelled ``no interval``; with ``bootstrap=0`` no bar
    has an error bar (`_draw_bars`).

    Args:
        fmt: an image format of `plot_formats` (``png`` default, ``svg``, ``pdf``, ``jpg``, …).
        svg_text: SVG only (the HTML report's plots): keep every text as SVG ``<text>`` (matplotlib's
            ``svg.fonttype: none``) instead of glyph outlines, so the viewer's browser draws it with its own fonts —
            Chinese group labels are then kept as they are (no English fallback), whatever fonts matplotlib has.

    Raises:
        ValueError: the report has no group of ``dimension`` (lists the available dimensions); an unknown ``fmt``;
            ``svg_text`` with a format other than ``svg``.
    """
    import io
    import warnings

    formats = plot_formats()
    if fmt not in formats:
        raise ValueError(f"unknown plot format {fmt!r}; supported: {', '.join(sorted(formats))}")
    if svg_text and fmt != "svg":
        raise ValueError(f"svg_text=True needs fmt='svg', got {fmt!r}")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [g for g in report.groups if g.dimension in ("overall", dimension)]
    if len(groups) <= 1:
        dims = sorted({g.dimension for g in report.groups} - {"overall"})
        if dims:  # the fix is the column named, not another grouping (words13 F6: "use --by" beside --group-field)
            raise ValueError(f"nothing to plot by {dimension!r}: the report is grouped by {', '.join(map(repr, dims))}"
                             "; --plot-by (plot_by) must be one of them, a field given with --by or --group-field")
        raise ValueError(f"nothing to plot by {dimension!r}: the report has no groups; group it with --by (with "
                         "--data) or --group-field (without --data)")
    font = _cjk_font()
    # text.parse_math off: a group label or field name is data, drawn literally ("$x^2$" stays "$x^2$", "$a^$" is no
    # mathtext syntax error)
    rc = {"font.family": ["sans-serif"], "font.sans-serif": ([font] if font else []) + ["DejaVu Sans"],
          "text.parse_math": False}
    if svg_text:  # text stays text: the browser picks a font with Han glyphs (matplotlib's metrics only place it)
        rc.update({"svg.fonttype": "none", "svg.hashsalt": "zheval"})

    labels, notes = _group_labels(groups, font, svg_text)

    with plt.rc_context(rc):
        fig, ax = plt.subplots(figsize=(max(6.5, 1.6 * len(groups) + 3), 4.2), dpi=120)
        _draw_bars(ax, report, groups)
        ax.set_xticks(np.arange(len(groups)))
        small = [g for g in groups if any(v.no_interval for v in g.scores.values())]
        ax.set_xticklabels([f"{shown}\n(n={g.n}" + (", no interval)" if g in small else ")")
                            for shown, g in zip(labels, groups)])
        if small:
            notes.append(f"{len(small)} group(s) drawn without an error bar: {no_interval_reason(None)}")
        ax.set_ylabel("score (0–1)")
        ax.set_ylim(0, min(1.0, max(0.05, max(g.scores[n].high or g.scores[n].value for g in groups for n, _ in report.metrics) * 1.15)))
        bs = report.params.get("bootstrap")
        ax.set_title(f"{report.kind} by {dimension}" + (f" — 95% bootstrap intervals ({bs} resamples)" if bs else ""), fontsize=10)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.grid(axis="y", alpha=0.3)
        buf = io.BytesIO()
        try:
            with warnings.catch_warnings():
                if svg_text:  # matplotlib's fonts lack Han glyphs; only its size estimates are used, the browser draws
                    warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)
                fig.tight_layout()
                fig.savefig(buf, format=fmt, **({"metadata": {"Date": None}} if svg_text else {}))
        except (KeyError, OSError) as exc:  # Pillow without a writer for this format
            raise ValueError(f"cannot write a {fmt} image here ({exc}); use png, svg or pdf") from None
        finally:
            plt.close(fig)
    return buf.getvalue(), notes
