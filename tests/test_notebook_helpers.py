"""The chapters run wherever they are opened (dtree.notebook): every chapter's hidden first cell
installs dtree from the book's repository only where it cannot be imported (Colab) and draws
inline under any MPLBACKEND; ``glue`` works without myst-nb; ``run_r`` shows rpart's stored
output where R is absent, and where R is present checks that it is what R prints.

No test here uses the network: the installer and the import failure are faked.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager
from references import requires_rpart

import dtree.notebook
from dtree.notebook import FIRST_CELL, R_OUTPUTS, run_r

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "book").glob("*.ipynb"))


def repository_url() -> str:
    """``repository.url`` in _config.yml."""
    match = re.search(r"^repository:\n\s+url:\s*(\S+)", (ROOT / "_config.yml").read_text(),
                      re.MULTILINE)
    return match.group(1)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_every_chapter_starts_with_the_setup_cell(chapter):
    cells = [c for c in nbformat.read(chapter, as_version=4).cells if c.cell_type == "code"]
    assert cells[0].source == FIRST_CELL
    assert "remove-cell" in cells[0].metadata.get("tags", [])  # not on the book's pages
    assert not cells[0].outputs
    later = "\n".join(c.source for c in cells[1:])
    assert "myst_nb" not in later and "%matplotlib" not in later  # one place for both


def run_first_cell(monkeypatch) -> tuple[list, list]:
    """Run FIRST_CELL as IPython would, with a fake installer and a fake IPython; returns the
    installer's calls and the line magics run."""
    installs, magics = [], []
    monkeypatch.setattr(subprocess, "check_call", lambda args: installs.append(args) or 0)

    class FakeShell:
        def run_line_magic(self, name, line, _stack_depth=None):
            magics.append((name, line))

    code = TransformerManager().transform_cell(FIRST_CELL)
    exec(compile(code, "<first cell>", "exec"), {"get_ipython": FakeShell})
    return installs, magics


def test_the_first_cell_installs_nothing_where_dtree_is_importable(monkeypatch):
    installs, magics = run_first_cell(monkeypatch)
    assert installs == [] and magics == [("matplotlib", "inline")]


def test_the_first_cell_installs_dtree_from_the_repository_where_it_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "dtree", None)  # import dtree fails, as on Colab
    installs, magics = run_first_cell(monkeypatch)
    assert installs == [[sys.executable, "-m", "pip", "install", "--quiet",
                         f"dtree-book @ git+{repository_url()}"],
                        [sys.executable, "-c", "import dtree.jit; dtree.jit.precompile()"]]
    assert magics == [("matplotlib", "inline")]


def test_glue_without_myst_nb_displays_the_value(monkeypatch):
    shown = []
    monkeypatch.setitem(sys.modules, "myst_nb", None)  # myst-nb absent, as on Colab
    monkeypatch.setattr("IPython.display.display", shown.append)
    try:
        fallback = importlib.reload(dtree.notebook)
        assert fallback.glue.__module__ == "dtree.notebook"
        fallback.glue("n_rows", 17)
        fallback.glue("hidden", 3, display=False)
    finally:
        monkeypatch.undo()
        importlib.reload(dtree.notebook)
    assert shown == [17]
    has_myst_nb = importlib.util.find_spec("myst_nb") is not None  # not in a [test] install
    assert dtree.notebook.glue.__module__.startswith("myst_nb") == has_myst_nb


def test_run_r_without_r_returns_the_stored_output(monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda program: None)
    printed = run_r("this script is not run", "kyphosis_cptable.csv")
    assert printed == (R_OUTPUTS / "kyphosis_cptable.csv").read_text()
    assert printed.splitlines()[0] == '"CP","nsplit","rel error","xerror","xstd"'
    assert "Rscript is not installed here" in capsys.readouterr().out


def test_every_stored_r_output_is_documented():
    readme = (R_OUTPUTS / "README.md").read_text()
    stored = sorted(p.name for p in R_OUTPUTS.iterdir() if p.name != "README.md")
    assert stored and all(f"`{name}`" in readme for name in stored)


@requires_rpart
def test_run_r_with_r_checks_the_stored_output(monkeypatch, tmp_path):
    kyphosis = ("suppressPackageStartupMessages(library(rpart)); "
                "write.csv(kyphosis, stdout(), row.names = FALSE)")
    assert run_r(kyphosis, "kyphosis.csv") == (R_OUTPUTS / "kyphosis.csv").read_text()
    with pytest.raises(RuntimeError, match="DTREE_STORE_R_OUTPUTS=1"):
        run_r('cat("something else\\n")', "kyphosis.csv")
    monkeypatch.setattr(dtree.notebook, "R_OUTPUTS", tmp_path)
    monkeypatch.setenv("DTREE_STORE_R_OUTPUTS", "1")
    assert run_r('cat("stored\\n")', "new.txt") == "stored\n"
    assert (tmp_path / "new.txt").read_text() == "stored\n"


def test_a_chapter_passes_nbval_under_an_exported_agg_backend():
    """The setup cell, not the caller's environment, chooses the inline backend: with
    MPLBACKEND=Agg exported, a chapter's figure is still stored and nbval passes."""
    chapter = ROOT / "book" / "02_growing_a_tree.ipynb"
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--nbval", "--nbval-current-env", str(chapter)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("chapter", ["06_missing_values", "10_cost_complexity_pruning"])
def test_a_chapter_with_r_cells_runs_to_its_end_without_r(chapter, tmp_path, monkeypatch):
    """With nothing on the PATH (no Rscript), the chapter shows rpart's stored output and its
    asserts, which compare dtree with it, still pass."""
    from nbclient import NotebookClient

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    path = ROOT / "book" / f"{chapter}.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = "".join(output.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                      for output in cell.outputs if output.output_type == "stream")
    assert "Rscript is not installed here" in printed
