import CoreEngine
import Foundation

/// A type-safe query on a model, built from key paths and operators instead of text:
///
/// ```swift
/// let puppies = realm.objects(Dog.self).where { $0.age < 2 && $0.name.starts(with: "R") }
/// let ownedByAnn = dogs.where { $0.owner.name == "Ann" }
/// let withBalls = dogs.where { $0.toys.name.contains("ball", options: .caseInsensitive) }
/// ```
///
/// The closure runs once, building the engine's query syntax tree directly (values go in as
/// arguments, never spliced into text), which the engine checks and compiles like a query string.
@dynamicMemberLookup
public struct Query<T> {
    let builder: QueryBuilder
    let node: Node

    enum Node {
        case keyPath([String])
        case expression(QueryExpression)
        case predicate(QueryPredicate)
    }

    init(_ builder: QueryBuilder, _ node: Node) {
        self.builder = builder
        self.node = node
    }

    // MARK: Properties

    /// A property of the object (`$0.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: Object {
        appending(engineOrTrap { try _KeyPathRecorder.name(of: keyPath) })
    }

    /// A property of a linked object (`$0.owner.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Wrapped, V>) -> Query<V> where T: _QueryOptional, T.Wrapped: Object {
        appending(engineOrTrap { try _KeyPathRecorder.name(of: keyPath) })
    }

    /// A property of the objects of a list (`$0.toys.brand`): comparisons match when any object's does.
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> where T: _QueryCollection, T.Element: Object {
        appending(engineOrTrap { try _KeyPathRecorder.name(of: keyPath) })
    }

    private func appending<V>(_ name: String) -> Query<V> {
        guard case .keyPath(let names) = node else {
            fatalError("RealmDB: a property can only follow a property in a query (\(name))")
        }
        // (A name with a dot is a key path through links, recorded whole.)
        return Query<V>(builder, .keyPath(names + (name.utf8.contains(UInt8(ascii: ".")) ? name.split(separator: ".").map(String.init) : [name])))
    }

    // MARK: Building blocks

    var expression: QueryExpression {
        switch node {
        case .keyPath(let names):
            return QueryExpression(.keyPath(QueryKeyPath(names.map { component in
                component.hasPrefix("@")
                    ? QueryKeyPath.Component(String(component.dropFirst()), isAtComponent: true)
                    : QueryKeyPath.Component(component)
            })))
        case .expression(let expression):
            return expression
        case .predicate:
            fatalError("RealmDB: a condition is not a value in a query")
        }
    }

    func comparison(_ op: QueryComparisonOperator, _ rhs: QueryExpression, options: QueryStringOptions = .none) -> Query<Bool> {
        Query<Bool>(builder, .predicate(QueryPredicate(.comparison(QueryComparison(expression, op, rhs, options: options)))))
    }

    func comparison<V>(_ op: QueryComparisonOperator, _ value: V, options: QueryStringOptions = .none) -> Query<Bool> {
        comparison(op, builder.argument(value), options: options)
    }

    func comparison<V: _Persistable>(_ op: QueryComparisonOperator, _ value: V, options: QueryStringOptions = .none) -> Query<Bool> {
        comparison(op, builder.argument(value), options: options)
    }
}

/// The arguments of one query under construction: every constant becomes `$n`.
final class QueryBuilder {
    var arguments: [QueryArgument] = []

    func argument<V>(_ value: V) -> QueryExpression {
        append(engineOrTrap { try QueryFormat.queryArgument(value as Any) })
    }

    /// A stored type's value: a scalar (or nil) converts through its own type, without the
    /// dynamic casts of `QueryFormat.queryArgument` (thousands of instructions per argument).
    /// Links, `AnyRealmValue` and collections take the general way.
    func argument<V: _Persistable>(_ value: V) -> QueryExpression {
        let shape = V._rlmShape
        guard shape.collection == .none, shape.type != .object, shape.type != .mixed else {
            return argument(value as Any)
        }
        return append(.value(engineOrTrap { try translatingErrors { try value._rlmValue(in: nil).raw } }))
    }

    private func append(_ argument: QueryArgument) -> QueryExpression {
        arguments.append(argument)
        return QueryExpression(.argument(arguments.count - 1))
    }
}

extension Query where T == Bool {
    /// The condition: a comparison, a combination, or a Bool property compared with true.
    var predicate: QueryPredicate {
        if case .predicate(let predicate) = node { return predicate }
        return QueryPredicate(.comparison(QueryComparison(expression, .equal, QueryExpression(.literal(.bool(true))))))
    }

    /// Both conditions hold.
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(lhs.builder, .predicate(QueryPredicate(.and([lhs.predicate, rhs.predicate]))))
    }

    /// Either condition holds.
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(lhs.builder, .predicate(QueryPredicate(.or([lhs.predicate, rhs.predicate]))))
    }

    /// The condition does not hold.
    public static prefix func ! (query: Query<Bool>) -> Query<Bool> {
        Query(query.builder, .predicate(QueryPredicate(.not(query.predicate))))
    }
}

// MARK: Comparisons

extension Query where T: _Persistable {
    /// Whether the value equals `rhs`.
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.equal, rhs) }
    /// Whether the value differs from `rhs`.
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.notEqual, rhs) }
    /// Whether the value equals that of `rhs` (another property or expression).
    public static func == (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.equal, rhs.expression) }
    /// Whether the value differs from that of `rhs`.
    public static func != (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.notEqual, rhs.expression) }

    /// Whether the value is one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        comparison(.in, Array(values))
    }
}

extension Query where T: _QueryComparable {
    /// Whether the value is less than `rhs`.
    public static func < (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.less, rhs) }
    /// Whether the value is less than or equal to `rhs`.
    public static func <= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.lessOrEqual, rhs) }
    /// Whether the value is greater than `rhs`.
    public static func > (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.greater, rhs) }
    /// Whether the value is greater than or equal to `rhs`.
    public static func >= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.comparison(.greaterOrEqual, rhs) }
    /// Whether the value is less than that of `rhs` (another property or expression).
    public static func < (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.less, rhs.expression) }
    /// Whether the value is less than or equal to that of `rhs` (another property or expression).
    public static func <= (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.lessOrEqual, rhs.expression) }
    /// Whether the value is greater than that of `rhs`.
    public static func > (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.greater, rhs.expression) }
    /// Whether the value is greater than or equal to that of `rhs`.
    public static func >= (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.comparison(.greaterOrEqual, rhs.expression) }

    /// Whether the value is within the range, bounds included (`BETWEEN`).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> where T: Comparable {
        Query<Bool>(builder, .predicate(QueryPredicate(.between(QueryBetween(expression, lower: builder.argument(range.lowerBound),
                                                                              upper: builder.argument(range.upperBound))))))
    }
}

extension Query where T: _QueryNumeric {
    /// The sum of the value and `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func + (lhs: Query<T>, rhs: T) -> Query<T> { lhs.arithmetic(.add, lhs.builder.argument(rhs)) }
    /// The difference of the value and `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func - (lhs: Query<T>, rhs: T) -> Query<T> { lhs.arithmetic(.subtract, lhs.builder.argument(rhs)) }
    /// The product of the value and `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func * (lhs: Query<T>, rhs: T) -> Query<T> { lhs.arithmetic(.multiply, lhs.builder.argument(rhs)) }
    /// The quotient of the value and `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func / (lhs: Query<T>, rhs: T) -> Query<T> { lhs.arithmetic(.divide, lhs.builder.argument(rhs)) }
    /// The sum of the value and the value of `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func + (lhs: Query<T>, rhs: Query<T>) -> Query<T> { lhs.arithmetic(.add, rhs.expression) }
    /// The difference of the value and the value of `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func - (lhs: Query<T>, rhs: Query<T>) -> Query<T> { lhs.arithmetic(.subtract, rhs.expression) }
    /// The product of the value and the value of `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func * (lhs: Query<T>, rhs: Query<T>) -> Query<T> { lhs.arithmetic(.multiply, rhs.expression) }
    /// The quotient of the value and the value of `rhs`, for comparing (`$0.age * 2 > 10`).
    public static func / (lhs: Query<T>, rhs: Query<T>) -> Query<T> { lhs.arithmetic(.divide, rhs.expression) }

    private func arithmetic(_ op: QueryArithmeticOperator, _ rhs: QueryExpression) -> Query<T> {
        Query(builder, .expression(QueryExpression(.arithmetic(op, expression, rhs))))
    }
}

// MARK: Strings

/// How strings compare in a query.
public struct StringOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// "A" matches "a".
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// "é" matches "e".
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    var engineOptions: QueryStringOptions {
        QueryStringOptions(caseInsensitive: contains(.caseInsensitive), diacriticInsensitive: contains(.diacriticInsensitive))
    }
}

extension Query where T: _QueryString {
    /// Whether the string starts with `prefix`.
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        comparison(.beginsWith, prefix, options: options.engineOptions)
    }

    /// Whether the string ends with `suffix`.
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        comparison(.endsWith, suffix, options: options.engineOptions)
    }

    /// Whether the string contains `text`.
    public func contains(_ text: String, options: StringOptions = []) -> Query<Bool> {
        comparison(.contains, text, options: options.engineOptions)
    }

    /// Whether the string equals `text`, compared as `options` say.
    public func equals(_ text: String, options: StringOptions = []) -> Query<Bool> {
        comparison(.equal, text, options: options.engineOptions)
    }

    /// `*` matches any run of characters, `?` one character.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        comparison(.like, pattern, options: QueryStringOptions(caseInsensitive: caseInsensitive))
    }
}

// MARK: Collections

extension Query where T: _QueryCollection {
    /// The number of elements (`@count`).
    public var count: Query<Int> { collectionAggregate("@count") }

    /// Whether the list holds `element` (an object for a list of objects).
    public func contains(_ element: T.Element) -> Query<Bool> {
        Query<Bool>(builder, .predicate(QueryPredicate(.comparison(QueryComparison(builder.argument(element), .in, expression)))))
    }

    /// The smallest, largest, total and mean of the elements (`@min`, `@max`, `@sum`, `@avg`).
    public var min: Query<T.Element> { collectionAggregate("@min") }
    /// The largest element (`@max`).
    public var max: Query<T.Element> { collectionAggregate("@max") }
    /// The total of the elements (`@sum`).
    public var sum: Query<T.Element> { collectionAggregate("@sum") }
    /// The mean of the elements (`@avg`).
    public var avg: Query<T.Element> { collectionAggregate("@avg") }

    private func collectionAggregate<V>(_ name: String) -> Query<V> {
        guard case .keyPath(let names) = node else { fatalError("RealmDB: \(name) follows a list property") }
        return Query<V>(builder, .keyPath(names + [name]))
    }
}

// MARK: What may be compared how

/// Optionals, for properties of linked objects.
public protocol _QueryOptional { associatedtype Wrapped }
extension Optional: _QueryOptional {}

/// Collections whose elements a query may reach.
public protocol _QueryCollection { associatedtype Element }
extension List: _QueryCollection {}

/// Types with an order in queries.
public protocol _QueryComparable: _Persistable {}
/// Types with arithmetic in queries.
public protocol _QueryNumeric: _QueryComparable {}
/// Strings and optional strings.
public protocol _QueryString: _QueryComparable {}

extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Date: _QueryComparable {}
extension ObjectId: _QueryComparable {}
extension UUID: _QueryComparable {}
extension String: _QueryString {}
extension Optional: _QueryComparable where Wrapped: _QueryComparable {}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}
extension Optional: _QueryString where Wrapped: _QueryString {}

extension Results where Element: Object {
    /// The objects matching a type-safe query (see `Query`).
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        let (query, arguments) = Self.build(isIncluded)
        return engineOrTrap { Results(try translatingErrors { try engineResults.filter(query, arguments: arguments) }, handle: handle) }
    }

    /// The position of the first object matching a type-safe query, or nil.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        let (query, arguments) = Self.build(isIncluded)
        return engineOrTrap { try translatingErrors { try engineResults.index(matching: query, arguments: arguments) } }
    }

    /// Runs the closure once on a query of the class: the syntax tree it builds and its arguments.
    private static func build(_ isIncluded: (Query<Element>) -> Query<Bool>) -> (CoreEngine.Query, [QueryArgument]) {
        let builder = QueryBuilder()
        let condition = isIncluded(Query<Element>(builder, .keyPath([])))
        return (CoreEngine.Query(predicate: condition.predicate), builder.arguments)
    }
}
