"""The documentation site builds: ``mkdocs build --strict`` (mkdocs-material, mkdocstrings' API reference from the
docstrings) with no warning — a broken link or anchor, a page left out of the nav, a docstring mkdocstrings cannot
parse, a cross-reference (``[`get_tokenizer`][zheval.tokenizers.get_tokenizer]``) to an object the site does not
document fails it. The API page shows each entry point's source and every option's type and default: the true
default of each options field (not the source text ``_option(...)``; scripts/griffe_option_fields.py) and, for a
field left at ``None`` where a preset may set it, the value that then applies; every field of
``RougeOptions``/``BleuOptions``/``ChrfOptions`` has its anchor (the compute functions link them), and no link of any
page points at a missing anchor or is left as literal ``[`x`][target]`` text. The ``docs``
extra installs the builder (``python3 dev.py test`` does); without it a local run skips this file, and under
``CI=true`` it fails."""

from __future__ import annotations

import html as html_lib
import importlib.util
import os
import re
import subprocess
import sys

import pytest
import yaml

from helpers import REPO

MISSING = importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None


def _builder_or_skip():
    if MISSING:
        if os.environ.get("CI") == "true":
            pytest.fail("mkdocs / mkdocstrings are missing under CI=true: pip install -e '.[docs]'")
        pytest.skip("docs site: mkdocs / mkdocstrings missing: pip install -e '.[docs]'")


def _build(config, out):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    _builder_or_skip()
    out = tmp_path_factory.mktemp("site")
    res = _build(REPO / "mkdocs.yml", out)
    assert res.returncode == 0, res.stdout + res.stderr
    return out


def _api_section(html: str, ident: str) -> str:
    """The HTML of one object on the API page, from its heading to the next object's heading."""
    start = html.index(f'id="{ident}"')
    end = html.find('<div class="doc doc-object', start)
    return html[start:end if end > 0 else len(html)]


def _parameter_rows(section: str) -> list[tuple[str, str, str]]:
    """``(name, type, default)`` of each row of the section's first Parameters table, as plain text."""
    table = section[section.index("Parameters:"):]
    table = table[:table.index("</table>")]

    def text(cell):
        return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", cell)).split())

    rows = []
    for row in re.findall(r'<tr class="doc-section-item">(.*?)</tr>', table, flags=re.S):
        cells = [text(c) for c in re.findall(r"<td>(.*?)</td>", row, flags=re.S)]
        rows.append((cells[0], cells[1], cells[-1]))
    return rows


def test_every_docs_page_is_in_the_site(site):
    pages = sorted(p.stem for p in (REPO / "docs").glob("*.md"))
    for stem in pages:
        built = site / ("index.html" if stem == "index" else f"{stem}/index.html")
        assert built.is_file(), f"docs/{stem}.md is not in the built site"


def test_the_api_reference_is_generated_from_the_docstrings(site):
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("compute_rouge", "compute_bleu", "score", "explain", "get_tokenizer", "build_compute_metrics"):
        assert f'id="zheval.' in html and name in html, name
    # a sentence of compute_rouge's docstring reaches the page
    import zheval

    first = zheval.compute_rouge.__doc__.strip().splitlines()[0].split("``")[0].strip()[:30]
    assert first and first in html


#: The entry points a user calls beyond ``zheval.__all__`` (the doors of the other tools and of files).
DOORS = ("zheval.adapters.trainer.build_compute_metrics", "zheval.adapters.ray.score_dataset",
         "zheval.adapters.spark.score_dataframe", "zheval.adapters.harness_opencompass.ZhevalRougeEvaluator",
         "zheval.adapters.harness_opencompass.ZhevalBleuEvaluator", "zheval.adapters.harness_opencompass.ZhevalChrfEvaluator",
         "zheval.adapters.lm_eval_harness.metrics.make_process_results", "zheval.adapters.lm_eval_harness.metrics.HarnessMetric",
         "zheval.adapters.lm_eval_harness.metrics.METRICS", "zheval.adapters.records.score_records",
         "zheval.adapters.duck.evaluate.evaluate_predictions", "zheval.adapters.compare.compare_predictions",
         "zheval.adapters.duck.ceiling.human_ceiling", "zheval.definitions.rouge.combine_references",
         "zheval.presets.get_preset", "zheval.presets.register_preset", "zheval.presets.base.Preset",
         "zheval.compute.options.RougeOptions", "zheval.compute.options.BleuOptions", "zheval.compute.options.ChrfOptions")


def test_every_public_entry_point_is_on_the_api_page(site):
    import zheval
    from zheval.adapters.lm_eval_harness.metrics import METRICS

    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    public = [f"{zheval._LAZY[name]}.{name}" for name in zheval.__all__ if name != "__version__"]
    assert "zheval.results.distinct.distinct_n" in public and "zheval.compute.chrf.compute_chrf" in public
    missing = [ident for ident in (*public, *DOORS) if f'id="{ident}"' not in html]
    assert not missing, missing
    section = _api_section(html, "zheval.adapters.lm_eval_harness.metrics.METRICS")
    assert [name for name in METRICS if name not in section] == []  # the table names every lm-eval metric


def test_api_entry_points_show_their_source(site):
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    for ident in ("zheval.compute.rouge.compute_rouge", "zheval.compute.chrf.compute_chrf",
                  "zheval.definitions.rouge.combine_references"):
        assert "Source code in" in _api_section(html, ident), ident


@pytest.mark.parametrize("ident", ["zheval.compute.rouge.compute_rouge", "zheval.compute.bleu.compute_bleu",
                                   "zheval.compute.chrf.compute_chrf", "zheval.compute.joint.score"])
def test_no_option_is_shown_required(site, ident):
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    rows = _parameter_rows(_api_section(html, ident))
    options = [r for r in rows if r[0] not in ("predictions", "references")]
    assert len(options) >= 5, rows
    required = [name for name, _, default in options if default == "required"]
    untyped = [name for name, typ, _ in options if not typ]
    assert not required and not untyped, (required, untyped)


def test_an_unresolved_cross_reference_fails_the_strict_build(tmp_path):
    """The repository's own configuration, on a one-page site whose page links an object the site does not
    document: mkdocs-autorefs warns, and ``strict`` turns the warning into a failed build."""
    _builder_or_skip()
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        "# Page\n\n::: zheval.tokenizers.get_tokenizer\n\n"
        "Linked: [`get_tokenizer`][zheval.tokenizers.get_tokenizer]; broken: [`gone`][zheval.not_documented].\n",
        encoding="utf-8")
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "mkdocstrings" in plugin:
            python = plugin["mkdocstrings"]["handlers"]["python"]
            python["paths"] = [str(REPO)]
            python["options"]["extensions"] = [str(REPO / e) for e in python["options"]["extensions"]]
    config.update(docs_dir=str(docs), nav=["index.md"])
    config.pop("extra_css", None)
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    res = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    log = res.stdout + res.stderr
    assert res.returncode != 0 and "Could not find cross-reference target 'zheval.not_documented'" in log, log
    assert "zheval.tokenizers.get_tokenizer'" not in log  # the documented one resolved


def _without_source(html: str) -> str:
    """The page without its collapsible source blocks (the source is shown as written)."""
    return re.sub(r'<details class="mkdocstrings-source">.*?</details>', "", html, flags=re.S)


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


OPTION_CLASSES = ("TokenizerOptions", "IntervalOptions", "RougeOptions", "BleuOptions", "ChrfOptions")


def test_every_option_shows_its_true_default_and_type(site):
    import dataclasses

    from zheval.compute import options

    html = _without_source((site / "api" / "index.html").read_text(encoding="utf-8"))
    assert "_option(" not in _text(html)
    shown = 0
    for name in OPTION_CLASSES:
        cls = getattr(options, name)
        for f in dataclasses.fields(cls):
            section = _api_section(html, f"zheval.compute.options.{name}.{f.name}")
            signature = re.search(r'<div class="doc-signature highlight">(.*?)</div>', section, flags=re.S)
            assert signature, (name, f.name)
            assert _text(signature.group(1)) == f"{f.name}: {f.type} = {f.default!r}", (name, f.name)
            text = _text(section)
            assert f"Default: {f.default!r}" in text, (name, f.name, text)
            shown += 1
    assert shown >= 35
    # a field left at None: the value that applies without a preset (ROUGE_DEFAULTS / BLEU_DEFAULTS, by hand)
    for ident, value in (("RougeOptions.rouge_w_weight", "1.2"), ("RougeOptions.beta", "1.0"),
                         ("RougeOptions.multi_ref", "'max'"), ("RougeOptions.sentence_split", "'punct'"),
                         ("RougeOptions.tokenizer", "'char'"), ("BleuOptions.tokenizer", "'char'"),
                         ("BleuOptions.max_order", "4"), ("BleuOptions.smooth_method", "'exp'"),
                         ("BleuOptions.bp_ref_length", "'closest'"), ("BleuOptions.level", "'corpus'"),
                         ("RougeOptions.rouge_types", "['rouge1', 'rouge2', 'rougeL', 'rougeLsum']")):
        text = _text(_api_section(html, f"zheval.compute.options.{ident}"))
        assert f"Default: None: the preset's value, else {value}." in text, (ident, text)
    for ident, value in (("ChrfOptions.tokenizer", "'char'"), ("ChrfOptions.char_order", "6"),
                         ("ChrfOptions.beta", "2"), ("IntervalOptions.seed", "12345")):
        assert f"Default: {value}." in _text(_api_section(html, f"zheval.compute.options.{ident}")), ident


#: The options classes of the model-based layers, defined in their own modules with the same field helper.
LAYER_OPTION_CLASSES = (("zheval.compute.bertscore", "BertScoreOptions", "zheval.compute.bertscore.compute_bertscore"),
                        ("zheval.compute.judge", "JudgeOptions", "zheval.compute.judge.compute_judge"))


@pytest.mark.parametrize("module, name, function", LAYER_OPTION_CLASSES, ids=[c[1] for c in LAYER_OPTION_CLASSES])
def test_the_model_layers_options_show_type_default_and_text(site, module, name, function):
    """BertScoreOptions and JudgeOptions as the metric options: each field on the API page with its type, its
    default (none for a required one: ``model: Any``) and its text, and the compute function's row of each option
    links to the field."""
    import dataclasses
    import importlib

    html = _without_source((site / "api" / "index.html").read_text(encoding="utf-8"))
    assert "option_field(" not in _text(html)
    cls = getattr(importlib.import_module(module), name)
    rows = _api_section(html, function)
    for f in dataclasses.fields(cls):
        ident = f"{module}.{name}.{f.name}"
        section = _api_section(html, ident)
        signature = re.search(r'<div class="doc-signature highlight">(.*?)</div>', section, flags=re.S)
        assert signature, ident
        required = f.default is dataclasses.MISSING
        assert _text(signature.group(1)) == f"{f.name}: {f.type}" + ("" if required else f" = {f.default!r}"), ident
        text = _text(section)
        assert ("Required." if required else f"Default: {f.default!r}.") in text, (ident, text)
        said = " ".join(f.metadata["doc"].replace("`", "").split()).split(". ")[0][:60]
        assert said in text, (ident, said, text)
        assert f'href="#{ident}"' in rows, (function, f.name)


def test_every_option_field_has_its_anchor(site):
    from zheval.compute.options import OPTIONS_CLASSES

    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    missing = [f"{cls.__name__}.{name}" for cls in OPTIONS_CLASSES.values() for name in cls.names()
               if f'id="zheval.compute.options.{cls.__name__}.{name}"' not in html]
    assert not missing, missing


def test_every_link_resolves(site):
    """Every ``href`` of every page that points into the site reaches an existing page and anchor, and no
    cross-reference is left as its literal Markdown (``[`x`][target]`` inside text or code)."""
    pages = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    ids = {path: set(re.findall(r'\sid="([^"]+)"', page)) for path, page in pages.items()}
    broken, literal = [], []
    for path, page in pages.items():
        if path == "404.html":
            continue
        base = path.rsplit("/", 1)[0] if "/" in path else ""
        for href in re.findall(r'href="([^"]+)"', page):
            if re.match(r"^[a-z]+:|^//", href):
                continue
            target, _, anchor = html_lib.unescape(href).partition("#")
            resolved = os.path.normpath(os.path.join(base, target)).replace(os.sep, "/") if target else path
            if resolved == ".":
                resolved = ""
            if resolved.endswith("/") or resolved == "" or not resolved.endswith((".html", ".css", ".js", ".png",
                                                                                  ".svg", ".ico", ".json", ".xml")):
                resolved = f"{resolved.rstrip('/')}/index.html".lstrip("/")
            if resolved not in pages:
                if not (site / resolved).exists():
                    broken.append((path, href))
                continue
            if anchor and anchor not in ids[resolved]:
                broken.append((path, href))
        text = _without_source(page)
        if path != "api/index.html":  # a guide may show the syntax as code on purpose (development.md)
            text = re.sub(r"<code>[^<]*</code>", "", text)
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", text))
        literal += [(path, m) for m in re.findall(r"\]\[(?:zheval\.[\w.]*)?\]", text)]
    assert not broken, broken[:20]
    assert not literal, literal[:20]


def test_every_raises_entry_names_exceptions(site):
    """A ``Raises:`` line griffe cannot parse puts its prose in the exception column ("as `x`; ValueError",
    "At ``score``"): every type cell of the API page names exceptions only (``A``, ``(A, B)``, ``A (a B)``)."""
    html = _without_source((site / "api" / "index.html").read_text(encoding="utf-8"))
    bad = []
    for table in re.findall(r'<span class="doc-section-title">Raises:</span></p>\s*<table>(.*?)</table>', html,
                            flags=re.S):
        for cell in re.findall(r'<tr class="doc-section-item">\s*<td>(.*?)</td>', table, flags=re.S):
            words = re.findall(r"[A-Za-z_]\w*", _text(cell))
            if not words or not all(w == "a" or w.endswith(("Error", "Exception", "Warning", "Exit")) for w in words):
                bad.append(_text(cell))
    assert not bad, bad


def _documented_objects(html: str):
    """``(ident, section)`` of every object of the API page, each section up to the next object's heading."""
    heads = [(m.start(), m.group(1)) for m in
             re.finditer(r'<div class="doc doc-object doc-\w+">\s*<h\d[^>]*\sid="([^"]+)"', html)]
    for k, (start, ident) in enumerate(heads):
        yield ident, html[start:heads[k + 1][0] if k + 1 < len(heads) else len(html)]


def _imported(ident: str):
    """The Python object of an API page heading (``zheval.adapters.trainer.build_compute_metrics``)."""
    import importlib

    parts = ident.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise AssertionError(ident)


def test_every_parameter_has_its_row_with_its_type_and_default(site):
    """Each row of every Parameters table of the API page is one parameter of the object's signature (an Args entry
    that groups several, ``rouge, bleu, chrf: ...``, is one row griffe cannot match: no type, "required"), shown
    with its annotation, and "required" only when the signature gives it no default; and every parameter of the
    signature has its row (one written inside another's entry, ``predictions: ...; references: ...``, has none).
    Each row of an Attributes table names one attribute."""
    import inspect

    html = _without_source((site / "api" / "index.html").read_text(encoding="utf-8"))
    bad, tables = [], 0
    for ident, section in _documented_objects(html):
        if "Parameters:</span>" not in section:
            continue
        tables += 1
        signature = inspect.signature(_imported(ident))
        rows = _parameter_rows(section)
        shown = {name.lstrip("*") for name, _, _ in rows}
        bad += [(ident, name, "no row") for name in signature.parameters if name not in shown]
        for name, typ, default in rows:
            p = signature.parameters.get(name.lstrip("*"))
            if p is None:
                bad.append((ident, name, "not a parameter"))
                continue
            optional = p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            if optional and default == "required":
                bad.append((ident, name, "shown required"))
            if p.annotation is not p.empty and not typ:
                bad.append((ident, name, "no type"))
    assert tables >= 35
    for table in re.findall(r'<span class="doc-section-title">Attributes:</span></p>\s*<table>(.*?)</table>', html,
                            flags=re.S):  # a grouped Attributes entry (``a, b: ...``) is one row too
        names = [_text(c) for c in re.findall(r'<tr class="doc-section-item">\s*<td>(.*?)</td>', table, flags=re.S)]
        bad += [("Attributes", name, "not one name") for name in names if not re.fullmatch(r"\w+", name)]
    assert not bad, bad


def test_every_returns_table_is_one_value_read_as_markdown(site):
    """A ``Returns:`` section is one value whose text wraps over lines: one row (not one per docstring line, which
    also cuts a ````{...}```` span in two and leaves literal ```` `` ```` on the page), without a name column (a
    first line ``dict: ...`` read as a name). No reST ``::`` reaches the page either."""
    html = _without_source((site / "api" / "index.html").read_text(encoding="utf-8"))
    tables = re.findall(r'<span class="doc-section-title">Returns:</span></p>\s*<table>(.*?)</table>', html,
                        flags=re.S)
    assert len(tables) >= 30
    split = [_text(t)[:80] for t in tables if len(re.findall(r'<tr class="doc-section-item">', t)) != 1]
    named = [_text(t)[:80] for t in tables if re.search(r"<th>\s*Name\s*</th>", t)]
    assert not split and not named, (split, named)
    prose = _text(re.sub(r"<code>.*?</code>|<pre>.*?</pre>", " ", html, flags=re.S))
    assert "``" not in prose, re.findall(r".{40}``.{40}", prose)[:10]
    assert not re.search(r"\w::(\s|$)", prose), re.findall(r".{40}\w::\s.{20}", prose)[:10]
