"""The code of ``scripts/option_matrix.py`` (the command line: that file), one module per job: `calls` (entry points
resolved and called, outputs made canonical JSON), `data` (the real data's item sets and the 小黄鸭 files), `registry`
(the configurations' registry, the run context, the shared option lists), `cases_scores`, `cases_modules` and
`cases_files` (the configurations: library scoring calls; evaluate modules and the Trainer hook; the 小黄鸭 adapter
and the CLI), `recording` (``record``) and `comparing` (``compare``)."""
