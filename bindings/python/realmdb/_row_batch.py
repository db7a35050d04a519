"""The rows of one batch of objects handed out by an iteration over results, read a property at
a time for the whole batch: at the batch's start for the properties the loop used in the batches
before, and at the first read of any other by an object of the batch (RealmObject._load).

A loop that reads two of five properties (``for p in people: p.score = p.score + 1``) then reads
two columns per batch rather than five; a loop that reads them all costs what it did, one call per
property per batch.
"""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, List, Set

from ._batches import column_scratch, decode_column
from ._ffi import lib
from .errors import InvalidatedError

if TYPE_CHECKING:  # annotations only: the results module imports this one
    from .results import Results

_get_values_into = lib.db_results_get_values_into
_byref = ctypes.byref


class RowBatch:
    """Rows (lists of MISSING until read) for the objects at positions ``start ..
    start + len(rows) - 1`` of a snapshot, filled a property (``meta.row_names`` index) at a
    time. Once a read fails (an object of the batch was deleted since), it reads nothing more:
    each object then reads its own row, by key."""

    __slots__ = ("results", "start", "rows", "loaded", "usable")

    def __init__(self, results: Results[Any], start: int, rows: List[List[object]]) -> None:
        self.results = results
        self.start = start
        self.rows = rows
        #: The row indexes read, for every object of the batch.
        self.loaded: Set[int] = set()
        self.usable = True

    def load(self, index: int) -> bool:
        """Read property ``index`` of every object of the batch, as the realm shows them now;
        False (and nothing read) when it was read already (an object's own entry was then
        changed since, by a write of it) or cannot be."""
        if not self.usable or index in self.loaded:
            return False
        results = self.results
        meta = results._meta
        count = len(self.rows)
        scratch = column_scratch()
        text = scratch.text
        got = ctypes.c_size_t()
        try:
            _get_values_into(results._h(), meta.key_of[meta.row_names[index]], self.start, count, scratch.array,
                             text.address, len(text.buffer), _byref(got))
        except InvalidatedError:
            self.usable = False
            return False
        if got.value != count:
            self.usable = False
            return False
        for row, value in zip(self.rows, decode_column(scratch.values, count, text)):
            row[index] = value
        self.loaded.add(index)
        return True
