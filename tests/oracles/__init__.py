"""Independent oracles: reference implementations written for the tests, never shared with the library.

Each module computes a number the library computes, by another method (a plain dynamic programme, a different
sort), so that a test comparing the two can fail. Tests import them as ``oracles.<module>``. The test files of this
folder compare the definitions with the reference tools themselves (rouge-score, sacrebleu, nltk) on all of the
shared real data: the slow agreement checks.

* :mod:`oracles.ngram_sort` — BLEU clipped matches of one n-gram order by one sort per chunk.
* :mod:`oracles.lcs_dp` — the O(m·n) LCS table and ROUGE-1.5.5's weighted-LCS tables, written out.
"""
