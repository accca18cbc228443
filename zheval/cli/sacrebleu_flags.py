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
* ``-lc`` / ``--lowercase``: the ``lower`` normalisation step.

The check runs for every command (`ZhevalGroup.resolve_command`), before any file is read.
"""

from __future__ import annotations

from typing import Iterable, List, Optional

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
    ``valued``: its options that take a value (the argument after one is its value: ``--id -lc`` is an id)."""
    own, valued = set(own), set(valued)
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
    return None


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
