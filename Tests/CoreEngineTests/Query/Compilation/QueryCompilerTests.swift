import XCTest
@testable import CoreEngine

final class QueryCompilerTests: PeopleTestCase {
    override class var people: [Row] {
        [(1, "Cy", 30, 1.0, "Oslo"), (2, "ann", 20, 2.5, "Rome"), (3, "Bob", 30, 3.0, nil), (4, "Ann", nil, 4.0, "Oslo"), (5, "Dée", 20, 5.0, "Rome")]
    }

    private func ids(_ query: String, _ arguments: [QueryArgument] = []) throws -> [Int64] {
        try ids(realm.objects(person).filter(query, arguments: arguments))
    }

    func testQueries() throws {
        let cases: [(String, [QueryArgument], [Int64])] = [
            ("age == 30", [], [1, 3]),
            ("age = 30 AND city == 'Oslo'", [], [1]),
            ("age == nil", [], [4]),
            ("age != 30", [], [2, 4, 5]),
            ("age > $0 OR name BEGINSWITH[c] $1", [.value(.int(25)), .value(.string("a"))], [1, 2, 3, 4]),
            ("NOT (age >= 25)", [], [2, 4, 5]),
            ("score BETWEEN {2, 4}", [], [2, 3, 4]),
            ("age IN {20, 99}", [], [2, 5]),
            ("age IN $0", [.list([.int(30), .null])], [1, 3, 4]),
            ("name ==[c] 'ANN'", [], [2, 4]),
            ("name ==[cd] 'dee'", [], [5]),
            ("name LIKE '?o?'", [], [3]),
            ("name CONTAINS 'n'", [], [2, 4]),
            ("score * 10 > age", [], [2, 5]),
            ("score * 2 > age", [], []),
            ("-score < -3", [], [4, 5]),
            ("score + 1 == 3.5", [], [2]),
            ("TRUEPREDICATE SORT(score DESC) LIMIT(2)", [], [5, 4]),
            ("age != nil SORT(age ASC, name DESC) DISTINCT(age)", [], [2, 1]),
            ("FALSEPREDICATE", [], []),
            ("city == 'Oslo' || city == 'Rome' && age == 20", [], [1, 2, 4, 5]),
        ]
        for (query, arguments, expected) in cases {
            XCTAssertEqual(try ids(query, arguments), expected, query)
        }
    }

    func testErrorsCarryTheOffsetOfTheOffendingToken() {
        let cases: [(String, [QueryArgument], Int, String)] = [
            ("agee > 3", [], 0, "no property named 'agee'"),
            ("age > 'x'", [], 6, "cannot compare"),
            ("name BEGINSWITH 5", [], 16, "strings and data"),
            ("age ==[c] 5", [], 0, "[c] and [d] apply to strings"),
            ("age > $2", [.value(.int(1))], 6, "argument $2 was not given"),
            ("age + $0 > 1", [.list([.string("a")])], 6, "arithmetic needs numbers, not string"),
            ("age > $0 * $1", [.list([.int(1)]), .list([.int(2)])], 11, "arithmetic between two lists"),
            ("age > ANY $0", [.value(.int(1))], 10, "needs an argument given as a list"),
            ("name + 1 > 2", [], 0, "arithmetic needs numbers"),
            ("owner.name == 'x'", [], 0, "'Person' has no property named 'owner'"),
            ("$x.age == 1", [], 0, "not a SUBQUERY variable here"),
            ("age IN {1, name}", [], 11, "must be values"),
            ("age == 1 SORT(nope ASC)", [], 14, "no property named 'nope'"),
            ("age == ", [], 7, "expected a value"),
        ]
        for (query, arguments, offset, fragment) in cases {
            XCTAssertThrowsError(try realm.objects(person).filter(query, arguments: arguments), query) { error in
                let error = error as? DBError
                XCTAssertEqual(error?.code, .query, query)
                XCTAssertEqual(error?.offset, offset, "\(query): \(error?.message ?? "")")
                XCTAssertTrue(error?.message.contains(fragment) ?? false, "\(query): \(error?.message ?? "")")
            }
        }
    }

    func testDecimalLiteralsParseExactly() {
        XCTAssertEqual(Decimal128(parsing: "1.50")?.description, "1.50")
        XCTAssertEqual(Decimal128(parsing: "-2E+3")?.description, "-2E+3")
        XCTAssertEqual(Decimal128(parsing: "0.000001")?.description, "0.000001")
        XCTAssertEqual(Decimal128(parsing: "1234567890123456789012345678901234")?.description, "1234567890123456789012345678901234")
        XCTAssertNil(Decimal128(parsing: "12345678901234567890123456789012345"), "35 digits do not fit")
        XCTAssertNil(Decimal128(parsing: "1.2.3"))
        XCTAssertNil(Decimal128(parsing: ""))
        XCTAssertEqual(Decimal128(parsing: "NaN")?.description, "NaN")
    }
}
