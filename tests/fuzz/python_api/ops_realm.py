"""Operations on the realm: write transactions, freeze, observe and refresh, close and reopen."""
from __future__ import annotations

from typing import Any, Callable

import realmdb

from python_api.context import Ctx
from python_api.policy import attempt, trace
from python_api.queries import Q_PATHS
from python_api.schema import SCHEMA, TOP_CLASSES


def op_begin(c: Ctx) -> None:
    attempt(c.realm.begin_write)


def op_commit(c: Ctx) -> None:
    attempt(c.realm.commit)
    if c.n(3):  # usually the next write transaction follows
        attempt(c.realm.begin_write)


def op_cancel(c: Ctx) -> None:
    attempt(c.realm.cancel_write)
    if c.n(3):
        attempt(c.realm.begin_write)


def op_freeze(c: Ctx) -> None:
    k = c.n(4)
    trace("freeze", k)
    if k == 0:
        ok, fr = attempt(c.realm.freeze)
        if ok:
            c.frozen.append(fr)
            ok, r = attempt(fr.objects, c.pick(TOP_CLASSES))
            if ok:
                attempt(len, r)
                attempt(fr.thaw)
    elif k == 1:
        obj = c.pick_object()
        if obj is None:
            return
        ok, fo = attempt(obj.freeze)
        if ok:
            c.frozen.append(fo._realm)
            c.remember_object(fo)
            ok, th = attempt(fo.thaw)
            if ok and th is not None:
                c.remember_object(th)
    elif k == 2 and c.colls:
        coll, cls, prop = c.pick(c.colls)
        ok, fc = attempt(coll.freeze)
        if ok:
            c.frozen.append(fc._realm)
            attempt(len, fc)
            attempt(fc.thaw)
    else:
        attempt(c.realm.invalidate)


def _on_collection(c: Ctx, raise_it: bool) -> Callable[..., None]:
    def cb(owner: Any, changes: Any) -> None:
        c.notified += 1
        len(owner)  # read the collection inside the callback
        if raise_it:
            raise ValueError("callback raised (fuzz)")
    return cb


def op_observe(c: Ctx) -> None:
    k = c.n(3)
    raise_it = c.n(6) == 0
    key_paths: Any = None
    if c.n(3) == 0:
        key_paths = [c.pick(Q_PATHS) if c.n(3) else c.text(6) for _ in range(c.n(3))]
    trace("observe", k, key_paths)
    if k == 0 and c.results:
        r, _, _ = c.pick(c.results)
        ok, tok = attempt(r.observe, _on_collection(c, raise_it), key_paths)
    elif k == 1 and c.colls:
        coll, _, _ = c.pick(c.colls)
        ok, tok = attempt(coll.observe, _on_collection(c, raise_it), key_paths)
    elif c.objects:
        obj = c.pick_object()

        def on_object(change: Any) -> None:
            c.notified += 1
            repr(change)
            if raise_it:
                raise KeyError("callback raised (fuzz)")
        ok, tok = attempt(obj.observe, on_object, key_paths)
    else:
        return
    if ok:
        c.tokens.append(tok)


def op_refresh(c: Ctx) -> None:
    k = c.n(3)
    trace("refresh", k)
    if k == 0:
        attempt(c.realm.refresh)
    elif k == 1:
        attempt(c.realm.deliver_notifications)
    elif k == 2 and c.tokens:
        attempt(c.pick(c.tokens).invalidate)
    else:
        attempt(c.realm.version_info)


def op_close(c: Ctx) -> None:
    """Rarely: close the realm (everything read from it must fail cleanly), or reopen it."""
    if c.n(11):
        return
    trace("close")
    if c.realm.is_closed or c.n(3):
        attempt(c.realm.close)
        ok, r = attempt(realmdb.open, c.state.path, SCHEMA)
        if ok:
            c.state.realm = r
            if c.flag():
                attempt(r.begin_write)
    else:
        attempt(c.realm.close)
