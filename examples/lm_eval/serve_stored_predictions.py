"""Serve stored predictions to lm-evaluation-harness: a minimal OpenAI-compatible ``/v1/completions`` endpoint on
127.0.0.1 that answers each prompt with the stored prediction of that document, so that the real ``lm_eval`` command
(``--model local-completions``) scores stored generations offline, with no model and no torch (docs/harnesses.md,
"lm-evaluation-harness: a first run").

    python examples/lm_eval/serve_stored_predictions.py PREDICTIONS.jsonl [--port 8765]

PREDICTIONS.jsonl: one JSON object per line with ``id`` (the document's id) and ``prediction`` (the text). The task
must make each prompt the document's id (``doc_to_text: "{{id}}"``, as ``zheval_zh_example_stored.yaml`` does), so
the server knows which prediction to return; a prompt that is not a stored id gets HTTP 404 naming it (lm-eval then
stops with that error). Standard library only; stops on Ctrl-C (or when killed).
"""

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def read_predictions(path):
    stored = {}
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if not isinstance(row.get("id"), str) or not isinstance(row.get("prediction"), str):
                raise SystemExit(f"{path}:{line_no}: each line needs a str 'id' and a str 'prediction'")
            if row["id"] in stored:
                raise SystemExit(f"{path}:{line_no}: id {row['id']!r} is stored twice")
            stored[row["id"]] = row["prediction"]
    return stored


def make_handler(stored):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            prompts = body["prompt"] if isinstance(body["prompt"], list) else [body["prompt"]]
            missing = [p for p in prompts if p not in stored]
            if missing:
                self._send(404, {"error": {"message": f"no stored prediction for the prompt {missing[0]!r} (the "
                                                      "task's doc_to_text must be the document id: \"{{id}}\")"}})
                return
            self._send(200, {"id": "stored", "object": "text_completion", "model": body.get("model", "stored"),
                             "choices": [{"index": i, "text": stored[p], "finish_reason": "stop"}
                                         for i, p in enumerate(prompts)]})

        def _send(self, status, payload):
            out = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("predictions", help="JSONL: one {\"id\": ..., \"prediction\": ...} per line")
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765)")
    args = parser.parse_args()
    stored = read_predictions(args.predictions)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(stored))
    print(f"serving {len(stored)} stored predictions on http://127.0.0.1:{server.server_address[1]}/v1/completions",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
