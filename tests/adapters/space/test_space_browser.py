"""The Space widgets in a real browser: each Space folder as scripts/build_space.py writes it (what the Hub serves)
runs its ``app.py`` on 127.0.0.1 with a free port in a subprocess, and Debian's headless Chromium, driven by
selenium through Debian's chromedriver, uses the page as a visitor would: types several lines (references separated
by ``|||``, ragged), changes options (tokenizer ``jieba``, other options, a preset), clicks Compute and reads what
the page shows. Every number shown must equal ``round(x, 4)`` of ``evaluate.load(<that folder>).compute(...)``
called here on the same lines (built here as lists, not parsed by the widget), and the signature shown must be
the module's. Bad input (a blank reference line, more predictions than references, more lines than the widget
scores, a 100,000-character line, a reference that normalisation empties) must give a message in the page naming
the line, no traceback, cleared tables and explanations, and the next good request must be served with the right
numbers. The explanation panel under the tables must mark, line by line, exactly the matched tokens of
``zheval.explain_items`` with the module's options (and name the same winning reference).

The served app gets no ``HF_*_OFFLINE`` switch: a guard in its process refuses every connection and name lookup
outside loopback, and the test fails on any attempt (the app must not need the Hub or any other host).

The browser set-up is scripts/space_screenshot.py's (the screenshots are made the same way). Needs Debian's
``chromium`` and ``chromium-driver`` (.ci/run installs them) and selenium (the test extra): skipped without them
locally, a failure under ``CI=true``. The two apps and Chromium start in parallel; the whole file takes about
55 s on an idle 2-core machine (most of it the apps' start-up and jieba's dictionary load in three
processes), 65-75 s when the cores are shared.
"""

from __future__ import annotations

import contextlib
import os

import pytest

pytestmark = pytest.mark.commands  # the Spaces served and driven in Chromium: .ci/commands

import evaluate

from helpers.browser import load_script, stop_module_without_browser

METRICS = ("chinese_rouge", "chinese_bleu")

browser_kit = load_script("space_screenshot.py", "zheval_space_screenshot")
stop_module_without_browser(browser_kit)

from zheval.adapters.space import MAX_ITEMS, MAX_LINE_CHARS  # noqa: E402

# Five items, 1-3 references each (ragged), with words jieba splits differently from characters, Latin and digits.
PREDICTIONS = [
    "今天北京天气晴朗，适合出门散步。",
    "我想订一张明天去上海的火车票",
    "这家餐厅的烤鸭很好吃，价格也不贵",
    "请打开小黄鸭App查一下快递柜的取件码",
    "会议改到下午3点在302会议室",
]
REFERENCES = [
    ["北京今天天气很好，适合散步。"],
    ["帮我订明天到上海的高铁票", "我要买一张明天去上海的火车票", "明天去上海的票"],
    ["这家店的烤鸭非常好吃，也不贵", "烤鸭味道不错，价格实惠"],
    ["打开小黄鸭app，查快递柜取件码"],
    ["会议改在下午三点，302会议室", "下午3点302开会"],
]
PREDICTIONS_TEXT = "\n".join(PREDICTIONS)
REFERENCES_TEXT = "\n".join(" ||| ".join(refs) for refs in REFERENCES)


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """``{metric: ServedSpace}``: both Space folders built and both apps started at once (not yet ready); both
    process groups are killed at the end, also when a test or the start-up fails. Then no app may have tried to
    reach a host outside loopback."""
    root = tmp_path_factory.mktemp("spaces")
    with contextlib.ExitStack() as stack:
        apps = {m: stack.enter_context(browser_kit.served_space(browser_kit.build_space_folder(m, root)))
                for m in METRICS}
        yield apps
        for metric, app in apps.items():
            assert app.network_attempts() == [], (metric, app.network_attempts())


@pytest.fixture(scope="module")
def driver(started):
    """One headless Chromium for the module (started while the apps start)."""
    with browser_kit.headless_chromium() as d:
        yield d


@pytest.fixture(scope="module")
def served(started, driver):
    """``{metric: (ServedSpace, module)}`` once both apps answer; ``module`` is ``evaluate.load(<that folder>)`` in
    this process (the expected numbers)."""
    modules = {m: evaluate.load(str(app.folder)) for m, app in started.items()}
    for app in started.values():
        app.wait_ready()
    return {m: (app, modules[m]) for m, app in started.items()}


def _number(text: str) -> float:
    return float(text)


def _columns(table: dict) -> dict:
    """``{header: [cell of each row]}`` of a table read from the page."""
    return {h: [row[i] for row in table["rows"]] for i, h in enumerate(table["headers"])}


def _assert_table_numbers(shown: dict, expected: dict, rows: int) -> None:
    """Each ``expected[column]`` (a list over rows of unrounded numbers) is shown as ``round(x, 4)``."""
    cols = _columns(shown)
    assert len(shown["rows"]) == rows, shown
    for name, values in expected.items():
        assert [_number(c) for c in cols[name]] == [round(float(v), 4) for v in values], (name, cols[name], values)


def _assert_items_shown(per_item: dict, preds, refs) -> None:
    cols = _columns(per_item)
    assert cols["#"] == [str(i) for i in range(1, len(preds) + 1)]
    assert cols["prediction"] == list(preds)
    assert cols["references"] == [" ||| ".join(r) for r in refs]


def _assert_no_traceback(page) -> None:
    """No traceback in the page text, and no gradio error toast or error badge (those mean an exception reached
    gradio)."""
    assert not page.page_contains("Traceback") and not page.page_contains('File "')
    css = '[data-testid="toast-body"], [data-testid="status-tracker"].error'
    assert page.driver.find_elements("css selector", css) == []


def _check_rouge(shown, module, preds, refs, **opts):
    mean = module.compute(predictions=preds, references=refs, **opts)
    items = module.compute(predictions=preds, references=refs, use_aggregator=False, **opts)
    # the ROUGE types (per-item lists), not a preset's numbers of its own (llamafactory_*, rouge155_*: the widget
    # shows "mean F" per type, zheval.adapters.space.score_rouge)
    types = [k for k in mean if isinstance(items.get(k), list)]
    assert shown["kind"] == "ok", shown["message"]
    assert shown["summary"]["visible"] and shown["per_item"]["visible"]
    assert shown["message"] == f"Scored {len(preds)} lines ({sum(len(r) for r in refs)} references)."
    assert shown["summary"]["headers"] == ["", *types]
    assert shown["summary"]["rows"][0][0] == "mean F"
    _assert_table_numbers(shown["summary"], {t: [mean[t]] for t in types}, rows=1)
    _assert_items_shown(shown["per_item"], preds, refs)
    _assert_table_numbers(shown["per_item"], {t: items[t] for t in types}, rows=len(preds))
    assert shown["signature"] == mean["signature"]
    return mean


def _check_bleu(shown, module, preds, refs, **opts):
    res = module.compute(predictions=preds, references=refs, **opts)
    sentence = module.compute(predictions=preds, references=refs, **{**opts, "level": "sentence"})["scores"]
    assert shown["kind"] == "ok", shown["message"]
    n = len(res["precisions"])
    assert shown["summary"]["headers"] == ["level", "BLEU", *[f"P{i}" for i in range(1, n + 1)], "BP", "ratio",
                                           "hyp_len", "ref_len"]
    cols = _columns(shown["summary"])
    assert cols["level"] == [res["level"]]
    _assert_table_numbers(shown["summary"], {
        "BLEU": [res["bleu"]], **{f"P{i + 1}": [p] for i, p in enumerate(res["precisions"])},
        "BP": [res["brevity_penalty"]], "ratio": [res["length_ratio"]],
        "hyp_len": [res["translation_length"]], "ref_len": [res["reference_length"]]}, rows=1)
    _assert_items_shown(shown["per_item"], preds, refs)
    _assert_table_numbers(shown["per_item"], {"sentence BLEU": sentence}, rows=len(preds))
    assert shown["signature"] == res["signature"]
    return res


_READ_EXPLANATIONS = """
return [...document.querySelectorAll('#explanations .zheval-explain')].map(d => ({
  line: Number(d.dataset.line),
  reference: Number(d.querySelector('.zheval-explain-reference').dataset.reference),
  prediction: [...d.querySelectorAll('.zheval-explain-prediction mark.zheval-match')].map(m => m.textContent),
  reference_marks: [...d.querySelectorAll('.zheval-explain-reference mark.zheval-match')].map(m => m.textContent),
  visible: d.offsetParent !== null}));
"""


def _assert_explanations_shown(page, preds, refs, metric, **opts):
    """The explanation panel marks exactly the explanation's matched tokens (``zheval.explain_items`` with the
    module's options; BLEU at sentence level, as the per-item table), line by line, with the winning reference."""
    from zheval.adapters.highlight import highlight_runs
    from zheval.compute.explain import explain_items

    if metric == "bleu":
        opts = {**opts, "level": "sentence"}
    want = explain_items(preds, refs, metrics=[metric], **opts)
    shown = page.driver.execute_script(_READ_EXPLANATIONS)
    assert [s["line"] for s in shown] == list(range(1, len(preds) + 1)) and all(s["visible"] for s in shown)
    for s, e in zip(shown, want):
        h = e["highlight"]
        assert s["reference"] == h["reference"] + 1
        assert s["prediction"] == [t for t, m in highlight_runs(e["prediction"], h["prediction"]) if m], s
        assert s["reference_marks"] == [t for t, m in highlight_runs(e["references"][h["reference"]],
                                                                      h["reference_tokens"]) if m], s
    assert any(s["prediction"] for s in shown)  # something is marked at all


def _open(served, driver, metric):
    app, module = served[metric]
    return browser_kit.WidgetPage(driver, app.url).open(), module


def test_rouge_widget_shows_the_module_numbers(served, driver):
    page, module = _open(served, driver, "chinese_rouge")
    page.type_text("predictions", PREDICTIONS_TEXT)
    page.type_text("references", REFERENCES_TEXT)
    page.choose("tokenizer", "jieba")
    page.set_checked("rouge_types", "rougeW", True)
    page.set_checked("rouge_types", "rougeSU4", True)
    page.choose("multi_ref", "mean")
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
    res = _check_rouge(page.compute(), module, PREDICTIONS, REFERENCES, tokenizer="jieba", multi_ref="mean",
                       rouge_types=types)
    assert "|tok:jieba-" in res["signature"] and "|multi:mean|" in res["signature"]
    _assert_explanations_shown(page, PREDICTIONS, REFERENCES, "rouge", tokenizer="jieba", multi_ref="mean",
                               rouge_types=types)
    # the jieba run is not the character run (the option reached the module)
    assert res["rouge1"] != module.compute(predictions=PREDICTIONS, references=REFERENCES, multi_ref="mean")["rouge1"]

    page.choose("preset", "rouge155")  # ticks the preset's own types (zheval.adapters.space.rouge_type_boxes)
    from zheval.presets.rouge155 import ROUGE155_TYPES

    res = _check_rouge(page.compute(), module, PREDICTIONS, REFERENCES, preset="rouge155",
                       rouge_types=list(ROUGE155_TYPES))
    assert "|preset:rouge155|" in res["signature"]


def test_bleu_widget_shows_the_module_numbers(served, driver):
    page, module = _open(served, driver, "chinese_bleu")
    page.type_text("predictions", PREDICTIONS_TEXT)
    page.type_text("references", REFERENCES_TEXT)
    page.choose("tokenizer", "jieba")
    page.choose("smooth_method", "floor")
    page.choose("bp_ref_length", "shortest")
    page.set_number("max_order", 3)
    res = _check_bleu(page.compute(), module, PREDICTIONS, REFERENCES, tokenizer="jieba", level="corpus",
                      smooth_method="floor", bp_ref_length="shortest", max_order=3)
    assert "|tok:jieba-" in res["signature"] and "|order:3|smooth:floor[0.1]|bp:shortest|" in res["signature"]
    _assert_explanations_shown(page, PREDICTIONS, REFERENCES, "bleu", tokenizer="jieba", smooth_method="floor",
                               bp_ref_length="shortest", max_order=3)

    page.choose("preset", "sacrebleu-zh")
    res = _check_bleu(page.compute(), module, PREDICTIONS, REFERENCES, preset="sacrebleu-zh")
    assert "|preset:sacrebleu-zh|" in res["signature"]


# (predictions text, references text, what the message must say); long inputs are pasted, not typed
_LONG = "长" * 100_000
BAD_INPUTS = [
    ("a blank reference line", PREDICTIONS_TEXT, "\n".join([REFERENCES_TEXT.split("\n")[0], "", *REFERENCES_TEXT.split("\n")[2:]]),
     "reference line 2 is empty"),
    ("more predictions than references", PREDICTIONS_TEXT, "\n".join(REFERENCES_TEXT.split("\n")[:3]),
     "prediction line 4 has no reference line (5 prediction lines, 3 reference lines)"),
    ("more lines than the widget scores", "\n".join(["猫坐在垫子上"] * (MAX_ITEMS + 1)),
     "\n".join(["猫趴在垫子上面"] * (MAX_ITEMS + 1)), f"prediction line {MAX_ITEMS + 1}: the widget scores at most {MAX_ITEMS} lines"),
    ("a 100,000-character line", "\n".join([PREDICTIONS[0], _LONG, *PREDICTIONS[2:]]), REFERENCES_TEXT,
     f"prediction line 2 has 100,000 characters: the widget scores lines of at most {MAX_LINE_CHARS:,} characters"),
    ("a reference that normalisation empties", PREDICTIONS_TEXT,
     REFERENCES_TEXT.replace("明天去上海的票", "\u200b\u200d"),
     "reference line 2, reference 3 is empty after normalisation and tokenisation"),
]


@pytest.mark.parametrize("metric", METRICS)
def test_bad_input_gives_a_message_naming_the_line_and_the_server_goes_on(served, driver, metric):
    page, module = _open(served, driver, metric)
    check = _check_rouge if metric == "chinese_rouge" else _check_bleu
    for what, preds_text, refs_text, message in BAD_INPUTS:
        page.paste_text("predictions", preds_text)
        page.paste_text("references", refs_text)
        shown = page.compute()
        assert shown["kind"] == "error", (what, shown["message"])
        assert shown["message"].startswith("Error: ") and message in shown["message"], (what, shown["message"])
        _assert_no_traceback(page)
        # no stale numbers next to the error: the tables are hidden, the signature empty
        assert shown["signature"] == "" and not shown["summary"]["visible"] and not shown["per_item"]["visible"]
        assert page.driver.execute_script(_READ_EXPLANATIONS) == []  # no stale explanation either
        # the next good request is served, with the right numbers
        page.paste_text("predictions", PREDICTIONS_TEXT)
        page.paste_text("references", REFERENCES_TEXT)
        check(page.compute(), module, PREDICTIONS, REFERENCES)


def test_the_network_guard_of_the_served_app_refuses_and_logs(tmp_path):
    """The guard behind ``network_attempts() == []`` above: a lookup or a connection outside loopback is refused
    and logged, loopback is not; the hidden Trainer packages do not import."""
    (tmp_path / "sitecustomize.py").write_text(browser_kit.SITECUSTOMIZE, encoding="utf-8")
    log = tmp_path / "network.log"
    probe = (
        "import socket, urllib.request\n"
        "for url in ('http://huggingface.co/', 'http://203.0.113.7/'):\n"
        "    try:\n"
        "        urllib.request.urlopen(url, timeout=2)\n"
        "    except OSError as exc:\n"
        "        print('refused', url)\n"
        "try:\n"
        "    socket.socket().connect(('203.0.113.7', 443))\n"
        "except OSError:\n"
        "    print('refused connect')\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)\n"
        "socket.create_connection(s.getsockname(), timeout=2).close()\n"
        "print('loopback ok')\n"
        "try:\n"
        "    import transformers\n"
        "except ImportError:\n"
        "    print('transformers hidden')\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
               ZHEVAL_SPACE_NETWORK_LOG=str(log), ZHEVAL_SPACE_HIDDEN_MODULES="transformers")
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split("\n")[:5] == ["refused http://huggingface.co/", "refused http://203.0.113.7/",
                                          "refused connect", "loopback ok", "transformers hidden"]
    assert log.read_text().splitlines() == ["getaddrinfo 'huggingface.co'", "getaddrinfo '203.0.113.7'",
                                            "connect ('203.0.113.7', 443)"]
