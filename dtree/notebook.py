"""What the book's chapters share when they run as notebooks, wherever they are opened (Binder,
Colab, a laptop, CI): the first cell, ``glue`` with or without myst-nb, and R's output with or
without R.

Nothing here is imported by ``import dtree``; IPython is imported only when a notebook needs it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

__all__ = ["FIRST_CELL", "R_OUTPUTS", "STORED_BY", "glue", "r_differences", "run_r"]

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


#: the R and rpart that printed the files in R_OUTPUTS (their README.md says how)
STORED_BY = "R 4.2.2, rpart 4.1.19"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def r_differences(printed: str, stored: str) -> list[str]:
    """Where the numbers of two printouts of R differ, as "stored -> printed" (all of them, in
    order; a different count of numbers is one difference). The text around the numbers and
    how a number is written (1e-04 or 0.0001) do not count: R versions print them apart. Two
    numbers agree if they are equal at the precision of the one printed with fewer
    significant digits (0.17647061 and 0.1764706 agree, 0.1764707 and 0.1764706 do not)."""
    ours, theirs = _NUMBER.findall(stored), _NUMBER.findall(printed)
    if len(ours) != len(theirs):
        return [f"{len(ours)} numbers -> {len(theirs)} numbers"]
    return [f"{a} -> {b}" for a, b in zip(ours, theirs) if not _agree(a, b)]


def _agree(a: str, b: str) -> bool:
    digits = min(_significant_digits(a), _significant_digits(b))
    return f"{float(a):.{digits - 1}e}" == f"{float(b):.{digits - 1}e}"


def _significant_digits(number: str) -> int:
    mantissa = re.split("[eE]", number.lstrip("+-"))[0].replace(".", "").lstrip("0")
    return max(len(mantissa), 1)


def run_r(script: str, stored: str, strict: bool = False) -> str:
    """rpart's output for a chapter: ``Rscript -e script``'s stdout, kept in
    ``R_OUTPUTS / stored`` (whose README.md says which R and rpart made it).

    Without Rscript, a line says so and the stored output is returned. With Rscript the script
    runs and its numbers are compared with the stored ones (:func:`r_differences`): the stored
    output is returned either way, so that a chapter's text, which describes it, stays true; if
    they differ, a note names both versions and the first differences (``strict``, as the
    tests ask: a RuntimeError instead). With DTREE_STORE_R_OUTPUTS=1 what R prints is stored
    and returned.
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
        return printed
    kept = path.read_text(encoding="utf-8")
    differences = r_differences(printed, kept)
    if differences:
        version = subprocess.run(
            ["Rscript", "-e", 'cat(paste0("R ", getRversion(), ", rpart ", '
             'tryCatch(packageVersion("rpart"), error = function(e) "(none)")))'],
            capture_output=True, text=True).stdout.strip() or "this R"
        message = (f"{version} printed numbers other than {STORED_BY}, whose output "
                   f"dtree/datasets/data/r/{stored} the text describes, in "
                   f"{len(differences)} places, first {'; '.join(differences[:3])}")
        if strict:
            raise RuntimeError(message + ": run it again with DTREE_STORE_R_OUTPUTS=1 to "
                               "store what R prints now")
        print(f"Note: {message}. The chapter goes on with the stored output.")
    return kept
