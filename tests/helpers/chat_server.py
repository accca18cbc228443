"""A scripted OpenAI-compatible chat server on 127.0.0.1 for the LLM-judge tests (the standard library's threaded
HTTP server; nothing leaves the machine). The client under test is the real ``openai`` package.

``POST /v1/chat/completions`` answers in the OpenAI format (``choices[0].message.content``, ``usage``). What it
answers depends on markers in the last user message (the item's prediction carries them):

========================= ==================================================================================
marker                    answer
========================= ==================================================================================
(none)                    a valid rating: every criterion ``1 + len(user message) % 5``, ``overall`` the same
                          (the criteria the system message names as JSON keys, ``"name":``; else the default four)
``BADJSON-ONCE``          first request: text that is not JSON; then valid
``BADJSON-ALWAYS``        always text that is not JSON
``RANGE-ONCE``            first request: ``overall`` 7 (outside 1-5); then valid
``RANGE-ALWAYS``          always ``overall`` 0
``RATE429``               first request: HTTP 429 with ``Retry-After: 0``; then valid
``ERR500``                first request: HTTP 500; then valid
``DOWN429``               always HTTP 429 (``Retry-After: 0``)
``SLOW``                  first request: waits :attr:`ChatServer.slow_seconds` before answering; then valid
``DROP``                  first request: the connection is closed without an answer; then valid
``ECHO``                  valid, the reason repeats the prediction line (model text with control characters)
``DUPKEY``                always ``overall`` twice: ``{"overall": 1, "overall": 5, ...}`` (a key given twice)
``WHOLEFLOAT-ONCE``       first request: ``overall`` written ``4.0`` (a JSON float literal); then valid
``NEARFIVE-ALWAYS``       always ``overall`` written ``4.9999999999999999`` (a float reads it as 5.0)
``CASEKEY-ALWAYS``        always extra keys too: ``..., "Overall": 1, "extra": 9`` (a criterion apart from case)
``EXTRAKEY-ALWAYS``       always an unknown key too: ``..., "extra": 9``
``MINUSZERO-ALWAYS``      always ``overall`` written ``-0`` (the integer 0, off the scale)
``TRUE-ALWAYS``           always ``overall`` written ``true`` (a boolean)
``DEEP-ALWAYS``           always ``overall`` an array nested 3000 deep (more than Python's JSON reader takes)
``NOCHOICES``             a 200 whose body has no ``choices``
``NULLCHOICES``           a 200 whose body has ``choices: null``
``NULLCONTENT``           a 200 whose message has ``content: null`` (a reasoning model out of tokens)
``HTMLBODY``              a 200 whose body is an HTML page (``text/html``: a proxy's login page)
``ARRAYBODY``             a 200 whose body is a JSON array
``HTMLASJSON``            a 200 whose body is an HTML page sent as ``application/json``
``DEEPBODY``              a 200 whose body is JSON nested 3000 deep
========================= ==================================================================================

Pairwise questions (the system message asks to compare A and B): ``winner`` is the answer that equals the first
reference, ``tie`` when neither or both do; with ``POSBIAS`` in the message always ``A``.

The server records every request body (:attr:`ChatServer.requests`). Use as a context manager; ``base_url`` is
``http://127.0.0.1:<port>/v1``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["ChatServer"]

CRITERIA = ("overall", "faithful", "informative", "fluent")


def _block(text: str, title: str) -> str:
    part = text.split(title, 1)[1] if title in text else ""
    return part.strip().split("\n\n", 1)[0].strip()


class ChatServer:
    """The scripted server (module docstring)."""

    slow_seconds = 3.0

    def __init__(self, port: int = 0):
        self.requests = []
        self.seen = Counter()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length).decode("utf-8"))
                server.handle(self, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def handle(self, handler, body):
        user = body["messages"][-1]["content"]
        system = body["messages"][0]["content"]
        with self.lock:
            self.requests.append(body)
            self.seen[user] += 1
            first = self.seen[user] == 1
        if "DROP" in user and first:
            handler.close_connection = True
            handler.connection.close()
            return
        if ("RATE429" in user and first) or "DOWN429" in user:
            return self._send(handler, 429, {"error": {"message": "rate limited", "type": "rate_limit"}},
                              {"Retry-After": "0"})
        if "ERR500" in user and first:
            return self._send(handler, 500, {"error": {"message": "boom", "type": "server_error"}})
        broken = self._broken(user, body["model"])
        if broken is not None:
            return self._send_raw(handler, 200, *broken)
        if "SLOW" in user and first:
            time.sleep(self.slow_seconds)
        if "比较两个回答" in system:
            content = self._preference(user)
        elif "BADJSON-ALWAYS" in user or ("BADJSON-ONCE" in user and first):
            content = "好的，我认为这个回答不错，给 4 分。"
        else:
            value = 1 + len(user) % 5
            asked = [k for k in re.findall(r'"(\w+)"\s*:', system) if k != "reason"] or CRITERIA
            rating = {name: value for name in asked}
            if "RANGE-ALWAYS" in user:
                rating["overall"] = 0
            elif "RANGE-ONCE" in user and first:
                rating["overall"] = 7
            reason = _block(user, "【待评回答】") if "ECHO" in user else "理由"
            content = json.dumps({**rating, "reason": reason}, ensure_ascii=False)
            written = {"DUPKEY": '"overall": 1, "overall": 5', "TRUE-ALWAYS": '"overall": true',
                       "DEEP-ALWAYS": '"overall": ' + "[" * 3000 + "]" * 3000, "NEARFIVE-ALWAYS": '"overall": 4.9999999999999999',
                       "WHOLEFLOAT-ONCE": '"overall": 4.0' if first else None, "MINUSZERO-ALWAYS": '"overall": -0',
                       "CASEKEY-ALWAYS": f'"overall": {rating["overall"]}, "Overall": 1, "extra": 9',
                       "EXTRAKEY-ALWAYS": f'"overall": {rating["overall"]}, "extra": 9'}
            for marker, literal in written.items():  # literals json.dumps never writes for an int
                if marker in user and literal is not None:
                    content = content.replace(f'"overall": {rating["overall"]}', literal, 1)
        payload = {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": body["model"],
                   "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": len(user), "completion_tokens": len(content),
                             "total_tokens": len(user) + len(content)}}
        self._send(handler, 200, payload)

    @staticmethod
    def _preference(user: str) -> str:
        if "POSBIAS" in user:
            return json.dumps({"winner": "A", "reason": "A 在前"}, ensure_ascii=False)
        ref = _block(user, "【参考答案】").split("\n")[0]
        a, b = _block(user, "【回答 A】"), _block(user, "【回答 B】")
        winner = "A" if a == ref and b != ref else "B" if b == ref and a != ref else "tie"
        return json.dumps({"winner": winner, "reason": "与参考答案一致"}, ensure_ascii=False)

    @staticmethod
    def _broken(user: str, model: str):
        """``(body bytes, content type)`` of an endpoint's broken 200 answer (module docstring), or ``None``."""
        message = {"role": "assistant", "content": None, "reasoning_content": "让我想想……"}
        bodies = {"NOCHOICES": {"id": "chatcmpl-test", "object": "chat.completion", "model": model},
                  "NULLCHOICES": {"id": "chatcmpl-test", "object": "chat.completion", "model": model, "choices": None},
                  "NULLCONTENT": {"id": "chatcmpl-test", "object": "chat.completion", "model": model,
                                  "choices": [{"index": 0, "message": message, "finish_reason": "length"}]},
                  "ARRAYBODY": [{"error": "not a completion"}]}
        for marker, body in bodies.items():
            if marker in user:
                return json.dumps(body, ensure_ascii=False).encode("utf-8"), "application/json"
        if "HTMLBODY" in user or "HTMLASJSON" in user:
            return (b"<html><body><form>Proxy login</form></body></html>",
                    "application/json" if "HTMLASJSON" in user else "text/html; charset=utf-8")
        if "DEEPBODY" in user:
            return b'{"choices": ' + b"[" * 3000 + b"]" * 3000 + b"}", "application/json"
        return None

    @staticmethod
    def _send(handler, status, payload, headers=None):
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        ChatServer._send_raw(handler, status, data, "application/json", headers)

    @staticmethod
    def _send_raw(handler, status, data, content_type, headers=None):
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", content_type)
            handler.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main(argv=None) -> None:
    """``python tests/helpers/chat_server.py [--port N]``: serve the scripted answers on 127.0.0.1 until
    interrupted (the docs page "Three layers" uses it as a stand-in for Ollama or vLLM)."""
    import argparse

    parser = argparse.ArgumentParser(description="a scripted OpenAI-compatible chat server on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    server = ChatServer(port=args.port)
    print(f"serving {server.base_url}", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()


if __name__ == "__main__":
    main()
