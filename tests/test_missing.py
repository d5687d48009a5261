"""Missing values: prediction under every ``predict_missing`` strategy, worked by hand, and the
fractional weights of fit, conserved through every split.

The hand-worked predictions use Zhou's watermelon 2.0 tree (Zhou 2016, fig. 4.4), which every
count below comes from (classes_ = [no, yes]; "r~" is a branch's training fraction):

    texture: clear 9/17 (7 yes, 2 no) | slightly blurry 5/17 | blurry 3/17 -> no
      clear -> root: curly 5/9 -> yes | slightly curly 3/9 | straight 1/9 -> no
        slightly curly (melons 6 yes, 8 yes, 15 no; depth 2) -> colour:
            green 1/3 -> yes (6) | dark 2/3 | light 0 (empty: predicts like its parent)
          dark (8 yes, 15 no) -> touch: hard 1/2 -> yes (8) | soft 1/2 -> no (15)
      slightly blurry (7 yes, 9, 13, 14, 17 no) -> touch: hard 4/5 -> no | soft 1/5 -> yes

(colour and touch tie at the depth-2 node; the first column, colour, wins, as in Zhou's figure).
"""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from dtree import C45Classifier, ID3Classifier
from dtree.tree import Node, predict_values

NO, YES = [1.0, 0.0], [0.0, 1.0]
STRATEGIES = ("distribute", "most_frequent", "stop")


@pytest.fixture
def model(wm20):
    X, y = wm20
    return ID3Classifier(missing="fractional").fit(X, y)


def melon(**values) -> pd.DataFrame:
    """One melon of the clear, slightly curly kind; unnamed attributes as melon 15."""
    row = dict(colour="dark", root="slightly curly", sound="muffled", texture="clear",
               navel="slightly hollow", touch="soft")
    row.update(values)
    return pd.DataFrame([row])


def proba(model, row: pd.DataFrame, strategy: str) -> np.ndarray:
    return model.set_params(predict_missing=strategy).predict_proba(row)[0]


# ------------------------------------------------------------------ hand-worked predictions
# colour missing at the depth-2 node, touch soft:
#   distribute: green 1/3 -> yes, dark 2/3 -> soft -> no   = [2/3, 1/3]
#   most_frequent: dark (2/3 > 1/3) -> soft -> no          = [1, 0]
#   stop: the node's melons 6 yes, 8 yes, 15 no            = [1/3, 2/3]
COLOUR_MISSING = {"distribute": [2 / 3, 1 / 3], "most_frequent": NO, "stop": [1 / 3, 2 / 3]}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_missing_two_levels_down(model, strategy):
    assert_allclose(proba(model, melon(colour=np.nan), strategy), COLOUR_MISSING[strategy],
                    atol=1e-12)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_unseen_category_is_routed_as_missing(model, strategy):
    assert_allclose(proba(model, melon(colour="purple"), strategy), COLOUR_MISSING[strategy],
                    atol=1e-12)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_empty_leaf_predicts_like_its_parent(model, strategy):
    # light: no training melon; the colour node's 2 yes, 1 no whatever the strategy
    assert_allclose(proba(model, melon(colour="light"), strategy), [1 / 3, 2 / 3], atol=1e-12)


# texture missing at the root, then slightly curly, dark, soft:
#   distribute: clear 9/17 -> ... -> soft -> no; slightly blurry 5/17 -> soft -> yes;
#               blurry 3/17 -> no                          = [12/17, 5/17]
#   most_frequent: clear (9/17) -> ... -> soft -> no       = [1, 0]
#   stop: the root's 9 no, 8 yes                           = [9/17, 8/17]
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [12 / 17, 5 / 17]), ("most_frequent", NO), ("stop", [9 / 17, 8 / 17])])
def test_missing_at_the_root(model, strategy, expected):
    assert_allclose(proba(model, melon(texture=np.nan), strategy), expected, atol=1e-12)


# touch missing under dark: hard and soft held 1 melon each, a tie
#   distribute: 1/2 yes + 1/2 no; most_frequent: the first branch, hard -> yes (melon 8);
#   stop: melons 8 yes, 15 no
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [1 / 2, 1 / 2]), ("most_frequent", YES), ("stop", [1 / 2, 1 / 2])])
def test_most_frequent_takes_the_first_branch_on_a_tie(model, strategy, expected):
    assert_allclose(proba(model, melon(touch=np.nan), strategy), expected, atol=1e-12)


# colour and touch both missing under slightly curly:
#   distribute: green 1/3 -> yes + dark 2/3 x (hard 1/2 -> yes + soft 1/2 -> no) = [1/3, 2/3]
#   most_frequent: dark -> hard (first on the tie) -> yes; stop: at the colour node
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [1 / 3, 2 / 3]), ("most_frequent", YES), ("stop", [1 / 3, 2 / 3])])
def test_two_missing_values_on_one_path(model, strategy, expected):
    assert_allclose(proba(model, melon(colour=np.nan, touch=np.nan), strategy), expected,
                    atol=1e-12)


# everything missing:
#   distribute: yes = 9/17 (5/9 + 3/9 (1/3 + 2/3 x 1/2)) + 5/17 x 1/5 = 7/17 + 1/17 = 8/17,
#               the root's own shares (each leaf here is pure)
#   most_frequent: clear (9/17) -> curly (5/9) -> yes
#   stop: the root
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [9 / 17, 8 / 17]), ("most_frequent", YES), ("stop", [9 / 17, 8 / 17])])
def test_every_value_missing(model, strategy, expected):
    row = melon(**{name: np.nan for name in melon().columns})
    assert_allclose(proba(model, row, strategy), expected, atol=1e-12)


def test_known_values_ignore_the_strategy(model, wm20):
    X, y = wm20
    for strategy in STRATEGIES:
        assert (model.set_params(predict_missing=strategy).predict(X) == y.to_numpy()).all()


def test_c45_stops_at_its_root(wm20):
    # C4.5 grows another tree on watermelon 2.0; at its root with every value missing, "stop"
    # gives the root's 9 no, 8 yes whatever the tree
    X, y = wm20
    model = C45Classifier(predict_missing="stop").fit(X, y)
    row = melon(**{name: np.nan for name in melon().columns})
    assert_allclose(model.predict_proba(row)[0], [9 / 17, 8 / 17], atol=1e-12)


# ------------------------------------------------- watermelon 2.0alpha: missing at fit too
# At depth 1 the tree is the texture split alone. Texture is known for 15 melons: clear 7
# (1-6 yes, 15 no), slightly blurry 5 (7 yes; 9, 13, 14, 17 no), blurry 3 (11, 12, 16 no);
# melons 8 (yes) and 10 (no) enter each branch with weights 7/15, 5/15, 3/15. The leaves:
#   clear:           yes 6 + 7/15, no 1 + 7/15  -> [22/119, 97/119]
#   slightly blurry: yes 1 + 5/15, no 4 + 5/15  -> [13/17, 4/17]
#   blurry:          yes 3/15,     no 3 + 3/15  -> [16/17, 1/17]
# texture missing:
#   distribute: yes = 7/15 x 97/119 + 5/15 x 4/17 + 3/15 x 1/17 = (97 + 20 + 3)/255 = 8/17
#   most_frequent: clear (7/15); stop: the root's 9 no, 8 yes
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [9 / 17, 8 / 17]), ("most_frequent", [22 / 119, 97 / 119]),
    ("stop", [9 / 17, 8 / 17])])
def test_watermelon_20alpha_stump(wm20a, strategy, expected):
    X, y = wm20a
    model = ID3Classifier(missing="fractional", max_depth=1, predict_missing=strategy).fit(X, y)
    assert model.tree_.root.feature == "texture"
    rows = X.iloc[[0, 7]]  # melon 1 (clear) and melon 8 (texture missing)
    assert_allclose(model.predict_proba(rows), [[22 / 119, 97 / 119], expected], atol=1e-12)


# ---------------------------------------------------------- a missing-value branch (by hand)
def _leaf(prediction: list[float], depth: int = 1) -> Node:
    p = np.array(prediction)
    return Node(value=p, prediction=p, n_samples=1, weighted_n_samples=1.0, impurity=0.0,
                depth=depth)


def _stump(missing_branch: int | None) -> Node:
    """x <= 0.5: [1, 0] (fraction 0.25) | > 0.5: [0, 1] (0.75) | and, if missing_branch is 2,
    a third child [0.5, 0.5] holding the training rows whose x was missing."""
    children = [_leaf(NO), _leaf(YES)]
    fractions = [0.25, 0.75]
    if missing_branch is not None:
        children.append(_leaf([0.5, 0.5]))
        fractions.append(0.0)
    return Node(value=np.array([0.4, 0.6]), prediction=np.array([0.4, 0.6]), n_samples=3,
                weighted_n_samples=3.0, impurity=1.0, depth=0, feature="x", feature_index=0,
                threshold=0.5, children=children, branch_fractions=np.array(fractions),
                missing_branch=missing_branch)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_missing_branch_wins_over_every_strategy(strategy):
    X = np.array([[0.0], [1.0], [np.nan]])
    assert_allclose(predict_values(_stump(2), X, strategy), [NO, YES, [0.5, 0.5]])


@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [0.25, 0.75]),  # 0.25 x [1, 0] + 0.75 x [0, 1]
    ("most_frequent", YES),  # the right branch held 0.75
    ("stop", [0.4, 0.6])])
def test_without_missing_branch_the_strategy_decides(strategy, expected):
    assert_allclose(predict_values(_stump(None), np.array([[np.nan]]), strategy), [expected])


def test_missing_branch_is_labelled():
    assert _stump(2).branch_labels() == ["<= 0.5", "> 0.5", "is missing"]
    assert _stump(None).branch_labels() == ["<= 0.5", "> 0.5"]


# C4.5 with missing="branch" on watermelon 2.0alpha: texture at the root gets a fourth branch,
# "is missing", for melons 8 (dark, yes) and 10 (green, no), which colour then splits:
# green -> no, dark -> yes, light -> empty (their 1 no, 1 yes). A row whose texture is missing
# goes there under every strategy; if its colour is missing too, the strategy decides at the
# colour node: distribute 1/2 no + 1/2 yes; most_frequent the first of the tied branches, green
# -> no; stop: the node's 1 no, 1 yes.
@pytest.mark.parametrize("strategy, expected", [
    ("distribute", [1 / 2, 1 / 2]), ("most_frequent", NO), ("stop", [1 / 2, 1 / 2])])
def test_estimator_with_missing_branch(wm20a, strategy, expected):
    X, y = wm20a
    model = C45Classifier(missing="branch", predict_missing=strategy).fit(X, y)
    root = model.tree_.root
    assert (root.feature, root.missing_branch, len(root.children)) == ("texture", 3, 4)
    assert root.branch_labels()[3] == "is missing"
    assert root.children[3].value.tolist() == [1, 1] and root.children[3].feature == "colour"
    rows = pd.concat([melon(texture=np.nan, colour="dark"),
                      melon(texture=np.nan, colour=np.nan)])
    assert_allclose(model.predict_proba(rows), [YES, expected], atol=1e-12)


# ------------------------------------------------------------------ against a plain reference
def _reference(node: Node, row: np.ndarray, features, strategy: str) -> np.ndarray:
    """The strategies as written in the docstring, recursively over the Node objects."""
    if node.is_leaf:
        return node.prediction
    value = row[node.feature_index]
    if not np.isnan(value):
        if node.threshold is not None:
            b = 0 if value <= node.threshold else 1
        else:
            category = features[node.feature_index].categories[int(value)]
            b = next(k for k, s in enumerate(node.category_sets) if category in s)
        return _reference(node.children[b], row, features, strategy)
    if node.missing_branch is not None:
        return _reference(node.children[node.missing_branch], row, features, strategy)
    if strategy == "stop":
        return node.prediction
    if strategy == "most_frequent":
        b = int(np.argmax(node.branch_fractions))
        return _reference(node.children[b], row, features, strategy)
    return sum(f * _reference(c, row, features, strategy)
               for f, c in zip(node.branch_fractions, node.children) if f > 0)


def random_data(seed: int, rows: int = 300) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Two numeric and two categorical columns, about 15% of each missing; three classes
    depending on the columns; random weights."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=rows), rng.integers(0, 5, rows).astype(float)
    c, d = rng.choice(list("pqrs"), rows), rng.choice(["u", "v"], rows)
    y = np.where(a + (c == "p") > 0.5, "one", np.where(d == "u", "two", "three"))
    y = np.where(rng.random(rows) < 0.1, "three", y)
    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    for name in X:
        X.loc[rng.random(rows) < 0.15, name] = np.nan
    return X, y, rng.uniform(0.5, 2.0, rows)


ESTIMATORS = [
    pytest.param(lambda: ID3Classifier(missing="fractional", max_depth=4), id="id3"),
    pytest.param(lambda: C45Classifier(), id="c45"),
    pytest.param(lambda: C45Classifier(variant="j48", min_samples_leaf=2), id="j48"),
    pytest.param(lambda: C45Classifier(missing="branch"), id="c45-branch"),
]


@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_strategy_matches_the_reference_and_sums_to_one(make, seed):
    X, y, w = random_data(seed)
    model = make().fit(X, y, sample_weight=w)
    test, _, _ = random_data(seed + 100, rows=200)
    matrix = _encoded(model, test)
    for strategy in STRATEGIES:
        got = model.set_params(predict_missing=strategy).predict_proba(test)
        expected = [_reference(model.tree_.root, row, model._features, strategy) for row in matrix]
        assert_allclose(got, expected, atol=1e-12)
        assert_allclose(got.sum(axis=1), 1.0, atol=1e-12)
        assert (got >= 0).all()


def _encoded(model, X: pd.DataFrame) -> np.ndarray:
    """X encoded as the model reads it: category codes, numbers, NaN where missing."""
    out = np.full(X.shape, np.nan)
    for j, feature in enumerate(model._features):
        column = X.iloc[:, j]
        if feature.is_categorical:
            codes = {category: k for k, category in enumerate(feature.categories)}
            out[:, j] = [codes.get(v, np.nan) for v in column]
        else:
            out[:, j] = column.to_numpy(dtype=float)
    return out


# ------------------------------------------------------------------ fractional weights at fit
def _assert_conserved(root: Node, total: float) -> None:
    """Every internal node's children hold its weight and class counts exactly; so do the
    leaves, together, the training weight."""
    for node in root.walk():
        if node.children:
            assert sum(c.weighted_n_samples for c in node.children) == pytest.approx(
                node.weighted_n_samples, rel=1e-12)
            assert_allclose(sum(c.value for c in node.children), node.value, rtol=1e-12,
                            atol=1e-12)
    assert sum(leaf.weighted_n_samples for leaf in root.leaves()) == pytest.approx(total,
                                                                                  rel=1e-12)
    assert root.weighted_n_samples == pytest.approx(total, rel=1e-15)


@pytest.mark.parametrize("make", ESTIMATORS)
def test_weights_are_conserved_on_watermelon_20alpha(wm20a, make):
    X, y = wm20a
    model = make().fit(X, y)
    # Zhou's table 4.4: colour missing for 3 melons, each other attribute for 2
    assert X.isna().sum().tolist() == [3, 2, 2, 2, 2, 2]
    _assert_conserved(model.tree_.root, 17.0)


def test_watermelon_20alpha_root_weights_by_hand(wm20a):
    # melons 8 and 10 (texture missing) add 2 x 7/15, 2 x 5/15, 2 x 3/15 to the three branches
    X, y = wm20a
    root = ID3Classifier(missing="fractional").fit(X, y).tree_
    assert [c.weighted_n_samples for c in root.children] == pytest.approx(
        [7 + 14 / 15, 5 + 10 / 15, 3 + 6 / 15], rel=1e-12)
    assert root.children[0].value.tolist() == pytest.approx([1 + 7 / 15, 6 + 7 / 15])


@pytest.mark.parametrize("make", ESTIMATORS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weights_are_conserved_on_random_data(make, seed):
    X, y, w = random_data(seed)
    _assert_conserved(make().fit(X, y, sample_weight=w).tree_.root, w.sum())


# ------------------------------------------------------------------ the parameter
def test_unknown_strategy_is_refused_at_fit_and_at_predict(wm20):
    X, y = wm20
    with pytest.raises(ValueError, match=r"predict_missing must be one of \('distribute', "):
        C45Classifier(predict_missing="impute").fit(X, y)
    model = ID3Classifier().fit(X, y).set_params(predict_missing="first")
    with pytest.raises(ValueError, match="predict_missing must be one of"):
        model.predict(X)


def test_default_is_c45s(wm20):
    assert ID3Classifier().predict_missing == C45Classifier().predict_missing == "distribute"


# ------------------------------------------------------------------ the layout kept from fit
def test_refit_predicts_with_the_new_tree(wm20):
    X, y = wm20
    model = ID3Classifier().fit(X, y)
    flipped = np.where(y == "yes", "no", "yes")
    assert (model.fit(X, flipped).predict(X) == flipped).all()


def test_a_copied_tree_changed_in_place_predicts_as_changed(model, wm20):
    X, _ = wm20
    twin = copy.deepcopy(model)
    assert twin.tree_._table is not model.tree_._table  # a copy has a table of its own
    twin.tree_.children = []  # prune the copy to its root: 9 no, 8 yes
    assert_allclose(twin.predict_proba(X), np.tile([9 / 17, 8 / 17], (17, 1)), atol=1e-12)
    assert len(model.tree_.children) == 3 and model.score(X, wm20[1]) == 1.0


def test_a_replaced_tree_is_used(model, wm20):
    X, _ = wm20
    stump = ID3Classifier(max_depth=0).fit(*wm20)
    model.tree_ = stump.tree_
    assert_allclose(model.predict_proba(X), np.tile([9 / 17, 8 / 17], (17, 1)), atol=1e-12)


def test_pickled_model_predicts_the_same(model):
    row = melon(colour=np.nan)
    restored = pickle.loads(pickle.dumps(model))
    routing = restored.tree_._table.routing()
    for strategy in STRATEGIES:
        assert_allclose(proba(restored, row, strategy), COLOUR_MISSING[strategy], atol=1e-12)
    assert restored.tree_._table.routing() is routing  # kept for every call, not made per call


def test_watermelon_loader_gives_the_missing_values(wm20a):
    # the counts the hand calculations above rely on
    X, _ = wm20a
    assert X["texture"].isna().sum() == 2
    assert X.index[X["texture"].isna()].tolist() == [8, 10]
