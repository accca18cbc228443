"""docs/DESIGN.md lists every piece of module-level mutable state of zheval (design rule: no state crosses a call
unless its key is content, and the reason each piece is safe is written down).

The walk finds, in every module of the package, module-level names bound to a mutable container (dict, list, set,
bytearray), a lock, a thread-local, or a private name bound to ``None`` (a global built on first use), and private
class attributes holding ``None`` or a container (a class-level cache). Each must be named in the "Module-level
state" section as ``module.name`` (or ``module.Class.name``), or in a row that names the module and then the name.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from helpers import REPO

DESIGN = REPO / "docs" / "DESIGN.md"
def _section() -> str:
    text = DESIGN.read_text(encoding="utf-8")
    start = text.index("## Module-level state")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


_WALK = r"""
import ast, importlib, json, pkgutil, threading
import zheval

LOCKS = (type(threading.Lock()), type(threading.RLock()), threading.local)
PYTHON_INTERNALS = {"_field_defaults", "_fields"}  # typing.NamedTuple's own class attributes


def stateful(value, name):
    if isinstance(value, (dict, list, set, bytearray)) or isinstance(value, LOCKS):
        return True
    return value is None and name.startswith("_") and not name.endswith("_")


def bound_here(mod):
    # names the module itself binds (module-level assignments, global statements), not names it imports
    tree = ast.parse(open(mod.__file__, encoding="utf-8").read())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            names.update(node.names)
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            names.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
    return names


out = []
for modname in ["zheval"] + [m.name for m in pkgutil.walk_packages(zheval.__path__, "zheval.")]:
    mod = importlib.import_module(modname)
    own = bound_here(mod)
    for name, value in vars(mod).items():
        if name.startswith("__") or name not in own:
            continue
        if stateful(value, name):
            out.append([modname, name])
        if isinstance(value, type) and value.__module__ == modname:
            for attr, v in vars(value).items():
                if (attr.startswith("_") and not attr.startswith("__") and not attr.endswith("_")
                        and attr not in PYTHON_INTERNALS and (v is None or isinstance(v, (dict, list, set)))):
                    out.append([modname, f"{name}.{attr}"])
print(json.dumps(out))
"""


def _found() -> list[tuple[str, str]]:
    """The walk, in a fresh interpreter: a global built on first use is still ``None`` there."""
    proc = subprocess.run([sys.executable, "-c", _WALK], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return [tuple(x) for x in json.loads(proc.stdout.strip().splitlines()[-1])]


def _named(section: str, modname: str, name: str) -> bool:
    if f"`{modname}.{name}`" in section:
        return True
    # a row naming the module first and the bare name after it (`zheval.tokenizers._cache` (with `_cache_lock`))
    for row in section.splitlines():
        m = re.search(rf"`{re.escape(modname)}\.[\w.]+`", row)
        if m and f"`{name}`" in row[m.start():]:
            return True
    return False


def test_every_piece_of_module_level_state_is_listed():
    section = _section()
    found = _found()
    missing = [f"{m}.{n}" for m, n in found if not _named(section, m, n)]
    assert not missing, f"module-level state not listed in docs/DESIGN.md 'Module-level state': {missing}"
    names = {f"{m}.{n}" for m, n in found}
    for known in ("zheval.tokenizers.base._cache", "zheval.tokenizers._instances", "zheval.definitions.rouge._PARSE_CACHE",
                  "zheval.text.normalize._T2S._converter", "zheval.tokenizers.jieba_words._QUIET",
                  "zheval.text.normalize._PUNCT_CHARS_RE"):
        assert known in names  # the walk sees what it must
