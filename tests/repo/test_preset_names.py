"""Design rule 9 (docs/DESIGN.md): a preset is an object that plugs in, and nothing outside ``zheval/presets/``
compares a preset's name. Checked on the source (an AST walk of every module of the package outside
``zheval/presets/``):

* no comparison (``==``, ``!=``, ``in``, ``not in``, ``is``) with a registered preset's name as a constant operand,
  or as a member of a literal tuple/list/set operand (``preset in ("glm4", "longbench")``);
* no comparison with an operand that names a tuple of presets (``X in UNEXPLAINED_PRESETS``, ``CLI_PRESETS``: a
  name or attribute containing ``PRESETS``);
* (the tokenizer registry, below the presets, is skipped: ``sacrebleu-zh`` is also a tokenizer's name);
* no dict literal keyed by a preset's name (``{"sacrebleu-zh": "chinese_bleu"}``), and no tuple/list/set literal of
  two or more preset names (a hard-coded dropdown or choice list).

Behaviour that depends on the preset is asked of the preset object (:mod:`zheval.presets.base`); listings come from
the registry (:func:`zheval.presets.preset_names`).
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import REPO

from zheval.presets import preset_names

PKG = REPO / "zheval"
#: The presets themselves, and the tokenizer registry below them (layer 2), whose tool tokenizers' names are spelt
#: like their presets' (``sacrebleu-zh`` is a tokenizer and a preset) and which cannot know any preset.
SKIPPED = ("presets", "tokenizers")


def _names(node: ast.AST, presets: frozenset) -> list:
    """Preset names held by a constant or a literal collection of constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in presets:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in presets]
    return []


def _names_a_preset_tuple(node: ast.AST) -> bool:
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return "PRESETS" in name.upper() and name.upper() == name


def violations(root: Path, presets: frozenset) -> list:
    """``"file:line: what"`` for every preset-name comparison, name-keyed dict and preset-name list in the modules
    under ``root`` outside ``root/presets``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in SKIPPED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        compared = {id(o) for node in ast.walk(tree) if isinstance(node, ast.Compare) for o in node.comparators}
        for node in ast.walk(tree):
            where = f"{root.name}/{rel.as_posix()}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                found = [n for o in operands for n in _names(o, presets)]
                if found:
                    out.append(f"{where}: compares preset name(s) {found}")
                elif any(_names_a_preset_tuple(o) for o in operands):
                    out.append(f"{where}: tests membership in a tuple of presets")
            elif isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in presets]
                if keys:
                    out.append(f"{where}: dict keyed by preset name(s) {keys}")
            elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in compared:
                found = _names(node, presets)
                if len(found) >= 2:
                    out.append(f"{where}: a hard-coded list of presets {found}")
    return out


def test_nothing_outside_presets_compares_a_preset_name():
    bad = violations(PKG, frozenset(preset_names()))
    assert not bad, ("ask the preset object (zheval.presets.base) or the registry (zheval.presets.preset_names) "
                     "instead:\n" + "\n".join(bad))


def test_the_walk_finds_each_kind_of_name_switch(tmp_path):
    """The checker sees every shape it forbids (so the test above cannot pass by finding nothing)."""
    root = tmp_path / "zheval"
    (root / "compute").mkdir(parents=True)
    (root / "presets").mkdir()
    (root / "compute" / "switch.py").write_text(
        'UNEXPLAINED_PRESETS = ("glm4",)\n'
        'def f(preset, config):\n'
        '    if preset == "rouge155": pass\n'
        '    if config.preset in ("glm4", "longbench"): pass\n'
        '    if preset in UNEXPLAINED_PRESETS: pass\n'
        '    hints = {"sacrebleu-zh": "chinese_bleu"}\n'
        '    choices = ["(none)", "rouge155", "llamafactory"]\n'
        '    if preset is None or preset == "char": pass\n', encoding="utf-8")
    (root / "presets" / "tool.py").write_text('def g(name):\n    return name == "glm4"\n', encoding="utf-8")
    bad = violations(root, frozenset(preset_names()))
    assert [b.split(": ", 1)[0] for b in bad] == [f"zheval/compute/switch.py:{n}" for n in (3, 4, 5, 6, 7)], bad
