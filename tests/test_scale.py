"""The engine at scale and without numba: deep trees, many-valued columns, many classes, zero
weights, and the compiled kernels against plain Python (NUMBA_DISABLE_JIT=1)."""
from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from handcalc import H
from jit import run_script

from dtree import CARTClassifier, ID3Classifier, estimators, export_text
from dtree._validation import Feature
from dtree.grow import SplitRules, StoppingRules, grow
from dtree.tree import Node, predict_values

ROOT = Path(__file__).resolve().parents[1]


def _chain(n: int) -> tuple[Node, np.ndarray, np.ndarray]:
    """x = 0, 1, ..., n-1 with alternating labels: with Gini, every split cuts one row off the
    end of the others, so the tree is a chain of depth n - 1."""
    x = np.arange(n, dtype=float)[:, None]
    y = np.arange(n) % 2
    root = grow(x, [Feature("x")], y, 2, np.ones(n), SplitRules("gini"), StoppingRules(),
                np.arange(1))
    return root, x, y


@pytest.fixture(scope="module")
def deep():
    return _chain(2001)


# ------------------------------------------------------------------------------ deep trees
def test_deep_tree_is_grown(deep):
    root, x, y = deep
    assert root.height() == 2000
    assert len(list(root.walk())) == 2 * 2001 - 1
    assert len(root.leaves()) == 2001
    assert all(leaf.stop_reason == "pure" and leaf.n_samples == 1 for leaf in root.leaves())


def test_deep_tree_predicts(deep):
    root, x, y = deep
    proba = predict_values(root, x)
    assert proba.tolist() == np.eye(2)[y].tolist()  # every row reaches its own pure leaf
    missing = predict_values(root, np.array([[np.nan]]))
    # a missing value goes down every branch, weighted by the training fractions: the class
    # shares of the root, 1001 of class 0 and 1000 of class 1
    np.testing.assert_allclose(missing, [[1001 / 2001, 1000 / 2001]], atol=1e-12)


@pytest.mark.parametrize("duplicate", [
    pytest.param(lambda node: pickle.loads(pickle.dumps(node)), id="pickle"),
    pytest.param(copy.deepcopy, id="deepcopy"),
])
def test_deep_tree_is_copied_whole(deep, duplicate):
    root, x, _ = deep
    twin = duplicate(root)
    assert twin is not root and twin.height() == 2000
    for a, b in zip(root.walk(), twin.walk()):
        assert a is not b
        assert (a.feature, a.threshold, a.depth, a.n_samples) == (b.feature, b.threshold,
                                                                 b.depth, b.n_samples)
        assert a.value.tolist() == b.value.tolist()
    np.testing.assert_array_equal(predict_values(twin, x), predict_values(root, x))


def test_deep_copy_is_independent(wm20):
    X, y = wm20
    model = ID3Classifier().fit(X, y)
    twin = copy.deepcopy(model)
    twin.tree_.children[0].children.clear()
    twin.tree_.root.value[0] = -1
    assert export_text(model) == export_text(ID3Classifier().fit(X, y))


def test_pickled_model_is_the_same_model(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    assert export_text(again) == export_text(model)
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    for a, b in zip(model.tree_.walk(), again.tree_.walk()):
        assert (a.scores, a.ties, a.stop_reason, a.category_sets) == (
            b.scores, b.ties, b.stop_reason, b.category_sets)


def test_a_subtree_pickles_on_its_own(wm20):
    X, y = wm20
    clear = ID3Classifier().fit(X, y).tree_.children[0]
    again = pickle.loads(pickle.dumps(clear))
    assert again.depth == 1 and again.feature == "root"
    assert [n.feature for n in again.walk()] == [n.feature for n in clear.walk()]


# ------------------------------------------------------------------- many values, many classes
def test_id_like_column_splits_into_one_branch_per_value():
    n = 20_000
    X = pd.DataFrame({"id": [f"row{i:05d}" for i in range(n)],
                      "half": np.where(np.arange(n) < n // 2, "low", "high")})
    y = np.arange(n) % 3
    model = ID3Classifier().fit(X, y)
    root = model.tree_.root
    # every row its own pure branch: the gain of the id is the whole entropy of y
    assert root.feature == "id" and len(root.children) == n
    assert root.score == pytest.approx(H(6667, 6667, 6666), abs=1e-9)
    assert root.category_sets[123] == frozenset({"row00123"})
    assert len(set().union(*root.category_sets)) == n
    assert model.score(X, y) == 1.0


def test_many_classes_use_memory_linear_in_rows():
    # the labels were a dense rows x classes matrix: 50,000 x 5,000 floats is 2 GB per copy
    script = textwrap.dedent("""
        import resource, numpy as np, pandas as pd
        from dtree import ID3Classifier
        rng = np.random.default_rng(0)
        n = 50_000
        X = pd.DataFrame({f"c{j}": rng.integers(0, 4, n).astype(str) for j in range(4)})
        y = rng.integers(0, 5_000, n)
        ID3Classifier(max_depth=1).fit(X.iloc[:100], y[:100])  # compile the kernels first
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        model = ID3Classifier().fit(X, y)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print((after - before) / 1024, len(list(model.tree_.walk())))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.split()
    peak_mb, n_nodes = float(out[0]), int(out[1])
    # a node keeps its class counts and shares: nodes x classes x 16 bytes
    assert peak_mb < 100 + n_nodes * 5_000 * 16 / 2**20 * 2


# ------------------------------------------------------------------------- one copy of X
@pytest.mark.parametrize("layout", ["C", "F"])
def test_fit_reads_a_float64_X_in_place(monkeypatch, layout):
    # a float64 array is the encoded matrix already: the grower reads it, copies nothing, and
    # grows the tree it grows on an encoded copy (a DataFrame's columns are encoded anew)
    rng = np.random.default_rng(0)
    X = np.asarray(np.round(rng.normal(size=(300, 4)), 1), order=layout)
    X[::9, 2] = np.nan
    y = (np.nan_to_num(X[:, 2]) + X[:, 1] > 0).astype(int)
    before, frame = X.copy(), pd.DataFrame(X, columns=[f"x{j}" for j in range(4)])
    read, real_grow = [], estimators.grow
    monkeypatch.setattr(estimators, "grow", lambda X, *rest: read.append(X) or real_grow(X, *rest))
    model = CARTClassifier(min_samples_leaf=3).fit(X, y)
    assert np.shares_memory(read[-1], X)
    np.testing.assert_array_equal(X, before)
    assert not np.shares_memory(CARTClassifier().fit(frame, y) and read[-1], X)
    assert export_text(model) == export_text(CARTClassifier(min_samples_leaf=3).fit(frame, y))
    # rows of weight zero are left out: the grower gets the other rows (encoded), not all of X
    w = np.where(np.arange(300) % 5 == 0, 0.0, 1.0)
    weighted = CARTClassifier(min_samples_leaf=3).fit(X, y, sample_weight=w)
    assert len(read[-1]) == 240
    assert export_text(weighted) == export_text(
        CARTClassifier(min_samples_leaf=3).fit(X[w > 0], y[w > 0]))


# ------------------------------------------------------------------------- zero weights
def test_grower_leaves_out_rows_of_weight_zero(wm20):
    X, y = wm20
    model = ID3Classifier().fit(X, y)
    features, matrix = model._features, np.empty((17, 6))
    for j, f in enumerate(features):
        matrix[:, j] = pd.Index(f.categories).get_indexer(X[f.name])
    codes = (np.asarray(y) == "yes").astype(int)
    w = np.ones(17)
    w[[0, 5]] = 0
    root = grow(matrix, features, codes, 2, w, SplitRules(), StoppingRules(), np.arange(6))
    assert root.n_samples == 15 and root.weighted_n_samples == 15
    assert sum(leaf.n_samples for leaf in root.leaves()) == 15


# ------------------------------------------------------------------- without numba's compiler
NO_JIT_SCRIPT = """
import json, sys
import numpy as np
from dtree import ID3Classifier, best_threshold, export_text
from dtree.datasets import load_watermelon
from dtree._validation import Feature
from dtree.grow import SplitRules, StoppingRules, grow
from dtree.tree import predict_values

out = {}
for version in ("2.0", "2.0alpha"):
    X, y = load_watermelon(version, return_X_y=True)
    model = ID3Classifier(missing="fractional").fit(X, y)
    out[version] = [export_text(model), [n.scores for n in model.tree_.walk()],
                    model.predict_proba(X).tolist()]
rng = np.random.default_rng(1)
x = np.round(rng.normal(size=(60, 3)), 1)
x[rng.random(x.shape) < 0.1] = np.nan
y = (np.nan_to_num(x[:, 0]) + rng.normal(size=60) > 0).astype(int)
root = grow(x, [Feature(f"x{j}") for j in range(3)], y, 2, np.ones(60), SplitRules("gini"),
            StoppingRules(), np.arange(3))
out["gini"] = [[(n.feature, n.threshold, n.value.tolist()) for n in root.walk()],
               predict_values(root, x).tolist()]
out["best_threshold"] = [best_threshold(x[:, 1], y, c) for c in
                         ("info_gain", "gain_ratio", "gini", "squared_error")]
print(json.dumps(out))
"""


def _same(a, b) -> bool:
    """Equal structures; numbers equal to 1e-12 (compiled and plain Python may round apart)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, abs=1e-12, nan_ok=True)
    return a == b


def test_plain_python_kernels_give_the_same_trees():
    compiled = run_script(NO_JIT_SCRIPT, jit=True)
    plain = run_script(NO_JIT_SCRIPT, jit=False)
    assert compiled["2.0"][0] == plain["2.0"][0]  # the tree text
    assert _same(compiled, plain)


# ------------------------------------------------------------------- regression statistics
def test_grower_keeps_regression_statistics():
    # squared error: the cut 2.5 leaves {1, 1} (variance 0) and {5, 7} (variance 1), the best
    # of the three cuts (1.5: 3/4 * var{1, 5, 7}; 3.5: 3/4 * var{1, 1, 5})
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([1.0, 1.0, 5.0, 7.0])
    root = grow(x, [Feature("x")], y, 0, np.ones(4), SplitRules("squared_error"),
                StoppingRules(max_depth=1), np.arange(1))
    assert root.threshold == 2.5
    assert root.impurity == pytest.approx(np.var(y), abs=1e-12)
    assert root.score == pytest.approx(np.var(y) - 2 / 4 * 1.0, abs=1e-12)
    assert [c.value.tolist() for c in root.children] == [[1.0], [6.0]]  # the means
    assert [c.impurity for c in root.children] == pytest.approx([0.0, 1.0], abs=1e-12)
    assert [c.stop_reason for c in root.children] == ["pure", "max_depth"]
    np.testing.assert_allclose(predict_values(root, x)[:, 0], [1, 1, 6, 6], atol=1e-12)


def test_a_new_process_compiles_nothing():
    # once the kernels are compiled (dtree.jit.precompile), a new process that fits and predicts
    # as the book does, on watermelon 3.0 as a DataFrame and its numeric columns as arrays (row
    # or column order, read-only), loads them from the cache: numba compiles none of dtree's
    # kernels (issue 28)
    script = """
import json, sys
import numpy as np
import dtree
from numba.core import event
from dtree.datasets import load_watermelon
dtree.jit.precompile(quiet=True)
compiled = []
class Count(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Count())
X, y = load_watermelon("3.0", return_X_y=True)
numeric = X.select_dtypes("number")
arrays = [numeric, numeric.to_numpy(), np.asfortranarray(numeric), np.ascontiguousarray(numeric)]
target = np.arange(len(y)) % 5 * 1.5
for model, labels in ((dtree.ID3Classifier(missing="fractional"), y), (dtree.C45Classifier(), y),
                      (dtree.CARTClassifier(), y), (dtree.C45Classifier.j48(), y),
                      (dtree.CARTRegressor(), target)):
    for data in [X] + arrays:
        model.fit(data, labels).predict(data)
dtree.prune_error_based(dtree.C45Classifier(pruning=None).fit(numeric, y), numeric.to_numpy(), y)
dtree.best_threshold(numeric.iloc[:, 0].to_numpy(), y, "gini")
dtree.CARTClassifier(ccp_alpha="1se", cv=3, random_state=0).fit(X, y)
dtree.CARTRegressor(ccp_alpha="1se", cv=3, random_state=0).fit(numeric, target)
print(json.dumps(compiled))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"},
                          check=True)
    assert json.loads(done.stdout) == []
    assert "dtree: compiling" not in done.stderr
