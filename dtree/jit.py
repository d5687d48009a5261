"""Kernels: plain Python on the book's small tables, compiled by numba on large data.

The library's hot loops (:mod:`dtree.kernels`, the surrogate search, the hashing of object
columns) are plain Python functions marked ``@kernel``. That is the code the book quotes, and
what runs on a table of 17 watermelons: nothing is compiled and numba is not even imported.
:func:`pick` hands a caller the compiled version instead once the work of one call reaches
``COMPILE_FROM`` (rows x attributes, or rows), or once that kernel has been compiled in this
process anyway. Compiled, a kernel calls the compiled versions of the kernels it uses; numba
keeps the machine code in its cache (``cache=True``), so a later process loads it instead of
compiling again. With ``NUMBA_DISABLE_JIT=1`` the "compiled" versions are plain Python too.
"""
from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable

__all__ = ["kernel", "pick", "compiled", "COMPILE_FROM"]

#: the work of one call (rows x attributes for a split search, a partition or a prediction)
#: from which compiling pays for itself: near it a plain-Python kernel takes about as long as
#: loading the compiled one from numba's cache (``tasks.py bench``). The environment variable
#: DTREE_COMPILE_FROM sets another (0: always compile).
COMPILE_FROM = int(os.environ.get("DTREE_COMPILE_FROM", 20_000))

_plain: dict[tuple[str, str], Callable] = {}  # (module, name) -> the kernel as written
_compiled: dict[tuple[str, str], Callable] = {}  # (module, name) -> numba's dispatcher
_inline: set[tuple[str, str]] = set()
#: plain kernel -> its dispatcher, once that has compiled (pick's fast path: numba's
#: ``signatures`` is too slow to ask on every call of a per-node kernel)
_ready: dict[Callable, Callable] = {}


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


def compiled(function: Callable) -> Callable:
    """The compiled version of a kernel (numba's dispatcher, which compiles on first call)."""
    if _key(function) not in _compiled:
        _compile_new()
    return _compiled[_key(function)]


def pick(function: Callable, work: int) -> Callable:
    """The kernel to run for a call of this much work: the compiled version if the work reaches
    ``COMPILE_FROM`` or it is compiled already (for some argument types), else the plain one."""
    ready = _ready.get(function)
    if ready is not None:
        return ready
    ready = _compiled.get(_key(function))
    if work >= COMPILE_FROM or (ready is not None and getattr(ready, "signatures", True)):
        ready = compiled(function)
        if getattr(ready, "signatures", True):
            _ready[function] = ready
        return ready
    return function


def _compile_new() -> None:
    """Make a numba dispatcher for every kernel that has none yet. Each is a copy of the plain
    function whose globals are a copy of its module's, in which every kernel's name stands for
    its dispatcher, so that compiled kernels call compiled kernels."""
    import numba  # only now: a process that never needs it never imports it

    namespaces: dict[str, dict] = {}
    for key, function in _plain.items():
        if key in _compiled:
            continue
        module = key[0]
        namespace = namespaces.setdefault(module, dict(vars(sys.modules[module])))
        copy = types.FunctionType(function.__code__, namespace, function.__name__,
                                  function.__defaults__, function.__closure__)
        copy.__qualname__, copy.__doc__ = function.__qualname__, function.__doc__
        _compiled[key] = numba.njit(cache=True,
                                    inline="always" if key in _inline else "never")(copy)
    for namespace in namespaces.values():
        for name, value in namespace.items():
            if isinstance(value, types.FunctionType) and _plain.get(_key(value)) is value:
                namespace[name] = _compiled[_key(value)]
