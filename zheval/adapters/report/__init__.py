"""Score reports of every door (the 小黄鸭 evaluation, records files, ``zheval compare``, the human ceiling):

* :mod:`~zheval.adapters.report.tables` -- per-item statistics reduced to grouped scores with bootstrap intervals
  (:class:`~zheval.adapters.report.tables.Report`) and their tables (text, Markdown, JSON);
* :mod:`~zheval.adapters.report.breakdowns` -- the report's diagnostics that split or filter the items (truncation,
  diversity, length buckets, folds);
* :mod:`~zheval.adapters.report.plot` -- the plot;
* :mod:`~zheval.adapters.report.html_page` -- the self-contained HTML page (template in ``templates/``), with
  :mod:`~zheval.adapters.report.html_limits`, what the page leaves out when a column has many groups.
"""
