"""Layer 6, results: reducers (mean, bootstrap intervals, paired tests; :mod:`.reducers`), the reproducibility
signature (:mod:`.signature`), the cross-checks against the reference tools (:mod:`.crosscheck_rouge`,
:mod:`.crosscheck_bleu`) and the text diagnostics of predictions (length ratio, truncation; :mod:`.diagnostics`)."""
