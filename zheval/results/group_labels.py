"""How a group value is written where a person reads it: the one label rule of ``zheval score`` (its tables, HTML
report and JSON ``comparison`` rows) and of ``zheval agree --predictions`` (its agreement rows).

A group row is labelled ``<field>=<value>`` (``domain=售后``), the row of every item ``overall``: so a group whose
value is ``overall`` (``domain=overall``) never reads as the overall row. `group_label` writes the value,
`group_value` reads it back.
"""

from __future__ import annotations

import json

__all__ = ["NULL_LABEL", "group_label", "group_value"]

NULL_LABEL = "null"
"""Label of the group of items whose domain/difficulty is ``null``."""


def group_label(value) -> str:
    """The label of a group value: `NULL_LABEL` (``null``) for a missing value (``None``); a string that is
    ``null`` itself, or is written in double quotes, is shown as a JSON string (``"null"``), so it never reads as
    the missing value; anything else as it is (``str(value)``). `group_value` inverts it. Raises nothing."""
    if value is None:
        return NULL_LABEL
    text = str(value)
    if text == NULL_LABEL or (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        return json.dumps(text, ensure_ascii=False)
    return text


def group_value(label: str):
    """The group value a `group_label` label stands for (``None`` for `NULL_LABEL`; a ``str`` otherwise).

    Raises:
        json.JSONDecodeError (a ValueError): a label in double quotes that is no JSON string."""
    if label == NULL_LABEL:
        return None
    if len(label) >= 2 and label[0] == '"' and label[-1] == '"':
        return json.loads(label)
    return label
