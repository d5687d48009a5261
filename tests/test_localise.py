"""The Chinese edition's labels (issue 34 §1, locales/localise.py): one English -> Chinese map,
made of the glossary, the data sets' Chinese names and locales/zh_CN/labels.tsv, rewrites the
text of the stored outputs' tables in the zh build. What the zh pages show is checked in the
browser (tests/test_pages.py, test_chinese_tables_have_no_english); here the map and the
rewriting, on their own."""
from __future__ import annotations

import re
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
