"""The datasets behind the sources' worked examples, and real data for the case studies.

Each loader returns a pandas DataFrame with English names by default; ``lang="zh"`` gives the
original Chinese headers and values of Zhou (2016). Categorical columns are pandas categoricals
whose categories are in order of first appearance in the complete table 4.1, which is the order
Zhou lists them in.
Provenance and licences: ``data/README.md`` beside this file.
"""
from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd

__all__ = ["ZH_EN", "load_watermelon", "load_watermelon_split", "load_house_school",
           "load_colour_depth", "load_loan_default", "load_mushroom"]

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
