"""Rewrite the Sphinx roles of zheval's docstrings and comments into what the docs site renders.

The API reference (mkdocs + mkdocstrings, ``docs/api.md``) reads the docstrings as Markdown: a Sphinx role such as
``:func:`~zheval.tokenizers.get_tokenizer``` shows as literal text there. This script replaces every role
(``:func:``, ``:mod:``, ``:class:``, ``:data:``, ``:meth:``, ``:attr:``, ``:exc:``, ``:obj:``, ``:const:``) by:

* a cross-reference of mkdocs-autorefs, ``[`get_tokenizer`][zheval.tokenizers.get_tokenizer]`` (or
  ``[`zheval.tokenizers.get_tokenizer`][]`` when the text is the identifier), where the role sits in a string (a
  docstring) and its target is an object the site documents (an entry of the site's ``objects.inv``, directly or
  through the object's canonical path);
* plain code, ``get_tokenizer`` in backticks, everywhere else: in comments, and where the target is not on the site
  (a private helper, a builtin exception, another library's object) or cannot be resolved.

The text shown is Sphinx's: the target as written, or its last part with ``~``, or the explicit title of
``:role:`title <target>```. A target is resolved as Sphinx resolves it, in the scope of the object whose docstring
holds it (griffe: its members, then its module's names, imports included); a bare name that the scope does not know
is looked up across the package and used when it names exactly one object.

Usage (from the repository root, with the ``docs`` extra installed)::

    python scripts/docstring_roles.py            # build the site, rewrite zheval/ in place, print the counts
    python scripts/docstring_roles.py --inventory site/objects.inv   # use a site already built
    python scripts/docstring_roles.py --check    # list the roles left (file:line), exit 1 if any

Idempotent: a second run finds no role and changes nothing. ``tests/repo/test_docstring_roles.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import ast
import io
import os
import re
import subprocess
import sys
import tempfile
import tokenize
import zlib
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROLE = re.compile(
    r":(?:py:)?(?P<kind>func|mod|class|data|meth|attr|exc|obj|const):`(?P<tilde>~?)(?P<text>[^`<\n]+?)"
    r"(?:\s*<(?P<target>[^`>\n]+)>)?`"
)


def roles_left(root: Path) -> list[str]:
    """``file:line: role`` of every role left below ``root`` (``.py`` files)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
            out.extend(f"{where}:{n}: {m.group(0)}" for m in ROLE.finditer(line))
    return out


def read_inventory(path: Path) -> list[str]:
    """The object names of a Sphinx inventory (version 2, as mkdocstrings writes ``objects.inv``), primary first."""
    raw = path.read_bytes()
    header = raw.split(b"\n", 4)
    if not header[0].startswith(b"# Sphinx inventory version 2"):
        raise SystemExit(f"{path}: not a Sphinx inventory version 2")
    rows = [line.split(" ", 4) for line in zlib.decompress(header[4]).decode("utf-8").splitlines() if line.strip()]
    return [name for name, _role, prio, *_ in sorted(rows, key=lambda r: int(r[2])) if _role.startswith("py:")]


def build_inventory() -> Path:
    """Build the site into a temporary folder (not strict: the roles may be unresolved yet) and return its
    ``objects.inv``."""
    out = Path(tempfile.mkdtemp(prefix="zheval-site-"))
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=REPO, env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit("mkdocs build failed:\n" + res.stdout + res.stderr)
    return out / "objects.inv"


class Resolver:
    """Targets of roles → the identifier to link (or None) and the reason."""

    def __init__(self, inventory: list[str]):
        import griffe

        self.pkg = griffe.load("zheval", search_paths=[str(REPO)], resolve_aliases=True, resolve_external=False)
        self.collection = self.pkg.modules_collection
        self.inventory = set(inventory)
        self.by_canonical: dict[str, str] = {}
        for name in inventory:  # primary entries first: the first name of a canonical path wins
            canonical = self.canonical(name)
            if canonical:
                self.by_canonical.setdefault(canonical, name)
        self.by_name: dict[str, list[str]] = {}
        self._index(self.pkg)
        self.lazy = lazy_names()

    def _index(self, obj) -> None:
        for name, member in obj.members.items():
            if member.is_alias:
                continue
            self.by_name.setdefault(name, []).append(member.path)
            if member.is_module or member.is_class:
                self._index(member)

    def get(self, path: str):
        try:
            return self.collection.get_member(path)
        except Exception:  # KeyError, alias resolution errors
            return None

    def canonical(self, path: str) -> str | None:
        obj = self.get(path)
        if obj is None:
            return None
        try:
            return obj.canonical_path
        except Exception:
            return None

    def resolve(self, target: str, scope: str) -> str | None:
        """The full path of ``target`` as written in the docstring of ``scope`` (an object path), or None."""
        target = target.strip().removesuffix("()").lstrip(".")
        head, _, rest = target.removeprefix("zheval.").partition(".")
        if target.startswith("zheval.") and head in self.lazy:  # zheval.compute_rouge: a lazy public name
            target = f"{self.lazy[head]}.{head}" + (f".{rest}" if rest else "")
        if target.startswith("zheval.") or target == "zheval":
            return target if self.get(target) is not None else None
        head, _, rest = target.partition(".")
        obj = self.get(scope)
        while obj is not None:
            try:
                path = obj.resolve(head)
                full = f"{path}.{rest}" if rest else path
                if self.get(full) is not None:
                    return full
            except Exception:
                pass
            obj = obj.parent
        last = target.rpartition(".")[2]
        candidates = [p for p in self.by_name.get(last, []) if p.endswith("." + target)]
        return candidates[0] if len(candidates) == 1 else None

    def link(self, path: str | None) -> str | None:
        """The identifier of the site for ``path`` (itself, or the entry of its canonical path), or None."""
        if path is None:
            return None
        if path in self.inventory:
            return path
        canonical = self.canonical(path)
        return self.by_canonical.get(canonical) if canonical else None


def lazy_names() -> dict[str, str]:
    """``zheval._LAZY``, read from the source: the public names imported on first use (name -> module)."""
    tree = ast.parse((REPO / "zheval" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in targets):
            return ast.literal_eval(node.value)
    return {}


def docstring_scopes(source: str, module: str) -> dict[int, str]:
    """``{first line of a docstring: the path of the object it documents}`` (module, classes, functions, and the
    attribute docstrings that follow an assignment)."""
    scopes: dict[int, str] = {}

    def visit(node, path):
        body = getattr(node, "body", [])
        for i, child in enumerate(body):
            if isinstance(child, ast.Expr) and isinstance(child.value, ast.Constant) and isinstance(child.value.value, str):
                if i == 0:
                    scopes[child.lineno] = path
                elif isinstance(body[i - 1], (ast.Assign, ast.AnnAssign)):
                    target = body[i - 1].targets[0] if isinstance(body[i - 1], ast.Assign) else body[i - 1].target
                    scopes[child.lineno] = f"{path}.{target.id}" if isinstance(target, ast.Name) else path
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{path}.{child.name}")

    visit(ast.parse(source), module)
    return scopes


def module_name(path: Path) -> str:
    """The dotted module name of a file of the package (``zheval/compute/rouge.py`` -> ``zheval.compute.rouge``)."""
    rel = path.relative_to(REPO).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def rewrite_source(source: str, module: str, resolver: Resolver | None, counts: Counter) -> str:
    """``source`` (the text of ``module``) with every role rewritten (see the module docstring)."""
    scopes = docstring_scopes(source, module)
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    edits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.STRING, tokenize.COMMENT) or not ROLE.search(tok.string):
            continue
        start = offsets[tok.start[0] - 1] + tok.start[1]
        scope = scopes.get(tok.start[0], module) if tok.type == tokenize.STRING else None
        new = ROLE.sub(lambda m: _replacement(m, scope, resolver, counts), tok.string)
        edits.append((start, start + len(tok.string), new))
    for a, b, new in reversed(edits):
        source = source[:a] + new + source[b:]
    return source


def _replacement(m: re.Match, scope: str | None, resolver: Resolver | None, counts: Counter) -> str:
    written = m.group("target") or m.group("text")
    shown = m.group("text").strip() if m.group("target") else written.strip()
    if m.group("tilde") and not m.group("target"):
        shown = shown.rpartition(".")[2]
    path = None if scope is None or resolver is None else resolver.resolve(written, scope)
    if scope is not None and path is None:
        counts["unresolved"] += 1
        counts[f"unresolved {written.strip()}"] += 1
    ident = None if path is None else resolver.link(path)
    if ident is None:
        counts["code"] += 1
        return f"`{shown}`"
    counts["link"] += 1
    return f"[`{shown}`][]" if shown == ident else f"[`{shown}`][{ident}]"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list the roles left; exit 1 if any")
    parser.add_argument("--inventory", type=Path, help="the objects.inv of a built site (default: build one)")
    parser.add_argument("--verbose", action="store_true", help="list the targets not found")
    parser.add_argument("--root", type=Path, default=REPO / "zheval", help="the package folder (default zheval/)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.check:
        left = roles_left(root)
        print("\n".join(left) if left else f"no Sphinx role in {root}")
        return 1 if left else 0
    resolver = Resolver(read_inventory(args.inventory or build_inventory()))
    counts, changed = Counter(), 0
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not ROLE.search(text):
            continue
        new = rewrite_source(text, module_name(path), resolver, counts)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    print(f"{counts['link']} cross-references, {counts['code']} plain code ({counts['unresolved']} targets in "
          f"docstrings not found in zheval: builtins, other libraries, typos), {changed} files changed")
    if args.verbose:
        print("\n".join(f"{n} {k}" for k, n in sorted(counts.items()) if k.startswith("unresolved ")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
