"""Break-it pass (wording): ``zheval chrf -f json`` had no ``"warnings"`` while ``zheval bleu -f json`` had one,
so a script reading chrF's JSON never saw a copied reference file, an input slip or a resampling caution; neither
JSON counted the blank lines scored under ``--allow-empty-hypotheses`` among its warnings, and the copy warning was
printed on stderr only. Both now carry the same list under the same key; ``zheval bertscore
--allow-empty-hypotheses`` said nothing of the blank lines it scored, and now counts them as the other doors do."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run
from zheval.text.normalize import BLANK_SCORED

REFS = ["猫坐在垫子上", "今天天气很好", "我们去公园"]


def _lines(path, lines):
    path.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
    return path


def _warnings(command, *args):
    res = run(command, *args, "-f", "json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["warnings"], res.stderr


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_a_copied_reference_file_is_in_the_json(tmp_path, command):
    ref = _lines(tmp_path / "ref.txt", REFS)
    copy = _lines(tmp_path / "copy.txt", REFS)
    said, stderr = _warnings(command, ref, "-i", copy)
    text = f"-i {copy} holds the same text as reference {ref} (every line equal)"
    assert [w for w in said if w.startswith(text)], said
    assert stderr.count(text) == 1, stderr  # still on stderr, once


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_blank_lines_are_counted_in_the_json(tmp_path, command):
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上", "\u200b", ""])
    said, stderr = _warnings(command, ref, "-i", hyp, "--allow-empty-hypotheses")
    assert f"{hyp}: 2 empty hypothesis line(s) ({BLANK_SCORED})" in said, said
    assert stderr.count("2 empty hypothesis line(s)") == 1, stderr


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_the_same_warnings_under_the_same_key(tmp_path, command):
    """An input slip (-t none on unsegmented Chinese, chrF++ words) and a resampling caution: in both JSONs."""
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上面", "今天天气不错", "我们去公园玩"])
    words = ["-cw", "2"] if command == "chrf" else []
    said, _ = _warnings(command, ref, "-i", hyp, "-t", "none", *words)
    assert any(w.startswith("--tokenizer none splits on whitespace only") for w in said), said
    said, _ = _warnings(command, ref, "-i", hyp, "-ci", "-cin", 5)
    assert any(w.startswith("caution: the μ ± 95% CI comes from 5 bootstrap resamples") for w in said), said
    said, _ = _warnings(command, ref, "-i", hyp)
    assert said == []  # the key is there when nothing is said


def test_bertscore_counts_the_blank_lines_it_scores(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from helpers.tiny_bert import make_tiny_bert

    model = make_tiny_bert(tmp_path / "tiny", layers=2, seed=2)
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上", "\u200b", "我们去公园"])
    res = run("bertscore", ref, "-i", hyp, "--model", model, "--layer", "2", "--device", "cpu",
              "--allow-empty-hypotheses")
    assert res.exit_code == 0, res.output
    assert f"zheval: note: {hyp}: 1 empty hypothesis line(s) ({BLANK_SCORED})" in res.stderr, res.stderr


@pytest.fixture(scope="module")
def crosswoz():
    """Real CrossWOZ replies: hypotheses responses[0], references responses[1], and one empty hypothesis."""
    from helpers import read_jsonl

    rows = read_jsonl("crosswoz_same_query_groups.jsonl")
    return [r["responses"][0] for r in rows][:-1] + [""], [r["responses"][1] for r in rows]


def _sacrebleu_zh(hyps, refs) -> float:
    import sacrebleu

    return sacrebleu.corpus_bleu(hyps, [refs], tokenize="zh").score


@pytest.mark.parametrize("command", ["bleu", "chrf"])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_lines_written_as_json_strings_are_refused(tmp_path, crosswoz, command, ascii_only):
    """Break-it 21: print(json.dumps(text)) lines were scored with their quotes and escapes (an empty hypothesis
    became "", no longer empty): a file whose every line is a JSON string is refused at FILE:1, hypotheses and
    references alike; the texts written raw score as sacrebleu scores them."""
    hyps, refs = crosswoz
    ref = _lines(tmp_path / "ref.txt", refs)
    hyp = _lines(tmp_path / "hyp.txt", [json.dumps(h, ensure_ascii=ascii_only) for h in hyps])
    res = run(command, ref, "-i", hyp)
    assert res.exit_code == 2, res.output
    assert f"{hyp}:1: every non-blank line ({len(hyps)}) is a JSON string literal" in res.stderr
    assert "zheval score -p FILE.jsonl" in res.stderr and "Traceback" not in res.stderr
    jref = _lines(tmp_path / "jref.txt", [json.dumps(r, ensure_ascii=ascii_only) for r in refs])
    res = run(command, jref, "-i", _lines(tmp_path / "raw.txt", hyps), "--allow-empty-hypotheses")
    assert res.exit_code == 2 and f"{jref}:1: every non-blank line ({len(refs)})" in res.stderr
    if command == "bleu":  # the texts written raw: sacrebleu's number
        res = run("bleu", ref, "-i", tmp_path / "raw.txt", "--allow-empty-hypotheses", "--preset", "sacrebleu-zh",
                  "-f", "json", "-w", 10)
        got = json.loads(res.stdout)["systems"][0]["scores"]["bleu"]
        assert got == pytest.approx(_sacrebleu_zh(hyps, refs), abs=1e-9)


def test_some_escaped_lines_are_said_and_the_preset_scores_as_sacrebleu(tmp_path, crosswoz):
    hyps, refs = crosswoz
    ref = _lines(tmp_path / "ref.txt", refs)
    lines = [json.dumps(h) for h in hyps[:2]] + ['"好的"'] + hyps[3:]  # 2 escaped; quoted speech is text
    hyp = _lines(tmp_path / "hyp.txt", lines)
    args = ("--allow-empty-hypotheses", "--preset", "sacrebleu-zh", "-w", 10)
    said, stderr = _warnings("bleu", ref, "-i", hyp, *args)
    text = (f"{hyp}: 2 of {len(hyps) - 1} non-blank line(s) are JSON string literals with escapes (first at "
            f"{hyp}:1")
    assert [w for w in said if w.startswith(text)], said
    assert stderr.count(text) == 1, stderr
    res = run("bleu", ref, "-i", hyp, *args, "-f", "json")
    got = json.loads(res.stdout)["systems"][0]["scores"]["bleu"]
    assert got == pytest.approx(_sacrebleu_zh(lines, refs), abs=1e-9)  # scored as written: the number unchanged
    # --preset sacrebleu-zh reads every line as sacrebleu does: a file of JSON strings is scored so, and said
    jhyp = _lines(tmp_path / "jhyp.txt", [json.dumps(h, ensure_ascii=False) for h in hyps])
    res = run("bleu", ref, "-i", jhyp, *args, "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [w for w in out["warnings"] if w.startswith(f"{jhyp}: every non-blank line ({len(hyps)}) is a JSON")]
    assert out["systems"][0]["scores"]["bleu"] == pytest.approx(
        _sacrebleu_zh([json.dumps(h, ensure_ascii=False) for h in hyps], refs), abs=1e-9)


def test_lines_in_quotes_without_an_escape_are_said_when_half_the_file_is_so(tmp_path, crosswoz):
    """Break-it (JSON quotes): a hypothesis file with most lines '"..."' from json.dumps(text, ensure_ascii=False)
    (no escape) but not all was scored with its quotes without a word; now one warning naming the count and the
    first FILE:line with that line; scored as written (sacrebleu's number on the lines as they are). A quarter of
    the lines in quotes (answers quoted) says nothing."""
    hyps, refs = crosswoz
    ref = _lines(tmp_path / "ref.txt", refs)
    n = len(hyps) - 1  # the last hypothesis is empty
    args = ("--allow-empty-hypotheses", "--preset", "sacrebleu-zh", "-w", 10)
    for share, said_it in ((2, True), (4, False)):
        lines = [json.dumps(h, ensure_ascii=False) if k % share == 0 and h else h for k, h in enumerate(hyps)]
        hyp = _lines(tmp_path / f"hyp{share}.txt", lines)
        quoted = sum(1 for t in lines if t.startswith('"'))
        said, _ = _warnings("bleu", ref, "-i", hyp, *args)
        text = f"{hyp}: {quoted} of {n} non-blank line(s) are JSON string literals, "
        shown = lines[0] if len(lines[0]) <= 40 else lines[0][:40] + "…"
        assert bool([w for w in said if w.startswith(text) and f"(first at {hyp}:1: {shown})" in w]) == said_it, said
        res = run("bleu", ref, "-i", hyp, *args, "-f", "json")
        got = json.loads(res.stdout)["systems"][0]["scores"]["bleu"]
        assert got == pytest.approx(_sacrebleu_zh(lines, refs), abs=1e-9)
