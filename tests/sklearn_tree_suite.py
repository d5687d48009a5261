"""What ``test_sklearn_tree_suite.py`` (scikit-learn's ``test_tree.py``) needs to run on CART:
the two estimators under scikit-learn's names, and which items are not applicable or are
known to fail, each with its reason."""
from __future__ import annotations

import re

import pytest

from dtree import CARTClassifier, CARTRegressor


def _cart(estimator):
    def make(splitter: str = "best", **params):
        if splitter != "best":
            pytest.skip("splitter='random' (ExtraTree): not in dtree")
        # missing="learn" needs the squared error (or a classifier); without missing values
        # the absolute error's tree is the same either way
        learn = params.get("criterion") != "absolute_error"
        return estimator(**{"missing": "learn" if learn else "surrogate", **params})
    make.__name__ = make.__qualname__ = {
        CARTClassifier: "DecisionTreeClassifier", CARTRegressor: "DecisionTreeRegressor"
    }[estimator]
    return make


#: CART with scikit-learn's rule for missing values (where dtree has it); ``splitter="best"``
#: is what CART does
DecisionTreeClassifier = _cart(CARTClassifier)
DecisionTreeRegressor = _cart(CARTRegressor)

CYTHON = "a test of scikit-learn's Cython Tree, criteria or splitters, not of an estimator"
EXTRA = "ExtraTree (splitter='random'): not in dtree"
MULTI_OUTPUT = ("multi-output y (a 2-D y): refused by design, a ValueError ('y must be "
                "one-dimensional'); fit one tree per output")
POISSON = "criterion='poisson': not in dtree, refused (a ValueError naming the criteria)"
MAE_MISSING = ("missing='learn' needs criterion='squared_error' (or a classifier): the "
               "absolute error's cut search has no side for missing values")

#: (test name, pattern its parameters' id must match): why it does not apply to dtree
NOT_APPLICABLE: dict[tuple[str, str], str] = {
    **{(name, ""): CYTHON for name in (
        "test_realloc", "test_criterion_copy", "test_check_n_classes",
        "test_check_value_ndarray", "test_check_node_ndarray", "test_splitter_serializable",
        "test_absolute_errors_precomputation_function", "test_build_pruned_tree_py",
        "test_build_pruned_tree_infinite_loop")},
    **{(name, ""): EXTRA for name in (
        "test_missing_values_random_splitter_on_equal_nodes_no_missing",
        "test_regression_extra_tree_missing_values_toy",
        "test_random_splitter_missing_values_uses_non_missing_min_max")},
    (".*", "ExtraTree"): EXTRA,
    ("test_missing_value_errors", "tree1"): EXTRA,  # tree1: ExtraTreeRegressor()
}

#: (test name, pattern its parameters' id must match): why it fails
EXPECTED_FAILURES: dict[tuple[str, str], str] = {
    **{(name, ""): MULTI_OUTPUT for name in (
        "test_multioutput", "test_classes_shape", "test_class_weights", "test_class_weight_errors",
        "test_min_weight_fraction_leaf_on_sparse_input",
        "test_min_weight_fraction_leaf_with_min_samples_leaf_on_sparse_input")},
    (".*", "multilabel"): MULTI_OUTPUT,
    ("test_friedman_mse_deprecation", ""): (
        "criterion='friedman_mse' warns (FutureWarning) at fit, not in __init__, which only "
        "stores the parameters (scikit-learn's own rule for estimators)"),
    ("test_error", ""): POISSON + "; the test's other errors pass",
    (".*", "poisson"): POISSON,
    ("test_poisson_.*|test_missing_values_poisson", ""): POISSON,
    ("test_regression_tree_missing_values_toy", "absolute_error"): MAE_MISSING,
    ("test_missing_values_best_splitter_on_equal_nodes_no_missing", "absolute_error"):
        MAE_MISSING,
    ("test_missing_value_errors", "csr"): (
        "a NaN stored in a sparse X is a missing value in dtree (documented at fit), which "
        "missing='learn' handles; scikit-learn refuses it"),
    ("test_almost_constant_feature", ""): (
        "scikit-learn skips a feature whose range at the node is below 1e-7 "
        "(FEATURE_THRESHOLD); dtree splits between any two distinct values"),
    ("test_sample_weight_invalid", ""): (
        "a 0-d sample_weight is one weight for every row in dtree (documented at fit); "
        "all zero, it is a ValueError, not scikit-learn's TypeError"),
    ("test_min_sample_split_1_error", ""): (
        "the ValueError is raised, worded as dtree's parameter checks word it "
        "('min_samples_split must be an integer >= 2, got 1'), not scikit-learn's"),
    ("test_big_input", ""): (
        "dtree reads X as float64: a value too large for float32 is no error"),
    ("test_huge_allocations", ""): (
        "dtree allocates no arrays for max_leaf_nodes ahead of growing: a huge max_leaf_nodes "
        "is no MemoryError"),
    ("test_max_features", ""): (
        "no max_features_ fitted attribute (dtree counts max_features at each fit, "
        "documented); the rest of the test passes"),
}


def _reason(table: dict, name: str, params: str) -> str | None:
    for (test, pattern), reason in table.items():
        if re.fullmatch(test, name) and re.search(pattern, params):
            return reason
    return None


@pytest.fixture(autouse=True)
def mark_item(request):
    """Skip an item that does not apply; mark one known to fail ``xfail(strict=True)``."""
    name, _, params = request.node.name.partition("[")
    reason = _reason(NOT_APPLICABLE, name, params)
    if reason:
        pytest.skip(f"not applicable: {reason}")
    reason = _reason(EXPECTED_FAILURES, name, params)
    if reason:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))


@pytest.fixture
def global_random_seed() -> int:
    """scikit-learn's fixture (its conftest), with its default seed."""
    return 42
