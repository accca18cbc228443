"""Importing zheval (and the engine adapters themselves) never imports Ray or PySpark; without them, calling an engine
adapter is one line naming its extra. Runs in the main suite (no engine installed there) and in .ci/engines (where
the engines are hidden from a subprocess)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from helpers import REPO

HIDE = textwrap.dedent("""
    import sys
    class Hide:  # the engines are not installed, as far as this process can tell
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("ray", "pyspark"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Hide())
""")


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_importing_zheval_and_the_adapters_imports_no_engine():
    proc = run(textwrap.dedent("""
        import sys
        import zheval, zheval.adapters.ray, zheval.adapters.spark, zheval.adapters.engine_batches
        zheval.score(["今天天气很好"], [["今天天气不错"]])
        loaded = sorted({m.split(".")[0] for m in sys.modules} & {"ray", "pyspark", "py4j"})
        assert loaded == [], loaded
        print("ok")
    """))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_a_missing_engine_is_one_line_naming_its_extra():
    proc = run(HIDE + textwrap.dedent("""
        from zheval.adapters.extras import MissingExtraError
        from zheval.adapters.ray import score_dataset
        from zheval.adapters.spark import score_dataframe
        for fn, extra in ((score_dataset, "ray"), (score_dataframe, "spark")):
            try:
                fn(object())
            except MissingExtraError as exc:
                assert exc.extra == extra, exc.extra
                print(exc)
    """))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines == [
        "zheval.adapters.ray.score_dataset needs ray (the 'ray' extra): pip install \"zheval[ray]\"",
        "zheval.adapters.spark.score_dataframe needs pyspark (the 'spark' extra): pip install \"zheval[spark]\"",
    ]
