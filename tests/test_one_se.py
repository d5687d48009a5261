"""CART's ccp_alpha chosen by cross-validation, rpart's cptable (issue 28): "1se", the smallest
tree whose xerror is within one xstd of the least, and "min"; a CP read from ``cp_table`` and
passed back as alpha = CP R(root) prunes to that row's tree."""
from __future__ import annotations

import subprocess

import numpy as np
import pandas as pd
import pytest
from references import requires_rpart, rpart
from sklearn.base import clone
from sklearn.datasets import load_diabetes
from sklearn.model_selection import GridSearchCV

import dtree
from dtree.datasets import load_car, load_tic_tac_toe
from dtree.pruning import prune_cost_complexity
from dtree.report import cp_table

CAR_X, CAR_Y = load_car(return_X_y=True)
CAR_ROOT_RISK = (1728 - 1210) / 1728  # all but the 1,210 "unacc" cars misclassified


def rule_row(table: pd.DataFrame, rule: str) -> int:
    """The row a rule picks, by its definition: the first least xerror ("min"), or the first
    row (the smallest tree) whose xerror is at most that least xerror plus its xstd."""
    xerror, xstd = table["xerror"].to_numpy(), table["xstd"].to_numpy()
    best = int(np.argmin(xerror))
    return best if rule == "min" else int(np.flatnonzero(xerror <= xerror[best] + xstd[best])[0])


def test_a_cp_read_back_as_alpha_prunes_to_its_row():
    # every row of the car's cp table: alpha = CP R(root), R(root) = 518/1728 by hand, keeps
    # that row's splits (before, round-off left g(t) just above alpha on 12 of the 20 rows)
    model = dtree.CARTClassifier().fit(CAR_X, CAR_Y)
    table = cp_table(model, CAR_X, CAR_Y, folds=10, random_state=0)
    assert len(table) == 20
    for cp, nsplit in zip(table["CP"], table["nsplit"]):
        pruned = prune_cost_complexity(model, cp * CAR_ROOT_RISK, cost="error")
        assert pruned.get_n_leaves() - 1 == nsplit, cp


@pytest.mark.parametrize("rule", ["1se", "min"])
def test_the_rule_is_the_cp_table_route_in_one_call(rule):
    folds = np.arange(len(CAR_Y)) % 5
    model = dtree.CARTClassifier(min_samples_leaf=5, ccp_alpha=rule, cv=folds).fit(CAR_X, CAR_Y)
    grown = dtree.CARTClassifier(min_samples_leaf=5).fit(CAR_X, CAR_Y)
    table = cp_table(grown, CAR_X, CAR_Y, folds=folds)
    pd.testing.assert_frame_equal(model.cp_table_, table)
    row = rule_row(table, rule)
    assert model.ccp_alpha_ == pytest.approx(table["CP"][row] * CAR_ROOT_RISK, rel=1e-12)
    assert model.get_n_leaves() - 1 == table["nsplit"][row]
    by_hand = prune_cost_complexity(grown, model.ccp_alpha_, cost="error")
    np.testing.assert_array_equal(model.predict_proba(CAR_X), by_hand.predict_proba(CAR_X))


def test_clone_and_grid_search_keep_the_rule():
    model = dtree.CARTClassifier(ccp_alpha="1se", cv=5, random_state=3)
    first = model.fit(CAR_X, CAR_Y).get_n_leaves()
    assert clone(model).fit(CAR_X, CAR_Y).get_n_leaves() == first  # the same folds again
    search = GridSearchCV(dtree.CARTClassifier(cv=3, random_state=0),
                          {"ccp_alpha": [0.0, "1se"]}, cv=2).fit(CAR_X, CAR_Y)
    assert search.best_estimator_.ccp_alpha in (0.0, "1se")
    assert hasattr(search.best_estimator_, "tree_")


def test_a_number_again_forgets_the_chosen_alpha():
    model = dtree.CARTRegressor(ccp_alpha="1se", cv=5, random_state=0)
    X, y = load_diabetes(return_X_y=True)
    model.fit(X[:120], y[:120])
    assert {"ccp_alpha_", "cp_table_"} <= set(vars(model))
    model.set_params(ccp_alpha=0.0).fit(X[:120], y[:120])
    assert not {"ccp_alpha_", "cp_table_"} & set(vars(model))


@pytest.mark.parametrize("make, message", [
    (lambda: dtree.CARTClassifier(ccp_alpha="2se"), "ccp_alpha must be one of"),
    (lambda: dtree.CARTClassifier(ccp_alpha="1se", pruning="validation"), "choose one"),
    (lambda: dtree.CARTClassifier(ccp_alpha="1se", priors=[0.25] * 4), "priors or a loss"),
    (lambda: dtree.CARTClassifier(ccp_alpha="1se", cv=1), "folds"),
    (lambda: dtree.CARTClassifier(ccp_alpha="1se", cv=np.ones(5)), "one fold id per row"),
])
def test_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make().fit(CAR_X, CAR_Y)


def test_refused_with_validation_data_and_absolute_error():
    with pytest.raises(ValueError, match="choose one"):
        dtree.CARTClassifier(ccp_alpha="min").fit(CAR_X, CAR_Y,
                                                  validation_data=(CAR_X, CAR_Y))
    with pytest.raises(ValueError, match="squared_error"):
        dtree.CARTRegressor(ccp_alpha="1se", criterion="absolute_error").fit([[0], [1]], [0, 1])


def r_folds(n: int) -> np.ndarray:
    """The folds rpart draws for ``xval = 10`` after ``set.seed(0)`` (``xpred.rpart``)."""
    script = f"set.seed(0); cat(sample(rep(1:10, length.out = {n}), {n}), sep = '\\n')"
    printed = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True,
                             check=True).stdout
    return np.array(printed.split(), dtype=int)


@requires_rpart
@pytest.mark.parametrize("data", ["car", "diabetes"])
@pytest.mark.parametrize("rule", ["1se", "min"])
def test_rparts_choice_on_rs_folds(data, rule):
    # rpart with cp = 0 (the whole tree, minsplit 20, minbucket 7) cross-validated on the folds
    # R draws: the rule picks the same row of rpart's own cptable
    if data == "car":
        X, y, formula, make = CAR_X, CAR_Y, "class ~ .", dtree.CARTClassifier
        frame = X.assign(**{"class": y})
    else:
        X, y = load_diabetes(return_X_y=True, as_frame=True)
        formula, make, frame = "target ~ .", dtree.CARTRegressor, X.assign(target=y)
    folds = r_folds(len(y))
    fit = rpart(formula, frame, method="class" if data == "car" else "anova",
                control={"cp": 0, "xval": folds.tolist()})
    theirs = fit.cptable
    model = make(min_samples_split=20, min_samples_leaf=7, ccp_alpha=rule, cv=folds).fit(X, y)
    row = rule_row(theirs, rule)
    assert model.get_n_leaves() - 1 == theirs["nsplit"][row]
    assert model.cp_table_["nsplit"].tolist() == theirs["nsplit"].tolist()
    np.testing.assert_allclose(model.cp_table_["rel error"], theirs["rel error"], rtol=1e-9)
    # diabetes: rpart's CP of the 31-split tree, 0.001804, is below the weakest link
    # (0.339768 - 0.334324) / 3 = 0.001815 of its own rel errors; its xerror from the 8-split
    # tree on is up to 0.005 higher (its fold trees' CPs, likewise): compared to 6 splits
    rows = slice(None) if data == "car" else slice(0, 7)
    for column in ["CP", "xerror", "xstd"]:
        np.testing.assert_allclose(model.cp_table_[column][rows], theirs[column][rows],
                                   rtol=1e-9, atol=1e-12, err_msg=column)
    root_risk = dtree.cost_complexity_path(
        make(min_samples_split=20, min_samples_leaf=7).fit(X, y),
        "error" if data == "car" else "impurity").impurities[-1]
    assert model.ccp_alpha_ / root_risk == pytest.approx(theirs["CP"][row], rel=1e-9)


ROW = np.arange(125)
RARE = pd.DataFrame({"colour": np.where((ROW % 5 == 0) & (ROW < 25), "red",  # all in fold 0
                                        np.where(ROW % 2 == 0, "blue", "green")),
                     "size": ROW % 7 * 1.5})
RARE_Y = np.where((RARE["colour"] == "blue") ^ (RARE["size"] > 4), "yes", "no")


@pytest.mark.parametrize("data", ["car", "car as strings, weights 0 to 2", "diabetes, weights",
                                  "tic-tac-toe", "a category in one fold only"])
def test_folds_grown_on_one_encoding_as_fitted(data, monkeypatch):
    # cross_validated_errors encodes X once and grows each fold's tree on its rows where a fit
    # on them would learn the same classes and categories (without surrogates where no value
    # is missing and no column is categorical); forced to fit a clone per fold instead, every
    # number of the cp table is the same. Tic-tac-toe: a left-out row whose category no
    # training row at a node had takes a surrogate there
    w, leaf = None, 3
    if data == "tic-tac-toe":
        (X, y), make, leaf = load_tic_tac_toe(return_X_y=True), dtree.CARTClassifier, 1
    elif data == "diabetes, weights":
        X, y = load_diabetes(return_X_y=True)
        make, w = dtree.CARTRegressor, np.random.default_rng(0).uniform(0.5, 2, len(y))
    elif data == "a category in one fold only":
        X, y, make = RARE, RARE_Y, dtree.CARTClassifier
    else:
        X, y, make = CAR_X, np.asarray(CAR_Y), dtree.CARTClassifier
    if data.startswith("car as strings"):
        X, w = CAR_X.astype(str), np.arange(len(y)) % 3.0
    model = make(min_samples_leaf=leaf).fit(X, y, w)
    folds = np.arange(len(y)) % 5
    shared = dtree.pruning._shared_encoding(model, X, y, w if w is not None else np.ones(len(y)),
                                            folds)
    assert (shared is None) == (data == "a category in one fold only")
    table = cp_table(model, X, y, w, folds=folds)
    monkeypatch.setattr(dtree.pruning, "_shared_encoding", lambda *args: None)
    pd.testing.assert_frame_equal(cp_table(model, X, y, w, folds=folds), table,
                                  check_exact=True)
