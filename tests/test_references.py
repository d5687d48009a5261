"""The reference harness: Weka's J48 and R's rpart, run and parsed; expected values from the
literature (Quinlan 1986, Mitchell 1997, rpart's documentation) or worked by hand."""
from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from references import (J48_PRUNED, J48_UNPRUNED, REQUIRE_REFERENCES, arff_attributes, j48,
                        load_kyphosis, parse_j48, reference_mark, references_required,
                        requires_rpart, requires_weka, rpart, surrogate_agreement, when_missing)

from dtree.datasets import ARFF_DATASETS, load_arff, load_watermelon

DATA = Path(__file__).parents[1] / "dtree" / "datasets" / "data"
KYPHOSIS = "Kyphosis ~ Age + Number + Start"


def arff(name: str) -> Path:
    return DATA / f"{name}.arff"


@cache
def run_j48(name: str, options: tuple[str, ...] = J48_UNPRUNED):
    """J48 on one of the shipped ARFF files (deterministic, so each run is made once)."""
    return j48(arff(name), options)


def shape(node):
    """A J48Node as nested tuples: (test, label, weight, errors) or (test, [children])."""
    if node.is_leaf:
        return (node.test, node.label, node.weight, node.errors)
    return (node.test, [shape(child) for child in node.children])


# --- J48: the parser on hand-written output (runs everywhere) ---------------------------------

J48_TEXT = """
Options: -U -M 2

J48 unpruned tree
------------------

checking = <0
|   job = high qualif/self emp/mgmt: bad (2.5/0.49)
|   job = skilled
|   |   duration <= 11: good (3.0)
|   |   duration > 11: bad (0.0)
checking = no checking: good (4.51/1.0)

Number of Leaves  : \t4

Size of the tree : \t7


=== Error on training data ===

Correctly Classified Instances           9               90      %
Total Number of Instances               10
"""
J48_ATTRIBUTES = {"checking": ["<0", "no checking"], "duration": "numeric",
                  "job": ["skilled", "high qualif/self emp/mgmt"], "class": ["good", "bad"]}


@pytest.mark.parametrize("attributes", [J48_ATTRIBUTES, None])
def test_parse_j48_values_with_spaces_and_operators(attributes):
    result = parse_j48(J48_TEXT, attributes)
    assert shape(result.tree) == (None, [
        (("checking", "=", "<0"), [
            (("job", "=", "high qualif/self emp/mgmt"), "bad", 2.5, 0.49),
            (("job", "=", "skilled"), [
                (("duration", "<=", 11.0), "good", 3.0, 0.0),
                (("duration", ">", 11.0), "bad", 0.0, 0.0)])]),
        (("checking", "=", "no checking"), "good", 4.51, 1.0)])
    assert (result.n_leaves, result.size, result.correct, result.total) == (4, 7, 9, 10)
    assert result.accuracy == 0.9


def test_parse_j48_single_leaf():
    text = J48_TEXT.replace(J48_TEXT[J48_TEXT.index("checking = <0"):
                                     J48_TEXT.index("\nNumber")], ": good (10.0/3.0)\n")
    result = parse_j48(text.replace("\t4", "\t1").replace("\t7", "\t1"), J48_ATTRIBUTES)
    assert result.tree.test is None and result.tree.is_leaf
    assert (result.tree.label, result.tree.weight, result.tree.errors) == ("good", 10.0, 3.0)
    assert (result.n_leaves, result.size) == (1, 1)


def test_parse_j48_rejects_a_line_without_a_parent():
    text = J48_TEXT.replace("|   job = skilled\n", "|   |   |   job = skilled\n")
    with pytest.raises(ValueError, match="no parent"):
        parse_j48(text, J48_ATTRIBUTES)


# --- J48: Weka itself ----------------------------------------------------------------------

@requires_weka
@pytest.mark.parametrize("options", [J48_UNPRUNED, J48_PRUNED])
def test_j48_weather_nominal_is_quinlans_tree(options):
    # Quinlan (1986) fig. 3 / Mitchell (1997) fig. 3.1. Leaf counts, by hand from the 14 rows:
    # sunny & high: days 1, 2, 8 (no); sunny & normal: 9, 11 (yes); overcast: 3, 7, 12, 13
    # (yes); rainy & windy: 6, 14 (no); rainy & calm: 4, 5, 10 (yes). Every leaf is pure.
    # Pruning keeps it: at 25% confidence a leaf for "sunny" (2 errors in 5) is estimated at
    # about 3.2 errors (exact binomial limit), its two pure leaves at
    # 3(1 - 0.25^(1/3)) + 2(1 - 0.25^(1/2)) = 2.11; "rainy" is the same with 3 and 2 swapped.
    result = run_j48("weather.nominal", options)
    assert shape(result.tree) == (None, [
        (("outlook", "=", "sunny"), [(("humidity", "=", "high"), "no", 3.0, 0.0),
                                     (("humidity", "=", "normal"), "yes", 2.0, 0.0)]),
        (("outlook", "=", "overcast"), "yes", 4.0, 0.0),
        (("outlook", "=", "rainy"), [(("windy", "=", "TRUE"), "no", 2.0, 0.0),
                                     (("windy", "=", "FALSE"), "yes", 3.0, 0.0)])])
    assert (result.n_leaves, result.size) == (5, 8)  # 5 leaves + 3 tests
    assert (result.correct, result.total, result.accuracy) == (14, 14, 1.0)


@requires_weka
def test_j48_weather_numeric_threshold_is_a_training_value():
    # Sunny days: humidity 70, 70 (yes) against 85, 90, 95 (no). C4.5 Release 8 (and J48) does
    # not cut at the midpoint 77.5 but at the largest humidity in the whole training set that
    # does not exceed it: 75 (day 13, overcast), not 70.
    frame = load_arff("weather.numeric")
    midpoint = (70 + 85) / 2
    expected = frame["humidity"][frame["humidity"] <= midpoint].max()
    assert expected == 75
    sunny = run_j48("weather.numeric").tree.children[0]
    assert sunny.test == ("outlook", "=", "sunny")
    assert [(c.test, c.label, c.weight) for c in sunny.children] == [
        (("humidity", "<=", expected), "yes", 2.0), (("humidity", ">", expected), "no", 3.0)]


@requires_weka
@pytest.mark.parametrize("options", [J48_UNPRUNED, J48_PRUNED], ids=["unpruned", "pruned"])
@pytest.mark.parametrize("name", ARFF_DATASETS)
def test_j48_output_parses_completely(name, options):
    frame = load_arff(name)
    result = run_j48(name, options)
    leaves, nodes = result.tree.leaves(), list(result.tree.nodes())
    assert len(leaves) == result.n_leaves and len(nodes) == result.size
    assert result.total == len(frame)
    # Weka prints each leaf weight rounded to 2 decimals; the exact weights sum to the rows
    assert abs(sum(leaf.weight for leaf in leaves) - len(frame)) <= 0.005 * len(leaves) + 1e-9
    if not frame.isna().any().any():  # whole rows only: leaf errors are the training errors
        assert sum(leaf.errors for leaf in leaves) == pytest.approx(len(frame) - result.correct)
    attributes = arff_attributes(frame)
    for node in nodes:
        if node.is_leaf:
            assert node.label in attributes[frame.columns[-1]]
            continue
        tests = [child.test for child in node.children]
        attribute = tests[0][0]
        assert {t[0] for t in tests} == {attribute} and attribute != frame.columns[-1]
        if attributes[attribute] == "numeric":  # a binary cut
            assert [t[1] for t in tests] == ["<=", ">"] and tests[0][2] == tests[1][2]
        else:  # one branch per declared value, in the header's order
            assert [t[1:] for t in tests] == [("=", v) for v in attributes[attribute]]


@requires_weka
def test_j48_pruning_only_removes_nodes():
    for name in ("vote", "labor", "credit-g"):
        unpruned, pruned = run_j48(name), run_j48(name, J48_PRUNED)
        assert pruned.n_leaves < unpruned.n_leaves and pruned.size < unpruned.size
        assert pruned.correct <= unpruned.correct


@requires_weka
def test_j48_on_a_frame_matches_j48_on_the_file():
    frame = load_arff("labor")  # numeric and nominal attributes, 326 missing values
    assert shape(j48(frame).tree) == shape(run_j48("labor").tree)


# --- rpart ---------------------------------------------------------------------------------

@cache
def kyphosis_fit():
    """rpart's defaults on its own kyphosis data (minsplit 20, minbucket 7, cp 0.01)."""
    return rpart(KYPHOSIS, "kyphosis")


def at_node(leaf: np.ndarray, node: int) -> np.ndarray:
    """Rows whose leaf lies below ``node`` (rpart's numbering: the parent of t is t // 2)."""
    leaf = leaf.copy()
    inside = leaf == node
    while (leaf > node).any():
        leaf = np.where(leaf > node, leaf // 2, leaf)
        inside |= leaf == node
    return inside


def goes_left(split: pd.Series, data: pd.DataFrame) -> np.ndarray:
    """1 where a numeric split sends the row left, 0 right, NaN if the variable is missing."""
    x = data[split["variable"]].to_numpy(float)
    left = x < split["index"] if split["ncat"] == -1 else x >= split["index"]
    return np.where(np.isnan(x), np.nan, left.astype(float))


@requires_rpart
def test_rpart_kyphosis_root_split():
    # rpart's vignette "longintro", kyphosis example: Start < 8.5 to the right (so Start >= 8.5
    # goes left), 62 left and 19 right, class counts (absent, present) 56/6 and 8/11.
    fit = kyphosis_fit()
    primary = fit.splits[(fit.splits["node"] == 1) & (fit.splits["role"] == "primary")].iloc[0]
    assert primary["left"] == "Start >= 8.5"
    assert fit.frame.loc[[1, 2, 3], "n"].tolist() == [81, 62, 19]
    counts = fit.frame.loc[[2, 3], ["count_absent", "count_present"]].to_numpy().tolist()
    assert counts == [[56, 6], [8, 11]]
    # improve = n·Gini(t) - n_L·Gini(t_L) - n_R·Gini(t_R), with n·Gini = 2·n_a·n_p / n
    by_hand = 2 * 64 * 17 / 81 - 2 * 56 * 6 / 62 - 2 * 8 * 11 / 19
    assert primary["improve"] == pytest.approx(by_hand, abs=1e-6)  # 6.762330 in the vignette


@requires_rpart
def test_rpart_kyphosis_cptable():
    # Root error 17/81. One split leaves 6 + 8 = 14 errors: CP = (17 - 14)/17 = 3/17. Three more
    # splits on the left branch remove one more error: CP = 1/(3·17) = 1/51; then cp = 0.01,
    # rpart's default, ends the table (rpart's documented printcp: 0.176471, 0.019608, 0.01).
    cptable = kyphosis_fit().cptable
    np.testing.assert_allclose(cptable["CP"], [3 / 17, 1 / 51, 0.01], atol=1e-8)
    assert cptable["nsplit"].tolist() == [0, 1, 4]
    np.testing.assert_allclose(cptable["rel error"], [1, 14 / 17, 13 / 17], atol=1e-8)
    assert {"xerror", "xstd"} <= set(cptable.columns)


@requires_rpart
def test_rpart_kyphosis_root_surrogate():
    # The vignette: "Number < 6.5 to the left, agree=0.802, adj=0.158": it agrees with the
    # primary on 65 of 81 children; going with the majority (left) gets 62; adj = 3/19.
    fit = kyphosis_fit()
    surrogate = fit.surrogates[fit.surrogates["node"] == 1].iloc[0]
    assert surrogate["left"] == "Number < 6.5"
    assert surrogate["agree"] == pytest.approx(65 / 81, abs=1e-6)
    assert surrogate["adj"] == pytest.approx((65 - 62) / (81 - 62), abs=1e-6)


@requires_rpart
@pytest.mark.parametrize("style", [0, 1])
def test_rpart_surrogate_agreement_definition(style):
    # Kyphosis with holes punched in it, so that the denominators of surrogatestyle 0 and 1
    # differ; every surrogate of every node must match the definition in surrogate_agreement.
    data = load_kyphosis()
    assert data.shape == (81, 4) and data["Kyphosis"].value_counts().tolist() == [64, 17]
    data.loc[::7, "Number"] = np.nan
    data.loc[3::9, "Start"] = np.nan
    data.loc[5::11, "Age"] = np.nan
    control = {"surrogatestyle": style, "minsplit": 10, "minbucket": 3, "cp": 0}
    fit = rpart(KYPHOSIS, data, control=control)
    assert fit.surrogates.shape[0] >= 4 and fit.surrogates["count"].sum() > 0
    for _, surrogate in fit.surrogates.iterrows():
        node = surrogate["node"]
        rows = at_node(fit.leaf, node)
        splits = fit.splits[fit.splits["node"] == node]
        primary = splits[splits["role"] == "primary"].iloc[0]
        agree, adj = surrogate_agreement(goes_left(primary, data[rows]),
                                         goes_left(surrogate, data[rows]), style=style)
        assert (surrogate["agree"], surrogate["adj"]) == pytest.approx((agree, adj), abs=1e-9)
    # count: rows missing the primary variable that this surrogate sent (the first one known)
    for node, splits in fit.splits.groupby("node"):
        rows = data[at_node(fit.leaf, node)]
        undecided = rows[splits.iloc[0]["variable"]].isna().to_numpy()
        for _, surrogate in splits[splits["role"] == "surrogate"].iterrows():
            known = rows[surrogate["variable"]].notna().to_numpy()
            assert surrogate["count"] == (undecided & known).sum()
            undecided = undecided & ~known


@requires_rpart
def test_rpart_factor_split_watermelon():
    # Watermelon 2.0 with CART's Gini: texture {clear} (7 ripe, 2 not) against {slightly blurry,
    # blurry} (1 ripe, 7 not); improve = 2·8·9/17 - 2·7·2/9 - 2·1·7/8 (n·Gini, as above).
    X = load_watermelon()
    fit = rpart("ripe ~ .", X, control={"minsplit": 2, "minbucket": 1, "cp": 0, "xval": 0})
    assert fit.xlevels["texture"] == list(X["texture"].cat.categories)  # our order reached R
    root = fit.splits.iloc[0]
    assert root["role"] == "primary"
    assert root["left"] == "texture in {slightly blurry, blurry}"
    assert root["improve"] == pytest.approx(2 * 8 * 9 / 17 - 2 * 7 * 2 / 9 - 2 * 1 * 7 / 8,
                                            abs=1e-6)
    assert fit.frame.loc[[2, 3], "n"].tolist() == [8, 9]
    assert fit.cptable["rel error"].iloc[-1] == 0  # grown until every leaf is pure


def test_surrogate_agreement_by_hand():
    # 6 rows with the primary known (4 left, 2 right), one missing the primary (ignored), one
    # missing the surrogate. Same direction on rows 1, 2 and 6: 3 of 6; majority 4 of 6.
    primary = [1, 1, 1, 1, 0, 0, np.nan]
    surrogate = [1, 1, 0, np.nan, 1, 0, 1]
    agree, adj = surrogate_agreement(primary, surrogate)
    assert (agree, adj) == pytest.approx((3 / 6, (3 / 6 - 4 / 6) / (1 - 4 / 6)))
    # surrogatestyle 1: over the 5 rows that also have the surrogate, 3 left and 2 right
    assert surrogate_agreement(primary, surrogate, style=1) == pytest.approx(
        (3 / 5, (3 / 5 - 3 / 5) / (1 - 3 / 5)))


@requires_rpart
def test_rpart_on_a_frame_and_with_weights():
    # Our DataFrame, sent through CSV, gives rpart's own fit; doubling every case weight doubles
    # every node's weight and deviance and changes neither the tree nor the relative costs (CP).
    builtin = kyphosis_fit()
    ours = rpart(KYPHOSIS, builtin.data)
    pd.testing.assert_frame_equal(ours.frame, builtin.frame)
    pd.testing.assert_frame_equal(ours.splits, builtin.splits)
    doubled = rpart(KYPHOSIS, builtin.data, weights=np.full(len(builtin.data), 2.0))
    assert doubled.frame["var"].equals(builtin.frame["var"])
    assert (doubled.frame["wt"] == 2 * builtin.frame["n"]).all()
    assert (doubled.frame["dev"] == 2 * builtin.frame["dev"]).all()
    np.testing.assert_allclose(doubled.cptable["CP"], builtin.cptable["CP"], atol=1e-12)


# --- skip on a reader's machine, fail in CI: DTREE_REQUIRE_REFERENCES ------------------------

@pytest.mark.parametrize("value, required", [
    (None, False), ("", False), ("0", False), (" 0 ", False), ("1", True), ("yes", True)])
def test_references_required_reads_the_variable(value, required):
    environ = {} if value is None else {REQUIRE_REFERENCES: value}
    assert references_required(environ) is required


def test_when_missing_skips_or_fails_naming_the_program():
    install = "apt-get install weka"
    assert when_missing("Weka", True, install, required=False) is None
    assert when_missing("Weka", True, install, required=True) is None
    assert when_missing("Weka", False, install, required=False) == (
        "skip", "Weka is not installed: apt-get install weka")
    action, reason = when_missing("Weka", False, install, required=True)
    assert action == "fail"
    assert reason.startswith("Weka is not installed") and "DTREE_REQUIRE_REFERENCES" in reason
    assert reason.endswith(install)


def test_reference_mark():
    missing = {"program": "Weka", "available": False, "install": "apt-get install weka"}
    assert reference_mark(**missing, environ={}).name == "skip"
    mark = reference_mark(**missing, environ={REQUIRE_REFERENCES: "1"})
    assert mark.name == "reference_missing" and "Weka is not installed" in mark.kwargs["reason"]
    installed = reference_mark("Weka", True, "apt-get install weka",
                               environ={REQUIRE_REFERENCES: "1"})
    assert installed.name == "skipif" and installed.args == (False,)


MISSING_PROGRAM_TEST = '''
from references import reference_mark


@reference_mark("No Such Program", False, "apt-get install no-such-program")
def test_needs_it():
    pass
'''


@pytest.mark.parametrize("required", [False, True])
def test_a_missing_program_skips_or_fails_a_real_run(tmp_path, required):
    # a pytest run of its own, with the hooks tests/conftest.py imports
    (tmp_path / "conftest.py").write_text(
        "from references import pytest_configure, pytest_runtest_setup  # noqa: F401\n")
    (tmp_path / "test_missing_program.py").write_text(MISSING_PROGRAM_TEST)
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(tests.parent)])}
    env.pop(REQUIRE_REFERENCES, None)
    if required:
        env[REQUIRE_REFERENCES] = "1"
    done = subprocess.run([sys.executable, "-m", "pytest", "-rsE", "-p", "no:cacheprovider",
                           "-W", "error::pytest.PytestUnknownMarkWarning", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    if required:
        assert done.returncode == 1, done.stdout
        assert "1 error" in done.stdout  # pytest.fail in the setup: an error, exit status 1
        assert "No Such Program is not installed, and DTREE_REQUIRE_REFERENCES" in done.stdout
    else:
        assert done.returncode == 0, done.stdout
        assert "1 skipped" in done.stdout
        assert "No Such Program is not installed: apt-get install no-such-program" in done.stdout


def test_a_stored_j48_output_is_used_only_for_the_data_it_was_made_from():
    frame = pd.DataFrame({"x": [1.0, 2.0], "y": pd.Categorical(["a", "b"])})
    with pytest.raises(AssertionError, match="DTREE_STORE_WEKA_OUTPUTS=1"):
        j48(frame, J48_PRUNED, stored="adult_pruned.txt.gz")
