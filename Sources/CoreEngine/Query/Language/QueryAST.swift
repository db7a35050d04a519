// The syntax tree of a Realm Query Language string, as produced by `QueryParser.parse(_:)`.
//
// Every node carries `range`, the UTF-8 byte offsets in the query text it was parsed from,
// so that later stages (type checking, evaluation) can report errors at the right place.
// Equality ignores ranges: two trees are equal when they mean the same query, which is what
// round-trip tests compare. Parentheses are not nodes: the tree's shape is the grouping, and
// `description` prints the canonical text with only the parentheses the shape needs.

/// A node whose meaning is one `Kind` value: a predicate, an expression or a suffix. Two nodes
/// are equal when their kinds are, wherever the text wrote them.
package protocol QueryNode: Equatable, Sendable {
    associatedtype Kind: Equatable, Sendable
    var kind: Kind { get }
    var range: Range<Int> { get }
    init(kind: Kind, range: Range<Int>)
}

extension QueryNode {
    package init(_ kind: Kind, range: Range<Int> = 0..<0) { self.init(kind: kind, range: range) }

    package static func == (a: Self, b: Self) -> Bool { a.kind == b.kind }
}

/// A whole query: a predicate and its `SORT`, `DISTINCT` and `LIMIT` suffixes in source order.
package struct Query: Equatable, Sendable {
    package var predicate: QueryPredicate
    /// In the order written; Realm applies them in that order, and any may repeat.
    package var suffixes: [QuerySuffix]
    package var range: Range<Int>

    package init(predicate: QueryPredicate, suffixes: [QuerySuffix] = [], range: Range<Int> = 0..<0) {
        self.predicate = predicate
        self.suffixes = suffixes
        self.range = range
    }

    package static func == (a: Query, b: Query) -> Bool { a.predicate == b.predicate && a.suffixes == b.suffixes }
}

/// `SORT(a ASC, b DESC)`, `DISTINCT(a, b)` or `LIMIT(n)`.
package struct QuerySuffix: QueryNode {
    package enum Kind: Equatable, Sendable {
        case sort([QuerySortKey])
        case distinct([QueryKeyPath])
        /// A non-negative count.
        case limit(Int64)
    }

    package var kind: Kind
    package var range: Range<Int>

    package init(kind: Kind, range: Range<Int>) { (self.kind, self.range) = (kind, range) }
}

/// One key of a `SORT(...)`.
package struct QuerySortKey: Equatable, Sendable {
    package var keyPath: QueryKeyPath
    package var ascending: Bool
    package var range: Range<Int>

    package init(_ keyPath: QueryKeyPath, ascending: Bool = true, range: Range<Int> = 0..<0) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.range = range
    }

    package static func == (a: QuerySortKey, b: QuerySortKey) -> Bool { a.keyPath == b.keyPath && a.ascending == b.ascending }
}

/// A condition on objects.
package struct QueryPredicate: QueryNode {
    package indirect enum Kind: Equatable, Sendable {
        case truePredicate
        case falsePredicate
        /// `a AND b AND c`: every operand of one chain, two or more, in order. A chain is a list,
        /// not nested pairs, so that a chain of any length costs no recursion (to compile, print,
        /// compare or free); an operand is itself a chain only where the text parenthesized it.
        case and([QueryPredicate])
        /// `a OR b OR c`, as `and`.
        case or([QueryPredicate])
        case not(QueryPredicate)
        /// Every binary operator: `== != < <= > >=`, the string operators and `IN`.
        case comparison(QueryComparison)
        case between(QueryBetween)
        /// `location GEOWITHIN geoCircle([lng, lat], radians)` and the other shapes.
        case geoWithin(QueryGeoWithin)
    }

    package var kind: Kind
    package var range: Range<Int>

    package init(kind: Kind, range: Range<Int>) { (self.kind, self.range) = (kind, range) }
}

/// `ANY`/`SOME`, `ALL`, `NONE` before a comparison over a collection (relationships issue).
package enum QueryQuantifier: String, Equatable, Sendable {
    /// Also written `SOME`.
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// A comparison operator, including the string operators and `IN`.
package enum QueryComparisonOperator: String, Equatable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    /// `*` matches any run of characters, `?` one character.
    case like = "LIKE"
    /// The right-hand side is a list literal, an argument (a list value) or a key path.
    case `in` = "IN"
    /// Full-text search: every word of the right-hand side is a word of the string
    /// (`bio TEXT 'swift lin* -java'`; see `FullTextSearch`).
    case text = "TEXT"

    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE: defined on strings (and binary) only.
    package var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .text: return true
        default: return false
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`); string operators and IN
    /// are returned as they are.
    package var swappedComparison: QueryComparisonOperator {
        switch self {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return self
        }
    }

    /// Whether `[c]`, `[d]` and `[cd]` may follow the operator: `==`, `!=`, the string
    /// operators and `IN`.
    package var acceptsStringOptions: Bool { (isStringOperator && self != .text) || self == .equal || self == .notEqual || self == .in }
}

/// `[c]` (case-insensitive), `[d]` (diacritic-insensitive) or both.
package struct QueryStringOptions: Equatable, Sendable {
    package var caseInsensitive: Bool
    package var diacriticInsensitive: Bool

    package init(caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) {
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
    }

    package static let none = QueryStringOptions()
}

/// `lhs op[options] rhs`, optionally quantified on either side: `ALL scores > 5`,
/// `age > ANY {18, 21}`, `ANY tags == ALL $0`.
package struct QueryComparison: Equatable, Sendable {
    package var quantifier: QueryQuantifier?
    package var lhs: QueryExpression
    package var op: QueryComparisonOperator
    package var options: QueryStringOptions
    /// Often a `.list` (`{a, b}`) or a list argument.
    package var rhs: QueryExpression
    /// `ANY`, `ALL` or `NONE` written after the operator, before a list or a list argument.
    package var rhsQuantifier: QueryQuantifier?

    package init(_ lhs: QueryExpression, _ op: QueryComparisonOperator, _ rhs: QueryExpression,
                options: QueryStringOptions = .none, quantifier: QueryQuantifier? = nil, rhsQuantifier: QueryQuantifier? = nil) {
        self.quantifier = quantifier
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
        self.rhsQuantifier = rhsQuantifier
    }
}

/// `value BETWEEN {lower, upper}`, both bounds inclusive.
package struct QueryBetween: Equatable, Sendable {
    package var quantifier: QueryQuantifier?
    package var value: QueryExpression
    package var lower: QueryExpression
    package var upper: QueryExpression

    package init(_ value: QueryExpression, lower: QueryExpression, upper: QueryExpression, quantifier: QueryQuantifier? = nil) {
        self.quantifier = quantifier
        self.value = value
        self.lower = lower
        self.upper = upper
    }
}

/// `location GEOWITHIN shape`: the objects whose location, a link to an embedded object
/// holding a GeoJSON point, lies in the shape.
package struct QueryGeoWithin: Equatable, Sendable {
    package var quantifier: QueryQuantifier?
    package var location: QueryExpression
    package var shape: QueryGeoShape
    package var shapeRange: Range<Int>

    package init(_ location: QueryExpression, _ shape: QueryGeoShape, quantifier: QueryQuantifier? = nil, shapeRange: Range<Int> = 0..<0) {
        self.quantifier = quantifier
        self.location = location
        self.shape = shape
        self.shapeRange = shapeRange
    }

    package static func == (a: QueryGeoWithin, b: QueryGeoWithin) -> Bool {
        a.quantifier == b.quantifier && a.location == b.location && a.shape == b.shape
    }
}

/// A point of a shape, `[longitude, latitude]` (an optional third value, the altitude, is
/// accepted and ignored, as in realm-core); each coordinate a number literal or an argument.
package struct QueryGeoPoint: Equatable, Sendable {
    package var coordinates: [QueryExpression]

    package init(_ coordinates: [QueryExpression]) { self.coordinates = coordinates }
}

/// The right-hand side of GEOWITHIN.
package enum QueryGeoShape: Equatable, Sendable {
    /// `geoBox([lng, lat], [lng, lat])`: the lower-left and upper-right corners.
    case box(QueryGeoPoint, QueryGeoPoint)
    /// `geoCircle([lng, lat], radians)`.
    case circle(QueryGeoPoint, radius: QueryExpression)
    /// `geoPolygon({[lng, lat], ...}, {...})`: an outer ring and holes, each closed.
    case polygon([[QueryGeoPoint]])
    /// `$n`: an argument giving the shape as its text, e.g. "geoBox([0, 0], [1, 1])".
    case argument(Int)
}

/// A value: a property, a literal, an argument or arithmetic on them.
package struct QueryExpression: QueryNode {
    package indirect enum Kind: Equatable, Sendable {
        case keyPath(QueryKeyPath)
        case literal(QueryLiteral)
        /// `$n`: the n-th argument passed with the query.
        case argument(Int)
        /// `$K<n>`: the key path that argument n gives as text (`"owner.name"`), as a whole path.
        case keyPathArgument(Int)
        /// `{a, b, ...}`: only as the right-hand side of `IN`.
        case list([QueryExpression])
        /// `-x` where x is not a number literal (`-5` is the literal -5).
        case negate(QueryExpression)
        case arithmetic(QueryArithmeticOperator, QueryExpression, QueryExpression)
        /// `SUBQUERY(collection, $x, predicate).@count`: how many elements match.
        case subquery(QuerySubquery)
        /// `obj('Class', primaryKey)`: the object of that class with that primary key (a literal
        /// or an argument), looked up when the query is compiled; null when there is none.
        case object(className: String, primaryKey: QueryExpression)
        /// `L<class>:<object>`: the object with that key in the class with that key (realm-core's
        /// link literal, as its descriptions print links). A bare `O<n>` is read as a property
        /// when the class has one of that name, else as the object with key n of the class the
        /// other side links to (the compiler decides: the parser cannot tell).
        case objectLink(table: UInt32, key: Int64)
    }

    package var kind: Kind
    package var range: Range<Int>

    package init(kind: Kind, range: Range<Int>) { (self.kind, self.range) = (kind, range) }
}

/// `+ - * /`; `*` and `/` bind tighter, all are left-associative.
package enum QueryArithmeticOperator: String, Equatable, Sendable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"

    var precedence: Int { self == .add || self == .subtract ? 1 : 2 }
}

/// `a.b.@count`, `dogs[FIRST].name`, `meta['color']`, `$d.age`: property names and `@`
/// components joined by `.`, each name optionally subscripted, optionally after a SUBQUERY
/// variable.
package struct QueryKeyPath: Equatable, Sendable {
    package struct Component: Equatable, Sendable {
        /// A property name as written, or for `@count` and its kin the lowercased name
        /// without `@`, with `isAtComponent` set.
        package var name: String
        package var isAtComponent: Bool
        /// `[FIRST]`, `[LAST]`, `[n]` or `['key']` written right after the name.
        package var selector: QuerySubscript?
        package var range: Range<Int>

        package init(_ name: String, isAtComponent: Bool = false, selector: QuerySubscript? = nil, range: Range<Int> = 0..<0) {
            self.name = name
            self.isAtComponent = isAtComponent
            self.selector = selector
            self.range = range
        }

        package static func == (a: Component, b: Component) -> Bool {
            a.name == b.name && a.isAtComponent == b.isAtComponent && a.selector == b.selector
        }
    }

    /// The SUBQUERY variable the path starts from (`d` for `$d.age`), or nil for the queried class.
    package var variable: String?
    /// May be empty only after a variable (`$d` alone names the element itself).
    package var components: [Component]
    package var range: Range<Int>

    package init(_ components: [Component], variable: String? = nil, range: Range<Int> = 0..<0) {
        self.components = components
        self.variable = variable
        self.range = range
    }

    /// A key path of plain property names, e.g. `QueryKeyPath("address", "city")`.
    package init(_ names: String...) {
        self.init(names.map { Component($0) })
    }

    package static func == (a: QueryKeyPath, b: QueryKeyPath) -> Bool { a.variable == b.variable && a.components == b.components }
}

/// A subscript on a key path component: a list position or a dictionary key.
package enum QuerySubscript: Equatable, Sendable {
    case first
    case last
    /// A zero-based position; `[n]` past the end matches nothing.
    case index(Int64)
    /// A dictionary key.
    case key(String)
    /// `[*]`: every element (of a list or set) or value (of a dictionary), as the bare property.
    case all
    /// `[$n]`: the n-th argument, a dictionary key (a string) or a list position (an integer).
    case argument(Int)
}

/// `SUBQUERY(collection, $variable, predicate).@count`: the predicate is evaluated for each
/// element of the collection with `$variable` naming the element.
package struct QuerySubquery: Equatable, Sendable {
    package var collection: QueryKeyPath
    package var variable: String
    package var predicate: QueryPredicate
    /// `count` or `size` (the only operators Realm allows after SUBQUERY).
    package var aggregate: String

    package init(collection: QueryKeyPath, variable: String, predicate: QueryPredicate, aggregate: String = "count") {
        self.collection = collection
        self.variable = variable
        self.predicate = predicate
        self.aggregate = aggregate
    }
}

/// A typed constant.
package enum QueryLiteral: Equatable, Sendable {
    /// `null` or `nil`.
    case null
    case bool(Bool)
    /// Decimal or hex; the unary minus of `-5` is folded in. Exactly convertible to decimal128.
    case int(Int64)
    /// A number with `.` or an exponent, or `inf`/`nan`, with its text exactly as written
    /// (`-` folded in, `inf`/`infinity`/`nan` normalized to `inf`/`nan`), so that a comparison
    /// with a decimal128 property can convert the text rather than the rounded double.
    /// Two double literals are equal when their texts are.
    case double(Double, text: String)
    case string(String)
    case timestamp(Timestamp)
    case objectID(ObjectID)
    case uuid(UUIDValue)
    case binary([UInt8])
    /// `decimal128(...)`: the text between the parentheses, exactly as written.
    case decimal128(String)

    package static func == (a: QueryLiteral, b: QueryLiteral) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(_, x), .double(_, y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.timestamp(x), .timestamp(y)): return x == y
        case let (.objectID(x), .objectID(y)): return x == y
        case let (.uuid(x), .uuid(y)): return x == y
        case let (.binary(x), .binary(y)): return x == y
        case let (.decimal128(x), .decimal128(y)): return x == y
        default: return false
        }
    }
}
