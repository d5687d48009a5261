"""Shared fixtures: headless matplotlib, a deterministic Hypothesis profile, the datasets."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before anything imports pyplot (dtree.plot does)
# Notebook kernels started by nbval inherit this: every chapter must store its figures (as PNG)
# and pass under an exported MPLBACKEND=Agg, because its setup cell, not the environment,
# chooses the inline backend (dtree.notebook.FIRST_CELL).
os.environ["MPLBACKEND"] = "Agg"

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.configuration import set_hypothesis_home_dir  # noqa: E402

import dtree.jit  # noqa: E402
from dtree.datasets import load_watermelon  # noqa: E402
# skip, or with DTREE_REQUIRE_REFERENCES fail, a test whose reference program is missing
from references import pytest_configure, pytest_runtest_setup  # noqa: E402, F401

# Deterministic, quick property tests; nothing written into the repository (Hypothesis would
# otherwise create .hypothesis/ in the working directory).
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "dtree-tests-hypothesis")
settings.register_profile(
    "dtree", max_examples=60, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile("dtree")

# The suite runs the compiled kernels, on small tables too, which a new process would otherwise
# run as plain Python until its first larger call (dtree.jit.PLAIN_UP_TO; tests/test_jit.py
# tests that tier on its own). A no-op under NUMBA_DISABLE_JIT=1.
dtree.jit.precompile(quiet=True)

@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def wm20():
    """Watermelon 2.0 (Zhou table 4.1), English: X (17 x 6, categoricals), y."""
    return load_watermelon("2.0", return_X_y=True)


@pytest.fixture
def wm20a():
    """Watermelon 2.0alpha (Zhou table 4.4, with missing values)."""
    return load_watermelon("2.0alpha", return_X_y=True)
