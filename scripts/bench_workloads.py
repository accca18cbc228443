"""Deterministic benchmark workloads built from the real texts in ``../shared/data`` (see its README).

Nothing is paraphrased or generated: every text is a real CrossWOZ reply (or two consecutive real replies of one
dialogue joined) or a run of real CSL abstract sentences. Only the *recombination* into items is synthetic, driven
by a seeded ``random.Random`` so that every run, every process and every machine builds byte-identical workloads
(:func:`fingerprint` is printed with the results).

W1 — dialogue (issue 8): ``n`` items (13,200 by default), each a prediction with 2–5 references
    (P(2, 3, 4, 5) = 0.1, 0.2, 0.5, 0.2, mean 3.8), every text 5–150 characters.

    * 85 % of items: prediction = a segment of one CrossWOZ test dialogue, references = other segments of the *same*
      dialogue (same hotels, restaurants, streets: realistic partial overlap). A segment is one system reply or two
      consecutive replies of the dialogue joined (if the result has at most 150 characters).
    * 15 % of items: a real same-query group (``crosswoz_same_query_groups.jsonl``): prediction = one reply of the
      group, references = the others, topped up with segments of a random dialogue when the group is too small.
    * 5 % of items have the prediction itself among their references (exact matches exercise F = 1 paths).

W1-unique — optional (``--workloads W1-unique``): W1's item shape with texts that almost never repeat (60,250 distinct
    of 63,451; see :func:`build_w1_unique`), to see what per-distinct-text memoisation is worth on real eval sets.

W3 — distinct dialogue (issue 17): ``n`` items (6,000 by default), 2–5 references each (the weights of W1), every
    text 5–150 characters and **no text repeated anywhere in the workload** (predictions and references alike; a
    drawn text already used is drawn again). Texts are real pieces -- CrossWOZ user turns and system replies, CSL
    abstract sentences -- taken alone or joined with the next piece of the same dialogue/abstract, sometimes with a
    piece of another source appended (realistic partial overlap, nothing paraphrased). 70 % of the items come from
    one CrossWOZ dialogue (prediction and references are pieces of that dialogue), 30 % from one CSL abstract.
    Per-call de-duplication cannot help here: every text is tokenised and every pair scored.

L100k — one pair (issue 17): a prediction of exactly 100,000 characters (CSL abstracts from the first one, joined)
    against a reference of exactly 100,000 characters (the abstracts from the 101st on): long shared stretches.
L10kx10 — one pair: 10,000 lines of 10 characters each (the CSL abstracts from the 201st on, cut every 10
    characters) against 10,000 such lines (from the 301st abstract on).

W2 — long summaries: ``n`` items (200 and 2,000), each a prediction of 300–1,500 characters and one reference,
    one sentence per line (``"\\n"`` between sentences, as rouge-score's rougeLsum expects). A text is the
    sentences of consecutive CSL abstracts (``csl_ts_test.jsonl``, field ``document``) from a random start, cut at a
    sentence boundary once a random target length in [300, 1500] is reached. The reference starts one abstract
    later (70 % of items: large shared stretches, as an extractive summary against its reference) or 3–10
    abstracts later (30 %: little shared text); its target length is within ±30 % of the prediction's.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
from pathlib import Path
from typing import Dict, List

MIN_CHARS_W1, MAX_CHARS_W1 = 5, 150
MIN_CHARS_W2, MAX_CHARS_W2 = 300, 1500
REF_COUNT_WEIGHTS = {2: 0.1, 3: 0.2, 4: 0.5, 5: 0.2}  # mean 3.8
SEED_W1 = 20240517
SEED_W2 = 20240518
SEED_W3 = 20240519

Workload = Dict[str, object]  # {"name", "predictions": [str], "references": [[str]], "description": str, ...}


def _read_jsonl(path: Path) -> List[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# ---------------------------------------------------------------------------------------------------------------
# W1


def _dialogue_segments(data_dir: Path) -> List[List[str]]:
    """Per CrossWOZ test dialogue (in file order): its distinct segments of 5–150 characters."""
    rows = _read_jsonl(data_dir / "crosswoz_single_turn.jsonl")
    dialogues: Dict[str, List[str]] = {}
    for r in rows:
        dlg = r["id"].rsplit("-", 1)[0]  # crosswoz-test-<dialogue id>-<turn index>
        dialogues.setdefault(dlg, []).extend(r["responses"])
    out = []
    for replies in dialogues.values():
        segs = []
        for j, rep in enumerate(replies):
            segs.append(rep)
            if j + 1 < len(replies):
                segs.append(rep + replies[j + 1])
        segs = [s for s in dict.fromkeys(segs) if MIN_CHARS_W1 <= len(s) <= MAX_CHARS_W1]
        if len(segs) >= 6:  # enough for a prediction and 5 distinct references
            out.append(segs)
    return out


def _groups(data_dir: Path) -> List[List[str]]:
    groups = []
    for g in _read_jsonl(data_dir / "crosswoz_same_query_groups.jsonl"):
        reps = [s for s in dict.fromkeys(g["responses"]) if MIN_CHARS_W1 <= len(s) <= MAX_CHARS_W1]
        if len(reps) >= 2:
            groups.append(reps)
    return groups


def build_w1(data_dir: Path, n_items: int = 13_200, seed: int = SEED_W1) -> Workload:
    """The W1 dialogue workload (module docstring). Deterministic for given ``(data, n_items, seed)``."""
    rng = random.Random(seed)
    dialogues = _dialogue_segments(data_dir)
    groups = _groups(data_dir)
    ks, kw = zip(*REF_COUNT_WEIGHTS.items())
    preds: List[str] = []
    refs: List[List[str]] = []
    for _ in range(n_items):
        k = rng.choices(ks, kw)[0]
        if groups and rng.random() < 0.15:
            g = groups[rng.randrange(len(groups))][:]
            rng.shuffle(g)
            pred, rs = g[0], g[1 : 1 + k]
            if len(rs) < k:
                extra = [s for s in dialogues[rng.randrange(len(dialogues))] if s != pred and s not in rs]
                rs += rng.sample(extra, k - len(rs))
        else:
            segs = dialogues[rng.randrange(len(dialogues))]
            pick = rng.sample(segs, k + 1)
            pred, rs = pick[0], pick[1:]
        if rng.random() < 0.05:
            rs[rng.randrange(k)] = pred
        preds.append(pred)
        refs.append(rs)
    return _finish("W1", preds, refs, f"W1 dialogue, {n_items} items, CrossWOZ, seed {seed}")


def _dialogue_replies(data_dir: Path) -> List[List[str]]:
    rows = _read_jsonl(data_dir / "crosswoz_single_turn.jsonl")
    dialogues: Dict[str, List[str]] = {}
    for r in rows:
        dialogues.setdefault(r["id"].rsplit("-", 1)[0], []).extend(r["responses"])
    return [d for d in dialogues.values() if len(d) >= 4]


def build_w1_unique(data_dir: Path, n_items: int = 13_200, seed: int = SEED_W1 + 1) -> Workload:
    """W1 with (almost) no repeated text: same item shape as W1 (2–5 references, mean 3.8, 5–150 characters), but
    every text is a reply of the item's CrossWOZ dialogue followed by 1–2 replies of random
    dialogues (all real replies, joined), drawn afresh for every prediction and reference. It measures the speed on evaluation sets whose texts do not repeat, where
    per-distinct-text memoisation cannot help (W1 itself has 17.8 occurrences per distinct text)."""
    rng = random.Random(seed)
    dialogues = _dialogue_replies(data_dir)
    ks, kw = zip(*REF_COUNT_WEIGHTS.items())

    def text(d: List[str]) -> str:
        while True:
            t = d[rng.randrange(len(d))]
            for _ in range(rng.choice((1, 1, 2))):
                other = dialogues[rng.randrange(len(dialogues))]
                t += other[rng.randrange(len(other))]
            if MIN_CHARS_W1 <= len(t) <= MAX_CHARS_W1:
                return t

    preds: List[str] = []
    refs: List[List[str]] = []
    for _ in range(n_items):
        k = rng.choices(ks, kw)[0]
        d = dialogues[rng.randrange(len(dialogues))]
        preds.append(text(d))
        refs.append([text(d) for _ in range(k)])
    return _finish("W1-unique", preds, refs, f"W1-unique dialogue (texts rarely repeat), {n_items} items, "
                   f"CrossWOZ, seed {seed}")


# ---------------------------------------------------------------------------------------------------------------
# W2

_TERMINATORS = set("。！？!?")


def split_abstract(text: str) -> List[str]:
    """Cut after 。！？!? (and runs of them) and after an ASCII '.' not followed by a letter/digit."""
    out, cur = [], []
    n = len(text)
    for i, ch in enumerate(text):
        cur.append(ch)
        nxt = text[i + 1] if i + 1 < n else ""
        if ch in _TERMINATORS and nxt not in _TERMINATORS:
            out.append("".join(cur))
            cur = []
        elif ch == "." and not (nxt.isascii() and nxt.isalnum()) and nxt != ".":
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def _take(sents_by_doc: List[List[str]], start: int, target: int) -> List[str]:
    out: List[str] = []
    total = 0
    d = start
    while total < target:
        for s in sents_by_doc[d % len(sents_by_doc)]:
            out.append(s)
            total += len(s)
            if total >= target:
                break
        d += 1
    while total > MAX_CHARS_W2 and len(out) > 1 and total - len(out[-1]) >= MIN_CHARS_W2:
        total -= len(out.pop())
    return out


def build_w2(data_dir: Path, n_items: int = 200, seed: int = SEED_W2) -> Workload:
    """The W2 long-summary workload (module docstring). One reference per item, one sentence per line."""
    rng = random.Random(seed)
    docs = [r["document"] for r in _read_jsonl(data_dir / "csl_ts_test.jsonl")]
    sents_by_doc = [[s for s in split_abstract(d) if len(s) <= 400] for d in docs]
    sents_by_doc = [s for s in sents_by_doc if s]
    preds: List[str] = []
    refs: List[List[str]] = []
    while len(preds) < n_items:
        target = rng.randint(MIN_CHARS_W2, MAX_CHARS_W2)
        start = rng.randrange(len(sents_by_doc))
        pred = _take(sents_by_doc, start, target)
        shift = 1 if rng.random() < 0.7 else rng.randint(3, 10)
        rtarget = min(MAX_CHARS_W2, max(MIN_CHARS_W2, round(target * rng.uniform(0.7, 1.3))))
        ref = _take(sents_by_doc, start + shift, rtarget)
        p, r = "\n".join(pred), "\n".join(ref)
        lp, lr = len(p.replace("\n", "")), len(r.replace("\n", ""))
        if not (MIN_CHARS_W2 <= lp <= MAX_CHARS_W2 and MIN_CHARS_W2 <= lr <= MAX_CHARS_W2):
            continue  # deterministic rejection (rare: a very long last sentence)
        preds.append(p)
        refs.append([r])
    return _finish(f"W2-{n_items}", preds, refs, f"W2 long summaries, {n_items} items, CSL abstracts, seed {seed}")


# ---------------------------------------------------------------------------------------------------------------
# W3


def _w3_sources(data_dir: Path) -> Tuple[List[List[str]], List[List[str]]]:
    """(CrossWOZ dialogues as their pieces in order: user turn, system reply, ...; CSL abstracts as their
    sentences), each piece 5–150 characters, sources with at least 4 pieces."""
    rows = _read_jsonl(data_dir / "crosswoz_single_turn.jsonl")
    dialogues: Dict[str, List[str]] = {}
    for r in rows:
        dialogues.setdefault(r["id"].rsplit("-", 1)[0], []).extend([r["query"]] + r["responses"])
    ok = lambda s: MIN_CHARS_W1 <= len(s) <= MAX_CHARS_W1  # noqa: E731
    dlg = [[s for s in d if ok(s)] for d in dialogues.values()]
    docs = [r["document"] for r in _read_jsonl(data_dir / "csl_ts_test.jsonl")]
    csl = [[s for s in split_abstract(d) if ok(s)] for d in docs]
    return [d for d in dlg if len(d) >= 4], [c for c in csl if len(c) >= 4]


def build_w3(data_dir: Path, n_items: int = 6_000, seed: int = SEED_W3) -> Workload:
    """The W3 distinct-text dialogue workload (module docstring). Deterministic for given ``(data, n_items, seed)``;
    every text of the workload occurs once."""
    rng = random.Random(seed)
    dialogues, abstracts = _w3_sources(data_dir)
    everything = dialogues + abstracts
    ks, kw = zip(*REF_COUNT_WEIGHTS.items())
    seen: set = set()

    def text(src: List[str]) -> str:
        for _ in range(1000):
            j = rng.randrange(len(src))
            t = src[j]
            if j + 1 < len(src) and rng.random() < 0.3:
                t += src[j + 1]
            if rng.random() < 0.2:
                other = everything[rng.randrange(len(everything))]
                t += other[rng.randrange(len(other))]
            if MIN_CHARS_W1 <= len(t) <= MAX_CHARS_W1 and t not in seen:
                seen.add(t)
                return t
        raise RuntimeError("W3: could not draw a new text from this source")  # pragma: no cover

    preds: List[str] = []
    refs: List[List[str]] = []
    for _ in range(n_items):
        k = rng.choices(ks, kw)[0]
        pool = dialogues if rng.random() < 0.7 else abstracts
        src = pool[rng.randrange(len(pool))]
        preds.append(text(src))
        refs.append([text(src) for _ in range(k)])
    return _finish("W3", preds, refs, f"W3 distinct dialogue (no text repeats), {n_items} items, CrossWOZ turns + "
                   f"CSL sentences, seed {seed}")


# ---------------------------------------------------------------------------------------------------------------


def fingerprint(preds: List[str], refs: List[List[str]]) -> str:
    h = hashlib.sha256()
    for p, rs in zip(preds, refs):
        h.update(p.encode("utf-8"))
        h.update(b"\x00")
        for r in rs:
            h.update(r.encode("utf-8"))
            h.update(b"\x01")
        h.update(b"\x02")
    return h.hexdigest()[:12]


def _finish(name: str, preds: List[str], refs: List[List[str]], description: str) -> Workload:
    texts = preds + [r for rs in refs for r in rs]
    lens = [len(t.replace("\n", "")) for t in texts]
    nrefs = [len(rs) for rs in refs]
    stats = {
        "items": len(preds),
        "references": sum(nrefs),
        "refs_per_item_mean": round(statistics.fmean(nrefs), 3),
        "refs_per_item_min": min(nrefs),
        "refs_per_item_max": max(nrefs),
        "chars_min": min(lens),
        "chars_max": max(lens),
        "chars_mean": round(statistics.fmean(lens), 1),
        "texts": len(texts),
        "distinct_texts": len(set(texts)),
        "lines_per_text_mean": round(statistics.fmean(t.count("\n") + 1 for t in texts), 2),
    }
    return {
        "name": name,
        "description": description,
        "predictions": preds,
        "references": refs,
        "stats": stats,
        "fingerprint": fingerprint(preds, refs),
    }


def _csl_stream(data_dir: Path, start: int, n_chars: int) -> str:
    docs = [r["document"] for r in _read_jsonl(data_dir / "csl_ts_test.jsonl")]
    out, total, d = [], 0, start
    while total < n_chars:
        doc = docs[d % len(docs)]
        out.append(doc)
        total += len(doc)
        d += 1
    return "".join(out)[:n_chars]


def build_long(name: str, data_dir: Path) -> Workload:
    """``L100k`` or ``L10kx10`` (module docstring): one item, one reference."""
    if name == "L100k":
        pred, ref = _csl_stream(data_dir, 0, 100_000), _csl_stream(data_dir, 100, 100_000)
        desc = "one 100,000-character prediction against one 100,000-character reference (CSL abstracts)"
    elif name == "L10kx10":
        def lines(start):
            s = _csl_stream(data_dir, start, 100_000)
            return "\n".join(s[i:i + 10] for i in range(0, len(s), 10))

        pred, ref = lines(200), lines(300)
        desc = "10,000 lines of 10 characters against 10,000 lines of 10 characters (CSL abstracts)"
    else:
        raise ValueError(name)
    return _finish(name, [pred], [[ref]], desc)


def build(name: str, data_dir: Path, scale: float = 1.0) -> Workload:
    """Build a workload by name: ``W1``, ``W1-unique``, ``W2-200``, ``W2-2000``, ``W3`` (``scale`` < 1 shrinks the item count)."""
    if name == "W1":
        return build_w1(data_dir, max(10, round(13_200 * scale)))
    if name == "W1-unique":
        return build_w1_unique(data_dir, max(10, round(13_200 * scale)))
    if name == "W3":
        return build_w3(data_dir, max(10, round(6_000 * scale)))
    if name in ("L100k", "L10kx10"):
        return build_long(name, data_dir)
    if name.startswith("W2-"):
        n = int(name[3:])
        w = build_w2(data_dir, max(5, round(n * scale)))
        w["name"] = name
        return w
    raise ValueError(f"unknown workload {name!r}; valid: W1, W1-unique, W2-200, W2-2000, W3, L100k, L10kx10")


if __name__ == "__main__":  # pragma: no cover - manual inspection
    import sys

    root = Path(__file__).resolve().parents[1]
    for nm in sys.argv[1:] or ["W1", "W2-200"]:
        w = build(nm, root.parent / "shared" / "data")
        print(nm, w["fingerprint"], w["stats"])
        print("  e.g.", repr(w["predictions"][0][:80]), "->", [r[:40] for r in w["references"][0]])
