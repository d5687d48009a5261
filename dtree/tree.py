"""The tree itself: its columns (`NodeTable`) and `Node`, the view of one row; traversal, the
tree laid out as arrays for the routing rule (:mod:`dtree.routing`: which branch a row takes
at a node), prediction with the strategies for missing values, and the edits the grower and
pruners make."""
from __future__ import annotations

import bisect
import gc
import itertools
import math
import operator
import pickle
import zlib
from types import SimpleNamespace
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from . import kernels
from .jit import compiled, kernel
from .routing import SPREAD, STAY, detour, otherwise, route_rows
from .surrogates import Surrogate
from .tolerances import TIE_ATOL, TIE_RTOL

__all__ = ["Node", "NodeTable", "RoutingArrays", "PREDICT_MISSING", "predict_values",
           "branches", "value_branches", "hand_down", "reach", "ties", "level_ties",
           "most_probable", "copy_tree", "make_leaf", "raise_branch", "SPREAD", "STAY"]

#: what a row whose tested value is missing (or unseen at fit) does at a node; see predict_values
PREDICT_MISSING = ("distribute", "most_frequent", "stop")


class Blocks:
    """A column of rows of ``width`` numbers (a node's value or prediction) kept as blocks of
    consecutive rows, one per :meth:`add`: a table grows without copying the rows it holds
    (a row of 5,000 class counts is 40 KB). Indexed as a 2-D array by a row, by a slice of the
    rows of one block, or (reading) by an array of rows."""

    def __init__(self, width: int):
        self.width, self.blocks, self.starts, self.size = width, [], [], 0

    def add(self, count: int) -> None:
        self.blocks.append(np.zeros((count, self.width)))
        self.starts.append(self.size)
        self.size += count

    def _place(self, key):
        """The block holding row ``key`` (or the rows of slice ``key``) and the place in it."""
        first = (key.start or 0) if isinstance(key, slice) else int(key)
        k = bisect.bisect_right(self.starts, first) - 1
        if isinstance(key, slice):
            stop = self.size if key.stop is None else key.stop
            return self.blocks[k], slice(first - self.starts[k], stop - self.starts[k])
        return self.blocks[k], first - self.starts[k]

    def __getitem__(self, key):
        if isinstance(key, np.ndarray):
            return self.take(key)
        block, place = self._place(key)
        return block[place]

    def __setitem__(self, key, value) -> None:
        block, place = self._place(key)
        block[place] = value

    def take(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The rows ``rows`` (all, in order, if None), as one array."""
        if len(self.blocks) == 1:
            return self.blocks[0].copy() if rows is None else self.blocks[0][rows]
        every = np.concatenate(self.blocks or [np.zeros((0, self.width))])
        return every if rows is None else every[rows]


class Runs:
    """A ragged column of a table: per row a run of records (or the column's ``EMPTY``), the
    runs held end to end in one array per field of a record (``FIELDS``: name -> dtype), with
    each row's ``start`` there (-1 for ``EMPTY``) and ``length``, so that no object is kept
    per node. Used as a list is: indexed by a row (its value made from the records) or a
    slice (a column of the same kind), written by a row (its records appended) or a slice,
    extended and iterated. A subclass says how a value becomes records and back."""

    FIELDS: dict = {}
    EMPTY = None

    def __init__(self, values: Iterable = ()):
        self.size, self.used = 0, 0
        self.start, self.length = np.zeros(0, np.int64), np.zeros(0, np.int32)
        self.fields = {name: np.zeros(0, dtype) for name, dtype in self.FIELDS.items()}
        self.extend(values)

    def records(self, values: list) -> tuple[dict, np.ndarray]:
        """The fields of ``values`` (not ``EMPTY``) end to end, and each value's length."""
        raise NotImplementedError

    def value(self, start: int, stop: int):
        """The value made of records ``start`` to ``stop``."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self.size

    def __iter__(self):
        return map(self.__getitem__, range(self.size))

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self.taken(np.arange(self.size)[key])
        row = key if key >= 0 else key + self.size
        start = int(self.start[row])
        return self.EMPTY if start < 0 else self.value(start, start + int(self.length[row]))

    def __setitem__(self, key, value) -> None:
        if isinstance(key, slice):
            rows, values = np.arange(self.size)[key], list(value)
            if len(values) != len(rows):
                raise ValueError(f"a slice of {len(rows)} rows given {len(values)} values")
        else:
            rows, values = np.array([key if key >= 0 else key + self.size]), [value]
        self.start[rows] = -1
        if all(map(operator.is_, values, itertools.repeat(self.EMPTY))):
            return
        given = [k for k, v in enumerate(values) if not self._is_empty(v)]
        if given:
            self.put(rows[given], [values[k] for k in given])

    def _is_empty(self, value) -> bool:
        return value is None or (self.EMPTY is not None and len(value) == 0)

    def extend(self, values: Iterable) -> None:
        """Rows appended at the end, holding ``values``."""
        values = list(values)
        first = self.size
        self.size += len(values)
        if self.size > len(self.start):
            capacity = max(2 * len(self.start), self.size)
            self.start, self.length = (np.concatenate([column[:first], np.zeros(
                capacity - first, column.dtype)]) for column in (self.start, self.length))
        self.start[first:self.size], self.length[first:self.size] = -1, 0
        self[first:self.size] = values

    def put(self, rows: np.ndarray, values) -> None:
        """Write ``values`` (none ``EMPTY``) at ``rows``, their records appended."""
        self.write(rows, *self.records(values))

    def write(self, rows: np.ndarray, records: dict, lengths: np.ndarray) -> None:
        """Write at ``rows`` runs of ``lengths`` records whose fields, end to end, are
        ``records``."""
        end = self.used + int(lengths.sum())
        for name, given in records.items():
            column = self.fields[name]
            if end > len(column):
                column = np.zeros(max(2 * len(column), end), column.dtype)
                column[:self.used] = self.fields[name][:self.used]
                self.fields[name] = column
            column[self.used:end] = given
        self.start[rows] = self.used + np.cumsum(lengths) - lengths
        self.length[rows] = lengths
        self.used = end

    def places(self, rows: np.ndarray) -> np.ndarray:
        """Where the records of ``rows`` (none ``EMPTY``) are, run after run."""
        lengths = self.length[rows].astype(np.int64)
        return (np.repeat(self.start[rows] - np.cumsum(lengths) + lengths, lengths)
                + np.arange(lengths.sum()))

    def taken(self, rows: np.ndarray) -> Runs:
        """A new column of the rows ``rows``, their records alone end to end."""
        out = type(self)()
        out.extend([self.EMPTY] * len(rows))
        held = np.flatnonzero(self.start[rows] >= 0)
        lengths = self.length[rows[held]]
        at = self.places(rows[held])
        out.fields = {name: column[at] for name, column in self.fields.items()}
        out.used = len(at)
        out.start[held], out.length[held] = np.cumsum(lengths) - lengths, lengths
        return out


class NumberRows(Runs):
    """A column of optional rows of numbers (a node's branch fractions, scores or gains, a
    view of which is read): :class:`Runs` of one float each."""

    FIELDS = {"number": np.float64}

    def records(self, values) -> tuple[dict, np.ndarray]:
        if isinstance(values, np.ndarray) and values.ndim == 2:  # a row each
            return ({"number": values.ravel()},
                    np.full(len(values), values.shape[1], np.int64))
        values = [np.asarray(v, dtype=float) for v in values]
        return ({"number": np.concatenate(values)},
                np.array([len(v) for v in values], dtype=np.int64))

    def value(self, start: int, stop: int) -> np.ndarray:
        return self.fields["number"][start:stop]

    def flat(self, rows: np.ndarray) -> np.ndarray:
        """The numbers of ``rows`` (none None) end to end."""
        return self.fields["number"][self.places(rows)]


class SurrogateRuns(Runs):
    """A column of a node's surrogate splits (a tuple of :class:`~dtree.surrogates.Surrogate`,
    best first, made when read): :class:`Runs` of their fields."""

    FIELDS = {"feature": object, "feature_index": np.int64, "agreement": np.float64,
              "adjusted_agreement": np.float64, "threshold": np.float64, "reverse": np.bool_,
              "category_sets": object, "branch_of_code": object}
    EMPTY = ()

    def records(self, values: list) -> tuple[dict, np.ndarray]:
        flat = [s for run in values for s in run]
        records = {name: np.array([getattr(s, name) for s in flat], dtype)
                   if dtype is not object else _objects([getattr(s, name) for s in flat])
                   for name, dtype in self.FIELDS.items() if name != "threshold"}
        records["threshold"] = np.array([np.nan if s.threshold is None else s.threshold
                                         for s in flat], dtype=float)
        return records, np.array([len(run) for run in values], dtype=np.int64)

    def value(self, start: int, stop: int) -> tuple[Surrogate, ...]:
        f = {name: column[start:stop].tolist() for name, column in self.fields.items()}
        return tuple(Surrogate(name, index, agreement, adjusted,
                               None if threshold != threshold else threshold, reverse, sets,
                               codes)
                     for name, index, agreement, adjusted, threshold, reverse, sets, codes
                     in zip(f["feature"], f["feature_index"], f["agreement"],
                            f["adjusted_agreement"], f["threshold"], f["reverse"],
                            f["category_sets"], f["branch_of_code"]))


def _objects(values: list) -> np.ndarray:
    """``values`` as a one-dimensional array of objects (tuples kept whole)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


class NodeTable:
    """A tree's nodes as columns, a row per node, the children of a node on consecutive rows
    (``first_child``, ``n_children``): the form the growers write and prediction reads. A
    :class:`Node` is a view of one row. Numbers are numpy columns (-1 for an absent branch or
    feature, NaN for an absent threshold), a value and a prediction rows of ``Blocks``; the
    ragged fields are lists, but for the branch fractions, scores, gains and surrogates,
    held end to end in arrays (:class:`~dtree.tree.Runs`: no object kept per node). Rows that
    edits cut off stay until :meth:`compacted` copies the reachable ones. What is computed
    from the columns (the arrays prediction reads, :meth:`~dtree.tree.NodeTable.routing`;
    scikit-learn's arrays) is kept in ``derived`` until the table is next written."""

    # the numeric columns: name -> (dtype, what a new row holds)
    NUMBERS = {"n_samples": (np.int64, 0), "weighted_n_samples": (np.float64, 0.0),
               "impurity": (np.float64, 0.0), "depth": (np.int64, 0),
               "first_child": (np.int64, -1), "n_children": (np.int64, 0),
               "feature_index": (np.int64, -1), "threshold": (np.float64, np.nan),
               "missing_branch": (np.int64, -1), "majority_branch": (np.int64, -1),
               "larger_branch": (np.int64, -1), "missing_side": (np.int64, -1)}
    # the ragged columns, and what a new row holds
    OBJECTS = {"feature": None, "category_sets": None, "branch_of_code": None,
               "branch_fractions": None, "score": None, "shortlist": (), "ties": (),
               "stop_reason": None, "surrogates": (), "names": (), "scores": None,
               "gains": None}
    # the ragged columns held as Runs, not as lists
    RUNS = {"branch_fractions": NumberRows, "scores": NumberRows, "gains": NumberRows,
            "surrogates": SurrogateRuns}

    def __init__(self, value_width: int, prediction_width: int, capacity: int = 1):
        self.size = 0
        self.value, self.prediction = Blocks(value_width), Blocks(prediction_width)
        for name, (dtype, fill) in self.NUMBERS.items():
            setattr(self, name, np.full(capacity, fill, dtype))
        for name in self.OBJECTS:
            self.set_column(name, [])
        self.views: list[Node | None] = []
        self.derived: dict = {}  # key -> what was computed from the columns; emptied by a write
        # every row below row 0, as the growers write them; an edit through Node.children
        # (make_leaf, raise_branch, a tree made by hand) may leave rows that nothing reaches
        self.tidy = True

    def add(self, count: int) -> int:
        """Room for ``count`` new rows at the end, filled as new; returns the first."""
        self.derived.clear()
        first, self.size = self.size, self.size + count
        self.value.add(count)
        self.prediction.add(count)
        if self.size > len(self.n_samples):
            capacity = max(2 * len(self.n_samples), self.size)
            for name, (dtype, fill) in self.NUMBERS.items():
                new = np.full(capacity, fill, dtype)
                new[:first] = getattr(self, name)[:first]
                setattr(self, name, new)
        for name, fill in self.OBJECTS.items():
            getattr(self, name).extend([fill] * count)
        self.views.extend([None] * count)
        return first

    def shrink(self) -> None:
        """Give back the room the columns keep beyond the rows (numbers double their room as
        the table grows, lists a few more): a grown tree holds its rows alone."""
        for name in self.NUMBERS:
            setattr(self, name, getattr(self, name)[:self.size].copy())
        for name in (*self.OBJECTS, "views"):
            setattr(self, name, getattr(self, name)[:])

    def set_column(self, name: str, entries: list) -> None:
        """Ragged column ``name`` made of ``entries``, a row's each (a
        :class:`~dtree.tree.Runs` for those of ``RUNS``, else a list)."""
        setattr(self, name, self.RUNS[name](entries) if name in self.RUNS else entries)

    def node(self, row: int) -> Node:
        """The view of ``row``, the same object each time."""
        view = self.views[row]
        if view is None:
            view = self.views[row] = Node.__new__(Node)
            view._table, view._row = self, row
        return view

    def copy_row(self, row: int, source: NodeTable, from_row: int) -> None:
        """Row ``from_row`` of ``source`` written over ``row``."""
        self.derived.clear()
        self.value[row], self.prediction[row] = source.value[from_row], source.prediction[from_row]
        for name in self.NUMBERS:
            getattr(self, name)[row] = getattr(source, name)[from_row]
        for name in self.OBJECTS:
            getattr(self, name)[row] = getattr(source, name)[from_row]

    def merge(self, other: NodeTable) -> None:
        """Take every row of ``other`` at the end of this table, and its views: a node of
        ``other`` is then a node of this table (the same object)."""
        if (other.value.width, other.prediction.width) != (
                self.value.width, self.prediction.width):
            raise ValueError("a node's value and prediction must have as many entries as "
                             "those of the tree it joins")
        offset, size = self.size, other.size
        self.add(size)
        rows = slice(offset, offset + size)
        self.value.blocks[-1], self.prediction.blocks[-1] = (  # the new block is other's rows
            np.concatenate(other.value.blocks), np.concatenate(other.prediction.blocks))
        for name in self.NUMBERS:
            getattr(self, name)[rows] = getattr(other, name)[:size]
        self.first_child[rows] = np.where(other.first_child[:size] >= 0,
                                          other.first_child[:size] + offset, -1)
        for name in self.OBJECTS:
            getattr(self, name)[rows] = getattr(other, name)
        for row, view in enumerate(other.views):
            if view is not None:
                view._table, view._row = self, offset + row
                self.views[offset + row] = view

    def kept(self, key, make):
        """``make()``, computed from the table's columns, kept under ``key`` until the table is
        next written (a setter of a :class:`~dtree.Node`, ``add``, ``copy_row``)."""
        if key not in self.derived:
            self.derived[key] = make()
        return self.derived[key]

    def routing(self, row: int = 0) -> RoutingArrays:
        """The tree below ``row`` as the arrays that prediction and the routing rule read
        (``RoutingArrays``), computed once until the table is next written."""
        return self.kept(("routing", row), lambda: _as_arrays(self, row))

    def preorder(self, row: int = 0) -> np.ndarray:
        """The rows below ``row`` in pre-order (``preorder_rows``), whose places are the
        node ids of ``apply`` and of every export; kept until the table is next written."""
        return self.kept(("preorder", row), lambda: compiled(preorder_rows)(
            self.first_child[:self.size], self.n_children[:self.size], row))

    def reachable(self, row: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """The rows below ``row`` (itself first), numbered depth first with a node's children
        consecutive: a node's children, then the first child's subtree, then the second's;
        and the place of each one's first child in that order (-1 for a leaf)."""
        first, count = self.first_child.tolist(), self.n_children.tolist()
        return _consecutive(lambda r: range(first[r], first[r] + count[r]), row)

    def compacted(self, row: int = 0) -> NodeTable:
        """A new table of the subtree below ``row``, its rows in :meth:`reachable`'s order."""
        rows, first_child = self.reachable(row)
        table = NodeTable(self.value.width, self.prediction.width, len(rows))
        table.add(len(rows))
        table.value[:], table.prediction[:] = self.value.take(rows), self.prediction.take(rows)
        for name in self.NUMBERS:
            getattr(table, name)[:] = getattr(self, name)[rows]
        for name in self.OBJECTS:
            column = getattr(self, name)
            setattr(table, name, column.taken(rows) if name in self.RUNS
                    else [column[r] for r in rows.tolist()])
        table.first_child[:] = first_child
        return table


def _number_column(name: str, cast, absent=None):
    """A property reading and writing column ``name`` of a node's table: ``cast`` of the
    stored number, or None where it holds ``absent`` (-1, or NaN)."""
    def get(node):
        value = getattr(node._table, name)[node._row]
        if absent is not None and (value == absent or value != value):
            return None
        return cast(value)

    def put(node, value):
        table = node._table
        getattr(table, name)[node._row] = absent if value is None else value
        table.derived.clear()
    return property(get, put)


def _column(name: str):
    """A property reading and writing column ``name`` of a node's table as it is stored (an
    array's row is a view of the table)."""
    def get(node):
        return getattr(node._table, name)[node._row]

    def put(node, value):
        table = node._table
        getattr(table, name)[node._row] = value
        table.derived.clear()
    return property(get, put)


def _edits_tree(name: str):
    """list's method ``name``, after which the children list is written back to its node."""
    method = getattr(list, name)

    def edited(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        self._owner.children = list(self)
        return out
    edited.__name__ = name
    return edited


class Children(list):
    """A node's children as :attr:`Node.children` gives them: a list whose changes (append,
    clear, item assignment, ...) change the tree (``_owner``, the node, set by the maker)."""

    __slots__ = ("_owner",)

    (append, extend, insert, pop, remove, clear, sort, reverse, __setitem__, __delitem__,
     __iadd__) = map(_edits_tree, ("append", "extend", "insert", "pop", "remove", "clear",
                                   "sort", "reverse", "__setitem__", "__delitem__", "__iadd__"))


def _viewing_columns(cls):
    """Give the view class ``cls`` a property per column of :class:`NodeTable` but the shape
    (``first_child``, ``n_children``: read through ``children``), the scores' three named
    ``_names``, ``_scores``, ``_gains``; and ``FIELDS``, the properties' names."""
    fields = []
    for column in ("value", "prediction", *NodeTable.OBJECTS):
        fields.append(f"_{column}" if column in ("names", "scores", "gains") else column)
        setattr(cls, fields[-1], _column(column))
    for column, (dtype, fill) in NodeTable.NUMBERS.items():
        if column not in ("first_child", "n_children"):
            absent = fill if fill == -1 or fill != fill else None  # None where it holds this
            fields.append(column)
            setattr(cls, column, _number_column(column, int if dtype == np.int64 else float,
                                                absent))
    cls.FIELDS = tuple(fields)
    return cls


@_viewing_columns
class Node:
    """A node of a decision tree.

    Every node carries what the training rows that reached it looked like: ``value`` (weighted
    class counts for a classifier, the mean for a regressor), ``prediction`` (class probabilities
    or the mean; an empty branch inherits its parent's), ``n_samples`` (rows, counting a row split
    by a missing value once in each branch) and ``weighted_n_samples``.

    An internal node tests ``feature``: numeric ``value <= threshold`` goes to ``children[0]``;
    categorical values go to the child whose entry of ``category_sets`` holds them.
    ``branch_fractions`` are the training weight fractions of the children, used to send a row
    whose value is missing down every branch (Quinlan 1993). ``missing_branch`` is the index of
    the child that holds the rows whose value was missing (``missing="branch"``), or None.
    A CART node has ``surrogates`` (:class:`dtree.surrogates.Surrogate`, best first), which
    place a row whose tested value is missing. A row that no surrogate can place goes, while
    the tree grows, to ``majority_branch``, the side where the split sent more of the weight
    whose tested value is known (rpart's ``surrogate.c``), and at prediction to
    ``larger_branch``, the child holding more training rows (rpart's ``pred_rpart.c``); None
    for a tie, where the row stays at the node. With CART's ``missing="learn"`` (scikit-learn's
    ``missing_go_to_left``) a threshold node has ``missing_side`` instead, the child that a row
    whose value is missing takes, at fit and at predict. Which branch a row takes is decided in one
    place, :mod:`dtree.routing`.
    ``scores`` holds the score of every
    attribute that splits the node (one taking a single value there is no candidate): the gain
    (ID3) or the gain ratio (C4.5); ``gains`` their gains; ``shortlist`` the attributes that
    passed C4.5's gain filter (empty without a filter); ``ties`` the competing attributes whose
    score equalled the winner's, and a leaf's ``stop_reason`` says which stopping rule made it
    a leaf.

    A node is a view of one row of its tree's :class:`~dtree.tree.NodeTable` (the same view
    each time): reading or setting a field reads or writes the table. It keeps ``scores`` and
    ``gains`` as one array over the tree's attributes (NaN for an attribute that is no
    candidate; the gains only where they differ from the scores), the attributes' names shared
    by the tree's nodes; reading ``scores`` or ``gains`` gives a dict {attribute: value}. It
    pickles (and deep-copies) its subtree as a few arrays (``_columns``).
    """

    __slots__ = ("_table", "_row")

    def __init__(self, value, prediction, n_samples: int, weighted_n_samples: float,
                 impurity: float, depth: int, children=(), **fields):
        """A node on a table of its own (one row) with the given fields (:attr:`FIELDS`,
        None or empty where not given) and ``children``, whose tables then join its own."""
        value, prediction = np.asarray(value, dtype=float), np.asarray(prediction, dtype=float)
        table = NodeTable(len(value), len(prediction))
        table.add(1)
        self._table, self._row, table.views[0] = table, 0, self
        fields.update(value=value, prediction=prediction, n_samples=n_samples,
                      weighted_n_samples=weighted_n_samples, impurity=impurity, depth=depth)
        for name, given in fields.items():
            if name not in self.FIELDS or name.startswith("_"):
                raise TypeError(f"Node() got an unexpected field {name!r}")
            setattr(self, name, given)
        if children:
            self.children = children


    @property
    def children(self) -> list[Node]:
        table, row = self._table, self._row
        first, count = int(table.first_child[row]), int(table.n_children[row])
        children = Children(map(table.node, range(first, first + count)))
        children._owner = self
        return children

    @children.setter
    def children(self, nodes) -> None:
        """Make ``nodes`` this node's children: the tables of the nodes involved become one
        (the largest takes the others' rows, :meth:`NodeTable.merge`), and the children are
        copied to consecutive rows if they are not on such rows already."""
        nodes = list(nodes)
        tables = list({id(node._table): node._table for node in [self, *nodes]}.values())
        table = max(tables, key=lambda t: t.size)
        table.tidy = False
        for other in tables:
            if other is not table:
                table.merge(other)
        rows = [node._row for node in nodes]
        if rows != list(range(rows[0], rows[0] + len(rows))) if rows else False:
            first = table.add(len(nodes))
            for k, node in enumerate(nodes):
                table.copy_row(first + k, table, node._row)
                if table.views[node._row] is node:
                    table.views[node._row] = None
                table.views[first + k], node._row = node, first + k
            rows = list(range(first, first + len(nodes)))
        table.first_child[self._row] = rows[0] if rows else -1
        table.n_children[self._row] = len(rows)
        table.derived.clear()

    @property
    def scores(self) -> dict[str, float]:
        """{attribute: score} over the attributes that split the node, in column order."""
        return _named(self._names, self._scores)

    @property
    def gains(self) -> dict[str, float]:
        """{attribute: gain} over the attributes that split the node, in column order."""
        return _named(self._names, self._scores if self._gains is None else self._gains)

    def record_scores(self, names: tuple[str, ...], features: list[int] | None,
                      scores: list[float] | np.ndarray, gains: list[float] | None = None
                      ) -> None:
        """Keep the score and gain of each candidate attribute: column ``features[k]`` of
        ``names`` (the tree's attribute names, one tuple shared by its nodes) has ``scores[k]``
        and ``gains[k]`` (None: the scores). With ``features`` None, ``scores`` and
        ``gains`` are rows over all of ``names`` already (NaN where an attribute is no
        candidate), kept as they are."""
        if features is None:
            self._names, self._scores, self._gains = names, scores, gains
            return
        self._names, self._scores = names, np.full(len(names), np.nan)
        self._scores[features] = scores
        if gains is not None and gains != scores:
            self._gains = np.full(len(names), np.nan)
            self._gains[features] = gains

    @property
    def is_leaf(self) -> bool:
        return not self._table.n_children[self._row]

    @property
    def root(self) -> Node:
        """The node itself: ``model.tree_.root`` is the root for every estimator (CART's
        ``tree_`` is a :class:`dtree.sktree.Tree`, which holds it)."""
        return self

    def __repr__(self) -> str:
        if self.is_leaf:
            return f"Node(leaf, n_samples={self.n_samples}, stop_reason={self.stop_reason!r})"
        return (f"Node(feature={self.feature!r}, children={len(self.children)}, "
                f"n_samples={self.n_samples})")

    def walk(self) -> Iterator[Node]:
        """Every node of the subtree, parents before children (pre-order). A node's children
        are read once the caller has seen the node, so that a caller that makes it a leaf
        is not given its old subtree."""
        table, stack = self._table, [self._row]
        while stack:
            row = stack.pop()
            yield table.node(row)
            count = int(table.n_children[row])
            if count:
                first = int(table.first_child[row])
                stack.extend(range(first + count - 1, first - 1, -1))

    @property
    def training_errors(self) -> float:
        """The training weight the node misclassifies as a leaf of its majority class,
        W_t - max_k W_t,k (a classifier's node; Quinlan 1987, Breiman et al. 1984 sec. 3.1)."""
        return self.weighted_n_samples - float(self.value.max())

    def numbers(self) -> dict[int, int]:
        """Each node's number, keyed by ``id(node)``: its place in :meth:`walk`'s pre-order,
        0 for this node. The numbers ``apply`` returns and every export and log prints."""
        table = self._table
        return numbering(map(table.node, table.preorder(self._row).tolist()))

    def n_leaves(self) -> int:
        """The number of leaves below this node (itself, if a leaf)."""
        table = self._table
        return int(np.count_nonzero(table.n_children[table.preorder(self._row)] == 0))

    def leaves(self) -> list[Node]:
        table = self._table
        rows = table.preorder(self._row)
        return list(map(table.node, rows[table.n_children[rows] == 0].tolist()))

    def height(self) -> int:
        """Length of the longest path from this node down to a leaf."""
        table = self._table
        return int(table.depth[table.preorder(self._row)].max()) - self.depth

    def branch_labels(self) -> list[str]:
        """How each branch reads: '<= 0.38', '> 0.38', '= clear', 'in {a, b}', and 'is missing'
        for the missing-value branch; with a learned side for missing values ('<= 0.38 or
        missing'), and for a split on missingness alone 'is not missing', 'is missing'."""
        if self.threshold == np.inf and self.missing_side == 1:
            labels = ["is not missing", "is missing"]
        elif self.threshold is not None:
            labels = [f"<= {self.threshold:g}", f"> {self.threshold:g}"]
            if self.missing_side is not None:
                labels[self.missing_side] += " or missing"
        else:
            labels = [f"= {next(iter(s))}" if len(s) == 1 else
                      "in {" + ", ".join(sorted(map(str, s))) + "}"
                      for s in self.category_sets or ()]
        if self.missing_branch is not None:
            labels.insert(self.missing_branch, "is missing")
        return labels

    def __reduce_ex__(self, protocol: int):
        """Pickle the subtree as columns over its nodes (``_columns``), so neither its depth nor
        its number of nodes makes Python objects in the pickle, and those compressed (zlib:
        the scores of every attribute at every node repeat many of their values)."""
        return _unpickle, (zlib.compress(pickle.dumps(_columns(self), protocol)),)

    def __deepcopy__(self, memo: dict) -> Node:
        """A copy of the subtree, through the columns a pickle holds (uncompressed)."""
        return _rebuild(_columns(self))


@kernel
def preorder_rows(first_child, n_children, root):
    """The rows of the tree below row ``root`` of a table's columns, in pre-order
    (:meth:`Node.walk`'s order): a node, then its first child's subtree, then its second's."""
    order = np.empty(len(first_child), np.int64)
    stack = np.empty(len(first_child), np.int64)
    stack[0] = root
    top, n = 1, 0
    while top > 0:
        top -= 1
        row = stack[top]
        order[n] = row
        n += 1
        for k in range(n_children[row] - 1, -1, -1):
            stack[top] = first_child[row] + k
            top += 1
    return order[:n]


def numbering(nodes: Iterable[Node]) -> dict[int, int]:
    """``{id(node): i}`` for the i-th of ``nodes`` (:meth:`Node.numbers` for a walk)."""
    return {id(node): i for i, node in enumerate(nodes)}


def _named(names: tuple[str, ...], values: np.ndarray | None) -> dict[str, float]:
    if values is None:
        return {}
    return {name: v for name, v in zip(names, values.tolist()) if v == v}


# ------------------------------------------------------------------ pickling a tree by columns
def _pack(values) -> tuple:
    """A column of numbers, exactly and small: one value and a count if all are the same
    (bit for bit); booleans as bits; whole-numbered floats (finite, no -0.0, below 2^53) and
    integers in the smallest integer type that holds them. :func:`_unpack` restores it."""
    values = np.asarray(values)
    n, dtype = len(values), values.dtype.str
    if n and _same_bits(values, np.full_like(values, values[0])):
        return "same", dtype, n, values[:1]
    if values.dtype == bool:
        return "bits", dtype, n, np.packbits(values)
    small = values
    if values.dtype.kind == "f" and np.isfinite(values).all() \
            and (np.abs(values) < 2.0 ** 53).all() and not np.signbit(values[values == 0]).any() \
            and (values == np.trunc(values)).all():
        small = values.astype(np.int64)
    if small.dtype.kind in "iu" and n:
        low, high = int(small.min()), int(small.max())
        small = small.astype(next(t for t in (np.int8, np.int16, np.int32, np.int64)
                                  if np.iinfo(t).min <= low and high <= np.iinfo(t).max))
    return "values", dtype, n, small


def _unpack(packed: tuple) -> np.ndarray:
    how, dtype, n, values = packed
    if how == "same":
        return np.repeat(values, n).astype(dtype)
    if how == "bits":
        return np.unpackbits(values, count=n).astype(bool)
    return values.astype(dtype)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _lengths(arrays: list) -> np.ndarray:
    return np.array([-1 if a is None else len(a) for a in arrays])


def _ragged(arrays: list, expected: np.ndarray | None = None) -> tuple:
    """Arrays of any lengths (None allowed) as one packed column, and their lengths (-1 for
    None) unless they are the ``expected`` ones."""
    lengths = _lengths(arrays)
    present = [np.asarray(a) for a in arrays if a is not None]
    return (_pack(np.concatenate(present) if present else np.zeros(0)),
            None if np.array_equal(lengths, expected) else _pack(lengths))


def _ragged_rows(column: NumberRows, rows: np.ndarray, expected: np.ndarray) -> tuple:
    """:func:`_ragged` of the rows ``rows`` of ``column``, read from its arrays."""
    held = column.start[rows] >= 0
    lengths = np.where(held, column.length[rows], -1).astype(np.int64)
    return (_pack(column.flat(rows[held])),
            None if np.array_equal(lengths, expected) else _pack(lengths))


def _unragged(packed: tuple, expected: np.ndarray | None = None) -> list:
    """The arrays :func:`_ragged` packed: views into one array, None where None was."""
    flat = _unpack(packed[0])
    lengths = expected if packed[1] is None else _unpack(packed[1])
    ends = np.cumsum(np.maximum(lengths, 0)).tolist()
    return [None if n < 0 else flat[end - n:end] for n, end in zip(lengths.tolist(), ends)]


def _coded(values: list) -> tuple[tuple, tuple]:
    """Hashable values as a table of the distinct ones and each one's place in it."""
    table = {}
    codes = [table.setdefault(v, len(table)) for v in values]
    return tuple(table), _pack(np.array(codes, dtype=np.int64))


def _decoded(coded: tuple) -> list:
    table, codes = coded
    return [table[c] for c in _unpack(codes).tolist()]


def _optional(values: list, internal: np.ndarray, fill=-1) -> tuple:
    """A number that may be None (``fill`` in its place): over the internal nodes alone if
    every leaf has None, else over all nodes."""
    only_internal = all(v is None for v, inside in zip(values, internal) if not inside)
    kept = [v for v, inside in zip(values, internal) if inside or not only_internal]
    return only_internal, _pack([fill if v is None else v for v in kept])


def _unoptional(packed: tuple, internal: np.ndarray, fill=-1) -> list:
    """The numbers :func:`_optional` packed, None where it held ``fill`` (-1, or NaN)."""
    only_internal, values = packed
    values = [None if v == fill or v != v else v for v in _unpack(values).tolist()]
    if not only_internal:
        return values
    out = [None] * len(internal)
    for i, v in zip(np.flatnonzero(internal).tolist(), values):
        out[i] = v
    return out


def _sparse(values: list) -> dict:
    """{position: value} for the values that are not empty (Nones, or ())."""
    return {i: v for i, v in enumerate(values) if any(part is not None for part in v)}


def _summed(values: list, children: list[list[int]], internal: np.ndarray) -> list:
    """Each internal node's value as the sum of its children's, from the leaves up (pre-order:
    a node's children come after it); the leaves' as given."""
    out = list(values)
    for i in reversed(np.flatnonzero(internal).tolist()):
        total = out[children[i][0]]
        for c in children[i][1:]:
            total = total + out[c]
        out[i] = total
    return out


def _by_leaves(values: list, children: list[list[int]], internal: np.ndarray) -> tuple:
    """A node field as the leaves' values alone where every internal node's is its children's
    sum (bit for bit: whole counts, no row split between branches or kept at a node), else
    as every node's."""
    if len({np.shape(v) for v in values}) == 1 and all(_same_bits(np.asarray(a), np.asarray(
            b)) for a, b in zip(_summed(values, children, internal), values)):
        return True, [v for v, inside in zip(values, internal) if not inside]
    return False, values


def _from_leaves(only_leaves: bool, values: list, children: list[list[int]],
                 internal: np.ndarray) -> list:
    if not only_leaves:
        return values
    out, leaf_values = [None] * len(internal), iter(values)
    for i in np.flatnonzero(~internal).tolist():
        out[i] = next(leaf_values)
    return _summed(out, children, internal)


#: the prediction is the value (a regressor), or the value divided by the weight, an empty node
#: taking its parent's (a classifier); else it is stored
DERIVED_PREDICTION = ("value", "share", None)


@contextmanager
def _collector_paused():
    """Growing a tree, or building one from its pickled columns, makes many small objects and
    no reference cycles, so Python's cyclic garbage collector would only scan the new tree
    again and again (a third of the time of a big tree); it is paused meanwhile, for the
    whole process (other threads too), and resumed as it was. The new tree will live as long
    as its model: its objects are moved to the oldest generation at once (``gc.freeze`` then
    ``gc.unfreeze``), not scanned by the younger generations' collections on their way there
    (a second of a 200,000-node tree), unless the process keeps frozen objects of its own."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


@_collector_paused()
def _columns(root: Node) -> dict:
    """The subtree of ``root`` as columns over its nodes in pre-order: which nodes have
    children and how many (the shape), the numeric fields packed (:func:`_pack`), the names
    and stop reasons coded, the scores and gains as one array each, the surrogates as columns
    over all of them; what follows from the rest (the depth below the root, the score, the
    prediction, an internal node's counts and weight) only where it does not. Restored bit
    for bit by :func:`_rebuild`."""
    table = root._table
    rows = table.preorder(root._row)

    def take(column: list) -> list:  # a ragged column's entries, in pre-order
        return _taken(column, rows)

    def optional(column: np.ndarray) -> list:  # a number column, None where it holds -1
        return [None if v < 0 else v for v in column[rows].tolist()]

    n_children = table.n_children[rows]
    internal, parent, children = _shape(n_children)
    depth = table.depth[rows]
    n_samples = table.n_samples[rows].tolist()
    weights = table.weighted_n_samples[rows]
    values, predictions = list(table.value.take(rows)), list(table.prediction.take(rows))
    how = next(h for h in DERIVED_PREDICTION if h is None or all(
        _same_bits(p, d) for p, d in zip(predictions, _derive_prediction(h, values, weights,
                                                                         parent))))
    only_leaves, n_samples = _by_leaves(n_samples, children, internal)
    value_leaves, values = _by_leaves(values, children, internal)
    names, feature_index, score = take(table.names), optional(table.feature_index), take(
        table.score)
    scored, gained = (np.flatnonzero(column.start[rows] >= 0)
                      for column in (table.scores, table.gains))
    # the score that each node's scores give its tested attribute (NaN for none)
    tested = table.feature_index[rows]
    picked = scored[tested[scored] >= 0]
    chosen = np.full(len(rows), np.nan)
    chosen[picked] = table.scores.fields["number"][table.scores.start[rows[picked]]
                                                   + tested[picked]]
    plain_score = _same_bits(np.array([np.nan if v is None else v for v in score], dtype=float),
                             chosen)
    return dict(
        shape=(_pack(internal), _pack(n_children[internal])),
        depth=(int(root.depth), None if (depth[1:] == depth[parent[1:]] + 1).all()
               else _pack(depth)),
        n_samples=(only_leaves, _pack(np.array(n_samples, dtype=np.int64))),
        weighted_n_samples=None if _same_bits(weights, table.n_samples[rows].astype(float))
        else _pack(weights),
        impurity=_pack(table.impurity[rows]),
        value=(value_leaves, _ragged(values)),
        prediction=(how, _ragged(predictions) if how is None else None),
        feature=_coded(list(zip(take(table.feature), feature_index))),
        threshold=_optional([None if t != t else t for t in table.threshold[rows].tolist()],
                            internal, np.nan),
        score=None if plain_score else _optional(score, internal, np.nan),
        branch_fractions=_ragged_rows(table.branch_fractions, rows,
                                      np.where(internal, n_children, -1)),
        categories=_sparse(list(zip(take(table.category_sets), take(table.branch_of_code)))),
        missing_branch=_optional(optional(table.missing_branch), internal),
        majority_branch=_optional(optional(table.majority_branch), internal),
        larger_branch=_optional(optional(table.larger_branch), internal),
        missing_side=_optional(optional(table.missing_side), internal),
        shortlist_ties=_coded(list(zip(take(table.shortlist), take(table.ties)))),
        stop_reason=_coded(take(table.stop_reason)),
        names=(_pack(scored), _coded([names[i] for i in scored.tolist()])),
        scores=_pack(table.scores.flat(rows[scored])),
        gains=(_pack(gained), _pack(table.gains.flat(rows[gained]))),
        surrogates=_surrogate_columns(table.surrogates, rows),
    )


def _chosen_scores(scores: list, features: list) -> list[float | None]:
    """Each node's score as its scores give it (``scores``, a row over the attributes, or
    None), given the column it tests (``features``, or None): that of its tested attribute,
    None for a leaf or a node without scores."""
    return [None if row is None or j is None else float(row[j])
            for row, j in zip(scores, features)]


def _shape(n_children: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
    """Given each node's number of children in pre-order: which nodes are internal, each
    node's parent (-1 for the root) and children."""
    parent, open_nodes, left = np.full(len(n_children), -1), [], n_children.tolist()
    children = [[] for _ in left]
    for i, count in enumerate(left):
        if open_nodes:
            parent[i] = p = open_nodes[-1]
            children[p].append(i)
            left[p] -= 1
            if left[p] == 0:
                open_nodes.pop()
        if count:
            open_nodes.append(i)
    return n_children > 0, parent, children


def _derive_prediction(how: str, values: list, weights: np.ndarray, parent: np.ndarray) -> list:
    """The predictions that follow from the values, as ``how`` (DERIVED_PREDICTION) says."""
    if how == "value":
        return values
    predictions = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for i, (value, weight) in enumerate(zip(values, weights.tolist())):
            empty = weight == 0 and i > 0
            predictions.append(predictions[parent[i]] if empty else value / weight)
    return predictions


def _surrogate_columns(runs: SurrogateRuns, rows: np.ndarray) -> dict:
    """The surrogates of ``rows``, run after run, as columns over all of them."""
    counts = np.where(runs.start[rows] >= 0, runs.length[rows], 0).astype(np.int64)
    f = {name: column[runs.places(rows[counts > 0])] for name, column in runs.fields.items()}
    return dict(
        counts=_pack(counts),
        feature=_coded(list(zip(f["feature"].tolist(), f["feature_index"].tolist(),
                                f["reverse"].tolist()))),
        agreement=_pack(f["agreement"]), adjusted_agreement=_pack(f["adjusted_agreement"]),
        threshold=_pack(f["threshold"]),
        categories=_sparse(list(zip(f["category_sets"].tolist(),
                                    f["branch_of_code"].tolist()))))


def _rebuild_surrogates(columns: dict) -> SurrogateRuns:
    """Each node's surrogates, from :func:`_surrogate_columns`, in the same order."""
    features, categories = _decoded(columns["feature"]), columns["categories"]
    counts = _unpack(columns["counts"])
    runs = SurrogateRuns([()] * len(counts))
    placed = [categories.get(k, (None, None)) for k in range(len(features))]
    runs.write(np.flatnonzero(counts), dict(
        feature=_objects([f[0] for f in features]),
        feature_index=np.array([f[1] for f in features], dtype=np.int64),
        reverse=np.array([f[2] for f in features], dtype=bool),
        agreement=_unpack(columns["agreement"]),
        adjusted_agreement=_unpack(columns["adjusted_agreement"]),
        threshold=_unpack(columns["threshold"]),
        category_sets=_objects([sets for sets, _ in placed]),
        branch_of_code=_objects([codes for _, codes in placed])), counts[counts > 0])
    return runs


def _unpickle(compressed: bytes) -> Node:
    """The root of the subtree that :meth:`Node.__reduce_ex__` pickled."""
    return _rebuild(pickle.loads(zlib.decompress(compressed)))


@_collector_paused()
def _rebuild(columns: dict) -> Node:
    """The root of the subtree that ``_columns`` wrote."""
    internal = _unpack(columns["shape"][0])
    n_children = np.zeros(len(internal), np.int64)
    n_children[internal] = _unpack(columns["shape"][1])
    internal, parent, children = _shape(n_children)
    root_depth, depths = columns["depth"]
    if depths is None:
        depth = np.full(len(internal), root_depth)
        for i in range(1, len(depth)):
            depth[i] = depth[parent[i]] + 1
        depths = depth.tolist()
    else:
        depths = _unpack(depths).tolist()
    only_leaves, n_samples = columns["n_samples"]
    n_samples = _from_leaves(only_leaves, _unpack(n_samples).tolist(), children, internal)
    weights = np.array(n_samples, dtype=float) if columns["weighted_n_samples"] is None \
        else _unpack(columns["weighted_n_samples"])
    value_leaves, values = columns["value"]
    values = _from_leaves(value_leaves, _unragged(values), children, internal)
    how, stored = columns["prediction"]
    predictions = (_unragged(stored) if how is None
                   else _derive_prediction(how, values, weights, parent))
    features = _decoded(columns["feature"])
    threshold = _unoptional(columns["threshold"], internal, np.nan)
    fractions = _unragged(columns["branch_fractions"], np.where(internal, n_children, -1))
    missing, majority, larger, side = (_unoptional(columns[name], internal) for name in (
        "missing_branch", "majority_branch", "larger_branch", "missing_side"))
    surrogates = _rebuild_surrogates(columns["surrogates"])
    categories = columns["categories"]
    reasons, labels = _decoded(columns["stop_reason"]), _decoded(columns["shortlist_ties"])
    impurity = _unpack(columns["impurity"]).tolist()
    n = len(internal)
    names_of, scores_of, gains_of = [()] * n, [None] * n, [None] * n
    scored, names = columns["names"]
    flat_scores, start = _unpack(columns["scores"]), 0
    for i, node_names in zip(_unpack(scored).tolist(), _decoded(names)):
        names_of[i], scores_of[i] = node_names, flat_scores[start:start + len(node_names)]
        start += len(node_names)
    gained, flat_gains = (_unpack(part) for part in columns["gains"])
    start = 0
    for i in gained.tolist():
        gains_of[i] = flat_gains[start:start + len(names_of[i])]
        start += len(names_of[i])
    scores = (_chosen_scores(scores_of, [f[1] for f in features]) if columns["score"] is None
              else _unoptional(columns["score"], internal, np.nan))
    order, first_child = _consecutive(children.__getitem__, 0)
    table = NodeTable(len(values[0]), len(predictions[0]), n)
    table.add(n)
    table.value[:], table.prediction[:] = np.array(values)[order], np.array(predictions)[order]
    for name, column in (("n_samples", n_samples), ("weighted_n_samples", weights),
                         ("impurity", impurity), ("depth", depths), ("threshold", threshold),
                         ("feature_index", [f[1] for f in features]),
                         ("missing_branch", missing), ("majority_branch", majority),
                         ("larger_branch", larger), ("missing_side", side)):
        fill = np.nan if name == "threshold" else -1
        getattr(table, name)[:] = np.array([fill if v is None else v for v in column],
                                           dtype=float)[order]
    table.first_child[:], table.n_children[:] = first_child, n_children[order]
    rows = order.tolist()
    for name, column in (("feature", [f[0] for f in features]),
                         ("category_sets", [categories.get(i, (None, None))[0] for i in range(n)]),
                         ("branch_of_code", [categories.get(i, (None, None))[1] for i in range(n)]),
                         ("branch_fractions", fractions), ("score", scores),
                         ("shortlist", [label[0] for label in labels]),
                         ("ties", [label[1] for label in labels]), ("stop_reason", reasons),
                         ("names", names_of), ("scores", scores_of),
                         ("gains", gains_of)):
        table.set_column(name, [column[i] for i in rows])
    table.surrogates = surrogates.taken(order)
    return table.node(0)


def _consecutive(children_of, root: int) -> tuple[np.ndarray, np.ndarray]:
    """The nodes below ``root`` (itself first), ``children_of(node)`` giving a node's children,
    numbered depth first with a node's children consecutive: a node's children, then the first
    child's subtree, then the second's (the order of a :class:`NodeTable`'s rows, which keeps a
    row's way down close together in memory). Returns the nodes in that order and the place of
    each one's first child in it (-1 for a leaf)."""
    order, first, stack = [root], [-1], [0]
    while stack:
        k = stack.pop()
        below = children_of(order[k])
        if below:
            first[k] = len(order)
            order.extend(below)
            first += [-1] * len(below)
            stack.extend(range(len(order) - 1, first[k] - 1, -1))
    return np.array(order, dtype=np.int64), np.array(first, dtype=np.int64)


# ------------------------------------------------------------------ the routing rule
def value_branches(node: Node, X: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The branch of each row's tested value at an internal node (:func:`dtree.routing.branch_of`):
    0 if ``value <= threshold``, else 1; for a category, the branch of its code. SPREAD where
    the value is missing (NaN) or its category has no branch there. ``X`` holds the encoded
    rows (C order), ``rows`` the ones to read."""
    a = _tested(node._table, np.array([node._row]))
    return compiled(route_rows)(X, rows, 0, a.feature, a.threshold, a.codes, a.code_start,
                                np.zeros((1, 2), np.int64), a.surrogate_table,
                                a.surrogate_threshold, np.full(1, -1), SPREAD)


def branches(node: Node, X: np.ndarray, rows: np.ndarray, predict_missing: str = "distribute",
             at_fit: bool = False) -> np.ndarray:
    """Which branch each row takes at an internal node: the library's one routing rule,
    :mod:`dtree.routing`, which the grower, the pruners and prediction follow.

    A row goes by its tested value (:func:`value_branches`). Without one (missing, or a category
    with no branch here) it takes the first surrogate split that can place it (CART); else the
    node's missing-value branch, or its learned side (``missing_side``, CART's
    ``missing="learn"``); else the majority branch (``at_fit``) or the larger child (at
    prediction); else, as ``predict_missing`` says, the branch of largest training fraction
    ("most_frequent"), every branch (SPREAD, "distribute"; Quinlan 1993, ch. 3) or none: it
    stays at the node (STAY, "stop"; rpart's rule on a tie). ``X`` holds the encoded rows
    (C order), ``rows`` the ones to read."""
    return _routed(_tested(node._table, np.array([node._row])), 0, X, rows, predict_missing,
                   at_fit)


def _routed(a, i: int, X: np.ndarray, rows: np.ndarray, predict_missing: str,
            at_fit: bool) -> np.ndarray:
    """:func:`dtree.routing.route_rows` at node ``i`` of routing arrays ``a``, with the detour
    that ``predict_missing`` and ``at_fit`` call for."""
    return compiled(route_rows)(X, rows, i, a.feature, a.threshold, a.codes, a.code_start,
                                a.surrogates, a.surrogate_table, a.surrogate_threshold,
                                _detour_of(a, predict_missing, at_fit), otherwise(predict_missing))


def _detour_of(a, predict_missing: str, at_fit: bool) -> np.ndarray:
    """Of routing arrays ``a``, the detours (:func:`dtree.routing.detour`) of the grower
    (``at_fit``) or of prediction with ``predict_missing``."""
    return (a.fit_child if at_fit else a.frequent_child if predict_missing == "most_frequent"
            else a.missing_child)


def larger_branch(n_samples) -> int | None:
    """Of a binary split's two children, given their numbers of training rows, the one that
    holds more; None if they hold as many (rpart's ``pred_rpart.c``)."""
    left, right = n_samples
    return 0 if left > right else 1 if right > left else None


def hand_down(branch: np.ndarray, rows: np.ndarray, weights: np.ndarray, shares: np.ndarray,
              smallest: float = 0.0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each child's rows and weights, given each row's ``branch`` (:func:`branches`): the rows
    of its branch, and the SPREAD rows with their weight times the child's share, where the
    share exceeds ``smallest`` (C4.5's fractional rows; Zhou 2016, sec. 4.4.2). A STAY row goes
    to no child."""
    spread, parts = branch == SPREAD, []
    for b, share in enumerate(shares):
        mine = branch == b
        if spread.any() and share > smallest:
            parts.append((np.concatenate([rows[mine], rows[spread]]),
                          np.concatenate([weights[mine], weights[spread] * share])))
        else:
            parts.append((rows[mine], weights[mine]))
    return parts


def reach(root: Node, X: np.ndarray, predict_missing: str = "distribute", at_fit: bool = False,
          ) -> Iterator[tuple[Node, np.ndarray, np.ndarray, np.ndarray]]:
    """Where the rows of ``X`` (encoded, C order) go in the tree, as prediction
    sends them (``at_fit``: as the grower did): for every node reached (parents first), the
    rows that reach it, the share of each row's weight that does, and whether that share ends
    there (always at a leaf; at an internal node for a row that stays, ``STAY``). A row's
    prediction is the sum, over the nodes where its shares end, of share x the node's
    prediction."""
    n, a = X.shape[0], root._table.routing(root._row)
    stack = [(root, np.arange(n), np.ones(n))]
    while stack:
        node, rows, weights = stack.pop()
        if not node.children:
            yield node, rows, weights, np.ones(len(rows), dtype=bool)
            continue
        branch = _routed_branches(a, node, X, rows, predict_missing, at_fit)
        yield node, rows, weights, branch == STAY
        parts = hand_down(branch, rows, weights, node.branch_fractions)
        stack.extend((child, *part) for child, part in zip(reversed(node.children),
                                                           reversed(parts)) if len(part[0]))


@kernel(inline=True)
def ties(value, reference):
    """Whether ``value`` is as large as ``reference`` up to round-off,
    reference - value <= TIE_ATOL + TIE_RTOL abs(reference) (numbers or arrays): the library's
    one tie rule, for the scores of splits, branch fractions, class probabilities and expected
    losses. Two sums of the same numbers in another order, or 0.3 and 0.1 + 0.2, tie."""
    return reference - value <= TIE_ATOL + TIE_RTOL * abs(reference)


def level_ties(scores: np.ndarray) -> np.ndarray:
    """``scores`` (a row per sample, a column per class; or a single row) with every value
    that :func:`ties` with the largest of its row set to that largest, so that a tie is one in
    the numbers too and ``np.argmax`` takes the first of the tied columns. A value moves by
    round-off at most (TIE_ATOL + TIE_RTOL x the largest)."""
    return _leveled(scores)[0]


def _leveled(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`level_ties` of ``scores``, and ``np.argmax`` of it along the last axis."""
    leveled = np.array(scores, dtype=float, order="C")
    first = compiled(_level_rows)(leveled.reshape(-1, leveled.shape[-1]))  # leveled in place
    return leveled, first.reshape(leveled.shape[:-1])[()]  # [()]: a number for a single row


@kernel
def _level_rows(scores):
    """:func:`level_ties` in place on a 2-D array, a row at a time, and each row's first column
    holding its largest value. A row's largest is NaN if any of its values is (as
    ``np.maximum`` has it): then nothing ties with it, and its first NaN is taken (as
    ``np.argmax`` does)."""
    first = np.full(scores.shape[0], -1)
    for i in range(scores.shape[0]):
        largest = scores[i, 0]
        for k in range(1, scores.shape[1]):
            if not (largest > scores[i, k] or math.isnan(largest)):  # np.maximum: on a
                largest = scores[i, k]  # tie, the later (0 or -0); NaN if either is
        for k in range(scores.shape[1]):
            if ties(scores[i, k], largest):
                scores[i, k] = largest
            if first[i] < 0 and (scores[i, k] == largest or math.isnan(scores[i, k])):
                first[i] = k
    return first


def most_probable(proba: np.ndarray, loss: np.ndarray | None = None) -> np.ndarray:
    """The class, as a column of ``proba``, that each row of ``proba`` predicts (one row, a
    node's ``prediction``: its class): the most probable, or with a ``loss`` matrix (rows true
    classes) the one of least expected loss, sum_j loss[j, i] p_j (rpart's rule; Breiman et al.
    1984, sec. 4.4); the first of those that tie (:func:`ties`). The library's one rule for the
    class of a row or a node: ``predict``, the pruners' votes, the printouts and the plots."""
    scores = proba if loss is None else -(proba @ loss)
    return _leveled(scores)[1]


# ------------------------------------------------------------------ editing a tree
def copy_tree(root: Node) -> Node:
    """A copy of the tree below ``root`` to edit: a table of its own
    (:meth:`NodeTable.compacted`), sharing the ragged values (arrays, tuples) with the
    original's. An edit rebinds a node's ragged fields and writes its numbers into the
    copy's table, so the original stays as it was, and what its table keeps computed
    (:meth:`~dtree.tree.NodeTable.routing`) with it."""
    return root._table.compacted(root._row).node(0)


def _compact(root: Node) -> Node:
    """The tree below ``root`` on a table of its own rows alone, as a pruner leaves it: the
    kept nodes built into a new table (:meth:`NodeTable.compacted`), or ``root`` itself where
    its table is as grown (every row below row 0)."""
    table = root._table
    return root if root._row == 0 and table.tidy else table.compacted(root._row).node(0)


def make_leaf(node: Node, reason: str, routing: RoutingArrays | None = None) -> None:
    """Turn an internal node into a leaf, in place, recording why in ``stop_reason``. The grower
    and every pruner edit a tree with this and :func:`raise_branch` only; the edit empties
    what the table keeps computed, so that a prediction reads the tree as edited. A pruner
    that routes rows while it edits passes routing arrays of its own (``RoutingArrays``),
    made before its first edit, which are patched to match."""
    if routing is not None:
        routing.feature[routing.place[node._row]] = -1
    node.children, node.stop_reason = [], reason
    node.feature = node.feature_index = node.threshold = node.score = None
    node.category_sets = node.branch_of_code = node.branch_fractions = None
    node.missing_branch = node.majority_branch = node.larger_branch = node.missing_side = None
    node.surrogates = ()


#: what a node's test is made of, taken over whole when a branch is raised into its place
TEST_FIELDS = ("feature", "feature_index", "threshold", "category_sets", "branch_of_code",
               "missing_branch", "surrogates", "majority_branch", "larger_branch",
               "missing_side", "score",
               "children",
               "branch_fractions", "stop_reason")


def raise_branch(node: Node, child: Node, routing: RoutingArrays | None = None) -> None:
    """Put ``child``'s test and subtree in ``node``'s place, in place (C4.5's subtree raising;
    Quinlan 1993, ch. 4). The node keeps its own statistics; the caller hands its rows down
    again. A pruner's ``routing`` arrays (see :func:`make_leaf`) are patched to match: the
    node's entries take the child's (``ROUTING_ARRAYS``)."""
    if routing is not None:
        i, j = routing.place[node._row], routing.place[child._row]
        for name in ROUTING_ARRAYS:
            array = getattr(routing, name)
            array[i] = array[j]
    for name in TEST_FIELDS:
        setattr(node, name, getattr(child, name))


def predict_values(root: Node, X: np.ndarray, predict_missing: str = "distribute") -> np.ndarray:
    """Each row's prediction (class probabilities or mean): that of the leaf it reaches, or a
    weighted mix of leaves.

    A row with a known value follows one branch. Where the tested value is missing (NaN; an
    encoded value unseen at fit is NaN too), the row takes the node's missing-value branch if it
    has one (``Node.missing_branch``); at a CART node, the branch of the first surrogate split
    that can place it, else the majority branch (``Node.surrogates``,
    ``Node.majority_branch``). Otherwise ``predict_missing`` decides:

    * "distribute" (C4.5; Quinlan 1993, ch. 3): the row follows every branch, weighted by the
      branch's training fraction (``Node.branch_fractions``), and its prediction is the weighted
      sum of the leaves it reaches;
    * "most_frequent": it follows the branch that held the most training weight at the node
      (the most frequent value among the node's training rows; the first such branch on a tie);
    * "stop": its prediction is the node's own (``Node.prediction``).

    Each is a mix of nodes' predictions with weights summing to 1, so class probabilities sum
    to 1. The tree is read as its table's routing arrays
    (:meth:`~dtree.tree.NodeTable.routing`), which the table keeps for the next call until it
    is edited.
    """
    return _predict_routed(root._table.routing(root._row), X, predict_missing)


def _predict_routed(a: RoutingArrays, X: np.ndarray, predict_missing: str = "distribute"
                   ) -> np.ndarray:
    """:func:`predict_values` on a tree's routing arrays ``a``."""
    if not (isinstance(predict_missing, str) and predict_missing in PREDICT_MISSING):
        raise ValueError(f"predict_missing must be one of {PREDICT_MISSING}, got "
                         f"{predict_missing!r}")
    X = np.require(X, float, ["C", "W"])  # the layout predict_rows is compiled for
    return compiled(kernels.predict_rows)(
        X, a.feature, a.first_child, a.code_start, a.threshold, a.codes, a.n_children,
        a.fractions, _detour_of(a, predict_missing, False), otherwise(predict_missing),
        a.values, a.surrogates, a.surrogate_table, a.surrogate_threshold)


def _end_numbers(root: Node, X: np.ndarray, predict_missing: str
                 ) -> tuple[RoutingArrays, np.ndarray]:
    """The tree's routing arrays, and the number in them of the node where each row of ``X``
    ends: routed with each node's number as its prediction, which is that number for a row
    that takes one way down (one that spreads gets a mix of numbers)."""
    a = root._table.routing(root._row)
    numbered = a._replace(values=np.arange(len(a.feature), dtype=float)[:, None])
    return a, _predict_routed(numbered, X, predict_missing)[:, 0].astype(np.int64)


def _routed_branches(a: RoutingArrays, node: Node, X: np.ndarray, rows: np.ndarray,
                    predict_missing: str = "distribute", at_fit: bool = False) -> np.ndarray:
    """:func:`branches` at ``node`` read from its tree's routing arrays ``a`` (patched by a
    pruner's edits, so that it routes on the tree as it stands)."""
    return _routed(a, a.place[node._row], X, rows, predict_missing, at_fit)


class RoutingArrays(NamedTuple):
    """A tree as arrays over its nodes, numbered from its root as :func:`_as_arrays` lays them
    out: what :func:`dtree.kernels.predict_rows` and error-based pruning read."""

    feature: np.ndarray  # the tested column, -1 for a leaf
    first_child: np.ndarray  # the node's children are the next n_children[i] nodes from here
    code_start: np.ndarray  # where the node's category-to-branch map starts in codes; ~ that
    # place for a binary map laid out as two bit masks (_bit_masks, routing.branch_of)
    threshold: np.ndarray  # NaN for a split on categories
    codes: np.ndarray  # the category maps, end to end
    n_children: np.ndarray
    fractions: np.ndarray  # each node's share of its parent's training weight
    missing_child: np.ndarray  # where prediction sends a row nothing places, or -1
    frequent_child: np.ndarray  # the same with the most frequent branch in place of -1
    fit_child: np.ndarray  # where the grower sent a row nothing places, or -1
    values: np.ndarray  # each node's prediction, a row per node
    surrogates: np.ndarray  # per node, where its run of surrogates starts and ends
    surrogate_table: np.ndarray  # per surrogate: feature, reversed (0/1), category map start
    surrogate_threshold: np.ndarray  # NaN for categories
    place: np.ndarray  # per row of the table, its node's number here (-1: not below the root)


#: the arrays that say what a node tests and where its children are: an edit copies a raised
#: child's into its node's entries
ROUTING_ARRAYS = ("feature", "first_child", "code_start", "threshold", "n_children",
                  "missing_child", "frequent_child", "fit_child", "surrogates")


def _as_arrays(table: NodeTable, row: int = 0) -> RoutingArrays:
    """The tree below ``row`` of ``table`` as arrays over its nodes (``RoutingArrays``): in the
    table's own order for a tree as grown (:attr:`NodeTable.tidy`), the node numbers its
    rows, else in :meth:`NodeTable.reachable`'s; a node's children consecutive either way. Per
    node: the first child, the number of children, each node's branch fraction and
    prediction; and what :func:`_tested` lays out, a leaf's feature -1. Read from the table's
    columns: no node is visited in Python."""
    grown = row == 0 and table.tidy
    rows, first = ((np.arange(table.size), table.first_child[:table.size]) if grown
                   else table.reachable(row))
    place = rows if grown else np.full(table.size, -1, np.int64)
    if not grown:
        place[rows] = np.arange(len(rows))
    n_children = table.n_children[rows]
    split = n_children > 0
    first_child = np.where(split, first, len(rows))  # a leaf's: past the end
    fractions = np.ones(len(rows))  # each node's share of its parent's training weight
    opened = np.flatnonzero(split)
    if len(opened):
        fractions[_child_places(first_child[opened], n_children[opened])] = (
            table.branch_fractions.flat(rows[opened]))
    return RoutingArrays(
        first_child=first_child, n_children=n_children, fractions=fractions,
        values=(table.prediction.blocks[0][:len(rows)] if grown and len(
            table.prediction.blocks) == 1 else table.prediction.take(None if grown else rows)),
        place=place,
        **vars(_tested(table, rows, split, masks=True, whole=grown)))


def _child_places(first: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The places of the children of some nodes, whose children are the ``count`` places from
    ``first``: the first node's children, then the second's, and so on."""
    return np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())


def _parents(a: RoutingArrays) -> np.ndarray:
    """Each node's parent in routing arrays ``a`` (-1 for the root)."""
    parent = np.full(len(a.feature), -1, np.int64)
    opened = np.flatnonzero(a.n_children)
    count = a.n_children[opened]
    parent[_child_places(a.first_child[opened], count)] = np.repeat(opened, count)
    return parent


def _taken(column: list, rows: np.ndarray, whole: bool = False) -> list:
    """The entries of the ragged ``column`` at ``rows``; with ``whole`` (``rows`` are every
    row of the table, in order) a slice, made without a Python loop."""
    return column[:len(rows)] if whole else [column[r] for r in rows.tolist()]


def _tested(table: NodeTable, rows: np.ndarray, split: np.ndarray | None = None,
            masks: bool = False, whole: bool = False) -> SimpleNamespace:
    """The fields of ``RoutingArrays`` that the routing rule reads (:mod:`dtree.routing`), over
    the table's ``rows`` (``whole``: every row, in order): those of ``split`` (all by default)
    tested, the others leaves. Per
    node the tested feature (-1 for a leaf), where its category-to-branch map starts in the
    concatenated maps (with ``masks``, binary maps as bit masks, :func:`_bit_masks`), the
    threshold (NaN for a split on categories); the maps; the detours
    (:func:`dtree.routing.detour`) of prediction, of prediction with the most frequent branch,
    and of the grower (the majority branch in place of the larger child); and the surrogate
    splits: per node where its run starts and ends, per surrogate its feature, whether
    reversed and where its category map starts, and its threshold (NaN for categories)."""
    split = np.ones(len(rows), bool) if split is None else split
    own_map = _taken(table.branch_of_code, rows, whole)
    optional = [np.where(split & (column[rows] >= 0), column[rows], np.nan)  # None: NaN
                for column in (table.missing_branch, table.missing_side, table.larger_branch,
                               table.majority_branch)]
    # the surrogates run by run; the category maps end to end, a node's own map, then its
    # surrogates' (a split without a map starts where the next map does)
    runs = table.surrogates
    counts = np.where(split & (runs.start[rows] >= 0), runs.length[rows], 0)
    bounds = np.concatenate([[0], np.cumsum(counts)])
    placed = runs.places(rows[counts > 0])  # the surrogates, run after run
    flat = {name: column[placed] for name, column in runs.fields.items()}
    own_at = np.arange(len(rows)) + bounds[:-1]  # a map's place in that order
    theirs_at = np.arange(len(placed)) + np.repeat(np.arange(1, len(rows) + 1), counts)
    sizes = np.zeros(len(own_at) + len(theirs_at), np.int64)
    maps = []
    if len(placed) or any(map(operator.is_not, own_map, itertools.repeat(None))):  # a map at all
        maps = sorted([(at, np.asarray(codes, dtype=np.int64)) for at, codes in itertools.chain(
            zip(own_at.tolist(), own_map),
            zip(theirs_at.tolist(), flat["branch_of_code"].tolist()))
            if codes is not None], key=lambda placed: placed[0])
        sizes[[at for at, _ in maps]] = [len(codes) for _, codes in maps]
    codes = np.concatenate([np.zeros(0, np.int64)] + [codes for _, codes in maps])
    codes, map_start = _bit_masks(codes, sizes) if masks else (codes, np.cumsum(sizes) - sizes)
    missing_child = detour(*optional, at_fit=False)
    needed = np.flatnonzero(split & (missing_child < 0))  # where the most frequent is needed
    most_frequent = np.full(len(rows), np.nan)
    most_frequent[needed] = _most_frequent(_taken(table.branch_fractions, rows[needed]))
    return SimpleNamespace(
        feature=np.where(split, table.feature_index[rows], -1),  # pruned
        code_start=map_start[own_at],
        threshold=table.threshold[:len(rows)] if whole else table.threshold[rows],
        codes=codes, missing_child=missing_child,
        frequent_child=detour(*optional, at_fit=False, most_frequent=most_frequent),
        fit_child=detour(*optional, at_fit=True),
        surrogates=np.column_stack([bounds[:-1], bounds[1:]]),
        surrogate_table=np.column_stack([
            flat["feature_index"], flat["reverse"].astype(np.int64),
            map_start[theirs_at]]).reshape(len(placed), 3),
        surrogate_threshold=flat["threshold"])


def _bit_masks(codes: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Category maps laid end to end (``codes``, each ``sizes`` long, 0 for none) with each
    map of at most 64 codes and branches 0 and 1 only (-1: none) made two bit masks, of the
    codes with a branch and of those of branch 1, as :func:`dtree.routing.branch_of` reads
    them; and where each map starts, ~ its place for masks."""
    start = np.cumsum(sizes) - sizes
    opened = np.flatnonzero(sizes)
    binary = np.zeros(len(sizes), bool)
    if len(opened):
        binary[opened] = (sizes[opened] <= 64) & (np.maximum.reduceat(codes, start[opened]) <= 1)
    laid_sizes = np.where(binary, 2, sizes)
    place = np.cumsum(laid_sizes) - laid_sizes
    laid = np.empty(laid_sizes.sum(), np.int64)
    within = np.arange(len(codes)) - np.repeat(start, sizes)  # a code's place in its map
    kept = np.repeat(~binary, sizes)
    laid[(np.repeat(place, sizes) + within)[kept]] = codes[kept]
    if binary.any():
        bit = np.left_shift(np.uint64(1), np.minimum(within, 63).astype(np.uint64))
        for k, has in enumerate((codes >= 0, codes == 1)):
            laid[place[binary] + k] = np.bitwise_or.reduceat(
                np.where(has, bit, np.uint64(0)), start[opened])[binary[opened]].view(np.int64)
    return laid, np.where(binary, ~place, place)


def _most_frequent(shares: list) -> np.ndarray:
    """Per node the branch of largest training fraction (the most frequent value among the
    node's training rows): the first that :func:`ties` with the largest, given each node's
    branch fractions (None, and NaN in the answer, for none)."""
    branch = np.full(len(shares), np.nan)
    opened = [i for i, part in enumerate(shares) if part is not None]
    if not opened:
        return branch
    counts = np.array([len(shares[i]) for i in opened])
    block = np.cumsum(counts) - counts
    within = np.arange(counts.sum()) - np.repeat(block, counts)
    flat = np.concatenate([shares[i] for i in opened])
    largest = np.repeat(np.maximum.reduceat(flat, block), counts)
    branch[opened] = np.minimum.reduceat(np.where(ties(flat, largest), within, counts.max()),
                                         block)
    return branch
