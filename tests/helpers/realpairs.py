"""Real Chinese prediction/reference pairs from the shared data (read through :func:`helpers.read_jsonl`, so a test
that uses them is skipped -- or fails under ``CI=true`` -- when the data is missing). Nothing is generated or
paraphrased: every text is a CrossWOZ turn, a CSL abstract or a CSL title; predictions are other real texts of the
same kind. The same pairs as ``shared/realclient/realpairs.py`` (the real-framework checks).

    single() -> {subset: (predictions, references)}    one reference per item, 1,700 pairs in four subsets
    multi()  -> (predictions, [[answer, ...], ...])    CrossWOZ same-query groups: first reply vs the others (ragged)
"""

from __future__ import annotations

import re

from helpers import read_jsonl

__all__ = ["single", "multi"]


def single() -> dict[str, tuple[list[str], list[str]]]:
    """Four subsets of one-reference pairs: ``crosswoz_next_reply`` (1,000: a system reply vs the next reply of the
    same dialogue), ``crosswoz_query_reply`` (300: a user turn vs the reply that followed), ``csl_lead_title`` (300:
    an abstract's first sentence vs the title, ASCII ``,``/``.`` throughout) and ``csl_title_abstract`` (100: a
    title vs the whole abstract)."""
    turns = read_jsonl("crosswoz_single_turn.jsonl")
    csl = read_jsonl("csl_ts_test.jsonl")
    out = {}
    nxt = [(a["responses"][0], b["responses"][0]) for a, b in zip(turns, turns[1:])
           if a["id"].rsplit("-", 1)[0] == b["id"].rsplit("-", 1)[0]]
    out["crosswoz_next_reply"] = nxt[:1000]
    out["crosswoz_query_reply"] = [(t["query"], t["responses"][0]) for t in turns[1000:1300]]
    out["csl_lead_title"] = [(re.split(r"(?<=[。.!?！？])", r["document"], maxsplit=1)[0], r["summary"])
                             for r in csl[:300]]
    out["csl_title_abstract"] = [(r["summary"], r["document"]) for r in csl[300:400]]
    return {k: ([p for p, _ in v], [r for _, r in v]) for k, v in out.items()}


def multi() -> tuple[list[str], list[list[str]]]:
    """CrossWOZ same-query groups: the group's first reply as the prediction, the other 2-4 replies as references."""
    groups = read_jsonl("crosswoz_same_query_groups.jsonl")
    return [g["responses"][0] for g in groups], [g["responses"][1:] for g in groups]
