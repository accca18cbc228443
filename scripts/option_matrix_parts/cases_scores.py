"""The configurations of the library's scoring calls: tokenizers, compute_rouge, compute_bleu (and bleu_stats),
score()."""

from __future__ import annotations


from .calls import EntryPointNotFound, call, resolve
from .data import TERMS
from .registry import (BP, JIEBA_INSTANCE, LEVELS, MULTI, ROUGE_ALL, ROUGE_MOST, ROUGE_N4L, SMOOTH, SMOOTH_VALUE, TOK,
                       TOKENIZERS, add, cid, lib, lib_inputs, nospace_chars, slice_with, token_texts)


def tokens_configs() -> None:
    for label, s, o in TOKENIZERS:
        def run(ctx, s=s, o=o):
            o = ctx.opts(o)
            tok = o.pop("tokenizer", "char")
            t = call("get_tokenizer", tok, **o)
            texts = token_texts(ctx, s)
            return {"signature": t.signature(), "norm": t.normalizer.name,
                    "normalized": [t.normalize(x) for x in texts], "tokens": [t.tokenize(x) for x in texts]}

        add(cid("tokens", s, tok=label), run)


# -- ROUGE ------------------------------------------------------------------------------------------------------


def rouge_configs() -> None:
    R = "rouge/lib"
    for s in ["woz_groups", "woz_single", "woz_mixed", "woz_empty_pred", "csl_lead", "csl_next", "csl_lsum"]:
        for m in (MULTI if s != "csl_lsum" else ("max", "pool")):  # csl_lsum: the slowest set, two rules suffice
            lib(R, "compute_rouge", s, {"rouge_types": ROUGE_ALL, "multi_ref": m, "return_precision_recall": True},
                tok="char", types="all", multi=m, pr="yes")
    for label, s, o in TOKENIZERS:
        if label != "char":  # char: in the grid above
            lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_ALL, "return_precision_recall": True},
                tok=label, types="all", multi="max", pr="yes")
            lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_MOST, "multi_ref": "pool"},
                tok=label, types="most", multi="pool")
        lib(R, "compute_rouge", s, o, tok=label, types="default", multi="default")
    for label in ("llamafactory-jieba", "sacrebleu-zh", "llamafactory-char", "bogus"):
        lib(R, "compute_rouge", "woz_groups", {"tokenizer": label}, tok=label, types="default")
    lib(R, "compute_rouge", "woz_groups", {"tokenizer": "llamafactory-jieba", "t2s": True}, tok="llamafactory-jieba+t2s")
    lib(R, "compute_rouge", "woz_groups", {"tokenizer": "llamafactory-jieba", "jieba_hmm": True, "punct": "keep",
                                            "normalize": "none"}, tok="llamafactory-jieba+noop-options")
    # ROUGE-Lsum and the sentence split, across tokenizers whose sentence tokens are built differently
    for s in ("csl_lsum", "woz_groups", "csl_lead"):
        for split in ("punct", "newline"):
            for label in ("char", "char+terms", "char+punct=drop", "jieba", "callable-nospace", "none-on-raw-text"):
                o = TOK[label][1]
                lib(R, "compute_rouge", s, {**o, "rouge_types": ["rougeLsum", "rougeL"], "sentence_split": split},
                    tok=label, types="rougeLsum+rougeL", split=split)
    for split in ("punct", "newline"):
        for m in MULTI:
            lib(R, "compute_rouge", "csl_lsum_preseg", {"tokenizer": "none", "rouge_types": ["rougeLsum"],
                                                         "sentence_split": split, "multi_ref": m},
                tok="none", types="rougeLsum", split=split, multi=m)
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ROUGE_ALL, "sentence_split": split, "multi_ref": "pool",
                                              "use_aggregator": False}, tok="char", types="all", split=split,
            multi="pool", agg="no")
    # each type alone, per item
    for t in ROUGE_ALL + ["rouge5", "rouge9", "rougeS0", "rougeS1", "rougeSU9"]:
        lib(R, "compute_rouge", "woz_groups", {"rouge_types": [t], "use_aggregator": False,
                                                "return_precision_recall": True}, types=t, agg="no", pr="yes")
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": t, "multi_ref": "mean", "use_aggregator": False},
            types=t, multi="mean", agg="no", form="str")
    # beta, rouge_w_weight
    for b in (0, 0.5, 2.0, 1, 1.0):
        for m in ("max", "best_recall"):
            lib(R, "compute_rouge", "woz_groups", {"rouge_types": ROUGE_MOST, "beta": b, "multi_ref": m,
                                                    "return_precision_recall": True},
                types="most", beta=repr(b), multi=m)
    for b in (-1, "1", True, float("inf")):
        lib(R, "compute_rouge", "woz_groups", {"beta": b}, beta=repr(b))
    for w in (1.0, 1.5, 2.0, 0, -1):
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ["rougeW", "rougeL"], "rouge_w_weight": w,
                                              "multi_ref": "pool"}, types="rougeW+rougeL", w=repr(w))
    # bootstrap
    for n, seed, conf in ((100, 1, 0.95), (1000, None, None), (500, 7, 0.9), (1, 3, None), (200, 0, 0.99)):
        o = {"bootstrap": n}
        if seed is not None:
            o["seed"] = seed
        if conf is not None:
            o["confidence"] = conf
        lib(R, "compute_rouge", "woz_groups", o, types="default", bootstrap=n, seed=seed, conf=conf)
    lib(R, "compute_rouge", "csl_lsum", {"bootstrap": 300, "seed": 5, "rouge_types": ROUGE_ALL, "multi_ref": "pool",
                                          "return_precision_recall": True}, types="all", bootstrap=300, seed=5)
    for o, label in (({"bootstrap": 100, "use_aggregator": False}, "agg=no"), ({"bootstrap": -1}, "-1"),
                     ({"bootstrap": True}, "True"), ({"bootstrap": 2.5}, "2.5")):
        lib(R, "compute_rouge", "woz_groups", o, bootstrap_error=label)
    # presets
    for m in MULTI:
        lib(R, "compute_rouge", "woz_groups", {"preset": "rouge155", "multi_ref": m}, preset="rouge155", multi=m)
        if m in ("max", "pool"):
            lib(R, "compute_rouge", "csl_lsum", {"preset": "rouge155", "multi_ref": m, "rouge_types": ROUGE_ALL},
                preset="rouge155", types="all", multi=m)
        lib(R, "compute_rouge", "woz_groups", {"preset": "rouge155", "multi_ref": m, "rouge_types": ROUGE_ALL},
            preset="rouge155", types="all", multi=m)
        lib(R, "compute_rouge", "woz_groups", {"preset": "llamafactory", "multi_ref": m}, preset="llamafactory",
            multi=m)
    for label, o in (
        ("tok=jieba", {"tokenizer": "jieba"}),
        ("tok=none", {"tokenizer": "none"}),
        ("beta=0.5", {"beta": 0.5}),
        ("split=newline", {"sentence_split": "newline", "rouge_types": ["rougeLsum", "rougeL"]}),
        ("w=1.5+bootstrap=200", {"rouge_w_weight": 1.5, "bootstrap": 200, "seed": 2}),
        ("agg=no+pr", {"use_aggregator": False, "return_precision_recall": True}),
        ("crosscheck", {"crosscheck": True}),
        ("normalize=false", {"normalize": False}),
    ):
        s = "woz_preseg" if label == "tok=none" else "csl_lsum"
        lib(R, "compute_rouge", s, {"preset": "rouge155", **o}, preset="rouge155", opt=label)
    for label, o in (
        ("crosscheck", {"crosscheck": True, "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("crosscheck+multi=mean", {"crosscheck": True, "multi_ref": "mean"}),
        ("types=all", {"rouge_types": ROUGE_ALL}),
        ("types=rouge3+rougeLsum", {"rouge_types": ["rouge3", "rougeLsum"]}),
        ("tok=char", {"tokenizer": "char"}),
        ("tok=jieba+terms", {"tokenizer": "jieba", "terms": TERMS}),
        ("beta=2", {"beta": 2.0}),
        ("beta=1", {"beta": 1}),
        ("pr", {"return_precision_recall": True}),
        ("agg=no", {"use_aggregator": False}),
        ("bootstrap=200", {"bootstrap": 200, "seed": 9}),
        ("t2s", {"t2s": True}),
    ):
        for s in ("woz_groups", "csl_lead"):
            lib(R, "compute_rouge", s, {"preset": "llamafactory", **o}, preset="llamafactory", opt=label)
    for p in ("bogus", "sacrebleu-zh"):
        lib(R, "compute_rouge", "woz_groups", {"preset": p}, preset=p)
    # crosscheck against rouge-score / rouge-chinese
    for label in ("char", "char+terms", "char+punct=drop", "jieba", "jieba+hmm", "none", "callable-nospace",
                  "char+t2s", "char+norm=false"):
        s, o = TOK[label]
        lib(R, "compute_rouge", s, {**o, "rouge_types": ROUGE_N4L, "crosscheck": True}, tok=label, types="n4l",
            crosscheck="yes")
    for m in ("mean", "pool", "best_recall"):
        lib(R, "compute_rouge", "woz_groups", {"rouge_types": ROUGE_N4L, "crosscheck": True, "multi_ref": m},
            tok="char", types="n4l", multi=m, crosscheck="yes")
    for split in ("punct", "newline"):
        lib(R, "compute_rouge", "csl_lsum", {"rouge_types": ["rougeLsum", "rouge2"], "crosscheck": True,
                                              "sentence_split": split}, tok="char", types="rougeLsum+rouge2",
            split=split, crosscheck="yes")
    for label, o in (("types=all", {"rouge_types": ROUGE_ALL}), ("beta=2", {"beta": 2.0}),
                     ("agg=no", {"use_aggregator": False}), ("bootstrap=100", {"bootstrap": 100})):
        lib(R, "compute_rouge", "woz_groups", {"crosscheck": True, **o}, crosscheck="yes", opt=label)
    # errors and input forms
    E = "rouge/lib/errors"
    for label, o in (
        ("types=rouge0", {"rouge_types": ["rouge0"]}), ("types=rougeX", {"rouge_types": ["rougeX"]}),
        ("types=dup", {"rouge_types": ["rouge1", "rouge1"]}), ("types=empty", {"rouge_types": []}),
        ("types=int", {"rouge_types": [1]}), ("types=rougeS", {"rouge_types": ["rougeS"]}),
        ("multi=min", {"multi_ref": "min"}), ("split=comma", {"sentence_split": "comma"}),
        ("option=foo", {"foo": 1}), ("option=max_order", {"max_order": 2}),
        ("terms+none", {"tokenizer": "none", "terms": TERMS}), ("hmm+char", {"jieba_hmm": True}),
        ("punct=bad", {"punct": "bad"}), ("normalize=bogus", {"normalize": "bogus"}),
        ("normalize=int", {"normalize": 3}), ("t2s=yes", {"t2s": "yes"}), ("terms=str", {"terms": "北京"}),
        ("instance+options", {"tokenizer": JIEBA_INSTANCE, "punct": "drop"}), ("tokenizer=None", {"tokenizer": None}),
        ("tokenizer=int", {"tokenizer": 3}), ("callable-returns-str", {"tokenizer": lambda s: s}),
        ("jieba_dict=missing", {"tokenizer": "jieba", "jieba_dict": "/nonexistent/zheval-dict.txt"}),
        ("callable+terms", {"tokenizer": nospace_chars, "terms": TERMS}),
    ):
        lib_inputs(cid(E, opt=label), "compute_rouge", slice_with("woz_groups"), o)
    for label, mk in (
        ("empty-reference", slice_with("woz_groups", ref="")),
        ("whitespace-reference", slice_with("woz_groups", ref="  \t")),
        ("invisible-reference", slice_with("woz_groups", ref="\u200b\u200b")),
        ("punct-only-reference", slice_with("woz_groups", ref="。！")),
        ("empty-reference-list", slice_with("woz_groups", refs_item=[])),
        ("int-prediction", slice_with("woz_groups", pred=7)),
        ("none-reference", slice_with("woz_groups", refs_item=[None])),
        ("bytes-reference", slice_with("woz_groups", refs_item="好的".encode())),
        ("tuple-references", slice_with("woz_groups", refs_item=("好的", "不客气"))),
        ("empty-prediction", slice_with("woz_groups", pred="")),
        ("punct-only-prediction", slice_with("woz_groups", pred="！！")),
        ("length-mismatch", lambda ctx: (ctx.items("woz_groups")[0][:5], ctx.items("woz_groups")[1][:4])),
        ("empty-corpus", lambda ctx: ([], [])),
        ("str-predictions", lambda ctx: ("好的", ["好的"])),
    ):
        lib_inputs(cid(E, input=label), "compute_rouge", mk, {"rouge_types": ROUGE_ALL})
    lib_inputs(cid(E, input="punct-only-reference", opt="punct=drop"), "compute_rouge",
               slice_with("woz_groups", ref="。！"), {"punct": "drop"})
    lib_inputs(cid(E, input="punct-only-reference", opt="nopunct"), "compute_rouge",
               slice_with("woz_groups", ref="。！"), {"normalize": "nfkc+nopunct"})
    lib_inputs(cid(E, input="empty-reference", opt="llamafactory"), "compute_rouge",
               slice_with("woz_groups", ref=""), {"preset": "llamafactory"})
    lib_inputs(cid(E, input="empty-reference", opt="rouge155"), "compute_rouge",
               slice_with("woz_groups", ref=""), {"preset": "rouge155"})


# -- BLEU -------------------------------------------------------------------------------------------------------


def bleu_configs() -> None:
    B = "bleu/lib"
    for n in (1, 2, 3, 4, 5):
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {"max_order": n, "level": lv}, tok="char", order=n, level=lv)
    for s in ("woz_single", "woz_mixed", "woz_empty_pred", "csl_lead", "csl_next", "csl_lsum", "woz_trad"):
        for lv in LEVELS:
            lib(B, "compute_bleu", s, {"level": lv}, tok="char", level=lv)
    for lv in LEVELS:
        for sm in SMOOTH:
            for with_value in (False, True):
                o = {"level": lv, "smooth_method": sm}
                if with_value:
                    o["smooth_value"] = SMOOTH_VALUE[sm]
                lib(B, "compute_bleu", "csl_next", o, level=lv, smooth=sm,
                    value=repr(SMOOTH_VALUE[sm]) if with_value else None)
    for sm in SMOOTH:
        lib(B, "compute_bleu", "woz_groups", {"level": "sentence", "smooth_method": sm, "max_order": 4},
            level="sentence", smooth=sm, order=4)
    for sm, v in (("floor", 0), ("add-k", 0), ("floor", -0.1), ("add-k", "1"), ("exp", None), ("bogus", None)):
        lib(B, "compute_bleu", "csl_next", {"level": "sentence", "smooth_method": sm, "smooth_value": v},
            level="sentence", smooth=sm, value=repr(v))
    for bp in BP:
        for lv in LEVELS:
            for s in ("woz_groups", "csl_lead"):
                lib(B, "compute_bleu", s, {"bp_ref_length": bp, "level": lv}, bp=bp, level=lv)
    for eff in (True, False, None):
        for lv in LEVELS:
            lib(B, "compute_bleu", "csl_next", {"effective_order": eff, "level": lv}, eff=repr(eff), level=lv)
        lib(B, "compute_bleu", "csl_next", {"effective_order": eff, "level": "sentence", "smooth_method": "none"},
            eff=repr(eff), level="sentence", smooth="none")
    for w, n in (((0.25, 0.25, 0.25, 0.25), 4), ((0.1, 0.2, 0.3, 0.4), 4), ((1, 0, 0, 0), 4), ((0.5, 0.5), 2),
                 ([0.7, 0.3, 0.0, 0.0], 4)):
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {"weights": w, "max_order": n, "level": lv},
                weights="/".join(map(str, w)), order=n, level=lv)
    for w in ((0.5, 0.5, 0.0), (-0.5, 0.5, 0.5, 0.5), (0, 0, 0, 0), "abc"):
        lib(B, "compute_bleu", "woz_groups", {"weights": w}, weights_error=repr(w))
    for label, s, o in TOKENIZERS + [("sacrebleu-zh", "woz_groups", {"tokenizer": "sacrebleu-zh"}),
                                     ("sacrebleu-zh-csl", "csl_lead", {"tokenizer": "sacrebleu-zh"}),
                                     ("llamafactory-char", "woz_groups", {"tokenizer": "llamafactory-char"}),
                                     ("llamafactory-jieba", "woz_groups", {"tokenizer": "llamafactory-jieba"})]:
        lib(B, "compute_bleu", s, o, tok=label, level="corpus")
        lib(B, "compute_bleu", s, {**o, "level": "sentence", "max_order": 2}, tok=label, level="sentence", order=2)
    for label, o in (("t2s", {"t2s": True}), ("terms", {"terms": TERMS}), ("noop-options",
                     {"normalize": False, "t2s": False, "punct": "keep", "jieba_hmm": False})):
        lib(B, "compute_bleu", "woz_groups", {"tokenizer": "sacrebleu-zh", **o}, tok="sacrebleu-zh", opt=label)
    # presets
    for label, o in (
        ("default", {}), ("level=sentence", {"level": "sentence"}), ("crosscheck", {"crosscheck": True}),
        ("smooth=floor", {"smooth_method": "floor"}), ("tok=char", {"tokenizer": "char"}),
        ("order=2", {"max_order": 2}), ("t2s", {"t2s": True}), ("bootstrap=200", {"bootstrap": 200, "seed": 4}),
        ("bp=none", {"bp_ref_length": "none"}), ("weights", {"weights": (0.4, 0.3, 0.2, 0.1)}),
        ("tok=jieba", {"tokenizer": "jieba"}), ("eff=True", {"effective_order": True}),
    ):
        for p in ("sacrebleu-zh", "llamafactory"):
            for s in ("woz_groups", "csl_lead"):
                lib(B, "compute_bleu", s, {"preset": p, **o}, preset=p, opt=label)
    for p in ("bogus", "rouge155"):
        lib(B, "compute_bleu", "woz_groups", {"preset": p}, preset=p)
    # crosscheck against sacrebleu / nltk
    for label in ("char", "char+terms", "char+punct=drop", "jieba", "none", "callable-nospace", "char+t2s"):
        s, o = TOK[label]
        lib(B, "compute_bleu", s, {**o, "crosscheck": True}, tok=label, level="corpus", crosscheck="yes")
    for lv in LEVELS:
        for sm in SMOOTH:
            lib(B, "compute_bleu", "csl_next", {"crosscheck": True, "level": lv, "smooth_method": sm},
                level=lv, smooth=sm, crosscheck="yes")
        for label, o in (("weights", {"weights": (0.1, 0.2, 0.3, 0.4)}), ("bp=shortest", {"bp_ref_length": "shortest"}),
                         ("bp=none", {"bp_ref_length": "none"}), ("eff=True", {"effective_order": True}),
                         ("order=2", {"max_order": 2}), ("floor=0.3", {"smooth_method": "floor", "smooth_value": 0.3})):
            lib(B, "compute_bleu", "woz_groups", {"crosscheck": True, "level": lv, **o}, level=lv, crosscheck="yes",
                opt=label)
    # bootstrap
    for n, seed, conf in ((100, 1, None), (1000, None, None), (200, 7, 0.9)):
        o = {"bootstrap": n, **({"seed": seed} if seed is not None else {}), **({"confidence": conf} if conf else {})}
        for lv in LEVELS:
            lib(B, "compute_bleu", "woz_groups", {**o, "level": lv}, level=lv, bootstrap=n, seed=seed, conf=conf)
    lib(B, "compute_bleu", "csl_next", {"bootstrap": 300, "seed": 11, "weights": (0.4, 0.3, 0.2, 0.1),
                                         "smooth_method": "floor"}, bootstrap=300, seed=11, opt="weights+floor")
    # errors and input forms
    E = "bleu/lib/errors"
    for label, o in (
        ("order=0", {"max_order": 0}), ("order=True", {"max_order": True}), ("order=str", {"max_order": "4"}),
        ("order=2.5", {"max_order": 2.5}), ("smooth=bogus", {"smooth_method": "bogus"}),
        ("bp=longest", {"bp_ref_length": "longest"}), ("level=doc", {"level": "doc"}),
        ("eff=yes", {"effective_order": "yes"}), ("option=foo", {"foo": 1}),
        ("option=rouge_types", {"rouge_types": ["rouge1"]}), ("bootstrap=-1", {"bootstrap": -1}),
        ("bootstrap=True", {"bootstrap": True}), ("tokenizer=bogus", {"tokenizer": "bogus"}),
        ("terms+none", {"tokenizer": "none", "terms": TERMS}), ("punct=bad", {"punct": "bad"}),
        ("crosscheck+callable", {"tokenizer": nospace_chars, "crosscheck": True}),
        ("confidence=1.5", {"bootstrap": 10, "confidence": 1.5}),
    ):
        lib_inputs(cid(E, opt=label), "compute_bleu", slice_with("woz_groups"), o)
    for label, mk in (
        ("empty-reference", slice_with("woz_groups", ref="")),
        ("whitespace-reference", slice_with("woz_groups", ref="  ")),
        ("invisible-reference", slice_with("woz_groups", ref="\u200b")),
        ("empty-reference-list", slice_with("woz_groups", refs_item=[])),
        ("int-prediction", slice_with("woz_groups", pred=7)),
        ("none-reference", slice_with("woz_groups", refs_item=[None])),
        ("empty-prediction", slice_with("woz_groups", pred="")),
        ("length-mismatch", lambda ctx: (ctx.items("woz_groups")[0][:5], ctx.items("woz_groups")[1][:4])),
        ("sacrebleu-transposed", lambda ctx: (ctx.items("woz_single")[0][:5], [ctx.items("woz_single")[1][:5]])),
        ("empty-corpus", lambda ctx: ([], [])),
    ):
        for lv in LEVELS:
            lib_inputs(cid(E, input=label, level=lv), "compute_bleu", mk, {"level": lv})
    # streaming statistics: shards of per-item statistics, then one result
    for lv, o in (("corpus", {}), ("sentence", {"smooth_method": "floor"}), ("corpus", {"bootstrap": 100, "seed": 2})):
        def stats_run(ctx, lv=lv, o=o):
            import numpy as np

            p, r = ctx.items("woz_groups")
            shards = ((0, 100), (100, 250), (250, len(p)))
            try:
                resolve("bleu_stats")
            except EntryPointNotFound:  # the items/result API (issue 14): bleu_items per shard, one result
                from zheval.compute.bleu import bleu_config, bleu_items, result_from_stats
                from zheval.compute.inputs import validate_inputs

                # the old result_from_stats defaulted to effective_order=False at every level
                opts = dict(tokenizer="jieba", max_order=4, level=lv, effective_order=False, **o)
                try:
                    from zheval.compute.options import BleuOptions
                except ImportError:  # the library before the options classes: bleu_config took the options by name
                    config = bleu_config(**opts)
                else:
                    config = bleu_config(BleuOptions(**opts))
                parts = [bleu_items(*validate_inputs(p[a:b], r[a:b]), config).stats for a, b in shards]
                stats = np.concatenate(parts, axis=0)
                return {"stats_sum": stats.sum(axis=0), "result": result_from_stats(stats, config)}
            parts = [call("bleu_stats", p[a:b], r[a:b], "jieba", 4) for a, b in shards]
            stats = np.concatenate(parts, axis=0)
            res = call("result_from_stats", stats, level=lv, **o)
            return {"stats_sum": stats.sum(axis=0), "result": res}

        add(cid("bleu/stats", "woz_groups", tok="jieba", level=lv, opt="+".join(f"{k}={v}" for k, v in o.items()) or None),
            stats_run)


# -- score() ----------------------------------------------------------------------------------------------------


def score_configs() -> None:
    S = "score"
    for s0 in ("woz_groups", "csl_lsum"):
        for label in ("char", "char+terms", "char+punct=drop", "char+norm=false", "jieba", "jieba+hmm", "none",
                      "callable-nospace", "callable-str.split+norm=false", "instance-jieba+terms"):
            s, o = TOK[label]
            if s == "woz_preseg":
                s = s0 + "_preseg" if s0 == "csl_lsum" else "woz_preseg"
            elif s != s0:
                s = s0
            for split in ("punct", "newline"):
                lib(S, "score", s, {**o, "sentence_split": split}, tok=label, split=split, metrics="both")
    for metrics in (("bleu",), ("rouge",), "bleu", "rouge", ("rouge", "bleu"), ["bleu", "rouge"]):
        names = ",".join([metrics] if isinstance(metrics, str) else metrics)
        for label, split in (("char", "newline"), ("char", "punct"), ("jieba", "punct")):
            lib(S, "score", "csl_lsum", {**TOK[label][1], "sentence_split": split, "metrics": metrics},
                tok=label, split=split, metrics=f"{type(metrics).__name__}:{names}")
    for n in (1, 2, 4, 6):
        for split in ("punct", "newline"):
            lib(S, "score", "woz_groups", {"max_order": n, "sentence_split": split,
                                           "rouge_types": ["rouge1", "rouge2", "rouge3", "rouge4"]},
                tok="char", split=split, order=n, types="rouge1-4")
    for label, o in (
        ("level=sentence", {"level": "sentence"}), ("smooth=floor", {"smooth_method": "floor", "smooth_value": 0.2}),
        ("bp=none", {"bp_ref_length": "none"}), ("weights", {"weights": (0.1, 0.2, 0.3, 0.4)}),
        ("eff=True", {"effective_order": True}), ("types=all", {"rouge_types": ROUGE_ALL}),
        ("multi=pool", {"multi_ref": "pool"}), ("multi=best_recall", {"multi_ref": "best_recall"}),
        ("beta=2", {"beta": 2.0}), ("agg=no", {"use_aggregator": False}), ("pr", {"return_precision_recall": True}),
        ("w=1.5", {"rouge_w_weight": 1.5, "rouge_types": ["rougeW"]}),
        ("bootstrap=200", {"bootstrap": 200, "seed": 3}), ("bootstrap+conf", {"bootstrap": 100, "confidence": 0.8}),
        ("bootstrap+agg=no", {"bootstrap": 100, "use_aggregator": False}),
        ("crosscheck", {"crosscheck": True}), ("crosscheck+jieba", {"crosscheck": True, "tokenizer": "jieba"}),
        ("t2s", {"t2s": True}), ("normalize=nfkc+space", {"normalize": "nfkc+space"}),
        ("preset=llamafactory", {"preset": "llamafactory"}),
        ("preset=llamafactory+crosscheck", {"preset": "llamafactory", "crosscheck": True,
                                            "rouge_types": ["rouge1", "rouge2", "rougeL"]}),
        ("preset=sacrebleu-zh", {"preset": "sacrebleu-zh"}),
        ("preset=sacrebleu-zh+metrics=bleu", {"preset": "sacrebleu-zh", "metrics": ("bleu",)}),
        ("preset=rouge155", {"preset": "rouge155"}),
        ("preset=rouge155+metrics=rouge", {"preset": "rouge155", "metrics": ("rouge",)}),
        ("tok=sacrebleu-zh", {"tokenizer": "sacrebleu-zh"}),
        ("tok=sacrebleu-zh+metrics=bleu", {"tokenizer": "sacrebleu-zh", "metrics": ["bleu"]}),
        ("tok=llamafactory-jieba+metrics=rouge", {"tokenizer": "llamafactory-jieba", "metrics": ["rouge"]}),
        ("metrics=meteor", {"metrics": ["meteor"]}), ("metrics=empty", {"metrics": []}),
        ("option=foo", {"foo": 1}), ("order=0", {"max_order": 0}), ("types=rougeX", {"rouge_types": ["rougeX"]}),
    ):
        s = "woz_trad" if label == "t2s" else "woz_groups"
        lib(S, "score", s, o, opt=label)
        if label in ("level=sentence", "types=all", "multi=pool", "crosscheck", "preset=llamafactory", "pr"):
            lib(S, "score", "csl_lsum", {**o, "sentence_split": "newline"}, split="newline", opt=label)
    lib_inputs(cid(S, "errors", input="empty-reference"), "score", slice_with("woz_groups", ref=""), {})
    lib_inputs(cid(S, "errors", input="empty-reference", metrics="bleu"), "score", slice_with("woz_groups", ref=""),
               {"metrics": ["bleu"]})
    lib_inputs(cid(S, "errors", input="int-prediction"), "score", slice_with("woz_groups", pred=3), {})
    lib_inputs(cid(S, "inputs", input="empty-prediction", split="newline"), "score",
               slice_with("woz_groups", pred=""), {"sentence_split": "newline"})
    lib_inputs(cid(S, "inputs", input="str-reference"), "score", lambda ctx: ctx.items("woz_single"), {})
