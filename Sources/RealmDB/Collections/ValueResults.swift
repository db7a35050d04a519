import CoreEngine
import Foundation

/// A type whose values a collection sorts by themselves (Realm's `SortableType`): the integers,
/// `Float`, `Double`, `Bool`, `String`, `Date`, `Decimal128`, `ObjectId`, `UUID`,
/// `AnyRealmValue`, and their optionals.
public protocol _PersistableSortable: _Persistable {}

extension Int: _PersistableSortable {}
extension Int64: _PersistableSortable {}
extension Int32: _PersistableSortable {}
extension Int16: _PersistableSortable {}
extension Int8: _PersistableSortable {}
extension Float: _PersistableSortable {}
extension Double: _PersistableSortable {}
extension Bool: _PersistableSortable {}
extension String: _PersistableSortable {}
extension Date: _PersistableSortable {}
extension Decimal128: _PersistableSortable {}
extension ObjectId: _PersistableSortable {}
extension UUID: _PersistableSortable {}
extension AnyRealmValue: _PersistableSortable {}
extension Optional: _PersistableSortable where Wrapped: _PersistableSortable {}

extension List where Element: _PersistableSortable {
    /// The values sorted, as live results: nulls first when ascending, numbers by value, strings
    /// by code point, equal values in their list order.
    ///
    /// ```swift
    /// let best = person.scores.sorted(ascending: false)   // Results<Int>
    /// ```
    public func sorted(ascending: Bool = true) -> Results<Element> {
        valueResults(.sorted(ascending: ascending))
    }

    /// The values without repeats (the first of each, in list order), as live results.
    public func distinct() -> Results<Element> {
        valueResults(.distinct)
    }

    /// The values matching a query that names each value `self`, in list order, as live results.
    /// The query is the Realm Query Language's (with `%@` and `$0` arguments, see
    /// `Results.filter(_:_:)`); `self.@size` is a string's length in UTF-8 bytes and
    /// `self.@type` a mixed value's type. A malformed query stops the program with its message,
    /// as in Realm's SDK.
    ///
    /// ```swift
    /// let high = person.scores.filter("self > %@", 90)        // Results<Int>
    /// let short = dog.nicknames.filter("self.@size < 4")
    /// ```
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        engineOrTrap { valueResults(.filtered(try ValueSource<Element>.valueFilter(predicateFormat, args))) }
    }

    /// The position of the first value matching a query (see `filter(_:_:)`), or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        engineOrTrap { try ValueSource<Element>.firstMatch(in: ValueSource(base: valueBase(), steps: []), predicateFormat, args) }
    }
}

extension MutableSet where Element: _PersistableSortable {
    /// The values sorted, as live results (see `List.sorted(ascending:)`).
    public func sorted(ascending: Bool = true) -> Results<Element> {
        valueResults(.sorted(ascending: ascending))
    }

    /// The values as live results (a set holds no repeats).
    public func distinct() -> Results<Element> {
        valueResults(.distinct)
    }

    /// The values matching a query that names each value `self`, as live results (see
    /// `List.filter(_:_:)`).
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        engineOrTrap { valueResults(.filtered(try ValueSource<Element>.valueFilter(predicateFormat, args))) }
    }
}

/// Results of values (`person.scores.distinct()`): sorted, made distinct and queried again, and aggregated.
extension Results where Element: _PersistableSortable {
    /// The values sorted (see `List.sorted(ascending:)`); a later sort decides over an earlier one,
    /// whose order stays among equal values.
    public func sorted(ascending: Bool = true) -> Results<Element> {
        Results(source: valueSource.adding(.sorted(ascending: ascending)))
    }

    /// The values without repeats, the first of each in the results' order.
    public func distinct() -> Results<Element> {
        Results(source: valueSource.adding(.distinct))
    }

    /// The values matching a query that names each value `self`, in the results' order (see
    /// `List.filter(_:_:)`). A malformed query stops the program; `query(_:_:)` throws instead.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        engineOrTrap { Results(source: valueSource.adding(.filtered(try ValueSource<Element>.valueFilter(predicateFormat, args)))) }
    }

    /// `filter` that throws `.query` (with the offset of the token at fault) instead of stopping.
    public func query(_ predicateFormat: String, _ args: Any...) throws(RealmError) -> Results<Element> {
        Results(source: valueSource.adding(.filtered(try translatingErrors { try ValueSource<Element>.valueFilter(predicateFormat, args) })))
    }

    /// The position of the first value matching a query (see `filter(_:_:)`), or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        engineOrTrap { try ValueSource<Element>.firstMatch(in: valueSource, predicateFormat, args) }
    }

    /// The source of results of values: always a `ValueSource` (only those have elements that
    /// are not objects).
    var valueSource: ValueSource<Element> { unsafeDowncast(source as AnyObject, to: ValueSource<Element>.self) }
}

extension Results where Element: _PersistableSortable & _PersistableMinMax {
    /// The least value, or nil when there is none; nulls are skipped.
    public func min() -> Element? { valueSource.aggregate(.min) }

    /// The greatest value, or nil when there is none; nulls are skipped.
    public func max() -> Element? { valueSource.aggregate(.max) }
}

extension Results where Element: _PersistableSortable & _PersistableAddable {
    /// The sum of the values (nulls skipped), 0 when there are none.
    public func sum() -> Element { valueSource.aggregate(.sum)! }

    /// The mean of the values (nulls skipped) as `T`, or nil when there are none.
    public func average<T: _PersistableAddable>() -> T? { valueSource.aggregate(.average) }
}

extension ManagedCollectionHolder {
    /// What results of this collection's values read: the stored collection (a dictionary's
    /// values), or `unmanaged()`, the values an unmanaged one holds now.
    func valueBase<Element>(unmanaged: () -> [Element]) -> ValueSource<Element>.Base {
        guard let managed = managedCollection else { return .unmanaged(unmanaged()) }
        return .managed(ManagedCollection<CollectionAccessor>(accessor: managed.accessor, handle: managed.handle))
    }
}

extension ManagedCollectionHolder where Self: Sequence, Self.Element: _Persistable {
    /// `valueBase(unmanaged:)` of a list or set, whose elements are its values.
    func valueBase() -> ValueSource<Self.Element>.Base { valueBase { Array(self) } }

    /// This collection's values after `step` (sorted, made distinct or queried), as results.
    func valueResults(_ step: ValueSource<Self.Element>.Step) -> Results<Self.Element> {
        Results(source: ValueSource(base: valueBase(), steps: [step]))
    }
}

/// The values of a list or set, sorted, made distinct or queried, as `Results` read them: live like the
/// collection (each use reads its values again), or, for an unmanaged collection, the values it
/// held when the results were made.
final class ValueSource<Element: _Persistable>: ResultsSource {
    enum Base {
        case managed(ManagedCollection<CollectionAccessor>)
        case unmanaged([Element])
    }

    /// What is done to the values, in order.
    enum Step {
        case sorted(ascending: Bool)
        case distinct
        /// Only the values a query over values matches (`filter("self > 3")`).
        case filtered(ValueFilter)
    }

    /// The query of `filter(format, args)`, compiled for this element type now, so that a
    /// malformed one fails where it is written.
    static func valueFilter(_ predicateFormat: String, _ args: [Any]) throws -> ValueFilter {
        let (query, arguments) = try QueryFormat.rewrite(predicateFormat, args)
        let shape = Element._rlmShape
        return try ValueFilter(query, arguments: arguments, elementType: shape.type, isOptional: shape.isOptional)
    }

    /// The position in `source`'s values of the first that `filter(format, args)` matches.
    static func firstMatch(in source: ValueSource, _ predicateFormat: String, _ args: [Any]) throws -> Int? {
        let filter = try valueFilter(predicateFormat, args)
        return try source.storedValues().firstIndex(where: filter.matches)
    }

    let base: Base
    let steps: [Step]

    init(base: Base, steps: [Step]) {
        self.base = base
        self.steps = steps
    }

    func adding(_ step: Step) -> ValueSource { ValueSource(base: base, steps: steps + [step]) }

    var realm: Realm? {
        guard case let .managed(managed) = base else { return nil }
        return managed.realm
    }

    var isInvalidated: Bool {
        guard case let .managed(managed) = base else { return false }
        return managed.isInvalidated
    }

    var isFrozen: Bool {
        guard case let .managed(managed) = base else { return false }
        return managed.isFrozen
    }

    /// The positions of `values` after every step.
    private func positions(of values: [Value]) -> [Int] {
        var positions = Array(values.indices)
        for step in steps {
            switch step {
            case let .sorted(ascending): positions = ValueListOrdering.sorted(positions, of: values, ascending: ascending)
            case .distinct: positions = ValueListOrdering.distinct(positions, of: values)
            case let .filtered(filter): positions = filter.filtered(positions, of: values)
            }
        }
        return positions
    }

    /// The values now, as the engine stores them, after every step.
    func storedValues() throws -> [Value] {
        let values: [Value]
        switch base {
        case let .managed(managed): values = try managed.accessor.elementValues()
        case let .unmanaged(elements): values = try elements.map { try $0._rlmValue(in: nil).raw }
        }
        return positions(of: values).map { values[$0] }
    }

    /// The elements now, after every step.
    func elements() throws -> [Element] {
        switch base {
        case let .managed(managed):
            let values = try managed.accessor.elementValues()
            return try positions(of: values).map { try Element._rlmFrom(_StoredValue(values[$0]), in: managed.handle) }
        case let .unmanaged(elements):
            return positions(of: try elements.map { try $0._rlmValue(in: nil).raw }).map { elements[$0] }
        }
    }

    /// min, max, sum or average of the values, as `T` (see `List.min()`).
    func aggregate<T: _Persistable>(_ kind: CoreEngine.Results.Aggregate) -> T? {
        engineOrTrap {
            let result = try CollectionAccessor.aggregate(kind, of: try storedValues(), elementType: Element._rlmShape.type) {
                "a collection of \(Element.self)"
            }
            guard let result, !result.isNull else { return nil }
            return try T._rlmConvert(swiftValue(ofAggregate: result))
        }
    }

    func count() throws -> Int { try elements().count }

    func element(at position: Int) throws -> Element {
        let elements = try elements()
        guard position >= 0, position < elements.count else {
            throw RealmError(.outOfRange, "position \(position) is out of range (there are \(elements.count) values)")
        }
        return elements[position]
    }

    func startIteration() throws -> ResultsIteration<Element> {
        let elements = try elements()
        return ResultsIteration(count: elements.count, values: elements)
    }

    func next(_ iteration: inout ResultsIteration<Element>) -> Element? {
        guard iteration.position < iteration.count else { return nil }
        defer { iteration.position += 1 }
        return iteration.values[iteration.position]
    }

    func freeze() throws -> any ResultsSource<Element> {
        guard case let .managed(managed) = base, !managed.isFrozen else { return self }
        return ValueSource(base: .managed(try managed.frozen()), steps: steps)
    }

    func thaw() throws -> (any ResultsSource<Element>)? {
        guard case let .managed(managed) = base else { return self }
        return managed.thawed().map { ValueSource(base: .managed($0), steps: steps) }
    }

    var description: String {
        guard let elements = try? elements() else { return "Results<\(Element.self)> (invalidated)" }
        return "Results<\(Element.self)> [\(elements.map { "\($0)" }.joined(separator: ", "))]"
    }
}
