"""Input that is probably a mistake gets a UserWarning naming the column and what to do instead:
ID3 on a numeric column with many distinct values (one branch each), and a column of dates (each
date a category of its own). Input that is fine gets none."""
from __future__ import annotations

import datetime
import warnings

import numpy as np
import pandas as pd
import pytest

from dtree import C45Classifier, CARTClassifier, CARTRegressor, ID3Classifier
from dtree._validation import MANY_NUMBERS
from dtree.datasets import load_watermelon

X3, Y3 = load_watermelon("3.0", return_X_y=True)  # density and sugar: 17 distinct numbers each
X2, Y2 = load_watermelon("2.0", return_X_y=True)


def warned(model, X, y) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, y)
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_id3_on_many_numbers_names_the_column_and_suggests_c45_or_cart():
    messages = warned(ID3Classifier(), X3, Y3)
    assert len(messages) == 2
    assert messages[0].startswith("column 'density' is numeric with 17 distinct values")
    assert messages[1].startswith("column 'sugar' is numeric with 17 distinct values")
    assert all("C45Classifier or CARTClassifier" in m for m in messages)


def test_id3_on_few_numbers_or_on_categories_is_quiet():
    few = X2.assign(count=np.arange(17) % (MANY_NUMBERS))  # exactly MANY_NUMBERS values
    assert warned(ID3Classifier(), few, Y2) == []
    many = X2.assign(count=np.arange(17) % (MANY_NUMBERS + 1))
    assert len(warned(ID3Classifier(), many, Y2)) == 1
    # strings that look like numbers are categories the caller chose
    assert warned(ID3Classifier(), X3.astype({"density": str, "sugar": str}), Y3) == []


@pytest.mark.parametrize("model", [C45Classifier(), CARTClassifier()], ids=["C4.5", "CART"])
def test_c45_and_cart_split_numbers_quietly(model):
    assert warned(model, X3, Y3) == []


DATES = {
    "datetime64": pd.Series(pd.date_range("2024-03-01", periods=17)),
    "with a time zone": pd.Series(pd.date_range("2024-03-01", periods=17, tz="Asia/Shanghai")),
    "date objects": pd.Series([datetime.date(2024, 3, d) for d in range(1, 18)], dtype=object),
    "periods": pd.Series(pd.period_range("2024-01", periods=17, freq="M")),
    "with a missing day": pd.Series([pd.NaT] + list(pd.date_range("2024-03-02", periods=16))),
}


@pytest.mark.parametrize("dates", DATES.values(), ids=DATES.keys())
@pytest.mark.parametrize("model", [C45Classifier(), CARTRegressor()], ids=["C4.5", "CART"])
def test_a_date_column_is_named_with_the_advice_to_convert_it(model, dates):
    X = X2.assign(picked=dates.set_axis(X2.index))
    y = Y2 if isinstance(model, C45Classifier) else np.arange(17.0)
    messages = warned(model, X, y)
    assert len(messages) == 1
    assert messages[0].startswith("column 'picked' holds dates or times")
    assert "convert it to numbers" in messages[0]


def test_date_strings_are_categories_the_caller_chose():
    X = X2.assign(picked=[f"2024-03-{d:02d}" for d in range(1, 18)])
    assert warned(C45Classifier(), X, Y2) == []
