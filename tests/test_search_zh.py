"""The Chinese edition's search language (locales/search_zh.py) is Sphinx's, with the Latin
words it has met kept in a set: the same words and stems as ``sphinx.search.zh``'s."""
from __future__ import annotations

import sys
from pathlib import Path

from sphinx.search.zh import SearchChinese

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "locales"))
from search_zh import SetSearchChinese  # noqa: E402

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
