"""Six items with two references each and one prediction per item, and the order of a shuffled predictions file:
the data the tests of predictions paired by line order share (a field holding the data's ids, a row index)."""

from __future__ import annotations

from .cli import run_cli, write_jsonl

__all__ = ["REFS", "PREDS", "IDS", "ORDER", "every_command"]

REFS = [["今天天气很好我们去公园散步", "今天天气不错适合出门走走"], ["我很担心你请联系家人朋友", "请马上告诉身边信任的人"],
        ["先学习数据分析再做几个项目", "可以先学统计和编程再找实习"], ["快递已经到了驿站请去取件", "您的包裹放在驿站了"],
        ["明天降温记得多穿一件外套", "天气转凉出门加件衣服"], ["这款手机支持七天无理由退货", "七天内可以申请退货退款"]]
PREDS = ["今天天气很好去公园", "请联系身边的家人", "先学数据分析", "快递到驿站了", "明天记得穿外套", "手机七天可以退货"]
IDS = [f"duck-{i}" for i in range(len(REFS))]
ORDER = [3, 0, 5, 1, 4, 2]  # the shuffled file's lines: item ORDER[k] on line k + 1


def every_command(tmp_path, data, path):
    """``(args, result)`` of ``score`` (with and without ``--pred-field``), ``compare`` (after a file with ids),
    ``explain`` and ``sample`` on ``--data data`` and the predictions ``path``, each with ``-q``."""
    ordered = write_jsonl(tmp_path / "a.jsonl", [{"id": i, "prediction": p} for i, p in zip(IDS, PREDS)])
    for args in (("score", "-d", data, "-p", path, "--bootstrap", 0),
                 ("score", "--data", data, "-p", path, "--pred-field", "prediction", "--bootstrap", 0),
                 ("compare", "-d", data, "-p", ordered, path),
                 ("explain", "-d", data, "-p", path, "--id", "duck-0"),
                 ("sample", "-d", data, "-p", path, "-k", 3, "-o", tmp_path / "s.csv", "--key", tmp_path / "k.json")):
        yield args, run_cli(*args, "-q")

