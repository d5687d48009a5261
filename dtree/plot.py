"""Drawing a tree with matplotlib: boxes for nodes, labelled edges, any number of branches."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from .export import leaf_summary
from .tree import Node

__all__ = ["plot_tree"]


def _layout(root: Node) -> dict[int, tuple[float, float]]:
    """Leaves at consecutive x positions left to right; a parent centred over its children."""
    position: dict[int, tuple[float, float]] = {}
    next_leaf = 0.0

    def place(node: Node) -> float:
        nonlocal next_leaf
        if node.is_leaf:
            x = next_leaf
            next_leaf += 1
        else:
            xs = [place(child) for child in node.children]
            x = (xs[0] + xs[-1]) / 2
        position[id(node)] = (x, -float(node.depth))
        return x

    place(root)
    return position


def plot_tree(model, ax: Axes | None = None, fontsize: float = 9) -> Axes:
    """Draw the fitted tree of ``model`` and return the matplotlib Axes.

    Internal nodes show the tested feature, leaves the predicted class with the weighted class
    counts; each edge is labelled with its branch condition (``= clear``, ``<= 0.38``, ...).
    """
    root = model.tree_
    classes = getattr(model, "classes_", None)
    position = _layout(root)
    n_leaves = len(root.leaves())
    if ax is None:
        _, ax = plt.subplots(figsize=(max(6.0, 1.9 * n_leaves), 1.5 * (root.height() + 1) + 0.5))
    colours = plt.get_cmap("Pastel1")
    for node in root.walk():
        x, y = position[id(node)]
        for label, child in zip(node.branch_labels(), node.children):
            cx, cy = position[id(child)]
            ax.plot([x, cx], [y, cy], color="0.55", lw=1, zorder=1)
            ax.text((x + cx) / 2, (y + cy) / 2, label, ha="center", va="center",
                    fontsize=fontsize * 0.85, color="0.25", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none"))
        if node.is_leaf:
            text = leaf_summary(node, classes).replace(" (", "\n(", 1)
            colour = colours(int(np.argmax(node.prediction)) % 9) if classes is not None else "0.9"
        else:
            text = f"{node.feature}?\nn = {node.weighted_n_samples:g}"
            colour = "white"
        ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, zorder=4,
                bbox=dict(boxstyle="round,pad=0.4", fc=colour, ec="0.3"))
    xs = [p[0] for p in position.values()]
    ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
    ax.set_ylim(-root.height() - 0.6, 0.6)
    ax.set_axis_off()
    return ax
