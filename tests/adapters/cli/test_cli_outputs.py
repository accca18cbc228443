"""The zheval command's outputs and bounds: --bootstrap limit and progress bar (numbers unchanged), one-item groups
without an interval (table, markdown, JSON, plot, compare), --items in every format, the plot format from the
extension, repeated --by entries, output permissions from the umask, atomic writes, and the namespace-package shadow."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from helpers import REPO
from helpers.cli import TWO_DOMAIN_PREDS as PREDS, TWO_DOMAIN_ROWS as ROWS, run_cli as run, twin, write_jsonl
from zheval.compute.bleu import compute_bleu
from zheval.cli import MAX_BOOTSTRAP
from zheval.adapters.report.tables import MIN_INTERVAL_ITEMS, MetricSpec, group_items, score_groups
from zheval.adapters.files import atomic_write
from zheval.compute.rouge import compute_rouge


@pytest.fixture()
def files(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"id": r["id"], "prediction": p} for r, p in zip(ROWS, PREDS)])
    return data, pred


# ---- --bootstrap bound and progress ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [MAX_BOOTSTRAP + 1, 10**19 + 12345])
def test_bootstrap_above_the_bound_names_option_and_bound(files, value):
    data, pred = files
    for cmd in (("score", "-d", data, "-p", pred), ("ceiling", "-d", data),
                ("compare", "-d", data, "-p", pred, twin(pred)), ("demo",)):
        res = run(*cmd, "--bootstrap", value)
        assert res.exit_code == 2, (cmd, res.output)
        err = " ".join(res.stderr.split())
        assert "Invalid value for '--bootstrap'" in err and "to 100000 resamples" in err
        assert "MAX_BOOTSTRAP_RESAMPLES" not in err


def test_bootstrap_at_the_bound_runs(files):
    data, pred = files
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", MAX_BOOTSTRAP, "--by", "none", "--metrics", "bleu",
              "-f", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["params"]["bootstrap"] == 100_000


def test_progress_bar_does_not_change_the_numbers(files, monkeypatch):
    data, pred = files
    quiet = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 300, "-f", "json")
    piped = run("score", "-d", data, "-p", pred, "--bootstrap", 300, "-f", "json")  # stderr no terminal: no bar
    monkeypatch.setattr("zheval.cli.options.progress_wanted", lambda quiet: not quiet)  # stderr a terminal
    loud = run("score", "-d", data, "-p", pred, "--bootstrap", 300, "-f", "json")
    assert quiet.exit_code == loud.exit_code == piped.exit_code == 0
    assert "resample/s" not in piped.stderr
    # the bar (its unit "resample/s"), on stderr only; 300 resamples also get the caution there (below 1000)
    assert "resample/s" in loud.stderr and "resample/s" not in quiet.stderr
    assert json.loads(quiet.stdout) == json.loads(loud.stdout)
    # the library: a bar over groups x metrics x resamples, same intervals
    rows = np.array([[0.1], [0.4], [0.35], [0.9], [0.6]])
    spec = MetricSpec("m", "M", np.column_stack([rows[:, 0], np.ones(5)]), lambda s: s[:, 0] / s[:, 1],
                      lambda idx: float(rows[idx, 0].mean()))
    groups = group_items({"g": ["a", "a", "b", "b", "b"]}, ["g"])
    a = score_groups([spec], groups, 500, 7, progress=False)
    b = score_groups([spec], groups, 500, 7, progress=True)
    assert [(g.scores["m"].low, g.scores["m"].high) for g in a] == [(g.scores["m"].low, g.scores["m"].high) for g in b]
    cmp_q = run("compare", "-d", data, "-p", pred, twin(pred), "-q", "--bootstrap", 50, "-f", "json")
    cmp_l = run("compare", "-d", data, "-p", pred, twin(pred), "--bootstrap", 50, "-f", "json")
    assert json.loads(cmp_q.stdout) == json.loads(cmp_l.stdout) and "paired bootstrap" in cmp_l.stderr


# ---- one-item groups -------------------------------------------------------------------------------------------------------


def test_a_one_item_group_has_no_interval_everywhere(files, tmp_path):
    data, pred = files  # difficulty=中 and difficulty=null have one item each
    assert MIN_INTERVAL_ITEMS == 2
    rep = json.loads(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 200, "-f", "json").stdout)
    by = {(g["dimension"], g["value"]): g for g in rep["groups"]}
    one = by[("difficulty", "中")]
    assert one["n"] == 1
    for name, v in one["scores"].items():
        assert v["low"] is None and v["high"] is None and v["no_interval"].startswith("n=1: a bootstrap interval needs")
    # the value is still the item's own score (the library on that one item)
    assert one["scores"]["bleu"]["value"] == compute_bleu(PREDS[1:2], [ROWS[1]["responses"]])["bleu"]
    assert one["scores"]["rouge1"]["value"] == compute_rouge(PREDS[1:2], [ROWS[1]["responses"]], rouge_types=["rouge1"])["rouge1"]
    two = by[("domain", "售后支持")]
    assert two["n"] == 2 and all(v["low"] is not None and "no_interval" not in v for v in two["scores"].values())
    table = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 200).stdout
    line = next(x for x in table.splitlines() if x.startswith("difficulty=中"))
    assert line.count("(n=1, no interval)") == 4 and "[" not in line
    md = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 200, "-f", "markdown").stdout
    assert next(x for x in md.splitlines() if x.startswith("| difficulty=中")).count("(n=1, no interval)") == 4
    png = tmp_path / "p.png"
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 50, "--plot", png, "--plot-by", "difficulty",
              "-o", tmp_path / "r.txt")
    assert res.exit_code == 0 and "2 group(s) drawn without an error bar" in res.stderr
    # without --bootstrap there is no interval anywhere and no reason to give
    rep0 = json.loads(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "-f", "json").stdout)
    assert all("no_interval" not in v for g in rep0["groups"] for v in g["scores"].values())


def test_compare_one_item_group_has_no_interval_and_no_p_value(files, tmp_path):
    data, pred = files
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps({"id": r["id"], "prediction": "好的。"}) + "\n" for r in ROWS), encoding="utf-8")
    rep = json.loads(run("compare", "-d", data, "-p", pred, other, "-q", "--bootstrap", 100, "--by", "difficulty",
                         "-f", "json").stdout)
    one = [r for r in rep["comparison"] if r["group"] == "difficulty=中"]
    assert one and all(r["p_value"] is None and r["delta_low"] is None and r["no_interval"] for r in one)
    assert all(r["delta"] == r["score_b"] - r["score_a"] for r in one)
    assert any(n.startswith("no interval and no p-value for difficulty=null, difficulty=中") for n in rep["notes"])
    table = run("compare", "-d", data, "-p", pred, other, "-q", "--bootstrap", 100, "--by", "difficulty").stdout
    assert "(n=1, no interval)" in table


# ---- --items, --plot formats, --by repeats ---------------------------------------------------------------------------------


def test_items_in_table_and_markdown(files):
    data, pred = files
    js = json.loads(run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--items", "-f", "json").stdout)
    items = js["items"]
    table = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--items").stdout
    md = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--items", "-f", "markdown").stdout
    assert "items (4)" in table and "**Items** (4)" in md
    for it in items:
        row = next(x for x in table.splitlines() if x.startswith(it["id"] + " "))
        assert row.split()[1:] == [f"{it['sentence_bleu']:.3f}", f"{it['rouge1']:.3f}", f"{it['rouge2']:.3f}",
                                   f"{it['rougeL']:.3f}"]
        assert f"| {it['id']} | {it['sentence_bleu']:.3f} |" in md
    # sentence BLEU of an item = compute_bleu at sentence level on that item (effective order)
    assert items[0]["sentence_bleu"] == pytest.approx(
        compute_bleu(PREDS[:1], [ROWS[0]["responses"]], level="sentence")["bleu"], abs=1e-12)
    plain = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0).stdout
    assert "items (" not in plain


@pytest.mark.parametrize("ext, magic", [("png", b"\x89PNG"), ("jpg", b"\xff\xd8\xff"), ("jpeg", b"\xff\xd8\xff"),
                                        ("svg", b"<?xml"), ("pdf", b"%PDF"), ("PNG", b"\x89PNG")])
def test_plot_format_follows_the_extension(files, tmp_path, ext, magic):
    data, pred = files
    out = tmp_path / f"plot.{ext}"
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 20, "--plot", out, "-o", tmp_path / "r.txt")
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(magic)


@pytest.mark.parametrize("name, needle", [("plot.bmp", "unknown image format '.bmp'"), ("plot", "has no file extension"),
                                          ("plot.pgf", "unknown image format '.pgf'")])
def test_unknown_plot_extension_is_refused_before_scoring(files, tmp_path, name, needle):
    data, pred = files
    out = tmp_path / "r.txt"
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 20, "--plot", tmp_path / name, "-o", out)
    assert res.exit_code == 2 and needle in res.stderr and "png" in res.stderr
    assert not out.exists() and not (tmp_path / name).exists()
    res = run("demo", "--bootstrap", 0, "--plot", tmp_path / name)
    assert res.exit_code == 2 and needle in res.stderr


def test_repeated_by_entries_are_used_once_with_a_note(files):
    data, pred = files
    once = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--by", "domain", "-f", "json")
    twice = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--by", "domain,domain", "-f", "json")
    assert twice.exit_code == 0
    assert json.loads(twice.stdout)["groups"] == json.loads(once.stdout)["groups"]
    assert [g["value"] for g in json.loads(twice.stdout)["groups"]] == ["all", "售后支持", "情感陪伴"]
    assert "note: --by names 'domain' more than once; each is used once" in twice.stderr
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--rouge-types", "rouge1,rouge1",
              "--metrics", "bleu,rouge,bleu", "-f", "json")
    assert res.exit_code == 0 and [m["name"] for m in json.loads(res.stdout)["metrics"]] == ["bleu", "rouge1"]
    from zheval.adapters.duck.evaluate import evaluate_predictions
    from zheval.adapters.duck.load import load_duck

    with pytest.raises(ValueError, match="more than once"):
        evaluate_predictions(load_duck(data), PREDS, by=["domain", "domain"], bootstrap=0)


# ---- output permissions ------------------------------------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664), (0o000, 0o666)])
def test_outputs_honour_the_umask(files, tmp_path, umask, mode):
    data, pred = files
    old = os.umask(umask)
    try:
        plain = tmp_path / "plain.txt"
        with open(plain, "w") as fh:  # what a normal open gives
            fh.write("x")
        atomic_write(tmp_path / "a.txt", "x")
        res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "-o", tmp_path / "r.json", "-f", "json",
                  "--plot", tmp_path / "p.png", "--by", "domain")
        assert res.exit_code == 0, res.output
    finally:
        os.umask(old)
    assert (os.stat(plain).st_mode & 0o777) == mode
    for f in ("a.txt", "r.json", "p.png"):
        assert (os.stat(tmp_path / f).st_mode & 0o777) == mode, f


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_rewriting_an_existing_file_keeps_its_mode(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("old")
    os.chmod(p, 0o640)
    atomic_write(p, "new")
    assert p.read_text() == "new" and (os.stat(p).st_mode & 0o777) == 0o640


def test_atomic_write_replaces_or_leaves_nothing(tmp_path):
    p = tmp_path / "r.txt"
    atomic_write(p, "一")
    atomic_write(p, "二")
    assert p.read_text(encoding="utf-8") == "二"
    with pytest.raises(OSError):
        atomic_write(tmp_path / "missing" / "r.txt", "x")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["r.txt"]


# ---- a folder named zheval shadowing the package ----------------------------------------------------------------------------

_SHADOW = r"""
import importlib.machinery, importlib.util, os, runpy, sys
repo = sys.argv[1]

class EditableFinder:
    # what setuptools' editable-install finder does: serve zheval.* from the source tree after the path search
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if not name.startswith("zheval."):
            return None
        base = os.path.join(repo, *name.split("."))
        if os.path.isdir(base):
            return importlib.util.spec_from_file_location(name, os.path.join(base, "__init__.py"),
                                                          submodule_search_locations=[base])
        if os.path.exists(base + ".py"):
            return importlib.util.spec_from_file_location(name, base + ".py")
        return None

sys.path[:] = [os.getcwd()] + [p for p in sys.path[1:] if os.path.abspath(p) != os.path.abspath(repo)]
sys.meta_path.insert(sys.meta_path.index(importlib.machinery.PathFinder) + 1, EditableFinder)
import zheval
assert zheval.__file__ is None, zheval  # the clone folder, imported as a namespace package
sys.argv = ["zheval", "demo"]
runpy.run_module("zheval", run_name="__main__", alter_sys=True)
"""


def test_python_m_zheval_from_the_folder_holding_a_clone_says_so(tmp_path):
    clone = tmp_path / "zheval"  # a clone of the repository: its top folder has no __init__.py
    (clone / "docs").mkdir(parents=True)
    (clone / "README.md").write_text("# zheval\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", _SHADOW, str(REPO)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert f"Python imported the folder {clone} as the 'zheval' package" in proc.stderr
    assert "Run from another directory" in proc.stderr and "Traceback" not in proc.stderr
