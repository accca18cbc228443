"""Glue between the zheval metric scripts and evaluate 0.4.6's ``EvaluationModule``: [`ZhevalMetricMixin`][zheval.adapters.evaluate_module.ZhevalMetricMixin], the
behaviour ``metrics/chinese_rouge``, ``metrics/chinese_bleu``, ``metrics/chinese_chrf`` and
``metrics/chinese_bertscore`` share. Each script is a shell: a class subclassing the mixin and ``evaluate.Metric``
that names its metric (``ZHEVAL_METRIC``); the mixin gives it its docstring and ``_info()`` from the metric's card
record ([`zheval.adapters.evaluate_cards`][]). The mixin is not an ``EvaluationModule``, so evaluate's
``import_main_class``, which takes the first concrete ``EvaluationModule`` subclass of the script, takes the script's
own class.

evaluate picks a feature set from the first item and coerces the rest, swallows unknown ``evaluate.load`` keyword
arguments, loses every stored batch when ``_compute`` fails, and its Arrow writer is not thread-safe. These helpers
make the metric modules check everything before evaluate stores or consumes anything, hand evaluate only the
canonical input form (every item a list of reference strings), serialise ``add``/``add_batch``/``compute`` on one
module instance (`module_lock`), remember which call stored which items (so that an error found at compute
time names the batch an item came from), and put stored items back after a failure inside ``_compute``.

Validation at ``add``/``add_batch`` time is the compute path's own (`canonical_inputs`): types, lengths,
empty reference lists, lone surrogates, and blank references (empty under every tokenizer; the first part of the
empty-reference rule, `zheval.compute.inputs.check_references`). A bad batch is refused whole and nothing of it is
stored, so the module never holds an item that no option could score -- except a blank reference where a preset of
the module's metric scores it (``BleuPreset.scores_empty_references``: ``chinese_bleu``'s ``sacrebleu-zh``, as
sacrebleu scores it): it is stored, and ``compute()`` scores it under that preset (counted and warned) or refuses it
with every other option, naming the call that stored it. Whether a reference has a token depends on
``compute()``'s options (``punct="drop"``, a custom tokenizer), so that part of the rule is checked at compute time;
its error then gives, for every listed reference, the index in the data being computed (the stored items first, in
the order they were added, then this call's), which ``add``/``add_batch`` call stored it, and says that the stored
items are kept.
"""

from __future__ import annotations

import os
import threading
from bisect import bisect_right

from ..compute.metric_table import MetricAPI, metric_api
from ..compute.gcpause import no_cyclic_gc
from ..compute.guards import warn_input_slips
from ..compute.inputs import EmptyReferenceError, check_references, validate_inputs
from ..compute.options import refused_hub_options
from .evaluate_cards import card
from ..results.poisson import poisson_keys
from ..results.reducers import check_interval_options

__all__ = [
    "ZhevalMetricMixin",
    "EVALUATE_INIT_ARGS",
    "refuse_load_options",
    "check_seed_and_confidence",
    "init_module_state",
    "module_lock",
    "canonical_inputs",
    "checked_inputs",
    "store_canonical",
    "store_batch",
    "store_item",
    "refused",
    "compute_keeping_batches",
    "nothing_stored",
    "no_cyclic_gc",
]

#: evaluate 0.4.6's own constructor parameters (EvaluationModule.__init__; evaluate.load passes config_name,
#: process_id, num_process, cache_dir, keep_in_memory, experiment_id, hash, and forwards any other keyword).
EVALUATE_INIT_ARGS = (
    "config_name",
    "keep_in_memory",
    "cache_dir",
    "num_process",
    "process_id",
    "seed",
    "experiment_id",
    "hash",
    "max_concurrent_cache_files",
    "timeout",
)


class ZhevalMetricMixin:
    """The shared behaviour of zheval's evaluate modules; a script declares ``class ChineseRouge(ZhevalMetricMixin,
    evaluate.Metric)`` with ``ZHEVAL_METRIC = "rouge"`` (or ``"bleu"``, ``"chrf"``, ``"bertscore"``).

    * the class gets its docstring, and ``_info()`` its ``MetricInfo``, from the metric's
      [`MetricCard`][zheval.adapters.evaluate_cards.MetricCard] (description, citation, inputs with examples, URLs);
    * ``evaluate.load`` keyword arguments that evaluate would silently swallow are a TypeError;
    * ``compute``, ``add_batch`` and ``add`` check inputs and options before evaluate stores anything (a bad batch is
      refused whole), hold the instance's lock (calls from several threads run one at a time), and hand evaluate only
      the canonical input form; a failure inside ``_compute`` puts the items stored before the call back;
    * ``_compute`` runs the library's items/result pair ([`zheval.compute.rouge`][] / [`zheval.compute.bleu`][] /
      [`zheval.compute.chrf`][] / [`zheval.compute.bertscore`][]; `zheval.compute.metric_table`) on what evaluate
      stored, with the same option checks, guards and numbers as ``zheval.compute_rouge`` / ``zheval.compute_bleu``
      / ``zheval.compute_chrf`` / ``zheval.compute_bertscore``. The other n-gram metrics' options are accepted and
      ignored (not a ``preset``: chrF has none, and one given is refused, `check_ignored_preset`), so ``evaluate.combine`` can send one set of keyword arguments to several modules (BERTScore's module
      takes its own options only).
    """

    ZHEVAL_METRIC: str = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "ZHEVAL_METRIC" in cls.__dict__:
            # what evaluate's scripts do with add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
            cls.__doc__ = card(cls.ZHEVAL_METRIC).docstring()

    def _info(self):
        """evaluate's ``MetricInfo`` of the module: the card's texts and URLs, and `zheval_features`."""
        import evaluate

        return evaluate.MetricInfo(features=self.zheval_features(), **card(self.ZHEVAL_METRIC).info_fields())

    @property
    def _zheval(self) -> MetricAPI:
        return metric_api(self.ZHEVAL_METRIC)

    def __init__(self, *args, **kwargs):
        """evaluate's own constructor parameters only (what ``evaluate.load`` passes); scoring options go to
        ``compute()``. evaluate would silently swallow ``evaluate.load(path, tokenizer="jieba")``: TypeError instead.
        """
        refuse_load_options(self._zheval.name, kwargs)
        super().__init__(*args, **kwargs)
        init_module_state(self)  # the instance's lock and the record of stored batches

    @staticmethod
    def zheval_features() -> list:
        """The two input feature sets of the ``_info`` (as the Hub's ``rouge`` and ``bleu`` modules): string
        predictions with a list of reference strings first, then with one reference string."""
        import datasets

        string = datasets.Value("string", id="sequence")
        return [
            datasets.Features({"predictions": string, "references": datasets.Sequence(string, id="references")}),
            datasets.Features({"predictions": string, "references": string}),
        ]

    def _zheval_options(self, kwargs) -> dict:
        """The options meant for this metric; the other metric's are dropped, unknown ones raise TypeError."""
        m = self._zheval
        unknown = sorted(k for k in kwargs if k not in m.options and k not in m.other_options)
        if unknown:
            others = (f" (options of the other zheval metrics, accepted and ignored: {', '.join(m.other_options)})"
                      if m.other_options else "")
            raise TypeError(f"{m.name} got unknown option(s) {unknown}; valid options: {', '.join(m.options)}"
                            + others + refused_hub_options(unknown))
        check_ignored_preset(m, kwargs)
        return {k: v for k, v in kwargs.items() if k in m.options}

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the metric (keyword arguments only); inputs and options are validated first."""
        # one call at a time on this instance (evaluate's writer is not thread-safe); no full-heap collection of
        # evaluate's imports mid-computation (see no_cyclic_gc)
        with module_lock(self), no_cyclic_gc():
            self._zheval.check(**self._zheval_options(kwargs))  # every option error, before anything is stored
            if predictions is not None or references is not None:
                predictions, references = checked_inputs(self, predictions, references, "compute()", kwargs=kwargs)
            return compute_keeping_batches(self, super().compute, predictions, references, kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (validated first; a bad batch is refused whole)."""
        with module_lock(self):
            if predictions is not None or references is not None:
                predictions, references = checked_inputs(self, predictions, references, "add_batch()")
                if not kwargs:  # (other keywords: evaluate's add_batch raises its error)
                    return store_batch(self, predictions, references)
            return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference(s) (validated first, stored in canonical form)."""
        with module_lock(self):
            if prediction is not None or reference is not None:
                (prediction,), (reference,) = checked_inputs(self, [prediction], [reference], "add()", single=True)
            return store_item(self, super().add, prediction, reference, kwargs)

    def _compute(self, predictions, references, **kwargs):
        # kept until the computation succeeds, so that a failure can put the stored items back
        self._zheval_inputs = (predictions, references)
        m = self._zheval
        config = m.config(**self._zheval_options(kwargs))
        if not predictions:
            predictions, references = validate_inputs(predictions, references)  # raises: no items to score
        # what evaluate hands back is what add/add_batch/compute stored: canonical and validated
        if m.input_guards:
            warn_input_slips(predictions, references, config.tokenizer, t2s_option=config.t2s_applies,
                             words=getattr(config, "uses_tokens", True))
        keys = poisson_keys(predictions, references, config)  # the Poisson bootstrap's item keys, when asked
        out = m.result(m.items(predictions, references, config), config, **({"keys": keys} if keys is not None else {}))
        self._zheval_inputs = None
        return out


def check_ignored_preset(m: MetricAPI, kwargs) -> None:
    """Refuse a ``preset`` given to module ``m`` that has none (``chinese_chrf``: chrF has no preset), whatever its
    value: accepting a preset and ignoring it would score chrF with zheval's own normalisation under a call that
    asks for a tool's numbers (break-it pass 5 F10: ``preset="sacrebleu-zh"`` gave zheval's chrF without a word).
    ``None`` passes. With ``evaluate.combine``, give the preset to the modules that have it and compute
    ``chinese_chrf`` apart.

    Raises:
        ValueError: any preset value (naming the value and saying why; an unknown name as unknown).
    """
    if "preset" in m.options or kwargs.get("preset") is None:
        return
    from ..presets import find_preset, preset_names

    value = kwargs["preset"]
    known = isinstance(value, str) and find_preset(value) is not None
    label = {"chrf": "chrF"}.get(m.short, m.short)
    what = f"preset {value!r}" if known else f"unknown preset {value!r} (the presets: {', '.join(preset_names())})"
    raise ValueError(f"{m.name}: {what} is refused: {label} has no preset, so it would be ignored and {label} "
                     f"scored with zheval's own options, not the tool's; leave preset out here (with "
                     f"evaluate.combine, compute {m.name} apart from the modules that take the preset)")


def refuse_load_options(name, kwargs):
    """TypeError for keyword arguments of evaluate.load() that evaluate would silently swallow."""
    unknown = sorted(k for k in kwargs if k not in EVALUATE_INIT_ARGS)
    if unknown:
        raise TypeError(
            f"evaluate.load({name!r}, ...) got unknown argument(s) {unknown}, which evaluate would silently ignore. "
            f"Scoring options go to compute(), e.g. {name}.compute(predictions=..., references=..., "
            f"{unknown[0]}=...). evaluate.load takes only evaluate's own arguments: {', '.join(EVALUATE_INIT_ARGS)} "
            "(its seed seeds evaluate's global RNG around compute; the bootstrap seed is compute(seed=...))."
        )


def check_seed_and_confidence(opts):
    """Raise the errors of ``bootstrap``, ``seed`` and ``confidence`` in ``opts`` (a compute() keyword dict) that the
    library raises (`zheval.results.reducers.check_interval_options`: ``bootstrap`` at most
    `MAX_BOOTSTRAP_RESAMPLES`, ``seed`` an int in ``[0, MAX_SEED]``, ``confidence`` in (0, 1))."""
    check_interval_options(opts.get("bootstrap", 0), opts.get("seed", 12345), opts.get("confidence", 0.95))


def init_module_state(module) -> None:
    """Give a freshly built module its lock (`module_lock`) and an empty record of stored batches. Called by the
    metric scripts' ``__init__``."""
    module._zheval_lock = threading.RLock()
    module._zheval_records = []


_LOCK_INIT = threading.Lock()


def module_lock(module) -> threading.RLock:
    """The re-entrant lock of one module instance. The metric scripts hold it for the whole of ``add``,
    ``add_batch`` and ``compute``, so calls from several threads on one instance run one after the other: no item is
    lost or written twice (evaluate's Arrow writer is not thread-safe) and a ``compute`` sees every item added before
    it started. Different instances never wait for each other."""
    lock = getattr(module, "_zheval_lock", None)
    if lock is None:  # an instance built without init_module_state
        with _LOCK_INIT:
            lock = getattr(module, "_zheval_lock", None)
            if lock is None:
                lock = module._zheval_lock = threading.RLock()
    return lock


def _records(module) -> list:
    recs = getattr(module, "_zheval_records", None)
    if recs is None:
        recs = module._zheval_records = []
    return recs


def _record(module, kind: str, n: int) -> None:
    """Note that ``n`` items were just stored by one ``kind`` call (``"add_batch"`` or ``"add"``): ``[kind, number of
    that call among the stored ones, first stored index, count]``; consecutive add() calls share one record."""
    recs = _records(module)
    start = sum(r[3] for r in recs)
    calls = sum(1 for r in recs if r[0] == "add_batch") if kind == "add_batch" else \
        sum(r[3] for r in recs if r[0] == "add")
    if kind == "add" and recs and recs[-1][0] == "add" and recs[-1][2] + recs[-1][3] == start:
        recs[-1][3] += n
        return
    recs.append([kind, calls + 1, start, n])


def _describe_stored(module, i: int) -> str:
    """Which call stored the stored item ``i`` (``""`` if the record does not cover it)."""
    recs = _records(module)
    k = bisect_right([r[2] for r in recs], i) - 1
    if k < 0 or i >= recs[k][2] + recs[k][3]:
        return f"stored item {i}"
    kind, call, start, _ = recs[k]
    if kind == "add":
        return f"stored by add() call {call + i - start}"
    return f"stored by add_batch() call {call}, as its references[{i - start}]"


def canonical_inputs(predictions, references, single=False, blank_ok=False):
    """`zheval.compute.inputs.validate_inputs` (TypeError/ValueError naming the item; lone surrogates, which Arrow
    cannot store, included) and the option-free part of the empty-reference rule (a blank reference is an
    [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]); returns predictions as list[str] and references as list[list[str]]
    -- the only form handed to evaluate, so its feature set is always the list one and string and list references
    mix freely across items and batches. ``single=True`` (``add()``) names the item ``prediction``/``reference``.
    ``blank_ok``: blank references pass (a preset that may score them, `blank_references_ok`)."""
    if not single:
        preds, refs = validate_inputs(predictions, references)
        check_references(refs, allow_empty=blank_ok)
        return preds, refs
    try:
        preds, refs = validate_inputs(predictions, references)
    except (TypeError, ValueError) as exc:
        msg = str(exc).replace("predictions[0]", "prediction").replace("references[0]", "reference")
        raise type(exc)(msg) from None
    check_references(refs, allow_empty=blank_ok)  # (names references[0][j]: the item's j-th reference)
    return preds, refs


def blank_references_ok(module, kwargs=None) -> bool:
    """Whether ``module``'s inputs may hold blank references: at ``compute()`` (``kwargs``, its options) when its
    ``preset`` scores empty references as its tool does (`zheval.presets.scores_empty_references`: sacrebleu-zh);
    at ``add``/``add_batch`` (``kwargs=None``, the preset not known yet) when a preset of the module's metric does --
    ``compute()`` then scores them under it and refuses them otherwise."""
    from ..presets import scores_empty_references

    if kwargs is None:
        return scores_empty_references(module._zheval.short)
    return kwargs.get("preset") is not None and scores_empty_references(module._zheval.short, kwargs["preset"])


def checked_inputs(module, predictions, references, call: str, single: bool = False, kwargs=None):
    """`canonical_inputs` for one ``call`` ("add_batch()", "add()", "compute()" with its option ``kwargs``) of
    ``module``: an empty reference error says that the indices are that call's and nothing of it was stored
    (`refused`). Blank references pass where `blank_references_ok`."""
    try:
        return canonical_inputs(predictions, references, single=single, blank_ok=blank_references_ok(module, kwargs))
    except EmptyReferenceError as exc:
        raise refused(module, exc, call) from None


def refused(module, exc: EmptyReferenceError, call: str) -> EmptyReferenceError:
    """``exc`` (found in the inputs of one ``call``: "add_batch()", "add()", "compute()") with a closing note: the
    indices are that call's own, nothing of it was stored, and what the module still holds."""
    n = len(module)
    held = f"the module still holds its {n} stored item(s)" if n else "the module holds no stored item"
    what = "nothing was stored or computed" if call == "compute()" else "nothing of it was stored"
    return exc.relocated(lambda i: "", f"(Indices of this {call} call's references: the call was refused and "
                                       f"{what}; {held}.)")


def store_canonical(module, predictions, references):
    """Store a batch that `canonical_inputs` returned, as evaluate 0.4.6's ``add_batch`` stores it.

    evaluate's ``add_batch`` picks the feature set from the first item, checks the first item's types, runs
    ``Features.encode_batch`` (a Python call per item and per reference) and writes the batch. For canonical inputs
    (``list[str]``, ``list[list[str]]``, checked in full) the feature set is the list one and ``encode_batch``
    returns the same strings and lists, so the batch is written as it is: the stored Arrow data are identical.
    """
    batch = {"predictions": predictions, "references": references}
    if module.writer is None:
        module.selected_feature_format = module._infer_feature_from_batch(batch)
        module._init_writer()
    module.writer.write_batch(batch)


def store_batch(module, predictions, references) -> None:
    """``add_batch()`` of canonical inputs: `store_canonical`, and a record of the call (for error messages)."""
    store_canonical(module, predictions, references)
    _record(module, "add_batch", len(predictions))


def store_item(module, add, prediction, reference, kwargs) -> None:
    """``add()`` of one canonical item, and a record.

    The item is written as a batch of one (`store_canonical`), not through evaluate's ``add``
    (``ArrowWriter.write``, which buffers it): datasets < 4's ``ArrowWriter.write_batch`` does not write the
    buffered examples first, so an ``add()`` followed by an ``add_batch()`` was stored *after* that batch and the
    per-item scores (``use_aggregator=False``) and the indices of error messages came out in another order than the
    calls. With other keywords (``add``: the bound base method) evaluate's ``add`` runs and raises its own error.
    """
    if kwargs or prediction is None or reference is None:
        add(prediction=prediction, reference=reference, **kwargs)
    else:
        store_canonical(module, [prediction], [reference])
    _record(module, "add", 1)


def compute_keeping_batches(module, compute, predictions, references, kwargs):
    """Run evaluate's compute; if it fails inside _compute, put the items stored before this call back.

    ``predictions``/``references`` are this call's inputs in canonical form (`canonical_inputs`) or both
    ``None``; they are stored with `store_canonical` (not checked and encoded a second time by evaluate's
    ``add_batch``), then evaluate's ``compute`` runs on everything stored. When they are all the data (one process,
    nothing stored before), ``_compute`` gets them directly: the Arrow round trip would return the same lists.

    evaluate has already read (and, on disk, deleted the lock of) the stored items when _compute runs, so a failure
    there -- an error that depends on the data, e.g. a reference empty after normalisation -- would lose every
    batch. The items stored before the call are re-added; this call's own items are not (a failed compute leaves
    the state it found). Single process only: with num_process > 1 the shards of the other ranks are gone.
    """
    if predictions is None and references is None and len(module) == 0 and module.num_process == 1:
        raise ValueError(
            "no items to score: compute() got no predictions/references and none were stored with add()/add_batch()"
        )
    n_before = len(module)
    n_call = 0 if predictions is None else len(predictions)
    module._zheval_inputs = None
    if predictions is not None and _holds_nothing(module):
        # This call's inputs are all the data (one process, nothing stored): what evaluate's compute would write to
        # Arrow and read back is exactly these canonical lists, so _compute gets them directly -- under evaluate's
        # seed, with evaluate's per-call state reset as its compute resets it. Nothing is stored, so a failure
        # leaves the module as it was.
        from evaluate.module import temp_seed

        module.cache_file_name = None
        module.filelock = None
        module.selected_feature_format = None
        try:
            with temp_seed(module.seed):
                return module._compute(predictions=predictions, references=references, **kwargs)
        except EmptyReferenceError as exc:
            raise exc.relocated(lambda i: "", "(Indices of this compute() call's references; no item was stored "
                                              "with add()/add_batch(), and nothing was stored by this call.)"
                                ).with_traceback(exc.__traceback__) from None
        finally:
            module._zheval_inputs = None
    try:
        if predictions is not None or references is not None:
            store_canonical(module, predictions, references)
        out = compute(predictions=None, references=None, **kwargs)
    except BaseException as exc:
        stash = getattr(module, "_zheval_inputs", None)
        module._zheval_inputs = None
        restored = stash is not None and module.num_process == 1
        if restored:
            _restore_items(module, stash, n_before)
        elif module.num_process == 1 and len(module) == 0:
            _records(module).clear()
        if isinstance(exc, EmptyReferenceError):
            raise _located(module, exc, n_before, n_call, restored).with_traceback(exc.__traceback__) from None
        raise
    _records(module).clear()
    return out


def _located(module, exc: EmptyReferenceError, n_before: int, n_call: int, restored: bool) -> EmptyReferenceError:
    """``exc`` raised by ``_compute`` over the stored items followed by this call's: each index with its origin."""
    if module.num_process > 1:
        return exc.relocated(lambda i: "", (
            f"(Indices of the data computed: the items of all {module.num_process} processes, process 0's first, "
            "each process's in the order they were added; the stored items were consumed by evaluate.)"))

    def locate(i: int) -> str:
        if i >= n_before:
            return f"this compute() call's references[{i - n_before}]"
        return _describe_stored(module, i)

    this = f", then this call's {n_call} (indices {n_before}-{n_before + n_call - 1})" if n_call else ""
    kept = (f"nothing was lost: the module still holds its {n_before} stored item(s) (a failed compute() leaves it "
            "as it was; load the module again to discard them)" if restored else "the stored items were discarded")
    return exc.relocated(locate, (
        f"(Indices of the data computed: the {n_before} item(s) stored with add()/add_batch() first (indices "
        f"0-{n_before - 1}){this}; {kept}.)"))


def _holds_nothing(module) -> bool:
    """One process, no writer, no buffered or finalised data: evaluate 0.4.6 holds no item of this module."""
    return (module.num_process == 1 and module.writer is None and getattr(module, "buf_writer", None) is None
            and getattr(module, "data", None) is None)


def nothing_stored(module) -> bool:
    """True when a single-process module holds no stored item: this call's inputs are then all the data, and an
    error of the data raised inside ``_compute`` names the same item indices as a check of the inputs alone."""
    return module.num_process == 1 and len(module) == 0


def _restore_items(module, stash, n_keep):
    # undo what evaluate's compute did before _compute (finalise the writer, read the data, keep the file locks),
    # releasing and removing the cache file as evaluate does after a successful _compute, then store the items again
    module.data = None
    if module.buf_writer is not None:
        module.buf_writer = None
    else:
        for filelock, file_path in reversed(list(zip(module.filelocks or [], module.file_paths or []))):
            if os.path.exists(file_path):
                os.remove(file_path)
            filelock.release()
    module.file_paths = module.filelocks = None
    module.writer = None
    module.cache_file_name = None
    module.filelock = None
    module.selected_feature_format = None
    if n_keep:
        preds, refs = stash
        import evaluate

        evaluate.Metric.add_batch(
            module, predictions=list(preds[:n_keep]), references=[list(r) for r in refs[:n_keep]]
        )
