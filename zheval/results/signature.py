"""The reproducibility signature attached to every zheval result.

In the spirit of sacrebleu's ``Signature`` (sacrebleu 2.6.0, ``metrics/base.py``): ``key:value`` pairs joined by
``|``, the library version last, e.g.::

    nrefs:var|tok:zh-char|norm:nfkc+zw+punct+space+lower|case:lc|metric:rouge|multi:max|beta:1|split:punct|zheval:0.1.0

Fields, in this order (a field that does not apply is left out):

========== =========================================================================================================
``nrefs``  references per item: a number when every item has the same count, ``var`` when it varies (ragged)
           (counted after a ``max_refs`` limit)
``maxrefs`` ``K`` when the items were scored with their first ``K`` references (``max_refs=K``; absent otherwise)
``tok``    tokenizer: ``zh-char``, ``zh-char+terms.<sha6>``, ``jieba-<ver>+dict.<sha6>+hmm|nohmm[+terms.<sha6>]``,
           ``none``, ``custom:<name>``; ``+nopunct`` when punctuation tokens are dropped. ``zh-char`` is zheval's
           ``char`` tokenizer (one token per Han/kana character, letter/digit runs whole: ``iOS``, ``2024``), named
           apart from sacrebleu's ``tok:char``, which splits every character, Latin letters and digits too
``norm``   normalisation steps joined by ``+`` (``none`` for no step); ``t2s`` appears here when on
``opencc`` the OpenCC version whose dictionaries the ``t2s`` step used (only with ``t2s``), e.g. ``1.4.2``
``case``   ``lc`` when Latin letters are lower-cased (``lower`` step), else ``mixed``
``preset`` the preset whose defaults were used (``rouge155``, ``llamafactory``, ``sacrebleu-zh``,
           ``opencompass-jieba-rouge``, ``longbench``, ``glm4``), if any; ``longbench`` adds ``recursion`` (the
           emulated recursion cutoff, `zheval.presets.longbench`); ``name(overridden:a+b)`` when options given
           explicitly depart from the preset's recipe (its own numbers are then left out; ``docs/presets.md``)
``metric`` ``rouge`` or ``bleu``, followed by the metric's own fields (given in the order the metric passes them),
           e.g. ROUGE ``multi`` (multi-reference rule), ``beta``, ``split`` (Lsum sentence split), ``w``;
           BLEU ``level`` (corpus/sentence), ``order``, ``smooth``, ``bp`` (closest/shortest/none), ``eff``
``zheval`` the zheval version
========== =========================================================================================================
"""

from __future__ import annotations

from typing import Sequence

from ..text.normalize import opencc_version
from .tool_versions import check_tool_version
from ..version import __version__

__all__ = ["nrefs_field", "build_signature", "parse_signature", "interval_fields", "signature_number"]


def signature_number(value) -> str:
    """A number as a signature writes it: ``format(v, "g")`` (``1.0`` → ``1``), with ``-0.0`` written ``0`` as
    ``0.0`` is (the same setting gives one signature; issue 35)."""
    value = float(value)
    return format(value + 0.0 if value == 0 else value, "g")


def nrefs_field(reference_counts: Sequence[int]) -> str:
    """``"var"`` if the counts differ, else the common count as a string (``"0"`` for an empty corpus)."""
    counts = set(reference_counts)
    if not counts:
        return "0"
    return str(next(iter(counts))) if len(counts) == 1 else "var"


def build_signature(tokenizer, reference_counts: Sequence[int], metric: str, fields=(), preset: str | None = None,
                    max_refs: int | None = None) -> str:
    """Build the signature string.

    Args:
        tokenizer: a `zheval.tokenizers.BaseTokenizer` (gives ``tok``, ``norm`` and ``case``).
        reference_counts: number of references of each item (gives ``nrefs``).
        metric: ``"rouge"`` or ``"bleu"``.
        fields: ordered ``(key, value)`` pairs of metric options; floats are written by `signature_number` (``1.0`` → ``1``, ``-0.0`` → ``0``),
            booleans as ``yes``/``no``, ``None`` as ``none``.
        preset: the preset name (marked ``name(overridden:...)`` by the caller when options depart from it), or
            ``None``.
        max_refs: the ``max_refs`` limit the items were scored with (``maxrefs`` field), or ``None``.

    Returns:
        ``key:value|...|zheval:<version>``.

    Raises:
        ValueError: a key or value containing ``|`` or ``:`` (it would make the signature ambiguous).

    Warns:
        UntestedToolVersionWarning: ``t2s`` with an OpenCC release outside the tested span
            (`zheval.results.tool_versions.TESTED_VERSIONS`).
    """
    steps = tokenizer.normalizer.steps
    if "t2s" in steps:
        check_tool_version("opencc", use="t2s")
    pairs = [
        ("nrefs", nrefs_field(reference_counts)),
        *([("maxrefs", str(int(max_refs)))] if max_refs is not None else []),
        ("tok", tokenizer.signature()),
        ("norm", tokenizer.normalizer.name),
        *([("opencc", opencc_version())] if "t2s" in steps else []),
        ("case", "lc" if "lower" in steps else "mixed"),
    ]
    if preset:
        pairs.append(("preset", preset))
    pairs.append(("metric", metric))
    for key, value in fields:
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif isinstance(value, float):
            value = signature_number(value)
        elif value is None:
            value = "none"
        pairs.append((key, str(value)))
    pairs.append(("zheval", __version__))
    for k, v in pairs:
        if "|" in k or ":" in k or "|" in v:
            raise ValueError(f"signature field {k!r}={v!r} contains a reserved character '|' or ':'")
    return "|".join(f"{k}:{v}" for k, v in pairs)


def interval_fields(bootstrap: int, seed, confidence: float, method: str = "multinomial") -> list:
    """The signature fields of a bootstrap interval: ``bs`` and ``seed`` (then ``bsmethod:poisson`` for the Poisson
    bootstrap -- its interval is not the multinomial one of the same ``bs`` and ``seed`` -- and ``conf`` when not
    0.95), or none without one (``bootstrap`` 0)."""
    if not bootstrap:
        return []
    fields = [("bs", int(bootstrap)), ("seed", seed)]
    if method != "multinomial":
        fields.append(("bsmethod", method))
    if confidence != 0.95:
        fields.append(("conf", float(confidence)))
    return fields


def parse_signature(signature: str) -> dict[str, str]:
    """Parse a signature back into an ordered ``{key: value}`` dict (values may contain ``:``).

    Raises:
        ValueError: a field without ``:``.
    """
    out: dict[str, str] = {}
    for part in signature.split("|"):
        if ":" not in part:
            raise ValueError(f"malformed signature field {part!r}")
        k, v = part.split(":", 1)
        out[k] = v
    return out
