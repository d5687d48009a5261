"""Boosting: many small trees, each fitted to what the ones before it got wrong.

==========================  ===================  ===========================================
estimator                   base tree (default)  each round
==========================  ===================  ===========================================
AdaBoostClassifier          CART stump           reweight the misclassified rows (SAMME)
GradientBoostingRegressor   CART, depth 3        fit the residuals y - F (squared error)
GradientBoostingClassifier  CART, depth 3        fit y_k - p_k; leaf values: Newton steps
==========================  ===================  ===========================================

The base learner is any ``dtree`` tree (or a scikit-learn estimator that takes
``sample_weight``), fitted to the rows as given: pandas categories and missing values are the
tree's business. Where the base trees coincide with scikit-learn's, so do the ensembles
(``tests/test_boosting.py``).
"""
from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit, logit, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone, is_regressor
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import check_random_state, get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from ._validation import (Integer, Interval, RandomState, check_params, check_sample_weight,
                          encode_labels)
from .sktree import impurity_decreases
from .tree import predict_values, ties

__all__ = ["AdaBoostClassifier", "GradientBoostingClassifier", "GradientBoostingRegressor"]

_PARAMETERS = {"n_estimators": Integer(1), "learning_rate": Interval(0, low_open=True),
               "subsample": Interval(0, 1, low_open=True), "random_state": RandomState()}


def _cart(kind: str, max_depth: int):
    from .estimators import CARTClassifier, CARTRegressor
    return (CARTClassifier if kind == "classifier" else CARTRegressor)(max_depth=max_depth)


def _one_column(y) -> np.ndarray:
    """y as a 1-D array; a single column with scikit-learn's DataConversionWarning."""
    if y is None:
        raise ValueError("requires y to be passed, but the target y is None")
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected; using its "
                      "single column", DataConversionWarning, stacklevel=3)
        y = y[:, 0]
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
    return y


def _in_bag(n: int, subsample: float, rng: np.random.RandomState) -> np.ndarray:
    """A mask of int(subsample n) rows (at least one, as scikit-learn) drawn without
    replacement."""
    if subsample == 1.0:
        return np.ones(n, dtype=bool)
    mask = np.zeros(n, dtype=bool)
    mask[rng.permutation(n)[:max(1, int(subsample * n))]] = True
    return mask


def _seeded(estimator, rng: np.random.RandomState):
    """A fresh copy of ``estimator`` whose ``random_state`` (if it has one) is drawn from
    ``rng``, as scikit-learn's ensembles seed their members."""
    member = clone(estimator)
    if "random_state" in member.get_params(deep=False):
        member.set_params(random_state=rng.randint(np.iinfo(np.int32).max))
    return member


def _tree_importance(tree) -> np.ndarray:
    """A fitted tree's impurity decreases, divided by its root's weight (scikit-learn's
    ``compute_feature_importances(normalize=False)``)."""
    root = getattr(tree.tree_, "root", tree.tree_)
    return impurity_decreases(root, tree.n_features_in_) / root.weighted_n_samples


class _Boosting(BaseEstimator):
    """What the three ensembles share: parameters, seeding, the fitted attributes."""

    _kind = "regressor"
    _default_depth = 3

    def _keep(self, **parameters) -> None:
        """Store the parameters as given (scikit-learn's rule for ``__init__``)."""
        self.__dict__.update(parameters)

    def _base(self):
        return _cart(self._kind, self._default_depth) if self.estimator is None else \
            self.estimator

    def _checked(self, sample_weight, n: int):
        if n == 0:
            raise ValueError("Found array with 0 sample(s) (y is empty) while a minimum of 1 is "
                             "required")
        p = check_params(self, _PARAMETERS)
        base = self._base()
        if not hasattr(base, "fit"):
            raise TypeError(f"estimator must be an estimator with fit, got {base!r}")
        if not has_fit_parameter(base, "sample_weight"):
            raise ValueError(f"{type(base).__name__} doesn't support sample_weight: boosting "
                             "reweights the rows")
        return p, base, check_sample_weight(sample_weight, n)

    def _store(self, first, **fitted) -> None:
        """Replace the fitted attributes, all at once (a failed fit left them as they were)."""
        for name in ("n_features_in_", "feature_names_in_"):
            self.__dict__.pop(name, None)
            if hasattr(first, name):
                setattr(self, name, getattr(first, name))
        self.__dict__.update(fitted)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags = get_tags(self._base()).input_tags
        return tags


class AdaBoostClassifier(ClassifierMixin, _Boosting):
    r"""AdaBoost for two or more classes: SAMME (Zhu, Zou, Rosset and Hastie 2009), which for
    two classes is Freund and Schapire's (1997) AdaBoost.M1.

    Start with weights :math:`w_i = 1/n` (or the given sample weights, normalised). In round
    m, fit the tree :math:`T_m` with weights w, then

    .. math::

        \begin{aligned}
        \mathrm{err}_m &= \frac{\sum_i w_i [T_m(x_i) \neq y_i]}{\sum_i w_i}, \\
        \alpha_m &= \eta\left(\log\frac{1 - \mathrm{err}_m}{\mathrm{err}_m}
                    + \log(K - 1)\right), \\
        w_i &\leftarrow w_i\, e^{\alpha_m [T_m(x_i) \neq y_i]}
        \end{aligned}

    and normalise w to sum 1 (η is ``learning_rate``, K the number of classes). A tree with
    no error ends boosting (it gets α = 1); a tree no better than chance
    (err >= 1 - 1/K, up to round-off: :func:`dtree.tree.ties`) is dropped and ends it. The
    prediction is the class of largest vote
    :math:`f_k(x) = \sum_m \alpha_m ([T_m(x) = k] - [T_m(x) \neq k]/(K-1))`, and
    ``predict_proba`` is softmax(f / (K - 1)) (Zhu et al. 2009, eq. 15). All of this is
    scikit-learn's ``AdaBoostClassifier`` (``sklearn/ensemble/_weight_boosting.py``),
    which equals this one when the base trees do, but for an error a rounding below chance
    (0.49999999999999994 for two classes, where exp and log of another CPU may give 0.5),
    on which scikit-learn goes on. Each tree is fitted with the weights w times n (a mean
    of 1 a row), so that a rule that counts weight as rows, such as J48's two rows a
    branch, still counts rows.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The weak learner, cloned each round; it must take ``sample_weight``. None: a stump,
        ``CARTClassifier(max_depth=1)``.
    n_estimators : int, default=50
        The largest number of rounds (fewer if boosting ends early).
    learning_rate : float, default=1.0
        η > 0, which multiplies every α.
    subsample : float, default=1.0
        The share of rows, drawn without replacement each round, that the tree is fitted
        on (the others get weight 0 in that fit; the error counts every row). 1: every row.
    random_state : int, numpy.random.RandomState or None, default=None
        Seeds the subsamples and each tree's own ``random_state``.

    Attributes
    ----------
    estimators_ : list
        The fitted trees, one a round.
    estimator_weights_ : numpy.ndarray of shape (n_estimators,)
        α of each round (0 after the last one fitted).
    estimator_errors_ : numpy.ndarray of shape (n_estimators,)
        err of each round (1 after the last one fitted).
    classes_ : numpy.ndarray of shape (n_classes,)
        The class labels, sorted.
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names (a DataFrame's), as scikit-learn's.
    """

    _kind = "classifier"
    _default_depth = 1

    def __init__(self, estimator=None, n_estimators: int = 50, learning_rate: float = 1.0,
                 subsample: float = 1.0, random_state=None):
        self._keep(estimator=estimator, n_estimators=n_estimators,
                   learning_rate=learning_rate, subsample=subsample, random_state=random_state)

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Boost on X (anything the base tree reads) and class labels y; returns self."""
        y = _one_column(y)
        p, base, w = self._checked(sample_weight, len(y))
        check_classification_targets(y)
        classes = np.unique(y)  # as the trees' classes_
        if len(classes) < 2:
            raise ValueError(f"y has 1 class ({classes[0]!r}): boosting needs at least 2 "
                             "classes")
        K = len(classes)
        rng = check_random_state(p.random_state)
        w = w / w.sum()
        zero = w == 0
        eps = np.finfo(float).eps
        trees, alphas, errors = [], np.zeros(p.n_estimators), np.ones(p.n_estimators)
        for m in range(p.n_estimators):
            w = np.where(zero, 0.0, np.maximum(w, eps))  # as scikit-learn (its issue 20320)
            tree = _seeded(base, rng)
            bag = _in_bag(len(y), p.subsample, rng)
            tree.fit(X, y, sample_weight=w * bag * len(y))  # mean weight 1: see the doc
            wrong = tree.predict(X) != y
            error = float(np.average(wrong, weights=w))
            if error <= 0:
                trees.append(tree)
                alphas[m], errors[m] = 1.0, 0.0
                break
            if ties(error, 1 - 1 / K):  # chance up to round-off (0.5 - 1 ulp) ends it too
                if not trees:
                    raise ValueError(f"the first tree's weighted error {error:.3g} is no "
                                     f"better than chance (1 - 1/K = {1 - 1 / K:.3g}): "
                                     "boosting cannot start")
                break
            alpha = p.learning_rate * (np.log((1 - error) / error) + np.log(K - 1))
            trees.append(tree)
            alphas[m], errors[m] = alpha, error
            if m == p.n_estimators - 1:
                break
            w = np.exp(np.log(np.where(zero, 1.0, w)) + alpha * wrong * ~zero) * ~zero
            total = w.sum()
            if not np.isfinite(total):
                warnings.warn(f"sample weights overflowed at round {m}; boosting stopped "
                              "there: lower the learning rate", RuntimeWarning, stacklevel=2)
                break
            w /= total
        self._store(trees[0], estimators_=trees, estimator_weights_=alphas,
                    estimator_errors_=errors, classes_=classes, n_classes_=K)
        return self

    def staged_decision_function(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """f(X) after each round, divided by the sum of the α so far: shape (n, K), or for
        two classes f_2 - f_1, shape (n,), as scikit-learn's."""
        check_is_fitted(self, "estimators_")
        K, total, votes = self.n_classes_, 0.0, 0.0
        for tree, alpha in zip(self.estimators_, self.estimator_weights_):
            hit = tree.predict(X)[:, None] == self.classes_
            votes = votes + np.where(hit, alpha, -alpha / (K - 1))
            total += alpha
            f = votes / total
            yield f[:, 1] - f[:, 0] if K == 2 else f

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """f(X) of all rounds (see ``staged_decision_function``)."""
        for f in self.staged_decision_function(X):
            pass
        return f

    def _proba(self, f: np.ndarray) -> np.ndarray:
        f = np.column_stack([-f, f]) / 2 if self.n_classes_ == 2 else f / (self.n_classes_ - 1)
        return softmax(f, axis=1)

    def _label(self, f: np.ndarray) -> np.ndarray:
        return self.classes_[(f > 0).astype(int) if f.ndim == 1 else f.argmax(axis=1)]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of largest vote f_k(x)."""
        return self._label(self.decision_function(X))

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """softmax(f(x) / (K - 1)), columns in the order of ``classes_``."""
        return self._proba(self.decision_function(X))

    def staged_predict(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """``predict`` after each round."""
        for f in self.staged_decision_function(X):
            yield self._label(f)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """``predict_proba`` after each round."""
        for f in self.staged_decision_function(X):
            yield self._proba(f)

    @property
    def feature_importances_(self) -> np.ndarray:
        """The trees' ``feature_importances_`` averaged with weights α (as scikit-learn)."""
        check_is_fitted(self, "estimators_")
        alphas = self.estimator_weights_[:len(self.estimators_)]
        return sum(a * t.feature_importances_ for a, t in zip(alphas, self.estimators_)) \
            / alphas.sum()


class _GradientBoosting(_Boosting):
    r"""Friedman's (2001) gradient boosting with trees. Start from the constant F_0 that
    minimises the loss; in round m fit a regression tree to the negative gradient
    :math:`r_i = -\partial L(y_i, F)/\partial F` at :math:`F_{m-1}(x_i)`, give each leaf R
    the value γ_R of one Newton step on the loss over its rows, and add it, shrunk:
    :math:`F_m = F_{m-1} + \eta\,\gamma_{R(x)}`."""

    def __init__(self, estimator=None, n_estimators: int = 100, learning_rate: float = 0.1,
                 subsample: float = 1.0, random_state=None):
        self._keep(estimator=estimator, n_estimators=n_estimators,
                   learning_rate=learning_rate, subsample=subsample, random_state=random_state)

    def _boost(self, X, targets: np.ndarray, w: np.ndarray, F: np.ndarray, p, base):
        """Fit the rounds; ``targets`` is (n, K) (y itself, or one-hot), F the initial raw
        scores (n, K), changed in place. Returns the trees, (rounds, K)."""
        if not is_regressor(base):
            raise TypeError(f"estimator must be a regressor (the trees fit gradients), got "
                            f"{type(base).__name__}")
        rng = check_random_state(p.random_state)
        rounds = np.empty((p.n_estimators, F.shape[1]), dtype=object)
        for m in range(p.n_estimators):
            bag = _in_bag(len(w), p.subsample, rng)
            grad, hess = self._gradient(targets, F)
            for k in range(F.shape[1]):
                tree = _seeded(base, rng).fit(X, grad[:, k], sample_weight=w * bag)
                tree = self._leaf_values(tree, X, grad[:, k], hess[:, k], w * bag, F.shape[1])
                F[:, k] += p.learning_rate * tree.predict(X)
                rounds[m, k] = tree
        return rounds

    def _leaf_values(self, tree, X, grad, hess, w, K: int):
        """The tree as fitted: its leaf means of the residuals are the Newton steps."""
        return tree

    def _staged_raw(self, X: ArrayLike) -> Iterator[np.ndarray]:
        check_is_fitted(self, "estimators_")
        predicted = _predictions_of(self.estimators_.ravel(), X)
        F = None
        for stage in self.estimators_:
            values = np.column_stack([predicted(tree) for tree in stage])
            F = (np.broadcast_to(self.init_, values.shape) if F is None else F) \
                + self.learning_rate * values
            yield F

    def _raw(self, X: ArrayLike) -> np.ndarray:
        for F in self._staged_raw(X):
            pass
        return F

    def _fitted(self, rounds, init, **more) -> None:
        self._store(rounds[0, 0], estimators_=rounds, init_=init, **more)

    @property
    def feature_importances_(self) -> np.ndarray:
        """Each tree's impurity decreases over its root weight, averaged over the trees with a
        split and normalised to sum 1 (scikit-learn's ``feature_importances_``)."""
        check_is_fitted(self, "estimators_")
        split = [_tree_importance(t) for t in self.estimators_.ravel() if t.get_depth() > 0]
        if not split:
            return np.zeros(self.n_features_in_)
        mean = np.mean(split, axis=0)
        return mean / mean.sum()


def _predictions_of(trees, X: ArrayLike):
    """A function giving a regression tree's ``predict(X)``: X checked and encoded once, by the
    first tree, for every ``dtree`` tree that learnt the same columns at fit (the same
    categories); another tree, or another library's regressor, reads X itself."""
    first = trees[0]
    if not hasattr(first, "_encoded"):
        return lambda tree: tree.predict(X)
    matrix = first._encoded(X)

    def predicted(tree) -> np.ndarray:
        if getattr(tree, "_features", None) != first._features:
            return tree.predict(X)
        return predict_values(tree._root, matrix, tree.predict_missing)[:, 0]
    return predicted


class GradientBoostingRegressor(RegressorMixin, _GradientBoosting):
    r"""Gradient boosting with the squared error :math:`L = \frac12 (y - F)^2` (Friedman
    2001, algorithm LS_Boost).

    :math:`F_0 = \bar y` (weighted); each round's tree is fitted to the residuals
    :math:`r_i = y_i - F_{m-1}(x_i)`, and its leaf means are already the Newton steps (the
    loss is quadratic), so :math:`F_m = F_{m-1} + \eta\,T_m(x)`. This is scikit-learn's
    ``GradientBoostingRegressor(loss="squared_error")`` (``sklearn/ensemble/_gb.py``),
    equal to it where the trees are.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The base tree, cloned each round; None: ``CARTRegressor(max_depth=3)``.
    n_estimators : int, default=100
        The number of rounds.
    learning_rate : float, default=0.1
        The shrinkage η > 0.
    subsample : float, default=1.0
        The share of rows drawn without replacement for each round's tree (Friedman 2002's
        stochastic gradient boosting); 1: every row.
    random_state : int, numpy.random.RandomState or None, default=None
        Seeds the subsamples and each tree's own ``random_state``.

    Attributes
    ----------
    estimators_ : numpy.ndarray of shape (n_estimators, 1)
        The fitted trees, one a round.
    init_ : float
        F_0.
    n_features_in_ : int
    feature_names_in_ : numpy.ndarray of shape (n_features,)
        X's column names (a DataFrame's), as scikit-learn's.
    """

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Boost on X (anything the base tree reads) and numeric targets y; returns self."""
        y = _one_column(y)
        if y.dtype.kind == "c":
            raise ValueError("Complex data not supported: y must be real numbers")
        try:
            y = y.astype(float)
        except (TypeError, ValueError):
            raise ValueError("y must be numbers for a regressor") from None
        if not np.isfinite(y).all():
            raise ValueError("y contains NaN or infinity; every row needs a finite target")
        p, base, w = self._checked(sample_weight, len(y))
        init = float(np.average(y, weights=w))
        rounds = self._boost(X, y[:, None], w, np.full((len(y), 1), init), p, base)
        self._fitted(rounds, init)
        return self

    @staticmethod
    def _gradient(targets, F):
        """The residuals, and the second derivative of the squared error (1; unused: the
        tree's leaf means are the Newton steps)."""
        return targets - F, np.ones_like(F)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """F(x) = F_0 + η Σ_m T_m(x)."""
        return self._raw(X)[:, 0]

    def staged_predict(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """``predict`` after each round."""
        for F in self._staged_raw(X):
            yield F[:, 0]


class GradientBoostingClassifier(ClassifierMixin, _GradientBoosting):
    r"""Gradient boosting with the log-loss (Friedman 2001, algorithms L2_TreeBoost and, for K
    classes, K-class TreeBoost).

    Two classes: F is the log-odds, :math:`p = 1/(1 + e^{-F})`, :math:`F_0 = \log(\pi/(1-\pi))`
    for the weighted share π of the second class; each round's tree is fitted to
    :math:`r_i = y_i - p_i` and each leaf R gets the Newton step

    .. math:: \gamma_R = \frac{\sum_{i \in R} w_i (y_i - p_i)}{\sum_{i \in R} w_i p_i (1 - p_i)}.

    K > 2 classes: one score F_k per class, p = softmax(F), :math:`F_{0k} = \log \pi_k -
    \frac1K\sum_j \log\pi_j`; each round fits K trees, tree k to :math:`y_{ik} - p_{ik}`, with
    leaf values :math:`\frac{K-1}{K}\sum w (y_k - p_k) / \sum w p_k (1 - p_k)` (Friedman 2001,
    eq. 32). A leaf whose denominator is below 1e-150 gets 0. This is scikit-learn's
    ``GradientBoostingClassifier(loss="log_loss")`` (``_update_terminal_regions`` in
    ``sklearn/ensemble/_gb.py``), equal to it where the trees are. The trees are regression
    trees whose leaves hold these γ (as scikit-learn's do), so ``predict`` returns them.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The base tree, cloned for each round and class; None: ``CARTRegressor(max_depth=3)``.
    n_estimators, learning_rate, subsample, random_state
        As in :class:`GradientBoostingRegressor`.

    Attributes
    ----------
    estimators_ : numpy.ndarray of shape (n_estimators, 1) or (n_estimators, n_classes)
        The fitted trees: one a round for two classes, else one a round and class.
    init_ : numpy.ndarray of shape (1,) or (n_classes,)
        F_0.
    classes_ : numpy.ndarray of shape (n_classes,)
        The class labels, sorted; ``n_classes_`` is their number.
    n_features_in_ : int
        The number of X's columns; ``feature_names_in_`` holds their names (a DataFrame's).
    """

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Boost on X (anything the base tree reads) and class labels y; returns self."""
        y = _one_column(y)
        p, base, w = self._checked(sample_weight, len(y))
        check_classification_targets(y)
        codes, classes = encode_labels(y)
        K = len(classes)
        if K < 2:
            raise ValueError(f"y has 1 class ({classes[0]!r}): boosting needs at least 2 "
                             "classes")
        prior = np.clip(np.bincount(codes, weights=w, minlength=K) / w.sum(),
                        np.finfo(float).eps, 1 - np.finfo(float).eps)
        if K == 2:
            init, targets = np.array([logit(prior[1])]), codes[:, None].astype(float)
        else:
            init, targets = np.log(prior) - np.log(prior).mean(), np.eye(K)[codes]
        rounds = self._boost(X, targets, w, np.tile(init, (len(y), 1)), p, base)
        self._fitted(rounds, init, classes_=classes, n_classes_=K)
        return self

    @staticmethod
    def _gradient(targets, F):
        prob = expit(F) if F.shape[1] == 1 else softmax(F, axis=1)
        return targets - prob, prob * (1 - prob)

    def _leaf_values(self, tree, X, grad, hess, w, K: int):
        """A copy of the fitted tree whose every node holds the Newton step over the training
        rows (of positive weight) that reach it, 0 if they have no curvature (K: the trees
        per round, 1 for two classes). The copy, unlike the tree, has no laid-out predictions
        to refresh (a deep copy lays its tree out again when it first predicts)."""
        path = tree.decision_path(X)  # rows x nodes, in pre-order as root.walk()
        numerator, denominator = path.T @ (w * grad), path.T @ (w * hess)
        safe = np.abs(denominator) >= 1e-150  # scikit-learn's _safe_divide
        step = np.where(safe, numerator / np.where(safe, denominator, 1.0), 0.0)
        if K > 1:
            step *= (K - 1) / K
        for node, value in zip(getattr(tree.tree_, "root", tree.tree_).walk(), step):
            node.value = np.full_like(node.value, value)
            node.prediction = np.full_like(node.prediction, value)
        return copy.deepcopy(tree)

    def _proba(self, F: np.ndarray) -> np.ndarray:
        if F.shape[1] == 1:
            p1 = expit(F[:, 0])
            return np.column_stack([1 - p1, p1])
        return softmax(F, axis=1)

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The raw scores F(x): the log-odds (shape (n,)) for two classes, else (n, K)."""
        F = self._raw(X)
        return F[:, 0] if F.shape[1] == 1 else F

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """expit(F) for two classes, softmax(F) for K; columns in the order of ``classes_``."""
        return self._proba(self._raw(X))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The most probable class."""
        prob = self.predict_proba(X)  # NotFittedError first
        return self.classes_[prob.argmax(axis=1)]

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """``predict_proba`` after each round."""
        for F in self._staged_raw(X):
            yield self._proba(F)

    def staged_predict(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """``predict`` after each round."""
        for prob in self.staged_predict_proba(X):
            yield self.classes_[prob.argmax(axis=1)]
