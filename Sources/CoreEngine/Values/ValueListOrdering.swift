/// Sorting and de-duplicating a collection's values by themselves, as a list or set of values
/// is sorted (`sorted(ascending:)`) or made distinct (`distinct()`). Both work on positions, so
/// that a caller can reorder values it holds in another form (a binding's own values).
package enum ValueListOrdering {
    /// `positions` ordered by their values in `values`: nulls first ascending, then NaN, then
    /// values by `ValueOrdering.sortCompare` (numbers by value, strings by code point); equal
    /// values keep their order.
    package static func sorted(_ positions: [Int], of values: [Value], ascending: Bool) -> [Int] {
        positions.enumerated().sorted { a, b in
            let order = ValueOrdering.sortCompare(values[a.element], values[b.element])
            return order != 0 ? (ascending ? order < 0 : order > 0) : a.offset < b.offset
        }.map(\.element)
    }

    /// `positions` without those whose value an earlier one already has (first seen kept).
    package static func distinct(_ positions: [Int], of values: [Value]) -> [Int] {
        var seen = Set<Value>()
        return positions.filter { seen.insert(values[$0]).inserted }
    }
}
