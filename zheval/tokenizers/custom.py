"""User tokenizers: a callable ``str -> list[str]`` or an object with ``.tokenize``, wrapped as a zheval tokenizer
that is never cached across calls."""

from __future__ import annotations

import warnings

from ..text.normalize import Normalizer
from .base import USER_TOKENIZER_STEPS, BaseTokenizer

__all__ = ["CallableTokenizer", "DroppedTokensWarning"]


class DroppedTokensWarning(UserWarning):
    """A user tokenizer returned empty or whitespace-only tokens, which zheval drops (a token is never empty or
    whitespace): its numbers then differ from rouge-score's with the same callable, which counts them."""


class CallableTokenizer(BaseTokenizer):
    """Wrap a user callable ``str -> list[str]`` or an object with ``.tokenize(str)``.

    The user's tokenizer receives the text normalised with `USER_TOKENIZER_STEPS` (``nfkc+zw+punct+lower``:
    the default steps without ``space``, so spaces between pre-segmented words reach it; a whitespace-splitting
    callable gives the tokens it gives under rouge-score and the Hub ``rouge`` module wherever these steps do not
    change the words), unless ``normalizer`` says otherwise (``get_tokenizer(fn, normalize=...)``; ``normalize=True``
    is the full default, ``space`` included). Lines are then tokenised one by one for ROUGE-Lsum. Empty and
    whitespace-only tokens it returns are removed, never silently: a `DroppedTokensWarning` says so, once per
    tokenizer object -- a callable is wrapped afresh on every call, and the metrics of one call share the warning
    (`share_warning`), so once per call -- since rouge-score would count them.

    It is **not** content-keyed: its tokens are computed afresh on every call (never taken from the process-wide
    cache, whose key could only be the object's identity), and its fingerprint is new on every access. Its
    signature ``custom:<qualified name>`` names it but cannot identify its code: such numbers are reproducible only
    with the same code.

    Raises:
        TypeError: the object is neither callable nor has ``.tokenize``; on calls, when it returns something other
            than a list/tuple of ``str``.
    """

    name = "custom"

    def __init__(self, obj, normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(USER_TOKENIZER_STEPS))
        if hasattr(obj, "tokenize") and callable(obj.tokenize):
            self._fn = obj.tokenize
        elif callable(obj):
            self._fn = obj
        else:
            raise TypeError(f"a tokenizer must be a name, a callable or an object with .tokenize; got {type(obj).__name__}")
        self.obj = obj
        self.obj_name = getattr(obj, "__qualname__", None) or type(obj).__qualname__
        self._warned = [False]  # shared by the wrappers of one callable in one call (`share_warning`)

    def tokenize_normalized(self, text: str) -> list[str]:
        out = self._fn(text)
        if not isinstance(out, (list, tuple)):
            raise TypeError(f"custom tokenizer {self.obj_name} returned {type(out).__name__}, expected list[str]")
        for j, t in enumerate(out):
            if not isinstance(t, str):
                raise TypeError(f"custom tokenizer {self.obj_name} returned a {type(t).__name__} at token {j}")
        kept = [t for t in out if t.strip()]
        if len(kept) != len(out) and not self._warned[0]:
            self._warned[0] = True  # once per call: a callable is wrapped afresh on every call (`share_warning`)
            warnings.warn(f"custom tokenizer {self.obj_name} returned empty or whitespace-only tokens (e.g. "
                          f"{next(t for t in out if not t.strip())!r}): zheval drops them, since a token is never "
                          "empty or whitespace, so its numbers differ from rouge-score's with the same callable, which "
                          "counts them; return only non-empty tokens (e.g. [t for t in tokens if t.strip()]) to agree "
                          "with both", DroppedTokensWarning, stacklevel=2)
        return kept

    def share_warning(self, other: "CallableTokenizer") -> None:
        """Warn about dropped tokens at most once for ``self`` and ``other`` together (the metrics of one call wrap
        the same callable each in a tokenizer of its own: `zheval.compute.guards.one_drop_warning`)."""
        self._warned = other._warned

    def _config(self) -> dict:
        return {"name": self.name, "obj": self.obj_name}

    def signature(self) -> str:
        return f"custom:{self.obj_name}"


