"""The Chinese build's two extensions of Sphinx (loaded by ``tasks._chinese_config``):
locales/search_zh.py, Sphinx's Chinese search language with the Latin words it has met kept
in a set, gives the same words and stems as ``sphinx.search.zh``; locales/translated_nodes.py
makes every node of a read page belong to the page."""
from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from sphinx.search.zh import SearchChinese

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "locales"))
from search_zh import SetSearchChinese  # noqa: E402
from translated_nodes import own_nodes  # noqa: E402

TEXT = ("CART 用基尼指数 (Gini index), ID3 用信息增益 (information gain), C4.5 用增益率;"
        " the IDs of the rows, ties, AUC")


def test_same_words_and_stems_as_sphinx():
    ours, sphinx = SetSearchChinese({}), SearchChinese({})
    words = ours.split(TEXT)
    assert words == sphinx.split(TEXT) and "增益" in words
    assert [ours.stem(w) for w in words] == [sphinx.stem(w) for w in words]
    # a Latin word met in the text that stemming would cut below 3 letters stays whole
    # (Sphinx's rule); one never met is stemmed
    assert ours.stem("IDs") == "ids" and SetSearchChinese({}).stem("IDs") == "id"
    assert isinstance(ours.latin_terms, set)


def test_translated_nodes_belong_to_the_page():
    settings = get_default_settings(Parser)
    page, msgstr = new_document("page", settings), new_document("msgstr", settings)
    literal = nodes.literal("", "max_depth")
    literal.document = msgstr  # as a node parsed from a translation arrives
    paragraph = nodes.paragraph("", "", nodes.Text("深度 "), literal)
    page += paragraph
    assert literal.document is msgstr
    own_nodes(None, page)
    assert all(node.document is page for node in page.findall())


def test_table_cells_in_a_directive_are_translatable():
    # MyST gives the cells of a table inside a directive (an exercise's) no source, and Sphinx
    # neither extracts nor translates a node without one (locales/editions.py)
    from docutils.core import publish_doctree
    from sphinx.util.nodes import is_translatable

    from editions import TranslatableTableCells

    page = publish_doctree("=====  =====\nday    time\n=====  =====\n1      peak\n=====  =====\n")
    page["source"] = "book/02_growing_a_tree.ipynb"
    cells = list(next(page.findall(nodes.table)).findall(nodes.paragraph))
    for cell in cells:
        cell.source = cell.line = None  # as MyST leaves them
    assert not any(map(is_translatable, cells))
    TranslatableTableCells(page).apply()
    assert all(map(is_translatable, cells))
    assert {cell.source for cell in cells} == {"book/02_growing_a_tree.ipynb"}
