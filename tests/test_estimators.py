"""ID3Classifier as an estimator: prediction, fractional routing of missing values, sklearn API."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from dtree import C45Classifier, CARTClassifier, ID3Classifier, export_text
from dtree.datasets import load_mushroom, load_watermelon


@pytest.fixture
def model(wm20):
    """Zhou's tree; it may be asked about rows with missing or unseen values."""
    X, y = wm20
    return ID3Classifier(missing="fractional").fit(X, y)


def one_row(**values):
    """One watermelon; unnamed attributes are given typical known values."""
    row = dict(colour="dark", root="curly", sound="muffled", texture="clear", navel="hollow",
               touch="hard")
    row.update(values)
    return pd.DataFrame([row])


# ------------------------------------------------------------------------------------ predict
def test_fits_watermelon_exactly(model, wm20):
    X, y = wm20
    assert (model.predict(X) == y.to_numpy()).all()
    assert model.score(X, y) == 1.0
    assert model.classes_.tolist() == ["no", "yes"]


def test_predict_proba_rows_sum_to_one(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    rng = np.random.default_rng(0)
    # the training rows plus rows with many values knocked out
    holes = X.mask(rng.random(X.shape) < 0.5)
    for data in (X, holes):
        proba = model.predict_proba(data)
        assert proba.shape == (17, 2)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
        assert (proba >= 0).all()


def test_known_row_reaches_one_leaf(model):
    # clear, slightly curly, dark, soft: melon 15's leaf (not ripe)
    proba = model.predict_proba(one_row(root="slightly curly", touch="soft"))
    assert proba.tolist() == [[1.0, 0.0]]


def test_row_reaching_the_empty_branch_gets_the_parents_distribution(model):
    # clear, slightly curly, light: no light melon reached that node at fit; its parent held
    # melons 6 (ripe), 8 (ripe), 15 (not): 1/3 not ripe, 2/3 ripe
    proba = model.predict_proba(one_row(root="slightly curly", colour="light"))
    assert proba[0].tolist() == pytest.approx([1 / 3, 2 / 3], abs=1e-12)


def test_missing_texture_mixes_the_three_branches(model):
    # texture missing: clear (9/17) -> curly -> ripe; slightly blurry (5/17) -> hard -> not;
    # blurry (3/17) -> not.  P(ripe) = 9/17 * 1 + 5/17 * 0 + 3/17 * 0
    proba = model.predict_proba(one_row(texture=np.nan))
    assert proba[0].tolist() == pytest.approx([1 - 9 / 17, 9 / 17], abs=1e-12)
    assert model.predict(one_row(texture=np.nan)).tolist() == ["yes"]


def test_missing_value_deeper_down(model):
    # clear, slightly curly, colour missing, soft: colour's branches held green 1, dark 2,
    # light 0 of the 3 training melons; green -> ripe, dark -> soft -> not ripe
    proba = model.predict_proba(one_row(root="slightly curly", colour=None, touch="soft"))
    assert proba[0].tolist() == pytest.approx([2 / 3, 1 / 3], abs=1e-12)


def test_all_values_missing_by_hand(model):
    row = pd.DataFrame([dict.fromkeys(["colour", "root", "sound", "texture", "navel", "touch"])])
    # slightly curly under clear: 1/3 * 1 (green) + 2/3 * (1/2 * 1 + 1/2 * 0) (dark) + 0 (light)
    p_slightly_curly = 1 / 3 + 2 / 3 * 1 / 2
    p_clear = 5 / 9 * 1 + 3 / 9 * p_slightly_curly + 1 / 9 * 0
    p_slightly_blurry = 4 / 5 * 0 + 1 / 5 * 1
    p_ripe = 9 / 17 * p_clear + 5 / 17 * p_slightly_blurry + 3 / 17 * 0
    assert p_ripe == pytest.approx(8 / 17)
    assert model.predict_proba(row)[0, 1] == pytest.approx(p_ripe, abs=1e-12)


def test_missing_values_at_fit_and_predict(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    # melon 1 (colour missing) is clear and curly: the curly leaf holds only ripe melons
    assert model.predict_proba(X.loc[[1]])[0].tolist() == pytest.approx([0.0, 1.0])
    # texture missing: branches weigh clear 7/15, slightly blurry 5/15, blurry 3/15; with
    # root curly, sound muffled, navel hollow, colour light:
    #   clear -> curly -> ripe (1); slightly blurry -> muffled -> hollow -> not ripe (0);
    #   blurry -> light -> not ripe (0)
    row = pd.DataFrame([dict(colour="light", root="curly", sound="muffled", texture=None,
                             navel="hollow", touch="hard")])
    assert model.predict_proba(row)[0, 1] == pytest.approx(7 / 15, abs=1e-12)


def test_unseen_category_is_treated_as_missing(model):
    unseen = model.predict_proba(one_row(texture="very blurry"))
    missing = model.predict_proba(one_row(texture=np.nan))
    np.testing.assert_allclose(unseen, missing, atol=1e-15)
    assert unseen[0, 1] == pytest.approx(9 / 17, abs=1e-12)


def test_unseen_number_is_treated_as_missing():
    X = np.array([[1, 10], [1, 20], [2, 10], [2, 20]])
    y = ["a", "a", "b", "b"]
    model = ID3Classifier(missing="fractional").fit(X, y)
    proba = model.predict_proba(np.array([[3, 10], [np.nan, 10]]))
    np.testing.assert_allclose(proba, [[0.5, 0.5], [0.5, 0.5]], atol=1e-15)


def test_unseen_category_raises_no_deprecation_warning(model):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        proba = model.predict_proba(one_row(texture="very blurry"))
    assert proba[0, 1] == pytest.approx(9 / 17, abs=1e-12)


def test_numpy_object_input_with_none():
    X = np.array([["a", "x"], ["a", None], ["b", "x"], ["b", "y"]], dtype=object)
    y = np.array([0, 0, 1, 1])
    model = ID3Classifier(missing="fractional").fit(X, y)
    assert model.n_features_in_ == 2
    assert model.tree_.root.feature == "x0"
    assert model.predict(X).tolist() == [0, 0, 1, 1]
    assert model.classes_.dtype.kind == "i"


def test_nan_in_list_of_lists_is_missing():
    model = ID3Classifier(missing="fractional").fit([["a", "x"], [np.nan, "y"], ["b", "x"]],
                                                    ["yes", "no", "no"])
    assert "nan" not in model._features[0].categories


def test_nan_in_list_of_string_labels_is_rejected():
    with pytest.raises(ValueError, match="missing"):
        ID3Classifier().fit([["a"], ["b"], ["a"]], ["yes", np.nan, "no"])


def test_integer_labels_and_numeric_attributes():
    X = np.array([[1.5], [2.5], [1.5], [3.0]])
    model = ID3Classifier().fit(X, [7, 3, 7, 3])
    assert model.classes_.tolist() == [3, 7]
    assert model.predict([[2.5], [1.5]]).tolist() == [3, 7]


# -------------------------------------------------------------------------- scikit-learn API
def test_get_params_defaults():
    assert ID3Classifier().get_params() == {
        "max_depth": None, "min_samples_split": 2, "min_impurity_decrease": 0.0,
        "purity_threshold": 1.0, "tie_break": "first", "missing": "error",
        "predict_missing": "distribute", "pruning": None, "confidence": 0.25,
        "subtree_raising": True, "z": 1.0, "validation_fraction": 1 / 3, "prune_on_tie": False,
        "random_state": None, "class_weight": None, "handle_unknown": "missing",
        "probability": "frequency", "m": 2.0}


def test_set_params_returns_self_and_takes_effect(wm20):
    X, y = wm20
    model = ID3Classifier()
    assert model.set_params(max_depth=1, tie_break=["touch"]) is model
    assert model.get_params()["max_depth"] == 1
    assert model.fit(X, y).get_depth() == 1


def test_fit_returns_self_and_learned_attributes(wm20):
    X, y = wm20
    model = ID3Classifier()
    assert model.fit(X, y) is model
    assert model.n_features_in_ == 6
    assert model.feature_names_in_.tolist() == list(X.columns)


def test_clone_is_unfitted_with_same_params(model):
    model.set_params(max_depth=3)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert not hasattr(copy, "tree_")
    with pytest.raises(NotFittedError):
        copy.predict(one_row())
    with pytest.raises(NotFittedError):
        copy.get_depth()


def test_pickle_round_trip(model, wm20a):
    X, _ = wm20a
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert export_text(restored) == export_text(model)
    assert restored.get_params() == model.get_params()


def test_refit_replaces_the_tree(model):
    X = pd.DataFrame({"a": ["p", "q"]})
    model.fit(X, ["u", "v"])
    assert model.tree_.root.feature == "a"
    assert model.n_features_in_ == 1 and model.classes_.tolist() == ["u", "v"]


def test_pipeline(wm20):
    X, y = wm20
    pipe = make_pipeline(FunctionTransformer(), ID3Classifier(max_depth=1))
    pipe.fit(X, y)
    # texture alone: clear -> ripe (7 of 9), slightly blurry -> not (4 of 5), blurry -> not (3)
    assert pipe.score(X, y) == pytest.approx((7 + 4 + 3) / 17)


def test_cross_val_score_on_mushroom():
    X, y = load_mushroom(return_X_y=True)
    scores = cross_val_score(ID3Classifier(missing="fractional"), X, y,
                             cv=StratifiedKFold(3, shuffle=True, random_state=0))
    assert len(scores) == 3
    assert scores.min() >= 0.99


def test_grid_search_over_max_depth(wm20):
    X, y = wm20
    search = GridSearchCV(ID3Classifier(), {"max_depth": [0, 1, 2]}, cv=3).fit(X, y)
    assert search.best_params_["max_depth"] in (0, 1, 2)
    assert hasattr(search.best_estimator_, "tree_")


def test_chinese_model_predicts_chinese_rows():
    Xz, yz = load_watermelon(lang="zh", return_X_y=True)
    model = ID3Classifier().fit(Xz, yz)
    row = pd.DataFrame([{"色泽": "乌黑", "根蒂": "稍蜷", "敲声": "浊响", "纹理": "清晰",
                         "脐部": "稍凹", "触感": "软粘"}])  # melon 15
    assert model.predict(row).tolist() == ["否"]


# ------------------------------------------------------------------------- column dtypes
@pytest.mark.parametrize("kind", ["str", "object"])
def test_string_columns_grow_the_same_tree_as_categorical_ones(kind):
    # the encoding differs (sorted values instead of declared categories); the tree must not
    X, y = load_mushroom(return_X_y=True)
    as_categories = ID3Classifier(missing="fractional").fit(X, y)
    as_strings = ID3Classifier(missing="fractional").fit(X.astype(kind), y)
    assert as_strings.get_n_leaves() == as_categories.get_n_leaves()
    assert as_strings.tree_.root.feature == as_categories.tree_.root.feature == "odor"
    np.testing.assert_array_equal(as_strings.predict_proba(X.astype(kind)),
                                  as_categories.predict_proba(X))
    # a model fitted on one dtype predicts rows of the other
    np.testing.assert_array_equal(as_categories.predict_proba(X.astype(kind)),
                                  as_categories.predict_proba(X))


# ------------------------------------------------ ID3 proper: no rule for missing values
def test_id3_refuses_missing_values_by_default(wm20, wm20a):
    model = ID3Classifier().fit(*wm20)
    text = export_text(model)
    with pytest.raises(ValueError, match=r"in column 'colour'.*C45Classifier.*'fractional'"):
        model.fit(*wm20a)  # colour: 3 of 17 missing; the first such column
    assert export_text(model) == text and model.missing == "error"


def test_id3_names_a_missing_value_before_an_unseen_one(wm20):
    model = ID3Classifier().fit(*wm20)
    with pytest.raises(ValueError, match="missing value .* in column 'touch'"):
        model.predict(one_row(texture="very blurry", touch=None))
    with pytest.raises(ValueError, match="'very blurry', unseen at fit, in column 'texture'"):
        model.predict(one_row(texture="very blurry"))
    assert model.predict(one_row()).tolist() == ["yes"]  # dark, curly, clear: ripe


def test_missing_fractional_is_an_opt_in(wm20a):
    with pytest.raises(ValueError, match=r"missing must be one of \('error', 'fractional'\)"):
        ID3Classifier(missing=None).fit(*wm20a)
    assert ID3Classifier(missing="fractional").fit(*wm20a).tree_.root.feature == "texture"


def test_sklearn_tags_allow_nan_only_with_fractional():
    assert not ID3Classifier().__sklearn_tags__().input_tags.allow_nan
    assert ID3Classifier(missing="fractional").__sklearn_tags__().input_tags.allow_nan


@pytest.mark.parametrize("make", [lambda: CARTClassifier(max_depth=2),
                                  lambda: C45Classifier(max_depth=2, pruning="error_based"),
                                  lambda: ID3Classifier(max_depth=2)])
def test_a_pickled_model_holds_no_training_rows(make):
    # a depth-2 tree on 1,000 rows or on 100,000: the pickle stores the tree, its encoders and
    # parameters, so it does not grow with the rows (it once held the whole training matrix)
    rng = np.random.default_rng(0)
    sizes = []
    for n in (1_000, 100_000):
        X = pd.DataFrame(rng.integers(0, 3, (n, 5)).astype(str), columns=list("abcde"))
        y = np.where((X["a"] == "0") ^ (rng.random(n) < 0.1), "p", "q")
        sizes.append(len(pickle.dumps(make().fit(X, y))))
    assert sizes[1] < 1.2 * sizes[0]
