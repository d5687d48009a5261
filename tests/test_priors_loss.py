"""CARTClassifier's class priors and loss matrix (Breiman et al. 1984, ch. 4) and its entropy
criterion: worked by hand, the majority rule as their special case, and whole trees and
cptables against R's rpart (``parms = list(prior = ..., loss = ..., split = "information")``)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from references import assert_same_tree_as_rpart, load_kyphosis, requires_rpart, rpart
from sklearn.datasets import load_breast_cancer, load_iris

from dtree import CARTClassifier, export_graphviz, export_text, leaf_table, plot_tree
from dtree.pruning import cost_complexity_path, prune_cost_complexity

# x <= 1.5 leaves 3 a and 1 b on the left, 1 a and 3 b on the right
X = pd.DataFrame({"x": [1.0, 1, 1, 1, 2, 2, 2, 2]})
Y = np.array(list("aaababbb"))


def test_priors_reweight_the_classes_by_hand():
    # pi = (0.2, 0.8), W_a = W_b = 4: p(a|left) = 0.2·3/4 / (0.2·3/4 + 0.8·1/4) = 0.15/0.35
    # = 3/7, so the left leaf is b although 3 of its 4 rows are a; p(a|right) = 0.05/0.65
    model = CARTClassifier(priors=[0.2, 0.8]).fit(X, Y)
    left, right = model.tree_.children
    np.testing.assert_allclose(left.prediction, [3 / 7, 4 / 7], rtol=1e-12)
    np.testing.assert_allclose(right.prediction, [1 / 13, 12 / 13], rtol=1e-12)
    np.testing.assert_allclose(left.value, [3, 1], rtol=1e-12)  # the class weights stay
    assert model.predict(pd.DataFrame({"x": [1.0, 2.0]})).tolist() == ["b", "b"]
    # R(left) = 0.2·3/4 (the a rows called b) = 0.15; R(right) = 0.2·1/4 = 0.05; the root,
    # called b, loses 0.2: alpha of the cut = 0.2 - 0.15 - 0.05 = 0
    path = cost_complexity_path(model, cost="error")
    np.testing.assert_allclose(path.impurities, [0.2, 0.2], rtol=1e-12)


def test_loss_decides_the_class_by_hand():
    # loss[j, i], true j called i: an a called b costs 5, a b called a costs 1. Right leaf,
    # p = (1/4, 3/4): calling it a costs 1·3/4, calling it b 5·1/4, so it is a; the left leaf
    # too. Its risk with pi = the class shares (1/2, 1/2): 1·(1/2)(3/4) = 0.375.
    model = CARTClassifier(loss=[[0, 5], [1, 0]]).fit(X, Y)
    _, right = model.tree_.children
    np.testing.assert_allclose(right.prediction, [0.25, 0.75], rtol=1e-12)
    assert model.predict(pd.DataFrame({"x": [1.0, 2.0]})).tolist() == ["a", "a"]
    np.testing.assert_allclose(model.loss_, [[0, 5], [1, 0]])
    steps = cost_complexity_path(model, cost="error")
    # the whole tree: 1·(1/2)(1/4) + 0.375 = 0.5; the root called a: 1·(1/2) = 0.5
    np.testing.assert_allclose(steps.impurities, [0.5, 0.5], rtol=1e-12)


def test_printed_and_drawn_leaves_name_the_class_of_least_loss():
    # the right leaf holds 1 a and 3 b, but an a called b costs 5: it is an "a" leaf
    model = CARTClassifier(loss=[[0, 5], [1, 0]]).fit(X, Y)
    assert export_text(model).splitlines()[-1] == "|   |--- class: a (a 1, b 3)"
    assert leaf_table(model)["predicts"].tolist() == ["a", "a"]
    assert 'class = a"' in export_graphviz(model).splitlines()[-2]
    texts = [t.get_text() for t in plot_tree(model).texts]
    assert "a\na: 1\nb: 3" in texts
    plt.close("all")


def test_class_shares_and_zero_one_loss_are_the_majority_rule():
    data = load_breast_cancer()
    X_bc, y_bc = data.data[:, :8], data.target
    plain = CARTClassifier(max_depth=4).fit(X_bc, y_bc)
    shares = np.bincount(y_bc) / len(y_bc)
    special = CARTClassifier(max_depth=4, priors=shares, loss=1 - np.eye(2)).fit(X_bc, y_bc)
    ours, theirs = list(plain.tree_.walk()), list(special.tree_.walk())
    assert [(n.feature, n.threshold) for n in ours] == [(n.feature, n.threshold)
                                                          for n in theirs]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.value, b.value, rtol=1e-12)
        np.testing.assert_allclose(a.prediction, b.prediction, rtol=1e-12)
    np.testing.assert_array_equal(plain.predict(X_bc), special.predict(X_bc))
    assert plain.costs_ is None
    np.testing.assert_allclose(cost_complexity_path(plain, cost="error").impurities,
                               cost_complexity_path(special, cost="error").impurities,
                               rtol=1e-12)


@pytest.mark.parametrize("params, error", [
    (dict(priors=[0.5, 0.6]), ValueError), (dict(priors=[1.0, 0.0]), ValueError),
    (dict(priors=[0.2, 0.3, 0.5]), ValueError), (dict(priors=["a", "b"]), TypeError),
    (dict(priors=[0.5, np.nan]), ValueError), (dict(loss=[[1, 1], [1, 0]]), ValueError),
    (dict(loss=[[0, -1], [1, 0]]), ValueError), (dict(loss=[[0, 0], [1, 0]]), ValueError),
    (dict(loss=[0, 1, 1, 0]), ValueError), (dict(loss=[[0, True], [1, 0]]), TypeError),
    (dict(priors=[0.5, 0.5], ccp_alpha=0.1), ValueError)])
def test_bad_priors_and_losses_are_refused(params, error):
    with pytest.raises(error, match="priors|loss|ccp_alpha"):
        CARTClassifier(**params).fit(X, Y)


def test_pruning_by_risk_keeps_the_loss():
    model = CARTClassifier(priors=[0.2, 0.8]).fit(X, Y)
    pruned = prune_cost_complexity(model, 0.0, cost="error")  # alpha of the cut is 0
    assert pruned.get_n_leaves() == 1
    assert pruned.predict(X).tolist() == ["b"] * 8


# --- against rpart ---------------------------------------------------------------------------

def _iris() -> pd.DataFrame:
    data = load_iris(as_frame=True).frame
    data.columns = ["sl", "sw", "pl", "pw", "Species"]
    names = np.array(["setosa", "versicolor", "virginica"])
    data["Species"] = pd.Categorical(names[data["Species"]])
    return data


KYPHOSIS_LOSS = np.array([[0, 1], [4, 0]])  # a present case called absent costs 4
IRIS_LOSS = np.array([[0, 1, 2], [1, 0, 5], [3, 1, 0]])
CASES = {
    "kyphosis, priors 1/2": ("kyphosis", dict(priors=[0.5, 0.5])),
    "kyphosis, loss": ("kyphosis", dict(loss=KYPHOSIS_LOSS)),
    "iris, priors and loss": ("iris", dict(priors=[0.2, 0.3, 0.5], loss=IRIS_LOSS)),
    "kyphosis, information": ("kyphosis", dict(criterion="entropy")),
    "kyphosis, information, priors": ("kyphosis", dict(criterion="entropy",
                                                       priors=[0.65, 0.35])),
    "iris, information, loss": ("iris", dict(criterion="entropy", loss=IRIS_LOSS)),
}


@requires_rpart
@pytest.mark.parametrize("case", CASES)
def test_tree_and_cptable_as_rpart(case):
    # The whole tree node by node (split, rows, class weights), each node's class, risk
    # (rpart's dev = W·R(t)), class probabilities (yprob) and P(t) (nodeprob), and the cptable.
    # cp = -1 grows every split, as dtree does.
    name, params = CASES[case]
    if name == "kyphosis":
        data, formula, control = load_kyphosis(), "Kyphosis ~ Age + Number + Start", {
            "minsplit": 20, "minbucket": 7}
    else:
        data, formula, control = _iris(), "Species ~ sl + sw + pl + pw", {
            "minsplit": 10, "minbucket": 3}
    target = formula.split(" ~ ")[0]
    parms = {"split": "information"} if params.get("criterion") == "entropy" else {}
    if "priors" in params:
        parms["prior"] = params["priors"]
    if "loss" in params:  # R fills a matrix column by column
        parms["loss"] = params["loss"].flatten(order="F").tolist()
    fit = rpart(formula, data, control={**control, "cp": -1, "xval": 0}, parms=parms)
    model = CARTClassifier(min_samples_split=control["minsplit"],
                           min_samples_leaf=control["minbucket"], **params).fit(
        data.drop(columns=target), data[target])
    classes = model.classes_.tolist()
    assert_same_tree_as_rpart(model.tree_.root, fit, classes, surrogates=False)
    frame, total = fit.frame, model.tree_.weighted_n_samples
    priors = np.asarray(params.get("priors", model.tree_.root.value / total))
    costs = (priors / model.tree_.root.value)[:, None] * model.loss_  # pi_j L(j, i) / W_j
    pairs = [(1, model.tree_.root)]
    while pairs:
        number, node = pairs.pop()
        row = frame.loc[number]
        expected = model.classes_[np.argmin(node.prediction @ model.loss_)]
        assert expected == classes[int(row["class"]) - 1], number
        risk = (node.value @ costs).min()
        assert risk * total == pytest.approx(row["dev"], rel=1e-9, abs=1e-9), number
        np.testing.assert_allclose(node.prediction, [row[f"prob_{c}"] for c in classes],
                                   rtol=1e-9, atol=1e-12)
        assert (priors * node.value / model.tree_.root.value).sum() == pytest.approx(
            row["nodeprob"], rel=1e-9)
        for child in node.children:  # rpart's sons 2t, 2t + 1, paired by their class counts
            son = [s for s in (2 * number, 2 * number + 1) if np.allclose(
                child.value, [frame.loc[s, f"count_{c}"] for c in classes])]
            assert len(son) == 1
            pairs.append((son[0], child))
    # rpart's cptable: each CP (alpha / R(root)) with the smallest subtree optimal from there
    path = cost_complexity_path(model, cost="error")
    root_risk = path.impurities[-1]
    if case == "kyphosis, information":
        # Here rpart's CP is not the weakest link. Risks in children (R(root) = 17): the root
        # (17) over Start >= 12.5 (a leaf of 2) and Age (15), which splits into a leaf (1) and
        # Number (11), which splits into leaves of 5 and 4. g(Number) = (11 - 9)/1 = 2,
        # g(Age) = (15 - 10)/2 = 2.5, g(root) = (17 - 12)/3 = 5/3: the root is the weakest link,
        # cut at CP 5/51. rpart's partition.c assumes that Number collapses before the root
        # and computes (17 - 14)/2 = 3/2, CP 3/34; but at alpha = 1.6, between the two, the
        # tree of 3 splits costs 12 + 4 alpha = 18.4, less than the root's 17 + alpha = 18.6.
        assert fit.cptable["CP"].iloc[0] == pytest.approx(3 / 34, abs=1e-6)
        np.testing.assert_allclose(path.ccp_alphas / root_risk, [0, 0, 5 / 51], atol=1e-12)
        assert path.n_leaves.tolist() == [5, 4, 1]
        return
    for _, line in fit.cptable[fit.cptable["CP"] >= 0].iterrows():
        step = np.flatnonzero(path.ccp_alphas <= line["CP"] * root_risk + 1e-12)[-1]
        assert path.n_leaves[step] - 1 == line["nsplit"]
        assert path.impurities[step] / root_risk == pytest.approx(line["rel error"], rel=1e-9)
    distinct = np.unique(np.round(path.ccp_alphas / root_risk, 12))[::-1]
    np.testing.assert_allclose(distinct, fit.cptable["CP"][fit.cptable["CP"] >= 0],
                               rtol=1e-6, atol=1e-9)
