"""The configurations of the evaluate modules and of the Trainer hook."""

from __future__ import annotations

import hashlib
import json

from .calls import REPO, call, error_output
from .data import TERMS
from .registry import ROUGE_ALL, ROUGE_N4L, add, cid, nospace_chars


# -- evaluate modules --------------------------------------------------------------------------------------------


def load_module(name: str, keep_in_memory: bool = True, **kwargs):
    import evaluate

    return evaluate.load(str(REPO / "metrics" / name), keep_in_memory=keep_in_memory, **kwargs)


def eval_configs() -> None:
    X = "evaluate"
    rouge_opts = [
        ("default", "woz_groups", {}),
        ("types=all+pr", "woz_groups", {"rouge_types": ROUGE_ALL, "return_precision_recall": True}),
        ("jieba+terms+pool", "woz_groups", {"tokenizer": "jieba", "terms": TERMS, "multi_ref": "pool"}),
        ("bootstrap=100+seed=2", "woz_groups", {"bootstrap": 100, "seed": 2}),
        ("rouge155", "csl_lsum", {"preset": "rouge155", "rouge_types": ROUGE_ALL}),
        ("llamafactory+crosscheck", "woz_groups", {"preset": "llamafactory", "crosscheck": True,
                                                   "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("agg=no", "csl_lead", {"use_aggregator": False, "rouge_types": ["rougeL", "rougeSU4"]}),
        ("split=newline", "csl_lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum"]}),
        ("str-references", "woz_single", {}),
        ("mixed-references", "woz_mixed", {"multi_ref": "best_recall"}),
        ("callable", "csl_lead", {"tokenizer": nospace_chars}),
        ("none", "woz_preseg", {"tokenizer": "none", "punct": "drop"}),
        ("t2s", "woz_trad", {"t2s": True}),
        ("crosscheck", "woz_groups", {"crosscheck": True, "rouge_types": ROUGE_N4L}),
        ("bleu-only-option", "woz_groups", {"max_order": 2, "smooth_method": "floor"}),
        ("beta=0.5+w=2", "csl_lead", {"beta": 0.5, "rouge_w_weight": 2.0, "rouge_types": ["rougeW", "rouge1"]}),
    ]
    bleu_opts = [
        ("default", "woz_groups", {}),
        ("level=sentence", "woz_groups", {"level": "sentence"}),
        ("sacrebleu-zh", "csl_lead", {"preset": "sacrebleu-zh"}),
        ("llamafactory", "woz_groups", {"preset": "llamafactory"}),
        ("crosscheck", "woz_groups", {"crosscheck": True}),
        ("floor+order=2", "csl_next", {"smooth_method": "floor", "max_order": 2}),
        ("bootstrap=100", "woz_groups", {"bootstrap": 100, "seed": 5}),
        ("jieba+terms", "woz_groups", {"tokenizer": "jieba", "terms": TERMS}),
        ("weights+bp=shortest", "woz_groups", {"weights": (0.4, 0.3, 0.2, 0.1), "bp_ref_length": "shortest"}),
        ("str-references", "woz_single", {}),
        ("rouge-only-option", "woz_groups", {"rouge_types": ["rouge1"], "multi_ref": "pool"}),
        ("sentence+nltk3", "csl_next", {"level": "sentence", "smooth_method": "nltk3"}),
    ]
    for mod, table in (("chinese_rouge", rouge_opts), ("chinese_bleu", bleu_opts)):
        for label, s, o in table:
            def compute_all(ctx, mod=mod, s=s, o=o):
                p, r = ctx.items(s)
                return load_module(mod).compute(predictions=p, references=r, **ctx.opts(o))

            add(cid(X, mod, "compute", s, opt=label), compute_all)
        for label, s, o in table[:3] + table[8:10]:
            def batches(ctx, mod=mod, s=s, o=o):
                p, r = ctx.items(s)
                m = load_module(mod)
                for a, b in ((0, 40), (40, 41), (41, 200), (200, len(p))):
                    m.add_batch(predictions=p[a:b], references=r[a:b])
                return m.compute(**ctx.opts(o))

            add(cid(X, mod, "add_batch", s, opt=label), batches)

        def add_items(ctx, mod=mod):
            p, r = ctx.items("woz_mixed")
            m = load_module(mod)
            for x, y in zip(p[:30], r[:30]):
                m.add(prediction=x, reference=y)
            return m.compute()

        add(cid(X, mod, "add", "woz_mixed", n=30), add_items)

        def cached(ctx, mod=mod):
            p, r = ctx.items("woz_groups")
            return load_module(mod, keep_in_memory=False).compute(predictions=p, references=r)

        add(cid(X, mod, "compute", "woz_groups", opt="cache-files"), cached)

        def recover(ctx, mod=mod):
            p, r = ctx.items("woz_groups")
            m = load_module(mod)
            m.add_batch(predictions=p[:100], references=r[:100])
            m.add_batch(predictions=p[100:], references=r[100:])
            try:
                m.compute(rouge_types=["rougeX"]) if mod == "chinese_rouge" else m.compute(max_order=0)
                first = "no error"
            except Exception as exc:  # noqa: BLE001 - the error is an output
                first = error_output(exc)
            return {"first": first, "second": m.compute()}

        add(cid(X, mod, "add_batch", "woz_groups", opt="error-then-compute"), recover)
        for label, fn in (
            ("unknown-option", lambda m, p, r: m.compute(predictions=p, references=r, foo=1)),
            ("bad-value", lambda m, p, r: m.compute(predictions=p, references=r, tokenizer="bogus")),
            ("int-prediction", lambda m, p, r: m.compute(predictions=[3] + p[1:], references=r)),
            ("empty-reference", lambda m, p, r: m.compute(predictions=p, references=[[""]] + r[1:])),
            ("length-mismatch", lambda m, p, r: m.compute(predictions=p, references=r[:-1])),
            ("add_batch-bad", lambda m, p, r: m.add_batch(predictions=p[:3], references=[["好"], 5, ["好"]])),
        ):
            def err(ctx, mod=mod, fn=fn):
                p, r = ctx.items("woz_groups")
                p, r = p[:10], r[:10]
                return fn(load_module(mod), p, r)

            add(cid(X, mod, "errors", opt=label), err)
        add(cid(X, mod, "errors", opt="load-option"), lambda ctx, mod=mod: load_module(mod, tokenizer="jieba"))
    combine_opts = [
        ("default", "woz_groups", {}),
        ("shared", "woz_groups", {"tokenizer": "jieba", "terms": ["快递柜", "北京"], "rouge_types": ["rouge1", "rouge2",
                                  "rougeL"], "multi_ref": "mean", "max_order": 2, "smooth_method": "floor",
                                  "bootstrap": 100, "seed": 3}),
        ("llamafactory", "woz_groups", {"preset": "llamafactory"}),
        ("newline", "csl_lsum", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rouge1"]}),
        ("sentence", "csl_next", {"level": "sentence", "smooth_method": "add-k"}),
    ]
    for label, s, o in combine_opts:
        def comb(ctx, s=s, o=o):
            import evaluate

            p, r = ctx.items(s)
            c = evaluate.combine([load_module("chinese_bleu"), load_module("chinese_rouge")])
            return c.compute(predictions=p, references=r, **ctx.opts(o))

        add(cid(X, "combine", "compute", s, opt=label), comb)

    def comb_batches(ctx):
        import evaluate

        p, r = ctx.items("woz_groups")
        c = evaluate.combine([str(REPO / "metrics" / "chinese_rouge"), str(REPO / "metrics" / "chinese_bleu")])
        for a, b in ((0, 150), (150, len(p))):
            c.add_batch(predictions=p[a:b], references=r[a:b])
        return c.compute(tokenizer="char", bootstrap=50)

    add(cid(X, "combine", "add_batch", "woz_groups", opt="paths+bootstrap=50"), comb_batches)


# -- Trainer hook -----------------------------------------------------------------------------------------------

TRAINER_N = 200


def trainer_texts(ctx) -> tuple[list[str], list[str]]:
    p, r = ctx.items("woz_single")
    return p[:TRAINER_N], r[:TRAINER_N]


def trainer_tokenizer(ctx, with_pad: bool = True):
    def build():
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, processors
        from transformers import PreTrainedTokenizerFast

        p, r = trainer_texts(ctx)
        # the references' characters and those of every other prediction: some predicted characters are <unk>
        chars = sorted({c for t in r + p[::2] for c in t if not c.isspace()})
        vocab = {tok: i for i, tok in enumerate(["<pad>", "</s>", "<unk>"] + chars)}
        core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
        core.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex("."), behavior="isolated")])
        core.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
        kw = {"eos_token": "</s>", "unk_token": "<unk>"}
        if with_pad:
            kw["pad_token"] = "<pad>"
        return PreTrainedTokenizerFast(tokenizer_object=core, **kw)

    return ctx.once(("trainer_tok", with_pad), build)


def _pad(rows, value, width=None):
    import numpy as np

    width = width or max((len(x) for x in rows), default=0)
    out = np.full((len(rows), width), value, dtype=np.int64)
    for i, x in enumerate(rows):
        out[i, :len(x)] = x
    return out


def run_hook(ctx, metrics=None, options=None, hook_kwargs=None, pred_pad=-100, form="evalprediction",
             empty_every=0, causal=False, batches=0, subset=None, with_pad=True):
    import numpy as np
    from transformers import EvalPrediction

    tok = trainer_tokenizer(ctx, with_pad)
    p, r = trainer_texts(ctx)
    if subset:
        p, r = p[:subset], r[:subset]
    p_ids = [tok(t)["input_ids"] for t in p]
    l_ids = [tok(t)["input_ids"] for t in r]
    if empty_every:
        for i in range(0, len(l_ids), empty_every):
            l_ids[i] = []
    pad_value = -100 if pred_pad == -100 else tok.pad_token_id
    if causal:
        prompt = 3
        rows_p, rows_l = [], []
        for a, b in zip(p_ids, l_ids):
            rows_l.append([-100] * prompt + b)
            shifted = [(a[k] if k < len(a) else tok.pad_token_id) for k in range(len(b))]
            rows_p.append([5] * (prompt - 1) + shifted + [7])  # position t predicts label t+1
        width = max(len(x) for x in rows_l)
        P, L = _pad(rows_p, pad_value, width), _pad(rows_l, -100, width)
    else:
        P, L = _pad(p_ids, pad_value), _pad(l_ids, -100)
    kw = dict(hook_kwargs or {})
    if metrics is not None:
        kw["metrics"] = metrics(ctx) if callable(metrics) else metrics
    hook = call("build_compute_metrics", tok, **kw, **ctx.opts(options or {}))

    def wrap(P, L):
        if form == "tuple":
            return (P, L)
        if form == "logits":
            vocab = len(tok)
            logits = np.zeros(P.shape + (vocab,), dtype=np.float32)
            for i in range(P.shape[0]):
                for j in range(P.shape[1]):
                    if P[i, j] == -100:
                        logits[i, j, :] = -100
                    else:
                        logits[i, j, P[i, j]] = 1.0
            return EvalPrediction(predictions=(logits, np.zeros(1)), label_ids=L)
        if form == "torch":
            import torch

            return EvalPrediction(predictions=torch.tensor(P), label_ids=torch.tensor(L))
        return EvalPrediction(predictions=P, label_ids=L)

    if batches:
        bounds = np.linspace(0, len(p), batches + 1).astype(int)
        returns = []
        for k in range(batches):
            a, b = bounds[k], bounds[k + 1]
            Pk, Lk = P[a:b], L[a:b]
            w = max(1, int((Lk != -100).sum(axis=1).max()), int((Pk != pad_value).sum(axis=1).max()))
            returns.append(hook(wrap(Pk[:, :w], Lk[:, :w]), compute_result=(k == batches - 1)))
        out = {"returns": returns}
    else:
        out = {"return": hook(wrap(P, L))}
    out["results"] = hook.results
    h = hashlib.sha256(json.dumps([hook.predictions, hook.references], ensure_ascii=False).encode()).hexdigest()
    out["decoded_sha256"] = h[:16]
    out["decoded_first"] = [hook.predictions[:2], hook.references[:2]]
    return out


def trainer_configs() -> None:
    T = "trainer"
    variants = [
        ("default", {}),
        ("metrics=rouge", {"metrics": ("chinese_rouge",)}),
        ("metrics=bleu", {"metrics": ["chinese_bleu"]}),
        ("metrics=bleu,rouge", {"metrics": ("chinese_bleu", "chinese_rouge")}),
        ("jieba+terms", {"options": {"tokenizer": "jieba", "terms": TERMS}}),
        ("types=all+pr", {"options": {"rouge_types": ROUGE_ALL, "return_precision_recall": True}}),
        ("order=2+floor", {"options": {"max_order": 2, "smooth_method": "floor"}}),
        ("level=sentence", {"options": {"level": "sentence"}}),
        ("llamafactory", {"options": {"preset": "llamafactory"}}),
        ("bleu-sacrebleu-zh-pair", {"metrics": ("chinese_rouge", ("chinese_bleu", {"preset": "sacrebleu-zh"}))}),
        ("pairs", {"metrics": [("chinese_rouge", {"rouge_types": ["rougeL"]}), ("chinese_bleu", {"max_order": 2})]}),
        ("bootstrap=100", {"options": {"bootstrap": 100, "seed": 3}}),
        ("tok=none", {"options": {"tokenizer": "none"}}),
        ("clean_whitespace=false", {"hook_kwargs": {"clean_whitespace": False}}),
        ("clean_whitespace=false+tok=nospace", {"hook_kwargs": {"clean_whitespace": False},
                                                "options": {"tokenizer": nospace_chars}}),
        ("pred_pad=pad", {"pred_pad": "pad"}),
        ("input=tuple", {"form": "tuple"}),
        ("input=torch", {"form": "torch"}),
        ("input=logits", {"form": "logits", "subset": 40}),
        ("empty_refs=skip", {"empty_every": 20}),
        ("empty_refs=error", {"empty_every": 20, "hook_kwargs": {"empty_references": "error"}}),
        ("empty_refs=all", {"empty_every": 1, "subset": 10}),
        ("causal_lm", {"causal": True, "hook_kwargs": {"causal_lm": True}}),
        ("module=chinese_rouge-path", {"metrics": lambda ctx: [str(REPO / "metrics" / "chinese_rouge")]}),
        ("module=combine", {"metrics": lambda ctx: [__import__("evaluate").combine(
            [load_module("chinese_bleu"), load_module("chinese_rouge")])]}),
        ("error=use_aggregator", {"options": {"use_aggregator": False}}),
        ("error=crosscheck", {"options": {"crosscheck": True}}),
        ("error=unknown-option", {"options": {"foo": 1}}),
        ("error=no-pad", {"with_pad": False}),
        ("error=metrics-empty", {"metrics": []}),
        ("error=seed", {"options": {"bootstrap": 10, "seed": "3"}}),
    ]
    for label, kw in variants:
        add(cid(T, "woz_single", opt=label), lambda ctx, kw=kw: run_hook(ctx, **kw))
    for label, kw in (
        ("default", {}),
        ("jieba+bootstrap+sentence+pr", {"options": {"tokenizer": "jieba", "bootstrap": 100, "seed": 1,
                                                    "level": "sentence", "return_precision_recall": True}}),
        ("llamafactory", {"options": {"preset": "llamafactory"}}),
        ("empty_refs=skip", {"empty_every": 7}),
        ("module=chinese_bleu-path", {"metrics": lambda ctx: [str(REPO / "metrics" / "chinese_bleu"),
                                                              "chinese_rouge"]}),
    ):
        add(cid(T, "woz_single", "batch_eval_metrics", opt=label),
            lambda ctx, kw=kw: run_hook(ctx, form="torch", batches=4, **kw))
