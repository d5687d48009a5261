"""Kernels: plain Python functions that numba compiles once per installation.

The library's hot loops (:mod:`dtree.kernels`, the surrogate search, the hashing of object
columns) are plain Python functions marked ``@kernel``: the code the book quotes. Callers run
:func:`compiled` versions of them, in which a kernel calls the compiled versions of the kernels
it uses. numba keeps the machine code in a cache of dtree's own (:func:`cache_directory`), a
directory named by a hash of dtree's kernel sources and the versions of numba, numpy and
Python: an edit to any of them gives a new, empty directory, so a stale kernel cannot be
loaded. The first compiled call of an installation compiles every kernel at once
(:func:`precompile`, about 40 s of CPU time, shared by two processes on two cores or
more) and says so on stderr; later processes load the machine code (a fraction of a second).
Until a process makes a call larger than ``PLAIN_UP_TO``, its small calls run the plain
functions and numba is not imported: the same results, without the half second of loading.
With ``NUMBA_DISABLE_JIT=1`` the "compiled" versions are the plain Python functions.
"""
from __future__ import annotations

import hashlib
import platform
import sys
import time
import types
from collections.abc import Callable
from functools import partial
from pathlib import Path

__all__ = ["kernel", "compiled", "cache_directory", "precompile"]

_plain: dict[tuple[str, str], Callable] = {}  # (module, name) -> the kernel as written
_compiled: dict[tuple[str, str], Callable] = {}  # (module, name) -> numba's dispatcher
_inline: set[tuple[str, str]] = set()
_ready: dict[Callable, Callable] = {}  # plain kernel -> its dispatcher (compiled's fast path)
#: the file in the cache directory that says every kernel has been compiled into it
DONE = "complete"


def _key(function: Callable) -> tuple[str, str]:
    return function.__module__, function.__name__


def kernel(function: Callable | None = None, *, inline: bool = False):
    """Mark ``function`` as a kernel (``@kernel``, or ``@kernel(inline=True)`` for one that
    numba should inline into its callers). The function itself is returned unchanged."""
    def mark(f: Callable) -> Callable:
        _plain[_key(f)] = f
        if inline:
            _inline.add(_key(f))
        return f
    return mark if function is None else mark(function)


#: a call whose array arguments hold at most this many numbers in all (a table of about 30
#: rows and 8 columns) runs the kernel as plain Python while no kernel has been compiled in
#: the process: it takes a few milliseconds, where importing numba and loading the machine
#: code from its cache takes about half a second (the cold start of a textbook example). The
#: results are the same either way; once a larger call has loaded the compiled kernels, every
#: call runs them.
PLAIN_UP_TO = 512


def compiled(function: Callable) -> Callable:
    """The compiled version of a kernel (numba's dispatcher, which loads the machine code from
    the cache, or compiles it, on its first call for some argument types); while none has
    been compiled in this process, the kernel itself for a small call (``PLAIN_UP_TO``)."""
    ready = _ready.get(function)
    if ready is None:
        if not _compiled and not _warming:
            return partial(_plain_while_small, function)
        ready = _dispatcher(function)
    return ready


def _dispatcher(function: Callable) -> Callable:
    if _key(function) not in _compiled:
        _compile_new()
    ready = _ready[function] = _compiled[_key(function)]
    return ready


def _plain_while_small(function: Callable, *args):
    """``function(*args)`` as written if no kernel is compiled yet and ``args`` hold at most
    ``PLAIN_UP_TO`` numbers, else compiled."""
    if not _compiled and sum(getattr(a, "size", 1) for a in args) <= PLAIN_UP_TO:
        return function(*args)
    return _dispatcher(function)(*args)


def cache_directory() -> Path:
    """Where the compiled kernels are kept: ``dtree-<hash>`` in numba's ``NUMBA_CACHE_DIR`` if
    set, else in the user's cache directory (``~/.cache/dtree`` on Linux). The hash covers
    the source of every module of dtree that defines a kernel (a kernel reads its module's
    globals, and a compiled caller holds its callees' code), of ``dtree/tolerances.py`` (whose
    constants kernels read) and the versions of numba, numpy and Python."""
    import numba
    import numpy
    from numba.misc.appdirs import AppDirs

    digest = hashlib.sha256(f"{numba.__version__} {numpy.__version__} "
                            f"{platform.python_version()}".encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        source = path.read_bytes()
        if b"@kernel" in source or path.name in ("jit.py", "tolerances.py"):
            digest.update(path.name.encode() + b"\0" + source)
    base = numba.config.CACHE_DIR or AppDirs("dtree", appauthor=False).user_cache_dir
    return Path(base) / f"dtree-{digest.hexdigest()[:16]}"


def precompile(quiet: bool = False) -> float:
    """Compile every kernel for the argument types dtree passes (a fit of each kind on a small
    table), unless this installation's cache has them already; return the seconds it took.
    From then on every call in this process runs the compiled kernels, a small one too
    (``PLAIN_UP_TO``). ``tasks.py book``, Binder's ``postBuild`` and the Colab setup cell
    run it ahead of time."""
    import numba
    if numba.config.DISABLE_JIT or _warming:
        return 0.0
    done = _cache() / DONE
    if done.exists():
        if not _compiled:  # the kernels of every fit (their modules imported), made compiled
            from . import estimators  # noqa: F401
            _compile_new()
        return 0.0
    start = time.perf_counter()
    if not quiet:
        print("dtree: compiling its kernels, once for this installation (about half a minute)...",
              file=sys.stderr, flush=True)
    _warming.append(True)  # the fits below compile; they do not come back here
    helper = _start_helper()
    try:
        _warm_up()
    finally:
        _warming.clear()
        if helper is not None:
            helper.wait()
    done.write_text("")
    seconds = time.perf_counter() - start
    if not quiet:
        print(f"dtree: compiled in {seconds:.0f} s, cached in {done.parent}", file=sys.stderr,
              flush=True)
    return seconds


_warming: list[bool] = []  # non-empty while precompile runs
_directory: list[Path] = []  # this process's cache directory, once known


def _cache() -> Path:
    if not _directory:
        _directory.append(cache_directory())
        _directory[0].mkdir(parents=True, exist_ok=True)
    return _directory[0]


def _compile_new() -> None:
    """Make a numba dispatcher for every kernel that has none yet. Each is a copy of the plain
    function whose globals are a copy of its module's, in which every kernel's name stands for
    its dispatcher, so that compiled kernels call compiled kernels. The first time in a
    process, the kernels are compiled into the cache if they are not there (:func:`precompile`)."""
    import numba  # only now: a process that never needs it never imports it

    first = not _compiled
    if first and not numba.config.DISABLE_JIT:
        _locate_in(_cache())
    namespaces: dict[str, dict] = {}
    for key, function in _plain.items():
        if key in _compiled:
            continue
        module = key[0]
        namespace = namespaces.setdefault(module, dict(vars(sys.modules[module])))
        copy = types.FunctionType(function.__code__, namespace, function.__name__,
                                  function.__defaults__, function.__closure__)
        copy.__qualname__, copy.__doc__ = function.__qualname__, function.__doc__
        dispatcher = numba.njit(cache=True, inline="always" if key in _inline else "never")(copy)
        _compiled[key] = dispatcher if numba.config.DISABLE_JIT else _once_per_type(dispatcher)
    for namespace in namespaces.values():
        for name, value in namespace.items():
            if isinstance(value, types.FunctionType) and _plain.get(_key(value)) is value:
                namespace[name] = _compiled[_key(value)]
    if first:
        precompile()


def _once_per_type(dispatcher):
    """``dispatcher``, made to compile a call from another kernel for the types of its
    arguments, not their values: numba would compile ``f(x, False)`` and ``f(x, flag)`` apart."""
    from numba.core import types

    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve([types.unliteral(a) for a in args],
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _locate_in(directory: Path) -> None:
    """Have numba cache dtree's kernels (and nothing else) in ``directory``, where the
    directory's name is the kernels' version: numba's own check of a source file's time stamp
    is kept as well."""
    from numba.core import caching, event

    class Locator(caching.UserProvidedCacheLocator):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = str(directory)

        @classmethod
        def from_function(cls, py_func, py_file):
            key = _key(py_func)
            if key not in _plain or _plain[key].__code__ is not py_func.__code__:
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    class Announce(event.Listener):
        """Say on stderr when a kernel is compiled outside :func:`precompile` (for argument
        types it did not foresee), once per process."""

        def on_start(self, ev):
            key = _key(getattr(ev.data["dispatcher"], "py_func", len))
            if key in _plain and not _warming and not announced:
                announced.append(key)
                print(f"dtree: compiling {key[0]}.{key[1]} for new argument types, once...",
                      file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    announced: list[tuple[str, str]] = []
    caching.CacheImpl._locator_classes.insert(0, Locator)
    event.register("numba:compile", Announce())


def _start_helper():
    """On a machine with two cores or more, a second process that runs :func:`_warm_up` with
    the split search (``score_attributes``, the longest compile) and ``grow_subtree``, which
    holds it, left in plain Python: it compiles first the kernels this process reaches late
    while it compiles ``grow_subtree`` (:func:`_grower_callees`), then the other kernels, into
    the same cache, while this process compiles ``grow_subtree`` and the split search, which
    then load those kernels from the cache. Each process loads from the cache what the other
    has written, and this one compiles whatever is still missing, so the cache is complete
    even if the helper fails. Numba writes a cache file whole and then renames it, so two
    writers of one kernel leave one complete file."""
    import os
    import subprocess

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cores or 1) < 2:
        return None
    path = os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")])
    return subprocess.Popen([sys.executable, "-c", "import dtree.jit; dtree.jit._warm_up(True)"],
                            env={**os.environ, "PYTHONPATH": path},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _warm_up(helper: bool = False) -> None:
    """Fit, predict and prune with every kind of model on a small table with numeric and
    categorical columns, missing values and weights: each kernel runs with the types it gets.
    The ``helper`` process (:func:`_start_helper`) first compiles the kernels that this
    process reaches late (:func:`_grower_callees`), then runs the rest with the split search
    and ``grow_subtree`` in plain Python, while this process compiles those two first
    (:func:`_grower_first`) and, last, loads the helper's first kernels (or compiles them,
    without a helper)."""
    import warnings

    import numpy as np
    import pandas as pd

    import dtree
    from dtree import grow, kernels

    rng = np.random.default_rng(0)
    n = 60
    X = pd.DataFrame({"a": rng.normal(size=n).round(1), "b": rng.integers(0, 3, n) * 1.0,
                      "c": rng.choice(list("xyz"), n), "d": rng.choice(list("pqrstuvw"), n)})
    X.loc[::7, "a"], X.loc[::9, "c"] = np.nan, None
    y2 = (X["a"].fillna(0) + rng.normal(size=n) > 0).astype(int)
    y3, target, w = rng.integers(0, 3, n), rng.normal(size=n), rng.uniform(0.5, 2, n)
    numeric = X[["a", "b"]]
    complete, rows = numeric.fillna(0), np.ascontiguousarray(numeric)
    fits = [(dtree.ID3Classifier(missing="fractional"), X, (y2, y3)),
            (dtree.C45Classifier(), X, (y2, y3)), (dtree.C45Classifier.j48(), X, (y2, y3)),
            (dtree.C45Classifier(missing="branch"), X, (y2,)), (dtree.C45Classifier(), rows, (y2,)),
            (dtree.CARTClassifier(), X, (y2, y3)), (dtree.CARTClassifier(), complete, (y2, y3)),
            (dtree.CARTClassifier(), rows, (y2,)),
            (dtree.CARTClassifier(criterion="entropy"), complete, (y2,)),
            (dtree.CARTClassifier(missing="learn"), numeric, (y2,)),
            (dtree.CARTRegressor(), X, (target,)), (dtree.CARTRegressor(), complete, (target,)),
            (dtree.CARTRegressor(criterion="absolute_error"), X, (target,)),
            (dtree.CARTRegressor(missing="learn"), numeric, (target,))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if helper:
            _warming.append(True)  # this process does not run precompile
            _grower_callees(rows)
            for plain in (kernels.score_attributes, grow.grow_subtree):
                compiled(plain)
                _ready[plain] = plain
        else:
            _grower_first(rows)
        for model, data, targets in fits:
            for y in targets:
                for weights in (None, w):
                    model.fit(data, y, sample_weight=weights).predict(data)
        model = dtree.CARTClassifier().fit(X, y2)
        model.apply(X), model.decision_path(X), model.feature_importances_
        dtree.cost_complexity_path(model)
        dtree.prune_cost_complexity(model, 0.01)
        dtree.prune_error_based(dtree.C45Classifier(pruning=None).fit(X, y3), X, y3)
        dtree.prune_reduced_error(dtree.C45Classifier().fit(X, y2), X, y2)
        dtree.prune_pessimistic(dtree.C45Classifier().fit(X, y2))
        dtree.CARTClassifier(ccp_alpha="1se", cv=3, random_state=0).fit(X, y2)
        dtree.CARTRegressor(ccp_alpha="1se", cv=3, random_state=0).fit(complete, target)
        if not helper:
            _grower_callees(rows)


def _grower_first(rows) -> None:
    """Compile ``grow_subtree`` (and the split search it holds) before any fit, through the
    call a fit makes (:func:`dtree.grow._grow_compiled`), on the numeric table ``rows``: a
    fit would first compile the kernels of its root (encoding, node statistics), which the
    helper process compiles meanwhile."""
    import numpy as np

    from dtree import grow
    from dtree.tree import Node

    data, every = _training_set(rows)
    counts = np.bincount(data.y.astype(int))
    root = Node(value=counts * 1.0, prediction=counts / len(rows), n_samples=len(rows),
                weighted_n_samples=float(len(rows)), impurity=0.5, depth=0)
    grow._grow_compiled(root, every, np.ones(len(rows)), data.sorted_rows(every), False,
                        np.arange(2), data, grow.SplitRules("gini", binary=True, max_surrogates=5),
                        grow.StoppingRules(), np.arange(2), [None, None], {})


def _grower_callees(rows) -> None:
    """Compile, for the argument types their callers pass, kernels that the first process
    reaches late while it compiles ``grow_subtree`` (:func:`_grower_first`), in the order
    it reaches them: the numeric cut search within the split search (``_numeric``), the
    growth of ``grow_subtree``'s arrays (``_enlarged``, one version per array type), the
    partition of a node's rows by a column of the table (``partition``; the column of a
    table of one column is contiguous, another version, as for ``j48_split_point``) and the
    surrogate search (``_node_surrogates``); on the numeric table ``rows``."""
    import numpy as np

    from dtree import grow, kernels, surrogates

    n, ones, gini = len(rows), np.ones(len(rows)), kernels.IMPURITY_CODES["gini"]
    (data, every), (one, _) = _training_set(rows), _training_set(rows[:, 1:])
    order = data.sorted_rows(every)
    compiled(kernels._numeric)(data.X[:, 1], data.y, 2, gini, every, ones, order[1],
                               np.array([n / 2, n / 2]), float(n), 1.0, 1, False, False,
                               False, False, np.empty(n), np.empty(n), 0.0)
    enlarged = compiled(grow._enlarged)
    for array, fill in [(np.zeros(1, np.int64), -1), (np.zeros(1), 0.0),
                        (np.zeros((1, 1)), 0.0), (np.zeros((1, 1), np.int64), -1),
                        (np.zeros((1, 1), np.bool_), False), (np.zeros((1, 1, 1), np.int8), -1)]:
        enlarged(array, 2, fill)
    for table, j in ((data, 1), (one, 0)):
        compiled(kernels.partition)(table.X[:, j], 0.5, grow.NO_CATEGORIES, 2,
                                    np.zeros(0, np.int64), table.y, 2, gini, every, ones,
                                    table.sorted_rows(every))
        table.value_at_most(j, 0.5)
        if table is data:
            compiled(surrogates._node_surrogates)(data.X, data.n_categories, data.slot, every,
                                                  ones, order, 1, 0.5, grow.NO_CATEGORIES, 5)


def _training_set(rows):
    """The numeric table ``rows`` (its columns named a, b, ...) as the grower reads it, two
    classes by the sign of its first column, and the positions of all its rows."""
    import numpy as np

    from dtree._validation import Feature
    from dtree.splits import TrainingSet

    y = (np.nan_to_num(rows[:, 0]) > 0) * 1.0
    names = [Feature(chr(ord("a") + j)) for j in range(rows.shape[1])]
    return (TrainingSet.of(np.ascontiguousarray(rows), names, y, 2),
            np.arange(len(rows), dtype=np.int64))
