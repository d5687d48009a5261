"""``class_weight`` on ID3Classifier and C45Classifier, as on CARTClassifier: each row's sample
weight times its class's weight. Expected counts and gains by hand."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn.exceptions import DataConversionWarning

from dtree import C45Classifier, CARTClassifier, ID3Classifier, export_text
from dtree.pruning import added_errors

# one attribute: "x" holds no, no, yes; "y" holds yes, yes
X = pd.DataFrame({"a": ["x", "x", "x", "y", "y"]})
y = np.array(["no", "no", "yes", "yes", "yes"])


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier])
def test_a_dict_multiplies_the_weights_by_hand(estimator):
    plain = estimator().fit(X, y)
    assert plain.predict(pd.DataFrame({"a": ["x"]})).tolist() == ["no"]  # 2 against 1
    # {"yes": 3}: the root holds no 2, yes 9; branch x holds no 2, yes 3, so it says yes
    model = estimator(class_weight={"yes": 3}).fit(X, y)
    assert model.tree_.root.value.tolist() == [2, 9]
    x_branch, y_branch = model.tree_.children
    assert x_branch.value.tolist() == [2, 3] and y_branch.value.tolist() == [0, 6]
    np.testing.assert_allclose(model.predict_proba(pd.DataFrame({"a": ["x"]})), [[0.4, 0.6]])
    # the gain, in bits: H(2/11) - 5/11 H(2/5) with H(p) the binary entropy; C4.5's gain
    # ratio divides it by IV = H(5/11), the branches weighing 5 and 6 of 11
    h = lambda p: -p * np.log2(p) - (1 - p) * np.log2(1 - p)  # noqa: E731
    gain = h(2 / 11) - 5 / 11 * h(2 / 5)
    score = gain if estimator is ID3Classifier else gain / h(5 / 11)
    assert model.tree_.scores["a"] == pytest.approx(score, rel=1e-12)


@pytest.mark.parametrize("estimator", [ID3Classifier, C45Classifier])
def test_balanced_weighs_each_class_alike_by_hand(estimator):
    # n = 5 rows, K = 2 classes: "no" (2 rows) weighs 5 / (2 x 2) = 1.25, "yes" (3 rows)
    # 5 / (2 x 3) = 5/6; each class then weighs 2.5 in all
    model = estimator(class_weight="balanced").fit(X, y, sample_weight=[2, 1, 1, 1, 1])
    # sample weights multiply: the first "no" row weighs 2 x 1.25
    np.testing.assert_allclose(model.tree_.root.value, [3 * 1.25, 3 * 5 / 6])
    np.testing.assert_allclose(model.tree_.children[0].value, [3 * 1.25, 5 / 6])


def test_class_weight_is_the_sample_weight_it_makes():
    weights = np.where(y == "yes", 3.0, 1.0)
    by_class = C45Classifier(class_weight={"yes": 3}).fit(X, y)
    by_row = C45Classifier().fit(X, y, sample_weight=weights)
    assert export_text(by_class) == export_text(by_row)


def test_pruning_sees_the_weighted_counts():
    # error-based pruning compares the root as a leaf (2 errors in a weight of 11) with its
    # two leaves (2 errors in 5, none in 6): weights, not the 5 rows
    model = C45Classifier(class_weight={"yes": 3}, pruning="error_based").fit(X, y)
    root = model.pruning_log_.iloc[0]
    assert root["as a leaf"] == pytest.approx(2 + added_errors(11, 2, 0.25))
    assert root["as a tree"] == pytest.approx(2 + added_errors(5, 2, 0.25)
                                              + added_errors(6, 0, 0.25))
    assert model.tree_.is_leaf and model.tree_.root.value.tolist() == [2, 9]


@pytest.mark.parametrize("class_weight", ["heavy", {"maybe": 2}])
def test_bad_class_weights_are_refused(class_weight):
    with pytest.raises(ValueError):
        ID3Classifier(class_weight=class_weight).fit(X, y)


@pytest.mark.parametrize("estimator, params", [
    (C45Classifier, {"class_weight": "balanced"}), (CARTClassifier, {"class_weight": "balanced"}),
    (CARTClassifier, {"priors": [0.5, 0.5]}),
    (CARTClassifier, {"class_weight": {"yes": 3}, "loss": [[0, 1], [2, 0]]})])
def test_y_and_the_weights_are_read_once(estimator, params):
    # y as a column: scikit-learn's one DataConversionWarning, as without class weights or
    # priors (y was read again for them, and warned again)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = estimator(**params).fit(X, y[:, None], sample_weight=[2, 1, 1, 1, 1])
    assert [w.category for w in caught].count(DataConversionWarning) == 1
    assert export_text(model) == export_text(estimator(**params).fit(
        X, y, sample_weight=[2, 1, 1, 1, 1]))
