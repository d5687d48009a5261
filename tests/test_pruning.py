"""Pruning any of the library's trees (dtree.pruning): the cost-complexity path against
scikit-learn's and rpart's, pruned copies against ccp_alpha, validation-based pre-pruning and
reduced-error pruning on Zhou's worked example, and the pruning logs."""
from __future__ import annotations

import math
import pickle
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from jit import run_script
from references import assert_same_tree_as_rpart, load_kyphosis, requires_rpart, rpart
from sklearn import datasets as skdata
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier

from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier, export_text
from dtree.datasets import load_arff, load_watermelon, load_watermelon_split
from dtree.pruning import (_error_based, cost_complexity_path, cost_complexity_steps,
                           prune_cost_complexity, prune_error_based, prune_pessimistic,
                           prune_reduced_error)
from dtree.tree import copy_tree


@pytest.fixture(scope="module")
def wine():
    X, y = skdata.load_wine(return_X_y=True)
    return np.asarray(X, dtype=np.float32).astype(float), y


def test_path_of_a_fitted_cart_is_scikit_learns(wine):
    X, y = wine
    model = CARTClassifier(min_samples_leaf=2).fit(X, y)
    ours = cost_complexity_path(model)
    theirs = DecisionTreeClassifier(min_samples_leaf=2, random_state=0) \
        .cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, atol=1e-9)
    np.testing.assert_allclose(ours.impurities, theirs.impurities, atol=1e-9)


def test_pruned_copy_equals_ccp_alpha_and_leaves_the_input_alone(wine):
    X, y = wine
    model = CARTClassifier(min_samples_leaf=2).fit(X, y)
    before = pickle.dumps(model.tree_.root)
    alphas = cost_complexity_path(model).ccp_alphas
    for alpha in (alphas[1:] + alphas[:-1])[::2] / 2:
        pruned = prune_cost_complexity(model, alpha)
        assert pruned.get_n_leaves() == CARTClassifier(min_samples_leaf=2, ccp_alpha=alpha) \
            .fit(X, y).get_n_leaves()
        log = pruned.pruning_log_
        removed = log.loc[log["decision"] == "cut", "leaves removed"].sum()
        assert removed == model.get_n_leaves() - pruned.get_n_leaves()
        np.testing.assert_array_equal(pruned.predict(X), CARTClassifier(
            min_samples_leaf=2, ccp_alpha=alpha).fit(X, y).predict(X))
    assert pickle.dumps(model.tree_.root) == before


def test_pruning_log_by_hand():
    # x = 1..4, y = a a b a (see test_cart's path by hand): full tree, 3 leaves, R(T) = 0. The
    # root's g = (0.375 - 0) / (3 - 1) = 0.1875 is smaller than its right child's 0.25: the
    # root is the weakest link. At alpha = 0.2 it is cut (two leaves removed); at 0.1 it is kept.
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array(list("aaba"))
    model = CARTClassifier().fit(X, y)
    cut = prune_cost_complexity(model, 0.2)
    assert cut.get_n_leaves() == 1 and cut.tree_.stop_reason == "ccp_alpha"
    assert cut.pruning_log_.to_dict("records") == [
        {"node": 0, "test": "x0", "depth": 0, "g(t)": 0.1875, "leaves removed": 2,
         "decision": "cut"}]
    kept = prune_cost_complexity(model, 0.1)
    assert kept.get_n_leaves() == 3
    assert kept.pruning_log_["decision"].tolist() == ["kept: g(t) > alpha"]


def test_multiway_tree_with_the_error_cost():
    # ID3 on watermelon 2.0 (9 leaves, all pure): with cost="error" the full tree costs 0 and
    # the path ends at the root alone, whose 8 unripe melons of 17 are called ripe: R = 8/17
    X, y = load_watermelon(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    path = cost_complexity_path(model, cost="error")
    assert path.n_leaves[0] == 9 and path.n_leaves[-1] == 1
    assert path.impurities[0] == 0 and path.impurities[-1] == pytest.approx(8 / 17)
    assert np.all(np.diff(path.ccp_alphas) >= 0)


@requires_rpart
def test_error_cost_path_is_rparts_cptable():
    data = load_kyphosis()
    X, y = data[["Age", "Number", "Start"]], data["Kyphosis"]
    model = CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(X, y)
    fit = rpart("Kyphosis ~ Age + Number + Start", data, control={"cp": 0, "xval": 0})
    path = cost_complexity_path(model, cost="error")
    np.testing.assert_allclose(path.ccp_alphas[::-1] / (17 / 81), fit.cptable["CP"], atol=1e-6)


def test_bad_calls():
    X, y = np.array([[1.0], [2.0], [3.0]]), np.array([1.0, 2.0, 4.0])
    with pytest.raises(NotFittedError):
        cost_complexity_path(CARTClassifier())
    with pytest.raises(ValueError, match='cost="error" counts misclassified rows'):
        cost_complexity_path(CARTRegressor().fit(X, y), cost="error")
    with pytest.raises(ValueError, match="cost must be one of"):
        prune_cost_complexity(CARTRegressor().fit(X, y), 0.1, cost="gini")
    with pytest.raises(ValueError, match="alpha"):
        prune_cost_complexity(CARTRegressor().fit(X, y), -1.0)


# --- validation-based pre-pruning and reduced-error pruning (Zhou 2016, sec. 4.3) -----------

@pytest.fixture(scope="module")
def zhou_split():
    """Watermelon 2.0 split as in Zhou's table 4.2: 10 training and 7 validation melons."""
    X, y = load_watermelon(return_X_y=True)
    train = (load_watermelon_split() == "train").to_numpy()
    return X[train], y[train], X[~train], y[~train]


def test_pre_pruning_on_zhous_split(zhou_split):
    # Zhou's fig. 4.6. The root (5 ripe : 5 unripe, a tie, broken by classes_: "no") gets 4 of
    # the 7 validation melons right as a leaf; split on navel, 5 (71.4%). Below it, colour at
    # navel = hollow would lower that to 4/7, root at slightly hollow leaves it at 5/7: neither
    # is split. (Navel and colour tie at the root; Zhou takes navel.)
    X, y, X_val, y_val = zhou_split
    model = ID3Classifier(tie_break=["navel"]).fit(X, y, validation_data=(X_val, y_val))
    log = model.pruning_log_
    assert log["test"].tolist() == ["navel", "colour", "root"]
    np.testing.assert_allclose(log["accuracy as a leaf"], [4 / 7, 5 / 7, 5 / 7])
    np.testing.assert_allclose(log["accuracy split"], [5 / 7, 4 / 7, 5 / 7])
    assert log["decision"].tolist() == ["split", "leaf", "leaf"]
    assert model.get_n_leaves() == 3 and model.score(X_val, y_val) == pytest.approx(5 / 7)
    assert [c.stop_reason for c in model.tree_.children[:2]] == ["validation"] * 2
    assert not hasattr(ID3Classifier().fit(X, y), "pruning_log_")


def test_reduced_error_pruning_on_zhous_split(zhou_split):
    # Zhou's fig. 4.5 -> 4.7: the full tree gets 3 of 7 right (42.9%). Zhou's nodes 6 (texture),
    # 5 (colour), 2 (colour), 3 (root), 1 (navel), in that order: pruning 6 gives 57.1%, 5 no
    # change (kept), 2 gives 71.4%, 3 no change, 1 would fall to 57.1%
    X, y, X_val, y_val = zhou_split
    full = ID3Classifier(tie_break=["navel"]).fit(X, y)
    assert full.score(X_val, y_val) == pytest.approx(3 / 7)
    before = full.get_n_leaves()
    pruned = prune_reduced_error(full, X_val, y_val)
    log = pruned.pruning_log_
    assert log["test"].tolist() == ["texture", "colour", "colour", "root", "navel"]
    np.testing.assert_allclose(log["accuracy split"], [3 / 7, 4 / 7, 4 / 7, 5 / 7, 5 / 7])
    np.testing.assert_allclose(log["accuracy as a leaf"], [4 / 7, 4 / 7, 5 / 7, 5 / 7, 4 / 7])
    assert log["decision"].tolist() == ["leaf", "split", "leaf", "split", "split"]
    assert pruned.score(X_val, y_val) == pytest.approx(5 / 7)
    assert full.get_n_leaves() == before  # the input is untouched
    on_tie = prune_reduced_error(full, X_val, y_val, prune_on_tie=True)
    assert on_tie.pruning_log_["decision"].tolist() == ["leaf", "leaf", "leaf", "leaf", "split"]
    assert on_tie.get_n_leaves() == 3


def test_validation_rows_with_missing_values_and_unseen_classes():
    # C4.5 on watermelon 2.0alpha, validated on itself with every texture erased: the rows go
    # down every branch of the root with its training fractions, and all weight arrives
    X, y = load_watermelon("2.0alpha", return_X_y=True)
    X_val = X.assign(texture=pd.Categorical([None] * len(X), categories=X["texture"].cat
                                            .categories))
    model = C45Classifier().fit(X, y, validation_data=(X_val, y))
    assert model.pruning_log_["accuracy as a leaf"].iloc[0] == pytest.approx(
        (y == model.classes_[0]).mean())
    y_other = np.where(y == model.classes_[0], "maybe", y)  # a class never seen at fit
    full = C45Classifier().fit(X, y)
    assert prune_reduced_error(full, X, y_other).pruning_log_["accuracy split"].max() <= 0.5


def test_bad_validation_data(zhou_split):
    X, y, X_val, y_val = zhou_split
    with pytest.raises(ValueError, match="pair"):
        ID3Classifier().fit(X, y, validation_data=X_val)
    with pytest.raises(ValueError, match="columns"):
        ID3Classifier().fit(X, y, validation_data=(X_val.iloc[:, :3], y_val))
    with pytest.raises(ValueError, match="needs a classifier"):
        CARTRegressor().fit([[1.0], [2.0]], [1.0, 2.0], validation_data=([[1.0]], [1.0]))
    with pytest.raises(TypeError, match="prune_on_tie"):
        prune_reduced_error(ID3Classifier().fit(X, y), X_val, y_val, prune_on_tie="yes")


# --- pessimistic error pruning (Quinlan 1987) ------------------------------------------------

def stump():
    # colour splits 20 rows into p: 8 a + 2 b and q: 3 a + 7 b
    X = pd.DataFrame({"colour": list("p" * 10 + "q" * 10)})
    y = np.array(list("aaaaaaaabb" "aaabbbbbbb"))
    return ID3Classifier().fit(X, y)


@pytest.mark.parametrize("z, decision", [(1.0, "keep"), (2.0, "leaf")])
def test_pessimistic_pruning_by_hand(z, decision):
    # root: 11 a, 9 b, so e(t) + 1/2 = 9.5. Leaves: 2 + 3 errors, 2 leaves: E = 6,
    # SE = sqrt(6 x 14 / 20) = 2.049. z = 1: 9.5 > 8.049, kept; z = 2: 9.5 <= 10.099, pruned
    model = stump()
    pruned = prune_pessimistic(model, z=z)
    [row] = pruned.pruning_log_.to_dict("records")
    assert row["e(t) + 1/2"] == 9.5 and row["E(T_t)"] == 6
    assert row["SE"] == pytest.approx(math.sqrt(4.2))
    assert row["decision"] == decision
    assert pruned.get_n_leaves() == (2 if decision == "keep" else 1)
    assert model.get_n_leaves() == 2


def test_pessimistic_orders_visit_differently():
    X, y = load_watermelon(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    top = prune_pessimistic(model, z=0.5, order="top_down").pruning_log_
    bottom = prune_pessimistic(model, z=0.5, order="bottom_up").pruning_log_
    assert top["node"].iloc[0] == 0 and bottom["node"].iloc[-1] == 0  # root first / last
    with pytest.raises(ValueError, match="order"):
        prune_pessimistic(model, order="sideways")


def test_cost_complexity_steps_by_hand():
    # the 4-row tree of test_pruning_log_by_hand: at step 1 two internal nodes stand, the root
    # (R 0.375, R(T) 0, 3 leaves, g 0.1875) and its right child (R 2/4 x 0.5 = 0.25, g 0.25);
    # the root is cut
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array(list("aaba"))
    steps = cost_complexity_steps(CARTClassifier().fit(X, y))
    assert steps[["step", "node", "n(T_t)", "cut"]].values.tolist() == [[1, 0, 3, True],
                                                                        [1, 2, 2, False]]
    np.testing.assert_allclose(steps["g(t)"], [0.1875, 0.25])
    np.testing.assert_allclose(steps["R(t)"], [0.375, 0.25])


@pytest.mark.parametrize("make", [
    lambda X, y: ID3Classifier(missing="fractional").fit(X, y),
    lambda X, y: C45Classifier().fit(X, y),
    lambda X, y: C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y),
    lambda X, y: CARTClassifier().fit(X, y),
], ids=["ID3", "C4.5", "J48", "CART"])
def test_every_pruner_on_every_tree(make):
    # watermelon 2.0alpha: missing values, so fractional weights (or surrogates) everywhere
    X, y = load_watermelon("2.0alpha", return_X_y=True)
    model = make(X, y)
    leaves = model.get_n_leaves()
    for pruned in (prune_cost_complexity(model, 0.02), prune_pessimistic(model),
                   prune_reduced_error(model, X, y), prune_error_based(model, X, y)):
        assert 1 <= pruned.get_n_leaves() <= leaves
        assert isinstance(pruned.pruning_log_, pd.DataFrame)
        assert np.allclose(pruned.predict_proba(X).sum(axis=1), 1)
    assert model.get_n_leaves() == leaves


def test_accuracy_pruners_need_a_classifier():
    X, y = np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([1.0, 2.0, 4.0, 8.0])
    model = CARTRegressor().fit(X, y)
    for prune in (lambda: prune_reduced_error(model, X, y), lambda: prune_pessimistic(model),
                  lambda: prune_error_based(model, X, y)):
        with pytest.raises(ValueError, match="needs a classifier"):
            prune()
    assert prune_cost_complexity(model, 1.0).get_n_leaves() <= model.get_n_leaves()


def test_pruners_handle_a_2000_deep_tree():
    # x = 0..2000 with alternating classes: a chain of depth 2000; nothing may recurse that deep
    X = np.arange(2001.0)[:, None]
    y = np.arange(2001) % 2
    model = CARTClassifier().fit(X, y)
    assert model.get_depth() == 2000
    for pruned in (prune_error_based(model, X, y), prune_pessimistic(model, order="bottom_up"),
                   prune_cost_complexity(model, 0.001), prune_reduced_error(model, X, y)):
        assert pruned.get_n_leaves() in (1, 2001)


# --- pruning as parameters: what clone(), cross-validation and grid search keep ---------------

@pytest.fixture(scope="module")
def credit():
    X, y = load_arff("credit-g", return_X_y=True)
    return X, np.asarray(y)


def unpruned_j48(X, y):
    return C45Classifier(variant="j48", min_samples_leaf=2).fit(X, y)


def test_a_pruners_result_clones_to_the_same_pruned_model(credit):
    X, y = credit
    model = unpruned_j48(X, y)
    for pruned in (prune_error_based(model, X, y), prune_error_based(model, confidence=0.1,
                                                                     subtree_raising=False),
                   prune_pessimistic(model, z=0.5)):
        assert not hasattr(pruned, "pruned_by_") and "pruned by" not in repr(pruned)
        again = clone(pruned).fit(X, y)
        assert pruned.get_n_leaves() == again.get_n_leaves() < model.get_n_leaves()
        np.testing.assert_array_equal(pruned.predict_proba(X), again.predict_proba(X))
    cart = CARTClassifier(min_samples_leaf=5).fit(X, y)
    pruned = prune_cost_complexity(cart, 0.004)
    assert pruned.ccp_alpha == 0.004
    assert clone(pruned).fit(X, y).get_n_leaves() == pruned.get_n_leaves()


def test_a_pruning_no_parameter_describes_is_a_fitted_result(credit):
    X, y = credit
    model = unpruned_j48(X, y)
    for pruned, call in [(prune_reduced_error(model, X[:300], y[:300]), "prune_reduced_error"),
                         (prune_pessimistic(model, order="bottom_up"), "prune_pessimistic"),
                         (prune_cost_complexity(model, 0.01), "prune_cost_complexity"),
                         (prune_pessimistic(prune_pessimistic(model), z=2), "prune_pessimistic")]:
        assert call in pruned.pruned_by_
        assert "a fitted result" in repr(pruned) and "a fitted result" not in repr(clone(pruned))
        assert not hasattr(clone(pruned).fit(X, y), "pruned_by_")


def test_cross_validation_measures_the_pruned_tree(credit):
    # before pruning was a parameter, these folds fitted trees of 275-327 leaves, not ~100
    X, y = credit
    folds = KFold(3, shuffle=True, random_state=0)
    pruned = prune_error_based(unpruned_j48(X, y), X, y)
    result = cross_validate(pruned, X, y, cv=folds, return_estimator=True)
    for estimator, (train, _) in zip(result["estimator"], folds.split(X)):
        Xt, yt = X.iloc[train], y[train]
        expected = prune_error_based(unpruned_j48(Xt, yt), Xt, yt).get_n_leaves()
        assert estimator.get_n_leaves() == expected < unpruned_j48(Xt, yt).get_n_leaves() / 2


def test_grid_search_over_the_confidence(credit):
    X, y = credit
    grid = GridSearchCV(C45Classifier.j48(), {"confidence": [0.05, 0.25, 0.5]}, cv=3).fit(X, y)
    best = grid.best_params_["confidence"]
    model = unpruned_j48(X, y)
    assert grid.best_estimator_.get_n_leaves() == prune_error_based(
        model, X, y, confidence=best).get_n_leaves()
    assert C45Classifier.j48().fit(X, y).get_n_leaves() == 103  # Weka J48 -C 0.25 -M 2


def test_reduced_error_pruning_at_fit_holds_out_a_third_of_each_class(credit):
    X, y = credit
    model = C45Classifier(pruning="reduced_error", random_state=0).fit(X, y)
    held = sum(round(count / 3) for count in np.unique(y, return_counts=True)[1])
    assert model.tree_.weighted_n_samples == len(y) - held  # 700 good, 300 bad: 233 + 100
    assert len(model.pruning_log_) > 0
    again = C45Classifier(pruning="reduced_error", random_state=0).fit(X, y)
    assert again.get_n_leaves() == model.get_n_leaves()


def held_out_third(y, seed=0):
    """A third of each class's rows (round(n / 3)), the classes in sorted order, each drawn
    by one permutation of a RandomState(seed): the split J48 -R makes, written out here."""
    rng, held = np.random.RandomState(seed), np.zeros(len(y), bool)
    for label in np.unique(y):
        rows = rng.permutation(np.flatnonzero(np.asarray(y) == label))
        held[rows[:round(len(rows) / 3)]] = True
    return held


@pytest.mark.parametrize("model", [C45Classifier(pruning="validation", random_state=0),
                                   CARTClassifier(pruning="validation", random_state=0),
                                   ID3Classifier(pruning="validation", random_state=0,
                                                 missing="fractional")])
def test_validation_pruning_at_fit_is_validation_data_on_a_held_out_third(credit, model):
    # the parameter holds out a third of each class and pre-prunes on it: the tree of
    # fit(grown rows, validation_data=held-out rows), which clone() keeps
    X, y = credit
    X = X.select_dtypes("category") if isinstance(model, ID3Classifier) else X
    held = held_out_third(y)
    by_hand = clone(model).set_params(pruning=None).fit(
        X[~held], y[~held], validation_data=(X[held], y[held]))
    fitted = clone(model).fit(X, y)
    assert export_text(fitted) == export_text(by_hand)
    pd.testing.assert_frame_equal(fitted.pruning_log_, by_hand.pruning_log_)
    assert fitted.get_n_leaves() < clone(model).set_params(pruning=None).fit(
        X[~held], y[~held]).get_n_leaves()
    assert fitted.tree_.weighted_n_samples == (~held).sum()  # 467 good and 200 bad rows


def test_validation_pruning_refuses_a_second_pruning(credit):
    X, y = credit
    with pytest.raises(ValueError, match="choose one"):
        CARTClassifier(pruning="validation", ccp_alpha=0.01).fit(X, y)
    with pytest.raises(ValueError, match="choose one"):
        C45Classifier(pruning="validation").fit(X, y, validation_data=(X, y))
    with pytest.raises(ValueError, match="pruning must be one of"):
        CARTClassifier(pruning="reduced_error").fit(X, y)
    with pytest.raises(ValueError, match="validation_fraction"):
        CARTClassifier(pruning="validation", validation_fraction=0.0).fit(X, y)


def test_pruners_say_when_a_model_is_not_fitted():
    for prune in (lambda m: prune_error_based(m, subtree_raising=False), prune_pessimistic,
                  lambda m: prune_cost_complexity(m, 0.1), lambda m: prune_reduced_error(
                      m, [[1.0]], ["a"])):
        with pytest.raises(NotFittedError, match="not fitted"):
            prune(C45Classifier())


def test_bad_pruning_parameters(credit):
    X, y = credit
    for params, error in [({"pruning": "cost_complexity"}, ValueError),
                          ({"confidence": 0.0}, ValueError), ({"z": -1}, ValueError),
                          ({"validation_fraction": 1.0}, ValueError),
                          ({"subtree_raising": "yes"}, ValueError),
                          ({"random_state": "x"}, ValueError)]:
        with pytest.raises(error):
            C45Classifier(pruning="reduced_error").set_params(**params).fit(X, y)
    with pytest.raises(ValueError, match="choose one"):
        C45Classifier.j48().fit(X, y, validation_data=(X, y))


PLAIN_AND_COMPILED_SCRIPT = """
import json
import numpy as np
from dtree import C45Classifier, CARTClassifier, export_text
from dtree.datasets import load_arff, load_watermelon
from dtree.pruning import cost_complexity_path, cost_complexity_steps, prune_error_based
X, y = load_watermelon("2.0alpha", return_X_y=True)
Xc, yc = load_arff("credit-g", return_X_y=True)
Xc = Xc.mask(np.random.default_rng(0).random(Xc.shape) < 0.05)  # missing cells
out = []
for model, X_, y_ in [(CARTClassifier().fit(X, y), X, y), (C45Classifier().fit(X, y), X, y),
                      (CARTClassifier(min_samples_leaf=3).fit(Xc, yc), Xc, yc),
                      (C45Classifier.j48().fit(Xc, yc), Xc, yc)]:
    pruned = prune_error_based(model, X_, y_)
    path = cost_complexity_path(model, "error")
    out.append([export_text(pruned), pruned.pruning_log_.values.tolist(),
                [path.ccp_alphas.tolist(), path.impurities.tolist(), path.n_leaves.tolist()],
                cost_complexity_steps(model).values.tolist()[:300]])
print(json.dumps(out))
"""


def test_pruning_kernels_compiled_and_plain_agree():
    # the largest branch's estimate (missing values spread over the branches, CART's
    # surrogates) and the weakest-link loop, compiled and as plain Python
    compiled = run_script(PLAIN_AND_COMPILED_SCRIPT, jit=True)
    plain = run_script(PLAIN_AND_COMPILED_SCRIPT, jit=False)
    assert [tree[0] for tree in compiled] == [tree[0] for tree in plain]
    assert compiled == plain


def test_subtree_raising_reads_the_training_matrix_without_copying_it():
    # fit hands error-based pruning the encoded matrix (a row per sample, C order); the
    # estimate of a raised branch reads it as it is: no copy of its 8 MB
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50_000, 20))
    y = (X[:, 0] + X[:, 1] + rng.normal(size=50_000) > 0).astype(np.int64)
    model = C45Classifier(max_depth=3).fit(X[:2000], y[:2000])
    training = (X, y, np.ones(len(y)))
    _error_based(copy_tree(model.tree_), training, 2, 0.25, "distribute")  # compiled first
    tracemalloc.start()
    try:
        _error_based(copy_tree(model.tree_), training, 2, 0.25, "distribute")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < X.nbytes / 2  # the rows and weights handed down take a third of it


@requires_rpart
def test_rows_that_stay_at_a_node_count_as_in_rpart():
    # Three rows have neither x1 nor x2 (x3 is constant: it never splits, and it keeps them in
    # rpart's data). Where they reach a node whose split sent equal weight both ways, no
    # surrogate and no majority places them: they stay there (rpart's nodesplit.c), counted
    # in the node's risk R(t) and in no leaf, as rpart's partition.c sums a subtree's risk
    # from its children's. The error-cost path is rpart's cptable (CP = alpha / R(root),
    # rel error = R(T) / R(root)), the full tree's included; counting the rows that stay in
    # the subtree, at their node's class, would give alphas 1/6 and 1/3 instead.
    nan = np.nan
    X = pd.DataFrame({
        "x1": [1.0, 1, 5, 4, nan, 3, 4, 0, 3, 4, nan, 5, 0, 0, nan, 3],
        "x2": [4.0, 0, 1, 5, nan, 2, 3, 0, 4, 0, nan, 4, 0, 4, nan, 2], "x3": np.ones(16)})
    y = pd.Categorical(list("aababbbbaaabaabb"))
    model = CARTClassifier(min_samples_split=2).fit(X, y)
    stay = {node.depth: (node.value - sum(c.value for c in node.children)).tolist()
            for node in model.tree_.walk() if node.children}
    assert sum(map(sum, stay.values())) > 0  # some rows stay below the root
    fit = rpart("y ~ x1 + x2 + x3", X.assign(y=y),
                control={"cp": -1, "xval": 0, "maxcompete": 0, "minsplit": 2, "minbucket": 1})
    assert_same_tree_as_rpart(model.tree_.root, fit, model.classes_)
    path = cost_complexity_path(model, cost="error")
    root_error = path.impurities[-1]
    for _, row in fit.cptable.iterrows():  # rpart's pruned tree at each CP (-1: the full tree)
        k = np.flatnonzero(path.ccp_alphas / root_error <= row["CP"] + 1e-9).max(initial=0)
        assert path.n_leaves[k] - 1 == row["nsplit"]
        assert path.impurities[k] / root_error == pytest.approx(row["rel error"], abs=1e-9)
    positive = fit.cptable["CP"][fit.cptable["CP"] > 0].to_numpy()[::-1]
    np.testing.assert_allclose(np.unique(path.ccp_alphas[path.ccp_alphas > 0]) / root_error,
                               positive, atol=1e-9)


def test_pessimistic_pruning_counts_rows_that_stay_as_rparts_risk_does():
    # test_surrogates' tie: 10 rows, (5 a, 5 b) at the root; rows 8 and 9 (one a, one b) have
    # nothing that places them and stay at the root; its leaves hold (4, 0) and (0, 4). As in
    # rpart's cost (see the test above), e(t) counts the root's 10 rows and E(T_t) its leaves:
    # e + 1/2 = 5.5, E = 0 + 0 + 2/2 = 1, SE = sqrt(1 x 9 / 10); with z = 3, 1 + 3 SE = 3.85
    # keeps the split (counting the row of b at the root in the subtree, E = 2 and
    # SE = sqrt(2 x 8 / 10), would prune it: 2 + 3 SE = 5.79).
    nan = np.nan
    X = pd.DataFrame({"x1": [1.0, 2, 3, 4, 5, 6, 7, 8, nan, nan],
                      "x2": [1.0, 2, 3, 5, 4, 6, 7, 8, nan, nan], "x3": np.ones(10)})
    model = CARTClassifier(min_samples_split=2).fit(X, list("aaaabbbbab"))
    assert [c.value.tolist() for c in model.tree_.children] == [[4, 0], [0, 4]]
    log = prune_pessimistic(model, z=3).pruning_log_
    assert log[["node", "e(t) + 1/2", "E(T_t)"]].to_numpy().tolist() == [[0, 5.5, 1]]
    assert log["SE"].iloc[0] == pytest.approx(math.sqrt(0.9), rel=1e-12)
    assert log["decision"].tolist() == ["keep"]
