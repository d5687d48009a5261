"""The two editions of the book: a link at the top of every page to the same page in the
other edition, and glued numbers in translated prose.

The English book is the root of the html folder and the Chinese one its ``zh/`` folder
(``python3 tasks.py book``), so the link is relative and works from ``file://`` and from a
server alike. The edition is the build's ``language`` (``zh_CN`` for the Chinese one).

Sphinx parses a translated message as a document of its own, after the notebook has been
read; myst-nb's ``{glue:text}`` role finds the notebook's glue data only while the notebook
is being parsed. The role is therefore given the same data from the file myst-nb stores it in
(``<docname>.glue.json``, written when the notebook has been read), so that a number glued
into the Chinese prose is the English one, formatted the same way.
"""
from __future__ import annotations

import os
from gettext import NullTranslations

from myst_nb.core.variables import RetrievalError, VariableOutput, is_sphinx
from myst_nb.ext.glue import roles
from myst_nb.ext.glue.crossref import read_glue_cache
from docutils import nodes
from sphinx import addnodes
from sphinx.locale import init as init_locale, translators
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain
from sphinx_exercise.nodes import exercise_subtitle

_retrieve_glue_data = roles.retrieve_glue_data

#: The words of the extensions' own catalogs that the glossary (book/glossary.md) spells
#: otherwise: sphinx-exercise's zh_CN catalog calls an exercise 练习, the book 习题 as Zhou
#: does. Keyed by the extension's catalog, then the language.
EXTENSION_WORDS = {"exercise": {"zh_CN": {"Exercise": "习题"}}}


def retrieve_glue_data(document, key: str) -> VariableOutput:
    """myst-nb's lookup, or, in a translated message (no notebook renderer on the document),
    the stored glue data of the page being read."""
    try:
        return _retrieve_glue_data(document, key)
    except RetrievalError:
        if "nb_renderer" in document or not is_sphinx(document):
            raise
        env = document.settings.env
        data = read_glue_cache(env.mystnb_config.output_folder, env.docname)
        if key not in data:
            raise
        return VariableOutput(data=data[key]["data"], metadata=data[key].get("metadata", {}),
                              nb_renderer=None, vtype="glue")


def other_edition(pagename: str, language: str | None) -> tuple[str, str, str]:
    """(href, hreflang, label) of ``pagename``'s page in the other edition."""
    up = "../" * pagename.count("/")
    if (language or "en").startswith("zh"):
        return f"{up}../{pagename}.html", "en", "English"
    return f"{up}zh/{pagename}.html", "zh-CN", "中文版"


def _add_link(app, pagename, templatename, context, doctree) -> None:
    if doctree is None or "body" not in context:  # search, genindex: no page of the book
        return
    href, language, label = other_edition(pagename, app.config.language)
    context["body"] = (f'<p class="edition-link" style="text-align: right; margin: 0">'
                       f'<a href="{href}" hreflang="{language}" lang="{language}">{label}</a>'
                       f"</p>\n{context['body']}")


class TranslateTocCaptions(SphinxTransform):
    """The captions of the table of contents, from the root page's catalog: Sphinx translates a
    page at priority 20, and sphinx-external-toc inserts the toctrees of _toc.yml at 100."""

    default_priority = 101

    def apply(self) -> None:
        trees = [tree for tree in self.document.findall(addnodes.toctree) if tree.get("caption")]
        if not trees or (self.config.language or "en").startswith("en"):
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        folders = [os.path.join(self.env.srcdir, folder) for folder in self.config.locale_dirs]
        catalog, found = init_locale(folders, self.config.language, domain)
        for tree in trees if found else []:
            tree["caption"] = tree["rawcaption"] = catalog.gettext(tree["caption"])


class TranslatableExerciseTitles(SphinxTransform):
    """An exercise's title in both steps of a translation. sphinx-exercise makes the title (a
    subtitle node) without a source, and Sphinx translates no node without one: it gets its
    page as source here, before Sphinx translates the page (priority 20). Its resolved title
    later replaces the node, so the gettext builder, which reads the resolved page, would not
    find it: for that builder a paragraph with the same text stands beside the title."""

    default_priority = 15

    def apply(self) -> None:
        for title in self.document.findall(exercise_subtitle):
            title.source, title.line = self.document["source"], title.parent.parent.line or 0
            title.rawsource = title.astext()
            if self.app.builder.name == "gettext":
                message = nodes.paragraph(title.rawsource, title.rawsource)
                message.source, message.line = title.source, title.line
                title.parent.parent.insert(1, message)


class TranslatableTableCells(SphinxTransform):
    """The cells of a table in an exercise or a solution (the bus days of chapter 2's first
    exercise): MyST parses a directive's table without giving its cells a source, and Sphinx
    translates no node without one, so the Chinese page showed them in English. Each such cell
    gets its page as source and the line of the nearest element that has one, before Sphinx
    translates the page (priority 20) and for the gettext builder alike."""

    default_priority = 15

    def apply(self) -> None:
        for table in self.document.findall(nodes.table):
            for cell in table.findall(nodes.TextElement):
                if not cell.source:
                    above = cell.parent
                    while above is not None and not above.line:
                        above = above.parent
                    cell.source = self.document["source"]
                    cell.line = above.line if above is not None else 0


class TranslatedTitlesInSolutions(SphinxTransform):
    """A solution's title repeats its exercise's, taken from the copy sphinx-exercise keeps
    of the exercise as the directive made it, before Sphinx translated the page (priority
    20): the copy takes the translated title."""

    default_priority = 21

    def apply(self) -> None:
        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for title in self.document.findall(exercise_subtitle):
            kept = registry.get(title.parent.parent.get("label"), {}).get("node")
            if kept is not None and isinstance(kept[0][-1], exercise_subtitle):
                kept[0][-1].children = []
                kept[0][-1].extend(child.deepcopy() for child in title.children)


class _Words(NullTranslations):
    """An extension's catalog with some of its words replaced; the rest from the catalog."""

    def __init__(self, words: dict[str, str], catalog: NullTranslations) -> None:
        super().__init__()
        self.words = words
        self.add_fallback(catalog)

    def gettext(self, message: str) -> str:
        return self.words.get(message) or super().gettext(message)


def _extension_words(app, config) -> None:
    """EXTENSION_WORDS over the extensions' catalogs, before sphinx-exercise reads its word
    for the numbers of exercises (config-inited) and for its titles."""
    for catalog, languages in EXTENSION_WORDS.items():
        words = languages.get(config.language or "en")
        if words:
            translators["general", catalog] = _Words(
                words, translators.get(("general", catalog), NullTranslations()))


def _single_page_handlers(app) -> None:
    """The print edition (``tasks.py pdf``) is each edition's single-page html. Sphinx looks up
    how to write an extension's node under the builder's name, and falls back to its format
    ("html") only if no extension registered anything under that name; one did, so the
    single-page builder gets every html handler it lacks (sphinx-proof's, jupyterbook-latex's,
    ...)."""
    if app.builder.name == "singlehtml":
        handlers = app.registry.translation_handlers
        handlers["singlehtml"] = {**handlers.get("html", {}), **handlers.get("singlehtml", {})}


def setup(app):
    roles.retrieve_glue_data = retrieve_glue_data
    app.connect("config-inited", _extension_words, priority=100)
    app.connect("builder-inited", _single_page_handlers)
    app.add_transform(TranslateTocCaptions)
    app.add_transform(TranslatableExerciseTitles)
    app.add_transform(TranslatableTableCells)
    app.add_transform(TranslatedTitlesInSolutions)
    app.connect("html-page-context", _add_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
