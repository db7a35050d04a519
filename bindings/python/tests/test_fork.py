"""multiprocessing with the 'fork' start method: a child opens the files its parent has open with
an environment of its own; the realms, objects and results it inherited raise WrongThreadError
(the parent's are left alone); notifications work in the child. Each scenario runs in a fresh
interpreter (``run_python``), with a time limit, and prints what it saw as JSON."""
from __future__ import annotations

import json

SCHEMA = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "name": "string"}}]

PRELUDE = """
import asyncio, json, multiprocessing as mp, os, sys, time, realmdb
from realmdb.errors import WrongThreadError
PATH, SCHEMA = {path!r}, {schema!r}
ctx = mp.get_context("fork")

def run_child(target, *args):
    '''Runs target(conn, *args) in a forked child; returns what it sent and its exit code.'''
    ours, theirs = ctx.Pipe()
    child = ctx.Process(target=target, args=(theirs, *args))
    child.start()
    got = ours.recv() if ours.poll(30) else {{"error": "no answer"}}
    child.join(30)
    return got, child.exitcode
"""


def run_scenario(run_python, path: str, body: str) -> dict:
    result = run_python(PRELUDE.format(path=path, schema=SCHEMA) + body, timeout=90)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_child_opens_the_parents_file_writes_and_the_parent_sees_it(run_python, tmp_realm_path):
    seen = run_scenario(run_python, tmp_realm_path, """
def child(conn):
    try:
        r = realmdb.open(PATH, SCHEMA)
        before = len(r.objects("Person"))
        with r.write():
            r.create("Person", {"id": 100, "name": "from the child"})
        conn.send({"before": before, "after": len(r.objects("Person"))})
        r.close()
    except BaseException as exc:
        conn.send({"error": repr(exc)})

realm = realmdb.open(PATH, SCHEMA)
with realm.write():
    for i in range(3):
        realm.create("Person", {"id": i, "name": f"p{i}"})
people = realm.objects("Person")
assert len(people) == 3                  # a read transaction: the parent's snapshot is pinned
got, code = run_child(child)
pinned = len(realm.objects("Person"))    # still that snapshot
info = realm.version_info()              # ... held by this process's reader slot
realm.refresh()
print(json.dumps({"child": got, "code": code, "pinned": pinned,
                  "oldest_reader_is_parent": info.oldest_reader_pid == os.getpid(),
                  "lag": info.oldest_reader_lag, "after": len(realm.objects("Person")),
                  "name": realm.object_for_primary_key("Person", 100).name}))
realm.close()
""")
    assert seen["code"] == 0
    assert seen["child"] == {"before": 3, "after": 4}
    assert seen["pinned"] == 3
    assert seen["oldest_reader_is_parent"] and seen["lag"] == 1
    assert seen["after"] == 4
    assert seen["name"] == "from the child"


def test_the_parents_realm_and_objects_are_refused_in_the_child(run_python, tmp_realm_path):
    seen = run_scenario(run_python, tmp_realm_path, """
def child(conn, realm, person, people):
    out = {}
    for name, action in [("objects", lambda: len(realm.objects("Person"))),
                         ("attribute", lambda: person.name),
                         ("results", lambda: len(people)),
                         ("write", lambda: realm.begin_write()),
                         ("refresh", lambda: realm.refresh())]:
        try:
            action()
            out[name] = "no error"
        except Exception as exc:
            out[name] = f"{type(exc).__name__}: {exc}"
    realm.close()  # forgets the handle; the parent's snapshot stays pinned
    del realm, person, people
    import gc; gc.collect()
    mine = realmdb.open(PATH, SCHEMA)   # and the file opens afresh
    out["own"] = len(mine.objects("Person"))
    mine.close()
    conn.send(out)

realm = realmdb.open(PATH, SCHEMA)
with realm.write():
    for i in range(3):
        realm.create("Person", {"id": i, "name": f"p{i}"})
person = realm.object_for_primary_key("Person", 1)
people = realm.objects("Person").filter("id >= 0")
assert len(people) == 3
got, code = run_child(child, realm, person, people)
writer = realmdb.open(PATH, SCHEMA)
with writer.write():
    writer.create("Person", {"id": 50, "name": "later"})
info = writer.version_info()
print(json.dumps({"child": got, "code": code, "name": person.name, "count": len(people),
                  "oldest_reader_is_parent": info.oldest_reader_pid == os.getpid(),
                  "lag": info.oldest_reader_lag}))
writer.close()
realm.close()
""")
    assert seen["code"] == 0
    child = seen["child"]
    for action in ("objects", "attribute", "results", "write", "refresh"):
        assert child[action].startswith("WrongThreadError:"), (action, child[action])
        assert "fork" in child[action] and "another process" in child[action]
    assert child["own"] == 3
    # The child's close and garbage collection left the parent's snapshot pinned and usable.
    assert seen["name"] == "p1" and seen["count"] == 3
    assert seen["oldest_reader_is_parent"] and seen["lag"] == 1


def test_notifications_work_in_the_child(run_python, tmp_realm_path):
    seen = run_scenario(run_python, tmp_realm_path, """
def child(conn):
    async def main():
        r = realmdb.open(PATH, SCHEMA)
        r.attach_loop()                     # a commit watcher thread of the child's own
        got = asyncio.Event()
        changes = []
        def on_change(results, change):
            changes.append({"initial": change.initial, "insertions": list(change.insertions),
                            "count": len(results)})
            if not change.initial:
                got.set()
        token = r.objects("Person").observe(on_change)
        while not changes:                  # the initial call
            await asyncio.sleep(0.01)
        conn.send("ready")
        try:
            await asyncio.wait_for(got.wait(), 10)
        except asyncio.TimeoutError:
            pass
        token.invalidate()
        r.close()
        return changes
    conn.send({"changes": asyncio.run(main())})

realm = realmdb.open(PATH, SCHEMA)
realm.attach_loop(asyncio.new_event_loop())  # the parent's watcher runs when it forks
# ...but not while it starts: a fork while that thread instantiates Swift type metadata copies
# the runtime's locks held, and the child blocks on them (see docs/RELIABILITY.md, "fork()").
time.sleep(0.3)
ours, theirs = ctx.Pipe()
process = ctx.Process(target=child, args=(theirs,))
process.start()
ready = ours.recv() if ours.poll(30) else None
with realm.write():
    realm.create("Person", {"id": 1, "name": "from the parent"})
got = ours.recv() if ours.poll(30) else {"error": "no answer"}
process.join(30)
print(json.dumps({"ready": ready, "child": got, "code": process.exitcode}))
realm.detach_loop()
realm.close()
""")
    assert seen["ready"] == "ready"
    assert seen["code"] == 0
    assert seen["child"]["changes"] == [
        {"initial": True, "insertions": [], "count": 0},
        {"initial": False, "insertions": [0], "count": 1},
    ]
