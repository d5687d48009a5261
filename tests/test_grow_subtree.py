"""The compiled subtree grower (dtree.grow.grow_subtree) against the generic grower: the same
trees, node for node, every field, on random data with ties, weights and stopping rules.
Run it with NUMBA_DISABLE_JIT=1 too: then "compiled" is plain Python."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dtree.grow
from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier, Node

FIELDS = Node.FIELDS


def same(a, b) -> bool:
    """Equal values, bit for bit for arrays (NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True))
    if isinstance(a, float) and isinstance(b, float) and a != a:
        return b != b
    return type(a) is type(b) and a == b


def assert_same_tree(ours: Node, theirs: Node) -> None:
    ours, theirs = list(ours.walk()), list(theirs.walk())
    assert len(ours) == len(theirs)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert len(a.children) == len(b.children), k
        for name in FIELDS:
            assert same(getattr(a, name), getattr(b, name)), (k, name, getattr(a, name),
                                                              getattr(b, name))


def grow_both(make, X, y, w, monkeypatch, subtree_rows, jit):
    """The tree grown node by node, and grown with subtrees of at most ``subtree_rows`` rows
    handed to grow_subtree (compiled, or plain Python), which must be called."""
    monkeypatch.setattr(dtree.grow, "SUBTREE_ROWS", 0)
    reference = make().fit(X, y, sample_weight=w).tree_.root
    calls = []
    real_compiled = dtree.grow.compiled

    def compiled(function):
        if function is dtree.grow.grow_subtree:
            calls.append(function)
            return real_compiled(function) if jit else function
        return real_compiled(function)

    monkeypatch.setattr(dtree.grow, "SUBTREE_ROWS", subtree_rows)
    monkeypatch.setattr(dtree.grow, "compiled", compiled)
    handed = make().fit(X, y, sample_weight=w).tree_.root
    assert calls, "grow_subtree was not used"
    return reference, handed


def data(seed: int, n: int = 160, p: int = 4):
    """Values on a coarse grid (many ties, between rows and between attributes' gains)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(n, p)).astype(float)
    X[:, -1] = X[:, 0]  # a duplicate column: its gains tie with column 0's everywhere
    signal = X[:, 0] + 2 * (X[:, 1] > 2) + rng.integers(0, 3, n)
    return rng, X, signal


WEIGHTS = {"none": lambda rng, n: None,
           "integers": lambda rng, n: rng.integers(0, 4, n).astype(float),  # zeros too
           "floats": lambda rng, n: rng.uniform(0.1, 3.0, n)}

SETTINGS = [dict(), dict(min_samples_leaf=3), dict(max_depth=3),
            dict(min_impurity_decrease=0.02), dict(min_samples_split=9),
            dict(max_surrogates=2, min_samples_leaf=2), dict(max_surrogates=0),
            dict(tie_break=["x3", "x1", "x0", "x2"])]


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_regressor_same_tree(settings, weights, jit, monkeypatch):
    rng, X, signal = data(len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    for subtree_rows in (40, 10**6):  # below the root, and the whole tree
        reference, handed = grow_both(lambda: CARTRegressor(**settings), X, signal / 3, w,
                                      monkeypatch, subtree_rows, jit)
        assert_same_tree(handed, reference)


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", SETTINGS[:5], ids=lambda s: ",".join(s) or "defaults")
def test_classifier_same_tree(settings, weights, criterion, jit, monkeypatch):
    rng, X, signal = data(7 + len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    labels = np.array(["a", "b", "c"])[np.digitize(signal, [3, 6])]
    reference, handed = grow_both(lambda: CARTClassifier(criterion=criterion, **settings),
                                  X, labels, w, monkeypatch, 40, jit)
    assert_same_tree(handed, reference)


def categorical_data(seed: int, n: int = 200):
    """Categorical columns, strings and a pandas categorical one with a category no row has,
    a duplicate (gains tie), beside a numeric column on a coarse grid; 2 and 3 classes and a
    numeric target."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, [4, 3, 9, 6], size=(n, 4))
    X = pd.DataFrame({"c0": np.array(list("abcd"))[codes[:, 0]],
                      "c1": pd.Categorical(np.array(list("xyz"))[codes[:, 1]],
                                           categories=list("wxyz")),
                      "c2": np.array(list("abcdefghi"))[codes[:, 2]],
                      "x3": codes[:, 3].astype(float)})
    X["c4"] = X["c0"]  # its gains tie with column c0's everywhere
    signal = codes[:, 0] % 2 + 2 * (codes[:, 1] == 2) + (codes[:, 2] > 5) + rng.integers(0, 2, n)
    return rng, X, signal


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("target", ["2 classes", "3 classes", "numeric"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", SETTINGS[:7], ids=lambda s: ",".join(s) or "defaults")
def test_categorical_same_tree(settings, weights, target, jit, monkeypatch):
    # bipartitions of categories (by order for 2 classes and the squared error, all of them
    # for 3 classes), their categorical surrogates, beside a numeric column
    rng, X, signal = categorical_data(11 + len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    if target == "numeric":
        make, y = (lambda: CARTRegressor(**settings)), signal.astype(float)
    else:
        make = lambda: CARTClassifier(**settings)  # noqa: E731
        y = np.array(["a", "b", "c"])[np.digitize(signal, [2, 4] if target == "3 classes"
                                                  else [2, 99])]
    for subtree_rows in (50, 10**6):  # below the root, and the whole tree
        reference, handed = grow_both(make, X, y, w, monkeypatch, subtree_rows, jit)
        assert_same_tree(handed, reference)
        assert any(node.category_sets for node in reference.walk())


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("numeric", [(), ("x1",)], ids=["categorical", "mixed"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_categories_same_tree(settings, weights, numeric, jit, monkeypatch):
    """Columns of categories (bipartitions, categorical surrogates), alone or with a numeric
    one; x3 repeats x0, so that their gains and surrogates tie."""
    rng, X, signal = data(11 + len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    table = pd.DataFrame({f"x{j}": X[:, j] if f"x{j}" in numeric else
                          np.array(list("pqrstu"))[X[:, j].astype(int)] for j in range(4)})
    labels = np.array(["a", "b", "c"])[np.digitize(signal, [3, 6])]
    for make, target in ((lambda: CARTClassifier(**settings), labels),
                         (lambda: CARTRegressor(**settings), signal / 3)):
        reference, handed = grow_both(make, table, target, w, monkeypatch, 40, jit)
        assert any(node.category_sets for node in handed.walk())
        assert_same_tree(handed, reference)


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("numeric", [("x0", "x1", "x2", "x3"), ("x1",), ()],
                         ids=["numeric", "mixed", "categorical"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_missing_values_same_tree(settings, weights, numeric, jit, monkeypatch):
    """A fifth of the values missing: the rows that lack a node's tested value go by its
    surrogates, else the majority side, else stay at the node."""
    rng, X, signal = data(23 + len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    table = pd.DataFrame({f"x{j}": X[:, j] if f"x{j}" in numeric else
                          np.array(list("pqrstu"))[X[:, j].astype(int)] for j in range(4)})
    table = table.mask(rng.random(table.shape) < 0.2)
    labels = np.array(["a", "b", "c"])[np.digitize(signal, [3, 6])]
    for make, target in ((lambda: CARTClassifier(**settings), labels),
                         (lambda: CARTRegressor(**settings), signal / 3)):
        for subtree_rows in (40, 10**6):
            reference, handed = grow_both(make, table, target, w, monkeypatch, subtree_rows,
                                          jit)
            assert_same_tree(handed, reference)


C45_SETTINGS = [dict(), dict(min_samples_leaf=3), dict(max_depth=3),
                dict(min_impurity_decrease=0.02), dict(min_samples_split=9),
                dict(gain_filter=None), dict(criterion="info_gain"),
                dict(tie_break=["x3", "x1", "x0", "x2"])]


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", C45_SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_c45_same_tree(settings, weights, jit, monkeypatch):
    """C4.5 on numeric attributes: the cut of each attribute by gain, the attribute by gain
    ratio among those of at least the average gain (the scores, gains and shortlist kept)."""
    rng, X, signal = data(31 + len(str(settings)))
    w = WEIGHTS[weights](rng, len(X))
    labels = np.array(["a", "b", "c"])[np.digitize(signal, [3, 6])]
    for subtree_rows in (40, 10**6):
        reference, handed = grow_both(lambda: C45Classifier(pruning=None, **settings), X,
                                      labels, w, monkeypatch, subtree_rows, jit)
        if settings.get("gain_filter", "average"):
            assert any(node.shortlist for node in handed.walk())
        assert_same_tree(handed, reference)


@pytest.mark.parametrize("jit", [False, True], ids=["plain", "compiled"])
@pytest.mark.parametrize("numeric", [("x3",), ()], ids=["mixed", "categorical"])
@pytest.mark.parametrize("weights", list(WEIGHTS))
@pytest.mark.parametrize("settings", C45_SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_multiway_same_tree(settings, weights, numeric, jit, monkeypatch):
    """C4.5's and ID3's multiway splits, a tested attribute no longer available below, with a
    fifth of the values missing, sent down every branch by its share of the known weight; a
    category that no row of a node has leaves an empty branch, which predicts like its
    parent."""
    rng, X, signal = categorical_data(41 + len(str(settings)))
    table = X.drop(columns="x3").assign(x3=X["x3"].astype(int).astype(str))
    if numeric:
        table["x3"] = X["x3"]
    table = table.mask(rng.random(table.shape) < 0.2)
    w = WEIGHTS[weights](rng, len(table))
    labels = np.array(["a", "b", "c"])[np.digitize(signal, [2, 4])]
    settings = {"tie_break": ["c4", "x3", "c0", "c1", "c2"]} if "tie_break" in settings \
        else settings
    for make in (lambda: C45Classifier(pruning=None, **settings),
                 lambda: ID3Classifier(missing="fractional", **{
                     k: v for k, v in settings.items() if k in ID3Classifier().get_params()})):
        for subtree_rows in (50, 10**6):  # below the root, and the whole tree
            reference, handed = grow_both(make, table, labels, w, monkeypatch, subtree_rows,
                                          jit)
            assert_same_tree(handed, reference)
        nodes = list(handed.walk())
        assert any(len(node.children) > 2 for node in nodes)
        assert any(node.stop_reason == "empty" for node in nodes) or settings.get("max_depth")


def test_not_used_where_it_does_not_apply(monkeypatch):
    """A missing value given a branch of its own or learned (``missing="learn"``),
    max_features, max_leaf_nodes, the absolute error or J48: every node is grown by the
    generic grower."""
    rng, X, signal = data(3)
    monkeypatch.setattr(dtree.grow, "grow_subtree", None)  # would fail if called
    with_missing = X.copy()
    with_missing[5, 2] = np.nan
    CARTRegressor(missing="learn").fit(with_missing, signal)
    CARTRegressor(max_features=2, random_state=0).fit(X, signal)
    CARTRegressor(max_leaf_nodes=8).fit(X, signal)
    CARTRegressor(criterion="absolute_error").fit(X, signal)
    CARTRegressor(missing="learn").fit(X, signal)
    labels = np.digitize(signal, [3, 6])
    C45Classifier.j48().fit(X, labels)
    C45Classifier(missing="branch").fit(with_missing, labels)
