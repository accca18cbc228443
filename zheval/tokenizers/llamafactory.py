"""The tokenizers of the ``llamafactory`` presets: LLaMA-Factory's BLEU characters (``llamafactory-char``:
``list(text)``, whitespace included) and its ROUGE words (``llamafactory-jieba``: ``list(jieba.cut(text))``, HMM on,
whitespace tokens kept, on a private jieba instance). See `zheval.presets.llamafactory`."""

from __future__ import annotations

from typing import List

from ..text.normalize import Normalizer
from .base import ToolTokenizer
from .jieba_words import JiebaTokenizer, jieba_cut

__all__ = ["llamafactory_tokenize", "LlamaFactoryCharTokenizer", "LlamaFactoryJiebaTokenizer",
           ]


def llamafactory_tokenize(text: str) -> List[str]:
    """LLaMA-Factory's BLEU tokens: ``list(text)`` -- every Python character, whitespace included, no normalisation.

    Raises ``TypeError`` for non-``str`` input.
    """
    if not isinstance(text, str):
        raise TypeError(f"llamafactory tokenizer expects str, got {type(text).__name__}")
    return list(text)


class LlamaFactoryCharTokenizer(ToolTokenizer):
    """`llamafactory_tokenize` (``list(text)``) as a zheval tokenizer (no normalisation).

    Unlike the other zheval tokenizers its tokens include whitespace characters (LLaMA-Factory scores them).
    """

    name = "llamafactory-char"
    #: The tool whose tokens this reproduces (named in option errors).
    TOOL = "LLaMA-Factory"
    CONFIG = {"whitespace_tokens": True}
    content_keyed = True  # output fixed by the reproduced tool; _config names it

    def tokenize_normalized(self, text: str) -> List[str]:
        return list(text)


class LlamaFactoryJiebaTokenizer(JiebaTokenizer):
    """jieba exactly as LLaMA-Factory calls it: ``list(jieba.cut(text))`` -- default dictionary, HMM on, no
    normalisation, **whitespace tokens kept** -- but on a private ``jieba.Tokenizer`` instance (loaded lazily).

    Unlike the other zheval tokenizers its output may contain whitespace tokens (``" "``, ``"\\n"``): they change
    rouge-chinese's sentence cut (`zheval.presets.llamafactory`). Meant for ``preset="llamafactory"``.
    """

    name = "llamafactory-jieba"
    #: The tool whose tokens this reproduces (named in option errors); its fixed HMM setting.
    TOOL = "LLaMA-Factory"
    HMM = True
    is_tool = True
    content_keyed = True  # output fixed by the reproduced tool; _config names it

    def __init__(self) -> None:
        super().__init__(terms=None, hmm=True, dictionary=None, punct="keep", normalizer=Normalizer(()))

    def tokenize_normalized(self, text: str) -> List[str]:
        if not text:
            return []
        return list(jieba_cut(self._instance(), text, hmm=True))  # = Tokenizer.cut(text, HMM=True), fixed regexes

    def _config(self) -> dict:
        cfg = super()._config()
        cfg["name"] = self.name
        cfg["whitespace_tokens"] = True
        return cfg

    def signature(self) -> str:
        return f"jieba-{self.jieba_version}+dict.{self.dict_hash[:6]}+hmm+ws"
