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
    assert [labels[id(g)] for g in groups] == ["overall", "café", "after-sales", "group 3", "bell\\x07"]
    assert notes and notes[0].endswith("drawn as after-sales = 售后支持; group 3 = 价格$5")
    assert plot._group_labels(groups, None, True) == ({id(g): labels[id(g)] if g.dimension == "overall" or
                                                       g.value.isascii() or g.value == "café" else g.value
                                                       for g in groups}, [])


def test_labels_the_font_draws_give_no_note(tmp_path, no_cjk_font):
    recs = _records(tmp_path, ["café", "naïve"])
    r = run_cli("score", "-p", recs, "--group-field", "g", "--plot", tmp_path / "x.png", "--bootstrap", 0)
    assert r.exit_code == 0, r.output
    assert "drawn as" not in r.output and "English" not in r.output
