"""A fitted tree read as rules: one ``if ... then ...`` rule per leaf.

The path from the root to a leaf is a conjunction of tests, and the leaf's class (or value) is
the rule's conclusion (Quinlan 1993, ch. 5, which goes on to simplify such rules). Each rule
carries its *cover*, the weight of the training rows that reach its leaf, and for a classifier
its *confidence*, the share of that weight in the predicted class. Two tests of one numeric
attribute on a path are merged into one interval, and of nested category sets the innermost is
kept, so that a rule names each attribute once.

The rules describe rows whose tested values are known; a row with a missing value follows the
model's own rule for it (fractions, surrogates or a learned side), which ``predict`` applies.

:func:`dtree.simplify_rules` and :class:`dtree.RuleListClassifier` go on as C4.5rules does
(Quinlan 1993, ch. 5): each rule drops conditions while its pessimistic error rate does not
rise, the rules are grouped by class, the classes ordered by their false positives, a default
class added, and a rule whose omission lowers the training errors dropped.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted

from ._validation import Interval
from .export import decision_loss, fitted_tree, leaf_paths, predicted_class, weight_text
from .pruning import added_errors
from .tree import SPREAD, Node, most_probable, value_branches

__all__ = ["Rule", "tree_rules", "export_rules", "simplify_rules", "RuleListClassifier"]


@dataclass(frozen=True)
class Rule:
    """One leaf as a rule: ``conditions`` (each as "texture = clear", "0.38 < density <= 0.5",
    "color in {black, green}"), what it ``predicts``, its ``cover`` (the weight of the training
    rows at the leaf), its ``confidence`` (the predicted class's share of that weight; None for
    a regressor) and its ``leaf``, the node id ``apply`` gives."""

    conditions: tuple[str, ...]
    predicts: object
    cover: float
    confidence: float | None
    leaf: int

    def __str__(self) -> str:
        test = " and ".join(self.conditions) or "always"
        if self.confidence is None:  # a regressor's value
            return f"if {test} then {self.predicts:.4g} (cover {weight_text(self.cover)})"
        return (f"if {test} then {self.predicts} (cover {weight_text(self.cover)}, "
                f"confidence {self.confidence:.3f})")


def tree_rules(model) -> list[Rule]:
    """The rules of ``model``'s fitted tree, one per leaf, left to right (the order of
    ``apply``'s leaf ids). A leaf no training row reached (an empty branch) has cover 0, and
    predicts as its parent, with the parent's confidence.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.

    Returns
    -------
    list of Rule

    Examples
    --------
    >>> from dtree import CARTClassifier
    >>> from dtree.rules import tree_rules
    >>> model = CARTClassifier().fit([[1], [2], [3], [4]], ["no", "no", "yes", "yes"])
    >>> print(*tree_rules(model), sep="\\n")
    if x0 <= 2.5 then no (cover 2, confidence 1.000)
    if x0 > 2.5 then yes (cover 2, confidence 1.000)
    """
    root = fitted_tree(model)
    classes, loss = getattr(model, "classes_", None), decision_loss(model)
    ids, read = root.numbers(), {}
    rules = []
    for node, path in leaf_paths(root):
        if classes is None:
            predicts, confidence = float(node.prediction[0]), None
        else:
            predicts = predicted_class(node, classes, loss)
            confidence = float(node.prediction[most_probable(node.prediction, loss)])
        rules.append(Rule(_conditions(path, read), predicts, float(node.weighted_n_samples),
                          confidence, ids[id(node)]))
    return rules


def export_rules(model) -> str:
    """The rules of :func:`tree_rules`, one a line; of a fitted :class:`RuleListClassifier`,
    its rule list in order, ending with the default class."""
    if isinstance(model, RuleListClassifier):
        check_is_fitted(model, "rules_")
        return "\n".join([*map(str, model.rules_), f"otherwise {model.default_class_}"])
    return "\n".join(map(str, tree_rules(model)))


def _conditions(path: tuple[tuple[Node, int], ...], read: dict | None = None
                ) -> tuple[str, ...]:
    """The tests of a path (each node with the branch taken), one per attribute, in the order
    the attributes are first tested: a numeric attribute's thresholds as the interval they
    leave, else the innermost test (each set of categories on a path lies inside the one above
    it). ``read`` keeps each node's test as read (:func:`_test_of`) for the next path."""
    read = {} if read is None else read
    lower: dict[str, float] = {}
    upper: dict[str, float] = {}
    last: dict[str, str] = {}
    for node, branch in path:
        if id(node) not in read:
            read[id(node)] = _test_of(node)
        feature, threshold, labels = read[id(node)]
        last.setdefault(feature, "")
        if threshold is not None and branch < 2:
            bound = lower if branch else upper
            keep = max if branch else min
            bound[feature] = keep(bound.get(feature, threshold), threshold)
        else:
            last[feature] = f"{feature} {labels[branch]}"
    conditions = []
    for feature, test in last.items():
        low, high = lower.get(feature), upper.get(feature)
        if low is not None and high is not None:
            conditions.append(f"{low:g} < {feature} <= {high:g}")
        elif high is not None:
            conditions.append(f"{feature} <= {high:g}")
        elif low is not None:
            conditions.append(f"{feature} > {low:g}")
        if test:
            conditions.append(test)
    return tuple(conditions)


def _test_of(node: Node) -> tuple[str, float | None, list[str]]:
    """A node's test as :func:`_conditions` reads it: the attribute's name, the threshold
    (None unless a finite number) and the branches' labels (:meth:`dtree.Node.branch_labels`)."""
    threshold = node.threshold
    return (str(node.feature), threshold if threshold is not None and np.isfinite(threshold)
            else None, node.branch_labels())


# ------------------------------------------------------------------ C4.5rules (Quinlan 1993, ch. 5)
def _holds(test: tuple[Node, int], encoded: np.ndarray) -> np.ndarray:
    """Which rows of ``encoded`` (the encoded data, C order) pass one test of a
    path, (node, branch), as the rule reads it: by the tested value; a missing value (or a
    category the node has no branch for) passes only a branch that says "is missing" or
    "or missing"."""
    node, branch = test
    taken = value_branches(node, encoded, np.arange(len(encoded)))
    side = node.missing_side if node.missing_branch is None else node.missing_branch
    if side is not None:
        taken[taken == SPREAD] = side
    return taken == branch


def _pessimistic_rate(covered: np.ndarray, right: np.ndarray, w: np.ndarray,
                      confidence: float) -> float:
    """A rule's pessimistic error rate U_CF(E, N) = (E + added_errors(N, E, CF)) / N on the rows
    it ``covered`` (N their weight, E that of those not ``right``); infinite if it covers none."""
    n = float(w[covered].sum())
    if n <= 0:
        return np.inf
    errors = n - float(w[covered & right].sum())
    return (errors + added_errors(n, errors, confidence)) / n


def _generalized(tests: list[tuple[Node, int]], passes: np.ndarray, right: np.ndarray,
                 w: np.ndarray, confidence: float) -> list[int]:
    """The tests (indices into ``tests``; ``passes[i]`` the rows passing test i) that a rule
    keeps: while dropping one does not raise its pessimistic error rate, drop the one whose
    absence gives the lowest rate, the first on a tie (Quinlan 1993, sec. 5.1)."""
    kept = list(range(len(tests)))

    def rate(indices: list[int]) -> float:
        return _pessimistic_rate(passes[indices].all(axis=0), right, w, confidence)

    current = rate(kept)
    while kept:
        rates = [rate(kept[:i] + kept[i + 1:]) for i in range(len(kept))]
        best = int(np.argmin(rates))
        if rates[best] > current:
            break
        current = rates[best]
        del kept[best]
    return kept


def _simplified(model, X, y, sample_weight, confidence: float):
    """:func:`simplify_rules`, with each rule's tests and the encoded data for the callers."""
    root = fitted_tree(model)
    if getattr(model, "classes_", None) is None:
        raise TypeError(f"C4.5rules reads a classifier's tree, not a {type(model).__name__}'s: "
                        "a rule's error rate counts the rows not of its class")
    classes, loss = model.classes_, decision_loss(model)
    matrix, codes = model.encode(X, y)
    encoded = np.ascontiguousarray(matrix)
    w = np.ones(len(codes)) if sample_weight is None else np.asarray(sample_weight, float)
    ids, read = root.numbers(), {}
    rules, seen = [], set()
    for leaf, path in leaf_paths(root):
        k = int(most_probable(leaf.prediction, loss))
        passes = np.array([_holds(test, encoded) for test in path]).reshape(len(path), len(codes))
        kept = [path[i] for i in _generalized(list(path), passes, codes == k, w, confidence)]
        text = _conditions(tuple(kept), read)
        if not kept or (text, k) in seen:  # C4.5rules leaves a rule without tests to the default
            continue
        seen.add((text, k))
        covered = np.all([_holds(test, encoded) for test in kept], axis=0)
        cover = float(w[covered].sum())
        share = float(w[covered & (codes == k)].sum()) / cover if cover else 0.0
        rules.append((Rule(text, classes[k], cover, share, ids[id(leaf)]), tuple(kept)))
    return rules, encoded, codes, w


def simplify_rules(model, X, y, sample_weight=None, confidence: float = 0.25) -> list[Rule]:
    """C4.5rules' first step (Quinlan 1993, sec. 5.1): each leaf's rule (:func:`tree_rules`)
    drops conditions while its pessimistic error rate on the rows (X, y) does not rise,

        U_CF(E, N) = (E + added_errors(N, E, CF)) / N,

    N being the weight of the rows that satisfy the rule's other conditions and E that of
    those not of its class (:func:`dtree.pruning.added_errors`, C4.5's upper confidence limit);
    at each step the condition whose absence gives the lowest rate goes. A rule left without
    conditions, or repeating an earlier one, is dropped. Cover and confidence are then those
    of the rows (X, y) that satisfy the kept conditions; ``leaf`` is the rule's leaf.

    Parameters
    ----------
    model : estimator
        A fitted classifier of ``dtree``.
    X : pandas.DataFrame or array-like
        The training rows, as at fit.
    y : array-like
        Their classes.
    sample_weight : array-like or None, default=None
    confidence : float in (0, 0.5], default=0.25
        C4.5's CF.

    Returns
    -------
    list of Rule
        In the order of the leaves.
    """
    confidence = Interval(0, 0.5, low_open=True)(confidence, "confidence")
    return [rule for rule, _ in _simplified(model, X, y, sample_weight, confidence)[0]]


class RuleListClassifier(ClassifierMixin, BaseEstimator):
    """C4.5rules (Quinlan 1993, ch. 5): a tree read as an ordered list of rules.

    ``fit`` grows ``estimator`` (default: C4.5's unpruned tree, ``C45Classifier.j48(
    pruning=None)``), reads a rule off each leaf and simplifies it (:func:`simplify_rules`).
    The rules are grouped by class and the classes ordered by their false positives, fewest
    first (the weight of training rows a class's rules cover that are of another class); the
    default class is the class with the most training weight that no rule covers (the most
    frequent class on a tie, or if every row is covered). Then, while omitting a rule lowers
    the list's training errors, the first such rule is omitted and the default chosen again
    (sec. 5.4). ``predict`` answers with the first rule whose conditions hold, else the
    default. C4.5rules also chooses each class's subset of rules by minimum description length
    (sec. 5.2); that step is not done here: every simplified rule stays unless the last step
    omits it.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The ``dtree`` classifier whose tree is read (cloned); None for
        ``C45Classifier.j48(pruning=None)``.
    confidence : float in (0, 0.5], default=0.25
        C4.5's CF for the pessimistic error rate.

    Attributes
    ----------
    estimator_ : estimator
        The fitted tree.
    rules_ : list of Rule
        The rule list, in order; cover and confidence on the training rows.
    default_class_ : object
        The class of a row that no rule covers.
    classes_ : numpy.ndarray
        The class labels, sorted.
    n_features_in_ : int
        The number of columns of X at fit.
    feature_names_in_ : numpy.ndarray
        X's column names, if X was a DataFrame with string names.

    Examples
    --------
    >>> import pandas as pd
    >>> from dtree.rules import RuleListClassifier, export_rules
    >>> X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6]})
    >>> model = RuleListClassifier().fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> print(export_rules(model))
    if x <= 3 then a (cover 3, confidence 1.000)
    if x > 3 then b (cover 3, confidence 1.000)
    otherwise a
    """

    _parameters = {"confidence": Interval(0, 0.5, low_open=True)}

    def __init__(self, estimator=None, confidence: float = 0.25):
        self.estimator = estimator
        self.confidence = confidence

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y) and read the rule list off it; see the class."""
        confidence = self._parameters["confidence"](self.confidence, "confidence")
        tree = self._tree().fit(X, y, sample_weight=sample_weight)
        rules, encoded, codes, w = _simplified(tree, X, y, sample_weight, confidence)
        passes = np.array([np.all([_holds(t, encoded) for t in tests], axis=0)
                           for _, tests in rules]).reshape(len(rules), len(encoded))
        n_classes = len(tree.classes_)
        k = np.array([int(np.flatnonzero(tree.classes_ == r.predicts)[0]) for r, _ in rules],
                     dtype=int)
        wrong = np.array([(passes[i] & (codes != k[i])) @ w for i in range(len(rules))])
        false_positives = [w[(passes[k == c].any(axis=0)) & (codes != c)].sum()
                           for c in range(n_classes)]
        order = sorted(range(len(rules)), key=lambda i: (false_positives[k[i]], k[i],
                                                          wrong[i] / max(rules[i][0].cover, 1e-12)))
        total = np.bincount(codes, weights=w, minlength=n_classes)
        order, default = self._polished(order, passes, k, codes, w, total)
        self.estimator_ = tree
        self.classes_ = tree.classes_
        self.n_features_in_ = tree.n_features_in_
        if hasattr(tree, "feature_names_in_"):
            self.feature_names_in_ = tree.feature_names_in_
        self.rules_ = [rules[i][0] for i in order]
        self._tests = [rules[i][1] for i in order]
        self.default_class_ = self.classes_[default]
        return self

    def _tree(self):
        """A new, unfitted copy of the tree to read."""
        if self.estimator is None:
            from .estimators import C45Classifier  # estimators imports nothing from here
            return C45Classifier.j48(pruning=None)
        return clone(self.estimator)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags = self._tree().__sklearn_tags__().input_tags  # the tree reads X
        return tags

    @staticmethod
    def _default(order, passes, codes, w, total) -> int:
        """The class with most weight among the rows no rule of ``order`` covers (the most
        frequent on a tie or if every row is covered)."""
        left = ~passes[order].any(axis=0) if order else np.ones(len(codes), bool)
        uncovered = np.bincount(codes[left], weights=w[left], minlength=len(total))
        if not uncovered.any():
            uncovered = total
        best = np.flatnonzero(uncovered == uncovered.max())
        return int(best[np.argmax(total[best])])

    def _polished(self, order, passes, k, codes, w, total) -> tuple[list[int], int]:
        """Omit, while one exists, the first rule whose omission lowers the training errors
        (the default chosen again each time); the order left and the default class's code."""
        def errors(order):
            default = self._default(order, passes, codes, w, total)
            answer = np.full(len(codes), default)
            for i in reversed(order):  # the first rule that holds answers
                answer[passes[i]] = k[i]
            return float(w[answer != codes].sum()), default

        current, default = errors(order)
        while True:
            for j in range(len(order)):
                shorter = order[:j] + order[j + 1:]
                fewer, shorter_default = errors(shorter)
                if fewer < current - 1e-9:
                    order, current, default = shorter, fewer, shorter_default
                    break
            else:
                return order, default

    def predict(self, X):
        """The class of the first rule whose conditions hold for the row, else the default."""
        check_is_fitted(self, "rules_")
        encoded = np.ascontiguousarray(self.estimator_._encoded(X))
        answer = np.full(len(encoded), len(self.rules_), dtype=int)
        for i in reversed(range(len(self.rules_))):
            answer[np.all([_holds(t, encoded) for t in self._tests[i]], axis=0)] = i
        labels = np.array([r.predicts for r in self.rules_] + [self.default_class_],
                          dtype=self.classes_.dtype)
        return labels[answer]
