"""The columns of the review sheet ``zheval sample`` writes (`zheval.adapters.review.human_review`), free of any
import: the readers of scoring inputs recognise a sheet by them and refuse it
(`zheval.adapters.records_checks.review_sheet_problem`)."""

from __future__ import annotations

__all__ = ["RATING_COLUMNS", "SHEET_COLUMNS"]

#: The empty rating columns of a review sheet (the dialogue-evaluation practice's three human criteria).
RATING_COLUMNS = ("relevance", "informativeness", "naturalness")
#: Columns of a review sheet, in order: the item and its texts, then `RATING_COLUMNS`.
SHEET_COLUMNS = ("id", "query", "prediction", "references", *RATING_COLUMNS)
