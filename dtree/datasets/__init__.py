"""The datasets behind the sources' worked examples, and real data for the case studies.

Each loader returns a pandas DataFrame with English names by default; ``lang="zh"`` gives the
original Chinese headers and values of Zhou (2016). Categorical columns are pandas categoricals
whose categories are in order of first appearance in the complete table 4.1, which is the order
Zhou lists them in.
The ARFF files (Weka's copies of UCI data sets) load through :func:`load_arff`, with nominal
attributes as categoricals in the order the file's header declares them.
Provenance and licences: ``data/README.md`` beside this file.
"""
from __future__ import annotations

import io
import os
import re
from importlib import resources

import numpy as np
import pandas as pd

__all__ = ["ZH_EN", "load_watermelon", "load_watermelon_split", "load_house_school",
           "load_colour_depth", "load_loan_default", "load_mushroom", "load_adult",
           "load_tic_tac_toe", "load_car", "ARFF_DATASETS", "load_arff", "read_arff"]

#: Chinese term -> English term, for headers and values (the book's glossary draws on it)
ZH_EN = {
    "编号": "id", "色泽": "colour", "根蒂": "root", "敲声": "sound", "纹理": "texture",
    "脐部": "navel", "触感": "touch", "密度": "density", "含糖率": "sugar", "好瓜": "ripe",
    "颜色深度": "colour_depth", "集合": "set",
    "青绿": "green", "乌黑": "dark", "浅白": "light",
    "蜷缩": "curly", "稍蜷": "slightly curly", "硬挺": "straight",
    "浊响": "muffled", "沉闷": "dull", "清脆": "crisp",
    "清晰": "clear", "稍糊": "slightly blurry", "模糊": "blurry",
    "凹陷": "hollow", "稍凹": "slightly hollow", "平坦": "flat",
    "硬滑": "hard", "软粘": "soft",
    "是": "yes", "否": "no", "训练集": "train", "验证集": "validation",
}

_WATERMELON_FILES = {"2.0": "watermelon_2.0.csv", "2.0alpha": "watermelon_2.0alpha.csv",
                     "3.0": "watermelon_3.0.csv"}


def _read(name: str, **kwargs) -> pd.DataFrame:
    with resources.files(__name__).joinpath("data", name).open("rb") as f:
        return pd.read_csv(f, **kwargs)


def _check_lang(lang: str) -> None:
    if lang not in ("en", "zh"):
        raise ValueError(f"lang must be 'en' or 'zh', got {lang!r}")


def _categorical(frame: pd.DataFrame, lang: str, target: str | None,
                 order_from: pd.DataFrame | None = None) -> pd.DataFrame:
    """Translate (if English) and make every text column but the target categorical, with the
    categories in order of first appearance in ``order_from`` (default: the frame itself)."""
    order_from = frame if order_from is None else order_from
    translate = (lambda v: ZH_EN.get(v, v)) if lang == "en" else (lambda v: v)
    out = pd.DataFrame(index=frame.index)
    for column in frame.columns:
        values = frame[column]
        if not pd.api.types.is_numeric_dtype(values):
            values = values.map(translate, na_action="ignore")
            if column != target:
                order = [translate(v) for v in pd.unique(order_from[column].dropna())]
                values = pd.Categorical(values, categories=order)
        out[translate(column)] = values
    out.index.name = translate(out.index.name)
    return out


def _split_target(frame: pd.DataFrame, return_X_y: bool):
    if not return_X_y:
        return frame
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def load_watermelon(version: str = "2.0", lang: str = "en", return_X_y: bool = False):
    """Zhou's watermelon data: "2.0" (table 4.1), "2.0alpha" (table 4.4, with missing values)
    or "3.0" (table 4.3, with density and sugar). Indexed by the melons' ids 1-17; the last
    column, ripe (好瓜), is the target."""
    _check_lang(lang)
    if version not in _WATERMELON_FILES:
        raise ValueError(f"version must be one of {list(_WATERMELON_FILES)}, got {version!r}")
    frame = _read(_WATERMELON_FILES[version], index_col="编号")
    complete = _read(_WATERMELON_FILES["2.0"], index_col="编号")  # Zhou's order of the values
    return _split_target(_categorical(frame, lang, "好瓜", order_from=complete), return_X_y)


def load_watermelon_split(lang: str = "en") -> pd.Series:
    """Zhou's table 4.2: which of the 17 melons are training rows and which validation rows."""
    _check_lang(lang)
    frame = _categorical(_read("watermelon_2.0_split_4.2.csv", index_col="编号"), lang, "集合")
    return frame.iloc[:, 0]


def load_house_school(lang: str = "en", return_X_y: bool = False):
    """Seed 002's house-buying example, rebuilt from its counts: 20 people; good school nearby:
    5 bought, 6 did not; poor school: 1 bought, 8 did not."""
    _check_lang(lang)
    school = ["good"] * 11 + ["poor"] * 9
    bought = ["yes"] * 5 + ["no"] * 6 + ["yes"] * 1 + ["no"] * 8
    if lang == "zh":
        school = ["好" if s == "good" else "不好" for s in school]
        bought = ["是" if b == "yes" else "否" for b in bought]
    names = ("school", "bought") if lang == "en" else ("附近学校", "买了")
    frame = pd.DataFrame({names[0]: pd.Categorical(school), names[1]: bought},
                         index=pd.RangeIndex(1, 21, name="id"))
    return _split_target(frame, return_X_y)


def load_colour_depth(lang: str = "en", return_X_y: bool = False):
    """Seed 002's seven melons with a colour depth scaled to [0, 1]."""
    _check_lang(lang)
    frame = _categorical(_read("seed002_colour_depth_7.csv"), lang, target="好瓜")
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="id")
    return _split_target(frame, return_X_y)


def load_loan_default(return_X_y: bool = False):
    """Tan, Steinbach & Kumar's ten borrowers (Annual Income in thousands); target: default."""
    frame = _read("tan_loan_default.csv", index_col="Tid")
    for column in ("Home Owner", "Marital Status"):
        frame[column] = pd.Categorical(frame[column], categories=pd.unique(frame[column]))
    return _split_target(frame, return_X_y)


MUSHROOM_COLUMNS = [
    "class", "cap-shape", "cap-surface", "cap-color", "bruises", "odor", "gill-attachment",
    "gill-spacing", "gill-size", "gill-color", "stalk-shape", "stalk-root",
    "stalk-surface-above-ring", "stalk-surface-below-ring", "stalk-color-above-ring",
    "stalk-color-below-ring", "veil-type", "veil-color", "ring-number", "ring-type",
    "spore-print-color", "population", "habitat",
]


def load_mushroom(return_X_y: bool = False):
    """UCI Mushroom (Schlimmer 1987): 8,124 rows, 22 categorical attributes coded by letters,
    '?' (2,480 values of stalk-root) as missing; target "class": e(dible) or p(oisonous)."""
    frame = _read("agaricus-lepiota.data", header=None, names=MUSHROOM_COLUMNS,
                  na_values="?", keep_default_na=False, dtype=str)
    target = frame.pop("class")
    frame = frame.astype("category")
    frame["class"] = np.where(target == "e", "edible", "poisonous")
    return _split_target(frame, return_X_y)


def _adult_schema() -> list[tuple[str, list[str] | None]]:
    """The attributes declared at the end of adult.names, in order: (name, declared values), or
    (name, None) for a continuous one; lines such as ``age: continuous.``."""
    with resources.files(__name__).joinpath("data", "adult.names").open(
            "r", encoding="ascii") as f:
        lines = [line.strip() for line in f if re.fullmatch(r"[\w-]+: .*\.", line.strip())]
    schema = []
    for line in lines:
        name, values = line[:-1].split(": ", 1)
        schema.append((name, None if values == "continuous" else values.split(", ")))
    return schema


def load_adult(return_X_y: bool = False, test: bool = False):
    """UCI Adult (Census Income; Kohavi & Becker, 1994 census): the 32,561 training rows of
    adult.data, or with ``test=True`` the 16,281 rows of the official test file adult.test
    (its first line, ``|1x3 Cross validator``, skipped; the labels' trailing dot dropped).
    14 attributes (6 continuous, integer-valued; 8 categorical, as pandas categoricals in the
    order adult.names declares their values) and the target "income", "<=50K" or ">50K".
    A "?" is missing (NaN): in adult.data 1,836 in workclass, 1,843 in occupation, 583 in
    native-country."""
    schema = _adult_schema()
    frame = _read("adult.test" if test else "adult.data", skiprows=1 if test else 0,
                  header=None, names=[name for name, _ in schema] + ["income"],
                  skipinitialspace=True, na_values="?", keep_default_na=False,
                  dtype={name: str for name, values in schema if values is not None})
    if test:
        frame["income"] = frame["income"].str.removesuffix(".")
    for name, values in schema:
        if values is not None:
            undeclared = set(frame[name].dropna()) - set(values)
            if undeclared:
                raise ValueError(f"adult.data: {name} has undeclared values {sorted(undeclared)}")
            frame[name] = pd.Categorical(frame[name], categories=values)
    return _split_target(frame, return_X_y)


def _read_uci(name: str, columns: dict[str, list[str]], target: str,
              return_X_y: bool) -> pd.DataFrame:
    """A comma-separated UCI file without header or gaps: every column categorical with the
    given categories (the order of the .names file); the last column is the target, as str."""
    frame = _read(name, header=None, names=list(columns) + [target], dtype=str,
                  keep_default_na=False)
    for column, categories in columns.items():
        undeclared = set(frame[column]) - set(categories)
        if undeclared:
            raise ValueError(f"{name}: {column} has undeclared values {sorted(undeclared)}")
        frame[column] = pd.Categorical(frame[column], categories=categories)
    return _split_target(frame, return_X_y)


TIC_TAC_TOE_COLUMNS = [f"{row}-{column}-square" for row in ("top", "middle", "bottom")
                       for column in ("left", "middle", "right")]


def load_tic_tac_toe(return_X_y: bool = False):
    """UCI Tic-Tac-Toe Endgame (Aha 1991): the 958 boards at the end of a game that x began,
    9 squares each "x", "o" or "b" (blank); target "class": "positive" (x has three in a row,
    626 boards) or "negative" (332). No missing values."""
    squares = {name: ["x", "o", "b"] for name in TIC_TAC_TOE_COLUMNS}
    return _read_uci("tic-tac-toe.data", squares, "class", return_X_y)


CAR_COLUMNS = {"buying": ["vhigh", "high", "med", "low"],
               "maint": ["vhigh", "high", "med", "low"],
               "doors": ["2", "3", "4", "5more"], "persons": ["2", "4", "more"],
               "lug_boot": ["small", "med", "big"], "safety": ["low", "med", "high"]}


def load_car(return_X_y: bool = False):
    """UCI Car Evaluation (Bohanec & Rajkovic 1988): all 1,728 combinations of 6 ordinal
    attributes, as categoricals in the order of car.names (which spells "vhigh" as "v-high");
    target "class": unacc 1,210, acc 384, good 69, vgood 65. No missing values."""
    return _read_uci("car.data", CAR_COLUMNS, "class", return_X_y)


#: the ARFF files shipped in data/ (Weka's wekadocs/data copies; see data/README.md)
ARFF_DATASETS = ("breast-cancer", "contact-lenses", "credit-g", "labor", "soybean", "vote",
                 "weather.nominal", "weather.numeric")
_ARFF_NUMERIC = ("numeric", "real", "integer")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}


def _fields(text: str, separators: str = ",") -> list[tuple[str, bool]]:
    """Split ARFF text at unquoted separators: (value, was_quoted) pairs, values stripped and
    unquoted ('...' or "..." with backslash escapes); an unquoted % starts a comment."""
    fields, chars, quote, closed, i = [], [], None, False, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and i + 1 < len(text):
                i += 1
                chars.append(_ESCAPES.get(text[i], text[i]))
            elif c == quote:
                quote, closed = None, True
            else:
                chars.append(c)
        elif c == "%":
            break
        elif c in separators:
            fields.append(("".join(chars), True) if closed else ("".join(chars).strip(), False))
            chars, closed = [], False
        elif c.isspace() and (closed or not chars):
            pass
        elif closed:
            raise ValueError(f"ARFF: text after a closing quote in {text!r}")
        elif c in "'\"" and not chars:
            quote = c
        else:
            chars.append(c)
        i += 1
    if quote:
        raise ValueError(f"ARFF: unterminated quote in {text!r}")
    fields.append(("".join(chars), True) if closed else ("".join(chars).strip(), False))
    return fields


def _attribute(line: str) -> tuple[str, str | list[str]]:
    """``@attribute NAME TYPE`` -> (name, "numeric" | [declared nominal values])."""
    rest = line[len("@attribute"):].strip()
    if rest[:1] in ("'", '"'):
        end = next((i for i in range(1, len(rest)) if rest[i] == rest[0] and rest[i - 1] != "\\"),
                   None)
        if end is None:
            raise ValueError(f"ARFF: unterminated quote in {line!r}")
        name, kind = _fields(rest[:end + 1])[0][0], rest[end + 1:].strip()
    else:
        name, kind = (rest.replace("{", " {", 1).split(None, 1) + [""])[:2]
    if kind.startswith("{"):
        if "}" not in kind:
            raise ValueError(f"ARFF: nominal attribute {name!r} has no closing brace")
        return name, [value for value, _ in _fields(kind[1:kind.rindex("}")])]
    kind = kind.split("%")[0].strip().lower()
    if kind in _ARFF_NUMERIC:
        return name, "numeric"
    raise ValueError(f"ARFF: attribute {name!r} has type {kind!r}; only nominal and numeric "
                     "attributes are supported")


def read_arff(source: str | os.PathLike | io.TextIOBase) -> pd.DataFrame:
    """Read a dense ARFF file (Weka's format): nominal attributes become categoricals with the
    header's declared order, numeric ones float; an unquoted ``?`` is missing.
    Keywords are case-insensitive, ``%`` starts a comment. The relation name is in
    ``frame.attrs["relation"]``."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            return read_arff(f)
    relation, attributes, rows, in_data = None, [], [], False
    for number, line in enumerate(source, start=1):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            keyword = line.split(None, 1)[0].lower()
            if keyword == "@relation":
                relation = _fields(line[len("@relation"):], separators="")[0][0]
            elif keyword == "@attribute":
                attributes.append(_attribute(line))
                if attributes[-1][0] in [name for name, _ in attributes[:-1]]:
                    raise ValueError(f"ARFF line {number}: attribute {attributes[-1][0]!r} "
                                     "is declared twice")
            elif keyword == "@data":
                in_data = True
            else:
                raise ValueError(f"ARFF line {number}: unexpected {line[:40]!r} in the header")
            continue
        if line.startswith("{"):
            raise ValueError(f"ARFF line {number}: sparse data is not supported")
        values = _fields(line)
        if len(values) != len(attributes):
            raise ValueError(f"ARFF line {number}: {len(values)} values for "
                             f"{len(attributes)} attributes")
        rows.append([None if value == "?" and not quoted else value for value, quoted in values])
    if not in_data or not attributes:
        raise ValueError("ARFF: no @attribute lines or no @data section")
    columns = list(zip(*rows)) if rows else [()] * len(attributes)
    frame = pd.DataFrame(index=pd.RangeIndex(len(rows)))
    for (name, kind), values in zip(attributes, columns):
        if kind == "numeric":
            try:
                frame[name] = pd.to_numeric(pd.Series(values, dtype=object)).astype(float)
            except ValueError as error:
                raise ValueError(f"ARFF: numeric attribute {name!r}: {error}") from None
        else:
            undeclared = set(values) - set(kind) - {None}
            if undeclared:
                raise ValueError(f"ARFF: attribute {name!r} has undeclared values "
                                 f"{sorted(undeclared)}; declared: {kind}")
            frame[name] = pd.Categorical(values, categories=kind)
    frame.attrs["relation"] = relation
    return frame


def load_arff(name: str, return_X_y: bool = False):
    """One of the Weka ARFF files in ``ARFF_DATASETS`` (name without ``.arff``), read by
    :func:`read_arff`; the last attribute is the class (the target)."""
    if name not in ARFF_DATASETS:
        raise ValueError(f"name must be one of {list(ARFF_DATASETS)}, got {name!r}")
    with resources.files(__name__).joinpath("data", f"{name}.arff").open(
            "r", encoding="utf-8") as f:
        return _split_target(read_arff(f), return_X_y)
