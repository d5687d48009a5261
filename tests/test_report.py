"""rpart's print(fit) and printcp(fit) of a dtree CART tree, against rpart: R's output stored in
dtree/datasets/data/r/ (re-run and compared where R is installed, through ``run_r``), and rpart
run live on cu.summary (five classes, factors, missing values)."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from references import requires_rpart, rpart, rpart_tree_differences
from sklearn.exceptions import NotFittedError

import dtree
from dtree.notebook import R_OUTPUTS, run_r
from dtree.report import cp_table, rpart_nodes, rpart_text

KYPHOSIS = pd.read_csv(R_OUTPUTS / "kyphosis.csv")
FOLDS = np.arange(len(KYPHOSIS)) % 10 + 1  # rpart's xval given as fold ids: 1, 2, ..., 10, 1, ...
# rpart's defaults minsplit = 20, minbucket = 7; cp = 0 grows the whole tree
R_FIT = ("suppressPackageStartupMessages(library(rpart)); "
         "fit <- rpart({formula}, data = kyphosis, cp = 0, "
         "xval = rep(1:10, length.out = nrow(kyphosis))); ")


def kyphosis_tree(regression: bool = False):
    if regression:
        return dtree.CARTRegressor(min_samples_split=20, min_samples_leaf=7).fit(
            KYPHOSIS[["Age", "Number"]], KYPHOSIS["Start"])
    return dtree.CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(
        KYPHOSIS[["Age", "Number", "Start"]], KYPHOSIS["Kyphosis"])


def r_cptable(formula: str, stored: str) -> pd.DataFrame:
    script = R_FIT.format(formula=formula) + "write.csv(fit$cptable, stdout(), row.names = FALSE)"
    return pd.read_csv(io.StringIO(run_r(script, stored, strict=True)))


def test_print_is_rparts_on_kyphosis():
    printed = run_r(R_FIT.format(formula="Kyphosis ~ Age + Number + Start") + "print(fit)",
                    "kyphosis_print.txt", strict=True)
    assert rpart_text(kyphosis_tree()) == printed


def test_print_is_rparts_for_a_regression_tree():
    printed = run_r(R_FIT.format(formula="Start ~ Age + Number") + "print(fit)",
                    "kyphosis_anova_print.txt", strict=True)
    assert rpart_text(kyphosis_tree(regression=True)) == printed


def test_nodes_by_hand():
    nodes = rpart_nodes(kyphosis_tree())
    # 17 of the 81 children have kyphosis; "Start >= 8.5" holds 62 with 6 present: rpart's
    # left son, the side with the smaller share of the second class (56/62 absent vs 8/19)
    assert nodes.loc[1, ["split", "n", "loss", "yval"]].tolist() == ["root", 81, 17, "absent"]
    assert nodes.loc[2, ["split", "n", "loss"]].tolist() == ["Start>=8.5", 62, 6]
    assert nodes.loc[3, ["split", "n", "loss", "yval"]].tolist() == ["Start< 8.5", 19, 8,
                                                                     "present"]
    assert nodes.loc[3, "prob_present"] == pytest.approx(11 / 19, abs=1e-15)
    assert sorted(nodes.index[nodes["leaf"]]) == [3, 4, 10, 22, 23]


@pytest.mark.parametrize("regression", [False, True])
def test_cp_table_is_rparts_with_the_same_folds(regression):
    formula, stored = (("Start ~ Age + Number", "kyphosis_anova_cptable_folds.csv") if regression
                       else ("Kyphosis ~ Age + Number + Start", "kyphosis_cptable_folds.csv"))
    theirs = r_cptable(formula, stored)
    model = kyphosis_tree(regression)
    X = KYPHOSIS[["Age", "Number"] if regression else ["Age", "Number", "Start"]]
    y = KYPHOSIS["Start" if regression else "Kyphosis"]
    ours = cp_table(model, X, y, folds=FOLDS)
    assert ours.columns.tolist() == theirs.columns.tolist()
    assert ours["nsplit"].tolist() == theirs["nsplit"].tolist()
    for column in ["CP", "rel error", "xerror", "xstd"]:
        np.testing.assert_allclose(ours[column], theirs[column], rtol=1e-9, atol=1e-12,
                                   err_msg=column)


def test_cp_table_by_hand():
    # R(root) = 17/81; one split makes 14 errors, the full tree (four splits) 13, so
    # g = (R(t) - R(T_t)) / (n(T_t) - 1) is 3/81 for the root and 1/243 below: CP = g / R(root)
    table = cp_table(kyphosis_tree(), KYPHOSIS[["Age", "Number", "Start"]],
                     KYPHOSIS["Kyphosis"], folds=FOLDS)
    np.testing.assert_allclose(table["CP"], [3 / 17, 1 / 51, 0], atol=1e-15)
    np.testing.assert_allclose(table["rel error"], [1, 14 / 17, 13 / 17], rtol=1e-12)
    # the root says "absent" in every fold: its 17 errors are the children with kyphosis
    assert table.loc[0, "xerror"] == pytest.approx(1, rel=1e-12)
    assert table.loc[0, "xstd"] == pytest.approx(np.sqrt(17 - 17 ** 2 / 81) / 17, rel=1e-12)


def test_random_folds_are_nearly_equal_and_seeded():
    model = kyphosis_tree()
    X, y = KYPHOSIS[["Age", "Number", "Start"]], KYPHOSIS["Kyphosis"]
    a = cp_table(model, X, y, folds=5, random_state=3)
    pd.testing.assert_frame_equal(a, cp_table(model, X, y, folds=5, random_state=3))
    groups = dtree.report._folds(5, 81, 0)
    assert sorted(np.bincount(groups)) == [16, 16, 16, 16, 17]


def test_bad_input():
    model = kyphosis_tree()
    X, y = KYPHOSIS[["Age", "Number", "Start"]], KYPHOSIS["Kyphosis"]
    with pytest.raises(ValueError, match="one fold id per row"):
        cp_table(model, X, y, folds=np.ones(3))
    with pytest.raises(ValueError, match="at least two folds"):
        cp_table(model, X, y, folds=np.ones(81))
    with pytest.raises(ValueError, match="folds"):
        cp_table(model, X, y, folds=1)
    with pytest.raises(ValueError, match="rows"):
        cp_table(model, X[:80], y, folds=np.arange(81) % 3)
    with pytest.raises(TypeError):
        cp_table(model, X, y, folds=2.5)
    with pytest.raises(NotFittedError):
        rpart_text(dtree.CARTClassifier())
    with pytest.raises(ValueError, match="binary tree"):
        colours = pd.DataFrame({"c": pd.Categorical(list("abcabc"))})
        rpart_nodes(dtree.ID3Classifier().fit(colours, [0, 1, 1, 0, 1, 1]))
    with pytest.raises(ValueError, match="priors"):
        cp_table(dtree.CARTClassifier(priors=[0.5, 0.5]).fit(X, y), X, y)


@requires_rpart
def test_five_classes_factors_and_gaps_as_rpart_reports_them():
    # cu.summary: car reliability in five classes, two factors, gaps in Mileage and Type. The
    # class levels are given sorted, dtree's classes_ order: rpart orients a split by the mean
    # class index on each side, so both must number the classes alike
    data = rpart("Reliability ~ Price", "cu.summary", control={"xval": 0}).data
    data = data[data["Reliability"].notna()].reset_index(drop=True)
    for column in ["Country", "Type", "Reliability"]:
        data[column] = pd.Categorical(data[column],
                                      categories=sorted(data[column].dropna().unique()))
    folds = np.arange(len(data)) % 10 + 1
    columns = ["Price", "Country", "Mileage", "Type"]
    fit = rpart("Reliability ~ Price + Country + Mileage + Type", data[["Reliability", *columns]],
                control={"cp": 0, "xval": folds.tolist()})
    grown = dtree.CARTClassifier(min_samples_split=20, min_samples_leaf=7).fit(
        data[columns], data["Reliability"])
    # rpart's cp = 0 still cuts the splits that save no error
    model = dtree.prune_cost_complexity(grown, 1e-12, cost="error")
    assert rpart_tree_differences(model.tree_.root, fit, model.classes_) == []
    nodes = rpart_nodes(model)
    assert sorted(nodes.index) == sorted(fit.frame.index)
    frame = fit.frame.loc[nodes.index]
    np.testing.assert_array_equal(nodes["loss"], frame["dev"])
    assert nodes["yval"].tolist() == [fit.ylevels[k - 1] for k in frame["yval"]]
    for level in model.classes_:
        np.testing.assert_allclose(nodes[f"prob_{level}"], frame[f"prob_{level}"], rtol=1e-12)
    assert rpart_text(model) == fit.printed
    ours = cp_table(grown, data[columns], data["Reliability"], folds=folds)
    assert ours["nsplit"].tolist() == fit.cptable["nsplit"].tolist()
    for column in ["CP", "rel error", "xerror", "xstd"]:
        np.testing.assert_allclose(ours[column], fit.cptable[column], rtol=1e-9, atol=1e-12,
                                   err_msg=column)


@requires_rpart
def test_priors_as_rpart_reports_them():
    # with priors rpart's loss is the node's risk in its units and yprob the altered-prior
    # probabilities; both choose its left son
    data = KYPHOSIS.assign(Kyphosis=pd.Categorical(KYPHOSIS["Kyphosis"]))
    fit = rpart("Kyphosis ~ Age + Number + Start", data, control={"cp": 0, "xval": 0},
                parms={"prior": [0.5, 0.5]})
    grown = dtree.CARTClassifier(min_samples_split=20, min_samples_leaf=7, priors=[0.5, 0.5]).fit(
        data[["Age", "Number", "Start"]], data["Kyphosis"])
    model = dtree.prune_cost_complexity(grown, 1e-12, cost="error")
    # (with priors the surrogates may differ: see CARTClassifier's docstring)
    assert rpart_tree_differences(model.tree_.root, fit, model.classes_, surrogates=False) == []
    nodes = rpart_nodes(model)
    np.testing.assert_allclose(nodes["loss"], fit.frame.loc[nodes.index, "dev"], rtol=1e-9)
    assert rpart_text(model) == fit.printed


def test_cp_table_refuses_rows_that_are_not_the_training_rows():
    # issue 30: the first 300 rows of the data gave a root xerror of 1.467, without a word
    X, y = load_adult_sample()
    model = dtree.CARTClassifier(min_samples_leaf=20).fit(X, y)
    with pytest.raises(ValueError, match="the rows the model was fitted on .* these are 300"):
        cp_table(model, X.iloc[:300], y[:300], folds=3, random_state=0)
    swapped = y.copy()
    swapped[:5] = np.where(swapped[:5] == model.classes_[0], model.classes_[1], model.classes_[0])
    with pytest.raises(ValueError, match="class shares differ"):
        cp_table(model, X, swapped, folds=3, random_state=0)
    assert cp_table(model, X, y, folds=3, random_state=0)["xerror"].iloc[0] == \
        pytest.approx(1.0, abs=0.2)  # the root's cross-validated error is about R(root)
    weighted = dtree.CARTClassifier(min_samples_leaf=20, class_weight="balanced").fit(X, y)
    cp_table(weighted, X, y, folds=3, random_state=0)  # class weights as fit applied them
    regressor = dtree.CARTRegressor(min_samples_leaf=20).fit(X[["age"]], X["hours-per-week"])
    with pytest.raises(ValueError, match="mean differ"):
        cp_table(regressor, X[["age"]], X["hours-per-week"] + 1.0, folds=3, random_state=0)


def load_adult_sample():
    from dtree.datasets import load_adult

    X, y = load_adult(return_X_y=True)
    return X.iloc[:2000].reset_index(drop=True), np.asarray(y)[:2000]
