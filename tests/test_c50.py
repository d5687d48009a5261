"""Quinlan's C5.0 as a reference: the outputs chapter 14 stores are what the program prints,
its files are what its documentation describes, and its results are parsed right."""
from __future__ import annotations

import pandas as pd
import pytest

from dtree.datasets import load_car
from dtree.notebook import C50_OUTPUTS, c50_files, c50_result, run_c50
from references import requires_c50

#: every stored output, with the data and options that made it (as chapter 14 runs them)
STORED = {"car_tree.txt": (), "car_rules.txt": ("-r",), "car_boost.txt": ("-t", "10")}


def test_every_stored_output_is_listed():
    assert {p.name for p in C50_OUTPUTS.glob("*.txt")} == set(STORED)


@requires_c50
@pytest.mark.parametrize("stored,options", STORED.items())
def test_stored_outputs_equal_a_live_run(stored, options):
    run_c50(load_car(), "class", options, stored=stored, strict=True)


@pytest.mark.parametrize("stored,options", STORED.items())
def test_stored_outputs_read_without_the_program(stored, options, monkeypatch, capsys):
    monkeypatch.setattr("dtree.notebook.c50_program", lambda: None)
    text = run_c50(load_car(), "class", options, stored=stored)
    assert "C5.0 is not installed here" in capsys.readouterr().out
    assert "Read 1728 cases (7 attributes) from data.data" in text


def test_stored_output_of_other_data_is_refused():
    car = load_car().iloc[:-1]
    with pytest.raises(RuntimeError, match="other data or options"):
        run_c50(car, "class", (), stored="car_tree.txt")


def test_results_parsed():
    """The numbers C5.0 marks <<, read off the stored outputs by hand: the tree has 78 leaves
    and 68 training errors (3.9%), the ruleset 43 rules and 72 errors, the ten trials 13."""
    text = {name: (C50_OUTPUTS / name).read_text().split("\n", 1)[1] for name in STORED}
    assert "    78   68( 3.9%)   <<" in text["car_tree.txt"]
    assert c50_result(text["car_tree.txt"]) == {"size": 78, "errors": 68}
    assert c50_result(text["car_rules.txt"]) == {"size": 43, "errors": 72}
    assert c50_result(text["car_boost.txt"]) == {"size": None, "errors": 13}


def test_names_file_escapes_and_declares():
    """C5.0's tutorial: a name or value escapes , : . | and \\ with a backslash; a discrete
    attribute lists its values, a numeric one is continuous; a missing value is ?."""
    frame = pd.DataFrame({"a.b": pd.Categorical(["x,y", "z"], categories=["z", "x,y"]),
                          "n": [1.5, None], "class": ["yes", "no"]})
    files = c50_files(frame, "class", test=frame.iloc[:1])
    assert files["names"] == ("class.\n\na\\.b: z, x\\,y.\nn: continuous.\n"
                              "class: no, yes.\n")
    assert files["data"] == "x\\,y,1.5,yes\nz,?,no\n"
    assert files["test"] == "x\\,y,1.5,yes\n"


@requires_c50
def test_a_test_file_is_evaluated():
    car = load_car()
    result = c50_result(run_c50(car.iloc[::2], "class", (), test=car.iloc[1::2]))
    assert set(result) == {"size", "errors", "test_size", "test_errors"}
    assert result["test_size"] == result["size"] and 0 < result["test_errors"] < 864
