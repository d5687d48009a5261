"""A fitted CART tree reported as R's rpart reports it: ``print(fit)`` and ``printcp(fit)``.

rpart (Therneau & Atkinson) numbers a node's children 2t and 2t + 1 and chooses which child is
its left son by the class or the mean on each side (``src/gini.c``, ``src/anova.c``); these
reports renumber a ``dtree`` tree that way, so that its lines can be read against rpart's.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from ._validation import check_integer, check_sample_weight
from .export import decision_loss, fitted_tree, predicted_class
from .pruning import cost_complexity_path, cross_validated_errors, resubstitution_cost
from .tolerances import ALPHA_ROUND_OFF, TIE_ATOL, TIE_RTOL
from .tree import Node

__all__ = ["rpart_nodes", "rpart_text", "cp_table"]


def _side_key(node: Node, classifier: bool) -> float:
    """What rpart compares to orient a split: the mean class index sum_j j p(j|t) (gini.c's
    ``lmean``/``rmean``, p with the altered priors) or the node's mean (anova.c)."""
    p = node.prediction
    return float(p @ np.arange(len(p))) if classifier else float(p[0])


def _rpart_children(node: Node, classifier: bool) -> tuple[Node, Node, bool]:
    """(rpart's left son, its right son, whether they are dtree's children swapped).

    A numeric split sends "x < cut" left if that side's key is the smaller, else "x >= cut"
    (gini.c: ``direction = lmean < rmean ? LEFT : RIGHT``; anova.c: ``left_sum < right_sum``;
    a tie puts ">=" left). A categorical split sends the group with the smaller key left (a
    tie keeps dtree's order: rpart's then depends on its search order)."""
    first, second = node.children
    a, b = _side_key(first, classifier), _side_key(second, classifier)
    flip = not a < b if node.threshold is not None else a > b
    return (second, first, True) if flip else (first, second, False)


def _labels(node: Node, flip: bool) -> tuple[str, str]:
    """rpart's labels of the two sons (labels.rpart): "Start< 8.5" / "Start>=8.5" with the cut
    as C's ``%.7g``, "Color=a,b" for levels (sorted)."""
    if node.threshold is not None:
        cut = f"{node.threshold:.7g}"
        low, high = f"{node.feature}< {cut}", f"{node.feature}>={cut}"
        return (high, low) if flip else (low, high)
    sets = [f"{node.feature}=" + ",".join(sorted(map(str, s))) for s in node.category_sets]
    return (sets[1], sets[0]) if flip else (sets[0], sets[1])


def rpart_nodes(model) -> pd.DataFrame:
    """One row per node of a fitted CART tree, as rpart's ``print`` lists them (depth first,
    left son first), indexed by rpart's node number (the root 1, the sons of t 2t and 2t + 1):
    ``split`` (the test that leads to the node, "root" at the root), ``n`` (rows), ``loss``
    (a classifier's misclassified weight, or with priors or a loss its expected loss in rpart's
    units, W times the share; rpart's ``dev``) and ``yval`` (the class predicted) then one
    ``prob_<class>`` per class, or for a regressor ``deviance`` (the weighted sum of squares)
    and ``yval`` (the mean); and ``leaf``.

    Parameters
    ----------
    model : estimator
        A fitted ``CARTClassifier`` or ``CARTRegressor``.

    Returns
    -------
    pandas.DataFrame
        One row per node, indexed by rpart's node number (``node``).

    Examples
    --------
    The cut at 1.5 separates the classes: the root misclassifies 2 rows of 4, its sons none.

    >>> from dtree import CARTClassifier, rpart_nodes
    >>> model = CARTClassifier().fit([[0], [1], [2], [3]], ["no", "no", "yes", "yes"])
    >>> rpart_nodes(model)[["split", "n", "loss", "yval"]]
            split  n  loss yval
    node
    1        root  4   2.0   no
    2     x0< 1.5  2   0.0   no
    3     x0>=1.5  2   0.0  yes
    """
    root = fitted_tree(model)
    classes = getattr(model, "classes_", None)
    if any(len(node.children) not in (0, 2) for node in root.walk()):
        raise ValueError("rpart's report needs a binary tree (CART's)")
    costs, loss = getattr(model, "costs_", None), decision_loss(model)
    rows, stack = [], [(1, "root", root)]
    while stack:
        number, split, node = stack.pop()
        row = {"node": number, "split": split, "n": node.n_samples}
        if classes is None:
            row |= {"deviance": node.impurity * node.weighted_n_samples,
                    "yval": float(node.prediction[0])}
        else:
            label = predicted_class(node, classes, loss)
            risk = resubstitution_cost(node, root.weighted_n_samples, costs, share=False)
            row |= {"loss": float(risk), "yval": label,
                    **{f"prob_{c}": float(p) for c, p in zip(classes, node.prediction)}}
        rows.append(row | {"leaf": node.is_leaf})
        if not node.is_leaf:
            left, right, flip = _rpart_children(node, classes is not None)
            left_label, right_label = _labels(node, flip)
            stack += [(2 * number + 1, right_label, right), (2 * number, left_label, left)]
    return pd.DataFrame(rows).set_index("node")


def _format_fixed(values, digits: int, nsmall: int = 0) -> list[str]:
    """R's ``format(x, digits=, nsmall=)`` of a numeric vector in fixed notation: each value
    to ``digits`` significant digits, every value with the decimals the most demanding needs
    (at least ``nsmall``), right-justified to a common width (R's formatReal)."""
    decimals = nsmall
    for x in values:
        if x != 0 and math.isfinite(x):
            power = math.floor(math.log10(abs(float(f"{x:.{digits - 1}e}"))))
            significant = f"{abs(x):.{digits - 1}e}".split("e")[0].replace(".", "").rstrip("0")
            decimals = max(decimals, len(significant) - power - 1)
    texts = [f"{x:.{decimals}f}" for x in values]
    width = max(map(len, texts))
    return [t.rjust(width) for t in texts]


def _signif(x: float, digits: int) -> float:
    return float(f"{x:.{digits - 1}e}")


def rpart_text(model, digits: int = 7) -> str:
    """A fitted CART tree as rpart's ``print(fit)`` prints it (print.rpart, R's default
    ``digits = 7``): "n= 81", the header, and per node "node) split n loss yval (yprob)" (a
    regressor: "node) split n deviance yval"), indented two spaces a level, "*" at leaves.
    Numbers are formatted as R's ``format`` does, in fixed notation only; class probabilities
    with five classes or more as ``%.2g`` (rpart's rule).

    Parameters
    ----------
    model : estimator
        A fitted ``CARTClassifier`` or ``CARTRegressor``.
    digits : int, default=7
        Significant digits, R's ``digits``.

    Returns
    -------
    str
        The printed lines, each ending in a newline.
    """
    digits = check_integer(digits, "digits", 1)
    table = rpart_nodes(model)
    classifier = "loss" in table
    numbers = [str(t).rjust(len(str(table.index.max()))) for t in table.index]
    depth = [int(math.log2(t)) for t in table.index]
    dev = _format_fixed([_signif(v, digits) for v in table["loss" if classifier else
                                                            "deviance"]], digits)
    if classifier:
        probs = table[[c for c in table if c.startswith("prob_")]].to_numpy()
        if probs.shape[1] < 5:
            cells = np.array(_format_fixed(probs.ravel(order="F"), digits, min(20, digits)))
            cells = cells.reshape(probs.shape, order="F")
        else:
            cells = np.vectorize(lambda p: f"{p:.2g}")(probs)
        yval = [f"{y} ({' '.join(c)})" for y, c in zip(table["yval"], cells)]
    else:
        yval = _format_fixed([_signif(v, digits) for v in table["yval"]], digits)
    lines = [" ".join([" " * 2 * d + f"{t})", split, str(n), v, y, "*" if leaf else " "])
             for d, t, split, n, v, y, leaf in zip(depth, numbers, table["split"], table["n"],
                                                   dev, yval, table["leaf"])]
    header = ("node), split, n, loss, yval, (yprob)" if classifier
              else "node), split, n, deviance, yval")
    return "\n".join([f"n= {table['n'].iloc[0]} ", "", header,
                      "      * denotes terminal node", "", *lines]) + "\n"


def cp_table(model, X, y, sample_weight=None, folds=10, random_state=None) -> pd.DataFrame:
    """rpart's ``cptable`` (printcp) of a fitted CART model: one row per tree of the
    weakest-link sequence, from the root down, with ``CP`` (alpha / R(root), R a classifier's
    misclassification cost or a regressor's sum of squares, both over the training weight;
    the full tree's CP is 0, as rpart's with ``cp = 0``), ``nsplit``, ``rel error``
    (R(T) / R(root)) and rpart's cross-validation (``src/xval.c``): the model is refitted
    (``clone``) without each fold, pruned at the geometric means sqrt(CP_i CP_(i-1)) of
    consecutive CPs (10 CP_0 for the root) and predicts the left-out rows; ``xerror`` is
    sum w e / R(root) and ``xstd`` sqrt(sum w e^2 - (sum w e)^2 / W) / R(root), e a row's
    loss (0/1) or squared error and R(root) in weight units. ``folds`` is a number K (rows
    assigned at random to K groups of nearly equal size, as rpart does) or each row's fold
    id, as rpart's ``xval`` vector. X, y, ``sample_weight`` are the data the model was fitted
    to, which are checked as far as the tree can tell (the number of rows, their weight and
    the class shares or mean at the root; a ValueError if they differ). Ties in alpha (up to
    1e-10 R(root), round-off) make one row (the smaller tree), as in
    rpart. The last row is the tree with the links of zero gain cut, rpart's ``cp = 0``; compare
    with rpart fitted with ``cp = 0``. A classifier with priors or a loss is refused.

    Parameters
    ----------
    model : estimator
        A fitted ``CARTClassifier`` or ``CARTRegressor``.
    X : pandas.DataFrame or array-like of shape (n_samples, n_features)
        The rows the model was fitted on.
    y : array-like of shape (n_samples,)
        Their targets.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Their weights, as given to ``fit``.
    folds : int or array-like of shape (n_samples,), default=10
        The number of folds, or each row's fold.
    random_state : int, numpy.random.RandomState or None, default=None
        The random assignment of rows to ``folds`` folds.

    Returns
    -------
    pandas.DataFrame
        Columns ``CP``, ``nsplit``, ``rel error``, ``xerror`` and ``xstd``.
    """
    root = fitted_tree(model)
    if getattr(model, "costs_", None) is not None:
        raise ValueError("cp_table: priors and a loss matrix are not supported")
    cost = "error" if getattr(model, "classes_", None) is not None else "impurity"
    path = cost_complexity_path(model, cost)
    y = np.asarray(y)
    w = check_sample_weight(sample_weight, len(y))
    _check_training_rows(model, root, y, w)
    total = w.sum()
    alphas, risks, leaves = path.ccp_alphas[::-1], path.impurities[::-1], path.n_leaves[::-1]
    root_risk = risks[0]
    if root_risk <= 0:
        raise ValueError("cp_table: the root makes no error, there is nothing to prune")
    tolerance = ALPHA_ROUND_OFF * root_risk  # alphas this close count as equal, and as 0 near 0
    alphas = np.where(alphas < tolerance, 0.0, alphas)
    keep = np.append(True, np.diff(alphas) < -tolerance)  # first of equal alphas: the smaller
    alphas, risks, leaves = alphas[keep], risks[keep], leaves[keep]
    cp = alphas / root_risk
    groups = _folds(folds, len(y), random_state)
    points = np.sqrt(alphas * np.append(10 * alphas[0], alphas[:-1]))
    points[0] = 10 * alphas[0]
    xrisk, xsquare = cross_validated_errors(model, X, y, w, groups, points, cost)
    absolute = root_risk * total  # R(root) in weight units, rpart's risk
    xstd = np.sqrt(np.maximum(xsquare - xrisk ** 2 / total, 0))
    return pd.DataFrame({"CP": cp, "nsplit": leaves - 1, "rel error": risks / root_risk,
                         "xerror": xrisk / absolute, "xstd": xstd / absolute})


def _check_training_rows(model, root: Node, y: np.ndarray, w: np.ndarray) -> None:
    """Refuse ``y`` and ``w`` where they cannot be the rows the model was fitted on: another
    number of rows of positive weight, another total weight, or other class shares (a
    regressor by squared error: another mean) at the root, each up to round-off. Other rows
    with the same counts cannot be told apart."""
    weights = model._class_weighted(y, w)  # as fit weighed them
    total = float(weights.sum())
    if getattr(model, "classes_", None) is not None:
        what = "class shares"
        shares = np.array([weights[y == c].sum() for c in model.classes_]) / total
    elif model.criterion != "absolute_error":  # the root predicts the mean
        what, shares = "mean", np.array([np.dot(weights, y.astype(float)) / total])
    else:
        what, shares = "mean", root.prediction  # its median: not checked
    if (int((w > 0).sum()) != root.n_samples
            or not np.isclose(total, root.weighted_n_samples, rtol=TIE_RTOL)
            or not np.allclose(shares, root.prediction, rtol=TIE_RTOL, atol=TIE_ATOL)):
        raise ValueError(
            f"cp_table: X, y and sample_weight must be the rows the model was fitted on "
            f"({root.n_samples} rows of weight {root.weighted_n_samples:g}); these are "
            f"{int((w > 0).sum())} rows of weight {total:g}, or their {what} differ")


def _folds(folds, n: int, random_state) -> np.ndarray:
    """Each row's fold: given (one id per row), or K groups of nearly equal size assigned at
    random (rpart: ``sample(rep(1:K, length.out = n))``)."""
    if np.ndim(folds) == 0:
        k = check_integer(folds, "folds", 2)
        if k > n:
            raise ValueError(f"folds={k} is more than the {n} rows")
        return check_random_state(random_state).permutation(np.arange(n) % k)
    groups = np.asarray(folds)
    if groups.shape != (n,):
        raise ValueError(f"folds must be a number or one fold id per row ({n}), "
                         f"got shape {groups.shape}")
    if len(np.unique(groups)) < 2:
        raise ValueError("folds must name at least two folds")
    return groups
