"""The Chinese edition (issue 21): the catalogs of the translated pages are complete, keep the
English's roles, formulas and code, and use the glossary's Chinese terms.

The translated pages are ``tasks.TRANSLATED``, one list that grows as pages are done; the
others show the English prose in the Chinese edition and are not checked here. Their messages
are extracted afresh from the English with Sphinx's gettext builder (as ``python3 tasks.py
translations`` does), so a new or changed English paragraph without a reviewed translation
fails. The Chinese build itself (``-n -W``), the numbers glued into its pages and the reader's
checks of its pages are in tests/test_pages.py, beside the English build whose output folder
it shares.
"""
from __future__ import annotations

import importlib.util
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
tasks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tasks)

#: What must reach the translation unchanged: ``code``, ```code```, $math$, $$math$$ and
#: roles, of which a {ref}`text <label>` keeps its label (its text is prose)
MARKUP = re.compile(r"``.+?``|\{[\w:-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", re.S)
#: The glossary's tables of terms (not those of the data sets' attributes and values)
TERM_TABLES = ("Concepts", "Beyond one tree")
#: Glossary terms that are also everyday English, not checked: "mean" is also the verb ("both
#: mean p_k"), "improvement" any betterment, not only the improvement of a split, "rule" any
#: rule (a stopping rule, the one-standard-error rule), not only a tree's path read as a rule,
#: "penalty" any penalty (J48's log2(C)/N, the half error per leaf), not only seed 004's
#: 惩罚机制 for missing values, "majority rule" also predicting the majority class, not only a
#: surrogate search's 默认规则
EVERYDAY = ("mean", "improvement", "rule", "penalty", "majority rule")


#: What opens a Markdown block other than a paragraph: a numbered or bulleted item, a heading,
#: a quotation. Sphinx parses each translation alone and keeps the English where the
#: translation parses as another kind of node, so "1. 选择属性" for the heading "1. Choosing
#: the attribute" silently shows the English; "1\. 选择属性" is the heading translated.
BLOCK_START = re.compile(r"(\d+[.)]|[-*+]|#{1,6}|>)(\s|$)")
#: An reStructuredText role, as the docstrings of the API page write them. Sphinx parses a
#: translation with its page's parser, MyST for every page of this book, so a translation
#: spells the same role {class}`X` and ends no paragraph with RST's "::".
RST_ROLE = re.compile(r":([\w:-]+):`")


def markup(message: str) -> Counter:
    """The code spans, formulas and role targets of a message, counted; :class:`X` counts as
    its MyST spelling {class}`X`."""
    found = Counter()
    for token in MARKUP.findall(RST_ROLE.sub(r"{\1}`", message)):
        role = re.fullmatch(r"(\{[\w:-]+\})`[^`<]*<([^`>]*)>`", token)
        found[f"{role[1]}<{role[2]}>" if role else token] += 1
    return found


def prose(message: str) -> str:
    """A message without its code, formulas and role targets (the text of a {ref} stays)."""
    def keep(token: re.Match) -> str:
        role = re.fullmatch(r"\{[\w:-]+\}`([^`<]*)<[^`>]*>`", token[0])
        return f" {role[1]} " if role else " "

    return MARKUP.sub(keep, message)


def glossary_terms(text: str) -> dict[str, str]:
    """English term -> Chinese term, from the rows of the glossary's term tables whose cells
    list as many terms as each other (separated by ";" or ","), parentheses dropped. A row
    with "—" has no Chinese term; a row that spells 节点 quotes a seed, not the book's term."""
    terms, table = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            table = line[3:].strip()
        if table not in TERM_TABLES or not line.startswith("|") or line.startswith("|---"):
            continue
        cells = []
        for cell in line.strip().strip("|").split("|")[:2]:
            while re.search(r"\([^()]*\)", cell):
                cell = re.sub(r"\s*\([^()]*\)", "", cell)
            cells.append([term.strip() for term in re.split(r"[;,]", cell)])
        english, chinese = cells
        if (english == ["English"] or len(english) != len(chinese)
                or any("—" in term or "节点" in term for term in chinese)):
            continue
        terms.update((e.lower(), z) for e, z in zip(english, chinese) if e not in EVERYDAY)
    return terms


def missing_terms(source: str, translation: str, terms: dict[str, str]) -> list[str]:
    """The glossary terms of an English message whose Chinese term its translation lacks,
    as "english -> 中文". The longest terms are matched first and taken out, so "Gini
    impurity" does not also count as "impurity"; a term of several words may take a plural s."""
    text, missing = prose(source).lower(), []
    for english in sorted(terms, key=len, reverse=True):
        plural = "s?" if " " in english else ""
        pattern = rf"(?<![\w-]){re.escape(english)}{plural}(?![\w-])"
        if re.search(pattern, text):
            text = re.sub(pattern, " ", text)
            if terms[english] not in translation:
                missing.append(f"{english} -> {terms[english]}")
    return missing


TERMS = glossary_terms((ROOT / "book" / "glossary.md").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def catalogs():
    """page -> (its messages as the English has them now, its Chinese catalog)."""
    with tempfile.TemporaryDirectory() as tmp:
        templates = tasks.gettext_templates(Path(tmp))
        found = {}
        for page in tasks.TRANSLATED:
            with (templates / f"{page}.pot").open("rb") as english, \
                    (tasks.CATALOGS / f"{page}.po").open("rb") as chinese:
                found[page] = read_po(english), read_po(chinese, locale="zh_CN")
        return found


def test_translated_pages_are_pages_of_the_book():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = {toc["root"]} | {c["file"] for part in toc["parts"] for c in part["chapters"]}
    assert set(tasks.TRANSLATED) <= pages
    for page in tasks.TRANSLATED:
        assert (tasks.CATALOGS / f"{page}.po").is_file(), f"{page} has no catalog"


def _translations(catalogs, page):
    """(English, Chinese) of every message of ``page`` that has prose to translate."""
    english, chinese = catalogs[page]
    return [(m.id, chinese.get(m.id)) for m in english if m.id and tasks.needs_translation(m.id)]


@pytest.mark.parametrize("page", tasks.TRANSLATED)
def test_every_message_is_translated(catalogs, page):
    untranslated = [f"{'fuzzy' if m and m.fuzzy else 'new'}: {source[:90]}"
                    for source, m in _translations(catalogs, page)
                    if m is None or not m.string or m.fuzzy]
    assert not untranslated, (f"{page}: {len(untranslated)} message(s) need a translator "
                              "(python3 tasks.py translations)\n  " + "\n  ".join(untranslated))


@pytest.mark.parametrize("page", tasks.TRANSLATED)
def test_translation_keeps_code_math_and_roles(catalogs, page):
    changed = [f"{source[:60]!r}: {dict(markup(source) - markup(m.string))} became "
               f"{dict(markup(m.string) - markup(source))}"
               for source, m in _translations(catalogs, page)
               if m and m.string and markup(source) != markup(m.string)]
    assert not changed, f"{page}:\n  " + "\n  ".join(changed)


@pytest.mark.parametrize("page", [p for p in tasks.TRANSLATED if p != "book/glossary"])
def test_translation_uses_the_glossary_terms(catalogs, page):
    # the glossary is the list itself: its English column stays English
    wrong = [f"{source[:60]!r}: {', '.join(missing)}" for source, m in _translations(catalogs, page)
             if m and m.string and (missing := missing_terms(source, m.string, TERMS))]
    assert not wrong, f"{page}:\n  " + "\n  ".join(wrong)


@pytest.mark.parametrize("page", tasks.TRANSLATED)
def test_translation_parses_as_its_english_does(catalogs, page):
    listed = [f"{source[:60]!r} -> {m.string[:30]!r}" for source, m in _translations(catalogs, page)
              if m and m.string and (BLOCK_START.match(m.string) or RST_ROLE.search(m.string)
                                     or m.string.rstrip().endswith("::"))]
    assert not listed, (f"{page}: translations that MyST reads otherwise than their English: "
                        "a list, heading or quotation (escape the marker, e.g. 1\\.), so the "
                        "Chinese page shows the English, or reStructuredText (:class:`X` is "
                        "{class}`X`; no '::'):\n  " + "\n  ".join(listed))


# ------------------------------------------------------------- the checks can fail
def test_glossary_gives_zhous_terms():
    # issue 21's list, read off the glossary's rows by hand
    assert {english: TERMS[english] for english in (
        "node", "information gain", "gain ratio", "gini index", "pruning", "pre-pruning",
        "post-pruning", "cost-complexity pruning", "pessimistic pruning", "missing value",
        "surrogate split", "cut point", "entropy")} == {
        "node": "结点", "information gain": "信息增益", "gain ratio": "增益率",
        "gini index": "基尼指数", "pruning": "剪枝", "pre-pruning": "预剪枝",
        "post-pruning": "后剪枝", "cost-complexity pruning": "代价复杂度剪枝",
        "pessimistic pruning": "悲观剪枝", "missing value": "缺失值", "surrogate split": "替代划分",
        "cut point": "划分点", "entropy": "信息熵"}
    # "—" rows and the seed's 节点 spellings give no term
    assert "nested cross-validation" not in TERMS and "minimum node size" not in TERMS


def test_missing_terms_are_found():
    source = "The Gini impurity of a node, and the {ref}`missing values <sec-x>` of `gain`."
    assert missing_terms(source, "结点的基尼值，以及{ref}`缺失值 <sec-x>`", TERMS) == []
    assert missing_terms(source, "节点的基尼值，以及{ref}`缺失 <sec-x>`", TERMS) == [
        "missing value -> 缺失值", "node -> 结点"]
    # "impurity" inside "Gini impurity", words in code and role targets do not count
    assert missing_terms("`split` {doc}`03_impurity`", "", TERMS) == []


def test_changed_markup_is_found():
    assert markup("see :class:`CARTClassifier` and ``fit``") == markup(
        "见 {class}`CARTClassifier` 和 ``fit``")
    assert markup(":func:`a`") != markup("{func}`b`")
    assert markup("see {ref}`the erratum <erratum-1>` and $x$, `f`") == markup(
        "见{ref}`这条勘误 <erratum-1>`与 $x$、`f`")
    assert markup("{glue:text}`gain:.3f` bits") != markup("{glue:text}`gain:.2f` 比特")
    assert markup("{ref}`the erratum <erratum-1>`") != markup("{ref}`勘误 <erratum-2>`")
    assert markup("$x = 1$") != markup("x = 1")


@pytest.mark.parametrize("translation, block", [
    ("1. 选择属性", True), ("2) 其次", True), ("- 一项", True), ("# 标题", True), ("> 引文", True),
    ("1\\. 选择属性", False), ("1.5 是划分点", False), ("-1 表示", False), ("$-x$", False)])
def test_block_markers_are_found(translation, block):
    assert bool(BLOCK_START.match(translation)) is block


def test_rst_roles_are_found():
    assert RST_ROLE.search("见 :class:`CARTClassifier`")
    assert not RST_ROLE.search("见 {class}`CARTClassifier`，时间 10:30")


@pytest.mark.parametrize("message, prose_in_it", [
    ("000", False), ("2, 3, 4", False), ("$g(t)$", False), ("{doc}`03_impurity`", False),
    ("`dtree.verify`", False), ("{ref}`Q4: one node <note-001-q4>`", True), ("C4.5", True),
    ("决策树", True)])
def test_messages_without_prose_need_no_translator(message, prose_in_it):
    assert tasks.needs_translation(message) is prose_in_it
