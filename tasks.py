#!/usr/bin/env python3
"""The project's tasks, runnable on a fresh machine with nothing but python3.

    python3 tasks.py book        build the book into _build/html
    python3 tasks.py test        ruff check, unit tests, every chapter under nbval, and the page
                                 test: a book build into _build/html with warnings as errors,
                                 every page read
    python3 tasks.py notebooks [book/NN_x.ipynb ...]
                                 re-execute every chapter (or those named) in place; commit them
    python3 tasks.py screenshots [path/to/_build/html]
                                 build the book (or take the given build) and photograph every
                                 page with headless Chromium at desktop and phone width, light
                                 and dark, into _build/screenshots (next to the html folder)
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


#: MathJax 3, served from the book's own _static so that formulas typeset without a network:
#: the npm registry's tarball of this version, checked against the registry's sha512
MATHJAX = ("https://registry.npmjs.org/mathjax/-/mathjax-3.2.2.tgz",
           "Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==")
MATHJAX_DIR = ROOT / "_static" / "mathjax"  # not in git (.gitignore): fetched once


def ensure_mathjax() -> None:
    """Unpack MathJax's es5 bundle into _static/mathjax (``mathjax_path`` in _config.yml)."""
    import io
    import tarfile
    import urllib.request

    if (MATHJAX_DIR / "tex-mml-chtml.js").exists():
        return
    url, integrity = MATHJAX
    print(f"fetching MathJax 3 for the book: {url}", flush=True)
    try:
        data = urllib.request.urlopen(url, timeout=60).read()
    except OSError as error:
        print(f"could not fetch MathJax ({error}): the book's formulas will show as TeX")
        return
    if base64.b64encode(hashlib.sha512(data).digest()).decode() != integrity:
        sys.exit(f"{url} does not match its sha512 integrity")
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = [m for m in archive.getmembers()
                   if m.name.startswith("package/es5/") and m.isfile()]
        for member in members:
            member.name = member.name.removeprefix("package/es5/")
        archive.extractall(MATHJAX_DIR, members=members, filter="data")


def build_book() -> int:
    status = run(BIN / "jupyter-book", "build", ".")
    if status == 0:
        print(f"\nThe book is at {ROOT / '_build' / 'html' / 'index.html'}")
    return status


def book() -> int:
    return build_book()


def test() -> int:
    """ruff check, then pytest over tests/ and book/. tests/test_pages.py builds the book with
    warnings as errors into _build/html (DTREE_BOOK_OUTPUT) and reads every page; that build is
    one of its tests."""
    print("== ruff check (pyproject.toml [tool.ruff])", flush=True)
    lint = run(PYTHON, "-m", "ruff", "check", "--no-cache")
    print("== unit tests, every chapter under nbval, the book build and its pages", flush=True)
    env = {"DTREE_BOOK_OUTPUT": str(ROOT), **os.environ, "MPLBACKEND": INLINE_BACKEND}
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        tests = run(PYTHON, "-m", "pytest", "--nbval", "--nbval-current-env",
                    "--nbval-cell-timeout=600", f"--junitxml={report}", "tests", "book", env=env)
        counts = _counts(report)
    index = Path(env["DTREE_BOOK_OUTPUT"]) / "_build" / "html" / "index.html"
    if index.exists():
        print(f"\nThe book it checked is at {index}")
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"
          + ("; ruff check failed" if lint else ""))
    return 1 if lint or tests or counts["failed"] or not counts["passed"] else 0


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
    return run(PYTHON, __file__, "_execute", *paths)


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


class _Chromium:
    """Headless Chromium driven through the DevTools protocol on a pipe (it reads fd 3 and
    writes fd 4, one JSON message per NUL-terminated chunk); the protocol can photograph a
    whole page, which --screenshot (one window's height) cannot."""

    def __init__(self, profile: str):
        to_browser, self._writer = os.pipe()
        self._reader, from_browser = os.pipe()

        def use_pipes() -> None:
            """In the child: the pipe ends become fds 3 and 4 (through copies, in case one of
            them already is 3 or 4: dup2 onto itself would leave it closed on exec)."""
            reading, writing = os.dup(to_browser), os.dup(from_browser)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self._process = subprocess.Popen(
            [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=use_pipes, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer, self._last_id = b"", 0
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

    def screenshot(self, url: str, width: int, mode: str) -> bytes:
        """PNG of the whole page at ``width`` CSS pixels, with prefers-color-scheme ``mode``."""
        self._send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                   deviceScaleFactor=1, mobile=width < 600)
        self._send("Emulation.setEmulatedMedia",
                   features=[{"name": "prefers-color-scheme", "value": mode}])
        self._evaluate("window.previousPage = true")  # gone once the new page has loaded
        self._send("Page.navigate", url=url)
        for _ in range(600):
            if self._evaluate("!window.previousPage && document.readyState == 'complete'"):
                break
            time.sleep(0.05)
        else:
            raise TimeoutError(f"{url} did not load in 30 s")
        # wait for the fonts and for MathJax, if it loaded (served from the book's _static)
        self._evaluate("document.fonts.ready.then(() => (window.MathJax && MathJax.startup"
                       " ? MathJax.startup.promise : null)).then(() => true)")
        # grow the window to the whole page and photograph the window (the protocol's
        # captureBeyondViewport can catch the first page of a fresh browser shifted sideways)
        height = self._send("Page.getLayoutMetrics")["cssContentSize"]["height"]
        self._send("Emulation.setDeviceMetricsOverride", width=width, height=int(height),
                   deviceScaleFactor=1, mobile=width < 600)
        time.sleep(0.3)
        shot = self._send("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"])

    def close(self) -> None:
        try:
            self._send("Browser.close", timeout=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        self._process.wait(timeout=30)
        os.close(self._writer)
        os.close(self._reader)


def clean() -> int:
    shutil.rmtree(ROOT / "_build", ignore_errors=True)
    return 0


# _execute is internal: it runs inside .venv
TASKS = {"book": book, "test": test, "notebooks": notebooks, "screenshots": screenshots,
         "bench": bench, "clean": clean, "venv": lambda: 0, "_execute": _execute}

if __name__ == "__main__":
    name, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if name not in TASKS or args and name not in ("notebooks", "_execute", "screenshots"):
        sys.exit(__doc__)
    if name != "_execute":
        ensure_venv()
        ensure_mathjax()
    sys.exit(TASKS[name](*args))
