"""Explain scores sentence BLEU by design (issue 35): under a preset whose BLEU level is corpus (sacrebleu-zh) or
sentence (llamafactory, whose corpus share is at corpus level), that level is explain's own, not an option the user
overrode: no ``PresetOverrideWarning`` names ``level``, and the signature reads the plain preset. A level the user
gives that departs from the preset's still warns, and the signature then reads ``(overridden:level)``."""

from __future__ import annotations

import json
import warnings

import pytest

import zheval
from tests.helpers.cli import run_cli, write_jsonl

PRED, REFS = "今天天气很好", ["今天天气不错"]


def _explain(**options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        e = zheval.explain(PRED, REFS, **options)
    return e, [str(w.message) for w in caught if issubclass(w.category, zheval.PresetOverrideWarning)]


@pytest.mark.parametrize("preset", ["llamafactory", "sacrebleu-zh"])
def test_explains_own_level_is_no_override(preset):
    e, overrides = _explain(preset=preset)
    assert overrides == []
    assert f"preset:{preset}|" in e["signature"]["bleu"] and "level:sentence" in e["signature"]["bleu"]


def test_a_level_the_user_gives_still_warns_and_marks_the_signature():
    e, overrides = _explain(preset="llamafactory", level="corpus")
    assert len(overrides) == 1 and "level (the preset's: 'sentence')" in overrides[0]
    assert "preset:llamafactory(overridden:level)|" in e["signature"]["bleu"]


@pytest.mark.parametrize("preset", ["llamafactory", "sacrebleu-zh"])
def test_cli_explain_names_no_level_option(tmp_path, preset):
    recs = write_jsonl(tmp_path / "recs.jsonl", [{"id": "a", "prediction": PRED, "references": REFS},
                                                 {"id": "b", "prediction": "我喜欢吃苹果", "references": ["我爱吃苹果"]}])
    r = run_cli("explain", "-p", recs, "--id", "a", "--preset", preset, "-f", "json")
    assert r.exit_code == 0, r.output
    assert "--level" not in r.output and "overridden" not in r.output
    assert f"preset:{preset}|" in r.stdout


def test_per_item_sentence_bleu_column_is_no_override_either():
    """The per-item columns (``score --items``, batches, engines: `zheval.compute.joint.item_scores`) hold each item's
    sentence BLEU by design; under ``sacrebleu-zh`` (corpus level) that warned "level ... overridden" too. The values
    are sacrebleu's own ``sentence_bleu(tokenize="zh")``."""
    from zheval.compute import joint
    from zheval.compute.options import BleuOptions

    preds, refs = [PRED, "我爱吃苹果"], [REFS, ["我喜欢吃苹果"]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cfg = joint.score_config_of({"bleu": BleuOptions(preset="sacrebleu-zh")})
        got = joint.item_scores(joint.score_items(preds, refs, cfg), cfg)["sentence_bleu"]
    assert not [w for w in caught if issubclass(w.category, zheval.PresetOverrideWarning)]
    sacrebleu = pytest.importorskip("sacrebleu")
    want = [sacrebleu.sentence_bleu(p, r, tokenize="zh").score / 100 for p, r in zip(preds, refs)]
    assert list(got) == pytest.approx(want, abs=1e-9)
