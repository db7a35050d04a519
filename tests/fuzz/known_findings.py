"""Findings of the Python API fuzzer that are still open (reported, not fixed).

``fuzz_python_api.py`` steers around them when REALMDB_FUZZ_KNOWN=ignore (run_fuzz.sh's default),
so that a fuzzing run finds new ones instead of the same one again: an exception of a known
finding counts as expected, and a known native crash is not provoked. The corpus replay test
(bindings/python/tests/test_fuzz_corpus.py) expects tests/fuzz/crashes/python_api/<ident>*.bin to fail
while its ident is listed here (strict xfail). When a finding is fixed, remove it here: its
crash input then has to pass, and guards the fix.
"""
from __future__ import annotations

from typing import List, Optional


class Known:
    """A reported finding: an undocumented exception (``exc`` whose message contains ``pattern``),
    or, with ``exc`` None, a native crash the harness steers around (``known(ident)`` there)."""

    def __init__(self, ident: str, summary: str, exc: Optional[type] = None, pattern: str = "") -> None:
        self.ident, self.summary, self.exc, self.pattern = ident, summary, exc, pattern

    def matches(self, error: BaseException) -> bool:
        return self.exc is not None and isinstance(error, self.exc) and self.pattern in str(error)


KNOWN: List[Known] = []
