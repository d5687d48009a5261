"""Surrogate splits (dtree.surrogates): small examples worked by hand, then R's rpart.

The hand-worked node has 11 rows. The primary split is ``p <= 6.5``: rows 0-5 go left (L),
rows 6-9 right (R), row 10 has no p (it counts in no agreement, but its values still place
numeric cuts). The majority ("blind") rule sends everyone left and agrees on 6 of 10.

    row  p     a     b = -a  c  d     e
    0    1     1     -1      x  NaN   1    L
    1    2     2     -2      x  2     2    L
    2    3     3     -3      x  3     5    L
    3    4     4     -4      y  4     6    L
    4    5     5     -5      y  5     9    L
    5    6     9     -9      z  9     10   L
    6    7     6     -6      z  6     3    R
    7    8     7     -7      z  7     4    R
    8    9     8     -8      w  8     7    R
    9    10    10    -10     y  NaN   8    R
    10   NaN   5.2   -5.2    w  NaN   NaN  (primary missing)

c's categories are (v, w, x, y, z); no row has v.
"""
from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd
import pytest
from jit import run_script
from references import assert_same_tree_as_rpart, load_kyphosis, requires_rpart, rpart

from dtree import CARTClassifier, CARTRegressor

from dtree._validation import Feature
from dtree.splits import TrainingSet
from dtree.surrogates import Surrogate, find_surrogates, majority_side
from dtree.tree import STAY, Node, branches

NAN = np.nan
CATEGORIES = ("v", "w", "x", "y", "z")
v, w, x, y, z = range(5)  # category codes of c
TABLE = np.array([
    # p    a    b     c  d    e
    [1, 1, -1, x, NAN, 1],
    [2, 2, -2, x, 2, 2],
    [3, 3, -3, x, 3, 5],
    [4, 4, -4, y, 4, 6],
    [5, 5, -5, y, 5, 9],
    [6, 9, -9, z, 9, 10],
    [7, 6, -6, z, 6, 3],
    [8, 7, -7, z, 7, 4],
    [9, 8, -8, w, 8, 7],
    [10, 10, -10, y, NAN, 8],
    [NAN, 5.2, -5.2, w, NAN, NAN],
])
P, A, B, C, D, E = range(6)


def surrogate_sides(X: np.ndarray, rows: np.ndarray, primary: int, surrogates, majority: int
                    ) -> np.ndarray:
    """Where the routing rule (``dtree.tree.branches``, as at fit) sends ``rows``, which miss
    the value of a node's primary split on column ``primary``, at a node with these
    surrogates and majority side (-1: none, and a row that no surrogate places stays, STAY)."""
    node = Node(value=np.zeros(2), prediction=np.zeros(2), n_samples=0, weighted_n_samples=0.0,
                impurity=0.0, depth=0, feature_index=primary, threshold=0.0,
                surrogates=tuple(surrogates), majority_branch=None if majority < 0 else majority)
    return branches(node, X, rows, "stop", at_fit=True)


def adjusted(agreement: float, majority: float) -> float:
    """Adjusted agreement: how much of the majority rule's shortfall the surrogate makes up."""
    return (agreement - majority) / (1 - majority)


def training_set(table: np.ndarray, features: list[Feature]) -> TrainingSet:
    return TrainingSet.of(table, features, np.zeros(len(table)), 2)


def hand_data() -> TrainingSet:
    return training_set(TABLE, [Feature("p"), Feature("a"), Feature("b"),
                                Feature("c", CATEGORIES), Feature("d"), Feature("e")])


def data_features(data: TrainingSet) -> list[Feature]:
    """The features behind a training set (categories as their codes)."""
    return [Feature(name, tuple(range(k)) if k else None)
            for name, k in zip(data.names, data.n_categories.tolist())]


def surrogates_of(data: TrainingSet, weights=None, goes_left=None, primary=P, **options):
    n = data.X.shape[0]
    rows = np.arange(n)
    weights = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    if goes_left is None:
        goes_left = np.nan_to_num(data.X[:, primary], nan=99) <= 6.5
    return find_surrogates(data, rows, weights, goes_left, primary, **options)


def by_name(surrogates: list[Surrogate]) -> dict[str, Surrogate]:
    return {s.feature: s for s in surrogates}


# ------------------------------------------------------------------------ worked by hand
def test_agreement_and_adjusted_agreement():
    found = by_name(surrogates_of(hand_data(), categories=[None, None, None, CATEGORIES,
                                                           None, None]))
    # a, from its smallest value up (5.2 is row 10's): a <= 5.1 sends rows 0-4 left (all L)
    # and rows 5-9 right (row 5 is L): 5 + 4 = 9 of 10 agree. The cut between 5.2 and 6
    # agrees on 9 too, but only a strictly better cut replaces the best so far.
    a = found["a"]
    assert (a.threshold, a.reverse, a.rule) == (5.1, False, "a <= 5.1")
    assert a.agreement == pytest.approx(9 / 10, abs=1e-12)
    assert a.adjusted_agreement == pytest.approx(adjusted(9 / 10, 6 / 10), abs=1e-12)  # 0.75
    # d lacks rows 0, 9 (and 10). Among rows 1-8 (sorted: 2 3 4 5 L, 6 7 8 R, 9 L) the cut 5.5
    # agrees on 4 + 3 = 7; a row missing d counts as a disagreement: 7 of the 10 rows with p.
    d = found["d"]
    assert (d.threshold, d.reverse) == (5.5, False)
    assert d.agreement == pytest.approx(7 / 10, abs=1e-12)
    assert d.adjusted_agreement == pytest.approx(adjusted(7 / 10, 6 / 10), abs=1e-12)  # 0.25


def test_reversed_numeric_direction():
    # b = -a: its small values are the R rows, so "b > t" goes left. From the smallest value
    # up, -10 R, -9 L, -8 -7 -6 R, -5.2 (row 10), -5 ... -1 L: the cut between -6 and -5.2
    # sends -10..-6 right and the rest left and agrees on 4 + 5 = 9, the same as a. It is met
    # before the cut between -5.2 and -5, which ties, so b's threshold is -5.6 where a's is 5.1.
    b = by_name(surrogates_of(hand_data()))["b"]
    assert (b.threshold, b.reverse, b.rule) == (-5.6, True, "b > -5.6")
    assert b.agreement == pytest.approx(9 / 10, abs=1e-12)
    assert b.adjusted_agreement == pytest.approx(adjusted(9 / 10, 6 / 10), abs=1e-12)


def test_categorical_surrogate():
    # c among the rows with p: x 3 L; y 2 L + 1 R; z 1 L + 2 R; w 1 R (row 10's w has no p).
    # Each category goes where most of its rows go: x, y left; z, w right; v (no row) neither.
    # Agree: 3 + 2 + 2 + 1 = 8 of 10.
    c = by_name(surrogates_of(hand_data(), categories=[None, None, None, CATEGORIES,
                                                       None, None]))["c"]
    assert c.category_sets == (frozenset("xy"), frozenset("wz"))
    assert c.branch_of_code == (-1, 1, 0, 0, 1)  # v w x y z
    assert c.rule == "c in {x, y}"
    assert c.agreement == pytest.approx(8 / 10, abs=1e-12)
    assert c.adjusted_agreement == pytest.approx(adjusted(8 / 10, 6 / 10), abs=1e-12)  # 0.5
    # without the labels, the sets hold the category codes
    coded = by_name(surrogates_of(hand_data()))["c"]
    assert coded.category_sets == (frozenset({x, y}), frozenset({w, z}))


def test_no_better_than_the_majority_rule_is_dropped():
    # e sorted: 1 2 L, 3 4 R, 5 6 L, 7 8 R, 9 10 L. Lower side left agrees on L(low) + R(up):
    # 2 + 4 = 6 after 1 2, 4 + 2 = 6 after 1..6, never more; lower side right, R(low) + L(up):
    # 2 + 4 = 6 after 1..4, 4 + 2 = 6 after 1..8. The best, 6 of 10, only ties the majority.
    found = surrogates_of(hand_data())
    assert [s.feature for s in found] == ["a", "b", "c", "d"]  # no e; p is the primary
    # ranked by agreement 9, 9, 8, 7 tenths; a and b tie and keep the column order
    assert [s.agreement for s in found] == pytest.approx([0.9, 0.9, 0.8, 0.7], abs=1e-12)
    assert [s.feature for s in surrogates_of(hand_data(), max_surrogates=2)] == ["a", "b"]
    assert surrogates_of(hand_data(), max_surrogates=0) == []


def test_ties_keep_the_column_order():
    # 20 copies each of a and b, alternating: all 40 agree on 9 of 10 (rpart's insert_split
    # puts a new surrogate after those that agree as much)
    copies = np.column_stack([TABLE[:, P]] + [TABLE[:, A], TABLE[:, B]] * 20)
    data = training_set(copies, [Feature("p")] + [Feature(f"s{j}") for j in range(1, 41)])
    found = surrogates_of(data, max_surrogates=40)
    assert [s.feature_index for s in found] == list(range(1, 41))
    assert [s.feature_index for s in surrogates_of(data, max_surrogates=3)] == [1, 2, 3]


def test_surrogatestyle_1_counts_only_rows_with_the_surrogate():
    # style 1: the sums run over the rows that also have the surrogate's attribute. d: rows 1-8,
    # 5 L and 3 R; the cut 5.5 agrees on 7: 7/8, majority 5/8.
    d = by_name(surrogates_of(hand_data(), style=1))["d"]
    assert d.agreement == pytest.approx(7 / 8, abs=1e-12)
    assert d.adjusted_agreement == pytest.approx(adjusted(7 / 8, 5 / 8), abs=1e-12)  # 2/3
    # a has every row: the same as style 0
    assert by_name(surrogates_of(hand_data(), style=1))["a"].agreement == pytest.approx(0.9)


def test_weights():
    # Row 5 (L: a = 9, c = z, d = 9, e = 10) weighs 3, row 10 (no p) 5: t_L = 8, t_R = 4.
    # a <= 5.1: 5 + 4 = 9 of 12 (a <= 9.5 would agree on 8 + 1 = 9 too, but is never tried:
    # only one row (a = 10) lies above it). b > -5.6: 4 + 5 = 9 of 12. c: z now holds 3 L against
    # 2 R and goes left: x 3 + y 2 + z 3 + w 1 = 9 of 12. Three-way tie: column order.
    # d: among its rows 1-8, L weighs 7 and no cut agrees on more than 7: dropped. e: the best
    # cuts agree on 8 (2 + 6 after 1..4; 4 + 4 after 1..8), only the majority's 8: dropped.
    weights = np.ones(11)
    weights[5], weights[10] = 3, 5
    found = surrogates_of(hand_data(), weights, categories=[None, None, None, CATEGORIES,
                                                            None, None])
    assert [s.feature for s in found] == ["a", "b", "c"]
    for s in found:
        assert s.agreement == pytest.approx(9 / 12, abs=1e-12)
        assert s.adjusted_agreement == pytest.approx(adjusted(9 / 12, 8 / 12), abs=1e-12)
    assert (found[0].threshold, found[1].threshold) == (5.1, -5.6)
    assert found[2].category_sets == (frozenset("xyz"), frozenset("w"))


def test_categorical_ties():
    # 8 rows, 4 L and 4 R. f: g 2 L; h 1 L + 1 R (a tie); k 1 L + 3 R.
    f_column = [0, 0, 1, 2, 1, 2, 2, 2]
    goes_left = np.array([1, 1, 1, 1, 0, 0, 0, 0], dtype=bool)
    table = np.column_stack([np.arange(8.0), f_column])
    data = training_set(table, [Feature("q"), Feature("f", ("g", "h", "k"))])
    found = surrogates_of(data, goes_left=goes_left, primary=0,
                          categories=[None, ("g", "h", "k")])
    # h's tie goes the way of the majority of the rows that have f; 4 L = 4 R: right.
    # Agree: g 2 + h 1 + k 3 = 6 of 8; majority 4 of 8.
    (f,) = found
    assert f.category_sets == (frozenset("g"), frozenset("hk"))
    assert f.agreement == pytest.approx(6 / 8, abs=1e-12)
    assert f.adjusted_agreement == pytest.approx(adjusted(6 / 8, 4 / 8), abs=1e-12)  # 0.5
    # one R row of k loses its f: among the rows with f, 4 L > 3 R, so h's tie goes left.
    # Agree: g 2 + h 1 + k 2 = 5, over all 8 rows with the primary (style 0).
    table[5, 1] = NAN
    (f,) = surrogates_of(training_set(table, data_features(data)), goes_left=goes_left,
                         primary=0, categories=[None, ("g", "h", "k")])
    assert f.category_sets == (frozenset("gh"), frozenset("k"))
    assert f.agreement == pytest.approx(5 / 8, abs=1e-12)
    assert f.adjusted_agreement == pytest.approx(adjusted(5 / 8, 4 / 8), abs=1e-12)  # 0.25
    assert majority_side(goes_left, np.ones(8), np.ones(8, bool)) == -1  # 4 = 4: no default


def test_categorical_surrogate_needs_two_disagreements():
    # rpart's rule (choose_surg.c): a categorical surrogate needs at least two rows on which it
    # agrees and two on which it disagrees. A perfect copy of the primary (0 disagreements) and
    # one with a single flip are dropped; two flips: 8 of 10 agree, kept. A numeric perfect
    # copy is kept (agreement 1).
    side = np.array([0] * 5 + [1] * 5)
    one, two = side.copy(), side.copy()
    one[0] = 1
    two[0], two[9] = 1, 0
    table = np.column_stack([np.arange(10.0), side, one, two, np.arange(10.0) + 0.5])
    pq = ("p", "q")
    features = [Feature("x"), Feature("f0", pq), Feature("f1", pq), Feature("f2", pq),
                Feature("copy")]
    found = surrogates_of(training_set(table, features), goes_left=side == 0, primary=0)
    assert [s.feature for s in found] == ["copy", "f2"]
    assert found[0].agreement == 1.0 and found[0].adjusted_agreement == 1.0
    assert found[0].threshold == 5.0  # between 4.5 and 5.5
    assert found[1].agreement == pytest.approx(8 / 10, abs=1e-12)
    assert found[1].adjusted_agreement == pytest.approx(adjusted(8 / 10, 5 / 10), abs=1e-12)


def test_numeric_cut_needs_two_rows_each_side():
    # 9 L rows and one R row, row 9, which alone has the smallest s. The cut 0.5 would agree on
    # all 10 rows but leaves one row below it; the next, 1.5 (rows 9 and 0 below, sent right),
    # agrees on 1 + 8 = 9, no more than the majority rule: s is no surrogate.
    s = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 0], dtype=float)
    table = np.column_stack([np.arange(10.0), s])
    features = [Feature("x"), Feature("s")]
    side = np.array([0] * 9 + [1])
    assert surrogates_of(training_set(table, features), goes_left=side == 0, primary=0) == []
    # with rows 8 and 9 both R and lowest in s, the cut between them and the rest is allowed:
    # everything agrees
    table[8, 1] = 0.5
    side[8] = 1
    (found,) = surrogates_of(training_set(table, features), goes_left=side == 0, primary=0)
    assert (found.rule, found.agreement, found.adjusted_agreement) == ("s > 0.75", 1.0, 1.0)


def test_surrogate_sides_and_the_majority_rule():
    # The node's surrogates a <= 5.1, b > -5.6, c in {x, y}, d <= 5.5, and the majority, left.
    data = hand_data()
    found = surrogates_of(data)
    goes_left = np.nan_to_num(data.X[:, P], nan=99) <= 6.5
    known = ~np.isnan(data.X[:, P])
    majority = majority_side(goes_left, np.ones(11), known)
    assert majority == 0  # 6 L > 4 R
    new = np.array([
        # p   a    b    c    d    e
        [NAN, 4, NAN, NAN, NAN, NAN],   # a: 4 <= 5.1: left
        [NAN, 7, -3, x, NAN, NAN],      # a first: 7 > 5.1: right
        [NAN, NAN, -3, z, NAN, NAN],    # b: -3 > -5.6: left
        [NAN, NAN, NAN, w, 1, NAN],     # c: w is sent right
        [NAN, NAN, NAN, v, 8, NAN],     # c cannot place v; d: 8 > 5.5: right
        [NAN, NAN, NAN, NAN, NAN, 1],   # nothing known (e is no surrogate): the majority
    ])
    rows = np.arange(6)
    assert surrogate_sides(new, rows, P, found, majority).tolist() == [0, 1, 0, 1, 1, 0]
    assert surrogate_sides(new, rows, P, found, -1).tolist()[-1] == STAY  # no default
    assert surrogate_sides(new, rows, P, [], majority).tolist() == [0] * 6


def test_bad_input():
    data = hand_data()
    rows, ones = np.arange(11), np.ones(11)
    left = np.nan_to_num(data.X[:, P], nan=99) <= 6.5
    with pytest.raises(ValueError, match="same length"):
        find_surrogates(data, rows, ones[:5], left, P)
    with pytest.raises(ValueError, match="primary must be a column index"):
        find_surrogates(data, rows, ones, left, 6)
    with pytest.raises(ValueError, match="max_surrogates"):
        find_surrogates(data, rows, ones, left, P, -1)
    with pytest.raises(ValueError, match="surrogatestyle"):
        find_surrogates(data, rows, ones, left, P, style=2)
    with pytest.raises(ValueError, match="both ways"):
        find_surrogates(data, rows, ones, np.ones(11, bool), P)


def test_the_callers_data_is_not_modified():
    data = hand_data()
    before = data.X.copy()
    rows, weights = np.arange(11), np.ones(11)
    left = np.nan_to_num(data.X[:, P], nan=99) <= 6.5
    kept = (rows.copy(), weights.copy(), left.copy())
    find_surrogates(data, rows, weights, left, P)
    np.testing.assert_array_equal(data.X, before)
    for array, copy in zip((rows, weights, left), kept):
        np.testing.assert_array_equal(array, copy)


NO_JIT_SCRIPT = """
import json
import numpy as np
from dtree._validation import Feature
from dtree.splits import TrainingSet
from dtree.surrogates import find_surrogates
rng = np.random.default_rng(3)
n = 200
z = rng.normal(size=n)
X = np.column_stack([np.round(z, 1), np.round(z + rng.normal(size=n), 1),
                     rng.integers(0, 4, n) + (z > 0), np.round(-z + rng.normal(size=n)),
                     (z > 0.3) + rng.integers(0, 2, n)]).astype(float)
X[rng.random(X.shape) < 0.1] = np.nan
features = [Feature(f"x{j}") for j in range(4)] + [Feature("k", (0, 1, 2))]
data = TrainingSet.of(X, features, np.zeros(n), 2)
rows = np.flatnonzero(rng.random(n) < 0.8)
weights = rng.integers(1, 4, len(rows)) / 2
out = []
for style in (0, 1):
    found = find_surrogates(data, rows, weights, X[rows, 0] <= 0.2, 0, 5, style=style)
    out.append([[s.feature, s.agreement, s.adjusted_agreement, s.threshold, s.reverse,
                 s.branch_of_code] for s in found])
print(json.dumps(out))
"""


def test_plain_python_gives_the_same_surrogates():
    compiled = run_script(NO_JIT_SCRIPT, jit=True)
    plain = run_script(NO_JIT_SCRIPT, jit=False)
    assert compiled == plain
    assert all(len(found) >= 2 for found in compiled)


# ------------------------------------------------------------------------------ R's rpart
KYPHOSIS = ["Age", "Number", "Start"]


def encode(frame: pd.DataFrame, columns: list[str]) -> tuple[TrainingSet, list[Feature]]:
    """The columns as dtree encodes them: categoricals as codes, NaN where missing."""
    features, values = [], []
    for name in columns:
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            features.append(Feature(name, tuple(column.cat.categories)))
            values.append(np.where(column.isna(), NAN, column.cat.codes).astype(float))
        else:
            features.append(Feature(name))
            values.append(column.to_numpy(float))
    return training_set(np.column_stack(values), features), features


def rpart_sides(split: pd.Series, fit, data: TrainingSet, rows: np.ndarray):
    """Where one row of rpart's splits matrix sends each of ``rows`` (0 left, 1 right, -1 if
    the variable is missing), and for a factor the side of each level (-1: not at the node)."""
    j = data.names.index(split["variable"])
    values = data.X[rows, j]
    known = ~np.isnan(values)
    sides = np.full(len(rows), -1)
    if abs(split["ncat"]) == 1:  # ncat -1: "< index" goes left; +1: ">= index" goes left
        below = values[known] < split["index"]
        sides[known] = np.where(below == (split["ncat"] == -1), 0, 1)
        return sides, None
    n_levels = int(data.n_categories[j])
    codes = fit.csplit.iloc[int(split["index"]) - 1, :n_levels].to_numpy()  # 1 L, 3 R, 2 absent
    levels = np.select([codes == 1, codes == 3], [0, 1], -1)
    sides[known] = levels[values[known].astype(int)]
    return sides, tuple(levels.tolist())


def below(leaf: np.ndarray, node: int) -> np.ndarray:
    """Rows whose node in rpart's ``where`` is ``node`` or lies below it (the parent of t is
    t // 2)."""
    depth = np.floor(np.log2(leaf)).astype(int) - int(np.log2(node))
    return (depth >= 0) & (leaf >> np.maximum(depth, 0) == node)


def check_every_node(fit, frame: pd.DataFrame, columns: list[str], weights=None, style=0,
                     mirror=False) -> int:
    """Walk rpart's tree from the root; at each node that splits, compare our surrogates
    with rpart's (variable, agreement, adjusted agreement, cut and direction or level sides),
    and send the node's rows on with rpart's primary split, then our surrogates and majority
    rule for the rows missing the primary; every node's rows must be rpart's. ``mirror``
    swaps left and right of every primary (dtree's numeric "x <= t goes left" is rpart's
    "x >= t goes left" mirrored). Returns the number of surrogates compared."""
    data, features = encode(frame, columns)
    n = len(frame)
    weights = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    rows_at = {1: np.arange(n)}
    compared = 0
    for node in fit.frame.index:
        rows = rows_at.pop(node)
        np.testing.assert_array_equal(rows, np.flatnonzero(below(fit.leaf, node)))
        if fit.frame.loc[node, "var"] == "<leaf>":
            continue
        splits = fit.splits[fit.splits["node"] == node]
        primary = splits[splits["role"] == "primary"].iloc[0]
        p = data.names.index(primary["variable"])
        sides, _ = rpart_sides(primary, fit, data, rows)
        if mirror:
            sides = np.where(sides == -1, -1, 1 - sides)
        ours = find_surrogates(data, rows, weights[rows], sides == 0, p, 5, style=style,
                               categories=[f.categories for f in features])
        theirs = fit.surrogates[fit.surrogates["node"] == node]
        assert [s.feature for s in ours] == theirs["variable"].tolist(), f"node {node}"
        for s, (_, r) in zip(ours, theirs.iterrows()):
            assert s.agreement == pytest.approx(r["agree"], abs=1e-9), f"node {node}"
            assert s.adjusted_agreement == pytest.approx(r["adj"], abs=1e-9), f"node {node}"
            if s.threshold is not None:
                assert s.threshold == pytest.approx(r["index"], abs=1e-12)
                assert s.reverse == ((r["ncat"] == 1) != mirror), f"node {node}: {s.rule}"
            else:
                levels = rpart_sides(r, fit, data, rows)[1]
                if mirror:
                    levels = tuple(-1 if k == -1 else 1 - k for k in levels)
                assert s.branch_of_code == levels, f"node {node}: {s.rule}"
            compared += 1
        known = sides >= 0
        majority = majority_side(sides == 0, weights[rows], known)
        sides[~known] = surrogate_sides(data.X, rows[~known], p, ours, majority)
        rows_at[2 * node + mirror], rows_at[2 * node + 1 - mirror] = (rows[sides == 0],
                                                                      rows[sides == 1])
    return compared


@pytest.fixture(scope="module")
def kyphosis_fit():
    return rpart("Kyphosis ~ " + " + ".join(KYPHOSIS), "kyphosis")  # minsplit 20, minbucket 7


@requires_rpart
def test_rpart_kyphosis_root(kyphosis_fit):
    # rpart's root: Start >= 8.5 left (62 children) or < 8.5 right (19). Number < 6.5 sends
    # left 65 children the way Start does (the rpart vignette: agree = 0.802, adj = 0.158);
    # the majority rule gets 62: adjusted (65 - 62) / (81 - 62) = 3/19.
    data, _ = encode(kyphosis_fit.data, KYPHOSIS)
    start = data.X[:, 2]
    (number,) = find_surrogates(data, np.arange(81), np.ones(81), start >= 8.5, 2)
    assert (number.feature, number.threshold, number.reverse) == ("Number", 6.5, False)
    assert number.agreement == pytest.approx(65 / 81, abs=1e-12)
    assert number.adjusted_agreement == pytest.approx(3 / 19, abs=1e-12)
    # dtree's orientation (Start <= 8.5 left): the same numbers, Number > 6.5 goes left
    (mirrored,) = find_surrogates(data, np.arange(81), np.ones(81), start <= 8.5, 2)
    assert (mirrored.rule, mirrored.agreement) == ("Number > 6.5", number.agreement)


@requires_rpart
@pytest.mark.parametrize("mirror", [False, True])
def test_rpart_kyphosis_every_node(kyphosis_fit, mirror):
    # rpart's defaults: the root and nodes 2, 5 have surrogates (1, 2, 2); node 11 none
    assert check_every_node(kyphosis_fit, kyphosis_fit.data, KYPHOSIS, mirror=mirror) == 5


def holed_kyphosis() -> pd.DataFrame:
    """Kyphosis with three factors derived from it and holes punched in five columns."""
    data = load_kyphosis()
    data["AgeGroup"] = pd.cut(data["Age"], [-1, 20, 60, 100, 150, 300], labels=list("abcde"))
    data["Parity"] = pd.Categorical(np.where(data["Number"] % 2 == 0, "even", "odd"))
    data["StartBand"] = pd.cut(data["Start"], [0, 5, 10, 13, 15, 20],
                               labels=["s1", "s2", "s3", "s4", "s5"])
    for column, start, step in [("Number", 0, 7), ("Start", 3, 9), ("Age", 5, 11),
                                ("AgeGroup", 2, 8), ("StartBand", 4, 10)]:
        data.loc[start::step, column] = np.nan
    return data


HOLED = ["Age", "Number", "Start", "AgeGroup", "Parity", "StartBand"]


@requires_rpart
@pytest.mark.parametrize("style", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
def test_rpart_missing_values_and_factors(style, weighted):
    data = holed_kyphosis()
    weights = 1 + (np.arange(81) % 3) / 2 if weighted else None
    control = {"surrogatestyle": style, "minsplit": 6, "minbucket": 2, "cp": 0, "xval": 0}
    fit = rpart("Kyphosis ~ " + " + ".join(HOLED), data[HOLED + ["Kyphosis"]],
                control=control, weights=weights)
    assert fit.surrogates["count"].sum() > 0  # some rows missing a primary went by surrogates
    assert (fit.surrogates["ncat"].abs() > 1).sum() >= 3  # some surrogates are factors
    assert check_every_node(fit, data, HOLED, weights, style) == len(fit.surrogates) >= 11


def synthetic(seed: int, n: int = 300) -> pd.DataFrame:
    """Three numeric and three categorical columns related to a hidden z, with holes."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    frame = pd.DataFrame({
        "x1": np.round(z + rng.normal(scale=0.7, size=n), 1),
        "x2": rng.integers(0, 6, n) + (z > 0).astype(float),
        "x3": np.round(-z + rng.normal(scale=1.5, size=n), 0),
        "c1": pd.Categorical(rng.choice(list("abcde"), n)),
        "c2": pd.Categorical(np.where(z + rng.normal(scale=0.8, size=n) > 0, "hi", "lo"),
                             categories=["hi", "lo", "mid"]),
        "c3": pd.Categorical(np.array(list("pqrstu"))[
            np.clip(((z + 2) * 1.5 + rng.normal(scale=0.5, size=n)).astype(int), 0, 5)]),
    })
    frame["y"] = pd.Categorical(np.where(z + rng.normal(scale=0.5, size=n) > 0.3, "yes", "no"))
    for k, (column, step) in enumerate(zip(frame.columns[:6], [5, 7, 11, 6, 9, 13])):
        frame.loc[(seed + k) % step::step, column] = np.nan
    assert frame.iloc[:, :6].notna().any(axis=1).all()  # rpart would drop a row with nothing
    return frame


@requires_rpart
@pytest.mark.parametrize("seed, style", [(0, 0), (1, 1), (2, 0)])
def test_rpart_synthetic(seed, style):
    frame = synthetic(seed)
    columns = list(frame.columns[:6])
    weights = 0.5 + (np.arange(len(frame)) % 4) / 4 if seed % 2 else None
    control = {"surrogatestyle": style, "minsplit": 8, "minbucket": 3, "cp": 0, "xval": 0,
               "maxcompete": 0}
    fit = rpart("y ~ " + " + ".join(columns), frame, control=control, weights=weights)
    assert (fit.surrogates["ncat"].abs() > 1).sum() >= 4  # some surrogates are factors
    assert check_every_node(fit, frame, columns, weights, style) == len(fit.surrogates) >= 6


@requires_rpart
def test_rpart_drops_a_categorical_surrogate_with_fewer_than_two_disagreements():
    # the rule of test_categorical_surrogate_needs_two_disagreements, in R: y = (x > 20);
    # f0 copies it, f1 differs on one row, f2 on two; z = x + 0.5
    x = np.arange(1, 41)
    left = x <= 20
    f0 = np.where(left, "p", "q")
    f1, f2 = f0.copy(), f0.copy()
    f1[2] = f2[2] = "q"
    f2[29] = "p"
    frame = pd.DataFrame({"y": pd.Categorical(np.where(left, "a", "b")), "x": x.astype(float),
                          **{name: pd.Categorical(f) for name, f in
                             [("f0", f0), ("f1", f1), ("f2", f2)]}, "z": x + 0.5})
    columns = ["x", "f0", "f1", "f2", "z"]
    fit = rpart("y ~ " + " + ".join(columns), frame,
                control={"minsplit": 2, "minbucket": 1, "cp": 0, "xval": 0, "maxcompete": 0})
    assert fit.surrogates["variable"].tolist() == ["z", "f2"]  # agree 40/40, 38/40
    assert check_every_node(fit, frame, columns) == 2


# ------------------------------------------- whole trees with min_samples_leaf, against rpart
# CARTClassifier / CARTRegressor with min_samples_split=S, min_samples_leaf=B are rpart with
# minsplit = S, minbucket = B (method "class" / "anova"), the rest of rpart.control set to what
# dtree does: maxsurrogate = 5 (max_surrogates), usesurrogate = 2 (a row no surrogate places
# goes with the majority of the rows the primary split sends, and stays at the node when that
# is a tie: nodesplit.c), surrogatestyle = 0, maxcompete = 0 and xval = 0 (nothing that
# changes the tree). cp = -1, not 0: with cp = 0 rpart still snips every split whose subtree
# does not lower the node's risk (partition.c, "complexity <= alpha"), which for "class" is the
# misclassification count; with a negative cp no subtree is snipped, and a node is still split
# only when the split decreases the impurity (bsplit.c). maxdepth stays 30 (deeper than these
# trees grow). rpart counts minsplit in rows at the node and minbucket in rows with a known
# value of the split attribute on each side (gini.c, anova.c: "edge"); it drops a row whose
# predictors are all missing (na.rpart), so the data here has none.
RPART_CONTROL = {"cp": -1, "xval": 0, "maxcompete": 0, "maxsurrogate": 5, "usesurrogate": 2,
                 "surrogatestyle": 0}
MINBUCKET = [("class", 0, 20, 7), ("class", 1, 20, 7), ("class", 2, 12, 4),
             ("anova", 0, 20, 7), ("anova", 1, 20, 7), ("anova", 2, 12, 4)]
PREDICTORS = ["x1", "x2", "x3", "c1", "c2"]


def random_frame(seed: int, n: int, method: str) -> pd.DataFrame:
    """Five predictors (three numeric, unrounded, and two factors) that the target depends on,
    each missing on 15% of the rows, at random; no row misses them all."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    frame = pd.DataFrame({
        "x1": z + rng.normal(scale=0.8, size=n),
        "x2": rng.normal(size=n) + 0.5 * (z > 0),
        "x3": rng.uniform(-2, 2, size=n) - 0.5 * z,
        "c1": pd.Categorical(np.array(list("abcd"))[
            np.clip((z + 2 + rng.normal(scale=0.7, size=n)).astype(int), 0, 3)]),
        "c2": pd.Categorical(rng.choice(["lo", "mid", "hi"], n),
                             categories=["lo", "mid", "hi"]),
    })
    if method == "class":
        classes = np.where(z + rng.normal(scale=0.6, size=n) > 0.2, "yes", "no")
        if seed == 2:  # three classes
            classes[(frame["c2"] == "mid") & (rng.random(n) < 0.6)] = "maybe"
        frame["y"] = pd.Categorical(classes)
    else:
        frame["y"] = 3 * z + (frame["c2"] == "hi") * 2.0 + rng.normal(size=n)
    holes = rng.random((n, len(PREDICTORS))) < 0.15
    holes[holes.all(axis=1), 0] = False
    for j, column in enumerate(PREDICTORS):
        frame.loc[holes[:, j], column] = np.nan
    return frame


@cache
def minbucket_case(method: str, seed: int, split: int, bucket: int):
    """rpart's fit and dtree's on 200 random rows, and 100 new rows for predictions."""
    frame, new = random_frame(seed, 200, method), random_frame(seed + 100, 100, method)
    fit = rpart("y ~ " + " + ".join(PREDICTORS), frame, method=method,
                control={"minsplit": split, "minbucket": bucket, **RPART_CONTROL},
                newdata=pd.concat([frame, new], ignore_index=True)[PREDICTORS])
    estimator = CARTClassifier if method == "class" else CARTRegressor
    model = estimator(min_samples_split=split, min_samples_leaf=bucket).fit(
        frame[PREDICTORS], frame["y"])
    return frame, new, fit, model


@requires_rpart
@pytest.mark.parametrize("method, seed, split, bucket", MINBUCKET)
def test_whole_tree_with_min_samples_leaf_as_rpart(method, seed, split, bucket):
    frame, _, fit, model = minbucket_case(method, seed, split, bucket)
    assert len(fit.frame) >= 9 and len(fit.surrogates) >= 5  # a tree worth comparing
    # a factor splits some node or is some node's surrogate
    assert fit.frame["var"].isin(["c1", "c2"]).any() or (fit.surrogates["ncat"].abs() > 1).any()
    classes = getattr(model, "classes_", None)
    assert_same_tree_as_rpart(model.tree_.root, fit, classes)


def rpart_predictions(fit, nodes: np.ndarray, classes) -> np.ndarray:
    """rpart's prediction at each of ``nodes``: class probabilities, or the mean."""
    if classes is None:
        return fit.frame.loc[nodes, "yval"].to_numpy()
    return fit.frame.loc[nodes, [f"prob_{c}" for c in classes]].to_numpy()


@requires_rpart
@pytest.mark.parametrize("method, seed, split, bucket", MINBUCKET)
def test_predictions_with_min_samples_leaf_as_rpart(method, seed, split, bucket):
    # The training rows and 100 new ones, with missing values, through rpart's predict(),
    # which sends a row that no surrogate places to the child holding more rows and stops at
    # the node only when they hold equally many (pred_rpart.c). (Without newdata, predict()
    # would answer for the training rows from the nodes where the fit left them, `where`,
    # which follows the fit's majority rule instead.)
    frame, new, fit, model = minbucket_case(method, seed, split, bucket)
    classes = getattr(model, "classes_", None)
    rows = pd.concat([frame, new], ignore_index=True)[PREDICTORS]
    if classes is None:
        ours, theirs = model.predict(rows), fit.predicted["yval"].to_numpy()
    else:
        ours = model.predict_proba(rows)
        theirs = fit.predicted[[f"prob_{c}" for c in classes]].to_numpy()
    np.testing.assert_allclose(theirs, rpart_predictions(fit, fit.predicted["node"], classes),
                               rtol=1e-9)
    np.testing.assert_allclose(ours[:len(frame)], theirs[:len(frame)], rtol=1e-9, atol=1e-12,
                               err_msg="training rows")
    np.testing.assert_allclose(ours[len(frame):], theirs[len(frame):], rtol=1e-9, atol=1e-12,
                               err_msg="new rows")


@requires_rpart
def test_a_row_that_nothing_places_on_a_tie_stays_at_the_node():
    # 10 rows: x1 splits the 8 rows that have it 4 a | 4 b at 4.5; its only surrogate, x2 < 3.5
    # (x2 = 1 2 3 5 | 4 6 7 8 on those rows: 7 of 8 agree), is missing on the same two rows 8
    # and 9 (one a, one b), and so is x1. x3 is the same on every row: no split, no surrogate;
    # it keeps rows 8 and 9 in rpart's data (na.rpart drops a row with no predictor). The
    # majority rule ties, 4 = 4: rpart keeps both rows at the root, so its leaves hold (4, 0)
    # and (0, 4), and predicting them stops at the root: (5 a, 5 b) / 10.
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6, 7, 8, NAN, NAN],
                      "x2": [1.0, 2, 3, 5, 4, 6, 7, 8, NAN, NAN], "x3": np.ones(10)})
    y = pd.Categorical(list("aaaabbbbab"))
    fit = rpart("y ~ x1 + x2 + x3", X.assign(y=y),
                control={"minsplit": 2, "minbucket": 1, **RPART_CONTROL})
    assert fit.frame["n"].tolist() == [10, 4, 4]
    assert fit.frame[["count_a", "count_b"]].to_numpy().tolist() == [[5, 5], [4, 0], [0, 4]]
    assert fit.splits["left"].tolist() == ["x1 < 4.5", "x2 < 3.5"]
    assert fit.leaf.tolist() == [2, 2, 2, 2, 3, 3, 3, 3, 1, 1]  # rows 8, 9 stay at the root
    model = CARTClassifier(min_samples_split=2).fit(X, y)
    root = model.tree_.root
    assert [child.value.tolist() for child in root.children] == [[4, 0], [0, 4]]
    assert [child.n_samples for child in root.children] == [4, 4]
    assert_same_tree_as_rpart(root, fit, model.classes_)
    np.testing.assert_allclose(model.predict_proba(X[8:]), [[0.5, 0.5], [0.5, 0.5]])


@requires_rpart
def test_predict_goes_with_the_child_that_holds_more_rows_as_rpart():
    # At fit a row that no surrogate places goes with the primary's majority (the weight of
    # the rows the primary sends each way: surrogate.c, "lastsurrogate"); rpart's predict()
    # instead compares the rows its two children hold (pred_rpart.c: the n of nodes 2t and
    # 2t + 1), which count the rows placed by surrogates and by the majority too, and stops
    # at the node only when these are equal.
    new = pd.DataFrame({"x1": [NAN], "x2": [NAN], "x3": [1.0]})  # nothing to place it by
    control = {"minsplit": 2, "minbucket": 1, **RPART_CONTROL}
    # The tie of the last test, plus row 10 (a; no x1, x2 = 2.5 < 3.5: left by the
    # surrogate): rows 8 and 9 stay at the root, whose children hold 5 and 4 rows; a new row
    # with nothing known goes left: (1, 0), not the root's (6, 5) / 11.
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6, 7, 8, NAN, NAN, NAN],
                      "x2": [1.0, 2, 3, 5, 4, 6, 7, 8, NAN, NAN, 2.5], "x3": np.ones(11)})
    y = pd.Categorical(list("aaaabbbbaba"))
    fit = rpart("y ~ x1 + x2 + x3", X.assign(y=y), control=control, newdata=new)
    assert fit.frame["n"].tolist() == [11, 5, 4]
    assert fit.predicted[["node", "prob_a", "prob_b"]].to_numpy().tolist() == [[2, 1, 0]]
    model = CARTClassifier(min_samples_split=2).fit(X, y)
    assert_same_tree_as_rpart(model.tree_.root, fit, model.classes_)
    np.testing.assert_allclose(model.predict_proba(new), [[1.0, 0.0]])
    # 9 rows with x1: 5 a go left (x1 < 4.6), 4 b right, so row 9 (nothing known) goes left
    # at fit; the surrogate x2 < 3.55 sends rows 10-12 (b) right: the children hold 6 and 7
    # rows, and a new row with nothing known goes right: (0, 1).
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 4.2, 5, 6, 7, 8, NAN, NAN, NAN, NAN],
                      "x2": [1.0, 2, 3, 5, 3.1, 4, 6, 7, 8, NAN, 7.5, 7.6, 7.7],
                      "x3": np.ones(13)})
    y = pd.Categorical(list("aaaaabbbbabbb"))
    fit = rpart("y ~ x1 + x2 + x3", X.assign(y=y), control=control, newdata=new)
    assert fit.frame["n"].tolist() == [13, 6, 7]
    assert fit.leaf.tolist() == [2] * 5 + [3] * 4 + [2, 3, 3, 3]
    assert fit.predicted[["node", "prob_a", "prob_b"]].to_numpy().tolist() == [[3, 0, 1]]
    model = CARTClassifier(min_samples_split=2).fit(X, y)
    assert_same_tree_as_rpart(model.tree_.root, fit, model.classes_)
    np.testing.assert_allclose(model.predict_proba(new), [[0.0, 1.0]])


def test_a_surrogate_says_where_it_sends_each_value():
    # the rule by hand: value <= 6.5 goes left (0), reversed it goes right; a category code
    # goes where branch_of_code says; a missing value, or a code the node did not place, -1
    numeric = Surrogate("x", 0, 0.9, 0.5, threshold=6.5)
    assert numeric.sides([5.0, 6.5, 7.0, np.nan]).tolist() == [0, 0, 1, -1]
    reverse = Surrogate("x", 0, 0.9, 0.5, threshold=6.5, reverse=True)
    assert reverse.sides([5.0, 6.5, 7.0, np.nan]).tolist() == [1, 1, 0, -1]
    categories = Surrogate("c", 1, 0.8, 0.4, category_sets=(frozenset("b"), frozenset("a")),
                           branch_of_code=(1, 0, -1))
    assert categories.sides([0, 1, 2, 3, np.nan]).tolist() == [1, 0, -1, -1, -1]
