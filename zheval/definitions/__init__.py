"""Layer 3, definitions: THE reference semantics of ROUGE (:mod:`.rouge`), BLEU (:mod:`.bleu`), LCS (:mod:`.lcs`) and
union-LCS (:mod:`.union_lcs`) -- pure functions per pair / per item on token sequences. They import nothing from the
layers above; every fast twin (:mod:`zheval.fast`) names the function here that it equals."""
