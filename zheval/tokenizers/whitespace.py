"""The ``none`` tokenizer: already-tokenised text, split on whitespace."""

from __future__ import annotations

from ..text.normalize import Normalizer
from .base import BaseTokenizer, check_punct, option_suffix
from .char import is_punct_or_symbol

__all__ = ["WhitespaceTokenizer"]


class WhitespaceTokenizer(BaseTokenizer):
    """Already-tokenised text: split on whitespace (``str.split()``).

    Its default normaliser is **empty** (the user's tokens are taken as they are); with ``normalize=`` each token is
    normalised on its own, so no step (``space`` removes spaces next to CJK characters) can merge two tokens.
    """

    name = "none"
    content_keyed = True

    def __init__(self, punct: str = "keep", normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(()))
        self.punct = check_punct(punct)

    def _normalize(self, text: str) -> str:
        """Normalise each whitespace-separated token on its own, keeping line breaks: normalisation can never
        merge two of the user's tokens (the ``space`` step would otherwise join ``今天 天气`` into one token)."""
        if not self.normalizer.steps:
            return text
        norm = self.normalizer
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return "\n".join(" ".join(x for t in line.split() for x in norm(t).split()) for line in lines)

    def tokenize_normalized(self, text: str) -> list[str]:
        tokens = text.split()
        if self.punct == "drop":
            tokens = [t for t in tokens if not is_punct_or_symbol(t)]
        return tokens

    def lines_concatenate(self) -> bool:
        return type(self) is WhitespaceTokenizer  # str.split() treats a line break as any other whitespace

    def _config(self) -> dict:
        return {"name": self.name, "punct": self.punct}

    def signature(self) -> str:
        return "none" + option_suffix(punct=self.punct)


