"""An option that means something only beside another is refused when given without it (break-it F8), as
``compare --resamples`` without ``--test ar`` and ``explain --seed`` without ``--sample`` are: ``clean --no-dedup
--dedup-threshold 0.5`` dropped the threshold, ``score --plot-by X`` without ``--plot`` and ``--html-metric M``
without ``--html`` were ignored. Only options the user typed count (their defaults are not refused). Also
``score --buckets`` with an empty entry or a number outside the number rule (break-it F3)."""

from __future__ import annotations

import pytest

from tests.helpers.cli import run_cli, write_sample_files


@pytest.mark.parametrize("extra, message", [
    (["--plot-by", "nonexist"], "--plot-by is the group column drawn by --plot; add --plot FILE"),
    (["--html-metric", "foo"], "--html-metric chooses the items of the HTML report; add --html FILE"),
    (["--plot-by", "domain", "--html-metric", "bleu"],
     "--plot-by is the group column drawn by --plot; add --plot FILE; "
     "--html-metric chooses the items of the HTML report; add --html FILE"),
])
def test_score_refuses_an_option_without_the_one_it_serves(tmp_path, extra, message):
    data, preds, _, _ = write_sample_files(tmp_path)
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", *extra)
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: {message}\n"


def test_ceiling_refuses_plot_by_without_plot(tmp_path):
    data, _, _, _ = write_sample_files(tmp_path)
    r = run_cli("ceiling", "-d", data, "--bootstrap", "0", "--plot-by", "domain")
    assert r.exit_code == 2
    assert r.stderr == "zheval: error: --plot-by is the group column drawn by --plot; add --plot FILE\n"


@pytest.mark.parametrize("extra, message", [
    (["--no-dedup", "--dedup-threshold", "0.5"],
     "--dedup-threshold is the threshold of near-duplicate removal, which --no-dedup skips; give one of them"),
    (["--write-normalized", "--no-normalize"],
     "--write-normalized writes the normalised texts, which --no-normalize turns off; give one of them"),
])
def test_clean_refuses_options_that_contradict(tmp_path, extra, message):
    data, _, _, _ = write_sample_files(tmp_path)
    out = tmp_path / "clean.jsonl"
    r = run_cli("clean", data, "-o", out, "-q", *extra)
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: {message}\n"
    assert not out.exists()


def test_defaults_are_not_refused(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    assert run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0").exit_code == 0
    r = run_cli("clean", data, "-o", tmp_path / "clean.jsonl", "--no-dedup")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("value, message", [
    ("10,,20", "--buckets '10,,20' has an empty entry (entry 2)"),
    ("10,20,", "--buckets '10,20,' has an empty entry (entry 3)"),
    (",10", "--buckets ',10' has an empty entry (entry 1)"),
    ("１０,20", "--buckets must be a comma list of numbers, e.g. 10,20,50; entry 1 '１０' is not a number ('１' "
               "(U+FF11 FULLWIDTH DIGIT ONE) is not an ASCII digit 0-9)"),
    ("1_0,20", "--buckets must be a comma list of numbers, e.g. 10,20,50; entry 1 '1_0' is not a number ('_' is not "
               "accepted in a number (neither as a digit separator nor as a decimal point))"),
])
def test_score_buckets_refuses_a_bad_entry(tmp_path, value, message):
    data, preds, _, _ = write_sample_files(tmp_path)
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "--buckets", value)
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: {message}\n"


def test_plot_by_outside_the_grouping_names_the_right_fix(tmp_path):
    """Break-it (words13 F6): ``score -p p.jsonl --group-field g --plot x.png --plot-by zz`` said "(use --by)",
    while the report was grouped by g already: --plot-by must name one of the grouping fields."""
    from tests.helpers.cli import write_jsonl

    preds = write_jsonl(tmp_path / "p.jsonl", [{"predict": "今天天气好", "label": "今天天气很好", "g": "a"},
                                               {"predict": "我去公园玩", "label": "我们去公园", "g": "b"},
                                               {"predict": "明天穿外套", "label": "明天记得穿外套", "g": "a"}])
    res = run_cli("score", "-p", preds, "--group-field", "g", "--plot", tmp_path / "x.png", "--plot-by", "zz",
                  "--bootstrap", "0")
    assert res.exit_code != 0 and "use --by" not in res.stderr, res.output
    assert ("nothing to plot by 'zz': the report is grouped by 'g'; --plot-by (plot_by) must be one of them, a field "
            "given with --by or --group-field") in res.stderr, res.stderr
