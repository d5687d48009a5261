"""The Chinese edition's citation labels: sphinxcontrib-bibtex's author-year style with Chinese
joining words, registered as the referencing style ``author_year_zh`` (the zh build's
``bibtex_reference_style``).

- two authors: "Nadeau 和 Bengio, 2003"; three or more, or a list ending in "and others":
  "Breiman 等, 1984", "Pedregosa 等, 2011" (authors' own names stay as they write them);
- the source notes, whose bib author is "Seed 002": "源笔记 002, 2021", as the Chinese prose
  calls them;
- an entry without a date (year "n.d."): "年份不详".

The last two change the entries as read from book/references.bib, in memory, for this build
only (:func:`localise_entries`); the bibliography page lists them the same way.
"""
from __future__ import annotations

import dataclasses
import re
from typing import cast

from pybtex.database import Person
from pybtex.richtext import Text
from pybtex.style.template import FieldIsMissing
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.template import join, node

#: The bib's English words for what the Chinese labels say otherwise
SEED = re.compile(r"^Seed (\d{3})$")
NO_DATE = ("n.d.", "年份不详")


@node
def names_zh(children, data, role, full=False, **kwargs):
    """The persons of ``role``: one, "A 和 B", or "A 等" (also for "A and others"), or every
    name joined by "、" when ``full``."""
    assert not children
    try:
        persons = data["entry"].persons[role]
    except KeyError:
        raise FieldIsMissing(role, data["entry"]) from None
    style = data["style"]
    named = [p for p in persons if str(p) != "others"]
    formatted = [style.person.style_plugin.format(p, style.person.abbreviate) for p in named]
    parts = [part.format_data(data) for part in formatted]
    if full:
        return Text("、").join(parts) + (Text(" 等") if len(named) < len(persons) else Text())
    if len(persons) >= 3 or len(named) < len(persons):
        return Text(parts[0], " 等")
    return join(sep=" 和 ")[formatted].format_data(data)


@dataclasses.dataclass
class PersonStyleZh(PersonStyle):
    sep2: str = " 和 "

    def names(self, role, full):
        return names_zh(role=role, full=full)

    def author_or_editor_or_title(self, full):
        from pybtex.style.template import field, first_of, optional, tag

        return first_of[optional[names_zh(role="author", full=full)],
                        optional[names_zh(role="editor", full=full)],
                        tag("em")[field("title")]]


@dataclasses.dataclass
class AuthorYearZh(AuthorYearReferenceStyle):
    person: PersonStyle = dataclasses.field(default_factory=PersonStyleZh)


register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_zh", AuthorYearZh)


def localise_entries(app) -> None:
    """The source notes as 源笔记 and "n.d." as 年份不详, in the entries read from the bib."""
    from sphinxcontrib.bibtex.domain import BibtexDomain

    domain = cast(BibtexDomain, app.env.get_domain("cite"))
    for entry in domain.bibdata.data.entries.values():
        if entry.fields.get("year") == NO_DATE[0]:
            entry.fields["year"] = NO_DATE[1]
        for role, persons in entry.persons.items():
            for i, person in enumerate(persons):
                seed = SEED.match(str(person).strip("{}"))
                if seed:
                    persons[i] = Person(f"{{源笔记 {seed[1]}}}")
