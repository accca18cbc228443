"""BERTScore's model access: the only zheval module that imports torch and transformers (design rule 14).

It loads an encoder from a **local directory** (never a download: ``local_files_only=True``), or takes an already
loaded ``(model, tokenizer)`` pair; encodes texts to word-piece ids as bert-score 0.3.13 does (``sent_encode``:
the text stripped, special tokens added, truncated at the tokenizer's ``model_max_length``); embeds them at one
layer; and scores (candidate, reference) pairs by greedy cosine matching with weights (``greedy_cos_idf``).

What bert-score does, and what this module does the same way (bert_score/utils.py, 0.3.13):

* the layer: bert-score drops the layers above ``num_layers`` and takes the model's output; this module does the
  same on a model it loaded itself (BERT-like ``encoder.layer`` lists) and otherwise takes
  ``hidden_states[layer]`` (the same tensor, computed without touching the caller's model);
* the greedy match: the cosine similarity of every candidate piece with every reference piece, ``[CLS]`` and
  ``[SEP]`` included; precision is the weighted mean over candidate pieces of their best similarity, recall the
  weighted mean over reference pieces, F their harmonic mean (0 where both are 0); a text with no piece (only
  ``[CLS] [SEP]``) gives P = R = F = 0.
* one difference, on purpose: bert-score multiplies padded positions' similarities by 0 before taking the maximum,
  so in a batch where a reference is shorter than the longest one, a piece whose similarities are all negative gets
  0 instead of its (negative) best; its number then depends on which pairs share a batch. Here padded positions
  are never a candidate for the maximum, so a pair's number does not depend on its neighbours; it equals
  ``bert_score.score(..., batch_size=1)`` always, and bert-score's other batch sizes whenever the best similarities
  are not negative (real BERT embeddings: always in practice).

Memory: embeddings live only for one chunk of pairs (`pair_scores`), never for the corpus.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import torch
import transformers
from transformers import AutoModel, AutoTokenizer

from ..fast.progress import work_bar

__all__ = ["KNOWN_LAYERS", "MAX_SANE_LENGTH", "Encoder", "load_encoder", "model_name_of", "pair_scores",
           "library_versions"]

#: bert-score 0.3.13's ``model2layers`` rows for the models used on Chinese text (bert_score/utils.py): the layer
#: tuned on WMT16 correlations, used when ``layer`` is not given.
KNOWN_LAYERS = {
    "bert-base-chinese": 8,
    "bert-base-multilingual-cased": 9,
    "distilbert-base-multilingual-cased": 5,
    "xlm-roberta-base": 9,
    "xlm-roberta-large": 17,
    "xlm-mlm-100-1280": 10,
}

#: A tokenizer's ``model_max_length`` above this is transformers' "no limit" placeholder (a tokenizer saved without
#: the field); the model's position table then gives the limit (with transformers 5, bert-score passes the
#: placeholder to the Rust tokenizer and fails with ``OverflowError: int too big to convert``).
MAX_SANE_LENGTH = 1_000_000

#: Model types whose position ids start after the padding id (RoBERTa-like): usable length is
#: ``max_position_embeddings - pad_token_id - 1``.
_OFFSET_POSITIONS = ("roberta", "xlm-roberta", "camembert")


def library_versions() -> str:
    """``torch-<v>+transformers-<v>``: the libraries whose numbers the embeddings are."""
    return f"torch-{torch.__version__.split('+')[0]}+transformers-{transformers.__version__}"


def model_name_of(path: str) -> str:
    """The model's name from a local directory: the directory's name, or for a Hub cache snapshot
    (``.../models--owner--name/snapshots/<hash>``) the repository's name (``owner/name``)."""
    parts = Path(path).resolve().parts
    for part in reversed(parts):
        if part.startswith("models--"):
            return part[len("models--"):].replace("--", "/")
    return parts[-1] if parts else str(path)


@dataclass
class Encoder:
    """A loaded encoder and what its numbers depend on.

    Attributes:
        model, tokenizer: the transformers objects (the model in eval mode, on ``device``).
        name: the model's name (directory name, or ``"given"`` for a loaded pair without ``name_or_path``).
        layer: the layer whose hidden states are the embeddings (0 = the embedding layer).
        max_length: the length (pieces, special tokens included) texts are truncated at.
        max_length_from: ``"tokenizer"`` (its ``model_max_length``) or ``"config"`` (the tokenizer had no limit; the
            model's position table gave it).
        config_sha: sha256 (12 hex digits) of the model's configuration as JSON (sorted keys, no path).
        device: ``"cpu"``, ``"cuda"``, ...
        truncated_layers: the model is this module's own and keeps only ``layer`` layers.
    """

    model: Any
    tokenizer: Any
    name: str
    layer: int
    max_length: int
    max_length_from: str
    config_sha: str
    device: str
    truncated_layers: bool

    @property
    def pad_id(self) -> int:
        pad = self.tokenizer.pad_token_id
        return 0 if pad is None else int(pad)

    def encode(self, texts: Sequence[str]) -> Tuple[List[List[int]], np.ndarray]:
        """Word-piece ids of ``texts`` as bert-score's ``sent_encode``: each text stripped, special tokens added,
        truncated at `max_length`. Returns ``(ids, truncated)`` with ``truncated`` a bool array (the text had
        more pieces than fit)."""
        stripped = [t.strip() for t in texts]
        if not stripped:
            return [], np.zeros(0, dtype=bool)
        ids = self.tokenizer(stripped, add_special_tokens=True, truncation=True, max_length=self.max_length)[
            "input_ids"]
        ids = [list(x) for x in ids]
        truncated = np.zeros(len(ids), dtype=bool)
        full = [k for k, x in enumerate(ids) if len(x) >= self.max_length]
        if full:
            lengths = self.tokenizer([stripped[k] for k in full], add_special_tokens=True, truncation=False,
                                     verbose=False)["input_ids"]
            for k, x in zip(full, lengths):
                truncated[k] = len(x) > self.max_length
        return ids, truncated

    def embed(self, id_lists: Sequence[Sequence[int]], batch_size: int) -> List[Any]:
        """Unit-normalised embeddings (float32 tensors ``(pieces, hidden)``, on `device`) of ``id_lists``,
        run in batches of similar lengths (longest first)."""
        order = sorted(range(len(id_lists)), key=lambda k: -len(id_lists[k]))
        out: List[Any] = [None] * len(id_lists)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                batch = order[start:start + batch_size]
                width = max(len(id_lists[k]) for k in batch)
                ids = torch.full((len(batch), width), self.pad_id, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for row, k in enumerate(batch):
                    ids[row, :len(id_lists[k])] = torch.tensor(id_lists[k], dtype=torch.long)
                    mask[row, :len(id_lists[k])] = 1
                hidden = self._hidden(ids.to(self.device), mask.to(self.device))
                for row, k in enumerate(batch):
                    emb = hidden[row, :len(id_lists[k])]
                    out[k] = emb / torch.norm(emb, dim=-1).unsqueeze(-1)
        return out

    def _hidden(self, ids, mask):
        if self.truncated_layers:
            return self.model(ids, attention_mask=mask)[0]
        return self.model(ids, attention_mask=mask, output_hidden_states=True).hidden_states[self.layer]


def _config_sha(config) -> str:
    data = config.to_dict()
    for key in ("_name_or_path", "name_or_path", "transformers_version", "_commit_hash"):
        data.pop(key, None)
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _max_length(tokenizer, config) -> Tuple[int, str]:
    limit = getattr(tokenizer, "model_max_length", None)
    if isinstance(limit, int) and 0 < limit <= MAX_SANE_LENGTH:
        return limit, "tokenizer"
    positions = getattr(config, "max_position_embeddings", None)
    if not isinstance(positions, int) or positions <= 0:
        raise ValueError("the tokenizer has no model_max_length and the model's configuration no "
                         "max_position_embeddings: set tokenizer.model_max_length (512 for BERT)")
    if getattr(config, "model_type", "") in _OFFSET_POSITIONS:
        positions -= int(getattr(config, "pad_token_id", 1) or 0) + 1
    return positions, "config"


def _layer_count(model) -> Optional[int]:
    n = getattr(model.config, "num_hidden_layers", None)
    return int(n) if isinstance(n, int) else None


#: A Hugging Face Hub model id: ``name`` or ``org/name`` (the download hints are given only for these).
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(/[A-Za-z0-9][\w.-]*)?")


def _missing_model_message(model: str) -> str:
    text = str(model)
    if text.startswith(("/", ".", "~")) or not _HUB_ID.fullmatch(text):  # a path (words13 F4: no Hub hints)
        where = Path(text).expanduser()
        shown = str(where) if text.startswith("~") else text  # as typed, with ~ expanded
        state = f"{shown!r} is not a directory" if where.exists() else f"the directory {shown!r} does not exist"
        return (f"model {text!r}: {state}; give the local directory that holds the "
                "model and its tokenizer (zheval never downloads weights)")
    return (f"model {model!r} is not a local directory. zheval never downloads weights: get them once, e.g. "
            f"`hf download {model} --local-dir ./{Path(str(model)).name}` (huggingface_hub's command line) or "
            f"`git clone https://huggingface.co/{model}`, and pass that directory as model=")


def load_encoder(model: Any, *, layer: Optional[int], device: Optional[str]) -> Encoder:
    """The encoder of ``model`` at ``layer`` on ``device``.

    Args:
        model: a local directory (``str`` / ``os.PathLike``) holding a transformers model and its tokenizer, or a
            loaded ``(model, tokenizer)`` pair (left unchanged: the layer is read from ``hidden_states``).
        layer: the hidden layer (0 = embeddings, up to the model's layer count); ``None``: bert-score's layer for
            the model's name (`KNOWN_LAYERS`).
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"``...; ``None``: CUDA when available, else the CPU.

    Raises:
        FileNotFoundError: ``model`` is a path that is not a directory (the message says how to get the weights).
        TypeError: ``model`` neither a path nor a pair.
        ValueError: ``layer`` out of range, or ``None`` for a model bert-score has no layer for.
    """
    owned = isinstance(model, (str, os.PathLike))
    if owned:
        path = os.fspath(model)
        if not os.path.isdir(path):
            raise FileNotFoundError(_missing_model_message(path))
        name = model_name_of(path)
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        net = AutoModel.from_pretrained(path, local_files_only=True)
    elif isinstance(model, (tuple, list)) and len(model) == 2:
        net, tokenizer = model
        if not hasattr(net, "config") or not callable(getattr(tokenizer, "__call__", None)):
            raise TypeError("model= as a pair must be (a transformers model, its tokenizer)")
        given = getattr(net, "name_or_path", "") or getattr(net.config, "_name_or_path", "")
        name = model_name_of(given) if given else "given"
    else:
        raise TypeError(f"model must be a local directory or a (model, tokenizer) pair, got {type(model).__name__}")
    if hasattr(net, "decoder") and hasattr(net, "encoder"):  # as bert-score: an encoder-decoder's encoder
        net = net.encoder
    count = _layer_count(net)
    if layer is None:
        if name not in KNOWN_LAYERS:
            raise ValueError(f"layer is required for model {name!r}: bert-score's table has a layer only for "
                             f"{', '.join(sorted(KNOWN_LAYERS))}")
        layer = KNOWN_LAYERS[name]
    if isinstance(layer, bool) or not isinstance(layer, int) or layer < 0 or (count is not None and layer > count):
        raise ValueError(f"layer must be an int from 0 to {count if count is not None else 'the layer count'}, "
                         f"got {layer!r}")
    max_length, source = _max_length(tokenizer, net.config)
    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    truncated_layers = False
    if owned and hasattr(getattr(net, "encoder", None), "layer"):
        net.encoder.layer = torch.nn.ModuleList(list(net.encoder.layer[:layer]))
        truncated_layers = True
    net.eval()
    if owned:
        net.to(device)
    return Encoder(model=net, tokenizer=tokenizer, name=name, layer=layer, max_length=max_length,
                   max_length_from=source, config_sha=_config_sha(net.config), device=str(device),
                   truncated_layers=truncated_layers)


def _padded(tensors: Sequence[Any], device) -> Tuple[Any, Any]:
    width = max(t.shape[0] for t in tensors)
    out = torch.zeros((len(tensors), width, tensors[0].shape[-1]), dtype=tensors[0].dtype, device=device)
    mask = torch.zeros((len(tensors), width), dtype=torch.bool, device=device)
    for row, t in enumerate(tensors):
        out[row, :t.shape[0]] = t
        mask[row, :t.shape[0]] = True
    return out, mask


def _weights(weights: Sequence[np.ndarray], width: int, device) -> Any:
    out = torch.zeros((len(weights), width), dtype=torch.float32, device=device)
    for row, w in enumerate(weights):
        out[row, :len(w)] = torch.from_numpy(np.asarray(w, dtype=np.float32))
    return out


def greedy_match(hyp_emb, hyp_mask, hyp_w, ref_emb, ref_mask, ref_w) -> Any:
    """P, R, F (a ``(pairs, 3)`` float32 tensor) of padded, unit-normalised embeddings: bert-score's
    ``greedy_cos_idf`` with padded positions never the maximum (module docstring)."""
    sim = torch.bmm(hyp_emb, ref_emb.transpose(1, 2))
    pair_mask = hyp_mask.unsqueeze(2) & ref_mask.unsqueeze(1)
    sim = sim.masked_fill(~pair_mask, float("-inf"))
    word_precision = sim.max(dim=2)[0].masked_fill(~hyp_mask, 0.0)
    word_recall = sim.max(dim=1)[0].masked_fill(~ref_mask, 0.0)
    hyp_w = hyp_w / hyp_w.sum(dim=1, keepdim=True)
    ref_w = ref_w / ref_w.sum(dim=1, keepdim=True)
    precision = (word_precision * hyp_w).sum(dim=1)
    recall = (word_recall * ref_w).sum(dim=1)
    f1 = 2 * precision * recall / (precision + recall)
    empty = hyp_mask.sum(dim=1).eq(2) | ref_mask.sum(dim=1).eq(2)
    precision = precision.masked_fill(empty, 0.0)
    recall = recall.masked_fill(empty, 0.0)
    f1 = f1.masked_fill(torch.isnan(f1), 0.0)
    return torch.stack((precision, recall, f1), dim=-1)


def pair_scores(encoder: Encoder, hyp_ids: Sequence[Sequence[int]], ref_ids: Sequence[Sequence[int]],
                hyp_weights: Sequence[np.ndarray], ref_weights: Sequence[np.ndarray], *, batch_size: int,
                chunk_pairs: int = 2048, progress_desc: str = "BERTScore") -> np.ndarray:
    """P, R, F of each (candidate, reference) pair, a ``(pairs, 3)`` float64 array of float32 values.

    Args:
        encoder: from `load_encoder`. hyp_ids / ref_ids: ids of each pair's texts (`Encoder.encode`).
        hyp_weights / ref_weights: one weight per piece of each text (idf, or 1 with ``[CLS]``/``[SEP]`` at 0).
        batch_size: texts per forward pass, and pairs per matching batch.
        chunk_pairs: pairs whose embeddings are held at once (memory is bounded by it, not by the corpus).
    """
    n = len(hyp_ids)
    out = np.zeros((n, 3), dtype=np.float64)
    bar = work_bar(n, 0.004, progress_desc, unit="pair")
    try:
        for start in range(0, n, chunk_pairs):
            stop = min(n, start + chunk_pairs)
            texts: dict = {}
            for k in range(start, stop):
                texts.setdefault(tuple(hyp_ids[k]), len(texts))
                texts.setdefault(tuple(ref_ids[k]), len(texts))
            keys = list(texts)
            emb = encoder.embed(keys, batch_size)
            order = sorted(range(start, stop), key=lambda k: -(len(hyp_ids[k]) + len(ref_ids[k])))
            with torch.inference_mode():
                for b in range(0, len(order), batch_size):
                    batch = order[b:b + batch_size]
                    h, hm = _padded([emb[texts[tuple(hyp_ids[k])]] for k in batch], encoder.device)
                    r, rm = _padded([emb[texts[tuple(ref_ids[k])]] for k in batch], encoder.device)
                    hw = _weights([hyp_weights[k] for k in batch], h.shape[1], encoder.device)
                    rw = _weights([ref_weights[k] for k in batch], r.shape[1], encoder.device)
                    scores = greedy_match(h, hm, hw, r, rm, rw).cpu().numpy()
                    out[batch] = scores
            bar.update(stop - start)
    finally:
        bar.close()
    return out
