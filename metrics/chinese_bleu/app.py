"""Hub Space entry point of chinese_bleu: the metric widget on current gradio (zheval.adapters.space), not evaluate's gradio 3
launch_gradio_widget. The Space is served from its own folder (/home/user/app), so the metric script is loaded by
its file path: evaluate.load(<folder>) would look for <folder>/<folder name>.py, i.e. app/app.py.
"""

from pathlib import Path

import evaluate

from zheval.adapters.space import build_demo

HERE = Path(__file__).resolve().parent

module = evaluate.load(str(HERE / "chinese_bleu.py"))
demo = build_demo(module, card=HERE / "README.md")

if __name__ == "__main__":
    demo.launch()
