"""The stored scores of chapters 12 and 13 (dtree.datasets.case_studies) are what a fresh run
computes, and the masks of the missing-value experiment remove what they say."""
import io
import warnings

import numpy as np
import pandas as pd
import pytest

from dtree.datasets import case_studies, load_car


def _as_stored(frame: pd.DataFrame) -> pd.DataFrame:
    # through the same CSV formatting as the stored file
    text = frame.to_csv(index=False, float_format="%.6g")
    return pd.read_csv(io.StringIO(text))


def test_a_fresh_run_gives_the_stored_fold_scores():
    # breast-cancer, the smallest data set: every method on the first two repetitions (20
    # folds; the folds of a repetition do not depend on those after it)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unseen categories in a test fold, named by dtree
        fresh = _as_stored(case_studies.fold_scores("breast-cancer", n_folds=20))
    stored = case_studies.stored("folds")
    stored = stored[(stored["data"] == "breast-cancer") & (stored["repeat"] < 2)]
    assert len(fresh) == 20 * 19  # the majority, ID3 and C4.5 5 each, J48 4, CART 3, sklearn
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True),
                                  stored.dropna(axis=1, how="all").reset_index(drop=True))


def test_a_fresh_run_gives_the_stored_ensemble_scores():
    # chapter 13's five methods on the first two folds
    fresh = _as_stored(case_studies.ensemble_scores(n_folds=2))
    stored = case_studies.stored("ensembles")
    stored = stored[(stored["repeat"] == 0) & (stored["fold"] < 2)]
    assert len(fresh) == 2 * 5
    pd.testing.assert_frame_equal(fresh.reset_index(drop=True), stored.reset_index(drop=True))


def test_every_data_set_and_method_is_stored_for_every_fold():
    stored = case_studies.stored("folds")
    counts = stored.groupby(["data", "method"]).size()
    assert (counts == 100).all()
    assert set(stored["data"]) == set(case_studies.DATA_SETS)
    # a majority-class baseline everywhere: one leaf, AUC 0.5
    majority = stored[stored["method"] == "majority"]
    assert (majority["leaves"] == 1).all() and (majority["auc"] == 0.5).all()


@pytest.mark.parametrize("mechanism", case_studies.MECHANISMS)
@pytest.mark.parametrize("rate", case_studies.RATES)
def test_each_mask_removes_the_stated_share(mechanism, rate):
    X, y = load_car(return_X_y=True)
    shares = [case_studies.holes(X, y, mechanism, rate, seed).mean() for seed in range(5)]
    # 1,728 x 6 cells: the share's standard error is below 0.006 at rate 0.3
    assert np.mean(shares) == pytest.approx(rate, abs=0.01)


def test_the_mechanisms_differ_as_documented():
    X, y = load_car(return_X_y=True)
    mar = case_studies.holes(X, y, "MAR", 0.3, 0)
    assert not mar[:, X.columns.get_loc("safety")].any()
    low = (X["safety"] == "low").to_numpy()
    assert mar[low].mean() > 3 * mar[~low].mean()  # 2r against r/2
    informative = case_studies.holes(X, y, "informative", 0.3, 0)
    unacc = (y == "unacc").to_numpy()
    assert informative[~unacc].mean() > 3 * informative[unacc].mean()  # 2r against 4r/7


def test_stored_names_its_files():
    with pytest.raises(ValueError, match="what must be one of"):
        case_studies.stored("nothing")
