"""Fit times of dtree's ID3 against scikit-learn's tree on UCI Mushroom (8,124 x 22 categorical).

Not a test: timings depend on the machine. Run with ``python3 tasks.py bench``; the numbers of the
last run on the project's reference machine are in RESULTS.md beside this file.
"""
from __future__ import annotations

import platform
import time

import numpy as np
import pandas as pd
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

import dtree
from dtree.datasets import load_mushroom


def best_time(fit, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    X, y = load_mushroom(return_X_y=True)
    X_filled = X.astype(object).fillna("?")
    onehot = OneHotEncoder(sparse_output=False).fit_transform(X_filled)
    ordinal = OrdinalEncoder().fit_transform(X_filled)
    bigger = pd.concat([X] * 10, ignore_index=True)
    y_bigger = np.tile(np.asarray(y), 10)
    rows = [
        ("dtree ID3, categorical, missing values native", lambda: dtree.ID3Classifier().fit(X, y)),
        ("dtree ID3, 10x rows (81,240)", lambda: dtree.ID3Classifier().fit(bigger, y_bigger)),
        ("sklearn entropy tree, one-hot (117 columns)",
         lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(onehot, y)),
        ("sklearn entropy tree, ordinal codes",
         lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(ordinal, y)),
    ]
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(f"{'fit':<50} {'best of 5 (s)':>14}")
    for name, fit in rows:
        print(f"{name:<50} {best_time(fit):>14.4f}")


if __name__ == "__main__":
    main()
