#!/usr/bin/env python3
"""Smoke test of an installed zheval wheel, run by ``.ci/wheel-smoke`` with the python of a fresh venv, from a
folder outside the repository (so nothing but the installed package can be imported).

Checks, each with a one-line verdict on stdout (exit 1 on the first failure):

1. ``zheval`` is imported from the venv's site-packages, not from a clone; its dist-info holds the Apache-2.0 LICENSE;
2. ``zheval demo`` (the console script) exits 0 and prints the per-domain table;
3. ``evaluate.load(zheval.metric_path(name))`` for every shipped module scores one pair as the library does;
4. the Trainer hook (``zheval.adapters.trainer.build_compute_metrics``) with an offline character tokenizer scores
   decoded ids as ``compute_rouge`` / ``compute_bleu`` do on the texts.

Needs only the installed wheel with its ``trainer`` extra; no network (HF_*_OFFLINE are set by the caller).
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from importlib.metadata import distribution
from pathlib import Path


def check(what: str, ok: bool, detail: str = "") -> None:
    print(f"wheel-smoke: {'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        sys.exit(1)


def main() -> int:
    import zheval

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    where = Path(zheval.__file__).resolve()
    check("zheval imported from the venv", site in where.parents, str(where))
    licence = [f for f in distribution("zheval").files or [] if f.name == "LICENSE"]
    check("LICENSE in the dist-info", bool(licence) and "Apache License" in licence[0].read_text())

    bin_dir = Path(sys.executable).parent
    demo = subprocess.run([str(bin_dir / "zheval"), "demo"], capture_output=True, text=True, timeout=600)
    check("zheval demo exits 0", demo.returncode == 0, demo.stderr[-2000:] if demo.returncode else "")
    check("zheval demo prints the report", "BLEU" in demo.stdout and "ROUGE" in demo.stdout)

    import evaluate

    preds, refs = ["猫坐在垫子上", "今天天气很好"], [["猫趴在垫子上"], ["今天天气不错", "天气很好"]]
    library = {"chinese_rouge": ("rougeL", zheval.compute_rouge(preds, refs)["rougeL"]),
               "chinese_bleu": ("bleu", zheval.compute_bleu(preds, refs)["bleu"]),
               "chinese_chrf": ("chrf", zheval.compute_chrf(preds, refs)["chrf"])}
    for name, (key, want) in library.items():
        path = zheval.metric_path(name)
        check(f"metric_path({name!r}) is in the package", site in Path(path).resolve().parents, path)
        got = evaluate.load(path, keep_in_memory=True).compute(predictions=preds, references=refs)[key]
        check(f"evaluate.load(metric_path({name!r})) equals the library", got == want, f"{got} vs {want}")

    import numpy as np
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    from zheval.adapters.trainer import build_compute_metrics

    texts = ["猫坐在垫子上", "猫趴在垫子上", "今天天气很好", "今天天气不错"]
    vocab = {"<pad>": 0, "<unk>": 1, **{c: i + 2 for i, c in enumerate(sorted(set("".join(texts))))}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                  pre_tokenizers.Split(Regex("."), behavior="isolated")])
    tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", unk_token="<unk>")
    width = max(len(t) for t in texts)
    ids = lambda t: [vocab[c] for c in t] + [-100] * (width - len(t))  # noqa: E731
    hook = build_compute_metrics(tok)
    out = hook((np.array([ids(texts[0]), ids(texts[2])]), np.array([ids(texts[1]), ids(texts[3])])))
    rouge = zheval.compute_rouge([texts[0], texts[2]], [[texts[1]], [texts[3]]])["rougeL"]
    bleu = zheval.compute_bleu([texts[0], texts[2]], [[texts[1]], [texts[3]]])["bleu"]
    check("Trainer hook equals the library", out.get("rougeL") == rouge and out.get("bleu") == bleu,
          f"{out} vs rougeL {rouge}, bleu {bleu}")
    print("wheel-smoke: passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
