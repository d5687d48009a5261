"""Chapter 13's scale-out pattern: a tree grown on a sample scores every partition of a Dask
data frame with map_partitions, and the answers are those of predict on the whole table."""
import numpy as np
import pandas as pd
import pytest

import dtree
from dtree.datasets import load_car

dd = pytest.importorskip("dask.dataframe", reason="Dask is not installed")


def test_map_partitions_equals_predict():
    import dask
    X, y = load_car(return_X_y=True)
    sample = X.sample(400, random_state=0)
    tree = dtree.C45Classifier().fit(sample, y[sample.index])  # unseen rows, missing none
    with dask.config.set({"dataframe.convert-string": False}):
        parts = dd.from_pandas(X, npartitions=5)
        answers = parts.map_partitions(
            lambda part: pd.Series(tree.predict(part), index=part.index),
            meta=(None, "object")).compute()
    assert parts.npartitions == 5
    assert np.array_equal(answers.sort_index().to_numpy(), tree.predict(X))
