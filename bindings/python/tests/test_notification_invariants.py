"""Randomized invariants of collection and object notifications across coalesced commits.

One realm handle observes the six collections of a parent object (a list, a set and a
dictionary, each of ints or strings and of Child objects; the object collections a second time
with the key path ``val``), Results of Child (all, filtered, filtered with a key path, sorted
with a tie-breaker, sorted and limited) and the parent object itself. A second handle on the
same file commits random write transactions of one to five operations, one to six transactions
between two refreshes of the observing handle, so that the observers receive them coalesced.
Now and then an observer is added after a commit and before its delivery, and some seeds end by
deleting the parent. After every refresh, each callback must describe the step from the
contents it saw last to the new contents:

* removing the deletions (from the end) and inserting the new elements at the insertions turns
  the old contents into the new ones, and every move is also a deletion and an insertion;
* in a list, set or Results of objects, every object present before and after whose observed
  properties changed is among ``modifications_new``;
* in a dictionary, ``modifications_new`` holds exactly the keys present before and after whose
  value changed: another value or object, None instead of an object or the other way round, or
  a change of the held object's observed properties. Writing a key's own value again is not a
  change, but writing an observed property of the held object is one even when it keeps its
  value (as it is for an object's own callback), so such a key may be reported too;
* an observer whose observed contents changed was called, and the parent's own callback names
  every collection of the parent that changed (or reports the parent deleted).

Everything runs on one thread and notifications arrive only at ``refresh()``, so a seed always
replays the same run. A failure names the seed, the transaction, the observer, the old and new
contents, the changes and the operations since the previous refresh. The default run is short;
``REALMDB_NOTIFICATION_SEEDS=200`` runs seeds 0 to 199 instead.
"""
from __future__ import annotations

import os
import random

import pytest

import realmdb

SEEDS = int(os.environ.get("REALMDB_NOTIFICATION_SEEDS", "12"))
TRANSACTIONS_PER_SEED = 40

SCHEMA = [
    {"name": "Parent", "primary_key": "id", "properties": {
        "id": "int", "ints": "int[]", "kids": "Child[]", "tags": "string<>", "kid_set": "Child<>",
        "numbers": "int?{}", "kid_map": "Child?{}"}},
    {"name": "Child", "primary_key": "uid", "properties": {"uid": "int", "val": "int", "name": "string"}},
]
PARENT_COLLECTIONS = ["ints", "kids", "tags", "kid_set", "numbers", "kid_map"]
TAGS = ["x", "y", "X", "\u00e9", "e\u0301", ""]
KEYS = ["a", "b", "B", "k10", "k9", "\u00e9"]
NAMES = ["p", "q", "", "\u00e9"]

# What an observer watches: plain values, objects, or a dictionary of either.
VALUES, OBJECTS, VALUE_MAP, OBJECT_MAP = "values", "objects", "value map", "object map"


def child_state(child):
    """A child as (identity, val, name)."""
    return (child.uid, child.val, child.name)


def label(value):
    """A written value as the failure message shows it."""
    return f"child {value.uid}" if isinstance(value, realmdb.RealmObject) else repr(value)


class Observer:
    """One callback: the collection it watches and the contents it last saw."""

    def __init__(self, name, collection, kind, key_paths=None):
        self.name, self.collection, self.kind, self.key_paths = name, collection, kind, key_paths
        self.previous = None  # None until the initial call
        self.called = False   # during the current delivery
        self.token = None

    def contents(self):
        if not self.collection.is_valid:  # the parent was deleted
            return []
        if self.kind == VALUE_MAP:
            return list(self.collection.items())
        if self.kind == OBJECT_MAP:
            return [(key, None if c is None else child_state(c)) for key, c in self.collection.items()]
        return [child_state(c) if self.kind == OBJECTS else c for c in self.collection]

    def identity(self, element):
        """Values stand for themselves, objects for their uid, dictionary entries for their key."""
        return element if self.kind == VALUES else element[0]

    def observed(self, element):
        """The part of an element the callback looks at: with the key path ``val``, a child
        is only its identity and its val."""
        if self.key_paths is None:
            return element
        if self.kind == OBJECT_MAP:
            key, child = element
            return (key, None if child is None else child[:2])
        return element[:2]


class SeedRun:
    """One seed: an observing and a writing realm handle on a new file, and the checks."""

    def __init__(self, seed, path):
        self.seed, self.path = seed, path
        self.rng = random.Random(seed)
        self.last_uid = 0
        self.transaction = 0
        self.operations = []  # since the last refresh, for failure messages
        self.written = {}  # uid -> properties of that child written since the last refresh
        self.observers = []
        self.parent_calls = []
        self.parent_token = None

    def message(self, what, observer, **details):
        lines = [f"seed {self.seed}, transaction {self.transaction}, {observer}: {what}"]
        lines += [f"  {name}: {value!r}" for name, value in details.items()]
        lines += ["  operations since the previous refresh:"] + [f"    {op}" for op in self.operations]
        return "\n".join(lines)

    def new_child(self, realm):
        self.last_uid += 1
        return realm.create("Child", {"uid": self.last_uid, "val": self.rng.randrange(5),
                                      "name": self.rng.choice(NAMES)})

    def existing_child(self, realm):
        children = realm.objects("Child")
        return children[self.rng.randrange(len(children))] if len(children) else None

    def some_child(self, realm):
        """Mostly an existing child; sometimes (and when there is none) a new one."""
        child = self.existing_child(realm) if self.rng.random() < 0.75 else None
        return child if child is not None else self.new_child(realm)

    def random_operation(self, realm, parent):
        """Applies one random write inside the current transaction and describes it."""
        rng = self.rng
        target = rng.choice(PARENT_COLLECTIONS + ["child"] * 3)
        if target in ("ints", "kids"):
            items = getattr(parent, target)
            op = rng.choice(["append", "insert", "remove", "move", "replace"]) if len(items) else "append"
            i, j = rng.randrange(len(items) + 1), rng.randrange(max(len(items), 1))
            if op in ("remove", "move", "replace"):
                i = min(i, len(items) - 1)
            if op == "remove":
                del items[i]
                return f"del {target}[{i}]"
            if op == "move":
                items.move(i, j)
                return f"{target}.move({i}, {j})"
            value = rng.randrange(5) if target == "ints" else self.some_child(realm)
            if op == "append":
                items.append(value)
            elif op == "insert":
                items.insert(i, value)
            else:
                items[i] = value
            return f"{target} {op} {label(value)}" + ("" if op == "append" else f" at {i}")
        if target in ("tags", "kid_set"):
            members = getattr(parent, target)
            value = rng.choice(TAGS) if target == "tags" else self.some_child(realm)
            op = "add" if rng.random() < 0.6 else "discard"
            getattr(members, op)(value)
            return f"{target}.{op}({label(value)})"
        if target in ("numbers", "kid_map"):
            mapping, key = getattr(parent, target), rng.choice(KEYS)
            op = rng.choice(["set", "set", "delete", "none"])
            if op == "delete":
                if key in mapping:
                    del mapping[key]
                return f"del {target}[{key!r}]"
            value = None if op == "none" else rng.randrange(3) if target == "numbers" else self.some_child(realm)
            mapping[key] = value
            return f"{target}[{key!r}] = {label(value)}"
        op = rng.choice(["val", "val", "name", "create", "delete"])
        child = self.existing_child(realm)
        if op == "create" or child is None:
            return f"create {label(self.new_child(realm))}"
        if op == "delete":
            description = f"delete {label(child)}"
            realm.delete(child)
            return description
        value = rng.randrange(5) if op == "val" else rng.choice(NAMES)
        setattr(child, op, value)
        self.written.setdefault(child.uid, set()).add(op)
        return f"{label(child)}.{op} = {value!r}"

    def observe(self, name, collection, kind, key_paths=None):
        observer = Observer(name, collection, kind, key_paths)
        observer.token = collection.observe(lambda _, changes: self.on_change(observer, changes), key_paths)
        self.observers.append(observer)

    def on_change(self, observer, changes):
        new = observer.contents()
        old, observer.previous = observer.previous, new
        assert not observer.called, self.message("called twice in one delivery", observer.name, changes=changes)
        observer.called = True
        assert changes.initial == (old is None), self.message(
            "the first call must be the initial one, and only the first", observer.name, changes=changes)
        if not changes.initial:
            self.check_changes(observer, old, new, changes)

    def check_changes(self, observer, old, new, changes):
        def expect(condition, what):
            assert condition, self.message(what, observer.name, old=old, new=new, changes=changes)

        deletions, insertions = changes.deletions, changes.insertions
        expect(deletions == sorted(set(deletions)) and all(0 <= i < len(old) for i in deletions),
               "deletions are not ascending indices of the old contents")
        expect(insertions == sorted(set(insertions)) and all(0 <= i < len(new) for i in insertions),
               "insertions are not ascending indices of the new contents")
        expect(len(changes.modifications) == len(changes.modifications_new)
               and all(0 <= i < len(new) for i in changes.modifications_new),
               "modifications and modifications_new do not match the contents")
        applied = [observer.identity(element) for element in old]
        for i in reversed(deletions):
            del applied[i]
        for i in insertions:
            applied.insert(i, observer.identity(new[i]))
        expect(applied == [observer.identity(element) for element in new],
               "the deletions and insertions do not turn the old contents into the new")
        for source, target in changes.moves:
            expect(source in deletions and target in insertions,
                   f"move {(source, target)} is not also a deletion and an insertion")
            expect(observer.identity(old[source]) == observer.identity(new[target]),
                   f"move {(source, target)} joins two different elements")
        if observer.kind == VALUES:
            return
        # Elements neither deleted nor inserted keep their order; moved ones are paired by the move.
        kept_old = [i for i in range(len(old)) if i not in set(deletions)]
        kept_new = [i for i in range(len(new)) if i not in set(insertions)]
        pairs = list(zip(kept_old, kept_new)) + list(changes.moves)
        changed = sorted({n for o, n in pairs if observer.observed(old[o]) != observer.observed(new[n])})
        if observer.kind in (VALUE_MAP, OBJECT_MAP):
            # A key whose child had an observed property written (maybe with its old value).
            looked_at = {"val"} if observer.key_paths else {"val", "name"}
            rewritten = {n for _, n in pairs if observer.kind == OBJECT_MAP and new[n][1] is not None
                         and self.written.get(new[n][1][0], set()) & looked_at}
            expect(set(changed) <= set(changes.modifications_new) <= set(changed) | rewritten,
                   f"modifications_new should be the changed keys, at {changed} (or rewritten, at {sorted(rewritten)})")
        else:
            missing = sorted(set(changed) - set(changes.modifications_new))
            expect(not missing, f"changed elements at new indices {missing} are not among the modifications")

    def parent_collections(self):
        """The parent's collections as plain values (children as uids), or None once deleted."""
        p = self.parent
        if not p.is_valid:
            return None
        return {"ints": list(p.ints), "kids": [c.uid for c in p.kids], "tags": list(p.tags),
                "kid_set": [c.uid for c in p.kid_set], "numbers": list(p.numbers.items()),
                "kid_map": [(key, None if c is None else c.uid) for key, c in p.kid_map.items()]}

    def check_delivery(self):
        """After a refresh: observers not called saw no change; the parent's callback named
        what changed."""
        for observer in self.observers:
            current = observer.contents()
            if not observer.called:
                assert observer.previous is not None, self.message("no initial call", observer.name)
                assert list(map(observer.observed, current)) == list(map(observer.observed, observer.previous)), \
                    self.message("the contents changed without a callback", observer.name,
                                 old=observer.previous, new=current)
                observer.previous = current
            observer.called = False
        calls = list(self.parent_calls)
        self.parent_calls.clear()  # the callback appends to this very list
        now = self.parent_collections()
        if now is None:
            assert any(call.deleted for call in calls), self.message(
                "the parent was deleted, and its callback did not say so", "parent", calls=calls)
        else:
            changed = {name for name in now if now[name] != self.parent_before[name]}
            reported = {name for call in calls for name in call.properties}
            assert changed <= reported, self.message(
                f"changed collections {sorted(changed - reported)} not named", "parent",
                old=self.parent_before, new=now, calls=calls)
        self.parent_before = now

    def run(self):
        observing = realmdb.open(self.path, SCHEMA)
        writing = realmdb.open(self.path, SCHEMA)
        try:
            self.run_with(observing, writing)
        finally:
            for observer in self.observers:
                observer.token.invalidate()
            if self.parent_token is not None:
                self.parent_token.invalidate()
            writing.close()
            observing.close()

    def run_with(self, observing, writing):
        rng = self.rng
        with observing.write():
            self.parent = parent = observing.create("Parent", {"id": 1})
            for _ in range(rng.randrange(12)):
                self.random_operation(observing, parent)
        kinds = {"ints": VALUES, "tags": VALUES, "numbers": VALUE_MAP,
                 "kids": OBJECTS, "kid_set": OBJECTS, "kid_map": OBJECT_MAP}
        for name, kind in kinds.items():
            self.observe(name, getattr(parent, name), kind)
            if kind in (OBJECTS, OBJECT_MAP):
                self.observe(f"{name} (key path val)", getattr(parent, name), kind, ["val"])
        children = observing.objects("Child")
        by_val = children.sorted([("val", False), ("uid", True)])
        threshold = rng.randrange(4)
        self.observe("all children", children, OBJECTS)
        self.observe(f"children with val >= {threshold}", children.filter("val >= $0", threshold), OBJECTS)
        self.observe(f"children with val >= {threshold} (key path val)",
                     children.filter("val >= $0", threshold), OBJECTS, ["val"])
        self.observe("children by val, then uid", by_val, OBJECTS)
        limit = rng.randint(1, 4)
        self.observe(f"first {limit} children by val, then uid", by_val.limit(limit), OBJECTS)
        self.parent_token = parent.observe(self.parent_calls.append)
        self.parent_before = self.parent_collections()
        observing.refresh()
        self.check_delivery()

        writing.refresh()
        written_parent = writing.object_for_primary_key("Parent", 1)
        delete_parent_at_end = rng.random() < 0.3
        while self.transaction < TRANSACTIONS_PER_SEED:
            self.operations, self.written = [], {}
            for _ in range(rng.randint(1, 6)):
                self.transaction += 1
                with writing.write():
                    for _ in range(rng.randint(1, 5)):
                        self.operations.append(f"{self.transaction}: {self.random_operation(writing, written_parent)}")
                    if delete_parent_at_end and self.transaction == TRANSACTIONS_PER_SEED:
                        writing.delete(written_parent)
                        self.operations.append(f"{self.transaction}: delete the parent")
                if self.transaction == TRANSACTIONS_PER_SEED:
                    break
            if rng.random() < 0.15 and written_parent.is_valid:
                # A late observer: its first call must be the initial one (already showing these
                # commits), not also a change describing them.
                model = rng.choice(self.observers)
                self.observe(f"{model.name} (added before a delivery)", model.collection, model.kind, model.key_paths)
                self.operations.append(f"observe {model.name} again")
            observing.refresh()
            self.check_delivery()


@pytest.mark.parametrize("seed", range(SEEDS))
def test_every_callback_describes_random_coalesced_commits(tmp_realm_path, seed):
    SeedRun(seed, tmp_realm_path).run()
