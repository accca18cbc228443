"""The import rules of docs/DESIGN.md, checked on the source (an AST walk, lazy imports inside functions included):

1. imports go down the layers only: a module imports zheval modules of its own layer or lower ones;
2. within a layer the module graph is acyclic;
3. no module imports a ``_private`` name from another zheval module (``from x import _y``), nor reads one as an
   attribute of an imported zheval module (``x._y``);
4. (DESIGN rule 7) the adapters and the command line import only the compute API, the results layer, ``zheval.io``,
   ``zheval.text.terminal``, the public tokenizer registry (``zheval.tokenizers``) and the public preset registry
   (``zheval.presets``) -- never the fast twins, the definitions, a preset's own module or another text module.
"""

from __future__ import annotations

import ast
from pathlib import Path
from helpers import REPO

PKG = REPO / "zheval"

#: Layer of each top-level part of the package, bottom (0) to top; see docs/DESIGN.md "Layers".
LAYERS = {
    "version": 0,
    "text": 1,
    "io": 1,
    "tokenizers": 2,
    "definitions": 3,
    "fast": 4,
    "presets": 5,
    "results": 6,
    "compute": 7,
    "cli": 8,
    "adapters": 8,
    "__main__": 9,
    "__init__": 9,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return LAYERS["__init__"]
    return LAYERS[parts[1]]


def absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    if not level:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imports_of(path: Path):
    """``(lineno, imported module, imported names)`` of every zheval import in ``path``."""
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = absolute(module, path.name == "__init__.py", node.level, node.module)
            if target == "zheval" or target.startswith("zheval."):
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    is_module = (PKG.parent / Path(*sub.split("."))).with_suffix(".py").exists() or (
                        PKG.parent / Path(*sub.split(".")) / "__init__.py").exists()
                    out.append((node.lineno, sub if is_module else target, a.name, is_module))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "zheval" or a.name.startswith("zheval."):
                    out.append((node.lineno, a.name, None, True))
    return module, tree, out


def all_modules():
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def test_imports_go_down_the_layers_only():
    bad = []
    for path in all_modules():
        module, _, imports = imports_of(path)
        if module in ("zheval", "zheval.__main__"):
            continue  # the facade imports the API lazily (layer 9)
        for line, target, _, _ in imports:
            if target == "zheval":
                bad.append(f"{path.relative_to(REPO)}:{line}: imports the package facade 'zheval' (import from the module that defines the name)")
            elif layer_of(target) > layer_of(module):
                bad.append(f"{path.relative_to(REPO)}:{line}: {module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})")
    assert bad == [], "\n".join(bad)


def test_no_private_name_crosses_a_module():
    bad = []
    for path in all_modules():
        module, tree, imports = imports_of(path)
        aliases = {}
        for line, target, name, is_module in imports:
            if name is not None and name.startswith("_") and not name.startswith("__") and not is_module and target != module:
                bad.append(f"{path.relative_to(REPO)}:{line}: imports private {name} from {target}")
            if name is not None and is_module:
                aliases[name] = target
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                bad.append(f"{path.relative_to(REPO)}:{node.lineno}: reads private {aliases[node.value.id]}.{node.attr}")
    assert bad == [], "\n".join(bad)


def test_modules_of_one_layer_import_each_other_acyclically():
    graph: dict[str, set] = {}
    for path in all_modules():
        module, _, imports = imports_of(path)
        graph.setdefault(module, set()).update(
            t for _, t, _, _ in imports if t != module and t.startswith("zheval.") and layer_of(t) == layer_of(module)
            and not module.startswith(t + "."))  # a submodule importing its own package __init__ is allowed below
    seen, stack, cycles = set(), [], []

    def visit(m):
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            visit(t)
        stack.pop()

    for m in sorted(graph):
        visit(m)
    assert cycles == [], cycles


def test_the_rules_catch_what_they_must(tmp_path):
    # the walk sees lazy imports inside functions and resolves relative imports
    path = PKG / "compute" / "rouge.py"
    module, _, imports = imports_of(path)
    assert module == "zheval.compute.rouge"
    assert any(t.startswith("zheval.tokenizers") for _, t, _, _ in imports)
    assert layer_of("zheval.adapters.duck.evaluate") > layer_of("zheval.compute.rouge") > layer_of("zheval.text.chars")


#: What the top floor (``zheval.adapters``, ``zheval.cli``, ``zheval.__main__``) may import, besides itself: module
#: prefixes, and packages whose public names (not their submodules) are the registries.
TOP_FLOOR_MAY_IMPORT = ("zheval.compute", "zheval.results", "zheval.io", "zheval.text.terminal", "zheval.version",
                        "zheval.adapters", "zheval.cli")
TOP_FLOOR_REGISTRIES = ("zheval.tokenizers", "zheval.presets")


def test_adapters_and_the_cli_call_the_api_never_its_internals():
    bad = []
    for path in all_modules():
        module, _, imports = imports_of(path)
        if not module.startswith(("zheval.adapters", "zheval.cli", "zheval.__main__")):
            continue
        for line, target, name, is_module in imports:
            if target in TOP_FLOOR_REGISTRIES or any(target == p or target.startswith(p + ".")
                                                     for p in TOP_FLOOR_MAY_IMPORT):
                continue
            bad.append(f"{path.relative_to(REPO)}:{line}: {module} imports {target}"
                       + (f".{name}" if name and not is_module else ""))
    assert bad == [], "rule 7 (adapters are the top floor):\n" + "\n".join(bad)
