"""The datasets: shapes, Zhou's category order, Chinese values, and the published counts."""
from __future__ import annotations

import pandas as pd
import pytest

from dtree.datasets import (ZH_EN, load_colour_depth, load_house_school, load_loan_default,
                            load_mushroom, load_watermelon, load_watermelon_split)

ZHOU_ORDER = {  # Zhou (2016) table 4.1 and sec. 4.4.2
    "colour": ["green", "dark", "light"],
    "root": ["curly", "slightly curly", "straight"],
    "sound": ["muffled", "dull", "crisp"],
    "texture": ["clear", "slightly blurry", "blurry"],
    "navel": ["hollow", "slightly hollow", "flat"],
    "touch": ["hard", "soft"],
}
ZHOU_ORDER_ZH = {
    "色泽": ["青绿", "乌黑", "浅白"], "根蒂": ["蜷缩", "稍蜷", "硬挺"],
    "敲声": ["浊响", "沉闷", "清脆"], "纹理": ["清晰", "稍糊", "模糊"],
    "脐部": ["凹陷", "稍凹", "平坦"], "触感": ["硬滑", "软粘"],
}


@pytest.mark.parametrize("version, n_columns", [("2.0", 7), ("2.0alpha", 7), ("3.0", 9)])
def test_watermelon_shapes(version, n_columns):
    frame = load_watermelon(version)
    assert frame.shape == (17, n_columns)
    assert frame.index.tolist() == list(range(1, 18)) and frame.index.name == "id"
    assert frame.columns[-1] == "ripe"
    X, y = load_watermelon(version, return_X_y=True)
    assert X.shape == (17, n_columns - 1) and y.shape == (17,)
    assert y.value_counts().to_dict() == {"no": 9, "yes": 8}  # melons 1-8 ripe


@pytest.mark.parametrize("version", ["2.0", "3.0"])
def test_watermelon_categories_in_zhous_order(version):
    X, _ = load_watermelon(version, return_X_y=True)
    for column, order in ZHOU_ORDER.items():
        assert isinstance(X[column].dtype, pd.CategoricalDtype)
        assert list(X[column].cat.categories) == order


def test_watermelon_alpha_categories_in_zhous_order():
    X, _ = load_watermelon("2.0alpha", return_X_y=True)
    for column, order in ZHOU_ORDER.items():
        assert list(X[column].cat.categories) == order


def test_watermelon_chinese():
    frame = load_watermelon(lang="zh")
    assert list(frame.columns) == ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "好瓜"]
    assert frame.index.name == "编号"
    for column, order in ZHOU_ORDER_ZH.items():
        assert list(frame[column].cat.categories) == order
    assert frame.loc[1].tolist() == ["青绿", "蜷缩", "浊响", "清晰", "凹陷", "硬滑", "是"]
    assert frame.loc[17].tolist() == ["青绿", "蜷缩", "沉闷", "稍糊", "稍凹", "硬滑", "否"]


def test_chinese_and_english_agree_through_zh_en():
    for version in ("2.0", "2.0alpha", "3.0"):
        zh, en = load_watermelon(version, lang="zh"), load_watermelon(version)
        assert [ZH_EN[c] for c in zh.columns] == list(en.columns)
        for zh_column, en_column in zip(zh.columns, en.columns):
            if pd.api.types.is_numeric_dtype(zh[zh_column]):
                assert zh[zh_column].tolist() == en[en_column].tolist()
                continue
            translated = zh[zh_column].astype(object).map(ZH_EN, na_action="ignore")
            assert translated.isna().tolist() == en[en_column].isna().tolist()
            assert translated.dropna().tolist() == en[en_column].dropna().astype(object).tolist()


def test_watermelon_rows_match_zhou_table_4_1():
    frame = load_watermelon()
    assert frame.loc[10].tolist() == ["green", "straight", "crisp", "clear", "flat", "soft", "no"]
    assert frame.loc[7].tolist() == ["dark", "slightly curly", "muffled", "slightly blurry",
                                     "slightly hollow", "soft", "yes"]
    counts = pd.crosstab(frame["texture"], frame["ripe"])
    assert counts.loc["clear"].tolist() == [2, 7]  # (no, yes)
    assert counts.loc["slightly blurry"].tolist() == [4, 1]
    assert counts.loc["blurry"].tolist() == [3, 0]


def test_watermelon_alpha_missing_cells():
    X, _ = load_watermelon("2.0alpha", return_X_y=True)
    # Zhou table 4.4: colour missing for melons 1, 5, 13; two melons for every other attribute
    assert X.isna().sum().to_dict() == {"colour": 3, "root": 2, "sound": 2, "texture": 2,
                                        "navel": 2, "touch": 2}
    assert X.index[X["colour"].isna()].tolist() == [1, 5, 13]
    assert X.index[X["texture"].isna()].tolist() == [8, 10]
    full = load_watermelon("2.0", return_X_y=True)[0]
    known = X.notna()
    assert (X.astype(object)[known] == full.astype(object)[known]).sum().sum() == known.sum().sum()


def test_watermelon_3_numbers():
    X, _ = load_watermelon("3.0", return_X_y=True)
    assert X["density"].dtype.kind == "f" and X["sugar"].dtype.kind == "f"
    assert (X.loc[1, "density"], X.loc[1, "sugar"]) == (0.697, 0.460)
    assert (X.loc[17, "density"], X.loc[17, "sugar"]) == (0.719, 0.103)


def test_watermelon_bad_arguments():
    with pytest.raises(ValueError, match="version"):
        load_watermelon("4.0")
    with pytest.raises(ValueError, match="lang"):
        load_watermelon(lang="fr")


def test_watermelon_split_table_4_2():
    split = load_watermelon_split()
    assert split.index.tolist() == list(range(1, 18))
    assert split.index[split == "train"].tolist() == [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
    assert split.index[split == "validation"].tolist() == [4, 5, 8, 9, 11, 12, 13]
    zh = load_watermelon_split("zh")
    assert set(zh) == {"训练集", "验证集"}


def test_house_school_seed_002():
    frame = load_house_school()
    assert frame.shape == (20, 2)
    counts = pd.crosstab(frame["school"], frame["bought"])
    assert counts.loc["good"].to_dict() == {"no": 6, "yes": 5}
    assert counts.loc["poor"].to_dict() == {"no": 8, "yes": 1}
    X, y = load_house_school(lang="zh", return_X_y=True)
    assert set(X.iloc[:, 0]) == {"好", "不好"} and set(y) == {"是", "否"}
    assert (y == "是").sum() == 6


def test_colour_depth_seed_002():
    X, y = load_colour_depth(return_X_y=True)
    assert X["colour_depth"].tolist() == [0.56, 0.59, 0.66, 0.68, 0.71, 0.81, 0.90]
    assert y.tolist() == ["no", "no", "yes", "yes", "yes", "no", "yes"]
    zh = load_colour_depth(lang="zh")
    assert list(zh.columns) == ["颜色深度", "好瓜"]
    assert zh["好瓜"].tolist()[:3] == ["否", "否", "是"]


def test_loan_default_tan():
    X, y = load_loan_default(return_X_y=True)
    assert X.shape == (10, 3)
    assert list(X.columns) == ["Home Owner", "Marital Status", "Annual Income"]
    assert y.value_counts().to_dict() == {"No": 7, "Yes": 3}
    assert list(X["Marital Status"].cat.categories) == ["Single", "Married", "Divorced"]
    assert X["Annual Income"].tolist() == [125, 100, 70, 120, 95, 60, 220, 85, 75, 90]


def test_mushroom_counts():
    frame = load_mushroom()
    assert frame.shape == (8124, 23)
    assert (frame["class"] == "edible").sum() == 4208
    assert (frame["class"] == "poisonous").sum() == 3916
    assert frame["stalk-root"].isna().sum() == 2480
    assert frame.drop(columns="stalk-root").isna().sum().sum() == 0
    assert frame["veil-type"].nunique() == 1  # only partial veils in the data
    X, y = load_mushroom(return_X_y=True)
    assert X.shape == (8124, 22) and "class" not in X
    assert all(isinstance(X[c].dtype, pd.CategoricalDtype) for c in X)
    assert set(X["odor"].cat.categories) == set("acflmnpsy")


def test_zh_en_is_one_to_one():
    english = list(ZH_EN.values())
    assert len(set(english)) == len(english)
    assert ZH_EN["纹理"] == "texture" and ZH_EN["好瓜"] == "ripe"


def test_loaders_return_fresh_copies():
    a = load_watermelon()
    a.iloc[0, 0] = "dark"
    assert load_watermelon().iloc[0, 0] == "green"
