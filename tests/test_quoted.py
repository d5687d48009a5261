"""The code the book quotes is marked where it lives: every function or method a chapter shows
with ``literalinclude`` carries ``# quoted in chapter N`` on the line above it (its decorators),
and no function carries the mark unless a chapter quotes it. Whoever changes a marked function
knows which page shows it, and reads that page again."""
from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"```\{literalinclude\} \.\./dtree/(\w+\.py)\n"
                     r"(?::[^\n]*\n)*?:pyobject: ([\w.]+)")
MARK = re.compile(r"#\s*quoted in chapters? ([\d, and]+)$")


def _quotes() -> dict[tuple[str, str], set[int]]:
    """(module file, qualified name) -> the numbers of the chapters that quote it."""
    quoted = defaultdict(set)
    for page in sorted((ROOT / "book").glob("[0-9][0-9]_*")):
        if page.suffix == ".ipynb":
            text = "\n".join("".join(cell["source"]) for cell in
                             json.loads(page.read_text(encoding="utf-8"))["cells"])
        else:
            text = page.read_text(encoding="utf-8")
        for module, name in INCLUDE.findall(text):
            quoted[module, name].add(int(page.name[:2]))
    return dict(quoted)


def _marks() -> dict[tuple[str, str], set[int]]:
    """(module file, qualified name) -> the chapters named by its ``# quoted in`` mark."""
    marked = {}
    for path in sorted((ROOT / "dtree").glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()

        def visit(node, prefix=""):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                    found = MARK.search(lines[first - 2].strip()) if first >= 2 else None
                    if found:
                        marked[path.name, prefix + child.name] = {
                            int(n) for n in re.findall(r"\d+", found.group(1))}
                    if isinstance(child, ast.ClassDef):
                        visit(child, prefix + child.name + ".")

        visit(ast.parse("\n".join(lines)))
    return marked


def test_the_book_quotes_code():
    assert len(_quotes()) >= 10, "the pattern no longer finds the chapters' literalincludes"


def test_every_quoted_function_is_marked_with_its_chapters():
    quotes, marks = _quotes(), _marks()
    wrong = {f"{module}:{name}": (sorted(quotes.get((module, name), ())),
                                  sorted(marks.get((module, name), ())))
             for module, name in {*quotes, *marks}
             if quotes.get((module, name)) != marks.get((module, name))}
    assert not wrong, ("(quoted by chapters, marked as quoted in) differ; put "
                       f"'# quoted in chapter N' above each quoted function: {wrong}")
