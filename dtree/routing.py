"""The routing rule: which branch a row takes at a node, written once.

A row goes down the branch of its tested value (:func:`branch_of`). Where that value is missing
(NaN; an encoded value unseen at fit is NaN too), or its category has no branch at the node,
:func:`route_missing` decides: the first of the node's surrogate splits that can place the row
(CART; Breiman et al. 1984, sec. 5.3; rpart's ``nodesplit``), else the node's *detour*
(:func:`detour`): its missing-value branch (C4.5's own branch for missing values), else its
learned side (CART's ``missing="learn"``, scikit-learn's ``missing_go_to_left``), else the
majority branch while the tree grows (rpart's ``surrogate.c``) or the larger child at prediction
(rpart's ``pred_rpart.c``), else, at prediction with ``predict_missing="most_frequent"``, the
branch of largest training fraction. A row without a detour goes down every branch by its
fraction (``SPREAD``; Quinlan 1993, ch. 3) or stays at the node (``STAY``; rpart on a tie, and
``predict_missing="stop"``). A grown node has surrogates or a missing-value branch or a learned
side, never two of them.

The two kernels are the rule, compiled: prediction (:func:`dtree.kernels.predict_rows`),
error-based pruning and :func:`route_rows` call them in their loops, and
:func:`dtree.tree.branches` calls :func:`route_rows` for the rows at a node. (A kernel of both
steps, inlined into those loops, took every routing array as an argument, which numba counts a
reference to on each call: prediction took four times as long.) They read the tree as arrays
over its nodes (``dtree.tree.RoutingArrays``).
"""
from __future__ import annotations

import math

import numpy as np

from .jit import kernel

__all__ = ["SPREAD", "STAY", "branch_of", "route_missing", "route_rows", "detour", "otherwise"]

#: the two answers of :func:`route_missing` that are not a branch: every branch, by fraction;
#: or none, the row stays at the node
SPREAD, STAY = -1, -2


@kernel(inline=True)  # compiled, inlined into the loops that call it
def branch_of(value, threshold, codes, first):
    """The branch of a value: for a threshold split 0 if value <= threshold else 1; for a
    split on categories (``threshold`` NaN) ``codes[first + code]``, the branch of its
    category code, or with ``first`` negative bit ``code`` of two bit masks, of the codes
    with a branch (``codes[~first]``) and of those of branch 1 (``codes[~first + 1]``): a
    binary split as prediction lays it out (``dtree.tree.RoutingArrays``), a shift where a
    load would wait for the value. -1 if the value is missing or its category has no branch."""
    if math.isnan(value):
        return -1
    if first < 0:  # two bit masks
        code = int(value)
        placed = (codes[~first] >> code) & 1
        return (codes[~first + 1] >> code) & 1 if placed else -1
    if value <= threshold:  # jumps, not selects: the way down goes on before they are decided
        return 0
    if value > threshold:
        return 1
    return codes[first + int(value)]


@kernel(inline=True)
def route_missing(X, row, node, codes, surrogates, surrogate_table, surrogate_threshold, detour,
                  unplaced):
    """The branch that row ``row`` of ``X`` (a row per sample) takes at internal node ``node``
    where :func:`branch_of` does not place it: the first of the node's surrogate splits that
    can, else the node's detour, else ``unplaced`` (SPREAD or STAY, :func:`otherwise`).

    Node i's surrogate splits are numbers ``surrogates[i, 0]`` to ``surrogates[i, 1] - 1``: row
    s of ``surrogate_table`` holds a surrogate's column, whether it is reversed (``value > t``
    goes left) and where its category map starts in ``codes``; ``surrogate_threshold[s]`` its
    threshold (NaN for categories). ``detour[i]`` is the node's detour, -1 for none."""
    for k in range(surrogates[node, 0], surrogates[node, 1]):
        b = branch_of(X[row, surrogate_table[k, 0]], surrogate_threshold[k], codes,
                      surrogate_table[k, 2])
        if b >= 0:
            return 1 - b if surrogate_table[k, 1] == 1 else b
    return detour[node] if detour[node] >= 0 else unplaced


@kernel
def route_rows(X, rows, node, feature, threshold, codes, code_start, surrogates,
               surrogate_table, surrogate_threshold, detour, unplaced):
    """The branch each of ``rows`` of ``X`` takes at internal node ``node``: the routing rule,
    :func:`branch_of` of its value at column ``feature[node]`` (``threshold[node]``, or the
    category map from ``codes[code_start[node]]``), else :func:`route_missing`."""
    branch = np.empty(len(rows), np.int64)
    for i in range(len(rows)):
        b = branch_of(X[rows[i], feature[node]], threshold[node], codes, code_start[node])
        branch[i] = b if b >= 0 else route_missing(
            X, rows[i], node, codes, surrogates, surrogate_table, surrogate_threshold, detour,
            unplaced)
    return branch


def detour(missing_branch: np.ndarray, missing_side: np.ndarray, larger: np.ndarray,
           majority: np.ndarray, at_fit: bool, most_frequent: np.ndarray | None = None
           ) -> np.ndarray:
    """Per node, the branch a row takes that neither its value nor a surrogate places: the
    missing-value branch, else the learned side, else the majority branch (``at_fit``) or the
    larger child, else the ``most_frequent`` branch if given; -1 where there is none. The
    columns hold a branch per node, NaN for none."""
    columns = [missing_branch, missing_side, majority if at_fit else larger]
    chosen = np.full(len(missing_branch), np.nan)
    for column in reversed(columns if most_frequent is None else columns + [most_frequent]):
        chosen = np.where(np.isnan(column), chosen, column)
    return np.where(np.isnan(chosen), -1, chosen).astype(np.int64)


def otherwise(predict_missing: str) -> int:
    """What a row gets that nothing places at a node (:func:`route_missing`'s ``unplaced``):
    it stays there with ``predict_missing="stop"``, else it goes down every branch."""
    return STAY if predict_missing == "stop" else SPREAD
