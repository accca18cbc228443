"""The configurations of the 小黄鸭 adapter (library) and of the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .calls import REPO, call
from .data import TERMS
from .registry import ROUGE_ALL, add, cid, nospace_chars


# -- 小黄鸭 adapter (library) and CLI -----------------------------------------------------------------------------


def duck_configs() -> None:
    D = "duck/lib"

    def ds(ctx, which="test"):
        return call("load_duck", ctx.data.files()[which])

    score_variants = [
        ("default", {}),
        ("bootstrap=0", {"bootstrap": 0}),
        ("jieba+terms+hmm", {"tokenizer": "jieba", "terms": TERMS, "jieba_hmm": True, "bootstrap": 200}),
        ("newline+lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rouge1"], "bootstrap": 100}),
        ("preset=sacrebleu-zh", {"bleu_options": {"preset": "sacrebleu-zh"}, "bootstrap": 100}),
        ("tok=sacrebleu-zh", {"tokenizer": "sacrebleu-zh", "bootstrap": 100}),
        ("tok=llamafactory-char", {"tokenizer": "llamafactory-char", "bootstrap": 100}),
        ("tok=llamafactory-jieba", {"tokenizer": "llamafactory-jieba", "bootstrap": 100}),
        ("bleu-options", {"bleu_options": {"smooth_method": "floor", "max_order": 2, "bp_ref_length": "shortest",
                                           "weights": (0.6, 0.4)}, "bootstrap": 100}),
        ("bleu-level=sentence", {"bleu_options": {"level": "sentence"}}),
        ("confidence=0.9+seed=7", {"confidence": 0.9, "seed": 7, "bootstrap": 300}),
        ("keep_items", {"keep_items": True, "bootstrap": 0}),
        ("metrics=rouge+types=all", {"metrics": ["rouge"], "rouge_types": ROUGE_ALL, "bootstrap": 50}),
        ("metrics=bleu", {"metrics": "bleu", "bootstrap": 50}),
        ("multi=pool", {"multi_ref": "pool", "bootstrap": 50}),
        ("multi=best_recall+by=difficulty", {"multi_ref": "best_recall", "by": ["difficulty"], "bootstrap": 50}),
        ("by=none", {"by": [], "bootstrap": 50}),
        ("by=query", {"by": ["query"], "bootstrap": 0}),
        ("normalize=false", {"normalize": False, "bootstrap": 0}),
        ("t2s", {"t2s": True, "bootstrap": 0}),
        ("callable", {"tokenizer": nospace_chars, "bootstrap": 0}),
        ("num_proc=2", {"num_proc": 2, "bootstrap": 50}),
        ("predictions=list", {"predictions": lambda ctx: [json.loads(x)["prediction"] for x in
                                                          ctx.data.files()["a"].read_text("utf-8").splitlines()]}),
        ("predictions=dict", {"predictions": lambda ctx: {json.loads(x)["id"]: json.loads(x)["prediction"] for x in
                                                          ctx.data.files()["a"].read_text("utf-8").splitlines()}}),
        ("predictions=text", {"predictions": lambda ctx: ctx.data.files()["a_txt"]}),
        ("predictions=llamafactory", {"predictions": lambda ctx: ctx.data.files()["lf"]}),
        ("predictions=missing", {"predictions": lambda ctx: ctx.data.files()["missing"]}),
    ]
    for label, kw in score_variants:
        def run(ctx, kw=kw):
            kw = dict(kw)
            preds = kw.pop("predictions", None)
            preds = preds(ctx) if preds else ctx.data.files()["a"]
            if kw.get("t2s"):
                import opencc

                conv = opencc.OpenCC("s2t")
                preds = {r["id"]: conv.convert(r["prediction"]) for r in map(json.loads,
                         ctx.data.files()["a"].read_text("utf-8").splitlines())}
            return call("evaluate_predictions", ds(ctx), preds, **kw)

        add(cid(D, "evaluate_predictions", opt=label), run)
    for label, kw in (
        ("default", {}), ("multi=mean+by=difficulty", {"multi_ref": "mean", "by": ["difficulty"], "bootstrap": 100}),
        ("types=all+jieba", {"rouge_types": ROUGE_ALL, "tokenizer": "jieba", "bootstrap": 50}),
        ("bleu-options", {"bleu_options": {"smooth_method": "add-k", "max_order": 3}, "bootstrap": 50}),
        ("metrics=bleu+bootstrap=0", {"metrics": ["bleu"], "bootstrap": 0}),
    ):
        add(cid(D, "human_ceiling", opt=label), lambda ctx, kw=kw: call("human_ceiling", ds(ctx, "full"), **kw))
    add(cid(D, "human_ceiling", opt="test-file"), lambda ctx: call("human_ceiling", ds(ctx), bootstrap=100))
    for label, kw in (
        ("default", {}), ("by=domain,difficulty+seed=3", {"by": ["domain", "difficulty"], "bootstrap": 200, "seed": 3}),
        ("jieba+smooth=add-k", {"tokenizer": "jieba", "bleu_options": {"smooth_method": "add-k"}, "bootstrap": 100}),
        ("bootstrap=0", {"bootstrap": 0}), ("conf=0.9+types", {"confidence": 0.9, "bootstrap": 100,
                                                              "rouge_types": ["rouge1", "rougeW"]}),
    ):
        add(cid(D, "compare_predictions", opt=label),
            lambda ctx, kw=kw: call("compare_predictions", ds(ctx), ctx.data.files()["a"], ctx.data.files()["b"], **kw))
    add(cid(D, "compare_predictions", opt="identical"),
        lambda ctx: call("compare_predictions", ds(ctx), ctx.data.files()["a"], ctx.data.files()["a"], bootstrap=100))
    for label, kw in (
        ("default", {}), ("normalize=false", {"normalize": False}), ("chars=2-40", {"min_chars": 2, "max_chars": 40}),
        ("dedup=1.0", {"dedup_threshold": 1.0}), ("no-dedup+min_refs=3", {"dedup_threshold": None, "min_refs": 3}),
        ("dedup=0.3", {"dedup_threshold": 0.3}), ("error=min_chars", {"min_chars": -1}),
        ("write_normalized", {"write_normalized": True}),
    ):
        def clean(ctx, kw=kw):
            cleaned, rep = call("clean_duck", ds(ctx, "full"), **kw)
            return {"rows": cleaned.to_list(), "report": rep.to_dict(), "render": rep.render()}

        add(cid(D, "clean_duck", opt=label), clean)
    add(cid(D, "load_duck", opt="bad-file"), lambda ctx: call("load_duck", ctx.data.files()["bad"]))
    add(cid(D, "load_duck", opt="test-file"), lambda ctx: call("load_duck", ctx.data.files()["test"]))
    for fmt in ("auto", "jsonl", "text"):
        for which in ("a", "lf", "a_txt"):
            def rp(ctx, fmt=fmt, which=which):
                pr = call("read_predictions", ctx.data.files()[which], format=fmt)
                return {k: getattr(pr, k) for k in ("texts", "ids", "lines", "source", "kind", "labels")
                        if hasattr(pr, k)}

            add(cid(D, "read_predictions", file=which, format=fmt), rp)


def cli(args: list[str], ctx, outputs: tuple[str, ...] = ()) -> dict:
    """``python -m zheval ARGS`` in the temporary directory (relative file names), this checkout first on the path;
    ``outputs``: files the command writes, read back into the output (JSON parsed)."""
    ctx.data.files()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-m", "zheval", *args], cwd=ctx.tmp, env=env, capture_output=True,
                          text=True, timeout=600)
    out: dict = {"exit_code": proc.returncode}
    try:
        out["stdout"] = json.loads(proc.stdout) if proc.stdout.strip() else ""
    except json.JSONDecodeError:
        out["stdout"] = proc.stdout
    out["stderr"] = [line for line in proc.stderr.splitlines() if line.startswith("zheval:")]
    for name in outputs:
        path = ctx.tmp / name
        if not path.exists():
            out[name] = None
            continue
        text = path.read_text(encoding="utf-8")
        try:
            out[name] = [json.loads(x) for x in text.splitlines() if x.strip()] if name.endswith(".jsonl") \
                else json.loads(text)
        except json.JSONDecodeError:
            out[name] = text
        path.unlink()
    return out


def cli_configs() -> None:
    C = "cli"
    J = ["--format", "json", "--quiet"]
    runs = [
        ("score/default", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl"]),
        ("score/jieba+hmm+terms+bootstrap=200+seed=7", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl",
                                                        "-t", "jieba", "--jieba-hmm", "--terms", "terms.txt",
                                                        "--bootstrap", "200", "--seed", "7"]),
        ("score/bleu+floor+order=2+by=none", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--metrics",
                                              "bleu", "--smooth", "floor", "--max-order", "2", "--by", "none"]),
        ("score/rouge+types+pool+by=domain", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--metrics",
                                              "rouge", "--rouge-types", "rouge1,rougeL,rougeLsum,rougeW,rougeSU4",
                                              "--multi-ref", "pool", "--by", "domain", "--bootstrap", "100"]),
        ("score/sacrebleu-zh+items+bootstrap=0", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "-t",
                                                  "sacrebleu-zh", "--items", "--bootstrap", "0"]),
        ("score/llamafactory-char+best_recall", ["score", "-d", "duck_test.jsonl", "-p", "preds_lf.jsonl", "-t",
                                                 "llamafactory-char", "--multi-ref", "best_recall", "--bootstrap",
                                                 "100"]),
        ("score/none+text-predictions+num-proc=2", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.txt", "-t",
                                                    "none", "--num-proc", "2", "--bootstrap", "50"]),
        ("ceiling/default", ["ceiling", "-d", "duck_full.jsonl"]),
        ("ceiling/rouge+mean+by=difficulty+nltk3", ["ceiling", "-d", "duck_full.jsonl", "--metrics", "bleu,rouge",
                                                    "--multi-ref", "mean", "--by", "difficulty", "--smooth", "nltk3",
                                                    "--bootstrap", "100"]),
        ("ceiling/jieba+bootstrap=0", ["ceiling", "-d", "duck_full.jsonl", "-t", "jieba", "--bootstrap", "0"]),
        ("compare/default", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_b.jsonl"]),
        ("compare/by+add-k+seed=3", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_b.jsonl",
                                     "--by", "domain,difficulty", "--bootstrap", "200", "--seed", "3", "--smooth",
                                     "add-k"]),
        ("compare/identical", ["compare", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "preds_a.jsonl",
                               "--bootstrap", "100"]),
        ("error/tokenizer=bogus", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "-t", "bogus"]),
        ("error/missing-prediction", ["score", "-d", "duck_test.jsonl", "-p", "preds_missing.jsonl"]),
        ("error/multi-ref=bogus", ["ceiling", "-d", "duck_full.jsonl", "--multi-ref", "bogus"]),
        ("error/bad-data", ["score", "-d", "duck_bad.jsonl", "-p", "preds_a.jsonl"]),
        ("demo/bootstrap=200", ["demo", "--bootstrap", "200"]),
    ]
    for label, args in runs:
        extra = ["--format", "json"] if label.startswith("demo") else J
        add(cid(C, label), lambda ctx, args=args, extra=extra: cli(args + extra, ctx), external=True)
    other = [
        ("score/format=markdown", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--format", "markdown",
                                   "--bootstrap", "100", "-q"], ()),
        ("score/format=table", ["score", "-d", "duck_test.jsonl", "-p", "preds_b.jsonl", "--bootstrap", "100", "-q"],
         ()),
        ("score/output-file", ["score", "-d", "duck_test.jsonl", "-p", "preds_a.jsonl", "--format", "json", "-o",
                               "score_report.json", "--bootstrap", "100", "-q"], ("score_report.json",)),
        ("clean/default", ["clean", "duck_full.jsonl", "-o", "cleaned_default.jsonl", "--report-json",
                           "clean_default.json", "-q"], ("cleaned_default.jsonl", "clean_default.json")),
        ("clean/no-dedup+min-refs=4+chars=2-30", ["clean", "duck_full.jsonl", "-o", "cleaned_b.jsonl", "--no-dedup",
                                                  "--min-refs", "4", "--min-chars", "2", "--max-chars", "30", "-q"],
         ("cleaned_b.jsonl",)),
        ("clean/write-normalized", ["clean", "duck_full.jsonl", "-o", "cleaned_n.jsonl", "--write-normalized", "-q"],
         ("cleaned_n.jsonl",)),
    ]
    for label, args, outputs in other:
        add(cid(C, label), lambda ctx, args=args, outputs=outputs: cli(args, ctx, outputs), external=True)
