"""Hub Space entry point of chinese_bertscore. A BERTScore Space needs the model's weights in the Space's own files
(zheval never downloads them); this file only loads the module, for a local check."""

import evaluate
from pathlib import Path

module = evaluate.load(str(Path(__file__).resolve().parent))

if __name__ == "__main__":
    print(module.info.description)
