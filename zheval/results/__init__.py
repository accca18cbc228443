"""Layer 6, results: reducers (mean, bootstrap intervals, paired tests; :mod:`.reducers`), the reproducibility
signature (:mod:`.signature`) and the cross-checks against the reference tools (:mod:`.crosscheck_rouge`,
:mod:`.crosscheck_bleu`)."""
