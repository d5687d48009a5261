"""The README's first screen, followed as a newcomer would: clone, build the book, open the
chapters in JupyterLab, install the library and run its example.

Each step runs in a ``git clone`` of this repository (its committed files: the clone is made from
this repository's own history, not from GitHub), with two shortcuts that keep CI's time:

- the clone's ``.venv`` is the environment the tests run in (a link to it), if tasks.py made it
  from the very requirements the clone has (its stamp says so; otherwise the tests that need it
  skip): ``python3 tasks.py`` in the clone then installs nothing, as it would not on a second
  run; the clone's ``_vendor`` (MathJax and the widget scripts) links to this checkout's, so
  nothing is fetched;
- ``python3 tasks.py book`` builds both editions, some minutes: in the clone it runs only with
  ``DTREE_NEWCOMER_BOOK=1``. Without it the step is covered twice elsewhere: tests/test_pages.py
  builds the same sources with the same two builds (``jupyter-book build``, then
  ``tasks.build_chinese``) with warnings as errors, and the Book workflow
  (.github/workflows/pages.yml, tests/test_workflows.py) runs exactly ``python3 tasks.py book``
  in a fresh checkout on every push to main.

``python3 tasks.py lab`` starts in the clone and serves the clone's chapters; ``pip install .``
installs the clone into a new environment, where the README's example runs.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
FIRST_SCREEN = README[:README.index("\n## ")]  # everything above the first section


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", FIRST_SCREEN, re.DOTALL)


def commands() -> list[str]:
    return [line.split("#")[0].strip() for block in blocks("bash")
            for line in block.splitlines() if line.strip()]


def test_the_first_screen_says_how_to_read_run_install_and_test():
    assert commands() == [
        "git clone https://github.com/dtree-book/dtree && cd dtree",
        "python3 tasks.py book", "python3 tasks.py lab",
        'pip install "dtree-book @ git+https://github.com/dtree-book/dtree"']
    for badge in ("actions/workflows/ci.yml", "mybinder.org", "colab.research.google.com",
                  "LICENSE", "dtree-book.github.io/dtree/"):
        assert badge in FIRST_SCREEN, badge
    assert "python3 tasks.py test" in README[:README.index("## Contents")]


def test_the_contents_list_every_chapter():
    table = README[README.index("## Contents"):README.index("## Reading and running")]
    listed = re.findall(r"^\| (\d+) ([^|]+?) \|", table, re.MULTILINE)
    chapters = sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb"))
    titles = []
    for chapter in chapters:
        cells = json.loads(chapter.read_text())["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        titles.append(re.search(r"^# (.+)$", text, re.MULTILINE).group(1))
    assert listed == [(str(int(c.name[:2])), t) for c, t in zip(chapters, titles)]


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and this repository's history")
    target = tmp_path_factory.mktemp("newcomer") / "dtree"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


@pytest.fixture(scope="module")
def prepared(clone) -> Path:
    """The clone, whose ``python3 tasks.py`` finds its environment made and its scripts
    fetched: ``.venv`` links to the tests' own environment, if tasks.py made it from the
    clone's requirements, and ``_vendor`` to this checkout's."""
    environment = Path(sys.prefix)
    stamp = environment / "requirements.sha256"
    wanted = hashlib.sha256((clone / "requirements.txt").read_bytes()
                            + (clone / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != wanted:
        pytest.skip(f"the tests do not run in a .venv that tasks.py made from the committed "
                    f"requirements ({stamp} does not match them)")
    (clone / ".venv").symlink_to(environment, target_is_directory=True)
    if (ROOT / "_vendor").is_dir():
        (clone / "_vendor").symlink_to(ROOT / "_vendor", target_is_directory=True)
    return clone


def python3() -> str:
    """The README's ``python3``: the one on the PATH (tasks.py itself uses ``.venv``)."""
    return shutil.which("python3") or sys.executable


def newcomer() -> dict[str, str]:
    """The environment of a newcomer's shell: no PYTHONPATH pointing at a checkout."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def test_tasks_book_in_the_clone(prepared):
    if os.environ.get("DTREE_NEWCOMER_BOOK") != "1":
        pytest.skip("DTREE_NEWCOMER_BOOK=1 builds the book in the clone (minutes); the page "
                    "test builds the same sources and the Book workflow runs this command on a "
                    "fresh checkout (this module's docstring)")
    done = subprocess.run([python3(), "tasks.py", "book"], cwd=prepared, env=newcomer(),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for page in ("index.html", "book/02_growing_a_tree.html", "zh/book/02_growing_a_tree.html"):
        assert (prepared / "_build" / "html" / page).is_file(), page


def test_tasks_lab_serves_a_chapter(prepared):
    if not (Path(sys.prefix) / "bin" / "jupyter-lab").exists():
        pytest.skip("JupyterLab is not installed in this environment (requirements.txt pins it)")
    # a file only the clone has: the server must show the clone's chapters
    (prepared / "book" / "only_in_the_clone.md").write_text("# newcomer\n")
    port, token = _free_port(), "newcomer"
    lab = subprocess.Popen(
        [python3(), "tasks.py", "lab", "--no-browser", f"--port={port}",
         f"--IdentityProvider.token={token}"], cwd=prepared, env=newcomer(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                chapter = json.loads(_get(f"{base}/api/contents/02_growing_a_tree.ipynb"
                                          f"?token={token}"))
                break
            except OSError:
                assert lab.poll() is None, "python3 tasks.py lab exited"
                assert time.monotonic() < deadline, "JupyterLab did not answer within 120 s"
                time.sleep(1)
        assert chapter["type"] == "notebook"
        assert any("# Growing a tree" in "".join(cell["source"])
                   for cell in chapter["content"]["cells"])
        listed = json.loads(_get(f"{base}/api/contents/?token={token}"))["content"]
        assert "only_in_the_clone.md" in [item["name"] for item in listed]
        assert b"JupyterLab" in _get(f"{base}/lab?token={token}")
        kernels = json.loads(_get(f"{base}/api/kernelspecs?token={token}"))
        assert "python3" in kernels["kernelspecs"]
    finally:
        if lab.poll() is None:
            os.killpg(lab.pid, signal.SIGTERM)
            lab.wait(timeout=30)


def test_pip_install_then_the_example_runs(clone, tmp_path):
    # a new environment that sees the pinned dependencies (this environment's site-packages,
    # read through a .pth file, which does not run the editable install's hook) but not dtree
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    own, = environment.glob("lib/python*/site-packages")
    dependencies, = Path(sys.prefix).glob("lib/python*/site-packages")
    (own / "dependencies.pth").write_text(f"{dependencies}\n")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed",
                    "."], cwd=clone, check=True)  # its build backend comes from the index
    shipped = (clone / "dtree_book.egg-info" / "SOURCES.txt").read_text().split()
    assert "dtree/tree.py" in shipped and not [f for f in shipped if f.startswith("tests/")]
    example, = blocks("python")
    env = newcomer()
    done = subprocess.run([python, "-c", example], cwd=tmp_path, env=env, capture_output=True,
                          text=True, check=True)
    where = subprocess.run([python, "-c", "import dtree; print(dtree.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert str(environment) in where  # the installed copy ran, not the checkout
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("|") for line in lines), done.stdout
    assert lines[0].startswith("|--- texture")
