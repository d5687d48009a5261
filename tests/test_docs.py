"""The documentation as a user meets it: the docstrings' examples run, the estimators' HTML
display links to their API entry, and the book's intersphinx inventories point at the real
pages of scikit-learn, pandas and numpy."""
from __future__ import annotations

import doctest
import importlib
import io
import re
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

import dtree

ROOT = Path(__file__).resolve().parents[1]
#: the modules whose public functions and classes carry examples
PUBLIC = ("estimators", "export", "plot", "pruning", "report")


def _examples():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in PUBLIC:
        module = importlib.import_module(f"dtree.{name}")
        for test in finder.find(module):
            if test.examples:
                yield pytest.param(test, id=test.name)


@pytest.mark.parametrize("test", list(_examples()))
def test_docstring_examples_run(test):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    result = runner.run(test, out=out.write)
    assert result.failed == 0, out.getvalue()


@pytest.mark.parametrize("name", ["ID3Classifier", "C45Classifier", "CARTClassifier",
                                  "CARTRegressor"])
def test_every_estimator_has_an_example(name):
    examples = doctest.DocTestFinder().find(getattr(dtree, name), name)[0].examples
    assert examples, f"{name}'s docstring has no Examples"


@pytest.mark.parametrize("name", ["ID3Classifier", "C45Classifier", "CARTClassifier",
                                  "CARTRegressor"])
def test_html_repr_links_to_the_api_page(name):
    html = getattr(dtree, name)()._repr_html_()
    # the anchor autodoc gives the class's entry on book/api.md
    link = f"https://dtree-book.github.io/dtree/book/api.html#dtree.{name}"
    assert f'href="{link}"' in html


def _inventory(path: Path, base: str) -> dict:
    with path.open("rb") as stream:
        return InventoryFile.load(stream, base, lambda base, page: base + page)


def test_intersphinx_inventories_hold_the_linked_objects_with_their_pages():
    config = (ROOT / "_config.yml").read_text()
    mapping = dict(re.findall(r'\[\s*"(https://[^"]+)",\s*"(dev/intersphinx/[^"]+)"\s*\]',
                              config))
    assert len(mapping) == 3, "scikit-learn, pandas and numpy, each with a local inventory"
    found = {}
    for base, path in mapping.items():
        for objects in _inventory(ROOT / path, base).values():
            found.update({name: item[2] for name, item in objects.items()})
    assert found["sklearn.tree.DecisionTreeClassifier"] == (
        "https://scikit-learn.org/stable/modules/generated/"
        "sklearn.tree.DecisionTreeClassifier.html#sklearn.tree.DecisionTreeClassifier")
    assert found["pandas.DataFrame"] == (
        "https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.html#pandas.DataFrame")
    assert found["numpy.random.RandomState"] == (
        "https://numpy.org/doc/stable/reference/random/legacy.html#numpy.random.RandomState")
    # every object is linked from the API page (its text, or a docstring it includes)
    api = (ROOT / "book" / "api.md").read_text()
    sources = api + "".join((ROOT / "dtree" / f"{m}.py").read_text() for m in PUBLIC)
    unused = [name for name in found if name not in sources]
    assert not unused, f"inventory objects no page links to: {unused}"
