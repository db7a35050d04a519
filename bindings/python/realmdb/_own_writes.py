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
the only changes were plain writes to the objects in ``written``. A row read at a counter value
at or after ``base`` is then still current at ``top`` unless its object is in ``written``. Any
other change (a create, a delete, a link, a collection, a commit, a refresh, a rolled-back
savepoint) moves the counter without extending the run, which ends it.
"""
from __future__ import annotations

from typing import Any, Set, Tuple

#: The most objects a run records; the next plain write starts a new run (rows read before it are
#: then read again: bounded memory for a loop that writes a million objects).
RUN_LIMIT = 16384


class OwnWrites:
    """A run of plain writes: the counter went from ``base`` to ``top`` through them alone."""

    __slots__ = ("base", "top", "written")

    def __init__(self, base: int, top: int, written: Set[Tuple[int, int]]) -> None:
        self.base = base
        self.top = top
        #: (class key, object key) of every object written in the run.
        self.written = written


def record_plain_write(realm: Any, before: int, after: int, link: Tuple[int, int]) -> None:
    """Note that the counter went from ``before`` to ``after`` through one plain write to the
    object ``link`` (made by this thread, in its write transaction, and successful)."""
    run = realm._own_writes
    if run is not None and run.top == before and len(run.written) < RUN_LIMIT:
        run.top = after
        run.written.add(link)
    elif before:  # 0: a realm whose objects cache nothing
        realm._own_writes = OwnWrites(before, after, {link})


def wrote_plain_last(realm: Any, now: int) -> bool:
    """Whether the last change, which brought the counter to ``now`` (its value), was a plain
    write (a loop whose body writes plain values: worth reading its rows ahead)."""
    run = realm._own_writes
    return run is not None and run.top == now


def still_current(realm: Any, stamp: int, now: int, link: Tuple[int, int]) -> bool:
    """Whether the row of the object ``link``, read at counter value ``stamp``, is current at
    ``now`` (the counter's value): the counter has moved since only through plain writes to
    other objects."""
    run = realm._own_writes
    return run is not None and run.top == now and 0 < run.base <= stamp and link not in run.written
