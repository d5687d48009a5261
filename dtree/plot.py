"""Drawing a tree with matplotlib: boxes for nodes, labelled edges, any number of branches.

The figure is sized to the tree, in inches, so that its text keeps the requested size in points
when the page shows the figure at its natural width. A tree too wide for a book page
(``MAX_WIDTH``) is drawn only as deep as fits, with a "…" stub box for each subtree left out,
and a warning says how many levels are folded; `export_text` prints the whole tree. Into a
given Axes the tree is drawn whole, its text shrunk to fit (down to ``MIN_FONTSIZE``), and
folded only below that.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from functools import lru_cache, partial

import textwrap
import warnings

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from ._validation import check_integer
from .export import (STUB, class_counts, decision_loss, fitted_tree, is_stub, predicted_class,
                     weight_text)
from .tree import Node, most_probable

__all__ = ["plot_tree", "plot_cp"]

MAX_WIDTH = 6.6  # inches: at 100 dpi, within the ~690 px a page gives an output at 1280 px
MAX_HEIGHT = 12.0  # inches: about ten levels
GAP = 0.08  # inches between neighbouring boxes
BOX_PAD = 0.4  # box padding, in units of the font size
LINE = 1.25  # line height, in units of the font size
WHOLE_LEAVES = 32  # a tree with at most this many leaves is drawn whole without an ax
MIN_FONTSIZE = 4.0  # points: the smallest text plot_tree shrinks to, to fit a given Axes
LABEL_WIDTH = 24  # characters: a longer edge label (a set of categories) is wrapped
LABEL_LINES = 3  # lines: a set of categories longer than that is cut, saying how many more


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
    prop, outline, pixels = FontProperties(size=fontsize), TextToPath(), _renderer()
    lines = text.split("\n")
    # the larger of the glyphs' outline and their width as Agg draws them at 100 dpi, which
    # hinting widens at small sizes
    width = max(max(outline.get_text_width_height_descent(s, prop, ismath=False)[0] / 72,
                    pixels.get_text_width_height_descent(s, prop, ismath=False)[0] / 100)
                for s in lines)
    return width, len(lines) * LINE * fontsize / 72


@lru_cache(maxsize=1)
def _renderer():
    from matplotlib.backends.backend_agg import RendererAgg
    return RendererAgg(1, 1, 100)


def _node_text(node: Node, stub: bool, classes: np.ndarray | None, proportion: bool = False,
               loss: np.ndarray | None = None, decimals: int | None = None,
               total: float | None = None) -> str:
    """'texture?' and n for a test; the class and its counts (one per line) for a leaf, or
    with ``proportion`` its class shares (to ``decimals`` digits); with ``total``, n's share
    of it in percent."""
    n = weight_text(node.weighted_n_samples)
    if total:
        n += f", {100 * node.weighted_n_samples / total:.0f}%"
    if stub:
        return f"{STUB}\nn = {n}"
    if not node.is_leaf:
        return f"{node.feature}?\nn = {n}"
    if classes is None:
        value = f"{node.prediction[0]:.4g}" if decimals is None else \
            f"{node.prediction[0]:.{decimals}f}"
        return f"{value}\nn = {n}"
    label = predicted_class(node, classes, loss)
    if node.stop_reason == "empty":
        return f"{label}\n(empty)"
    if len(classes) > 4:
        return f"{label}\nn = {n}"
    if proportion:
        digits = 2 if decimals is None else decimals
        return "\n".join([str(label), *(f"{c}: {p:.{digits}f}"
                                        for c, p in zip(classes, node.prediction))])
    lines = [str(label), *class_counts(node, classes, sep=": ")]
    return "\n".join(lines + [f"{n.partition(', ')[2]}"] if total else lines)


def _edge_label(label: str) -> str:
    """A branch label as drawn: 'clear' for '= clear'; a long set of categories wrapped at
    ``LABEL_WIDTH`` characters, and beyond ``LABEL_LINES`` lines cut with the number left
    out ('… +12')."""
    label = label.removeprefix("= ")
    if len(label) <= LABEL_WIDTH or not label.startswith("in {"):
        return "\n".join(textwrap.wrap(label, LABEL_WIDTH)) or label
    items, lines = label[4:-1].split(", "), ["in {"]
    for k, item in enumerate(items):
        if len(lines[-1]) + len(item) + 2 > LABEL_WIDTH and lines[-1] != "in {":
            if len(lines) == LABEL_LINES:
                lines[-1] += f"… +{len(items) - k}"
                break
            lines.append("")
        lines[-1] += item + (", " if k < len(items) - 1 else "")
    return "\n".join(line.rstrip() for line in lines) + "}"


def _visible(root: Node, text: Callable[[Node, bool], str], max_depth: int | None
             ) -> list[_Box]:
    """The boxes to draw, in pre-order (so leaves come left to right), each with ``text(node,
    stub)``; without recursion."""
    boxes: list[_Box] = []
    stack: list[tuple[Node, int | None, str]] = [(root, None, "")]
    while stack:
        node, parent, label = stack.pop()
        stub = is_stub(node, root, max_depth)
        boxes.append(_Box(node, parent, label, text(node, stub), stub))
        if not node.is_leaf and not stub:
            labels = [_edge_label(lab) for lab in node.branch_labels()]
            stack.extend((child, len(boxes) - 1, lab)
                         for lab, child in reversed(list(zip(labels, node.children))))
    return boxes


def _place(boxes: list[_Box], fontsize: float) -> tuple[float, float]:
    """Place the boxes, in inches. Each subtree gets a band as wide as the larger of its own box
    (or edge label) and its children's bands side by side; a box is centred in its band, its
    children's bands are centred below it, so no two boxes or labels overlap. Returns the width
    and height of the drawing."""
    pad, gap = _spacing(fontsize)
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
        band[i] = max(max(width + pad, label_width) + gap,
                      sum(band[c] for c in children.get(i, ())))
    left = [gap / 2] + [0.0] * (len(boxes) - 1)
    for i, box in enumerate(boxes):
        box.x = left[i] + band[i] / 2
        kids = children.get(i, [])
        start = box.x - sum(band[c] for c in kids) / 2
        for c in kids:
            left[c], start = start, start + band[c]
    box_height = max(b.height for b in boxes)
    level = box_height + max(b.label_height for b in boxes) + 0.3 * gap / GAP
    top = boxes[0].node.depth
    for box in boxes:
        box.y = -(box_height / 2 + gap + (box.node.depth - top) * level)
    return band[0] + gap, -min(b.y for b in boxes) + box_height / 2 + gap


def _spacing(fontsize: float) -> tuple[float, float]:
    """A box's padding, both sides, and the gap between neighbouring boxes, in inches."""
    return 2 * BOX_PAD * fontsize / 72, GAP * min(1.0, fontsize / 9)  # text shrunk: gaps too


def _fits(boxes: list[_Box], fontsize: float, room: tuple[float, float]) -> bool:
    """Whether the drawing of ``boxes`` fits in ``room`` (width, height in inches). Each leaf's
    band is at least its padding and a gap wide (:func:`_place`), so a drawing of too many
    leaves is refused before a text is measured."""
    pad, gap = _spacing(fontsize)
    parents = {box.parent for box in boxes}
    leaves = sum(i not in parents for i in range(len(boxes)))
    if leaves * (pad + gap) + gap > room[0]:
        return False
    width, height = _place(boxes, fontsize)
    return width <= room[0] and height <= room[1]


def _fitting_depth(root: Node, text: Callable[[Node, bool], str], fontsize: float,
                   room: tuple[float, float]) -> int | None:
    """The largest depth at which the drawing fits in ``room`` (width, height in inches; None:
    all of it; at least 1). A binary search: a deeper drawing is never smaller."""
    def fits(depth: int | None) -> bool:
        return _fits(_visible(root, text, depth), fontsize, room)

    if fits(None):
        return None
    low, high = 1, root.height()  # the answer is in [low, high), or low when nothing fits
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _fitting_fontsize(root: Node, text: Callable[[Node, bool], str], fontsize: float,
                      room: tuple[float, float]) -> float | None:
    """The largest font size, at most ``fontsize`` and at least ``MIN_FONTSIZE``, at which the
    whole tree fits in ``room`` (None if none does); a bisection to a tenth of a point."""
    def fits(size: float) -> bool:
        return _fits(_visible(root, text, None), size, room)

    if fits(fontsize):
        return fontsize
    if not fits(MIN_FONTSIZE):
        return None
    low, high = MIN_FONTSIZE, fontsize
    while high - low > 0.1:
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _frame(box: _Box, classified: bool, filled: bool = False,
           loss: np.ndarray | None = None) -> dict:
    """A test's box is white (with ``filled``, coloured as a leaf), a leaf's is coloured by its
    class (:func:`dtree.tree.most_probable`, by ``loss`` if the model names its classes by
    one), a stub's is grey and dashed."""
    if box.stub:
        fill = "0.93"
    elif not box.node.is_leaf and not filled:
        fill = "white"
    else:
        fill = plt.get_cmap("Pastel1")(int(most_probable(box.node.prediction, loss)) % 9) \
            if classified else "0.9"
    return dict(boxstyle=f"round,pad={BOX_PAD}", fc=fill, ec="0.3", ls="--" if box.stub else "-")


def plot_tree(model, ax: Axes | None = None, fontsize: float = 9,
              max_depth: int | None = None, filled: bool = False,
              proportion: bool = False, percent: bool = False,
              decimals: int | None = None) -> Axes:
    """Draw the fitted tree of ``model`` and return the matplotlib Axes.

    Internal nodes show the tested feature and the weight of the rows that reach them, leaves the
    predicted class with the weighted class counts (with ``proportion``, the class shares);
    each edge is labelled with its branch condition (``clear``, ``<= 0.38``, ...; a long set of
    categories wrapped, and cut beyond three lines with the number left out). Leaves are
    coloured by their class; with ``filled``, the tests too (by their majority class). With
    ``percent``, each node also gives its share of the root's weight ("n = 9, 53%"). An
    internal node at depth ``max_depth`` is drawn as a "…" stub box.

    Without ``ax``, a new white figure is sized to the tree so that its text is ``fontsize``
    points: within a book page (``MAX_WIDTH`` x ``MAX_HEIGHT`` inches) where the tree fits
    there, else, for a tree of at most ``WHOLE_LEAVES`` leaves, as large as the whole tree
    needs; a larger tree is drawn only as deep as fits the page, with a UserWarning saying
    how many levels are folded.
    Into a given ``ax`` the whole tree is drawn with its text shrunk as needed to fit the Axes,
    down to ``MIN_FONTSIZE`` points, and only below that folded (with the same warning).

    Parameters
    ----------
    model : estimator
        A fitted ``dtree`` estimator.
    ax : matplotlib.axes.Axes or None, default=None
        Where to draw; None for a new figure sized to the tree.
    fontsize : float, default=9
        The text size in points (without ``ax``), or the largest (with it).
    max_depth : int or None, default=None
        The deepest level drawn in full.
    filled : bool, default=False
        Colour the tests too.
    proportion : bool, default=False
        Class shares instead of weighted counts at the leaves.
    percent : bool, default=False
        Each node's share of the root's weight, in percent.
    decimals : int or None, default=None
        Digits after the point of class shares and a regressor's values (None: two for a
        share, four significant digits for a value).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.

    Examples
    --------
    >>> from dtree import CARTClassifier, plot_tree
    >>> model = CARTClassifier().fit([[0], [1], [2], [3]], ["no", "no", "yes", "yes"])
    >>> ax = plot_tree(model, filled=True)
    >>> ax.figure.axes == [ax]
    True
    """
    root = fitted_tree(model)
    check_integer(max_depth, "max_depth", 0, allow_none=True)
    check_integer(decimals, "decimals", 0, allow_none=True)
    classes = getattr(model, "classes_", None)
    text = partial(_node_text, classes=classes, proportion=proportion,
                   loss=decision_loss(model), decimals=decimals,
                   total=root.weighted_n_samples if percent else None)
    if ax is None:
        room = (MAX_WIDTH, MAX_HEIGHT)
        if root.n_leaves() <= WHOLE_LEAVES:  # the whole tree, however large it needs
            room = (np.inf, np.inf)
    else:
        extent = ax.get_window_extent()
        room = (extent.width / ax.figure.dpi, extent.height / ax.figure.dpi)
    if max_depth is None:
        fitting = (_fitting_fontsize(root, text, fontsize, room)
                   if ax is not None else None)
        if fitting is not None:
            fontsize = fitting
        else:
            if ax is not None:
                fontsize = MIN_FONTSIZE
            max_depth = _fitting_depth(root, text, fontsize, room)
            folded = "" if max_depth is None else (
                f"only {max_depth} of its {root.height()} levels fit, the rest are folded "
                "into '…' boxes" if max_depth < root.height() else
                "even one level is wider, and is drawn whole")
            if folded:
                warnings.warn(
                    f"plot_tree: in {room[0]:.1f} x {room[1]:.1f} inches at {fontsize:g} pt, "
                    f"{folded}. Pass a larger ax or max_depth, or print the whole tree with "
                    "export_text or export_graphviz.", UserWarning, stacklevel=2)
    boxes = _visible(root, text, max_depth)
    width, height = _place(boxes, fontsize)
    if ax is None:
        fig = plt.figure(figsize=(width, height), facecolor="white")
        ax = fig.add_axes((0, 0, 1, 1))
    else:  # the drawing, in inches, centred in the Axes' own size in inches
        shift_x, shift_y = (room[0] - width) / 2, (room[1] - height) / 2
        for box in boxes:
            box.x, box.y = box.x + max(shift_x, 0), box.y - max(shift_y, 0)
        width, height = max(width, room[0]), max(height, room[1])
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
                linespacing=LINE, color="black",
                bbox=_frame(box, classes is not None, filled, decision_loss(model)))
    ax.set_xlim(0, width)
    ax.set_ylim(-height, 0)
    ax.set_axis_off()
    return ax


def plot_cp(table, ax: Axes | None = None, upper: str = "size") -> Axes:
    """rpart's ``plotcp``: the cross-validated relative error of each tree of a cp table
    (:func:`dtree.cp_table`, or a fitted model's ``cp_table_``), with bars of one ``xstd``
    either side, and a dotted line at the smallest ``xerror`` plus its ``xstd``, under which
    the 1-SE rule takes the smallest tree (Breiman et al. 1984, sec. 3.4.3). As in rpart, the
    trees are spaced evenly; the bottom axis names each by the geometric mean of its CP and the
    CP above it (sqrt(CP_i CP_(i-1)), Inf for the root: the middle of the range of alpha that
    selects it), to two significant digits, and the top axis by its size (``upper="size"``,
    leaves), its number of splits (``"splits"``) or nothing (``"none"``).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``CP``, ``nsplit``, ``xerror`` and ``xstd``, one row per tree, root first.
    ax : matplotlib.axes.Axes or None, default=None
        Where to draw; None for a new figure.
    upper : {"size", "splits", "none"}, default="size"
        What the top axis shows.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.
    """
    missing = {"CP", "nsplit", "xerror", "xstd"} - set(getattr(table, "columns", ()))
    if missing:
        raise ValueError(f"plot_cp needs a cp table (dtree.cp_table) with the columns CP, "
                         f"nsplit, xerror and xstd; missing: {', '.join(sorted(missing))}")
    if upper not in ("size", "splits", "none"):
        raise ValueError(f"upper must be 'size', 'splits' or 'none', not {upper!r}")
    cp, nsplit = table["CP"].to_numpy(float), table["nsplit"].to_numpy(int)
    xerror, xstd = table["xerror"].to_numpy(float), table["xstd"].to_numpy(float)
    middle = np.sqrt(cp * np.append(np.inf, cp[:-1]))
    at = np.arange(1, len(cp) + 1)
    if ax is None:
        ax = plt.figure(figsize=(MAX_WIDTH, 3.6), facecolor="white").add_subplot()
    ax.errorbar(at, xerror, yerr=xstd, marker="o", color="black", ecolor="0.35", capsize=0,
                lw=1, ms=4)
    best = int(np.argmin(xerror))  # the first of the smallest
    ax.axhline(xerror[best] + xstd[best], ls=":", color="black", lw=1)
    ax.set_xticks(at, [f"{m:.2g}".replace("inf", "Inf") for m in middle])
    ax.set_xlabel("cp")
    ax.set_ylabel("X-val Relative Error")
    if upper != "none":
        top = ax.secondary_xaxis("top")
        top.set_xticks(at, [str(n + (upper == "size")) for n in nsplit])
        top.set_xlabel("size of tree" if upper == "size" else "number of splits")
    return ax
