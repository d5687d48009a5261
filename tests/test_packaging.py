"""The distribution: one version, the names and files that README.md and CITATION.cff promise."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import dtree

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_version_is_written_once():
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "dtree.__version__"}
    assert not re.search(r"^version:", (ROOT / "CITATION.cff").read_text(), re.MULTILINE)
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(),
                          re.MULTILINE)
    assert released[0] == dtree.__version__  # the newest release in the changelog


def test_the_urls_agree():
    from dtree.estimators import API_PAGE

    urls = PYPROJECT["project"]["urls"]
    assert API_PAGE.startswith(urls["Documentation"])  # the HTML repr's "?" links there
    assert urls["Documentation"] in (ROOT / "README.md").read_text()
    assert urls["Documentation"] in (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    for name in ("Issues", "Changelog"):
        assert urls[name].startswith(urls["Repository"])


def test_the_package_description_is_short_and_installs_from_the_repository():
    description = (ROOT / PYPROJECT["project"]["readme"]).read_text()
    name, url = PYPROJECT["project"]["name"], PYPROJECT["project"]["urls"]["Repository"]
    assert f'pip install "{name} @ git+{url}"' in description
    assert len(description.splitlines()) < 40


def test_the_install_line_names_the_distribution_and_the_repository():
    name, url = PYPROJECT["project"]["name"], PYPROJECT["project"]["urls"]["Repository"]
    line = f'pip install "{name} @ git+{url}"'
    assert line in (ROOT / "README.md").read_text()
    assert line in (ROOT / "book" / "01_preface.ipynb").read_text().replace('\\"', '"')
    config = (ROOT / "_config.yml").read_text()
    assert re.search(r"^repository:\n\s+url:\s*(\S+)", config, re.MULTILINE).group(1) == url


def test_the_package_is_typed_and_ships_its_data():
    assert (ROOT / "dtree" / "py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["dtree"]


def test_every_public_name_resolves_and_import_is_light():
    # dtree/__init__ loads each name on first use: __all__ must list exactly those names, each
    # must resolve, and a bare import must not pull in scikit-learn, pandas, matplotlib or numba
    import subprocess
    import sys

    import dtree
    assert sorted(dtree.__all__) == sorted([*dtree._HOMES, "datasets", "verify"])
    assert all(getattr(dtree, name) is not None for name in dtree.__all__)
    script = ("import sys, dtree; print(sorted(m for m in ('sklearn', 'pandas', 'matplotlib', "
              "'numba') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
