"""Layer 7, the library API on texts: input checks (`.inputs`), user-slip guards ([`.guards`][zheval.compute.guards]), option
resolution, and per metric the items/result pair ([`.rouge`][zheval.compute.rouge], [`.bleu`][zheval.compute.bleu]) plus both metrics at once
([`.joint`][zheval.compute.joint])."""
