"""What both metrics share about options: the tokenizer and interval option names, the not-given sentinel, the
unknown-option error (with the reasons for the Hub modules' options zheval refuses), and building the tokenizer."""

from __future__ import annotations

import numpy as np

__all__ = ["check_flags", "HUB_OPTIONS_REFUSED", "refused_hub_options", "UNSET", "TOKENIZER_OPTIONS",
           "INTERVAL_OPTIONS",
           "refuse_unknown", "tokenizer_from_options"]


#: Options of the Hugging Face Hub's ``rouge`` and ``bleu`` modules that zheval refuses (a TypeError, never silently
#: ignored), with the reason given in the error.
HUB_OPTIONS_REFUSED = {
    "use_stemmer": (
        "use_stemmer (the Hub rouge module's Porter stemmer) is refused: it stems English words only -- nothing in "
        "Chinese text -- and zheval does not implement it, so accepting it would promise a normalisation that never "
        "happens; for English words in the texts, pass a tokenizer callable that stems"
    ),
    "smooth": (
        "smooth (the Hub bleu module's smoothing: +1 to the matches and totals of every order, unigrams included) is "
        "refused: it is none of sacrebleu's methods; choose smooth_method (\"exp\", the default, \"add-k\": +k for "
        "orders >= 2 as sacrebleu, \"floor\", \"none\" = the Hub module's default, or \"nltk3\")"
    ),
}


def refused_hub_options(names) -> str:
    """The reasons of :data:`HUB_OPTIONS_REFUSED` for those of ``names`` that are in it, as sentences to append to
    an unknown-option error (``""`` when none is)."""
    return "".join(f". {HUB_OPTIONS_REFUSED[n]}" for n in names if n in HUB_OPTIONS_REFUSED)


#: The sentinel of an option that was not given (a preset's default then applies; an explicit value always wins).
UNSET: object = type("Unset", (), {"__repr__": lambda self: "UNSET", "__bool__": lambda self: False})()

#: Tokenizer options shared by both metrics (same names, same meaning), forwarded to
#: :func:`zheval.tokenizers.get_tokenizer`.
TOKENIZER_OPTIONS = ("terms", "punct", "jieba_hmm", "jieba_dict", "normalize", "t2s")

#: Options of the bootstrap interval, shared by both metrics.
INTERVAL_OPTIONS = ("bootstrap", "seed", "confidence")


def check_flags(**flags) -> None:
    """Refuse an on/off option that is not ``True``/``False`` (a numpy bool counts): a string such as ``"False"``
    (from a config file or a command line) is truthy and would silently mean *on*.

    Raises:
        TypeError: naming the option and the value given.
    """
    for name, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


def refuse_unknown(function: str, given, known) -> None:
    """TypeError naming the options of ``given`` that are not in ``known`` (with the reason for a refused Hub
    option), listing the valid ones; nothing when all are known."""
    bad = sorted(k for k in given if k not in known)
    if bad:
        raise TypeError(f"{function} got unknown option(s) {bad}; valid options: {', '.join(known)}"
                        f"{refused_hub_options(bad)}")


def tokenizer_from_options(tokenizer, tokenizer_options, normalize=UNSET):
    """The tokenizer of a metric: :func:`zheval.tokenizers.get_tokenizer` of ``tokenizer`` with the tokenizer
    options that were given (``normalize``: the resolved value -- a preset may set it -- or :data:`UNSET`).

    Raises:
        TypeError/ValueError/FileNotFoundError: as :func:`~zheval.tokenizers.get_tokenizer`.
    """
    from ..tokenizers import get_tokenizer

    opts = {k: v for k, v in tokenizer_options.items() if k != "normalize" and v is not UNSET}
    if normalize is not UNSET and normalize is not None:
        opts["normalize"] = normalize
    return get_tokenizer(tokenizer, **opts)
