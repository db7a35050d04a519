"""Differential test over random object graphs: random link and collection queries, evaluated by
the engine and by a plain-Python model of the same graph.

A seeded generator builds People and Dogs joined by every relationship kind the query language
walks: a list of dogs (with repeats), a to-one ``best`` dog, a set of friends, lists, sets and
dictionaries of scalars, a mixed value, and each Dog's to-one ``owner`` and computed ``owners``
(linking objects). Some dogs and people are then deleted, so links are cleared and lists shrink.

Each query is built from atoms that carry both their text and a Python predicate implementing the
documented semantics: null along a to-one chain, implicit ANY and explicit ANY/ALL/NONE (ALL and
NONE hold for empty collections), @count/@size/@sum/@avg/@min/@max (sum of nothing is 0, the
others null), SUBQUERY, @links (each link counted: a list holding an object twice links to it
twice), dictionary subscripts, keys and wildcards (``meta[*]``, ``meta.k1``), @keys/@values,
[FIRST]/[LAST]/[n], objects as arguments and ``obj('Person', id)``, @type, IN a collection, and
realm-core's forms: a list after any operator with ANY/ALL/NONE on either side, a collection and
an unquantified list compared position by position, ``@size`` of strings (UTF-8 bytes),
``best.@count`` and ``best.@type``; combined with AND/OR/NOT. The set of matching objects must be equal; sorts and
DISTINCT through to-one links must give the same order. A second round runs inside a write
transaction after random changes to the graph (uncommitted state).

``REALMDB_GRAPH_QUERIES`` sets the number of queries per round; ``REALMDB_DIFF_SEED`` the seed.
"""
from __future__ import annotations

import os
import random
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import realmdb
import query_reference as ref

SEED = int(os.environ.get("REALMDB_DIFF_SEED", "1234"))
N_QUERIES = int(os.environ.get("REALMDB_GRAPH_QUERIES", "700"))

SCHEMA = [
    {"name": "Person", "primary_key": "id", "properties": {
        "id": "int", "name": "string", "age": "int?",
        "dogs": "Dog[]", "best": "Dog?", "friends": "Person<>",
        "scores": "int[]", "tags": "string<>", "meta": "int{}", "extra": "mixed",
    }},
    {"name": "Dog", "primary_key": "id", "properties": {
        "id": "int", "name": "string", "age": "int", "owner": "Person?",
        "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
    }},
]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Rex", "Fido", "Max", "Zoe", "Émile"]
TAGS = ["a", "b", "c", "d"]
META_KEYS = ["k1", "k2", "k3"]
OPS = ["==", "!=", "<", "<=", ">", ">="]
Pred = Callable[[Dict[str, Any]], bool]


# --------------------------------------------------------------------------- the model


class Model:
    """The graph as plain Python: people and dogs by id, links as ids."""

    def __init__(self) -> None:
        self.people: Dict[int, Dict[str, Any]] = {}
        self.dogs: Dict[int, Dict[str, Any]] = {}

    def dog(self, dog_id: Optional[int]) -> Optional[Dict[str, Any]]:
        return None if dog_id is None else self.dogs[dog_id]

    def person(self, person_id: Optional[int]) -> Optional[Dict[str, Any]]:
        return None if person_id is None else self.people[person_id]

    def owners(self, dog: Dict[str, Any]) -> List[Dict[str, Any]]:
        """Linking objects: each person whose list holds the dog, once, in key order."""
        return [p for p in self.people.values() if dog["id"] in p["dogs"]]

    def owner_links(self, dog: Dict[str, Any]) -> List[Dict[str, Any]]:
        """The links from the people's lists to the dog: a person whose list holds the dog twice
        comes twice (backlink counts and SUBQUERYs count links, as in realm-core)."""
        return [p for p in self.people.values() for _ in range(p["dogs"].count(dog["id"]))]

    def links_to_dog(self, dog: Dict[str, Any]) -> int:
        by_list = len(self.owner_links(dog))
        by_best = sum(1 for p in self.people.values() if p["best"] == dog["id"])
        return by_list + by_best

    def links_to_person(self, person: Dict[str, Any]) -> int:
        by_owner = sum(1 for d in self.dogs.values() if d["owner"] == person["id"])
        by_friends = sum(1 for p in self.people.values() if person["id"] in p["friends"])
        return by_owner + by_friends

    def delete_dog(self, dog_id: int) -> None:
        del self.dogs[dog_id]
        for p in self.people.values():
            p["dogs"] = [d for d in p["dogs"] if d != dog_id]
            if p["best"] == dog_id:
                p["best"] = None

    def delete_person(self, person_id: int) -> None:
        del self.people[person_id]
        for d in self.dogs.values():
            if d["owner"] == person_id:
                d["owner"] = None
        for p in self.people.values():
            p["friends"].discard(person_id)


def random_extra(rng: random.Random) -> Any:
    kind = rng.randrange(5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.randrange(-3, 10)
    if kind == 2:
        return rng.choice([0.5, 2.5, 7.0, -1.25])
    if kind == 3:
        return rng.choice(["hi", "a", "Zoe"])
    return rng.random() < 0.5


def build(rng: random.Random, realm: realmdb.Realm, n_people: int = 120, n_dogs: int = 240) -> Tuple[Model, Dict[int, Any], Dict[int, Any]]:
    model = Model()
    people_objects: Dict[int, Any] = {}
    dog_objects: Dict[int, Any] = {}
    with realm.write():
        for i in range(n_people):
            p = {"id": i, "name": rng.choice(NAMES), "age": None if rng.random() < 0.15 else rng.randrange(18, 60, 3),
                 "dogs": [], "best": None, "friends": set(),
                 "scores": [rng.randrange(10) for _ in range(rng.randrange(6))],
                 "tags": set(rng.sample(TAGS, rng.randrange(len(TAGS) + 1))),
                 "meta": {k: rng.randrange(10) for k in rng.sample(META_KEYS, rng.randrange(len(META_KEYS) + 1))},
                 "extra": random_extra(rng)}
            model.people[i] = p
            people_objects[i] = realm.create("Person", {k: p[k] for k in ("id", "name", "age", "scores", "tags", "meta", "extra")})
        for i in range(n_dogs):
            owner = None if rng.random() < 0.2 else rng.randrange(n_people)
            d = {"id": i, "name": rng.choice(NAMES), "age": rng.randrange(16), "owner": owner}
            model.dogs[i] = d
            dog_objects[i] = realm.create("Dog", {"id": i, "name": d["name"], "age": d["age"],
                                                  "owner": None if owner is None else people_objects[owner]})
        for p in model.people.values():
            p["dogs"] = [rng.randrange(n_dogs) for _ in range(rng.choice([0, 0, 1, 2, 3, 4, 6]))]
            p["best"] = None if rng.random() < 0.4 else rng.randrange(n_dogs)
            p["friends"] = set(rng.sample(range(n_people), rng.randrange(4)))
            obj = people_objects[p["id"]]
            obj.dogs = [dog_objects[d] for d in p["dogs"]]
            obj.best = dog_objects[p["best"]] if p["best"] is not None else None
            obj.friends = {people_objects[f] for f in p["friends"]}
        # Deletes clear links, shrink lists and sets, and null to-one links.
        for dog_id in rng.sample(range(n_dogs), n_dogs // 12):
            realm.delete(dog_objects.pop(dog_id))
            model.delete_dog(dog_id)
        for person_id in rng.sample(range(n_people), n_people // 15):
            realm.delete(people_objects.pop(person_id))
            model.delete_person(person_id)
    return model, people_objects, dog_objects


# --------------------------------------------------------------------------- queries


def compare(op: str, a: Any, b: Any, options: str = "") -> bool:
    return ref.compare_op(op, a, b, options)


def quantified(quantifier: str, values: List[Any], test: Callable[[Any], bool]) -> bool:
    if quantifier == "ALL":
        return all(test(v) for v in values)
    if quantifier == "NONE":
        return not any(test(v) for v in values)
    return any(test(v) for v in values)


def aggregate(kind: str, values: List[Any]) -> Any:
    present = [v for v in values if v is not None]
    if kind == "@count" or kind == "@size":
        return len(values)
    if kind == "@sum":
        return sum(present)
    if not present:
        return None
    if kind == "@avg":
        return sum(present) / len(present)
    return min(present) if kind == "@min" else max(present)


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if type(v) is bool:
        return "bool"
    if type(v) is int:
        return "int"
    if type(v) is float:
        return "double"
    return "string"


class Generator:
    def __init__(self, rng: random.Random, model: Model, people_objects: Dict[int, Any], dog_objects: Dict[int, Any]) -> None:
        self.rng = rng
        self.model = model
        self.people_objects = people_objects
        self.dog_objects = dog_objects

    def quantifier(self) -> str:
        return self.rng.choice(["", "ANY ", "SOME ", "ALL ", "NONE "])

    def op(self) -> str:
        return self.rng.choice(OPS)

    # -- atoms on Person ----------------------------------------------------

    def person_atom(self, args: List[Any]) -> Tuple[str, Pred]:
        r, m = self.rng, self.model
        kind = r.randrange(29)
        op, n = self.op(), r.randrange(-1, 16)
        if kind >= 22:
            return self.realm_core_person_atom(kind, op, args)
        if kind == 0:
            name = r.choice(NAMES)
            return f"name == '{name}'", lambda p: p["name"] == name
        if kind == 1:
            q = self.quantifier()
            return f"{q}dogs.age {op} {n}", lambda p: quantified(q.strip(), [m.dogs[d]["age"] for d in p["dogs"]], lambda v: compare(op, v, n))
        if kind == 2:
            q, prefix = self.quantifier(), r.choice(["R", "M", "E", "Z"])
            return (f"{q}dogs.name BEGINSWITH[c] '{prefix.lower()}'",
                    lambda p: quantified(q.strip(), [m.dogs[d]["name"] for d in p["dogs"]], lambda v: ref.match("BEGINSWITH", v, prefix.lower(), "c")))
        if kind == 3:
            agg, k = r.choice(["@count", "@size"]), r.randrange(5)
            return f"dogs.{agg} {op} {k}", lambda p: compare(op, len(p["dogs"]), k)
        if kind == 4:
            agg = r.choice(["@sum", "@avg", "@min", "@max"])
            k = r.randrange(0, 30) if agg == "@sum" else r.randrange(16)
            return f"dogs.{agg}.age {op} {k}", lambda p: compare(op, aggregate(agg, [m.dogs[d]["age"] for d in p["dogs"]]), k)
        if kind == 5:
            return f"best.age {op} {n}", lambda p: compare(op, None if p["best"] is None else m.dogs[p["best"]]["age"], n)
        if kind == 6:
            eq = r.choice(["==", "!="])
            return f"best {eq} nil", lambda p: (p["best"] is None) == (eq == "==")
        if kind == 7:
            q = self.quantifier()
            return (f"{q}friends.age {op} {n + 20}",
                    lambda p: quantified(q.strip(), [m.people[f]["age"] for f in p["friends"]], lambda v: compare(op, v, n + 20)))
        if kind == 8:
            return (f"friends.dogs.age {op} {n}",
                    lambda p: any(compare(op, m.dogs[d]["age"], n) for f in p["friends"] for d in m.people[f]["dogs"]))
        if kind == 9:
            k = r.randrange(4)
            return f"friends.@count {op} {k}", lambda p: compare(op, len(p["friends"]), k)
        if kind == 10:
            q, k = self.quantifier(), r.randrange(10)
            if r.random() < 0.2:
                # Two collections: quantified on either side (ANY when one is missing), else
                # position by position.
                rq = r.choice(["", "", "ANY ", "ALL ", "NONE "])

                def ages(p: Dict[str, Any]) -> List[Any]:
                    return [m.dogs[d]["age"] for d in p["dogs"]]
                text = f"{q}scores {op} {rq}dogs.age"
                if not q and not rq:
                    def pairwise(p: Dict[str, Any]) -> bool:
                        s, a = p["scores"], ages(p)
                        if len(s) != len(a):
                            return op == "!="
                        return all(compare(op, x, y) for x, y in zip(s, a))
                    return text, pairwise
                return text, lambda p: quantified(q.strip() or "ANY", p["scores"], lambda x: quantified(
                    rq.strip() or "ANY", ages(p), lambda y: compare(op, x, y)))
            if r.random() < 0.3:
                # A list on the left (realm-core's form), with a quantifier before it, before the
                # collection on the right, both or neither (then position by position).
                left = [r.randrange(10) for _ in range(r.randrange(4))]
                rq = r.choice(["", "ANY ", "ALL ", "NONE "]) if q else r.choice(["", "", "ANY ", "ALL ", "NONE "])
                text = f"{q}{{{', '.join(map(str, left))}}} {op} {rq}scores"
                if not q and not rq:
                    def ordered(p: Dict[str, Any]) -> bool:
                        s = p["scores"]
                        if op == "!=":
                            return len(s) != len(left) or all(a != b for a, b in zip(left, s))
                        return len(s) == len(left) and all(compare(op, a, b) for a, b in zip(left, s))
                    return text, ordered
                return text, lambda p: quantified(q.strip() or "ANY", left, lambda a: quantified(
                    rq.strip() or "ANY", p["scores"], lambda b: compare(op, a, b)))
            return f"{q}scores {op} {k}", lambda p: quantified(q.strip(), p["scores"], lambda v: compare(op, v, k))
        if kind == 11:
            agg = r.choice(["@sum", "@avg", "@min", "@max", "@count"])
            k = r.randrange(0, 30) if agg == "@sum" else r.randrange(10)
            return f"scores.{agg} {op} {k}", lambda p: compare(op, aggregate(agg, p["scores"]), k)
        if kind == 12:
            pos, k = r.choice(["FIRST", "LAST", "0", "2", "7"]), r.randrange(10)

            def at(p: Dict[str, Any]) -> Any:
                s = p["scores"]
                if not s:
                    return None
                index = {"FIRST": 0, "LAST": len(s) - 1}.get(pos, None)
                index = int(pos) if index is None else index
                return s[index] if index < len(s) else None
            return f"scores[{pos}] {op} {k}", lambda p: compare(op, at(p), k)
        if kind == 13:
            tag = r.choice(TAGS + ["z"])
            if r.random() < 0.5:
                args.append(tag)
                return f"${len(args) - 1} IN tags", lambda p: tag in p["tags"]
            return f"'{tag}' IN tags", lambda p: tag in p["tags"]
        if kind == 14:
            q, tag = self.quantifier(), r.choice(TAGS)
            if r.random() < 0.3:  # each tag's length (realm-core's `length` suffix)
                k = r.randrange(3)
                return (f"{q}tags.{r.choice(['length', 'LENGTH'])} {op} {k}",
                        lambda p: quantified(q.strip(), [len(t.encode()) for t in p["tags"]], lambda v: compare(op, v, k)))
            return f"{q}tags {op} '{tag}'", lambda p: quantified(q.strip(), sorted(p["tags"]), lambda v: compare(op, v, tag))
        if kind == 15:
            key, k = r.choice(META_KEYS + ["k9"]), r.randrange(10)
            return f"meta['{key}'] {op} {k}", lambda p: compare(op, p["meta"].get(key), k)
        if kind == 16:
            key = r.choice(META_KEYS)
            q = self.quantifier()
            return f"{q}meta.@keys == '{key}'", lambda p: quantified(q.strip(), list(p["meta"].keys()), lambda v: v == key)
        if kind == 17:
            q, k = self.quantifier(), r.randrange(10)
            agg = r.choice(["@values", "@values", "@sum", "@count", "@max"])
            if agg == "@values":
                return f"{q}meta.@values {op} {k}", lambda p: quantified(q.strip(), list(p["meta"].values()), lambda v: compare(op, v, k))
            return f"meta.{agg} {op} {k}", lambda p: compare(op, aggregate(agg, list(p["meta"].values())), k)
        if kind == 18:
            name = r.choice(["int", "double", "string", "null", "bool", "numeric"])
            eq = r.choice(["==", "!="])
            names = {"numeric": {"int", "double"}}.get(name, {name})
            return f"extra.@type {eq} '{name}'", lambda p: (type_name(p["extra"]) in names) == (eq == "==")
        if kind == 19:
            lo, k = r.randrange(-1, 5), r.randrange(4)
            word = r.choice(["R", "E", "Z", "A"])
            return (f"SUBQUERY(dogs, $d, $d.age > {lo} AND $d.name BEGINSWITH '{word}').@count {op} {k}",
                    lambda p: compare(op, sum(1 for d in p["dogs"] if m.dogs[d]["age"] > lo and m.dogs[d]["name"].startswith(word)), k))
        if kind == 20:
            if not self.dog_objects:
                return "TRUEPREDICATE", lambda p: True
            dog_id = r.choice(sorted(self.dog_objects))
            args.append(self.dog_objects[dog_id])
            target = r.choice(["dogs", "best"])
            if target == "dogs":
                return f"dogs == ${len(args) - 1}", lambda p: dog_id in p["dogs"]
            return f"best == ${len(args) - 1}", lambda p: p["best"] == dog_id
        k = r.randrange(4)
        which = r.choice(["@links.Dog.owner.@count", "@links.@count", "@links.Person.friends.@count"])
        if which == "@links.Dog.owner.@count":
            return f"{which} {op} {k}", lambda p: compare(op, sum(1 for d in m.dogs.values() if d["owner"] == p["id"]), k)
        if which == "@links.Person.friends.@count":
            return f"{which} {op} {k}", lambda p: compare(op, sum(1 for o in m.people.values() if p["id"] in o["friends"]), k)
        return f"{which} {op} {k}", lambda p: compare(op, m.links_to_person(p), k)

    def int_list(self, args: List[Any]) -> Tuple[str, List[int]]:
        """A list literal of 0 to 4 small ints (repeats allowed), or the same as a list argument."""
        values = [self.rng.randrange(10) for _ in range(self.rng.choice([0, 1, 2, 2, 3, 4]))]
        if self.rng.random() < 0.3:
            args.append(list(values))
            return f"${len(args) - 1}", values
        return "{" + ", ".join(map(str, values)) + "}", values

    def realm_core_person_atom(self, kind: int, op: str, args: List[Any]) -> Tuple[str, Pred]:
        """The forms realm-core adds: lists after any operator (quantified on either side, or
        compared position by position), string lengths, counts and types after a to-one link,
        dictionary wildcards and keys, ordered lists through links."""
        r, m = self.rng, self.model
        if kind == 22:
            q, rq = self.quantifier().strip(), r.choice(["", "ANY", "ALL", "NONE"])
            text, values = self.int_list(args)

            def against_list(x: Any) -> bool:
                return quantified(rq or "ANY", values, lambda v: compare(op, x, v))
            if not q and not rq:
                # realm-core: a collection and an unquantified list compare position by position.
                def ordered(p: Dict[str, Any]) -> bool:
                    s = p["scores"]
                    if op == "!=":
                        return len(s) != len(values) or all(compare("!=", a, b) for a, b in zip(s, values))
                    return len(s) == len(values) and all(compare(op, a, b) for a, b in zip(s, values))
                return f"scores {op} {text}", ordered
            return (f"{q + ' ' if q else ''}scores {op} {rq + ' ' if rq else ''}{text}",
                    lambda p: quantified(q or "ANY", p["scores"], against_list))
        if kind == 23:
            rq = r.choice(["", "ANY", "ALL", "NONE"])
            text, values = self.int_list(args)
            return (f"age {op} {rq + ' ' if rq else ''}{text}",
                    lambda p: quantified(rq or "ANY", values, lambda v: compare(op, p["age"], v)))
        if kind == 24:
            k = r.randrange(7)
            which = r.choice(["name", "extra"])

            def length(p: Dict[str, Any]) -> Any:
                v = p[which]
                return len(v.encode()) if isinstance(v, str) else None  # @size of a string: UTF-8 bytes
            return f"{which}.{r.choice(['@size', '@count'])} {op} {k}", lambda p: compare(op, length(p), k)
        if kind == 25:
            if r.random() < 0.5:
                k = r.randrange(3)
                return f"best.@count {op} {k}", lambda p: compare(op, 0 if p["best"] is None else 1, k)
            name = r.choice(["objectlink", "link", "null"])
            return (f"best.@type == '{name}'",
                    lambda p: (p["best"] is None) == (name == "null"))
        if kind == 26:
            k = r.randrange(10)
            if r.random() < 0.5:
                q = self.quantifier()
                return f"{q}meta[*] {op} {k}", lambda p: quantified(q.strip(), list(p["meta"].values()), lambda v: compare(op, v, k))
            key = r.choice(META_KEYS + ["k9"])
            return f"meta.{key} {op} {k}", lambda p: compare(op, p["meta"].get(key), k)
        if kind == 28:
            return self.arithmetic_atom(op, args)
        # kind 27: the names of the dogs against a list, in order (unquantified) or quantified.
        names = [r.choice(NAMES) for _ in range(r.choice([0, 1, 1, 2, 3]))]
        text = "{" + ", ".join(f"'{x}'" for x in names) + "}"
        q = r.choice(["", "", "ANY ", "ALL ", "NONE "])
        if not q:
            return f"dogs.name IN {text}", lambda p: [m.dogs[d]["name"] for d in p["dogs"]] == names
        return (f"{q}dogs.name IN {text}",
                lambda p: quantified(q.strip(), [m.dogs[d]["name"] for d in p["dogs"]], lambda v: v in names))

    def arithmetic_atom(self, op: str, args: List[Any]) -> Tuple[str, Pred]:
        """realm-core's arithmetic on collections and lists: a collection with one value (a
        constant, an argument or a property of the person, which may be null) gives one value
        per element, compared as the collection would be; a list literal with a constant is
        folded into a list."""
        r, m = self.rng, self.model
        aop = r.choice(["+", "-", "*", "/"])
        k = r.randrange(0, 4)
        if r.random() < 0.3:
            # `{a, b} aop k` on either side of the comparison, against the scores.
            # With the person's age instead of a constant, each element is a value per person.
            values = [r.randrange(10) for _ in range(r.choice([0, 1, 2, 3]))]
            by_age = r.random() < 0.5

            def listed(p: Dict[str, Any]) -> List[Any]:
                return [ref.arithmetic(aop, v, p["age"] if by_age else k) for v in values]
            q, rq = r.choice(["", "ANY ", "ALL ", "NONE "]), r.choice(["ANY ", "ALL ", "NONE "])
            text = f"{q}{{{', '.join(map(str, values))}}} {aop} {'age' if by_age else k} {op} {rq}scores"
            return text, lambda p: quantified(q.strip() or "ANY", listed(p), lambda a: quantified(
                rq.strip(), p["scores"], lambda b: compare(op, a, b)))
        collection = r.choice(["scores", "dogs.age"])
        other_text, other = r.choice([(str(k), lambda p: k), ("age", lambda p: p["age"])])
        if r.random() < 0.2:
            args.append(k)
            other_text, other = f"${len(args) - 1}", (lambda p: k)
        element_first = r.random() < 0.6
        expr = f"{collection} {aop} {other_text}" if element_first else f"{other_text} {aop} {collection}"

        def values(p: Dict[str, Any]) -> List[Any]:
            elements = p["scores"] if collection == "scores" else [m.dogs[d]["age"] for d in p["dogs"]]
            o = other(p)
            return [ref.arithmetic(aop, e, o) if element_first else ref.arithmetic(aop, o, e) for e in elements]
        n = r.randrange(-2, 20)
        q = self.quantifier()
        if element_first and r.random() < 0.3:
            # The collection on the right of the comparison: `n op ALL scores * 2` (a quantifier
            # there precedes a key path, as in realm-core's grammar).
            return f"{n} {op} {q}{expr}", lambda p: quantified(q.strip() or "ANY", values(p), lambda v: compare(op, n, v))
        return f"{q}{expr} {op} {n}", lambda p: quantified(q.strip() or "ANY", values(p), lambda v: compare(op, v, n))

    # -- atoms on Dog -------------------------------------------------------

    def dog_atom(self, args: List[Any]) -> Tuple[str, Pred]:
        r, m = self.rng, self.model
        kind = r.randrange(10)
        op, n = self.op(), r.randrange(-1, 16)

        def owner(d: Dict[str, Any]) -> Optional[Dict[str, Any]]:
            return m.person(d["owner"])
        if kind == 0:
            return f"age {op} {n}", lambda d: compare(op, d["age"], n)
        if kind == 1:
            k = n * 3 + 18
            return f"owner.age {op} {k}", lambda d: compare(op, None if owner(d) is None else owner(d)["age"], k)
        if kind == 2:
            name = r.choice(NAMES)
            return f"owner.name == '{name}'", lambda d: owner(d) is not None and owner(d)["name"] == name
        if kind == 3:
            eq = r.choice(["==", "!="])
            return f"owner.name {eq} nil", lambda d: (owner(d) is None) == (eq == "==")
        if kind == 4:
            return (f"owner.best.age {op} {n}",
                    lambda d: compare(op, None if owner(d) is None or owner(d)["best"] is None else m.dogs[owner(d)["best"]]["age"], n))
        if kind == 5:
            k = r.randrange(3)
            return f"owners.@count {op} {k}", lambda d: compare(op, len(m.owner_links(d)), k)
        if kind == 6:
            q, k = self.quantifier(), n * 3 + 18
            return f"{q}owners.age {op} {k}", lambda d: quantified(q.strip(), [p["age"] for p in m.owners(d)], lambda v: compare(op, v, k))
        if kind == 7:
            k = r.randrange(4)
            which = r.choice(["@links.Person.dogs.@count", "@links.Person.best.@count", "@links.@count"])
            if which == "@links.Person.dogs.@count":
                return f"{which} {op} {k}", lambda d: compare(op, len(m.owner_links(d)), k)
            if which == "@links.Person.best.@count":
                return f"{which} {op} {k}", lambda d: compare(op, sum(1 for p in m.people.values() if p["best"] == d["id"]), k)
            return f"{which} {op} {k}", lambda d: compare(op, m.links_to_dog(d), k)
        if kind == 8:
            lo, k = r.randrange(18, 60, 6), r.randrange(3)
            return (f"SUBQUERY(owners, $o, $o.age >= {lo}).@count {op} {k}",
                    lambda d: compare(op, sum(1 for p in m.owner_links(d) if ref.compare_op(">=", p["age"], lo)), k))
        if not self.people_objects:
            return "TRUEPREDICATE", lambda d: True
        person_id = r.choice(sorted(self.people_objects))
        eq = r.choice(["==", "!="])
        if r.random() < 0.4:
            # obj('Person', id): looked up when compiled; an id no person has is a null link.
            wanted = person_id if r.random() < 0.8 else 10_000
            target = wanted if wanted in m.people else None
            return f"owner {eq} obj('Person', {wanted})", lambda d: (d["owner"] == target) == (eq == "==")
        args.append(self.people_objects[person_id])
        return f"owner {eq} ${len(args) - 1}", lambda d: (d["owner"] == person_id) == (eq == "==")

    # -- combinations -------------------------------------------------------

    def predicate(self, atom: Callable[[List[Any]], Tuple[str, Pred]], args: List[Any], depth: int = 0) -> Tuple[str, Pred]:
        r = self.rng
        choice = r.random() if depth < 2 else 1.0
        if choice < 0.2:
            (a, fa), (b, fb) = self.predicate(atom, args, depth + 1), self.predicate(atom, args, depth + 1)
            return f"({a} AND {b})", lambda o: fa(o) and fb(o)
        if choice < 0.35:
            (a, fa), (b, fb) = self.predicate(atom, args, depth + 1), self.predicate(atom, args, depth + 1)
            return f"({a} OR {b})", lambda o: fa(o) or fb(o)
        if choice < 0.45:
            a, fa = self.predicate(atom, args, depth + 1)
            return f"NOT ({a})", lambda o: not fa(o)
        return atom(args)


def check_round(realm: realmdb.Realm, model: Model, gen: Generator, n_queries: int) -> int:
    """Runs n_queries random queries over both classes; returns how many matched at least one object."""
    nonempty = 0
    for i in range(n_queries):
        on_people = i % 3 != 2
        args: List[Any] = []
        text, fn = gen.predicate(gen.person_atom if on_people else gen.dog_atom, args)
        objects = model.people if on_people else model.dogs
        expected = sorted(o["id"] for o in objects.values() if fn(o))
        results = realm.objects("Person" if on_people else "Dog").filter(text, *args)
        got = sorted(results.values("id"))
        assert got == expected, f"query #{i}: {text} (args {args}): engine {got[:10]} != reference {expected[:10]}"
        nonempty += bool(expected)
    return nonempty


def check_sorts(realm: realmdb.Realm, model: Model) -> None:
    """Sorting and DISTINCT through to-one links, against the model (ties in key order)."""
    dogs = [model.dogs[k] for k in sorted(model.dogs)]

    def owner_value(d: Dict[str, Any], name: str) -> Any:
        o = model.person(d["owner"])
        return None if o is None else o[name]
    for keys in ([("owner.age", True)], [("owner.age", False), ("age", True)], [("owner.name", True), ("name", False)],
                 [("owner.best.age", False)]):
        rows = list(dogs)
        for path, ascending in reversed(keys):
            def value(d: Dict[str, Any], path: str = path) -> Any:
                if path == "owner.best.age":
                    o = model.person(d["owner"])
                    return None if o is None or o["best"] is None else model.dogs[o["best"]]["age"]
                return owner_value(d, path.split(".")[1]) if path.startswith("owner.") else d[path]
            rows.sort(key=lambda d: ref.sort_key(value(d)), reverse=not ascending)
        got = realm.objects("Dog").sorted(keys).values("id")
        assert got == [d["id"] for d in rows], keys
    seen, expected = set(), []
    for d in dogs:
        name = owner_value(d, "name")
        if name not in seen:
            seen.add(name)
            expected.append(d["id"])
    assert realm.objects("Dog").distinct("owner.name").values("id") == expected


def mutate(rng: random.Random, realm: realmdb.Realm, model: Model, gen: Generator) -> None:
    """Random changes inside the caller's write: ages, list order, links, deletes."""
    for _ in range(60):
        kind = rng.randrange(5)
        if kind == 0 and model.dogs:
            dog_id = rng.choice(sorted(model.dogs))
            model.dogs[dog_id]["age"] = rng.randrange(16)
            gen.dog_objects[dog_id].age = model.dogs[dog_id]["age"]
        elif kind == 1 and model.people:
            person_id = rng.choice(sorted(model.people))
            p = model.people[person_id]
            if len(p["dogs"]) > 1:
                i, j = rng.randrange(len(p["dogs"])), rng.randrange(len(p["dogs"]))
                gen.people_objects[person_id].dogs.move(i, j)
                p["dogs"].insert(j, p["dogs"].pop(i))
        elif kind == 2 and model.people and model.dogs:
            person_id, dog_id = rng.choice(sorted(model.people)), rng.choice(sorted(model.dogs))
            gen.people_objects[person_id].dogs.append(gen.dog_objects[dog_id])
            model.people[person_id]["dogs"].append(dog_id)
        elif kind == 3 and model.people and model.dogs:
            dog_id = rng.choice(sorted(model.dogs))
            owner = None if rng.random() < 0.3 else rng.choice(sorted(model.people))
            gen.dog_objects[dog_id].owner = None if owner is None else gen.people_objects[owner]
            model.dogs[dog_id]["owner"] = owner
        elif kind == 4 and len(model.dogs) > 10:
            dog_id = rng.choice(sorted(model.dogs))
            realm.delete(gen.dog_objects.pop(dog_id))
            model.delete_dog(dog_id)


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    rng = random.Random(SEED)
    realm = realmdb.open(str(tmp_path_factory.mktemp("graph") / "graph.realm"), SCHEMA)
    model, people_objects, dog_objects = build(rng, realm)
    yield realm, model, Generator(rng, model, people_objects, dog_objects), rng
    realm.close()


def test_random_graph_queries_match_the_model(graph):
    realm, model, gen, _ = graph
    nonempty = check_round(realm, model, gen, N_QUERIES)
    assert nonempty > N_QUERIES // 4, "the generator should make queries that match something"
    check_sorts(realm, model)


def test_random_graph_queries_inside_a_write_see_its_changes(graph):
    realm, model, gen, rng = graph
    with realm.write():
        mutate(rng, realm, model, gen)
        check_round(realm, model, gen, N_QUERIES // 2)
        check_sorts(realm, model)
    check_round(realm, model, gen, N_QUERIES // 4)
