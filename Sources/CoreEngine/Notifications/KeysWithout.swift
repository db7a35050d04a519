/// An array of object keys without the elements at some indices, read in place: what a sorted
/// Results keeps of its previous keys when the objects at those indices were touched by a commit.
/// Indexing costs a binary search over the removed indices, so nothing of size n is copied until
/// the new keys are assembled (`append(_:to:)` copies runs of the old array).
struct KeysWithout {
    let old: [Int64]
    /// The removed indices, ascending.
    let removed: [Int]
    /// `removed[m] - m`: how many kept elements precede each removed one (non-decreasing).
    private let keptBeforeRemoved: [Int]

    init(_ old: [Int64], removing removed: [Int]) {
        self.old = old
        self.removed = removed
        keptBeforeRemoved = removed.enumerated().map { $0.element - $0.offset }
    }

    var count: Int { old.count - removed.count }

    /// The index in `old` of the kept element `i`.
    func oldIndex(ofKept i: Int) -> Int { i + keptBeforeRemoved.countBelow(i, orEqual: true) }

    subscript(i: Int) -> Int64 { old[oldIndex(ofKept: i)] }

    /// Appends the kept elements `range` to `out`, in runs of `old`.
    func append(_ range: Range<Int>, to out: inout [Int64]) {
        guard !range.isEmpty else { return }
        var index = oldIndex(ofKept: range.lowerBound)
        var next = removed.countBelow(index)  // the first removed index at or after `index`
        var remaining = range.count
        while remaining > 0 {
            while next < removed.count && removed[next] == index {
                index += 1
                next += 1
            }
            let end = next < removed.count ? min(removed[next], index + remaining) : index + remaining
            out.append(contentsOf: old[index..<end])
            remaining -= end - index
            index = end
        }
    }
}

extension KeysWithout {
    /// For each of `placed` (sorted rows of the objects to put back): how many kept keys precede
    /// it, found by binary search, which reads the sort values of O(log n) kept keys through `row`.
    /// Its new index is that plus its own position in `placed`.
    func ranks(of placed: [SortRow], by descriptors: [SortDescriptor], row: (Int64) throws -> SortRow) throws -> [Int] {
        var ranks: [Int] = []
        ranks.reserveCapacity(placed.count)
        var from = 0
        for entry in placed {
            var low = from, high = count
            while low < high {
                let mid = (low + high) / 2
                if RowOrdering.precedes(try row(self[mid]), entry, descriptors) { low = mid + 1 } else { high = mid }
            }
            ranks.append(low)
            from = low
        }
        return ranks
    }
}

extension Array where Element == Int64 {
    /// Removes the elements at `removed` (ascending indices) and inserts `inserted`, element `p`
    /// after `keptBefore[p]` of the elements that stay (non-decreasing): in place, rewriting only
    /// the span between the first and the last index that changes (and moving the tail when the
    /// count changes), so that one object moving a little in a million keys costs little.
    mutating func replace(removing removed: [Int], inserting inserted: [Int64], keptBefore: [Int]) {
        guard !removed.isEmpty || !inserted.isEmpty else { return }
        // Kept ranks below `start` keep their index; from rank `end` on, every removed index and
        // inserted element comes before, so the tail only shifts.
        let start = Swift.min(removed.first ?? count, keptBefore.first ?? count)
        let end = Swift.max(keptBefore.last ?? start, (removed.last ?? -1) + 1 - removed.count, start)
        // A span of most of the array: one new array (the old one copied once, not twice).
        let whole = (end - start) * 2 > count
        var middle: [Int64] = []
        middle.reserveCapacity(whole ? count - removed.count + inserted.count : end - start + inserted.count)
        if whole { middle.append(contentsOf: self[..<start]) }
        var oldIndex = start, next = 0, rank = start
        func keep(upTo limit: Int) {
            while rank < limit {
                while next < removed.count && removed[next] == oldIndex {
                    oldIndex += 1
                    next += 1
                }
                middle.append(self[oldIndex])
                oldIndex += 1
                rank += 1
            }
        }
        for (p, key) in inserted.enumerated() {
            keep(upTo: keptBefore[p])
            middle.append(key)
        }
        keep(upTo: end)
        if whole {
            middle.append(contentsOf: self[(end + removed.count)...])
            self = middle
        } else {
            replaceSubrange(start..<(end + removed.count), with: middle)
        }
    }

    /// The indices at which `keys` occur, ascending, with the key at each. One pass over the
    /// array that tests each element against a 64-Kibit filter of `keys` (a few nanoseconds per
    /// element) and only the elements that pass against the set itself.
    func positions(of keys: Set<Int64>) -> [(index: Int, key: Int64)] {
        guard !keys.isEmpty else { return [] }
        var filter = [UInt64](repeating: 0, count: 1 << 10)
        @inline(__always) func slot(_ key: Int64) -> Int { Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 48) }
        for key in keys {
            let bit = slot(key)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        var found: [(index: Int, key: Int64)] = []
        found.reserveCapacity(keys.count)
        filter.withUnsafeBufferPointer { bits in
            self.withUnsafeBufferPointer { elements in
                for index in 0..<elements.count {
                    let key = elements[index]
                    let bit = slot(key)
                    if bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0, keys.contains(key) {
                        found.append((index, key))
                    }
                }
            }
        }
        return found
    }
}
