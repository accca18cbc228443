"""The LLM judge's answer cache on disk, keyed by content: a rerun asks nothing already answered, and an
interrupted run resumes where it stopped (each answer is committed as it arrives).

The key (`answer_key`) is the sha256 of everything the answer depends on: the endpoint's model name, the
full messages (the rubric's instructions and template filled with the item's texts), temperature, seed, JSON mode
and the maximum tokens. The endpoint's address is not in it (the same model moved to another port is the same
judge). Only valid answers are stored (an answer the rubric refuses is asked again next time).

Storage: one SQLite file (``answers.sqlite3``) in the cache directory, written under a lock by the judge's
threads; nothing is kept in memory between calls.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

__all__ = ["default_cache_dir", "answer_key", "AnswerCache"]


def default_cache_dir() -> Path:
    """``$ZHEVAL_CACHE_DIR/judge``, else ``$XDG_CACHE_HOME/zheval/judge``, else ``~/.cache/zheval/judge``."""
    root = os.environ.get("ZHEVAL_CACHE_DIR")
    if root:
        return Path(root) / "judge"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "zheval" / "judge"


def answer_key(*, model: str, messages: List[Dict[str, str]], temperature: float, seed: Optional[int],
               json_mode: bool, max_tokens: Optional[int]) -> str:
    """The content key of one request (hex sha256). A temperature of ``-0.0`` is the request of ``0.0`` (the same
    number; ``+ 0.0`` turns the sign of a zero positive), so both find the same answers."""
    text = json.dumps({"model": model, "messages": messages, "temperature": temperature + 0.0, "seed": seed,
                       "json_mode": json_mode, "max_tokens": max_tokens}, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AnswerCache:
    """Answers by key in ``directory/answers.sqlite3`` (created on first use). Thread-safe (one lock)."""

    def __init__(self, directory: Path):
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "answers.sqlite3"
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        with self._lock:
            self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT NOT NULL)")
            self._db.commit()

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        """The stored answer (``{"content", "prompt_tokens", "completion_tokens", "model"}``) or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT answer FROM answers WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, answer: Dict[str, Any]) -> None:
        """Store and commit one answer."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers (key, answer) VALUES (?, ?)",
                             (key, json.dumps(answer, ensure_ascii=False)))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()
