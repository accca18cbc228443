"""Hub Space entry point of chinese_chrf: the widget of zheval.adapters.space (current gradio), not evaluate's
gradio 3 launch_gradio_widget. space_app loads chinese_chrf.py from this file's folder by its path (a Space is served
from /home/user/app, where evaluate.load(<folder>) would look for app/app.py)."""

from zheval.adapters.space import space_app

module, demo = space_app(__file__, "chinese_chrf")

if __name__ == "__main__":
    demo.launch()
