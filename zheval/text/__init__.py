"""Layer 1, text: character classes (`.chars`), named normalisation steps (`.normalize`) and the sentence
split rules (`.sentences`). Pure functions on ``str``; imports nothing from the layers above."""
