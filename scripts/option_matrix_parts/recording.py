"""`record`: every selected configuration run in a private environment, its canonical output written as JSON."""

from __future__ import annotations

import concurrent.futures
import fnmatch
import hashlib
import json
import logging
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .calls import DATA_FILES, REPO, _resolved, canon, error_output, norm_str, set_path_replacements
from .data import Data
from .registry import CONFIGS, Config, Ctx
from .cases_scores import bleu_configs, rouge_configs, score_configs, tokens_configs
from .cases_modules import eval_configs, trainer_configs
from .cases_files import cli_configs, duck_configs


def build_configs() -> dict[str, Config]:
    if not CONFIGS:
        for f in (tokens_configs, rouge_configs, bleu_configs, score_configs, eval_configs, trainer_configs, duck_configs,
                  cli_configs):
            f()
    return CONFIGS


# ---------------------------------------------------------------------------------------------------------------
# Running


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.local = threading.local()

    def emit(self, record):
        buf = getattr(self.local, "buf", None)
        if buf is not None:
            buf.append(f"{record.name}: {record.levelname}: {record.getMessage()}")


def run_one(cfg: Config, ctx: Ctx, capture: _Capture) -> Any:
    capture.local.buf = []
    try:
        out = canon(cfg.fn(ctx))
    except Exception as exc:  # noqa: BLE001 - every error is an output
        out = error_output(exc)
    logs = capture.local.buf
    capture.local.buf = None
    if logs:
        out = out if isinstance(out, dict) else {"value": out}
        out["_log"] = [norm_str(x) for x in logs]
    json.dumps(out, allow_nan=True)  # must serialise
    return out


def setup_environment(tmp: Path) -> None:
    """Offline, private caches in the run's temporary directory; this checkout's zheval first."""
    for var, sub in (("HF_MODULES_CACHE", "modules"), ("HF_METRICS_CACHE", "metrics"),
                     ("HF_DATASETS_CACHE", "datasets"), ("HF_HOME", "hf")):
        os.environ[var] = str(tmp / sub)
    for var in ("HF_EVALUATE_OFFLINE", "HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        os.environ[var] = "1"
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if str(REPO) not in sys.path[:1]:
        sys.path.insert(0, str(REPO))
    import zheval

    if Path(zheval.__file__).resolve().parent != REPO / "zheval":
        raise SystemExit(f"option_matrix: imported zheval from {zheval.__file__}, not from {REPO}")


def remove_jieba_cache(dictionary: Path) -> None:
    """jieba caches a custom dictionary as ``<tempdir>/jieba.u<md5 of its path>.cache`` (jieba 0.42.1
    ``Tokenizer.initialize``); the run's dictionary lives in its temporary directory, so its cache goes too."""
    for p in {str(dictionary), os.path.realpath(str(dictionary))}:
        name = "jieba.u%s.cache" % hashlib.md5(p.encode("utf-8", "replace")).hexdigest()
        try:
            os.remove(os.path.join(tempfile.gettempdir(), name))
        except FileNotFoundError:
            pass


def check_data_dir(data_dir: Path) -> None:
    missing = [f for f in DATA_FILES if not (data_dir / f).is_file()]
    if missing:
        raise SystemExit(f"option_matrix: the real test data is needed: {', '.join(missing)} not found in {data_dir} "
                         "(pass --data-dir PATH; see ../shared/data/README.md)")


def selected(configs: dict[str, Config], only: list[str] | None) -> list[Config]:
    if not only:
        return list(configs.values())
    return [c for c in configs.values() if any(c.id == g or fnmatch.fnmatchcase(c.id, g) for g in only)]


def record(out_path: Path, data_dir: Path, only: list[str] | None, quiet: bool) -> int:
    data_dir = data_dir.resolve()
    check_data_dir(data_dir)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="zheval-option-matrix-") as tmp_name:
        tmp = Path(tmp_name)
        setup_environment(tmp)
        set_path_replacements([(tmp, "<TMP>"), (REPO, "<REPO>"), (data_dir, "<DATA>")])
        import numpy  # noqa: F401 - canon needs it

        try:
            import torch

            torch.set_num_threads(1)
        except ImportError:
            pass
        zlog = logging.getLogger("zheval")
        capture = _Capture()
        zlog.addHandler(capture)
        zlog.propagate = False
        logging.getLogger("zheval").setLevel(logging.WARNING)
        configs = selected(build_configs(), only)
        if not configs:
            print(f"option_matrix: no configuration matches {only}", file=sys.stderr)
            return 2
        ctx = Ctx(Data(data_dir, tmp))
        results: dict[str, Any] = {}
        lock = threading.Lock()
        done = [0]
        total = len(configs)

        def report(cfg, dt, out):
            with lock:
                done[0] += 1
                if not quiet:
                    status = f"error {out['error']}" if isinstance(out, dict) and "error" in out else "ok"
                    print(f"[{done[0]:4d}/{total}] {dt:6.2f}s {cfg.id}: {status}", file=sys.stderr, flush=True)

        def timed(cfg):
            t = time.perf_counter()
            out = run_one(cfg, ctx, capture)
            report(cfg, time.perf_counter() - t, out)
            return out

        external = [c for c in configs if c.external]
        internal = [c for c in configs if not c.external]
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            futures = {c.id: pool.submit(timed, c) for c in external}
            for c in internal:
                results[c.id] = timed(c)
            for k, f in futures.items():
                results[k] = f.result()
        ordered = {c.id: results[c.id] for c in configs}
        remove_jieba_cache(ctx.data.tmp / "jieba_dict.txt")
        tmp_out = out_path.with_name(out_path.name + ".tmp")
        tmp_out.write_text(json.dumps(ordered, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp_out, out_path)
    n_err = sum(1 for v in ordered.values() if isinstance(v, dict) and "error" in v)
    print(f"option_matrix: {len(ordered)} configurations ({n_err} are errors) in {time.perf_counter() - t0:.1f}s "
          f"-> {out_path}", file=sys.stderr)
    for name, (cand, _) in sorted(_resolved.items()):
        print(f"  entry point {name} = {cand}", file=sys.stderr)
    return 0
