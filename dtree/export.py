"""Trees as text: one line per node, indented by depth, with the weighted class counts."""
from __future__ import annotations

import numpy as np

from .tree import Node

__all__ = ["export_text", "leaf_summary"]


def _number(w: float) -> str:
    return f"{round(float(w), 3):g}"


def leaf_summary(node: Node, classes: np.ndarray | None) -> str:
    """'yes (no 0, yes 5)' for a classifier's node, 'value 3.2 (n 7)' for a regressor's."""
    if classes is None:
        return f"value {node.prediction[0]:.4g} (n {_number(node.weighted_n_samples)})"
    label = classes[int(np.argmax(node.prediction))]
    if node.stop_reason == "empty":
        return f"{label} (empty branch: parent's majority)"
    counts = ", ".join(f"{c} {_number(v)}" for c, v in zip(classes, node.value))
    return f"{label} ({counts})"


def export_text(model, target: str = "class") -> str:
    """The fitted tree as indented text, in the style of scikit-learn's ``export_text``.

    Each branch line reads ``feature = value``, ``feature <= t`` / ``feature > t`` or
    ``feature in {a, b}``; each leaf line gives the predicted class and the weighted class counts
    of the training rows that reached it (fractions appear when rows were split by missing values).
    """
    classes = getattr(model, "classes_", None)
    lines: list[str] = []

    def visit(node: Node, indent: str) -> None:
        if node.is_leaf:
            lines.append(f"{indent}|--- {target}: {leaf_summary(node, classes)}")
            return
        for label, child in zip(node.branch_labels(), node.children):
            lines.append(f"{indent}|--- {node.feature} {label}")
            visit(child, indent + "|   ")

    visit(model.tree_, "")
    return "\n".join(lines)
