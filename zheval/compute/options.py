"""Options zheval refuses from the Hub modules' vocabulary, with the reason (shared by BLEU and ROUGE)."""

from __future__ import annotations

__all__ = ["HUB_OPTIONS_REFUSED", "refused_hub_options"]


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
