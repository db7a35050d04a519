import CoreEngine
import Foundation

/// A type whose values a collection gives the least and the greatest of (Realm's `MinMaxType`):
/// the integers, `Float`, `Double`, `Date`, `Decimal128`, and their optionals.
public protocol _PersistableMinMax: _Persistable {}

/// A type whose values a collection adds up and averages (Realm's `AddableType`): the integers,
/// `Float`, `Double`, and their optionals. (The engine does not add up `Decimal128` values yet.)
public protocol _PersistableAddable: _PersistableMinMax {}

extension Int: _PersistableAddable {}
extension Int64: _PersistableAddable {}
extension Int32: _PersistableAddable {}
extension Int16: _PersistableAddable {}
extension Int8: _PersistableAddable {}
extension Float: _PersistableAddable {}
extension Double: _PersistableAddable {}
extension Date: _PersistableMinMax {}
extension Decimal128: _PersistableMinMax {}
extension Optional: _PersistableMinMax where Wrapped: _PersistableMinMax {}
extension Optional: _PersistableAddable where Wrapped: _PersistableAddable {}

extension List where Element: _PersistableMinMax {
    /// The least element, or nil when there is none; nulls are skipped.
    ///
    /// ```swift
    /// let lowest = person.scores.min()   // List<Int>
    /// ```
    public func min() -> Element? { aggregateOfValues(self, .min) }

    /// The greatest element, or nil when there is none; nulls are skipped.
    public func max() -> Element? { aggregateOfValues(self, .max) }
}

extension List where Element: _PersistableAddable {
    /// The sum of the elements (nulls skipped), 0 when there are none. An integer sum beyond
    /// 64 bits stops the program with a message.
    public func sum() -> Element { aggregateOfValues(self, .sum)! }

    /// The mean of the elements (nulls skipped) as `T`, or nil when there are none:
    /// `let mean: Double? = person.scores.average()`.
    public func average<T: _PersistableAddable>() -> T? { aggregateOfValues(self, .average) }
}

extension MutableSet where Element: _PersistableMinMax {
    /// The least element, or nil when there is none; nulls are skipped.
    public func min() -> Element? { aggregateOfValues(self, .min) }

    /// The greatest element, or nil when there is none; nulls are skipped.
    public func max() -> Element? { aggregateOfValues(self, .max) }
}

extension MutableSet where Element: _PersistableAddable {
    /// The sum of the elements (nulls skipped), 0 when there are none.
    public func sum() -> Element { aggregateOfValues(self, .sum)! }

    /// The mean of the elements (nulls skipped) as `T`, or nil when there are none.
    public func average<T: _PersistableAddable>() -> T? { aggregateOfValues(self, .average) }
}

/// An aggregate of a list's or set's values, as `T`: computed by the engine over the stored
/// collection when it is managed, else over the elements it holds, by the same rules.
private func aggregateOfValues<C: ManagedCollectionHolder & Sequence, T: _Persistable>(_ collection: C, _ kind: CoreEngine.Results.Aggregate) -> T?
    where C.Element: _Persistable {
    engineOrTrap {
        let result: Value?
        if let managed = collection.managedCollection {
            result = try managed.accessor.aggregate(kind)
        } else {
            let values = try collection.map { try $0._rlmValue(in: nil).raw }
            result = try CollectionAccessor.aggregate(kind, of: values, elementType: C.Element._rlmShape.type) { "a collection of \(C.Element.self)" }
        }
        guard let result, !result.isNull else { return nil }
        return try T._rlmConvert(swiftValue(ofAggregate: result))
    }
}

/// A number or date the engine computed, as the Swift value `_rlmConvert` takes.
func swiftValue(ofAggregate value: Value) -> Any? {
    switch value {
    case let .int(number): return Int(number)
    case let .float(number): return number
    case let .double(number): return number
    case let .timestamp(stamp): return Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanoseconds) / 1e9)
    case let .decimal128(number): return Decimal128(raw: number)
    default: return nil
    }
}
