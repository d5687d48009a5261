"""The chapters run wherever they are opened (dtree.notebook): every chapter's hidden first cell
installs dtree from the book's repository only where it cannot be imported (Colab) and draws
inline under any MPLBACKEND; ``glue`` works without myst-nb; ``run_r`` shows rpart's stored
output where R is absent, and where R is present checks that it is what R prints.

No test here uses the network: the installer and the import failure are faked.
"""
from __future__ import annotations

import base64
import importlib
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager
from references import requires_rpart

import dtree.notebook
from dtree.notebook import FIRST_CELL, R_OUTPUTS, STORED_BY, r_differences, run_r

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


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_every_figure_is_stored_at_print_resolution(chapter):
    """The first cell's ``retina`` format: each stored PNG has at least twice the pixels, in
    width and height, of the size its output's metadata gives the page (at 100 px an inch, as
    drawn, so figure text stays 9 pt in the book); printed in the PDF edition that is some
    250 pixels an inch (tests/test_pages.py measures it)."""
    for cell in nbformat.read(chapter, as_version=4).cells:
        for output in cell.get("outputs", []):
            if "image/png" not in output.get("data", {}):
                continue
            png = base64.b64decode(output.data["image/png"])
            width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
            shown = output.metadata.get("image/png", {})
            assert shown, f"a figure of {chapter.name} with no displayed size (not retina)"
            assert width >= 2 * shown["width"] and height >= 2 * shown["height"]
            assert width <= 2 * shown["width"] + 1 and height <= 2 * shown["height"] + 1


#: figures as PNGs of twice the pixels they are shown with (print resolution in the PDF)
RETINA = ("config", 'InlineBackend.figure_formats = ["retina"]')


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
    assert installs == [] and magics == [("matplotlib", "inline"), RETINA]


def test_the_first_cell_installs_dtree_from_the_repository_where_it_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "dtree", None)  # import dtree fails, as on Colab
    installs, magics = run_first_cell(monkeypatch)
    assert installs == [[sys.executable, "-m", "pip", "install", "--quiet",
                         f"dtree-book @ git+{repository_url()}"],
                        [sys.executable, "-c", "import dtree.jit; dtree.jit.precompile()"]]
    assert magics == [("matplotlib", "inline"), RETINA]


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
def test_run_r_with_r_checks_the_stored_output(monkeypatch, tmp_path, capsys):
    kyphosis = ("suppressPackageStartupMessages(library(rpart)); "
                "write.csv(kyphosis, stdout(), row.names = FALSE)")
    stored = (R_OUTPUTS / "kyphosis.csv").read_text()
    assert run_r(kyphosis, "kyphosis.csv", strict=True) == stored
    assert capsys.readouterr().out == ""
    assert run_r('cat("something else\\n")', "kyphosis.csv") == stored  # never stops a reader
    note = capsys.readouterr().out
    assert note.startswith("Note: R ") and ", rpart " in note and STORED_BY in note
    with pytest.raises(RuntimeError, match="DTREE_STORE_R_OUTPUTS=1"):
        run_r('cat("something else\\n")', "kyphosis.csv", strict=True)
    monkeypatch.setattr(dtree.notebook, "R_OUTPUTS", tmp_path)
    monkeypatch.setenv("DTREE_STORE_R_OUTPUTS", "1")
    assert run_r('cat("stored\\n")', "new.txt") == "stored\n"
    assert (tmp_path / "new.txt").read_text() == "stored\n"


def test_the_stored_outputs_name_the_r_that_made_them():
    r, rpart = STORED_BY.split(", ")
    readme = " ".join((R_OUTPUTS / "README.md").read_text().split())
    assert f"with {r} (" in readme and f"and {rpart} (" in readme


def test_r_differences_compare_numbers_not_text():
    stored = '"CP","nsplit"\n0.1764706,0\n1e-04,3\n'
    assert r_differences('"CP", "nsplit"\n0.17647060,0\n0.0001,3\n', stored) == []
    assert r_differences('"CP","nsplit"\n0.1764706,0\n2e-04,3\n', stored) == ["1e-04 -> 2e-04"]
    assert r_differences('0.1764706,0\n', stored) == ["4 numbers -> 2 numbers"]
    # compared at the fewer printed digits: a change of the 7th is a difference, of the 8th not
    assert r_differences("0.1764707", "0.1764706") == ["0.1764706 -> 0.1764707"]
    assert r_differences("0.17647061", "0.1764706") == []
    assert r_differences("81 -0.5", "81.00 -0.50") == []


FAKE_R = """#!/bin/sh
case "$*" in
  *getRversion*) printf 'R 9.9.9, rpart 9.9.9' ;;
  *) cat "$FAKE_R_PRINTS" ;;
esac
"""


@pytest.mark.parametrize("stored", sorted(p.name for p in R_OUTPUTS.iterdir()
                                          if p.name != "README.md"))
def test_run_r_never_stops_a_chapter_where_r_prints_otherwise(stored, monkeypatch, tmp_path,
                                                               capsys):
    """Another R (Binder's, a laptop's) that writes the same numbers differently, or prints
    other numbers: the chapter gets the stored output, with a note naming both versions."""
    (tmp_path / "Rscript").write_text(FAKE_R)
    (tmp_path / "Rscript").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    text = (R_OUTPUTS / stored).read_text()
    number = r"(\d+(?:\.\d+)?)((?:[eE][-+]?\d+)?)"  # mantissa, exponent (2.5e-16)
    numbers = [m[0] for m in re.finditer(number, text)]
    assert numbers, stored
    # the same numbers, written with one more digit (4 as 4.0, 0.25 as 0.250, 1e-05 as 1.0e-05)
    reformatted = re.sub(number, lambda m: m[1] + ("0" if "." in m[1] else ".0") + m[2],
                         text).replace(",", ", ")
    changed = text.replace(numbers[-1], str(float(numbers[-1]) * 1.5 + 1), 1)
    for prints, note in ((reformatted, False), (changed, True)):
        (tmp_path / "prints").write_text(prints)
        monkeypatch.setenv("FAKE_R_PRINTS", str(tmp_path / "prints"))
        assert run_r("a chapter's script", stored) == text
        out = capsys.readouterr().out
        assert ("R 9.9.9, rpart 9.9.9 printed numbers other than " + STORED_BY in out) == note
        assert out == "" or note


#: Another R as a whole chapter meets it: its own version, and for every script an output of
#: its own, written otherwise ("R version ..." first, ", " between fields) with other numbers
OTHER_R = """#!/bin/sh
case "$*" in
  *getRversion*) printf 'R 9.9.9, rpart 9.9.9' ;;
  *) printf 'R version 9.9.9 (2099-01-01)\\n"CP", "nsplit"\\n0.50, 1\\n' ;;
esac
"""


@pytest.mark.parametrize("chapter", ["06_missing_values", "10_cost_complexity_pruning"])
def test_a_chapter_runs_to_its_end_where_r_prints_otherwise(chapter, monkeypatch, tmp_path):
    """Chapters 6 and 10 executed whole (about 20 s each), as a reader on Binder or a laptop runs
    them, with an R that prints differently first on the PATH: no cell raises; each cell that
    calls run_r shows a note naming both versions, and otherwise what it shows with the R
    that made the stored outputs (its printed text, tables and verify tables)."""
    nbclient = pytest.importorskip("nbclient")
    (tmp_path / "Rscript").write_text(OTHER_R)
    (tmp_path / "Rscript").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout's dtree
    monkeypatch.delenv("DTREE_STORE_R_OUTPUTS", raising=False)
    path = ROOT / "book" / f"{chapter}.ipynb"
    stored = nbformat.read(path, as_version=4)
    executed = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(executed, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    note = f"Note: R 9.9.9, rpart 9.9.9 printed numbers other than {STORED_BY}, whose output "

    def shown(cell) -> tuple[str, list]:
        printed = "".join(o.text for o in cell.outputs if o.output_type == "stream")
        data = [{k: v for k, v in o.data.items() if k in ("text/plain", "text/html")}
                for o in cell.outputs if "data" in o]
        return printed, data

    calling = [(before, after) for before, after in zip(stored.cells, executed.cells)
               if before.cell_type == "code" and "run_r(" in before.source]
    assert calling
    for before, after in calling:
        printed, data = shown(after)
        assert note in printed, after.source[:80]
        without = "".join(line for line in printed.splitlines(keepends=True)
                          if not line.startswith(note))
        assert (without, data) == shown(before), after.source[:80]


def test_the_chapters_run_without_r_in_the_colab_pass():
    """Chapters 6, 7, 10 and 15 run R; ``tasks.py colab`` (CI runs it after the test command) runs
    every chapter with no R on the PATH and fails one whose cells call run_r without showing
    R's stored output (each chapter executes once per environment: here it is only read)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    calling = [c.stem for c in CHAPTERS if "run_r(" in c.read_text()]
    assert calling == ["06_missing_values", "07_cart", "10_cost_complexity_pruning",
                       "15_rules_probabilities"]
    chapter = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("run_r(script, 'x')")])
    assert tasks._without_references(chapter).startswith("FAILED")
    chapter.cells[0].outputs = [nbformat.v4.new_output(
        "stream", text="Rscript is not installed here: this is R's output stored ...")]
    assert tasks._without_references(chapter) == "ran to its end, with R's stored output"
    assert tasks._without_references(nbformat.v4.new_notebook()) == "ran to its end"
