"""Sectioned results from Python: by key path and by function, access, freeze/thaw, errors,
and section changesets checked against their invariant over random writes."""
from __future__ import annotations

import gc
import random

import pytest

import realmdb

SCHEMA = [{"name": "Dog", "primary_key": "id", "properties": {"id": "int", "name": "string", "age": "int"}}]


@pytest.fixture
def realm(open_realm):
    r = open_realm(SCHEMA)
    with r.write():
        for i, (name, age) in enumerate([("Rex", 3), ("Ace", 5), ("Bo", 3), ("Rio", 1), ("Amy", 5)]):
            r.create("Dog", {"id": i, "name": name, "age": age})
    return r


def layout(sections):
    return [(s.key, [d.name for d in s]) for s in sections]


def test_sections_by_key_path_and_by_function(realm):
    dogs = realm.objects("Dog")
    assert layout(dogs.sectioned("age")) == [(1, ["Rio"]), (3, ["Rex", "Bo"]), (5, ["Ace", "Amy"])]
    assert [s.key for s in dogs.sectioned("age", ascending=False)] == [5, 3, 1]
    by_letter = dogs.sectioned(lambda d: d.name[0], sort=["name"])
    assert layout(by_letter) == [("A", ["Ace", "Amy"]), ("B", ["Bo"]), ("R", ["Rex", "Rio"])]
    assert len(by_letter) == 3 and len(by_letter[2]) == 2 and by_letter[-1][-1].name == "Rio"
    assert layout(dogs.sectioned("age", sort=[("age", False), "name"])) == [(5, ["Ace", "Amy"]), (3, ["Bo", "Rex"]), (1, ["Rio"])]
    with pytest.raises(IndexError):
        by_letter[3]
    with pytest.raises(IndexError):
        by_letter[0][2]
    with pytest.raises(realmdb.QueryError):
        dogs.sectioned("nope")

    def broken(dog):
        raise ValueError("no key")

    with pytest.raises(ValueError, match="no key"):
        len(dogs.sectioned(broken))
    frozen = by_letter.freeze()
    with realm.write():
        realm.create("Dog", {"id": 9, "name": "Cy", "age": 2})
    assert len(by_letter) == 4 and len(frozen) == 3 and frozen.is_frozen and not by_letter.is_frozen
    assert len(frozen.thaw()) == 4
    with pytest.raises(realmdb.LogicError):
        frozen.observe(lambda s, c: None)
    assert not by_letter.is_invalidated


def test_a_key_function_may_release_another_realm(realm, tmp_path):
    """A key function is the caller's code: dropping the last reference to another realm inside
    it (or a garbage collection doing so) releases that realm, and used to trip the library's
    lock order (the function ran under a realm lock). Direct reads and notifications alike."""
    others = [realmdb.open(str(tmp_path / "other-1.realm"), SCHEMA)]

    def first_letter(dog):
        if others:
            others.pop()  # the last reference: the realm is released here
            gc.collect()
        return dog.name[0]

    sectioned = realm.objects("Dog").sectioned(first_letter, sort=["name"])
    assert [s.key for s in sectioned] == ["A", "B", "R"]
    assert others == []
    seen = []
    token = sectioned.observe(lambda sections, changes: seen.append(([s.key for s in sections], changes.sections_inserted)))
    realm.refresh()
    others.append(realmdb.open(str(tmp_path / "other-2.realm"), SCHEMA))
    with realm.write():
        realm.create("Dog", {"id": 10, "name": "Cy", "age": 2})
    assert others == [], "the notification path ran the key function"
    assert seen[-1] == (["A", "B", "C", "R"], [2])
    token.invalidate()


def test_section_changes_keep_their_invariant(realm):
    rng = random.Random(3)
    letters = "ABCDE"
    dogs = realm.objects("Dog")
    watched = [dogs.sectioned(lambda d: d.name[0], sort=["name"]), dogs.filter("age > 0").sectioned("age", ascending=False)]
    previous = [[(s.key, [d.id for d in s]) for s in w] for w in watched]
    failures = []

    def check(index):
        def on_change(sections, changes):
            new = [(s.key, [d.id for d in s]) for s in sections]
            if not changes.initial:
                out = [list(ids) for _, ids in previous[index]]
                for section, item in reversed(changes.deletions):
                    del out[section][item]
                for section in reversed(changes.sections_deleted):
                    del out[section]
                for section in changes.sections_inserted:
                    out.insert(section, list(new[section][1]))
                for section, item in changes.insertions:
                    out[section].insert(item, new[section][1][item])
                if out != [ids for _, ids in new]:
                    failures.append((changes, previous[index], new))
            previous[index] = new
        return on_change

    tokens = [w.observe(check(i)) for i, w in enumerate(watched)]
    realm.refresh()
    next_id = 100
    for _ in range(300):
        with realm.write():
            ids = dogs.values("id")
            op = rng.randrange(3)
            if op == 0:
                realm.create("Dog", {"id": next_id, "name": rng.choice(letters) + "n", "age": rng.randrange(5)})
                next_id += 1
            elif op == 1 and len(ids) > 5:
                realm.delete(realm.object_for_primary_key("Dog", rng.choice(ids)))
            else:
                dog = realm.object_for_primary_key("Dog", rng.choice(ids))
                if rng.random() < 0.5:
                    dog.age = rng.randrange(5)
                else:
                    dog.name = rng.choice(letters) + "m"
    assert failures == [], failures[:2]
    for t in tokens:
        t.invalidate()


def test_key_paths_choose_what_counts_as_a_modification(realm):
    """``observe(callback, key_paths=...)`` on sections (a seed member): each callback's
    modifications follow its own key paths; ``[]`` reports only structural changes; an unknown
    key path or a string is refused."""
    by_age = realm.objects("Dog").sectioned("age")
    calls = {"name": [], "none": []}
    tokens = [by_age.observe(lambda s, c: calls["name"].append(c), key_paths=["name"]),
              by_age.observe(lambda s, c: calls["none"].append(c), key_paths=[])]
    try:
        realm.deliver_notifications()
        first = by_age[0][0]
        with realm.write():
            first.name = first.name + "!"
        assert [c.modifications for c in calls["name"][1:]] == [[(0, 0)]]
        assert [c.modifications for c in calls["none"][1:]] == [[]], "called, with no modification"
        with realm.write():
            realm.create("Dog", {"id": 999, "name": "new", "age": 999})
        assert calls["none"][-1].sections_inserted == [len(by_age) - 1]
        with pytest.raises(realmdb.InvalidArgumentError):
            by_age.observe(lambda s, c: None, key_paths=["nope"])
        with pytest.raises(TypeError):
            by_age.observe(lambda s, c: None, key_paths="name")  # type: ignore[arg-type]
    finally:
        for token in tokens:
            token.invalidate()
