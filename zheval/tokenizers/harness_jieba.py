"""The tokenizers of the leaderboard presets (`zheval.presets.opencompass`, `zheval.presets.glm4`): jieba
exactly as each harness calls it -- ``jieba.cut(text)``, default dictionary, HMM on, **whitespace tokens kept** --
after the harness's own text preparation, on a private ``jieba.Tokenizer`` instance.

* ``opencompass-jieba``: OpenCompass ``JiebaRougeEvaluator`` (``opencompass/openicl/icl_evaluator/
  icl_jieba_rouge_evaluator.py``): `opencompass_general_postprocess` (OpenCompass
  ``opencompass/utils/text_postprocessors.py`` ``general_postprocess``), then ``jieba.cut``.
* ``glm4-jieba``: the GLM-4 / ChatGLM3 fine-tuning demo (``finetune/finetune.py`` ``compute_metrics``):
  ``list(jieba.cut(text.strip()))``.

LongBench's ``rouge_zh_score`` cuts the text as it is (``jieba.cut(text, cut_all=False)``, no strip): that is the
``llamafactory-jieba`` tokenizer (`zheval.tokenizers.llamafactory`), which the ``longbench`` preset uses.
"""

from __future__ import annotations

import re
from typing import List

from .llamafactory import LlamaFactoryJiebaTokenizer

__all__ = ["opencompass_general_postprocess", "OpenCompassJiebaTokenizer", "Glm4JiebaTokenizer"]

_FIRST_BREAK = re.compile(r"[\n.,]")
_NOT_WORD = re.compile(r"[^\w\s]")
_ARTICLES = re.compile(r"\b(a|an|the)\b", flags=re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def opencompass_general_postprocess(text: str) -> str:
    """OpenCompass ``general_postprocess`` (0.5.x, ``opencompass/utils/text_postprocessors.py``), step for step:

    1. keep the text before the first ASCII ``\\n``, ``.`` or ``,`` (so ``3.5`` keeps only ``3``, and a text that
       starts with one of them becomes empty);
    2. delete every character matching ``[^\\w\\s]`` (Unicode ``\\w``: Chinese punctuation ``，。！？“”`` goes, Han
       characters, letters, digits and ``_`` stay);
    3. delete the English words ``a``/``an``/``the`` (any case, on Unicode word boundaries: ``the`` inside ``中the文``
       stays, since Han characters are word characters);
    4. collapse every whitespace run to one space and ``strip()``.

    Args: text: ``str``. Returns: ``str`` (possibly empty). Raises: ``TypeError`` for non-``str`` input.
    """
    if not isinstance(text, str):
        raise TypeError(f"opencompass_general_postprocess expects str, got {type(text).__name__}")
    truncated = _FIRST_BREAK.split(text, 1)[0]
    no_punctuation = _NOT_WORD.sub("", truncated)
    no_articles = _ARTICLES.sub("", no_punctuation)
    return _SPACES.sub(" ", no_articles).strip()


class OpenCompassJiebaTokenizer(LlamaFactoryJiebaTokenizer):
    """OpenCompass ``JiebaRougeEvaluator``'s words: ``jieba.cut(general_postprocess(text))`` -- the post-processing
    of `opencompass_general_postprocess` on every text (predictions **and** references), then jieba with its
    default dictionary, HMM on, whitespace tokens kept, on a private ``jieba.Tokenizer`` (OpenCompass uses the
    global ``jieba.dt``: equal as long as the process has not changed it). No zheval normalisation.

    A text that post-processes to ``""`` has no token; the ``opencompass-jieba-rouge`` preset then scores it
    against OpenCompass's placeholder, as OpenCompass does (`zheval.presets.opencompass`).
    """

    name = "opencompass-jieba"
    #: The tool whose tokens this reproduces (named in option errors).
    TOOL = "OpenCompass JiebaRougeEvaluator"
    HMM = True
    content_keyed = True  # output fixed by the reproduced tool; _config names it

    def tokenize_normalized(self, text: str) -> List[str]:
        return super().tokenize_normalized(opencompass_general_postprocess(text))

    def _config(self) -> dict:
        cfg = super()._config()
        cfg["postprocess"] = "opencompass.general_postprocess"
        return cfg

    def signature(self) -> str:
        return super().signature() + "+ocpost"


class Glm4JiebaTokenizer(LlamaFactoryJiebaTokenizer):
    """The GLM-4 / ChatGLM3 fine-tuning demo's words: ``list(jieba.cut(text.strip()))`` (Python's ``str.strip``:
    every Unicode whitespace at both ends), default dictionary, HMM on, inner whitespace tokens kept, on a private
    ``jieba.Tokenizer``. No zheval normalisation. Used for both its ROUGE and its BLEU-4 (`zheval.presets.glm4`).
    """

    name = "glm4-jieba"
    #: The tool whose tokens this reproduces (named in option errors).
    TOOL = "the GLM-4 / ChatGLM3 fine-tuning demo"
    HMM = True
    content_keyed = True  # output fixed by the reproduced tool; _config names it

    def tokenize_normalized(self, text: str) -> List[str]:
        return super().tokenize_normalized(text.strip())

    def _config(self) -> dict:
        cfg = super()._config()
        cfg["strip"] = True
        return cfg

    def signature(self) -> str:
        return super().signature() + "+strip"
