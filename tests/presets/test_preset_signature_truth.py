"""Every option a preset fixes, overridden, marks the signature and warns (issue 35): the signature equals what ran.

Before, an override that is one of the tool's own options (``tool_options``: sacrebleu's ``max_order``, smoothing
methods and levels, ROUGE-1.5.5's ``-f B``/``-p``/``-w``/types) or a subset of the preset's ROUGE types kept
``preset:sacrebleu-zh`` in the signature with no ``PresetOverrideWarning``: ``--preset sacrebleu-zh --max-order 2``
read ``preset:sacrebleu-zh``. Now every option of a part's ``defaults`` that the config changes is named in
``preset:name(overridden:...)`` and in the warning, at the library and at the text-file commands; the tool's own
options still keep the tool's own numbers (``rouge155``'s, ``llamafactory``'s on a subset of its types). An option a
preset fixes that cannot be overridden is refused (a ValueError), never silently kept. The table is built from the
registry, so a new preset or a new fixed option is covered or fails here.
"""

from __future__ import annotations

import warnings

import pytest

import zheval
from helpers.cli import run_cli
from zheval.presets import get_preset, preset_names

P = ["今天天气好", "会议推迟到下周举行"]
R = [["今天天气很好"], ["会议改到下周举行"]]


def _other_types(part):
    types = list(part.defaults["rouge_types"])
    return types[:1] if len(types) > 1 else ["rouge1"]


def _override(metric, part, key):
    """``(library options, the option expected in overridden:...)`` changing ``key`` from the preset's value."""
    d = part.defaults
    if key == "tokenizer":
        return {"tokenizer": "jieba" if d[key] == "char" else "char"}
    if key == "normalize":
        return {"normalize": "nfkc"}
    if key == "rouge_types":
        return {"rouge_types": _other_types(part)}
    if key == "multi_ref":
        return {"multi_ref": "mean" if d[key] != "mean" else "max"}
    if key == "beta":
        return {"beta": 2.0}
    if key == "rouge_w_weight":
        return {"rouge_w_weight": 1.5}
    if key == "sentence_split":
        return {"sentence_split": "newline", "rouge_types": ["rougeLsum"]}
    if key == "max_order":
        return {"max_order": 2}
    if key == "smooth_method":
        return {"smooth_method": "floor" if d[key] != "floor" else "exp"}
    if key == "smooth_value":  # under the preset's own method
        return {"smooth_value": 0.5}
    if key == "bp_ref_length":
        return {"bp_ref_length": "shortest"}
    if key == "level":
        return {"level": "sentence" if d[key] == "corpus" else "corpus"}
    if key == "effective_order":
        own = d[key] if d[key] is not None else d.get("level", "corpus") == "sentence"
        return {"effective_order": not own}
    if key == "weights":
        return {"weights": [0.4, 0.3, 0.2, 0.1]}
    raise AssertionError(f"no override for {metric} option {key!r}: add one to the table")


CASES = [pytest.param(name, metric, key, id=f"{name}-{metric}-{key}")
         for name in preset_names() for metric in get_preset(name).metrics
         for key in get_preset(name).part(metric).defaults]


def _compute(metric):
    return zheval.compute_rouge if metric == "rouge" else zheval.compute_bleu


def _marked(signature, name, key):
    field = next(f for f in signature.split("|") if f.startswith("preset:"))
    assert field.startswith(f"preset:{name}(overridden:"), signature
    return key in field[len(f"preset:{name}(overridden:"):-1].split("+")


@pytest.mark.parametrize("name, metric, key", CASES)
def test_every_fixed_option_overridden_marks_the_signature_and_warns(name, metric, key):
    part = get_preset(name).part(metric)
    opts = _override(metric, part, key)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = _compute(metric)(P, R, preset=name, **opts)
        except ValueError:  # the preset cannot follow it (a tool tokenizer takes no normalize, a fixed beta ...)
            return
    ours = [w for w in caught if issubclass(w.category, zheval.PresetOverrideWarning)]
    assert len(ours) == 1, (opts, [str(w.message) for w in caught])
    assert f"preset '{name}': " in str(ours[0].message) and f"{key} (the preset's: " in str(ours[0].message)
    assert _marked(out["signature"], name, key), (opts, out["signature"])
    assert f"preset:{out['signature'].split('preset:')[1].split('|')[0]}" in str(ours[0].message)


@pytest.mark.parametrize("name, metric, key", CASES)
def test_every_fixed_option_is_either_marked_or_refused_never_silently_kept(name, metric, key):
    part = get_preset(name).part(metric)
    opts = _override(metric, part, key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = _compute(metric)(P, R, preset=name, **opts)
        except ValueError as exc:
            assert name in str(exc) or "takes no options" in str(exc) or "smooth_value" in str(exc), exc
            return
    assert f"|preset:{name}|" not in out["signature"], (opts, out["signature"])


@pytest.mark.parametrize("name, metric", [(n, m) for n in preset_names() for m in get_preset(n).metrics])
def test_the_preset_itself_is_unmarked_and_quiet(name, metric):
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.PresetOverrideWarning)
        out = _compute(metric)(P, R, preset=name)
        # giving the preset's own value explicitly is the preset
        same = {k: v for k, v in get_preset(name).part(metric).defaults.items()
                if k in ("max_order", "bp_ref_length", "level", "multi_ref", "beta")}
        again = _compute(metric)(P, R, preset=name, **same)
    assert f"|preset:{name}|" in out["signature"] and again["signature"] == out["signature"]


def test_the_tools_own_options_are_marked_but_keep_the_tools_numbers():
    # sacrebleu BLEU(max_ngram_order=2) is still sacrebleu's score, but not the sacrebleu-zh preset's
    with pytest.warns(zheval.PresetOverrideWarning, match=r"max_order \(the preset's: 4\) overridden, each a "
                                                          r"choice the tool itself offers"):
        out = zheval.compute_bleu(P, R, preset="sacrebleu-zh", max_order=2)
    assert "|preset:sacrebleu-zh(overridden:max_order)|" in out["signature"] and "|order:2|" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="multi_ref"):
        out = zheval.compute_rouge(P, R, preset="rouge155", multi_ref="best_recall")  # ROUGE-1.5.5 -f B
    assert "|preset:rouge155(overridden:multi_ref)|" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="rouge_types"):
        out = zheval.compute_rouge(P, R, preset="llamafactory", rouge_types=["rougeL"])
    assert "llamafactory_rouge_l" in out  # a subset of its types: LLaMA-Factory's own number of that type
    assert "|preset:llamafactory(overridden:rouge_types)|" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="the preset's own numbers are left out"):
        out = zheval.compute_bleu(P, R, preset="glm4", max_order=2)
    assert "glm4_bleu_4" not in out


def _files(tmp_path):
    refs = []
    for k in range(2):  # two reference files: --multi-ref and --bp-ref-length need more than one
        ref = tmp_path / f"ref{k}.txt"
        ref.write_text("".join(r[0] + ("" if k == 0 else "。") + "\n" for r in R), encoding="utf-8")
        refs.append(ref)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("".join(p + "\n" for p in P), encoding="utf-8")
    return refs, hyp


#: ``zheval bleu`` / ``zheval rouge`` flags of an override (`_override`'s library options).
_FLAGS = {"tokenizer": lambda v: ["-t", v], "max_order": lambda v: ["--max-order", str(v)],
          "smooth_method": lambda v: ["--smooth", v], "bp_ref_length": lambda v: ["--bp-ref-length", v],
          "level": lambda v: ["--level", v],
          "effective_order": lambda v: ["--effective-order" if v else "--no-effective-order"],
          "multi_ref": lambda v: ["--multi-ref", v], "beta": lambda v: ["--beta", str(v)],
          "rouge_w_weight": lambda v: ["--rouge-w-weight", str(v)], "rouge_types": lambda v: ["--rouge-types",
                                                                                               ",".join(v)],
          "sentence_split": lambda v: ["--sentence-split", v]}


@pytest.mark.parametrize("name, metric, key", [c for c in CASES if c.values[2] in _FLAGS
                                               and "text" in get_preset(c.values[0]).part(c.values[1]).doors])
def test_the_text_file_commands_mark_every_override_too(tmp_path, name, metric, key):
    refs, hyp = _files(tmp_path)
    opts = _override(metric, get_preset(name).part(metric), key)
    args = [a for k, v in opts.items() for a in _FLAGS[k](v)]
    fmt = ["-f", "json"]
    plain = run_cli(metric, *refs, "-i", hyp, "--preset", name, *fmt)
    assert plain.exit_code == 0 and f"|preset:{name}|" in plain.stdout, plain.output
    res = run_cli(metric, *refs, "-i", hyp, "--preset", name, *args, *fmt)
    if res.exit_code != 0:  # refused as the library refuses it (the preset cannot follow it)
        assert "Traceback" not in res.output and res.exit_code in (1, 2), res.output
        return
    sig = next(line for line in res.stdout.split('"') if f"preset:{name}" in line)
    assert _marked(sig, name, key), (args, sig)
    assert res.stderr.count(f"zheval: warning: preset '{name}': ") == 1, res.stderr


def test_smooth_value_sentence_split_and_normalize_of_a_registered_preset():
    # no built-in fixes these where they can be changed (exp and nltk3 take no smooth_value; a tool tokenizer takes
    # no normalize), so a preset from user code fixes them: floor at 0.2, the newline split, NFKC only
    from zheval.definitions.rouge import score_item
    from zheval.presets import BleuPreset, Preset, RougePreset, register_preset, unregister_preset

    class OwnRouge(RougePreset):  # zheval's own per-reference formula
        def item_scorer(self, types, multi_ref, beta, rouge_w_weight):
            return lambda h, r: score_item(h, r, types, multi_ref, beta, rouge_w_weight)

    bleu = register_preset(Preset(name="issue35-floor", bleu=BleuPreset(
        name="issue35-floor", defaults={"tokenizer": "char", "smooth_method": "floor", "smooth_value": 0.2})))
    rouge = register_preset(Preset(name="issue35-split", rouge=OwnRouge(
        name="issue35-split", defaults={"tokenizer": "char", "normalize": "nfkc", "rouge_types": ["rougeLsum"],
                                        "sentence_split": "newline"})))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", zheval.PresetOverrideWarning)
            assert "|preset:issue35-floor|" in zheval.compute_bleu(P, R, preset=bleu.name, smooth_value=0.2)["signature"]
            assert "|preset:issue35-split|" in zheval.compute_rouge(P, R, preset=rouge.name)["signature"]
        for opts, key in (({"smooth_value": 0.5}, "smooth_value"), ({"smooth_method": "add-k"}, "smooth_method")):
            with pytest.warns(zheval.PresetOverrideWarning, match=key):
                out = zheval.compute_bleu(P, R, preset=bleu.name, **opts)
            assert f"|preset:issue35-floor(overridden:{key})|" in out["signature"]  # add-k: its own value, not 0.2's
        for opts, key in (({"sentence_split": "punct"}, "sentence_split"), ({"normalize": "default"}, "normalize")):
            with pytest.warns(zheval.PresetOverrideWarning, match=key):
                out = zheval.compute_rouge(P, R, preset=rouge.name, **opts)
            assert f"|preset:issue35-split(overridden:{key})|" in out["signature"]
    finally:
        unregister_preset(bleu.name)
        unregister_preset(rouge.name)
