"""Tiny, independent reference formulas for the tests (plain Python, no dtree, no numpy).

The tests write their expected values as arithmetic on counts, e.g. ``H(7, 2)`` for the entropy
of a node with 7 ripe and 2 unripe melons, so a reader can check each expectation by hand.
"""
from __future__ import annotations

from math import log2

# Watermelon 2.0 (Zhou table 4.1): (ripe, unripe) counts of each value, in Zhou's order.
WM20_COUNTS = {
    "colour": [(3, 3), (4, 2), (1, 4)],     # green, dark, light
    "root": [(5, 3), (3, 4), (0, 2)],       # curly, slightly curly, straight
    "sound": [(6, 4), (2, 3), (0, 2)],      # muffled, dull, crisp
    "texture": [(7, 2), (1, 4), (0, 3)],    # clear, slightly blurry, blurry
    "navel": [(5, 2), (3, 3), (0, 4)],      # hollow, slightly hollow, flat
    "touch": [(6, 6), (2, 3)],              # hard, soft
}


def H(*counts: float) -> float:
    """Entropy in bits of a class distribution given by (weighted) counts; 0 log 0 = 0."""
    total = sum(counts)
    return -sum(c / total * log2(c / total) for c in counts if c > 0)


def G(*counts: float) -> float:
    """Gini impurity 1 - sum p_k^2 from counts."""
    total = sum(counts)
    return 1 - sum((c / total) ** 2 for c in counts)


def after(branches: list[tuple[float, ...]], impurity=H) -> float:
    """sum_v |D_v|/|D| I(D_v) for branches given as class-count tuples."""
    total = sum(sum(b) for b in branches)
    return sum(sum(b) / total * impurity(*b) for b in branches if sum(b) > 0)


def gain(branches: list[tuple[float, ...]], impurity=H) -> float:
    """I(D) - sum_v |D_v|/|D| I(D_v), the parent being the union of the branches."""
    parent = [sum(col) for col in zip(*branches)]
    return impurity(*parent) - after(branches, impurity)


def split_info(*sizes: float) -> float:
    """IV = -sum |D_v|/|D| log2 |D_v|/|D| (the entropy of the branch sizes)."""
    return H(*sizes)


def _side_impurity(ys, ws, criterion):
    total = sum(ws)
    if criterion == "squared_error":
        mean = sum(w * v for v, w in zip(ys, ws)) / total
        return sum(w * (v - mean) ** 2 for v, w in zip(ys, ws)) / total
    counts = {}
    for v, w in zip(ys, ws):
        counts[v] = counts.get(v, 0.0) + w
    if criterion == "gini":
        return 1 - sum((c / total) ** 2 for c in counts.values())
    return H(*counts.values())


def brute_force(x, y, criterion="info_gain", w=None):
    """Every midpoint t of adjacent distinct values with its score, by plain loops.

    Scores: gain (info_gain), gain / IV (gain_ratio), or the weighted impurity after the split
    (gini, squared_error). Returns (all candidates, best threshold, best score); ties go to the
    smallest threshold. No missing values.
    """
    w = [1.0] * len(x) if w is None else list(w)
    values = sorted(set(x))
    total = sum(w)
    parent = _side_impurity(y, w, criterion)
    candidates = []
    for a, b in zip(values, values[1:]):
        t = (a + b) / 2
        left = [(yi, wi) for xi, yi, wi in zip(x, y, w) if xi <= t]
        right = [(yi, wi) for xi, yi, wi in zip(x, y, w) if xi > t]
        wl, wr = sum(p[1] for p in left), sum(p[1] for p in right)
        if wl == 0 or wr == 0:
            continue
        after = (wl * _side_impurity(*zip(*left), criterion)
                 + wr * _side_impurity(*zip(*right), criterion)) / total
        if criterion == "info_gain":
            score = parent - after
        elif criterion == "gain_ratio":
            score = (parent - after) / split_info(wl, wr)
        else:
            score = after
        candidates.append((t, score))
    sign = -1 if criterion in ("gini", "squared_error") else 1
    best_score = max(sign * s for _, s in candidates)
    best_t = min(t for t, s in candidates if sign * s >= best_score - 1e-12)
    return candidates, best_t, sign * best_score
