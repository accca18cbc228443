"""What ``scripts/bench.py`` prints from its measurements: the agreement check that must pass before any time is shown
(`check_agreement`), the per-workload tables and the summaries of issues 8, 17 and 26."""

from __future__ import annotations

import statistics

import bench_impls

TOL = 1e-12


def _maxdiff(a, b) -> float:
    """Max |a - b| over nested tuples/lists of floats (None entries are skipped); inf on a shape mismatch."""
    if a is None or b is None:
        return 0.0
    if isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            return float("inf")
        return max((_maxdiff(x, y) for x, y in zip(a, b)), default=0.0)
    return abs(float(a) - float(b))


def check_agreement(first: dict) -> tuple[list[str], list[str]]:
    """Compare the rep-0 outputs of one workload. Returns (failures, informational lines)."""
    fails: list[str] = []
    info: list[str] = []
    chk = {n: r["check"] for n, r in first.items() if "check" in r}

    def cmp(a: str, b: str, key: str, what: str, required: bool = True,
            why: str = "different tokenisation: not required to agree"):
        if a not in chk or b not in chk or key not in chk[a] or key not in chk[b]:
            return
        va, vb = chk[a][key], chk[b][key]
        if isinstance(va, dict):
            d = max((_maxdiff(va[t], vb.get(t)) for t in va), default=0.0)
        else:
            d = _maxdiff(va, vb)
        line = f"{a} vs {b} [{what}]: max |diff| = {d:.3g}"
        if required and d > TOL:
            fails.append(line + f" > {TOL:g}")
        else:
            info.append(line + ("" if required else f" ({why})"))

    # ROUGE: the reference implementation is rouge-score (else rouge-score-rs given our tokenizer)
    rref = next((n for n in ("rouge-score", "rouge-score-rs/pytok", "zheval-rouge") if n in chk), None)
    if rref:
        for n in ("zheval-rouge", "evaluate-chinese_rouge", "zheval-both", "rouge-score-rs/pytok", "rouge-score"):
            if n != rref:
                cmp(n, rref, "mean", "ROUGE-1/2/L/Lsum P,R,F means")
                cmp(n, rref, "items", "ROUGE-1/2/L/Lsum P,R,F per item")
        cmp("rouge-score-rs/native", rref, "mean", "ROUGE means", required=False)
    if "evaluate-chinese_rouge" in chk and "zheval-rouge" in chk:
        cmp("evaluate-chinese_rouge", "zheval-rouge", "mean", "ROUGE means, evaluate vs library")
    # BLEU
    # nltk's corpus_bleu is not exact by design: modified_precision's denominator is max(1, total), so a hypothesis
    # with fewer than n tokens adds 1 to the order-n total (sacrebleu and zheval add 0); W1 has such items.
    cmp("zheval-bleu", "nltk", "bleu", "corpus BLEU (0-1)", required=False,
        why="nltk counts max(1, n-grams) per hypothesis and order: not required to agree")
    for a, b in (("zheval-bleu", "sacrebleu-none"), ("evaluate-chinese_bleu", "zheval-bleu"),
                 ("zheval-both", "zheval-bleu"), ("zheval-bleu/sacrebleu-zh", "sacrebleu-zh")):
        cmp(a, b, "bleu", "corpus BLEU (0-1)")
        if a != "zheval-both":
            cmp(a, b, "counts", "matches per order")
            cmp(a, b, "totals", "n-grams per order")
    if "zheval-bleu" in chk and "sacrebleu-zh" in chk:
        info.append(f"zheval-bleu (char) = {chk['zheval-bleu']['bleu']:.6f}, sacrebleu-zh = "
                    f"{chk['sacrebleu-zh']['bleu']:.6f} (different tokenisations, not compared)")
    # issue 17: rouge-rust fed our tokens, and our configurations among themselves
    cmp("zheval-rouge/12L", "rouge-rust/pytok", "mean", "ROUGE-1/2/L P,R,F means (char tokens)")
    cmp("zheval-rouge/12L", "rouge-rust/pytok", "items", "ROUGE-1/2/L P,R,F per item (char tokens)")
    cmp("zheval-rouge/jieba-12L", "rouge-rust/jieba", "mean", "ROUGE-1/2/L P,R,F means (jieba tokens)")
    cmp("zheval-rouge/jieba-12L", "rouge-rust/jieba", "items", "ROUGE-1/2/L P,R,F per item (jieba tokens)")
    for a, b in (("zheval-rouge/12L", "zheval-rouge/default"), ("zheval-rouge/12L", "zheval-rouge"),
                 ("zheval-rouge/default", "zheval-both/default"), ("zheval-rouge/jieba-12L", "zheval-rouge/jieba"),
                 ("zheval-rouge/jieba", "zheval-both/jieba")):
        cmp(a, b, "mean", "ROUGE means of the shared types, one call vs another")
    cmp("zheval-both/default", "zheval-bleu", "bleu", "corpus BLEU (0-1), score() vs compute_bleu")
    # floors
    cmp("lcs-bitparallel", "lcs-dp", "lcs", "LCS lengths, all pairs")
    return fails, info


def _fmt_s(x: float) -> str:
    return f"{x:.3f}" if x < 10 else f"{x:.2f}" if x < 100 else f"{x:.1f}"


def _median(rs, key):
    return statistics.median(r[key] for r in rs)


def print_workload_table(wname: str, wres: dict) -> None:
    n_items = wres["n_items"]
    print(f"\n### {wname} — medians of interleaved runs ({wres['stats']['items']} items)")
    print("| implementation | what | runs | median s | min–max s | CPU s | items/s | peak RSS MiB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for n, rs in wres["runs"].items():
        med = _median(rs, "wall")
        desc = bench_impls.IMPLS[n][3]
        print(f"| {n} | {desc} | {len(rs)} | {_fmt_s(med)} | {_fmt_s(min(r['wall'] for r in rs))}–{_fmt_s(max(r['wall'] for r in rs))} "
              f"| {_fmt_s(_median(rs, 'cpu'))} | {n_items / med:,.0f} | {max(r['peak_run_mib'] for r in rs):.0f} |")
    loads = [r["load1"] for rs in wres["runs"].values() for r in rs]
    if loads:
        print(f"1-min load average during these runs: min {min(loads):.2f}, median {statistics.median(loads):.2f}, "
              f"max {max(loads):.2f} (2 cores; > 1 means another process competed for CPU)")
    meds = {n: _median(rs, "wall") for n, rs in wres["runs"].items()}
    ours = [n for n in meds if bench_impls.IMPLS[n][2]]
    lines = []
    for o in ours:
        kind = bench_impls.IMPLS[o][0]
        if kind == "both":
            continue
        peers = [p for p in meds if not bench_impls.IMPLS[p][2] and bench_impls.IMPLS[p][0] == kind]
        if peers:
            lines.append(f"| {o} | " + ", ".join(f"{p} {meds[p] / meds[o]:.2f}×" for p in peers) + " |")
    if lines:
        print("\nspeed-up of ours (peer median / our median; > 1 = we are faster):\n")
        print("| ours | vs peers |\n|---|---|")
        print("\n".join(lines))


def _ratio(meds, a, b):
    if a in meds and b in meds and meds[b] > 0:
        return meds[a] / meds[b]
    return None


def print_summary(res: dict) -> None:
    """The issue-8 targets, judged on wall-clock medians; CPU-time medians shown alongside (less load-sensitive)."""
    rows = []

    def meds(w, key):
        wr = res["workloads"].get(w)
        if not wr:
            return {}
        return {n: _median(rs, key) for n, rs in wr["runs"].items()}

    def target(label, w, a, b, ok_if, kind="ratio"):
        vals = []
        for key in ("wall", "cpu"):
            r = _ratio(meds(w, key), a, b)
            if r is not None and kind == "overhead":
                r = 100 * (r - 1)
            vals.append(r)
        fmt = "{:.2f}×" if kind == "ratio" else "{:+.1f}%" if kind == "overhead" else "{:.2f}"
        if vals[0] is None:
            rows.append(f"| {label} | n/a (not measured) | | |")
        else:
            rows.append(f"| {label} | {fmt.format(vals[0])} | {fmt.format(vals[1])} | "
                        f"{'PASS' if ok_if(vals[0]) else 'FAIL'} |")

    target("W1 ROUGE: rouge-score / zheval ≥ 30×", "W1", "rouge-score", "zheval-rouge", lambda v: v >= 30)
    target("W1 ROUGE: rouge-score-rs (our tokenizer) / zheval ≥ 2×", "W1", "rouge-score-rs/pytok", "zheval-rouge",
           lambda v: v >= 2)
    target("W1 ROUGE stretch: rouge-score-rs (own Rust tokenizer) / zheval ≥ 1×", "W1", "rouge-score-rs/native",
           "zheval-rouge", lambda v: v >= 1)
    target("W1 BLEU: sacrebleu zh (raw) / zheval ≥ 5×", "W1", "sacrebleu-zh", "zheval-bleu", lambda v: v >= 5)
    target("W1 BLEU: sacrebleu none (pre-tokenised) / zheval ≥ 2×", "W1", "sacrebleu-none", "zheval-bleu",
           lambda v: v >= 2)
    target("W1 both metrics / ROUGE alone ≤ 1.30", "W1", "zheval-both", "zheval-rouge", lambda v: v <= 1.30, "plain")
    target("W1 evaluate chinese_rouge overhead ≤ 25%", "W1", "evaluate-chinese_rouge", "zheval-rouge",
           lambda v: v <= 25, "overhead")
    target("W1 evaluate chinese_bleu overhead ≤ 25%", "W1", "evaluate-chinese_bleu", "zheval-bleu",
           lambda v: v <= 25, "overhead")
    for w in ("W2-200", "W2-2000"):
        if w not in res["workloads"]:
            continue
        target(f"{w} ROUGE: rouge-score / zheval ≥ 100×", w, "rouge-score", "zheval-rouge", lambda v: v >= 100)
        target(f"{w} ROUGE: rouge-score-rs (our tokenizer) / zheval ≥ 1.5×", w, "rouge-score-rs/pytok",
               "zheval-rouge", lambda v: v >= 1.5)
    w1 = res["workloads"].get("W1", {}).get("runs", {})
    peaks = {n: max(r["peak_run_mib"] for r in rs) for n, rs in w1.items() if bench_impls.IMPLS[n][2]}
    if peaks:
        worst = max(peaks, key=peaks.get)
        rows.append(f"| W1 peak RSS of ours ≤ 1024 MiB (worst: {worst}) | {peaks[worst]:.0f} MiB | | "
                    f"{'PASS' if peaks[worst] <= 1024 else 'FAIL'} |")
    print("\n## Targets (issue 8): ratios of medians from this run; verdict on wall clock\n")
    print("| target | wall | CPU | |\n|---|---:|---:|---|")
    print("\n".join(rows))


def print_summary_17(res: dict) -> None:
    """The issue-17 targets, judged on wall-clock medians of this run (CPU-time ratios alongside)."""
    rows = []

    def meds(w, key):
        wr = res["workloads"].get(w)
        return {n: _median(rs, key) for n, rs in wr["runs"].items()} if wr else {}

    def ratio_row(label, w, num, den, ok_if, fmt="{:.2f}×"):
        vals = [_ratio(meds(w, key), num, den) for key in ("wall", "cpu")]
        if vals[0] is None:
            rows.append(f"| {label} | n/a (not measured) | | |")
            return
        rows.append(f"| {label} | {fmt.format(vals[0])} | {fmt.format(vals[1])} | {'PASS' if ok_if(vals[0]) else 'FAIL'} |")

    ge = lambda t: (lambda v: v >= t)  # noqa: E731
    le = lambda t: (lambda v: v <= t)  # noqa: E731
    ratio_row("W3 ROUGE-1/2/L/Lsum (defaults): rouge-rust fed our char tokens / zheval ≥ 5×", "W3", "rouge-rust/pytok",
              "zheval-rouge/default", ge(5))
    ratio_row("W3 ROUGE-1/2/L/Lsum + BLEU (score): rouge-rust fed our char tokens / zheval ≥ 5×", "W3",
              "rouge-rust/pytok", "zheval-both/default", ge(5))
    ratio_row("W3 ROUGE-1/2/L (same types as the peer): rouge-rust / zheval (≥ 5×)", "W3", "rouge-rust/pytok",
              "zheval-rouge/12L", ge(5))
    ratio_row("W3 stretch: rouge-rust scoring alone (ids made) / zheval ROUGE-1/2/L/Lsum ≥ 1×", "W3",
              "rouge-rust/scoring", "zheval-rouge/default", ge(1))
    ratio_row("W3 jieba ROUGE-1/2/L/Lsum: rouge-rust fed jieba tokens / zheval ≥ 5×", "W3", "rouge-rust/jieba",
              "zheval-rouge/jieba", ge(5))
    ratio_row("W3 jieba ROUGE-1/2/L/Lsum + BLEU: rouge-rust fed jieba tokens / zheval ≥ 5×", "W3", "rouge-rust/jieba",
              "zheval-both/jieba", ge(5))
    for cfg in ("punct-drop", "terms", "none", "jieba-terms", "jieba"):
        ratio_row(f"W3 {cfg} / plain char ≤ 1.3", "W3", f"zheval-rouge/{cfg}", "zheval-rouge/default", le(1.3),
                  "{:.2f}")
    ratio_row("W3 jieba-terms / plain jieba ≤ 1.3", "W3", "zheval-rouge/jieba-terms", "zheval-rouge/jieba", le(1.3),
              "{:.2f}")
    for t in ("W", "S4", "SU4", "S*", "SU*"):
        ratio_row(f"W3 ROUGE-{t} / ROUGE-1/2/L ≤ 2", "W3", f"zheval-rouge/{t}", "zheval-rouge/12L", le(2), "{:.2f}")
    ratio_row("W2-2000 ROUGE-1/2/L/Lsum: rouge-score-rs (own Rust tokenizer) / zheval ≥ 1×", "W2-2000",
              "rouge-score-rs/native", "zheval-rouge", ge(1))
    for w in sorted(bench_impls.LONG_WORKLOADS):
        wr = res["workloads"].get(w)
        timed_out = res.get("timeouts", {}).get(w, {})
        for t in bench_impls._LONG_TYPES:
            n = f"zheval-type/{t}"
            if n in timed_out:
                rows.append(f"| {w} {t} ≤ 10 s and ≤ 1 GiB | > {timed_out[n]:.0f} s (not finished) | | FAIL |")
                continue
            rs = (wr or {}).get("runs", {}).get(n)
            if not rs:
                rows.append(f"| {w} {t} ≤ 10 s and ≤ 1 GiB | n/a (not measured) | | |")
                continue
            wall, peak = _median(rs, "wall"), max(r["peak_run_mib"] for r in rs)
            ok = wall <= 10 and peak <= 1024
            rows.append(f"| {w} {t} ≤ 10 s and ≤ 1 GiB | {wall:.2f} s, {peak:.0f} MiB | {_median(rs, 'cpu'):.2f} s | "
                        f"{'PASS' if ok else 'FAIL'} |")
    print("\n## Targets (issue 17): ratios of medians from this run; verdict on wall clock\n")
    print("| target | wall | CPU | |\n|---|---:|---:|---|")
    print("\n".join(rows))


def print_summary_26(res: dict) -> None:
    """The issue-26 targets on W3, judged on **CPU-time** medians of this run (the machine is shared: wall times
    are noise there; both sides of every ratio ran interleaved in the same run)."""
    rows = []

    def cpu_ratio(label, num, den, ok_if, fmt="{:.2f}×"):
        wr = res["workloads"].get("W3")
        meds = {n: _median(rs, "cpu") for n, rs in wr["runs"].items()} if wr else {}
        r = _ratio(meds, num, den)
        if r is None:
            rows.append(f"| {label} | n/a (not measured) | |")
            return
        rows.append(f"| {label} | {fmt.format(r)} | {'PASS' if ok_if(r) else 'FAIL'} |")

    ge = lambda t: (lambda v: v >= t)  # noqa: E731
    le = lambda t: (lambda v: v <= t)  # noqa: E731
    cpu_ratio("char ROUGE-1/2/L: rouge-rust fed our tokens / zheval ≥ 5×", "rouge-rust/pytok", "zheval-rouge/12L", ge(5))
    cpu_ratio("char ROUGE-1/2/L: zheval / floor3.rouge_corpus ≤ 1.25", "zheval-rouge/12L", "floor3/rouge", le(1.25),
              "{:.2f}")
    cpu_ratio("char BLEU: compute_bleu / floor3.bleu_corpus ≤ 1.5", "zheval-bleu", "floor3/bleu", le(1.5), "{:.2f}")
    cpu_ratio("score (ROUGE-1/2/L + BLEU) / floor3.rouge_bleu_corpus ≤ 1.3", "zheval-both/12L", "floor3/both",
              le(1.3), "{:.2f}")
    for cfg in ("punct-drop", "terms", "none", "jieba-terms", "jieba"):
        cpu_ratio(f"{cfg} / plain char (defaults) ≤ 1.3", f"zheval-rouge/{cfg}", "zheval-rouge/default", le(1.3),
                  "{:.2f}")
    for t in ("W", "S4", "SU4", "S*", "SU*"):
        cpu_ratio(f"ROUGE-{t} / ROUGE-1/2/L ≤ 2", f"zheval-rouge/{t}", "zheval-rouge/12L", le(2), "{:.2f}")
    print("\n## Targets (issue 26), W3: ratios of CPU-time medians from this run\n")
    print("| target | CPU ratio | |\n|---|---:|---|")
    print("\n".join(rows))
