"""Human review of a model's outputs, for every door's report:

* :mod:`~zheval.adapters.review.human_review` -- the stratified blind sample (``zheval sample``), the filled sheet
  read back, and the metric-human agreement (``zheval agree``);
* :mod:`~zheval.adapters.review.external_scores` -- per-item scores computed elsewhere (``zheval agree --scores``),
  ranked beside zheval's own metrics.
"""
