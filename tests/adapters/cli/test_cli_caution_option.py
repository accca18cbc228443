"""Break-it pass (wording): the caution about few bootstrap resamples ended "give 1000 or more (bootstrap,
--bootstrap)" everywhere -- the library's keyword at the command line and the command's option in the library. The
library names its keyword only (``bootstrap``); a command names only the option that gave the count, as it spells
it: ``--bootstrap``, or ``--paired-bs-n`` where ``zheval bleu``/``chrf`` take the count from it (``--paired-bs``), or
``--confidence-n`` for sacrebleu's ``μ ± CI`` -- on stderr, in the JSON notes/warnings and on the HTML page."""

from __future__ import annotations

import json
import re
import warnings

import pytest

import zheval

from helpers.cli import run_cli as run, write_sample_files

PREDS = ["今天天气很好", "我们去公园", "好的马上处理", "谢谢"]
REFS = ["今天天气不错", "我们去公园散步", "好的，马上处理", "谢谢您"]


def _asked(text: str) -> list:
    """The arguments every few-resamples caution in ``text`` names for its count (``... or more (X)``)."""
    return re.findall(r"give 1000 or more \(([^)]*)\)", " ".join(text.split()))


def _texts(tmp_path):
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    a.write_text("".join(p + "\n" for p in PREDS), encoding="utf-8")
    b.write_text("".join(p[:-1] + "\n" for p in PREDS), encoding="utf-8")
    return ref, a, b


def test_the_library_names_its_keyword_only(tmp_path):
    from zheval.adapters.duck import load_duck
    from zheval.adapters.duck.evaluate import evaluate_predictions
    from zheval.results.reducers import resample_cautions

    assert _asked(resample_cautions(2)[0]) == ["bootstrap"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zheval.compute_bleu(PREDS, [[r] for r in REFS], bootstrap=2)
    said = [str(w.message) for w in caught if issubclass(w.category, zheval.ResamplingWarning)]
    assert [_asked(s) for s in said if "fewer than" in s] == [["bootstrap"]], said
    data, preds, _, _ = write_sample_files(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = evaluate_predictions(load_duck(str(data)), str(preds), bootstrap=2, by=())
    assert _asked(" ".join(report.notes)) == ["bootstrap"], report.notes
    assert "--bootstrap" not in " ".join(report.notes)


@pytest.mark.parametrize("door", ["score", "compare"])
def test_the_html_page_names_the_option(tmp_path, door):
    data, preds, txt, _ = write_sample_files(tmp_path)
    page = tmp_path / "r.html"
    args = ("score", "-d", data, "-p", preds) if door == "score" else ("compare", "-d", data, "-p", preds, txt)
    res = run(*args, "--bootstrap", 2, "--by", "none", "-q", "--html", page)
    assert res.exit_code == 0, res.output
    assert _asked(page.read_text(encoding="utf-8")) == ["--bootstrap"]


def test_score_without_data_and_streamed(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({"id": f"s{i}", "prediction": p, "references": [r]}, ensure_ascii=False) + "\n"
                            for i, (p, r) in enumerate(zip(PREDS, REFS))), encoding="utf-8")
    for extra in ((), ("--stream",)):
        res = run("score", "-p", rows, "--bootstrap", 2, "-f", "json", *extra)
        assert res.exit_code == 0, res.output
        assert _asked(" ".join(json.loads(res.stdout)["notes"])) == ["--bootstrap"], extra
        assert _asked(res.stderr) == ["--bootstrap"], extra


@pytest.mark.parametrize("cmd,expected", [
    (("bleu", "--bootstrap", 2), ["--bootstrap"]),
    (("rouge", "--bootstrap", 2), ["--bootstrap"]),
    (("bleu", "-ci", "-cin", 5), ["--confidence-n"]),
    (("chrf", "-ci", "-cin", 5), ["--confidence-n"]),
])
def test_text_file_doors_name_the_option(tmp_path, cmd, expected):
    ref, a, _ = _texts(tmp_path)
    res = run(cmd[0], ref, "-i", a, *cmd[1:])
    assert res.exit_code == 0, res.output
    assert _asked(res.stderr) == expected, res.stderr
    if cmd[0] != "chrf":
        res = run(cmd[0], ref, "-i", a, *cmd[1:], "-f", "json")
        assert _asked(" ".join(json.loads(res.stdout)["warnings"])) == expected


@pytest.mark.parametrize("cmd", [("bleu",), ("bleu", "-f", "text"), ("chrf",)])
def test_paired_bs_counts_are_named_as_paired_bs_n(tmp_path, cmd):
    """Under --paired-bs the interval (table/JSON) and sacrebleu's μ ± CI (-f text, chrf) use --paired-bs-n's
    resamples: the caution asks for more of them, not for --bootstrap or --confidence-n, which were not typed."""
    ref, a, b = _texts(tmp_path)
    res = run(cmd[0], ref, "-i", a, b, "--paired-bs", "--paired-bs-n", 20, *cmd[1:])
    assert res.exit_code == 0, res.output
    asked = _asked(res.stderr)
    assert len(asked) >= 2 and set(asked) == {"--paired-bs-n"}, res.stderr


def test_a_typed_bootstrap_and_paired_bs_n_are_named_apart(tmp_path):
    ref, a, b = _texts(tmp_path)
    res = run("bleu", ref, "-i", a, b, "--bootstrap", 20, "-f", "json")  # interval and Δ: both --bootstrap's
    assert set(_asked(" ".join(json.loads(res.stdout)["warnings"]))) == {"--bootstrap"}
    res = run("bleu", ref, "-i", a, b, "--paired-bs", "--paired-bs-n", 20, "-ci", "-cin", 5)
    assert sorted(_asked(res.stderr)) == ["--confidence-n", "--paired-bs-n", "--paired-bs-n"], res.stderr


def test_demo_names_the_option():
    res = run("demo", "--bootstrap", 2, "-f", "json")
    assert res.exit_code == 0, res.output
    assert _asked(" ".join(json.loads(res.stdout)["notes"])) == ["--bootstrap"]
