"""Invariants checked on results and on the whole realm: lengths agree with iteration, query
results are objects of their class, TRUEPREDICATE and FALSEPREDICATE select all and none."""
from __future__ import annotations

from typing import Any, Callable, Tuple

from python_api.context import Ctx
from python_api.policy import EXPECTED, Finding, attempt
from python_api.schema import CLASSES


def _read_through(value: Any, *steps: Callable[[Any], Any]) -> Tuple[bool, Any]:
    """Each step applied (through attempt) to what the one before gave: (True, the last result),
    or (False, the exception) from the first step that fails."""
    for step in steps:
        ok, value = attempt(step, value)
        if not ok:
            return False, value
    return True, value


def check_results(r: Any, cls: str, origin: str) -> None:
    """len(r) == number of objects iterated; every object is an object of its class."""
    ok, n = attempt(len, r)
    if not ok:
        return
    ok, objs = attempt(list, r)
    if not ok:
        return
    if r.is_snapshot:
        # Documented: objects deleted since stay in a snapshot (counted), iteration skips them.
        if len(objs) > n:
            raise Finding(f"{origin}: snapshot len() is {n} but iterating gives {len(objs)} objects")
    elif len(objs) != n:
        raise Finding(f"{origin}: len() is {n} but iterating gives {len(objs)} objects")
    if cls not in CLASSES or not objs:
        return
    realm = r.realm
    ok, all_set = _read_through(cls, realm.objects, list, set)
    if not ok:
        return
    for o in objs:
        if o not in all_set:
            raise Finding(f"{origin}: {o!r} is in the results but not among the {cls} objects")


def check_invariants(c: Ctx) -> None:
    realm = c.realm
    if realm is None or realm.is_closed:
        return
    for cls in CLASSES:
        ok, r = attempt(realm.objects, cls)
        if ok:
            check_results(r, cls, f"objects({cls})")
            ok, total = attempt(len, r)
            ok2, count = attempt(realm.count, cls)
            if ok and ok2 and total != count:
                raise Finding(f"len(objects({cls})) is {total} but count({cls}) is {count}")
            ok, every = attempt(r.filter, "TRUEPREDICATE")
            if ok:
                ok, m = attempt(len, every)
                if ok and m != total:
                    raise Finding(f"objects({cls}).filter('TRUEPREDICATE') has {m} objects, not {total}")
            ok, none = attempt(r.filter, "FALSEPREDICATE")
            if ok:
                ok, m = attempt(len, none)
                if ok and m != 0:
                    raise Finding(f"objects({cls}).filter('FALSEPREDICATE') has {m} objects")
    for r, cls, origin in c.results:
        try:
            alive = r.realm is realm and r.is_valid and not r.is_frozen
        except EXPECTED:
            continue
        if alive:
            check_results(r, cls, origin)


def check_length(coll: Any, label: str, listing: Callable[[Any], Any] = list,
                 listed: str = "iterating gives {} elements") -> None:
    """len(coll) is the number of elements ``listing(coll)`` gives."""
    ok, elements = attempt(listing, coll)
    ok2, n = attempt(len, coll)
    if ok and ok2 and len(elements) != n:
        raise Finding(f"len({label}) is {n} but " + listed.format(len(elements)))
