"""The Chinese edition's search index in linear time. Loaded by the Chinese build only
(``tasks._chinese_config``).

Sphinx 7.4's Chinese search language (``sphinx.search.zh.SearchChinese``) keeps every Latin
word its ``split`` meets in a list, ``latin_terms``, and its ``stem`` asks of each word whether
it is in that list: a scan of the whole list per word, quadratic in the length of the book
(a quarter of the Chinese build's writing). Here the same language keeps them in a set: the
same words, the same answers, the same index byte for byte.
"""
from __future__ import annotations

from sphinx.search.zh import SearchChinese


class _Terms(set):
    """The Latin words met so far: ``split`` adds them with ``extend``, ``stem`` asks ``in``."""

    extend = set.update


class SetSearchChinese(SearchChinese):
    def init(self, options: dict[str, str]) -> None:
        super().init(options)
        self.latin_terms = _Terms()


def setup(app):
    app.add_search_language(SetSearchChinese)  # in place of Sphinx's "zh"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
