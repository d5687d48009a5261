"""Trees as text: one line per node, indented by depth, with the weighted class counts; the
leaves as a table, one row per leaf; the tree in Graphviz's DOT language; and a binary tree as
scikit-learn's arrays."""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
from sklearn.exceptions import NotFittedError

from ._validation import check_integer
from .sktree import Tree, TreeArrays, binary_arrays
from .tree import Node, most_probable, numbering

__all__ = ["export_text", "export_graphviz", "leaf_summary", "leaf_table", "TreeArrays",
           "tree_arrays"]

STUB = "…"  # stands for a subtree below ``max_depth``


def weight_text(w: float) -> str:
    """A weight to three decimals at most: 5, 0.467."""
    return f"{round(float(w), 3):g}"


def fitted_tree(model) -> Node:
    """The root of ``model``'s fitted tree; NotFittedError if it has none."""
    root = getattr(model, "tree_", None)
    if isinstance(root, Tree):  # CART's: scikit-learn's interface over the root
        root = root.root
    if not isinstance(root, Node):
        raise NotFittedError(f"This {type(model).__name__} instance is not fitted yet: call "
                             "'fit' before drawing or printing its tree.")
    return root


def decision_loss(model) -> np.ndarray | None:
    """The loss matrix by which ``model`` names a node's class (``CARTClassifier`` with priors
    or a loss: ``loss_``), or None: the most probable class."""
    return model.loss_ if getattr(model, "costs_", None) is not None else None


def predicted_class(node: Node, classes: np.ndarray, loss: np.ndarray | None = None):
    """The class a node predicts, as :func:`dtree.tree.most_probable` names it: the most
    probable (the first in ``classes`` on a tie, up to round-off), or with a ``loss`` matrix
    the one of least expected loss, sum_j loss[j, i] p(j|t)."""
    return classes[int(most_probable(node.prediction, loss))]


def class_counts(node: Node, classes: np.ndarray, sep: str = " ") -> list[str]:
    """A node's weighted count of each class: ['no 0', 'yes 5']."""
    return [f"{c}{sep}{weight_text(v)}" for c, v in zip(classes, node.value)]


def leaf_summary(node: Node, classes: np.ndarray | None, loss: np.ndarray | None = None
                 ) -> str:
    """'yes (no 0, yes 5)' for a classifier's node (its class as ``predicted_class`` says),
    '3.2 (n 7)' for a regressor's."""
    if classes is None:
        return f"{node.prediction[0]:.4g} (n {weight_text(node.weighted_n_samples)})"
    label = predicted_class(node, classes, loss)
    if node.stop_reason == "empty":
        return f"{label} (empty branch: parent's majority)"
    return f"{label} ({', '.join(class_counts(node, classes))})"


def is_stub(node: Node, root: Node, max_depth: int | None) -> bool:
    """Whether ``node`` stands for its subtree: an internal node at depth ``max_depth``."""
    return max_depth is not None and not node.is_leaf and node.depth - root.depth >= max_depth


def hidden_leaves(node: Node) -> str:
    """How many leaves a stub hides: '… 3 leaves'."""
    leaves = node.n_leaves()
    return f"{STUB} {leaves} {'leaf' if leaves == 1 else 'leaves'}"


def stub_summary(node: Node) -> str:
    """What a stub hides: '… 3 leaves, n 5'."""
    return f"{hidden_leaves(node)}, n {weight_text(node.weighted_n_samples)}"


def export_text(model, target: str | None = None, max_depth: int | None = None,
                show_surrogates: bool = False) -> str:
    """The fitted tree as indented text, in the style of scikit-learn's ``export_text``.

    Each branch line reads ``feature = value``, ``feature <= t`` / ``feature > t`` or
    ``feature in {a, b}``; each leaf line gives the predicted class and the weighted class counts
    of the training rows that reached it (fractions appear when rows were split by missing
    values), or a regressor's prediction and weight. ``target`` names the leaves' answer:
    "class" for a classifier and "value" for a regressor by default.
    With ``max_depth``, the printed tree is at most that deep (the root has depth 0): an internal
    node at depth ``max_depth`` is printed as one stub line, ``… 3 leaves, n 5``, instead of its
    subtree. With ``show_surrogates`` each CART split is preceded by its surrogate splits, one
    per line, best first, with agreement and adjusted agreement, then the branch a row goes to
    when none can place it (``Node.surrogates``, ``Node.larger_branch``).

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.
    target : str or None, default=None
        The word before each leaf's answer ("class" or "value" if None).
    max_depth : int or None, default=None
        The deepest level printed in full.
    show_surrogates : bool, default=False
        Print each CART split's surrogates.

    Returns
    -------
    str
        One line per branch and leaf, without a final newline.
    """
    root = fitted_tree(model)
    check_integer(max_depth, "max_depth", 0, allow_none=True)
    classes, loss = getattr(model, "classes_", None), decision_loss(model)
    if target is None:
        target = "value" if classes is None else "class"
    lines: list[str] = []
    # pre-order without recursion, so any depth works: a stack of nodes and ready branch lines
    stack: list[tuple[Node, str] | str] = [(root, "")]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        node, indent = item
        if node.is_leaf:
            lines.append(f"{indent}|--- {target}: {leaf_summary(node, classes, loss)}")
        elif is_stub(node, root, max_depth):
            lines.append(f"{indent}|--- {stub_summary(node)}")
        else:
            for label, child in reversed(list(zip(node.branch_labels(), node.children))):
                stack.append((child, indent + "|   "))
                stack.append(f"{indent}|--- {node.feature} {label}")
            if show_surrogates and (node.surrogates or node.larger_branch is not None):
                lines += [f"{indent}|    {line}" for line in _surrogate_lines(node)]
    return "\n".join(lines)


def _surrogate_lines(node: Node) -> list[str]:
    """A CART split's surrogates, best first, one per line ('surrogate: Number > 6.5 (agree
    0.802, adj 0.158)'), then where prediction sends a row that none can place ('otherwise:
    right', the larger child; 'otherwise: stays here' if the children hold as many rows)."""
    side = {0: "left", 1: "right", None: "stays here"}[node.larger_branch]
    return [f"surrogate: {s.rule} (agree {s.agreement:.3f}, adj {s.adjusted_agreement:.3f})"
            for s in node.surrogates] + [f"otherwise: {side}"]


def leaf_paths(root: Node) -> Iterator[tuple[Node, tuple[tuple[Node, int], ...]]]:
    """Each leaf below ``root``, left to right, with its path: the (node, branch taken) pairs
    from ``root`` down."""
    stack: list[tuple[Node, tuple[tuple[Node, int], ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node.is_leaf:
            yield node, path
        else:
            stack.extend((child, (*path, (node, branch))) for branch, child in
                         reversed(list(enumerate(node.children))))


def leaf_table(model) -> pd.DataFrame:
    """One row per leaf, left to right, read as a rule: a column for each attribute tested
    above some leaf (the branch taken, blank where the path does not test it; two tests of one
    numeric attribute are joined with ", "), then the weighted class counts ("-" for an empty
    branch) or a regressor's weight of rows, the prediction and the stop reason.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.

    Returns
    -------
    pandas.DataFrame
        One row per leaf, indexed 1, 2, ... (``leaf``).
    """
    classes, loss = getattr(model, "classes_", None), decision_loss(model)
    rows, labels = [], {}  # each test's labels, read once
    for node, path in leaf_paths(fitted_tree(model)):
        taken: dict = {}
        for test, branch in path:
            if id(test) not in labels:
                labels[id(test)] = test.branch_labels()
            answer = labels[id(test)][branch].removeprefix("= ")
            taken[test.feature] = f"{taken[test.feature]}, {answer}" if test.feature in taken \
                else answer
        if node.stop_reason == "empty":
            counts = "-"
        elif classes is None:
            counts = f"n {weight_text(node.weighted_n_samples)}"
        else:
            counts = ", ".join(class_counts(node, classes))
        predicted = (f"{node.prediction[0]:.4g}" if classes is None
                     else str(predicted_class(node, classes, loss)))
        rows.append({**taken, "counts": counts, "predicts": predicted,
                     "stop_reason": node.stop_reason})
    table = pd.DataFrame(rows)
    tested = [c for c in table.columns if c not in ("counts", "predicts", "stop_reason")]
    table[tested] = table[tested].fillna("")
    table.index = pd.RangeIndex(1, len(table) + 1, name="leaf")
    return table[tested + ["counts", "predicts", "stop_reason"]]


def export_graphviz(model, max_depth: int | None = None, filled: bool = False,
                    class_names: bool = True) -> str:
    """The fitted tree in Graphviz's DOT language (render it with ``dot -Tpng``, or the
    ``graphviz`` package), as scikit-learn's ``export_graphviz`` draws its trees, multiway
    splits included: one box per node, numbered as ``apply`` numbers them (pre-order), with the
    tested attribute, the weighted number of rows and, for a classifier, the weighted class
    counts and (``class_names``) the predicted class; a regressor's box gives its prediction.
    Each edge carries its branch's label ("<= 0.38", "= clear", "in {a, b}", "is missing").
    ``max_depth`` draws an internal node at that depth as a box for its hidden subtree ("… 3
    leaves"). ``filled`` colours a classifier's box by its predicted class, the stronger the
    purer (opacity (p_max - 1/K) / (1 - 1/K) for K classes), and a regressor's by its
    prediction within the tree's range.

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.
    max_depth : int or None, default=None
        The deepest level drawn in full.
    filled : bool, default=False
        Colour the boxes, as above.
    class_names : bool, default=True
        Name a classifier's predicted class in each box.

    Returns
    -------
    str
        The DOT source, ``digraph Tree {...}``."""
    root = fitted_tree(model)
    check_integer(max_depth, "max_depth", 0, allow_none=True)
    classes, loss = getattr(model, "classes_", None), decision_loss(model)
    drawn, stack = [], [root]  # the boxes in pre-order: a stub's subtree is not drawn
    while stack:
        node = stack.pop()
        drawn.append(node)
        if not is_stub(node, root, max_depth):
            stack.extend(reversed(node.children))
    ids = numbering(drawn)
    predictions = [n.prediction[0] for n in drawn if n.weighted_n_samples > 0]
    low, high = (min(predictions), max(predictions)) if classes is None else (None, None)
    lines = ["digraph Tree {",
             'node [shape=box, style="filled, rounded", fontname="helvetica", '
             'color="black", fillcolor="white"] ;',
             'edge [fontname="helvetica"] ;']
    for node in drawn:
        stub = is_stub(node, root, max_depth)
        text = ([hidden_leaves(node)] if stub else
                [] if node.is_leaf else [node.feature])
        text.append(f"n = {weight_text(node.weighted_n_samples)}")
        if classes is None:
            text.append(f"value = {node.prediction[0]:.4g}")
        else:
            text.append("value = [" + ", ".join(weight_text(v) for v in node.value) + "]")
            if class_names:
                text.append(f"class = {predicted_class(node, classes, loss)}")
        label = "\\n".join(_dot_escape(t) for t in text)
        colour = f', fillcolor="{_fill(node, classes, low, high, loss)}"' if filled else ""
        lines.append(f'{ids[id(node)]} [label="{label}"{colour}] ;')
        if not stub:
            lines += [f'{ids[id(node)]} -> {ids[id(child)]} [label="{_dot_escape(branch)}"] ;'
                      for branch, child in zip(node.branch_labels(), node.children)]
    lines.append("}")
    return "\n".join(lines)


def _dot_escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def _fill(node: Node, classes, low, high, loss: np.ndarray | None = None) -> str:
    """A box's colour, #rrggbbaa: the predicted class's colour (matplotlib's tab10 cycle;
    :func:`dtree.tree.most_probable`, by ``loss`` if the model names its classes by one), as
    opaque as the node is pure; for a regressor one colour, as opaque as the prediction is
    high within [low, high]."""
    from matplotlib.colors import to_hex
    from matplotlib import colormaps
    if classes is None:
        colour = colormaps["tab10"](1)
        strength = 0.0 if high == low else (node.prediction[0] - low) / (high - low)
    else:
        k = len(classes)
        best = int(most_probable(node.prediction, loss))
        colour = colormaps["tab10"](best % 10)
        strength = 1.0 if k == 1 else max(0.0, (float(node.prediction[best]) - 1 / k)
                                          / (1 - 1 / k))
    return to_hex(colour, keep_alpha=False) + f"{round(255 * strength):02x}"


def tree_arrays(model) -> TreeArrays:
    """The fitted binary tree of ``model`` as scikit-learn's arrays
    (:class:`~dtree.sktree.TreeArrays`), for tools written for
    ``sklearn.tree.DecisionTreeClassifier.tree_`` (CART's ``tree_`` answers them itself:
    :class:`dtree.sktree.Tree`); a C4.5 tree of numeric attributes alone is binary too. Only
    thresholds fit that layout: a multiway or categorical split is a ValueError naming the
    node's attribute. The arrays hold no surrogates: a row with a missing value cannot be
    routed by them alone.
    ``n_node_samples`` counts rows as the tree does (a row split by a missing value counts in
    each branch it enters).

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.

    Returns
    -------
    dtree.sktree.TreeArrays
        ``children_left``, ``children_right``, ``feature``, ``threshold``, ``value``,
        ``impurity``, ``n_node_samples``, ``weighted_n_node_samples`` and
        ``missing_go_to_left``, one entry per node in pre-order (``apply``'s ids).
    """
    return binary_arrays(fitted_tree(model))
