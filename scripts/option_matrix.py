#!/usr/bin/env python
"""Record the outputs of a broad zheval option matrix on the shared real data, and compare two recordings.

Usage (from the repository root; the script puts this checkout's ``zheval`` first on ``sys.path`` itself and
refuses to run if another copy is imported)::

    python scripts/option_matrix.py record OUT.json [--data-dir ../shared/data] [--only GLOB ...] [--quiet]
    python scripts/option_matrix.py compare OLD.json NEW.json [--ignore-error-messages]
    python scripts/option_matrix.py list [--only GLOB ...]

Why: issue 14 redesigns the code layout with every number unchanged. ``record`` is run at the old commit and at
the new one; ``compare`` must then report every configuration identical (``==`` on the canonical JSON of each
output, no tolerance). ``compare`` prints the number of identical outputs, every difference (config id, the first
differing key path, both values), missing and extra configurations, and exits 1 if anything differs.

Entry points are looked up through :data:`ENTRY_POINTS`: the public names of the new layout first
(``zheval.compute_rouge``), then the current module paths (``zheval.compute.rouge.compute_rouge``). ``record``
prints which one each name resolved to. A name that resolves nowhere makes every configuration using it an
``{"error": "EntryPointNotFound", ...}`` output (a difference, not a crash); extend the candidate lists if a name
moves. The evaluate modules are loaded from ``<repo>/metrics/chinese_rouge`` and ``chinese_bleu``; the CLI runs as
``python -m zheval ...`` in a subprocess.

Families of configurations (the id's first parts; each id is ``family/.../key=value/...``, stable and readable):

* ``tokens/<set>/tok=...``: ``get_tokenizer`` for every tokenizer and option: ``normalize()`` and ``tokenize()`` of
  80 texts of the set plus tricky texts from all the data (decimals, Latin runs, full-width forms, ranges, ...),
  and ``signature()``.
* ``rouge/lib/...``: ``compute_rouge``: every tokenizer (``char`` with/without terms, ``punct="drop"``, ``jieba``
  with/without HMM, terms, a dictionary; ``none`` on pre-segmented text; a lambda, ``str.split``, an object with
  ``.tokenize``, a tokenizer instance; ``normalize`` False/True/step strings/lists; ``t2s``), every ROUGE type
  alone and together, both sentence splits, every ``multi_ref``, ``beta``, ``rouge_w_weight``, aggregation,
  precision/recall, bootstrap (seeds, confidence), the presets, crosscheck, and the errors (``rouge/lib/errors``).
* ``bleu/lib/...``: ``compute_bleu``: ``max_order`` 1-5, every smoothing method with and without ``smooth_value``,
  every ``bp_ref_length``, both levels, ``effective_order``, ``weights``, every tokenizer and the preset
  tokenizers, the presets, crosscheck, bootstrap, errors; ``bleu/stats``: ``bleu_stats`` shards +
  ``result_from_stats``.
* ``score/...``: ``zheval.score`` with both metrics and each alone over tokenizer x sentence split (the
  combinations that decide whether BLEU counts on ROUGE's tokens), BLEU orders vs ROUGE-N types, presets,
  crosscheck, bootstrap and the other options.
* ``evaluate/chinese_rouge|chinese_bleu|combine/...``: the evaluate modules: ``compute`` with all the data,
  ``add_batch`` in several batches then ``compute``, ``add`` per item, cache files, an error followed by a
  successful ``compute``, errors; ``evaluate.combine`` of both.
* ``trainer/...``: ``build_compute_metrics`` with an offline char-level ``tokenizers`` WordLevel tokenizer over the
  data's characters (every other prediction's characters only, so some predicted characters are ``<unk>``): ids
  padded with ``-100``, EvalPrediction / tuple / torch / logits inputs, causal LM, empty labels, evaluate modules as
  metrics, ``batch_eval_metrics`` calls with ``compute_result=False/True``. Output: the returned dict,
  ``hook.results``, a hash and the first two of the decoded texts.
* ``duck/lib/...``: the 小黄鸭 library adapter (``load_duck``, ``clean_duck``, ``read_predictions``,
  ``evaluate_predictions``, ``human_ceiling``, ``compare_predictions``); ``cli/...``: ``python -m zheval score``,
  ``ceiling``, ``compare`` (``--format json``), ``demo``, ``clean`` and ``score -o`` (the written files are read
  back), one markdown and one table rendering, error exits.

Item sets (built from ``--data-dir``, default ``../shared/data`` relative to the repository root; never copied
into the repository; the script refuses to run without the three files). Each set is capped at a few hundred
items so that the whole matrix runs in a few minutes on two cores:

* ``woz_groups``: CrossWOZ same-query groups, leave-one-out (each reply in turn is the prediction, the group's
  other 2-4 replies its ragged references; ``crosswoz_items`` of tests/helpers), all 85 groups (342 items).
* ``woz_single``: CrossWOZ single turns. A user turn is no prediction of a reply, so the prediction is the
  *next* row's system reply and the reference the row's own reply, as a plain ``str`` (rows are consecutive turns,
  mostly of the same dialogue, so they share place names, prices and phrasing: a realistic partial overlap).
  300 items.
* ``woz_mixed``: ``woz_groups`` with every even item's references replaced by its first reference as a plain
  ``str`` (``str`` and ``list`` references mixed in one call).
* ``woz_empty_pred``: ``woz_groups`` with every 10th prediction ``""`` (a model that produced nothing).
* ``woz_preseg``: ``woz_groups`` pre-segmented by jieba itself (a private ``jieba.Tokenizer``, HMM off, words
  joined by one space), for the ``none`` tokenizer and whitespace-splitting callables.
* ``woz_trad``: ``woz_groups`` with the predictions converted to Traditional Chinese by OpenCC ``s2t`` (the
  references stay Simplified), for ``t2s=True``.
* ``csl_lead``: CSL, the abstract's first sentence (cut at ``。！？!?；;`` or a ``.`` not followed by a letter
  or digit) as the prediction, the title as the one reference. 300 items.
* ``csl_next``: CSL, the next row's title vs the row's title (low overlap: smoothing and brevity matter). 300.
* ``csl_lsum``: multi-line texts for ROUGE-Lsum: prediction = the abstract's sentences 1-2 joined by ``"\\n"``,
  references = [sentences 2-4 joined by ``"\\n"``, the title]; rows with at least 3 sentences, at most 100.
* ``csl_lsum_preseg``: ``csl_lsum`` pre-segmented by jieba line by line (the newlines kept).

The 小黄鸭 files for the CLI and the library adapter are written to the run's temporary directory from the
CrossWOZ groups. The loader needs exactly the keys ``id, query, responses, domain, difficulty``, a non-empty
``responses`` list and ``domain``/``difficulty`` from its label sets or ``null``; the groups already have those
keys (labels ``null``). Minimal adaptation, so that the per-group code paths run: ``domain`` = ``"生活咨询"`` (the
only plausible label, data README) except for thanks/bye queries (containing 谢, 再见 or 拜), which stay ``null``;
``difficulty`` = 易/中/难 for groups of 3/4/5 replies (a synthetic label, for grouping only). ``duck_test.jsonl``
holds every group with ``responses[1:]`` (2-4 references); system A predicts ``responses[0]``, system B only the
first clause of it (cut after the first ``，。！？,!?``); ``duck_full.jsonl`` holds all replies (for ``ceiling``).

Canonical output. Each configuration's output is the exact result made JSON-safe: dict keys as strings (written
sorted), tuples as lists, numpy scalars and arrays as Python numbers and lists, floats kept exactly (``json``
writes ``repr``, which round-trips; ``NaN``/``Infinity`` as JSON's extensions; ``1`` and ``1.0`` stay distinct),
signature strings as they are, 小黄鸭 ``Report`` objects via ``to_dict()``, datasets as their rows. An exception is
an output too: ``{"error": type name, "message": str}``. Warnings logged by ``zheval`` loggers during a
configuration are added under ``"_log"``. For the CLI: ``{"exit_code", "stdout"}`` (parsed JSON when it is JSON)
plus ``"stderr"`` = the lines starting with ``zheval:`` (error/warning lines; progress bars and "wrote FILE" left
out) and the files it wrote. The CLI configurations run one at a time in a worker thread while the in-process
ones run (the outputs do not depend on the order).

Normalised before recording (the only things that vary legitimately between runs): the run's temporary directory
(``<TMP>``), the repository path (``<REPO>``) and the data directory (``<DATA>``) inside any string (file paths in
messages and report titles; the CLI also runs with relative file names inside ``<TMP>``), and memory addresses
``0x...`` in reprs (``0x?``). Nothing else: no output of zheval carries a timing or a git hash (checked: the
signature ends in ``zheval:<version>``, and the version is ``zheval.__version__``; the tokenizer fingerprint,
which holds ``id()`` of a user callable, is never part of an output).

``compare --ignore-error-messages`` treats two errors of the same type as identical (the redesign unifies error
wordings); the differences it ignores are still counted and listed as such. Without it they are differences.

The code is in ``scripts/option_matrix_parts/``, one module per job (its ``__init__`` lists them); this file is the
command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:  # the parts, also when this file is imported by path
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from option_matrix_parts.calls import DEFAULT_DATA_DIR  # noqa: E402
from option_matrix_parts.comparing import compare  # noqa: E402
from option_matrix_parts.recording import build_configs, record, selected  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="run the matrix and write {config_id: canonical output} as JSON")
    r.add_argument("out", type=Path)
    r.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                   help=f"the shared real data (default {DEFAULT_DATA_DIR})")
    r.add_argument("--only", action="append", metavar="GLOB",
                   help="run only the config ids equal to GLOB or matching it as a glob (repeatable)")
    r.add_argument("--quiet", action="store_true", help="no per-configuration progress lines")
    c = sub.add_parser("compare", help="compare two recordings; exit 1 if any output differs")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--ignore-error-messages", action="store_true",
                   help="count two errors of the same type as identical (listed separately)")
    ls = sub.add_parser("list", help="print the config ids")
    ls.add_argument("--only", action="append", metavar="GLOB")
    args = ap.parse_args(argv)
    if args.cmd == "record":
        return record(args.out, args.data_dir, args.only, args.quiet)
    if args.cmd == "compare":
        return compare(args.old, args.new, args.ignore_error_messages)
    for c in selected(build_configs(), args.only):
        print(c.id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
