"""The real data read into the item sets, and the 小黄鸭 files written for the CLI and the adapter."""

from __future__ import annotations

import json
import logging
import re
import threading
from pathlib import Path

from .calls import DATA_FILES


CAP = 300
LSUM_CAP = 100
TERMS = ["北京", "酒店", "地铁站", "免费市内电话", "不客气", "经济型", "景点", "研究", "患者", "wifi"]
JIEBA_DICT_WORDS = ["北京", "酒店", "地址", "经济型", "不客气", "谢谢", "地铁站", "附近", "推荐", "餐馆", "景点",
                    "电话", "免费", "市内", "研究", "分析", "方法", "结果", "应用", "性能"]
_SENT_CUT = re.compile(r"(?<=[。！？!?；;])|(?<=\.)(?![0-9A-Za-z])")
_CLAUSE = re.compile(r"^(.+?[，。！？,!?])")
_THANKS = re.compile(r"谢|再见|拜")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_CUT.split(text) if s.strip()]


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def loo(groups: list[dict]) -> tuple[list[str], list[list[str]]]:
    preds, refs = [], []
    for g in groups:
        resp = g["responses"]
        for k in range(len(resp)):
            preds.append(resp[k])
            refs.append(resp[:k] + resp[k + 1:])
    return preds, refs


class Data:
    """The item sets (built on first use) and the files written for the CLI and the 小黄鸭 adapter."""

    def __init__(self, data_dir: Path, tmp: Path):
        self.dir = data_dir
        self.tmp = tmp
        self.groups = read_jsonl(data_dir / DATA_FILES[0])
        self.single = read_jsonl(data_dir / DATA_FILES[1])
        self.csl = read_jsonl(data_dir / DATA_FILES[2])
        self._sets: dict[str, tuple] = {}
        self._seg = None
        self._lock = threading.RLock()
        self._files: dict | None = None

    def _segment(self, text: str) -> str:
        if self._seg is None:
            import jieba

            jieba.setLogLevel(logging.ERROR)
            self._seg = jieba.Tokenizer()
            self._seg.initialize()
        return "\n".join(" ".join(w for w in self._seg.cut(line, HMM=False) if w.strip()) for line in text.split("\n"))

    def _build(self, name: str) -> tuple[list[str], list]:
        if name == "woz_groups":
            return loo(self.groups)
        if name == "woz_single":
            replies = [r["responses"][0] for r in self.single]
            n = min(CAP, len(replies) - 1)
            return replies[1:n + 1], replies[:n]
        if name == "woz_mixed":
            p, r = self.items("woz_groups")
            return p, [rs[0] if i % 2 == 0 else rs for i, rs in enumerate(r)]
        if name == "woz_empty_pred":
            p, r = self.items("woz_groups")
            return ["" if i % 10 == 0 else x for i, x in enumerate(p)], r
        if name in ("woz_preseg", "csl_lsum_preseg"):
            p, r = self.items({"woz_preseg": "woz_groups", "csl_lsum_preseg": "csl_lsum"}[name])
            return [self._segment(x) for x in p], [[self._segment(x) for x in rs] for rs in r]
        if name == "woz_trad":
            import opencc

            conv = opencc.OpenCC("s2t")
            p, r = self.items("woz_groups")
            return [conv.convert(x) for x in p], r
        if name == "csl_lead":
            rows = self.csl[:CAP]
            return [sentences(r["document"])[0] for r in rows], [[r["summary"]] for r in rows]
        if name == "csl_next":
            n = min(CAP, len(self.csl) - 1)
            return [self.csl[i + 1]["summary"] for i in range(n)], [[self.csl[i]["summary"]] for i in range(n)]
        if name == "csl_lsum":
            preds, refs = [], []
            for r in self.csl:
                s = sentences(r["document"])
                if len(s) < 3:
                    continue
                preds.append("\n".join(s[:2]))
                refs.append(["\n".join(s[1:4]), r["summary"]])
                if len(preds) == LSUM_CAP:
                    break
            return preds, refs
        raise KeyError(f"unknown item set {name!r}")

    def items(self, name: str) -> tuple[list[str], list]:
        """Fresh copies of the set's predictions and references (a call cannot change another's inputs)."""
        with self._lock:
            if name not in self._sets:
                self._sets[name] = self._build(name)
        p, r = self._sets[name]
        return list(p), [list(x) if isinstance(x, list) else x for x in r]

    # -- files ---------------------------------------------------------------------------------------------------
    def files(self) -> dict[str, Path]:
        with self._lock:
            if self._files is None:
                self._files = self._write_files()
        return self._files

    def _write_files(self) -> dict[str, Path]:
        t = self.tmp
        f = {k: t / v for k, v in {
            "test": "duck_test.jsonl", "full": "duck_full.jsonl", "a": "preds_a.jsonl", "b": "preds_b.jsonl",
            "a_txt": "preds_a.txt", "lf": "preds_lf.jsonl", "missing": "preds_missing.jsonl", "terms": "terms.txt",
            "bad": "duck_bad.jsonl", "jieba_dict": "jieba_dict.txt"}.items()}
        test, full, a, b, lf = [], [], [], [], []
        for g in self.groups:
            resp = g["responses"]
            row = {"id": g["id"], "query": g["query"], "responses": resp,
                   "domain": None if _THANKS.search(g["query"]) else "生活咨询",
                   "difficulty": {3: "易", 4: "中", 5: "难"}.get(len(resp))}
            full.append(row)
            test.append({**row, "responses": resp[1:]})
            a.append({"id": g["id"], "prediction": resp[0]})
            m = _CLAUSE.match(resp[0])
            b.append({"id": g["id"], "prediction": m.group(1) if m else resp[0]})
            lf.append({"prompt": g["query"], "predict": resp[0], "label": resp[1]})

        def write(path, rows):
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")

        write(f["test"], test)
        write(f["full"], full)
        write(f["a"], a)
        write(f["b"], b)
        write(f["lf"], lf)
        write(f["missing"], a[:-1])
        f["a_txt"].write_text("".join(r["prediction"].replace("\n", " ") + "\n" for r in a), encoding="utf-8")
        f["terms"].write_text("\n".join(TERMS) + "\n", encoding="utf-8")
        bad = [dict(test[0]), {**test[1], "domain": "旅游"}, {k: v for k, v in test[2].items() if k != "query"},
               {**test[3], "responses": []}, {**test[4], "id": test[0]["id"]}]
        write(f["bad"], bad)
        f["jieba_dict"].write_text("".join(f"{w} 1000 n\n" for w in JIEBA_DICT_WORDS), encoding="utf-8")
        return f
