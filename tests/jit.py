"""Run a script in a fresh Python, with every kernel compiled (``DTREE_COMPILE_FROM=0``) or
none (``NUMBA_DISABLE_JIT=1``), to compare compiled and plain-Python results."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def run_script(script: str, jit: bool):
    """The JSON the script prints, run from the repository root."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_DISABLE_JIT", "DTREE_COMPILE_FROM")}
    env["NUMBA_DISABLE_JIT" if not jit else "DTREE_COMPILE_FROM"] = "1" if not jit else "0"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True)
    return json.loads(done.stdout)
