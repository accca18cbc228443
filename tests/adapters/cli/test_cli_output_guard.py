"""No command writes over one of its inputs, table-driven over every command: each path option of each command is
classified (an input file, an output file, or a directory), and every output option given every input's path is
refused with exit code 2 ("OUT must differ from the input file"), the input left byte for byte as it was (break-it:
``zheval agree -p S.jsonl --judge-ratings jw.jsonl -o jw.jsonl`` replaced the ratings file). ``zheval bertscore``'s
table is in test_cli_bertscore_outputs.py (it needs the bertscore extra)."""

from __future__ import annotations

import inspect
import json

import pytest

from zheval.cli import app

from helpers.cli import run_cli, write_sample_files

#: Every path parameter of every command, by role; a new path option must be classified here.
ROLES = {
    "score": {"in": {"data", "predictions", "terms"}, "out": {"output", "plot", "html", "items_out"},
              "dir": {"bert_model"}},
    "ceiling": {"in": {"data", "terms"}, "out": {"output", "plot"}, "dir": set()},
    "compare": {"in": {"data", "predictions", "more_predictions", "terms"}, "out": {"output", "html"},
                "dir": {"bert_model"}},
    "clean": {"in": {"source"}, "out": {"output", "report_json"}, "dir": set()},
    "demo": {"in": set(), "out": {"output", "plot"}, "dir": set()},  # its inputs are the embedded sample
    "agree": {"in": {"ratings", "key", "scores", "layer_predictions", "rubric", "judge_ratings"},
              "out": {"output", "html"}, "dir": {"judge_cache_dir", "bert_model"}},
    "sample": {"in": {"data", "predictions", "terms"}, "out": {"output", "key"}, "dir": set()},
    "bleu": {"in": {"references", "hypotheses", "terms"}, "out": set(), "dir": set()},
    "rouge": {"in": {"references", "hypotheses", "terms"}, "out": set(), "dir": set()},
    "chrf": {"in": {"references", "hypotheses", "terms"}, "out": set(), "dir": set()},
    "explain": {"in": {"data", "predictions", "terms"}, "out": set(), "dir": set()},
    "bertscore": {"in": {"references", "hypotheses", "bert_baseline"}, "out": {"bert_items"}, "dir": {"bert_model"}},
    "judge": {"in": {"records", "rubric", "versus"}, "out": {"judge_output"}, "dir": {"cache_dir"}},
    "warmup": {"in": set(), "out": set(), "dir": set()},
}

#: The setups of the table: ``(command, [(parameter, flag or None for a positional argument, file)], other
#: arguments, [(output parameter, flag)])``; the files are those of `_files` (``{tmp}`` in an argument: the test's directory). Each output is given each input's path.
SETUPS = [
    ("score", [("data", "-d", "data"), ("predictions", "-p", "preds"), ("terms", "--terms", "terms")],
     ["--bootstrap", "0", "-q"], [("output", "-o"), ("plot", "--plot"), ("html", "--html")]),
    ("score", [("predictions", "-p", "preds"), ("terms", "--terms", "terms")], ["--stream", "-q"],
     [("items_out", "--items-out"), ("output", "-o")]),
    ("ceiling", [("data", "-d", "data"), ("terms", "--terms", "terms")], ["--bootstrap", "0", "-q"],
     [("output", "-o"), ("plot", "--plot")]),
    ("compare", [("data", "-d", "data"), ("terms", "--terms", "terms"), ("predictions", "-p", "preds"),
                 ("predictions", None, "txt"), ("more_predictions", None, "preds2")], ["--bootstrap", "10", "-q"],
     [("output", "-o"), ("html", "--html")]),
    ("clean", [("source", None, "data")], ["-q"], [("output", "-o")]),
    ("clean", [("source", None, "data")], ["-q", "-o", "{tmp}/cleaned.jsonl"], [("report_json", "--report-json")]),
    ("agree", [("ratings", "--ratings", "ratings"), ("key", "--key", "key"), ("scores", "--scores", "scores")], [],
     [("output", "-o")]),
    ("agree", [("layer_predictions", "-p", "data"), ("judge_ratings", "--judge-ratings", "judged"),
               ("rubric", "--rubric", "rubric")], [], [("output", "-o"), ("html", "--html")]),
    ("sample", [("data", "-d", "data"), ("predictions", "-p", "preds"), ("terms", "--terms", "terms_csv")],
     ["--k", "2", "--seed", "1", "-q", "--force"],  # --force overwrites a sheet, never an input
     [("output", "-o"), ("key", "--key")]),
    ("judge", [("records", None, "data"), ("rubric", "--rubric", "rubric"), ("versus", "--versus", "preds")],
     ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"], [("judge_output", "-o")]),
]
ELSEWHERE = {"bertscore"}  # its table: test_cli_bertscore_outputs.py


def _files(tmp_path) -> dict:
    data, preds, txt, terms = write_sample_files(tmp_path)
    files = {"data": data, "preds": preds, "txt": txt, "terms": terms, "terms_csv": tmp_path / "terms.csv"}
    files["terms_csv"].write_bytes(terms.read_bytes())  # a sheet name sample accepts, so the clash is what is refused
    for name, text in (("preds2", preds.read_text(encoding="utf-8")), ("ratings", "id,overall\nq1,3\n"),
                       ("key", json.dumps({"items": []})), ("scores", "id,x\nq1,0.5\n"), ("judged", "{}\n"),
                       ("rubric", json.dumps({"criteria": []}))):
        files[name] = tmp_path / f"{name}.file"
        files[name].write_text(text, encoding="utf-8")
    return files


def _path_parameters(command: str) -> set:
    info = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == command)
    return {n for n, p in inspect.signature(info.callback).parameters.items() if "Path" in str(p.annotation)}


def test_every_path_option_of_every_command_is_classified_and_tested():
    commands = {c.name or c.callback.__name__ for c in app.registered_commands}
    assert commands == set(ROLES)
    for command, roles in ROLES.items():
        assert _path_parameters(command) == roles["in"] | roles["out"] | roles["dir"], command
        if command in ELSEWHERE or not (roles["in"] and roles["out"]):  # nothing to write over
            continue
        setups = [s for s in SETUPS if s[0] == command]
        assert {p for s in setups for p, _, _ in s[1]} == roles["in"], command
        assert {p for s in setups for p, _ in s[3]} == roles["out"], command


CASES = [(command, inputs, extra, out_flag, k) for command, inputs, extra, outs in SETUPS for _, out_flag in outs
         for k in range(len(inputs))]


@pytest.mark.parametrize("command, inputs, extra, out_flag, k", CASES,
                         ids=[f"{c[0]} {c[3]}={c[1][c[4]][1] or c[1][c[4]][0]}" for c in CASES])
def test_an_output_naming_an_input_is_refused(tmp_path, command, inputs, extra, out_flag, k):
    if command == "judge":
        pytest.importorskip("openai")  # the judge extra is checked first (the lowest-versions venv has none)
    files = _files(tmp_path)
    argv = [command]  # a positional argument is given where it stands: compare's C after -p A B, FILE first
    for _, flag, name in inputs:
        argv += [files[name]] if flag is None else [flag, files[name]]
    victim = files[inputs[k][2]]
    before = {n: p.read_bytes() for n, p in files.items()}
    res = run_cli(*argv, *(a.replace("{tmp}", str(tmp_path)) for a in extra), out_flag, victim)
    assert res.exit_code == 2, res.output
    assert f"{out_flag if out_flag != '-o' else '--output'} must differ from the input file" in res.output, res.output
    assert {n: p.read_bytes() for n, p in files.items()} == before


#: Outputs inside an input directory (issue 35 leftovers): ``(command, arguments, the directory's flag, outputs)``;
#: ``{model}`` is a model directory holding ``config.json``, ``{cache}`` a judge cache holding ``answers.sqlite3``.
INSIDE = [
    ("score", ["-d", "{data}", "-p", "{preds}", "--bootstrap", "0", "-q", "--bertscore-model", "{model}"],
     "--bertscore-model", ["-o", "--plot", "--html"]),
    ("compare", ["-d", "{data}", "-p", "{preds}", "{preds2}", "--bootstrap", "10", "-q", "--bertscore-model",
                 "{model}"], "--bertscore-model", ["-o", "--html"]),
    ("agree", ["-p", "{data}", "--judge-ratings", "{judged}", "--bertscore-model", "{model}"], "--bertscore-model",
     ["-o", "--html"]),
    ("agree", ["-p", "{data}", "--judge-url", "http://127.0.0.1:9/v1", "--judge-model", "m", "--judge-cache-dir",
               "{cache}"], "--judge-cache-dir", ["-o", "--html"]),
    ("judge", ["{data}", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cache-dir", "{cache}"],
     "--cache-dir", ["-o"]),
]


@pytest.mark.parametrize("command, args, dir_flag, outs", INSIDE, ids=[f"{c[0]} {c[2]}" for c in INSIDE])
def test_an_output_inside_a_model_or_cache_directory_is_refused(tmp_path, command, args, dir_flag, outs):
    """``zheval score --bertscore-model M -o M/config.json`` replaced the model's config (and a new file in M can be
    read as one of its files); ``zheval judge --cache-dir C -o C/answers.sqlite3`` replaced the answer cache: an
    output anywhere inside a model or cache directory is refused before any work, the directory left as it was."""
    if command == "judge" or "--judge-url" in args:
        pytest.importorskip("openai")
    files = _files(tmp_path)
    model, cache = tmp_path / "model", tmp_path / "cache"
    for d in (model, cache, tmp_path / "sub"):
        d.mkdir()
    (model / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    (cache / "answers.sqlite3").write_bytes(b"SQLite format 3\x00")
    files.update({"model": model, "cache": cache})
    target = model if dir_flag.endswith("model") else cache
    argv = [str(a).format(**files) for a in args]
    for out_flag in outs:
        for out in (target / ("config.json" if target == model else "answers.sqlite3"), target / "new.html",
                    tmp_path / "sub" / ".." / target.name / "x.html", tmp_path / "." / target.name / "y.html"):
            res = run_cli(command, *argv, out_flag, out)
            assert res.exit_code == 2, (out_flag, out, res.output)
            assert f"must not be inside {dir_flag} {target} (" in res.output, res.output
        assert sorted(p.name for p in target.iterdir()) == (["config.json"] if target == model else ["answers.sqlite3"])
    assert (model / "config.json").read_text(encoding="utf-8") == '{"model_type": "bert"}'
    assert (cache / "answers.sqlite3").read_bytes() == b"SQLite format 3\x00"


def test_the_default_judge_cache_is_an_input_directory_too(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    monkeypatch.setenv("ZHEVAL_CACHE_DIR", str(tmp_path / "zc"))
    files = _files(tmp_path)
    (tmp_path / "zc" / "judge").mkdir(parents=True)
    res = run_cli("judge", files["data"], "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "-o",
                  tmp_path / "zc" / "judge" / "answers.sqlite3")
    assert res.exit_code == 2 and f"must not be inside --cache-dir {tmp_path / 'zc' / 'judge'} (" in res.output, \
        res.output
