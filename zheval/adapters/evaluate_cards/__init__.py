"""What each evaluate module says about itself: the per-metric card record ([`MetricCard`][zheval.adapters.evaluate_cards.MetricCard]) from which
[`ZhevalMetricMixin`][zheval.adapters.evaluate_module.ZhevalMetricMixin] builds the module's ``_info()`` and class docstring.

The scripts ``metrics/chinese_rouge/chinese_rouge.py``, ``metrics/chinese_bleu/chinese_bleu.py``,
``metrics/chinese_chrf/chinese_chrf.py`` and ``metrics/chinese_bertscore/chinese_bertscore.py`` are shells (a class
``ChineseRouge(ZhevalMetricMixin, evaluate.Metric)`` with ``ZHEVAL_METRIC = "rouge"``). What they used to repeat
is written once here: the texts in this folder (``<metric>.description.txt``; ``<metric>.inputs.txt``, the
arguments, returns and doctested examples in the Hub modules' layout; ``citations.bib``, every work cited, each
once) and, in `CARDS`, what each module cites and its code URLs. The long-form card of each module is its
``README.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MetricCard", "CARDS", "card"]

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class MetricCard:
    """One evaluate module's card record.

    Attributes:
        metric: the metric's name, ``"rouge"``, ``"bleu"``, ``"chrf"`` or ``"bertscore"`` (the ``ZHEVAL_METRIC``
            of its script).
        title: the metric as the class's one-line docstring names it (``"ROUGE"``, ``"chrF / chrF++"``,
            ``"BERTScore"``).
        cites: the BibTeX keys of ``citations.bib`` that the module cites, in order; their ``url`` fields are the
            module's ``reference_urls``.
        codebase_urls: evaluate's ``MetricInfo.codebase_urls`` (the reference implementations).
    """

    metric: str
    title: str
    cites: tuple[str, ...]
    codebase_urls: tuple[str, ...]

    @property
    def summary(self) -> str:
        """The one-line docstring of the script's class."""
        return f"Chinese {self.title} as an evaluate metric; see the module card (README.md)."

    @property
    def description(self) -> str:
        """``MetricInfo.description``: what the metric is and which tool's numbers it equals."""
        return _text(f"{self.metric}.description.txt")

    @property
    def inputs_description(self) -> str:
        """``MetricInfo.inputs_description``: the arguments, returns and examples (doctests run by the tests)."""
        return _text(f"{self.metric}.inputs.txt")

    @property
    def citation(self) -> str:
        """``MetricInfo.citation``: the BibTeX entries of `cites`."""
        return "".join(_entries(self.cites))

    @property
    def reference_urls(self) -> list[str]:
        """``MetricInfo.reference_urls``: the ``url`` field of each cited entry."""
        return [re.search(r'\burl = "([^"]+)"', entry).group(1) for entry in _entries(self.cites)]

    def info_fields(self) -> dict:
        """The keyword arguments of ``evaluate.MetricInfo`` that the card gives (all but ``features``)."""
        return {
            "description": self.description,
            "citation": self.citation,
            "inputs_description": self.inputs_description,
            "codebase_urls": list(self.codebase_urls),
            "reference_urls": self.reference_urls,
        }

    def docstring(self) -> str:
        """The class docstring evaluate's scripts carry (``add_start_docstrings(description, inputs)`` + summary)."""
        return self.description + self.inputs_description + "\n\n" + self.summary


_SACREBLEU = "https://github.com/mjpost/sacrebleu"

#: The card of each metric, by the ``ZHEVAL_METRIC`` of its script's class.
CARDS: dict[str, MetricCard] = {card.metric: card for card in (
    MetricCard("rouge", "ROUGE", ("lin-2004-rouge",),
               ("https://github.com/google-research/google-research/tree/master/rouge",)),
    MetricCard("bleu", "BLEU", ("papineni-etal-2002-bleu", "post-2018-call", "chen-cherry-2014-systematic"),
               (_SACREBLEU, "https://github.com/nltk/nltk")),
    MetricCard("chrf", "chrF / chrF++", ("popovic-2015-chrf", "popovic-2017-chrf", "post-2018-call"),
               (_SACREBLEU, "https://github.com/m-popovic/chrF")),
    MetricCard("bertscore", "BERTScore", ("bert-score",), ("https://github.com/Tiiiger/bert_score",)),
)}


def card(metric: str) -> MetricCard:
    """The [`MetricCard`][zheval.adapters.evaluate_cards.MetricCard] of ``metric`` (``"rouge"``, ``"bleu"``,
    ``"chrf"`` or ``"bertscore"``).

    Raises:
        KeyError: no card for ``metric`` (the message names the known ones).
    """
    try:
        return CARDS[metric]
    except KeyError:
        raise KeyError(f"no evaluate card for metric {metric!r}; known: {', '.join(CARDS)}") from None


def _entries(keys: tuple[str, ...]) -> list[str]:
    """The BibTeX entries of ``citations.bib`` named by ``keys``, in that order, each ending in a newline.

    Raises:
        KeyError: a key that ``citations.bib`` does not hold.
    """
    entries = {m.group(1): m.group(0) for m in re.finditer(r"@\w+\{([^,]+),.*?\n\}\n", _text("citations.bib"), re.S)}
    missing = [k for k in keys if k not in entries]
    if missing:
        raise KeyError(f"citations.bib holds no entry {missing}; it holds {sorted(entries)}")
    return [entries[k] for k in keys]


def _text(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")
