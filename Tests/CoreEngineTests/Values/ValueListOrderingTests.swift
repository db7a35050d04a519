import XCTest
@testable import CoreEngine

/// Sorting and de-duplicating positions of a list of values (`ValueListOrdering`).
final class ValueListOrderingTests: XCTestCase {
    private let values: [Value] = [.int(3), .null, .double(.nan), .string("b"), .double(-1.5), .int(3), .null, .string("B"), .bool(false)]

    private func sorted(_ ascending: Bool) -> [Value] {
        ValueListOrdering.sorted(Array(values.indices), of: values, ascending: ascending).map { values[$0] }
    }

    func testSortPutsNullsThenNaNFirstAndKeepsEqualValuesInOrder() {
        let ascending = ValueListOrdering.sorted(Array(values.indices), of: values, ascending: true)
        XCTAssertEqual(ascending, [1, 6, 2, 8, 4, 0, 5, 7, 3], "nulls (in order), NaN, bool, numbers, strings by code point")
        let descending = ValueListOrdering.sorted(Array(values.indices), of: values, ascending: false)
        XCTAssertEqual(descending, [3, 7, 0, 5, 4, 8, 2, 1, 6], "reversed, equal values still in their order")
        XCTAssertEqual(sorted(true).count, values.count)
    }

    func testSortOfSomePositionsLeavesTheOthersOut() {
        XCTAssertEqual(ValueListOrdering.sorted([3, 0, 7], of: values, ascending: true), [0, 7, 3])
        XCTAssertEqual(ValueListOrdering.sorted([], of: values, ascending: true), [])
    }

    func testDistinctKeepsTheFirstOfEachValue() {
        XCTAssertEqual(ValueListOrdering.distinct(Array(values.indices), of: values), [0, 1, 2, 3, 4, 7, 8])
        XCTAssertEqual(ValueListOrdering.distinct([5, 0, 6], of: values), [5, 6], "first in the order given")
    }
}
