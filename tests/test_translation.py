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
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "locales"))
import localise  # noqa: E402  (the zh edition's one English -> Chinese map)

_spec = importlib.util.spec_from_file_location("tasks", ROOT / "tasks.py")
tasks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tasks)

#: What must reach the translation unchanged: ``code``, ```code```, $math$, $$math$$, an
#: amsmath environment (a message of its own, \begin{aligned} ... \end{aligned}) and roles, of
#: which a {ref}`text <label>` keeps its label (its text is prose). A formula's words in
#: \text{...} may be translated, through the one map only (:func:`same_formula`)
MARKUP = re.compile(r"``.+?``|\{[\w:-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$"
                    r"|\\begin\{([\w*]+)\}.*?\\end\{\1\}", re.S)
#: The glossary's tables of terms (not those of the data sets' attributes and values)
TERM_TABLES = ("Concepts", "Beyond one tree")
#: Glossary terms that are also everyday English, not checked: "mean" is also the verb ("both
#: mean p_k"), "improvement" any betterment, not only the improvement of a split, "rule" any
#: rule (a stopping rule, the one-standard-error rule), not only a tree's path read as a rule,
#: "penalty" any penalty (J48's log2(C)/N, the half error per leaf), not only seed 004's
#: 惩罚机制 for missing values, "majority rule" also predicting the majority class, not only a
#: surrogate search's 默认规则, "test" also a statistical test (检验) and the test set, not only
#: a node's test of an attribute (测试), "exercise" also a link to an exercise, whose text
#: sphinx-exercise writes (习题 3)
EVERYDAY = ("mean", "improvement", "rule", "penalty", "majority rule", "test", "exercise")


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
    for token in (m[0] for m in MARKUP.finditer(RST_ROLE.sub(r"{\1}`", message))):
        role = re.fullmatch(r"(\{[\w:-]+\})`[^`<]*<([^`>]*)>`", token)
        found[f"{role[1]}<{role[2]}>" if role else token] += 1
    return found


#: A formula's words: \text{...} (without braces inside)
FORMULA_TEXT = re.compile(r"\\text\{([^{}]*)\}")


#: A formula's words that are prose, not a label of the data (issue 34), each page's: the
#: phrases of a definition (t \text{ leaf of } T), the nodes it names (m(\text{root}), where
#: the map's root is the watermelons' 根蒂), a word of a line of arithmetic (\text{numerator}).
#: English piece of a formula -> its Chinese, written once; a piece and its Chinese differ only
#: inside \text{...}, in words without a Latin letter and with the same digits
#: (:func:`phrase_problems`), and a formula may take the Chinese only where its English has the
#: piece (:func:`same_formula`). A seed's own notation, quoted as the seed writes it, stays
#: (seed 000's \text{entropy}(D) and \text{Error}(t), Zhou's \text{Ent}, \text{IV}), and so do
#: the names of formulas (SSE, MSE) and one-letter classes (P(\text{a})).
FORMULA_PHRASES = {
    "book/08_pre_pruning": {r"\text{ with 2 degrees of freedom}": r"\text{（自由度为 2）}"},
    "book/09_reduced_error_pruning": {r"\text{root}": r"\text{根结点}"},
    "book/10_cost_complexity_pruning": {
        r"t \text{ leaf of } T": r"t \text{为} T \text{的叶结点}",
        # 子结点 without 的, so that N(t)'s formula fits a phone's column (420 px)
        r"c \text{ child of } t": r"c \text{为} t \text{子结点}",
        r"\text{at a leaf of } T_0": r"\text{在 } T_0 \text{ 的叶结点处}",
        r"\text{otherwise}": r"\text{否则}",
        r"\text{root}": r"\text{根结点}",
        r"\text{left}": r"\text{左子结点}",
        r"\text{right}": r"\text{右子结点}"},
    "book/11_pessimistic_pruning": {r"\text{numerator}": r"\text{分子}"},
    "book/14_boosting": {r"\text{bins}": r"\text{分箱数}"},
}


def phrase_problems(phrases: dict[str, str]) -> list[str]:
    """What makes a row of FORMULA_PHRASES no free translation of a formula's words: English
    without \\text{...}, a symbol, number or other character changed outside \\text{...}
    (spaces aside), a Latin letter or another number inside the Chinese \\text{...}, or a
    Chinese the one map gives anyway."""
    problems = []
    for english, chinese in phrases.items():
        words, translated = FORMULA_TEXT.findall(english), FORMULA_TEXT.findall(chinese)
        if (not words or FORMULA_TEXT.sub(" ", english).split()
                != FORMULA_TEXT.sub(" ", chinese).split()):
            problems.append(f"{english} -> {chinese}: not only words in \\text{{...}}")
        if any(re.search("[A-Za-z]", word) for word in translated) or (
                re.findall(r"\d+", " ".join(words)) != re.findall(r"\d+", " ".join(translated))):
            problems.append(f"{english} -> {chinese}: a Latin letter or another number")
        if FORMULA_TEXT.sub(lambda m: f"\\text{{{localise.translate_labels(m[1])}}}",
                            english) == chinese:
            problems.append(f"{english} -> {chinese}: the map gives it")
    return problems


def same_formula(english: str, chinese: str, phrases: dict[str, str] | None = None) -> bool:
    """Whether ``chinese`` is the formula ``english`` with the words of some of its \\text{...}
    through the one English -> Chinese map (locales/localise.py, as the zh tables show them:
    \\text{sunny } -> \\text{晴 }), some of the pieces of ``phrases`` (its page's
    FORMULA_PHRASES) in their Chinese, the others as they are; its symbols, numbers and every
    other character the same."""
    if not english.startswith(("$", "\\begin")):
        return False
    phrases = phrases or {}
    pieces = re.compile("|".join([re.escape(piece) for piece in sorted(phrases, key=len)[::-1]]
                                 + [FORMULA_TEXT.pattern]))
    pattern, at = "", 0
    for piece in pieces.finditer(english):
        alike = {piece[0], phrases.get(piece[0])
                 or f"\\text{{{localise.translate_labels(piece[1])}}}"}
        pattern += re.escape(english[at:piece.start()]) + f"(?:{'|'.join(map(re.escape, alike))})"
        at = piece.end()
    return re.fullmatch(pattern + re.escape(english[at:]), chinese) is not None


def changed_markup(source: str, translation: str,
                   phrases: dict[str, str] | None = None) -> tuple[Counter, Counter]:
    """The code, formulas and role targets of ``source`` that ``translation`` lacks, and those it
    has instead; a formula whose words in \\text{...} are in Chinese (:func:`same_formula`, with
    its page's ``phrases``) counts as the same."""
    english, chinese = markup(source), markup(translation)
    english, chinese = english - chinese, chinese - english
    for token in list(chinese.elements()):
        match = next((e for e in english
                      if english[e] > 0 and same_formula(e, token, phrases)), None)
        if match is not None:
            english[match] -= 1
            chinese[token] -= 1
    return +english, +chinese


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
                found[page] = (tasks.add_printed(read_po(english), page),
                               read_po(chinese, locale="zh_CN"))
        return found


def test_translated_pages_are_pages_of_the_book():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = {toc["root"]} | {c["file"] for part in toc["parts"] for c in part["chapters"]}
    assert set(tasks.TRANSLATED) <= pages
    for page in tasks.TRANSLATED:
        assert (tasks.CATALOGS / f"{page}.po").is_file(), f"{page} has no catalog"


def _translations(catalogs, page):
    """(English, Chinese) of every message of ``page`` that has prose to translate; its printed
    lines once the page is one of localise.PRINTED_PAGES."""
    english, chinese = catalogs[page]
    return [(m.id, chinese.get(m.id, context=m.context)) for m in english
            if m.id and tasks.needs_translation(m.id)
            and (m.context != localise.PRINTED or page in localise.PRINTED_PAGES)]


@pytest.mark.parametrize("page", tasks.TRANSLATED)
def test_every_message_is_translated(catalogs, page):
    untranslated = [f"{'fuzzy' if m and m.fuzzy else 'new'}: {source[:90]}"
                    for source, m in _translations(catalogs, page)
                    if m is None or not m.string or m.fuzzy]
    assert not untranslated, (f"{page}: {len(untranslated)} message(s) need a translator "
                              "(python3 tasks.py translations)\n  " + "\n  ".join(untranslated))


@pytest.mark.parametrize("page", tasks.TRANSLATED)
def test_translation_keeps_code_math_and_roles(catalogs, page):
    changed = [f"{source[:60]!r}: {dict(lost)} became {dict(added)}"
               for source, m in _translations(catalogs, page) if m and m.string
               for lost, added in [changed_markup(source, m.string, FORMULA_PHRASES.get(page))]
               if lost or added]
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


@pytest.mark.parametrize("chinese, same", [
    # the words of \\text{...} through the map, each or some of them, or none
    (r"$\text{天气:}\ \text{晴 } (3, 0)$", True), (r"$\text{weather:}\ \text{晴 } (3, 0)$", True),
    (r"$\text{weather:}\ \text{sunny } (3, 0)$", True),
    # a number, a symbol, a word outside the map, a \\text{} more or less: another formula
    (r"$\text{天气:}\ \text{晴 } (3, 1)$", False), (r"$\text{天气:}\, \text{晴 } (3, 0)$", False),
    (r"$\text{天气:}\ \text{晴天 } (3, 0)$", False), (r"$\text{天气:}\ 晴 (3, 0)$", False),
    (r"$\text{天气:}\ \text{晴 } (3, 0) \text{}$", False)])
def test_a_formula_may_name_values_as_the_tables_do(chinese, same):
    english = r"$\text{weather:}\ \text{sunny } (3, 0)$"
    assert same_formula(english, chinese) is same
    lost, added = changed_markup(f"On {english}, yes.", f"在 {chinese} 上，是。")
    assert (lost, added) == ((Counter(), Counter()) if same else
                             (Counter([english]), Counter([chinese])))


def test_formula_phrases_are_translations_of_words_only(catalogs):
    for page, phrases in FORMULA_PHRASES.items():
        assert page in tasks.TRANSLATED and not phrase_problems(phrases), page
        # each row is used: some translation of its page has the Chinese
        english, chinese = catalogs[page]
        unused = [piece for piece, zh in phrases.items()
                  if not any(zh in (chinese.get(m.id).string or "") for m in english
                             if m.id and chinese.get(m.id))]
        assert not unused, f"{page}: rows no translation uses: {unused}"


def test_phrase_problems_are_found():
    assert phrase_problems({r"\text{root}": r"\text{根结点}",
                            r"t \text{ leaf of } T": r"t \text{ 为 } T \text{ 的叶结点}"}) == []
    assert [problem.split(": ")[-1] for problem in phrase_problems({
        r"t \text{ leaf of } T": r"t \in T \text{ 的叶结点}",  # a symbol more
        r"T_0": r"T_1",  # no words
        r"\text{ with 2 degrees}": r"\text{（自由度为 3）}",  # another number
        r"\text{left}": r"\text{左 left}",  # English kept inside
        r"\text{leaf}": r"\text{叶结点}"})] == [  # the map's own
        r"not only words in \text{...}", r"not only words in \text{...}",
        "a Latin letter or another number", "a Latin letter or another number",
        "the map gives it"]


@pytest.mark.parametrize("chinese, same", [
    # a row of the page's phrases, the map's words, or the English, in any \text{...}
    (r"$m(\text{根结点}) = R(t \text{ 为 } T \text{ 的叶结点}) + 3$", True),
    (r"$m(\text{root}) = R(t \text{ 为 } T \text{ 的叶结点}) + 3$", True),
    (r"$m(\text{根结点}) = R(t \text{ leaf of } T) + 3$", True),
    # the map's root is the watermelons' 根蒂; another number, symbol or \text{...}: another
    (r"$m(\text{根蒂}) = R(t \text{ 为 } T \text{ 的叶结点}) + 3$", False),
    (r"$m(\text{根结点}) = R(t \text{ 为 } T \text{ 的叶结点}) + 4$", False),
    (r"$m(\text{根结点}) = R(s \text{ 为 } T \text{ 的叶结点}) + 3$", False),
    (r"$m(\text{根结点}) = R(t \text{ 为 } T \text{ 的}\text{叶结点}) + 3$", False),
    (r"$m(\text{根结点}) = R(t \text{ 为 } T \text{ 的叶结点}) + 3 \text{否则}$", False)])
def test_a_formula_may_translate_its_pages_phrases(chinese, same):
    english = r"$m(\text{root}) = R(t \text{ leaf of } T) + 3$"
    phrases = {r"\text{root}": r"\text{根结点}",
               r"t \text{ leaf of } T": r"t \text{ 为 } T \text{ 的叶结点}",
               r"\text{otherwise}": r"\text{否则}"}
    assert same_formula(english, chinese, phrases) is same
    # another page's formula may not take these rows
    assert same_formula(english, chinese) is (same and "根结点" not in chinese
                                              and "叶结点" not in chinese)


def test_an_amsmath_message_is_one_formula():
    english = "\\begin{aligned}\n\\text{no} &= 0.25\n\\end{aligned}"
    assert markup(english) == Counter([english])
    assert changed_markup(english, english.replace("{no}", "{否}")) == (Counter(), Counter())
    assert changed_markup(english, english.replace("0.25", "0.5")) != (Counter(), Counter())
    assert prose(english).strip() == ""


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


# ------------------------------------------------------------- quotations of the seeds
#: The lines of the source notes (the seeds) that the errata page quotes, copied verbatim with
#: the seed's number and the line's: the seeds are not part of the repository
SEED_LINES = ROOT / "tests" / "seed_lines.txt"
#: A quotation in Chinese (“…”), except the reading the book gives a seed's words ("“单节点”应
#: 读作“单个测试”"); in English, a quotation with Chinese in it ("单节点树")
QUOTE_ZH = re.compile(r"(?<!应理解为)(?<!应读作)“([^”]*)”")
QUOTE_EN = re.compile(r'"([^"]*[\u4e00-\u9fff][^"]*)"')


def seed_lines(text: str) -> dict[str, list[str]]:
    """seed -> its quoted lines, from SEED_LINES' "seed:line:text" rows (# starts a comment)."""
    lines = {}
    for row in text.splitlines():
        if row.strip() and not row.startswith("#"):
            seed, _, line = row.split(":", 2)
            lines.setdefault(seed, []).append(line)
    return lines


def errata_seeds(markdown: str) -> tuple[str, list[tuple[int, str | None]]]:
    """The errata page's text, its lines joined by spaces, and where each line starts in it with
    the seed it speaks of: a line in a seed's section (## Seed 004 — …) speaks of that seed, a
    line in a box (:::{admonition} Note (seed 002, line 245): …) of the box's seed, any other
    line of none."""
    joined, starts, section, box = "", [], None, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = (re.match(r"## Seed (\d{3})\b", line) or [None, None])[1]
        elif line.startswith(":::{admonition}"):
            box = (re.search(r"\(seed (\d{3})\b", line) or [None, None])[1]
        elif line.strip() == ":::":
            box = None
        starts.append((len(joined), box or section))
        # a table cell's message has its escaped pipes (\|) as the reader sees them (|)
        joined += " ".join(line.replace("\\|", "|").split()) + " "
    return joined, starts


def seed_quotations(catalog, markdown: str) -> list[tuple[str, str, str]]:
    """(seed, quotation, message) of every quotation on the errata page that claims to be a
    seed's words: the Chinese ones of each translation and the Chinese in quotes of each
    English message, in a message that speaks of one seed."""
    joined, starts = errata_seeds(markdown)
    found = []
    for message in catalog:
        quotes = QUOTE_ZH.findall(message.string or "") + QUOTE_EN.findall(message.id or "")
        if not quotes:
            continue
        at = joined.find(" ".join(message.id.split()))
        assert at >= 0, f"not found on the errata page: {message.id[:80]!r}"
        seed = [seed for start, seed in starts if start <= at][-1]
        found += [(seed, quote, message.id) for quote in quotes if seed]
    return found


def misquotes(quotations: list[tuple[str, str, str]], lines: dict[str, list[str]]) -> list[str]:
    """The quotations that no quoted line of their seed holds word for word; a quotation that is
    one formula ($...$) is looked for without its dollars, which the book adds."""
    def holds(seed: str, quote: str) -> bool:
        bare = quote[1:-1] if re.fullmatch(r"\$[^$]+\$", quote) else quote
        return any(quote in line or bare in line for line in lines.get(seed, []))

    return [f"seed {seed}: “{quote}” in {message[:60]!r}"
            for seed, quote, message in quotations if not holds(seed, quote)]


def test_errata_page_quotes_the_seeds_word_for_word():
    # issue 34: five titles put a paraphrase in quotation marks (“更好或更简单” for seed 000's
    # 效果更好或复杂度更低); a quotation is the seed's exact words, or it is no quotation
    with (tasks.CATALOGS / "book" / "errata.po").open("rb") as chinese:
        catalog = read_po(chinese, locale="zh_CN")
    quotations = seed_quotations(catalog, (ROOT / "book" / "errata.md").read_text("utf-8"))
    assert len(quotations) >= 30 and {seed for seed, _, _ in quotations} == {
        "000", "001", "002", "003", "004"}
    wrong = misquotes(quotations, seed_lines(SEED_LINES.read_text(encoding="utf-8")))
    assert not wrong, "quoted, but not the seed's words:\n  " + "\n  ".join(wrong)


def test_misquotes_are_found():
    markdown = ("# Errata\n\nSee {ref}`what \"verified\" means <x>`.\n\n"
                "## Seed 000 — 决策树\n\n| 127 | {ref}`\"Better\" <a>` |\n"
                "| 9 | {ref}`The line <b>` |\n\n## Notes\n\n"
                ":::{admonition} Note (seed 002, line 245): a \"single-node tree\"\n:class: note\n"
                "The seed says \"单节点树\"\nand more.\n:::\n")
    catalog = Catalog(locale="zh_CN")
    for english, chinese in [("See {ref}`what \"verified\" means <x>`.", "见{ref}`“验证” <x>`。"),
                             ("{ref}`\"Better\" <a>`", "{ref}`“更好或更简单” <a>`"),
                             ("{ref}`The line <b>`", "{ref}`“效果更好”应读作“更好” <b>`"),
                             ("The seed says \"单节点树\"\nand more.", "源笔记说“单节点”")]:
        catalog.add(english, chinese)
    quotations = seed_quotations(catalog, markdown)
    assert [(seed, quote) for seed, quote, _ in quotations] == [
        ("000", "更好或更简单"), ("000", "效果更好"), ("002", "单节点"), ("002", "单节点树")]
    lines = {"000": ["如果剪枝后效果更好或复杂度更低,就执行剪枝。"], "002": ["形成单节点树。"]}
    assert [m.split(" in ")[0] for m in misquotes(quotations, lines)] == [
        "seed 000: “更好或更简单”"]
    assert misquotes([("004", "$a^* = f(a)$", "")], {"004": ["a^* = f(a)"]}) == []
