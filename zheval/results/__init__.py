"""Layer 6, results: reducers (mean, bootstrap intervals, paired tests; `.reducers`), the reproducibility
signature (`.signature`), the cross-checks against the reference tools (`.crosscheck_rouge`,
`.crosscheck_bleu`) and the text diagnostics of predictions (length ratio, truncation; `.diagnostics`)."""
