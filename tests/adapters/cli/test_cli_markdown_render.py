"""The Markdown reports read back by a real CommonMark parser (markdown-it-py, GFM tables and strikethrough on): a
group value or id shows exactly as written, whatever Markdown punctuation it holds (break-it pass 6: ``*x*`` was
rendered in italics; issue 35), and ``compare``'s diagnostics stay nested under their system."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.text.terminal import escaped_text, markdown_text

markdown_it = pytest.importorskip("markdown_it")
from markdown_it.tree import SyntaxTreeNode  # noqa: E402

VALUES = ["*x*", "a_b_", "[l](u)", "![i](u)", "`c`", "~~s~~", "a\\*b", "# h", "- x", "1. x", "3) y", "**b**",
          "<i>h</i>", "a|b", "&amp;", "x  "]


def _tree(text: str) -> SyntaxTreeNode:
    md = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    return SyntaxTreeNode(md.parse(text))


def _plain(inline: SyntaxTreeNode) -> str:
    """The text an inline node renders, or AssertionError when it renders markup (emphasis, a link, code …)."""
    kinds = {c.type for c in inline.children}
    assert kinds <= {"text"}, (kinds, inline.children)
    return "".join(c.content for c in inline.children)


def _walk(node: SyntaxTreeNode, kind: str):
    if node.type == kind:
        yield node
    for c in node.children:
        yield from _walk(c, kind)


@pytest.mark.parametrize("value", VALUES)
def test_markdown_text_renders_as_the_text_in_a_cell_and_a_list_item(value):
    table = _tree(f"| h |\n|---|\n| {markdown_text(value)} |\n")
    cells = [_plain(td.children[0]) for td in _walk(table, "td")]
    assert cells == [value]
    items = list(_walk(_tree(f"- {markdown_text(value)}\n"), "list_item"))
    assert len(items) == 1 and [c.type for c in items[0].children] == ["paragraph"], value
    assert _plain(items[0].children[0].children[0]) == value


def test_markdown_text_by_hand():
    assert markdown_text("*x*") == "\\*x\\*"
    assert markdown_text("a_b [l](u) `c` ~s~ \\") == "a\\_b \\[l](u) \\`c\\` \\~s\\~ \\\\"
    assert markdown_text("# h") == "\\# h" and markdown_text("1. x") == "1\\. x" and markdown_text("-x") == "-x"
    assert markdown_text("0.345 [0.301, 0.389]") == "0.345 \\[0.301, 0.389]"
    assert markdown_text(" x ") == "&#32;x&#32;"


def test_score_markdown_shows_group_values_and_ids_as_written(tmp_path):
    rows = [{"id": v, "prediction": "今天天气很好", "reference": "今天天气很好", "cat": v} for v in VALUES[:12]]
    rec = write_jsonl(tmp_path / "r.jsonl", rows)
    res = run_cli("score", "-p", rec, "--id-field", "id", "--group-field", "cat", "--items", "-q", "--bootstrap", 0,
                  "--metrics", "bleu", "-f", "markdown")
    assert res.exit_code == 0, res.output
    cells = {_plain(td.children[0]) for td in _walk(_tree(res.stdout), "td")}
    for v in VALUES[:12]:
        shown = escaped_text(v, one_line=True)  # as explain's text cells: a backslash doubled (a\\*b), unambiguous
        assert f"cat={shown}" in cells and shown in cells, (v, res.stdout)  # the group row and the --items id


def test_compare_markdown_nests_each_system_diagnostics(tmp_path):
    rows = [{"id": f"q{i}", "prediction": "今天天气很好", "reference": "今天天气很好"} for i in range(3)]
    a = write_jsonl(tmp_path / "a_*.jsonl", rows)
    b = write_jsonl(tmp_path / "b.jsonl", [{**r, "prediction": "今天"} for r in rows])
    res = run_cli("compare", "-p", a, b, "--id-field", "id", "-q", "--bootstrap", 20, "-f", "markdown")
    assert res.exit_code == 0, res.output
    tree = _tree(res.stdout)
    lists = [n for n in tree.children if n.type == "bullet_list"]
    systems = []
    for lst in lists:
        for item in lst.children:
            inline = item.children[0].children[0]
            if any(c.type != "text" for c in inline.children):  # the signature items (code spans)
                continue
            text = _plain(inline)
            if text.endswith("):") and text[:3] in ("A (", "B ("):
                nested = [c for c in item.children if c.type == "bullet_list"]
                assert len(nested) == 1, text
                lines = [_plain(i.children[0].children[0]) for i in nested[0].children]
                assert lines[0].startswith("length ratio") and lines[-1].startswith("references per item"), lines
                systems.append(text)
    assert systems == [f"A ({a}):", f"B ({b}):"], res.stdout
