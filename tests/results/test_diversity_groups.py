"""diversity(groups=...) takes what its docstring says -- a list of groups, each a list (tuple, range, integer
numpy array) of item indices 0 <= i < n -- and refuses the rest naming groups[g][k] (issue 35: a bool mask was read
as the indices 0 and 1, -1 wrapped around to the last item, an index out of range or a float gave a raw
IndexError/TypeError from inside the counting)."""

from __future__ import annotations

import numpy as np
import pytest

from zheval.results.distinct import diversity

PREDS = ["我很好", "我很好", "你好", "他们都很好"]
REFS = [["我好"], ["很好"], ["你好啊"], ["他们好"]]


def test_groups_of_indices_in_every_documented_form():
    whole = diversity(PREDS, REFS, "char").to_dict()
    for idx in ([0, 1, 2, 3], (0, 1, 2, 3), range(4), np.arange(4), np.arange(4, dtype=np.uint8)):
        got = diversity(PREDS, REFS, "char", groups=[idx])
        assert [d.to_dict() for d in got] == [whole], type(idx)
    one, two = diversity(PREDS, REFS, "char", groups=([0, 1], [2]))
    # by hand: 我很好 twice -> 6 unigrams, 3 distinct; both predictions repeated
    assert one.distinct_counts["distinct_1"] == [3, 6] and one.repetition["duplicates"] == 2
    assert two.n_items == 1 and two.distinct_counts["distinct_1"] == [2, 2]


@pytest.mark.parametrize("groups, error, says", [
    ([[True, False, True, False]], TypeError, "groups[0][0] is a bool (True); a mask is not a list of indices"),
    ([np.array([True, False, True, False])], TypeError, "groups[0][0] is a bool"),
    ([[0], [1, -1]], ValueError, "groups[1][1] = -1 is not an item index: 0 to 3 for 4 items (a negative index"),
    ([[0, 4]], ValueError, "groups[0][1] = 4 is not an item index: 0 to 3 for 4 items"),
    ([[0, 1.0]], TypeError, "groups[0][1] must be an int item index, got float 1.0"),
    ([np.array([0.0, 1.0])], TypeError, "groups[0] must be a 1-D array of int item indices"),
    ([[0, "1"]], TypeError, "groups[0][1] must be an int item index, got str '1'"),
    ([0, 1], TypeError, "groups[0] must be a list of item indices, got int"),
    ([[0], "12"], TypeError, "groups[1] must be a list of item indices, got str"),
    ({"a": [0]}, TypeError, "groups must be a list of item-index lists, got dict"),
])
def test_what_is_not_a_list_of_item_indices_is_refused_naming_the_position(groups, error, says):
    with pytest.raises(error) as info:
        diversity(PREDS, REFS, "char", groups=groups)
    assert says in str(info.value), str(info.value)
