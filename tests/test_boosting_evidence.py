"""Chapter 14's stored evidence (dev/boosting_evidence.py) against a fresh run on vote: the fold
scores of the quick methods, the staged scores of AdaBoost, and C5.0's boosted folds where the
program is installed. (The seconds differ from run to run and are not compared.)"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from references import requires_c50

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "dev"))
import boosting_evidence as evidence  # noqa: E402

STORED = pd.read_csv(evidence.DATA / "boosting_cv.csv")
STAGED = pd.read_csv(evidence.DATA / "boosting_rounds.csv")


def _compare(fresh: pd.DataFrame, stored: pd.DataFrame, keys: list[str]) -> None:
    stored = stored.set_index(keys).sort_index()
    fresh = fresh.set_index(keys).sort_index()
    assert fresh.index.equals(stored.index)
    for column in ("accuracy", "log_loss"):
        np.testing.assert_allclose(fresh[column], stored[column], rtol=1e-5, atol=1e-6)


def test_the_stored_scores_cover_every_method_and_fold():
    counts = STORED.groupby(["data", "method"]).size()
    assert set(STORED.data) == {"car", "credit-g", "vote"}
    assert set(STORED.method) == set(evidence.METHODS) and (counts == 10).all()
    rounds = STAGED.groupby(["data", "method", "fold"])["round"].max()
    assert set(STAGED.method) == set(evidence.STAGED) and (rounds <= evidence.ROUNDS).all()


def test_a_fresh_run_on_vote_equals_the_stored_scores():
    methods = ["majority", "J48", "AdaBoost, stumps", "AdaBoost, J48 x 10"]
    fresh, staged = evidence.scores("vote", methods)
    stored = STORED[(STORED.data == "vote") & STORED.method.isin(methods)]
    _compare(fresh, stored, ["method", "fold"])
    _compare(staged, STAGED[(STAGED.data == "vote") & (STAGED.method == "AdaBoost, stumps")],
             ["method", "fold", "round"])


@requires_c50
def test_c50_boosting_on_vote_equals_the_stored_scores():
    fresh, _ = evidence.scores("vote", ["C5.0 boost 10"])
    stored = STORED[(STORED.data == "vote") & (STORED.method == "C5.0 boost 10")]
    np.testing.assert_allclose(fresh.sort_values("fold")["accuracy"],
                               stored.sort_values("fold")["accuracy"], rtol=1e-5)
    assert stored["log_loss"].isna().all()
