"""Rules read off a tree: each rule, evaluated on the training rows by this file's own reading
of its conditions, holds exactly the rows that reach its leaf; its cover and confidence are
those rows' weight and class share."""
from __future__ import annotations

import re
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

import dtree
from dtree.datasets import load_arff, load_car, load_watermelon
from dtree.rules import RuleListClassifier, Rule, export_rules, simplify_rules, tree_rules


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


# ------------------------------------------------------------------ C4.5rules
def upper_rate(n: float, e: float, cf: float = 0.25) -> float:
    """C4.5's upper confidence limit of the error rate (Quinlan 1993, ch. 4), written here from
    the formula: exact 1 - CF^(1/n) at e = 0, else the normal bound with f = (e + 0.5) / n."""
    if e == 0:
        return 1 - cf ** (1 / n)
    z = statistics.NormalDist().inv_cdf(1 - cf)
    f = (e + 0.5) / n
    return (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)


def covers(rule: Rule, X: pd.DataFrame) -> np.ndarray:
    rows = np.ones(len(X), bool)
    for condition in rule.conditions:
        rows &= holds(condition, X)
    return rows


def test_weather_rules_simplified_by_hand():
    """Quinlan's weather data, ID3's tree (outlook, then humidity or windy). The rule "outlook =
    sunny and humidity = normal -> yes" covers 2 rows, no error: U(0, 2) = 1 - 0.25^(1/2) =
    0.5. Without "outlook = sunny" it covers the 7 rows of normal humidity, 1 of them "no":
    U(1, 7) = 0.335 <= 0.5, so the condition goes; without "humidity = normal" the 5 sunny
    rows, 3 "no": U(3, 5) = 0.817. Then dropping the last condition leaves all 14 rows, 5 "no":
    U(5, 14) = 0.483 > 0.335, so it stays. The other four rules keep both conditions."""
    assert upper_rate(2, 0) == pytest.approx(0.5)
    assert upper_rate(7, 1) < 0.5 < upper_rate(5, 3)
    assert upper_rate(14, 5) > upper_rate(7, 1)
    X, y = load_arff("weather.nominal", return_X_y=True)
    tree = dtree.ID3Classifier().fit(X, y)
    rules = simplify_rules(tree, X, y)
    assert [r.conditions for r in rules] == [
        ("outlook = sunny", "humidity = high"), ("humidity = normal",), ("outlook = overcast",),
        ("outlook = rainy", "windy = TRUE"), ("outlook = rainy", "windy = FALSE")]
    assert (rules[1].cover, rules[1].confidence) == (7, pytest.approx(6 / 7))
    # classes ordered by false positives: "no" (0) before "yes" (the 1 "no" row of normal
    # humidity); every row covered, so the default is the most frequent class, "yes"
    model = RuleListClassifier(dtree.ID3Classifier()).fit(X, y)
    assert export_rules(model).splitlines() == [
        "if outlook = sunny and humidity = high then no (cover 3, confidence 1.000)",
        "if outlook = rainy and windy = TRUE then no (cover 2, confidence 1.000)",
        "if outlook = overcast then yes (cover 4, confidence 1.000)",
        "if outlook = rainy and windy = FALSE then yes (cover 3, confidence 1.000)",
        "if humidity = normal then yes (cover 7, confidence 0.857)",
        "otherwise yes"]
    assert (model.predict(X) == y).all()


@pytest.mark.parametrize("name", ["car", "vote"])
def test_rule_lists_obey_c45rules(name):
    """On real data, read by this file's own reading of the rules: each rule's cover and
    confidence; no kept condition whose removal would not raise the pessimistic rate; the
    classes in blocks ordered by false positives; no rule whose omission lowers the training
    errors; predict is the first rule that holds, else the default."""
    X, y = load_car(return_X_y=True) if name == "car" else load_arff(name, return_X_y=True)
    y = np.asarray(y)
    model = RuleListClassifier().fit(X, y)
    rules = model.rules_
    assert 5 <= len(rules) < model.estimator_.get_n_leaves()
    masks = [covers(r, X) for r in rules]
    for rule, rows in zip(rules, masks):
        assert rule.cover == rows.sum()
        assert rule.confidence == pytest.approx((y[rows] == rule.predicts).mean())
        rate = upper_rate(rows.sum(), (y[rows] != rule.predicts).sum())
        for drop in range(len(rule.conditions)):
            wider = covers(Rule(rule.conditions[:drop] + rule.conditions[drop + 1:],
                                rule.predicts, 0, 0, 0), X)
            assert upper_rate(wider.sum(), (y[wider] != rule.predicts).sum()) > rate - 1e-12
    blocks = [r.predicts for r in rules]
    order = list(dict.fromkeys(blocks))
    assert blocks == sorted(blocks, key=order.index)  # each class's rules together
    fp = [sum(((y != c) & np.any([m for m, r in zip(masks, rules) if r.predicts == c], axis=0)))
          for c in order]
    assert fp == sorted(fp)

    def answers(keep):
        out = np.full(len(y), None, dtype=object)
        for i in reversed(keep):
            out[masks[i]] = rules[i].predicts
        return out

    listed = answers(range(len(rules)))
    listed[listed == None] = model.default_class_  # noqa: E711 (elementwise)
    assert (model.predict(X) == listed).all()
    errors = (listed != y).sum()
    for omit in range(len(rules)):
        rest = answers([i for i in range(len(rules)) if i != omit])
        left = rest == None  # noqa: E711
        counts = pd.Series(y[left]).value_counts()
        default = counts.index[0] if len(counts) else pd.Series(y).value_counts().index[0]
        rest[left] = default
        assert (rest != y).sum() >= errors


def test_rule_list_is_an_estimator():
    X, y = load_arff("weather.nominal", return_X_y=True)
    model = RuleListClassifier(dtree.CARTClassifier(), confidence=0.1)
    assert clone(model).get_params()["confidence"] == 0.1
    with pytest.raises(NotFittedError):
        model.predict(X)
    with pytest.raises(ValueError, match="confidence"):
        RuleListClassifier(confidence=0.7).fit(X, y)
    with pytest.raises(TypeError, match="classifier"):
        RuleListClassifier(dtree.CARTRegressor()).fit(X[["temperature"]].assign(
            temperature=lambda d: d["temperature"].cat.codes), np.arange(len(y)))
    before = X.copy()
    model.fit(X, y)
    pd.testing.assert_frame_equal(X, before)
    assert model.score(X, y) >= 0.5 and list(model.classes_) == ["no", "yes"]


def test_the_stored_comparison_is_what_the_script_computes():
    """benchmarks/rules_comparison.py stored the chapter's fold scores; its first repetition
    on vote, run again, gives them (PART's and C5.0's where those programs run here)."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import rules_comparison
    stored = pd.read_csv(rules_comparison.RESULTS)
    stored = stored[(stored["data"] == "vote") & (stored["repetition"] == 0)]
    fresh = rules_comparison.fold_scores("vote", range(1))
    assert len(stored) == 10 and set(stored.columns) >= set(fresh.columns)
    for column in fresh.columns.drop(["data", "repetition", "fold"]):
        np.testing.assert_allclose(fresh[column], stored[column], atol=1e-6, err_msg=column)


@parametrize_with_checks([RuleListClassifier()])
def test_sklearn_estimator_checks(estimator, check):
    """scikit-learn's checks, all of them (a stump's list is empty: the default answers)."""
    check(estimator)
