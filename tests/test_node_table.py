"""A tree's columns (`dtree.tree.NodeTable`) and `Node`, the view of one of its rows."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_regression

from dtree import CARTRegressor, ID3Classifier, Node
from dtree.datasets import load_watermelon
from dtree.surrogates import Surrogate
from dtree.tree import Blocks, NumberRows, SurrogateRuns, copy_tree, make_leaf


def leaf(counts: list[float], depth: int = 1) -> Node:
    counts = np.array(counts, dtype=float)
    return Node(value=counts, prediction=counts / counts.sum(), n_samples=int(counts.sum()),
                weighted_n_samples=float(counts.sum()), impurity=0.0, depth=depth)


@pytest.fixture(scope="module")
def zhou_tree() -> Node:
    data = load_watermelon("2.0")
    return ID3Classifier().fit(data.iloc[:, :-1], data.iloc[:, -1]).tree_


def test_a_node_is_one_view_of_its_row(zhou_tree):
    first = zhou_tree.children[0]
    assert first is zhou_tree.children[0] and first._table is zhou_tree._table
    assert [n.n_samples for n in zhou_tree.children] == [9, 5, 3]  # clear, slightly blurry, blurry
    assert type(first.n_samples) is int and type(first.weighted_n_samples) is float
    assert zhou_tree.threshold is None and zhou_tree.feature_index == 3  # texture
    twin = copy_tree(zhou_tree)
    twin.children[0].stop_reason = "edited"
    assert twin.children[0]._table.stop_reason[twin.children[0]._row] == "edited"
    assert zhou_tree.children[0].stop_reason is None  # the copy has a table of its own


def test_changing_the_children_list_changes_the_tree():
    root = leaf([2, 2], depth=0)
    a, b, c = leaf([2, 0]), leaf([0, 2]), leaf([1, 1])
    root.children.append(a)
    root.children.append(b)
    assert root.children == [a, b] and a._table is root._table is b._table
    root.children[1] = c
    assert root.children == [a, c]
    root.children.clear()
    assert root.is_leaf and list(root.walk()) == [root]
    root.children = [a, b]
    assert [n for n in root.walk()] == [root, a, b]


def test_a_tree_made_bottom_up_keeps_its_nodes():
    # each node made with its children: the largest table takes the others' rows
    lower = leaf([3, 1], depth=1)
    lower.children = [leaf([3, 0], depth=2), leaf([0, 1], depth=2)]
    grandchildren = lower.children
    root = leaf([3, 3], depth=0)
    root.children = [lower, leaf([0, 2])]
    assert root.children[0] is lower and lower.children == grandchildren
    assert [n.depth for n in root.walk()] == [0, 1, 2, 2, 1]


def test_a_node_of_other_lengths_is_refused():
    with pytest.raises(ValueError, match="as many entries"):
        leaf([1, 1], depth=0).children = [leaf([1, 1, 1])]


def test_a_copy_holds_only_the_nodes_it_reaches(zhou_tree):
    twin = copy_tree(zhou_tree)
    make_leaf(twin.children[0], "pruned")
    again = copy_tree(twin)
    assert again._table.size == len(list(twin.walk())) < twin._table.size
    assert [n.n_samples for n in again.walk()] == [n.n_samples for n in twin.walk()]
    assert len(list(zhou_tree.walk())) == zhou_tree._table.size  # the original as grown


def test_a_fit_writes_rows_not_nodes():
    # the compiled subtrees are written column by column: no Node (view) is made for them
    X, y = make_regression(n_samples=6000, n_features=5, random_state=0)
    tree = CARTRegressor(max_surrogates=0).fit(X, y).tree_.root
    table = tree._table
    made = sum(view is not None for view in table.views)
    assert table.size > 10_000 and made < table.size / 100


def test_blocks_read_and_write_rows_across_blocks():
    column = Blocks(2)
    column.add(2)
    column.add(3)
    column[slice(2, 5)] = np.arange(6.0).reshape(3, 2)  # the second block's rows
    column[1] = [9.0, 9.0]
    assert column[3].tolist() == [2.0, 3.0] and column[1].tolist() == [9.0, 9.0]
    assert column.take(np.array([4, 0, 1])).tolist() == [[4.0, 5.0], [0.0, 0.0], [9.0, 9.0]]
    assert column.take().shape == (5, 2) and len(column.blocks) == 2


def test_number_rows_read_and_write_like_a_list_of_rows():
    column = NumberRows([None, [1.0, 2.0], None])
    column.extend([[3.0], None])
    column[0] = [4.0, 5.0, 6.0]
    column[1] = None  # its numbers stay behind until the column is taken
    column[-1] = []  # an empty row is not None
    assert len(column) == 5 and column[1] is None and column[-1].tolist() == []
    assert column[-2].tolist() == [3.0]
    assert [None if row is None else row.tolist() for row in column] == [
        [4.0, 5.0, 6.0], None, None, [3.0], []]
    assert column.flat(np.array([3, 0])).tolist() == [3.0, 4.0, 5.0, 6.0]
    kept = column[2:]  # a slice is a column holding those rows' numbers alone
    assert type(kept) is NumberRows and kept.used == 1 and kept[1].tolist() == [3.0]
    with pytest.raises(ValueError, match="2 rows given 1"):
        column[0:2] = [None]


def test_surrogate_runs_give_back_the_surrogates_written():
    numeric = Surrogate("age", 0, 0.9, 0.5, threshold=30.5, reverse=True)
    coded = Surrogate("colour", 2, 0.75, 0.25, category_sets=(frozenset({"red"}), frozenset(
        {"blue", "green"})), branch_of_code=(0, 1, 1))
    column = SurrogateRuns([(), (numeric, coded)])
    column.extend([(coded,), ()])
    assert column[0] == () and column[3] == () and column[2] == (coded,)
    assert column[1] == (numeric, coded) and column[1][1].threshold is None
    assert column.taken(np.array([2, 1])).fields["feature_index"].tolist() == [2, 0, 2]


def test_a_grown_tree_holds_its_scores_as_one_block():
    # every scored node's row of five scores, end to end, and nothing more
    X, y = make_regression(n_samples=3000, n_features=5, random_state=0)
    table = CARTRegressor().fit(X, y).tree_.root._table
    scored = sum(table.scores.start[:table.size] >= 0)
    assert scored == sum(table.n_children[:table.size] > 0) > 1000
    assert len(table.scores.fields["number"]) == table.scores.used == 5 * scored
    runs = table.surrogates
    assert runs.used == len(runs.fields["agreement"]) == sum(
        len(node.surrogates) for node in table.node(0).walk()) > 1000


def test_what_a_table_keeps_follows_an_edit_in_place():
    # the pre-order, the routing arrays and scikit-learn's arrays are kept by the table until
    # it is next written: after make_leaf they are made again, and agree with the tree walked
    # node by node (Node.walk reads the children, not the kept pre-order)
    X, y = make_regression(n_samples=300, n_features=4, random_state=0)
    model = CARTRegressor(max_depth=4).fit(X, y)
    root, kept = model.tree_.root, model.tree_.root._table.derived
    model.apply(X)  # the pre-order and routing arrays made and kept
    before = (model.tree_.node_count, root._table.routing())
    assert set(kept) >= {("preorder", 0), ("routing", 0), ("sklearn", 0)}
    cut = next(node for node in root.walk() if node is not root and node.children)
    make_leaf(cut, "by hand")
    assert not kept  # emptied by the edit
    walked = list(root.walk())
    assert model.tree_.node_count == len(walked) < before[0]
    assert root.numbers() == {id(node): i for i, node in enumerate(walked)}
    assert root.n_leaves() == sum(node.is_leaf for node in walked) == model.get_n_leaves()
    ids = model.apply(X)
    assert ids.max() < len(walked) and all(walked[i].is_leaf for i in set(ids.tolist()))
    assert root._table.routing() is not before[1]
    np.testing.assert_array_equal(model.predict(X), [walked[i].prediction[0] for i in ids])
