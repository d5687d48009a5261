"""The Chinese edition's labels (issue 34 §1, locales/localise.py): one English -> Chinese map,
made of the glossary, the data sets' Chinese names and locales/zh_CN/labels.tsv, rewrites the
text of the stored outputs' tables in the zh build. What the zh pages show is checked in the
browser (tests/test_pages.py, test_chinese_tables_have_no_english); here the map and the
rewriting, on their own."""
from __future__ import annotations

import base64
import json
import re
import struct
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "locales"))
import localise  # noqa: E402

from dtree import verify  # noqa: E402
from dtree.datasets import ZH_EN  # noqa: E402


def _labels_file() -> list[str]:
    return [line.split("\t")[0] for line in localise.LABELS.read_text("utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def test_each_label_has_one_home():
    # labels.tsv holds what the glossary and the data sets do not give, each label once
    english = _labels_file()
    assert [label for label, n in Counter(english).items() if n > 1] == []
    given = {term.lower() for term in localise.glossary_labels(
        localise.GLOSSARY.read_text(encoding="utf-8"))}
    given |= {name.replace("_", " ").lower() for name in ZH_EN.values()}
    assert [label for label in english if label.lower() in given] == []
    assert all("\t" in line and line.split("\t")[1].strip() for line in
               localise.LABELS.read_text("utf-8").splitlines()
               if line.strip() and not line.startswith("#"))


def test_the_glossary_and_the_data_sets_give_labels():
    labels = localise.label_map()
    assert {english: labels[english] for english in (
        "texture", "slightly blurry", "yes", "information gain", "gain ratio", "Gini index",
        "Home Owner", "marital status", "pruning")} == {
        "texture": "纹理", "slightly blurry": "稍糊", "yes": "是", "information gain": "信息增益",
        "gain ratio": "增益率", "Gini index": "基尼指数", "Home Owner": "有房情况",
        "marital status": "婚姻状况", "pruning": "剪枝"}
    # a glossary row without a Chinese term gives no label
    assert "nested cross-validation" not in labels


@pytest.mark.parametrize("english, chinese", [
    ("yes", "是"), ("No", "否"), ("no 2, yes 1", "否 2, 是 1"),
    ("Gain(D, 纹理 texture)", "Gain(D, 纹理)"), ("Gain(D1, 色泽 colour)", "Gain(D1, 色泽)"),
    ("texture = clear", "纹理 = 清晰"), ("quantity", "量"), ("✗ erratum", "✗ 勘误"),
    ("P(Y=1 | X=1), line 41", "P(Y=1 | X=1), 第 41 行"),
    ("an input always produces one output (seed 003)", "一个输入总是产生一个输出（源笔记 003）"),
    ("17 of 17", "17（共 17）"), ("TRUE", "是"),
    # code and Python's values stay: identifiers, keyword arguments, True
    ("max_depth=2", "max_depth=2"), ("stop_reason", "stop_reason"), ("True", "True"),
    ("spore-print-color", "spore-print-color"), ("dtree.info_gain", "dtree.info_gain"),
    ("0.381", "0.381")])
def test_a_cell_is_translated(english, chinese):
    assert localise.translate(english) == chinese


def test_a_verify_table_keeps_its_numbers_and_markup():
    claims = [("Gain(D, texture)", 0.381, 0.3805),
              ("the attribute of largest gain (the root)", "texture", "navel", "erratum")]
    table = verify.verify(claims)._repr_html_()
    zh = localise.localise_html(table)
    assert re.sub(r">[^<]*<", "><", zh) == re.sub(r">[^<]*<", "><", table)  # same tags
    cells = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", zh)
    assert cells == ["量", "来源", "dtree", "一致", "Gain(D, 纹理)", "0.381", "0.38050", "✓",
                     "增益最大的属性（根结点）", "纹理", "脐部", "✗ 勘误"]


#: dtree.export_rules of ID3's tree on Quinlan's weather data as a RuleListClassifier lists
#: it (chapter 15), and the same rules in Chinese, written by hand from the glossary's and
#: labels.tsv's rows: outlook 天气, sunny 晴, humidity 湿度, high 高, windy 有风, TRUE 是
WEATHER_RULES = """\
if outlook = sunny and humidity = high then no (cover 3, confidence 1.000)
if outlook = rainy and windy = TRUE then no (cover 2, confidence 1.000)
if humidity = normal then yes (cover 7, confidence 0.857)
otherwise yes"""
WEATHER_RULES_ZH = """\
若 天气 = 晴 且 湿度 = 高 则 否 (覆盖 3, 置信度 1.000)
若 天气 = 雨 且 有风 = 是 则 否 (覆盖 2, 置信度 1.000)
若 湿度 = 正常 则 是 (覆盖 7, 置信度 0.857)
否则 是"""


def test_printed_rules_are_translated_and_keep_their_numbers():
    assert localise.translate_rules(WEATHER_RULES) == WEATHER_RULES_ZH
    # a regressor's rule, thresholds and sets, as a printed tree's lines are
    assert localise.translate_rules(
        "if 0.38 < density <= 0.5 and colour in {dark, green} then 0.25 (cover 2.5)") == (
        "若 0.38 < 密度 <= 0.5 且 色泽 ∈ {乌黑, 青绿} 则 0.25 (覆盖 2.5)")
    # a test of an attribute the map does not name stays whole as the code names it (the UCI
    # car data's "maint = high" is not half translated), and so does a class it does not name
    assert localise.translate_rules(
        "if safety = med and maint = high and x0 <= 2 then unacc (cover 48, confidence 1.000)"
    ) == "若 safety = med 且 maint = high 且 x0 <= 2 则 unacc (覆盖 48, 置信度 1.000)"


@pytest.mark.parametrize("text", [
    "otherwise yes",  # a default without a rule before it
    "if outlook = sunny then yes",  # no cover: not a rule dtree printed
    "otherwise: right\nif you like, then yes (cover me)",
    "18 possible days; dtree answers all: yes"])
def test_other_printed_lines_stay_as_printed(text):
    assert localise.translate_rules(text) == text


def test_the_zh_build_shows_printed_rules_in_chinese():
    # localise_outputs, as the zh build runs it on a page's stored outputs: the printed rules
    # of an output in Chinese, a cell's source (not an output) as it is
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    page = new_document("page", get_default_settings(Parser))
    source = nodes.literal_block(WEATHER_RULES, WEATHER_RULES)
    output = nodes.literal_block(WEATHER_RULES, WEATHER_RULES)
    page += nodes.container("", source, classes=["cell_input"])
    page += nodes.container("", output, classes=["cell_output"])
    localise.localise_outputs(None, page, "page")
    assert (source.astext(), output.astext(), output.rawsource) == (
        WEATHER_RULES, WEATHER_RULES_ZH, WEATHER_RULES_ZH)


def test_a_display_formula_takes_its_translation(monkeypatch):
    # Sphinx would read the translation as a "::" literal block, which MyST makes a paragraph
    # "::" (the formula showed \\[::\\]); TranslatedFormulas puts it in the formula itself
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    english, chinese = "\n\\text{sunny } (3, 0)\n", "\n\\text{晴 } (3, 0)\n"
    page = new_document("page.md", get_default_settings(Parser))
    formulas = [nodes.math_block(english, english), nodes.math_block("x\n", "x\n")]
    for formula in formulas:
        formula.source, formula.line = "page.md", 3
        page += formula

    class Catalog:
        def gettext(self, message):
            return {english: chinese}.get(message, message)

    transform = localise.TranslatedFormulas(page)
    monkeypatch.setattr(transform, "_catalog", Catalog)
    transform.apply()
    assert [(f.astext(), f.rawsource) for f in formulas] == [(chinese, chinese), ("x\n", "x\n")]


def test_citation_labels_in_chinese():
    from pybtex.database import Entry, Person
    from sphinxcontrib.bibtex.style.template import reference  # noqa: F401 (registers nodes)

    import bibliography_zh

    style = bibliography_zh.AuthorYearZh()

    def label(*authors: str, **fields: str) -> str:
        entry = Entry("misc", fields=fields,
                      persons={"author": [Person(a) for a in authors]} if authors else {})
        node = style.person.author_or_editor_or_title(full=False)
        return node.format_data({"entry": entry, "style": style}).render_as("text")

    assert label("Quinlan, J. Ross") == "Quinlan"
    assert label("Nadeau, Claude", "Bengio, Yoshua") == "Nadeau 和 Bengio"
    assert label("Pedregosa, Fabian", "others") == "Pedregosa 等"
    assert label("Breiman, Leo", "Friedman, Jerome", "Olshen, Richard") == "Breiman 等"
    # an entry without authors falls back to its editors or title, as the English style does
    assert label(title="R: A Language") == "R: A Language"


def test_short_chinese_words_are_kept_whole_in_tables():
    # a narrow column breaks Chinese anywhere: each word of two to four characters of a
    # table's cells goes in a span that _static/dtree.css keeps on one line, a longer run
    # cut into its words (留一法 | 命中 | 数); tags, attributes and text outside cells as they are
    table = ('<p>勘误表</p><table><tr><th title="色泽">叶结点数</th><th>样本</th></tr>'
             '<tr><td>纹理=清晰, 2 个</td><td>留一法命中数</td><td>0.381</td></tr></table>')
    kept = localise.keep_words_html(table)
    span = '<span class="zh-word">{}</span>'.format
    assert kept == (
        f'<p>勘误表</p><table><tr><th title="色泽">{span("叶结点数")}</th><th>{span("样本")}'
        f'</th></tr><tr><td>{span("纹理")}={span("清晰")}, 2 个</td>'
        f'<td>{span("留一法")}{span("命中")}数</td><td>0.381</td></tr></table>')
    assert re.sub(r"<[^>]*>", "", kept) == re.sub(r"<[^>]*>", "", table)


def test_short_chinese_words_of_a_markdown_table_are_kept_whole():
    from docutils import nodes
    from docutils.core import publish_doctree

    doctree = publish_doctree("=====  ==========  ============\n"
                              "勘误     ``纹理``      基尼指数 :math:`纹理`\n"
                              "=====  ==========  ============\n\n勘误不在表中\n")
    cell = next(doctree.findall(nodes.entry))
    glued = nodes.inline(classes=["pasted-text"])
    glued.children = [nodes.Text(" 纹理")]  # as localise_outputs sets a glued value: no parent
    cell[0] += glued
    localise.keep_words(doctree)
    kept = [node.astext() for node in doctree.findall(nodes.inline)
            if localise.WORD in node["classes"]]
    assert kept == ["勘误", "纹理", "基尼指数"]  # code and formulas as they are, the paragraph
    assert "勘误不在表中" in doctree.astext()


def test_tooltips_are_chinese_and_identifiers_stay():
    page = ('<button title="Toggle primary sidebar" aria-label="Toggle primary sidebar">'
            '<a class="headerlink" title="Link to this heading">#</a>'
            '<a title="dtree.tree.most_probable">most_probable</a>'
            '<span data-bs-title="Color mode">Main</span>')
    assert localise.localise_tooltips(page) == (
        '<button title="切换主侧边栏" aria-label="切换主侧边栏">'
        '<a class="headerlink" title="链接到此标题">#</a>'
        '<a title="dtree.tree.most_probable">most_probable</a>'
        '<span data-bs-title="配色模式">Main</span>')  # text is not an attribute: left alone


# ------------------------------------------------------------------------- the figures
#: The English a Chinese figure may show besides what a Chinese table may (test_pages'
#: TABLE_ENGLISH_KEPT), and its formulas ($...$): n (a node's rows), the axes' symbols, C4.5's
#: confidence factor CF, Demšar's critical difference CD
FIGURE_ENGLISH_KEPT = frozenset("n k p t x y z CF CD".split())
CHAPTERS = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))


def stored_figures(chapter: Path) -> list[tuple[int, dict]]:
    """(cell index, output) of each stored figure (an output with image/png) of a chapter."""
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    return [(i, output) for i, cell in enumerate(cells) for output in cell.get("outputs", [])
            if "image/png" in output.get("data", {})]


def figure_problems(cell: int, output: dict) -> list[str]:
    """What is wrong with a stored figure's Chinese rendering (dtree.notebook.ZH_FIGURE):
    missing, drawn with a glyph missing, drawn with another map than today's, or a text with
    English words outside the allowlists (a word the map lacks: add it to labels.tsv)."""
    from test_pages import TABLE_ENGLISH_KEPT, english_words

    zh = output.get("metadata", {}).get(localise.ZH_FIGURE, {})
    if "image/png" not in zh:
        return [f"cell {cell}: no Chinese rendering {zh.get('error', '')}".rstrip()]
    png = base64.b64decode(zh["image/png"])
    width, height = struct.unpack(">II", png[16:24])  # the PNG's IHDR
    found = [f"cell {cell}: {message}" for message in zh["log"]]
    # retina: twice the pixels, the size on the page rounded down
    if (width // 2, height // 2) != (zh["width"], zh["height"]):
        found.append(f"cell {cell}: {width} x {height} pixels shown as {zh['width']} x "
                     f"{zh['height']}")
    for english, chinese in zh["texts"]:
        now = localise.translate_figure_text(english)
        if now != chinese:
            found.append(f"cell {cell}: {english!r} drawn as {chinese!r}, the map now gives "
                         f"{now!r}: run tasks.py notebooks again")
        words = [w for w in english_words(re.sub(r"\$[^$]+\$", " ", chinese))
                 if w not in TABLE_ENGLISH_KEPT | FIGURE_ENGLISH_KEPT]
        if words:
            found.append(f"cell {cell}: {english!r} drawn as {chinese!r}: "
                         f"{', '.join(words)} not in the map")
    return found


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_each_figure_has_a_chinese_rendering(chapter):
    # issue 34 §1: each figure a chapter stores is stored drawn in Chinese too, from the same
    # execution, every text through the map (dtree.notebook; the zh build shows it)
    found = [problem for cell, output in stored_figures(chapter)
             for problem in figure_problems(cell, output)]
    assert not found, f"{chapter.name}: {len(found)} problem(s)\n  " + "\n  ".join(found)


def test_a_figure_text_is_translated_line_by_line():
    assert localise.translate_figure_text("navel?\nn = 17") == "脐部=?\nn = 17"
    assert localise.translate_figure_text("yes\nno: 0\nyes: 5") == "是\n否: 0\n是: 5"
    # a formula stays as it is, the words around it are translated
    assert localise.translate_figure_text(r"$C_\alpha(T)$ of the pruned tree") .startswith(
        r"$C_\alpha(T)$ ")
    assert localise.translate_figure_text("$x$") == "$x$"


def test_the_chinese_rendering_leaves_the_english_figure_as_it_was():
    # the English PNG of the same figure, before and after its Chinese rendering, is the same
    # bytes; the Chinese one has the Chinese texts, and ticks named by categories translated
    pytest.importorskip("IPython")
    import functools

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from IPython.core.pylabtools import retina_figure

    from dtree import ID3Classifier, notebook, plot_tree
    from dtree.datasets import load_watermelon

    if notebook._figure_translator() is None:
        pytest.skip(f"no {notebook.ZH_FONT} font: apt-get install fonts-noto-cjk")
    draw = functools.partial(retina_figure, base64=True, bbox_inches="tight")
    melons = load_watermelon()
    tree = plot_tree(ID3Classifier().fit(melons.drop(columns="ripe"), melons["ripe"])).figure
    bars, ax = plt.subplots(figsize=(4, 3))
    ax.bar(["texture", "navel"], [0.381, 0.289], label="information gain")
    ax.set(xlabel="attribute", title=r"$\alpha$ and the tree")
    ax.legend()
    for figure in (tree, bars):
        english = draw(figure)
        zh = notebook.chinese_rendering(figure, draw, localise.translate_figure_text)
        assert draw(figure) == english
        assert zh["log"] == [] and zh["image/png"] != english[0]
        assert zh["width"] > 0 and zh["height"] > 0  # its own: the tight box fits its texts
        plt.close(figure)
    texts = dict(zh["texts"])
    assert {key: texts[key] for key in ("texture", "navel", "attribute", "information gain")} == {
        "texture": "纹理", "navel": "脐部", "attribute": "属性", "information gain": "信息增益"}
    tree_texts = dict(notebook.chinese_rendering(
        plot_tree(ID3Classifier().fit(melons.drop(columns="ripe"), melons["ripe"])).figure,
        draw, localise.translate_figure_text)["texts"])
    assert tree_texts["texture?\nn = 17"] == "纹理=?\nn = 17"
    assert tree_texts["slightly blurry"] == "稍糊"


def test_the_zh_build_shows_the_chinese_rendering():
    figure = {"output_type": "display_data",
              "data": {"image/png": "ENGLISH", "text/plain": "<Figure>"},
              "metadata": {"image/png": {"width": 300, "height": 200},
                           "zh_CN": {"image/png": "CHINESE", "width": 310, "height": 200,
                                     "texts": [], "log": []}}}
    table = {"output_type": "display_data", "data": {"text/html": "<table></table>"},
             "metadata": {}}
    notebook = {"cells": [{"cell_type": "code", "outputs": [figure, table]}]}
    assert localise.chinese_figures(notebook) == 1
    assert figure["data"] == {"image/png": "CHINESE", "text/plain": "<Figure>"}
    assert figure["metadata"]["image/png"] == {"width": 310, "height": 200}
    assert table == {"output_type": "display_data", "data": {"text/html": "<table></table>"},
                     "metadata": {}}


def test_without_the_font_or_a_notebook_nothing_is_drawn(monkeypatch, capsys):
    # on Colab (no CJK font, no repository) and outside IPython the chapters run as before,
    # printing nothing: nbval compares what a cell prints
    from dtree import notebook

    assert notebook.draw_figures_in_chinese_too() is False  # no IPython shell here
    monkeypatch.setattr(notebook, "ZH_FONT", "No Such Font CJK")
    assert notebook._figure_translator() is None
    monkeypatch.setattr(notebook, "LOCALISE", ROOT / "locales" / "no_such_file.py")
    assert notebook._figure_translator() is None
    assert capsys.readouterr() == ("", "")


def test_a_printed_line_keeps_its_numbers_in_order():
    # issue 34: a printed line's message is the line without its numbers; its translation gets
    # back the numbers of this execution, each once, as printed (1.000 stays 1.000)
    line = "Ent of the node (no 3.2, yes 0.2): 0.323; log2 3 = 1.5850, C4.5 at 4.2e-10"
    message, numbers = localise.printed_message(line)
    assert message == "Ent of the node (no {}, yes {}): {}; log2 {} = {}, C4.5 at {}"
    assert numbers == ["3.2", "0.2", "0.323", "3", "1.5850", "4.2e-10"]
    assert localise.fill("否 {}，是 {}：{}", ["3.2", "0.2", "1.000"]) == "否 3.2，是 0.2：1.000"
    assert localise.fill("共 {2} 个中的第 {1} 个", ["3", "5"]) == "共 5 个中的第 3 个"
    for template in ("否 {}，是 {}", "{} {} {} {}", "{1} {1} {2}", "{} {2} {1}"):
        with pytest.raises(ValueError, match="does not place each"):
            localise.fill(template, ["3.2", "0.2", "0.323"])


def test_printed_lines_are_localised_or_reported():
    catalog = {"Ent of the node (no {}, yes {}): {}": "该结点的信息熵（否 {}，是 {}）：{}"}
    text = ("Ent of the node (no 3.2, yes 0.2): 0.323\n"
            "colour: green -> no, dark -> yes\n"
            "|--- texture = clear\n"
            "if outlook = sunny then no (cover 3, confidence 1.000)\n"
            "100 differences, from 0.000 to 0.188")
    assert localise.localise_printed(text, catalog).split("\n") == [
        "该结点的信息熵（否 3.2，是 0.2）：0.323", "色泽: 青绿 -> 否, 乌黑 -> 是",
        "|--- 纹理 = 清晰",
        "若 天气 = 晴 则 否 (覆盖 3, 置信度 1.000)", "100 differences, from 0.000 to 0.188"]
    # a line printed as a table keeps its columns: a padded label keeps its width, names
    # right-aligned at one column stay so (colour: is 6 columns wide, 色泽: 4, 编号: 4); a
    # tree's indentation stays
    assert localise.localise_printed("income  gain = 0.377\nhome    gain = 0.093\n"
                                     "colour: dull\n    id: soft\n    wind = calm: yes", {}) == (
        "收入    增益 = 0.377\n有房    增益 = 0.093\n色泽: 沉闷\n编号: 软粘\n    风 = 无风: 是")
    # values lined up after names stay lined up (色泽 and 脐部 are as wide, colour and navel not)
    assert localise.localise_printed("colour: [2, 4]\nnavel:  [2, 4]\nid:     [1]", {}) == (
        "色泽: [2, 4]\n脐部: [2, 4]\n编号: [1]")
    # code stays code: a quoted string, a call's arguments
    assert localise.localise_printed("tie_break=['Annual Income']: income, X.pop(colour)", {}) == (
        "tie_break=['Annual Income']: 收入, X.pop(colour)")
    # a sentence, labels side by side, or "root" (根蒂 or the root node) needs a message
    for line in ("depth 0: 17 melons, tests texture", "root: curly", "Gain(D1, root) = 0.3"):
        assert localise.localise_printed(line, {}) == line
    # what no message and no label translates is what the page test reports, and a message
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [
        {"output_type": "stream", "name": "stdout", "text": [text]}]}, {
        "cell_type": "code", "metadata": {"tags": [localise.PROGRAM_OUTPUT]}, "outputs": [
            {"output_type": "stream", "name": "stdout", "text": ["Primary splits:"]}]}]}
    assert localise.printed_messages(notebook) == {
        "Ent of the node (no {}, yes {}): {}": "Ent of the node (no 3.2, yes 0.2): 0.323",
        "{} differences, from {} to {}": "100 differences, from 0.000 to 0.188"}


def _notebook(page: str) -> dict:
    return json.loads((ROOT / f"{page}.ipynb").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", sorted(str(path.relative_to(ROOT).with_suffix(""))
                                        for path in ROOT.glob("book/*.ipynb")))
def test_printed_messages_are_current_and_chinese(page):
    # the catalog's printed lines are those the stored outputs print (no stale message), each
    # translation places every number once, writes none of its own and leaves no English; on the
    # pages of PRINTED_PAGES every line is translated
    needed = localise.printed_messages(_notebook(page))
    catalog = localise.printed_catalog(page)
    assert [message for message in catalog if message not in needed] == []
    for message, template in catalog.items():
        localise.fill(template, [str(i) for i in range(len(localise.NUMBER.findall(
            needed[message])))])
        assert localise.english_words(template) == [], (message, template)
        assert localise.NUMBER.findall(localise.PLACE.sub("", template)) == [], template
    if page in localise.PRINTED_PAGES:
        assert [message for message in needed if message not in catalog] == []


def test_the_zh_build_shows_printed_lines_from_the_page_catalog():
    # localise_outputs reads the page's catalog (chapter 4's message of its tie) and leaves a
    # reference program's output (a cell tagged program-output) as it was printed
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    printed = "tied at D1: root, navel, touch -> chosen: root"
    rpart = "  Primary splits:\n      Start  < 8.5  to the right, improve=6.762330"
    page = new_document("page", get_default_settings(Parser))
    ours, theirs = nodes.literal_block(printed, printed), nodes.literal_block(rpart, rpart)
    page += nodes.container("", nodes.container("", ours, classes=["cell_output"]),
                            classes=["cell"])
    page += nodes.container("", nodes.container("", theirs, classes=["cell_output"]),
                            classes=["cell", f"tag_{localise.PROGRAM_OUTPUT}"])
    localise.localise_outputs(None, page, "book/04_id3")
    assert (ours.astext(), theirs.astext()) == ("D1 处并列：根蒂、脐部、触感 -> 选中：根蒂", rpart)


def test_chinese_in_a_pre_takes_two_columns_a_character():
    # a printed line's columns count a Chinese character as two (localise_printed); the zh
    # pages' stylesheet makes it so in the browser for the runs wide_columns marks, once
    page = ('<p>收入</p><pre><span></span>收入    增益 = 0.377（a）\n'
            '<span class="n">色泽</span></pre>')
    once = localise.wide_columns(page)
    assert once == ('<p>收入</p><pre><span></span><span class="zh-cols">收入</span>    '
                    '<span class="zh-cols">增益</span> = 0.377<span class="zh-cols">（</span>a'
                    '<span class="zh-cols">）</span>\n<span class="n">'
                    '<span class="zh-cols">色泽</span></span></pre>')
    assert localise.wide_columns(once) == once
    assert "pre span.zh-cols" in (ROOT / "_static" / "dtree.css").read_text(encoding="utf-8")
