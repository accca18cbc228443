"""Layer 7, the library API on texts: input checks (:mod:`.inputs`), user-slip guards (:mod:`.guards`), option
resolution, and per metric the items/result pair (:mod:`.rouge`, :mod:`.bleu`) plus both metrics at once
(:mod:`.joint`)."""
