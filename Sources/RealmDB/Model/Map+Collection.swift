import CoreEngine

/// One entry of a `Map`, as iterating the map gives them: `for entry in dog.scores { entry.key }`.
public struct SingleMapEntry<Key: _MapKey, Value> {
    /// The entry's key.
    public let key: Key
    /// The entry's value.
    public let value: Value

    /// An entry of `key` and `value`.
    public init(key: Key, value: Value) {
        self.key = key
        self.value = value
    }
}

extension SingleMapEntry: Equatable where Value: Equatable {}
extension SingleMapEntry: Hashable where Value: Hashable {}

/// A map as a collection: its entries in key order, writes of several entries, and its values
/// sorted, queried and aggregated as a list's are.
extension Map: Sequence {
    /// The entries as they are when iteration starts, in the stored (key) order.
    public func makeIterator() -> IndexingIterator<[SingleMapEntry<Key, Value>]> {
        entries.map { SingleMapEntry(key: Key(stringKey: $0.key), value: $0.value) }.makeIterator()
    }

    /// The entries as `(key, value)` pairs, in the stored order:
    /// `for (name, score) in dog.scores.asKeyValueSequence() { ... }`.
    public func asKeyValueSequence() -> [(key: Key, value: Value)] {
        entries.map { (Key(stringKey: $0.key), $0.value) }
    }

    /// Sets the value of a key, adding the key if it is new (inside a write when managed).
    public func updateValue(_ value: Value, forKey key: Key) { self[key] = value }

    /// The value of a key, or nil when the map has no such key.
    public func object(forKey key: Key) -> Value? { self[key] }

    /// Adds the entries of `sequence`; for a key the map has already, `combine` gets the value it
    /// has and the new one and returns the value to keep.
    public func merge<S: Sequence>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
        where S.Element == (key: Key, value: Value) {
        for (key, value) in sequence {
            if let existing = self[key] {
                self[key] = try combine(existing, value)
            } else {
                self[key] = value
            }
        }
    }

    /// Adds the entries of a dictionary (see `merge(_:uniquingKeysWith:)`).
    public func merge(_ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.lazy.map { (key: $0.key, value: $0.value) }, uniquingKeysWith: combine)
    }

    /// Results of this map's values, before any step (see `valueBase(unmanaged:)`).
    func valueSource() -> ValueSource<Value> { ValueSource(base: valueBase { values }, steps: []) }
}

extension Map where Value: _PersistableSortable {
    /// The values sorted, as live results (see `List.sorted(ascending:)`).
    ///
    /// ```swift
    /// let best = dog.scores.sorted(ascending: false)   // Results<Int>
    /// ```
    public func sorted(ascending: Bool = true) -> Results<Value> {
        Results(source: valueSource().adding(.sorted(ascending: ascending)))
    }

    /// The values matching a query that names each value `self`, in key order, as live results
    /// (see `List.filter(_:_:)`): `dog.scores.filter("self > %@", 90)`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value> {
        engineOrTrap { Results(source: valueSource().adding(.filtered(try ValueSource<Value>.valueFilter(predicateFormat, args)))) }
    }
}

extension Map where Value: _PersistableMinMax {
    /// The least value, or nil when there is none; nulls are skipped.
    public func min() -> Value? { valueSource().aggregate(.min) }

    /// The greatest value, or nil when there is none; nulls are skipped.
    public func max() -> Value? { valueSource().aggregate(.max) }
}

extension Map where Value: _PersistableAddable {
    /// The sum of the values (nulls skipped), 0 when there are none.
    public func sum() -> Value { valueSource().aggregate(.sum)! }

    /// The mean of the values (nulls skipped) as `T`, or nil when there are none:
    /// `let mean: Double? = dog.scores.average()`.
    public func average<T: _PersistableAddable>() -> T? { valueSource().aggregate(.average) }
}
