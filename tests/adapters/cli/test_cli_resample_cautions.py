"""Break-it pass (few resamples): ``--bootstrap 2`` printed a "95% interval" that need not even contain the score,
without a word. A count below `SOUND_RESAMPLES` (1000: sacrebleu's default ``--confidence-n`` / ``--paired-bs-n``,
and Efron & Tibshirani 1993's advice for a percentile interval) is computed, never refused, with a caution -- in the
report's notes and JSON and on stderr at the CLI, as a ``ResamplingWarning`` in the library -- and an interval that
does not contain its own score says so. BLEU is checked against sacrebleu; whether an interval holds its score is
read from the numbers the result itself gives beside the caution."""

from __future__ import annotations

import json
import re
import warnings

import pytest

import zheval

from helpers.cli import run_cli as run, write_sample_files

FEW = "caution: the interval comes from 2 bootstrap resamples, fewer than 1000"
PREDS = ["今天天气很好", "我们去公园", "好的马上处理", "谢谢"]
REFS = [["今天天气不错"], ["我们去公园散步"], ["好的，马上处理"], ["谢谢您"]]


def _outside(d: dict, name: str) -> bool:
    return not d[f"{name}_ci_low"] <= d[name] <= d[f"{name}_ci_high"]


def test_the_threshold_and_the_messages():
    from zheval.results.reducers import SOUND_RESAMPLES, resample_cautions

    assert SOUND_RESAMPLES == 1000
    assert resample_cautions(1000, [("x", 0.5, 0.4, 0.6)]) == []
    assert resample_cautions(0, [("x", 0.5, 0.6, 0.7)]) != []  # no count to blame, the interval still misses
    few = resample_cautions(999, [("x", 0.5, 0.4, 0.6)])
    assert len(few) == 1 and "999 bootstrap resamples, fewer than 1000" in few[0]
    out = resample_cautions(2, [("bleu", 0.5597, 0.5000, 0.5581), ("rouge1", 0.8, 0.7, 0.9)])
    assert len(out) == 2 and "bleu 0.5597 outside [0.5000, 0.5581]" in out[1] and "rouge1" not in out[1]


def test_the_library_warns_and_still_computes():
    from sacrebleu.metrics import BLEU

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = zheval.compute_bleu(PREDS, REFS, bootstrap=2)
    assert res["bleu"] * 100 == pytest.approx(BLEU(tokenize="zh").corpus_score(PREDS, [[r[0] for r in REFS]]).score,
                                              abs=1e-9)
    said = [str(w.message) for w in caught if issubclass(w.category, zheval.ResamplingWarning)]
    assert any(FEW in s for s in said), said
    assert _outside(res, "bleu")  # this seed's two resamples miss the score, and the warning says so
    assert any(f"bleu {res['bleu']:.4f} outside [{res['bleu_ci_low']:.4f}, {res['bleu_ci_high']:.4f}]" in s
               for s in said), said
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zheval.compute_rouge(PREDS, REFS, bootstrap=1000)
        zheval.compute_chrf(PREDS, REFS)
    assert not [w for w in caught if issubclass(w.category, zheval.ResamplingWarning)]
    for call in (lambda: zheval.compute_chrf(PREDS, REFS, bootstrap=5),
                 lambda: zheval.compute_rouge(PREDS, REFS, bootstrap=5),
                 lambda: zheval.score(PREDS, REFS, bootstrap=5, bootstrap_method="poisson")):
        with pytest.warns(zheval.ResamplingWarning, match="5 bootstrap resamples"):
            call()


@pytest.mark.parametrize("door", ["score", "ceiling", "compare"])
def test_report_doors_note_and_stderr(tmp_path, door):
    data, preds, txt, _ = write_sample_files(tmp_path)
    args = {"score": ("score", "-d", data, "-p", preds), "ceiling": ("ceiling", "-d", data),
            "compare": ("compare", "-d", data, "-p", preds, txt)}[door]
    out = tmp_path / "r.json"
    res = run(*args, "--bootstrap", 2, "--by", "none", "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    notes = json.loads(out.read_text(encoding="utf-8"))["notes"]
    what = "interval of X − A" if door == "compare" else "interval"
    assert any(n.startswith(f"caution: the {what} comes from 2 bootstrap resamples") for n in notes), notes
    assert f"zheval: caution: the {what} comes from 2 bootstrap resamples" in res.stderr
    # the option typed, never the library's keyword: "(--bootstrap)", not "(bootstrap, --bootstrap)"
    asked = re.compile(r"give 1000 or more \(([^)]*)\)")
    assert asked.findall(" ".join(res.stderr.split())) == ["--bootstrap"], res.stderr
    assert asked.findall(" ".join(" ".join(notes).split())) == ["--bootstrap"], notes
    res = run(*args, "--bootstrap", 1000, "--by", "none", "-q", "-f", "json")
    assert "caution" not in res.stderr and not [n for n in json.loads(res.stdout)["notes"] if "caution" in n]


def test_score_says_when_an_interval_misses_its_score(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 2, "--by", "none", "-q", "-f", "json")
    rep = json.loads(res.stdout)
    missed = [k for k, v in rep["groups"][0]["scores"].items() if not v["low"] <= v["value"] <= v["high"]]
    assert missed  # two resamples of three items: some interval misses its score
    said = [n for n in rep["notes"] if "does not contain its own point estimate" in n]
    assert len(said) == 1 and all(f"(overall) {rep['groups'][0]['scores'][k]['value']:.4f} outside" in said[0]
                                  for k in missed)


@pytest.mark.parametrize("cmd", [("bleu", "--bootstrap", 2), ("rouge", "--bootstrap", 2), ("bleu", "-ci", "-cin", 5),
                                 ("chrf", "-ci", "-cin", 5)])
def test_text_file_commands_caution_on_stderr(tmp_path, cmd):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r[0] + "\n" for r in REFS), encoding="utf-8")
    hyp.write_text("".join(p + "\n" for p in PREDS), encoding="utf-8")
    res = run(cmd[0], ref, "-i", hyp, *cmd[1:])
    assert res.exit_code == 0, res.output
    n = cmd[-1]
    assert f"caution: the {'μ ± 95% CI' if '-ci' in cmd else 'interval'} comes from {n} bootstrap resamples" in \
        " ".join(res.stderr.split()), res.stderr


def test_text_file_paired_bootstrap_cautions_in_json(tmp_path):
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("".join(r[0] + "\n" for r in REFS), encoding="utf-8")
    a.write_text("".join(p + "\n" for p in PREDS), encoding="utf-8")
    b.write_text("".join(p[:-1] + "\n" for p in PREDS), encoding="utf-8")
    res = run("bleu", ref, "-i", a, b, "--bootstrap", 20, "-f", "json")
    assert res.exit_code == 0, res.output
    said = json.loads(res.stdout)["warnings"]
    assert any("the interval of Δ comes from 20 bootstrap resamples" in w for w in said), said


HYP10, REF10 = "猫坐在垫子上看书", "狗坐在垫子上面睡觉"


def test_float_noise_is_not_a_miss(tmp_path):
    """Ten identical items: every resample is the same ten, so each bound is the score summed in another order
    (0.588235294117647 against 0.5882352941176471). That is no exclusion, at any door; a real one still is."""
    from zheval.results.reducers import resample_cautions

    assert resample_cautions(1000, [("rouge1", 0.5882352941176471, 0.588235294117647, 0.588235294117647)]) == []
    assert resample_cautions(1000, [("x", 58.82352941176471, 58.8235294117647, 58.8235294117647)]) == []
    assert resample_cautions(1000, [("x", 0.5882, 0.5881, 0.58819)]) != []  # a real miss, however small
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zheval.compute_rouge([HYP10] * 10, [[REF10]] * 10, bootstrap=1000)
        zheval.compute_bleu([HYP10] * 10, [[REF10]] * 10, bootstrap=1000)
    assert not [str(w.message) for w in caught if issubclass(w.category, zheval.ResamplingWarning)]
    ref, hyp = tmp_path / "sr.txt", tmp_path / "sh.txt"
    ref.write_text(f"{REF10}\n" * 10, encoding="utf-8")
    hyp.write_text(f"{HYP10}\n" * 10, encoding="utf-8")
    for args in (("rouge", ref, "-i", hyp, "-w", 4), ("bleu", ref, "-i", hyp, "--bootstrap", 1000),
                 ("chrf", ref, "-i", hyp, "-ci")):
        res = run(*args)
        assert res.exit_code == 0 and "outside" not in res.stderr, (args, res.output)
    same = tmp_path / "same.jsonl"
    same.write_text("".join(json.dumps({"id": f"s{i}", "prediction": HYP10, "references": [REF10]},
                                       ensure_ascii=False) + "\n" for i in range(10)), encoding="utf-8")
    res = run("score", "-p", same, "--bootstrap", 1000, "-f", "json")
    assert res.exit_code == 0, res.output
    assert "outside" not in res.stderr and not [n for n in json.loads(res.stdout)["notes"] if "outside" in n]
