"""The README's first screen, followed as a newcomer would: clone, open the chapters in
JupyterLab, install the library and run its example.

Two steps are shortened, and only these: ``python3 tasks.py lab`` runs in this checkout, whose
``.venv`` the tests run in (in a clone it would install the same pinned requirements into a
second one), and the clone that ``pip install .`` installs from is made from this repository's
own history, not from GitHub. ``python3 tasks.py book`` is the build that tests/test_pages.py
makes and reads.
"""
from __future__ import annotations

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def test_tasks_lab_serves_a_chapter():
    if not (Path(sys.prefix) / "bin" / "jupyter-lab").exists():
        pytest.skip("JupyterLab is not installed in this environment (requirements.txt pins it)")
    port, token = _free_port(), "newcomer"
    lab = subprocess.Popen(
        [sys.executable, "tasks.py", "lab", "--no-browser", f"--port={port}",
         f"--IdentityProvider.token={token}"], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
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
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([python, "-c", example], cwd=tmp_path, env=env, capture_output=True,
                          text=True, check=True)
    where = subprocess.run([python, "-c", "import dtree; print(dtree.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert str(environment) in where  # the installed copy ran, not the checkout
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("|") for line in lines), done.stdout
    assert lines[0].startswith("|--- texture")
