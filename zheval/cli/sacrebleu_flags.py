"""sacrebleu's flags typed to ``zheval``: each recognised and answered with zheval's spelling, never run.

Users of ``zheval bleu`` / ``zheval chrf`` bring sacrebleu's habits. Left to click, sacrebleu's ``-tok zh`` is read as
``-t ok`` (``unknown -t/--tokenizer 'ok'``), ``-lc`` as ``-l -c`` (``No such option: -l``). `sacrebleu_flag_message`
finds them in a command's arguments (before ``--``), when the command has no option of that name itself (``zheval
score --metrics`` and ``zheval explain -m`` are zheval's own), and says what zheval takes instead:

* ``-tok V`` / ``-tokV`` / ``-tok=V`` / ``--tokenize V``: zheval's tokenizer names are not sacrebleu's, so the
  value is never taken as an alias: ``zh`` points to ``--preset sacrebleu-zh`` (``sacrebleu -tok zh`` exactly) and
  ``-t sacrebleu-zh``, any other value to the ``-t/--tokenizer`` choices; ``-tokenizer`` (one dash) to
  ``--tokenizer``;
* ``-l`` / ``--language-pair``: zheval takes no language pair;
* ``-m`` / ``--metrics``: one metric per text-file command (``zheval bleu``, ``zheval chrf``, ``zheval rouge``);
* ``-lc`` / ``--lowercase``: the ``lower`` normalisation step;
* the others of sacrebleu 2.6.0's ``parse_args`` (`_OTHER`: ``-s``, ``-sv``, ``-sl``, ``-nr``, ``-e``, ``-ol``,
  ``-d``, ``-cc``, ``-cw``, ``-ci``, ``-cin``, ``-pbs``, ``-pbsn``, ``-par``, ``-parn``, ``-j``, ``-sh``, ``-nc``,
  ``-q`` and their long names, ``--chrf-beta``, ``--chrf-eps-smoothing``; and ``-nw``, the ``nw:`` of sacrebleu's
  chrF signature beside ``nc:``), where a command lacks them: click read ``-ci`` as ``-c i`` (``No such option:
  -c``), ``-pbs`` as ``-p bs``, ``-ol`` as ``-o l`` (an output file ``l``): its name at that command where it has
  one (``-sv`` is ``zheval bleu --smooth-value``, ``-pbs`` is ``zheval compare --test bootstrap``), else that it has
  none and where zheval has it (`_other_message`). sacrebleu's ``-t`` (its test sets) is zheval's ``-t/--tokenizer``.

``-lc`` beside a zh tokenizer or preset (sacrebleu's ``-tok zh`` / ``-l xx-zh``, zheval's ``-t sacrebleu-zh`` /
``--preset sacrebleu-zh``), whichever flag is answered, also says that ``sacrebleu -tok zh -lc`` cannot be
reproduced -- the ``sacrebleu-zh`` tokenizer takes no options, so ``--normalize lower`` is refused with it
(`zheval.cli.options.refuse_tool_tokenizer_options`, the same words) -- and what zheval offers instead
(`_ZH_LOWERCASE`).

The check runs for every command (`ZhevalGroup.resolve_command`), before any file is read.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple

from typer.core import TyperGroup

from .options import CLI_TOKENIZERS

__all__ = ["sacrebleu_flag_message", "ZhevalGroup"]


def _value(args: List[str], i: int, name: str) -> Optional[str]:
    """The value of the flag ``name`` at ``args[i]``: after ``=``, attached (``-tokzh``), or the next argument."""
    a = args[i]
    if a == name:
        return args[i + 1] if i + 1 < len(args) and args[i + 1] != "--" else None
    rest = a[len(name):]
    return rest[1:] if rest.startswith("=") else rest


def _match(arg: str, names: Iterable[str], attached: bool) -> Optional[str]:
    """The flag of ``names`` that ``arg`` is (``NAME``, ``NAME=V``, and with ``attached`` ``NAMEV``), or ``None``."""
    for name in names:
        if arg == name or arg.startswith(name + "=") or (attached and arg.startswith(name) and len(arg) > len(name)):
            return name
    return None


def _tokenize_message(command: str, typed: str, value: Optional[str], own: set) -> str:
    choices = " | ".join(CLI_TOKENIZERS)
    head = (f"{typed} is sacrebleu's tokenizer option; zheval does not read it (its tokenizer names are not "
            f"sacrebleu's): choose a zheval tokenizer with -t/--tokenizer ({choices})")
    if "-t" not in own and "--tokenizer" not in own:
        return (f"{typed} is sacrebleu's tokenizer option; zheval {command} has no tokenizer option"
                + (" (BERTScore uses the model's own tokenizer)" if command == "bertscore" else ""))
    if command == "chrf":
        head += " (sacrebleu's chrF does not tokenize: its -tok changes only BLEU and TER; zheval chrf's -t " \
                "gives the words of chrF++, --chrf-word-order 2)"
    if value == "zh":
        preset = ("--preset sacrebleu-zh" if command == "bleu" else "zheval bleu --preset sacrebleu-zh")
        return (f"{head}. For sacrebleu's -tok zh: {preset} reproduces sacrebleu -tok zh exactly; "
                "-t sacrebleu-zh is its tokenizer alone")
    if value is None or value == "":
        return head
    return f"{head}; sacrebleu's {value!r} is none of them (sacrebleu's zh is zheval bleu --preset sacrebleu-zh)"


def sacrebleu_flag_message(command: str, args: List[str], own: Iterable[str],
                           valued: Iterable[str] = ()) -> Optional[str]:
    """The message for the first sacrebleu flag of ``args`` that is not one of the command's own option names
    ``own`` (see the module docstring), or ``None``. ``command``: the command's name (``bleu``, ``chrf``, ...);
    ``valued``: its options that take a value (the argument after one is its value: ``--id -lc`` is an id). With
    ``-lc`` beside a zh tokenizer or preset (`_zh_lowercase`), the message ends with `_ZH_LOWERCASE`."""
    own, valued = set(own), set(valued)
    message = _flag_message(command, args, own, valued)
    if message is not None and _zh_lowercase(command, args, own, valued):
        from ..tokenizers import TOOL_TOKENIZERS

        message += _ZH_LOWERCASE.format(tool=TOOL_TOKENIZERS["sacrebleu-zh"].TOOL)
    return message


#: What `sacrebleu_flag_message` adds when ``-lc`` comes with a zh tokenizer or preset: in the words of the refusal
#: of ``--normalize`` with a tool tokenizer (`zheval.cli.options.refuse_tool_tokenizer_options`), and zheval's
#: nearest instead, said to be zheval's tokenization.
_ZH_LOWERCASE = (". sacrebleu -tok zh -lc cannot be reproduced: tokenizer 'sacrebleu-zh' (--preset sacrebleu-zh, "
                 "-t sacrebleu-zh) reproduces {tool} exactly and takes no options, whatever their value, so "
                 "--normalize lower is refused with it. zheval offers -t char --normalize lower instead (one token "
                 "per Han character, lowercased; tok:zh-char|norm:lower|case:lc in the signature): zheval's "
                 "tokenization, not sacrebleu's, so its scores are not sacrebleu -tok zh -lc's")


def _zh_lowercase(command: str, args: List[str], own: set, valued: set) -> bool:
    """Whether ``args`` (before ``--``) hold sacrebleu's ``-lc``/``--lowercase`` (not the command's own, not an
    option's value) and a zh tokenizer or preset: zheval's ``-t``/``--tokenizer sacrebleu-zh`` or ``--preset
    sacrebleu-zh`` where the command has that option, or sacrebleu's ``-tok zh`` / ``--tokenize zh`` / ``-l xx-zh``
    (not at ``zheval chrf``: sacrebleu's chrF does not tokenize, and its ``-lc`` is lowercasing alone). ``False`` at
    a command without ``--tokenizer`` (``zheval bertscore``: there is no tokenizer to offer)."""
    if "--tokenizer" not in own:
        return False
    lc = zh = False
    for i, a in enumerate(args):
        if a == "--":
            break
        if i and args[i - 1] in valued:
            continue
        name, _, attached = a.partition("=")
        value = attached or (args[i + 1] if i + 1 < len(args) else "")
        if name in ("-lc", "--lowercase") and name not in own:
            lc = True
        elif name in ("-t", "--tokenizer", "--preset") and name in own:
            zh = zh or _sacrebleu_zh(value, name == "--preset")
        elif a.startswith("-t") and "-t" in own and not a.startswith("-tok"):
            zh = zh or _sacrebleu_zh(a[2:], False)  # -tNAME, attached
        elif command == "chrf" or name in own:
            continue
        elif name in ("-tok", "--tokenize"):
            zh = zh or value == "zh"
        elif name in ("-l", "--language-pair"):
            zh = zh or value.endswith("-zh")
        elif a == "-tokzh" or (a.startswith("-l") and a.endswith("-zh")):
            zh = True  # attached: -tokzh, -len-zh
    return lc and zh


def _sacrebleu_zh(name: str, preset: bool) -> bool:
    """Whether the tokenizer ``name`` (or with ``preset`` the tokenizer of the preset ``name``'s parts, asked of the
    preset object) is the tool tokenizer of sacrebleu's ``tokenize='zh'``."""
    from ..presets import find_preset
    from ..tokenizers import TOOL_TOKENIZERS

    names = [name]
    if preset:
        found = find_preset(name)
        parts = [found.part(m) for m in found.metrics] if found is not None else []
        names = [p.defaults.get("tokenizer") for p in parts if p is not None]
    return any(TOOL_TOKENIZERS.get(n) is TOOL_TOKENIZERS["sacrebleu-zh"] for n in names if isinstance(n, str))


def _flag_message(command: str, args: List[str], own: set, valued: set) -> Optional[str]:
    """The message of `sacrebleu_flag_message` without `_ZH_LOWERCASE`."""
    for i, a in enumerate(args):
        if a == "--":
            return None
        if not a.startswith("-") or a in own or a.split("=", 1)[0] in own or (i and args[i - 1] in valued):
            continue
        if a in ("-tokenizer", "-tokenize") or a.startswith(("-tokenizer=", "-tokenize=")):
            if "--tokenizer" in own:
                return f"{a.split('=', 1)[0]}: zheval's option is --tokenizer (two dashes) or -t"
        name = _match(a, ("--tokenize",), False) or _match(a, ("-tok",), True)
        if name is not None and name not in own:
            value = _value(args, i, name)
            return _tokenize_message(command, f"{name} {value}" if a == name and value else a, value, own)
        name = _match(a, ("-lc", "--lowercase"), False)
        if name is not None and name not in own:
            return (f"{name} is sacrebleu's lowercase flag: zheval's char and jieba tokenizers lowercase by default (the "
                    "lower step of their normalisation, --normalize default); with -t none add --normalize lower; "
                    "-t sacrebleu-zh keeps case, as sacrebleu -tok zh without -lc")
        name = _match(a, ("--language-pair",), False) or _match(a, ("-l",), True)
        if name is not None and name not in own:
            return (f"{name} is sacrebleu's language pair; zheval takes none: its tokenizer is chosen "
                    "with -t/--tokenizer (sacrebleu's -l xx-zh uses its zh tokenizer: zheval bleu --preset "
                    "sacrebleu-zh)")
        name = _match(a, ("--metrics",), False) or _match(a, ("-m",), True)
        if name is not None and name not in own:
            if "--metrics" in own:
                return f"{name} is sacrebleu's metric choice; zheval {command}'s is --metrics (a comma list)"
            return (f"{name} is sacrebleu's metric choice; zheval scores one metric per text-file "
                    "command: zheval bleu, zheval chrf (chrF++: --chrf-word-order 2), zheval rouge")
        found = _other_flag(a)
        if found is not None and found[0] not in own:
            return _other_message(command, found[1], found[0], own)
    return None


#: sacrebleu 2.6.0's other flags (``sacrebleu/sacrebleu.py`` ``parse_args``): ``(long name, short name, whether a
#: value may be attached to the short one: -cin100)``; ``-nw`` is no flag of sacrebleu's but the ``nw:`` (word order)
#: of its chrF signature, typed as ``-nc`` (``nc:``, the character order, and also sacrebleu's ``--no-color``) is.
_OTHER = (("--smooth-method", "-s", True), ("--smooth-value", "-sv", True), ("--sentence-level", "-sl", False),
          ("--num-refs", "-nr", True), ("--encoding", "-e", True), ("--origlang", "-ol", True),
          ("--detail", "-d", False), ("--chrf-char-order", "-cc", True), ("--chrf-word-order", "-cw", True),
          ("--chrf-beta", None, False), ("--chrf-eps-smoothing", None, False), ("--confidence", "-ci", False),
          ("--confidence-n", "-cin", True), ("--paired-bs", "-pbs", False), ("--paired-bs-n", "-pbsn", True),
          ("--paired-ar", "-par", False), ("--paired-ar-n", "-parn", True), ("--paired-jobs", "-j", True),
          ("--short", "-sh", False), ("--no-color", "-nc", False), ("--quiet", "-q", False), ("nw:", "-nw", True))


def _other_flag(arg: str) -> Optional[Tuple[str, str]]:
    """``(name, long name)`` of the flag in `_OTHER` that ``arg`` is (``NAME``, ``NAME=V``; a short one with a value
    attached, ``-cin100``), longest names first (``-cin`` before ``-ci``, ``-sv`` before ``-s``), or ``None``."""
    names = sorted(((n, long, attached and n == short) for long, short, attached in _OTHER for n in (long, short)
                    if n and n.startswith("-")), key=lambda x: -len(x[0]))
    return next(((n, long) for n, long, attached in names if _match(arg, (n,), attached)), None)


def _other_message(command: str, flag: str, typed: str, own: set) -> str:
    """What zheval ``command`` takes for sacrebleu's ``flag`` (its long name in `_OTHER`), typed as ``typed``:
    ``own`` is the command's option names, so the answer is its own option where it has one."""
    has = own.__contains__
    head = f"{typed} is sacrebleu's {flag}" if typed != flag else f"{typed} is sacrebleu's option"
    boot = " (--bootstrap N resamples)" if has("--bootstrap") else ""
    if flag == "--smooth-method":
        return (f"{head}: zheval {command}'s is --smooth METHOD" if has("--smooth") else
                f"{head}; zheval {command} has no BLEU smoothing option: zheval bleu --smooth METHOD")
    if flag == "--smooth-value":
        if has("--smooth-value"):
            return f"{head}: use --smooth-value V"
        return (f"{head}; zheval {command} has no smoothing value option" + (
            " (--smooth floor uses 0.1, add-k 1: sacrebleu's defaults)" if has("--smooth") else "")
            + ": zheval bleu --smooth-value V")
    if flag == "--sentence-level":
        return (f"{head} (a score per line); zheval {command} prints no score per line"
                + ("; --level sentence scores the mean of sentence BLEU" if has("--level") else ""))
    if flag == "--num-refs":
        return f"{head} (several references on one line, split at tabs); zheval {command} " + (
            f"reads one reference per line of each reference file: give each set as its own file (zheval {command} "
            "REF1.txt REF2.txt -i HYP.txt)" if has("--input") else "has no such option")
    if flag == "--encoding":
        return (f"{head}; zheval reads UTF-8 files only (with or without a BOM): convert the file first (iconv -f "
                "ENCODING -t UTF-8 FILE > FILE.utf8)")
    if flag in ("--origlang", "--detail"):
        what = "a subset" if flag == "--origlang" else "scores per subset"
        return (f"{head} ({what} of one of sacrebleu's test sets); zheval has no test sets"
                + ("; scores per group of your items: --by FIELD" if has("--by") else ""))
    if flag.startswith("--chrf-") or flag == "nw:":
        return _chrf_message(command, flag, head, has)
    if flag in ("--confidence", "--confidence-n"):
        return (f"{head}; zheval {command} has no confidence interval option"
                + (": its intervals are zheval's percentile bootstrap, --bootstrap N resamples" if boot else "")
                + "; sacrebleu's μ ± CI is zheval bleu -ci and zheval chrf -ci")
    if flag.startswith("--paired-") and flag != "--paired-jobs":
        return _paired_message(command, flag, head, has, boot)
    if flag == "--no-color":
        return (f"{head}; zheval prints no colours. The nc:N of sacrebleu's chrF signature is the character order: "
                + ("--chrf-char-order N (-cc)" if has("--chrf-char-order") else "zheval chrf --chrf-char-order N"))
    if flag == "--quiet":
        return f"{head}; zheval {command} has no such option: its notes and warnings go to standard error"
    return f"{head}; zheval {command} has no such option"  # --paired-jobs, --short


def _chrf_message(command: str, flag: str, head: str, has) -> str:
    """`_other_message` for sacrebleu's chrF options and the ``nw:`` of its chrF signature."""
    if flag == "nw:":
        flag, head = "--chrf-word-order", f"{head[:head.index(' is ')]} is no option of sacrebleu's; the nw:N of its " \
                                          "chrF signature is the word order"
    value = "" if flag == "--chrf-eps-smoothing" else " N" if flag != "--chrf-beta" else " B"
    if has(flag):
        return f"{head}: use {flag}{value}"
    return f"{head}; zheval {command} has no such option: zheval chrf {flag}{value}"


def _paired_message(command: str, flag: str, head: str, has, boot: str) -> str:
    """`_other_message` for sacrebleu's paired tests (``--paired-bs``, ``--paired-ar`` and their counts)."""
    ar = flag.startswith("--paired-ar")
    if has("--test"):  # zheval compare
        if ar:
            return f"{head}: zheval {command}'s is --test ar" + (" --resamples N" if flag.endswith("-n") else
                                                                 " (--resamples N trials)")
        return (f"{head}: zheval {command}'s paired bootstrap is --test bootstrap (the default)"
                + (", with --bootstrap N resamples" if has("--bootstrap") else ""))
    where = "zheval bleu and zheval chrf take it; zheval compare tests systems with --test bootstrap | ar"
    if has("--input") and boot:  # zheval rouge: the paired bootstrap, always
        return (f"{head}; zheval {command} has no such option: several -i systems are tested against the first "
                f"with a paired bootstrap{boot}" + (f", never approximate randomisation ({where})" if ar else ""))
    return f"{head}; zheval {command} has no paired test option: {where}"


class ZhevalGroup(TyperGroup):
    """The ``zheval`` command group: a command's arguments are checked for sacrebleu's flags
    (`sacrebleu_flag_message`) before click parses them; one found is ``zheval: error: …``, exit code 2."""

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            options = [p for p in cmd.params if getattr(p, "param_type_name", "") == "option"]
            own = [o for p in options for o in (*p.opts, *p.secondary_opts)]
            valued = [o for p in options if not p.is_flag and not p.count for o in p.opts]
            message = sacrebleu_flag_message(name, list(rest), own, valued)
            if message is not None:
                from .options import echo

                echo(f"zheval: error: {message}", err=True)
                ctx.exit(2)
        return name, cmd, rest
