"""Class probabilities from a leaf's class weights: the frequencies, the Laplace estimate or the
m-estimate (the classifiers' ``probability`` and ``m`` parameters).

A leaf's class frequencies n_k / N are poor probabilities when N is small: a leaf of 2 rows
says 1 or 0. The Laplace estimate (n_k + 1) / (N + K) pulls them towards 1/K, the m-estimate
(n_k + m b_k) / (N + m) towards the base rates b_k, the classes' shares in the training data
(Cestnik 1990; Zadrozny & Elkan 2001); Provost & Domingos (2003) rank with unpruned trees and
the Laplace estimate.
"""
from __future__ import annotations

import numpy as np

from .tree import Node, copy_tree

__all__ = ["PROBABILITY", "class_probabilities", "smoothed_tree"]

#: the estimates the classifiers' ``probability`` parameter names
PROBABILITY = ("frequency", "laplace", "m-estimate")


def class_probabilities(counts, probability: str = "frequency", m: float = 2.0,
                        base_rates=None) -> np.ndarray:
    """A node's class probabilities from its class weights ``counts`` n_k (N their sum, K
    their number)::

        frequency:   n_k / N
        laplace:     (n_k + 1) / (N + K)
        m-estimate:  (n_k + m b_k) / (N + m)

    ``base_rates`` b_k (summing to 1) are the m-estimate's prior; None for 1/K, with which
    m = K is the Laplace estimate (Cestnik 1990; Provost & Domingos 2003, eq. 1).

    Examples
    --------
    A leaf of 3 rows, all of the first of two classes:

    >>> class_probabilities([3, 0], "laplace").tolist()
    [0.8, 0.2]
    >>> class_probabilities([3, 0], "m-estimate", m=4, base_rates=[0.25, 0.75]).tolist()
    [0.5714285714285714, 0.42857142857142855]
    """
    counts = np.asarray(counts, dtype=float)
    k = counts.shape[-1]
    if probability == "frequency":
        return counts / counts.sum(axis=-1, keepdims=True)
    if probability == "laplace":
        return (counts + 1) / (counts.sum(axis=-1, keepdims=True) + k)
    if probability == "m-estimate":
        b = np.full(k, 1 / k) if base_rates is None else np.asarray(base_rates, dtype=float)
        return (counts + m * b) / (counts.sum(axis=-1, keepdims=True) + m)
    raise ValueError(f"probability must be one of {PROBABILITY}, got {probability!r}")


def smoothed_tree(root: Node, probability: str, m: float = 2.0) -> Node:
    """A copy of the tree below ``root`` whose every node's ``prediction`` is
    :func:`class_probabilities` of its class weights, N p_k (N the node's weight, p_k its
    ``prediction``: the class shares, or with CART's priors the prior-weighted ones), the
    m-estimate's base rates being the root's prediction. A node no training weight reached
    takes its parent's estimate, as it takes its parent's frequencies. The tree as grown is
    not changed; predicting on the copy mixes the leaves' estimates as it mixes their
    frequencies (a row sent down several branches)."""
    copy = copy_tree(root)
    base = copy.prediction
    stack = [(copy, base)]
    while stack:
        node, parent = stack.pop()
        weight = float(node.weighted_n_samples)
        node.prediction = (class_probabilities(node.prediction * weight, probability, m, base)
                           if weight > 0 else parent)
        stack.extend((child, node.prediction) for child in node.children)
    return copy
