"""export_text and plot_tree on trees small enough to write out by hand, on a hand-built chain
1,500 levels deep, and on unfitted models."""
from __future__ import annotations

import io
import re
import warnings
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from PIL import Image
from sklearn.exceptions import NotFittedError

import dtree
from dtree import ID3Classifier, Node, export_text, plot_tree
from dtree.plot import MAX_HEIGHT, MAX_WIDTH


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
    lines = export_text(ID3Classifier(missing="fractional").fit(X, y)).splitlines()
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
    assert "slightly blurry" in [t.get_text() for t in edges]  # the answer to "texture?"
    assert "yes\nno: 0\nyes: 5" in [t.get_text() for t in nodes]  # root = curly
    assert "yes\n(empty)" in [t.get_text() for t in nodes]  # colour = light
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
    assert [t.get_text() for t in nodes] == ["no\nno: 9\nyes: 8"] and edges == []


def test_plot_tree_with_missing_values(wm20a):
    X, y = wm20a
    model = ID3Classifier(missing="fractional").fit(X, y)
    ax = plot_tree(model, max_depth=model.tree_.height())  # all of it, wider than a page
    nodes, edges = _boxes(ax)
    n = sum(1 for _ in model.tree_.walk())
    assert len(nodes) == n and len(edges) == n - 1
    ax.figure.savefig(io.BytesIO(), format="png")


# ---------------------------------------------------------------- depth, stubs, size, errors
DEPTH = 1500


def _leaf(depth: int, cls: int) -> Node:
    value = np.eye(2)[cls]
    return Node(value=value, prediction=value.copy(), n_samples=1, weighted_n_samples=1.0,
                impurity=0.0, depth=depth, stop_reason="pure")


@pytest.fixture(scope="module")
def chain():
    """x <= d + 0.5 sends one row of class a to a leaf at every depth d; the last leaf is b.
    An internal node at depth d holds the DEPTH + 1 - d rows below it."""
    node = _leaf(DEPTH, 1)
    for d in range(DEPTH - 1, -1, -1):
        n = DEPTH + 1 - d
        node = Node(value=np.array([n - 1.0, 1.0]), prediction=np.array([(n - 1) / n, 1 / n]),
                    n_samples=n, weighted_n_samples=float(n), impurity=0.5, depth=d,
                    feature="x", threshold=d + 0.5, children=[_leaf(d + 1, 0), node])
    return SimpleNamespace(tree_=node, classes_=np.array(["a", "b"]))


def test_export_text_of_a_deep_tree(chain):
    lines = export_text(chain).splitlines()
    assert len(lines) == 2 * DEPTH + (DEPTH + 1)  # two branch lines per test, one per leaf
    assert lines[-1] == "|   " * DEPTH + "|--- class: b (a 0, b 1)"
    assert lines[-2] == "|   " * (DEPTH - 1) + f"|--- x > {DEPTH - 0.5:g}"


def test_export_text_max_depth_stub(chain):
    assert export_text(chain, max_depth=2) == """\
|--- x <= 0.5
|   |--- class: a (a 1, b 0)
|--- x > 0.5
|   |--- x <= 1.5
|   |   |--- class: a (a 1, b 0)
|   |--- x > 1.5
|   |   |--- … 1499 leaves, n 1499"""
    assert export_text(chain, max_depth=0) == f"|--- … {DEPTH + 1} leaves, n {DEPTH + 1}"


ZHOU_DEPTH_2 = """\
|--- texture = clear
|   |--- root = curly
|   |   |--- class: yes (no 0, yes 5)
|   |--- root = slightly curly
|   |   |--- … 4 leaves, n 3
|   |--- root = straight
|   |   |--- class: no (no 1, yes 0)
|--- texture = slightly blurry
|   |--- touch = hard
|   |   |--- class: no (no 4, yes 0)
|   |--- touch = soft
|   |   |--- class: yes (no 0, yes 1)
|--- texture = blurry
|   |--- class: no (no 3, yes 0)"""


def test_export_text_max_depth_on_zhou(wm20):
    X, y = wm20
    model = ID3Classifier().fit(X, y)
    assert export_text(model, max_depth=2) == ZHOU_DEPTH_2  # colour (3 melons, 4 leaves) folded
    assert export_text(model, max_depth=4) == export_text(model) == ZHOU_TEXT  # depth 4: all


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError), ("2", TypeError),
                                        (True, TypeError)])
def test_max_depth_must_be_a_count(wm20, bad, error):
    # the same check, and the same errors, as the estimators' max_depth
    model = ID3Classifier().fit(*wm20)
    with pytest.raises(error, match="max_depth"):
        export_text(model, max_depth=bad)
    with pytest.raises(error, match="max_depth"):
        plot_tree(model, max_depth=bad)


@pytest.mark.parametrize("draw", [export_text, plot_tree])
def test_unfitted_model_raises_not_fitted(draw):
    with pytest.raises(NotFittedError, match="ID3Classifier instance is not fitted"):
        draw(ID3Classifier())


def test_regression_tree_without_classes():
    leaves = [Node(value=np.array([v]), prediction=np.array([v]), n_samples=n,
                   weighted_n_samples=float(n), impurity=0.0, depth=1)
              for v, n in ((1.5, 3), (3.25, 7))]
    root = Node(value=np.array([2.725]), prediction=np.array([2.725]), n_samples=10,
                weighted_n_samples=10.0, impurity=1.0, depth=0, feature="size", threshold=0.38,
                children=leaves)
    model = SimpleNamespace(tree_=root)  # no classes_
    assert export_text(model, target="price") == (
        "|--- size <= 0.38\n|   |--- price: 1.5 (n 3)\n"
        "|--- size > 0.38\n|   |--- price: 3.25 (n 7)")
    nodes, edges = _boxes(plot_tree(model))
    assert [t.get_text() for t in nodes] == ["size?\nn = 10", "1.5\nn = 3", "3.25\nn = 7"]
    assert [t.get_text() for t in edges] == ["<= 0.38", "> 0.38"]


def test_plot_tree_of_a_deep_tree_is_cut_to_a_legible_depth(chain):
    with pytest.warns(UserWarning, match=r"only \d+ of its 1500 levels fit"):
        ax = plot_tree(chain)
    width, height = ax.figure.get_size_inches()
    assert width <= MAX_WIDTH and height <= MAX_HEIGHT
    nodes, _ = _boxes(ax)
    stubs = [t for t in nodes if t.get_text().startswith("…")]
    assert len(stubs) == 1 and stubs[0].get_bbox_patch().get_linestyle() == "--"
    depth = len(nodes) // 2  # tests at depths 0 .. depth-1, a leaf under each, then the stub
    assert len(nodes) == 2 * depth + 1 and depth >= 5
    assert stubs[0].get_text() == f"…\nn = {DEPTH + 1 - depth}"


def test_plot_tree_max_depth_draws_stub_boxes(wm20):
    model = ID3Classifier().fit(*wm20)
    nodes, edges = _boxes(plot_tree(model, max_depth=1))
    # texture at the root; clear (9 melons) and slightly blurry (5) folded; blurry is a leaf
    assert [t.get_text() for t in nodes] == [
        "texture?\nn = 17", "…\nn = 9", "…\nn = 5", "no\nno: 3\nyes: 0"]
    assert [t.get_text() for t in edges] == ["clear", "slightly blurry", "blurry"]
    dashed = [t.get_bbox_patch().get_linestyle() == "--" for t in nodes]
    assert dashed == [False, True, True, False]


def _star(k: int):
    """A root with k leaves, one per value of x."""
    X = pd.DataFrame({"x": [f"v{i}" for i in range(k)]})
    return ID3Classifier().fit(X, [i % 2 for i in range(k)])


def test_figure_width_grows_with_the_leaves():
    widths = [plot_tree(_star(k)).figure.get_size_inches()[0] for k in (2, 3, 4)]
    step = widths[1] - widths[0]
    assert step > 1 / 3  # a leaf box ("0", "0: 1", "1: 0" at 9 pt) is over a third of an inch
    assert widths[2] - widths[1] == pytest.approx(step)  # the same slot for each leaf


def test_too_wide_a_tree_is_drawn_to_the_depth_that_fits():
    X = pd.DataFrame({"x": ["a", "b"] * 20, "y": [f"v{i}" for i in range(40)]})
    y = [i % 4 == 0 for i in range(40)]
    model = ID3Classifier(tie_break=["x", "y"]).fit(X, y)
    assert model.tree_.root.feature == "y"  # 40 leaves: far too wide for a page at 9 pt
    assert plot_tree(model, max_depth=1).figure.get_size_inches()[0] > MAX_WIDTH
    with pytest.warns(UserWarning, match="even one level is wider"):
        ax = plot_tree(model)  # even depth 1 does not fit: it draws depth 1 (the root's
    nodes, _ = _boxes(ax)  # test and its branches), the widest it must
    assert len(nodes) == 41


def test_white_opaque_background_and_9_point_text(wm20):
    ax = plot_tree(ID3Classifier().fit(*wm20))
    fig = ax.figure
    assert fig.get_facecolor() == (1, 1, 1, 1) and ax.get_facecolor() == (1, 1, 1, 1)
    assert {t.get_fontsize() for t in ax.texts} == {9}
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=72)  # at 72 dpi, one point is one pixel
    image = Image.open(buffer).convert("RGBA")
    assert image.getpixel((0, 0)) == (255, 255, 255, 255)
    assert all(abs(px - 72 * inches) <= 1
               for px, inches in zip(image.size, fig.get_size_inches()))
    # a one-line label is about 10 pt high (ascent + descent of a 9 pt font)
    label = next(t for t in ax.texts if t.get_text() == "hard")
    height = label.get_window_extent(fig.canvas.get_renderer()).height * 72 / fig.dpi
    assert 9 <= height <= 12
    assert fig.get_size_inches()[0] <= MAX_WIDTH  # not shrunk on the page: 9 pt stays 9 pt


def test_leaf_table_reads_each_leaf_as_a_rule():
    # a and b tie at the root (gain H(1, 3) - 1/2 = 0.311 each); a is first. Below a = u, b
    # separates the two rows; a = v is pure.
    X = pd.DataFrame({"a": ["u", "u", "v", "v"], "b": ["p", "q", "p", "q"]})
    y = ["no", "yes", "yes", "yes"]
    table = dtree.leaf_table(dtree.ID3Classifier().fit(X, y))
    assert table.index.tolist() == [1, 2, 3] and table.index.name == "leaf"
    assert table.columns.tolist() == ["a", "b", "counts", "predicts", "stop_reason"]
    assert table.values.tolist() == [
        ["u", "p", "no 1, yes 0", "no", "pure"],
        ["u", "q", "no 0, yes 1", "yes", "pure"],
        ["v", "", "no 0, yes 2", "yes", "pure"],
    ]


def test_leaf_table_marks_empty_branches_and_needs_a_fitted_model():
    X = pd.DataFrame({"a": pd.Categorical(["u", "u", "v"], categories=["u", "v", "w"])})
    table = dtree.leaf_table(dtree.ID3Classifier().fit(X, ["no", "no", "yes"]))
    assert table["a"].tolist() == ["u", "v", "w"]
    assert table["counts"].tolist() == ["no 2, yes 0", "no 0, yes 1", "-"]
    assert table["stop_reason"].tolist() == ["pure", "pure", "empty"]
    with pytest.raises(NotFittedError):
        dtree.leaf_table(dtree.ID3Classifier())


def test_export_graphviz_weather_by_hand():
    # ID3 on the weather: outlook (5 no, 9 yes) into sunny (3 no, 2 yes; humidity below),
    # overcast (4 yes) and rainy (2 no, 3 yes; windy below); boxes numbered in pre-order
    X, y = dtree.datasets.load_arff("weather.nominal", return_X_y=True)
    dot = dtree.export_graphviz(ID3Classifier().fit(X, y))
    lines = dot.splitlines()
    assert lines[0] == "digraph Tree {" and lines[-1] == "}"
    assert lines[3:-1] == [
        '0 [label="outlook\\nn = 14\\nvalue = [5, 9]\\nclass = yes"] ;',
        '0 -> 1 [label="= sunny"] ;', '0 -> 4 [label="= overcast"] ;',
        '0 -> 5 [label="= rainy"] ;',
        '1 [label="humidity\\nn = 5\\nvalue = [3, 2]\\nclass = no"] ;',
        '1 -> 2 [label="= high"] ;', '1 -> 3 [label="= normal"] ;',
        '2 [label="n = 3\\nvalue = [3, 0]\\nclass = no"] ;',
        '3 [label="n = 2\\nvalue = [0, 2]\\nclass = yes"] ;',
        '4 [label="n = 4\\nvalue = [0, 4]\\nclass = yes"] ;',
        '5 [label="windy\\nn = 5\\nvalue = [2, 3]\\nclass = yes"] ;',
        '5 -> 6 [label="= TRUE"] ;', '5 -> 7 [label="= FALSE"] ;',
        '6 [label="n = 2\\nvalue = [2, 0]\\nclass = no"] ;',
        '7 [label="n = 3\\nvalue = [0, 3]\\nclass = yes"] ;']


def test_export_graphviz_depth_fill_and_regression():
    X, y = dtree.datasets.load_arff("weather.nominal", return_X_y=True)
    dot = dtree.export_graphviz(ID3Classifier().fit(X, y), max_depth=1, filled=True)
    # 9 of 14 rows are "yes": opacity (9/14 - 1/2) / (1/2) = 0.286, 73 of 255 = 0x49
    assert ('0 [label="outlook\\nn = 14\\nvalue = [5, 9]\\nclass = yes", '
            'fillcolor="#ff7f0e49"]') in dot
    assert '1 [label="… 2 leaves\\nn = 5\\nvalue = [3, 2]\\nclass = no"' in dot
    assert dot.count("->") == 3 and "4 [" not in dot
    regressor = dtree.CARTRegressor(max_depth=1).fit(np.arange(6.0)[:, None],
                                                     [1, 1, 1, 5, 5, 6.0])
    dot = dtree.export_graphviz(regressor, filled=True)
    assert '0 -> 1 [label="<= 2.5"] ;' in dot and '2 [label="n = 3\\nvalue = 5.333"' in dot
    assert dot.count("fillcolor=\"#ff7f0e00\"") == 1  # the lowest prediction, 1: transparent


def test_export_graphviz_escapes_quotes():
    X = pd.DataFrame({'say "hi"': ["a", "b", "a", "b"]})
    dot = dtree.export_graphviz(ID3Classifier().fit(X, ["x", "y", "x", "y"]))
    assert '0 [label="say \\"hi\\"\\n' in dot


def _overlapping(ax) -> list[tuple[str, str]]:
    """Pairs of drawn texts (node boxes and edge labels) whose frames overlap on the canvas."""
    ax.figure.canvas.draw()
    frames = [(t.get_text(), t.get_bbox_patch().get_window_extent()) for t in ax.texts]
    return [(a, b) for i, (a, fa) in enumerate(frames) for b, fb in frames[i + 1:]
            if fa.x0 < fb.x1 - 0.5 and fb.x0 < fa.x1 - 0.5 and fa.y0 < fb.y1 - 0.5
            and fb.y0 < fa.y1 - 0.5]


def _within(ax) -> bool:
    """Whether every drawn text lies inside the Axes."""
    canvas = ax.get_window_extent()
    frames = [t.get_bbox_patch().get_window_extent() for t in ax.texts]
    return all(canvas.x0 - 1 <= f.x0 and f.x1 <= canvas.x1 + 1 and canvas.y0 - 1 <= f.y0
               and f.y1 <= canvas.y1 + 1 for f in frames)


@pytest.mark.parametrize("make", [dtree.C45Classifier, dtree.CARTClassifier])
def test_a_tree_drawn_into_a_given_ax_fits_it_without_overlaps(make):
    X, y = dtree.datasets.load_mushroom(return_X_y=True)
    model = make().fit(X, y)
    fig = plt.figure(figsize=(12, 5))
    ax = fig.add_axes((0, 0, 1, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the whole tree fits, with smaller text: no warning
        plot_tree(model, ax=ax)
    nodes, _ = _boxes(ax)
    assert len(nodes) == len(list(model.tree_.walk()))
    assert dtree.plot.MIN_FONTSIZE <= min(t.get_fontsize() for t in ax.texts) < 9
    assert _overlapping(ax) == [] and _within(ax)
    plt.close(fig)


def test_a_tree_too_large_for_the_ax_is_folded_with_a_warning():
    X, y = dtree.datasets.load_mushroom(return_X_y=True)
    model = ID3Classifier(missing="fractional").fit(X, y)  # 33 leaves, 4 levels
    fig = plt.figure(figsize=(12, 5))
    ax = fig.add_axes((0, 0, 1, 1))
    with pytest.warns(UserWarning, match="only [1-3] of its 4 levels fit"):
        plot_tree(model, ax=ax)
    assert any(t.get_text().startswith("…") for t in ax.texts)
    assert _overlapping(ax) == [] and _within(ax)
    plt.close(fig)


def test_long_category_sets_are_wrapped_and_cut():
    label = dtree.plot._edge_label("in {" + ", ".join(f"country-{i}" for i in range(30)) + "}")
    lines = label.split("\n")
    assert len(lines) == dtree.plot.LABEL_LINES
    assert all(len(line) <= dtree.plot.LABEL_WIDTH + 12 for line in lines)
    shown = label.count("country-")
    assert lines[-1].endswith(f"… +{30 - shown}}}") and 0 < shown < 30
    assert dtree.plot._edge_label("in {a, b}") == "in {a, b}"
    assert dtree.plot._edge_label("= slightly blurry") == "slightly blurry"


def test_filled_and_proportion(wm20):
    model = ID3Classifier().fit(*wm20)
    fig, ax = plt.subplots(figsize=(10, 5))
    nodes, _ = _boxes(plot_tree(model, ax=ax, filled=True, proportion=True))
    root = next(t for t in nodes if t.get_text() == "texture?\nn = 17")
    assert root.get_bbox_patch().get_facecolor()[:3] != (1.0, 1.0, 1.0)  # coloured: majority
    assert "yes\nno: 0.00\nyes: 1.00" in [t.get_text() for t in nodes]
    plt.close("all")


def test_plot_cp_is_rparts_plotcp():
    """rpart's plotcp, read off its source (rpart 4.1.19): evenly spaced trees labelled
    signif(sqrt(CP_i CP_(i-1)), 2) with Inf for the root, sizes nsplit + 1 on top, bars of one
    xstd, and the line at xerror + xstd of the first smallest xerror."""
    import pandas as pd

    table = pd.DataFrame({"CP": [0.1764706, 0.01960784, 0.0], "nsplit": [0, 1, 4],
                          "rel error": [1.0, 0.82, 0.76], "xerror": [1.0, 0.9, 0.9],
                          "xstd": [0.2, 0.19, 0.3]})
    ax = dtree.plot_cp(table)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Inf", "0.059", "0"]
    # sqrt(0.1764706 * 0.01960784) = 0.0588...
    top = ax.child_axes[0] if ax.child_axes else None
    assert top is not None and [t.get_text() for t in top.get_xticklabels()] == ["1", "2", "5"]
    line, = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert line.get_ydata()[0] == pytest.approx(0.9 + 0.19)  # the first of the two minima
    with pytest.raises(ValueError, match="missing: xerror, xstd"):
        dtree.plot_cp(table[["CP", "nsplit"]])
    with pytest.raises(ValueError, match="upper must be"):
        dtree.plot_cp(table, upper="leaves")


def test_plot_tree_draws_every_leaf_of_a_tree_up_to_32_leaves():
    # 8 leaves with three long class names: wider than a book page at 9 pt
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(size=(400, 3)), columns=["first", "second", "third"])
    names = np.array(["a long class name", "another long name", "yet another name"])
    y = names[(4 * (X["first"] > 0.5) + 2 * (X["second"] > 0.5) + (X["third"] > 0.5)) % 3]
    model = dtree.CARTClassifier(max_depth=3).fit(X, y)
    assert len(model.tree_.root.leaves()) == 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing folded, nothing to warn of
        ax = dtree.plot_tree(model)
    assert ax.figure.get_figwidth() > dtree.plot.MAX_WIDTH
    assert not any(t.get_text().startswith("…") for t in ax.texts)
    assert sum(t.get_text().split("\n")[0] in names for t in ax.texts) >= 8
    # a larger tree is folded to the page, saying so
    big = dtree.CARTClassifier().fit(X, rng.permutation(y))  # noise: a large tree
    assert len(big.tree_.root.leaves()) > dtree.plot.WHOLE_LEAVES
    with pytest.warns(UserWarning, match="folded"):
        ax = dtree.plot_tree(big)
    assert ax.figure.get_figwidth() <= dtree.plot.MAX_WIDTH


def test_plot_tree_percent_and_decimals(wm20):
    X, y = wm20
    model = dtree.CARTClassifier(max_depth=1).fit(X, y)
    texts = [t.get_text() for t in dtree.plot_tree(model, percent=True).texts]
    # the root holds all 17 melons; a leaf's share of them, in whole percent
    assert "texture?\nn = 17, 100%" in texts or any(t.endswith("n = 17, 100%") for t in texts)
    leaf_weights = [leaf.weighted_n_samples for leaf in model.tree_.root.leaves()]
    for w in leaf_weights:
        assert any(t.endswith(f"{100 * w / 17:.0f}%") for t in texts)
    shares = dtree.plot_tree(model, proportion=True, decimals=3).texts
    assert any(re.search(r": 0\.\d{3}$", t.get_text(), re.MULTILINE) for t in shares)
    with pytest.raises(ValueError, match="decimals"):
        dtree.plot_tree(model, decimals=-1)
