"""A binary tree as scikit-learn's ``Tree`` (``DecisionTreeClassifier.tree_``): the arrays
over its nodes (:class:`TreeArrays`), CART's ``tree_`` (:class:`Tree`, a view of the root
:class:`~dtree.tree.Node` that answers scikit-learn's interface), the node ids and paths of rows
(``apply``, ``decision_path``), the impurity importances, and shap's custom-tree form
(:func:`shap_tree`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from .tree import Node, numbering, reach

__all__ = ["Tree", "TreeArrays", "shap_tree"]

#: scikit-learn's marks (``sklearn.tree._tree``): a leaf's children; a leaf's feature and threshold
TREE_LEAF, TREE_UNDEFINED = -1, -2


@dataclass(frozen=True)
class TreeArrays:
    """A binary tree in the layout of scikit-learn's ``Tree`` (``DecisionTreeClassifier.tree_``):
    one entry per node, numbered in pre-order as ``apply`` numbers them; -1 (``TREE_LEAF``) for
    a leaf's children, -2 (``TREE_UNDEFINED``) for a leaf's feature and threshold. ``value``
    has shape (node_count, 1, n_classes): a classifier's weighted class shares (as scikit-learn
    >= 1.4 stores them), a regressor's prediction. ``missing_go_to_left`` is 1 where a row whose
    tested value is missing goes left (``missing="learn"``'s side; with surrogates, the side a
    row that no surrogate places takes), else 0, as for a leaf."""
    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray
    impurity: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    missing_go_to_left: np.ndarray

    @property
    def node_count(self) -> int:
        return len(self.feature)

    @property
    def n_leaves(self) -> int:
        return int((self.children_left == TREE_LEAF).sum())


def binary_arrays(root: Node) -> TreeArrays:
    """The tree below ``root`` as scikit-learn's arrays; a split that is not a threshold
    (multiway, or on categories) is a ValueError naming its attribute."""
    nodes = list(root.walk())
    for node in nodes:
        if node.children and (node.threshold is None or len(node.children) != 2
                              or node.missing_branch is not None):
            raise ValueError(f"the split on {node.feature!r} is not a threshold split; "
                             "scikit-learn's layout has only those")
    ids = numbering(nodes)

    def column(values, dtype) -> np.ndarray:
        return np.array(list(values), dtype=dtype)

    def side(n: Node) -> int | None:  # the child a row whose tested value is missing takes
        return n.missing_side if n.missing_side is not None else n.larger_branch

    return TreeArrays(
        children_left=column((ids[id(n.children[0])] if n.children else TREE_LEAF
                              for n in nodes), np.intp),
        children_right=column((ids[id(n.children[1])] if n.children else TREE_LEAF
                               for n in nodes), np.intp),
        feature=column((n.feature_index if n.children else TREE_UNDEFINED for n in nodes),
                       np.intp),
        threshold=column((n.threshold if n.children else TREE_UNDEFINED for n in nodes), float),
        value=np.array([n.prediction for n in nodes], dtype=float)[:, None, :],
        impurity=column((n.impurity for n in nodes), float),
        n_node_samples=column((n.n_samples for n in nodes), np.intp),
        weighted_n_node_samples=column((n.weighted_n_samples for n in nodes), float),
        missing_go_to_left=column((bool(n.children) and side(n) == 0 for n in nodes), np.uint8))


def leaf_ids(root: Node, matrix: np.ndarray, predict_missing: str) -> np.ndarray:
    """The id (pre-order position) of the node where each row of the encoded ``matrix`` ends:
    its leaf; for a row that a missing value sends down several branches, the leaf holding
    the largest share of it (the first on a tie); for a row that stays at an internal node
    (CART: no surrogate places it, the children hold as many rows), that node."""
    ids = root.numbers()
    end, largest = np.full(len(matrix), -1), np.zeros(len(matrix))
    for node, rows, shares, ended in reach(root, matrix, predict_missing):
        rows, shares = rows[ended], shares[ended]
        larger = shares > largest[rows]
        end[rows[larger]], largest[rows[larger]] = ids[id(node)], shares[larger]
    return end


def node_indicator(root: Node, matrix: np.ndarray, predict_missing: str):
    """A sparse indicator matrix (CSR), one row per row of ``matrix`` and one column per node
    (ids as :func:`leaf_ids`): 1 where the row reaches the node, by any share."""
    from scipy.sparse import csr_matrix
    ids = root.numbers()
    paths = [(ids[id(node)], rows) for node, rows, _, _ in reach(root, matrix, predict_missing)]
    rows = np.concatenate([reached for _, reached in paths])
    columns = np.concatenate([np.full(len(reached), i) for i, reached in paths])
    indicator = csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, columns)),
                           shape=(len(matrix), len(ids)))
    indicator.sort_indices()
    return indicator


def impurity_decreases(root: Node, n_features: int) -> np.ndarray:
    """Each feature's total weighted impurity decrease over the internal nodes t that test it
    (Breiman et al. 1984, sec. 5.3.4): sum of W_t I(t) - sum_c W_c I(c) over t's children c
    (of positive weight), W the training weight at a node."""
    decrease = np.zeros(n_features)
    for node in root.walk():
        if node.children:
            decrease[node.feature_index] += node.weighted_n_samples * node.impurity - sum(
                c.weighted_n_samples * c.impurity for c in node.children
                if c.weighted_n_samples > 0)
    return decrease


def _column(name: str, doc: str) -> property:
    """A read-only attribute of :class:`Tree`: its array ``name`` of :class:`TreeArrays`."""
    return property(lambda self: getattr(self._arrays, name), doc=doc)


class Tree:
    """CART's ``tree_``: the fitted binary tree, answering scikit-learn's ``Tree`` interface
    (``sklearn.tree._tree.Tree``) for code written for scikit-learn's trees (tree walkers,
    ``shap``, ``treeinterpreter``), and the :class:`~dtree.tree.Node` interface through its
    ``root``.

    The arrays (``children_left``, ``children_right``, ``feature``, ``threshold``, ``value``,
    ``impurity``, ``n_node_samples``, ``weighted_n_node_samples``, ``missing_go_to_left``; see
    :class:`TreeArrays`) are numbered as ``apply`` numbers the nodes (pre-order), made when
    first read and made again after the tree is edited (a pruner); they are not pickled.
    Every other name of :class:`~dtree.tree.Node` (``walk``, ``children``, ``leaves``,
    ``n_samples``, ``stop_reason``, ...) is the root's; the root's own ``feature``,
    ``threshold``, ``value`` and ``impurity`` are ``tree_.root.feature`` and so on.
    A tree with a split on categories has no such arrays: reading one is a ValueError.
    """

    __slots__ = ("root", "n_features", "_n_classes", "_predict_missing")

    #: one target (multi-output y is refused at fit)
    n_outputs = 1

    def __init__(self, root: Node, n_features: int, n_classes: int,
                 predict_missing: str = "stop"):
        self.root, self.n_features, self._n_classes = root, n_features, n_classes
        self._predict_missing = predict_missing

    def __reduce__(self):
        return Tree, (self.root, self.n_features, self._n_classes, self._predict_missing)

    def __getattr__(self, name: str):
        if name.startswith("_") or name == "root" or not hasattr(Node, name):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self.root, name)

    def __repr__(self) -> str:
        return f"Tree(root={self.root!r})"

    @property
    def _arrays(self) -> TreeArrays:
        """The arrays, kept by the tree's table until it is edited
        (:meth:`dtree.tree.NodeTable.kept`)."""
        root = self.root
        return root._table.kept(("sklearn", root._row), lambda: binary_arrays(root))

    children_left = _column("children_left",
                            "Each node's left child (``<= threshold``); -1 for a leaf.")
    children_right = _column("children_right", "Each node's right child; -1 for a leaf.")
    feature = _column("feature", "Each node's tested column (of X at fit); -2 for a leaf.")
    threshold = _column("threshold", "Each node's threshold; -2 for a leaf.")
    value = _column("value", "Each node's class shares or mean, shape (node_count, 1, n_classes).")
    impurity = _column("impurity", "Each node's impurity.")
    n_node_samples = _column("n_node_samples", "Each node's training rows.")
    weighted_n_node_samples = _column("weighted_n_node_samples", "Each node's training weight.")
    missing_go_to_left = _column("missing_go_to_left", "1 where a missing value goes left, else 0.")

    @property
    def node_count(self) -> int:
        return self._arrays.node_count

    @property
    def capacity(self) -> int:
        """As many as ``node_count`` (scikit-learn's arrays may have room for more)."""
        return self._arrays.node_count

    @property
    def n_leaves(self) -> int:
        return self._arrays.n_leaves

    @property
    def max_depth(self) -> int:
        """The number of tests on the longest path (``get_depth``)."""
        return self.root.height()

    @property
    def n_classes(self) -> np.ndarray:
        """[number of classes], or [1] for a regressor."""
        return np.array([self._n_classes], dtype=np.intp)

    @property
    def max_n_classes(self) -> int:
        return self._n_classes

    def _matrix(self, X: ArrayLike) -> np.ndarray:
        """X as the tree reads it: a numeric 2-D array (or sparse matrix) with its columns."""
        matrix = X.toarray() if hasattr(X, "toarray") else X
        matrix = np.asarray(matrix, dtype=float)
        if matrix.ndim != 2 or matrix.shape[1] != self.n_features:
            raise ValueError(f"X must be a 2-D array with {self.n_features} columns, got shape "
                             f"{matrix.shape}")
        return matrix

    def apply(self, X: ArrayLike) -> np.ndarray:
        """The id of the node where each row of X (numeric, the columns of fit) ends, as the
        estimator's ``apply``."""
        return leaf_ids(self.root, self._matrix(X), self._predict_missing)

    def decision_path(self, X: ArrayLike):
        """The nodes each row of X reaches, as a CSR indicator matrix (estimator's
        ``decision_path``)."""
        return node_indicator(self.root, self._matrix(X), self._predict_missing)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``value`` of the node where each row ends, shape (n_rows, n_classes)."""
        return self.value[self.apply(X), 0]

    def compute_feature_importances(self, normalize: bool = True) -> np.ndarray:
        """Each feature's impurity decrease (``impurity_decreases``) divided by the
        root's weight; with ``normalize``, divided by their sum instead (all zeros for a tree
        that is one leaf): the estimator's ``feature_importances_``."""
        decrease = impurity_decreases(self.root, self.n_features)
        total = decrease.sum() if normalize else self.root.weighted_n_samples
        return decrease / total if total > 0 else decrease


def shap_tree(model) -> dict:
    """A fitted CART model's tree in shap's custom-tree form (``shap.TreeExplainer`` takes
    ``{"trees": [shap_tree(model)]}``; shap's "Example of loading a custom tree model"):
    ``children_left``, ``children_right``, ``children_default`` (where a missing value goes),
    ``features``, ``thresholds``, ``values`` (a classifier's class shares, so SHAP values
    explain ``predict_proba``; a regressor's mean) and ``node_sample_weight``, from
    ``model.tree_``.

    Parameters
    ----------
    model : CARTClassifier or CARTRegressor
        A fitted model whose splits are all thresholds.

    Returns
    -------
    dict
        The seven arrays, one entry per node.
    """
    check_is_fitted(model, "tree_")
    tree = model.tree_
    if not isinstance(tree, Tree):
        raise TypeError(f"shap_tree needs a CARTClassifier or CARTRegressor (a binary tree), "
                        f"got {type(model).__name__}")
    return {"children_left": tree.children_left, "children_right": tree.children_right,
            "children_default": np.where(tree.missing_go_to_left == 1, tree.children_left,
                                         tree.children_right),
            "features": tree.feature, "thresholds": tree.threshold,
            "values": tree.value[:, 0, :], "node_sample_weight": tree.weighted_n_node_samples}
