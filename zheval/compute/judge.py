"""An LLM judge through any OpenAI-compatible chat endpoint, as an options → config → items → result chain:
[`JudgeOptions`][zheval.compute.judge.JudgeOptions] (every option, one frozen definition), [`judge_config`][zheval.compute.judge.judge_config] (options checked once, the
rubric read, the client and the cache opened), [`judge_items`][zheval.compute.judge.judge_items] (one rating per item), [`judge_result`][zheval.compute.judge.judge_result]
(means per criterion, the failures by item, usage, the signature), [`compute_judge`][zheval.compute.judge.compute_judge]; and
[`judge_pairwise`][zheval.compute.judge.judge_pairwise] (two systems compared, both orders asked).

How an item is judged: the rubric's messages (`zheval.compute.judge_rubric`) are sent with temperature 0 (by
default), a seed and JSON mode; a request that fails with 429, 5xx, a timeout or a dropped connection is retried
with exponential backoff (``backoff`` seconds, doubled each time, at most 60; the server's ``Retry-After`` when it
gives one), at most ``max_retries`` times; an answer that is not one JSON object (each key once) with every criterion
an integer on the scale (an integer literal: ``4.0`` is not one) and a reason is asked again, at most
``answer_retries`` times. An item whose request or answer still
fails is **counted and listed** (``failures``: item, kind, detail, the last answer) with no score -- never dropped
silently, never given a guessed score; the means are over the judged items, with their count.

Valid answers are cached on disk by content (`zheval.compute.judge_cache`): a rerun sends nothing, an
interrupted run resumes. Model text (answers, reasons) is returned exactly; the command line escapes it
(`zheval.text.terminal.terminal_text`) and the HTML report's template engine escapes it there.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from ..results.signature import signature_number
from ..version import __version__
from ..io.text_lists import check_text_list
from .inputs import validate_inputs
from .judge_cache import AnswerCache, answer_key, default_cache_dir
from .judge_rubric import (BadAnswer, Rubric, default_rubric, pairwise_messages, pairwise_rubric, parse_preference,
                           parse_rating, rating_messages, read_rubric, criteria_problem,
                           source_problem, source_signature)
from .option_docs import documented, option_field, with_option_texts

__all__ = ["JudgeOptions", "JudgeConfig", "JudgeItems", "judge_config", "judge_items", "judge_result",
           "compute_judge", "judge_pairwise", "MAX_BACKOFF_SECONDS", "base_url_problem", "api_key_problem"]

#: The longest wait between two attempts of one request (seconds).
MAX_BACKOFF_SECONDS = 60.0


@documented
@dataclass(frozen=True)
class JudgeOptions:
    """Every option of an LLM-judge run; the keyword-only parameters of
    [`compute_judge`][zheval.compute.judge.compute_judge] are its fields (and those of
    [`judge_pairwise`][zheval.compute.judge.judge_pairwise], ``rubric`` excepted), with the same defaults. Checked
    when built ([`check`][zheval.compute.judge.JudgeOptions.check])."""

    base_url: str = option_field(doc="""
        The OpenAI-compatible endpoint, as the ``openai`` client's ``base_url``: ``http://127.0.0.1:11434/v1`` for
        Ollama, ``http://127.0.0.1:8000/v1`` for vLLM, ``http://127.0.0.1:8080/v1`` for llama.cpp's server.""")
    model: str = option_field(doc="""
        The model name the endpoint serves (``qwen2.5:7b`` on Ollama, ``Qwen/Qwen2.5-7B-Instruct`` on vLLM); part
        of the cache key and of the signature.""")
    api_key: Optional[str] = option_field(None, doc="""
        The key; ``None``: ``$OPENAI_API_KEY``, else ``"unused"`` (local servers ignore it). Sent exactly: an empty
        key, or one with spaces around it, is refused (`api_key_problem`; the
        ``openai`` client raised its own "Missing credentials" for an empty one), and so is a ``$OPENAI_API_KEY``
        set but empty. Never part of a cache key, a signature or a message.""")
    rubric: Union[None, str, Rubric] = option_field(None, doc="""
        ``None``: the default Chinese rubric (overall, faithful, informative, fluent on 1-5, with a reason); a
        rubric JSON file's path, or a `zheval.compute.judge_rubric.Rubric`.""")
    temperature: float = option_field(0.0, doc="""
        The sampling temperature sent with each request (a number >= 0; 0: the most repeatable answers).""")
    seed: Optional[int] = option_field(12345, doc="""
        The seed sent with each request (servers that honour it answer alike on a rerun); ``None``: not sent.""")
    json_mode: bool = option_field(True, doc="""
        Send ``response_format={"type": "json_object"}`` (servers honour it unevenly; every answer is checked
        either way).""")
    max_tokens: Optional[int] = option_field(512, doc="""
        The answer's token limit (an int >= 1); ``None``: the server's.""")
    concurrency: int = option_field(4, doc="""
        Requests in flight at once (an int >= 1).""")
    timeout: float = option_field(60.0, doc="""
        Seconds per request (a number > 0); a request that takes longer is retried as a failed one.""")
    max_retries: int = option_field(4, doc="""
        Retries of a request after a 429, a 5xx, a timeout or a dropped connection (an int >= 0), with exponential
        backoff.""")
    answer_retries: int = option_field(2, doc="""
        New attempts after an answer the rubric refuses (not one JSON object, a key given twice, a score that is
        not an integer literal or is off the scale, no reason; an int >= 0); an item still refused is counted and listed, never given a guessed score.""")
    backoff: float = option_field(1.0, doc="""
        The first wait before a retry, in seconds (a number >= 0), doubled at each retry up to
        `MAX_BACKOFF_SECONDS`; the server's ``Retry-After`` when it gives one.""")
    cache_dir: Optional[str] = option_field(None, doc="""
        The directory of the answer cache (valid answers by content: a rerun sends nothing, an interrupted run
        resumes); ``None`` is the default cache, `zheval.compute.judge_cache.default_cache_dir`
        (``$ZHEVAL_CACHE_DIR/judge``, else ``~/.cache/zheval/judge``), not no cache (``use_cache=False``: none).""")
    use_cache: bool = option_field(True, doc="""
        Read and write the answer cache.""")

    def __post_init__(self) -> None:
        self.check()  # as zheval.compute.options: an options object is checked when it is built

    def check(self) -> None:
        """Raise on a bad value.

        Raises:
            ValueError: naming the option and the value (an empty base_url or model, a base_url that is not
                ``http(s)://host…`` (`base_url_problem`: spaces around it included), a model with spaces around it,
                an api_key that is empty or has spaces around it (`api_key_problem`; the key is never shown),
                counts < 0, concurrency < 1, a non-positive timeout, a negative temperature or backoff).
            TypeError: a flag that is not a bool, a seed that is not an int.
        """
        for name in ("base_url", "model"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name} must be a non-empty string, got {value!r}")
        if self.model != self.model.strip():  # sent exactly: ' m ' is not the model 'm' (issue 35)
            raise ValueError(f"model {self.model!r} has spaces around it: the name is sent exactly, so it is not the "
                             f"model {self.model.strip()!r}")
        key_problem = None if self.api_key is None else api_key_problem(self.api_key)
        if key_problem is not None:
            raise ValueError(f"api_key {key_problem}: give the endpoint's key as it is, or None ($OPENAI_API_KEY, "
                             "else 'unused')")
        why = base_url_problem(self.base_url)
        if why is not None:
            raise ValueError(f"base_url must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:11434/v1; "
                             f"got {self.base_url!r}: {why}")
        for name, low in (("concurrency", 1), ("max_retries", 0), ("answer_retries", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
        for name in ("json_mode", "use_cache"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        for name, positive in (("timeout", True), ("temperature", False), ("backoff", False)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (positive and value == 0):
                raise ValueError(f"{name} must be a number {'>' if positive else '>='} 0, got {value!r}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)):
            raise TypeError(f"seed must be an int or None, got {self.seed!r}")
        if self.max_tokens is not None and (isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int)
                                            or self.max_tokens < 1):
            raise ValueError(f"max_tokens must be an int >= 1 or None, got {self.max_tokens!r}")


def base_url_problem(url) -> Optional[str]:
    """Why ``url`` cannot be a judge's ``base_url``, or ``None``: it must be ``http://`` or ``https://`` with a host
    (``http://127.0.0.1:11434/v1``). The ``openai`` client takes any text and fails only when it sends (issue 35 F14:
    ``ftp://x`` and ``127.0.0.1:18765/v1`` without a scheme gave "connection failed" for every item). Raises
    nothing."""
    from urllib.parse import urlsplit

    if not isinstance(url, str) or not url.strip():
        return "it is empty"
    if url != url.strip():  # the client would use it as it is (issue 35: spaces around --base-url passed silently)
        return f"it has spaces around it (the URL is used exactly; without them: {url.strip()!r})"
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError as exc:
        return f"it is not a URL ({exc})"
    if parts.scheme.lower() not in ("http", "https"):
        return (f"it does not start with http:// or https:// (the scheme is {parts.scheme!r})" if parts.scheme and
                parts.netloc else "it does not start with http:// or https://")
    if not host:
        return "it names no host"
    return None


def api_key_problem(key) -> Optional[str]:
    """Why ``key`` cannot be sent as the endpoint's key, or ``None``: ``"is not a string"``, ``"is empty"`` (the
    ``openai`` client takes ``""`` for no key and raises "Missing credentials"), ``"is only spaces"``, ``"has spaces
    around it"`` (a key is sent exactly; issue 35). The key itself is never part of the answer. Raises nothing."""
    if not isinstance(key, str):
        return f"is not a string (a {type(key).__name__})"
    if not key:
        return "is empty"
    if not key.strip():
        return "is only spaces"
    if key != key.strip():
        return "has spaces around it (a key is sent exactly)"
    return None


def _api_key(options: "JudgeOptions") -> str:
    """The key to send: ``options.api_key``, else ``$OPENAI_API_KEY``, else ``"unused"``; a ``$OPENAI_API_KEY`` set
    to an empty text (or one with spaces around it) is a ValueError, not taken for "no key"."""
    if options.api_key is not None:
        return options.api_key
    env = os.environ.get("OPENAI_API_KEY")
    if env is None:
        return "unused"
    why = api_key_problem(env)
    if why is not None:
        raise ValueError(f"$OPENAI_API_KEY is set but {why.removeprefix('is ')}: set it to the endpoint's key or unset "
                         "it (a local server takes any key), or give api_key")
    return env


@dataclass
class Usage:
    """What a run cost: ``requests`` sent (retries included), ``retries`` (request retries after 429/5xx/timeouts/
    dropped connections), ``answer_retries`` (new attempts after refused answers), ``cached`` (answers read from the
    cache), ``prompt_tokens``, ``completion_tokens``, ``seconds`` (wall time of the run)."""

    requests: int = 0
    retries: int = 0
    answer_retries: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    def as_dict(self) -> Dict[str, Any]:
        return dict(self.__dict__)

    def add(self, other: "Usage") -> None:
        for key, value in other.__dict__.items():
            setattr(self, key, getattr(self, key) + value)


@dataclass
class JudgeConfig:
    """The checked options, the rubric, the client and the cache ([`judge_config`][zheval.compute.judge.judge_config])."""

    options: JudgeOptions
    rubric: Rubric
    client: Any
    cache: Optional[AnswerCache]

    def close(self) -> None:
        """Close the answer cache (its database connection) and the client's connections."""
        if self.cache is not None:
            self.cache.close()
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

    def sleep(self, seconds: float) -> None:
        """Wait between two attempts of a request (the tests replace it to record the waits)."""
        time.sleep(seconds)

    def signature(self, n_items: int, pairwise: bool = False, sources=None) -> str:
        """``metric:judge|model:<name>|rubric:<name>.<sha12>|scale:1-5|src:none|temp:0|seed:S|json:yes|items:N|
        zheval:<v>`` (``:`` and ``|`` in a name are written ``%3A`` / ``%7C``); ``pairwise``:
        ``metric:judge-pairwise`` with the pairwise question's name and sha, no scale. ``src`` is what the messages
        hold beside the texts judged: `zheval.compute.judge_rubric.source_signature` (``none`` without sources,
        else a digest of the source texts: runs with other sources, or none, differ)."""
        o = self.options
        rubric = pairwise_rubric() if pairwise else self.rubric
        fields = [("metric", "judge-pairwise" if pairwise else "judge"), ("model", o.model),
                  ("rubric", f"{rubric.name}.{rubric.sha}")]
        fields += [] if pairwise else [("scale", f"{rubric.scale[0]}-{rubric.scale[1]}")]
        fields += [("src", source_signature(sources))]
        fields += [("temp", signature_number(o.temperature)),
                  ("seed", "none" if o.seed is None else o.seed), ("json", "yes" if o.json_mode else "no"),
                  ("items", n_items), ("zheval", __version__)]
        return "|".join(f"{k}:{str(v).replace(':', '%3A').replace('|', '%7C')}" for k, v in fields)


def _client_module():
    try:
        from . import judge_client
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "openai":
            raise ModuleNotFoundError('the LLM judge needs openai (the \'judge\' extra): pip install "zheval[judge]"',
                                      name="openai") from None
        raise
    return judge_client


def judge_config(options: JudgeOptions) -> JudgeConfig:
    """Check ``options``, read the rubric, open the client and the cache. Nothing is sent.

    Raises:
        ValueError: bad options ([`JudgeOptions.check`][zheval.compute.judge.JudgeOptions.check]), a
            ``$OPENAI_API_KEY`` set but empty or with spaces around it (without ``api_key``), a bad rubric file
            (`zheval.compute.judge_rubric.read_rubric`).
        ModuleNotFoundError: the ``judge`` extra is missing (one line).
    """
    options.check()
    rubric = options.rubric
    if rubric is None:
        rubric = default_rubric()
    elif isinstance(rubric, (str, os.PathLike)):
        rubric = read_rubric(os.fspath(rubric))
    elif not isinstance(rubric, Rubric):
        raise TypeError(f"rubric must be None, a file path or a Rubric, got {type(rubric).__name__}")
    elif criteria_problem(rubric.criteria) is not None:
        raise ValueError(f"rubric {rubric.name!r}: {criteria_problem(rubric.criteria)}")
    client = _client_module().make_client(base_url=options.base_url, api_key=_api_key(options),
                                          timeout=float(options.timeout))
    cache = None
    if options.use_cache:
        cache = AnswerCache(options.cache_dir if options.cache_dir is not None else default_cache_dir())
    return JudgeConfig(options=options, rubric=rubric, client=client, cache=cache)


def _request(config: JudgeConfig, messages, usage: Usage):
    """One answer, with the request retries; raises RequestFailed after the last."""
    chat = _client_module()
    o = config.options
    attempt = 0
    while True:
        usage.requests += 1
        try:
            return chat.chat(config.client, model=o.model, messages=messages, temperature=o.temperature,
                             seed=o.seed, json_mode=o.json_mode, max_tokens=o.max_tokens)
        except chat.RequestFailed as failed:
            if not failed.retryable or attempt >= o.max_retries:
                raise
            wait = failed.retry_after if failed.retry_after is not None else o.backoff * (2 ** attempt)
            attempt += 1
            usage.retries += 1
            config.sleep(min(MAX_BACKOFF_SECONDS, wait))


def _ask(config: JudgeConfig, messages, parse) -> Dict[str, Any]:
    """``{"value": parsed}`` or ``{"failure": {...}}`` for one request, with ``usage``; cache first."""
    o = config.options
    usage = Usage()
    key = answer_key(model=o.model, messages=messages, temperature=o.temperature, seed=o.seed,
                     json_mode=o.json_mode, max_tokens=o.max_tokens)
    stored = config.cache.get(key) if config.cache is not None else None
    if stored is not None:
        try:
            usage.cached += 1
            return {"value": parse(stored["content"]), "usage": usage}
        except BadAnswer:
            usage.cached -= 1  # stored under an older rule: ask again
    failed_class = _client_module().RequestFailed
    last = None
    for attempt in range(o.answer_retries + 1):
        if attempt:
            usage.answer_retries += 1
        try:
            answer = _request(config, messages, usage)
        except failed_class as failed:
            return {"failure": {"kind": failed.kind, "detail": str(failed), "answer": None,
                                "attempts": attempt + 1}, "usage": usage}
        usage.prompt_tokens += answer.prompt_tokens
        usage.completion_tokens += answer.completion_tokens
        try:
            value = parse(answer.content)
        except BadAnswer as bad:
            last = bad
            continue
        if config.cache is not None:
            config.cache.put(key, answer.__dict__)
        return {"value": value, "usage": usage}
    return {"failure": {"kind": last.kind, "detail": last.detail, "answer": last.answer,
                        "attempts": o.answer_retries + 1}, "usage": usage}


def _run_all(config: JudgeConfig, jobs: Sequence[Any], parse) -> List[Dict[str, Any]]:
    """Answers of every job's messages, in job order, ``concurrency`` at a time."""
    with ThreadPoolExecutor(max_workers=config.options.concurrency) as pool:
        return list(pool.map(lambda messages: _ask(config, messages, parse), jobs))


@dataclass
class JudgeItems:
    """Per-item ratings.

    Attributes:
        criteria: the criterion names. scores: ``(n_items, n_criteria)`` float64, NaN for an item with no valid
        rating. reasons: the judge's reason per item (``None`` when failed). failures: one dict per failed item
        (``item``, ``kind``, ``detail``, ``answer`` -- the last answer received, exactly -- ``attempts``).
        usage: `Usage`. sources: the source texts the messages held (``None``: none), for the signature's ``src``.
    """

    criteria: List[str]
    scores: np.ndarray
    reasons: List[Optional[str]]
    failures: List[Dict[str, Any]]
    usage: Usage
    sources: Optional[List[Optional[str]]] = None

    def __len__(self) -> int:
        return len(self.reasons)


def judge_items(predictions: Sequence[str], references: Sequence[Sequence[str]], config: JudgeConfig,
                sources: Optional[Sequence[Optional[str]]] = None) -> JudgeItems:
    """Rate every item (validated texts; ``sources``: the source text or question per item, or ``None``)."""
    why = source_problem(config.rubric, sources is not None)
    if why is not None:
        raise ValueError(f"{why}: {'give' if sources is None else 'leave out'} sources")
    start = time.perf_counter()
    jobs = [rating_messages(config.rubric, p, rs, None if sources is None else sources[i])
            for i, (p, rs) in enumerate(zip(predictions, references))]
    answers = _run_all(config, jobs, lambda text: parse_rating(text, config.rubric))
    criteria = list(config.rubric.criteria)
    scores = np.full((len(jobs), len(criteria)), np.nan)
    reasons: List[Optional[str]] = [None] * len(jobs)
    failures, usage = [], Usage()
    for i, got in enumerate(answers):
        usage.add(got["usage"])
        if "value" in got:
            scores[i] = [got["value"][c] for c in criteria]
            reasons[i] = got["value"]["reason"]
        else:
            failures.append({"item": i, **got["failure"]})
    usage.seconds = time.perf_counter() - start
    return JudgeItems(criteria, scores, reasons, failures, usage, None if sources is None else list(sources))


def judge_result(items: JudgeItems, config: JudgeConfig) -> Dict[str, Any]:
    """Means per criterion over the judged items (``math.fsum``; ``None`` when none was judged), per-item scores
    (``None`` where failed), reasons, failures by item, usage and the signature."""
    ok = ~np.isnan(items.scores).any(axis=1) if len(items) else np.zeros(0, dtype=bool)
    out: Dict[str, Any] = {}
    for k, name in enumerate(items.criteria):
        column = items.scores[ok, k]
        out[name] = math.fsum(column) / len(column) if len(column) else None
    out["item_scores"] = {name: [None if math.isnan(v) else int(v) for v in items.scores[:, k]]
                          for k, name in enumerate(items.criteria)}
    out["reasons"] = list(items.reasons)
    out["judged"] = int(ok.sum())
    out["failed"] = len(items.failures)
    out["failures"] = list(items.failures)
    out["criteria"] = list(items.criteria)
    out["scale"] = list(config.rubric.scale)
    out["usage"] = items.usage.as_dict()
    out["signature"] = config.signature(len(items), sources=items.sources)
    return out


def compute_judge(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    base_url: str,
    model: str,
    sources: Optional[Sequence[Optional[str]]] = None,
    api_key: Optional[str] = None,
    rubric: Union[None, str, Rubric] = None,
    temperature: float = 0.0,
    seed: Optional[int] = 12345,
    json_mode: bool = True,
    max_tokens: Optional[int] = 512,
    concurrency: int = 4,
    timeout: float = 60.0,
    max_retries: int = 4,
    answer_retries: int = 2,
    backoff: float = 1.0,
    cache_dir: Optional[str] = None,
    use_cache: bool = True,
) -> Dict[str, Any]:
    """Rate each prediction with an LLM judge (module docstring), scores on the rubric's integer scale (1-5 by
    default).

    Args:
        predictions: ``list[str]``.
        references: per item a ``str`` or a non-empty ``list[str]``.
        base_url: [`base_url`][zheval.compute.judge.JudgeOptions.base_url].
        model: [`model`][zheval.compute.judge.JudgeOptions.model].
        sources: per item the source text or question (``None`` entries allowed), or ``None``.
        api_key: [`api_key`][zheval.compute.judge.JudgeOptions.api_key].
        rubric: [`rubric`][zheval.compute.judge.JudgeOptions.rubric].
        temperature: [`temperature`][zheval.compute.judge.JudgeOptions.temperature].
        seed: [`seed`][zheval.compute.judge.JudgeOptions.seed].
        json_mode: [`json_mode`][zheval.compute.judge.JudgeOptions.json_mode].
        max_tokens: [`max_tokens`][zheval.compute.judge.JudgeOptions.max_tokens].
        concurrency: [`concurrency`][zheval.compute.judge.JudgeOptions.concurrency].
        timeout: [`timeout`][zheval.compute.judge.JudgeOptions.timeout].
        max_retries: [`max_retries`][zheval.compute.judge.JudgeOptions.max_retries].
        answer_retries: [`answer_retries`][zheval.compute.judge.JudgeOptions.answer_retries].
        backoff: [`backoff`][zheval.compute.judge.JudgeOptions.backoff].
        cache_dir: [`cache_dir`][zheval.compute.judge.JudgeOptions.cache_dir].
        use_cache: [`use_cache`][zheval.compute.judge.JudgeOptions.use_cache].

    Returns:
        ``{<criterion>: mean over judged items (or None), "item_scores": {criterion: [int | None]}, "reasons",
        "judged", "failed", "failures" ([{"item", "kind", "detail", "answer", "attempts"}]), "criteria", "scale",
        "usage" ({"requests", "retries", "answer_retries", "cached", "prompt_tokens", "completion_tokens",
        "seconds"}), "signature"}``.

    Raises:
        ValueError / TypeError: bad options, length mismatch, non-``str`` texts (naming the item); ``sources`` of
            another length. ModuleNotFoundError (one line): the ``judge`` extra is missing.
    """
    options = JudgeOptions(base_url=base_url, model=model, api_key=api_key, rubric=rubric, temperature=temperature,
                           seed=seed, json_mode=json_mode, max_tokens=max_tokens, concurrency=concurrency,
                           timeout=timeout, max_retries=max_retries, answer_retries=answer_retries, backoff=backoff,
                           cache_dir=cache_dir, use_cache=use_cache)
    options.check()
    preds, refs = validate_inputs(predictions, references, allow_empty=True)
    _check_sources(sources, len(preds))
    config = judge_config(options)
    try:
        return judge_result(judge_items(preds, refs, config, sources), config)
    finally:
        config.close()


def _check_sources(sources, n: int) -> None:
    if sources is None:
        return
    check_text_list(sources, "sources")
    if len(sources) != n:
        raise ValueError(f"sources has {len(sources)} entries for {n} predictions")
    for i, s in enumerate(sources):
        if s is not None and not isinstance(s, str):
            raise TypeError(f"sources[{i}] must be a str or None, got {type(s).__name__}")


def _preference(first: Dict[str, Any], second: Dict[str, Any]) -> Dict[str, Any]:
    """Combine the two orders: (a as A, b as B) and (b as A, a as B). Agreeing orders give their winner;
    disagreeing ones a tie, counted as inconsistent (MT-Bench's rule: Zheng et al. 2023, section 3.4)."""
    one = {"A": "a", "B": "b", "tie": "tie"}[first["winner"]]
    two = {"A": "b", "B": "a", "tie": "tie"}[second["winner"]]
    return {"winner": one if one == two else "tie", "consistent": one == two, "orders": [one, two],
            "reasons": [first["reason"], second["reason"]]}


# help() shows each option's text and default, not a link (the site renders the source docstring's links)
compute_judge.__doc__ = with_option_texts(compute_judge.__doc__, JudgeOptions, ())


def judge_pairwise(
    predictions_a: Sequence[str],
    predictions_b: Sequence[str],
    references: Sequence[Any],
    *,
    base_url: str,
    model: str,
    sources: Optional[Sequence[Optional[str]]] = None,
    api_key: Optional[str] = None,
    temperature: float = 0.0,
    seed: Optional[int] = 12345,
    json_mode: bool = True,
    max_tokens: Optional[int] = 512,
    concurrency: int = 4,
    timeout: float = 60.0,
    max_retries: int = 4,
    answer_retries: int = 2,
    backoff: float = 1.0,
    cache_dir: Optional[str] = None,
    use_cache: bool = True,
) -> Dict[str, Any]:
    """Compare two systems item by item; each item is asked in **both orders** (a as A then b as A) against position
    bias. Options as [`compute_judge`][zheval.compute.judge.compute_judge] (no rubric: the pairwise question is fixed).
    ``cache_dir=None`` is the default cache (``$ZHEVAL_CACHE_DIR/judge``, else ``~/.cache/zheval/judge``), not no
    cache: ``use_cache=False`` reads and writes none.

    Returns:
        ``{"wins_a", "wins_b", "ties", "inconsistent" (items whose two orders disagree, counted as ties),
        "win_rate_a" ((wins_a + ties / 2) / judged, 0-1, None when none was judged), "judged", "failed",
        "items" ([{"winner": "a"|"b"|"tie"|None, "consistent", "orders", "reasons"}]), "failures" ([{"item",
        "order" (1 or 2), "kind", "detail", "answer", "attempts"}]), "usage", "signature"}``.

    Raises:
        ValueError / TypeError: as [`compute_judge`][zheval.compute.judge.compute_judge]; the two systems of different
            lengths (naming ``predictions_b``).
    """
    options = JudgeOptions(base_url=base_url, model=model, api_key=api_key, temperature=temperature, seed=seed,
                           json_mode=json_mode, max_tokens=max_tokens, concurrency=concurrency, timeout=timeout,
                           max_retries=max_retries, answer_retries=answer_retries, backoff=backoff,
                           cache_dir=cache_dir, use_cache=use_cache)
    options.check()
    check_text_list(predictions_a, "predictions_a")  # named as typed (validate_inputs would say "predictions")
    check_text_list(predictions_b, "predictions_b")
    preds_a, refs = validate_inputs(predictions_a, references, allow_empty=True)
    if not isinstance(predictions_b, (str, bytes)) and hasattr(predictions_b, "__len__") and \
            len(predictions_b) != len(preds_a):  # validate_inputs would say "predictions" and guess a transposition
        raise ValueError(f"got {len(predictions_b)} predictions_b but {len(preds_a)} predictions_a and references: "
                         "the two systems are compared item by item, one prediction each")
    preds_b, _ = validate_inputs(predictions_b, references, allow_empty=True)
    _check_sources(sources, len(preds_a))
    config = judge_config(options)
    start = time.perf_counter()
    jobs = []
    for i, (a, b, rs) in enumerate(zip(preds_a, preds_b, refs)):
        source = None if sources is None else sources[i]
        jobs += [pairwise_messages(a, b, rs, source), pairwise_messages(b, a, rs, source)]
    try:
        answers = _run_all(config, jobs, parse_preference)
    finally:
        config.close()
    usage, items, failures = Usage(), [], []
    for i in range(len(preds_a)):
        first, second = answers[2 * i], answers[2 * i + 1]
        usage.add(first["usage"])
        usage.add(second["usage"])
        bad = [(k + 1, got["failure"]) for k, got in enumerate((first, second)) if "failure" in got]
        failures += [{"item": i, "order": order, **f} for order, f in bad]
        items.append({"winner": None, "consistent": None, "orders": None, "reasons": None} if bad
                     else _preference(first["value"], second["value"]))
    usage.seconds = time.perf_counter() - start
    done = [it for it in items if it["winner"] is not None]
    wins_a = sum(it["winner"] == "a" for it in done)
    ties = sum(it["winner"] == "tie" for it in done)
    return {"wins_a": wins_a, "wins_b": sum(it["winner"] == "b" for it in done), "ties": ties,
            "inconsistent": sum(not it["consistent"] for it in done),
            "win_rate_a": (wins_a + ties / 2) / len(done) if done else None, "judged": len(done),
            "failed": len(items) - len(done), "items": items, "failures": failures, "usage": usage.as_dict(),
            "signature": config.signature(len(items), pairwise=True, sources=sources)}
