"""zheval compare --test ar and more than two systems: on real dialogue data (CrossWOZ same-query groups, two
references per item), BLEU with --preset sacrebleu-zh gives exactly the p-values of sacrebleu's own PairedTest
(test_type='ar', and 'bs' for the default test) run here on the same texts and seed — for each system against A,
overall and per domain. Bad input: a system with a different number of predictions names its file; --resamples
below 1 names the option; --resamples with the bootstrap test and an unknown --test are refused."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run, twin, write_jsonl

DOMAINS = ("生活咨询", "售后支持", "情感陪伴")


@pytest.fixture()
def systems(tmp_path, crosswoz_groups):
    groups = [g for g in crosswoz_groups if len(g["responses"]) >= 4][:60]
    data, a, b, c = [], [], [], []
    for k, g in enumerate(groups):
        rid = f"q{k}"
        r = g["responses"]
        data.append({"id": rid, "query": g["query"], "responses": r[2:4], "domain": DOMAINS[k % 3],
                     "difficulty": None})
        a.append(r[0])
        b.append(r[1])
        c.append(r[0][: max(1, len(r[0]) // 2)])  # A truncated: a clearly worse system
    files = {"data": write_jsonl(tmp_path / "data.jsonl", data)}
    for name, texts in (("a", a), ("b", b), ("c", c)):
        preds = [{"id": f"q{k}", "prediction": t} for k, t in enumerate(texts)]
        files[name] = write_jsonl(tmp_path / f"{name}.jsonl", preds)
    return files, data, {"A": a, "B": b, "C": c}


def _sacrebleu_p(texts, refs, test, trials, seed, monkeypatch):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    named = [(k, v) for k, v in texts.items()]
    _, res = PairedTest(named, {"BLEU": BLEU(tokenize="zh")}, [list(x) for x in zip(*refs)], test_type=test,
                        n_samples=trials)()
    return {name: (r.score, r.p_value) for name, r in zip([k for k, _ in named], res["BLEU"])}


@pytest.mark.parametrize("test, flags", [("ar", ["--test", "ar", "--resamples", 700]), ("bs", ["--bootstrap", 300])])
def test_three_systems_match_sacrebleu_paired_test_overall_and_per_domain(systems, tmp_path, monkeypatch, test, flags):
    files, data, texts = systems
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], files["c"], "--metrics", "bleu",
              "--preset", "sacrebleu-zh", "--by", "domain", "--seed", 4321, *flags, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    trials = flags[-1]
    assert rep["params"]["test"] == ("ar" if test == "ar" else "bootstrap")
    assert all(v.endswith(f"{k.lower()}.jsonl") for k, v in rep["params"]["systems"].items())
    assert list(rep["params"]["systems"]) == ["A", "B", "C"]
    rows = {(r["group"], r["system"]): r for r in rep["comparison"]}
    assert len(data) >= 45 and len(rows) == 2 * 4  # (overall + 3 domains) x (B, C)
    for group in ("overall", *[f"domain={d}" for d in DOMAINS]):
        keep = [k for k, row in enumerate(data) if group == "overall" or group == f"domain={row['domain']}"]
        sub = {name: [t[k] for k in keep] for name, t in texts.items()}
        expected = _sacrebleu_p(sub, [data[k]["responses"] for k in keep], test, trials, 4321, monkeypatch)
        for system in ("B", "C"):
            row = rows[(group, system)]
            assert row["p_value"] == expected[system][1], (group, system)
            assert row["score_b"] * 100 == pytest.approx(expected[system][0], abs=1e-9)
            assert row["score_a"] * 100 == pytest.approx(expected["A"][0], abs=1e-9)
            assert row["delta_low"] <= row["delta"] <= row["delta_high"]
            assert row["test"] == rep["params"]["test"]
    table = run("compare", "-d", files["data"], "-p", files["a"], files["b"], files["c"], "--metrics", "bleu",
                "--preset", "sacrebleu-zh", "--seed", 4321, *flags, "-q").stdout  # (300 resamples: a caution on stderr)
    assert "system" in table.splitlines()[3] and "compared with A separately" in table
    # every column names its subject: the system X, its score X and X − A (not a bare "score" / "− A")
    assert table.splitlines()[3].split()[3:8] == ["system", "X", "A", "X", "X"]
    assert "X − A [95% CI]" in table.splitlines()[3]
    if test == "ar":
        assert "p (AR)" in table and "approximate-randomisation p-value" in table


def _sacrebleu_signature(texts, refs, test, trials, seed, monkeypatch) -> dict:
    """The resampling fields of sacrebleu's own PairedTest signature: ``{"ar": "700", "seed": "4321"}``."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    sigs, _ = PairedTest(list(texts.items()), {"BLEU": BLEU(tokenize="zh")}, [list(x) for x in zip(*refs)],
                         test_type=test, n_samples=trials)()
    fields = dict(f.split(":", 1) for f in str(sigs["BLEU"]).split("|"))
    return {k: v for k, v in fields.items() if k in ("ar", "bs", "seed")}


@pytest.mark.parametrize("test, flags, fields", [
    ("ar", ["--test", "ar", "--resamples", 500, "--bootstrap", 100], {"bs": "100", "ar": "500", "seed": "4321"}),
    ("bs", ["--bootstrap", 100], {"bs": "100", "seed": "4321"}),
])
def test_the_signature_and_rows_name_the_paired_test(systems, tmp_path, monkeypatch, test, flags, fields):
    """Break-it pass 12: --test ar signatures read bs:100|seed:12345 alone, as a --test bootstrap run's, though the
    p-values differ, and the rows said "n_resamples": 100 beside "n_trials": 500. The test's field is sacrebleu's
    PairedTest's own (ar:500 / bs:100, then seed), beside the interval's bs:100; the rows name whose count is
    which."""
    from zheval.results.signature import parse_signature

    files, data, texts = systems
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], "--metrics", "bleu,rouge", "--seed", 4321,
              *flags, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    theirs = _sacrebleu_signature({k: texts[k] for k in ("A", "B")}, [r["responses"] for r in data], test,
                                  flags[flags.index("--resamples") + 1] if test == "ar" else 100, 4321, monkeypatch)
    for metric in ("bleu", "rouge"):
        ours = {k: v for k, v in parse_signature(rep["signatures"][metric]).items() if k in ("ar", "bs", "seed")}
        assert ours == fields and {k: ours[k] for k in theirs} == theirs, rep["signatures"][metric]
        assert list(ours) == list(fields)  # bs, ar, seed: zheval bleu --confidence --paired-ar's order
    for row in rep["comparison"]:
        assert row["ci_resamples"] == 100 and row["test_resamples"] == (500 if test == "ar" else 100)
        assert "n_resamples" not in row and "n_trials" not in row


def test_two_systems_keep_the_two_system_table(systems):
    files, _, _ = systems
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], "--metrics", "bleu", "--test", "ar",
              "--resamples", 200, "-q")
    assert res.exit_code == 0, res.output
    header = res.output.splitlines()[3].split()
    assert header[:5] == ["group", "n", "metric", "A", "B"] and "system" not in header
    assert "compared with A separately" not in res.output


def test_identical_system_under_ar_is_no_difference(systems, tmp_path):
    files, _, _ = systems
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", files["data"], "-p", files["a"], twin(files["a"]), "--test", "ar", "--resamples", 99,
              "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    for row in json.loads(out.read_text(encoding="utf-8"))["comparison"]:
        # no trial can differ strictly more than 0: p = (0 + 1) / (99 + 1)
        assert row["delta"] == 0.0 and row["no_difference"] is True and row["p_value"] == 1 / 100


def test_a_system_of_another_length_names_its_file(systems, tmp_path):
    files, data, texts = systems
    short = tmp_path / "short.txt"
    short.write_text("".join(t.replace("\n", " ") + "\n" for t in texts["B"][:-1]), encoding="utf-8")
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], short, "-q")
    assert res.exit_code == 2
    assert "system C" in res.output and "short.txt" in res.output and f"{len(data) - 1} predictions for {len(data)} items" in res.output


@pytest.mark.parametrize("bad", [0, -3])
def test_resamples_below_one_names_the_option(systems, bad):
    files, _, _ = systems
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], "--test", "ar", "--resamples", bad)
    assert res.exit_code == 2 and "--resamples" in res.output


def test_resamples_with_the_bootstrap_test_and_an_unknown_test_are_refused(systems):
    files, _, _ = systems
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], "--resamples", 500, "-q")
    assert res.exit_code == 2 and "--resamples 500 is for --test ar" in res.output
    res = run("compare", "-d", files["data"], "-p", files["a"], files["b"], "--test", "permutation", "-q")
    assert res.exit_code == 2 and "unknown --test 'permutation'; valid: bootstrap, ar" in res.output


def test_library_refuses_bad_test_options(systems):
    from zheval.adapters.duck import load_duck
    from zheval.adapters.compare import compare_predictions

    files, _, texts = systems
    ds = load_duck(files["data"])
    with pytest.raises(ValueError, match="unknown test 'x'"):
        compare_predictions(ds, texts["A"], texts["B"], test="x")
    with pytest.raises(ValueError, match="resamples must be an int from 1"):
        compare_predictions(ds, texts["A"], texts["B"], test="ar", resamples=0)
    with pytest.raises(ValueError, match="system B"):
        compare_predictions(ds, texts["A"], texts["B"][:-1], test="ar", resamples=10)
