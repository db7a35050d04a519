/// What changed in a collection between two deliveries of its notifications, as indices a user
/// interface can apply directly.
///
/// Applying `deletions` (indices in the old collection) and then `insertions` (indices in the new
/// one) to the old collection yields the new one exactly. An element that changed position
/// (sorted results, a list's `move`) is one of `moves`, and also a deletion at its old index and an
/// insertion at its new one, as realm-core reports moves. `modifications` and `modificationsNew`
/// are pairs: the old and new index of each element that is in both collections and whose observed
/// properties changed, in the order of the old indices.
package struct CollectionChange: Equatable, Sendable {
    /// The first delivery: the collection fully evaluated, nothing else is set.
    package var isInitial = false
    package var deletions: [Int] = []
    package var insertions: [Int] = []
    package var modifications: [Int] = []
    package var modificationsNew: [Int] = []
    package var moves: [Move] = []

    package struct Move: Equatable, Sendable {
        package var from: Int
        package var to: Int

        package init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    // The memberwise initializer (internal): only the engine builds changes.

    package static let initial = CollectionChange(isInitial: true)

    /// Whether nothing changed (and it is not the initial delivery).
    package var isEmpty: Bool { !isInitial && deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// The changes from `old` to `new`, where elements may repeat (a list holding an object twice):
    /// the n-th occurrence of a value in `old` is the same element as its n-th occurrence in `new`.
    /// Elements in both whose relative order changed are moves; the fewest are chosen (the rest
    /// keep their order: a longest increasing subsequence).
    /// - Parameter isModified: whether an element in both collections changed.
    /// - Complexity: O((n + m) log(n + m)).
    package static func between<Element: Hashable>(_ old: [Element], _ new: [Element], isModified: (Element) -> Bool) -> CollectionChange {
        if let change = betweenUnique(old, new, isModified: isModified) { return change }
        var positions: [Element: [Int]] = [:]
        positions.reserveCapacity(old.count)
        for (index, element) in old.enumerated() { positions[element, default: []].append(index) }
        var used: [Element: Int] = [:]
        var matchedOld = [Bool](repeating: false, count: old.count)
        var pairs: [(old: Int, new: Int)] = []
        var change = CollectionChange()
        for (index, element) in new.enumerated() {
            let occurrence = used[element, default: 0]
            if let candidates = positions[element], occurrence < candidates.count {
                used[element] = occurrence + 1
                matchedOld[candidates[occurrence]] = true
                pairs.append((candidates[occurrence], index))
            } else {
                change.insertions.append(index)
            }
        }
        for (index, matched) in matchedOld.enumerated() where !matched { change.deletions.append(index) }
        change.addMovesAndModifications(pairs, new, isModified)
        return change
    }

    /// From the elements in both collections (`pairs` of old and new index, in new order): the
    /// moves (those outside a longest increasing subsequence of old indices, each also a
    /// deletion and an insertion) and the modifications.
    private mutating func addMovesAndModifications<Element>(_ pairs: [(old: Int, new: Int)], _ new: [Element],
                                                           _ isModified: (Element) -> Bool) {
        // Pairs already in order (nothing moved) need no subsequence search.
        var ordered = true
        for i in pairs.indices.dropFirst() where pairs[i].old < pairs[i - 1].old { ordered = false; break }
        if !ordered {
            let kept = Self.longestIncreasingSubsequence(pairs.map(\.old))
            for (i, pair) in pairs.enumerated() where !kept[i] {
                moves.append(Move(from: pair.old, to: pair.new))
                deletions.append(pair.old)
                insertions.append(pair.new)
            }
            deletions.sort()
            insertions.sort()
            moves.sort { $0.from < $1.from }
        }
        var modified = pairs.filter { isModified(new[$0.new]) }
        modified.sort { $0.old < $1.old }
        modifications = modified.map(\.old)
        modificationsNew = modified.map(\.new)
    }

    /// `between` when no element repeats in `old` (results of objects): one position per element,
    /// no arrays per element. Nil when `old` has a repeat.
    private static func betweenUnique<Element: Hashable>(_ old: [Element], _ new: [Element], isModified: (Element) -> Bool) -> CollectionChange? {
        var position = [Element: Int](minimumCapacity: old.count)
        for (index, element) in old.enumerated() {
            if position.updateValue(index, forKey: element) != nil { return nil }
        }
        var matchedOld = [Bool](repeating: false, count: old.count)
        var pairs: [(old: Int, new: Int)] = []
        pairs.reserveCapacity(min(old.count, new.count))
        var change = CollectionChange()
        for (index, element) in new.enumerated() {
            if let before = position[element], !matchedOld[before] {
                matchedOld[before] = true
                pairs.append((before, index))
            } else {
                change.insertions.append(index)
            }
        }
        for (index, matched) in matchedOld.enumerated() where !matched { change.deletions.append(index) }
        change.addMovesAndModifications(pairs, new, isModified)
        return change
    }

    /// `between` for object keys (no key repeats in either array) that mostly stay where they
    /// were, as in a section of sorted results after a few objects moved: the common prefix and
    /// suffix are compared in place, and only the span between is diffed by hashing. Objects in
    /// the prefix or suffix count as modified when `modified` holds them (nil: all do).
    static func between(uniqueKeys old: [Int64], _ new: [Int64], modified: Set<Int64>?) -> CollectionChange {
        var prefix = 0
        let shorter = Swift.min(old.count, new.count)
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldEnd = old.count - suffix, newEnd = new.count - suffix
        let middle = between(Array(old[prefix..<oldEnd]), Array(new[prefix..<newEnd])) { modified?.contains($0) ?? true }
        var change = CollectionChange()
        change.deletions = middle.deletions.map { $0 + prefix }
        change.insertions = middle.insertions.map { $0 + prefix }
        change.moves = middle.moves.map { Move(from: $0.from + prefix, to: $0.to + prefix) }
        // Modifications in old order: the prefix's, the span's, then the suffix's.
        func kept(_ range: Range<Int>, shift: Int) -> [(old: Int, new: Int)] {
            guard let modified else { return range.map { ($0 - shift, $0) } }
            if modified.isEmpty || range.isEmpty { return [] }
            return Array(new[range]).positions(of: modified).map { (range.lowerBound + $0.index - shift, range.lowerBound + $0.index) }
        }
        let pairs = kept(0..<prefix, shift: 0)
            + zip(middle.modifications, middle.modificationsNew).map { ($0 + prefix, $1 + prefix) }
            + kept(newEnd..<new.count, shift: newEnd - oldEnd)
        change.modifications = pairs.map(\.old)
        change.modificationsNew = pairs.map(\.new)
        return change
    }

    /// Marks the members of one longest strictly increasing subsequence of `values`.
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []        // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var kept = [Bool](repeating: false, count: values.count)
        var i = tails.last ?? -1
        while i >= 0 {
            kept[i] = true
            i = previous[i]
        }
        return kept
    }
}
