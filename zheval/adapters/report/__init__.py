"""Score reports of every door (the 小黄鸭 evaluation, records files, ``zheval compare``, the human ceiling):

* `tables` -- per-item statistics reduced to grouped scores with bootstrap intervals
  (`Report`) and their tables (text, Markdown, JSON);
* `breakdowns` -- the report's diagnostics that split or filter the items (truncation,
  diversity, length buckets, folds);
* `plot` -- the plot;
* `html_page` -- the self-contained HTML page (template in ``templates/``), with
  `html_limits`, what the page leaves out when a column has many groups.
"""
