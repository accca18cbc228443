"""Layer 1, text: character classes (:mod:`.chars`), named normalisation steps (:mod:`.normalize`) and the sentence
split rules (:mod:`.sentences`). Pure functions on ``str``; imports nothing from the layers above."""
