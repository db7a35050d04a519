"""realmdb demo: create (or reopen) a realm, upsert a few people, read them back, then watch a
live query follow commits made by another process, on an asyncio event loop.

Usage:
    python3 bindings/python/examples/demo.py [PATH]

PATH defaults to demo-data/people.realm under the current directory. Running the
demo twice gives the same result: the writes are upserts keyed by primary key.
(The demo runs itself as `demo.py --commit PATH STEP` for each commit of the other process.)
"""
from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from typing import Callable, List, Optional, Tuple

# Use the binding from this checkout (bindings/python), no install needed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import realmdb  # noqa: E402

# A schema is a list of classes in Realm's JavaScript shorthand: a type name per
# property, "?" for optional, or a dict for extra options such as an index.
SCHEMA = [
    {
        "name": "Person",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "email": "string?",
            "city": {"type": "string", "indexed": True},
            "born": "date?",
        },
    }
]

PEOPLE = [
    {"id": 1, "name": "Ada Lovelace", "email": "ada@example.org", "city": "London",
     "born": dt.datetime(1815, 12, 10)},
    {"id": 2, "name": "Alan Turing", "email": None, "city": "Manchester",
     "born": dt.datetime(1912, 6, 23)},
    {"id": 3, "name": "Grace Hopper", "email": "grace@example.org", "city": "New York",
     "born": dt.datetime(1906, 12, 9)},
]


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--commit":  # the other process: one commit
        commit_step(sys.argv[2], int(sys.argv[3]))
        return
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join("demo-data", "people.realm")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    # Opening creates the file on first use; a `with` block closes it at the end.
    with realmdb.open(path, SCHEMA) as realm:
        print(f"realmdb {realmdb.__version__}: {realm.path}")

        # All changes happen in a write transaction. update="modified" turns each
        # create into an upsert: an existing Person with the same id is updated.
        with realm.write():
            for values in PEOPLE:
                realm.create("Person", values, update="modified")

        print(f"{realm.count('Person')} people")
        for person_id in (1, 2, 3, 4):
            person = realm.object_for_primary_key("Person", person_id)
            if person is None:  # absent primary keys give None
                print(f"  #{person_id}: (none)")
                continue
            # Properties read like attributes; dates come back as aware UTC datetimes.
            born = person.born.date().isoformat() if person.born else "?"
            print(f"  #{person.id} {person.name:<14} {person.city:<11} born {born}  "
                  f"email={person.email or '-'}")

    asyncio.run(watch_londoners(path))


def move(person_id: int, city: str) -> Callable[[realmdb.Realm], None]:
    def write(realm: realmdb.Realm) -> None:
        person = realm.object_for_primary_key("Person", person_id)
        if person is not None:
            person["city"] = city
    return write


def babbage_moves_in(realm: realmdb.Realm) -> None:
    realm.create("Person", {"id": 4, "name": "Charles Babbage", "city": "London"}, update="modified")


def babbage_leaves(realm: realmdb.Realm) -> None:
    person = realm.object_for_primary_key("Person", 4)
    if person is not None:
        realm.delete(person)


#: What another process commits while the live query is watched. The last steps undo the first,
#: so the demo prints the same every time it runs.
ELSEWHERE: List[Tuple[str, Callable[[realmdb.Realm], None]]] = [
    ("Charles Babbage moves in", babbage_moves_in),
    ("Alan Turing moves to London", move(2, "London")),
    ("Charles Babbage leaves", babbage_leaves),
    ("Alan Turing goes back to Manchester", move(2, "Manchester")),
]


def commit_step(path: str, step: int) -> None:
    """In the other process: open the file and commit one step of ELSEWHERE."""
    with realmdb.open(path, SCHEMA) as realm, realm.write():
        ELSEWHERE[step][1](realm)


async def commit_in_another_process(path: str, step: int) -> None:
    """Run this script as another process that commits one step; the event loop keeps running
    (and delivering notifications) while it does."""
    writer = await asyncio.create_subprocess_exec(sys.executable, os.path.abspath(__file__), "--commit", path, str(step))
    if await writer.wait() != 0:
        raise RuntimeError(f"the writer process failed (exit status {writer.returncode})")


async def watch_londoners(path: str) -> None:
    """A live query: its results follow every commit to the file, from any thread or process, and
    an observer hears what changed, on the event loop's thread, with no polling and no refresh()
    in this code."""
    with realmdb.open(path, SCHEMA) as realm:
        realm.attach_loop()  # commits to the file wake this loop, which delivers the changes
        londoners = realm.objects("Person").filter("city == $0", "London").sorted("name")
        heard: "asyncio.Queue[Optional[str]]" = asyncio.Queue()

        def on_change(results: realmdb.Results[realmdb.RealmObject], changes: realmdb.CollectionChanges) -> None:
            names = ", ".join(person.name for person in results) or "(nobody)"
            if changes.initial:
                heard.put_nowait(f"  live query (city == 'London', by name): {names}")
            else:
                heard.put_nowait(f"    now {names}  (inserted {len(changes.insertions)}, "
                                 f"deleted {len(changes.deletions)}, modified {len(changes.modifications)})")

        token = londoners.observe(on_change)
        try:
            print(await asyncio.wait_for(heard.get(), timeout=10))
            for step, (description, _) in enumerate(ELSEWHERE):
                print(f"  another process commits: {description}", flush=True)
                await commit_in_another_process(path, step)
                print(await asyncio.wait_for(heard.get(), timeout=10))
        finally:
            token.invalidate()
            realm.detach_loop()


if __name__ == "__main__":
    main()
