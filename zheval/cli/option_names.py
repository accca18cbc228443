"""The options typed on the command line in place of the library's parameter names, in the errors of the library
that the commands print (issue 35, break-it pass 6: ``zheval score --smooth bogus`` said "unknown smooth_method",
``zheval bertscore --layer 9`` "layer must be an int from 0 to 3", ``zheval bleu -t llamafactory-char --normalize
default`` "got {'normalize': 'default'}").

`in_option_names` rewrites a message of a library ``ValueError``/``TypeError`` (`zheval.cli.options.run_command`):
a parameter name with an underscore (``smooth_method``, ``dedup_threshold``) wherever it stands as a word; a plain
one (``layer``, ``normalize``) only where it names the parameter -- at the start of the message before "must" or
"is required", after "unknown" -- so that the word in a sentence is left alone; ``name=`` (a keyword argument to
pass) as the option; ``{'normalize': 'default'}`` (options refused) as ``--normalize 'default'``.

Python's spelling goes too (`_python_spelling`, issue 35 second pass: ``zheval rouge --jieba-hmm`` said "option(s)
['jieba_hmm'] do not apply", ``zheval clean`` "got float 1.5", the resample bounds "2 (MIN_BOOTSTRAP_RESAMPLES)"):
``punct="drop"`` as ``--punct drop``; a list literal of parameters as the options (``--jieba-hmm``), of values as
the values (``'keep', 'drop'``); a type before a value, ``or None`` and a constant's name in brackets are dropped.
A message that names no parameter (`UNNAMED`: "cannot group by", "unknown metric(s)", "unknown normalisation step")
gets the option before it. A message that starts with the library function behind the command (`DOORS`:
``human_ceiling needs items with at least 2 references``) starts with the command instead (``zheval ceiling``).

Fourth pass: a flag's Python value (``--baseline-path is given but rescale_with_baseline is False``) as the command
line says it (``--baseline-path is given without --rescale-with-baseline``).

Third pass: ``t2s=True`` as ``--t2s`` (the input-slip warnings), a parameter before ``(the preset's: …)`` (the preset
override warning), ``tokenizer="none"`` as ``--tokenizer none``, a trailing "On the command line: --t2s." dropped
when the flag is already said; the chrF word-only refusal (`_CHRF_WORDS`) in ``zheval chrf``'s wording, without
the door's name (``evaluate_predictions:``) or ``word_order``.

The library's way to name a field of a 小黄鸭 predictions file (`zheval.io.predictions_arguments`,
``read_records(FILE, id_field='qid', with_references=False) and predictions_from_records``) is said as the option
alone (``--id-field qid``), in these messages as in `in_field_options`'.

The caution about few bootstrap resamples (`zheval.results.reducers.resample_cautions`) names the library's keyword
for the count, ``give 1000 or more (bootstrap)``; a command names its option instead (`caution_option`:
``--bootstrap``; ``--paired-bs-n`` where that gave the count), in its warnings and in a report's notes
(`notes_in_option_names`), never both.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Optional

__all__ = ["COMMAND", "OPTION_NAMES", "DOORS", "in_option_names", "in_field_options", "warning_text", "caution_option",
           "notes_in_option_names"]

#: The name of the command running (``"bertscore"``, ``"score"`` …; set by `zheval.cli.params.takes`), for
#: `in_option_names` in `zheval.cli.options.run_command`; ``None`` outside a command.
COMMAND: ContextVar[Optional[str]] = ContextVar("zheval_command", default=None)

#: Library parameter → the option of the command line; ``{command: option, None: option}`` where the commands
#: differ (``None``: every other command).
OPTION_NAMES = {
    "smooth_method": "--smooth",
    "smooth_value": "--smooth-value",
    "max_order": "--max-order",
    "multi_ref": "--multi-ref",
    "min_chars": "--min-chars",
    "max_chars": "--max-chars",
    "dedup_threshold": "--dedup-threshold",
    "min_refs": "--min-refs",
    "max_refs": "--max-refs",
    "rescale_with_baseline": "--rescale-with-baseline",
    "baseline_path": "--baseline-path",
    "layer": {"bertscore": "--layer", None: "--bertscore-layer"},
    "normalize": "--normalize",
    "t2s": "--t2s",
    "jieba_hmm": "--jieba-hmm",
    "terms": "--terms",
    "punct": "--punct",
    "rouge_types": "--rouge-types",
    "rouge_w_weight": "--rouge-w-weight",
    "sentence_split": "--sentence-split",
    "beta": {"chrf": "--chrf-beta", None: "--beta"},
    "bp_ref_length": "--bp-ref-length",
    "level": "--level",
    "effective_order": "--effective-order",
    "char_order": "--chrf-char-order",
    "word_order": "--chrf-word-order",
    "eps_smoothing": "--chrf-eps-smoothing",
    "tokenizer": "--tokenizer",
    "metrics": "--metrics",
    "by": "--by",
    "pred_field": "--pred-field",
    "ref_field": "--ref-field",
    "id_field": "--id-field",
    "group_fields": "--group-field",
}

#: Messages of the library that name no parameter: (their start, the parameter they are about); the option is
#: put before the message: ``--normalize: unknown normalisation step(s) ...``.
UNNAMED = (("unknown normalisation step", "normalize"), ("cannot group by", "by"), ("unknown metric(s)", "metrics"),
           ("name at least one metric", "metrics"))

#: The library functions behind a command, as their errors start (``human_ceiling needs items with at least 2
#: references``): at that command the message starts with the command as typed (``zheval ceiling needs …``).
DOORS = {"ceiling": "human_ceiling"}

#: The library's refusal of chrF++'s word-only options without word n-grams
#: (`zheval.compute.option_rules.check_chrf_word_options`), after the name of its door: rewritten whole by
#: `_chrf_words` in ``zheval chrf``'s wording (`zheval.cli.chrf`).
_CHRF_WORDS = re.compile(r"^(?:\w+: )?chrF option\(s\) (.*?) act only on chrF\+\+'s word n-grams, and word_order is 0: "
                         r".*?or leave them out(; to remove punctuation[^;]*)?$", re.S)


def _option(name: str, command: Optional[str]) -> Optional[str]:
    flag = OPTION_NAMES.get(name)
    return flag.get(command, flag[None]) if isinstance(flag, dict) else flag


def _refused(match: re.Match, command: Optional[str]) -> str:
    """``{'normalize': 'default', 't2s': True}`` → ``--normalize 'default', --t2s`` (kept when a key is no option)."""
    items = re.findall(r"'(\w+)': ('[^']*'|[^,}]+)", match.group(1))
    if not items or any(_option(k, command) is None for k, _ in items):
        return match.group(0)
    return ", ".join(_option(k, command) + ("" if v == "True" else f" {v}") for k, v in items)


def _listed(match: re.Match, command: Optional[str]) -> str:
    """``['jieba_hmm', 'terms']`` → ``--jieba-hmm, --terms`` when every item is a parameter of `OPTION_NAMES`,
    else the list's values without Python's brackets (``['keep', 'drop']`` → ``'keep', 'drop'``)."""
    items = re.findall(r"'([^']*)'", match.group(1))
    flags = [_option(k, command) for k in items]
    return ", ".join(flags) if items and all(flags) else ", ".join(f"'{i}'" for i in items)


def _chrf_words(match: re.Match, command: Optional[str]) -> str:
    """The chrF word-only refusal (`_CHRF_WORDS`) as ``zheval chrf`` words it: the options as typed, no door name,
    no parameter names: ``--tokenizer jieba acts only on chrF++'s word n-grams (...): add --chrf-word-order 2
    (chrF++) or leave it out``."""
    said = _python_spelling(match.group(1), command)
    said = re.sub(r"(?<![\w-])(jieba_hmm|terms)\b", lambda m: _option(m.group(1), command), said)
    one = "," not in said
    text = (f"{said} act{'s' if one else ''} only on chrF++'s word n-grams (the characters of chrF are the normalised "
            f"text's, which {'it does' if one else 'they do'} not change): add {_option('word_order', command)} 2 "
            f"(chrF++) or leave {'it' if one else 'them'} out")
    if match.group(2):
        text += "; to remove punctuation from the characters, --normalize with the nopunct step"
    return text


def _python_spelling(message: str, command: Optional[str]) -> str:
    """The Python of a library message in the command line's words: ``punct="drop"`` → ``--punct drop``; a list
    literal of names or values (`_listed`); a flag's value (``but rescale_with_baseline is False`` → ``without
    --rescale-with-baseline``; ``X is True`` → ``--x is given``); a type before a value (``got float 1.5`` →
    ``got 1.5``); ``or None``
    (no option takes None); a constant's name in brackets (``2 (MIN_BOOTSTRAP_RESAMPLES)`` → ``2``)."""
    for name in OPTION_NAMES:
        message = re.sub(rf"(?<![\w.-]){name}=(['\"])(.*?)\1", lambda m: f"{_option(name, command)} {m.group(2)}",
                         message)
        message = re.sub(rf"(?<![\w.-]){name}=True\b", _option(name, command), message)
        # a flag's Python value said of it: "X is given but Y is False" -> "X is given without Y"
        message = re.sub(rf"\bbut {name} is False\b", f"without {_option(name, command)}", message)
        message = re.sub(rf"(?<![\w.-]){name} is False\b", f"{_option(name, command)} is not given", message)
        message = re.sub(rf"(?<![\w.-]){name} is True\b", f"{_option(name, command)} is given", message)
    message = re.sub(r"(--[\w-]+ [\w-]+(?: \(the default\))?) or \"([\w-]+)\"", r"\1 or \2", message)
    message = re.sub(r"\[('[^'\[\]]*'(?:, '[^'\[\]]*')*)\]", lambda m: _listed(m, command), message)
    message = re.sub(r"\bgot (?:float|int|str|bool|NoneType) ", "got ", message)
    message = re.sub(r" or None(?=,| got\b)", "", message)
    return re.sub(r" \([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\)", "", message)


def in_field_options(message: str, command: Optional[str] = None) -> str:
    """A file error's message (`zheval.io.FileFormatError`, which quotes the file's own field names and values) with
    only the arguments that name a field (`_FIELD_ARGUMENT`: ``pred_field="NAME"``, ``id_field='ID'``, a bare
    ``group_fields``; `zheval.io.field_arguments`) written as the options of `OPTION_NAMES` (``--pred-field NAME``,
    ``--id-field 'ID'``, ``--group-field``; a list, ``ref_field=["ref1", "ref2"]``, as the option once per name:
    ``--ref-field ref1 --ref-field ref2``), and the recipe of `zheval.io.predictions_arguments` as its option
    alone; nothing else of it is rewritten: a quoted field name of the file (a literal not after ``=``) never is.
    Raises nothing."""
    def option(m: re.Match) -> str:
        flag, value = _option(m.group(1), command), m.group(2)
        return flag if value is None else f"{flag} {'NAME' if value == _NAME else value}"

    message = _FIELD_LIST.sub(lambda m: _field_list(m, command), message)
    parts = re.split(rf"((?<![\w=])(?:{_LITERAL}))", message)  # odd: the quoted names of the file, kept as they are
    parts[::2] = [_FIELD_ARGUMENT.sub(option, _PREDICTIONS_RECIPE.sub(r"\1", p)) for p in parts[::2]]
    return re.sub(r"(--[\w-]+ NAME), (?=--[\w-]+ NAME\b)", r"\1 ", "".join(parts))


#: The value of an argument that stands for a name to choose (`zheval.io.field_arguments`): ``NAME`` as an option's.
_NAME = '"NAME"'

#: A Python string literal (a field name quoted with ``!r``).
_LITERAL = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""

#: An argument naming a field, bare or with a literal, standing alone (not inside a quoted name: no quote or word
#: character either side).
_FIELD_ARGUMENT = re.compile(rf"(?<![\w.'\"-])(pred_field|ref_field|id_field|group_fields)(?:=({_LITERAL}))?"
                             r"(?![\w'\"=])")

#: A list of names given to an argument that takes several fields (``ref_field=["ref1", "ref2"]``).
_FIELD_LIST = re.compile(rf"(?<![\w.'\"-])(ref_field|group_fields)=\[((?:{_LITERAL})(?:, (?:{_LITERAL}))*)\]")


def _field_list(match: re.Match, command: Optional[str]) -> str:
    """``ref_field=["ref1", "ref2"]`` → ``--ref-field ref1 --ref-field ref2`` (a name that is not one word keeps its
    quotes)."""
    flag = _option(match.group(1), command)
    names = re.findall(_LITERAL, match.group(2))
    return " ".join(f"{flag} {n[1:-1] if n[1:-1].isidentifier() else n}" for n in names)


#: `zheval.io.predictions_arguments`: the library's way to name a field of a 小黄鸭 predictions file.
_PREDICTIONS_RECIPE = re.compile(rf"read_records\(FILE, (\w+=(?:{_LITERAL})), with_references=False\) and "
                                 r"predictions_from_records")


#: A signature quoted in a message (``preset:sacrebleu-zh(overridden:tokenizer+smooth_method)``, a whole
#: ``nrefs:1|tok:zh-char|…``): kept verbatim by `in_option_names`, as the report prints it.
_SIGNATURE = re.compile(r"\bpreset:[^\s(]*\(overridden:[^)\s]*\)|\b[\w-]+:[^\s|]*(?:\|[\w-]+:[^\s|]*)+")


def in_option_names(message: str, command: Optional[str] = None) -> str:
    """``message`` (a library error) with the parameter names of `OPTION_NAMES` written as the options of
    ``command`` (the command's name, ``"bertscore"`` …; ``None``: the report commands'), and its Python in the
    command line's words (`_python_spelling`); a signature it quotes (`_SIGNATURE`) is left verbatim. Rules in the
    module docstring; a message naming no parameter is returned as it is, or with the option of `UNNAMED` before
    it. Raises nothing."""
    kept = _SIGNATURE.findall(message)
    message = _SIGNATURE.sub("\x00", message)  # NUL: in no library message; each put back below, in order
    message = _in_option_names(message, command)
    return re.sub("\x00", lambda m, it=iter(kept): next(it), message)


def caution_option(message: str, option: str, said: str = "bootstrap") -> str:
    """``message`` with the argument of its resample count said as ``option`` when it is a caution of
    `zheval.results.reducers.resample_cautions` (it starts with `zheval.results.reducers.RESAMPLE_CAUTION`) whose
    count is said as ``said`` (``... give 1000 or more (bootstrap)``, the library's keyword): ``(bootstrap)`` →
    ``(--bootstrap)`` at a command; ``said="--bootstrap"`` → ``(--paired-bs-n)`` where that option gave the count.
    Any other message is returned as it is."""
    from ..results.reducers import RESAMPLE_CAUTION

    end = f" or more ({said})"
    if message.startswith(RESAMPLE_CAUTION) and message.endswith(end):
        return f"{message[:-len(end)]} or more ({option})"
    return message


def notes_in_option_names(report):
    """``report`` (a `zheval.adapters.report.tables.Report`) with the resample count of its bootstrap cautions
    (`caution_option`) said as the report commands' ``--bootstrap`` (``score``, ``ceiling``, ``compare``, ``demo``),
    before any format or HTML page is rendered from its notes; the library's report says ``bootstrap``. Returns
    ``report``."""
    report.notes = [caution_option(n, "--bootstrap") for n in report.notes or []]
    return report


def _in_option_names(message: str, command: Optional[str]) -> str:
    message = caution_option(message, "--bootstrap")  # the library's interval: every command's --bootstrap
    message = _CHRF_WORDS.sub(lambda m: _chrf_words(m, command), message)
    message = _PREDICTIONS_RECIPE.sub(r"\1", message)  # `zheval.io.predictions_arguments`: the option alone
    if command in DOORS:
        message = re.sub(rf"^{DOORS[command]}(?= )", f"zheval {command}", message)
    for start, name in UNNAMED:
        if message.startswith(start):
            message = f"{_option(name, command)}: {message}"
    message = _python_spelling(message, command)
    message = re.sub(r"rescale_with_baseline=False", lambda m: "leave out " + _option("rescale_with_baseline",
                                                                                      command), message)
    message = re.sub(r"\{('\w+': [^{}]*)\}", lambda m: _refused(m, command), message)
    for name in OPTION_NAMES:
        flag = _option(name, command)
        if "_" in name:
            message = re.sub(rf"(?<![\w.'-]){name}=? ?(?![\w'])", lambda m: flag + (" " if m.group(0).endswith(" ")
                                                                                     else ""), message)
        else:
            # ... and before its quoted value (``normalize '' has an empty step``)
            message = re.sub(rf"^{name}(?= (must|is required)\b| '[^']*' )", flag, message)
            message = re.sub(rf"\bunknown {name}\b", f"unknown {flag}", message)
        message = re.sub(rf"(?<![\w-]){name} (?=\(the preset's: )", flag + " ", message)
    return re.sub(r" On the command line: (--[\w-]+)\.", lambda m: "" if m.group(1) in message[:m.start()]
                  else m.group(0), message)


def warning_text(message: str, category: type, command: Optional[str] = None) -> str:
    """A library warning of ``category`` as a command prints it: its parameter names as the command's options
    (`in_option_names`); a category with ``field_words`` (a warning about a file's rows, which quotes the file's
    field names: `zheval.adapters.list_texts.ListTextWarning`) has only its field arguments rewritten
    (`in_field_options`). Raises nothing."""
    words = in_field_options if getattr(category, "field_words", False) else in_option_names
    return words(message, command)
