"""Rules between options that no single field's check can see: an option given where it has no effect is refused
(issue 35: nothing reinterpreted silently), as ``rouge_w_weight`` without rougeW is
(`zheval.compute.options.check_rouge_w_weight`). Read by the options classes of `zheval.compute.options`.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

__all__ = ["CHRF_WORD_ONLY", "chrf_word_only_given", "check_chrf_word_options", "check_chrf_word_names",
           "INTERVAL_ONLY", "check_interval_used",
           "check_sentence_split_used", "EXPLAIN_NO_EFFECT", "check_explain_options", "check_shared_beta",
           "check_normalize_flags"]


#: chrF's options that act on chrF++'s word n-grams only: with ``word_order=0`` they change nothing
#: (`check_chrf_word_options`).
CHRF_WORD_ONLY = ("tokenizer", "terms", "punct", "jieba_hmm", "jieba_dict")


def chrf_word_only_given(options: Mapping[str, Any]) -> list:
    """The options of ``options`` (a mapping of chrF's option names) of `CHRF_WORD_ONLY` set to a value that acts on
    the words only: ``terms``, ``punct="drop"``, ``jieba_hmm``, ``jieba_dict``, ``tokenizer="jieba"`` (its
    normaliser is ``"char"``'s, so the characters are the same; ``"none"`` normalises otherwise and is not named)
    and a user tokenizer (a callable or an object with ``.tokenize``, not a zheval tokenizer object): chrF never
    calls it, and its normaliser's steps differ from ``"char"``'s by ``space`` only, whose whitespace chrF removes
    anyway, so the score is ``"char"``'s while the signature said ``tok:custom:...``."""
    def acts(name, value) -> bool:
        if name == "tokenizer":
            return (isinstance(value, str) and value == "jieba") or _user_tokenizer(value)
        if name == "punct":
            return value == "drop"
        return name in CHRF_WORD_ONLY and value is not None and value is not False and not (
            name == "terms" and not value)
    return [k for k, v in options.items() if acts(k, v)]


def _user_tokenizer(value) -> bool:
    """Whether ``value`` is a user tokenizer (a callable or an object with ``.tokenize``) that
    `zheval.tokenizers.get_tokenizer` would wrap in a ``CallableTokenizer``; a zheval tokenizer object (the report
    doors pass their built one) is not."""
    from ..tokenizers import BaseTokenizer

    if value is None or isinstance(value, (str, BaseTokenizer)):
        return False
    return callable(value) or callable(getattr(value, "tokenize", None))


def check_chrf_word_options(options, function: Optional[str] = None) -> None:
    """Refuse, in chrF's options ``options`` (a `zheval.compute.options.ChrfOptions`) with ``word_order=0`` (chrF, no
    word n-grams), an option that acts on chrF++'s words only
    (`chrf_word_only_given`): chrF counts the character n-grams of the normalised text, which the tokenizer's
    tokens, ``punct``, ``terms`` and the jieba options do not change, so the score would be the same while the
    signature named them (break-it pass 5 F4; as ``rouge_w_weight`` without rougeW is refused). ``function``: the
    door, named first in the error (`check_chrf_word_names` is the same rule on options by name, before the object
    is built).

    Raises:
        ValueError: naming ``function``, every such option and what to do instead.
    """
    if options.word_order != 0:
        return
    _refuse_chrf_words(function, {k: getattr(options, k) for k in CHRF_WORD_ONLY})


def check_chrf_word_names(function: str, given: Mapping[str, Any]) -> None:
    """`check_chrf_word_options` on chrF's options as a door got them by name (``given``: the names set, a typed
    object's fields merged in; ``word_order`` absent is 0), before the options object is built, so that the error
    names the door ``function`` (``compute_chrf``, ``score``, ``chinese_chrf``, an engine door ...:
    `zheval.compute.options.options_for_metrics`, `zheval.compute.options.ChrfOptions.from_names`).

    Raises:
        ValueError: as `check_chrf_word_options`.
    """
    if given.get("word_order", 0) != 0:
        return
    _refuse_chrf_words(function, {k: given[k] for k in CHRF_WORD_ONLY if k in given})


def _refuse_chrf_words(function: Optional[str], values: Mapping[str, Any]) -> None:
    bad = chrf_word_only_given(values)
    if bad:
        said = [(f"tokenizer={_tokenizer_name(values[k])} (a user tokenizer)" if _user_tokenizer(values[k])
                 else f"{k}={values[k]!r}") if k in ("tokenizer", "punct") else k for k in bad]
        raise ValueError(f"{function + ': ' if function else ''}chrF option(s) {', '.join(said)} act only on "
                         "chrF++'s word n-grams, and word_order is 0: "
                         "chrF counts the characters of the normalised text, which they do not change (the score "
                         "would be the same); set word_order >= 1 (2 = chrF++; on the command line "
                         "--chrf-word-order 2) or leave them out"
                         + ("; to remove punctuation from the characters, add the nopunct normalisation step"
                            if "punct" in bad else ""))


def _tokenizer_name(value) -> str:
    return getattr(value, "__qualname__", None) or type(value).__qualname__


#: The options of the bootstrap interval that mean nothing without it (``bootstrap=0``).
INTERVAL_ONLY = ("seed", "confidence", "bootstrap_method")


def check_interval_used(function: str, options) -> None:
    """Refuse, in a metric's options ``options`` (a `zheval.compute.options.IntervalOptions`) with ``bootstrap=0``
    (no interval), a ``seed``, ``confidence`` or ``bootstrap_method`` set to another value than its default: it
    would change nothing (break-it pass 5 F7). Read by the doors the caller passes options to directly, through
    the door configs (`zheval.compute.rouge.rouge_door_config`, ``bleu_door_config``, ``chrf_door_config``: the
    ``compute_*`` functions, the evaluate modules, the OpenCompass evaluators, the Trainer hook, and through
    `zheval.compute.joint.score_door_config` ``score``, ``score_batches`` and the Ray and Spark doors) and by the
    report doors on their own ``bootstrap``/``seed``/``confidence``
    (`zheval.adapters.duck.config.check_report_interval`); not by the config builders, which also build the
    interval-free configs of internal passes.

    Raises:
        ValueError: naming ``function``, every such option, and what to do instead.
    """
    if options.bootstrap:
        return
    bad = [k for k in INTERVAL_ONLY if k in options.changed()]
    if bad:
        raise ValueError(f"{function}: {', '.join(bad)} {'sets' if len(bad) == 1 else 'set'} the bootstrap interval, "
                         f"and bootstrap is 0 (no interval), so {'it' if len(bad) == 1 else 'they'} would change "
                         f"nothing: give bootstrap=N (resamples, e.g. 1000) or leave {', '.join(bad)} out")


def check_sentence_split_used(function: str, options, types) -> None:
    """Refuse a ``sentence_split`` given (not ``None``) in ROUGE's options ``options`` while ``types`` (the ROUGE
    types computed: the caller's, a preset's or the default ones) has no ``rougeLsum``, the only type it splits
    (break-it pass 5 F7; as `zheval.compute.options.check_rouge_w_weight` refuses a weight without rougeW). Read by
    `zheval.compute.rouge.rouge_door_config` (``compute_rouge``, the ``chinese_rouge`` module, the OpenCompass
    evaluator, the Trainer hook; ``score``, ``score_batches`` and the engine doors through
    `zheval.compute.joint.score_door_config`) and by the report doors with the report's types
    (`zheval.adapters.duck.config.report_options`), not by ``rouge_config``, which internal passes call with the
    resolved split.

    Raises:
        ValueError: naming ``function``, the value and the types.
    """
    if options.sentence_split is not None and "rougeLsum" not in types:
        raise ValueError(f"{function}: sentence_split={options.sentence_split!r} splits the sentences of rougeLsum, "
                         f"which the ROUGE types computed do not name ({list(types)}), so it would change nothing: "
                         "add rougeLsum or leave sentence_split out")


#: The options of the metrics that change nothing in an explanation (`zheval.compute.explain`): it explains one
#: item's statistics and scores, so no bootstrap interval is drawn, no cross-check runs, each item is explained
#: alone, and precision, recall and F are always given.
EXPLAIN_NO_EFFECT = ("bootstrap", "bootstrap_method", "seed", "confidence", "use_aggregator", "crosscheck",
                     "return_precision_recall")


def check_explain_options(function: str, options: Mapping[str, Any], given: Mapping[str, Any] = {}) -> None:
    """Refuse, in the options objects ``options`` (``{metric: options object}``) of an explanation, an option of
    `EXPLAIN_NO_EFFECT` set to another value than its default, given by name or in a typed object: the
    explanation would be the same while the signature named it (``bootstrap=1000`` put ``bs:1000`` in the
    signature of an explanation that drew no resample; issue 35). Also ``level`` given by name (``given``, the
    options by name) as another value than ``"sentence"`` without BLEU among the metrics: chrF is explained at
    sentence level whatever it says, so ``level="corpus"`` would change nothing while the signature said
    ``level:sentence``.

    Raises:
        ValueError: naming ``function``, every such option, and what to do instead.
    """
    if given.get("level", "sentence") != "sentence" and "bleu" not in options:
        raise ValueError(f"{function}: level={given['level']!r} would change nothing: chrF is explained at sentence "
                         "level (one item's chrF), and BLEU, whose level it would set, is not explained; leave "
                         "level out")
    bad = [k for k in EXPLAIN_NO_EFFECT if any(k in obj.changed() for obj in options.values())]
    if bad:
        one = len(bad) == 1
        raise ValueError(f"{function}: {', '.join(bad)} would change nothing in an explanation (one item's "
                         "statistics and its precision, recall and F: no bootstrap interval, no cross-check, no "
                         f"aggregation): leave {'it' if one else 'them'} out (for an interval or a cross-check, call compute_rouge, "
                         "compute_bleu, compute_chrf or zheval.score)")


def check_shared_beta(function: str, metrics: Sequence[str], options: Mapping[str, Any]) -> Mapping[str, Any]:
    """Refuse ``beta`` given by name to a door scoring both ROUGE and chrF: it is an option of both, with two
    meanings and defaults (ROUGE's F-measure recall weight, 1: ROUGE-1 F1; chrF's, 2: chrF2), so ``beta=2`` would
    silently turn ROUGE-1 into an F2 as well. Each is set in its metric's options object
    (``rouge=RougeOptions(beta=...)``, ``chrf=ChrfOptions(beta=...)``, which ``zheval.score``, ``score_batches``, the
    engine doors and ``explain`` take). ``evaluate.combine`` keeps evaluate's own convention (one keyword to every
    module) and is not this door.

    Returns:
        ``options``, unchanged.

    Raises:
        TypeError: naming ``function``, both meanings and how to set each.
    """
    if "beta" in options and "rouge" in metrics and "chrf" in metrics:
        raise TypeError(f"{function}: beta={options['beta']!r} is an option of both rouge (the F-measure's recall "
                        "weight, default 1: ROUGE F1) and chrf (chrF's recall weight, default 2: chrF2), so by name "
                        "it would set both; set each in its options object: rouge=RougeOptions(beta=...), "
                        "chrf=ChrfOptions(beta=...), or score them in separate calls")
    return options


#: The flags that a normalisation step contradicts when given explicitly at the value that means "without it":
#: (flag, value, the step, what the step does).
_FLAG_STEPS = (("t2s", False, "t2s", "converts Traditional to Simplified"),
               ("punct", "keep", "nopunct", "drops punctuation"))


def check_normalize_flags(given: Mapping[str, Any]) -> None:
    """Refuse, in the options ``given`` explicitly (by name, so a default is never taken for the caller's word),
    ``t2s=False`` beside a ``normalize`` that has the ``t2s`` step and ``punct="keep"`` beside one that has
    ``nopunct``: the step applied anyway (``norm:nfkc+t2s``, ``！`` dropped) while the flag said not to (break-it
    pass 12). A ``normalize`` that `zheval.text.normalize.get_normalizer` refuses is left to its own error.

    Raises:
        ValueError: naming both options and the two ways out."""
    spec = given.get("normalize")
    if spec is None or not any(flag in given for flag, *_ in _FLAG_STEPS):
        return
    from ..text.normalize import get_normalizer

    try:
        steps = get_normalizer(spec).steps
    except (TypeError, ValueError):
        return
    said = f'normalize="{spec}"' if isinstance(spec, str) else f"normalize={spec!r}"
    for flag, value, step, does in _FLAG_STEPS:
        said_without = isinstance(given.get(flag), str) and given[flag] == value if isinstance(value, str) else \
            given.get(flag, None) is value
        if flag in given and step in steps and said_without:
            typed = f'{flag}="{value}"' if isinstance(value, str) else f"{flag}={value}"
            raise ValueError(f"{typed} contradicts {said}, whose '{step}' step {does}; leave out {typed}, or the "
                             f"'{step}' step")
