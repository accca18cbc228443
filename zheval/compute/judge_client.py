"""The LLM judge's endpoint access: the only zheval module that imports ``openai`` (design rule 14).

Any OpenAI-compatible chat endpoint (Ollama ``http://127.0.0.1:11434/v1``, vLLM ``:8000/v1``, llama.cpp's
``llama-server``, OpenAI) through the official client: ``OpenAI(base_url=, api_key=, max_retries=0, timeout=)`` and
``chat.completions.create(model=, messages=, temperature=, seed=, response_format={"type": "json_object"})``.

The client's own retries are off (``max_retries=0``) so that every request is counted here: `chat` makes one
request and classifies a failure as *retryable* (429, 408, 409, 5xx, a timeout, a dropped or refused connection --
the cases the client itself would retry) or not (400, 401, 403, 404, ...); the judge retries the former with
exponential backoff, honouring ``Retry-After``.
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
    ``client_error``), ``status`` (HTTP status or ``None``), ``retryable``, ``retry_after`` (seconds, from the
    server, or ``None``)."""

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
    choices = getattr(completion, "choices", None) or []
    content = ""
    if choices and choices[0].message is not None and choices[0].message.content is not None:
        content = choices[0].message.content
    usage = getattr(completion, "usage", None)
    return ChatAnswer(content=content,
                      prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0) if usage else 0,
                      completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0) if usage else 0,
                      model=str(getattr(completion, "model", "") or ""))
