"""Run a script in a fresh Python, with the kernels compiled or not (``NUMBA_DISABLE_JIT=1``),
to compare compiled and plain-Python results."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def run_script(script: str, jit: bool):
    """The JSON the script prints, run from the repository root; with ``jit``, every kernel
    call compiled, a small one too (``dtree.jit.precompile``; see ``dtree.jit.PLAIN_UP_TO``)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    if jit:
        script = "import dtree.jit\ndtree.jit.precompile(quiet=True)\n" + script
    else:
        env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True)
    return json.loads(done.stdout)
