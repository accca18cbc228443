"""Break-it pass (max-refs): ``--max-refs K`` where no item has more than K references changes no score, while the
signatures read ``maxrefs:K``. ``zheval score`` said so in one note; ``compare``, ``ceiling`` and ``explain`` said
nothing, and ``sample`` said both "3 were cut" and, from its scoring, "cut nothing" (it counted the references
after cutting them). Every door that takes ``--max-refs`` / ``max_refs`` now gives the one note of
`zheval.results.breakdowns.reference_limit_notes`, word for word, only when the limit cuts nothing."""

from __future__ import annotations

import json

import pytest

from helpers.cli import PREDS, ROWS, run_cli as run, write_jsonl

# the sample's items, the first with a third reference (the ceiling needs two left after a cut)
ITEMS = [{**ROWS[0], "responses": ROWS[0]["responses"] + ["订单页可以申请退货。"]}] + ROWS[1:]
MOST = 3


def _note(k):
    return (f"the reference limit of {k} (max_refs, --max-refs) cut nothing: no item has more than {k} references, "
            f"so every item is scored with all of its references, as without the limit (the signature still reads "
            f"maxrefs:{k})")


@pytest.fixture()
def files(tmp_path):
    rows = [{"id": r["id"], "prediction": p["prediction"], "references": r["responses"]} for r, p in zip(ITEMS, PREDS)]
    other = [{**r, "prediction": r["prediction"][:-2]} for r in rows]
    return (write_jsonl(tmp_path / "data.jsonl", ITEMS), write_jsonl(tmp_path / "a.jsonl", rows),
            write_jsonl(tmp_path / "b.jsonl", other), tmp_path)


def _args(door, files, k):
    data, a, b, tmp = files
    return {
        "score": ("score", "-p", a, "--id-field", "id", "--bootstrap", 0, "-q"),
        "compare": ("compare", "-p", a, b, "--id-field", "id", "--bootstrap", 100, "-q"),
        "compare --data": ("compare", "-d", data, "-p", a, b, "--pred-field", "prediction", "--id-field", "id",
                           "--bootstrap", 100, "-q"),
        "ceiling": ("ceiling", "-d", data, "--bootstrap", 0, "-q"),
        "explain": ("explain", "-p", a, "--id-field", "id", "--worst", 1),
        "sample": ("sample", "-p", a, "--id-field", "id", "--k", 3, "-o", tmp / f"sheet{k}.csv", "--force"),
    }[door] + ("--max-refs", k)


DOORS = ["score", "compare", "compare --data", "ceiling", "explain", "sample"]


@pytest.mark.parametrize("door", DOORS)
def test_a_limit_that_cuts_nothing_is_said_at_every_door(files, door):
    for k in (MOST, MOST + 3):
        res = run(*_args(door, files, k))
        assert res.exit_code == 0, res.output
        out = " ".join(res.output.split())
        assert out.count(_note(k)) == 1, res.output


@pytest.mark.parametrize("door", DOORS)
def test_a_limit_that_cuts_gets_no_such_note(files, door):
    res = run(*_args(door, files, 2))
    assert res.exit_code == 0, res.output
    assert "cut nothing" not in res.output, res.output
    if door in ("score", "compare", "sample"):  # the references line: the first item cut, one reference left out
        assert "0 of 3 item(s) had fewer (they keep theirs), 1 had more (cut; 1 reference(s) left out)" in \
            " ".join(res.output.split()), res.output


def test_the_json_reports_and_the_library(files):
    from zheval.adapters.compare import compare_predictions
    from zheval.adapters.duck import human_ceiling, load_duck
    from zheval.adapters.review.human_review import review_sample

    data, a, b, _ = files
    res = run("compare", "-p", a, b, "--id-field", "id", "--bootstrap", 100, "-q", "-f", "json", "--max-refs", 4)
    assert json.loads(res.stdout)["notes"].count(_note(4)) == 1
    ds = load_duck(str(data))
    preds = [p["prediction"] for p in PREDS]
    assert compare_predictions(ds, preds, preds[::-1], max_refs=MOST, bootstrap=10).notes.count(_note(MOST)) == 1
    assert human_ceiling(ds, max_refs=MOST, bootstrap=0).notes.count(_note(MOST)) == 1
    assert f"note: {_note(MOST)}" in review_sample(ds, preds, 3, max_refs=MOST).messages
    cut = review_sample(ds, preds, 3, max_refs=1)  # the sheet shows the references scored: the first of each
    assert not [m for m in cut.messages if "cut nothing" in m]
    assert all("\n" not in row["references"] if isinstance(row["references"], str) else len(row["references"]) == 1
               for row in cut.sheet)
