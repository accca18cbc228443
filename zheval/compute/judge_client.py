"""The LLM judge's endpoint access: the only zheval module that imports ``openai`` (design rule 14).

Any OpenAI-compatible chat endpoint (Ollama ``http://127.0.0.1:11434/v1``, vLLM ``:8000/v1``, llama.cpp's
``llama-server``, OpenAI) through the official client: ``OpenAI(base_url=, api_key=, max_retries=0, timeout=)`` and
``chat.completions.create(model=, messages=, temperature=, seed=, response_format={"type": "json_object"})``.

The client's own retries are off (``max_retries=0``) so that every request is counted here: `chat` makes one
request and classifies a failure as *retryable* (429, 408, 409, 5xx, a timeout, a dropped or refused connection --
the cases the client itself would retry) or not (400, 401, 403, 404, ...; and ``bad_response``, a 200 whose body
is no chat completion or holds no message text); the judge retries the former with exponential backoff, honouring
``Retry-After``. Either is the endpoint's failure of the item, never the model's unparsable answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import openai

__all__ = ["ChatAnswer", "RequestFailed", "make_client", "chat", "openai_version"]


def openai_version() -> str:
    """The installed ``openai`` package's version."""
    return openai.__version__


@dataclass
class ChatAnswer:
    """One answer: ``content`` (the message text, ``""`` when none), ``prompt_tokens``, ``completion_tokens``
    (0 when the server reports no usage), ``model`` (as the server names it)."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    model: str


class RequestFailed(Exception):
    """A request that got no answer: ``kind`` (``rate_limited``, ``server_error``, ``timeout``, ``connection``,
    ``client_error``, ``bad_response``: a 200 that is no chat completion or has no message content), ``status``
    (HTTP status or ``None``), ``retryable``, ``retry_after`` (seconds, from the server, or ``None``)."""

    def __init__(self, kind: str, message: str, *, status: Optional[int] = None, retryable: bool = False,
                 retry_after: Optional[float] = None):
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


def make_client(*, base_url: str, api_key: str, timeout: float) -> Any:
    """An ``openai.OpenAI`` client for the endpoint, without the client's own retries (`chat` counts
    them)."""
    return openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0)


def _retry_after(response) -> Optional[float]:
    if response is None:
        return None
    for header, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = response.headers.get(header)
        if value is not None:
            try:
                return max(0.0, float(value) / divisor)
            except ValueError:
                return None
    return None


def chat(client: Any, *, model: str, messages: List[Dict[str, str]], temperature: float, seed: Optional[int],
         json_mode: bool, max_tokens: Optional[int]) -> ChatAnswer:
    """One chat completion request.

    Raises:
        RequestFailed: no answer (classified; see the module docstring).
    """
    kwargs: Dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature}
    if seed is not None:
        kwargs["seed"] = seed
    if json_mode:
        kwargs["response_format"] = {"type": "json_object"}
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    try:
        completion = client.chat.completions.create(**kwargs)
    except RecursionError:  # json.loads of the body, in the client
        raise _not_completion("the body is JSON nested more deeply than Python's JSON reader takes") from None
    except ValueError as exc:  # a 200 whose body is said to be JSON but is none (an HTML page as application/json)
        raise _not_completion(f"the body is not JSON ({str(exc)[:80]})") from None
    except openai.APITimeoutError as exc:
        raise RequestFailed("timeout", f"no answer within the timeout ({exc})", retryable=True) from None
    except openai.APIConnectionError as exc:
        raise RequestFailed("connection", f"connection failed ({exc})", retryable=True) from None
    except openai.APIStatusError as exc:
        status = exc.status_code
        if status == 429:
            kind, retryable = "rate_limited", True
        elif status >= 500:
            kind, retryable = "server_error", True
        else:
            kind, retryable = "client_error", status in (408, 409)
        raise RequestFailed(kind, f"HTTP {status}: {exc.message}", status=status, retryable=retryable,
                            retry_after=_retry_after(exc.response)) from None
    return _answer_of(completion)


def _not_completion(why: str) -> RequestFailed:
    return RequestFailed("bad_response", f"not a chat completion: {why}")


def _answer_of(completion: Any) -> ChatAnswer:
    """The `ChatAnswer` of a 200 response, or a `RequestFailed` of kind ``bad_response`` (not retried, as a 4xx is
    not) when the endpoint's body is not a chat completion -- an HTML page (a proxy's login page), a JSON array, no
    ``choices`` -- or its message has no text content (``content: null``, as a reasoning model that spent
    ``max_tokens`` thinking answers): the endpoint's failure, never taken for the model's unparsable answer."""
    if not isinstance(completion, openai.types.chat.ChatCompletion):  # the client gives a str or a list as it is
        raise _not_completion(f"the body is text ({completion[:80]!r}), not JSON" if isinstance(completion, str) else
                              f"the body is a JSON {'array' if isinstance(completion, list) else 'value'}, not an "
                              "object with 'choices'")
    choices = getattr(completion, "choices", None)
    if choices is None:  # a body's "choices": null is a field set to None; an absent one is not set at all
        raise _not_completion("'choices' is null" if "choices" in getattr(completion, "model_fields_set", ())
                              else "no 'choices' in the response")
    if not isinstance(choices, list) or not choices:
        raise _not_completion("'choices' is empty" if isinstance(choices, list) else
                              f"'choices' is a {type(choices).__name__}, not a list")
    first = choices[0]
    message = getattr(first, "message", None)
    content = getattr(message, "content", None)
    if content is None:
        finish = getattr(first, "finish_reason", None)
        raise RequestFailed("bad_response", "the endpoint returned no message content"
                            + (f" (finish_reason {finish!r})" if finish is not None else ""))
    if not isinstance(content, str):
        raise _not_completion(f"the message content is a {type(content).__name__}, not text")
    usage = getattr(completion, "usage", None)
    return ChatAnswer(content=content, prompt_tokens=_count(usage, "prompt_tokens"),
                      completion_tokens=_count(usage, "completion_tokens"),
                      model=str(getattr(completion, "model", "") or ""))


def _count(usage: Any, name: str) -> int:
    """A token count the server reports, 0 when it reports none (or not a count)."""
    value = getattr(usage, name, None)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")
    return int(value) if ok else 0
