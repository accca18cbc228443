"""BERTScore on texts with a local Chinese BERT, equal to bert-score 0.3.13 (``bert_score.score``), as an
options → config → items → result chain: [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions] (every option, one frozen definition),
[`bertscore_config`][zheval.compute.bertscore.bertscore_config] (options checked once, the encoder loaded once), [`bertscore_items`][zheval.compute.bertscore.bertscore_items] (P, R, F per
item), [`bertscore_result`][zheval.compute.bertscore.bertscore_result] (corpus means, per-item lists, the signature), and [`compute_bertscore`][zheval.compute.bertscore.compute_bertscore].

What is computed (Zhang et al., "BERTScore: Evaluating Text Generation with BERT", ICLR 2020; bert-score's code,
``bert_score/score.py`` and ``utils.py``): every text is stripped and encoded to word pieces with ``[CLS]`` and
``[SEP]`` (truncated at the model's maximum length; the truncations are counted); the hidden states of one layer
are the piece embeddings; each candidate piece is matched to its most similar reference piece (cosine) and vice
versa; P and R are the weighted means of those similarities (weights 1, ``[CLS]``/``[SEP]`` 0; or the idf of each
piece over the references), F = 2PR / (P + R). The model access (torch, transformers) is
`zheval.compute.bertscore_model`, the only module that imports them.

Multiple references (``multi_ref``): ``"max"`` is bert-score's rule -- each of P, R and F is the maximum over the
item's references **separately**, so the three may come from different references (and F need not be the harmonic
mean of the P and R reported); ``"best_f"`` reports P, R and F of the one reference with the best F (the first on
a tie).

Rescaling (``rescale_with_baseline``): ``(x - b) / (1 - b)`` with ``b`` the baseline of the layer from the file
bert-score ships for the model on Chinese (``rescale_baseline/zh/<model>.tsv``; copies in
``zheval/data/bertscore_baselines``), or the file ``baseline_path``. Rescaled values are no longer in 0-1.
"""

from __future__ import annotations

import csv
import hashlib
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..results.breakdowns import check_max_refs
from ..results.signature import nrefs_field
from ..version import __version__
from .inputs import check_references, prepare_items, validate_inputs
from .option_docs import documented, option_field, with_option_texts

__all__ = ["MULTI_REF_RULES", "BASELINE_DIR", "BertScoreOptions", "BertScoreConfig", "BertScoreItems", "IdfWeights",
           "bertscore_config", "bertscore_idf", "bertscore_items", "bertscore_result", "bertscore_systems",
           "compute_bertscore",
           "shipped_baseline", "read_baseline", "model_module"]

#: Valid ``multi_ref`` values: bert-score's separate maxima, or the best-F reference's P/R/F.
MULTI_REF_RULES = ("max", "best_f")

#: bert-score 0.3.13's Chinese baseline files, shipped with zheval (see ``NOTICE.txt`` there).
BASELINE_DIR = Path(__file__).resolve().parent.parent / "data" / "bertscore_baselines"

#: Items scored per chunk: the token ids and embeddings of one chunk are all that is held at once.
CHUNK_ITEMS = 2048


@documented
@dataclass(frozen=True)
class BertScoreOptions:
    """Every option of a BERTScore computation; the keyword-only parameters of
    [`compute_bertscore`][zheval.compute.bertscore.compute_bertscore] are its fields, with the same defaults. Checked
    when built ([`check`][zheval.compute.bertscore.BertScoreOptions.check]); the model is loaded by
    [`bertscore_config`][zheval.compute.bertscore.bertscore_config]."""

    model: Any = option_field(doc="""
        A local directory (``str`` or ``os.PathLike``) holding a transformers model and its tokenizer, or a loaded
        ``(model, tokenizer)`` pair (left unchanged). Nothing is ever downloaded: a name that is not a local
        directory is a ``FileNotFoundError`` that says how to fetch the weights once
        (``hf download bert-base-chinese --local-dir ./bert-base-chinese``).""")
    layer: Optional[int] = option_field(None, doc="""
        The hidden layer whose states are the piece embeddings (0 = the embedding layer, up to the model's layer
        count). ``None``: bert-score's layer for the model's name (``bert-base-chinese``: 8,
        ``bert-base-multilingual-cased``: 9, ``xlm-roberta-base``: 9; `zheval.compute.bertscore_model.KNOWN_LAYERS`);
        for a model bert-score has no layer for, ``None`` is a ``ValueError``.""")
    idf: bool = option_field(False, doc="""
        Weigh each piece by its idf over the references of the call (bert-score's ``get_idf_dict``:
        ``log((N + 1) / (c + 1))`` for a piece in ``c`` of the ``N`` references); ``False``: every piece 1,
        ``[CLS]``/``[SEP]`` 0.""")
    rescale_with_baseline: bool = option_field(False, doc="""
        Rescale P, R and F to ``(x - b) / (1 - b)`` with ``b`` the layer's baseline: from the Chinese baseline file
        bert-score ships for the model's name (shipped with zheval), or from ``baseline_path``. Rescaled values are
        no longer in 0-1.""")
    baseline_path: Optional[str] = option_field(None, doc="""
        A baseline file in bert-score's format (the header ``LAYER,P,R,F``, then one row per layer, layers
        ``0, 1, 2, ...`` in order), used with ``rescale_with_baseline``. bert-score reads the row by position and
        ignores its LAYER cell; zheval checks the LAYER cell of the row read is the layer used and refuses the file
        otherwise (naming ``file:line``). ``None``: the file bert-score ships for the model's name on Chinese (an
        error for a model it ships none for).""")
    multi_ref: str = option_field("max", doc="""
        How an item's several references combine: ``"max"`` (bert-score: the maximum of P, of R and of F taken
        **separately**, so the three may come from different references) or ``"best_f"`` (P, R and F of the one
        reference with the best F; the first on a tie).""")
    batch_size: int = option_field(64, doc="""
        Texts per forward pass, and pairs per matching batch (an int >= 1). The numbers do not depend on it.""")
    device: Optional[str] = option_field(None, doc="""
        The torch device (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ...); ``None``: CUDA when available, else the
        CPU.""")
    max_refs: Optional[int] = option_field(None, doc="""
        Score with the first ``max_refs`` references of every item (items with fewer keep theirs; the idf weights
        are counted over those references too; the signature records ``maxrefs:K``), as ``compute_rouge``'s
        ``max_refs``. ``None``: every reference.""")

    def __post_init__(self) -> None:
        self.check()  # as zheval.compute.options: an options object is checked when it is built

    def check(self) -> None:
        """Raise on a bad value.

        Raises:
            TypeError: ``idf`` / ``rescale_with_baseline`` not a bool, ``batch_size`` not an int.
            ValueError: an unknown ``multi_ref`` (listing the valid ones), ``batch_size`` < 1, ``baseline_path``
                without ``rescale_with_baseline``, ``max_refs`` not an int >= 1 or ``None``
                (`zheval.results.breakdowns.check_max_refs`, as ``compute_rouge``).
        """
        for name in ("idf", "rescale_with_baseline"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.multi_ref not in MULTI_REF_RULES:
            raise ValueError(f"unknown multi_ref {self.multi_ref!r}; valid values: {', '.join(MULTI_REF_RULES)}")
        if isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int):
            raise TypeError(f"batch_size must be an int, got {self.batch_size!r}")
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {self.batch_size}")
        if self.baseline_path is not None and not self.rescale_with_baseline:
            raise ValueError("baseline_path is given but rescale_with_baseline is False")
        check_max_refs(self.max_refs)


def shipped_baseline(name: str) -> Optional[Path]:
    """The Chinese baseline file bert-score ships for the model ``name`` (copied in `BASELINE_DIR`), or
    ``None``."""
    path = BASELINE_DIR / f"{Path(name).name}.tsv"
    return path if path.is_file() else None


def read_baseline(path: str, layer: int) -> np.ndarray:
    """``[P, R, F]`` (float32) of ``layer``: row ``layer`` of a bert-score baseline file, read by position as
    bert-score reads it (``pandas.read_csv(path).iloc[layer]``, blank lines skipped), and checked: the header is
    ``LAYER,P,R,F`` (any case; the columns bert-score takes as P, R, F by position), every row read has four cells,
    and the row's LAYER cell is the layer (bert-score ignores it; a file whose rows are not ``0, 1, 2, ...`` in
    order would give another layer's baseline). bert-score's shipped files (written by pandas ``to_csv`` with the
    index named LAYER) are all of this form.

    Raises:
        FileNotFoundError: no such file. ValueError: another header, no row ``layer``, a row of other than four
            cells, a LAYER cell that is not ``layer`` or a P/R/F cell that is not a number (naming ``file:line``).
    """
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        rows = [(reader.line_num, row) for row in reader if len(row) > 1 or row and row[0].strip()]
    if not rows or [c.strip().upper() for c in rows[0][1]] != ["LAYER", "P", "R", "F"]:
        where = f"{path}:{rows[0][0]}" if rows else path
        raise ValueError(f"{where}: a bert-score baseline file starts with the header LAYER,P,R,F, got "
                         f"{rows[0][1] if rows else 'an empty file'!r}")
    if layer + 1 >= len(rows):
        raise ValueError(f"{path}: no baseline row for layer {layer} ({len(rows) - 1} rows)")
    line, row = rows[layer + 1]
    if len(row) != 4:
        raise ValueError(f"{path}:{line}: expected LAYER,P,R,F (4 cells), got {row!r}")
    if _layer_number(row[0]) != layer:
        raise ValueError(f"{path}:{line}: the row read for layer {layer} (row {layer} after the header, as "
                         f"bert-score reads it by position) has LAYER {row[0]!r}; the rows must be layers 0, 1, 2, "
                         f"... in order")
    try:
        return np.asarray([float(x) for x in row[1:4]], dtype=np.float32)
    except ValueError:
        raise ValueError(f"{path}:{line}: expected LAYER,P,R,F numbers, got {row!r}") from None


def _layer_number(cell: str) -> Optional[float]:
    """The LAYER cell as a number (``3``, or ``3.0`` as pandas writes a float column), or ``None``."""
    try:
        return float(cell)
    except ValueError:
        return None


@dataclass
class BertScoreConfig:
    """The checked options with the loaded encoder and the baseline row. Built by [`bertscore_config`][zheval.compute.bertscore.bertscore_config].

    Attributes:
        options: the [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions]. encoder: `zheval.compute.bertscore_model.Encoder`.
        baseline: ``[P, R, F]`` float32 of the layer, or ``None`` (no rescaling). baseline_name: the shipped
            file's model name, or ``custom.<sha6>`` of a given file.
    """

    options: BertScoreOptions
    encoder: Any
    baseline: Optional[np.ndarray] = None
    baseline_name: Optional[str] = None

    def signature(self, reference_counts: Sequence[int]) -> str:
        """``nrefs:N|[maxrefs:K|]metric:bertscore|model:<name>|cfg:<sha12>|layer:L|idf:yes|no|rescale:no|<baseline>|
        multi:max|best_f|maxlen:M|lib:torch-<v>+transformers-<v>|zheval:<v>`` (``maxrefs`` with ``max_refs``, where
        `zheval.results.signature.build_signature` writes it; ``nrefs`` counted after the cut)."""
        library_versions = model_module().library_versions
        enc = self.encoder
        max_refs = self.options.max_refs
        fields = [("nrefs", nrefs_field(reference_counts)),
                  *([("maxrefs", int(max_refs))] if max_refs is not None else []), ("metric", "bertscore"),
                  ("model", enc.name.replace(":", "%3A").replace("|", "%7C")), ("cfg", enc.config_sha),
                  ("layer", enc.layer), ("idf", "yes" if self.options.idf else "no"),
                  ("rescale", self.baseline_name or "no"), ("multi", self.options.multi_ref),
                  ("maxlen", enc.max_length), ("lib", library_versions()), ("zheval", __version__)]
        return "|".join(f"{k}:{v}" for k, v in fields)


def model_module():
    """`zheval.compute.bertscore_model`, or a one-line ModuleNotFoundError naming the ``bertscore`` extra when
    torch or transformers is missing."""
    try:
        from . import bertscore_model
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top in ("torch", "transformers"):
            raise ModuleNotFoundError(f'BERTScore needs {top} (the \'bertscore\' extra): pip install "zheval[bertscore]"',
                                      name=top) from None
        raise
    return bertscore_model


def bertscore_config(options: BertScoreOptions) -> BertScoreConfig:
    """Check ``options``, load the encoder, read the baseline. No text is touched.

    Raises:
        ValueError: bad options ([`BertScoreOptions.check`][zheval.compute.bertscore.BertScoreOptions.check]), a bad layer
            (`zheval.compute.bertscore_model.load_encoder`), rescaling asked for a model bert-score ships no
            Chinese baseline for (without ``baseline_path``), a ``baseline_path`` file that is not a bert-score
            baseline file or whose row for the layer is another layer's
            (`read_baseline`; naming ``file:line``).
        FileNotFoundError: the model is not a local directory.
        ModuleNotFoundError: the ``bertscore`` extra is missing (one line).
    """
    options.check()
    encoder = model_module().load_encoder(options.model, layer=options.layer, device=options.device)
    baseline = name = None
    if options.rescale_with_baseline:
        path = options.baseline_path
        if path is None:
            shipped = shipped_baseline(encoder.name)
            if shipped is None:
                raise ValueError(f"no Chinese rescaling baseline for model {encoder.name!r}: bert-score ships them "
                                 f"for {', '.join(sorted(p.stem for p in BASELINE_DIR.glob('*.tsv')))}; "
                                 "pass baseline_path= (a LAYER,P,R,F file) or rescale_with_baseline=False")
            path, name = str(shipped), shipped.stem
        else:
            from ..io import existing_file

            # said as given: "baseline_path file not found: ./b.tsv", not an OSError of pathlib's 'b.tsv'
            name = "custom." + hashlib.sha256(existing_file(path, "baseline_path").read_bytes()).hexdigest()[:6]
        try:
            baseline = read_baseline(path, encoder.layer)
        except ValueError as exc:
            if options.baseline_path is None:
                raise
            raise ValueError(f"baseline_path {exc}") from None
    return BertScoreConfig(options=options, encoder=encoder, baseline=baseline, baseline_name=name)


@dataclass
class IdfWeights:
    """Piece weights: bert-score's idf dictionary (``log((N + 1) / (c + 1))`` for a piece in ``c`` of the ``N``
    references, ``log(N + 1)`` for a piece in none), or without idf 1 for every piece and 0 for ``[CLS]``/``[SEP]``.
    """

    idf: Optional[Dict[int, float]] = None
    unseen: float = 1.0
    zero_ids: Tuple[int, ...] = ()

    def of(self, ids: Sequence[int]) -> np.ndarray:
        """The weight of every piece of ``ids`` (float64)."""
        if self.idf is None:
            zero = set(self.zero_ids)
            return np.asarray([0.0 if i in zero else 1.0 for i in ids])
        return np.asarray([self.idf.get(i, self.unseen) for i in ids])


def bertscore_idf(references: Sequence[Sequence[str]], config: BertScoreConfig) -> IdfWeights:
    """The piece weights of a corpus: with ``idf``, counts over every reference (all references of all items, each
    counted once per reference in which a piece occurs; bert-score's ``get_idf_dict`` on its flattened
    references), encoded chunk by chunk; without, ones with ``[CLS]``/``[SEP]`` at 0. With ``max_refs``, the
    first ``max_refs`` references of every item only (`zheval.compute.inputs.prepare_items`)."""
    tok = config.encoder.tokenizer
    if not config.options.idf:
        return IdfWeights(zero_ids=tuple(i for i in (tok.sep_token_id, tok.cls_token_id) if i is not None))
    references, _ = prepare_items(references, config.options.max_refs)
    flat = [r for rs in references for r in rs]
    counts: Counter = Counter()
    for start in range(0, len(flat), CHUNK_ITEMS * 4):
        ids, _ = config.encoder.encode(flat[start:start + CHUNK_ITEMS * 4])
        for x in ids:
            counts.update(set(x))
    n = len(flat)
    return IdfWeights(idf={i: math.log((n + 1) / (c + 1)) for i, c in counts.items()}, unseen=math.log(n + 1))


@dataclass
class BertScoreItems:
    """Per-item BERTScore (before rescaling; 0-1 in practice, cosine-based).

    Attributes:
        scores: ``(n_items, 3)`` float64: P, R, F of each item under the multi-reference rule.
        reference_counts: ``(n_items,)`` int64.
        truncated_predictions / truncated_references: indices ``i`` (``(i, j)``) of texts cut at the maximum length.
    """

    scores: np.ndarray
    reference_counts: np.ndarray
    truncated_predictions: List[int] = field(default_factory=list)
    truncated_references: List[Tuple[int, int]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.reference_counts)

    @classmethod
    def empty(cls, config: Optional["BertScoreConfig"] = None) -> "BertScoreItems":
        """Items of no item (``config`` is not used: BERTScore's items have one shape)."""
        return cls(np.zeros((0, 3), dtype=np.float64), np.zeros(0, dtype=np.int64))

    @classmethod
    def concat(cls, parts: Sequence["BertScoreItems"]) -> "BertScoreItems":
        """The items of several batches, in order (indices shifted). Raises ValueError: no part."""
        if not parts:
            raise ValueError("BertScoreItems.concat needs at least one part")
        offset, tp, tr = 0, [], []
        for p in parts:
            tp += [i + offset for i in p.truncated_predictions]
            tr += [(i + offset, j) for i, j in p.truncated_references]
            offset += len(p)
        return cls(np.concatenate([p.scores for p in parts], axis=0),
                   np.concatenate([p.reference_counts for p in parts]), tp, tr)


def _combine(pairs: np.ndarray, counts: Sequence[int], rule: str) -> np.ndarray:
    out = np.zeros((len(counts), 3), dtype=np.float64)
    start = 0
    for i, c in enumerate(counts):
        block = pairs[start:start + c]
        out[i] = block.max(axis=0) if rule == "max" else block[int(np.argmax(block[:, 2]))]
        start += c
    return out


def _chunk_items(preds: Sequence[str], refs: Sequence[Sequence[str]], config: BertScoreConfig, weights: IdfWeights,
                 offset: int) -> BertScoreItems:
    pair_scores = model_module().pair_scores
    enc = config.encoder
    counts = [len(rs) for rs in refs]
    hyp_ids, hyp_cut = enc.encode(preds)
    ref_ids, ref_cut = enc.encode([r for rs in refs for r in rs])
    check_references(refs, None, [len(x) - 2 for x in ref_ids])
    owner = [(i, j) for i, c in enumerate(counts) for j in range(c)]
    pair_hyp = [hyp_ids[i] for i, _ in owner]
    pairs = pair_scores(enc, pair_hyp, ref_ids, [weights.of(x) for x in pair_hyp], [weights.of(x) for x in ref_ids],
                        batch_size=config.options.batch_size)
    return BertScoreItems(_combine(pairs, counts, config.options.multi_ref), np.asarray(counts, dtype=np.int64),
                          [offset + i for i in np.flatnonzero(hyp_cut).tolist()],
                          [(offset + owner[k][0], owner[k][1]) for k in np.flatnonzero(ref_cut).tolist()])


def bertscore_items(predictions: Sequence[str], references: Sequence[Sequence[str]], config: BertScoreConfig,
                    weights: IdfWeights) -> BertScoreItems:
    """P, R, F of every item, chunk by chunk (`CHUNK_ITEMS` items: memory does not grow with the corpus), against
    its first ``max_refs`` references with that option (`zheval.compute.inputs.prepare_items`, as ROUGE, BLEU and
    chrF cut them; the reference counts are those after the cut).

    Args:
        predictions: ``list[str]`` (`zheval.compute.inputs.validate_inputs`).
        references: ``list[list[str]]`` (`zheval.compute.inputs.validate_inputs`).
        config: [`bertscore_config`][zheval.compute.bertscore.bertscore_config].
        weights: [`bertscore_idf`][zheval.compute.bertscore.bertscore_idf] of the same references.

    Raises:
        EmptyReferenceError (a ValueError): a reference with no word piece (blank, or only characters the
            tokenizer drops), every one named as ``references[i][j]``.
    """
    references, _ = prepare_items(references, config.options.max_refs)
    parts = [_chunk_items(predictions[s:s + CHUNK_ITEMS], references[s:s + CHUNK_ITEMS], config, weights, s)
             for s in range(0, len(predictions), CHUNK_ITEMS)]
    if not parts:
        return BertScoreItems.empty()
    return BertScoreItems.concat(parts)


def bertscore_result(items: BertScoreItems, config: BertScoreConfig) -> Dict[str, Any]:
    """The result of [`compute_bertscore`][zheval.compute.bertscore.compute_bertscore] from items: rescaled when asked (float32 arithmetic, as bert-score),
    means (``math.fsum``; NaN when an item's value is NaN), per-item lists, truncation counts, the signature."""
    scores = items.scores
    if config.baseline is not None:
        b = config.baseline
        scores = ((scores.astype(np.float32) - b) / (np.float32(1) - b)).astype(np.float64)
    nan_items = np.flatnonzero(np.isnan(scores).any(axis=1)).tolist()
    enc = config.encoder
    out: Dict[str, Any] = {
        "precision": math.fsum(scores[:, 0]) / len(scores) if len(scores) else 0.0,
        "recall": math.fsum(scores[:, 1]) / len(scores) if len(scores) else 0.0,
        "f1": math.fsum(scores[:, 2]) / len(scores) if len(scores) else 0.0,
        "item_precision": scores[:, 0].tolist(),
        "item_recall": scores[:, 1].tolist(),
        "item_f1": scores[:, 2].tolist(),
        "model": enc.name,
        "layer": enc.layer,
        "idf": bool(config.options.idf),
        "rescaled": config.baseline is not None,
        "multi_ref": config.options.multi_ref,
        "max_length": enc.max_length,
        "max_length_from": enc.max_length_from,
        "truncated_predictions": len(items.truncated_predictions),
        "truncated_references": len(items.truncated_references),
        "truncated_prediction_items": list(items.truncated_predictions),
        "truncated_reference_items": [list(p) for p in items.truncated_references],
        "nan_items": nan_items,
        "device": enc.device,
    }
    out["signature"] = config.signature(items.reference_counts.tolist())
    return out


def bertscore_systems(systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]],
                      config: BertScoreConfig) -> List[Dict[str, Any]]:
    """The result of every system's predictions against the same references with one loaded encoder: the idf
    weights ([`bertscore_idf`][zheval.compute.bertscore.bertscore_idf]) computed once from the references, then
    [`bertscore_items`][zheval.compute.bertscore.bertscore_items] and
    [`bertscore_result`][zheval.compute.bertscore.bertscore_result] per system (what `compute_bertscore` returns
    for each, equal to ``bert_score.score`` of that system).

    Args:
        systems: per system a ``list[str]`` of predictions, one per item (validated:
            `zheval.compute.inputs.validate_inputs`).
        references: ``list[list[str]]``, shared by every system (validated).
        config: [`bertscore_config`][zheval.compute.bertscore.bertscore_config].

    Returns:
        One result per system, in order (the keys of [`compute_bertscore`][zheval.compute.bertscore.compute_bertscore]).

    Raises:
        EmptyReferenceError (a ValueError): a reference with no word piece, named as ``references[i][j]``.
    """
    weights = bertscore_idf(references, config)
    return [bertscore_result(bertscore_items(predictions, references, config, weights), config)
            for predictions in systems]


def compute_bertscore(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    model: Any,
    layer: Optional[int] = None,
    idf: bool = False,
    rescale_with_baseline: bool = False,
    baseline_path: Optional[str] = None,
    multi_ref: str = "max",
    batch_size: int = 64,
    device: Optional[str] = None,
    max_refs: Optional[int] = None,
) -> Dict[str, Any]:
    """BERTScore P, R, F of predictions against (ragged) references with a local model, equal to bert-score 0.3.13's
    ``bert_score.score`` on the same model (module docstring; ``tests/compute/test_bertscore.py``).

    Args:
        predictions: ``list[str]``, one per item (an empty or blank one scores 0, bert-score's definition).
        references: per item a ``str`` or a non-empty ``list[str]``.
        model: [`model`][zheval.compute.bertscore.BertScoreOptions.model].
        layer: [`layer`][zheval.compute.bertscore.BertScoreOptions.layer].
        idf: [`idf`][zheval.compute.bertscore.BertScoreOptions.idf].
        rescale_with_baseline: [`rescale_with_baseline`][zheval.compute.bertscore.BertScoreOptions.rescale_with_baseline].
        baseline_path: [`baseline_path`][zheval.compute.bertscore.BertScoreOptions.baseline_path].
        multi_ref: [`multi_ref`][zheval.compute.bertscore.BertScoreOptions.multi_ref].
        batch_size: [`batch_size`][zheval.compute.bertscore.BertScoreOptions.batch_size].
        device: [`device`][zheval.compute.bertscore.BertScoreOptions.device].
        max_refs: [`max_refs`][zheval.compute.bertscore.BertScoreOptions.max_refs].

    Returns:
        ``{"precision", "recall", "f1"}`` corpus means (0-1 without rescaling), ``item_precision``, ``item_recall``,
        ``item_f1`` (per item), ``model``, ``layer``, ``idf``, ``rescaled``, ``multi_ref``, ``max_length``,
        ``max_length_from`` (``"tokenizer"``, or ``"config"`` when the tokenizer was saved without
        ``model_max_length``), ``truncated_predictions`` / ``truncated_references`` (counts) with their indices
        (``truncated_prediction_items``, ``truncated_reference_items``), ``nan_items`` (items whose pieces all have
        idf 0: bert-score's NaN, kept), ``device``, ``signature``.

    Raises:
        FileNotFoundError: ``model`` is not a local directory (the message says how to get the weights).
        ValueError / TypeError: bad options ([`BertScoreOptions.check`][zheval.compute.bertscore.BertScoreOptions.check]), length mismatch, empty reference lists,
            non-``str`` texts (naming the item).
        EmptyReferenceError (a ValueError): a reference without any word piece, named as ``references[i][j]``.
    """
    options = BertScoreOptions(model=model, layer=layer, idf=idf, rescale_with_baseline=rescale_with_baseline,
                               baseline_path=baseline_path, multi_ref=multi_ref, batch_size=batch_size,
                               device=device, max_refs=max_refs)
    options.check()
    preds, refs = validate_inputs(predictions, references)
    return bertscore_systems([preds], refs, bertscore_config(options))[0]


# help() shows each option's text and default, not a link (the site renders the source docstring's links)
compute_bertscore.__doc__ = with_option_texts(compute_bertscore.__doc__, BertScoreOptions, ())
