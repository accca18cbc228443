#!/usr/bin/env python3
"""The real-data tables of the metric cards (how tokenisation and multi-reference rules change the numbers).

    .venv/bin/python scripts/card_tables.py            # print both tables (Markdown)
    .venv/bin/python scripts/card_tables.py --write    # replace them in metrics/*/README.md
    .venv/bin/python scripts/card_tables.py --check    # exit 1 if a card's table differs from a fresh run

Data (read from ``../shared/data``, or ``$ZHEVAL_SHARED_DATA``; never copied into the repository):

* **CSL** ``csl_ts_test.jsonl``: 1000 Chinese paper abstracts with their real titles. Prediction = the first 20
  characters of the abstract (a "lead" baseline; titles average 19 characters); reference = the title.
* **CrossWOZ** ``crosswoz_same_query_groups.jsonl``: 85 user turns that occur word for word in several dialogues,
  each with 3-5 different real system replies. Prediction = the first reply; references = the other 2-4 replies
  (a human reply scored against the others).

Each table sits in its card between ``<!-- card-table:start -->`` and ``<!-- card-table:end -->``; the tests
check that a fresh run reproduces it exactly. Numbers come from ``zheval.compute_rouge``/``compute_bleu``/``compute_chrf``, which
the evaluate modules call unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from zheval.compute.bleu import compute_bleu  # noqa: E402
from zheval.compute.chrf import compute_chrf  # noqa: E402
from zheval.compute.rouge import compute_rouge  # noqa: E402
from zheval.presets import preset_names  # noqa: E402

DATA = Path(os.environ.get("ZHEVAL_SHARED_DATA", REPO.parent / "shared" / "data"))
START, END = "<!-- card-table:start -->", "<!-- card-table:end -->"
LEAD = 20
CARDS = {"chinese_rouge": REPO / "metrics" / "chinese_rouge" / "README.md",
         "chinese_bleu": REPO / "metrics" / "chinese_bleu" / "README.md",
         "chinese_chrf": REPO / "metrics" / "chinese_chrf" / "README.md"}


def _rows(name: str) -> list[dict]:
    path = DATA / name
    if not path.exists():
        raise FileNotFoundError(f"shared data missing: {path} (set ZHEVAL_SHARED_DATA)")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def workloads() -> dict:
    """``{"csl": (preds, refs), "crosswoz": (preds, refs)}`` as described in the module docstring."""
    csl = _rows("csl_ts_test.jsonl")
    groups = _rows("crosswoz_same_query_groups.jsonl")
    return {
        "csl": ([r["document"][:LEAD] for r in csl], [[r["summary"]] for r in csl]),
        "crosswoz": ([g["responses"][0] for g in groups], [g["responses"][1:] for g in groups]),
    }


def _f(x: float) -> str:
    return f"{x:.4f}"


def rouge_table(w: dict) -> str:
    types = ["rouge1", "rouge2", "rougeL"]
    lines = ["| data | tokenizer | multi_ref | rouge1 | rouge2 | rougeL |", "|---|---|---|---|---|---|"]
    preds, refs = w["csl"]
    for tok in ("char", "jieba"):
        r = compute_rouge(preds, refs, tokenizer=tok, rouge_types=types)
        lines.append(f"| CSL lead-{LEAD} (1000, 1 ref) | {tok} | (1 ref) | " + " | ".join(_f(r[t]) for t in types) + " |")
    for preset in preset_names("rouge", door="card"):  # the presets that show a row in the card
        r = compute_rouge(preds, refs, preset=preset)
        lines.append(f"| CSL lead-{LEAD} (1000, 1 ref) | preset {preset} | (1 ref) | "
                     + " | ".join(_f(r[t]) for t in types) + " |")
    preds, refs = w["crosswoz"]
    for tok in ("char", "jieba"):
        for mode in ("max", "mean", "pool"):
            r = compute_rouge(preds, refs, tokenizer=tok, rouge_types=types, multi_ref=mode)
            lines.append(f"| CrossWOZ reply vs others (85, 2-4 refs) | {tok} | {mode} | "
                         + " | ".join(_f(r[t]) for t in types) + " |")
    return "\n".join(lines)


def bleu_table(w: dict) -> str:
    lines = ["| data | tokenizer | references | level | BLEU |", "|---|---|---|---|---|"]
    preds, refs = w["csl"]
    for tok in ("char", "jieba"):
        for level in ("corpus", "sentence"):
            b = compute_bleu(preds, refs, tokenizer=tok, level=level)["bleu"]
            lines.append(f"| CSL lead-{LEAD} (1000, 1 ref) | {tok} | 1 | {level} | {_f(b)} |")
    for preset in preset_names("bleu", door="card"):
        r = compute_bleu(preds, refs, preset=preset)
        lines.append(f"| CSL lead-{LEAD} (1000, 1 ref) | preset {preset} | 1 | {r['level']} | {_f(r['bleu'])} |")
    preds, refs = w["crosswoz"]
    # "pool" is BLEU's own rule (clipped counts over all references of an item, closest reference length);
    # "max" scores each item against each reference alone and keeps the best sentence BLEU (a common hand-rolled
    # variant); "first" keeps only the first reference.
    pair_preds = [p for p, rs in zip(preds, refs) for _ in rs]
    pair_refs = [[r] for rs in refs for r in rs]
    for tok in ("char", "jieba"):
        corpus = compute_bleu(preds, refs, tokenizer=tok)["bleu"]
        first = compute_bleu(preds, [rs[:1] for rs in refs], tokenizer=tok)["bleu"]
        pool = compute_bleu(preds, refs, tokenizer=tok, level="sentence")["bleu"]
        pair_scores = compute_bleu(pair_preds, pair_refs, tokenizer=tok, level="sentence")["scores"]
        best, k = [], 0
        for rs in refs:
            best.append(max(pair_scores[k:k + len(rs)]))
            k += len(rs)
        rows = [("all (pool)", "corpus", corpus), ("first only", "corpus", first),
                ("all (pool)", "sentence", pool), ("best single (max)", "sentence", sum(best) / len(best))]
        for refs_label, level, b in rows:
            lines.append(f"| CrossWOZ reply vs others (85, 2-4 refs) | {tok} | {refs_label} | {level} | {_f(b)} |")
    return "\n".join(lines)


def chrf_table(w: dict) -> str:
    lines = ["| data | tokenizer | references | level | chrF2 | chrF2++ |", "|---|---|---|---|---|---|"]
    preds, refs = w["csl"]
    for tok in ("char", "jieba"):
        for level in ("corpus", "sentence"):
            c = compute_chrf(preds, refs, level=level)["chrf"]  # chrF's characters: char's whatever the words
            cpp = compute_chrf(preds, refs, tokenizer=tok, level=level, word_order=2)["chrf"]
            lines.append(f"| CSL lead-{LEAD} (1000, 1 ref) | {tok} | 1 | {level} | {_f(c)} | {_f(cpp)} |")
    preds, refs = w["crosswoz"]
    # "best (sacrebleu)": per item the reference with the best chrF (sacrebleu's rule); "first only": the first
    # reference alone
    for tok in ("char", "jieba"):
        for label, rs in (("best (sacrebleu)", refs), ("first only", [r[:1] for r in refs])):
            c = compute_chrf(preds, rs)["chrf"]  # (compute_chrf refuses jieba without word n-grams)
            cpp = compute_chrf(preds, rs, tokenizer=tok, word_order=2)["chrf"]
            lines.append(f"| CrossWOZ reply vs others (85, 2-4 refs) | {tok} | {label} | corpus | {_f(c)} | "
                         f"{_f(cpp)} |")
    return "\n".join(lines)


def tables() -> dict:
    w = workloads()
    return {"chinese_rouge": rouge_table(w), "chinese_bleu": bleu_table(w), "chinese_chrf": chrf_table(w)}


def card_table(card_text: str) -> str:
    """The text between the markers of a card (stripped); ValueError if the markers are missing."""
    try:
        start = card_text.index(START) + len(START)
        end = card_text.index(END, start)
    except ValueError as exc:
        raise ValueError(f"card has no {START} ... {END} block") from exc
    return card_text[start:end].strip()


def replace_table(card_text: str, table: str) -> str:
    start = card_text.index(START) + len(START)
    end = card_text.index(END, start)
    return card_text[:start] + "\n" + table + "\n" + card_text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="replace the tables in the cards")
    group.add_argument("--check", action="store_true", help="exit 1 if a card's table is not reproduced")
    args = parser.parse_args(argv)
    fresh = tables()
    status = 0
    for metric, table in fresh.items():
        path = CARDS[metric]
        text = path.read_text(encoding="utf-8")
        if args.write:
            path.write_text(replace_table(text, table), encoding="utf-8")
            print(f"wrote {path}")
        elif args.check:
            if card_table(text) != table:
                print(f"{path}: the table differs from a fresh run", file=sys.stderr)
                status = 1
        else:
            print(f"## {metric}\n\n{table}\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
