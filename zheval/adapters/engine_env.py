"""One clear line when an engine's workers cannot import what they need (`worker_import_problem`).

Spark starts ``$PYSPARK_PYTHON`` (default ``python3``) on the executors and Ray starts its workers in the cluster's
Python: when that Python lacks zheval, pyarrow or numpy, the failure surfaces on the driver as a Py4J / ``PythonException``
with a Java stack trace of a hundred lines, or a ``RayTaskError``, whose last line is a ``ModuleNotFoundError``.
The doors catch it and raise one line that names the module and the fix: ``PYSPARK_PYTHON`` for Spark, the Ray
runtime environment (``runtime_env={"py_modules": ..., "pip": ...}``) or the cluster's image for Ray.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["WORKER_MODULES", "worker_import_problem"]

#: The modules a worker imports to score a batch (zheval and its own imports on that path).
WORKER_MODULES = ("zheval", "pyarrow", "numpy", "jieba", "regex", "opencc", "scipy")

_MISSING = re.compile(r"No module named '([A-Za-z0-9_.]+)'")


def worker_import_problem(exc: BaseException, engine: str) -> Optional[str]:
    """The one-line message for ``exc`` when it is a worker that could not import a module zheval needs, else
    ``None``.

    Args:
        exc: the exception the engine raised on the driver (its text, and that of its causes, is searched).
        engine: ``"spark"`` or ``"ray"`` (which fix to name).
    """
    texts, seen = [], set()
    cur: Optional[BaseException] = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        texts.append(str(cur))
        cur = cur.__cause__ or cur.__context__
    found = None
    for text in texts:
        for name in _MISSING.findall(text):
            if name.split(".")[0] in WORKER_MODULES:
                found = name.split(".")[0]
                break
        if found:
            break
    if found is None:
        return None
    if engine == "spark":
        return (f"the Spark executors' Python cannot import {found!r} (No module named '{found}'): Spark starts "
                "$PYSPARK_PYTHON (default python3) on the executors, not the driver's interpreter; set PYSPARK_PYTHON "
                "to a Python that has zheval and its dependencies (pip install \"zheval[spark]\"), before the "
                "session starts")
    return (f"the Ray workers' Python cannot import {found!r} (No module named '{found}'): install zheval and its "
            "dependencies (pip install \"zheval[ray]\") in the cluster's Python, or ship them with the Ray runtime "
            "environment: ray.init(runtime_env={\"pip\": [\"zheval[ray]\"]}) (or \"py_modules\": [zheval] for a "
            "source checkout)")
