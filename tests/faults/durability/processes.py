"""How the suite starts its children: the entry script again, with this package and no shim."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[3]
PYTHON_ROOT = ROOT / "bindings" / "python"
ENTRY = Path(__file__).resolve().parents[1] / "crash_durability.py"


def entry_command(*args: str) -> List[str]:
    """The command that runs tests/faults/crash_durability.py with ``args`` (--worker, --child ...)."""
    return [sys.executable, str(ENTRY), *args]


def child_environ(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """This environment with the binding on PYTHONPATH, without the shim, plus ``extra``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("LD_PRELOAD", None)
    for key in [k for k in env if k.startswith("POWERLOSS_")]:
        del env[key]
    env.update(extra or {})
    return env
