#!/usr/bin/env python3
"""Assemble a self-contained Hugging Face Space folder for one metric module (issue 7).

    .venv/bin/python scripts/build_space.py chinese_rouge dist/spaces/chinese_rouge
    .venv/bin/python scripts/build_space.py chinese_bleu dist/spaces/chinese_bleu \\
        --zheval "git+https://github.com/OWNER/zheval@v0.1.0"

OUT_DIR must be named after the metric: ``evaluate.load(OUT_DIR)`` resolves a folder to ``OUT_DIR/<folder name>.py``,
and on the Hub the Space ``owner/<metric>`` is loaded the same way. The folder gets exactly:

* ``<metric>.py``: the metric script, copied unchanged from ``metrics/<metric>/``;
* ``README.md``: the metric card (YAML header with ``sdk: gradio``, ``sdk_version``, ``app_file: app.py`` ...), unchanged;
* ``app.py``: the widget (``zheval.adapters.space`` on current gradio), unchanged;
* ``requirements.txt``, generated: our library as given by ``--zheval`` (default ``zheval==<version in
  pyproject.toml>``; a git URL, a PyPI pin, or a local path/wheel for an offline check), then every third-party
  package the Space needs pinned ``==`` to the version installed in the environment running this script (the
  versions the test suite ran with): ``evaluate``, ``datasets``, zheval's runtime dependencies from
  ``pyproject.toml``, and ``gradio`` pinned to the card's ``sdk_version`` (what the Space runtime installs).

An existing OUT_DIR is refused unless ``--force`` is given and it holds nothing but files this script writes.
Nothing is uploaded: README.md ("Publish to the Hub") has the ``hf upload`` commands.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf")
#: Packages the Space needs besides zheval's own dependencies: the metric script imports them at column 0.
EXTRA_PACKAGES = ("evaluate", "datasets")
OWN_FILES = ("{metric}.py", "README.md", "app.py", "requirements.txt")


def _pyproject() -> dict:
    """``pyproject.toml`` as a dict; on Python 3.10 (no tomllib) the installed zheval's metadata stands in for it."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        reqs = [r for r in (md.requires("zheval") or []) if "extra ==" not in r]
        return {"project": {"version": md.version("zheval"), "dependencies": reqs}}
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _dist_name(requirement: str) -> str:
    """``"rouge-score==0.1.2"`` -> ``"rouge-score"`` (the distribution name of a PEP 508 line without markers)."""
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not m:
        raise ValueError(f"cannot read a distribution name from {requirement!r}")
    return m.group(1)


def card_yaml(card_text: str) -> dict:
    """The YAML header of a metric card as a dict (needs pyyaml)."""
    import yaml

    m = re.match(r"\A---\n(.*?)\n---\n", card_text, flags=re.S)
    if not m:
        raise ValueError("the card has no YAML header between '---' lines")
    data = yaml.safe_load(m.group(1))
    if not isinstance(data, dict):
        raise ValueError("the card's YAML header is not a mapping")
    return data


def third_party_pins(sdk_version: str) -> list[str]:
    """``name==version`` lines: evaluate, datasets and zheval's runtime dependencies at their installed versions,
    and gradio at the card's ``sdk_version``.

    Raises:
        RuntimeError: a needed package is not installed here (so no tested version is known).
    """
    deps = [_dist_name(r) for r in _pyproject()["project"]["dependencies"]]
    names = list(dict.fromkeys([*EXTRA_PACKAGES, *deps]))
    lines = []
    for name in names:
        try:
            version = md.version(name)
        except md.PackageNotFoundError as exc:
            raise RuntimeError(f"{name} is not installed in {sys.prefix}: install the test environment first "
                               "(python3 dev.py test) so that the pins are the tested versions") from exc
        lines.append(f"{name}=={version}")
    lines.append(f"gradio=={sdk_version}")
    return lines


def requirements_text(metric: str, zheval_spec: str, sdk_version: str) -> str:
    if not zheval_spec.strip() or "\n" in zheval_spec:
        raise ValueError(f"--zheval must be one requirement line, got {zheval_spec!r}")
    try:
        installed_gradio = md.version("gradio")
    except md.PackageNotFoundError:
        installed_gradio = None
    head = [
        f"# Space requirements of {metric}, written by scripts/build_space.py (do not edit by hand).",
        "# Our library (the metric script imports zheval):",
        zheval_spec.strip(),
        f"# Third-party packages at the versions tested (Python {sys.version.split()[0]}); gradio = the card's "
        "sdk_version:",
    ]
    if installed_gradio is not None and installed_gradio != sdk_version:
        print(f"warning: the card's sdk_version is {sdk_version} but gradio {installed_gradio} is installed here; "
              "the widget was tested with the installed one", file=sys.stderr)
    return "\n".join(head + third_party_pins(sdk_version)) + "\n"


def build_space(metric: str, out_dir: Path, zheval_spec: str | None = None, force: bool = False) -> Path:
    """Write the Space folder of ``metric`` to ``out_dir`` and return it (see the module docstring).

    Raises:
        ValueError: unknown metric, OUT_DIR not named after the metric, OUT_DIR not empty (without ``force``, or
            with files this script does not write), card without ``sdk_version``.
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; valid: {', '.join(METRICS)}")
    out_dir = Path(out_dir).resolve()
    if out_dir.name != metric:
        raise ValueError(
            f"OUT_DIR must be named {metric!r} (got {out_dir.name!r}): evaluate.load(OUT_DIR) looks for "
            f"OUT_DIR/<folder name>.py; use e.g. dist/spaces/{metric}"
        )
    own = {f.format(metric=metric) for f in OWN_FILES} | {"__pycache__"}
    if out_dir.exists():
        present = {p.name for p in out_dir.iterdir()}
        if present and not force:
            raise ValueError(f"{out_dir} exists and is not empty; pass --force to rebuild it")
        if present - own:
            raise ValueError(f"{out_dir} holds files this script does not write ({sorted(present - own)}); "
                             "remove them or choose another folder")
        shutil.rmtree(out_dir)
    src = REPO / "metrics" / metric
    card = (src / "README.md").read_text(encoding="utf-8")
    meta = card_yaml(card)
    sdk_version = str(meta.get("sdk_version") or "")
    if not sdk_version or meta.get("sdk") != "gradio" or meta.get("app_file") != "app.py":
        raise ValueError(f"{src / 'README.md'}: the YAML header needs sdk: gradio, sdk_version, app_file: app.py")
    if zheval_spec is None:
        zheval_spec = f"zheval=={_pyproject()['project']['version']}"
    reqs = requirements_text(metric, zheval_spec, sdk_version)
    out_dir.mkdir(parents=True)
    for name in (f"{metric}.py", "README.md", "app.py"):
        shutil.copyfile(src / name, out_dir / name)
    (out_dir / "requirements.txt").write_text(reqs, encoding="utf-8")
    return out_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("metric", choices=METRICS)
    parser.add_argument("out_dir", type=Path, help="the Space folder to create; its name must be the metric's")
    parser.add_argument("--zheval", dest="zheval_spec", default=None,
                        help="requirement line for our library: 'zheval==0.1.0' (default: the pyproject version), "
                             "'git+https://github.com/OWNER/zheval@v0.1.0', or a local path/wheel")
    parser.add_argument("--force", action="store_true", help="replace an existing folder built by this script")
    args = parser.parse_args(argv)
    try:
        out = build_space(args.metric, args.out_dir, args.zheval_spec, args.force)
    except (ValueError, RuntimeError) as exc:
        print(f"build_space: error: {exc}", file=sys.stderr)
        return 2
    print(out)
    for p in sorted(out.iterdir()):
        print(f"  {p.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
