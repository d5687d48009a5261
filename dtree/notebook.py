"""What the book's chapters share when they run as notebooks, wherever they are opened (Binder,
Colab, a laptop, CI): the first cell, ``glue`` with or without myst-nb, and R's output with or
without R.

Nothing here is imported by ``import dtree``; IPython is imported only when a notebook needs it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["FIRST_CELL", "R_OUTPUTS", "glue", "run_r"]

#: every chapter's first cell, hidden in the book (tag remove-cell) and on Colab (a form). Where
#: ``dtree`` cannot be imported (Colab), it installs the library with its dependencies from the
#: book's repository (``repository.url`` in _config.yml; tests check they agree); elsewhere it
#: installs nothing; after installing, it compiles dtree's kernels (once, about half a minute,
#: :func:`dtree.jit.precompile`). It then draws figures inline whatever MPLBACKEND the kernel
#: inherited. It cannot import anything from dtree: it runs before dtree exists.
FIRST_CELL = '''\
# @title Setup: on Colab, installs the book's library, dtree, the first time
import importlib.util
import subprocess
import sys

if importlib.util.find_spec("dtree") is None:  # Colab, or a kernel without the library
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet",
                           "dtree-book @ git+https://github.com/dtree-book/dtree"])
    subprocess.check_call([sys.executable, "-c", "import dtree.jit; dtree.jit.precompile()"])
    importlib.invalidate_caches()
%matplotlib inline'''

#: rpart's printed outputs that chapters show, stored for where R is not installed
R_OUTPUTS = Path(__file__).parent / "datasets" / "data" / "r"

try:
    from myst_nb import glue
except ModuleNotFoundError:  # Colab: no book build, so no glue; show the value where it is made
    def glue(name: str, variable, display: bool = True) -> None:
        """myst-nb's ``glue`` without myst-nb: displays ``variable`` if ``display``, as glue
        does in a notebook; there is no book build to paste it into."""
        if display:
            from IPython.display import display as show
            show(variable)


def run_r(script: str, stored: str) -> str:
    """What ``Rscript -e script`` prints (to stdout), kept in ``R_OUTPUTS / stored``.

    With Rscript on the PATH the script runs, and what it prints must equal the stored file
    (a RuntimeError says so if not; with the environment variable DTREE_STORE_R_OUTPUTS=1 the
    file is rewritten instead). Without Rscript, a line says so and the stored output is
    returned, so that the chapter runs to its end. R_OUTPUTS/README.md says which R and rpart
    made the files.
    """
    path = R_OUTPUTS / stored
    if shutil.which("Rscript") is None:
        print(f"Rscript is not installed here: this is R's output stored with the library, "
              f"dtree/datasets/data/r/{stored} (to run R itself: apt-get install r-base-core "
              f"r-cran-rpart)")
        return path.read_text(encoding="utf-8")
    printed = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True,
                             check=True).stdout
    if os.environ.get("DTREE_STORE_R_OUTPUTS") == "1":
        path.write_text(printed, encoding="utf-8")
    elif not path.exists() or printed != path.read_text(encoding="utf-8"):
        raise RuntimeError(f"R printed something other than the stored {path}: run the chapter "
                           "again with DTREE_STORE_R_OUTPUTS=1 to store what it prints now")
    return printed
