"""Human review of a model's outputs, for every door's report:

* `human_review` -- the stratified blind sample (``zheval sample``), the filled sheet
  read back, and the metric-human agreement (``zheval agree``);
* `external_scores` -- per-item scores computed elsewhere (``zheval agree --scores``),
  ranked beside zheval's own metrics.
"""
