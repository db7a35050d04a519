"""The wait for the turn to write, off the event loop (``Realm.write_async``).

LMDB's write lock belongs to the thread that takes it, so the realm's own thread must begin its
write; only the wait comes off it. ``db_realm_reserve_write`` waits on a worker thread until no
other writer (thread or process) holds the turn and reserves it for this realm; the loop's thread
then begins the write at once. Tasks of one loop writing through one realm queue on an
``asyncio.Lock`` first: a realm has one write transaction, one reservation at a time."""
from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import TYPE_CHECKING, Dict

from ._ffi import lib
from .errors import RealmError

if TYPE_CHECKING:
    from .realm import Realm

__all__ = ["reserve_write", "release_write_reservation", "writers_queue"]


def writers_queue(queues: Dict[int, asyncio.Lock]) -> asyncio.Lock:
    """The queue of write_async blocks of the running loop on one realm (``queues``, the realm's
    own, by loop id): tasks take it in turn, so a realm waits for its turn once at a time."""
    loop = asyncio.get_running_loop()
    queue = queues.get(id(loop))
    if queue is None:
        queues.clear()  # a realm is used from one loop at a time: drop the locks of loops gone
        queue = queues[id(loop)] = asyncio.Lock()
    return queue


class _Wait:
    """A wait in progress on a worker thread, and what became of it (guarded by ``lock``)."""

    __slots__ = ("lock", "abandoned", "reserved")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.abandoned = False  # the awaiting task was cancelled
        self.reserved = False   # the worker holds the reservation for the task


async def reserve_write(realm: Realm) -> None:
    """Wait, without blocking the loop, until ``realm`` holds the turn to write. If the task is
    cancelled meanwhile, the turn is given back as soon as the wait ends."""
    handle = realm._h()
    wait = _Wait()

    def on_worker(owner: Realm) -> None:
        # `owner` keeps the realm, and so its handle, alive until the worker is done with it.
        lib.db_realm_reserve_write(owner._h())  # raises here (closed, read-only, ...): the task sees it
        with wait.lock:
            if wait.abandoned:
                lib.db_realm_release_write_reservation(owner._h(), None)
            else:
                wait.reserved = True

    future = asyncio.get_running_loop().run_in_executor(None, on_worker, realm)
    try:
        await future
    except asyncio.CancelledError:
        with wait.lock:
            wait.abandoned = True
            if wait.reserved:
                lib.db_realm_release_write_reservation(handle, None)
        raise


def release_write_reservation(realm: Realm) -> None:
    """Give back a reservation that no write used (a begin that failed); nothing otherwise."""
    handle = realm._handle
    if handle is not None:
        with contextlib.suppress(RealmError):
            lib.db_realm_release_write_reservation(handle, None)
