"""The compiled kernels' cache (dtree.jit): keyed on the kernels' sources, so that a cache
written by other sources cannot be loaded (issue 27); small calls in plain Python until the
kernels are loaded (issue 28's cold start)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import dtree

PACKAGE = Path(dtree.__file__).parent


def cache_directory(root: Path) -> str:
    """dtree.jit.cache_directory() of the copy of dtree in ``root``, in a new process."""
    script = "import dtree.jit; print(dtree.jit.cache_directory())"
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=root, env=env, check=True).stdout.strip()


def cached_in_package() -> dict[Path, int]:
    """The files numba's default cache holds beside dtree's sources, and when each was written."""
    return {path: path.stat().st_mtime_ns for path in PACKAGE.glob("__pycache__/*.nb[ic]")}


def test_an_edit_to_a_kernel_module_gives_a_new_cache(tmp_path):
    # numba keys its cache on the file that defines a kernel only: grow_subtree (grow.py) holds
    # the code of the kernels it calls (kernels.py). dtree's cache directory is named by a hash
    # of every module that defines a kernel, so an edit to any of them starts an empty cache
    copy = tmp_path / "dtree"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    first = cache_directory(tmp_path)
    assert Path(first).name.startswith("dtree-")
    assert cache_directory(tmp_path) == first  # the same sources, the same cache
    seen = {first}
    for module in ("kernels.py", "grow.py", "surrogates.py", "jit.py"):
        path = copy / module
        path.write_text(path.read_text() + "\n# an edit\n")
        seen.add(cache_directory(tmp_path))
    assert len(seen) == 5
    export = copy / "export.py"  # defines no kernel: its edits keep the compiled kernels
    export.write_text(export.read_text() + "\n# an edit\n")
    assert cache_directory(tmp_path) in seen


def test_the_kernels_are_cached_in_that_directory():
    # the kernels a fit runs (grow_subtree among them) are written to, and read from, the
    # directory named by the sources, and nowhere else
    script = ("import numpy as np, dtree\n"
              "dtree.jit.precompile(quiet=True)\n"
              "X = np.random.default_rng(0).normal(size=(50, 3))\n"
              "dtree.CARTClassifier().fit(X, X[:, 0] > 0)\n"
              "print(dtree.jit.cache_directory())")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    before = cached_in_package()  # an older dtree's may lie there
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    directory = Path(done.stdout.strip())
    names = {path.name.split("-")[0] for path in directory.glob("*.nbi")}
    assert {"grow.grow_subtree", "kernels.score_attributes", "kernels.partition"} <= names
    assert (directory / "complete").exists()
    # one version of the grower and of the split search (their longest compiles): precompile
    # compiles grow_subtree first through a fit's own call (jit._grower_first), with the
    # argument types of every fit
    for kernel in ("grow.grow_subtree", "kernels.score_attributes"):
        assert len(list(directory.glob(f"{kernel}-*.nbc"))) == 1, kernel
    assert cached_in_package() == before  # numba's default place: nothing written


SMALL_FIRST = """
import json, sys
import numpy as np
import dtree
from dtree import export_text
from dtree.datasets import load_watermelon
X, y = load_watermelon("3.0", return_X_y=True)
trees = []
for model in (dtree.ID3Classifier(missing="fractional"), dtree.C45Classifier(),
              dtree.C45Classifier.j48(), dtree.CARTClassifier()):
    model.fit(X, y)
    trees.append([export_text(model), model.predict_proba(X).tolist(),
                  [repr(n.threshold) for n in model._root.walk()]])
small = "numba" in sys.modules
rng = np.random.default_rng(0)
dtree.CARTClassifier().fit(rng.normal(size=(200, 5)), rng.integers(0, 2, 200))
print(json.dumps([trees, small, "numba" in sys.modules]))
"""


def test_a_small_call_runs_plain_until_the_kernels_are_loaded():
    # a new process runs the kernels of a textbook example (17 watermelons) as plain Python:
    # numba is not even imported (dtree.jit.PLAIN_UP_TO); the trees, probabilities and
    # thresholds (floats, not numpy's) are those of the compiled kernels; a larger call then
    # loads the compiled kernels
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}

    def run(script):
        return json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True,
                                         text=True, env=env, check=True).stdout)

    plain, small, loaded = run(SMALL_FIRST)
    compiled = run("import dtree.jit\ndtree.jit.precompile(quiet=True)\n" + SMALL_FIRST)
    assert (small, loaded) == (False, True)
    assert compiled[1:] == [True, True]  # after precompile every call runs compiled
    assert plain == compiled[0]



ONE_COLUMN = """
import json
import numpy as np, pandas as pd
import dtree
from dtree import jit
dtree.jit.precompile(quiet=True)
rng = np.random.default_rng(0)
n = 2 * dtree.grow.SUBTREE_ROWS + 100  # the root's split is made outside grow_subtree
x = rng.normal(size=(n, 3)).round(2)
y = (x[:, 0] + rng.normal(size=n) > 0).astype(int)
colour = pd.DataFrame({"colour": pd.Categorical(rng.choice(list("rgb"), n))})
for model, X in [(dtree.CARTClassifier(), x), (dtree.CARTClassifier(), x[:, :1]),
                 (dtree.C45Classifier(), x[:, :1]), (dtree.C45Classifier.j48(), x[:, :1]),
                 (dtree.CARTRegressor(), x[:, :1]), (dtree.ID3Classifier(), colour),
                 (dtree.CARTClassifier(), colour), (dtree.CARTClassifier(), x[:2])]:
    model.fit(X, y[:len(X)]).predict(X)
print(json.dumps({name: len(jit._compiled[module, name].signatures) for module, name in
                  [("dtree.grow", "grow_subtree"), ("dtree.kernels", "score_attributes")]}))
"""


def test_a_table_of_one_column_or_one_row_takes_the_kernels_of_a_wide_one():
    # a (n, 1) or (1, p) matrix is both C- and F-contiguous, which numba types as C; the
    # kernels read the training matrix in C order, as a wider table has it too, so one
    # version of the grower and of the split search serves every table (there were two,
    # and a one-column fit after precompile compiled the grower again: about a minute)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    done = subprocess.run([sys.executable, "-c", ONE_COLUMN], capture_output=True, text=True,
                          env=env, check=True)
    assert json.loads(done.stdout) == {"grow_subtree": 1, "score_attributes": 1}
    assert "compiling" not in done.stderr, done.stderr
