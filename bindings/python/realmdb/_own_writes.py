"""Rows that stay current across the binding's own writes of plain values.

An object's row (see ``_properties``) is trusted while the realm's change counter holds the value
it was read at. Every write moves the counter, so a loop that reads and writes one object at a
time (``for p in realm.objects("Person"): p.score += 1``) would make every row read ahead for
the loop stale at its first write, and read each object again through the library.

Yet a write of a plain value (a number, a string, bytes, a bool or null) to a single-valued
property that is not a link changes nothing but that one property of that one object: no other
object's row, no membership, no deletion (a link set to null may delete an embedded object, so
links are left out). The binding makes those writes itself and knows which object each one
touched. :class:`OwnWrites` records a run of them: between counter values ``base`` and ``top``
the only changes were plain writes to the objects in ``written`` (of the run's first class,
``table``, by key) and ``others`` (of other classes, as (class key, object key)). A row read at a
counter value at or after ``base`` is then still current at ``top`` unless its object is one of
those. Any other change (a create, a delete, a link, a collection, a commit, a refresh, a
rolled-back savepoint) moves the counter without extending the run, which ends it.

The objects of the first class are kept as their keys (ints), not as tuples: a loop that writes
a million objects would otherwise make a tuple for each, for the garbage collector to traverse
while the run lasts.
"""
from __future__ import annotations

from typing import Any, Set, Tuple

#: The most objects a run records; the next plain write starts a new run (rows read before it are
#: then read again: bounded memory for a loop that writes a million objects).
RUN_LIMIT = 16384


class OwnWrites:
    """A run of plain writes: the counter went from ``base`` to ``top`` through them alone."""

    __slots__ = ("base", "top", "table", "written", "others")

    def __init__(self, base: int, top: int, table: int, written: Set[int]) -> None:
        self.base = base
        self.top = top
        #: The class key of the run's first object written.
        self.table = table
        #: The object key of every object of class ``table`` written in the run.
        self.written = written
        #: (class key, object key) of every object of another class written in the run.
        self.others: Set[Tuple[int, int]] = set()

    def add(self, after: int, table: int, key: int) -> bool:
        """Extends the run with a plain write to object ``key`` of class ``table`` that brought
        the counter to ``after``; False when the run holds as many objects as it may."""
        if table == self.table:
            if len(self.written) >= RUN_LIMIT:
                return False
            self.written.add(key)
        else:
            if len(self.others) >= RUN_LIMIT:
                return False
            self.others.add((table, key))
        self.top = after
        return True


def record_plain_write(realm: Any, before: int, after: int, table: int, key: int) -> None:
    """Note that the counter went from ``before`` to ``after`` through one plain write to the
    object ``key`` of class ``table`` (made by this thread, in its write transaction, and
    successful)."""
    run = realm._own_writes
    if run is not None and run.top == before and run.add(after, table, key):
        return
    if before:  # 0: a realm whose objects cache nothing
        realm._own_writes = OwnWrites(before, after, table, {key})


def wrote_plain_last(realm: Any, now: int) -> bool:
    """Whether the last change, which brought the counter to ``now`` (its value), was a plain
    write (a loop whose body writes plain values: worth reading its rows ahead)."""
    run = realm._own_writes
    return run is not None and run.top == now


def still_current(realm: Any, stamp: int, now: int, table: int, key: int) -> bool:
    """Whether the row of the object ``key`` of class ``table``, read at counter value ``stamp``,
    is current at ``now`` (the counter's value): the counter has moved since only through plain
    writes to other objects."""
    run = realm._own_writes
    return (run is not None and run.top == now and 0 < run.base <= stamp
            and (key not in run.written if run.table == table else (table, key) not in run.others))
