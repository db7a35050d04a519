/// A key path of a query resolved against the schema: the links it follows from the queried
/// object (`hops`) and what it reads from each object it reaches (`leaf`).
///
/// `owner.name` is one to-one hop and the `name` property; `dogs.age` a to-many hop and `age`;
/// `dogs.@avg.age` no hop and an aggregate over `dogs`; `@links.Person.dogs.@count` the count of a
/// backlink hop. A path reaches any number of objects once a hop is to-many, so it has a list of
/// values per queried object, compared with `ANY` (the default), `ALL` or `NONE`.
package struct CompiledKeyPath: Sendable {
    package var hops: [LinkHop]
    package var leaf: KeyPathLeaf
    /// Arithmetic done on each value the path yields, in order (`items.price * 2`,
    /// `100 - scores`): realm-core's arithmetic between a collection and one value.
    package var arithmetic: [ElementArithmetic] = []

    /// Whether the path can yield more or less than one value per object: some hop is to-many,
    /// or the leaf reads a collection's elements or keys.
    package var isMultiValued: Bool {
        hops.contains { $0.isToMany } || leaf.isMultiValued
    }

    /// The type of the values the path yields (nil when any type may come, as for mixed).
    package var valueType: PropertyType? { arithmetic.last?.resultType ?? leaf.valueType }
}

/// One step of arithmetic between each value of a key path and one other value.
package struct ElementArithmetic: Sendable {
    package let op: ArithmeticOperator
    /// The other operand: a constant, or a value of the queried object (`scores * factor`).
    package let other: Operand
    /// Whether the path's value is the left operand (`scores - 1`) or the right (`1 - scores`).
    package let elementFirst: Bool
    /// The type of the results: int when both operands are ints, double otherwise.
    package let resultType: PropertyType
}

/// One step from an object to the objects it links to.
package struct LinkHop: Sendable {
    package enum Kind: Sendable {
        /// A to-one link property.
        case link
        /// A list of objects, optionally narrowed to one position (`dogs[FIRST]`).
        case list(ListPosition?)
        case set
        /// A dictionary of objects: its non-null values.
        case dictionary
        /// A dictionary of objects: the value of one key (`pets['rex'].age`).
        case dictionaryEntry(String)
        /// The objects of `table` whose column `column` links here (linkingObjects or `@links`).
        case backlinks
    }

    package var kind: Kind
    /// The column read on the object (for backlinks: the origin class's link column).
    let column: ColumnSpec
    /// The class the hop leads to.
    package let target: ClassInfo
    /// A name for messages, e.g. `dogs` or `@links.Person.dogs`.
    package let name: String

    init(kind: Kind, column: ColumnSpec, target: ClassInfo, name: String) {
        self.kind = kind
        self.column = column
        self.target = target
        self.name = name
    }

    package var isToMany: Bool {
        switch kind {
        case .link, .list(.some), .dictionaryEntry: return false
        default: return true
        }
    }
}

/// `[FIRST]`, `[LAST]` or `[n]` on a list.
package enum ListPosition: Sendable, Equatable {
    case first, last, index(Int)

    /// The element of `elements` at this position, if there is one.
    func pick<T>(_ elements: [T]) -> T? {
        switch self {
        case .first: return elements.first
        case .last: return elements.last
        case let .index(n): return n < elements.count ? elements[n] : nil
        }
    }
}

/// What a key path reads from each object its hops reach.
package indirect enum KeyPathLeaf: Sendable {
    /// A property with one value: a scalar, a mixed, or a to-one link (as a link value).
    case property(PropertyInfo)
    /// The elements of a list or set, or the values of a dictionary (links for collections of
    /// objects); with a position, one list element.
    case elements(PropertyInfo, ListPosition?)
    /// A dictionary's keys (`@keys`).
    case keys(PropertyInfo)
    /// A dictionary's value for one key (`meta['color']`): null when the key is absent.
    case entry(PropertyInfo, String)
    /// The objects a to-many hop reaches, themselves (as link values): `@links.Person.dogs`.
    case objects(LinkHop)
    /// The type name of each value another leaf yields (`mixed.@type`).
    case typeName(KeyPathLeaf)
    /// The length in bytes of each string or binary value another leaf yields (`name.@size`,
    /// UTF-8 bytes as in realm-core); null for a null value or a mixed of another type.
    case length(KeyPathLeaf)
    /// realm-core's `strings.length`: the length of each element of a list or set of strings,
    /// binary data or mixed values (UTF-8 bytes, bytes); 0 for a null element, nothing for a
    /// mixed element of another type.
    case elementLengths(PropertyInfo)
    /// `@count`/`@size` of a collection, of a to-many hop's objects, or of all backlinks.
    case count(CountedCollection)
    /// `@min`, `@max`, `@sum`, `@avg` of a collection of scalars, or of a property across a
    /// to-many hop's objects (`dogs.@avg.age`).
    case aggregate(Results.Aggregate, AggregatedValues)
    /// `SUBQUERY(hop, $x, predicate).@count`: how many of the hop's objects match.
    case subquery(LinkHop, SubqueryCondition)

    var isMultiValued: Bool {
        switch self {
        case .property, .entry, .count, .aggregate, .subquery: return false
        case let .elements(_, position): return position == nil
        case .keys, .objects, .elementLengths: return true
        case let .typeName(inner), let .length(inner): return inner.isMultiValued
        }
    }

    var valueType: PropertyType? {
        switch self {
        case let .property(p), let .elements(p, _), let .entry(p, _):
            return p.type == .mixed || p.type == .linkingObjects ? nil : p.type
        case .keys, .typeName: return .string
        case .objects: return .object
        case .count, .subquery, .length, .elementLengths: return .int
        case let .aggregate(aggregate, values):
            let type = values.elementType
            switch aggregate {
            case .average: return type == .decimal128 ? .decimal128 : .double
            case .sum: return type == .mixed ? .double : type
            case .min, .max: return type == .mixed ? nil : type
            }
        }
    }
}

/// What `@count`/`@size` counts.
package enum CountedCollection: Sendable {
    /// A list, set or dictionary property (elements, duplicates included).
    case collection(PropertyInfo)
    /// The objects a hop reaches: a linkingObjects property, `@links.Class.property`, or a
    /// to-one link (0 or 1, `owner.@count`).
    case hop(LinkHop)
    /// Every link to the object, from any class and property (`@links.@count`).
    case allBacklinks
}

/// The values an aggregate runs over.
package enum AggregatedValues: Sendable {
    /// The elements (dictionary: values) of a collection of scalars.
    case collection(PropertyInfo)
    /// A property of each object a to-many hop reaches.
    case hop(LinkHop, PropertyInfo)

    var elementType: PropertyType {
        switch self {
        case let .collection(p), let .hop(_, p): return p.type
        }
    }
}

/// The condition of a SUBQUERY, on the class its collection holds. A reference, so that a
/// `KeyPathReader` can keep one evaluator (and its last cluster) per SUBQUERY for a whole run.
package final class SubqueryCondition: Sendable {
    package let target: ClassInfo
    package let predicate: CompiledPredicate

    init(target: ClassInfo, predicate: CompiledPredicate) {
        self.target = target
        self.predicate = predicate
    }
}
