"""``zheval judge``: rate every item of a records file with an LLM judge through an OpenAI-compatible endpoint.

::

    zheval judge FILE --base-url http://HOST:PORT/v1 --model NAME [--api-key SECRET | $OPENAI_API_KEY] [--rubric FILE.json]
                 [--pred-field F] [--ref-field F ...] [--id-field F] [--source-field F]
                 [--concurrency N] [--timeout S] [--max-retries N] [--answer-retries N] [--seed S]
                 [--cache-dir PATH] [--no-cache] [--output FILE.jsonl] [--format table|json]
    zheval judge A.jsonl --versus B.jsonl --base-url http://HOST:PORT/v1 --model NAME ...   # pairwise, both orders

``FILE`` is a records file (JSONL, CSV, TSV or Parquet with its references: the fields of ``zheval score`` without
``--data``, [`zheval.adapters.records.read_records`][]); ``--source-field`` names the field with the source text
or question the judge also sees. ``--base-url`` and ``--model`` are the ``openai`` client's own names (Ollama:
``http://127.0.0.1:11434/v1``; vLLM: ``http://127.0.0.1:8000/v1``). The ratings are
[`zheval.compute.judge.compute_judge`][]'s: temperature 0, a seed, strict JSON answers, retries, a cache on disk.

Printed: the mean of every criterion over the judged items, how many items have no valid rating (each listed with
its id, the kind of failure and the judge's answer), the requests, retries, cached answers, tokens and time, the
signature. Everything from the data or the model goes through `zheval.cli.options.echo` (escaped).
``--output`` writes one JSON line per item (``{"id", "prediction_sha256", "references_sha256", "source_sha256",
<criteria>..., "reason", "failure"}``, model text exact; the digests of the prediction, the references and the
source text rated, ``source_sha256`` null without ``--source-field``), atomically -- a ratings file for
``zheval agree``, which checks the digests.

``--versus B`` compares two systems item by item instead ([`zheval.compute.judge.judge_pairwise`][]): ``B`` must
hold ``FILE``'s items (`versus_order`: ``zheval compare``'s check -- same ids and references, or the same references
row by row without ids -- the same ``domain`` when either file has one, and the same ``--source-field`` text;
each difference an error naming ``file:line``), every
item is asked in both orders (A first, then B first), and the printout gives A's wins, B's wins, ties, the items whose two orders disagree (position bias, counted
as ties) and A's win rate.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import List, Optional

from ..text.terminal import terminal_json
from .commands import app
from .options import UserError, echo, run_command, seed_bound
from .params import option, takes

__all__ = ["judge", "read_sources", "render_judge", "render_pairwise", "ratings_lines", "check_base_url",
           "check_endpoint", "none_rated", "judge_cache_dir",
           "check_rubric_source", "versus_order"]

_OPTIONS = {
    "records": option(Path, "ARGUMENT", default=..., metavar="FILE", help="records file: JSONL, CSV, TSV or Parquet "
                      "with predictions and references"),
    "base_url": option(str, "--base-url", default=..., help="the OpenAI-compatible endpoint, e.g. "
                       "http://127.0.0.1:11434/v1 (Ollama)"),
    "judge_model": option(str, "--model", default=..., help="the model name the endpoint serves"),
    "api_key": option(Optional[str], "--api-key", help="the endpoint's key  [default: $OPENAI_API_KEY, else "
                      "'unused']", show_default=False),
    "rubric": option(Optional[Path], "--rubric", help="a rubric JSON file  [default: the Chinese rubric: overall, "
                     "faithful, informative, fluent, 1-5]", show_default=False),
    "pred_field": option(Optional[str], "--pred-field", help="the prediction's field", show_default=False),
    "ref_field": option(Optional[List[str]], "--ref-field", help="the reference field(s)", show_default=False),
    "id_field": option(Optional[str], "--id-field", help="the item id's field  [default: id when present]",
                       show_default=False),
    "source_field": option(Optional[str], "--source-field", help="a field with the source text or question the judge "
                           "also sees", show_default=False),
    "concurrency": option(int, "--concurrency", default=4, min=1, help="requests in flight at once"),
    "timeout": option(float, "--timeout", default=60.0, min=0.001, help="seconds per request"),
    "max_retries": option(int, "--max-retries", default=4, min=0, help="retries after 429/5xx/timeouts/dropped "
                          "connections"),
    "answer_retries": option(int, "--answer-retries", default=2, min=0, help="new attempts after an answer that is "
                             "not a valid rating"),
    "judge_seed": option(int, "--seed", default=12345, callback=seed_bound, help="the request's seed (0 to "
                         "4294967295)"),
    "cache_dir": option(Optional[Path], "--cache-dir", help="answer cache  [default: ~/.cache/zheval/judge]",
                        show_default=False),
    "no_cache": option(bool, "--no-cache", default=False, help="neither read nor write the answer cache"),
    "judge_output": option(Optional[Path], "--output", "-o", help="write every item's rating to FILE (JSON Lines)"),
    "judge_format": option(str, "--format", "-f", default="table", help="table | json"),
    "versus": option(Optional[Path], "--versus", help="a second system's records file: compare the two pairwise "
                     "(both orders asked) instead of rating", show_default=False),
}


def read_sources(path: Path, field: str, n: int) -> list:
    """The ``field`` of every row of a records file, in file order: every row's a string with a character other
    than spaces (issue 35: a row without it, or with null or ``""``, was sent with no source and no word said).

    Raises:
        UserError: the field is in no row; a row without it, with null, an empty string or only spaces, or a value
            that is not a string (naming ``file:line`` and the count).
    """
    from ..io.rows import read_rows

    rows = read_rows(path, what="predictions").rows
    if len(rows) != n or not any(field in row for _, row in rows):
        raise UserError(f"--source-field {field!r}: no such field in {path}")
    out, bad = [], []
    for line, row in rows:
        value = row.get(field)
        if value is not None and not isinstance(value, str):
            raise UserError(f"{path}:{line}: {field} must be a string, got {type(value).__name__}")
        if value is None or not value.strip():
            bad.append((line, "no such field" if field not in row else "null" if value is None else
                        f"{value!r}, empty"))
        out.append(value)
    if bad:
        line, what = bad[0]
        raise UserError(f"{path}:{line}: --source-field {field!r}: {what} ({len(bad)} of {n} row(s) without a source "
                        "text); every item needs its source, or leave out --source-field")
    return out


def ratings_lines(result: dict, ids: list, predictions: list, references: Optional[list] = None,
                  sources: Optional[list] = None) -> str:
    """One JSON line per item: ``{"id", "prediction_sha256", "references_sha256", "source_sha256", <criterion>:
    int | null, ..., "reason", "failure"}`` (`zheval.compute.judge_rubric.rating_row`): the digests of the item's
    prediction, references and source text (``predictions``, ``references``, ``sources``, in item order; ``None``
    where not given), so that ``zheval agree --judge-ratings`` refuses the file beside other predictions (issue 35
    F3), edited references or other source texts."""
    from ..compute.judge_rubric import rating_row
    from ..text.terminal import text_digest, texts_digest

    failures = {f["item"]: f for f in result["failures"]}
    lines = []
    for i, item_id in enumerate(ids):
        digests = (text_digest(predictions[i]), None if references is None else texts_digest(references[i]),
                   None if sources is None else text_digest(sources[i]))
        row = rating_row(item_id, digests, {c: result["item_scores"][c][i] for c in result["criteria"]},
                         result["reasons"][i], failures.get(i))
        lines.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def render_judge(result: dict, ids: list) -> str:
    """The terminal summary (module docstring); the caller prints it through ``echo``."""
    low, high = result["scale"]
    lines = [f"zheval judge: {result['judged']} of {len(ids)} items rated ({low}-{high})"]
    for c in result["criteria"]:
        mean = result[c]
        lines.append(f"  {c:<12} {'–' if mean is None else format(mean, '.3f')}")
    u = result["usage"]
    lines += ["", f"requests {u['requests']} (retried {u['retries']}, answers asked again {u['answer_retries']}), "
                  f"cached {u['cached']}, tokens {u['prompt_tokens']} + {u['completion_tokens']}, "
                  f"{u['seconds']:.1f} s"]
    if result["failures"]:
        lines += ["", f"no valid rating for {result['failed']} item(s) (left out of the means, never guessed):"]
        for f in result["failures"]:
            answer = "" if f["answer"] is None else f"; answer: {f['answer'][:200]!s}"
            lines.append(f"  {ids[f['item']]}: {f['kind']} ({f['detail']}){answer}")
    lines += ["", f"signature: {result['signature']}"]
    return "\n".join(lines) + "\n"


def render_pairwise(result: dict, ids: list, names: tuple) -> str:
    """The terminal summary of a pairwise comparison; the caller prints it through ``echo``."""
    a, b = names
    rate = result["win_rate_a"]
    lines = [f"zheval judge: {a} vs {b} on {result['judged']} of {len(ids)} items (both orders asked)",
             f"  {a} wins {result['wins_a']}, {b} wins {result['wins_b']}, ties {result['ties']} (of which "
             f"{result['inconsistent']} items where the two orders disagree: position bias)",
             f"  win rate of {a}: {'–' if rate is None else format(rate, '.3f')} (ties count half)"]
    u = result["usage"]
    lines += ["", f"requests {u['requests']} (retried {u['retries']}), cached {u['cached']}, tokens "
                  f"{u['prompt_tokens']} + {u['completion_tokens']}, {u['seconds']:.1f} s"]
    if result["failures"]:
        lines += ["", f"no valid answer for {result['failed']} item(s):"]
        lines += [f"  {ids[f['item']]} (order {f['order']}): {f['kind']} ({f['detail']})" for f in result["failures"]]
    lines += ["", f"signature: {result['signature']}"]
    return "\n".join(lines) + "\n"


def versus_order(o, records, other) -> list:
    """For ``judge A --versus B``: the row of ``other`` (B) holding each item of ``records`` (A), after the check
    of ``zheval compare`` (`zheval.adapters.records_compare.same_items`: the same ids and references, or the same
    references row by row when neither file has ids; an id field in one file only said so), the same ``domain``
    when either file has that field (`_same_domain`), and, with ``--source-field``, the same source text in both
    files (issue 35: B's items were ignored or paired by line).

    Raises:
        RecordsFormatError, UserError: each difference named ``file:line``."""
    from ..adapters.records_compare import same_items

    same_items(records, other)
    where = {rid: j for j, rid in enumerate(other.ids)}
    order = [where[i] for i in records.ids] if records.fields.get("id") else list(range(len(records)))
    _same_domain(o, records, other, order)
    if o.source_field:
        mine = read_sources(o.records, o.source_field, len(records))
        theirs = read_sources(o.versus, o.source_field, len(other))
        diff = [(k, j) for k, j in enumerate(order) if mine[k] != theirs[j]]
        if diff:
            k, j = diff[0]
            raise UserError(f"{o.versus}:{other.lines[j]}: --source-field {o.source_field!r} is {theirs[j]!r} but "
                            f"{o.records}:{records.lines[k]} has {mine[k]!r} ({len(diff)} item(s) differ): the "
                            "systems must be compared on the same items")
    return order


def _same_domain(o, records, other, order, field: str = "domain") -> None:
    """Refuse, naming both ``file:line``, items of A and B (paired by ``order``) whose ``domain`` differs (a row
    without the field: null) when either file has the field: the same id or line in another domain is another item
    (``zheval compare --group-field domain`` notes such a difference; a pairwise comparison needs the same items)."""
    from ..io.rows import read_rows

    mine = dict(read_rows(o.records, what="predictions").rows)
    theirs = dict(read_rows(o.versus, what="predictions").rows)
    if not any(field in row for row in (*mine.values(), *theirs.values())):
        return
    diff = [(k, j) for k, j in enumerate(order)
            if mine[records.lines[k]].get(field) != theirs[other.lines[j]].get(field)]
    if diff:
        k, j = diff[0]
        a, b = mine[records.lines[k]].get(field), theirs[other.lines[j]].get(field)
        raise UserError(f"{o.versus}:{other.lines[j]}: {field} is {'null' if b is None else repr(b)} but "
                        f"{o.records}:{records.lines[k]} has {'null' if a is None else repr(a)} ({len(diff)} item(s) "
                        "differ): the systems must be compared on the same items")


def _run_pairwise(o, records, api_key) -> None:
    from ..adapters.records import read_records
    from ..compute.judge import judge_pairwise

    other = read_records(o.versus, pred_field=o.pred_field, ref_field=o.ref_field, id_field=o.id_field)
    order = versus_order(o, records, other)
    sources = read_sources(o.records, o.source_field, len(records)) if o.source_field else None
    result = judge_pairwise(records.predictions, [other.predictions[j] for j in order], records.references,
                            base_url=o.base_url, model=o.judge_model, sources=sources, api_key=api_key,
                            seed=o.judge_seed, concurrency=o.concurrency, timeout=o.timeout,
                            max_retries=o.max_retries, answer_retries=o.answer_retries,
                            cache_dir=None if o.cache_dir is None else str(o.cache_dir), use_cache=not o.no_cache)
    if o.judge_format == "json":  # each item carries its id, as a rating's row does
        items = [{"id": i, **item} for i, item in zip(records.ids, result["items"])]
        echo(terminal_json({"ids": list(records.ids), **result, "items": items}, indent=1) + "\n", nl=False)
    else:
        echo(render_pairwise(result, list(records.ids), (str(o.records), str(o.versus))), nl=False)
    none_rated(result, len(records), "compared")


def _run(o) -> None:
    from ..adapters.extras import require_extra
    from ..adapters.files import atomic_write
    from ..adapters.records import read_records
    from ..compute.judge import compute_judge
    from .files import check_jsonl_output, check_output_dir, check_paths, distinct_inputs

    require_extra("openai", extra="judge", purpose="zheval judge")
    api_key = check_endpoint(o.base_url, o.judge_model, o.api_key)
    if o.judge_format not in ("table", "json"):
        raise UserError(f"--format must be table or json, got {o.judge_format!r}")
    if o.no_cache and o.cache_dir is not None:
        raise UserError(f"--cache-dir {o.cache_dir} with --no-cache: the cache is neither read nor written, so "
                        "--cache-dir would change nothing; give one of them")
    check_output_dir(o.judge_output)
    check_paths({"FILE": o.records, "--versus": o.versus, "--rubric": o.rubric}, {"--output": o.judge_output},
                {"--cache-dir": judge_cache_dir(o.cache_dir, not o.no_cache)})
    check_jsonl_output("--output", o.judge_output, "judge")
    distinct_inputs([("FILE", o.records), ("--versus", o.versus)])  # a.jsonl --versus a.jsonl: one system twice
    records = read_records(o.records, pred_field=o.pred_field, ref_field=o.ref_field, id_field=o.id_field)
    if o.versus is not None:
        if o.judge_output is not None or o.rubric is not None:
            raise UserError("--versus compares two systems: --output and --rubric belong to rating")
        return _run_pairwise(o, records, api_key)
    check_rubric_source(o.rubric, o.source_field)
    sources = read_sources(o.records, o.source_field, len(records)) if o.source_field else None
    result = compute_judge(records.predictions, records.references, base_url=o.base_url, model=o.judge_model,
                           sources=sources, api_key=api_key, rubric=None if o.rubric is None else str(o.rubric),
                           seed=o.judge_seed, concurrency=o.concurrency, timeout=o.timeout,
                           max_retries=o.max_retries, answer_retries=o.answer_retries,
                           cache_dir=None if o.cache_dir is None else str(o.cache_dir), use_cache=not o.no_cache)
    if o.judge_output is not None:
        atomic_write(o.judge_output, ratings_lines(result, list(records.ids), list(records.predictions),
                                                   list(records.references), sources))
        echo(f"wrote {o.judge_output}", err=True)
    if o.judge_format == "json":
        echo(terminal_json({"ids": list(records.ids), **result}, indent=1) + "\n", nl=False)
    else:
        echo(render_judge(result, list(records.ids)), nl=False)
    none_rated(result, len(records), "rated")


def check_rubric_source(rubric, source_field) -> None:
    """Refuse, before any request, a ``--rubric`` whose template asks for ``{source}`` without ``--source-field``
    (sent with an empty source) and ``--source-field`` with a template without ``{source}`` (no effect)
    (`zheval.compute.judge_rubric.source_problem`; the default template fits both)."""
    from ..compute.judge_rubric import default_rubric, read_rubric, source_problem

    why = source_problem(default_rubric() if rubric is None else read_rubric(str(rubric)), source_field is not None)
    if why is not None:
        raise UserError(f"--rubric {rubric}: {why}: " + ("give --source-field" if source_field is None else
                                                         f"leave out --source-field {source_field!r}"))


def judge_cache_dir(given, used: bool = True):
    """The judge's answer-cache directory a command reads and writes (``given``: ``--cache-dir``/
    ``--judge-cache-dir``, else the default of `zheval.compute.judge_cache.default_cache_dir`), for `check_paths`'
    ``dirs``; ``None`` when the cache is not used."""
    if not used:
        return None
    from ..compute.judge_cache import default_cache_dir

    return given if given is not None else default_cache_dir()


def check_base_url(url: str, flag: str) -> None:
    """Raise `UserError` naming ``flag`` when ``url`` is not ``http(s)://host…``
    ([`base_url_problem`][zheval.compute.judge.base_url_problem]) or has spaces around it, before any file is read
    or request sent."""
    from ..compute.judge import base_url_problem

    if isinstance(url, str) and url.strip() and url != url.strip():
        raise UserError(f"{flag} {url!r} has spaces around it: the URL is used exactly, so it is not "
                        f"{url.strip()!r}; give it without them")
    why = base_url_problem(url)
    if why is not None:
        raise UserError(f"{flag} {url!r} is not an http:// or https:// URL with a host: {why}; e.g. "
                        "http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM)")


def check_endpoint(url: str, model: str, api_key, flags=("--base-url", "--model", "--api-key")) -> "str | None":
    """Check a judge endpoint's options before any file is read or request sent (issue 35), each error naming its
    option as typed (``flags``: the URL's, the model's and the key's options): the URL (`check_base_url`), the model
    name (empty, or with spaces around it: sent exactly, so ``' m '`` is not the model ``m``) and the key -- the
    option's, else ``$OPENAI_API_KEY`` -- empty, only spaces or with spaces around it
    (`zheval.compute.judge.api_key_problem`; the ``openai`` client raised its own "Missing
    credentials" for an empty one, as a traceback). The key is never shown.

    Returns:
        The key to send: the option's, else ``$OPENAI_API_KEY``'s, else ``None`` (the library's ``"unused"``).
    """
    from ..compute.judge import api_key_problem

    url_flag, model_flag, key_flag = flags
    check_base_url(url, url_flag)
    if not model.strip():
        raise UserError(f"{model_flag} is {'empty' if not model else f'only spaces ({model!r})'}: give the model "
                        "name the endpoint serves")
    if model != model.strip():
        raise UserError(f"{model_flag} {model!r} has spaces around it: the model name is sent exactly, so it is not "
                        f"the model {model.strip()!r}; give it without them")
    if api_key is not None:
        why = api_key_problem(api_key)
        if why is not None:
            raise UserError(f"{key_flag} {why}: give the endpoint's key, or leave out {key_flag} (then "
                            "$OPENAI_API_KEY, else the key 'unused', which a local server accepts)")
        return api_key
    env = os.environ.get("OPENAI_API_KEY")
    why = None if env is None else api_key_problem(env)
    if why is not None:
        raise UserError(f"$OPENAI_API_KEY is set but {why.removeprefix('is ')}: set it to the endpoint's key or unset "
                        f"it (a local server takes any key), or give {key_flag} KEY")
    return env


def none_rated(result: dict, n: int, what: str) -> None:
    """After the summary (and ``--output``, which lists every failure) are written: when none of ``n`` > 0 items got
    a valid answer, ``zheval: error: ...`` with the count of each kind of failure and exit code 1 (issue 35 F14: a
    run where every request failed exited 0)."""
    import typer
    from collections import Counter

    if n == 0 or result["judged"] > 0:
        return
    kinds = Counter(f["kind"] for f in result["failures"])
    echo(f"zheval: error: no item was {what}: {n} of {n} item(s) without a valid answer (failures: "
         + ", ".join(f"{k} {c}" for k, c in kinds.most_common()) + "; listed above)", err=True)
    raise typer.Exit(code=1)


@app.command()
@takes(*_OPTIONS, **_OPTIONS)
def judge(o) -> None:
    """Rate every item of a records file with an LLM judge through an OpenAI-compatible endpoint (Ollama, vLLM,
    llama.cpp, OpenAI): overall / faithful / informative / fluent 1-5 and a reason, strict JSON, retries, a cache."""
    run_command(lambda: _run(o))
