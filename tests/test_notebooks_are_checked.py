"""Meta-test: the stored notebook outputs really are the reference that nbval checks.

A copy of a chapter with one printed number changed in a stored output must FAIL under
``pytest --nbval``; the unmodified copy must PASS. If this test fails, the chapters' outputs are not
protecting anything (e.g. an output is hidden by a tag, or nbval is not comparing).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parent.parent / "book"
IGNORED_TAGS = {"nbval-ignore-output", "nbval-skip", "raises-exception"}
IGNORED_MARKERS = ("# NBVAL_IGNORE_OUTPUT", "# NBVAL_SKIP", "# NBVAL_RAISES_EXCEPTION")


def _checked_code_cells(nb):
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if IGNORED_TAGS & set(cell.metadata.get("tags", [])):
            continue
        if any(marker in cell.source for marker in IGNORED_MARKERS):
            continue
        yield index, cell


def _printed_number(nb):
    """(cell index, output index, key) of the first stored output that prints a digit:
    stdout text first, else an execute_result's text/plain."""
    for kind in ("stream", "execute_result"):
        for index, cell in _checked_code_cells(nb):
            for k, output in enumerate(cell.get("outputs", [])):
                if output.output_type != kind:
                    continue
                if kind == "stream" and output.get("name") == "stdout" and re.search(
                        r"\d", output.text):
                    return index, k, "text"
                if kind == "execute_result" and re.search(
                        r"\d", output.get("data", {}).get("text/plain", "")):
                    return index, k, "text/plain"
    return None


def _pick_notebook():
    for path in sorted(BOOK.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        where = _printed_number(nb)
        if where:
            return path, nb, where
    return None


def _bump_first_digit(text: str) -> str:
    match = re.search(r"\d", text)
    digit = str((int(match.group()) + 1) % 10)
    return text[:match.start()] + digit + text[match.end():]


def _run_nbval(path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
         "--nbval-current-env", "--nbval-cell-timeout=300", path.name],
        cwd=path.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_changed_stored_output_fails_nbval(tmp_path):
    picked = _pick_notebook()
    if picked is None:
        pytest.skip("book/ has no notebook with a printed number in a stored output yet")
    source, nb, (cell_index, output_index, key) = picked

    original_dir, changed_dir = tmp_path / "original" / "book", tmp_path / "changed" / "book"
    original_dir.mkdir(parents=True)
    changed_dir.mkdir(parents=True)
    original = original_dir / source.name
    shutil.copy(source, original)

    output = nb.cells[cell_index].outputs[output_index]
    if key == "text":
        before = output.text
        output.text = _bump_first_digit(before)
        after = output.text
    else:
        before = output.data["text/plain"]
        output.data["text/plain"] = _bump_first_digit(before)
        after = output.data["text/plain"]
    assert after != before
    changed = changed_dir / source.name
    nbformat.write(nb, changed)

    runs = {"original": _run_nbval(original), "changed": _run_nbval(changed)}
    results = {name: (run.communicate(timeout=900)[0], run.returncode)
               for name, run in runs.items()}

    log, code = results["original"]
    assert code == 0, f"the unmodified copy of {source.name} fails nbval:\n{log[-3000:]}"
    log, code = results["changed"]
    assert code == 1, (f"nbval did not catch a changed output in cell {cell_index} of "
                       f"{source.name} ({before!r} -> {after!r}):\n{log[-3000:]}")
    assert re.search(r"\b1 failed\b", log), log[-3000:]
