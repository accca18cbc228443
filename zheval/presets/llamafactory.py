"""The ``llamafactory`` presets: LLaMA-Factory's (ChatGLM's) ROUGE and BLEU-4 numbers, on the tokens of
`zheval.tokenizers.llamafactory`.

Nothing here imports LLaMA-Factory, rouge-chinese or nltk; the behaviour is re-implemented and the tests compare
it with rouge-chinese 1.0.3 and nltk 3.10 on real data.

``llamafactory``: LLaMA-Factory ``ComputeSimilarity`` / ChatGLM-6B ``ptuning/main.py``
----------------------------------------------------------------------------------
Per item (``src/llamafactory/train/sft/metric.py``): ``hypothesis = list(jieba.cut(pred))`` (global jieba,
default dictionary, HMM on, whitespace tokens kept); if ``" ".join(hypothesis).split()`` (or the reference's) is
empty, rouge-1/2/l are 0.0; else ``rouge_chinese.Rouge().get_scores(" ".join(hypothesis), " ".join(reference))``;
each ``f`` becomes ``round(f * 100, 4)`` and the reported value is ``float(np.mean(...))`` over items, on the
**0-100 scale**. rouge-chinese 1.0.3 (``rouge_chinese/rouge.py``, ``rouge_score.py``):

* ``Rouge.cut_sent`` inserts ``"\\n"`` after ``。！？?`` (unless followed by a closing quote ``”’``), after
  ``......`` and ``……``, and after a sentence-final mark plus closing quote (unless followed by ``，。！？?``),
  ``rstrip()``s and splits on ``"\\n"``; ``_get_scores`` keeps pieces with ``len > 0`` and re-joins each with
  ``" ".join(piece.split())``; words are ``piece.split(" ")``. **Quirk:** a whitespace-only piece passes the
  ``len > 0`` filter and becomes the word ``""``. It happens whenever a line break follows a sentence-final mark
  (``"你好。\\n再见"`` -> jieba ``[你好, 。, \\n, 再见]`` -> pieces ``"你好 。"``, ``" "``, ``" 再见"``), so the
  empty word is counted in n-grams and lengths. Reproduced exactly (`rouge_chinese_words`), which is why
  the preset's tokenizer keeps jieba's whitespace tokens.
* ``rouge-1``/``rouge-2`` (``rouge_n``): **sets** of unique n-grams over all words of the text (across sentence
  cuts): ``P = |H & R| / |H|``, ``R = |H & R| / |R|``.
* ``rouge-l`` (``rouge_l_summary_level``): despite its name, the plain LCS of the two *concatenated* word lists
  (no union-LCS; rouge-chinese's README calls this the "official" ROUGE-L), ``R = LCS / m``, ``P = LCS / n`` with
  m, n the word counts. The sentence cut therefore only matters through the empty-word quirk above.
* ``F = 2 * (P * R / (P + R + 1e-8))`` (``f_r_p_rouge_n`` and ``rouge_l_summary_level``): identical texts give
  0.999999995, not 1.

Our ``preset="llamafactory"`` tokenizer (`zheval.tokenizers.llamafactory.LlamaFactoryJiebaTokenizer`) is a *private* ``jieba.Tokenizer``
with jieba's default dictionary, HMM on, no normalisation and whitespace tokens kept, so it gives LLaMA-Factory's
numbers as long as the process has not modified the global ``jieba.dt`` that LLaMA-Factory uses. The scorer returns
rouge-chinese's unrounded values on zheval's 0-1 scale; LLaMA-Factory's own numbers (0-100, per-item rounding,
numpy mean) come from `llamafactory_item_value` and `llamafactory_mean`. Multiple references
(LLaMA-Factory has one) are combined per ``multi_ref`` on the per-reference values with rouge-chinese's F formula.

LLaMA-Factory BLEU-4 (src/llamafactory/train/sft/metric.py ``ComputeSimilarity``, inherited from ChatGLM-6B
ptuning/main.py)
--------------------------------------------------------------------------------------------------
Per item: ``sentence_bleu([list(label)], list(pred), smoothing_function=SmoothingFunction().method3)`` -- Python
characters of the raw decoded strings, *including spaces and punctuation*, one reference, nltk's default weights
(0.25,)*4, no auto-reweighing; the item score is ``round(score * 100, 4)`` and the reported ``bleu-4`` is
``float(np.mean(item_scores))`` on the 0-100 scale. LLaMA-Factory only ever has one reference (the label). Given
several references, `llamafactory_item_scores` applies nltk's own multi-reference rules
(``sentence_bleu([list(r) for r in refs], ...)``: clipping against the maximum count over references, closest
reference length with ties to the shorter one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Dict, Hashable, List, Optional, Sequence, Tuple

from ..definitions.bleu import item_stats
from ..definitions.bleu_score import score_stats
from ..definitions.lcs import lcs_length_masks, match_masks
from ..definitions.rouge import MULTI_REF_MODES, Score, ngram_counts, combine_references
from ..definitions.rouge_types import RougeType, parse_rouge_type
from ..io.lists import split_entries
from .base import BleuPreset, Preset, RougePreset, tool_rouge_defaults

__all__ = ["LLAMAFACTORY_TYPES", "rouge_chinese_sentences", "rouge_chinese_words", "make_llamafactory_item_scorer",
           "llamafactory_score_item", "llamafactory_item_value", "llamafactory_mean", "llamafactory_item_scores",
           "llamafactory_bleu4", "RougeChinesePreset", "LlamaFactoryBleuPreset", "PRESET"]

Token = Hashable

#: What LLaMA-Factory reports: rouge-1, rouge-2, rouge-l.
LLAMAFACTORY_TYPES: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL")



_CUT_1 = re.compile("([。！？?])([^”’])")
_CUT_2 = re.compile(r"(\.{6})([^”’])")
_CUT_3 = re.compile("(…{2})([^”’])")
_CUT_4 = re.compile("([。！？?][”’])([^，。！？?])")


def rouge_chinese_sentences(text: str) -> List[str]:
    """rouge-chinese 1.0.3 ``Rouge.cut_sent`` followed by ``_get_scores``' filter and whitespace re-join.

    Returns the sentence strings whose ``split(" ")`` are the words rouge-chinese scores (a whitespace-only piece
    becomes ``""`` and yields the empty word; see the module docstring).
    """
    para = _CUT_1.sub("\\1\n\\2", text)
    para = _CUT_2.sub("\\1\n\\2", para)
    para = _CUT_3.sub("\\1\n\\2", para)
    para = _CUT_4.sub("\\1\n\\2", para)
    para = para.rstrip()
    return [" ".join(piece.split()) for piece in para.split("\n") if len(piece) > 0]


def rouge_chinese_words(tokens: Sequence[str]) -> List[str]:
    """The word list rouge-chinese scores for LLaMA-Factory's input ``" ".join(tokens)`` (sentences flattened).

    Args:
        tokens: the segmentation of one text (jieba's output, whitespace tokens included, as LLaMA-Factory passes
            it; tokens without whitespace work too).
    Returns:
        list of str words (may contain ``""``, see the module docstring); empty if the text has no word.
    """
    joined = " ".join(tokens)
    if not joined.split():
        return []
    words: List[str] = []
    for s in rouge_chinese_sentences(joined):
        words.extend(s.split(" "))
    return words


def _lf_f(p: float, r: float) -> float:
    # rouge_chinese.rouge_score.f_r_p_rouge_n / rouge_l_summary_level
    return 2.0 * ((p * r) / (p + r + 1e-8))


def _lf_stats(rt: RougeType, hyp_words: List[str], ref_words: List[str], cache: dict) -> Tuple[int, int, int]:
    if rt.kind == "N":
        key = ("N", rt.n)
        hs = cache.get(key)
        if hs is None:
            hs = cache[key] = set(ngram_counts(hyp_words, rt.n))
        rs = set(ngram_counts(ref_words, rt.n))
        return len(hs & rs), len(rs), len(hs)
    if rt.kind == "L":
        masks = cache.get("L")
        if masks is None:
            masks = cache["L"] = match_masks(hyp_words)
        n = len(hyp_words)
        return (lcs_length_masks(masks, n, ref_words) if n else 0), len(ref_words), n
    raise ValueError(
        f"ROUGE type {rt.name!r} is not computed by rouge-chinese/LLaMA-Factory; valid for preset 'llamafactory': "
        "rougeN (N >= 1; set-based) and rougeL (LCS of the whole texts)"
    )


def _lf_score(hit, ref_total, hyp_total) -> Score:
    """rouge-chinese's per-reference P, R and F (``F = 2PR / (P + R + 1e-8)``)."""
    p = hit / hyp_total if hyp_total else 0.0
    r = hit / ref_total if ref_total else 0.0
    return Score(p, r, _lf_f(p, r))


def make_llamafactory_item_scorer(
    rouge_types: Sequence[str] = LLAMAFACTORY_TYPES, multi_ref: str = "max",
    placeholders: Optional[Tuple[str, str]] = None,
) -> Callable[[Sequence[str], Sequence[Sequence[str]]], Dict[str, Score]]:
    """Return ``scorer(hyp_tokens, refs_tokens) -> {type: Score}`` with LLaMA-Factory's per-item numbers.

    ``hyp_tokens`` is one text's segmentation (``list[str]``, whitespace tokens allowed), ``refs_tokens`` one such
    list per reference. Scores are rouge-chinese's unrounded values on the 0-1 scale (``fmeasure`` includes its
    ``+ 1e-8``); LLaMA-Factory's per-item number is `llamafactory_item_value` of it. ``multi_ref``:
    ``"max"`` (best F, first wins ties), ``"mean"``, ``"pool"`` (summed set sizes/LCS as ROUGE-1.5.5 -f A) or
    ``"best_recall"``.

    ``placeholders``: ``None`` (LLaMA-Factory: a side without a word scores 0.0 without calling rouge-chinese) or
    ``(hypothesis word, reference word)``: a side without a token is scored by rouge-chinese as that one-word text
    (OpenCompass ``JiebaRougeEvaluator``'s ``__PREDPLACEHOLDER__`` / ``__REFRPLACEHOLDER__``,
    `zheval.presets.opencompass`).

    Raises:
        ValueError: a type other than rougeN/rougeL, unknown multi_ref.
    """
    if isinstance(rouge_types, str):  # a comma list, "rouge1,rougeL" (an empty entry refused)
        rouge_types = split_entries(rouge_types, "rouge_types")
    types = [parse_rouge_type(t) for t in rouge_types]
    if not types:
        raise ValueError("rouge_types must name at least one ROUGE type")
    for rt in types:
        if rt.kind not in ("N", "L"):
            _lf_stats(rt, [], [], {})  # raises the explanatory ValueError
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"Unknown multi_ref {multi_ref!r}; valid values: {', '.join(MULTI_REF_MODES)}")

    def scorer(hyp_tokens, refs_tokens) -> Dict[str, Score]:
        if len(refs_tokens) == 0:
            raise ValueError("score_item needs at least one reference")
        hyp_words = rouge_chinese_words(hyp_tokens)
        refs_words = [rouge_chinese_words(r) for r in refs_tokens]
        if placeholders is not None:
            if not hyp_tokens:
                hyp_words = [placeholders[0]]
            refs_words = [[placeholders[1]] if not r else w for r, w in zip(refs_tokens, refs_words)]
        cache: dict = {}
        out: Dict[str, Score] = {}
        for rt in types:
            # ComputeSimilarity: an empty side scores 0.0 without calling rouge-chinese (statistics all 0)
            per = [(0, 0, 0) if not hyp_words or not rw else _lf_stats(rt, hyp_words, rw, cache) for rw in refs_words]
            out[rt.name] = combine_references(per, multi_ref, score=_lf_score, pool=sum)
        return out

    return scorer


def llamafactory_score_item(
    hyp_tokens: Sequence[str],
    refs_tokens: Sequence[Sequence[str]],
    rouge_types: Sequence[str] = LLAMAFACTORY_TYPES,
    multi_ref: str = "max",
) -> Dict[str, Score]:
    """rouge-chinese's per-item ROUGE (0-1, unrounded) as LLaMA-Factory computes it; see
    `make_llamafactory_item_scorer` and `llamafactory_item_value`."""
    return make_llamafactory_item_scorer(rouge_types, multi_ref)(hyp_tokens, refs_tokens)


def llamafactory_item_value(value: float) -> float:
    """LLaMA-Factory's per-item number for a 0-1 value: ``round(value * 100, 4)`` (0-100 scale)."""
    return round(value * 100, 4)


def llamafactory_mean(values: Sequence[float]) -> float:
    """LLaMA-Factory's corpus value ``float(np.mean(values))`` of per-item `llamafactory_item_value` numbers
    (numpy's pairwise summation, bit-exact; 0-100 scale).

    Returns 0.0 for no values (numpy would give nan with a warning).
    """
    import numpy as np

    if len(values) == 0:
        return 0.0
    return float(np.mean(values))



def llamafactory_item_scores(predictions: Sequence[str], references: Sequence) -> List[float]:
    """Per-item nltk ``sentence_bleu(..., smoothing_function=SmoothingFunction().method3)`` on characters (0-1).

    Args:
        predictions: one string per item.
        references: per item a string or a non-empty list of strings (nltk multi-reference rules for several).

    Computed with `zheval.definitions.bleu` (``smooth_method="nltk3"``, no effective order, closest reference length),
    which the tests show equal to nltk 3.10 bit for bit. Raises ``ValueError`` on a length mismatch or an empty
    reference list, ``TypeError`` on non-str text (messages name the item index).
    """
    if len(predictions) != len(references):
        raise ValueError(f"got {len(predictions)} predictions but {len(references)} references")
    scores = []
    for i, (pred, refs) in enumerate(zip(predictions, references)):
        if isinstance(refs, str):
            refs = [refs]
        if not isinstance(pred, str):
            raise TypeError(f"item {i}: prediction must be str, got {type(pred).__name__}")
        if not refs:
            raise ValueError(f"item {i}: empty reference list")
        for j, r in enumerate(refs):
            if not isinstance(r, str):
                raise TypeError(f"item {i}: reference {j} must be str, got {type(r).__name__}")
        row = item_stats(list(pred), [list(r) for r in refs], 4)
        scores.append(score_stats(row, smooth_method="nltk3", effective_order=False).score)
    return scores


def llamafactory_bleu4(item_scores: Sequence[float]) -> float:
    """The ``bleu-4`` number LLaMA-Factory reports, on its 0-100 scale: ``float(np.mean([round(s * 100, 4)]))``.

    ``item_scores`` are per-item sentence BLEU values on the 0-1 scale (`llamafactory_item_scores`).
    An empty list gives ``nan`` in LLaMA-Factory (numpy's mean of nothing); here it gives 0.0.
    """
    import numpy as np

    if len(item_scores) == 0:
        return 0.0
    return float(np.mean([round(s * 100, 4) for s in item_scores]))


# ----------------------------------------------------------------------------------------------------------------
# The preset objects (zheval.presets.base)


@dataclass(frozen=True, eq=False)
class RougeChinesePreset(RougePreset):
    """A ROUGE preset scored with rouge-chinese 1.0.3's rules on a tool's words (``llamafactory``, ``glm4``, and
    with placeholders ``opencompass-jieba-rouge``): rougeN and rougeL only, the tool's F1, the rouge-chinese
    cross-check. ``number_key``: the prefix of the tool's own numbers (``llamafactory_rouge_`` + ``1``/``2``/``l``),
    ``""`` for none."""

    units: str = "tokens"
    fixed_beta: bool = True
    crosscheck_tool: Optional[str] = "rouge-chinese"
    counting: str = "set"
    number_key: str = ""

    def check_types(self, types: Sequence[str]) -> None:
        bad = [t for t in types if parse_rouge_type(t).kind not in ("N", "L")]
        if bad:
            raise ValueError(f"preset {self.name!r} computes rougeN (set-based, N >= 1) and rougeL (LCS of the whole "
                             f"texts) only, as rouge-chinese does; got {bad}; the preset's own rouge_types: "
                             f"{list(self.defaults['rouge_types'])}")

    def item_scorer(self, types, multi_ref, beta, rouge_w_weight):
        return make_llamafactory_item_scorer(types, multi_ref)

    def tool_numbers(self, fmeasure, extra) -> Dict[str, float]:
        if not self.number_key:
            return {}
        out = {}
        for t, values in fmeasure.items():
            rt = parse_rouge_type(t)
            out[self.number_key + ("l" if rt.kind == "L" else str(rt.n))] = llamafactory_mean(
                [llamafactory_item_value(f) for f in values])
        return out

    def explain_words(self, tokens: Sequence[str]) -> List[str]:
        return rouge_chinese_words(tokens)


@dataclass(frozen=True, eq=False)
class LlamaFactoryBleuPreset(BleuPreset):
    """LLaMA-Factory's BLEU-4: its number (``llamafactory_bleu_4``, 0-100) where the per-item scores are its own."""

    def tool_numbers(self, config, item_scores) -> Dict[str, float]:
        return {"llamafactory_bleu_4": llamafactory_bleu4(item_scores)}


#: The registered preset (ROUGE and BLEU).
PRESET = Preset(
    name="llamafactory",
    rouge=RougeChinesePreset(
        name="llamafactory",
        defaults=tool_rouge_defaults("llamafactory-jieba", LLAMAFACTORY_TYPES),
        doors=frozenset({"text", "space", "card"}),
        number_scale=100.0,
        number_key="llamafactory_rouge_",
        summary="LLaMA-Factory / ChatGLM rouge-1/2/l: jieba words, rouge-chinese rules (adds llamafactory_rouge_*, "
                "0-100)",
    ),
    bleu=LlamaFactoryBleuPreset(
        name="llamafactory",
        defaults={"tokenizer": "llamafactory-char", "normalize": False, "max_order": 4, "smooth_method": "nltk3", "smooth_value": None,
                  "bp_ref_length": "closest", "level": "sentence", "effective_order": False, "weights": None},
        doors=frozenset({"text", "space", "card"}),
        number_scale=100.0,
        summary="LLaMA-Factory's BLEU-4: per-item nltk method-3 BLEU on characters, averaged (adds "
                "llamafactory_bleu_4, 0-100)",
    ),
    report_refusal=(
        "--preset llamafactory reproduces LLaMA-Factory's own numbers (the mean of per-item sentence BLEU-4 "
        "with NLTK smoothing method 3, and rouge-chinese ROUGE on jieba words); this report scores corpus BLEU "
        "with item-level intervals and cannot reproduce them. For LLaMA-Factory's numbers use "
        "the text-file commands (zheval bleu REF.txt -i HYP.txt --preset llamafactory; zheval rouge ... --preset "
        "llamafactory), compute_bleu/compute_rouge(..., preset='llamafactory') or the chinese_bleu/chinese_rouge "
        "modules; "
        "-t llamafactory-char uses its BLEU tokenisation here"),
)
