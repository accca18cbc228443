"""What a preset is: one object per tool that carries everything zheval does differently for it.

A [`Preset`][zheval.presets.base.Preset] has a name and a part per metric it has: a [`RougePreset`][zheval.presets.base.RougePreset] (option defaults, option checks,
the per-reference formula that plugs into the metric's own multi-reference rule, the tool's own numbers, how the
explanation counts) and/or a [`BleuPreset`][zheval.presets.base.BleuPreset] (option defaults, the tool's own number and when the per-item
scores are the tool's). Every door asks these objects -- ``compute_rouge``/``compute_bleu`` (through
``RougeConfig.preset``/``BleuConfig.preset``, which hold the part), ``explain``, the command line, the Space's
dropdowns, the cards, the harness adapters -- and nothing outside [`zheval.presets`][] compares a preset's name.

A part's methods have defaults that mean "zheval's own rule"; a tool's file (`.llamafactory`, `.rouge155`,
...) subclasses a part where its tool differs. ``docs/presets.md`` ("Add a preset") walks through a new one; the
registry is [`zheval.presets`][] ([`register_preset`][zheval.presets.register_preset]).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from ..definitions.rouge import Score

__all__ = ["DOORS", "UNITS", "COUNTINGS", "RougePreset", "BleuPreset", "Preset", "tool_rouge_defaults",
           "summed_counts", "recipe_departures", "tool_departures", "tokens_tool"]

#: The doors a preset may be offered at beyond the library and the evaluate modules (which take every preset):
#: ``"text"`` the text-file commands ``zheval rouge``/``zheval bleu``; ``"report"`` the 小黄鸭 report's
#: ``--preset``; ``"space"`` the Space's preset dropdown; ``"card"`` a row in the metric card's real-data table.
DOORS = ("text", "report", "space", "card")

#: What a ROUGE preset's item scorer is fed per text: ``"sentences"`` (the tokenizer's tokens split into sentences by
#: ``sentence_split``, a tuple of token tuples, as zheval's own scorers) or ``"tokens"`` (the tokenizer's tokens of
#: the whole text, flat).
UNITS = ("sentences", "tokens")

#: How the explanation counts a preset's n-grams: ``"multiset"`` (clipped counts, zheval and ROUGE-1.5.5) or
#: ``"set"`` (distinct n-grams and the LCS of the whole word lists, rouge-chinese's rules).
COUNTINGS = ("multiset", "set")

ItemScorer = Callable[[Any, Sequence[Any]], Dict[str, Score]]


def tool_rouge_defaults(tokenizer: str, rouge_types: Sequence[str]) -> Dict[str, Any]:
    """The defaults of a ROUGE preset on a tool's own tokens: its tokenizer (which normalises nothing), its types,
    the best reference (``max``) and ``beta`` 1."""
    return {"tokenizer": tokenizer, "normalize": False, "rouge_types": list(rouge_types), "multi_ref": "max",
            "beta": 1.0}


def summed_counts(extra: Mapping[str, Any], keys: Sequence[str]) -> Dict[str, int]:
    """``{key: the sum of the per-item column}`` (0 when the column is absent: no item) for a preset's counts."""
    return {key: int(extra[key].sum()) if key in extra else 0 for key in keys}


def recipe_departures(defaults: Mapping[str, Any], values: Mapping[str, Any]) -> Tuple[str, ...]:
    """The options a preset fixes that a resolved config overrides: every option of ``defaults`` whose value the
    config changes. The one rule of every preset, metric and door for the ``PresetOverrideWarning`` and the
    signature's ``preset:name(overridden:...)`` (docs/presets.md, "Overriding a preset's option"), so that the
    signature never reads ``preset:name`` for a run that is not the preset's.

    Args:
        defaults: the preset part's ``defaults`` (the options it fixes: ``{option: value}``).
        values: the config's value of every option of ``defaults`` that the config carries (an option absent here
            is not compared: it does not apply, e.g. ``rouge_w_weight`` without ``rougeW``). ``rouge_types`` is
            compared as a set (the order of the types changes no number).

    Returns:
        The overridden option names, in ``defaults``' order (empty: the config is the preset's).
    """
    out = []
    for key, default in defaults.items():
        if key not in values:
            continue
        value = values[key]
        if key == "rouge_types":
            if set(value) != set(default):
                out.append(key)
        elif value != default:
            out.append(key)
    return tuple(out)


def tool_departures(departures: Sequence[str], defaults: Mapping[str, Any],
                    tool_options: Mapping[str, Optional[Tuple[Any, ...]]], values: Mapping[str, Any]
                    ) -> Tuple[str, ...]:
    """The overridden options (`recipe_departures`) that make the scores no longer the tool's own numbers:
    all but the options the tool itself offers with a value it takes (``tool_options``, ``None``: any value;
    ROUGE-1.5.5's ``-f B``, sacrebleu's ``smooth_method="floor"``) and a subset of the preset's ROUGE types (the
    tool computes each of them). The preset's own numbers are reported only when this is empty."""
    out = []
    for key in departures:
        value = values[key]
        if key in tool_options and (tool_options[key] is None or value in tool_options[key]):
            continue
        if key == "rouge_types" and set(value) <= set(defaults[key]):
            continue
        out.append(key)
    return tuple(out)


def _tokenizer_values(defaults: Mapping[str, Any], tokenizer: Any) -> Tuple[Any, Any]:
    """``(the config's, the preset's)`` tokenizer as compared: by registry name for a named default (a tool
    tokenizer takes no option), by ``tok`` signature for a callable or tokenizer object (``custom:<name>``)."""
    default = defaults["tokenizer"]
    if isinstance(default, str):
        return tokenizer.name, default
    from ..tokenizers import get_tokenizer

    return tokenizer.signature(), get_tokenizer(default).signature()


def _normalize_values(defaults: Mapping[str, Any], tokenizer: Any) -> Tuple[Any, Any]:
    """``(the config's, the preset's)`` normalisation steps as compared (a preset's ``normalize`` is kept when its
    tokenizer is overridden: docs/presets.md, "Overriding a preset's option")."""
    from ..text.normalize import get_normalizer

    return tokenizer.normalizer.steps, get_normalizer(defaults["normalize"]).steps


def tokens_tool(part: Any) -> str:
    """Whose tokens a preset part's tokenizer reproduces, for messages: the part's ``tokens_of``, else the tool tokenizer's
    ``TOOL`` (``"LLaMA-Factory"``, ``"sacrebleu 2.6.0 tokenize='zh'"`` ...), else ``""`` (a tokenizer of zheval's)."""
    if part.tokens_of:
        return part.tokens_of
    from ..tokenizers import TOOL_TOKENIZERS

    tok = part.defaults.get("tokenizer")
    return TOOL_TOKENIZERS[tok].TOOL if isinstance(tok, str) and tok in TOOL_TOKENIZERS else ""


def _overridden(name: str, departures: Sequence[str]) -> str:
    """The signature's ``preset`` value: the name, marked ``name(overridden:a+b)`` when options depart from it."""
    return f"{name}(overridden:{'+'.join(departures)})" if departures else name


def _check_doors(name: str, doors: FrozenSet[str]) -> None:
    bad = sorted(set(doors) - set(DOORS))
    if bad:
        raise ValueError(f"preset {name!r}: unknown door(s) {bad}; valid: {', '.join(DOORS)}")


@dataclass(frozen=True, eq=False)
class RougePreset:
    """A tool's ROUGE: defaults and rules that [`zheval.compute.rouge.rouge_config`][], ``rouge_items``,
    ``rouge_result`` and [`zheval.explain`][zheval.compute.explain.explain] ask for.

    Attributes:
        name: the preset's name (the registry key, the signature's ``preset`` field).
        defaults: option defaults of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] (``tokenizer``, ``normalize``, ``rouge_types``,
            ``multi_ref``, ``beta``, ``rouge_w_weight``, ``sentence_split``); explicit arguments override them.
        units: what [`item_scorer`][zheval.presets.base.RougePreset.item_scorer] is fed per text (`UNITS`).
        fixed_beta: the tool's own F formula (``f_formula``): ``beta`` must stay 1, and neither ``beta`` nor the
            sentence split is in the signature (the tool's scorer reads neither).
        f_formula: the F formula named in the ``fixed_beta`` error.
        crosscheck_tool: the tool ``crosscheck=True`` recomputes with -- ``"rouge-score"`` (on ``"sentences"``
            units) or ``"rouge-chinese"`` (on ``"tokens"``) -- or ``None`` (the default): refused with
            ``crosscheck_refusal``.
        reference_check: ``"tokens"`` (a reference without a token after tokenisation is an
            [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]) or ``"text"`` (only a reference blank as given; the
            tool scores the emptied ones itself, e.g. OpenCompass's placeholders).
        explainable: whether [`zheval.explain`][zheval.compute.explain.explain] covers it (``False``: a clear error, never other numbers).
        counting: how the explanation counts (`COUNTINGS`).
        doors: where it is offered beyond the library and the evaluate module ([`DOORS`][zheval.presets.base.DOORS]).
        number_scale: the scale of the numbers [`tool_numbers`][zheval.presets.base.RougePreset.tool_numbers] adds (100.0: 0-100, 1.0: 0-1), ``None`` when it
            adds none.
        signature_fields: extra ``(key, value)`` fields of the signature (LongBench's recursion budget).
        summary: one line for the docs and the command line's help.
        tool_options: options the tool itself offers with the values it takes (``None``: any), which keep its
            score when changed (`zheval.presets.base.recipe_departures`); every other option
            of ``defaults`` is the recipe.
        tokens_of: whose tokens the preset's tokenizer reproduces, in words, for messages (`tokens_tool`); empty:
            the tokenizer's own tool (its ``TOOL``). LongBench shares LLaMA-Factory's jieba tokenizer and says so.
        numbers_note: what the numbers of [`tool_numbers`][zheval.presets.base.RougePreset.tool_numbers] are, in
            words, for the reports that print them beside zheval's scores (empty: the reports' own words).
    """

    name: str
    defaults: Mapping[str, Any]
    units: str = "sentences"
    fixed_beta: bool = False
    f_formula: str = "2PR/(P+R+1e-8)"
    crosscheck_tool: Optional[str] = None
    crosscheck_refusal: str = ""
    reference_check: str = "tokens"
    explainable: bool = True
    counting: str = "multiset"
    doors: FrozenSet[str] = field(default_factory=lambda: frozenset({"text"}))
    number_scale: Optional[float] = None
    signature_fields: Tuple[Tuple[str, Any], ...] = ()
    summary: str = ""
    tool_options: Mapping[str, Optional[Tuple[Any, ...]]] = field(default_factory=dict)
    tokens_of: str = ""
    numbers_note: str = ""

    def __post_init__(self) -> None:
        if self.units not in UNITS:
            raise ValueError(f"preset {self.name!r}: units must be one of {UNITS}, got {self.units!r}")
        if self.counting not in COUNTINGS:
            raise ValueError(f"preset {self.name!r}: counting must be one of {COUNTINGS}, got {self.counting!r}")
        if (self.crosscheck_tool, self.units) not in ((None, "sentences"), (None, "tokens"),
                                                      ("rouge-score", "sentences"), ("rouge-chinese", "tokens")):
            raise ValueError(f"preset {self.name!r}: crosscheck_tool {self.crosscheck_tool!r} does not read "
                             f"{self.units!r} units (rouge-score: sentences, rouge-chinese: tokens, or None)")
        if self.reference_check not in ("tokens", "text"):
            raise ValueError(f"preset {self.name!r}: reference_check must be 'tokens' or 'text'")
        _check_doors(self.name, self.doors)
        if "report" in self.doors:
            raise ValueError(f"preset {self.name!r}: the 小黄鸭 report takes BLEU presets only (door 'report')")

    # -- options ----------------------------------------------------------------------------------------------
    def check_types(self, types: Sequence[str]) -> None:
        """Refuse ROUGE types the tool does not compute (after zheval's own type checks). Default: every type."""

    def check(self, *, types: Sequence[str], multi_ref: str, beta: float, crosscheck: bool) -> None:
        """Refuse option values the tool cannot follow (after zheval's own option checks): a ``beta`` other than
        1 under ``fixed_beta``, a refused ``crosscheck``.

        Raises:
            ValueError: naming the preset and the reason.
        """
        if self.fixed_beta and float(beta) != 1.0:
            raise ValueError(f"preset {self.name!r} uses its tool's F1 ({self.f_formula}); beta cannot be changed")
        if crosscheck and self.crosscheck_tool is None:
            raise ValueError(self.crosscheck_refusal or f"crosscheck is not available for preset {self.name!r}")

    # -- the recipe -------------------------------------------------------------------------------------------
    def _compared(self, config: Any) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """``(the preset's values, the config's values)`` of the options the preset fixes that apply to ``config``."""

        values: Dict[str, Any] = {"rouge_types": tuple(config.types), "multi_ref": config.multi_ref,
                                  "beta": float(config.beta)}
        defaults = dict(self.defaults)
        if "tokenizer" in defaults:
            values["tokenizer"], defaults["tokenizer"] = _tokenizer_values(defaults, config.tokenizer)
        if "normalize" in defaults:
            values["normalize"], defaults["normalize"] = _normalize_values(defaults, config.tokenizer)
        if "rougeW" in config.types:
            values["rouge_w_weight"] = float(config.rouge_w_weight)
        if "rougeLsum" in config.types:
            values["sentence_split"] = config.sentence_split
        return defaults, values

    def departures(self, config: Any) -> Tuple[str, ...]:
        """The options the preset fixes that a resolved ROUGE config (`zheval.compute.rouge.RougeConfig`)
        overrides (`zheval.presets.base.recipe_departures`): the tokenizer (by name; a tool tokenizer takes no
        option), its normalisation, the types, the multi-reference rule, ``beta``, and ``rouge_w_weight`` /
        ``sentence_split`` when a type reads them. Each marks the signature and warns."""
        return recipe_departures(*self._compared(config))

    def tool_departures(self, config: Any) -> Tuple[str, ...]:
        """The [`departures`][zheval.presets.base.RougePreset.departures] that are not the tool's own options
        (`zheval.presets.base.tool_departures`): the scores are then zheval's, not the tool's."""
        defaults, values = self._compared(config)
        return tool_departures(recipe_departures(defaults, values), defaults, self.tool_options, values)

    def follows_recipe(self, config: Any) -> bool:
        """Whether a resolved ROUGE config's scores are the tool's own (no [`tool_departures`][zheval.presets.base.RougePreset.tool_departures]), so
        that [`tool_numbers`][zheval.presets.base.RougePreset.tool_numbers] are reported."""
        return not self.tool_departures(config)

    def signature_name(self, config: Any) -> str:
        """The signature's ``preset`` value: the name, or ``name(overridden:a+b)`` naming every overridden option."""
        return _overridden(self.name, self.departures(config))

    # -- per item ---------------------------------------------------------------------------------------------
    def item_scorer(self, types: Sequence[str], multi_ref: str, beta: float, rouge_w_weight: float) -> ItemScorer:
        """``scorer(hyp_units, refs_units) -> {type: Score}`` (0-1): the tool's per-reference formula combined by
        ``multi_ref`` ([`zheval.definitions.rouge.combine_references`][]). A subclass implements it."""
        raise NotImplementedError(f"preset {self.name!r} has no item scorer")

    def check_predictions(self, token_counts: Sequence[int]) -> None:
        """Refuse predictions the tool cannot score (``token_counts``: tokens per prediction). Default: none."""

    def score_items(self, hyp_units: Sequence[Any], refs_units: Sequence[Sequence[Any]], types: Sequence[str],
                    multi_ref: str, beta: float, rouge_w_weight: float
                    ) -> Tuple[List[Dict[str, Score]], Dict[str, Any]]:
        """Every item's ``{type: Score}`` and the preset's own per-item columns (``{name: (n_items,) array}``,
        carried in ``RougeItems.extra`` and summed by [`tool_numbers`][zheval.presets.base.RougePreset.tool_numbers]). Default: [`item_scorer`][zheval.presets.base.RougePreset.item_scorer] per item,
        no column."""
        scorer = self.item_scorer(types, multi_ref, beta, rouge_w_weight)
        return [scorer(h, r) for h, r in zip(hyp_units, refs_units)], {}

    # -- result -----------------------------------------------------------------------------------------------
    @property
    def has_tool_numbers(self) -> bool:
        """Whether the preset reports numbers of its own (overrides `tool_numbers`)."""
        return type(self).tool_numbers is not RougePreset.tool_numbers

    def tool_numbers(self, fmeasure: Mapping[str, Sequence[float]], extra: Mapping[str, Any]) -> Dict[str, Any]:
        """The tool's own numbers (on ``number_scale``) and counts from every item's F (0-1, per type) and the
        per-item columns of [`score_items`][zheval.presets.base.RougePreset.score_items] (possibly absent for no item). Default: none. Asked
        only when the config [`follows_recipe`][zheval.presets.base.RougePreset.follows_recipe] (the caller checks)."""
        return {}

    # -- explanation ------------------------------------------------------------------------------------------
    def explain_words(self, tokens: Sequence[str]) -> List[str]:
        """The words the tool counts in one text's ``"tokens"`` units (rouge-chinese re-splits them). Default: the
        tokens."""
        return list(tokens)

    def explain_wlcs_hit(self, ref_tokens: Sequence[str], hyp_tokens: Sequence[str], weight: float):
        """``(hit, reference base)`` of rougeW in the explanation when the tool's differ from zheval's, else
        ``None`` (ROUGE-1.5.5's own)."""
        return None

    def explain_su_counts(self, tokens: Sequence[str], skip: Optional[int]):
        """``(skip-bigram Counter, unigram Counter)`` of rougeSU in the explanation when the tool's differ, else
        ``None``."""
        return None


@dataclass(frozen=True, eq=False)
class BleuPreset:
    """A tool's BLEU: defaults, and the tool's own number where the per-item scores are the tool's.

    Attributes:
        name: the preset's name.
        defaults: option defaults of [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] (``tokenizer``,
            ``normalize`` -- kept when the tokenizer is overridden, as a ROUGE preset's --, ``max_order``, ``smooth_method``, ``smooth_value``, ``bp_ref_length``, ``level``, ``effective_order``,
            ``weights``); explicit arguments override them.
        explainable: as [`RougePreset`][zheval.presets.base.RougePreset].
        doors: as ``RougePreset``.
        number_scale: as ``RougePreset``.
        summary: as ``RougePreset``.
        tool_options: as ``RougePreset`` (sacrebleu's own smoothing methods, orders and levels).
        tokens_of: as ``RougePreset``.
        scores_empty_references: the tool scores an empty reference (sacrebleu: reference length 0, no n-gram)
            where zheval refuses it ([`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]); ``True``: the
            preset scores it as the tool does, counted and warned
            (`zheval.compute.inputs.scored_empty_references`) at every door that takes the preset.
    """

    name: str
    defaults: Mapping[str, Any]
    explainable: bool = True
    doors: FrozenSet[str] = field(default_factory=lambda: frozenset({"text"}))
    number_scale: Optional[float] = None
    summary: str = ""
    tool_options: Mapping[str, Optional[Tuple[Any, ...]]] = field(default_factory=dict)
    tokens_of: str = ""
    scores_empty_references: bool = False

    def __post_init__(self) -> None:
        _check_doors(self.name, self.doors)

    def _compared(self, config: Any) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """``(the preset's values, the config's values)`` of the options the preset fixes. ``smooth_value`` is
        compared (as resolved: a default ``None`` is the method's own value) only under the preset's smoothing
        method; a default ``effective_order`` of ``None`` is the level's rule (on at sentence level). A level set
        by the calling function (``config.level_by_caller``: explain's sentence BLEU) is not compared."""
        from ..definitions.bleu_score import validate_options

        values: Dict[str, Any] = {"level": config.level, "max_order": config.max_order,
                                  "smooth_method": config.smooth_method, "effective_order": config.effective_order,
                                  "weights": config.weights, "bp_ref_length": config.bp_ref_length}
        if getattr(config, "level_by_caller", False):
            del values["level"]  # the calling function's own level (explain: sentence BLEU), not the user's
        defaults = dict(self.defaults)
        if "tokenizer" in defaults:
            values["tokenizer"], defaults["tokenizer"] = _tokenizer_values(defaults, config.tokenizer)
        if "normalize" in defaults:
            values["normalize"], defaults["normalize"] = _normalize_values(defaults, config.tokenizer)
        if defaults.get("effective_order", False) is None:
            defaults["effective_order"] = config.level == "sentence"
        if "weights" in defaults and defaults["weights"] is not None:
            defaults["weights"] = tuple(float(w) for w in defaults["weights"])
            values["weights"] = None if config.weights is None else tuple(float(w) for w in config.weights)
        if "smooth_value" in defaults and config.smooth_method == defaults.get("smooth_method"):
            defaults["smooth_value"] = validate_options(config.smooth_method, defaults["smooth_value"], "closest",
                                                        None, int(config.max_order))[0]
            values["smooth_value"] = config.smooth_value
        return defaults, values

    def departures(self, config: Any) -> Tuple[str, ...]:
        """The options the preset fixes that a resolved BLEU config (`zheval.compute.bleu.BleuConfig`) overrides
        (`zheval.presets.base.recipe_departures`): the tokenizer (by name; a tool tokenizer takes no option), the
        level, orders, smoothing method and value, effective order, weights and reference length. Each marks the
        signature and warns."""
        return recipe_departures(*self._compared(config))

    def tool_departures(self, config: Any) -> Tuple[str, ...]:
        """As [`RougePreset.tool_departures`][zheval.presets.base.RougePreset.tool_departures]."""
        defaults, values = self._compared(config)
        return tool_departures(recipe_departures(defaults, values), defaults, self.tool_options, values)

    def follows_recipe(self, config: Any) -> bool:
        """Whether a resolved BLEU config's scores are the tool's own (no [`tool_departures`][zheval.presets.base.BleuPreset.tool_departures]), so that
        its per-item scores are the tool's and [`tool_numbers`][zheval.presets.base.BleuPreset.tool_numbers] are reported."""
        return not self.tool_departures(config)

    def signature_name(self, config: Any) -> str:
        """As [`RougePreset.signature_name`][zheval.presets.base.RougePreset.signature_name]."""
        return _overridden(self.name, self.departures(config))

    def check_predictions(self, token_counts: Sequence[int]) -> None:
        """Refuse predictions the tool cannot score (``token_counts``: tokens per prediction). Default: none."""

    @property
    def has_tool_numbers(self) -> bool:
        """Whether the preset reports a number of its own (overrides `tool_numbers`)."""
        return type(self).tool_numbers is not BleuPreset.tool_numbers

    def tool_numbers(self, config: Any, item_scores: Optional[Sequence[float]]) -> Dict[str, Any]:
        """The tool's own number (on ``number_scale``) from the per-item sentence BLEU values (0-1; ``None`` at
        corpus level). Default: none. Asked only when the config [`follows_recipe`][zheval.presets.base.BleuPreset.follows_recipe] (the caller checks)."""
        return {}


@dataclass(frozen=True, eq=False)
class Preset:
    """One tool's preset: its name and a part per metric (at least one).

    Attributes:
        name: the registry key (``compute_rouge(preset=name)``).
        rouge: the ROUGE part (with the same ``name``) or ``None``.
        bleu: the BLEU part (with the same ``name``) or ``None``.
        report_refusal: why the report of ``zheval score --preset`` cannot compute it (shown as the error; a
            preset the report takes for some metrics is refused for the others by a message naming them).
    """

    name: str
    rouge: Optional[RougePreset] = None
    bleu: Optional[BleuPreset] = None
    report_refusal: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a preset's name must be a non-empty str, got {self.name!r}")
        if self.rouge is None and self.bleu is None:
            raise ValueError(f"preset {self.name!r} has neither a ROUGE nor a BLEU part")
        for part, cls in ((self.rouge, RougePreset), (self.bleu, BleuPreset)):
            if part is not None and (not isinstance(part, cls) or part.name != self.name):
                raise ValueError(f"preset {self.name!r}: its {cls.__name__} must be one, named {self.name!r}")

    @property
    def metrics(self) -> Tuple[str, ...]:
        """The metrics that have this preset, ``("rouge", "bleu")`` order."""
        return tuple(m for m, part in (("rouge", self.rouge), ("bleu", self.bleu)) if part is not None)

    def part(self, metric: str):
        """The [`RougePreset`][zheval.presets.base.RougePreset] (``"rouge"``) or [`BleuPreset`][zheval.presets.base.BleuPreset] (``"bleu"``), or ``None``."""
        if metric not in ("rouge", "bleu"):
            raise ValueError(f"presets exist for 'rouge' and 'bleu', not {metric!r}")
        return self.rouge if metric == "rouge" else self.bleu
