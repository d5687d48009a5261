"""export_text and plot_tree on trees small enough to write out by hand."""
from __future__ import annotations

import io

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.axes import Axes

from dtree import ID3Classifier, export_text, plot_tree


@pytest.fixture
def tiny():
    # outlook and windy tie at the root (both gain H(3,1) - 1/2); the first column wins
    X = pd.DataFrame({"outlook": ["sunny", "sunny", "rain", "rain"],
                      "windy": ["no", "yes", "no", "yes"]})
    return ID3Classifier().fit(X, ["yes", "no", "yes", "yes"])


TINY_TEXT = """\
|--- outlook = rain
|   |--- class: yes (no 0, yes 2)
|--- outlook = sunny
|   |--- windy = no
|   |   |--- class: yes (no 0, yes 1)
|   |--- windy = yes
|   |   |--- class: no (no 1, yes 0)"""

# Zhou fig. 4.4 with the melons that reach each leaf counted from table 4.1
ZHOU_TEXT = """\
|--- texture = clear
|   |--- root = curly
|   |   |--- class: yes (no 0, yes 5)
|   |--- root = slightly curly
|   |   |--- colour = green
|   |   |   |--- class: yes (no 0, yes 1)
|   |   |--- colour = dark
|   |   |   |--- touch = hard
|   |   |   |   |--- class: yes (no 0, yes 1)
|   |   |   |--- touch = soft
|   |   |   |   |--- class: no (no 1, yes 0)
|   |   |--- colour = light
|   |   |   |--- class: yes (empty branch: parent's majority)
|   |--- root = straight
|   |   |--- class: no (no 1, yes 0)
|--- texture = slightly blurry
|   |--- touch = hard
|   |   |--- class: no (no 4, yes 0)
|   |--- touch = soft
|   |   |--- class: yes (no 0, yes 1)
|--- texture = blurry
|   |--- class: no (no 3, yes 0)"""


def test_export_text_tiny(tiny):
    assert export_text(tiny) == TINY_TEXT


def test_export_text_target_name(tiny):
    assert export_text(tiny, target="play").splitlines()[1] == "|   |--- play: yes (no 0, yes 2)"


def test_export_text_zhou_fig_4_4(wm20):
    X, y = wm20
    assert export_text(ID3Classifier().fit(X, y)) == ZHOU_TEXT


def test_export_text_single_leaf(wm20):
    X, y = wm20
    assert export_text(ID3Classifier(max_depth=0).fit(X, y)) == "|--- class: no (no 9, yes 8)"


def test_export_text_fractional_counts(wm20a):
    X, y = wm20a
    lines = export_text(ID3Classifier().fit(X, y)).splitlines()
    # melon 10 (straight, not ripe, texture missing) reaches clear -> straight with weight 7/15
    i = lines.index("|   |--- root = straight")
    assert lines[i + 1] == f"|   |   |--- class: no (no {round(7 / 15, 3):g}, yes 0)"
    assert lines[i + 1] == "|   |   |--- class: no (no 0.467, yes 0)"


def test_export_text_chinese():
    X = pd.DataFrame({"纹理": ["清晰", "模糊"]})
    text = export_text(ID3Classifier().fit(X, ["是", "否"]))
    assert text == ("|--- 纹理 = 模糊\n|   |--- class: 否 (否 1, 是 0)\n"
                    "|--- 纹理 = 清晰\n|   |--- class: 是 (否 0, 是 1)")


# ------------------------------------------------------------------------------------- plot
def _boxes(ax):
    """Node boxes (framed) and edge labels (unframed) drawn by plot_tree."""
    framed, unframed = [], []
    for text in ax.texts:
        patch = text.get_bbox_patch()
        assert patch is not None
        (framed if patch.get_edgecolor()[3] > 0 else unframed).append(text)
    return framed, unframed


def test_plot_tree_zhou(wm20):
    X, y = wm20
    ax = plot_tree(ID3Classifier().fit(X, y))
    assert isinstance(ax, Axes)
    nodes, edges = _boxes(ax)
    assert len(nodes) == 5 + 9  # fig. 4.4: 5 tests, 9 leaves
    assert len(edges) == 13  # one labelled edge per non-root node
    assert sorted(t.get_text() for t in nodes if "?" in t.get_text())[0] == "colour?\nn = 3"
    assert "texture?\nn = 17" in [t.get_text() for t in nodes]
    assert "= slightly blurry" in [t.get_text() for t in edges]
    assert len(ax.lines) == 13
    assert not ax.axison


def test_plot_tree_on_given_axes(tiny):
    fig, ax = plt.subplots()
    assert plot_tree(tiny, ax=ax) is ax
    nodes, edges = _boxes(ax)
    assert len(nodes) == 5 and len(edges) == 4  # 2 tests, 3 leaves
    fig.savefig(io.BytesIO(), format="png")  # renders


def test_plot_tree_single_leaf(wm20):
    X, y = wm20
    ax = plot_tree(ID3Classifier(max_depth=0).fit(X, y))
    nodes, edges = _boxes(ax)
    assert [t.get_text() for t in nodes] == ["no\n(no 9, yes 8)"] and edges == []


def test_plot_tree_with_missing_values(wm20a):
    X, y = wm20a
    model = ID3Classifier().fit(X, y)
    ax = plot_tree(model)
    nodes, edges = _boxes(ax)
    n = sum(1 for _ in model.tree_.walk())
    assert len(nodes) == n and len(edges) == n - 1
    ax.figure.savefig(io.BytesIO(), format="png")
