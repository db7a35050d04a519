"""Model classes: a Python class per stored class, declared with annotations that mypy checks.

::

    from typing import Optional
    import realmdb

    class Dog(realmdb.Object):
        id: int = realmdb.Property(primary_key=True)
        name: str = realmdb.Property(indexed=True)
        owner: Optional["Person"]
        owners_by_tag: realmdb.Results["Person"] = realmdb.LinkingObjects("Person", "dogs")

    class Person(realmdb.Object):
        id: int = realmdb.Property(primary_key=True)
        name: str
        age: Optional[int]
        dogs: realmdb.List[Dog]
        tags: realmdb.Set[str]

    with realmdb.open("pets.realm", [Dog, Person]) as realm:
        with realm.write():
            ann = realm.create(Person, {"id": 1, "name": "Ann", "dogs": [{"id": 7, "name": "Rex"}]})
        rex = realm.object_for_primary_key(Dog, 7)       # Optional[Dog] to mypy
        for person in realm.objects(Person).filter("age > 3"):   # Results[Person]
            print(person.name.upper())                      # str to mypy

The objects a realm gives back are instances of the model class (``isinstance(rex, Dog)``), with
the model's own methods, and read and write through the same descriptors as objects of a schema
given as dicts: a model adds no cost per access. Objects are made by a realm (``realm.create``),
not by calling the class.

Annotations map to property types: ``int``, ``float`` (a double; ``Property(type="float")`` for
32 bits), ``str``, ``bool``, ``bytes`` (data), ``datetime.datetime`` (date), ``decimal.Decimal``
(decimal128), ``uuid.UUID``, :class:`realmdb.ObjectId`, ``realmdb.RealmValue`` or ``Any``
(mixed); ``Optional[...]`` makes a property nullable; another model class is a link (always
``Optional``, as a link may be null); ``realmdb.List[T]``, ``realmdb.Set[T]`` and
``realmdb.Dictionary[T]`` (string keys) are collections (``typing.List``, ``Set`` and
``Dict[str, T]`` are read the same way). Names starting with ``_`` and ``ClassVar`` annotations
are not stored. A class keyword ``embedded=True`` makes the class embedded, ``name="..."``
stores it under another name, ``indexes=[["age", "name"]]`` declares compound indexes.
"""
from __future__ import annotations

import collections.abc
import datetime as _dt
import decimal
import sys
import typing
import uuid
from typing import TYPE_CHECKING, Any, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple, Type, Union

from .errors import SchemaError
from .object import RealmObject, RealmValue
from .objectid import ObjectId
from .relationships import Dictionary as DictionaryProperty, List as ListProperty, Set as SetProperty
from .results import Results

__all__ = ["Object", "Property", "LinkingObjects", "model_schema"]

#: Python types of single values, by the type name the schema gives them.
_SCALAR_TYPES: Dict[object, str] = {
    int: "int", float: "double", str: "string", bool: "bool", bytes: "data", _dt.datetime: "date",
    decimal.Decimal: "decimal128", uuid.UUID: "uuid", ObjectId: "objectId",
}
#: Names a model's property may not take: RealmObject's methods and properties (to_dict, observe, ...).
_TAKEN = frozenset(name for name in dir(RealmObject) if not name.startswith("_"))
_LIST_ORIGINS = (ListProperty, list, collections.abc.MutableSequence, collections.abc.Sequence)
_SET_ORIGINS = (SetProperty, set, frozenset, collections.abc.MutableSet, collections.abc.Set)
_DICT_ORIGINS = (DictionaryProperty, dict, collections.abc.MutableMapping, collections.abc.Mapping)


class PropertyDeclaration:
    """What :func:`Property` and :func:`LinkingObjects` return: the options of one property,
    read when the model's schema is made."""

    __slots__ = ("primary_key", "indexed", "persisted_name", "type", "origin")

    def __init__(self, primary_key: bool = False, indexed: bool = False, persisted_name: Optional[str] = None,
                 type: Optional[str] = None, origin: Optional[Tuple[str, str]] = None) -> None:
        self.primary_key = primary_key
        self.indexed = indexed
        self.persisted_name = persisted_name
        self.type = type
        self.origin = origin

    def __repr__(self) -> str:
        return (f"Property(primary_key={self.primary_key}, indexed={self.indexed}, "
                f"persisted_name={self.persisted_name!r}, type={self.type!r})")


def Property(*, primary_key: bool = False, indexed: bool = False, persisted_name: Optional[str] = None,
             type: Optional[str] = None) -> Any:
    """Options of a model's property, as its class attribute: ``id: int = Property(primary_key=True)``.

    Args:
        primary_key: the class's primary key (indexed, unique; one per class).
        indexed: keep an index on it (equality and BEGINSWITH queries use it).
        persisted_name: the name stored in the file, where it differs from the attribute's.
        type: a schema type string that overrides the annotation's (``"float"``, ``"int?[]"``).

    Typed ``Any``, so that the annotation alone gives the attribute's type to mypy.
    """
    for flag, value in (("primary_key", primary_key), ("indexed", indexed)):
        if not isinstance(value, bool):
            raise SchemaError(f"Property({flag}=...) must be True or False, got {value!r}")
    for option, text in (("persisted_name", persisted_name), ("type", type)):
        if text is not None and (not isinstance(text, str) or not text):
            raise SchemaError(f"Property({option}=...) must be a non-empty string, got {text!r}")
    return PropertyDeclaration(primary_key, indexed, persisted_name, type)


def LinkingObjects(origin: Union[str, Type[RealmObject]], property: str) -> Any:
    """The objects of class ``origin`` whose link (or list of links) ``property`` points at this
    object, as live Results: ``owners: realmdb.Results[Person] = LinkingObjects(Person, "dogs")``
    (``origin`` may be the class's name, for a class defined further down)."""
    name = origin if isinstance(origin, str) else getattr(origin, "__realm_name__", None)
    if not isinstance(name, str) or not name:
        raise SchemaError(f"LinkingObjects: the origin must be a model class or a class name, not {origin!r}")
    if not isinstance(property, str) or not property:
        raise SchemaError(f"LinkingObjects: the origin property must be a non-empty string, not {property!r}")
    return PropertyDeclaration(origin=(name, property))


class _ModelType(type):
    """The metaclass of models: gives every model class ``__slots__ = ()`` (unless it declares
    its own), so that its objects have no ``__dict__`` and an attribute that is not a property
    raises AttributeError instead of being kept in memory only."""

    def __new__(mcs, class_name: str, bases: Tuple[type, ...], namespace: Dict[str, Any], /,
                **options: Any) -> _ModelType:
        namespace.setdefault("__slots__", ())
        return super().__new__(mcs, class_name, bases, namespace, **options)


class Object(RealmObject, metaclass=_ModelType):
    """Base of model classes (see the module's documentation): subclass it, annotate the
    properties, and pass the classes to :func:`realmdb.open` in place of the schema's dicts."""

    __slots__ = ()
    #: The class's name in the realm (the class keyword ``name``, else the Python class's name).
    __realm_name__: ClassVar[str] = ""
    __realm_embedded__: ClassVar[bool] = False
    __realm_indexes__: ClassVar[Tuple[Tuple[str, ...], ...]] = ()

    if TYPE_CHECKING:
        # RealmObject's __getattr__ (declared for mypy only, for schemas given as dicts) would
        # make every unknown attribute of a model Any to mypy: a name that is not a method hides
        # it from mypy, which then reports a misspelt property.
        __getattr__: None  # type: ignore[misc, assignment]

    def __init_subclass__(cls, *, name: Optional[str] = None, embedded: bool = False,
                          indexes: Sequence[Sequence[str]] = (), **options: Any) -> None:
        super().__init_subclass__(**options)
        if getattr(cls, "_bound_model", None) is not None:
            return  # a realm's type for this model's objects (object.object_type): no new model
        if name is not None and (not isinstance(name, str) or not name):
            raise SchemaError(f"{cls.__name__}: name= must be a non-empty string, got {name!r}")
        if not isinstance(embedded, bool):
            raise SchemaError(f"{cls.__name__}: embedded= must be True or False, got {embedded!r}")
        if isinstance(indexes, (str, bytes)) or not isinstance(indexes, Sequence) or any(
                isinstance(index, (str, bytes)) or not isinstance(index, Sequence)
                or not all(isinstance(part, str) for part in index) for index in indexes):
            raise SchemaError(f"{cls.__name__}: indexes= is a list of lists of property names, "
                              f"e.g. [['age', 'name']]; got {indexes!r}")
        cls.__realm_name__ = name or cls.__name__
        cls.__realm_embedded__ = embedded
        cls.__realm_indexes__ = tuple(tuple(index) for index in indexes)

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{cls.__name__} objects are made by a realm: "
                        f"realm.create({cls.__name__}, {{...property values...}})")


def is_model(value: object) -> bool:
    """True for a model class (a subclass of :class:`Object`, not Object itself)."""
    return isinstance(value, type) and issubclass(value, Object) and value is not Object


def model_schema(models: Sequence[Type[Object]]) -> List[Dict[str, Any]]:
    """The schema dicts (as :func:`realmdb.open` takes them) of model classes. Annotations
    written as strings (forward references, ``from __future__ import annotations``) may name any
    of ``models``."""
    names: Dict[str, Any] = {m.__name__: m for m in models}
    seen: Dict[str, Type[Object]] = {}
    for model in models:
        other = seen.setdefault(model.__realm_name__, model)
        if other is not model:
            raise SchemaError(f"two model classes are stored as {model.__realm_name__!r}: "
                              f"{other.__qualname__} and {model.__qualname__}")
    return [_class_schema(model, names) for model in models]


def _class_schema(model: Type[Object], names: Dict[str, Any]) -> Dict[str, Any]:
    where = model.__realm_name__
    properties: Dict[str, Any] = {}
    primary_key: Optional[str] = None
    for attribute, hint in _annotations(model, names).items():
        if attribute in _TAKEN:
            raise SchemaError(f"{where}.{attribute}: RealmObject has a member of this name; give the "
                              f"attribute another name and store it as {attribute!r} with "
                              f"Property(persisted_name={attribute!r})")
        declared = _declared(model, attribute)
        spec: Dict[str, Any] = {}
        if declared is not None and declared.origin is not None:
            spec = {"type": "linkingObjects", "objectType": declared.origin[0], "property": declared.origin[1]}
        elif declared is not None and declared.type is not None:
            spec["type"] = declared.type
        else:
            spec["type"] = _type_string(hint, f"{where}.{attribute}")
        if declared is not None:
            if declared.primary_key:
                if primary_key is not None:
                    raise SchemaError(f"{where}: two primary keys, {primary_key!r} and {attribute!r}")
                primary_key = attribute
            if declared.indexed:
                spec["indexed"] = True
            if declared.persisted_name is not None:
                spec["persisted_name"] = declared.persisted_name
        properties[attribute] = spec
    if not properties:
        raise SchemaError(f"{where}: a model class needs at least one annotated property")
    schema: Dict[str, Any] = {"name": where, "properties": properties}
    if primary_key is not None:
        schema["primary_key"] = primary_key
    if model.__realm_embedded__:
        schema["embedded"] = True
    if model.__realm_indexes__:
        schema["indexes"] = [list(index) for index in model.__realm_indexes__]
    return schema


def _annotations(model: Type[Object], names: Dict[str, Any]) -> Dict[str, Any]:
    """The stored properties' annotations, evaluated, from the model and the models it extends."""
    hints: Dict[str, Any] = {}
    for klass in reversed(model.__mro__):
        if not (isinstance(klass, type) and issubclass(klass, Object)) or klass is Object:
            continue
        own = klass.__dict__.get("__annotations__", {})
        module = sys.modules.get(klass.__module__)
        globalns = dict(vars(module)) if module is not None else {}
        for attribute, annotation in own.items():
            if attribute.startswith("_"):
                continue
            try:
                hint = _evaluate(annotation, globalns, {**names, **vars(klass)})
            except Exception as exc:
                raise SchemaError(f"{model.__realm_name__}.{attribute}: cannot read the annotation "
                                  f"{annotation!r} ({exc}); pass every model class it names to open()") from None
            if typing.get_origin(hint) is ClassVar or hint is ClassVar:
                continue
            hints[attribute] = hint
    for attribute, value in vars(model).items():
        if isinstance(value, PropertyDeclaration) and attribute not in hints:
            raise SchemaError(f"{model.__realm_name__}.{attribute}: a Property needs an annotation "
                              f"({attribute}: int = realmdb.Property(...))")
    return hints


def _evaluate(annotation: Any, globalns: Dict[str, Any], localns: Dict[str, Any]) -> Any:
    """An annotation evaluated (with the forward references inside it), as typing.get_type_hints
    evaluates a class's: through a stand-in class that carries only this annotation."""
    holder = type("_Annotation", (), {"__annotations__": {"value": annotation}})
    return typing.get_type_hints(holder, globalns, localns)["value"]


def _declared(model: Type[Object], attribute: str) -> Optional[PropertyDeclaration]:
    for klass in model.__mro__:
        if attribute in vars(klass):
            value = vars(klass)[attribute]
            if isinstance(value, PropertyDeclaration):
                return value
            if value is None:
                return None
            raise SchemaError(f"{model.__realm_name__}.{attribute} = {value!r}: models take no default "
                              "values (an optional property starts as None; give required ones to create)")
    return None


def _type_string(hint: Any, where: str, container: str = "") -> str:
    """The schema type string of an annotation (see the module's documentation); ``container`` is
    the suffix of the collection it is the element type of ("[]", "<>", "{}"), if any."""
    if hint is Any or hint == RealmValue or hint == Optional[RealmValue]:
        return "mixed"
    optional = False
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise SchemaError(f"{where}: {hint!r} is not a stored type (a union of one type and None "
                              "is optional; realmdb.RealmValue holds any value)")
        optional = len(rest) != len(args)
        hint, origin, args = rest[0], typing.get_origin(rest[0]), typing.get_args(rest[0])
        if hint is Any or hint == RealmValue:
            return "mixed"
    collection = None
    if origin is not None and any(origin is o for o in _LIST_ORIGINS):
        collection = "[]"
    elif origin is not None and any(origin is o for o in _SET_ORIGINS):
        collection = "<>"
    elif origin is not None and any(origin is o for o in _DICT_ORIGINS):
        collection = "{}"
        if len(args) == 2:
            if args[0] is not str:
                raise SchemaError(f"{where}: dictionary keys are strings, not {args[0]!r}")
            args = args[1:]
    if collection is not None:
        if optional:
            raise SchemaError(f"{where}: a collection cannot be None (it is empty instead); "
                              "make its elements Optional instead")
        if len(args) != 1:
            raise SchemaError(f"{where}: name the type of the elements, e.g. realmdb.List[int]")
        element = _type_string(args[0], where, collection)
        if element.endswith(("[]", "<>", "{}")):
            raise SchemaError(f"{where}: collections of collections are not stored")
        return element + collection
    if is_model(hint):
        # A link alone, or in a dictionary, may be null; in a list or set it may not.
        if container in ("[]", "<>"):
            if optional:
                raise SchemaError(f"{where}: a list or set of links holds no None: "
                                  f"realmdb.List[{hint.__name__}]")
            return str(hint.__realm_name__)
        if not optional and not container:
            raise SchemaError(f"{where}: a link to {hint.__name__} must be Optional[{hint.__name__}] "
                              "(a link may always be null)")
        return str(hint.__realm_name__) + "?"
    if hint is Results or origin is Results:
        raise SchemaError(f"{where}: Results are linking objects: give them a value, "
                          "= realmdb.LinkingObjects(OriginClass, 'property')")
    name = _SCALAR_TYPES.get(hint)
    if name is None:
        raise SchemaError(f"{where}: {hint!r} is not a stored type (int, float, str, bool, bytes, "
                          "datetime, Decimal, UUID, ObjectId, RealmValue, a model class, realmdb.List/Set/"
                          "Dictionary of these, Optional of any)")
    return name + ("?" if optional else "")


def bind_models(schema: Sequence[object]) -> Tuple[List[object], Dict[str, Type[Object]]]:
    """Split what :func:`realmdb.open` takes as a schema: dicts pass through, model classes
    become their dicts; also returns the models by their stored names."""
    models: List[Type[Object]] = [entry for entry in schema if is_model(entry)]  # type: ignore[misc]
    if not models:
        return list(schema), {}
    made = iter(model_schema(models))
    return [next(made) if is_model(entry) else entry for entry in schema], {m.__realm_name__: m for m in models}
