"""realmdb with model classes: the schema declared as annotated Python classes, objects given
back as instances of them, every attribute typed for mypy (``mypy --strict`` checks this file).

Usage:
    python3 bindings/python/examples/models.py [PATH]

PATH defaults to demo-data/pets.realm under the current directory; running it twice gives the
same result (the writes are upserts keyed by primary key).
"""
from __future__ import annotations

import datetime as dt
import os
import sys
from typing import Optional

# Use the binding from this checkout (bindings/python), no install needed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import realmdb  # noqa: E402


class Dog(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    name: str = realmdb.Property(indexed=True)
    born: Optional[dt.datetime]
    # The people whose `dogs` list holds this dog, kept by the database.
    owners: realmdb.Results[Person] = realmdb.LinkingObjects("Person", "dogs")

    def describe(self) -> str:
        names = ", ".join(owner.name for owner in self.owners)
        return f"{self.name} (owned by {names or 'nobody'})"


class Person(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    name: str
    age: Optional[int]
    best_friend: Optional[Person]
    dogs: realmdb.List[Dog]
    nicknames: realmdb.Set[str]


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join("demo-data", "pets.realm")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with realmdb.open(path, [Dog, Person]) as realm:
        with realm.write():
            ann = realm.create(Person, {"id": 1, "name": "Ann", "age": 34, "nicknames": ["annie"],
                                        "dogs": [{"id": 7, "name": "Rex"}, {"id": 8, "name": "Fido"}]},
                               update="modified")
            bo = realm.create(Person, {"id": 2, "name": "Bo", "age": 29, "best_friend": ann}, update="modified")
            if not bo.dogs:
                bo.dogs.append(ann.dogs[0])  # a dog with two owners
        rex = realm.object_for_primary_key(Dog, 7)
        if rex is not None:
            print(rex.describe())  # Rex (owned by Ann, Bo)
        for person in realm.objects(Person).filter("age > $0", 30).sorted("name"):
            print(person.name, person.age, [dog.name for dog in person.dogs])
        friend = bo.best_friend
        print(f"{bo.name}'s best friend is {friend.name if friend is not None else 'nobody'}")


if __name__ == "__main__":
    main()
