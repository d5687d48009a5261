"""predict is the argmax of predict_proba, and every printout names the class predict returns,
on ties that round-off leaves a bit apart (issue 27, sec. 1)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dtree import (C45Classifier, CARTClassifier, ID3Classifier, export_graphviz, export_text,
                   leaf_table, plot_tree, prune_reduced_error, rpart_nodes)
from dtree.probability import PROBABILITY
from dtree.pruning import PRUNERS
from dtree.tree import PREDICT_MISSING, level_ties, most_probable, ties

CLASSES = ["k0", "k1", "k2"]
#: decimal weights whose sums differ from each other in the last bit (0.1 + 0.2 != 0.3)
WEIGHTS = [0.1, 0.2, 0.3]


@st.composite
def problems(draw):
    """Training rows (two categorical columns and a numeric one, with missing values, drawn
    from a few distinct rows so that leaves hold several classes), labels, decimal weights,
    and rows to predict: the training rows and new ones with missing values and categories or
    numbers unseen at fit."""
    def rows(n, u, v, x):
        return pd.DataFrame({
            "u": draw(st.lists(st.sampled_from(u), min_size=n, max_size=n)),
            "v": draw(st.lists(st.sampled_from(v), min_size=n, max_size=n)),
            "x": draw(st.lists(st.sampled_from(x), min_size=n, max_size=n))})
    distinct = rows(draw(st.integers(1, 3)), ["p", "q", "r", None], ["p", "q", None],
                    [0.0, 0.5, 1.0, np.nan])
    n = draw(st.integers(3, 9))
    X = distinct.iloc[draw(st.lists(st.integers(0, len(distinct) - 1), min_size=n,
                                    max_size=n))].reset_index(drop=True)
    assume(X.notna().any().all())  # fit refuses a column without a known value
    y = draw(st.lists(st.sampled_from(CLASSES[:draw(st.integers(2, 3))]), min_size=n,
                      max_size=n))
    w = draw(st.lists(st.sampled_from(WEIGHTS), min_size=n, max_size=n))
    new = rows(draw(st.integers(1, 6)), ["p", "q", "r", "unseen", None],
               ["p", "q", "unseen", None], [0.0, 0.75, 1.0, 2.0, np.nan])
    return X, np.array(y, dtype=object), np.array(w), pd.concat([X, new], ignore_index=True)


@st.composite
def models(draw, n_classes: int):
    """Any classifier of the library, in any of its missing-value policies, prediction
    routings, pruners and probability estimates, with or without class weights; CART also
    with priors or a loss, where it predicts the class of least expected loss, not the most
    probable."""
    kind = draw(st.sampled_from(["ID3", "C4.5", "J48", "CART"]))
    class_weight = draw(st.sampled_from([None, "balanced"]))
    estimate = dict(probability=draw(st.sampled_from(PROBABILITY)),
                    m=draw(st.sampled_from([0.5, 2.0, 10.0])))
    if kind == "CART":
        params = dict(missing=draw(st.sampled_from(["surrogate", "learn"])),
                      class_weight=class_weight, random_state=0)
        pruning = draw(st.sampled_from([None, "validation", "ccp_alpha"]))
        if pruning == "ccp_alpha":
            params["ccp_alpha"] = draw(st.sampled_from([0.01, 0.05]))
        else:
            params["pruning"] = pruning
            costs = draw(st.sampled_from([None, "priors", "loss"] if n_classes > 1 else [None]))
            if costs == "priors":
                params["priors"] = np.full(n_classes, 1 / n_classes)
            elif costs == "loss":
                params["loss"] = draw(st.sampled_from([1.0, 2.0, 0.1])) * (
                    np.arange(1, n_classes ** 2 + 1).reshape(n_classes, n_classes) % 3 + 1
                ) * (1 - np.eye(n_classes))
        return CARTClassifier(**params, **estimate)
    params = dict(predict_missing=draw(st.sampled_from(PREDICT_MISSING)),
                  pruning=draw(st.sampled_from([None, *PRUNERS])),
                  class_weight=class_weight, random_state=0, **estimate)
    if kind == "ID3":
        return ID3Classifier(missing=draw(st.sampled_from(["error", "fractional"])), **params)
    missing = draw(st.sampled_from(["fractional", "branch"]))
    if kind == "J48":
        return C45Classifier.j48(missing=missing, **params)
    return C45Classifier(missing=missing, **params)


def _readable(model, X: pd.DataFrame, known: pd.DataFrame) -> pd.DataFrame:
    """X as ``model`` accepts it: ID3 with missing="error" refuses missing and unseen values,
    CART with missing="learn" a missing category at fit; they get values of ``known``."""
    if isinstance(model, ID3Classifier) and model.missing == "error":
        X = X.copy()
        for name in X:
            seen = known[name].dropna().unique()
            X[name] = [v if v in seen else seen[0] for v in X[name]]
    if isinstance(model, CARTClassifier) and model.missing == "learn":
        X = X.assign(u=X["u"].fillna("p"), v=X["v"].fillna("p"))
    return X


@given(problems(), st.data())
@settings(max_examples=300)
def test_predict_is_the_argmax_of_predict_proba(problem, data):
    X, y, w, G = problem
    model = data.draw(models(len(set(y))))
    X = _readable(model, X, X)
    G = _readable(model, G, X)
    model.fit(X, y, sample_weight=w)
    proba = model.predict_proba(G)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    if getattr(model, "costs_", None) is None:
        expected = model.classes_[np.argmax(proba, axis=1)]
    else:  # rpart's rule: the class of least expected loss, the first within round-off
        risk = proba @ model.loss_
        least = risk.min(axis=1, keepdims=True)
        expected = model.classes_[np.argmax(risk <= least + 1e-12 + 1e-9 * least, axis=1)]
    np.testing.assert_array_equal(model.predict(G), expected)


def test_the_issue_example():
    # the fractions of the leaves sum to 3/8 twice: a tie, which goes to the first class
    X = pd.DataFrame({"f0": list("aaaaaaaa"), "f1": ["a", "a", "a", "a", "a", "a", "b", None]})
    y = ["k0", "k0", "k0", "k1", "k2", "k2", "k1", "k1"]
    model = ID3Classifier(missing="fractional").fit(X, y)
    G = pd.DataFrame({"f0": ["a"], "f1": [None]})
    proba = model.predict_proba(G)
    assert proba[0, 0] == proba[0, 1] == pytest.approx(3 / 8)
    assert model.predict(G).tolist() == ["k0"]


# the leaf's class weights are 0.3 and 0.1 + 0.2 = 0.30000000000000004: a tie, to the first
TIE_X, TIE_Y, TIE_W = np.zeros((3, 1)), np.array(["a", "b", "b"]), np.array([0.3, 0.1, 0.2])
ESTIMATORS = [ID3Classifier, C45Classifier, CARTClassifier]


@pytest.mark.parametrize("make", ESTIMATORS)
def test_every_printout_names_the_class_predict_returns(make):
    from matplotlib import colormaps
    from matplotlib.colors import to_hex
    model = make().fit(TIE_X, TIE_Y, sample_weight=TIE_W)
    assert model.tree_.root.value.tolist() == [0.3, 0.1 + 0.2] and model.tree_.root.is_leaf
    assert model.predict(TIE_X).tolist() == ["a"] * 3
    assert np.argmax(model.predict_proba(TIE_X), axis=1).tolist() == [0] * 3
    assert "class: a (a 0.3, b 0.3)" in export_text(model)
    assert leaf_table(model)["predicts"].tolist() == ["a"]
    assert rpart_nodes(model)["yval"].tolist() == ["a"]
    dot = export_graphviz(model, filled=True)
    assert "class = a" in dot
    assert f'fillcolor="{to_hex(colormaps["tab10"](0))}' in dot  # a's colour, not b's
    ax = plot_tree(model)
    [box] = [t.get_bbox_patch() for t in ax.texts if t.get_bbox_patch() is not None]
    np.testing.assert_allclose(box.get_facecolor(), colormaps["Pastel1"](0))


@pytest.mark.parametrize("make", ESTIMATORS)
def test_the_pruners_vote_as_predict_does(make):
    # x = 0 holds the tie (a, as predict says: 1 of its 3 rows right), x = 1 a row of b. Split,
    # 2 of the 4 rows are right; as one leaf (b 1.3 against a 0.3), 3 are: the root is pruned.
    # Voting b at the tie would make the split right on 3 rows too, and keep it.
    X, y = np.array([[0.0], [0.0], [0.0], [1.0]]), np.array(["a", "b", "b", "b"])
    model = make().fit(X, y, sample_weight=[0.3, 0.1, 0.2, 1.0])
    assert model.predict([[0.0]]).tolist() == ["a"]
    log = prune_reduced_error(model, X, y).pruning_log_
    assert log[["accuracy split", "accuracy as a leaf", "decision"]].values.tolist() == [
        [0.5, 0.75, "leaf"]]


def test_the_tie_rule():
    assert ties(0.3, 0.1 + 0.2) and ties(0.1 + 0.2, 0.3)  # apart in the last bit
    assert ties(0.35 - 1e-10, 0.35 + 1e-10)  # 2e-10 apart, within 1e-12 + 1e-9 x 0.35
    assert not ties(0.45 - 1e-8, 0.45 + 1e-8)  # 2e-8 apart
    assert ties(-1e-13, 0.0) and not ties(-1e-11, 0.0)  # near 0, 1e-12 absolute
    assert ties(2.0, 1.0)  # a larger value passes too
    # 3/8 summed two ways: the tie becomes one in the numbers; 1/4 keeps its own round-off
    levelled = level_ties(np.array([[0.37499999999999994, 0.375, 0.24999999999999994]]))
    assert levelled.tolist() == [[0.375, 0.375, 0.24999999999999994]]
    assert level_ties(np.array([0.5, 0.5 - 2e-8])).tolist() == [0.5, 0.5 - 2e-8]


def test_most_probable_with_a_loss_takes_the_least_expected_loss():
    # expected losses p @ L: [0.6 x 0 + 0.4 x 2, 0.6 x 1 + 0.4 x 0] = [0.8, 0.6]: class 1,
    # though class 0 is the more probable; [0.4, 0.6] gives [1.2, 0.4]: class 1; with
    # p = [2/3, 1/3] both cost 2/3: the first
    loss = np.array([[0.0, 1.0], [2.0, 0.0]])
    proba = np.array([[0.6, 0.4], [0.4, 0.6], [2 / 3, 1 / 3]])
    assert most_probable(proba, loss).tolist() == [1, 1, 0]
    assert most_probable(proba).tolist() == [0, 1, 0]
    assert most_probable(proba[0]) == 0  # one row: a node's prediction
