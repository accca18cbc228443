"""The ``zheval`` command line (placeholder until the 小黄鸭 pipeline lands: ``demo`` shows tokenisation)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``zheval`` console script."""
    argv = sys.argv[1:] if argv is None else argv
    from .tokenizers import get_tokenizer

    if argv[:1] != ["demo"]:
        print("usage: zheval demo", file=sys.stderr)
        sys.exit(2)
    text = "请打开小黄鸭APP查快递柜取件码！"
    for name in ("char", "jieba"):
        tok = get_tokenizer(name)
        print(f"{name:6s} {tok.signature():40s} {tok(text)}")
