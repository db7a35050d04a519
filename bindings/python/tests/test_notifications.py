"""Notifications from Python: Results, lists, sets, dictionaries and objects; changesets checked
against the invariant; key paths; tokens; errors raised by callbacks; commits from another
thread and another process; interpreter exit with live observers."""
from __future__ import annotations

import threading

import pytest

import realmdb

SCHEMA = [
    {"name": "Dog", "primary_key": "id", "properties": {
        "id": "int", "name": "string", "age": "int", "toys": "Toy[]", "scores": "int[]", "tags": "string<>",
        "meta": "string{}"}},
    {"name": "Toy", "properties": {"brand": "string", "color": "string"}},
]


@pytest.fixture
def realm(open_realm):
    return open_realm(SCHEMA)


def create_dog_through_another_handle(path, dog_id):
    """Commits a new Dog through a realm handle of its own, as another thread would."""
    with realmdb.open(path, SCHEMA) as other, other.write():
        other.create("Dog", {"id": dog_id, "name": "t", "age": 1})


def apply(changes, old, new):
    """Deletions (old indices), then insertions (new indices)."""
    out = list(old)
    for i in reversed(changes.deletions):
        del out[i]
    for i in changes.insertions:
        out.insert(i, new[i])
    return out


def test_results_changes(realm):
    with realm.write():
        for i in range(4):
            realm.create("Dog", {"id": i, "name": f"d{i}", "age": i})
    adults = realm.objects("Dog").filter("age >= 1")
    seen = []
    token = adults.observe(lambda results, changes: seen.append((results, changes)))
    assert seen == []
    realm.refresh()
    assert len(seen) == 1 and seen[0][1].initial and seen[0][0] is adults
    old = adults.values("id")
    with realm.write():
        realm.objects("Dog").filter("id == 1")[0].age = 0      # leaves (old index 0)
        realm.objects("Dog").filter("id == 2")[0].name = "x"   # modified (old 1, new 0)
        realm.create("Dog", {"id": 9, "name": "n", "age": 5})  # inserted (new 2)
    changes = seen[-1][1]
    assert not changes.initial
    assert (changes.deletions, changes.insertions, changes.modifications, changes.modifications_new) == ([0], [2], [1], [0])
    assert apply(changes, old, adults.values("id")) == adults.values("id")
    token.invalidate()
    assert token.is_invalidated
    with realm.write():
        realm.create("Dog", {"id": 10, "name": "n", "age": 5})
    assert len(seen) == 2


def test_sorted_results_report_moves_and_key_paths_filter(realm):
    with realm.write():
        for i, age in enumerate([10, 20, 30]):
            realm.create("Dog", {"id": i, "name": f"d{i}", "age": age})
    by_age = realm.objects("Dog").sorted("age")
    moves, names = [], []
    t1 = by_age.observe(lambda r, c: moves.append(c))
    t2 = by_age.observe(lambda r, c: names.append(c), key_paths=["name"])
    realm.deliver_notifications()
    old = by_age.values("id")
    with realm.write():
        realm.objects("Dog").filter("id == 0")[0].age = 25
    assert moves[-1].moves in ([(0, 1)], [(1, 0)]), "one move: d0 after d1, or d1 before d0"
    assert apply(moves[-1], old, by_age.values("id")) == by_age.values("id")
    # The age filter is satisfied, so the name token of the same results is called too, with
    # no modifications of its own.
    assert len(names) == 2 and names[-1].modifications == []
    with pytest.raises(realmdb.InvalidArgumentError):
        by_age.observe(lambda r, c: None, key_paths=["nope"])
    with pytest.raises(TypeError):
        by_age.observe(lambda r, c: None, key_paths="name")
    t1.invalidate()
    t2.invalidate()


def test_key_paths_toys_and_toys_brand(realm):
    with realm.write():
        rex = realm.create("Dog", {"id": 1, "name": "Rex", "age": 3, "toys": [{"brand": "Lego", "color": "red"}]})
    dogs = realm.objects("Dog")
    toys_calls, brand_calls = [], []
    tokens = [dogs.observe(lambda r, c: toys_calls.append(c), key_paths=["toys"]),
              realm.objects("Dog").observe(lambda r, c: brand_calls.append(c), key_paths=["toys.brand"])]
    realm.deliver_notifications()
    lego = rex.toys[0]
    with realm.write():
        lego.color = "blue"
    assert (len(toys_calls), len(brand_calls)) == (1, 1), "a toy's color counts for neither"
    with realm.write():
        lego.brand = "Duplo"
    assert (len(toys_calls), len(brand_calls)) == (1, 2)
    assert brand_calls[-1].modifications == [0]
    with realm.write():
        rex.toys.append({"brand": "Brio", "color": "green"})
    assert toys_calls[-1].modifications == [0] and brand_calls[-1].modifications == [0]
    for t in tokens:
        t.invalidate()


def test_object_notifications(realm):
    with realm.write():
        rex = realm.create("Dog", {"id": 1, "name": "Rex", "age": 3})
    changes = []
    token = rex.observe(changes.append)
    realm.refresh()
    assert changes == []
    with realm.write():
        rex.age = 4
        rex.name = "Rexy"
    change = changes[-1]
    assert not change.deleted
    assert sorted(change.properties) == ["age", "name"]
    assert change.old_values == {"name": "Rex", "age": 3} and change.new_values == {"name": "Rexy", "age": 4}
    with realm.write():
        rex.age = 4
    assert changes[-1].properties == ["age"], "writing the same value counts"
    with realm.write():
        realm.delete(rex)
    assert changes[-1].deleted
    token.invalidate()


def test_collections_of_values(realm):
    with realm.write():
        rex = realm.create("Dog", {"id": 1, "name": "Rex", "age": 3, "scores": [1, 2, 3]})
    scores, meta = rex.scores, rex.meta
    score_calls, meta_calls = [], []
    t1 = scores.observe(lambda c, ch: score_calls.append(ch))
    t2 = meta.observe(lambda c, ch: meta_calls.append(ch))
    realm.refresh()
    with realm.write():
        scores.move(2, 0)
        meta["a"] = "x"
    assert score_calls[-1].moves == [(2, 0)]
    assert apply(score_calls[-1], [1, 2, 3], list(scores)) == [3, 1, 2]
    assert meta_calls[-1].insertions == [0]
    with realm.write():
        meta["a"] = "y"
    assert meta_calls[-1].modifications == [0]
    with pytest.raises(realmdb.InvalidArgumentError):
        scores.observe(lambda c, ch: None, key_paths=["x"])
    t1.invalidate()
    t2.invalidate()


def test_invalidate_inside_the_callback_and_errors(realm):
    dogs = realm.objects("Dog")
    calls = []
    holder = {}

    def once(results, changes):
        calls.append(changes)
        holder["token"].invalidate()

    holder["token"] = dogs.observe(once)
    realm.refresh()
    with realm.write():
        realm.create("Dog", {"id": 1, "name": "a", "age": 1})
    assert len(calls) == 1

    def broken(results, changes):
        raise ValueError("boom")

    token = dogs.observe(broken)
    with pytest.raises(ValueError, match="boom"):
        realm.refresh()
    token.invalidate()
    with realm.write():
        with pytest.raises(realmdb.WrongTransactionStateError):
            dogs.observe(lambda r, c: None)
    with pytest.raises(TypeError):
        dogs.observe("not callable")


def test_closing_the_realm_invalidates_tokens(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    token = r.objects("Dog").observe(lambda res, c: None)
    r.close()
    assert token.is_invalidated


def test_commits_from_another_thread_arrive_at_refresh(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    seen = []
    token = r.objects("Dog").observe(lambda res, c: seen.append((threading.get_ident(), c)))
    r.refresh()
    thread = threading.Thread(target=create_dog_through_another_handle, args=(tmp_realm_path, 7))
    thread.start()
    thread.join()
    assert len(seen) == 1
    r.refresh()
    assert len(seen) == 2 and seen[-1][1].insertions == [0]
    assert seen[-1][0] == threading.get_ident(), "delivered on the observing thread"
    token.invalidate()
    r.close()


def test_commits_from_another_process_arrive_at_refresh(tmp_realm_path, run_python):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    seen = []
    token = r.objects("Dog").filter("age > 1").observe(lambda res, c: seen.append(c))
    r.refresh()
    result = run_python(f"""
        import realmdb
        r = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})
        with r.write():
            r.create("Dog", {{"id": 1, "name": "p", "age": 5}})
            r.create("Dog", {{"id": 2, "name": "q", "age": 0}})
        r.close()
    """)
    assert result.returncode == 0, result.stderr
    r.refresh()
    assert seen[-1].insertions == [0]
    token.invalidate()
    r.close()


def test_interpreter_exit_with_live_observers(tmp_realm_path, run_python):
    result = run_python(f"""
        import realmdb
        r = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})
        calls = []
        tokens = [r.objects("Dog").observe(lambda res, c: calls.append(c))]
        with r.write():
            rex = r.create("Dog", {{"id": 1, "name": "Rex", "age": 1, "scores": [1]}})
        tokens.append(rex.observe(calls.append))
        tokens.append(rex.scores.observe(lambda s, c: calls.append(c)))
        r.refresh()
        print(len(calls))
        # A scheduler woken by a thread that keeps committing while the interpreter exits.
        import asyncio, threading
        r.attach_loop(asyncio.new_event_loop())
        def writer():
            w = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})
            for i in range(10_000):
                with w.write():
                    w.create("Dog", {{"id": 100 + i, "name": "w", "age": 1}})
        threading.Thread(target=writer, daemon=True).start()
        import time; time.sleep(0.2)
        # exit with the realm open, every token live and the scheduler attached
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"


def test_asyncio_loop_delivers_commits_from_another_process_without_polling(tmp_realm_path, child_environ):
    import asyncio
    import subprocess
    import sys

    async def main():
        r = realmdb.open(tmp_realm_path, SCHEMA)
        r.attach_loop()
        arrived = asyncio.Event()
        seen = []

        def on_change(results, changes):
            seen.append((threading.get_ident(), changes))
            if not changes.initial:
                arrived.set()

        token = r.objects("Dog").observe(on_change)
        r.deliver_notifications()
        code = (f"import realmdb\nr = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})\n"
                "with r.write():\n    r.create('Dog', {'id': 1, 'name': 'p', 'age': 5})\nr.close()\n")
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, env=child_environ)
        assert await proc.wait() == 0
        await asyncio.wait_for(arrived.wait(), timeout=10)
        assert seen[-1][1].insertions == [0]
        assert seen[-1][0] == threading.get_ident(), "delivered on the loop's thread"
        r.detach_loop()
        token.invalidate()
        r.close()

    asyncio.run(main())


def test_scheduler_wakes_for_commits_from_another_thread(tmp_realm_path):
    import asyncio

    async def main():
        r = realmdb.open(tmp_realm_path, SCHEMA)
        r.attach_loop(asyncio.get_running_loop())
        got = asyncio.Event()
        token = r.objects("Dog").observe(lambda res, c: (not c.initial) and got.set())
        r.deliver_notifications()
        await asyncio.get_running_loop().run_in_executor(None, create_dog_through_another_handle, tmp_realm_path, 3)
        await asyncio.wait_for(got.wait(), timeout=10)
        token.invalidate()
        r.close()  # closing removes the scheduler

    asyncio.run(main())


def test_a_realm_belongs_to_the_thread_that_opened_it(realm):
    results = realm.objects("Dog")
    errors = []

    def other():
        for attempt in (realm.refresh, lambda: len(results), realm.begin_write,
                        lambda: results.observe(lambda r, c: None)):
            try:
                attempt()
                errors.append("no error")
            except realmdb.WrongThreadError as exc:
                errors.append(type(exc).__name__)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert errors == ["WrongThreadError"] * 4
    assert len(results) == 0, "still usable on its own thread"


def test_an_observer_added_while_a_commit_waits_starts_from_that_commit(tmp_realm_path):
    """A second callback on the same Results, registered after another handle committed but
    before this realm delivered that commit: its first call is the initial one, showing the
    commit; it is not also told the commit as a change (which, applied to what its initial call
    showed, would count the new object twice)."""
    realm = realmdb.open(tmp_realm_path, SCHEMA)
    with realm.write():
        realm.create("Dog", {"id": 1, "name": "a", "age": 1})
    dogs = realm.objects("Dog")
    early, late = [], []
    t1 = dogs.observe(lambda c, ch: early.append((ch.initial, ch.insertions, len(c))))
    realm.refresh()
    create_dog_through_another_handle(tmp_realm_path, 2)
    t2 = dogs.observe(lambda c, ch: late.append((ch.initial, ch.insertions, len(c))))
    realm.refresh()
    assert early == [(True, [], 1), (False, [1], 2)]
    assert late == [(True, [], 2)]
    with realm.write():
        realm.create("Dog", {"id": 3, "name": "c", "age": 1})
    assert late[-1] == (False, [2], 3)
    t1.invalidate()
    t2.invalidate()
    realm.close()


def test_object_changes_are_not_lost_after_more_commits_than_the_records_kept(tmp_realm_path):
    """More than 1,000 commits (the change records kept) between two deliveries: the object's
    list that changed is still reported, and so is a change behind a key path through a link.
    Without the records, a collection cannot be told unchanged: each is reported (rather than a
    change missed), the single values only when they differ."""
    schema = [{"name": "Parent", "primary_key": "id", "properties": {"id": "int", "n": "int", "ints": "int[]", "kids": "Child[]"}},
              {"name": "Child", "properties": {"val": "int"}}]
    realm = realmdb.open(tmp_realm_path, schema)
    with realm.write():
        parent = realm.create("Parent", {"id": 1, "n": 0, "kids": [{"val": 0}]})
    shallow, deep = [], []
    tokens = [parent.observe(shallow.append), parent.observe(deep.append, key_paths=["kids.val"])]
    with realmdb.open(tmp_realm_path, schema) as writer:
        other = writer.object_for_primary_key("Parent", 1)
        with writer.write():
            other.kids[0].val = 5
        for i in range(1001):
            with writer.write():
                other.ints.append(i)
    realm.refresh()
    assert [change.properties for change in shallow] == [["ints", "kids"]]
    assert [change.properties for change in deep] == [["kids"]]
    for token in tokens:
        token.invalidate()
    realm.close()
