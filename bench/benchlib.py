"""What the Python benchmarks share: the binding on the import path, their command line, and the
median of repeated timings.

    from benchlib import median_time, options  # first: it puts bindings/python on sys.path
    import realmdb
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Tuple, TypeVar

#: bindings/python: the benchmarks import realmdb from the working tree, which finds libdb.so as the
#: tests do ($REALMDB_LIBRARY or the newest build; use a release build).
BINDING = Path(__file__).resolve().parents[1] / "bindings" / "python"
if str(BINDING) not in sys.path:
    sys.path.insert(0, str(BINDING))

_T = TypeVar("_T")


def options(doc: str, **defaults: int) -> argparse.Namespace:
    """The command line: ``--name N`` for each of ``defaults`` (``dogs_per_person`` is
    ``--dogs-per-person``), described by the first line of ``doc``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in defaults.items():
        parser.add_argument("--" + name.replace("_", "-"), type=int, default=default)
    return parser.parse_args()


def median_time(fn: Callable[[], _T], reps: int) -> Tuple[float, Optional[_T]]:
    """The median seconds of ``reps`` calls of ``fn``, and what the last call returned."""
    times, answer = [], None
    for _ in range(reps):
        start = time.perf_counter()
        answer = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer
