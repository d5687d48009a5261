"""The nodes a translation brings into a page belong to that page. Loaded by the Chinese build
only (``tasks._chinese_config``).

Sphinx 7.4 translates a paragraph by parsing its msgstr into a document of its own and moving
the parsed nodes into the page; a few of them (a role's, a literal's) keep that document as
their ``document``, and its settings hold the whole build environment. Pickling the page then
pickles the environment with it: each Chinese doctree was about 6 MB (81 MB in all, the
English edition's 17 MB), and the Chinese builds spent much of their time pickling and loading
them. Once a page is read, every node of it has the page as its document.
"""
from __future__ import annotations


def own_nodes(app, doctree) -> None:
    for node in doctree.findall():
        if node.document is not doctree:
            node.document = doctree


def setup(app):
    app.connect("doctree-read", own_nodes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
