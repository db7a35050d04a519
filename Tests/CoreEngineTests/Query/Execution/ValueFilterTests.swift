import XCTest
@testable import CoreEngine

/// Queries over the values of a list or set (`ValueFilter`): `self` is the value; the query is
/// type-checked for the element type and refuses what a value cannot have.
final class ValueFilterTests: XCTestCase {
    private let ints: [Value] = [.int(5), .int(-2), .int(9), .int(3), .int(5)]

    private func matching(_ query: String, _ values: [Value], type: PropertyType = .int, optional: Bool = false,
                          _ arguments: [QueryArgument] = []) throws -> [Value] {
        let filter = try ValueFilter(query, arguments: arguments, elementType: type, isOptional: optional)
        return filter.filtered(Array(values.indices), of: values).map { values[$0] }
    }

    private func queryError(_ query: String, type: PropertyType = .int, _ arguments: [QueryArgument] = [],
                            file: StaticString = #filePath, line: UInt = #line) -> DBError? {
        do {
            _ = try ValueFilter(query, arguments: arguments, elementType: type, isOptional: false)
            XCTFail("\(query) was accepted", file: file, line: line)
            return nil
        } catch let error as DBError {
            XCTAssertEqual(error.code, .query, "\(query): \(error.message)", file: file, line: line)
            return error
        } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return nil
        }
    }

    func testComparisonsRangesListsAndArithmeticOnNumbers() throws {
        XCTAssertEqual(try matching("self > 3", ints), [.int(5), .int(9), .int(5)])
        XCTAssertEqual(try matching("self BETWEEN {0, 5}", ints), [.int(5), .int(3), .int(5)])
        XCTAssertEqual(try matching("self IN {9, -2}", ints), [.int(-2), .int(9)])
        XCTAssertEqual(try matching("self * 2 == 10 OR NOT self >= 0", ints), [.int(5), .int(-2), .int(5)])
        XCTAssertEqual(try matching("self == 4.0 + 1", ints), [.int(5), .int(5)], "an int compares with a double by value")
        XCTAssertEqual(try matching("TRUEPREDICATE", ints), ints)
        XCTAssertEqual(try matching("FALSEPREDICATE", ints), [])
    }

    func testArgumentsAsValuesAndAsLists() throws {
        XCTAssertEqual(try matching("self >= $0 AND self != $1", ints, [.value(.int(3)), .value(.int(9))]),
                       [.int(5), .int(3), .int(5)])
        XCTAssertEqual(try matching("self IN $0", ints, [.list([.int(3), .int(5)])]), [.int(5), .int(3), .int(5)])
        XCTAssertEqual(queryError("self > $1", [.value(.int(1))])?.offset, 7, "a missing argument, at its token")
    }

    func testStringsWithOptionsAndNulls() throws {
        let names: [Value] = [.string("Ábel"), .null, .string("abby"), .string("Rex"), .string("")]
        XCTAssertEqual(try matching("self BEGINSWITH[cd] 'ab'", names, type: .string, optional: true),
                       [.string("Ábel"), .string("abby")])
        XCTAssertEqual(try matching("self LIKE '?e*'", names, type: .string, optional: true), [.string("Rex")])
        XCTAssertEqual(try matching("self == nil", names, type: .string, optional: true), [.null])
        XCTAssertEqual(try matching("self CONTAINS 'b'", names, type: .string, optional: true), [.string("Ábel"), .string("abby")])
        XCTAssertEqual(try matching("self.@size == 0 OR self.@size > 4", names, type: .string, optional: true),
                       [.string("Ábel"), .string("")], "UTF-8 bytes: Á is two")
    }

    func testMixedValuesCompareOnlyWithTheirKind() throws {
        let mixed: [Value] = [.int(4), .string("4"), .double(4.5), .null, .bool(true)]
        XCTAssertEqual(try matching("self > 4", mixed, type: .mixed, optional: true), [.double(4.5)])
        XCTAssertEqual(try matching("self == '4'", mixed, type: .mixed, optional: true), [.string("4")])
        XCTAssertEqual(try matching("self.@type == 'string' OR self.@type == 'bool'", mixed, type: .mixed, optional: true),
                       [.string("4"), .bool(true)])
    }

    func testWhatAValueCannotHaveIsAQueryError() {
        XCTAssertEqual(queryError("age > 3")?.offset, 0, "no property but self")
        XCTAssertNotNil(queryError("self > 'three'"), "an int compared with a string")
        XCTAssertNotNil(queryError("self BEGINSWITH 'a'"), "a string operator on ints")
        XCTAssertEqual(queryError("self > 1 SORT(self ASC)")?.offset, 9, "SORT is the collection's own")
        XCTAssertNotNil(queryError("self >"), "a syntax error")
        XCTAssertNotNil(queryError("ANY self > 1"), "nothing to quantify")
    }
}
