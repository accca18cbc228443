"""Layer 3, definitions: THE reference semantics of ROUGE (`.rouge`), BLEU (`.bleu`), LCS (`.lcs`) and
union-LCS (`.union_lcs`) -- pure functions per pair / per item on token sequences. They import nothing from the
layers above; every fast twin (`zheval.fast`) names the function here that it equals."""
