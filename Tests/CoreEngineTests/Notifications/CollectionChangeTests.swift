import XCTest
@testable import CoreEngine

/// `CollectionChange.between` (Notifications/CollectionChange) on plain arrays: the indices a user
/// interface applies, the fewest moves, repeated elements, and the invariant over random edits.
final class CollectionChangeTests: XCTestCase {
    /// Applies deletions (old indices) then insertions (new indices), as a table view would.
    private func apply<Element>(_ change: CollectionChange, to old: [Element], new: [Element]) -> [Element] {
        var result = old
        for index in change.deletions.reversed() { result.remove(at: index) }
        for index in change.insertions { result.insert(new[index], at: index) }
        return result
    }

    func testInsertionsDeletionsAndModificationsByIndex() {
        let change = CollectionChange.between(["a", "b", "c"], ["a", "c", "d"]) { $0 == "c" }
        XCTAssertEqual(change, CollectionChange(deletions: [1], insertions: [2], modifications: [2], modificationsNew: [1]))
        XCTAssertFalse(change.isEmpty)
        XCTAssertTrue(CollectionChange.between(["a", "b"], ["a", "b"]) { _ in false }.isEmpty)
        XCTAssertFalse(CollectionChange.initial.isEmpty, "the first delivery is never empty")
    }

    func testAMovedElementIsOneMoveAlsoReportedAsDeletionAndInsertion() {
        let change = CollectionChange.between(["a", "b", "c", "d"], ["d", "a", "b", "c"]) { _ in false }
        XCTAssertEqual(change.moves, [CollectionChange.Move(from: 3, to: 0)], "the fewest moves: only d moved")
        XCTAssertEqual(change.deletions, [3])
        XCTAssertEqual(change.insertions, [0])
        XCTAssertEqual(apply(change, to: ["a", "b", "c", "d"], new: ["d", "a", "b", "c"]), ["d", "a", "b", "c"])
    }

    func testRepeatedElementsPairByOccurrence() {
        // The second "x" of the old list is the second of the new one: only the "y" between goes.
        let change = CollectionChange.between(["x", "y", "x"], ["x", "x"]) { _ in false }
        XCTAssertEqual(change.deletions, [1])
        XCTAssertEqual(change.insertions, [])
        let grown = CollectionChange.between(["x"], ["x", "x", "x"]) { _ in false }
        XCTAssertEqual(grown.insertions, [1, 2], "new occurrences are insertions after the matched one")
    }

    func testLongestIncreasingSubsequenceKeepsTheMostElementsInPlace() {
        let kept = CollectionChange.longestIncreasingSubsequence([2, 0, 1, 5, 3, 4])
        XCTAssertEqual(kept, [false, true, true, false, true, true])
        XCTAssertEqual(CollectionChange.longestIncreasingSubsequence([]), [])
        XCTAssertEqual(CollectionChange.longestIncreasingSubsequence([3, 2, 1]).filter { $0 }.count, 1)
    }

    /// Random edits of a list with repeats: applying the change to the old list gives the new one,
    /// modifications pair old and new indices of the same element, and moves are also deletions
    /// and insertions.
    func testTheChangeTurnsOldIntoNewOverRandomEdits() {
        var rng = SeededGenerator(seed: 0xC0FF_EE01)
        let alphabet = ["a", "b", "c", "d", "e", "f"]
        for round in 0..<2000 {
            let old = (0..<rng.next(12)).map { _ in alphabet[rng.next(alphabet.count)] }
            var new = old
            for _ in 0..<rng.next(5) {
                switch rng.next(3) {
                case 0 where !new.isEmpty: new.remove(at: rng.next(new.count))
                case 1: new.insert(alphabet[rng.next(alphabet.count)], at: rng.next(new.count + 1))
                default: if new.count > 1 { new.swapAt(rng.next(new.count), rng.next(new.count)) }
                }
            }
            let modified = Set(alphabet.filter { _ in rng.next(3) == 0 })
            let change = CollectionChange.between(old, new) { modified.contains($0) }
            XCTAssertEqual(apply(change, to: old, new: new), new, "round \(round): \(old) -> \(new)")
            XCTAssertEqual(change.modifications.count, change.modificationsNew.count)
            for (o, n) in zip(change.modifications, change.modificationsNew) {
                XCTAssertEqual(old[o], new[n], "round \(round)")
                XCTAssertTrue(modified.contains(new[n]))
            }
            for move in change.moves {
                XCTAssertTrue(change.deletions.contains(move.from) && change.insertions.contains(move.to), "round \(round)")
            }
            XCTAssertEqual(change.deletions, change.deletions.sorted())
            XCTAssertEqual(change.insertions, change.insertions.sorted())
        }
    }
    /// The prefix-and-suffix form for object keys against the general one: the same deletions,
    /// insertions and modifications where it trims (moves may pick other objects to keep), and a
    /// change that turns old into new.
    func testUniqueKeysAreComparedAroundTheirCommonEnds() {
        var rng = SeededGenerator(seed: 0xC0FF_EE02)
        for round in 0..<2000 {
            let old = (0..<Int64(rng.next(30))).map { $0 * 10 }
            var new = old
            for _ in 0..<rng.next(4) {
                switch rng.next(3) {
                case 0 where !new.isEmpty: new.remove(at: rng.next(new.count))
                case 1: new.insert(Int64(1_000 + round * 10 + rng.next(10)), at: rng.next(new.count + 1))
                default: if new.count > 1 { new.insert(new.remove(at: rng.next(new.count)), at: rng.next(new.count)) }
                }
            }
            if Set(new).count != new.count { continue }
            let modified: Set<Int64>? = rng.next(4) == 0 ? nil : Set(old.filter { _ in rng.next(3) == 0 })
            let change = CollectionChange.between(uniqueKeys: old, new, modified: modified)
            XCTAssertEqual(apply(change, to: old, new: new), new, "round \(round): \(old) -> \(new)")
            let inBoth = Set(old).intersection(new)
            let expected = inBoth.filter { modified?.contains($0) ?? true }
            XCTAssertEqual(Set(change.modificationsNew.map { new[$0] }), expected, "round \(round)")
            XCTAssertEqual(change.modifications.map { old[$0] }, change.modificationsNew.map { new[$0] }, "round \(round)")
            XCTAssertEqual(change.modifications, change.modifications.sorted(), "round \(round)")
            for move in change.moves { XCTAssertEqual(old[move.from], new[move.to], "round \(round)") }
            XCTAssertEqual(change.deletions, change.deletions.sorted())
            XCTAssertEqual(change.insertions, change.insertions.sorted())
        }
    }
}
