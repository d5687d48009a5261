"""The Chinese edition's labels (issue 34 §1): computed tables, verify tables, citation labels
and the theme's buttons and footer in Chinese, at build time. Loaded by the Chinese build only
(``tasks._chinese_config``).

Every chapter executes once; both editions are made from the same stored outputs, so the
numbers cannot differ. What the zh build changes is the words around them: the text of each
header and cell of an output's HTML table (pandas' tables, ``dtree.verify``'s) goes through
one English -> Chinese map, :func:`label_map`, made of

1. the glossary's rows (``book/glossary.md``: its term tables, and the data sets' attributes
   and values), the book's one list of terms;
2. the data sets' Chinese names (``dtree.datasets.ZH_EN``, Zhou's headers and values);
3. ``locales/zh_CN/labels.tsv``: the labels of the computed tables that are no glossary term
   (the verify table's "quantity", "agrees", phrases of the chapters' tables), each written
   once; an English label the glossary or the data sets already give may not be repeated
   there (tests/test_localise.py).

A cell that is one label of the map becomes its Chinese; any other cell has each label of the
map inside it replaced, longest first, as a whole word ("Gain(D, texture)" -> "Gain(D, 纹理)",
"no 2, yes 1" -> "否 2, 是 1"). The text values glued into the prose go through the same map.
The figures' texts went through it when the chapter ran (dtree.notebook draws each figure a
second time in Chinese, :func:`translate_figure_text`); the zh build shows that rendering.
Identifiers (``max_depth=2``, ``stop_reason``) are words of
code and stay as they are: a label never matches inside a word joined by "_", "." or "-".

The other lines a chapter prints (print(), logs, warnings) are messages of its page's catalog
(``locales/zh_CN/LC_MESSAGES/book/<page>.po``, context :data:`PRINTED`), beside its prose: a
line with its numbers taken out, "Ent of the node (no {}, yes {}): {}", is the message, and its
translation the Chinese template, "该结点的信息熵（否 {}，是 {}）：{}"; the zh build puts the
execution's numbers back into the template, each once, in order (or as numbered, {2}), so no
number can change (:func:`printed_message`, :func:`fill`). ``python3 tasks.py translations``
extracts the messages from the stored outputs (:func:`printed_messages`) and drops those no
output prints any more. A line the map alone makes Chinese ("colour: green -> no" -> "色泽:
青绿 -> 否") needs no message. What a reference program printed (R's rpart, C5.0) is its words
and stays as printed: its cell carries the tag :data:`PROGRAM_OUTPUT`.
"""
from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from docutils import nodes
from sphinx.locale import init as init_locale
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from dtree.notebook import ZH_FIGURE  # where a figure's Chinese rendering is kept

ROOT = Path(__file__).resolve().parent.parent
LABELS = Path(__file__).resolve().parent / "zh_CN" / "labels.tsv"
GLOSSARY = ROOT / "book" / "glossary.md"
#: The glossary's tables whose rows give labels: the terms, and the data sets'
GLOSSARY_TABLES = ("Concepts", "Beyond one tree", "The watermelon data", "The loan data")
HAN = r"[\u3400-\u9fff]"


def glossary_labels(text: str) -> dict[str, str]:
    """English -> Chinese from the glossary's tables: a row whose cells list as many terms as
    each other (separated by ";" or ",", parenthesised remarks dropped), and the values column
    of the data sets' tables ("green 青绿, dark 乌黑"). Rows without a Chinese term ("—") and the
    seeds' spellings (节点) give none."""
    found, table = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            table = line[3:].strip()
        if (not any(table and table.startswith(t) for t in GLOSSARY_TABLES)
                or not line.startswith("|") or line.startswith("|---")):
            continue
        cells = line.strip().strip("|").split("|")
        terms = []
        for cell in cells[:2]:
            while re.search(r"\([^()]*\)", cell):
                cell = re.sub(r"\s*\([^()]*\)", "", cell)
            terms.append([term.strip() for term in re.split(r"[;,]", cell)])
        english, chinese = terms
        if english[0] not in ("English",) and len(english) == len(chinese) and not any(
                "—" in term or "节点" in term for term in chinese):
            found.update((e, z) for e, z in zip(english, chinese) if e and z)
        if len(cells) > 2:
            found.update(re.findall(rf"([A-Za-z][A-Za-z ]*?) ({HAN}+)", cells[2]))
    return found


def read_labels(text: str) -> dict[str, str]:
    """English -> Chinese from labels.tsv: one "English<TAB>中文" a line, # starts a comment."""
    found = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            english, chinese = line.split("\t")
            found[english.strip()] = chinese.strip()
    return found


@lru_cache(maxsize=1)
def label_map() -> dict[str, str]:
    """The one English -> Chinese map: the glossary first, then the data sets' names, then
    labels.tsv. A label in lower case also matches capitalised ("Home Owner", "Yes"); one
    written otherwise matches only as written ("TRUE", Weka's value; Python's True stays)."""
    from dtree.datasets import ZH_EN

    found = {}
    for source in (read_labels(LABELS.read_text(encoding="utf-8")),
                   {name: chinese for chinese, english in ZH_EN.items()
                    for name in {english, english.replace("_", " ")}},
                   glossary_labels(GLOSSARY.read_text(encoding="utf-8"))):
        for english, chinese in source.items():
            variants = {english}
            if english == english.lower():
                variants |= {english.capitalize(), english.title()}
            found.update((variant, chinese) for variant in variants)
    # a plural takes its singular's Chinese ("missing values"), unless it is a label itself
    for english, chinese in list(found.items()):
        found.setdefault(english + "s", chinese)
    return found


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern:
    words = "|".join(re.escape(label) for label in sorted(label_map(), key=len, reverse=True))
    return re.compile(rf"(?<![\w.\-'])(?:{words})(?![\w\-(=]|\.\w)")


def translate_labels(text: str) -> str:
    """``text`` with each label of the map in it, as a whole word, in Chinese, longest first;
    nothing else changed (a formula's \\text{...}, "sunny " -> "晴 ")."""
    labels = label_map()
    return _pattern().sub(lambda match: labels[match[0]], text)


def translate(text: str) -> str:
    """A table cell's text in Chinese: the whole cell if it is a label, else each label in it.
    A label after its own Chinese ("纹理 texture", as some quantities name an attribute) goes."""
    labels = label_map()
    key = " ".join(text.split())
    if key in labels:
        return text.replace(text.strip(), labels[key])
    for pattern, chinese in RULES:
        text = pattern.sub(chinese, text)
    done = translate_labels(text)
    done = re.sub(rf"({HAN}+) (\1(?!{HAN})|\(\1\))", r"\1", done)  # 剪枝 (剪枝)
    return re.sub(rf"(?<={HAN}) (?={HAN})", "", done)  # no space between Chinese words


#: What a label cannot say: a source's line numbers, the seeds by number, "3 of 5", "Zhou"
RULES = [(re.compile(r"\broot(?=:|'s| node\b(?! ③)| attribute| split)|(?<=R\()root(?=\))"),
          "根结点"),
         (re.compile(r"\bsplit on (\w+)"), r"按 \1 划分"),
         (re.compile(r"\blines? (\d+(?:(?:, |–)\d+)*)"), r"第 \1 行"),
         (re.compile(r"\bseed (\d{3})\b(?:'s)?"), r"源笔记 \1"),
         (re.compile(r"\b(\d+) of (\d+)\b"), r"\1（共 \2）"),
         (re.compile(r"\b(\d+)(?:st|nd|rd|th)\b"), r"第 \1"),
         (re.compile(r"\b(ID3|C4\.5|CART|J48) validation\b"), r"\1 验证集预剪枝"),
         (re.compile(r"\bZhou(?:'s)?\b"), "周志华"),
         (re.compile(r"\bnode (\d+)"), r"结点 \1"),
         (re.compile(r"\bsplit of tree (\d+)"), r"第 \1 棵树的划分"),
         (re.compile(r"\btree (\d+)"), r"第 \1 棵树"),
         (re.compile(r"\bstump of round (\d+)"), r"第 \1 轮的树桩"),
         (re.compile(r"\bleaves of (J48 [^,]*)"), r"\1 的叶结点数"),
         (re.compile(r"\bleaves at (10 )?(\w+)"), r"\1\2 处的叶结点数"),
         (re.compile(r"(\S+) at (\d[\d.]*|alpha_\w+)"), r"\1 在 \2 处"),
         (re.compile(r"\b([\w.]+)'s\b"), r"\1 的")]


_CELL = re.compile(r"(<t[hd]\b[^>]*>)(.*?)(</t[hd]>)", re.S)
_TEXT = re.compile(r"(?<=>)([^<]+)(?=<)|^([^<]+)(?=<)|(?<=>)([^<]+)$|^([^<]+)$")


#: "root" is the watermelons' attribute (根蒂), except as a cell of its own in a table about
#: nodes (one that lists no other watermelon attribute as a header, and has a root, path or
#: stops column): there it is the root node
ROOT_NODE = ("root", "根结点")
_WATERMELON = {"colour", "sound", "texture", "navel", "touch"}
_ABOUT_NODES = {"root", "path", "stops"}


def localise_table(table: str) -> str:
    """One table's HTML with the text of every header and cell translated (tags, attributes
    and numbers untouched)."""
    headers = {re.sub(r"<[^>]*>", "", m[2]).strip() for m in _CELL.finditer(table)
               if m[1].startswith("<th")}
    root_node = bool(headers & _ABOUT_NODES) and not headers & _WATERMELON

    def text(match: re.Match) -> str:
        plain = html.unescape(match[0])
        chinese = ROOT_NODE[1] if root_node and plain.strip() == ROOT_NODE[0] else translate(
            plain)
        return html.escape(chinese, quote=False)

    return _CELL.sub(lambda m: m[1] + _TEXT.sub(text, m[2]) + m[3], table)


def localise_html(page: str) -> str:
    """The HTML of an output with each of its tables translated (:func:`localise_table`)."""
    return re.sub(r"<table\b.*?</table>", lambda m: localise_table(m[0]), page, flags=re.S)


#: A short Chinese word: two to four Chinese characters between others (digits, spaces,
#: punctuation, Latin letters). A narrow table column would break it over two lines, 勘误 into
#: 勘 and 误, as it breaks Chinese anywhere; in a span of :data:`WORD` the stylesheet
#: (_static/dtree.css) keeps it on one line, so the column is at least as wide as its longest
#: word. A longer run (a phrase, 留一法命中数) is cut into its words (jieba, the segmenter of the
#: edition's search, with the map's short terms), each of two to four characters kept whole:
#: it breaks between words, 留一法 | 命中 | 数
SHORT_WORD = re.compile(rf"{HAN}{{2,}}")
WORD = "zh-word"


@lru_cache(maxsize=1)
def _tokenizer():
    """jieba's tokenizer of its own (the search's is left as it is), knowing the map's Chinese
    terms of two to four characters (叶结点, 留一法, 信息增益)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    for term in sorted({term for chinese in label_map().values()
                        for term in re.findall(rf"{HAN}+", chinese) if 2 <= len(term) <= 4}):
        tokenizer.add_word(term)
    return tokenizer


def _words(run: str) -> list[str]:
    """A run of Chinese characters as the pieces a line may break between: itself if it is
    a word of at most four characters, else its words."""
    return [run] if len(run) <= 4 else _tokenizer().lcut(run, HMM=False)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` as (piece, keep whole) pairs: each word of two to four Chinese characters is
    kept whole, everything else may break anywhere, as before."""
    pieces, start = [], 0
    for run in SHORT_WORD.finditer(text):
        pieces.append((text[start:run.start()], False))
        for word in _words(run[0]):
            pieces.append((word, 2 <= len(word) <= 4))
        start = run.end()
    pieces.append((text[start:], False))
    return [(piece, keep) for piece, keep in pieces if piece]


def keep_words_html(page: str) -> str:
    """The HTML of an output with each short Chinese word in its tables' cells in a span
    of class :data:`WORD` (tags, attributes and the text itself unchanged)."""
    def words(match: re.Match) -> str:
        return "".join(f'<span class="{WORD}">{piece}</span>' if keep else piece
                       for piece, keep in _pieces(match[0]))

    return _CELL.sub(lambda m: m[1] + _TEXT.sub(words, m[2]) + m[3], page)


def keep_words(doctree) -> None:
    """Each short Chinese word in the text of the page's tables (the glossary's, the
    preface's, the errata index's) in an inline of class :data:`WORD`; code and formulas as
    they are. (A text node may have no parent: the glued values' are set as children.)"""
    code = (nodes.literal, nodes.math, nodes.raw, nodes.FixedTextElement)
    for table in doctree.findall(nodes.table):
        for element in list(table.findall(nodes.Element)):
            if any(isinstance(node, code) for node in (element, *_ancestors(element))):
                continue
            for i in reversed(range(len(element.children))):
                text = element.children[i]
                if isinstance(text, nodes.Text) and SHORT_WORD.search(str(text)):
                    element[i:i + 1] = [nodes.inline(piece, piece, classes=[WORD]) if keep
                                        else nodes.Text(piece)
                                        for piece, keep in _pieces(str(text))]


#: A line of a tree printed as text (dtree.export_text: "|   |--- texture = clear"); the
#: other lines of a printed output (logs, warnings) stay as the code printed them
_TREE_LINE = re.compile(r"^[ \t]*\|[^\n]*", re.M)
#: A rule printed as text (dtree.export_rules, a dtree.Rule: "if outlook = sunny and humidity =
#: high then no (cover 3, confidence 1.000)", a regressor's without its confidence), and the
#: default that ends a rule list ("otherwise yes"), which only a rule's line may precede
_RULE = re.compile(r"(?P<indent>[ \t]*)if (?P<test>.+) then (?P<predicts>.+?) "
                   r"\(cover (?P<cover>[\d.e+]+)(?:, confidence (?P<confidence>[\d.]+))?\)[ \t]*")
_DEFAULT = re.compile(r"(?P<indent>[ \t]*)otherwise (?P<predicts>.+?)[ \t]*")
#: One test of a rule: "texture = clear", "x0 <= 2.5", "0.38 < density <= 0.5",
#: "colour in {dark, green}"
_CONDITION = re.compile(r"(?:\S+ < )?(?P<name>.+?) (?:<=|>=|<|>|=|!=|in) .+")


def translate_condition(condition: str) -> str:
    """A rule's test in Chinese as a printed tree's line is, if it tests an attribute of the
    map ("humidity = high" -> "湿度 = 高"); a test of another attribute (the UCI data's
    "maint = high", "x0 <= 2.5") stays as the code names it, all of it. "in" is "∈" in both."""
    match = _CONDITION.fullmatch(condition)
    if match and match["name"] in label_map():
        condition = translate(condition)
    return condition.replace(" in {", " ∈ {")


def translate_rules(text: str) -> str:
    """The rules printed in ``text`` (:data:`_RULE`) in Chinese, "若 天气 = 晴 且 湿度 = 高 则 否
    (覆盖 3, 置信度 1.000)", and the default after them, "否则 是": the tests through
    :func:`translate_condition`, a class that is a label through the map, the numbers as
    printed; every other line as it is."""
    labels, lines, after_rule = label_map(), [], False
    for line in text.split("\n"):
        rule = _RULE.fullmatch(line)
        default = after_rule and _DEFAULT.fullmatch(line)
        if rule:
            test = ("（无条件）" if rule["test"] == "always" else
                    " 且 ".join(map(translate_condition, rule["test"].split(" and "))))
            numbers = f"覆盖 {rule['cover']}" + (
                f", 置信度 {rule['confidence']}" if rule["confidence"] is not None else "")
            line = (f"{rule['indent']}若 {test} 则 "
                    f"{labels.get(rule['predicts'], rule['predicts'])} ({numbers})")
        elif default:
            line = f"{default['indent']}否则 {labels.get(default['predicts'], default['predicts'])}"
        lines.append(line)
        after_rule = bool(rule)
    return "\n".join(lines)


#: The English that a Chinese page's computed tables, verify tables and printed lines may show
#: (issue 34 §1):
#: the names of the programs and libraries compared (dtree, rpart, J48, ...) and of methods the
#: glossary keeps in English (CART, Bagging, AdaBoost, 1-SE), abbreviations (SE, CV, PEP, EBP,
#: MCAR), formula names (Gain, Ent, IV), rpart's column names (CP, nsplit, rel error, xerror,
#: xstd, improve, twoing, style), Python's values (True, False, None, NaN), the UCI data sets'
#: file and attribute names, which are the code's identifiers (``X["odor"]``), and authors'
#: names (and the iris species' Latin names). Words with a digit, "_" or "." in them (C4.5,
#: max_depth, Node.scores), names in camel case (UserWarning, CARTClassifier), quoted values
#: ('branch', missing='branch') and a call's arguments (dtree.gini(y)) are code, and are
#: not counted; so is a test of an attribute of UCI_ATTRIBUTES, value and all ("safety = low",
#: "maint ∈ {vhigh, high}", as a printed tree or rule shows it).
#: The UCI data sets' attributes that the chapters' tables, trees and rules name
UCI_ATTRIBUTES = frozenset("""
    odor spore-print-color gill-size gill-spacing population wage-increase-first-year pension
    education-allowance statutory-holidays contribution-to-health-plan
    longterm-disability-assistance duration purpose proline buying maint doors persons lug_boot
    safety""".split())
TABLE_ENGLISH_KEPT = UCI_ATTRIBUTES | frozenset("""
    dtree rpart sklearn scikit-learn Weka J48 CART ID3 PART partykit AdaBoost Python R numpy
    HistGradientBoosting Bagging NaN True False None SE CV PEP EBP CCP MCAR MAR MNAR LDA MSE
    SSE AUC Brier cp CP nsplit rel xerror xstd eta improve twoing style Ent IV Gain GainRatio Err
    Gini log sign phi rho ch et al Zhou Quinlan Breiman Tan Holm Wilcoxon McNemar Demšar cm
    Friedman Iman-Davenport Nemenyi
    mushroom adult car vote credit-g breast-cancer tic-tac-toe Class Start Number Age setosa
    versicolor virginica unacc acc vgood""".split())


#: A call in code, its arguments and all: "dtree.info_gain(school, y)", "X.drop(columns=...)"
CALL = re.compile(r"(\b[A-Za-z_]\w*\.[\w.]+\([^()]*\))")
#: Code in a printed line, which the map leaves as it is: a call, a quoted string
#: (tie_break=['Annual Income'])
CODE = re.compile(rf"({CALL.pattern[1:-1]}|(?<!\w)'[^'\n]*')")


def english_words(text: str) -> list[str]:
    """The English words of a table cell's or a printed line's text that TABLE_ENGLISH_KEPT
    does not keep."""
    text = re.sub(r"-\s+", "-", text)  # a name broken at its hyphens
    text = re.sub(r"(\w+=)?'[^']*'", " ", text)  # a quoted value, a keyword argument
    text = re.sub(r'"[^"]*"|\barray\(', " ", text)  # a repr's string, numpy's array([0.9, 1.0])
    text = CALL.sub(" ", text)  # a call of code, dtree.info_gain(school, y)
    text = re.sub(r"(?<![\w.\-])([A-Za-z][\w-]*) (?:=|∈|in(?= \{)) (\{[^}]*\}|[^\s,]+)",
                  lambda test: " " if test[1] in UCI_ATTRIBUTES else test[0], text)
    words = re.findall(r"(?<![\w.\-])[A-Za-z][\w'’.-]*\w|(?<![\w.\-])[A-Za-z](?![\w.\-])", text)
    return [word for word in words if len(word) > 1 and word not in TABLE_ENGLISH_KEPT
            and not re.search(r"[\d_.]|[a-z][A-Z]|[A-Z]{2}[a-z]", word)]


#: The pages whose printed lines are in Chinese (each message of PRINTED translated): the
#: tests check these (tests/test_translation.py, tests/test_pages.py); a page joins once done
PRINTED_PAGES = ("book/02_growing_a_tree", "book/03_impurity", "book/04_id3", "book/05_c45",
                 "book/06_missing_values", "book/07_cart", "book/08_pre_pruning",
                 "book/09_reduced_error_pruning", "book/10_cost_complexity_pruning",
                 "book/11_pessimistic_pruning", "book/12_case_studies", "book/13_beyond_one_tree",
                 "book/14_boosting", "book/15_rules_probabilities", "book/01_preface")
#: The context of a printed line's message in its page's catalog
PRINTED = "printed output"
#: A number as printed: "0.323", "4.2e-10", "17"; not the digits of a name (log2, C4.5, x0,
#: U_25%, D1)
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e[-+]\d+)?(?![\w])")
#: A number's place in a template: "{}" (the next number) or "{2}" (the second)
PLACE = re.compile(r"\{(\d*)\}")
#: The tag of a cell whose output a reference program printed (R, C5.0, Weka): its words,
#: kept as printed in both editions (myst-nb gives the cell the class tag_program-output)
PROGRAM_OUTPUT = "program-output"
#: The tags of a cell whose outputs the page does not show
HIDDEN = {"remove-output", "remove-cell"}


def printed_message(line: str) -> tuple[str, list[str]]:
    """A printed line as its catalog's message, each number replaced by "{}", and its numbers
    as printed, in order."""
    return NUMBER.sub("{}", line), NUMBER.findall(line)


def fill(template: str, numbers: list[str]) -> str:
    """A message's translation with the numbers of one printed line put back: "{}" takes the
    next one, "{2}" the second. Every number must be used exactly once (ValueError)."""
    places = [place for place in PLACE.findall(template)]
    order = ([int(place) - 1 for place in places] if all(places)
             else list(range(len(places))) if not any(places) else None)
    if order is None or sorted(order) != list(range(len(numbers))):
        raise ValueError(f"the template {template!r} does not place each of the "
                         f"{len(numbers)} numbers {numbers} once")
    it = iter(order)
    return PLACE.sub(lambda _: numbers[next(it)], template)


def width(text: str) -> int:
    """The columns ``text`` takes in a monospaced font: two for a Chinese character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


#: A label that names two things: "root" is the watermelons' 根蒂 and the root node, "leaves"
#: a count of leaves in a table (叶结点数) and the leaves themselves, "error" a table's error
#: rate (错误率) and an approximation's error (误差), "normal" also the normal distribution's
AMBIGUOUS = {"root", "Root", "leaves", "Leaves", "error", "normal"}
#: The labels that are units, said after a number in Chinese too ("0.8813 比特")
UNITS = {"bits", "bit"}
#: A printed line's leading name, "  root:" (its indent, the name)
_LEAD = re.compile(r"( *)([^:\s][^:]*?):")


def labels_only(line: str) -> bool:
    """Whether the map may translate ``line`` on its own, label by label: its labels are data,
    none of :data:`AMBIGUOUS` and no two one space apart ("colour: green -> no", "Gain(D1,
    navel)", "income  gain" in columns, but not "depth 0: 17 melons, tests texture", a
    sentence, nor a count, "5 days", which Chinese says with a measure word: 5 天; those are a
    catalog's messages)."""
    matches = [m for part in CODE.split(line) if not CODE.fullmatch(part)
               for m in _pattern().finditer(part)]
    return not any(m[0] in AMBIGUOUS or m[0] not in UNITS and re.search(
        r"\d $", m.string[:m.start()]) for m in matches) and not any(
        a.string is b.string and a.string[a.end():b.start()] == " "
        for a, b in zip(matches, matches[1:]))


def _aligned_labels(line: str, right: int | None = None) -> str:
    """:func:`translate_labels` keeping the columns of a line printed as a table: a label
    padded with two spaces or more after it ("income  gain") keeps its width, the padding
    made longer or shorter (one space at least); with ``right``, the line's leading name is
    right-aligned at that column ("  根蒂:", as "  root:" was)."""
    if right is not None and (lead := _LEAD.match(line)):
        name = translate_labels(lead[2])
        return " " * max(0, right - width(name)) + name + _aligned_labels(line[lead.end(2):])
    labels, pieces, pos = label_map(), [], 0
    for match in _pattern().finditer(line):
        chinese = labels[match[0]]
        diff, gap = width(match[0]) - width(chinese), line[pos:match.start()]
        pieces += [gap, chinese]
        pos = match.end()
        if diff and (pad := re.match(r" {2,}", line[pos:])):
            pieces.append(" " * max(1, len(pad[0]) + diff))
            pos += pad.end()
    return "".join(pieces) + line[pos:]


def localise_line(line: str, catalog: dict[str, str], right: int | None = None) -> str:
    """One printed line in Chinese: a line of a tree as its table cell would be, else its
    catalog's template with its numbers (:func:`fill`), else, if the map may translate it
    (:func:`labels_only`) and that leaves no English word (:func:`english_words`), each label
    of the map in it (:func:`_aligned_labels`), else the line as printed, English, which the
    page test reports; a rule is left to :func:`translate_rules`."""
    if _TREE_LINE.fullmatch(line):
        return translate(line).replace(" in {", " ∈ {")
    if _RULE.fullmatch(line) or _DEFAULT.fullmatch(line):
        return line
    message, numbers = printed_message(line)
    if message in catalog:
        return fill(catalog[message], numbers)
    if not labels_only(line):
        return line
    labelled = re.sub(rf"(?<={HAN}) (?={HAN})", "", "".join(
        part if CODE.fullmatch(part) else _aligned_labels(part, None if i else right)
        for i, part in enumerate(CODE.split(line))))
    return line if english_words(labelled) else labelled


def _right_aligned(lines: list[str]) -> list[int | None]:
    """For each line, the column its leading name is right-aligned at in Chinese, if it is one
    of consecutive lines whose names (labels of the map, or a list of them) end at one column,
    some indented ("colour:", "  root:", " sound:"); else None."""
    labels = label_map()
    ends = [(m.end(2), translate_labels(m[2])) if (m := _LEAD.match(line)) and all(
        name in labels for name in m[2].split(", ")) else None for line in lines]
    found = [None] * len(lines)
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and ends[i] and ends[j + 1] and ends[j + 1][0] == ends[i][0]:
            j += 1
        if j > i and any(lines[k].startswith(" ") for k in range(i, j + 1)):
            column = max(width(ends[k][1]) for k in range(i, j + 1))
            found[i:j + 1] = [column] * (j + 1 - i)
        i = j + 1
    return found


#: A printed line's leading name and the spaces after it, "navel:  "
_PADDED = re.compile(r"([^\s:][^:]*):( +)(?=\S)")


def _left_aligned(lines: list[str], done: list[str]) -> list[str]:
    """``done`` (the Chinese of ``lines``) with the values after leading names that line up in
    English ("colour: [", "navel:  [") lined up again after the Chinese names."""
    heads = [m.end() if (m := _PADDED.match(line)) else None for line in lines]
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and heads[i] and heads[j + 1] == heads[i]:
            j += 1
        found = [_PADDED.match(done[k]) for k in range(i, j + 1)]
        if j > i and all(found) and any(len(m[2]) > 1 for m in found):
            column = max(width(m[1]) for m in found) + 2
            for k, m in zip(range(i, j + 1), found):
                done[k] = m[1] + ":" + " " * (column - 1 - width(m[1])) + done[k][m.end():]
        i = j + 1
    return done


def localise_printed(text: str, catalog: dict[str, str]) -> str:
    """A printed output in Chinese, line by line (:func:`localise_line`), its columns lined up
    as in English, and its rules."""
    lines = text.split("\n")
    done = [localise_line(line, catalog, right)
            for line, right in zip(lines, _right_aligned(lines))]
    return translate_rules("\n".join(_left_aligned(lines, done)))


@lru_cache(maxsize=None)
def printed_catalog(page: str) -> dict[str, str]:
    """A page's messages of :data:`PRINTED` and their translations, as its catalog has them
    (``page`` as "book/04_id3"); none fuzzy or empty."""
    from babel.messages.pofile import read_po

    path = ROOT / "locales" / "zh_CN" / "LC_MESSAGES" / f"{page}.po"
    if not path.exists():
        return {}
    with path.open("rb") as file:
        catalog = read_po(file, locale="zh_CN")
    return {m.id: m.string for m in catalog
            if m.context == PRINTED and m.id and m.string and not m.fuzzy}


def printed_outputs(notebook: dict) -> list[str]:
    """The texts a notebook's page shows as printed output: its streams, and the plain text of
    a result that has no richer form (html, figure, widget); not those of a hidden cell nor of a
    cell of :data:`PROGRAM_OUTPUT`."""
    texts = []
    for cell in notebook.get("cells", []):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] != "code" or tags & (HIDDEN | {PROGRAM_OUTPUT}):
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if output["output_type"] == "stream":
                texts.append("".join(output["text"]))
            elif list(data) == ["text/plain"]:
                texts.append("".join(data["text/plain"]))
    return texts


def printed_messages(notebook: dict) -> dict[str, str]:
    """The messages a notebook's printed outputs need: each line that the map alone leaves with
    English words (:func:`english_words`), as :func:`printed_message`, with the first line
    printed as it, in order of appearance."""
    found = {}
    for text in printed_outputs(notebook):
        for line, shown in zip(text.split("\n"), localise_printed(text, {}).split("\n")):
            if english_words(shown):
                found.setdefault(printed_message(line)[0], line)
    return found


def _ancestors(node):
    while node.parent is not None:
        node = node.parent
        yield node


def localise_outputs(app, doctree, docname) -> None:
    """Every stored HTML output of the page (its tables) in Chinese, the lines printed as text
    (:func:`localise_printed`; those of a :data:`PROGRAM_OUTPUT` as printed), and every value
    glued into the prose as text ("CART 1-SE", "worst perimeter");
    then the short Chinese words of every table kept whole (:func:`keep_words_html`,
    :func:`keep_words`)."""
    for raw in doctree.findall(nodes.raw):
        if "html" in raw.get("format", "").split() and "<t" in raw.astext():
            text = keep_words_html(localise_html(raw.astext()))
            raw.children = [nodes.Text(text)]
            raw.rawsource = text
    catalog = printed_catalog(docname)
    for block in doctree.findall(nodes.literal_block):
        classes = {c for parent in _ancestors(block) for c in parent.get("classes", [])}
        if "cell_output" in classes and f"tag_{PROGRAM_OUTPUT}" not in classes:
            text = block.astext()
            localised = localise_printed(text, catalog)
            if localised != text:
                block.children = [nodes.Text(localised)]
                block.rawsource = localised  # what Sphinx's html writer highlights
    for glued in doctree.findall(nodes.inline):
        if "pasted-text" in glued.get("classes", []):
            glued.children = [nodes.Text(translate(child.astext()))
                              if isinstance(child, nodes.Text) else child
                              for child in glued.children]
    keep_words(doctree)


#: What a figure's label cannot say: "7 leaves" and "5 rounds" are counts, sklearn.tree.plot_tree's
#: boxes name a node's rows "samples" and its class counts "value", and "validation" alone is a
#: pruner (as in RULES' "C4.5 validation")
FIGURE_RULES = [(re.compile(r"\b(\d+) lea(?:f|ves)\b"), r"\1 个叶结点"),
                (re.compile(r"\b(\d+) rounds\b"), r"\1 轮"),
                (re.compile(r"^samples = "), "样本数 = "),
                (re.compile(r"^value = "), "各类计数 = "),
                (re.compile(r"^validation$"), "验证集预剪枝")]  # a pruner, in a legend


def translate_figure_text(text: str) -> str:
    """A text drawn in a figure (dtree.notebook.chinese_rendering), line by line through
    :data:`FIGURE_RULES` and :func:`translate`, its formulas ($...$) as they are; a tree's
    test, "navel?", as Zhou draws it: "脐部=?"."""
    lines = []
    for line in text.split("\n"):
        for pattern, chinese in FIGURE_RULES:
            line = pattern.sub(chinese, line)
        parts = re.split(r"(\$[^$]+\$)", line)
        line = "".join(part if part.startswith("$") or not part.strip() else translate(part)
                       for part in parts)
        lines.append(_full_width(re.sub(rf"(?<={HAN}|\))\?$", "=?", line)))
    return "\n".join(lines)


#: A remark in Chinese in brackets, "(比特)", not a function's argument, "P(X < 60)", "f(x)"
_REMARK = re.compile(rf"(?<![A-Za-z0-9_.'\])\]])\(([^()$]*{HAN}[^()$]*)\)")


def _full_width(line: str) -> str:
    """A line of a figure with its remarks in Chinese in full-width brackets, as the catalogs
    write them: "信息熵 (比特)" -> "信息熵（比特）", "是 (空)" -> "是（空）". A remark without
    Chinese keeps the brackets the tables show ("花瓣宽度 (cm)", "J48 (4.14)", as the other
    labels of its figure); a function's argument and a formula ($...$) stay as they are."""
    parts = re.split(r"(\$[^$]+\$)", line)
    line = "".join(part if part.startswith("$") else _REMARK.sub(r"（\1）", part)
                   for part in parts)
    return re.sub(r"(?<=\S) +(?=（)|(?<=）) +(?=\S)", "", line)  # no space around （ ）



def chinese_figures(notebook: dict) -> int:
    """Each stored figure of a notebook (its outputs' ``image/png``) replaced by its Chinese
    rendering, made in the same execution from the same figure (dtree.notebook, kept in the
    output's metadata under :data:`ZH_FIGURE`), with its size on the page; returns how many."""
    done = 0
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            zh = output.get("metadata", {}).get(ZH_FIGURE, {})
            if "image/png" in output.get("data", {}) and "image/png" in zh:
                output["data"]["image/png"] = zh["image/png"]
                output["metadata"]["image/png"] = {key: zh[key] for key in ("width", "height")
                                                   if key in zh}
                done += 1
    return done


def localise_figures(app, docname: str, source: list[str]) -> None:
    """A chapter's notebook as the zh build reads it: its figures in Chinese
    (:func:`chinese_figures`); its numbers and the rest of its outputs untouched."""
    if str(app.env.doc2path(docname)).endswith(".ipynb"):
        notebook = json.loads(source[0])
        if chinese_figures(notebook):
            source[0] = json.dumps(notebook, ensure_ascii=False)


class TranslatedFormulas(SphinxTransform):
    """A display formula's translation (its words in \\text{...} through the map, \\text{晴 }):
    Sphinx parses a literal's translation as reStructuredText's literal block, "::" and the
    text indented, which MyST reads as a paragraph "::", and the formula became ``\\[::\\]``.
    The translation goes in here instead, before Sphinx translates the page (priority 20);
    the formula's text is then the Chinese message, of which the catalog has no translation,
    and Sphinx leaves it as it is."""

    default_priority = 19

    def apply(self) -> None:
        catalog = self._catalog()
        for node, message in extract_messages(self.document) if catalog else []:
            translation = catalog.gettext(message)
            if (isinstance(node, nodes.math_block) and translation != message
                    and node.astext() == message):
                node.children = [nodes.Text(translation)]
                node.rawsource = translation

    def _catalog(self):
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        folders = [str(Path(self.env.srcdir) / folder) for folder in self.config.locale_dirs]
        catalog, found = init_locale(folders, self.config.language, domain)
        return catalog if found else None


#: The theme's buttons that sphinx-book-theme 1.3 leaves in English for zh_CN, or in Taiwan's
#: phrasing (列印成 PDF)
THEME = {"Repository": "源码仓库", "Open issue": "提交问题", "Source repositories": "源码仓库",
         "Print to PDF": "打印为 PDF", "列印成 PDF": "打印为 PDF",
         "Launch interactive content": "在线运行", "Launch on Binder": "在 Binder 上运行",
         "Launch on Colab": "在 Colab 上运行", "Download this page": "下载此页面"}


def _theme_strings(item):
    if isinstance(item, dict):
        return {key: _theme_strings(value) for key, value in item.items()}
    if isinstance(item, list):
        return [_theme_strings(value) for value in item]
    return THEME.get(item, item) if isinstance(item, str) else item


def localise_buttons(app, pagename, templatename, context, doctree) -> None:
    if "header_buttons" in context:
        context["header_buttons"] = _theme_strings(context["header_buttons"])


#: The tooltips and screen-reader labels that pydata-sphinx-theme 0.16, myst-nb and Sphinx 7
#: write in English whatever the language, with THEME's
TOOLTIPS = {**THEME, "Color mode": "配色模式", "System Settings": "跟随系统",
            "Toggle primary sidebar": "切换主侧边栏", "Toggle secondary sidebar": "切换页内目录",
            "Main": "主导航", "Page": "本页目录", "Toggle hidden content": "显示或隐藏内容",
            "Link to this heading": "链接到此标题", "Link to this definition": "链接到此定义"}
_TOOLTIP = re.compile(r'\b(title|aria-label|data-bs-title)="([^"<>]*)"')


def localise_tooltips(page: str) -> str:
    """``page`` (html) with the attributes of TOOLTIPS in Chinese."""
    return _TOOLTIP.sub(lambda m: f'{m[1]}="{TOOLTIPS.get(m[2], m[2])}"', page)


#: The class of a run of Chinese characters in a <pre>: _static/dtree.css makes each exactly two
#: columns wide (a Chinese glyph is 1em, two columns of a monospaced font are 2ch, about 1.2em),
#: so the columns a printed line lines up stay lined up in the browser
COLUMNS = "zh-cols"
#: A run of characters two columns wide: Chinese, its punctuation (：，（）), full-width forms
_WIDE = re.compile(r"[\u2e80-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uff60\uffe0-\uffe6]+")


def wide_columns(page: str) -> str:
    """``page`` (html) with each run of two-column characters inside a <pre> in a span of class
    :data:`COLUMNS`, once (a page written again keeps one span a run)."""
    def runs(pre: re.Match) -> str:
        text = re.sub(rf'<span class="{COLUMNS}">([^<]*)</span>', r"\1", pre[0])
        return re.sub(r"(?<=>)[^<]+|^[^<]+", lambda part: _WIDE.sub(
            lambda run: f'<span class="{COLUMNS}">{run[0]}</span>', part[0]), text)

    return re.sub(r"<pre\b.*?</pre>", runs, page, flags=re.S)


def localise_written_pages(app, exception) -> None:
    """The tooltips of every page written (they come from the templates, after the doctree)
    and of the buttons sphinx-togglebutton's script adds (_static/togglebutton.js); the
    Chinese in its <pre> blocks two columns a character (:func:`wide_columns`)."""
    if exception is None and app.builder.format == "html":
        out = Path(app.outdir)
        for path in [*out.rglob("*.html"), *out.glob("_static/togglebutton.js")]:
            page = path.read_text(encoding="utf-8")
            localised = localise_tooltips(page)
            if path.suffix == ".html":
                localised = wide_columns(localised)
            if localised != page:
                path.write_text(localised, encoding="utf-8")


def setup(app):
    import bibliography_zh  # registers the citation style (this folder is on sys.path)

    # the map and this file as a config value: a changed label rebuilds every page, where an
    # incremental build would keep the pages written with the old map
    import hashlib

    sources = b"".join(path.read_bytes() for path in (
        LABELS, GLOSSARY, ROOT / "dtree" / "datasets" / "__init__.py", Path(__file__)))
    app.add_config_value("localise_labels", hashlib.sha256(sources).hexdigest(), "env")
    app.connect("source-read", localise_figures)
    app.add_transform(TranslatedFormulas)
    app.connect("doctree-resolved", localise_outputs)
    app.connect("build-finished", localise_written_pages)
    app.connect("builder-inited", bibliography_zh.localise_entries, priority=900)
    # after the theme's own handlers, which add the buttons
    app.connect("html-page-context", localise_buttons, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

