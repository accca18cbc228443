"""The ``glm4`` presets: the ROUGE-1/2/L and BLEU-4 numbers of the GLM-4 / ChatGLM3 fine-tuning demos
(``THUDM/GLM-4`` ``finetune/finetune.py`` ``compute_metrics``; ChatGLM3's ``finetune_demo`` is the same), on the
tokens of `zheval.tokenizers.harness_jieba.Glm4JiebaTokenizer` (``glm4-jieba``).

Nothing here imports rouge-chinese or nltk; the tests compare these numbers with the demo's ``compute_metrics``
body (copied verbatim into ``tests/presets/test_leaderboard_presets.py``) running rouge-chinese 1.0.3 and nltk on the
shared data.

What ``compute_metrics`` does, per item
---------------------------------------
``pred_txt = tokenizer.decode(pred_ids).strip()`` (special tokens *not* skipped: zheval receives the decoded text),
the same for the label; ``pred_tokens = list(jieba.cut(pred_txt))`` (global jieba, HMM on, inner whitespace tokens
kept); then

* ROUGE: ``Rouge().get_scores(" ".join(pred_tokens), " ".join(label_tokens))`` (rouge-chinese 1.0.3: the rules of
  `zheval.presets.llamafactory` -- sets of n-grams, plain LCS, ``+1e-8``), each ``f`` stored as
  ``round(f * 100, 4)``;
* BLEU-4: ``sentence_bleu([label_tokens], pred_tokens, smoothing_function=SmoothingFunction().method3)`` on the
  jieba tokens (whitespace tokens included), **0-1 and unrounded** (unlike its ROUGE, and unlike LLaMA-Factory's
  character BLEU x 100);

and the reported values are ``np.mean`` of each list: ``rouge-1``/``rouge-2``/``rouge-l`` on 0-100, ``bleu-4`` on 0-1.
zheval's ``glm4_rouge_1`` ... ``glm4_bleu_4`` are these numbers bit for bit.

Known distortions
-----------------
* **Set-based n-grams** in ROUGE-1/2 (a repeated word counts once); ROUGE-L is the LCS of the whole texts.
* **Mixed scales**: ROUGE on 0-100 rounded per item to 4 decimals, BLEU-4 on 0-1 unrounded, in one dict.
* **Special tokens** the model emits (``<|endoftext|>``, ``<|user|>``) stay in the decoded text and are scored.
* **An empty prediction crashes** the demo (rouge-chinese raises ``ValueError: Hypothesis is empty.``), so there is no
  published number for such a run; zheval raises a ``ValueError`` naming every such ``predictions[i]`` (preset
  ``llamafactory`` scores them 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Sequence

from ..definitions.rouge import parse_rouge_type
from .base import BleuPreset
from .llamafactory import PRESET as LLAMAFACTORY, RougeChinesePreset
from .opencompass import leaderboard_preset

__all__ = ["GLM4_TYPES", "check_glm4_predictions", "glm4_rouge_key", "glm4_bleu4", "PRESET"]

#: What the demo reports for ROUGE: rouge-1, rouge-2, rouge-l.
GLM4_TYPES = ("rouge1", "rouge2", "rougeL")


def check_glm4_predictions(token_counts: Sequence[int]) -> None:
    """Refuse the predictions the GLM-4 demo cannot score: those with no token after ``.strip()`` and jieba.

    Args:
        token_counts: the ``glm4-jieba`` token count of every prediction, in order.
    Raises:
        ValueError: naming every ``predictions[i]`` without a token (the first 10 and the total).
    """
    empty = [i for i, n in enumerate(token_counts) if n == 0]
    if empty:
        shown = ", ".join(f"predictions[{i}]" for i in empty[:10])
        more = f" and {len(empty) - 10} more" if len(empty) > 10 else ""
        raise ValueError(
            f"preset 'glm4': {len(empty)} prediction(s) are empty after .strip(): {shown}{more}. The GLM-4 / ChatGLM3 "
            "demo's compute_metrics raises on them (rouge-chinese: 'Hypothesis is empty.'), so it has no number to "
            "reproduce; preset='llamafactory' scores empty predictions 0")


def glm4_rouge_key(rouge_type: str) -> str:
    """The result key of the demo's number for a ROUGE type: ``rouge1`` -> ``glm4_rouge_1``, ``rougeL`` ->
    ``glm4_rouge_l`` (the demo's ``rouge-1``, ``rouge-l``)."""
    rt = parse_rouge_type(rouge_type)
    return "glm4_rouge_" + ("l" if rt.kind == "L" else str(rt.n))


def glm4_bleu4(item_scores: Sequence[float]) -> float:
    """The demo's ``bleu-4``: ``float(np.mean(item_scores))`` of the per-item sentence BLEU values, **0-1 scale,
    unrounded** (numpy's pairwise sum, bit for bit). Returns 0.0 for no values (numpy: nan with a warning)."""
    import numpy as np

    if len(item_scores) == 0:
        return 0.0
    return float(np.mean(item_scores))


# ----------------------------------------------------------------------------------------------------------------
# The preset object (zheval.presets.base)


@dataclass(frozen=True, eq=False)
class _Glm4Rouge(RougeChinesePreset):
    def check_predictions(self, token_counts: Sequence[int]) -> None:
        check_glm4_predictions(token_counts)


@dataclass(frozen=True, eq=False)
class _Glm4Bleu(BleuPreset):
    def check_predictions(self, token_counts: Sequence[int]) -> None:
        check_glm4_predictions(token_counts)  # the demo has no number for them (its ROUGE raises)

    def tool_numbers(self, config, item_scores) -> Dict[str, float]:
        return {"glm4_bleu_4": glm4_bleu4(item_scores)}


#: The registered preset (ROUGE and BLEU): LLaMA-Factory's BLEU-4 recipe (nltk sentence_bleu method3, mean of the
#: 0-1 values) on the demo's jieba words.
PRESET = leaderboard_preset(
    name="glm4", rouge_class=_Glm4Rouge, tokenizer="glm4-jieba", rouge_types=GLM4_TYPES,
    rouge_fields={"number_key": "glm4_rouge_"},
    summary="the GLM-4 / ChatGLM3 fine-tuning demo's rouge-1/2/l (adds glm4_rouge_*, 0-100)",
    bleu=_Glm4Bleu(
        name="glm4",
        defaults={**LLAMAFACTORY.bleu.defaults, "tokenizer": "glm4-jieba"},
        explainable=False,
        number_scale=1.0,
        summary="the GLM-4 / ChatGLM3 demo's BLEU-4 on its jieba words (adds glm4_bleu_4, 0-1)",
    ),
)
