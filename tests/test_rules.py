"""Rules read off a tree: each rule, evaluated on the training rows by this file's own reading
of its conditions, holds exactly the rows that reach its leaf; its cover and confidence are
those rows' weight and class share."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

import dtree
from dtree.datasets import load_car, load_watermelon
from dtree.rules import Rule, export_rules, tree_rules


def holds(condition: str, X: pd.DataFrame) -> np.ndarray:
    """Which rows of X satisfy one condition as a rule writes it."""
    if m := re.fullmatch(r"(\S+) < (.+) <= (\S+)", condition):
        column = X[m[2]].astype(float)
        return (column > float(m[1])).to_numpy() & (column <= float(m[3])).to_numpy()
    if m := re.fullmatch(r"(.+) (<=|>) (\S+)", condition):
        column = X[m[1]].astype(float).to_numpy()
        return column <= float(m[3]) if m[2] == "<=" else column > float(m[3])
    if m := re.fullmatch(r"(.+) in \{(.+)\}", condition):
        return X[m[1]].astype(str).isin(m[2].split(", ")).to_numpy()
    m = re.fullmatch(r"(.+?) = (.+)", condition)
    return (X[m[1]].astype(str) == m[2]).to_numpy()


def check(model, X, y):
    leaves = model.apply(X)
    rules = tree_rules(model)
    assert [r.leaf for r in rules] == sorted({*leaves, *(r.leaf for r in rules)})
    for rule in rules:
        rows = np.ones(len(X), bool)
        for condition in rule.conditions:
            rows &= holds(condition, X)
        assert (rows == (leaves == rule.leaf)).all(), rule
        assert rule.cover == rows.sum()
        if rule.cover and rule.confidence is not None:
            assert rule.confidence == pytest.approx((np.asarray(y)[rows] == rule.predicts).mean())
        elif rule.cover:
            assert rule.predicts == pytest.approx(np.asarray(y)[rows].mean())
    return rules


def test_id3_on_watermelon_is_zhous_figure_4_4():
    X, y = load_watermelon(return_X_y=True)
    rules = check(dtree.ID3Classifier().fit(X, y), X, y)
    # Zhou (2016), figure 4.4: nine leaves; the light-coloured branch holds no row
    assert len(rules) == 9
    assert str(rules[0]) == ("if texture = clear and root = curly then yes "
                             "(cover 5, confidence 1.000)")
    light = rules[4]
    assert light.conditions == ("texture = clear", "root = slightly curly", "colour = light")
    assert (light.cover, light.predicts) == (0, "yes")
    assert str(rules[-1]) == "if texture = blurry then no (cover 3, confidence 1.000)"


def test_a_numeric_attribute_tested_twice_reads_as_an_interval():
    X, y = load_iris(return_X_y=True, as_frame=True)
    rules = check(dtree.CARTClassifier(max_depth=4).fit(X, y), X, y)
    assert "2.45 < petal length (cm) <= 4.95" in rules[1].conditions
    assert all(len({re.sub(r"[<>=\d. ]", "", c) for c in r.conditions}) == len(r.conditions)
               for r in rules)  # each attribute once


def test_cart_category_sets_and_a_regressor():
    X, y = load_car(return_X_y=True)
    rules = check(dtree.CARTClassifier(max_depth=5).fit(X, y), X, y)
    assert any(" in {" in c for r in rules for c in r.conditions)
    Xi, _ = load_iris(return_X_y=True, as_frame=True)
    regressor = dtree.CARTRegressor(max_depth=2).fit(Xi.iloc[:, :3], Xi.iloc[:, 3])
    rules = check(regressor, Xi.iloc[:, :3], Xi.iloc[:, 3])
    assert rules[0].confidence is None
    assert export_rules(regressor).splitlines()[0] == \
        f"if petal length (cm) <= 2.45 and sepal length (cm) <= 4.95 then " \
        f"{Xi.iloc[:, 3][(Xi.iloc[:, 2] <= 2.45) & (Xi.iloc[:, 0] <= 4.95)].mean():.4g} (cover 20)"


def test_a_stump_and_weights():
    rule = tree_rules(dtree.CARTClassifier().fit([[0], [0]], ["a", "a"]))
    assert rule == [Rule((), "a", 2.0, 1.0, 0)]
    assert str(rule[0]) == "if always then a (cover 2, confidence 1.000)"
    weighted = dtree.CARTClassifier().fit([[0], [1], [2]], ["a", "b", "b"],
                                         sample_weight=[3, 1, 0.5])
    assert [(r.cover, r.confidence) for r in tree_rules(weighted)] == [(3, 1.0), (1.5, 1.0)]
