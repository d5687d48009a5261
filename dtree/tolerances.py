"""Every tolerance of the library, each named once with where it comes from.

Two sums of the same weights in another order differ in their last bits, so a comparison that
decides a tree (two gains that tie, a weakest link at alpha) needs a tolerance. Where dtree
reproduces a reference program it uses that program's own; the rest are dtree's.
"""
from __future__ import annotations

#: dtree's one tie rule (:func:`dtree.tree.ties`): a value ties with a reference r when
#: r - value <= TIE_ATOL + TIE_RTOL |r|; also the check that rows are the training rows
TIE_RTOL, TIE_ATOL = 1e-9, 1e-12
#: Weka's tolerance in comparisons (``weka.core.Utils.SMALL``): ``Utils.gr(a, b)`` is
#: a - b > SMALL, ``Utils.smOrEq(a, b)`` is a - b < SMALL; J48's splits and pruning use it
WEKA_SMALL = 1e-6
#: J48 lets an attribute compete if its gain is at most this below the average gain
#: (``C45ModelSelection``: ``infoGain >= averageInfoGain - 1E-3``)
J48_AVERAGE_GAIN_SLACK = 1e-3
#: J48 collapses a subtree that does not lower the node's training errors by more than this
#: (``C45PruneableClassifierTree.collapse``: ``errorsOfSubtree >= errorsOfTree - 1E-3``)
J48_COLLAPSE_SLACK = 1e-3
#: J48 prefers the leaf (or the raised branch) if its estimated errors exceed the subtree's by
#: at most this (``C45PruneableClassifierTree.prune``: ``smOrEq(errorsLeaf, errorsTree + 0.1)``)
J48_PRUNE_SLACK = 0.1
#: rpart keeps a surrogate only if its adjusted agreement exceeds this (``surrogate.c``)
RPART_MIN_ADJUSTED_AGREEMENT = 1e-10
#: cost-complexity pruning: alphas closer than this times R(root) count as equal. R(t) - R(T_t)
#: summed over shares can be 1e-17 where rpart's sums of weights are exactly equal, and an alpha
#: read back from a CP (alpha / R(root)) times R(root) can fall an ulp below the weakest link
ALPHA_ROUND_OFF = 1e-10
#: the weighted median's "exactly half the weight", relative to the half: weights 0.1 sum to
#: 0.1 + 0.1 + 0.1 > 0.3, and equal weights of any size must give the unweighted median
MEDIAN_RTOL = 1e-9
#: pessimistic pruning's comparison e(t) + 1/2 <= E(T_t) + z SE, up to round-off
PESSIMISTIC_ATOL = 1e-12
