"""The datasets: shapes, Zhou's category order, Chinese values, and the published counts."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from references import write_arff

from dtree.datasets import (ARFF_DATASETS, ZH_EN, load_adult, load_arff, load_car,
                            load_colour_depth, load_house_school, load_loan_default,
                            load_mushroom, load_tic_tac_toe, load_watermelon,
                            load_watermelon_split, read_arff)

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


ADULT_NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
                 "hours-per-week"]


def test_adult_counts():
    # counts from data/README.md's source notes (wc, grep and awk on the raw adult.data)
    frame = load_adult()
    assert frame.shape == (32561, 15) and frame.columns[-1] == "income"
    assert frame["income"].value_counts().to_dict() == {"<=50K": 24720, ">50K": 7841}
    missing = frame.isna().sum()
    assert missing[missing > 0].to_dict() == {"workclass": 1836, "occupation": 1843,
                                              "native-country": 583}
    assert frame.isna().any(axis=1).sum() == 2399
    X, y = load_adult(return_X_y=True)
    assert X.shape == (32561, 14) and y.name == "income"
    assert [c for c in X if not isinstance(X[c].dtype, pd.CategoricalDtype)] == ADULT_NUMERIC
    assert all(X[c].dtype.kind == "i" for c in ADULT_NUMERIC)


def test_adult_values_and_declared_categories():
    X, y = load_adult(return_X_y=True)
    # the file's first line: "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical,
    # Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K"
    assert X.iloc[0].tolist() == [39, "State-gov", 77516, "Bachelors", 13, "Never-married",
                                  "Adm-clerical", "Not-in-family", "White", "Male", 2174, 0, 40,
                                  "United-States"] and y.iloc[0] == "<=50K"
    # categories in the order adult.names declares them, every one of them (all occur)
    assert list(X["sex"].cat.categories) == ["Female", "Male"]
    assert list(X["workclass"].cat.categories)[:3] == ["Private", "Self-emp-not-inc",
                                                       "Self-emp-inc"]
    assert list(X["race"].cat.categories) == ["White", "Asian-Pac-Islander",
                                              "Amer-Indian-Eskimo", "Other", "Black"]
    sizes = {c: len(X[c].cat.categories) for c in X if c not in ADULT_NUMERIC}
    assert sizes == {"workclass": 8, "education": 16, "marital-status": 7, "occupation": 14,
                     "relationship": 6, "race": 5, "sex": 2, "native-country": 41}
    assert all(X[c].value_counts().min() > 0 for c in sizes)


def test_adult_test_file():
    # counts from data/README.md's source notes: 16,281 records after the "|1x3 Cross
    # validator" line; "<=50K." 12,435 and ">50K." 3,846; 2,203 '?' on 1,221 rows
    X, y = load_adult(return_X_y=True, test=True)
    assert X.shape == (16281, 14)
    assert y.value_counts().to_dict() == {"<=50K": 12435, ">50K": 3846}
    missing = X.isna().sum()
    assert missing[missing > 0].to_dict() == {"workclass": 963, "occupation": 966,
                                              "native-country": 274}
    assert X.isna().any(axis=1).sum() == 1221
    # the file's second line: "25, Private, 226802, 11th, 7, Never-married, ..."
    assert X.iloc[0, :4].tolist() == [25, "Private", 226802, "11th"] and y.iloc[0] == "<=50K"
    train = load_adult(return_X_y=True)[0]
    assert all(X[c].dtype == train[c].dtype for c in X)  # same columns, same categories


def test_tic_tac_toe_counts():
    # tic-tac-toe.names: 958 instances, 9 attributes {x,o,b}, 626 positive; no missing values
    X, y = load_tic_tac_toe(return_X_y=True)
    assert X.shape == (958, 9) and X.columns[0] == "top-left-square"
    assert y.value_counts().to_dict() == {"positive": 626, "negative": 332}
    assert X.notna().all().all()
    assert all(list(X[c].cat.categories) == ["x", "o", "b"] for c in X)
    # the first line: "x,x,x,x,o,o,x,o,o,positive"
    assert X.iloc[0].tolist() == list("xxxxooxoo") and y.iloc[0] == "positive"
    # x moved first, so every board holds as many x as o, or one more
    counts = (X == "x").sum(axis=1) - (X == "o").sum(axis=1)
    assert set(counts) <= {0, 1}


def test_car_counts():
    # car.names: 1,728 instances, the whole 4 x 4 x 4 x 3 x 3 x 3 grid, classes
    # unacc 1210, acc 384, good 69, v-good 65
    X, y = load_car(return_X_y=True)
    assert X.shape == (1728, 6)
    assert y.value_counts().to_dict() == {"unacc": 1210, "acc": 384, "good": 69,
                                          "vgood": 65}
    assert [len(X[c].cat.categories) for c in X] == [4, 4, 4, 3, 3, 3]
    assert not X.duplicated().any()  # every combination once
    assert list(X["safety"].cat.categories) == ["low", "med", "high"]
    assert X.iloc[0].tolist() == ["vhigh", "vhigh", "2", "2", "small", "low"]


def test_zh_en_is_one_to_one():
    english = list(ZH_EN.values())
    assert len(set(english)) == len(english)
    assert ZH_EN["纹理"] == "texture" and ZH_EN["好瓜"] == "ripe"


def test_loaders_return_fresh_copies():
    a = load_watermelon()
    a.iloc[0, 0] = "dark"
    assert load_watermelon().iloc[0, 0] == "green"


# --- the Weka ARFF files: counts from data/README.md (grep/awk on the raw files) ---

ARFF_COUNTS = {  # name: (rows, attributes incl. class, '?' cells, rows with a '?')
    "weather.nominal": (14, 5, 0, 0), "weather.numeric": (14, 5, 0, 0),
    "vote": (435, 17, 392, 203), "breast-cancer": (286, 10, 9, 9),
    "contact-lenses": (24, 5, 0, 0), "soybean": (683, 36, 2337, 121),
    "labor": (57, 17, 326, 56), "credit-g": (1000, 21, 0, 0),
}


def test_arff_list_is_complete():
    assert sorted(ARFF_DATASETS) == sorted(ARFF_COUNTS)


@pytest.mark.parametrize("name", ARFF_DATASETS)
def test_arff_shapes_and_missing_counts(name):
    rows, columns, missing, rows_missing = ARFF_COUNTS[name]
    frame = load_arff(name)
    assert frame.shape == (rows, columns)
    assert frame.isna().sum().sum() == missing
    assert frame.isna().any(axis=1).sum() == rows_missing
    X, y = load_arff(name, return_X_y=True)
    assert X.shape == (rows, columns - 1) and y.name == frame.columns[-1]
    assert y.notna().all()
    for column in frame:
        assert isinstance(frame[column].dtype, pd.CategoricalDtype) or \
            frame[column].dtype == "float64"


def test_arff_class_counts():
    # the UCI files' class counts (data/README.md): vote 267/168, breast-cancer 201/85
    assert load_arff("vote")["Class"].value_counts().to_dict() == {"democrat": 267,
                                                                   "republican": 168}
    assert load_arff("breast-cancer")["Class"].value_counts().to_dict() == {
        "no-recurrence-events": 201, "recurrence-events": 85}
    assert load_arff("weather.nominal")["play"].value_counts().to_dict() == {"yes": 9, "no": 5}


def test_arff_missing_per_column():
    vote = load_arff("vote")  # per vote column, UCI's house-votes-84 counts
    assert vote.isna().sum().tolist() == [12, 48, 11, 11, 15, 11, 14, 15, 22, 7, 21, 31, 25,
                                          17, 28, 104, 0]
    cancer = load_arff("breast-cancer").isna().sum()
    assert cancer[cancer > 0].to_dict() == {"node-caps": 8, "breast-quad": 1}


def test_arff_categories_in_declared_order():
    assert list(load_arff("contact-lenses")["age"].cat.categories) == [
        "young", "pre-presbyopic", "presbyopic"]
    assert list(load_arff("contact-lenses")["contact-lenses"].cat.categories) == [
        "soft", "hard", "none"]
    credit = load_arff("credit-g")
    assert list(credit["checking_status"].cat.categories) == [
        "<0", "0<=X<200", ">=200", "no checking"]  # quoted values with '<', '=' and spaces
    assert list(credit["employment"].cat.categories) == [
        "unemployed", "<1", "1<=X<4", "4<=X<7", ">=7"]
    assert list(load_arff("breast-cancer")["deg-malig"].cat.categories) == ["1", "2", "3"]
    soybean = load_arff("soybean")  # "{..., same-lst-two-yrs, same-lst-sev-yrs}": space dropped
    assert list(soybean["crop-hist"].cat.categories)[-1] == "same-lst-sev-yrs"
    assert len(soybean["class"].cat.categories) == 19
    assert list(load_arff("weather.nominal")["windy"].cat.categories) == ["TRUE", "FALSE"]
    assert list(load_arff("labor")["class"].cat.categories) == ["bad", "good"]


def test_arff_values():
    weather = load_arff("weather.nominal")  # Mitchell's table 3.2, days D1..D14 in order
    assert weather.iloc[0].tolist() == ["sunny", "hot", "high", "FALSE", "no"]
    assert weather.iloc[13].tolist() == ["rainy", "mild", "high", "TRUE", "no"]
    numeric = load_arff("weather.numeric")
    assert numeric["temperature"].tolist()[:3] == [85, 80, 83]
    assert numeric["humidity"].iloc[2] == 86  # Weka's value; Quinlan's golf.data has 78
    credit = load_arff("credit-g")  # first data line of the file
    assert credit.iloc[0].tolist() == [
        "<0", 6, "critical/other existing credit", "radio/tv", 1169, "no known savings", ">=7",
        4, "male single", "none", 4, "real estate", 67, "none", "own", 2, "skilled", 1, "yes",
        "yes", "good"]
    labor = load_arff("labor")  # "2,4.5,5.8,?,?,35,'ret_allw',?,?,'yes',11,..."
    assert labor.iloc[1, :3].tolist() == [2, 4.5, 5.8] and labor.iloc[1, 3:5].isna().all()
    assert labor.attrs["relation"] == "labor-neg-data"


ARFF_TEXT = """% a comment
@RELATION 'odd names'

@Attribute 'name with spaces' {'a b', "it's", plain}
@ATTRIBUTE size\tREAL
@attribute\t'quote\\'s' {'?', x}   % trailing comment
@attribute class {yes,no}

@DATA
% comment in the data
'a b', 1.5, '?', yes
"it's",?,x,no % comment after a row
plain , -2e3 ,?, no
"""


def test_read_arff_quoting_comments_and_case():
    frame = read_arff(io.StringIO(ARFF_TEXT))
    assert frame.attrs["relation"] == "odd names"
    assert list(frame.columns) == ["name with spaces", "size", "quote's", "class"]
    assert list(frame["name with spaces"].cat.categories) == ["a b", "it's", "plain"]
    assert frame["name with spaces"].tolist() == ["a b", "it's", "plain"]
    assert frame["size"].tolist()[0::2] == [1.5, -2000.0] and np.isnan(frame["size"][1])
    # a quoted '?' is the value "?", an unquoted ? is missing
    assert frame["quote's"].astype(object).tolist()[:2] == ["?", "x"]
    assert pd.isna(frame["quote's"][2])


@pytest.mark.parametrize("text, message", [
    ("@relation r\n@attribute a {x}\n@data\n{0 x}\n", "sparse"),
    ("@relation r\n@attribute a {x}\n@data\ny\n", "undeclared"),
    ("@relation r\n@attribute a {x}\n@attribute b {x}\n@data\nx\n", "1 values for 2"),
    ("@relation r\n@attribute a date\n@data\n", "type"),
    ("@relation r\n@attribute a {x}\n", "no @data"),
    ("@relation r\n@attribute a {x}\n@data\n'x\n", "unterminated"),
    ("@relation r\n@attribute 'a {x}\n@data\n", "unterminated"),
    ("@relation r\n@attribute a {x}\n@attribute a {y}\n@data\n", "declared twice"),
    ("@relation r\n@attribute a numeric\n@data\nten\n", "numeric attribute 'a'"),
])
def test_read_arff_rejects(text, message):
    with pytest.raises(ValueError, match=message):
        read_arff(io.StringIO(text))


def test_load_arff_bad_name():
    with pytest.raises(ValueError, match="weather.nominal"):
        load_arff("weather")  # the message lists the available names


@pytest.mark.parametrize("name", ARFF_DATASETS)
def test_arff_round_trips_through_the_writer(name, tmp_path):
    frame = load_arff(name)
    write_arff(frame, tmp_path / "copy.arff", relation=frame.attrs["relation"])
    copy = read_arff(tmp_path / "copy.arff")
    assert copy.equals(frame) and copy.attrs == frame.attrs
    assert all(copy[c].dtype == frame[c].dtype for c in frame)  # same categories, same order
