"""`compare`: two recordings compared output by output (first differing key path, missing and extra configurations)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .calls import dumps


# -- compare ----------------------------------------------------------------------------------------------------


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first key path (in sorted key order) where ``a`` and ``b`` differ, with both values."""
    if dumps(a) == dumps(b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return (f"{path}.{k}" if path else k, a.get(k, "<missing>"), b.get(k, "<missing>"))
            d = first_difference(a[k], b[k], f"{path}.{k}" if path else k)
            if d:
                return d
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return (f"{path}.length", len(a), len(b))
    return (path or "<root>", a, b)


def _short(x: Any, n: int = 300) -> str:
    s = dumps(x)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def compare(old_path: Path, new_path: Path, ignore_error_messages: bool) -> int:
    old = json.loads(old_path.read_text(encoding="utf-8"))
    new = json.loads(new_path.read_text(encoding="utf-8"))
    same, diffs, msg_only = 0, [], []
    for k in old:
        if k not in new:
            continue
        a, b = old[k], new[k]
        if dumps(a) == dumps(b):
            same += 1
            continue
        if (isinstance(a, dict) and isinstance(b, dict) and "error" in a and "error" in b
                and a["error"] == b["error"]):
            msg_only.append(k)
            if ignore_error_messages:
                same += 1
                continue
        diffs.append(k)
    missing = [k for k in old if k not in new]
    extra = [k for k in new if k not in old]
    common = len([k for k in old if k in new])
    print(f"identical: {same} of {common} common configurations ({len(old)} in {old_path.name}, {len(new)} in "
          f"{new_path.name})")
    for k in diffs:
        path, a, b = first_difference(old[k], new[k])
        tag = " (error message only)" if k in msg_only else ""
        print(f"DIFF {k}{tag}\n  at {path}\n  old: {_short(a)}\n  new: {_short(b)}")
    if ignore_error_messages and msg_only:
        print(f"ignored (same error type, different message): {len(msg_only)}")
        for k in msg_only:
            print(f"  {k}: {_short(old[k].get('message'), 160)} -> {_short(new[k].get('message'), 160)}")
    for k in missing:
        print(f"MISSING in new: {k}")
    for k in extra:
        print(f"EXTRA in new: {k}")
    print(f"summary: {same} identical, {len(diffs)} different, {len(missing)} missing, {len(extra)} extra")
    return 1 if diffs or missing or extra else 0
