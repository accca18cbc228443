"""What each evaluate module says about itself: the per-metric card record (:class:`MetricCard`) from which
:class:`~zheval.adapters.evaluate_module.ZhevalMetricMixin` builds the module's ``_info()`` and class docstring.

The scripts ``metrics/chinese_rouge/chinese_rouge.py``, ``metrics/chinese_bleu/chinese_bleu.py`` and
``metrics/chinese_chrf/chinese_chrf.py`` are shells (a class ``ChineseRouge(ZhevalMetricMixin, evaluate.Metric)``
with ``ZHEVAL_METRIC = "rouge"``). What they used to repeat is written once here: the texts in this folder
(``<metric>.description.txt``; ``<metric>.inputs.txt``, the arguments, returns and doctested examples in the Hub
modules' layout; ``citations.bib``, every work cited, each once) and the URLs in :data:`CARDS`. The long-form card of
each module is its ``README.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MetricCard", "CARDS", "card", "citation"]

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class MetricCard:
    """One evaluate module's card record.

    Attributes:
        metric: the metric's name, ``"rouge"``, ``"bleu"`` or ``"chrf"`` (the ``ZHEVAL_METRIC`` of its script).
        summary: the one-line docstring of the script's class.
        cites: the BibTeX keys of ``citations.bib`` that the module cites, in order.
        codebase_urls, reference_urls: evaluate's ``MetricInfo`` fields.
    """

    metric: str
    summary: str
    cites: tuple[str, ...]
    codebase_urls: tuple[str, ...]
    reference_urls: tuple[str, ...]

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
        """``MetricInfo.citation``: the BibTeX entries of :attr:`cites`."""
        return citation(self.cites)

    def info_fields(self) -> dict:
        """The keyword arguments of ``evaluate.MetricInfo`` that the card gives (all but ``features``)."""
        return {
            "description": self.description,
            "citation": self.citation,
            "inputs_description": self.inputs_description,
            "codebase_urls": list(self.codebase_urls),
            "reference_urls": list(self.reference_urls),
        }

    def docstring(self) -> str:
        """The class docstring evaluate's scripts carry (``add_start_docstrings(description, inputs)`` + summary)."""
        return self.description + self.inputs_description + "\n\n" + self.summary


_ACL = "https://aclanthology.org/"
_SACREBLEU = "https://github.com/mjpost/sacrebleu"

#: The card of each metric, by the ``ZHEVAL_METRIC`` of its script's class.
CARDS: dict[str, MetricCard] = {
    "rouge": MetricCard(
        metric="rouge",
        summary="Chinese ROUGE as an evaluate metric; see the module card (README.md).",
        cites=("lin-2004-rouge",),
        codebase_urls=("https://github.com/google-research/google-research/tree/master/rouge",),
        reference_urls=(_ACL + "W04-1013",),
    ),
    "bleu": MetricCard(
        metric="bleu",
        summary="Chinese BLEU as an evaluate metric; see the module card (README.md).",
        cites=("papineni-etal-2002-bleu", "post-2018-call", "chen-cherry-2014-systematic"),
        codebase_urls=(_SACREBLEU, "https://github.com/nltk/nltk"),
        reference_urls=(_ACL + "P02-1040", _ACL + "W18-6319", _ACL + "W14-3346"),
    ),
    "chrf": MetricCard(
        metric="chrf",
        summary="Chinese chrF / chrF++ as an evaluate metric; see the module card (README.md).",
        cites=("popovic-2015-chrf", "popovic-2017-chrf", "post-2018-call"),
        codebase_urls=(_SACREBLEU, "https://github.com/m-popovic/chrF"),
        reference_urls=(_ACL + "W15-3049", _ACL + "W17-4770", _ACL + "W18-6319"),
    ),
}


def card(metric: str) -> MetricCard:
    """The :class:`MetricCard` of ``metric`` (``"rouge"``, ``"bleu"`` or ``"chrf"``).

    Raises:
        KeyError: no card for ``metric`` (the message names the known ones).
    """
    try:
        return CARDS[metric]
    except KeyError:
        raise KeyError(f"no evaluate card for metric {metric!r}; known: {', '.join(CARDS)}") from None


def citation(keys: tuple[str, ...]) -> str:
    """The BibTeX entries of ``citations.bib`` named by ``keys``, in that order, each ending in a newline.

    Raises:
        KeyError: a key that ``citations.bib`` does not hold.
    """
    entries = {m.group(1): m.group(0) for m in re.finditer(r"@\w+\{([^,]+),.*?\n\}\n", _text("citations.bib"), re.S)}
    missing = [k for k in keys if k not in entries]
    if missing:
        raise KeyError(f"citations.bib holds no entry {missing}; it holds {sorted(entries)}")
    return "".join(entries[k] for k in keys)


def _text(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")
