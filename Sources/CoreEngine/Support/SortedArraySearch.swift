/// Binary search in ascending arrays.
extension Array where Element: Comparable {
    /// How many elements are below `value` (or, with `orEqual`, at most `value`).
    func countBelow(_ value: Element, orEqual: Bool = false) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < value || (orEqual && self[mid] == value) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of `value`, or nil when it is absent.
    func sortedIndex(of value: Element) -> Int? {
        let index = countBelow(value)
        return index < count && self[index] == value ? index : nil
    }
}
