"""The issue-34 table in one run: zheval with the compiled twins (numba cache warm), with numpy only, and with a
cold cache, against the prototypes of ``../shared/perf-floor`` (numba ROUGE, numba BLEU, numpy both-at-once) and
rouge-rust fed our tokens, on W3 (6,000 items, every text distinct); every ROUGE type; long documents; bytes per
item; ``import zheval``.

    python scripts/bench_compiled.py [--repeats 3] [--floor ../shared/perf-floor] [--data-dir ../shared/data]
                                     [--only KIND,...] [--json FILE]
    python scripts/bench_compiled.py --breakeven    (import numba, load from a warm cache, compile from a cold
                                                     one, and the numpy twins' CPU per unit of work on W3)

Every (kind, repetition) is a fresh child process (kinds interleaved and rotated); imports, ``zheval.fast.warmup()``
(for the warm kinds) and a 2-item warm-up call are setup, untimed; the timed call's CPU time (``process_time``: the
process's own CPU, all threads) and wall time, and the child's peak RSS (``wait4``), medians over repetitions. On
a machine shared with other work only the CPU times mean anything: ratios are of CPU medians of the same run. The
numbers of every kind are compared with the numpy path's before any ratio is printed (exit 2 when one differs).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(r'''
    import json, os, sys, time
    kind, path = sys.argv[1], sys.argv[2]
    preds, refs = json.load(open(path, encoding="utf-8"))
    WP, WR = ["今天天气很好", "谢谢"], [["今天天气不错"], ["谢谢你"]]
    mode = os.environ.get("BENCH_MODE", "warm")
    t0 = time.process_time()
    import zheval
    import_cpu = time.process_time() - t0
    from zheval.tokenizers.base import clear_cache
    if mode == "warm":
        import zheval.fast; zheval.fast.warmup()
    name, _, arg = kind.partition(":")
    if name == "import":
        print(json.dumps({"t": import_cpu, "cpu": import_cpu, "r": {"numba imported": "numba" in sys.modules}}))
        sys.exit(0)
    if name == "rouge":
        arg, _, tok = arg.partition("|")  # a tokenizer configuration: terms, jieba, jieba+terms (bench_impls.TERMS)
        types = arg.split("+")
        terms = ["地铁站", "酒店", "景点", "北京", "餐馆", "评分", "推荐", "电话", "地址", "免费", "门票", "附近", "研究",
                 "方法", "结果", "系统", "分析", "实验", "模型", "数据"]
        kw = {"": {}, "terms": {"terms": terms}, "jieba": {"tokenizer": "jieba"},
              "jieba+terms": {"tokenizer": "jieba", "terms": terms}}[tok]
        zheval.compute_rouge(WP, WR, rouge_types=types, **kw)
        def run():
            o = zheval.compute_rouge(preds, refs, rouge_types=types, **kw)
            return {t: o[t] for t in types}
    elif name == "bleu":
        zheval.compute_bleu(WP, WR)
        run = lambda: {"bleu": zheval.compute_bleu(preds, refs)["bleu"]}
    elif name == "score":
        kw = dict(rouge_types=["rouge1", "rouge2", "rougeL"])
        zheval.score(WP, WR, **kw)
        def run():
            o = zheval.score(preds, refs, **kw)
            return {"rouge1": o["rouge"]["rouge1"], "rouge2": o["rouge"]["rouge2"], "rougeL": o["rouge"]["rougeL"],
                    "bleu": o["bleu"]["bleu"]}
    elif name == "items":  # bytes per item of the tokenised corpus and of the per-item scores
        import tracemalloc
        from zheval.tokenizers import get_tokenizer
        from zheval.tokenizers.corpus import tokenize_corpus
        def run():
            out = {}
            for tk in ("char", "jieba"):
                tokenize_corpus(WP, WR, get_tokenizer(tk), "newline", char_ids=(tk == "char"))  # dictionaries loaded
                tracemalloc.start()
                c = tokenize_corpus(preds, refs, get_tokenizer(tk), "newline", char_ids=(tk == "char"))
                cur = tracemalloc.get_traced_memory()[0]
                tracemalloc.stop()
                out[tk + " corpus bytes/item"] = round(cur / len(preds))
                del c
            tracemalloc.start()
            s = zheval.compute_rouge(preds, refs, rouge_types=["rouge1", "rouge2", "rougeL"], use_aggregator=False)
            out["per-item scores bytes/item"] = round(tracemalloc.get_traced_memory()[0] / len(preds))
            tracemalloc.stop()
            return out
    clear_cache()
    t = time.perf_counter(); c = time.process_time()
    res = run()
    print(json.dumps({"t": time.perf_counter() - t, "cpu": time.process_time() - c, "r": res}))
''')

#: kind -> (child, env mode, what)
KINDS = {
    "Z": ("rouge:rouge1+rouge2+rougeL", "warm", "zheval compute_rouge rouge1/2/L, compiled cache warm"),
    "Zn": ("rouge:rouge1+rouge2+rougeL", "numpy", "the same, numpy twins only (ZHEVAL_COMPILED=0: today's path)"),
    "Zc": ("rouge:rouge1+rouge2+rougeL", "cold", "the same, numba installed, cache cold (new NUMBA_CACHE_DIR)"),
    "ZB": ("bleu", "warm", "zheval compute_bleu (char), warm"),
    "ZBn": ("bleu", "numpy", "zheval compute_bleu, numpy only"),
    "J": ("score", "warm", "zheval.score rouge1/2/L + BLEU, warm"),
    "Jn": ("score", "numpy", "zheval.score, numpy only"),
    "T": ("rouge:rouge1+rouge2+rougeL|terms", "warm", "compute_rouge rouge1/2/L, terms=<20 frequent words>, warm"),
    "ZL": ("rouge:rouge1+rouge2+rougeL+rougeLsum", "warm", "compute_rouge rouge1/2/L/Lsum (char), warm"),
    "TL": ("rouge:rouge1+rouge2+rougeL+rougeLsum|terms", "warm", "the same with terms=<20 frequent words>"),
    "JW": ("rouge:rouge1+rouge2+rougeL|jieba", "warm", "compute_rouge rouge1/2/L, jieba, warm"),
    "JWT": ("rouge:rouge1+rouge2+rougeL|jieba+terms", "warm", "the same, jieba with terms"),
    "W": ("rouge:rougeW", "warm", "rougeW, warm"),
    "S4": ("rouge:rougeS4", "warm", "rougeS4, warm"),
    "SU4": ("rouge:rougeSU4", "warm", "rougeSU4, warm"),
    "S*": ("rouge:rougeS*", "warm", "rougeS*, warm"),
    "SU*": ("rouge:rougeSU*", "warm", "rougeSU*, warm"),
    "Lsum": ("rouge:rougeLsum", "warm", "rougeLsum, warm"),
    "N": ("floor:N", None, "prototype floor3_compiled.rouge_corpus_numba (numba kernel)"),
    "NB": ("floor:NB", None, "prototype floor3_compiled.bleu_corpus_numba"),
    "PJ": ("floor:PJ", None, "prototype floor3.rouge_bleu_corpus (numpy, both at once)"),
    "B": ("floor:B", None, "rouge-rust 0.1.12 fed our char tokens (made in Python)"),
    "IMP": ("import", "numpy", "import zheval (CPU s)"),
    "MEM": ("items", "numpy", "bytes per item"),
}
DEFAULT = "Z,Zn,Zc,ZB,ZBn,J,Jn,W,S4,SU4,S*,SU*,N,NB,PJ,B,IMP"


def _run(cmd, env):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        text, etext = out.read().decode(), err.read().decode()
    if p.returncode:
        raise RuntimeError(f"{cmd[2:4]} failed: {etext[-2000:]}")
    o = json.loads(text.strip().splitlines()[-1])
    o["rss_mib"] = usage.ru_maxrss / 1024
    return o


BREAKEVEN_CHILD = textwrap.dedent(r'''
    import json, os, sys, time
    what, path = sys.argv[1], sys.argv[2]
    out = {}
    if what in ("warm", "cold"):
        c = time.process_time(); import numba; out["import numba"] = time.process_time() - c
        import zheval.fast
        c = time.process_time(); info = zheval.fast.warmup(); out["warmup (" + info["state_before"] + ")"] = time.process_time() - c
    else:  # the numpy twins' cost per unit of the work estimates (usable_for("compiled", numpy_seconds=...))
        import numpy as np, zheval
        from zheval.fast import rouge as fr, bleu as fb
        from zheval.fast.index import CorpusLayout
        from zheval.fast.keys import unique_inverse
        from zheval.tokenizers import get_tokenizer
        from zheval.tokenizers.corpus import tokenize_corpus
        preds, refs = json.load(open(path, encoding="utf-8"))
        corpus = tokenize_corpus(preds, refs, get_tokenizer("char"), "newline", char_ids=True, sentences=False)
        lay = CorpusLayout.from_corpus(corpus)
        hyp = lay.hyp[lay.pair_item]
        n = max(len(lay.lengths), 1)
        uniq, inverse = unique_inverse(hyp * n + lay.ref)
        u_hyp, u_ref = uniq // n, uniq % n
        nh, nr = lay.lengths[u_hyp], lay.lengths[u_ref]
        units = int((nh + nr).sum()) * 3 + int((((nh + 63) // 64) * nr).sum())
        c = time.process_time(); fr._slot_pass(lay, u_hyp, u_ref, inverse, [1, 2], True, {}); dt = time.process_time() - c
        out["numpy ROUGE-1/2/L pass s"] = dt
        out["s per pair-token unit (NUMPY_SECONDS_PER_PAIR_TOKEN)"] = dt / units
        tokens = int(lay.lengths[lay.hyp].sum() + lay.lengths[lay.ref].sum())
        os.environ["ZHEVAL_COMPILED"] = "0"
        c = time.process_time(); fb.layout_stats(lay, 4); dt = time.process_time() - c
        out["numpy BLEU matches s"] = dt
        out["s per item-token and order (NUMPY_SECONDS_PER_ITEM_TOKEN)"] = dt / (tokens * 4)
    print(json.dumps(out))
''')


def breakeven(path: str, d: str, base: dict, repeats: int) -> None:
    """Print the costs behind :data:`zheval.fast.compiled.WARM_SECONDS` / ``COLD_SECONDS`` and the numpy twins'
    cost per unit of work (medians of fresh processes)."""
    Path(d, "breakeven.py").write_text(BREAKEVEN_CHILD, encoding="utf-8")
    cold_dirs = lambda: {"NUMBA_CACHE_DIR": tempfile.mkdtemp(dir=d), "ZHEVAL_CACHE_DIR": tempfile.mkdtemp(dir=d)}  # noqa: E731
    runs: dict = {}
    for _ in range(repeats):
        for what, extra in (("cold", cold_dirs()), ("warm", {}), ("numpy", {"ZHEVAL_COMPILED": "0"})):
            o = _run([sys.executable, os.path.join(d, "breakeven.py"), what, path], dict(base, **extra))
            for k, v in o.items():
                if k != "rss_mib":
                    runs.setdefault(k, []).append(v)
    print("break-even inputs (CPU s, medians of fresh processes):")
    for k, v in runs.items():
        print(f"  {k:60s} {statistics.median(v):.3g}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--floor", default=str(ROOT.parent / "shared" / "perf-floor"))
    ap.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", default=DEFAULT)
    ap.add_argument("--json")
    ap.add_argument("--breakeven", action="store_true", help="only the break-even inputs (import, load, compile, "
                    "the numpy twins' cost per unit of work)")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench_workloads as bw

    w = bw.build_w3(Path(a.data_dir))
    preds, refs = w["predictions"], w["references"]
    kinds = a.only.split(",")
    floor_child = None
    if not a.breakeven and any(KINDS[k][0].startswith("floor") for k in kinds):
        sys.path.insert(0, a.floor)
        src = Path(a.floor, "bench_floor3.py").read_text(encoding="utf-8")
        ns: dict = {"__file__": str(Path(a.floor, "bench_floor3.py"))}
        exec(compile(src.split("def main():")[0], "bench_floor3", "exec"), ns)  # its CHILD program only
        floor_child = ns["CHILD"]
    cpu = {k: [] for k in kinds}
    wall = {k: [] for k in kinds}
    rss = {k: [] for k in kinds}
    res = {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.json")
        Path(path).write_text(json.dumps([preds, refs], ensure_ascii=False), encoding="utf-8")
        Path(d, "child.py").write_text(CHILD, encoding="utf-8")
        if floor_child:
            Path(d, "floor_child.py").write_text(floor_child, encoding="utf-8")
        base = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                    HF_EVALUATE_OFFLINE="1")
        if a.breakeven:
            breakeven(path, d, base, a.repeats)
            return 0
        for rep in range(a.repeats):
            for k in kinds[rep % len(kinds):] + kinds[:rep % len(kinds)]:
                spec, mode, _ = KINDS[k]
                env = dict(base)
                if spec.startswith("floor"):
                    env["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "floor3-numba-cache")
                    cmd = [sys.executable, os.path.join(d, "floor_child.py"), spec[6:], path, str(ROOT), a.floor]
                else:
                    env["BENCH_MODE"] = mode
                    if mode == "numpy":
                        env["ZHEVAL_COMPILED"] = "0"
                    elif mode == "cold":
                        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(dir=d)
                        env["ZHEVAL_CACHE_DIR"] = tempfile.mkdtemp(dir=d)
                    cmd = [sys.executable, os.path.join(d, "child.py"), spec, path]
                o = _run(cmd, env)
                cpu[k].append(o["cpu"]), wall[k].append(o["t"]), rss[k].append(o["rss_mib"])
                res[k] = o["r"]
            print(f"rep {rep + 1}: " + ", ".join(f"{k} {cpu[k][-1]:.3f}" for k in kinds), flush=True)
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    mw = {k: statistics.median(v) for k, v in wall.items()}
    mr = {k: max(v) for k, v in rss.items()}
    # the numbers: every kind equal to the numpy path's (the prototypes exactly; rouge-rust within 1e-9)
    ref = {}
    for k in ("Zn", "ZBn", "Jn"):
        ref.update(res.get(k, {}))
    bad = [k for k in kinds if k not in ("IMP", "MEM") and any(
        abs(v - ref[t]) > (1e-9 if k == "B" else 0.0) for t, v in res[k].items() if t in ref)]
    print(f"W3: {len(preds)} items, {sum(map(len, refs))} references, every text distinct; medians of "
          f"{a.repeats} fresh processes; CPU s (wall s), peak RSS MiB")
    for k in kinds:
        print(f"  {k:5s} {mc[k]:7.3f} ({mw[k]:6.3f})  {mr[k]:6.0f} MiB  {KINDS[k][2]}   {res[k]}")
    print("numbers:", "all equal to the numpy path" if not bad else f"DIFFER: {bad}")

    def ratio(x, y):
        return f"{mc[x] / mc[y]:.2f}" if x in mc and y in mc and mc[y] else "n/a"

    rows = [("ROUGE-1/2/L: rouge-rust fed our tokens / zheval (>= 6)", ratio("B", "Z")),
            ("ROUGE-1/2/L: zheval / numba prototype (<= 1.1)", ratio("Z", "N")),
            ("BLEU: zheval / numba prototype BLEU (<= 1.2)", ratio("ZB", "NB")),
            ("score: zheval / numpy both-at-once prototype (<= 0.6)", ratio("J", "PJ")),
            ("cold cache / numpy path (<= 1.1)", ratio("Zc", "Zn")),
            ("warm / numpy path, ROUGE-1/2/L", ratio("Z", "Zn")),
            ("warm / numpy path, BLEU", ratio("ZB", "ZBn")),
            ("warm / numpy path, score", ratio("J", "Jn"))]
    rows += [(f"{t} / ROUGE-1/2/L (<= {2 if t in ('W', 'S4', 'SU4') else 5})", ratio(t, "Z"))
             for t in ("W", "S4", "SU4", "S*", "SU*", "Lsum")]
    rows += [("terms / char, ROUGE-1/2/L (<= 1.3)", ratio("T", "Z")),
             ("terms / char, with Lsum (<= 1.3)", ratio("TL", "ZL")),
             ("jieba with terms / jieba (<= 1.3)", ratio("JWT", "JW"))]
    print("| target (CPU medians, this run) | ratio |\n|---|---:|")
    for name, v in rows:
        print(f"| {name} | {v} |")
    if a.json:
        Path(a.json).write_text(json.dumps({"cpu": cpu, "wall": wall, "rss": rss, "results": res}), encoding="utf-8")
    return 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
