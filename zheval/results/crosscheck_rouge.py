"""Recompute our ROUGE with the reference tools fed our exact tokens.

* default semantics: rouge-score (0.1.2, the tested version; the result names the installed one) ``RougeScorer(types, tokenizer=obj)`` with ``score(target, prediction)``
  (``score_multi`` for several references under ``multi_ref="max"``). Our tokens are passed exactly: each token id
  becomes one whitespace-free word, each sentence one line (``"\\n"``-joined, as rouge-score splits rougeLsum), and
  the tokenizer object splits on whitespace. Types rouge-score knows: ``rouge1`` ... ``rouge9``, ``rougeL``,
  ``rougeLsum``.
* ``preset="llamafactory"``: rouge-chinese 1.0.3 ``Rouge().get_scores(" ".join(hyp), " ".join(ref))`` on the same
  token strings (types ``rouge1`` ... ``rouge5``, ``rougeL``).

The difference must be 0 (<= 1e-12); a difference is a bug in zheval.
"""

from __future__ import annotations

from typing import Dict, List, Sequence

from zheval.definitions.rouge import Score
from zheval.definitions.rouge_types import parse_rouge_type
from zheval.results.tool_versions import check_tool_version

__all__ = ["crosscheck_rouge_score", "crosscheck_rouge_chinese"]


class _WhitespaceTokenizer:
    """rouge-score tokenizer object: ``text.split()`` (our ids are whitespace-free words)."""

    def tokenize(self, text: str) -> List[str]:
        return text.split()


def _as_text(sentences: Sequence[Sequence[int]]) -> str:
    return "\n".join(" ".join(str(t) for t in s) for s in sentences)


def crosscheck_rouge_score(
    hyp_sentences: Sequence[Sequence[Sequence[int]]],
    refs_sentences: Sequence[Sequence[Sequence[Sequence[int]]]],
    ours: Sequence[Dict[str, Score]],
    rouge_types: Sequence[str],
    multi_ref: str = "max",
) -> dict:
    """Compare per-item scores with rouge-score.

    Args:
        hyp_sentences: per item, the prediction's sentences of token ids.
        refs_sentences: per item, per reference, sentences of token ids.
        ours: our per-item ``{type: Score}`` (beta 1).
        rouge_types: the requested types; those rouge-score cannot compute are listed under ``skipped_types``.
        multi_ref: our multi-reference rule. Under ``"max"`` (rouge-score's ``score_multi``) every item is compared;
            otherwise items with several references are compared per (prediction, reference) pair against
            zheval's single-reference scores, and the combination rule itself is not cross-checked.
    Returns:
        ``{"tool": "rouge-score <installed version>", "tool_version", "tool_tested", "types", "skipped_types",
        "items", "pairs", "max_abs_diff", "scores"}`` where ``scores`` holds rouge-score's mean F per type over the
        items it compared and ``tool_tested`` says whether that version is one the equality is tested on
        (`zheval.results.tool_versions.TESTED_VERSIONS`).

    Warns:
        UntestedToolVersionWarning: rouge-score's version is outside the tested span.
    """
    from rouge_score import rouge_scorer

    from zheval.definitions.rouge import make_item_scorer

    types = [t for t in rouge_types if parse_rouge_type(t).kind in ("L", "Lsum") or
             (parse_rouge_type(t).kind == "N" and parse_rouge_type(t).n <= 9)]
    out = _empty_report("rouge-score", types, [t for t in rouge_types if t not in types])
    if not types:
        return out
    scorer = rouge_scorer.RougeScorer(types, tokenizer=_WhitespaceTokenizer())
    single = make_item_scorer(types)
    worst = 0.0
    sums = {t: 0.0 for t in types}
    items = pairs = 0
    for hyp, refs, mine in zip(hyp_sentences, refs_sentences, ours):
        h = _as_text(hyp)
        if len(refs) == 1 or multi_ref == "max":
            theirs = scorer.score(_as_text(refs[0]), h) if len(refs) == 1 else scorer.score_multi(
                [_as_text(r) for r in refs], h)
            for t in types:
                worst = max(worst, *(abs(a - b) for a, b in zip(theirs[t], mine[t])))
                sums[t] += theirs[t].fmeasure
            items += 1
        else:
            for r in refs:
                theirs = scorer.score(_as_text(r), h)
                mine_pair = single(hyp, [r])
                for t in types:
                    worst = max(worst, *(abs(a - b) for a, b in zip(theirs[t], mine_pair[t])))
                pairs += 1
    out.update(items=items, pairs=pairs, max_abs_diff=worst,
               scores={t: (sums[t] / items if items else 0.0) for t in types})
    return out


def crosscheck_rouge_chinese(
    hyp_tokens: Sequence[Sequence[str]],
    refs_tokens: Sequence[Sequence[Sequence[str]]],
    ours: Sequence[Dict[str, Score]],
    rouge_types: Sequence[str],
) -> dict:
    """Compare the llamafactory preset's per-item scores (0-1) with rouge-chinese 1.0.3 on the same token strings.

    Items with several references are compared per pair against the single-reference scores. Returns the same
    keys as `crosscheck_rouge_score` with ``tool = "rouge-chinese 1.0.3"``.
    """
    from rouge_chinese import Rouge

    from zheval.presets.llamafactory import make_llamafactory_item_scorer

    names = {"rougeL": "rouge-l", **{f"rouge{n}": f"rouge-{n}" for n in range(1, 6)}}
    types = [t for t in rouge_types if t in names]
    out = _empty_report("rouge-chinese", types, [t for t in rouge_types if t not in types])
    if not types:
        return out
    rouge = Rouge(metrics=[names[t] for t in types])
    single = make_llamafactory_item_scorer(types)
    worst = 0.0
    sums = {t: 0.0 for t in types}
    items = pairs = 0
    for hyp, refs, mine in zip(hyp_tokens, refs_tokens, ours):
        for r in refs:
            h, rr = " ".join(hyp), " ".join(r)
            if not h.split() or not rr.split():
                theirs = {names[t]: {"p": 0.0, "r": 0.0, "f": 0.0} for t in types}
            else:
                theirs = rouge.get_scores(h, rr)[0]
            mine_pair = mine if len(refs) == 1 else single(hyp, [r])
            for t in types:
                th = theirs[names[t]]
                worst = max(worst, abs(th["p"] - mine_pair[t].precision), abs(th["r"] - mine_pair[t].recall),
                            abs(th["f"] - mine_pair[t].fmeasure))
                if len(refs) == 1:
                    sums[t] += th["f"]
            if len(refs) == 1:
                items += 1
            else:
                pairs += 1
    out.update(items=items, pairs=pairs, max_abs_diff=worst,
               scores={t: (sums[t] / items if items else 0.0) for t in types})
    return out


def _empty_report(tool: str, types: list, skipped: list) -> dict:
    """The cross-check report before any item is compared: the tool and its version check
    (`zheval.results.tool_versions.check_tool_version`), the types compared and skipped, zero counts."""
    versions = check_tool_version(tool)
    return {"tool": f"{tool} {versions['tool_version']}", **versions, "types": types, "skipped_types": skipped,
            "items": 0, "pairs": 0, "max_abs_diff": 0.0, "scores": {}}
