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

from .jit import compiled, kernel
from .tree import Node, RoutingArrays, _end_numbers, _parents, reach

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
    """The tree below ``root`` as scikit-learn's arrays, read from its table's columns in
    pre-order; a split that is not a threshold (multiway, or on categories) is a ValueError
    naming its attribute."""
    table = root._table
    rows = table.preorder(root._row)
    n_children, threshold = table.n_children[rows], table.threshold[rows]
    split = n_children > 0
    other = split & ((n_children != 2) | np.isnan(threshold) | (table.missing_branch[rows] >= 0))
    if other.any():
        raise ValueError(f"the split on {table.feature[rows[np.argmax(other)]]!r} is not a "
                         "threshold split; scikit-learn's layout has only those")
    ids = _ids(table, rows)
    first = table.first_child[rows]
    side = np.where(table.missing_side[rows] >= 0, table.missing_side[rows],
                    table.larger_branch[rows])  # where a row whose tested value is missing goes
    return TreeArrays(
        children_left=np.where(split, ids[first], TREE_LEAF).astype(np.intp),
        children_right=np.where(split, ids[first + 1], TREE_LEAF).astype(np.intp),
        feature=np.where(split, table.feature_index[rows], TREE_UNDEFINED).astype(np.intp),
        threshold=np.where(split, threshold, TREE_UNDEFINED).astype(float),
        value=table.prediction.take(rows)[:, None, :],
        impurity=table.impurity[rows].astype(float),
        n_node_samples=table.n_samples[rows].astype(np.intp),
        weighted_n_node_samples=table.weighted_n_samples[rows].astype(float),
        missing_go_to_left=(split & (side == 0)).astype(np.uint8))


def _ids(table, rows: np.ndarray) -> np.ndarray:
    """Per row of ``table``, its node's id: its place among ``rows`` (a pre-order), -1 if
    none."""
    ids = np.full(table.size, -1, np.int64)
    ids[rows] = np.arange(len(rows))
    return ids


def _one_way_ends(root: Node, matrix: np.ndarray, predict_missing: str
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, RoutingArrays]:
    """Where each row of the encoded ``matrix`` ends when it takes one way down (the node's
    number in the tree's routing arrays, :func:`dtree.tree._end_numbers`), the rows that a
    missing value sends down several branches (``predict_missing="distribute"`` where nothing
    places them; routed with ``"stop"``, such a row ends where it would have spread), each
    number's node id, and the routing arrays."""
    a, end = _end_numbers(root, matrix, "stop" if predict_missing == "distribute"
                          else predict_missing)
    spread = (np.flatnonzero(a.n_children[end] > 0) if predict_missing == "distribute"
              else np.zeros(0, np.int64))
    rows = np.empty(len(a.feature), np.int64)  # each number's row of the table
    laid = np.flatnonzero(a.place >= 0)
    rows[a.place[laid]] = laid
    return end, spread, _ids(root._table, root._table.preorder(root._row))[rows], a


def leaf_ids(root: Node, matrix: np.ndarray, predict_missing: str) -> np.ndarray:
    """The id (pre-order position) of the node where each row of the encoded ``matrix`` ends:
    its leaf; for a row that a missing value sends down several branches, the leaf holding
    the largest share of it (the first on a tie); for a row that stays at an internal node
    (CART: no surrogate places it, the children hold as many rows), that node."""
    end, spread, id_of, _ = _one_way_ends(root, matrix, predict_missing)
    ids = id_of[end]
    if len(spread):  # followed node by node, each leaf's share of the row weighed
        ids[spread] = -1
        largest, nodes = np.zeros(len(spread)), root.numbers()
        for node, rows, shares, ended in reach(root, matrix[spread], predict_missing):
            rows, shares = rows[ended], shares[ended]
            larger = shares > largest[rows]
            ids[spread[rows[larger]]], largest[rows[larger]] = nodes[id(node)], shares[larger]
    return ids


def node_indicator(root: Node, matrix: np.ndarray, predict_missing: str):
    """A sparse indicator matrix (CSR), one row per row of ``matrix`` and one column per node
    (ids as :func:`leaf_ids`): 1 where the row reaches the node, by any share. A row taking
    one way reaches its end and the end's ancestors (:func:`_path_indices`)."""
    from scipy.sparse import csr_matrix
    end, spread, id_of, a = _one_way_ends(root, matrix, predict_missing)
    one_way = np.ones(len(matrix), bool)
    one_way[spread] = False
    indices, indptr = compiled(_path_indices)(end[one_way], _parents(a), id_of)
    shape = (len(matrix), len(id_of))
    if not len(spread):  # every row one way: the paths are the CSR rows
        indicator = csr_matrix((np.ones(len(indices), dtype=np.int64), indices, indptr), shape)
    else:  # a spread row followed node by node
        rows, columns = [np.repeat(np.flatnonzero(one_way), np.diff(indptr))], [indices]
        nodes = root.numbers()
        for node, reached, _, _ in reach(root, matrix[spread], predict_missing):
            rows.append(spread[reached])
            columns.append(np.full(len(reached), nodes[id(node)]))
        indicator = csr_matrix((np.ones(sum(map(len, rows)), dtype=np.int64),
                                (np.concatenate(rows), np.concatenate(columns))), shape)
    indicator.sort_indices()  # already sorted where every row goes one way: this marks them so
    return indicator


@kernel
def _path_indices(end, parent, id_of):
    """Each row's path as a CSR row: the ids (``id_of`` a node number's) of the node where it
    ends (``end``) and of that node's ancestors (``parent``, -1 above the root), root first;
    an ancestor's id is smaller than its descendants'. Returns the indices and the row
    pointers."""
    n = len(end)
    indptr = np.zeros(n + 1, np.int64)
    for i in range(n):
        length, at = 0, end[i]
        while at >= 0:
            length += 1
            at = parent[at]
        indptr[i + 1] = indptr[i] + length
    indices = np.empty(indptr[n], np.int64)
    for i in range(n):
        place, at = indptr[i + 1] - 1, end[i]
        while at >= 0:  # the end in the row's last place, then its parent before it
            indices[place] = id_of[at]
            place -= 1
            at = parent[at]
    return indices, indptr


def impurity_decreases(root: Node, n_features: int) -> np.ndarray:
    """Each feature's total weighted impurity decrease over the internal nodes t that test it
    (Breiman et al. 1984, sec. 5.3.4): sum of W_t I(t) - sum_c W_c I(c) over t's children c
    (of positive weight), W the training weight at a node (:func:`_decreases`)."""
    table = root._table
    return compiled(_decreases)(table.preorder(root._row), table.first_child, table.n_children,
                                table.feature_index, table.weighted_n_samples, table.impurity,
                                n_features)


@kernel
def _decreases(rows, first_child, n_children, feature, weight, impurity, n_features):
    """:func:`impurity_decreases` from a table's columns, the nodes taken in the pre-order
    ``rows``, a node's children in order."""
    decrease = np.zeros(n_features)
    for row in rows:
        if n_children[row] > 0:
            below = 0.0
            for child in range(first_child[row], first_child[row] + n_children[row]):
                if weight[child] > 0:
                    below += weight[child] * impurity[child]
            decrease[feature[row]] += weight[row] * impurity[row] - below
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
