"""The rows of one batch of objects handed out by an iteration over results, read a property at
a time for the whole batch: at the batch's start for the properties the loop used in the batches
before, and at the first read of any other by an object of the batch (RealmObject._load).

A loop that reads two of five properties (``for p in people: p.score = p.score + 1``) then reads
two columns per batch rather than five; a loop that reads them all costs what it did, one call per
property per batch.
"""
from __future__ import annotations

import ctypes
import sys
from typing import TYPE_CHECKING, Any, List, Optional, Set

from ._batches import column_scratch, decode_column
from ._ffi import lib
from .errors import InvalidatedError

if TYPE_CHECKING:  # annotations only: the results module imports this one
    from .results import Results

_get_values_into = lib.db_results_get_values_into
_byref = ctypes.byref
_getrefcount = sys.getrefcount


class RowBatch:
    """Rows (lists of MISSING until read) for the objects at positions ``start ..
    start + count - 1`` of a snapshot, filled a property (``meta.row_names`` index) at a time.
    Once a read fails (an object of the batch was deleted since), it reads nothing more: each
    object then reads its own row, by key.

    When the loop moves past the batch (``release``), the batch keeps only the rows that objects
    still hold: a loop that keeps a few objects of each batch keeps their rows, not whole
    batches of rows alive through them."""

    __slots__ = ("results", "start", "count", "rows", "positions", "loaded", "usable")

    def __init__(self, results: Results[Any], start: int, rows: List[List[object]]) -> None:
        self.results: Optional[Results[Any]] = results
        self.start = start
        self.count = len(rows)
        #: The rows to fill: every row of the batch, by position, until ``release``; then the
        #: rows objects hold, at ``positions``. No (position, row) pair per object: those lived
        #: as long as the batch, and the garbage collector traversed them (with the rows) at
        #: every collection the loop's allocations caused (about 4% of an iteration).
        self.rows: List[List[object]] = rows
        self.positions: Optional[List[int]] = None
        #: The row indexes read, for every object of the batch.
        self.loaded: Set[int] = set()
        self.usable = True

    def release(self) -> List[List[object]]:
        """Keep only the rows that objects still hold, and give back the others (for the next
        batch to use again). A row is referenced by the list of rows and by getrefcount's
        argument, and by its object while that lives (the iteration holds no other reference:
        it passes its list of rows to the batch and lets go of it)."""
        rows = self.rows
        positions = self.positions
        held = [i for i in range(len(rows)) if _getrefcount(rows[i]) > 2]
        free = [rows[i] for i in range(len(rows)) if _getrefcount(rows[i]) <= 2] if len(held) < len(rows) else []
        self.rows = [rows[i] for i in held]
        self.positions = held if positions is None else [positions[i] for i in held]
        if not self.rows:
            self.usable = False
            self.results = None
        return free

    def load(self, index: int) -> bool:
        """Read property ``index`` of every object of the batch, as the realm shows them now;
        False (and nothing read) when it was read already (an object's own entry was then
        changed since, by a write of it) or cannot be."""
        results = self.results
        if not self.usable or index in self.loaded or results is None:
            return False
        meta = results._meta
        count = self.count
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
        column = decode_column(scratch.values, count, text)
        positions = self.positions
        if positions is None:
            for row, value in zip(self.rows, column):
                row[index] = value
        else:
            for position, row in zip(positions, self.rows):
                row[index] = column[position]
        self.loaded.add(index)
        return True
