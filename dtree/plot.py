"""Drawing a tree with matplotlib: boxes for nodes, labelled edges, any number of branches.

The figure is sized to the tree, in inches, so that its text keeps the requested size in points
when the page shows the figure at its natural width. A tree too wide for a book page
(``MAX_WIDTH``) is drawn only as deep as fits, with a "…" stub box for each subtree left out;
`export_text` prints the whole tree.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from ._validation import check_integer
from .export import STUB, class_counts, fitted_tree, is_stub, predicted_class, weight_text
from .tree import Node

__all__ = ["plot_tree"]

MAX_WIDTH = 6.6  # inches: at 100 dpi, within the ~690 px a page gives an output at 1280 px
MAX_HEIGHT = 12.0  # inches: about ten levels
GAP = 0.08  # inches between neighbouring boxes
BOX_PAD = 0.4  # box padding, in units of the font size
LINE = 1.25  # line height, in units of the font size


@dataclass
class _Box:
    node: Node
    parent: int | None  # index of the parent box, None for the root
    label: str  # the branch condition on the edge from the parent ('' for the root)
    text: str
    stub: bool
    x: float = 0.0  # centre, in inches from the figure's top left corner
    y: float = 0.0
    height: float = 0.0
    label_height: float = 0.0


@lru_cache(maxsize=4096)
def _text_size(text: str, fontsize: float) -> tuple[float, float]:
    """Width and height in inches of a (multi-line) text at ``fontsize`` points."""
    if not text:
        return 0.0, 0.0
    prop, measure = FontProperties(size=fontsize), TextToPath()
    lines = text.split("\n")
    width = max(measure.get_text_width_height_descent(s, prop, ismath=False)[0] for s in lines)
    return width / 72, len(lines) * LINE * fontsize / 72


def _node_text(node: Node, classes: np.ndarray | None, stub: bool) -> str:
    """'texture?' and n for a test; the class and its counts (one per line) for a leaf."""
    n = weight_text(node.weighted_n_samples)
    if stub:
        return f"{STUB}\nn = {n}"
    if not node.is_leaf:
        return f"{node.feature}?\nn = {n}"
    if classes is None:
        return f"{node.prediction[0]:.4g}\nn = {n}"
    label = predicted_class(node, classes)
    if node.stop_reason == "empty":
        return f"{label}\n(empty)"
    if len(classes) > 4:
        return f"{label}\nn = {n}"
    return "\n".join([str(label), *class_counts(node, classes, sep=": ")])


def _visible(root: Node, classes, max_depth: int | None) -> list[_Box]:
    """The boxes to draw, in pre-order (so leaves come left to right); without recursion."""
    boxes: list[_Box] = []
    stack: list[tuple[Node, int | None, str]] = [(root, None, "")]
    while stack:
        node, parent, label = stack.pop()
        stub = is_stub(node, root, max_depth)
        boxes.append(_Box(node, parent, label, _node_text(node, classes, stub), stub))
        if not node.is_leaf and not stub:
            labels = [lab.removeprefix("= ") for lab in node.branch_labels()]
            stack.extend((child, len(boxes) - 1, lab)
                         for lab, child in reversed(list(zip(labels, node.children))))
    return boxes


def _layout(boxes: list[_Box], fontsize: float) -> tuple[float, float]:
    """Place the boxes, in inches. Each subtree gets a band as wide as the larger of its own box
    (or edge label) and its children's bands side by side; a box is centred in its band, its
    children's bands are centred below it, so no two boxes or labels overlap. Returns the width
    and height of the drawing."""
    pad = 2 * BOX_PAD * fontsize / 72
    children: dict[int, list[int]] = {}
    for i, box in enumerate(boxes):
        if box.parent is not None:
            children.setdefault(box.parent, []).append(i)
    band = [0.0] * len(boxes)
    for i in range(len(boxes) - 1, -1, -1):  # in pre-order, children come after their parent
        box = boxes[i]
        width, box.height = _text_size(box.text, fontsize)
        label_width, box.label_height = _text_size(box.label, fontsize)
        box.height += pad
        band[i] = max(max(width + pad, label_width) + GAP,
                      sum(band[c] for c in children.get(i, ())))
    left = [GAP / 2] + [0.0] * (len(boxes) - 1)
    for i, box in enumerate(boxes):
        box.x = left[i] + band[i] / 2
        kids = children.get(i, [])
        start = box.x - sum(band[c] for c in kids) / 2
        for c in kids:
            left[c], start = start, start + band[c]
    box_height = max(b.height for b in boxes)
    level = box_height + max(b.label_height for b in boxes) + 0.3
    top = boxes[0].node.depth
    for box in boxes:
        box.y = -(box_height / 2 + GAP + (box.node.depth - top) * level)
    return band[0] + GAP, -min(b.y for b in boxes) + box_height / 2 + GAP


def _fitting_depth(root: Node, classes, fontsize: float) -> int | None:
    """The largest depth at which the drawing fits in MAX_WIDTH x MAX_HEIGHT (None: all of it;
    at least 1). A binary search: a deeper drawing is never smaller."""
    def fits(depth: int | None) -> bool:
        width, height = _layout(_visible(root, classes, depth), fontsize)
        return width <= MAX_WIDTH and height <= MAX_HEIGHT

    if fits(None):
        return None
    low, high = 1, root.height()  # the answer is in [low, high), or low when nothing fits
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _frame(box: _Box, classified: bool) -> dict:
    """A test's box is white, a leaf's is coloured by its class, a stub's is grey and dashed."""
    if box.stub:
        fill = "0.93"
    elif not box.node.is_leaf:
        fill = "white"
    else:
        fill = plt.get_cmap("Pastel1")(int(np.argmax(box.node.prediction)) % 9) if classified \
            else "0.9"
    return dict(boxstyle=f"round,pad={BOX_PAD}", fc=fill, ec="0.3", ls="--" if box.stub else "-")


def plot_tree(model, ax: Axes | None = None, fontsize: float = 9,
              max_depth: int | None = None) -> Axes:
    """Draw the fitted tree of ``model`` and return the matplotlib Axes.

    Internal nodes show the tested feature and the weight of the rows that reach them, leaves the
    predicted class with the weighted class counts; each edge is labelled with its branch
    condition (``clear``, ``<= 0.38``, ...). An internal node at depth ``max_depth`` is drawn as
    a "…" stub box. Without ``ax``, a new white figure is sized to the tree so that its text is
    ``fontsize`` points on a book page; a tree too wide for that is drawn only as deep as fits.
    """
    root = fitted_tree(model)
    check_integer(max_depth, "max_depth", 0, allow_none=True)
    classes = getattr(model, "classes_", None)
    if ax is None and max_depth is None:
        max_depth = _fitting_depth(root, classes, fontsize)
    boxes = _visible(root, classes, max_depth)
    width, height = _layout(boxes, fontsize)
    if ax is None:
        fig = plt.figure(figsize=(width, height), facecolor="white")
        ax = fig.add_axes((0, 0, 1, 1))
    ax.set_facecolor("white")
    label_top = {}  # per parent: the highest top of its children's edge labels
    for box in boxes:
        if box.parent is not None:
            top = box.y + box.height / 2 + box.label_height + 0.03
            label_top[box.parent] = max(top, label_top.get(box.parent, top))
    for box in boxes:
        if box.parent is not None:
            # an elbow: down from the parent, across to the child's column, down into the child;
            # the label sits on the last leg, just above the child, where no other edge passes
            parent = boxes[box.parent]
            bar = (parent.y - parent.height / 2 + label_top[box.parent]) / 2
            ax.plot([parent.x, parent.x, box.x, box.x], [parent.y, bar, bar, box.y],
                    color="0.55", lw=1, zorder=1)
            y = box.y + box.height / 2 + box.label_height / 2 + 0.03
            ax.text(box.x, y, box.label, ha="center", va="center",
                    fontsize=fontsize, color="0.2", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"))
        ax.text(box.x, box.y, box.text, ha="center", va="center", fontsize=fontsize, zorder=4,
                linespacing=LINE, color="black", bbox=_frame(box, classes is not None))
    ax.set_xlim(0, width)
    ax.set_ylim(-height, 0)
    ax.set_axis_off()
    return ax
