"""Bytes per item in one process (issue 34 item 5): the tokenised corpus the way ``compute_rouge`` builds it (char and
jieba), the per-item results of ``compute_rouge`` and ``zheval.score``, and the peak during each call, on W3 (6,000
items, every text distinct).

    python scripts/bench_memory.py [--data-dir ../shared/data] [--only char,jieba,score,...] [--modes numpy,compiled]
                                   [--json FILE]

Each measurement is a fresh child process, on the numpy path (``ZHEVAL_COMPILED=0``) and with the compiled twins
(``zheval.fast.warmup()`` first; ``--modes``): dictionaries and imports loaded and a 2-item call made first, then
``tracemalloc`` around the measured call. "retained" is what is still allocated after the call (and a
``gc.collect()``) while its result is alive; "peak" the most allocated during it; both divided by the number of
items. For the corpora the arrays are listed with their dtype and bytes per item.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(r'''
    import gc, json, os, sys, tracemalloc
    import numpy as np
    kind, path = sys.argv[1], sys.argv[2]
    preds, refs = json.load(open(path, encoding="utf-8"))
    WP, WR = ["今天天气很好", "谢谢"], [["今天天气不错"], ["谢谢你"]]
    import zheval
    if os.environ.get("ZHEVAL_COMPILED") != "0":
        import zheval.fast; zheval.fast.warmup()
    from zheval.fast import usable_for
    from zheval.tokenizers import get_tokenizer
    from zheval.tokenizers.corpus import tokenize_corpus
    from zheval.tokenizers.jieba_rs import jieba_rs_segmenter
    R3 = ["rouge1", "rouge2", "rougeL"]

    def corpus_of(p, r, tk):  # the call compute_rouge(rouge1/2/L) makes (zheval.compute.rouge.rouge_items)
        tok = get_tokenizer(tk)
        return tokenize_corpus(p, r, tok, "punct", char_ids=usable_for("char_ids", tokenizer=tok),
                               compiled_tokens=usable_for("compiled_tokens", predictions=p, references=r),
                               normalize_all=usable_for("normalize_corpus", tokenizer=tok),
                               segmenter=jieba_rs_segmenter(tok) if usable_for("jieba_rs", tokenizer=tok) else None,
                               sentences=False)

    name, _, tk = kind.partition(":")
    TERMS = ["地铁站", "酒店", "景点", "北京", "餐馆", "评分", "推荐", "电话", "地址", "免费"]
    kw = {"terms": TERMS} if tk == "terms" else {}  # char with terms (bench_compiled's T)
    tk = "char" if tk == "terms" else tk
    if name == "corpus":
        run = lambda p, r: corpus_of(p, r, tk)
    elif name == "rouge":  # per-item scores (use_aggregator=False)
        run = lambda p, r: zheval.compute_rouge(p, r, rouge_types=R3, tokenizer=tk, use_aggregator=False)
    elif name == "rougeagg":  # the aggregated call: only its peak means anything
        run = lambda p, r: zheval.compute_rouge(p, r, rouge_types=R3, tokenizer=tk, **kw)
    elif name == "score":
        run = lambda p, r: zheval.score(p, r, rouge_types=R3, tokenizer=tk)
    run(WP, WR)
    n = len(preds)
    tracemalloc.start()
    out = run(preds, refs)
    peak = tracemalloc.get_traced_memory()[1]
    gc.collect()  # the calls pause the cyclic collector (zheval.compute.gcpause): what a collection frees is not kept
    cur = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    res = {"retained B/item": round(cur / n), "peak B/item": round(peak / n)}
    if name == "corpus":
        arrays = {k: v for k, v in vars(out).items() if isinstance(v, np.ndarray)}
        res["arrays B/item"] = {k: f"{v.dtype} {v.nbytes / n:.0f}" for k, v in arrays.items()}
        res["tokens"] = len(out.ids)
        res["vocab"] = len(out.vocab)
        res["distinct texts"] = out.n_texts
    print(json.dumps(res))
''')

KINDS = {
    "char": "corpus:char", "jieba": "corpus:jieba", "rouge": "rouge:char", "score": "score:char",
    "peak-char": "rougeagg:char", "peak-jieba": "rougeagg:jieba", "peak-terms": "rougeagg:terms",
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", default=",".join(KINDS))
    ap.add_argument("--modes", default="numpy,compiled")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench_workloads as bw

    w = bw.build_w3(Path(a.data_dir))
    preds, refs = w["predictions"], w["references"]
    out = {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.json")
        Path(path).write_text(json.dumps([preds, refs], ensure_ascii=False), encoding="utf-8")
        Path(d, "child.py").write_text(CHILD, encoding="utf-8")
        base = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                    HF_EVALUATE_OFFLINE="1")
        for mode in a.modes.split(","):
            env = dict(base, ZHEVAL_COMPILED="0") if mode == "numpy" else dict(base)
            for k in a.only.split(","):
                p = subprocess.run([sys.executable, os.path.join(d, "child.py"), KINDS[k], path], env=env,
                                   capture_output=True, text=True)
                if p.returncode:
                    raise RuntimeError(f"{k} failed: {p.stderr[-2000:]}")
                out[f"{mode} {k}"] = json.loads(p.stdout.strip().splitlines()[-1])
                print(f"{mode:8s} {k:10s} {json.dumps(out[f'{mode} {k}'])}", flush=True)
    print(f"W3: {len(preds)} items, {sum(map(len, refs))} references, every text distinct")
    if a.json:
        Path(a.json).write_text(json.dumps(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
