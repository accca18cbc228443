"""Human review of a model's outputs, for every door's report:

* `human_review` -- the stratified blind sample (``zheval sample``), the filled sheet
  read back, and the metric-human agreement (``zheval agree``);
* `external_scores` -- per-item scores computed elsewhere (``zheval agree --scores``),
  ranked beside zheval's own metrics;
* `review_files` -- the formats of both files (CSV, TSV, JSON Lines, Parquet, each also
  ``.gz``, by the name), their one error, and the names a score column may not take.
"""
