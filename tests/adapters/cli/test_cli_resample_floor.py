"""One bootstrap resample is refused at every door with the library's message (issue 35, F3): it has no spread,
so its "interval" is one resampled score (which need not hold the score) and numpy warns about zero degrees of
freedom. 0 still means "no interval"; two resamples is the floor (sacrebleu computes an interval only for more
than one). Approximate-randomisation trials are not resamples and keep their floor of 1."""

from __future__ import annotations

import pytest

import zheval
from zheval.compute.batches import score_batches
from zheval.compute.joint import score_config

from helpers.cli import run_cli as run
from helpers.cli import write_sample_files

FLOOR = "one resample has no spread"


@pytest.fixture
def files(tmp_path):
    data, preds, txt, _ = write_sample_files(tmp_path)
    refs = tmp_path / "refs.txt"
    refs.write_text(txt.read_text(encoding="utf-8"), encoding="utf-8")
    return data, preds, txt, refs


@pytest.mark.parametrize("door", ["score", "ceiling", "compare", "bleu -ci", "chrf -ci", "bleu -pbs", "chrf -pbs"])
def test_one_resample_is_refused_by_every_command(files, door):
    data, preds, txt, refs = files
    args = {
        "score": ("score", "-d", data, "-p", preds, "--bootstrap", 1),
        "ceiling": ("ceiling", "-d", data, "--bootstrap", 1),
        "compare": ("compare", "-d", data, "-p", preds, txt, "--bootstrap", 1),
        "bleu -ci": ("bleu", refs, "-i", txt, "-ci", "-cin", 1),
        "chrf -ci": ("chrf", refs, "-i", txt, "-ci", "-cin", 1),
        "bleu -pbs": ("bleu", refs, "-i", txt, refs, "-pbs", "-pbsn", 1),
        "chrf -pbs": ("chrf", refs, "-i", txt, refs, "-pbs", "-pbsn", 1),
    }[door]
    res = run(*args, *(() if door.startswith(("bleu", "chrf")) else ("-q",)))
    assert res.exit_code == 2, res.output
    assert FLOOR in " ".join(res.output.split())
    assert "Traceback" not in res.output


def test_two_resamples_and_ar_trials_of_one_are_accepted(files):
    data, preds, txt, refs = files
    assert run("score", "-d", data, "-p", preds, "--bootstrap", 2, "-q").exit_code == 0
    assert run("bleu", refs, "-i", txt, refs, "-par", "-parn", 1).exit_code == 0


def test_the_engine_doors_refuse_one_resample():
    with pytest.raises(ValueError, match=FLOOR):
        score_config(["bleu", "rouge"], bootstrap=1)
    with pytest.raises(ValueError, match=FLOOR):
        score_batches([(["猫"], ["猫"])], ["bleu"], bootstrap=1)
    with pytest.raises(ValueError, match=FLOOR):
        zheval.score(["猫坐着", "狗"], ["猫坐着", "狗"], bootstrap_method="poisson", bootstrap=1)


RULE = "the number of resamples must be {zero}an int from 2 to 100000 resamples, got {n}"  # no constant names
TRIALS = ("the number of trials must be an int from 1 to 100000 approximate-randomisation "
          "trials, got {n}")


def _door_args(files, door: str, n: int) -> tuple:
    data, preds, txt, refs = files
    return {
        "score": ("score", "-d", data, "-p", preds, "-q", "--bootstrap", n),
        "ceiling": ("ceiling", "-d", data, "-q", "--bootstrap", n),
        "compare": ("compare", "-d", data, "-p", preds, txt, "-q", "--bootstrap", n),
        "bleu -ci": ("bleu", refs, "-i", txt, "-ci", "-cin", n),
        "chrf -ci": ("chrf", refs, "-i", txt, "-ci", "-cin", n),
        "bleu -pbs": ("bleu", refs, "-i", txt, refs, "-pbs", "-pbsn", n),
        "chrf -pbs": ("chrf", refs, "-i", txt, refs, "-pbs", "-pbsn", n),
        "bleu -par": ("bleu", refs, "-i", txt, refs, "-par", "-parn", n),
        "chrf -par": ("chrf", refs, "-i", txt, refs, "-par", "-parn", n),
        "compare --resamples": ("compare", "-d", data, "-p", preds, txt, "-q", "--test", "ar", "--resamples", n),
    }[door]


@pytest.mark.parametrize("door", ["score", "ceiling", "compare", "bleu -ci", "chrf -ci", "bleu -pbs", "chrf -pbs",
                                  "bleu -par", "chrf -par", "compare --resamples"])
def test_every_refused_count_states_the_one_rule_of_its_option(files, door):
    # break-it leftover: 'compare --bootstrap 0' said click's "0 is not in the range x>=1" while '--bootstrap 1' said
    # "must be 0 (no interval) or an int from 2" (0 was then refused); every refused count of an option now states
    # the same rule, 0 included only where it means "no interval" (score, ceiling)
    zero_ok = door in ("score", "ceiling")
    trials = door.endswith(("-par", "--resamples"))
    for n in (0, 1, -1, 100_001):
        if (n == 0 and zero_ok) or (n == 1 and trials):
            continue  # accepted: no interval / one coarse trial
        res = run(*_door_args(files, door, n))
        assert res.exit_code == 2, (n, res.output)
        text = " ".join(res.output.split())
        want = TRIALS.format(n=n) if trials else RULE.format(zero="0 (no interval) or " if zero_ok else "", n=n)
        assert want in text, (n, text)
        assert "is not in the range" not in text


def test_the_library_states_the_rule_of_compare_too(files):
    from zheval.adapters.compare import compare_predictions
    from zheval.adapters.duck import load_duck as load

    data, preds, txt, _ = files
    data = load(data)
    for n in (0, 1):
        with pytest.raises(ValueError, match=r"^bootstrap must be an int from 2 \(MIN_BOOTSTRAP_RESAMPLES\)"):
            compare_predictions(data, preds, txt, bootstrap=n)
