#!/usr/bin/env python3
"""The project's tasks, runnable on a fresh machine with nothing but python3.

    python3 tasks.py book        build the book into _build/html, its Chinese edition into
                                 _build/html/zh
    python3 tasks.py translations [book/NN_x ...]
                                 update the Chinese catalogs (locales/zh_CN) from the English
                                 prose (and start those of the pages named); list the messages
                                 that need a translator
    python3 tasks.py test        ruff check, unit tests, every chapter under nbval, and the page
                                 test: a book build into _build/html with warnings as errors,
                                 every page read (and the Chinese edition's translated pages)
    python3 tasks.py notebooks [book/NN_x.ipynb ...]
                                 re-execute every chapter (or those named) in place; commit them
    python3 tasks.py screenshots [path/to/_build/html]
                                 build the book (or take the given build) and photograph every
                                 page with headless Chromium at desktop and phone width, light
                                 and dark, into _build/screenshots (next to the html folder)
    python3 tasks.py colab [book/NN_x.ipynb ...]
                                 run every chapter (or those named) as on Colab: under nbclient,
                                 in a virtual environment (_build/colab-venv) with only numpy,
                                 pandas, scikit-learn, matplotlib, ipykernel and the library as
                                 the setup cell installs it, no R or Java on the PATH
    python3 tasks.py lab [jupyter lab options ...]
                                 open JupyterLab on the chapters (book/), to run and change them
    python3 tasks.py pdf         print each edition to PDF (_build/pdf) with headless Chromium
    python3 tasks.py bench       time dtree against scikit-learn and Weka J48
    python3 tasks.py clean       remove build output

Every task first creates (or reuses) the virtual environment ``.venv`` and installs the pinned
``requirements.txt`` into it; a changed requirements file is reinstalled automatically.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
CHAPTERS = sorted((ROOT / "book").glob("*.ipynb"))
# Notebook kernels draw with the inline backend, so figures are stored as PNG, whatever
# MPLBACKEND the user's environment sets (a kernel keeps an MPLBACKEND it inherits).
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def run(*args: object, env: dict[str, str] | None = None) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.call([str(a) for a in args], cwd=ROOT, env=env)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (this runs on whatever python3 the user has)
        sys.exit(f"Python 3.11 or newer is needed (the pinned numpy, pandas and scikit-learn "
                 f"require it); this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        print(f"creating virtual environment {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    wanted = hashlib.sha256(
        (ROOT / "requirements.txt").read_bytes() + (ROOT / "pyproject.toml").read_bytes()
    ).hexdigest()
    stamp = VENV / "requirements.sha256"
    if stamp.exists() and stamp.read_text() == wanted:
        return
    for step in (("--upgrade", "pip"), ("-r", "requirements.txt")):
        if run(PYTHON, "-m", "pip", "install", "--quiet", *step) != 0:
            sys.exit("installing the requirements failed")
    stamp.write_text(wanted)


#: The scripts the book serves itself, so that no page loads one from the web: (folder, npm
#: registry tarball, the registry's sha512 of it, the tarball's folder to unpack, the files of
#: that folder to keep). They are unpacked into _vendor/_static/<folder> (not in git), which
#: the build copies into its _static (``html_extra_path`` in _config.yml): jupyter-book would
#: load every .js file of the book's own _static folder on every page. MathJax 4 typesets the
#: formulas (``mathjax_path`` and ``mathjax3_config`` in _config.yml): its combined component
#: with the extensions it loads on demand, and its default font (woff2 files, data of rarer
#: characters), which it finds next to its own folder. require.js and the Jupyter widgets'
#: embed-amd.js (with its icon fonts) render chapter 11's saved widget (``nb_ipywidgets_js``).
#: html-manager 1.0.15 is built from the widget packages ipywidgets 8.1.9 ships
#: (@jupyter-widgets/controls 5.0.13, base 6.0.12); npm's requirejs has no minified require.js.
STATIC_JS = (
    ("mathjax", "https://registry.npmjs.org/mathjax/-/mathjax-4.1.3.tgz",
     "BN/8Pkgn7G1pIDYJqd9md+JHsE/jydSYbyOZnSdSA0WziuVO8mRxdYiWFumkVVly/8U+hm9DpIIoWuvySverzw==",
     "package/", ("tex-mml-chtml.js", "a11y/*", "input/*", "output/*", "ui/*", "sre/*",
                  "LICENSE")),
    ("mathjax-newcm-font",
     "https://registry.npmjs.org/@mathjax/mathjax-newcm-font/-/mathjax-newcm-font-4.1.3.tgz",
     "gzAB3dFHilHX1l5x2xUqRL+1jDQt3Fyza1DkEMVXWC4E8SvsGdlgEza47HYi2WhVcgfkvf4zgUGzuhbq3Pjlew==",
     "package/", ("chtml.js", "chtml/*")),
    ("requirejs", "https://registry.npmjs.org/requirejs/-/requirejs-2.3.8.tgz",
     "7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
     "package/", ("require.js",)),
    ("ipywidgets",
     "https://registry.npmjs.org/@jupyter-widgets/html-manager/-/html-manager-1.0.15.tgz",
     "5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
     "package/dist/", ("embed-amd.js", "*.eot", "*.svg", "*.ttf", "*.woff", "*.woff2")),
)
VENDOR = ROOT / "_vendor"


def ensure_static_js(static: Path = VENDOR / "_static") -> None:
    """Unpack each package of STATIC_JS into its folder of ``static``, unless that folder holds
    this very tarball's files already (a stamp named after the tarball says so). Without a
    network the book still builds; its formulas then show as TeX and its widget does not draw."""
    import fnmatch
    import io
    import tarfile
    import urllib.request

    # an earlier version unpacked MathJax into the book's own _static, whose every .js file
    # jupyter-book loads on every page: that copy, never in git, goes
    shutil.rmtree(ROOT / "_static" / "mathjax", ignore_errors=True)
    for folder, url, integrity, prefix, keep in STATIC_JS:
        target, stamp = static / folder, static / folder / f".{url.rsplit('/', 1)[1]}"
        if stamp.exists():
            continue
        print(f"fetching {url} into {target}", flush=True)
        try:
            data = urllib.request.urlopen(url, timeout=60).read()
        except OSError as error:
            print(f"could not fetch it ({error}): the book will miss it")
            continue
        if base64.b64encode(hashlib.sha512(data).digest()).decode() != integrity:
            sys.exit(f"{url} does not match its sha512 integrity")
        shutil.rmtree(target, ignore_errors=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            members = [m for m in archive.getmembers() if m.isfile()
                       and m.name.startswith(prefix)
                       and any(fnmatch.fnmatch(m.name.removeprefix(prefix), pattern)
                               for pattern in keep)]
            for member in members:
                member.name = member.name.removeprefix(prefix)
            archive.extractall(target, members=members, filter="data")
        stamp.write_text(integrity)


def build_book() -> int:
    status = run(BIN / "jupyter-book", "build", ".") or build_chinese(ROOT)
    if status == 0:
        print(f"\nThe book is at {ROOT / '_build' / 'html' / 'index.html'}, its Chinese "
              f"edition at {ROOT / '_build' / 'html' / 'zh' / 'index.html'}")
    return status


#: The pages of the Chinese edition whose prose is translated: each has a complete catalog,
#: locales/zh_CN/LC_MESSAGES/<page>.po, which tests/test_translation.py checks. The other
#: pages of the Chinese edition show the English prose. Add a page once its catalog is done.
TRANSLATED = ("book/index", "book/01_preface", "book/02_growing_a_tree", "book/03_impurity",
              "book/04_id3", "book/05_c45", "book/06_missing_values", "book/07_cart",
              "book/08_pre_pruning", "book/09_reduced_error_pruning",
              "book/10_cost_complexity_pruning", "book/11_pessimistic_pruning",
              "book/12_case_studies", "book/13_beyond_one_tree", "book/14_boosting",
              "book/15_rules_probabilities", "book/api", "book/errata", "book/glossary",
              "book/bibliography")
CATALOGS = ROOT / "locales" / "zh_CN" / "LC_MESSAGES"


def build_chinese(output: Path, *flags: str) -> int:
    """The Chinese edition into <output>/_build/html/zh: the same sources and stored outputs
    (nothing is executed), the prose from the catalogs (Sphinx's gettext), the theme's and the
    extensions' strings through ``language = "zh_CN"``. Its doctrees are its own (in
    <output>/_build/zh): Sphinx translates a page while reading it."""
    config, built = output / "_build" / "_config.zh.yml", output / "_build" / "zh"
    status = (run(PYTHON, __file__, "_chinese_config", config)
              or run(BIN / "jupyter-book", "build", ROOT, "--config", config, "--path-output",
                     built, *flags))
    if status == 0:
        shutil.rmtree(output / "_build" / "html" / "zh", ignore_errors=True)
        shutil.copytree(built / "_build" / "html", output / "_build" / "html" / "zh")
    return status


def glossary_words(glossary: str) -> list[str]:
    """The Chinese terms of the glossary's tables (book/glossary.md), for the search's word
    list: each run of two or more Chinese characters in a row's Chinese cells (the English
    column and the header row left out), except the seeds' phrases quoted beside a term,
    those with 的 or longer than eight characters ("树结构的剧烈改变", "信息增益高于平均水平"):
    jieba keeps a word of its list whole, so a phrase would hide the terms inside it."""
    import re

    words = []
    for line in glossary.splitlines():
        cells = line.strip().strip("|").split("|")
        if not line.startswith("|") or line.startswith("|---") or cells[0].strip() == "English":
            continue
        for cell in cells[1:]:
            words += [word for word in re.findall(r"[\u4e00-\u9fff]{2,}", cell)
                      if len(word) <= 8 and "的" not in word and word not in words]
    return words


def _chinese_config(path: str) -> int:
    """Runs inside .venv: _config.yml with the Chinese edition's title, language and catalogs."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config["title"] = "决策树：每个数都算出来"
    # the theme and sphinx-proof/sphinx-exercise translate their own strings for zh_CN; these
    # three are jupyter-book's and myst-nb's, in English whatever the language
    config["sphinx"]["config"].update(
        language="zh_CN", locale_dirs=[str(CATALOGS.parent.parent)],
        html_theme_options={"search_bar_text": "搜索本书……"},
        nb_code_prompt_show="显示代码", nb_code_prompt_hide="隐藏代码")
    # the search index in Chinese words: Sphinx's Chinese search (sphinx.search.zh) cuts the
    # text with jieba, which keeps the glossary's terms whole once they are in its dictionary
    words = Path(path).resolve().with_name("search_words.zh.txt")
    words.parent.mkdir(parents=True, exist_ok=True)
    words.write_text("".join(f"{word}\n" for word in glossary_words(
        (ROOT / "book" / "glossary.md").read_text(encoding="utf-8"))), encoding="utf-8")
    config["sphinx"]["config"].update(html_search_language="zh",
                                      html_search_options={"dict": str(words)})
    config["sphinx"]["local_extensions"]["search_zh"] = "locales/"  # the index in linear time
    # translated nodes that kept a document holding the environment made each doctree 6 MB
    config["sphinx"]["local_extensions"]["translated_nodes"] = "locales/"
    config["sphinx"]["recursive_update"] = True  # keep jupyter-book's other theme options
    # the labels (issue 34): computed and verify tables through one English -> Chinese map
    # (locales/localise.py), citation labels in the zh style (locales/bibliography_zh.py),
    # the theme's buttons and footer in mainland Chinese
    config["author"] = "dtree 的作者们"
    config["sphinx"]["local_extensions"]["localise"] = "locales/"
    config["sphinx"]["config"].update(
        bibtex_reference_style="author_year_zh",
        templates_path=[str(ROOT / "locales" / "zh_CN" / "_templates")])
    # jupyter-book takes the extensions' folders relative to the configuration file
    config["sphinx"]["local_extensions"] = {
        name: str(ROOT / folder) for name, folder in config["sphinx"]["local_extensions"].items()}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False),
                          encoding="utf-8")
    return 0


def gettext_templates(output: Path) -> Path:
    """Extract the translatable messages of every page into <output>/_build/gettext/<page>.pot
    (Sphinx's gettext builder); return that folder. It reads the pages itself: Sphinx reads
    them differently for gettext (it marks the translatable nodes and keeps placeholders that
    every other builder removes while reading, ``RemoveTranslatableInline``), and refuses an
    html build's doctrees ("This environment is incompatible with the selected builder")."""
    if run(BIN / "jupyter-book", "build", ROOT, "--path-output", output, "--builder", "custom",
           "--custom-builder", "gettext", "--all", "-q") != 0:
        sys.exit("extracting the messages failed")
    return output / "_build" / "gettext"


def add_printed(template, name: str):
    """A page's template with the lines its chapter prints (its stored outputs) as messages of
    context ``localise.PRINTED``, each with the first line printed as a comment for the
    translator (locales/localise.py); a page that is no notebook has none."""
    notebook = ROOT / f"{name}.ipynb"
    if notebook.exists():
        sys.path.insert(0, str(ROOT / "locales"))
        import localise

        for message, line in localise.printed_messages(
                json.loads(notebook.read_text(encoding="utf-8"))).items():
            template.add(message, context=localise.PRINTED, auto_comments=[f"printed: {line}"])
    return template


def needs_translation(source: str) -> bool:
    """Whether a message has prose to translate: a letter outside its math ($...$), code
    (`...`) and role targets ({cite}`key`, the <label> of {ref}`text <label>`, whose text is
    prose). "000", "2, 3, 4", "$g(t)$" or "{doc}`03_impurity`" need none."""
    import re

    prose = re.sub(r"\{[\w:-]+\}`([^`<]*)<[^`>]*>`", r"\1", source)
    prose = re.sub(r"\{[\w:-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", "", prose, flags=re.S)
    return re.search(r"[^\W\d_]", prose) is not None


def translations(*pages: str) -> int:
    return run(PYTHON, __file__, "_translations", *pages)


def _undated(po: bytes) -> bytes:
    """A catalog without the creation date of its template, which every extraction renews."""
    return b"\n".join(line for line in po.split(b"\n")
                      if not line.startswith(b'"POT-Creation-Date:'))


def _translations(*pages: str) -> int:
    """Runs inside .venv: merge each catalog (those of TRANSLATED, those that exist, and those of
    ``pages``, created) with its page's messages as the English has them now, its prose and the
    lines its stored outputs print (:func:`add_printed`) (babel: a changed
    message keeps its old translation marked fuzzy, a removed one goes), then list what needs a
    translator: every empty or fuzzy message of the translated pages, and a count for the rest."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    with tempfile.TemporaryDirectory() as tmp:
        templates = gettext_templates(Path(tmp))
        names = {*TRANSLATED, *(p.removesuffix(".ipynb").removesuffix(".md") for p in pages),
                 *(str(po.relative_to(CATALOGS).with_suffix("")) for po in CATALOGS.rglob("*.po"))}
        for name in sorted(names):
            if not (templates / f"{name}.pot").exists():
                sys.exit(f"{name} is not a page of the book (_toc.yml)")
            with (templates / f"{name}.pot").open("rb") as file:
                template = add_printed(read_po(file), name)
            path = CATALOGS / f"{name}.po"
            catalog = Catalog(locale="zh_CN", fuzzy=False)
            if path.exists():
                with path.open("rb") as file:
                    catalog = read_po(file, locale="zh_CN")
            catalog.update(template)
            catalog.header_comment = (f"# The Chinese edition of {name}: python3 tasks.py "
                                      "translations updates it (README.md, 中文版).")
            catalog.project, catalog.version = "Decision Trees, Computed", "1"
            catalog.copyright_holder = catalog.last_translator = "the dtree authors"
            catalog.msgid_bugs_address = "https://github.com/dtree-book/dtree/issues"
            catalog.language_team = "zh_CN"
            text = io.BytesIO()
            write_po(text, catalog, width=0, ignore_obsolete=True, sort_output=False)
            if not path.exists() or _undated(path.read_bytes()) != _undated(text.getvalue()):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text.getvalue())  # a new date only with new messages
            todo = [m for m in catalog if m.id and needs_translation(m.id)
                    and (not m.string or m.fuzzy)]
            print(f"{path.relative_to(ROOT)}: {len(todo)} of {len(catalog)} messages need a "
                  f"translator" + ("" if name in TRANSLATED else " (not a translated page yet)"))
            if name in TRANSLATED:
                for message in todo:
                    print(f"  {'fuzzy' if message.fuzzy else 'new'}: {message.id[:100]}")
    return 0


def precompile(python: Path = PYTHON) -> int:
    """Compile dtree's kernels into this installation's cache, once (dtree.jit.precompile): the
    chapters executed after it then show no compile message and wait for none."""
    return run(python, "-c", "import dtree.jit; dtree.jit.precompile()")


def book() -> int:
    return precompile() or build_book()


def test() -> int:
    """ruff check, then pytest over tests/ and book/. tests/test_pages.py builds the book with
    warnings as errors into _build/html (DTREE_BOOK_OUTPUT) and reads every page; that build is
    one of its tests."""
    print("== ruff check (pyproject.toml [tool.ruff])", flush=True)
    lint = run(PYTHON, "-m", "ruff", "check", "--no-cache")
    print("== unit tests, every chapter under nbval, the book build and its pages", flush=True)
    # the chapters' kernels inherit Agg: their setup cell must switch to inline (conftest.py)
    env = {"DTREE_BOOK_OUTPUT": str(ROOT), **os.environ, "MPLBACKEND": "Agg"}
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        tests = precompile() or run(PYTHON, "-m", "pytest", *_workers(), "--nbval",
                                    "--nbval-current-env", "--nbval-cell-timeout=600",
                                    f"--junitxml={report}", "tests", "book", env=env)
        counts = _counts(report)
    index = Path(env["DTREE_BOOK_OUTPUT"]) / "_build" / "html" / "index.html"
    if index.exists():
        print(f"\nThe book it checked is at {index}")
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"
          + ("; ruff check failed" if lint else ""))
    return 1 if lint or tests or counts["failed"] or not counts["passed"] else 0


def _workers() -> list[str]:
    """pytest-xdist's options: a worker per core, at most 4 (each may run a chapter's kernel and
    the page test's Chromium). ``--dist loadscope`` keeps a chapter's cells, and a test module's
    tests (the page test's one book build), in one worker and in order."""
    cores = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                else os.cpu_count() or 1)
    return ["-n", str(cores), "--dist", "loadscope"] if cores > 1 else []


def _counts(junit_report: Path) -> dict[str, int]:
    """Passed, failed (failures and errors) and skipped tests from pytest's JUnit XML report."""
    if not junit_report.exists():
        return {"passed": 0, "failed": 1, "skipped": 0}
    suite = ElementTree.parse(junit_report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    total, skipped = int(suite.get("tests")), int(suite.get("skipped"))
    failed = int(suite.get("failures")) + int(suite.get("errors"))
    return {"passed": total - failed - skipped, "failed": failed, "skipped": skipped}


def notebooks(*paths: str) -> int:
    return precompile() or run(PYTHON, __file__, "_execute", *paths)


def _execute(*paths: str) -> int:
    """Runs inside the virtual environment: execute each chapter and store its outputs."""
    import nbformat
    from nbclient import NotebookClient

    os.environ["MPLBACKEND"] = INLINE_BACKEND  # inherited by the kernels
    for path in [Path(p).resolve() for p in paths] or CHAPTERS:
        print(f"executing {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}",
              flush=True)
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = _merged_streams(cell.outputs)
        nbformat.write(nb, path)
    return 0


def _merged_streams(outputs: list) -> list:
    """Join consecutive prints to the same stream, so stored outputs do not depend on how the
    kernel happened to flush them."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None
                and previous.output_type == "stream" and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


#: What Colab's Python has, pinned as in requirements.txt; a chapter's setup cell adds the library
COLAB = ("numpy", "pandas", "scikit-learn", "matplotlib", "ipykernel")
COLAB_VENV = ROOT / "_build" / "colab-venv"


def colab(*paths: str) -> int:
    """Run every chapter (or those named) under nbclient as on Colab: in a virtual environment
    with only COLAB and what the setup cell installs (dtree-book from this checkout, with its
    dependencies), no R, Java or C5.0 on the PATH, no MPLBACKEND. Nothing is written back."""
    python = COLAB_VENV / BIN.name / "python"
    if not python.exists():
        venv.create(COLAB_VENV, with_pip=True)
    with tempfile.TemporaryDirectory() as tmp:
        pins = Path(tmp) / "pins.txt"  # requirements.txt's exact versions, as constraints
        pins.write_text("\n".join(line for line in (ROOT / "requirements.txt").read_text()
                                  .splitlines() if "==" in line))
        if (run(python, "-m", "pip", "install", "--quiet", "-c", pins, *COLAB, ROOT) or
                run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall",
                    ROOT)):
            sys.exit("installing the minimal environment failed")
    return run(PYTHON, __file__, "_colab_execute", python, *paths)  # the setup cell compiles


def _colab_execute(python: str, *paths: str) -> int:
    """Runs inside .venv: each chapter on a kernel of ``python``, whose PATH lacks the folders
    that hold R, Rscript, java, weka or c5.0; prints each chapter's outcome."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    hidden = ("Rscript", "R", "java", "weka", "c5.0")
    os.environ["PATH"] = os.pathsep.join(
        [str(Path(python).parent)] + [folder for folder in os.environ["PATH"].split(os.pathsep)
                                      if not any((Path(folder) / p).exists() for p in hidden)])
    assert not any(shutil.which(program) for program in hidden), os.environ["PATH"]
    for name in ("MPLBACKEND", "PYTHONPATH", "DTREE_REQUIRE_REFERENCES", "C50"):
        os.environ.pop(name, None)
    failed = []
    with tempfile.TemporaryDirectory() as jupyter:
        spec = Path(jupyter) / "kernels" / "colab"
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Colab-like", "language": "python"}))
        os.environ["JUPYTER_PATH"] = jupyter
        for path in [Path(p).resolve() for p in paths] or CHAPTERS:
            start = time.perf_counter()
            nb = nbformat.read(path, as_version=4)
            try:
                NotebookClient(nb, timeout=600, kernel_name="colab",
                               resources={"metadata": {"path": str(path.parent)}}).execute()
                outcome = _without_references(nb)
                if outcome.startswith("FAILED"):
                    failed.append(path.name)
            except CellExecutionError as error:
                failed.append(path.name)
                outcome = f"FAILED: {error.ename}: {error.evalue}"
            except CellTimeoutError:
                failed.append(path.name)
                outcome = "FAILED: a cell ran longer than 600 s"
            print(f"{path.name}: {outcome} ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{len(failed)} chapter(s) failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


#: the programs a chapter may run that Colab lacks: the call in a cell, the program's name, and
#: what the call prints where the program is missing, before it shows the stored output
STORED_OUTPUTS = (("run_r(", "R", "Rscript is not installed here"),
                  ("run_c50(", "C5.0", "C5.0 is not installed here"))


def _without_references(nb) -> str:
    """How an executed chapter ran without R and C5.0: a chapter whose cells call ``run_r``
    (``run_c50``) must have said, as it showed the program's stored output (rpart's,
    partykit's; C5.0's), that the program is missing (and its asserts, which compare dtree
    with that output, passed: it ran to its end)."""
    code = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    printed = "".join(output.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                      for output in cell.outputs if output.output_type == "stream")
    shown = []
    for call, program, notice in STORED_OUTPUTS:
        if call in code:
            if notice not in printed:
                return f"FAILED: it calls {call[:-1]} but did not show {program}'s stored output"
            shown.append(f", with {program}'s stored output")
    return "ran to its end" + "".join(shown)


def lab(*options: str) -> int:
    """JupyterLab (pinned in requirements.txt) on the book's chapters, after compiling dtree's
    kernels once, so that no chapter waits for numba; ``options`` go to ``jupyter lab``. As
    root (a container) it adds ``--allow-root``, without which Jupyter refuses to start."""
    as_root = ("--allow-root",) if hasattr(os, "geteuid") and os.geteuid() == 0 else ()
    return precompile() or run(BIN / "jupyter", "lab", f"--ServerApp.root_dir={ROOT / 'book'}",
                               *as_root, *options)


def bench() -> int:
    return run(PYTHON, ROOT / "benchmarks" / "bench_fit.py")


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--hide-scrollbars", "--remote-debugging-pipe")
WIDTHS = {"desktop": 1280, "phone": 420}


def screenshots(html: str | None = None) -> int:
    """Photograph every page of the book (built now, unless a built html folder is given) at
    desktop and phone width, in light and dark mode, at full page height, into
    <html>/../screenshots/<page>-<width>-<mode>.png."""
    if not shutil.which(CHROMIUM):
        sys.exit(f"screenshots need Chromium, which is not at {CHROMIUM}: install it (Debian: "
                 "apt-get install chromium) or set CHROMIUM to its path")
    if html is None and build_book() != 0:
        return 1
    html = Path(html).resolve() if html else ROOT / "_build" / "html"
    out = html.parent / "screenshots"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    pages = sorted(html.glob("book/*.html"))
    with tempfile.TemporaryDirectory() as profile:
        browser = _Chromium(profile)
        try:
            for page in pages:
                for width_name, width in WIDTHS.items():
                    for mode in ("light", "dark"):
                        png = out / f"{page.stem}-{width_name}-{mode}.png"
                        png.write_bytes(browser.screenshot(page.as_uri(), width, mode))
                        print(f"  {png}", flush=True)
        finally:
            browser.close()
    print(f"{4 * len(pages)} screenshots of {len(pages)} pages in {out}")
    return 0


#: The browser-side half of _Chromium.check: waits (at most 10 s) for the widget manager, if
#: the page loaded require.js for it, to draw each saved widget view, then reads the page.
_PAGE_CHECK = r"""(async () => {
  const views = document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]').length;
  const drawn = () => document.querySelectorAll('.widget-subarea > .jupyter-widgets').length;
  for (let i = 0; i < 100 && window.require && drawn() < views; i++) {
    await new Promise(done => setTimeout(done, 100));
  }
  const mathjax = Boolean(window.MathJax && MathJax.startup && MathJax.startup.document);
  const math = mathjax ? Array.from(MathJax.startup.document.math) : [];
  // a TeX error draws an merror; an undefined macro (MathJax's noundefined) draws its name in
  // red instead
  const errors = math.filter(m => m.typesetRoot).flatMap(m => [
    ...Array.from(m.typesetRoot.querySelectorAll('mjx-merror'),
                  e => e.getAttribute('data-mjx-error')),
    ...Array.from(m.typesetRoot.querySelectorAll('mjx-assistive-mml mtext[mathcolor="red"]'),
                  e => 'undefined ' + e.textContent)].map(error => m.math + ': ' + error));
  const around = (text, i) => text.slice(Math.max(0, i - 40), i + 40).replace(/\s+/g, ' ');
  const text = document.body.innerText;
  const raw = ['\\(', '\\[', '$$'].filter(d => text.includes(d))
    .map(d => around(text, text.indexOf(d)));
  // a TeX command in prose outside any formula: math that lost its delimiters (a section
  // title with a formula, quoted by a reference, shows as "Choosing \alpha by ...")
  const prose = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = prose.nextNode(); node; node = prose.nextNode()) {
    const command = node.textContent.search(/\\[a-zA-Z]+/);
    if (command >= 0 && !node.parentElement.closest(
        'pre, code, kbd, script, style, textarea, mjx-container, .math, .highlight')) {
      raw.push(around(node.textContent, command));
    }
  }
  return {mathjax, formulas: math.length,
          merror: document.querySelectorAll('mjx-merror').length, errors, raw,
          widgets: views, drawn: drawn(),
          remote: performance.getEntriesByType('resource').map(r => r.name)
            .filter(name => !name.startsWith('file:'))};
})()"""


#: The layout half of _Chromium.check, called with the window's width: the display formulas,
#: tables, figures and images of the text column (``article.bd-article``, or the body) that
#: pass its right edge (its content box, 1 px allowed), each as "tag: start of its text" (a
#: formula by its TeX). Below 600 px (a phone) an element may pass the edge inside a box that
#: scrolls sideways (overflow-x auto or scroll) and itself fits; and the page itself must not
#: scroll sideways: then the outermost elements past the window's edge are named too.
#: ``formulas`` lists every display formula past the edge, in a box that scrolls or not.
_LAYOUT_CHECK = r"""(async width => {
  await new Promise(done => requestAnimationFrame(() => setTimeout(done, 50)));
  const column = document.querySelector('article.bd-article') || document.body;
  const style = getComputedStyle(column);
  const edge = column.getBoundingClientRect().right - parseFloat(style.paddingRight)
    - parseFloat(style.borderRightWidth) + 1;
  const tex = new Map(window.MathJax && MathJax.startup && MathJax.startup.document
    ? Array.from(MathJax.startup.document.math, m => [m.typesetRoot, m.math]) : []);
  const name = e => e.tagName.toLowerCase() + ': ' + (tex.get(e) || e.getAttribute('alt')
    || e.textContent.trim() || e.getAttribute('src') || '').replace(/\s+/g, ' ').slice(0, 60);
  // a formula's container is as wide as the column; the formula is its mjx-math
  const right = e => ((e.matches('mjx-container') && e.querySelector('mjx-math')) || e)
    .getBoundingClientRect().right;
  const phone = width < 600;
  const scrolled = (e, limit) => {
    for (let box = e; box && box !== document.body; box = box.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)
          && box.getBoundingClientRect().right <= limit) return true;
    }
    return false;
  };
  // a fixed element (the theme's drawer, off-canvas on a phone) does not scroll the page
  const fixed = e => {
    for (let box = e; box; box = box.parentElement) {
      if (getComputedStyle(box).position === 'fixed') return true;
    }
    return false;
  };
  // every display formula past the edge, even in a box of its own that scrolls
  const formulas = Array.from(column.querySelectorAll('mjx-container[display]'))
    .filter(e => right(e) > edge);
  const found = [];
  const add = (e, limit) => {
    if (!found.some(f => f.contains(e)) && !(phone && scrolled(e, limit)) && !fixed(e)) {
      found.push(e);
    }
  };
  for (const e of column.querySelectorAll('mjx-container[display], table, figure, img')) {
    if (right(e) > edge) add(e, edge);
  }
  const scrollWidth = document.documentElement.scrollWidth;
  if (phone && scrollWidth > innerWidth) {
    // a formula counts as a whole (above): the parts of one MathJax broke into lines may
    // lie past its box, unseen
    for (const e of document.body.querySelectorAll('*')) {
      if (e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('mjx-container')) {
        add(e, innerWidth + 1);
      }
    }
  }
  const report = e => name(e) + ' (right edge ' + Math.round(right(e)) + ' px, column '
                     + Math.round(edge - 1) + ' px)';
  // a table cell of one short Chinese word (two to four characters) broken over two lines,
  // as 勘误 into 勘 and 误: the lines of its text start at more than one height
  const lines = cell => {
    const tops = new Set(), walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walk.nextNode(); text; text = walk.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    return tops.size;
  };
  const broken = Array.from(column.querySelectorAll('td, th'))
    .filter(c => /^[\u4e00-\u9fff]{2,4}$/.test(c.textContent.trim()) && lines(c) > 1)
    .map(c => c.tagName.toLowerCase() + ': ' + c.textContent.trim());
  return {scrollWidth, width: innerWidth, formulas: formulas.map(report),
          wide: found.map(report), broken};
})"""


class _Chromium:
    """Headless Chromium driven through the DevTools protocol on a pipe (it reads fd 3 and
    writes fd 4, one JSON message per NUL-terminated chunk); the protocol can photograph a
    whole page, which --screenshot (one window's height) cannot."""

    def __init__(self, profile: str, offline: bool = False):
        """``offline``: every host name fails to resolve, so a page gets only local files."""
        to_browser, self._writer = os.pipe()
        self._reader, from_browser = os.pipe()

        def use_pipes() -> None:
            """In the child: the pipe ends become fds 3 and 4 (through copies, in case one of
            them already is 3 or 4: dup2 onto itself would leave it closed on exec)."""
            reading, writing = os.dup(to_browser), os.dup(from_browser)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self._process = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             *(["--host-resolver-rules=MAP * ~NOTFOUND"] if offline else []), "about:blank"],
            preexec_fn=use_pipes, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer, self._last_id = b"", 0
        self._window = (None, None, None)  # width, height, phone, once _resize sets them
        target = self._send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self._send("Target.attachToTarget", targetId=target,
                                   flatten=True)["sessionId"]

    def _send(self, method: str, timeout: float = 60, **params) -> dict:
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params}
        if method.split(".")[0] not in ("Target", "Browser"):
            message["sessionId"] = self._session
        os.write(self._writer, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                if not select.select([self._reader], [], [], timeout)[0]:
                    raise TimeoutError(f"Chromium did not answer {method} in {timeout} s")
                chunk = os.read(self._reader, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium exited")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._last_id:  # events and other replies are not needed
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _evaluate(self, expression: str):
        result = self._send("Runtime.evaluate", expression=expression, awaitPromise=True,
                            returnByValue=True)
        return result["result"].get("value")

    def open(self, url: str) -> None:
        """Load ``url`` and wait for its fonts and for MathJax, if it loaded, to typeset."""
        self._evaluate("window.previousPage = true")  # gone once the new page has loaded
        self._send("Page.navigate", url=url)
        for _ in range(600):
            if self._evaluate("!window.previousPage && document.readyState == 'complete'"):
                break
            time.sleep(0.05)
        else:
            raise TimeoutError(f"{url} did not load in 30 s")
        self._evaluate("document.fonts.ready.then(() => (window.MathJax && MathJax.startup"
                       " ? MathJax.startup.promise : null)).then(() => true)")

    def check(self, url: str, widths: tuple[int, ...] = tuple(WIDTHS.values())) -> dict:
        """What a reader's browser made of the page at ``url``, loaded at each of ``widths``
        (first at the width the window has, if it is one of them): whether MathJax ran
        (``mathjax``), the formulas it typeset (``formulas``), its error elements
        (``merror``), each formula it could not typeset or whose macro it does not know, as
        "TeX: error" (``errors``), the raw TeX delimiters left in the visible text and the TeX
        commands in prose outside formulas and code (``raw``, with some context), the
        embedded widgets (``widgets``, their saved views) and how many of them drew
        (``drawn``), and every resource the page asked for that is not a local file
        (``remote``), all read at the first load; and the layout at each width (``layout``:
        width -> _LAYOUT_CHECK's report: ``scrollWidth``, ``width``, ``formulas``, ``wide``).
        The page loads once per width, as a phone and a desktop load it: MathJax lays a
        formula out for the column it finds when it typesets (its automatic line breaking,
        were it on, breaks a display formula for that width and not again on a resize).
        The window is a desktop's at every width (the book's viewport meta tag gives a phone
        the same layout width, and switching the phone emulation on and off doubles a
        resize's cost)."""
        seen = None
        for width in sorted(widths, key=lambda width: width != self._window[0]):
            self._resize(width, phone=False)
            self.open(url)
            if seen is None:
                seen = {**self._evaluate(_PAGE_CHECK), "layout": {}}
            seen["layout"][width] = self._evaluate(f"{_LAYOUT_CHECK}({width})")
        return seen

    def _resize(self, width: int, height: int = 900, phone: bool | None = None) -> None:
        """A window ``width`` CSS pixels wide, unless it is already; a phone's (mobile
        emulation) if ``phone``, by default below 600 px."""
        phone = width < 600 if phone is None else phone
        if (width, height, phone) != self._window:
            self._send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                       deviceScaleFactor=1, mobile=phone)
            self._window = width, height, phone

    def screenshot(self, url: str, width: int, mode: str) -> bytes:
        """PNG of the whole page at ``width`` CSS pixels, with prefers-color-scheme ``mode``."""
        self._resize(width)
        self._send("Emulation.setEmulatedMedia",
                   features=[{"name": "prefers-color-scheme", "value": mode}])
        self.open(url)
        # grow the window to the whole page and photograph the window (the protocol's
        # captureBeyondViewport can catch the first page of a fresh browser shifted sideways)
        height = self._send("Page.getLayoutMetrics")["cssContentSize"]["height"]
        self._resize(width, int(height))
        time.sleep(0.3)
        shot = self._send("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"])

    def pdf(self, url: str) -> bytes:
        """The page at ``url`` printed to PDF (A4, its print style sheet, backgrounds kept),
        once its fonts have loaded and MathJax has typeset every formula."""
        self._resize(WIDTHS["desktop"])
        self.open(url)
        printed = self._send("Page.printToPDF", timeout=600, paperWidth=8.27, paperHeight=11.69,
                             printBackground=True, marginTop=0.6, marginBottom=0.6,
                             marginLeft=0.6, marginRight=0.6)
        return base64.b64decode(printed["data"])

    def close(self) -> None:
        try:
            self._send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        self._process.wait(timeout=30)
        os.close(self._writer)
        os.close(self._reader)


def pdf() -> int:
    """The print edition: each edition's single-page html printed to _build/pdf by headless
    Chromium (:func:`print_editions`)."""
    if not shutil.which(CHROMIUM):
        sys.exit(f"the PDF needs Chromium, which is not at {CHROMIUM}: install it (Debian: "
                 "apt-get install chromium) or set CHROMIUM to its path")
    printed = print_editions(ROOT)
    for path in printed:
        print(f"  {path}")
    return 0 if printed else 1


def print_editions(output: Path) -> list[Path]:
    """Build each edition's single-page html (Sphinx's singlehtml builder, from the same sources
    and stored outputs as the book, reusing the doctrees of its html builds in ``output``) and
    print it to <output>/_build/pdf/dtree-book-<en|zh>.pdf, A4, with the formulas typeset by
    the book's own MathJax (no LaTeX; the Chinese needs a CJK font, fonts-noto-cjk) and the
    figures as the chapters store them, PNGs of twice the pixels shown (250 pixels an inch on
    paper; dtree.notebook.FIRST_CELL), the two at once in two offline browsers. Returns the two
    paths, or none if a build failed."""
    from concurrent.futures import ThreadPoolExecutor

    config = output / "_build" / "_config.zh.yml"
    if (run(BIN / "jupyter-book", "build", ROOT, "--builder", "singlehtml", "--path-output",
            output)
            or run(PYTHON, __file__, "_chinese_config", config)
            or run(BIN / "jupyter-book", "build", ROOT, "--builder", "singlehtml", "--config",
                   config, "--path-output", output / "_build" / "zh")):
        return []
    (output / "_build" / "pdf").mkdir(parents=True, exist_ok=True)

    def print_one(edition: str, built: Path) -> Path:
        # Sphinx writes the page to book/index.html (the root document's name) but with links
        # relative to the folder above, from where it is printed
        single = built / "_build" / "singlehtml"
        page = single / "print.html"
        shutil.copyfile(single / "book" / "index.html", page)
        target = output / "_build" / "pdf" / f"dtree-book-{edition}.pdf"
        with tempfile.TemporaryDirectory() as profile:
            browser = _Chromium(profile, offline=True)
            try:
                target.write_bytes(browser.pdf(page.as_uri()))
            finally:
                browser.close()
        return target

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(print_one, ("en", "zh"), (output, output / "_build" / "zh")))


def clean() -> int:
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    return 0


# the names with a leading underscore are internal: they run inside .venv
TASKS = {"book": book, "test": test, "notebooks": notebooks, "screenshots": screenshots,
         "bench": bench, "lab": lab, "pdf": pdf, "clean": clean, "venv": lambda: 0, "colab": colab,
         "translations": translations, "_execute": _execute, "_colab_execute": _colab_execute,
         "_chinese_config": _chinese_config, "_translations": _translations}

if __name__ == "__main__":
    name, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if name not in TASKS or args and name not in ("notebooks", "_execute", "screenshots", "colab",
                                                  "lab", "_colab_execute", "translations",
                                                  "_chinese_config", "_translations"):
        sys.exit(__doc__)
    if not name.startswith("_"):
        ensure_venv()
        ensure_static_js()
    sys.exit(TASKS[name](*args))
