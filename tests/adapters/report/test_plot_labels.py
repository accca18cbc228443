"""``--plot`` without a CJK font (issue 35): a group label the font can draw is kept (``café``: DejaVu Sans has
``é``), a known domain is drawn in English, any other label the font lacks glyphs for is ``group N``, and the note
lists each replacement with its value (control characters shown, as model text is), rather than "group labels drawn
in English" for a custom group."""

from __future__ import annotations

import pytest

from tests.helpers.cli import run_cli, write_jsonl
from zheval.adapters.report import plot


@pytest.fixture()
def no_cjk_font(monkeypatch):
    monkeypatch.setattr(plot, "_cjk_font", lambda: None)


def _records(tmp_path, groups):
    rows = [{"id": f"i{k}", "prediction": p, "references": [r], "g": g} for k, (g, p, r) in enumerate(
        (g, p, r) for g in groups for p, r in (("请在订单页申请退货。", "您好，请在订单页申请退货。"),
                                               ("明天记得穿外套。", "天气转凉，建议加一件外套。")))]
    return write_jsonl(tmp_path / "recs.jsonl", rows)


def test_custom_labels_are_named_in_the_note_and_drawable_ones_kept(tmp_path, no_cjk_font):
    recs = _records(tmp_path, ["café", "售后支持", "价格$5", "bell\x07"])
    out = tmp_path / "x.svg"
    r = run_cli("score", "-p", recs, "--group-field", "g", "--plot", out, "--bootstrap", 0)
    assert r.exit_code == 0, r.output
    note = next(line for line in r.output.splitlines() if "drawn as" in line)
    assert "= café" not in note and "after-sales = 售后支持" in note
    number = [w for w in note.split("; ") if w.endswith("= 价格$5")]
    assert number and number[0].split("group ")[-1].split(" =")[0].isdigit(), note
    assert "drawn in English" not in r.output
    assert "bell\\x07" not in note  # drawn as its escape, which the font has


def test_the_labels_drawn():
    from types import SimpleNamespace as Group

    groups = [Group(dimension="overall", value=""), Group(dimension="g", value="café"),
              Group(dimension="g", value="售后支持"), Group(dimension="g", value="价格$5"),
              Group(dimension="g", value="bell\x07")]
    labels, notes = plot._group_labels(groups, None, False)
    assert labels == ["overall", "café", "after-sales", "group 3", "bell\\x07"]  # in the groups' order
    assert notes and notes[0].endswith("drawn as after-sales = 售后支持; group 3 = 价格$5")
    assert plot._group_labels(groups, None, True) == (["overall", "café", "售后支持", "价格$5", "bell\\x07"], [])


def test_a_group_named_overall_is_not_labelled_as_the_bar_of_every_item():
    """A group whose value is ``overall`` was labelled ``overall``, as the bar of every item: it is drawn quoted
    (``"overall"``), and a value already in quotes (labelled JSON-escaped by ``group_label``) stays distinct."""
    from types import SimpleNamespace as Group

    from zheval.adapters.report.tables import group_label

    groups = [Group(dimension="overall", value="all"), Group(dimension="g", value=group_label("overall")),
              Group(dimension="g", value=group_label('"overall"')), Group(dimension="g", value="售后支持")]
    for svg_text in (False, True):
        labels, _ = plot._group_labels(groups, None, svg_text)
        assert labels[:3] == ["overall", '"overall"', '"\\"overall\\""'], labels
        assert len(set(labels)) == len(labels)


def test_labels_the_font_draws_give_no_note(tmp_path, no_cjk_font):
    recs = _records(tmp_path, ["café", "naïve"])
    r = run_cli("score", "-p", recs, "--group-field", "g", "--plot", tmp_path / "x.png", "--bootstrap", 0)
    assert r.exit_code == 0, r.output
    assert "drawn as" not in r.output and "English" not in r.output


def _drawn(monkeypatch, tmp_path, groups, bootstrap, rows=None):
    """``(tick labels, [(x, low, high) of each error bar drawn])`` of ``score --plot`` over ``groups`` (two items
    each; the first ``rows`` items only) as the figure is saved."""
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    seen = []
    save = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda fig, *a, **kw: (seen.append(fig), save(fig, *a, **kw))[1])
    recs = _records(tmp_path, groups)
    recs.write_text("".join(recs.read_text("utf-8").splitlines(keepends=True)[:rows]), encoding="utf-8")
    r = run_cli("score", "-p", recs, "--group-field", "g", "--plot", tmp_path / "x.svg", "--bootstrap", bootstrap,
                "--metrics", "bleu")
    assert r.exit_code == 0 and len(seen) == 1, r.output
    ax = seen[0].axes[0]
    ticks = [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]
    bars = [(float(seg[0][0]), float(seg[0][1]), float(seg[1][1])) for c in ax.collections
            if isinstance(c, LineCollection) for seg in c.get_segments()]
    return ticks, bars


def test_no_error_bar_is_drawn_where_there_is_no_interval(monkeypatch, tmp_path, no_cjk_font):
    """With ``--bootstrap 0`` every bar got a zero-width error bar (its caps drawn at the score): none is drawn; with
    an interval, each group that has one gets a bar of its interval's width, the one of fewer items none."""
    ticks, bars = _drawn(monkeypatch, tmp_path, ["a", "b"], 0)
    assert ticks == ["overall", "a", "b"] and bars == []
    ticks, bars = _drawn(monkeypatch, tmp_path, ["a", "a", "b"], 200, rows=5)  # b: 1 item, no interval
    assert ticks == ["overall", "a", "b"]
    assert sorted(round(x) for x, _, _ in bars) == [0, 1] and all(high > low for _, low, high in bars), bars
