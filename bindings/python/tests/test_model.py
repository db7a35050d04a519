"""Model classes (realmdb.model): the schema they make, objects given back as their instances
through every path that makes objects, the errors of a wrong declaration, and mypy's view."""
from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path
from typing import Any, ClassVar, Dict, List, Optional, Set

import pytest

import realmdb

PYTHON_ROOT = Path(__file__).resolve().parents[1]


class Dog(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    name: str = realmdb.Property(indexed=True)
    owner: Optional[Person]
    owners: realmdb.Results[Person] = realmdb.LinkingObjects("Person", "dogs")
    sound: ClassVar[str] = "woof"  # a class variable: not stored

    def bark(self) -> str:
        return f"{self.name} says {self.sound}"


class Person(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    name: str
    age: Optional[int]
    dogs: realmdb.List[Dog]
    tags: realmdb.Set[str]
    scores: realmdb.Dictionary[Optional[float]]


MODELS = [Dog, Person]


@pytest.fixture
def pets(open_realm: Any) -> realmdb.Realm:
    realm = open_realm(MODELS)
    with realm.write():
        realm.create(Person, {"id": 1, "name": "Ann", "age": 30, "tags": ["a"],
                              "dogs": [{"id": 7, "name": "Rex"}, {"id": 8, "name": "Fido"}]})
        realm.create(Person, {"id": 2, "name": "Bo"})
    return realm


# -- the schema a model makes ------------------------------------------------------------------

def test_every_annotation_maps_to_its_property_type() -> None:
    class Everything(realmdb.Object, name="Everything2"):
        i: int
        d: float
        f: float = realmdb.Property(type="float")
        s: Optional[str]
        b: bool
        data: bytes
        when: dt.datetime
        dec: decimal.Decimal
        u: uuid.UUID
        oid: Optional[realmdb.ObjectId]
        any_value: realmdb.RealmValue
        anything: Any
        ints: List[int]
        maybe_ints: realmdb.List[Optional[int]]
        strings: Set[str]
        by_name: Dict[str, bool]
        links: realmdb.Dictionary[Dog]
        stored_as: int = realmdb.Property(persisted_name="stored", indexed=True)
        _private: int  # not stored

    schema = realmdb.model_schema([Everything])
    assert schema == [{"name": "Everything2", "properties": {
        "i": {"type": "int"}, "d": {"type": "double"}, "f": {"type": "float"}, "s": {"type": "string?"},
        "b": {"type": "bool"}, "data": {"type": "data"}, "when": {"type": "date"},
        "dec": {"type": "decimal128"}, "u": {"type": "uuid"}, "oid": {"type": "objectId?"},
        "any_value": {"type": "mixed"}, "anything": {"type": "mixed"}, "ints": {"type": "int[]"},
        "maybe_ints": {"type": "int?[]"}, "strings": {"type": "string<>"}, "by_name": {"type": "bool{}"},
        "links": {"type": "Dog?{}"},
        "stored_as": {"type": "int", "indexed": True, "persisted_name": "stored"}}}]


def test_links_linking_objects_primary_key_embedded_and_indexes() -> None:
    class Address(realmdb.Object, embedded=True):
        street: str

    class Home(realmdb.Object, indexes=[["city", "size"]]):
        id: str = realmdb.Property(primary_key=True)
        city: str
        size: int
        address: Optional[Address]

    assert realmdb.model_schema([Dog, Person, Address, Home]) == [
        {"name": "Dog", "primary_key": "id", "properties": {
            "id": {"type": "int"}, "name": {"type": "string", "indexed": True}, "owner": {"type": "Person?"},
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
        {"name": "Person", "primary_key": "id", "properties": {
            "id": {"type": "int"}, "name": {"type": "string"}, "age": {"type": "int?"}, "dogs": {"type": "Dog[]"},
            "tags": {"type": "string<>"}, "scores": {"type": "double?{}"}}},
        {"name": "Address", "embedded": True, "properties": {"street": {"type": "string"}}},
        {"name": "Home", "primary_key": "id", "indexes": [["city", "size"]], "properties": {
            "id": {"type": "string"}, "city": {"type": "string"}, "size": {"type": "int"},
            "address": {"type": "Address?"}}},
    ]


@pytest.mark.parametrize("body, message", [
    ("x: complex", "is not a stored type"),
    ("x: Union[int, str]", "is not a stored type"),
    ("x: Optional[List[int]]", "a collection cannot be None"),
    ("x: List[List[int]]", "collections of collections"),
    ("x: Dict[int, str]", "dictionary keys are strings"),
    ("x: Optional[Dog]\ny: Dog", "must be Optional[Dog]"),
    ("x: List[Optional[Dog]]", "holds no None"),
    ("x: List", "name the type of the elements"),
    ("x: int = 3", "models take no default values"),
    ("x = realmdb.Property()", "a Property needs an annotation"),
    ("x: int = realmdb.Property(primary_key=True)\ny: int = realmdb.Property(primary_key=True)", "two primary keys"),
    ("x: realmdb.Results[Dog]", "LinkingObjects"),
    ("x: 'Optional[Unknown]'", "cannot read the annotation"),
    ("pass", "needs at least one annotated property"),
    ("observe: int", "persisted_name='observe'"),  # a RealmObject method's name
])
def test_a_wrong_declaration_is_a_schema_error_naming_the_property(body: str, message: str) -> None:
    namespace: Dict[str, Any] = {}
    source = textwrap.dedent("""
        from typing import Dict, List, Optional, Union
        import realmdb
        class Bad(realmdb.Object):
    """) + textwrap.indent(body, "    ")
    # Compiled without this module's `from __future__ import annotations`: evaluated at once.
    namespace.update(Dog=Dog, __name__="bad_models")
    exec(compile(source, "bad_models", "exec", dont_inherit=True), namespace)
    with pytest.raises(realmdb.SchemaError, match="Bad"):
        try:
            realmdb.model_schema([namespace["Bad"], Dog, Person])
        except realmdb.SchemaError as exc:
            assert message in str(exc)
            raise


def test_wrong_options_are_schema_errors() -> None:
    with pytest.raises(realmdb.SchemaError, match="primary_key"):
        realmdb.Property(primary_key="yes")  # type: ignore[arg-type]
    with pytest.raises(realmdb.SchemaError, match="persisted_name"):
        realmdb.Property(persisted_name="")
    with pytest.raises(realmdb.SchemaError, match="origin"):
        realmdb.LinkingObjects(3, "dogs")  # type: ignore[arg-type]
    with pytest.raises(realmdb.SchemaError, match="name="):
        class Named(realmdb.Object, name=""):
            x: int
    for indexes in (5, "age", ["age"], [[1, 2]]):  # not a list of lists of names
        with pytest.raises(realmdb.SchemaError, match="indexes="):
            class Indexed(realmdb.Object, indexes=indexes):
                age: int
    with pytest.raises(realmdb.SchemaError, match="two model classes"):
        class Other(realmdb.Object, name="Dog"):
            x: int
        realmdb.model_schema([Dog, Other])


def test_a_nul_byte_in_a_stored_name_is_refused(open_realm: Any) -> None:
    class Nul(realmdb.Object, name="N\0ul"):
        x: int
    with pytest.raises(realmdb.RealmError, match="NUL"):
        open_realm([Nul])


def test_hostile_names_and_values_through_a_model_are_clear_errors(open_realm: Any, tmp_path: Path) -> None:
    class Stored(realmdb.Object, name="Stored"):
        id: int = realmdb.Property(persisted_name="a\0b")
    with pytest.raises(realmdb.InvalidArgumentError, match="NUL"):
        open_realm([Stored], path=str(tmp_path / "nul.realm"))

    class Big(realmdb.Object):
        n: int
    realm = open_realm([Big], path=str(tmp_path / "big.realm"))
    with realm.write():
        for value, error in ((2**63, OverflowError), (-2**63 - 1, OverflowError), ("x", realmdb.WrongTypeError),
                             (None, realmdb.NotNullableError), (1.5, realmdb.WrongTypeError)):
            with pytest.raises(error):
                realm.create(Big, {"n": value})
        realm.create(Big, {"n": 2**63 - 1})
    assert realm.objects(Big).values("n") == [2**63 - 1]  # nothing else was left behind


# -- objects are the model's instances -------------------------------------------------------------

def test_objects_come_back_as_model_instances_through_every_path(pets: realmdb.Realm) -> None:
    ann = pets.object_for_primary_key(Person, 1)
    assert isinstance(ann, Person) and type(ann).__name__ == "Person"
    assert ann.name == "Ann" and ann.age == 30 and set(ann.tags) == {"a"}
    rex = ann.dogs[0]
    assert isinstance(rex, Dog) and rex.bark() == "Rex says woof"
    assert [type(p) for p in rex.owners] == [type(ann)] and isinstance(rex.owners[0], Person)
    people = pets.objects(Person)
    assert all(isinstance(p, Person) for p in people)  # iteration (handle-less objects)
    assert isinstance(people[1], Person) and isinstance(people.sorted("name").first(), Person)
    assert [p.name for p in people.filter("dogs.@count > 0")] == ["Ann"]
    with pets.write():
        made = pets.create(Dog, {"id": 9, "name": "Spot", "owner": ann})
        assert isinstance(made, Dog) and isinstance(made.owner, Person) and made.owner == ann
        assert pets.create_many(Dog, [{"id": 10, "name": "A"}, {"id": 11, "name": "B"}]) == 2
    assert pets.count(Dog) == 5 and len(pets.objects("Dog")) == 5  # names still work
    assert isinstance(pets.objects("Dog")[0], Dog)  # the realm's type for the class is the model's
    frozen = pets.freeze()
    try:
        assert isinstance(frozen.objects(Person)[0], Person) and frozen.objects(Person)[0].is_frozen
    finally:
        frozen.close()


def test_writes_through_model_attributes_are_checked_by_the_library(pets: realmdb.Realm) -> None:
    bo = pets.object_for_primary_key(Person, 2)
    assert bo is not None
    with pytest.raises(realmdb.WrongTransactionStateError):
        bo.age = 3
    with pets.write():
        bo.age = 41
        bo.dogs.append(pets.objects(Dog)[0])
        bo.scores["x"] = 1.5
        with pytest.raises(realmdb.WrongTypeError):
            bo.age = "old"  # type: ignore[assignment]
    assert bo.age == 41 and bo.dogs[0].name == "Rex" and bo.scores["x"] == 1.5
    with pytest.raises(AttributeError, match="nickname"):
        bo.nickname = "b"  # type: ignore[attr-defined]  # not a property: refused, not kept in memory


def test_a_model_is_not_instantiated_by_hand_nor_used_with_another_realm(open_realm: Any, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"realm.create\(Dog"):
        Dog(id=1, name="x")
    by_dicts = open_realm([{"name": "Dog", "primary_key": "id", "properties": {"id": "int", "name": "string"}}],
                          path=str(tmp_path / "dicts.realm"))
    with pytest.raises(realmdb.NotFoundError, match="not one of this realm's models"):
        by_dicts.objects(Dog)
    with pytest.raises(TypeError, match="model classes"):
        by_dicts.objects(int)  # type: ignore[call-overload]


def test_a_model_that_does_not_match_the_file_needs_a_migration(tmp_path: Path) -> None:
    path = str(tmp_path / "m.realm")
    with realmdb.open(path, MODELS):
        pass

    class PersonWithEmail(Person, name="Person"):  # the same class, with a property added
        email: str
    with pytest.raises(realmdb.MigrationRequiredError):
        realmdb.open(path, [Dog, PersonWithEmail])


def test_model_inheritance_adds_the_subclass_properties() -> None:
    class Named(realmdb.Object, name="NamedBase"):
        name: str

    class City(Named):
        population: int
    assert realmdb.model_schema([City])[0]["properties"] == {"name": {"type": "string"}, "population": {"type": "int"}}


# -- across threads, processes and an event loop ----------------------------------------------------

def _write_dog_in_another_process(path: str, key: int) -> None:
    with realmdb.open(path, MODELS) as realm:
        with realm.write():
            realm.create(Dog, {"id": key, "name": f"from another process\0{key}"})


def test_an_observer_on_an_event_loop_sees_model_objects_from_another_process(pets: realmdb.Realm) -> None:
    seen: List[List[str]] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        pets.attach_loop(loop)
        done = asyncio.Event()

        def on_change(results: realmdb.Results[Dog], changes: realmdb.CollectionChanges) -> None:
            # Calls back into the library: reads objects, as their model's type.
            assert all(isinstance(dog, Dog) for dog in results)
            seen.append([results[i].bark() for i in changes.insertions])
            if changes.insertions:
                done.set()
        token = pets.objects(Dog).observe(on_change)
        try:
            await asyncio.sleep(0.05)
            writer = multiprocessing.get_context("spawn").Process(
                target=_write_dog_in_another_process, args=(pets.path, 42))
            await loop.run_in_executor(None, writer.start)
            await loop.run_in_executor(None, writer.join)
            assert writer.exitcode == 0
            await asyncio.wait_for(done.wait(), 20)
        finally:
            token.invalidate()
            pets.detach_loop()
    asyncio.run(main())
    assert seen[-1] == ["from another process\0" "42 says woof"]


def test_another_thread_opens_the_same_file_with_the_models(pets: realmdb.Realm) -> None:
    found: List[object] = []

    def reader() -> None:
        with realmdb.open(pets.path, MODELS) as mine:
            dog = mine.object_for_primary_key(Dog, 8)
            found.extend([isinstance(dog, Dog), dog.owners[0].name if dog is not None else None])
    thread = threading.Thread(target=reader)
    thread.start()
    thread.join()
    assert found == [True, "Ann"]


# -- mypy ------------------------------------------------------------------------------------------

MYPY_SNIPPET = '''
from typing import Optional
import realmdb

class Dog(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    name: str
    owner: Optional["Person"]

class Person(realmdb.Object):
    id: int = realmdb.Property(primary_key=True)
    dogs: realmdb.List[Dog]

def use(realm: realmdb.Realm) -> None:
    dog = realm.object_for_primary_key(Dog, 1)
    if dog is not None:
        n: str = dog.name
        owner: Optional[Person] = dog.owner
    for d in realm.objects(Dog).filter("name != ''").sorted("name"):
        d.name.upper()
    made: Dog = realm.create(Dog, {"id": 2, "name": "x"})
    first: Optional[Dog] = realm.objects(Dog).first()
    person = realm.create(Person, {"id": 1})
    names = [d.name for d in person.dogs]
    made.name = 3  # E: assignment
    made.nmae  # E: attr-defined
    wrong: Person = realm.create(Dog, {"id": 3})  # E: assignment
    realm.objects(Dog)[0].owner.dogs  # E: union-attr
    count: int = person.dogs[0].name  # E: assignment
    realm.objects(Dog).filter("id > 1").sorted("id")[0].name + 1  # E: operator
'''


def test_mypy_types_model_attributes_and_what_the_realm_gives_back(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is installed by scripts/test.sh (requirements-dev.txt)")
    snippet = tmp_path / "snippet.py"
    snippet.write_text(MYPY_SNIPPET)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--show-error-codes",
                          "--cache-dir", os.devnull, str(snippet)],
                         capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(PYTHON_ROOT)})
    expected = {(i + 1, line.split("# E: ")[1]) for i, line in enumerate(MYPY_SNIPPET.splitlines()) if "# E: " in line}
    reported = set()
    for line in run.stdout.splitlines():
        if ": error: " in line:
            number = int(line.split(":")[1])
            code = line.rsplit("[", 1)[1].rstrip("]")
            reported.add((number, code))
    assert reported == expected, run.stdout
