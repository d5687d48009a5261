"""The routing rule (dtree.routing): predict, the grower and every pruner send a row the
same way; a tree's leaves describe the rows the model sends there; pruners judge by the
classes the model really predicts; and no public function leaves a model whose methods
describe different trees."""
from __future__ import annotations

import pickle

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import dtree
from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from dtree.pruning import (prune_cost_complexity, prune_error_based, prune_pessimistic,
                           prune_reduced_error)
from dtree.tree import (SPREAD, STAY, branches, make_leaf, predict_values, raise_branch,
                        reach, value_branches)

NAN = np.nan

CATEGORIES = ["a", "b", "c"]


def random_data(seed: int, n: int = 60, missing: float = 0.15, classes: int = 3):
    """Two numeric columns and a categorical one, each with missing values; a noisy class."""
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=n).round(2), rng.integers(0, 6, n).astype(float)
    colour = rng.integers(0, 3, n)
    label = (x1 > 0).astype(int) + (colour == 1) + (x2 > 3)
    label = np.where(rng.random(n) < 0.2, rng.integers(0, classes, n), label % classes)
    encoded = np.column_stack([x1, x2, colour.astype(float)])
    encoded[rng.random((n, 3)) < missing] = np.nan
    X = pd.DataFrame({"x1": encoded[:, 0], "x2": encoded[:, 1], "colour": pd.Categorical(
        [None if np.isnan(c) else CATEGORIES[int(c)] for c in encoded[:, 2]],
        categories=CATEGORIES)})
    return X, np.array(list("pqr"))[label], encoded  # encoded: as the model encodes X


ESTIMATORS = {
    "ID3 fractional": lambda: ID3Classifier(missing="fractional"),
    "C4.5": lambda: C45Classifier(),
    "C4.5 branch": lambda: C45Classifier(missing="branch"),
    "J48": lambda: C45Classifier(variant="j48", min_samples_leaf=2),
    "CART": lambda: CARTClassifier(),
    "CART leaf 3": lambda: CARTClassifier(min_samples_leaf=3, max_surrogates=1),
    "CART learn": lambda: CARTClassifier(missing="learn"),
}
PRUNERS = {
    "none": lambda model, X, y: model,
    "cost-complexity": lambda model, X, y: prune_cost_complexity(model, 0.01),
    "pessimistic": lambda model, X, y: prune_pessimistic(model),
    "reduced-error": lambda model, X, y: prune_reduced_error(model, X, y),
    "error-based": lambda model, X, y: prune_error_based(model, X, y),
}


def fit(name: str, X, y):
    model = ESTIMATORS[name]()
    if name == "ID3 fractional":  # ID3 reads every column as categories: keep the categorical
        X = X[["colour"]]
    if name == "CART learn":  # it refuses a missing category: the numeric columns, with gaps
        X = X[["x1", "x2"]]
    return model.fit(X, y), X


def pruned_case(name: str, pruner: str, seed: int):
    """A model fitted on random data and pruned; its X, y, and X as the model encodes it."""
    X, y, encoded = random_data(seed)
    columns = X.columns
    model, X = fit(name, X, y)
    kept = [columns.get_loc(c) for c in X.columns]
    return PRUNERS[pruner](model, X, y), X, y, encoded[:, kept]


def routing_at_fit(model) -> str:
    """How the grower sent a row it could not place: CART keeps it at the node, C4.5 spreads
    it over the branches."""
    return "stop" if isinstance(model, CARTClassifier) else "distribute"


def mixture(model, encoded: np.ndarray, predict_missing: str) -> np.ndarray:
    """Each row's prediction from the plain routing rule: share x prediction, summed over the
    nodes where the row's shares end."""
    out = np.zeros((len(encoded), len(model.tree_.prediction)))
    for node, rows, shares, ends in reach(model.tree_.root, encoded, predict_missing):
        out[rows[ends]] += shares[ends, None] * node.prediction
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pruner", PRUNERS)
@pytest.mark.parametrize("name", ESTIMATORS)
def test_plain_and_compiled_routing_agree(name, pruner, seed):
    pruned, X, y, encoded = pruned_case(name, pruner, seed)
    cart = isinstance(pruned, CARTClassifier)
    for strategy in ["stop"] if cart else ["distribute", "most_frequent", "stop"]:
        pruned.set_params(**({} if cart else {"predict_missing": strategy}))
        np.testing.assert_allclose(pruned.predict_proba(X), mixture(pruned, encoded, strategy),
                                   atol=1e-12)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", ESTIMATORS)
def test_compiled_kernel_follows_the_plain_rule(name, seed):
    # numba's compiled predict_rows must send rows the same way as the plain rule on every node
    # type: thresholds, category maps, a missing-value branch, surrogates, spreading, and each
    # predict_missing
    model, X, y, encoded = pruned_case(name, "none", seed)
    cart = isinstance(model, CARTClassifier)
    for strategy in ["stop"] if cart else ["distribute", "most_frequent", "stop"]:
        np.testing.assert_allclose(predict_values(model.tree_.root, encoded, strategy),
                                   mixture(model, encoded, strategy), atol=1e-12)


def test_most_probable_takes_the_first_class_within_round_off():
    proba = np.array([[0.2, 0.5, 0.3],  # one largest
                      [0.4, 0.4, 0.2],  # a tie: the first
                      [0.3, 0.35 + 1e-10, 0.35 - 1e-10],  # a tie up to round-off
                      [0.1, 0.45 - 1e-8, 0.45 + 1e-8],  # apart by more than round-off
                      [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_array_equal(dtree.tree.most_probable(proba), [1, 0, 1, 2, 0])
    np.testing.assert_array_equal(dtree.tree.most_probable(np.ones((2, 1))), [0, 0])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("pruner", PRUNERS)
@pytest.mark.parametrize("name", ESTIMATORS)
def test_leaves_hold_the_rows_the_model_sends_there(name, pruner, seed):
    # every node's class counts are those of the training rows the model routes to it, so the
    # leaves (and, in CART, the rows staying at a majority tie) add up to the training weight
    pruned, X, y, encoded = pruned_case(name, pruner, seed)
    codes = np.searchsorted(pruned.classes_, y)
    held = 0.0
    for node, rows, shares, ends in reach(pruned.tree_.root, encoded, routing_at_fit(pruned),
                                          at_fit=True):
        counts = np.bincount(codes[rows], weights=shares, minlength=len(pruned.classes_))
        np.testing.assert_allclose(node.value, counts, atol=1e-9)
        held += shares[ends].sum()
    assert held == pytest.approx(len(y))
    leaves = sum(leaf.weighted_n_samples for leaf in pruned.tree_.leaves())
    if not isinstance(pruned, CARTClassifier):
        assert leaves == pytest.approx(len(y))


def test_the_missing_branch_keeps_its_rows_through_subtree_raising():
    # issue 14's example: the pruner's hand-down once ignored the missing-value branch, which
    # then looked empty (an estimate of 0 errors), was raised, and lost two rows
    X = pd.DataFrame({"num": [.126, -.132, .64, .105, -.536, .362, np.nan, .947, np.nan,
                              -1.265],
                      "cat": ["red", None, "blue", None, "green", None, "green", "red", None,
                              None]})
    y = ["yes"] * 8 + ["no", "no"]
    model = C45Classifier(missing="branch").fit(X, y)
    pruned = prune_error_based(model, X, y)
    assert sum(leaf.weighted_n_samples for leaf in pruned.tree_.leaves()) == 10
    for leaf in pruned.tree_.leaves():
        assert leaf.value.sum() == leaf.weighted_n_samples


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("name", ["C4.5", "ID3 fractional", "CART", "J48"])
def test_reduced_error_pruning_never_lowers_validation_accuracy(name, seed):
    X, y, _ = random_data(seed, n=80)
    X_val, y_val, _ = random_data(seed + 1000, n=40, missing=0.3)
    model, X = fit(name, X, y)
    X_val = X_val[X.columns]
    for tie in (False, True):
        pruned = prune_reduced_error(model, X_val, y_val, prune_on_tie=tie)
        before, after = model.score(X_val, y_val), pruned.score(X_val, y_val)
        assert after >= before - 1e-12
        log = pruned.pruning_log_
        final = np.where(log["decision"] == "leaf", log["accuracy as a leaf"],
                         log["accuracy split"])
        assert final[-1] == pytest.approx(after)  # the log reports the real accuracy


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", ["C4.5", "ID3 fractional", "CART"])
def test_reduced_error_pruning_judges_each_node_by_predict(name, seed):
    # the pruner sums what a subtree gives each row child by child (bottom-up); replayed on a
    # copy, node by node in the log's order, each accuracy it reports is model.score's with
    # the tree as it then stands, split and with the node a leaf (rows with a missing value
    # go down several branches, so a row's prediction is a sum over leaves)
    X, y, _ = random_data(seed, n=80)
    X_val, y_val, _ = random_data(seed + 1000, n=40, missing=0.3)
    model, X = fit(name, X, y)
    X_val = X_val[X.columns]
    log = prune_reduced_error(model, X_val, y_val).pruning_log_
    way = {id(model.tree_.root): ()}  # each node's branches from the root
    for node in model.tree_.root.walk():
        way.update({id(child): way[id(node)] + (k,) for k, child in enumerate(node.children)})
    ways = [way[id(node)] for node in model.tree_.root.walk()]  # numbered as in the log

    def at(root, number):
        for k in ways[number]:
            root = root.children[k]
        return root

    replay = pickle.loads(pickle.dumps(model))
    for number, split_accuracy, leaf_accuracy, decision in log[
            ["node", "accuracy split", "accuracy as a leaf", "decision"]].itertuples(index=False):
        assert replay.score(X_val, y_val) == pytest.approx(split_accuracy, abs=1e-12)
        trial = pickle.loads(pickle.dumps(replay))
        make_leaf(at(trial.tree_.root, number), "reduced_error")
        assert trial.score(X_val, y_val) == pytest.approx(leaf_accuracy, abs=1e-12)
        if decision == "leaf":
            make_leaf(at(replay.tree_.root, number), "reduced_error")


@pytest.mark.parametrize("seed", range(20))
def test_pre_pruning_reports_the_accuracy_it_reaches(seed):
    X, y, _ = random_data(seed, n=80)
    X_val, y_val, _ = random_data(seed + 1000, n=40, missing=0.3)
    model = C45Classifier().fit(X, y, validation_data=(X_val, y_val))
    log = model.pruning_log_
    kept = log.loc[log["decision"] == "split", "accuracy split"]
    reached = kept.iloc[-1] if len(kept) else log["accuracy as a leaf"].iloc[0]
    assert model.score(X_val, y_val) == pytest.approx(reached)


# --- CART: min_samples_leaf counts the known values; a majority tie keeps its rows ----------

def test_cart_min_samples_leaf_counts_rows_with_a_known_value():
    # a = 1..8 and four rows without a. With min_samples_leaf=3, the cuts that leave three known
    # values on each side are 3.5, 4.5 and 5.5; only a = 1 is class 1, so 3.5 (left Gini
    # 3 x 4/9 = 4/3) beats 4.5 (4 x 3/8 = 3/2) and 5.5. The missing rows go the majority way,
    # right (5 known rows against 3): leaves of 3 and 5 + 4 rows
    X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, 8, None, None, None, None]}, dtype=float)
    y = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    for model in (CARTClassifier(min_samples_leaf=3), CARTRegressor(min_samples_leaf=3)):
        model.fit(X, y)
        assert model.tree_.root.threshold == 3.5
        assert [leaf.n_samples for leaf in model.tree_.leaves()] == [3, 9]


@pytest.mark.parametrize("seed", range(10))
def test_cart_min_samples_leaf_holds_for_the_known_values(seed):
    X, y, encoded = random_data(seed, n=200)
    model = CARTClassifier(min_samples_leaf=7).fit(X, y)
    for node, rows, shares, ends in reach(model.tree_.root, encoded, "stop"):
        if node.children:
            column = encoded[rows, node.feature_index]
            known = column[~np.isnan(column)]
            if node.threshold is not None:
                sides = known > node.threshold
            else:
                sides = node.branch_of_code[known.astype(int)] == 1
            assert min(sides.sum(), (~sides).sum()) >= 7


def test_a_majority_tie_keeps_the_rows_at_the_node():
    # issue 14's example: x known for 3, 4, 5, 6 and missing in two rows; the root sends two
    # known rows each way, so there is no majority: the two rows stay at the root (rpart), and
    # the fully grown tree fits every row whose x is known; the others get the root's mean 3.5
    X = pd.DataFrame({"x": [np.nan, np.nan, 3, 4, 5, 6]})
    model = CARTRegressor().fit(X, [1, 2, 3, 4, 5, 6])
    np.testing.assert_allclose(model.predict(X), [3.5, 3.5, 3, 4, 5, 6])
    assert model.tree_.majority_branch is None
    assert [child.weighted_n_samples for child in model.tree_.children] == [2, 2]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("make", [CARTClassifier, CARTRegressor])
def test_a_fully_grown_cart_fits_every_row_with_known_values(make, seed):
    rng = np.random.default_rng(seed)
    X = rng.permutation(60 * 3).reshape(60, 3).astype(float)  # distinct values
    X[rng.random(X.shape) < 0.2] = np.nan
    y = rng.integers(0, 3, 60)
    model = make().fit(X, y)
    known = ~np.isnan(X).any(axis=1)
    np.testing.assert_allclose(model.predict(X[known]), y[known])


# --- no public function leaves a model whose methods describe different trees -------------

def _public_functions() -> set:
    modules = [dtree, dtree.pruning, dtree.tree, dtree.grow, dtree.export, dtree.plot,
               dtree.surrogates, dtree.splits, dtree.impurity, dtree.report, dtree.rules,
               dtree.probability, dtree.selection, dtree.routing]
    found = (getattr(module, name) for module in modules for name in module.__all__)
    return {f for f in found if callable(f) and not isinstance(f, type)}


def test_no_public_function_changes_a_fitted_tree():
    # prune_to_alpha once pruned a model's tree in place, and predict kept answering with the
    # unpruned tree it had laid out at fit; in-place edits are now the library's own
    X, y, encoded = random_data(0)
    model = CARTClassifier().fit(X, y)
    model.predict(X)
    before = pickle.dumps(model.tree_.root)
    rows = np.arange(len(y))
    calls = {
        dtree.tree.most_probable: lambda: dtree.tree.most_probable(model.predict_proba(X)),
        dtree.cost_complexity_path: lambda: dtree.cost_complexity_path(model),
        dtree.pruning.cost_complexity_steps: lambda: dtree.pruning.cost_complexity_steps(model),
        dtree.pruning.weakest_links: lambda: dtree.pruning.weakest_links(model.tree_.root),
        dtree.pruning.resubstitution_cost: lambda: dtree.pruning.resubstitution_cost(
            model.tree_.root, 1.0),
        dtree.prune_cost_complexity: lambda: dtree.prune_cost_complexity(model, 0.05),
        dtree.prune_reduced_error: lambda: dtree.prune_reduced_error(model, X, y),
        dtree.prune_error_based: lambda: dtree.prune_error_based(model, X, y),
        dtree.prune_pessimistic: lambda: dtree.prune_pessimistic(model),
        dtree.tree.predict_values: lambda: dtree.tree.predict_values(model.tree_.root, encoded),
        dtree.tree.branches: lambda: dtree.tree.branches(model.tree_.root, encoded, rows),
        dtree.tree.value_branches: lambda: dtree.tree.value_branches(model.tree_.root, encoded,
                                                                     rows),
        dtree.tree.reach: lambda: list(reach(model.tree_.root, encoded)),
        dtree.tree.copy_tree: lambda: dtree.tree.copy_tree(model.tree_.root),
        dtree.export_text: lambda: dtree.export_text(model),
        dtree.export_graphviz: lambda: dtree.export_graphviz(model, filled=True),
        # (its categorical splits have no scikit-learn layout)
        dtree.export.tree_arrays: lambda: pytest.raises(ValueError, dtree.export.tree_arrays,
                                                        model),
        dtree.leaf_table: lambda: dtree.leaf_table(model),
        dtree.export.leaf_summary: lambda: dtree.export.leaf_summary(model.tree_.root,
                                                                      model.classes_),
        dtree.plot_tree: lambda: plt.close(dtree.plot_tree(model).figure),
        dtree.rpart_nodes: lambda: dtree.rpart_nodes(model),
        dtree.rpart_text: lambda: dtree.rpart_text(model),
        dtree.cp_table: lambda: dtree.cp_table(model, X, y, folds=3, random_state=0),
        dtree.tree_rules: lambda: dtree.tree_rules(model),
        dtree.export_rules: lambda: dtree.export_rules(model),
        dtree.rules.simplify_rules: lambda: dtree.rules.simplify_rules(model, X, y),
        dtree.probability.smoothed_tree: lambda: dtree.probability.smoothed_tree(
            model.tree_.root, "laplace"),
    }
    for function, call in calls.items():
        call()
        assert pickle.dumps(model.tree_.root) == before, function.__name__
        np.testing.assert_array_equal(model.predict_proba(X), dtree.tree.level_ties(
            laid_out_afresh(model.tree_.root, encoded, "stop")))
    # the other public functions take no fitted tree: numbers and arrays, or they grow a new one
    takes_no_tree = {dtree.tree.hand_down, dtree.tree.ties, dtree.tree.level_ties,
                     dtree.grow.grow, dtree.pruning.added_errors,
                     dtree.splits.candidate_splits, dtree.best_threshold,
                     dtree.surrogates.find_surrogates, dtree.surrogates.majority_side,
                     dtree.entropy, dtree.gini,
                     dtree.misclassification, dtree.info_gain, dtree.intrinsic_value,
                     dtree.gain_ratio, dtree.gini_index, dtree.corrected_t_test,
                     dtree.plot_cp,  # draws a cp table
                     dtree.pruning.cross_validated_errors,  # fits clones of the model
                     dtree.probability.class_probabilities,  # of class weights
                     dtree.selection.independence_test, dtree.selection.two_step_choice,
                     # the routing rule itself reads a tree laid out as arrays
                     dtree.routing.branch_of, dtree.routing.route_missing, dtree.routing.route_rows,
                     dtree.routing.detour, dtree.routing.otherwise}
    edits = {dtree.tree.make_leaf, dtree.tree.raise_branch}  # see the next test
    assert _public_functions() == set(calls) | takes_no_tree | edits


def laid_out_afresh(root: dtree.Node, encoded: np.ndarray, strategy: str) -> np.ndarray:
    """predict_values on routing arrays made now from the table's columns, not those it kept."""
    arrays = dtree.tree._as_arrays(root._table, root._row)
    return dtree.tree._predict_routed(arrays, encoded, strategy)


def test_an_edited_tree_is_laid_out_again():
    # the table keeps its routing arrays for predict; an edit in place must not leave predict
    # answering with the tree as it was
    X, y, encoded = random_data(0)
    model = CARTClassifier().fit(X, y)
    before = model.predict_proba(X)
    below = [node for node in model.tree_.walk() if node.children and node is not model.tree_.root]
    make_leaf(below[0], "by hand")
    edited = model.predict_proba(X)
    assert not np.array_equal(edited, before)
    np.testing.assert_array_equal(edited, laid_out_afresh(model.tree_.root, encoded, "stop"))
    raise_branch(model.tree_.root, model.tree_.children[1])
    np.testing.assert_array_equal(model.predict_proba(X),
                                  laid_out_afresh(model.tree_.root, encoded, "stop"))


def test_an_edit_lays_out_again_its_own_tree_only():
    # each table keeps its own routing arrays: a pruner prunes a copy (a table of its own),
    # which predicts from its pruned tree while the model keeps its arrays; an edit in place
    # of the copy lays the copy out again, not the model nor another model
    X, y, encoded = random_data(0)
    model, other = CARTClassifier().fit(X, y), CARTClassifier(max_depth=2).fit(X, y)
    before, _ = model.predict_proba(X), other.predict_proba(X)
    routing, others = (fitted.tree_.root._table.routing() for fitted in (model, other))
    pruned = prune_pessimistic(model)
    assert pruned.get_n_leaves() < model.get_n_leaves()
    np.testing.assert_array_equal(pruned.predict_proba(X),
                                  laid_out_afresh(pruned.tree_.root, encoded, "stop"))
    np.testing.assert_array_equal(model.predict_proba(X), before)
    assert model.tree_.root._table.routing() is routing
    pruned_routing = pruned.tree_.root._table.routing()
    make_leaf(pruned.tree_.children[0], "by hand")
    np.testing.assert_array_equal(pruned.predict_proba(X),
                                  laid_out_afresh(pruned.tree_.root, encoded, "stop"))
    assert pruned.tree_.root._table.routing() is not pruned_routing
    model.predict_proba(X), other.predict_proba(X)
    assert model.tree_.root._table.routing() is routing
    assert other.tree_.root._table.routing() is others


def _hand_node(**test) -> dtree.Node:
    """A node of two leaves predicting [1, 0] and [0, 1], with the training fractions
    0.3 and 0.7, and the test ``test``."""
    leaves = [dtree.Node(value=np.array(p), prediction=np.array(p), n_samples=1,
                         weighted_n_samples=1.0, impurity=0.0, depth=1)
              for p in ([1.0, 0.0], [0.0, 1.0])]
    return dtree.Node(value=np.ones(2), prediction=np.array([0.3, 0.7]), n_samples=2,
                      weighted_n_samples=2.0, impurity=0.5, depth=0, children=leaves,
                      branch_fractions=np.array([0.3, 0.7]), **test)


def test_the_routing_rule_by_hand():
    # columns x, s, c; the node tests x <= 2.5, with the surrogates s > 10 (reversed: its lower
    # values go right) and c in {0} (category 2 placed on neither side)
    from dtree.surrogates import Surrogate
    surrogates = (Surrogate("s", 1, 0.9, 0.5, threshold=10.0, reverse=True),
                  Surrogate("c", 2, 0.8, 0.4, category_sets=(frozenset({0}), frozenset({1})),
                            branch_of_code=(0, 1, -1)))
    X = np.array([[1, 3, NAN, NAN, NAN, NAN, NAN],
                  [NAN, NAN, 12, 5, NAN, NAN, NAN],
                  [NAN, NAN, 0, 1, 1, 2, NAN]], dtype=float).T.copy()  # a row per sample
    rows = np.arange(7)
    node = _hand_node(feature="x", feature_index=0, threshold=2.5, surrogates=surrogates,
                      majority_branch=1, larger_branch=0)
    # by value: 1 left, 3 right; by s: 12 > 10 left, 5 right; by c: 1 right; nothing places
    # the last two: the majority branch at fit, the larger child at prediction
    assert branches(node, X, rows, at_fit=True).tolist() == [0, 1, 0, 1, 1, 1, 1]
    assert branches(node, X, rows).tolist() == [0, 1, 0, 1, 1, 0, 0]
    assert value_branches(node, X, rows).tolist() == [0, 1] + [SPREAD] * 5
    bare = _hand_node(feature="x", feature_index=0, threshold=2.5, surrogates=surrogates)
    for strategy, last in [("distribute", SPREAD), ("stop", STAY), ("most_frequent", 1)]:
        assert branches(bare, X, rows, strategy).tolist() == [0, 1, 0, 1, 1, last, last]
    # compiled prediction follows the same rule: a spread row mixes the leaves 0.3 : 0.7, a
    # row that stays takes the node's prediction, which is the same mix here
    for strategy, mixed in [("distribute", [0.3, 0.7]), ("stop", [0.3, 0.7]),
                            ("most_frequent", [0.0, 1.0])]:
        np.testing.assert_allclose(dtree.tree.predict_values(bare, X, strategy),
                                   [[1, 0], [0, 1], [1, 0], [0, 1], [0, 1], mixed, mixed])
    # C4.5's own branch for missing values, and CART's learned side, before the larger child
    own = _hand_node(feature="c", feature_index=2, category_sets=(frozenset({0}),
                     frozenset({1, 2})), branch_of_code=np.array([0, 1, 1]), missing_branch=1)
    assert branches(own, X, rows).tolist() == [1, 1, 0, 1, 1, 1, 1]
    learned = _hand_node(feature="x", feature_index=0, threshold=2.5, missing_side=1,
                         larger_branch=0)
    assert branches(learned, X, rows).tolist() == [0, 1, 1, 1, 1, 1, 1]
    # the most frequent branch is the first of those tied up to round-off
    even = _hand_node(feature="x", feature_index=0, threshold=2.5)
    even.branch_fractions = np.array([0.3, 0.1 + 0.2])  # the second larger by round-off
    assert branches(even, X, rows, "most_frequent").tolist() == [0, 1, 0, 0, 0, 0, 0]


def test_binary_category_maps_are_laid_out_as_bit_masks():
    # three maps end to end: [1, -1, 0, 1] is binary (placed codes 0, 2, 3: 0b1101 = 13; of
    # branch 1 codes 0 and 3: 0b1001 = 9), none, and [0, 2, 1] (three branches) kept as it is
    from dtree.routing import branch_of
    from dtree.tree import _bit_masks
    laid, start = _bit_masks(np.array([1, -1, 0, 1, 0, 2, 1]), np.array([4, 0, 3]))
    assert laid.tolist() == [13, 9, 0, 2, 1] and start.tolist() == [~0, 2, 2]
    assert [branch_of(v, NAN, laid, ~0) for v in [0.0, 1.0, 2.0, 3.0, NAN]] == [1, -1, 0, 1, -1]
    assert [branch_of(v, NAN, laid, 2) for v in [0.0, 1.0, 2.0]] == [0, 2, 1]
    # 64 codes fit two masks (code 63 is the sign bit); 65 stay a map
    rng = np.random.default_rng(0)
    for n, masked in [(64, True), (65, False)]:
        codes = rng.integers(-1, 2, n)
        codes[-1] = 1
        laid, start = _bit_masks(codes, np.array([n]))
        assert (start[0] < 0) == masked and len(laid) == (2 if masked else n)
        assert [branch_of(float(v), NAN, laid, start[0]) for v in range(n)] == codes.tolist()
