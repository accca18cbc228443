"""zheval's OpenCompass evaluators inside the REAL OpenCompass 0.5.4 (zheval/adapters/harness_opencompass.py): its
``BaseEvaluator`` (the evaluators' base class), its ``OpenICLEvalTask`` run in process as
``opencompass/tasks/openicl_eval.py`` runs it (real ``JsonlDataset``, real ``BaseEvaluator.evaluate``, the result file
written by mmengine), and the ``opencompass cfg.py -m eval -r`` command on stored predictions. Numbers are checked
against OpenCompass's own ``JiebaRougeEvaluator`` on the same real pairs and against zheval's library computed
directly (x 100). Made from ``shared/realclient/opencompass_check.py``.

OpenCompass is heavy (its evaluation path is about 2 GB with CPU torch) and pins numpy<2, so these tests run in their
own venv: ``bash .ci/opencompass`` builds it from ``.ci/opencompass-requirements.txt`` and runs this file with
``ZHEVAL_REQUIRE_OPENCOMPASS=1``, under which a missing OpenCompass is an error. Elsewhere the file is skipped with
one line. The evaluators' numbers and bad-input rules without OpenCompass: ``test_opencompass_scores.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from helpers import REPO, realpairs

REQUIRED = os.environ.get("ZHEVAL_REQUIRE_OPENCOMPASS", "") == "1"
try:
    from opencompass.openicl.icl_evaluator import BaseEvaluator, JiebaRougeEvaluator
except ImportError as exc:  # the main venv: no OpenCompass
    if REQUIRED:
        raise ImportError(f"ZHEVAL_REQUIRE_OPENCOMPASS=1 but OpenCompass does not import: {exc}") from exc
    pytest.skip(f"OpenCompass is not installed ({exc}); the real-OpenCompass tests run in their own venv: "
                "bash .ci/opencompass", allow_module_level=True)

from datasets import Dataset  # noqa: E402
from mmengine.config import ConfigDict  # noqa: E402
from opencompass.datasets import JsonlDataset  # noqa: E402
from opencompass.models import HuggingFacewithChatTemplate  # noqa: E402
from opencompass.openicl.icl_inferencer import GenInferencer  # noqa: E402
from opencompass.openicl.icl_prompt_template import PromptTemplate  # noqa: E402
from opencompass.openicl.icl_retriever import ZeroRetriever  # noqa: E402
from opencompass.tasks.openicl_eval import OpenICLEvalTask  # noqa: E402
from opencompass.utils.text_postprocessors import general_postprocess  # noqa: E402

import zheval  # noqa: E402
from zheval.adapters import harness_opencompass as OC  # noqa: E402

MODEL_ABBR = "stored-preds"
MODEL = dict(type=HuggingFacewithChatTemplate, abbr=MODEL_ABBR, path="none", max_out_len=128, batch_size=1,
             run_cfg=dict(num_gpus=0))
RT3 = ["rouge1", "rouge2", "rougeL"]


# ---------------------------------------------------------------------------------------------------------------
# helpers: data files, stored predictions, dataset configs, the in-process evaluation task
# ---------------------------------------------------------------------------------------------------------------

def write_jsonl(path: Path, rows) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def dataset(abbr, path, out_col, evaluator, in_col="document", **eval_extra):
    return dict(abbr=abbr, type=JsonlDataset, path=str(path),
                reader_cfg=dict(input_columns=[in_col], output_column=out_col),
                infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template="请用一句话概括：{%s}\n概括：" % in_col),
                               retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer, max_out_len=128)),
                eval_cfg=dict(evaluator=evaluator, **eval_extra))


def write_predictions(work_dir: Path, abbr: str, preds) -> None:
    d = work_dir / "predictions" / MODEL_ABBR
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{abbr}.json").write_text(json.dumps({str(i): {"origin_prompt": "", "prediction": p}
                                                for i, p in enumerate(preds)}, ensure_ascii=False), encoding="utf-8")


def result_file(work_dir: Path, abbr: str) -> dict:
    return json.loads((work_dir / "results" / MODEL_ABBR / f"{abbr}.json").read_text(encoding="utf-8"))


def run_eval_task(work_dir: Path, cases) -> dict:
    """``OpenICLEvalTask(cfg).run()`` on stored predictions, one dataset per case ``(dataset cfg, predictions)``;
    returns ``{abbr: result file}`` (a dataset whose evaluation failed has no result file: absent)."""
    for ds, preds in cases:
        write_predictions(work_dir, ds["abbr"], preds)
    cfg = ConfigDict(models=[MODEL], datasets=[[ds for ds, _ in cases]], work_dir=str(work_dir),
                     eval=dict(runner=dict(task=dict(dump_details=True))))
    OpenICLEvalTask(cfg).run()
    out = {}
    for ds, _ in cases:
        path = work_dir / "results" / MODEL_ABBR / f"{ds['abbr']}.json"
        if path.exists():
            out[ds["abbr"]] = json.loads(path.read_text(encoding="utf-8"))
    return out


def only(value):
    """A value as OpenCompass keeps it: a non-number becomes a one-element list when the evaluator gives details."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def eval_set(references) -> Dataset:
    """A test set as OpenCompass's ``BaseDataset`` gives it to ``evaluate``: with ``subdivision`` and ``idx``."""
    return Dataset.from_list([{"subdivision": "test", "idx": i, "answer": r} for i, r in enumerate(references)])


@pytest.fixture(scope="module")
def pairs():
    single = realpairs.single()
    mp, mr = realpairs.multi()
    sp = [p for v in single.values() for p in v[0]]
    sr = [r for v in single.values() for r in v[1]]
    return {"single": single, "multi": (mp[:60], mr[:60]), "all": (sp, sr)}


# ---------------------------------------------------------------------------------------------------------------
# the base class and the docs' dataset config through OpenICLEvalTask
# ---------------------------------------------------------------------------------------------------------------

def test_the_evaluators_subclass_the_real_base_evaluator():
    assert OC.OPENCOMPASS_BASE is BaseEvaluator
    assert issubclass(OC.ZhevalRougeEvaluator, BaseEvaluator) and issubclass(OC.ZhevalBleuEvaluator, BaseEvaluator)


def test_docs_config_bleu_and_postprocessor_through_openicl_eval_task(tmp_path, pairs):
    mp, mr = pairs["multi"]
    data = write_jsonl(tmp_path / "data" / "zh_multi.jsonl",
                       [{"document": f"问题{i}", "references": r} for i, r in enumerate(mr)])
    gp = [general_postprocess(p) for p in mp]
    assert all(gp), "every post-processed prediction must keep some text for this check"
    got = run_eval_task(tmp_path / "work", [
        # the docs' config: tokenizer="jieba", default types, pred_role="BOT"
        (dataset("zh-docs", data, "references", dict(type=OC.ZhevalRougeEvaluator, tokenizer="jieba"),
                 pred_role="BOT"), mp),
        (dataset("zh-bleu", data, "references", dict(type=OC.ZhevalBleuEvaluator)), mp),
        # a registered OpenCompass post-processor by name, applied by the real BaseEvaluator before score
        (dataset("zh-general", data, "references", dict(type=OC.ZhevalRougeEvaluator, rouge_types=["rouge1", "rouge2"],
                                                        pred_postprocessor=dict(type="general"))), mp),
    ])
    ours = zheval.compute_rouge(mp, mr, tokenizer="jieba")
    res = got["zh-docs"]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert res[t] == 100 * ours[t]
    assert only(res["signature"]) == ours["signature"]
    assert len(res["details"]) == len(mp) and all("rouge1" in d for d in res["details"])
    assert got["zh-bleu"]["bleu"] == 100 * zheval.compute_bleu(mp, mr)["bleu"]
    general = zheval.compute_rouge(gp, mr, rouge_types=["rouge1", "rouge2"])
    assert got["zh-general"]["rouge1"] == 100 * general["rouge1"]
    assert got["zh-general"]["rouge2"] == 100 * general["rouge2"]


def test_chrf_evaluator_through_openicl_eval_task(tmp_path, pairs):
    """ZhevalChrfEvaluator in the real evaluation task: its number is zheval's chrF x 100 (sacrebleu's CHRF on the
    normalised text), chrF++ with jieba's words too, the statistics nested, the details at sentence level."""
    assert issubclass(OC.ZhevalChrfEvaluator, BaseEvaluator)
    mp, mr = pairs["multi"]
    data = write_jsonl(tmp_path / "data" / "zh_chrf.jsonl",
                       [{"document": f"问题{i}", "references": r} for i, r in enumerate(mr)])
    got = run_eval_task(tmp_path / "work", [
        (dataset("zh-chrf", data, "references", dict(type=OC.ZhevalChrfEvaluator)), mp),
        (dataset("zh-chrfpp", data, "references", dict(type=OC.ZhevalChrfEvaluator, tokenizer="jieba", word_order=2,
                                                       level="sentence")), mp),
    ])
    assert got["zh-chrf"]["chrf"] == 100 * zheval.compute_chrf(mp, mr)["chrf"]
    assert only(got["zh-chrf"]["statistics"])["name"] == "chrF2"
    want = zheval.compute_chrf(mp, mr, tokenizer="jieba", word_order=2, level="sentence")
    res = got["zh-chrfpp"]
    assert res["chrf"] == 100 * want["chrf"] and only(res["signature"]) == want["signature"]
    assert [only(d["chrf"]) for d in res["details"]] == [100 * s for s in want["scores"]]  # (kept as one-element lists)


def test_references_column_all_str_or_all_lists_mixing_fails_in_opencompass_loader(tmp_path, pairs):
    """The docs' reader config comment: one str per row or a list per row, all rows alike -- OpenCompass's own
    ``JsonlDataset`` refuses a column that mixes both (pyarrow), before any evaluator runs."""
    mp, mr = pairs["multi"]
    rows = [{"document": f"问题{i}", "references": r} for i, r in enumerate(mr)]
    all_str = write_jsonl(tmp_path / "str.jsonl", [dict(r, references=r["references"][0]) for r in rows])
    mixed = write_jsonl(tmp_path / "mixed.jsonl", [dict(r, references=r["references"][0] if i % 2 else r["references"])
                                                   for i, r in enumerate(rows)])
    assert len(JsonlDataset.load(str(all_str))) == len(rows)
    with pytest.raises(Exception, match="cannot mix list and non-list|Expected bytes, got a 'list' object"):
        JsonlDataset.load(str(mixed))
    docs = (REPO / "docs" / "harnesses.md").read_text(encoding="utf-8")
    assert "a str or a list of str per row" not in docs
    assert 'output_column="references")  # one str per row, or a list of str per row: all rows alike' in docs


# ---------------------------------------------------------------------------------------------------------------
# presets through the evaluators
# ---------------------------------------------------------------------------------------------------------------

def test_opencompass_preset_through_the_task_equals_the_real_jieba_rouge_evaluator(tmp_path, pairs):
    """The preset's own numbers (tokenizer, types and scale all the preset's) equal OpenCompass's JiebaRougeEvaluator
    run in the same task on the same 1,700 real pairs; with only preset= given (no tokenizer, no rouge_types)."""
    sp, sr = pairs["all"]
    data = write_jsonl(tmp_path / "data" / "qa.jsonl", [{"question": f"q{i}", "answer": r} for i, r in enumerate(sr)])
    got = run_eval_task(tmp_path / "work", [
        (dataset("oc-jieba-rouge", data, "answer", dict(type=JiebaRougeEvaluator), in_col="question"), sp),
        (dataset("zheval-preset", data, "answer", dict(type=OC.ZhevalRougeEvaluator, preset="opencompass-jieba-rouge",
                                                       details=False), in_col="question"), sp),
    ])
    theirs, ours = got["oc-jieba-rouge"], got["zheval-preset"]
    for t in RT3:
        assert ours[f"opencompass_{t}"] == theirs[t], t
    assert "rougeLsum" not in ours
    assert ours["counts"] == {"opencompass_placeholder_predictions": 0, "opencompass_placeholder_references": 0}
    assert "tok:jieba-0.42.1" in ours["signature"] and "preset:opencompass-jieba-rouge" in ours["signature"]


def test_opencompass_preset_with_its_types_given_keeps_its_tokenizer_and_scale(pairs):
    """rouge_types given, tokenizer not: the preset's tokenizer still applies (not the evaluator's "char": 17.62
    against 9.29 on these pairs once), and its numbers, already 0-100, are not multiplied by 100 again."""
    preds, refs = (x[:200] for x in pairs["single"]["crosswoz_next_reply"])
    ev = OC.ZhevalRougeEvaluator(preset="opencompass-jieba-rouge", rouge_types=RT3, details=False)
    got = ev.evaluate(1, 1, eval_set(refs), predictions=preds, references=refs)
    theirs = JiebaRougeEvaluator().score(preds, refs)
    assert [got[f"opencompass_{t}"] for t in RT3] == [theirs[t] for t in RT3]


def test_opencompass_preset_per_item_equals_jieba_rouge_evaluator(pairs):
    """Per item, on the CSL lead-sentence/title pairs (ASCII ``,`` and ``.`` throughout: the truncation rule)."""
    preds, refs = pairs["single"]["csl_lead_title"]
    details = OC.ZhevalRougeEvaluator(preset="opencompass-jieba-rouge").score(preds, refs)["details"]
    for i, (p, r) in enumerate(zip(preds, refs)):
        theirs = JiebaRougeEvaluator().score([p], [r])
        assert [details[i][t] for t in RT3] == [theirs[t] for t in RT3], i


@pytest.mark.parametrize("preset, keys", [("longbench", ["longbench_rouge_l", "longbench_rouge_l_uncut"]),
                                          ("glm4", ["glm4_rouge_1", "glm4_rouge_2", "glm4_rouge_l"]),
                                          ("llamafactory", ["llamafactory_rouge_1", "llamafactory_rouge_l"])])
def test_rouge_presets_through_the_real_evaluate_equal_the_library(preset, keys, pairs):
    """preset= alone: the preset's tokenizer and types; its own numbers (0-100) unchanged, zheval's x 100."""
    preds, refs = pairs["single"]["crosswoz_next_reply"]
    preds, refs = preds[:200], refs[:200]
    ev = OC.ZhevalRougeEvaluator(preset=preset, details=False)
    got = ev.evaluate(1, 1, eval_set(refs), predictions=preds, references=refs)
    lib = zheval.compute_rouge(preds, [[r] for r in refs], preset=preset)
    for k in keys:
        assert got[k] == lib[k], k
    types = [t for t in lib if t.startswith("rouge")]
    assert types and all(got[t] == 100 * lib[t] for t in types)
    assert only(got["signature"]) == lib["signature"]


@pytest.mark.parametrize("preset, key, scale", [("glm4", "glm4_bleu_4", 100), ("llamafactory", "llamafactory_bleu_4", 1)])
def test_bleu_presets_forward_their_own_number_on_0_100(preset, key, scale, pairs):
    """GLM-4's BLEU-4 is 0-1 (x 100 here), LLaMA-Factory's is 0-100 (unchanged); both with the preset's tokenizer."""
    preds, refs = pairs["single"]["crosswoz_next_reply"]
    preds, refs = preds[:200], refs[:200]
    got = OC.ZhevalBleuEvaluator(preset=preset).evaluate(1, 1, eval_set(refs), predictions=preds, references=refs)
    lib = zheval.compute_bleu(preds, [[r] for r in refs], preset=preset)
    assert got[key] == scale * lib[key]
    assert got["bleu"] == 100 * lib["bleu"]
    assert only(got["signature"]) == lib["signature"]


@pytest.mark.parametrize("preset", ["opencompass-jieba-rouge", "glm4", "llamafactory"])
def test_a_type_the_preset_refuses_is_an_error_naming_that_preset(preset):
    with pytest.raises(ValueError, match=f"preset '{preset}' computes rougeN .* and rougeL .* only.*rougeLsum"):
        OC.ZhevalRougeEvaluator(preset=preset, rouge_types=["rouge1", "rougeLsum"])


def test_the_real_base_refuses_a_callable_postprocessor_type():
    """OpenCompass looks ``type`` up in its registry (the evaluators' docstring says to name a registered one)."""
    ev = OC.ZhevalRougeEvaluator(rouge_types=["rouge1"], pred_postprocessor=dict(type=lambda s: s))
    with pytest.raises(TypeError, match="must be a str"):
        ev.evaluate(1, 1, eval_set(["北京今天天气很好"]), predictions=["北京今天天气晴朗"], references=["北京今天天气很好"])


# ---------------------------------------------------------------------------------------------------------------
# input slips reach the OpenCompass user
# ---------------------------------------------------------------------------------------------------------------

def _traditional(texts):
    import opencc

    return [opencc.OpenCC("s2t").convert(t) for t in texts]


def test_input_slips_are_in_the_result_file(tmp_path, pairs):
    preds, refs = pairs["single"]["crosswoz_next_reply"]
    preds, refs = preds[:100], refs[:100]
    data = write_jsonl(tmp_path / "data" / "qa.jsonl", [{"question": f"q{i}", "answer": r} for i, r in enumerate(refs)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = run_eval_task(tmp_path / "work", [
            (dataset("trad", data, "answer", dict(type=OC.ZhevalRougeEvaluator), in_col="question"),
             _traditional(preds)),
            (dataset("none", data, "answer", dict(type=OC.ZhevalBleuEvaluator, tokenizer="none"), in_col="question"),
             preds),
            (dataset("clean", data, "answer", dict(type=OC.ZhevalRougeEvaluator), in_col="question"), preds),
        ])
    trad, none = (json.dumps(got[abbr]["warnings"], ensure_ascii=False) for abbr in ("trad", "none"))
    assert "look like Traditional Chinese" in trad and "t2s=True" in trad
    assert 'tokenizer=\\"none\\" splits on whitespace only' in none
    assert "warnings" not in got["clean"]


# ---------------------------------------------------------------------------------------------------------------
# the opencompass command
# ---------------------------------------------------------------------------------------------------------------

def docs_python_blocks() -> list[str]:
    """The Python blocks of docs/harnesses.md's OpenCompass reference section, verbatim."""
    import re

    from helpers.docs import doc_section

    return re.findall(r"```python\n(.*?)```", doc_section("## OpenCompass (`zheval"), flags=re.S)


# after the docs' two blocks (the dataset config; the preset's eval_cfg): one dataset for each, one for the slip
CLI_TAIL = """
zh_preset_datasets = [dict(abbr="zh-preset", type=JsonlDataset, path="data/zh_single.jsonl",
                           reader_cfg=zh_reader_cfg, infer_cfg=zh_infer_cfg, eval_cfg=zh_eval_cfg)]
zh_traditional = [dict(abbr="zh-traditional", type=JsonlDataset, path="data/zh_single.jsonl", reader_cfg=zh_reader_cfg,
                       infer_cfg=zh_infer_cfg, eval_cfg=dict(evaluator=dict(type=ZhevalBleuEvaluator)))]
datasets = zh_datasets + zh_preset_datasets + zh_traditional
from opencompass.models import HuggingFacewithChatTemplate
models = [dict(type=HuggingFacewithChatTemplate, abbr="stored-preds", path="none", max_out_len=128, batch_size=1,
               run_cfg=dict(num_gpus=0))]
"""


def test_the_docs_config_through_the_opencompass_command(tmp_path, pairs):
    """docs/harnesses.md's dataset config and its preset eval_cfg, verbatim, run by ``opencompass cfg.py -m eval -r``
    on stored predictions from the folder that holds ``data/zh_summary.jsonl`` (the config's relative path)."""
    blocks = docs_python_blocks()
    assert len(blocks) == 2 and "zh_datasets = [" in blocks[0] and 'preset="opencompass-jieba-rouge"' in blocks[1]
    mp, mr = pairs["multi"]
    sp, sr = (x[:300] for x in pairs["single"]["crosswoz_next_reply"])
    write_jsonl(tmp_path / "data" / "zh_summary.jsonl", [{"document": f"问题{i}", "references": r}
                                                          for i, r in enumerate(mr)])
    write_jsonl(tmp_path / "data" / "zh_single.jsonl", [{"document": f"问题{i}", "references": r}
                                                         for i, r in enumerate(sr)])
    (tmp_path / "cfg.py").write_text(blocks[0] + "\n" + blocks[1] + CLI_TAIL, encoding="utf-8")
    stored = tmp_path / "work" / "stored"
    for abbr, preds in (("zh-summary-zheval", mp), ("zh-preset", sp), ("zh-traditional", _traditional(sp))):
        write_predictions(stored, abbr, preds)
    # the subprocesses import the zheval of this checkout (the one under test)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    cli = str(Path(sys.executable).parent / "opencompass")
    p = subprocess.run([cli, "cfg.py", "-m", "eval", "-r", "stored", "-w", "work"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    ours = zheval.compute_rouge(mp, mr, tokenizer="jieba")
    docs = result_file(stored, "zh-summary-zheval")
    assert [docs[t] for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")] == [
        100 * ours[t] for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")]
    assert len(docs["details"]) == len(mp)
    theirs, preset = JiebaRougeEvaluator().score(sp, sr), result_file(stored, "zh-preset")
    assert [preset[f"opencompass_{t}"] for t in RT3] == [theirs[t] for t in RT3]
    # the summary table: the preset's number as OpenCompass prints its own (2 decimals), never x 100 again
    table = {tuple(line.split()[:1] + line.split()[2:3]): line.split()[-1] for line in p.stdout.splitlines()
             if line.startswith("zh-")}
    assert table[("zh-preset", "opencompass_rouge1")] == f"{theirs['rouge1']:.2f}"
    assert table[("zh-summary-zheval", "rougeLsum")] == f"{100 * ours['rougeLsum']:.2f}"
    # the Traditional/Simplified slip: in the result file, the summary file's raw section and the task's log
    trad = result_file(stored, "zh-traditional")
    assert "look like Traditional Chinese" in trad["warnings"][0]
    summary = next((stored / "summary").glob("summary_*.txt")).read_text(encoding="utf-8")
    assert "look like Traditional Chinese" in summary.split("raw format", 1)[1]
    log = (stored / "logs" / "eval" / MODEL_ABBR / "zh-traditional.out").read_text(encoding="utf-8")
    assert "OpenCompass - WARNING - zheval: the predictions look like Traditional Chinese" in log
