#!/usr/bin/env python3
"""The project's tasks, runnable on a fresh machine with nothing but python3.

    python3 tasks.py book        build the book into _build/html
    python3 tasks.py test        unit tests, every chapter under nbval, and a book build with
                                 warnings as errors
    python3 tasks.py notebooks [book/NN_x.ipynb ...]
                                 re-execute every chapter (or those named) in place; commit them
    python3 tasks.py bench       time dtree against scikit-learn
    python3 tasks.py clean       remove build output

Every task first creates (or reuses) the virtual environment ``.venv`` and installs the pinned
``requirements.txt`` into it; a changed requirements file is reinstalled automatically.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
CHAPTERS = sorted((ROOT / "book").glob("*.ipynb"))


def run(*args: object) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.call([str(a) for a in args], cwd=ROOT)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (this runs on whatever python3 the user has)
        sys.exit(f"Python 3.11 or newer is needed (the pinned numpy, pandas and scikit-learn "
                 f"require it); this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        print(f"creating virtual environment {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256(
        (ROOT / "requirements.txt").read_bytes() + (ROOT / "pyproject.toml").read_bytes()
    ).hexdigest()
    stamp = VENV / "requirements.sha256"
    if stamp.exists() and stamp.read_text() == wanted:
        return
    for step in (("--upgrade", "pip"), ("-r", "requirements.txt")):
        if run(PYTHON, "-m", "pip", "install", "--quiet", *step) != 0:
            sys.exit("installing the requirements failed")
    stamp.write_text(wanted)


def build_book(*extra: str) -> int:
    status = run(BIN / "jupyter-book", "build", ".", *extra)
    if status == 0:
        print(f"\nThe book is at {ROOT / '_build' / 'html' / 'index.html'}")
    return status


def book() -> int:
    return build_book()


def test() -> int:
    print("== unit tests and every chapter under nbval", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        tests = run(PYTHON, "-m", "pytest", "--nbval", "--nbval-current-env",
                    "--nbval-cell-timeout=600", f"--junitxml={report}", "tests", "book")
        counts = _counts(report)
    print("== book build with warnings as errors", flush=True)
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    build = build_book("-n", "-W", "--keep-going")
    print("book build: " + ("clean" if build == 0 else "FAILED (warnings or errors above)"))
    counts["passed" if build == 0 else "failed"] += 1  # the build counts as one more test
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if tests or build or counts["passed"] <= 1 else 0


def _counts(junit_report: Path) -> dict[str, int]:
    """Passed, failed (failures and errors) and skipped tests from pytest's JUnit XML report."""
    if not junit_report.exists():
        return {"passed": 0, "failed": 1, "skipped": 0}
    suite = ElementTree.parse(junit_report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    total, skipped = int(suite.get("tests")), int(suite.get("skipped"))
    failed = int(suite.get("failures")) + int(suite.get("errors"))
    return {"passed": total - failed - skipped, "failed": failed, "skipped": skipped}


def notebooks(*paths: str) -> int:
    return run(PYTHON, __file__, "_execute", *paths)


def _execute(*paths: str) -> int:
    """Runs inside the virtual environment: execute each chapter and store its outputs."""
    import nbformat
    from nbclient import NotebookClient

    for path in [Path(p).resolve() for p in paths] or CHAPTERS:
        print(f"executing {path.relative_to(ROOT)}", flush=True)
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = _merged_streams(cell.outputs)
        nbformat.write(nb, path)
    return 0


def _merged_streams(outputs: list) -> list:
    """Join consecutive prints to the same stream, so stored outputs do not depend on how the
    kernel happened to flush them."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None
                and previous.output_type == "stream" and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def bench() -> int:
    return run(PYTHON, ROOT / "benchmarks" / "bench_fit.py")


def clean() -> int:
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    return 0


TASKS = {"book": book, "test": test, "notebooks": notebooks, "bench": bench, "clean": clean,
         "venv": lambda: 0, "_execute": _execute}  # _execute: internal, runs inside .venv

if __name__ == "__main__":
    name, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if name not in TASKS or args and name not in ("notebooks", "_execute"):
        sys.exit(__doc__)
    if name != "_execute":
        ensure_venv()
    sys.exit(TASKS[name](*args))
