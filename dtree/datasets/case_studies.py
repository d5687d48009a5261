"""The experiments of chapters 12 and 13, run once and stored: their fold scores.

Chapter 12 compares the book's trees by ten times repeated ten-fold cross-validation on every
row of six UCI data sets, and on adult's official train/test split; chapter 13 compares bagging
and forests of CART trees the same way. That is thousands of fits, more than a chapter may
spend each time it runs (twice in CI), so this module computes the scores and writes them to
``data/case_studies/`` beside it, and the chapters read them (:func:`stored`). Recompute with

    python -m dtree.datasets.case_studies [folds] [adult] [missing] [ensembles]

(no argument: all four; about ten minutes on two cores). ``tests/test_case_studies.py`` checks
that a fresh run on one data set gives the stored scores exactly. Every seed is fixed.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.dummy import DummyClassifier
from sklearn.impute import SimpleImputer
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

from . import load_adult, load_arff, load_car, load_mushroom, load_tic_tac_toe

__all__ = ["DATA_SETS", "CREDIT_LOSS", "CV", "data_sets", "methods", "fold_scores",
           "adult_scores", "missing_strategies", "missing_scores", "ensemble_scores",
           "stored", "STORED"]

#: where the scores are stored (package data, so that the chapters run on Colab too)
STORED = Path(__file__).parent / "data" / "case_studies"
DATA_SETS = ("mushroom", "tic-tac-toe", "car", "vote", "breast-cancer", "credit-g")
#: ten folds repeated ten times (Bouckaert and Frank 2004), the same folds for every method
CV = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
#: credit-g's cost matrix (Hofmann's, in the data set's documentation), rows the true class,
#: columns the answer, classes in sorted order (bad, good): a bad risk called good costs 5,
#: a good risk called bad costs 1
CREDIT_LOSS = np.array([[0.0, 5.0], [1.0, 0.0]])


def data_sets() -> dict[str, tuple[pd.DataFrame, pd.Series]]:
    """Every row of the six data sets below 10,000 rows, as (X, y)."""
    loaders = {"mushroom": load_mushroom, "tic-tac-toe": load_tic_tac_toe, "car": load_car,
               **{name: (lambda name=name, **kw: load_arff(name, **kw))
                  for name in ("vote", "breast-cancer", "credit-g")}}
    return {name: loaders[name](return_X_y=True) for name in DATA_SETS}


def _sklearn_tree():
    # scikit-learn's tree reads numbers only: one column per category (a missing value a
    # category of its own), numeric columns as they are
    encode = make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), make_column_selector(dtype_include="category")),
        remainder="passthrough")
    return make_pipeline(encode, DecisionTreeClassifier(random_state=0))


def methods(numeric: bool = False) -> dict:
    """The compared methods, by the names the chapter uses; ID3's only if ``numeric`` is
    False (ID3 has no rule for numbers)."""
    from .. import C45Classifier as C45, CARTClassifier as CART, ID3Classifier as ID3
    pruners = {"": None, " validation": "validation", " reduced-error": "reduced_error",
               " pessimistic": "pessimistic", " error-based": "error_based"}
    return {
        "majority": DummyClassifier(strategy="prior"),
        **({} if numeric else {f"ID3{name}": ID3(missing="fractional", pruning=p,
                                                 random_state=0)
                               for name, p in pruners.items()}),
        **{f"C4.5{name}": C45(pruning=p, random_state=0) for name, p in pruners.items()},
        "J48 unpruned": C45(variant="j48", min_samples_leaf=2),
        "J48": C45.j48(),
        "J48 reduced-error": C45.j48(pruning="reduced_error", prune_on_tie=True,
                                     random_state=0),
        "J48 pessimistic": C45.j48(pruning="pessimistic"),
        "CART": CART(),
        "CART validation": CART(pruning="validation", random_state=0),
        "CART 1-SE": CART(ccp_alpha="1se", random_state=0),
        "scikit-learn": _sklearn_tree(),
    }


def _leaves(model) -> int:
    tree = model[-1] if hasattr(model, "steps") else model
    if isinstance(tree, DummyClassifier):
        return 1
    return int(tree.get_n_leaves())


def _auc(y, proba, classes) -> float:
    # two classes: the area under the ROC curve; more: the mean of one-vs-rest areas
    if len(classes) == 2:
        return float(roc_auc_score(y == classes[1], proba[:, 1]))
    return float(roc_auc_score(y, proba, multi_class="ovr", labels=classes))


def _score(model, X_fit, y_fit, X_test, y_test, cost: bool) -> dict:
    model = clone(model).fit(X_fit, y_fit)
    predicted = np.asarray(model.predict(X_test))
    proba = model.predict_proba(X_test)
    truth = np.asarray(y_test)
    row = {"accuracy": float((predicted == truth).mean()),
           "auc": _auc(truth, proba, np.asarray(model.classes_)),
           "leaves": _leaves(model)}
    if cost:  # the classes are (bad, good): the cost of the labels, and of the labels of
        code = {"bad": 0, "good": 1}  # least expected loss (bad where P(bad) > 1/6)
        true, said = [np.array([code[v] for v in a]) for a in (truth, predicted)]
        least = np.where(proba[:, 0] > 1 / 6, 0, 1)
        row["cost"] = float(CREDIT_LOSS[true, said].mean())
        row["cost at 1/6"] = float(CREDIT_LOSS[true, least].mean())
    return row


def fold_scores(name: str, n_folds: int | None = None) -> pd.DataFrame:
    """Every method's accuracy, AUC and leaves on each of :data:`CV`'s 100 test folds of one
    data set (credit-g: also the mean cost per row under :data:`CREDIT_LOSS`); only the first
    ``n_folds`` of them if given."""
    X, y = data_sets()[name]
    numeric = any(X[c].dtype.kind in "fi" for c in X)
    rows = []
    for j, (fit, test) in enumerate(CV.split(X, y)):
        if n_folds is not None and j == n_folds:
            break
        for method, model in methods(numeric).items():
            rows.append({"data": name, "method": method, "repeat": j // 10, "fold": j % 10,
                         **_score(model, X.iloc[fit], y.iloc[fit], X.iloc[test],
                                  y.iloc[test], cost=name == "credit-g")})
    return pd.DataFrame(rows)


def adult_scores() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each method fitted once on adult's 32,561 training rows and scored on the 16,281 rows
    of its test file: a summary, and per test row whether each method is right (for
    McNemar's test and the bootstrap)."""
    X_fit, y_fit = load_adult(return_X_y=True)
    X_test, y_test = load_adult(return_X_y=True, test=True)
    summary, right = [], {}
    for method, model in methods(numeric=True).items():
        fitted = clone(model).fit(X_fit, y_fit)
        predicted = np.asarray(fitted.predict(X_test))
        right[method] = (predicted == np.asarray(y_test)).astype(int)
        summary.append({"method": method, "accuracy": right[method].mean(),
                        "auc": _auc(np.asarray(y_test), fitted.predict_proba(X_test),
                                    np.asarray(fitted.classes_)),
                        "leaves": _leaves(fitted)})
    return pd.DataFrame(summary), pd.DataFrame(right)


# ------------------------------------------------------------------ missing values
#: missing values made on car's complete data: each mechanism removes a share ``rate`` of the
#: cells on average, in training and test rows alike
MECHANISMS = ("MCAR", "MAR", "informative")
RATES = (0.1, 0.3)


def holes(X: pd.DataFrame, y: pd.Series, mechanism: str, rate: float,
          seed: int) -> np.ndarray:
    """A boolean mask of the cells to remove. MCAR: each cell with probability ``rate``.
    MAR: the five attributes other than safety, at 2 x rate where safety is low and
    rate / 2 elsewhere (safety itself is kept: the gaps depend on an observed value).
    Informative: every attribute, at 2 x rate in the 30% of cars rated acceptable or better
    and at rate x 4 / 7 in unacceptable ones, so that a gap says something about the class
    (as a missing vote does in the vote data)."""
    draw = np.random.default_rng(seed).random(X.shape)
    if mechanism == "MCAR":
        p = np.full(X.shape, rate)
    elif mechanism == "MAR":
        low = (X["safety"] == "low").to_numpy()[:, None]
        p = np.where(low, 2 * rate, rate / 2) * np.ones(X.shape)
        p[:, X.columns.get_loc("safety")] = 0
        p *= X.shape[1] / (X.shape[1] - 1)  # the same share of all cells as MCAR
    elif mechanism == "informative":
        unacc = (np.asarray(y) == "unacc")[:, None]
        p = np.where(unacc, rate * 4 / 7, 2 * rate) * np.ones(X.shape)
    else:
        raise ValueError(f"mechanism must be one of {MECHANISMS}, got {mechanism!r}")
    return draw < p


def missing_strategies(X: pd.DataFrame) -> dict:
    """The strategies compared, grouped by the learner they share (the name's first word)."""
    from .. import C45Classifier as C45, CARTClassifier as CART
    impute = SimpleImputer(strategy="most_frequent")
    natural = [list(X[c].cat.categories) for c in X]  # car's order, worst to best

    def nan_tree(categories):
        return make_pipeline(OrdinalEncoder(categories=categories,
                                            encoded_missing_value=np.nan,
                                            handle_unknown="use_encoded_value",
                                            unknown_value=np.nan),
                             DecisionTreeClassifier(random_state=0))
    return {"C4.5 fractional": C45(), "C4.5 own branch": C45(missing="branch"),
            "C4.5 imputed": make_pipeline(impute, C45()),
            "CART surrogates": CART(), "CART majority side": CART(max_surrogates=0),
            "CART imputed": make_pipeline(impute, CART()),
            "scikit-learn NaN, car's order": nan_tree(natural),
            "scikit-learn NaN, alphabetical": nan_tree("auto")}


def missing_scores(masks: int = 5) -> pd.DataFrame:
    """Accuracy of each strategy on car (all 1,728 rows), ten-fold CV, complete and with
    ``masks`` masks of each mechanism and rate (seeds 0, 1, ...); the same folds throughout."""
    X, y = load_car(return_X_y=True)
    folds = list(StratifiedKFold(n_splits=10, shuffle=True, random_state=0).split(X, y))
    settings = [("complete", 0.0, 0)] + [(m, r, s) for m in MECHANISMS for r in RATES
                                         for s in range(masks)]
    rows = []
    for mechanism, rate, seed in settings:
        Xm = X if rate == 0 else X.mask(holes(X, y, mechanism, rate, seed))
        for strategy, model in missing_strategies(X).items():
            for fold, (fit, test) in enumerate(folds):
                fitted = clone(model).fit(Xm.iloc[fit], y.iloc[fit])
                rows.append({"mechanism": mechanism, "rate": rate, "mask": seed,
                             "strategy": strategy, "fold": fold,
                             "accuracy": fitted.score(Xm.iloc[test], y.iloc[test])})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ ensembles (chapter 13)
def ensemble_methods() -> dict:
    """Chapter 13's single tree, bagged trees (unpruned, and pruned by the 1-SE rule as in
    Breiman 1996) and forests of 25 trees."""
    from sklearn.ensemble import BaggingClassifier, RandomForestClassifier

    from .. import CARTClassifier as CART
    tree = CART(max_surrogates=0)
    return {"one tree": tree,
            "bagging": BaggingClassifier(tree, n_estimators=25, random_state=0),
            "bagging, pruned trees": BaggingClassifier(
                CART(max_surrogates=0, ccp_alpha="1se", random_state=0), n_estimators=25,
                random_state=0),
            "forest (dtree)": BaggingClassifier(
                CART(max_surrogates=0, max_features="sqrt", random_state=0),
                n_estimators=25, random_state=0),
            "forest (sklearn)": RandomForestClassifier(n_estimators=25, random_state=0)}


def ensemble_scores(n_folds: int | None = None) -> pd.DataFrame:
    """Accuracy of :func:`ensemble_methods` on the 569 Wisconsin tumours, on :data:`CV`'s
    100 folds (only the first ``n_folds`` if given)."""
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    rows = []
    for j, (fit, test) in enumerate(CV.split(X, y)):
        if n_folds is not None and j == n_folds:
            break
        for method, model in ensemble_methods().items():
            fitted = clone(model).fit(X.iloc[fit], y.iloc[fit])
            rows.append({"method": method, "repeat": j // 10, "fold": j % 10,
                         "accuracy": fitted.score(X.iloc[test], y.iloc[test])})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ storage
FILES = {"folds": "folds.csv", "adult": "adult.csv", "adult_right": "adult_right.csv",
         "missing": "missing.csv", "ensembles": "ensembles.csv"}


def stored(what: str) -> pd.DataFrame:
    """The stored scores: "folds", "adult", "adult_right", "missing" or "ensembles"."""
    if what not in FILES:
        raise ValueError(f"what must be one of {sorted(FILES)}, got {what!r}")
    return pd.read_csv(STORED / FILES[what])


def _write(frame: pd.DataFrame, what: str) -> None:
    STORED.mkdir(exist_ok=True)
    frame.to_csv(STORED / FILES[what], index=False, float_format="%.6g")
    print(f"wrote {STORED / FILES[what]} ({len(frame)} rows)", flush=True)


def main(parts: list[str]) -> None:
    parts = parts or ["folds", "adult", "missing", "ensembles"]
    if "folds" in parts:
        _write(pd.concat([fold_scores(name) for name in DATA_SETS]), "folds")
    if "adult" in parts:
        summary, right = adult_scores()
        _write(summary, "adult")
        _write(right, "adult_right")
    if "missing" in parts:
        _write(missing_scores(), "missing")
    if "ensembles" in parts:
        _write(ensemble_scores(), "ensembles")


if __name__ == "__main__":
    main(sys.argv[1:])
