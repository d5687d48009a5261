"""Write the small intersphinx inventories of dev/intersphinx/, which _config.yml reads.

The book builds offline (CI, Binder), so intersphinx may not download scikit-learn's, pandas'
and numpy's ``objects.inv``: it reads these files instead, holding only the objects the book
links to, with the real addresses of their pages. They are written by Sphinx's own writer
(``sphinx.util.inventory.InventoryFile.dump``, format version 2), handed the few objects below
as a Python domain. Add an object here and run ``.venv/bin/python dev/inventories.py`` when a
page links to a new one; commit the .inv files.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from sphinx.util.inventory import InventoryFile

HERE = Path(__file__).resolve().parent / "intersphinx"

#: project: (version, base address as in _config.yml, {object: (type, page)}); a page is the
#: path below the base address, without ".html"; the anchor is the object's name
OBJECTS = {
    "scikit-learn": ("1.9", "https://scikit-learn.org/stable/", {
        "sklearn.base.BaseEstimator": ("class", "modules/generated/sklearn.base.BaseEstimator"),
        "sklearn.ensemble.AdaBoostClassifier": (
            "class", "modules/generated/sklearn.ensemble.AdaBoostClassifier"),
        "sklearn.ensemble.GradientBoostingClassifier": (
            "class", "modules/generated/sklearn.ensemble.GradientBoostingClassifier"),
        "sklearn.ensemble.GradientBoostingRegressor": (
            "class", "modules/generated/sklearn.ensemble.GradientBoostingRegressor"),
        "sklearn.tree.DecisionTreeClassifier": (
            "class", "modules/generated/sklearn.tree.DecisionTreeClassifier"),
        "sklearn.tree.DecisionTreeRegressor": (
            "class", "modules/generated/sklearn.tree.DecisionTreeRegressor"),
        "sklearn.tree.export_graphviz": (
            "function", "modules/generated/sklearn.tree.export_graphviz"),
        "sklearn.tree.export_text": ("function", "modules/generated/sklearn.tree.export_text"),
        "sklearn.tree.plot_tree": ("function", "modules/generated/sklearn.tree.plot_tree"),
        "sklearn.utils.class_weight.compute_sample_weight": (
            "function", "modules/generated/sklearn.utils.class_weight.compute_sample_weight"),
    }),
    "pandas": ("3.1", "https://pandas.pydata.org/docs/", {
        "pandas.DataFrame": ("class", "reference/api/pandas.DataFrame"),
    }),
    "numpy": ("2.4", "https://numpy.org/doc/stable/", {
        "numpy.ndarray": ("class", "reference/generated/numpy.ndarray"),
        "numpy.random.RandomState": ("class", "reference/random/legacy"),
    }),
}


class _Domain:
    """The Python domain as the writer reads it: (name, display name, type, page, anchor,
    priority) for each object."""

    def __init__(self, objects: dict[str, tuple[str, str]]):
        self.objects = objects

    def get_objects(self):
        for name, (kind, page) in self.objects.items():
            yield name, name, kind, page, name, 1


def write(project: str) -> Path:
    """Write ``dev/intersphinx/<project>.inv``; returns its path."""
    version, _, objects = OBJECTS[project]
    env = SimpleNamespace(config=SimpleNamespace(project=project, version=version),
                          domains={"py": _Domain(objects)})
    builder = SimpleNamespace(get_target_uri=lambda page: page + ".html")
    path = HERE / f"{project}.inv"
    HERE.mkdir(exist_ok=True)
    InventoryFile.dump(str(path), env, builder)
    return path


if __name__ == "__main__":
    for name in OBJECTS:
        print(write(name))
