"""zheval inside lm-evaluation-harness (zheval/adapters/lm_eval_harness/__init__.py): ``lm_eval.simple_evaluate`` runs offline
on a small local Chinese task (task YAML and JSONL written to tmp_path, a custom ``LM`` returning stored predictions)
and its numbers are zheval's on the same pairs -- ragged references included, none truncated -- with standard
errors for the corpus aggregations; bad documents are named by index.

Nothing touches the network: HF_HUB_OFFLINE / HF_DATASETS_OFFLINE (tests/conftest.py), local ``data_files``, and a
guard that refuses every non-local socket connection during the run. One module-scoped run serves the checks
(measured: the whole file ~15 s on the 2-core CI machine, most of it importing lm-eval and datasets).
"""

from __future__ import annotations

import json
import math
from collections import Counter
import socket
import statistics

import numpy as np
import pytest

pytest.importorskip("lm_eval", reason="lm-eval is in the test extra (pip install -e '.[test]')")

import zheval  # noqa: E402
from zheval.adapters import lm_eval_harness as H  # noqa: E402

# Pure Han texts without punctuation: the char tokenizer's tokens are the characters (the independent checks below
# tokenise with list(text)). Ragged references: 1, 2 or 3 per document; in doc 2 and doc 5 the best reference is
# the LAST one, so a truncation to the shortest reference list (lm-eval's own bleu) would change the numbers.
DOCS = [
    {"id": "d0", "document": "今天北京天气晴朗", "references": ["北京今天天气很好"]},
    {"id": "d1", "document": "会议推迟到下周", "references": ["会议改到下周举行", "下周再开会"]},
    {"id": "d2", "document": "他喜欢在公园跑步", "references": ["她去超市买菜", "天空下着小雨", "他每天在公园里跑步"]},
    {"id": "d3", "document": "这家餐厅的菜很好吃", "references": ["这家饭店的菜非常好吃"]},
    {"id": "d4", "document": "列车晚点了半小时", "references": ["火车晚点半个小时", "列车延误三十分钟"]},
    {"id": "d5", "document": "学生们在图书馆看书", "references": ["老师在讲课", "学生在图书馆里读书"]},
    {"id": "d6", "document": "明天我们去爬山", "references": ["我们明天一起去爬山"]},
    {"id": "d7", "document": "请把窗户关上", "references": ["麻烦关一下窗户", "请关上窗户", "把门关好"]},
]
PREDICTIONS = {
    "d0": "北京今天天气晴朗", "d1": "会议推迟到下周举行", "d2": "他在公园跑步", "d3": "这家餐厅的菜好吃",
    "d4": "列车晚点半小时", "d5": "学生们在图书馆读书", "d6": "我们明天去爬山", "d7": "请关窗户",
}
PREDS = [PREDICTIONS[d["id"]] for d in DOCS]
REFS = [d["references"] for d in DOCS]

ROUGE_TASK = "zheval_zh_multiref"
BLEU_TASK = "zheval_zh_single"
ALL_METRICS = list(H.METRICS)


def _task_yaml(name: str, data: str, body: str, target: str) -> str:
    return (f"task: {name}\n"
            "dataset_path: json\n"
            f"dataset_kwargs:\n  data_files:\n    test: {data}\n"
            "test_split: test\n"
            "output_type: generate_until\n"
            'doc_to_text: "{{document}}"\n'
            f'doc_to_target: "{target}"\n'
            "generation_kwargs:\n  until: [\"\\n\"]\n" + body)


def _write_tasks(directory, docs, target="{{references[0]}}"):
    data = directory / "docs.jsonl"
    data.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), encoding="utf-8")
    # 1) several references per document: process_results_all of the module (ROUGE, BLEU and chrF), every metric,
    #    string-named aggregations
    body = "process_results: !function zheval.adapters.lm_eval_harness.process_results_all\nmetric_list:\n" + "".join(
        f"  - metric: {m}\n    aggregation: {m}\n    higher_is_better: true\n" for m in ALL_METRICS)
    (directory / "multiref.yaml").write_text(_task_yaml(ROUGE_TASK, data, body, target), encoding="utf-8")
    # 2) one reference from doc_to_target, no process_results: registered metric names, !function aggregations
    body = "metric_list:\n" + "".join(
        f"  - metric: zheval_{fn}\n    aggregation: !function zheval.adapters.lm_eval_harness.{fn}\n"
        "    higher_is_better: true\n" for fn in ("bleu_char", "rougeL_jieba"))
    (directory / "single.yaml").write_text(_task_yaml(BLEU_TASK, data, body, target), encoding="utf-8")


def _stored_lm(predictions):
    from lm_eval.api.model import LM

    class StoredPredictions(LM):
        """Returns the stored prediction of each request's document (looked up by the document's id)."""

        def generate_until(self, requests):
            return [predictions[r.doc["id"]] for r in requests]

        def loglikelihood(self, requests):
            raise NotImplementedError("generate_until tasks only")

        def loglikelihood_rolling(self, requests):
            raise NotImplementedError("generate_until tasks only")

    return StoredPredictions()


class Offline:
    """Refuses every socket connection and name lookup that is not for this machine while the run lasts, and fails
    the test afterwards if any was attempted (even one that a library caught and hid)."""

    LOCAL = ("127.0.0.1", "::1", "localhost")

    def __enter__(self):
        self.patch = pytest.MonkeyPatch()
        self.attempts = []
        connect, getaddrinfo = socket.socket.connect, socket.getaddrinfo

        def guarded_connect(sock, address):
            if isinstance(address, tuple) and address[0] not in self.LOCAL:
                self.attempts.append(address)
                raise AssertionError(f"network access during the lm-eval run: {address!r}")
            return connect(sock, address)

        def guarded_getaddrinfo(host, *args, **kwargs):
            if host not in self.LOCAL:
                self.attempts.append(host)
                raise AssertionError(f"name lookup during the lm-eval run: {host!r}")
            return getaddrinfo(host, *args, **kwargs)

        self.patch.setattr(socket.socket, "connect", guarded_connect)
        self.patch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
        return self

    def __exit__(self, *exc):
        self.patch.undo()
        assert not self.attempts, f"network access attempted during the lm-eval run: {self.attempts}"


def _evaluate(directory, predictions, tasks, bootstrap_iters=1000):
    import lm_eval
    from lm_eval.tasks import TaskManager

    with Offline():
        return lm_eval.simple_evaluate(
            model=_stored_lm(predictions), tasks=tasks, bootstrap_iters=bootstrap_iters, log_samples=False,
            task_manager=TaskManager(include_path=str(directory), include_defaults=False))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("lm_eval_tasks")
    _write_tasks(directory, DOCS)
    out = _evaluate(directory, PREDICTIONS, [ROUGE_TASK, BLEU_TASK])
    return out["results"], directory


def test_every_metric_equals_zheval_on_the_same_pairs(run):
    results, _ = run
    res = results[ROUGE_TASK]
    for name, spec in H.METRICS.items():
        if spec.kind == "rouge":
            expected = zheval.compute_rouge(PREDS, REFS, tokenizer=spec.tokenizer)[spec.rouge_type]
        elif spec.kind == "chrf":
            expected = zheval.compute_chrf(PREDS, REFS, **spec.options())["chrf"]  # chrF without words: char
        else:
            expected = zheval.compute_bleu(PREDS, REFS, tokenizer=spec.tokenizer)["bleu"]
        assert res[f"{name},none"] == expected, name
        assert 0 < expected < 1


def test_ragged_references_are_not_truncated(run):
    results, _ = run
    res = results[ROUGE_TASK]
    shortest = min(map(len, REFS))
    truncated = [r[:shortest] for r in REFS]
    assert res["zheval_bleu_char,none"] != zheval.compute_bleu(PREDS, truncated)["bleu"]
    assert res["zheval_rouge1_char,none"] != zheval.compute_rouge(PREDS, truncated)["rouge1"]


def test_rouge_char_numbers_by_an_independent_tool(run):
    """rouge-score on the characters (pure Han text: char tokens are characters), max F over the references."""
    from rouge_score import rouge_scorer

    class Chars:
        def tokenize(self, text):
            return list(text)

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Chars())
    res = run[0][ROUGE_TASK]
    for t in ("rouge1", "rouge2", "rougeL"):
        per_item = [max(scorer.score(r, p)[t].fmeasure for r in refs) for p, refs in zip(PREDS, REFS)]
        assert abs(res[f"zheval_{t}_char,none"] - math.fsum(per_item) / len(per_item)) < 1e-12, t


def test_chrf_numbers_by_sacrebleu(run):
    """sacrebleu's CHRF on the same pairs (pure Han text without punctuation: the normalised text is the text, the
    char tokens are its characters, joined by spaces for chrF++), best reference per document, ragged streams."""
    from sacrebleu.metrics import CHRF

    res = run[0][ROUGE_TASK]
    width = max(map(len, REFS))
    for name, order in (("zheval_chrf_char", 0), ("zheval_chrfpp_char", 2)):
        join = (lambda t: " ".join(t)) if order else (lambda t: t)
        streams = [[join(rs[k]) if k < len(rs) else None for rs in REFS] for k in range(width)]
        theirs = CHRF(word_order=order).corpus_score([join(p) for p in PREDS], streams).score
        assert abs(res[f"{name},none"] * 100 - theirs) < 1e-9, name
    assert res["zheval_chrf_char,none"] == res["zheval_chrf_jieba,none"]  # characters only: the tokenizer plays no part
    assert res["zheval_chrfpp_char,none"] != res["zheval_chrfpp_jieba,none"]  # the words differ


def test_single_reference_task_through_doc_to_target(run):
    res = run[0][BLEU_TASK]
    first = [r[0] for r in REFS]
    assert res["zheval_bleu_char,none"] == zheval.compute_bleu(PREDS, first)["bleu"]
    assert res["zheval_rougeL_jieba,none"] == zheval.compute_rouge(PREDS, first, tokenizer="jieba")["rougeL"]


def _bleu_rows(preds, refs):
    """Per-item BLEU statistics written out (characters as tokens; Papineni clipping by the maximum count over the
    references; the closest reference length, ties to the shorter): [hyp_len, ref_len, matches_1..4, totals_1..4]."""
    rows = []
    for pred, rs in zip(preds, refs):
        hyp = list(pred)
        row = [len(hyp), min((abs(len(r) - len(hyp)), len(r)) for r in rs)[1]]
        matches, totals = [], []
        for n in range(1, 5):
            grams = Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
            best = Counter()
            for r in rs:
                for g, c in Counter(tuple(r[i:i + n]) for i in range(len(r) - n + 1)).items():
                    best[g] = max(best[g], c)
            matches.append(sum(min(c, best[g]) for g, c in grams.items()))
            totals.append(max(len(hyp) - n + 1, 0))
        rows.append(row + matches + totals)
    return np.array(rows, dtype=np.int64)


def _bleu_of_sums(s):
    """Corpus BLEU (0-1) of summed statistics with sacrebleu's default 'exp' smoothing, written out."""
    hyp_len, ref_len, matches, totals = s[0], s[1], s[2:6], s[6:10]
    logs, smooth = [], 1.0
    for m, t in zip(matches, totals):
        if t == 0:
            return 0.0
        if m == 0:
            smooth *= 2
            logs.append(math.log(1 / (smooth * t)))
        else:
            logs.append(math.log(m / t))
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    return bp * math.exp(sum(logs) / 4)


def test_standard_errors_of_the_corpus_aggregations(run):
    res = run[0][ROUGE_TASK]
    n = len(PREDS)
    for name, spec in H.METRICS.items():
        se = res[f"{name}_stderr,none"]
        assert isinstance(se, float) and se > 0, (name, se)
        if spec.kind == "rouge":
            # lm-eval's closed form for a mean, written out: sample standard deviation of per-item F / sqrt(n)
            f = zheval.compute_rouge(PREDS, REFS, tokenizer=spec.tokenizer, use_aggregator=False)[spec.rouge_type]
            assert abs(se - statistics.stdev(f) / math.sqrt(n)) < 1e-12, name
    # BLEU, written out: the corpus value, and an independent bootstrap (numpy draws over the written-out per-item
    # statistics, 2000 resamples) that agrees within the Monte-Carlo error of the two estimates (about 3 %: 12 % is
    # 4 standard deviations; both are seeded, so the check is deterministic)
    rows = _bleu_rows(PREDS, REFS)
    assert abs(res["zheval_bleu_char,none"] - _bleu_of_sums(rows.sum(axis=0))) < 1e-12
    rng = np.random.default_rng(0)
    values = [_bleu_of_sums(rows[rng.integers(0, n, n)].sum(axis=0)) for _ in range(2000)]
    independent = statistics.stdev(values)
    ours = res["zheval_bleu_char_stderr,none"]
    assert abs(ours - independent) / independent < 0.12, (ours, independent)
    # reproducible: the same items give the same stderr outside the run
    items = [H.process_results_char(d, [PREDICTIONS[d["id"]]])["zheval_bleu_char"] for d in DOCS]
    assert H.standard_error("zheval_bleu_char", items, 1000) == ours
    # chrF: the same bootstrap over its per-item statistics, reproduced outside the run, and an independent bootstrap
    # written out here (numpy draws, compute_chrf on each resample of the pairs) within the Monte-Carlo error
    for name in H.CHRF_METRICS:
        se = res[f"{name}_stderr,none"]
        items = [H.process_results_chrf(d, [PREDICTIONS[d["id"]]])[name] for d in DOCS]
        assert H.standard_error(name, items, 1000) == se
    spec = H.METRICS["zheval_chrf_char"]
    rng = np.random.default_rng(1)
    draws = [rng.integers(0, n, n) for _ in range(600)]
    values = [zheval.compute_chrf([PREDS[i] for i in d], [REFS[i] for i in d], tokenizer=spec.tokenizer)["chrf"]
              for d in draws]
    independent = statistics.stdev(values)
    assert abs(res["zheval_chrf_char_stderr,none"] - independent) / independent < 0.15


def test_bad_documents_are_named_by_index_in_a_run(tmp_path):
    docs = [dict(d) for d in DOCS]
    del docs[2]["references"]
    docs[5]["references"] = []
    _write_tasks(tmp_path, docs, target="{{document}}")  # a target every document has (few-shot needs it)
    (tmp_path / "single.yaml").unlink()
    with pytest.raises(ValueError) as err:
        _evaluate(tmp_path, PREDICTIONS, [ROUGE_TASK])
    msg = str(err.value)
    assert "2 of 8 documents cannot be scored" in msg
    assert "doc 2: the references are missing (None: the field is null, or absent from this row" in msg
    assert "doc 5: the reference list is empty" in msg


# --- the functions alone (no lm-eval run) ---------------------------------------------------------------------

def _items(pairs, metric="zheval_rouge1_char"):
    fn = H.make_process_results([metric])
    return [fn({"references": refs}, [pred])[metric] for pred, refs in pairs]


def test_missing_field_and_bad_outputs_are_listed_with_their_index():
    fn = H.make_process_results(["zheval_bleu_char"], reference_field="answers")
    items = [fn({"answers": ["好"]}, ["好"])["zheval_bleu_char"],
             fn({"question": "q"}, ["好"])["zheval_bleu_char"],
             fn({"answers": ["好", 3]}, ["好"])["zheval_bleu_char"],
             fn({"answers": "好"}, [None])["zheval_bleu_char"],
             fn({"answers": "好"}, ["a", "b"])["zheval_bleu_char"]]
    with pytest.raises(ValueError) as err:
        H.bleu_char(items)
    msg = str(err.value)
    assert msg.startswith("zheval_bleu_char: 4 of 5 documents cannot be scored")
    assert "doc 1: field 'answers' (the references) is missing; the document's fields: question" in msg
    assert "doc 2: references[1] must be str, got int 3" in msg
    assert "doc 3: the model's output must be one str, got NoneType None" in msg
    assert "doc 4: lm-eval passed list ['a', 'b'] as the document's outputs" in msg
    assert "doc 0" not in msg


def test_empty_reference_is_named_with_its_document():
    items = _items([("好天气", ["天气好"]), ("下雨", ["不下雨", "  "])])
    with pytest.raises(zheval.EmptyReferenceError) as err:
        H.rouge1_char(items)
    assert "references[1][1]" in str(err.value) and "doc 1" in str(err.value)


def test_binarised_scores_from_a_list_valued_target_are_refused():
    with pytest.raises(ValueError, match=r"doc 0: got float 1\.0, not a zheval item.*list-valued doc_to_target"):
        H.bleu_jieba([1.0, 0.0])


def test_document_item_checks_its_call():
    assert H.document_item(references=["参考"], predictions=["预测"]) == ("预测", ["参考"])
    with pytest.raises(ValueError, match="same length.*got 2 references and 1 predictions"):
        H.document_item(references=["a", "b"], predictions=["a"])
    with pytest.raises(TypeError, match="take no options"):
        H.document_item(references=["a"], predictions=["a"], tokenizer="jieba")
    with pytest.raises(TypeError, match="one-element list"):
        H.document_item(references="a", predictions=["a"])


def test_make_process_results_refuses_unknown_metrics():
    with pytest.raises(ValueError, match="unknown zheval lm-eval metric.*'zheval_bleu'.*valid names: zheval_rouge1_char"):
        H.make_process_results(["zheval_bleu"])
    with pytest.raises(ValueError, match="each once"):
        H.make_process_results(["zheval_bleu_char", "zheval_bleu_char"])


def test_make_process_results_reads_a_string_as_a_comma_list():
    # before: tuple("zheval_bleu_char") made the names 'z', 'h', 'e', ... ("unknown zheval lm-eval metric(s) ['z', ...")
    doc = {"references": ["今天天气很好"]}
    fn = H.make_process_results("zheval_bleu_char")
    assert list(fn(doc, ["今天天气很好"])) == ["zheval_bleu_char"]
    fn = H.make_process_results(" zheval_bleu_char , zheval_rouge1_char")  # entries stripped, as split_entries does
    assert list(fn(doc, ["今天天气很好"])) == ["zheval_bleu_char", "zheval_rouge1_char"]
    with pytest.raises(ValueError, match=r"^metrics 'zheval_bleu_char,,zheval_rouge1_char' has an empty entry \(entry 2\)$"):
        H.make_process_results("zheval_bleu_char,,zheval_rouge1_char")
    with pytest.raises(ValueError, match="names no entry"):
        H.make_process_results("")


def test_other_aggregations_keep_lm_evals_stderr():
    import lm_eval.api.metrics as M
    import lm_eval.evaluator_utils as E

    assert E.stderr_for_metric(M.mean, 10) is M.mean_stderr
    assert E.stderr_for_metric(M.bleu, 0) is None
    assert E.stderr_for_metric(H.rouge1_char, 0) is None
    assert E.stderr_for_metric(H.rouge1_char, 10).func is H.standard_error
