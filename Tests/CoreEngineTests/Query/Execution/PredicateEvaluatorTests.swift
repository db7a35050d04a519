import XCTest
@testable import CoreEngine

final class PredicateEvaluatorTests: RealmTestCase {
    static let itemSchema = try! Schema([ObjectSchema(name: "Item", properties: [
        Property(name: "n", type: .int),
        Property(name: "i", type: .int, isOptional: true),
        Property(name: "d", type: .double, isOptional: true),
        Property(name: "f", type: .float),
        Property(name: "s", type: .string, isOptional: true),
        Property(name: "b", type: .bool),
        Property(name: "t", type: .timestamp, isOptional: true),
        Property(name: "bytes", type: .data, isOptional: true),
    ])])

    /// (n, i, d, f, s, b, t-seconds): n numbers the rows.
    static let fixture: [(Int64?, Double?, Float, String?, Bool, Int64?, [UInt8]?)] = [
        (5, 1.5, 1, "école", true, 100, [1, 2, 3]),
        (nil, nil, 2, nil, false, nil, nil),
        (-3, .nan, 3, "", true, -5, []),
        (10, -0.0, 4, "ÉCOLE", false, 0, [2]),
        (0, 2.5, 5, "Straße", true, 1_700_000_000, [1]),
        (7, 1e300, 6, "apple pie", false, 42, [3, 2, 1]),
        (5, 1.5, 7, "Ápple", true, 100, [9]),
    ]

    private var realm: Realm!
    private var item: ClassInfo!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open(Self.itemSchema)
        item = try realm.classInfo(named: "Item")
        try realm.beginWrite()
        for (n, row) in Self.fixture.enumerated() {
            let (i, d, f, s, b, t, bytes) = row
            _ = try realm.create(item, values: [
                (p("n"), .int(Int64(n))), (p("i"), i.map(Value.int) ?? .null), (p("d"), d.map(Value.double) ?? .null),
                (p("f"), .float(f)), (p("s"), s.map(Value.string) ?? .null), (p("b"), .bool(b)),
                (p("t"), t.map { .timestamp(Timestamp(seconds: $0, nanoseconds: 0)) } ?? .null),
                (p("bytes"), bytes.map(Value.data) ?? .null)])
        }
        try realm.commitWrite()
    }

    private func p(_ name: String) -> PropertyInfo { item.property(named: name)! }
    private func prop(_ name: String) -> Operand { .property(p(name)) }

    /// The row numbers matching a predicate, through the evaluator.
    private func rows(_ predicate: CompiledPredicate) throws -> [Int64] {
        try realm.objects(item).filter(predicate).values(of: p("n")).map { guard case let .int(n) = $0 else { return -1 }; return n }
    }

    private func cmp(_ name: String, _ op: ComparisonOperator, _ value: Value, _ options: StringOptions = []) -> CompiledPredicate {
        .compare(prop(name), op, .constant(value), options)
    }

    func testIntegerComparisonsWithNulls() throws {
        XCTAssertEqual(try rows(cmp("i", .equal, .int(5))), [0, 6])
        XCTAssertEqual(try rows(cmp("i", .notEqual, .int(5))), [1, 2, 3, 4, 5], "null != 5")
        XCTAssertEqual(try rows(cmp("i", .greater, .int(0))), [0, 3, 5, 6], "null is not > 0")
        XCTAssertEqual(try rows(cmp("i", .lessOrEqual, .int(0))), [2, 4])
        XCTAssertEqual(try rows(cmp("i", .equal, .null)), [1])
        XCTAssertEqual(try rows(cmp("i", .notEqual, .null)), [0, 2, 3, 4, 5, 6])
        XCTAssertEqual(try rows(cmp("i", .less, .double(0.5))), [2, 4], "int against a double constant")
        XCTAssertEqual(try rows(.compare(.constant(.int(5)), .less, prop("i"), [])), [3, 5], "constant on the left")
    }

    func testDoubleComparisonsWithNaNAndNegativeZero() throws {
        XCTAssertEqual(try rows(cmp("d", .equal, .double(0))), [3], "-0.0 == 0")
        XCTAssertEqual(try rows(cmp("d", .greater, .int(1))), [0, 4, 5, 6])
        XCTAssertEqual(try rows(cmp("d", .equal, .double(.nan))), [], "NaN equals nothing")
        XCTAssertEqual(try rows(cmp("d", .notEqual, .double(1.5))), [1, 2, 3, 4, 5])
        XCTAssertEqual(try rows(cmp("f", .greaterOrEqual, .int(6))), [5, 6])
    }

    func testStringsCaseAndDiacritics() throws {
        XCTAssertEqual(try rows(cmp("s", .equal, .string("école"))), [0])
        XCTAssertEqual(try rows(cmp("s", .equal, .string("école"), .caseInsensitive)), [0, 3], "'ÉCOLE' ==[c] 'école'")
        XCTAssertEqual(try rows(cmp("s", .equal, .string("ecole"), .diacriticInsensitive)), [0])
        XCTAssertEqual(try rows(cmp("s", .equal, .string("ecole"), [.caseInsensitive, .diacriticInsensitive])), [0, 3])
        XCTAssertEqual(try rows(cmp("s", .equal, .string(""))), [2], "empty is not null")
        XCTAssertEqual(try rows(cmp("s", .less, .string("a"))), [2, 4], "code-point order: '' and 'S' < 'a' < 'É' (U+00C9)")
    }

    func testStringOperators() throws {
        func match(_ op: StringOperator, _ pattern: String, _ options: StringOptions = []) throws -> [Int64] {
            try rows(.match(prop("s"), op, .constant(.string(pattern)), options))
        }
        XCTAssertEqual(try match(.beginsWith, "app"), [5])
        XCTAssertEqual(try match(.beginsWith, "app", .caseInsensitive), [5])
        XCTAssertEqual(try match(.beginsWith, "app", [.caseInsensitive, .diacriticInsensitive]), [5, 6])
        XCTAssertEqual(try match(.endsWith, "ole", .caseInsensitive), [0, 3])
        XCTAssertEqual(try match(.contains, "pie"), [5])
        XCTAssertEqual(try match(.contains, ""), [0, 2, 3, 4, 5, 6], "everything non-null contains ''")
        XCTAssertEqual(try match(.like, "?cole"), [0])
        XCTAssertEqual(try match(.like, "*e"), [0, 4, 5, 6])
        XCTAssertEqual(try match(.like, "a*p*e"), [5])
        XCTAssertEqual(try rows(.match(prop("bytes"), .beginsWith, .constant(.data([1])), [])), [0, 4])
    }

    func testBooleanLogicInAndDates() throws {
        XCTAssertEqual(try rows(.and([cmp("b", .equal, .bool(true)), cmp("i", .greater, .int(0))])), [0, 6])
        XCTAssertEqual(try rows(.or([cmp("i", .equal, .int(10)), cmp("s", .equal, .null)])), [1, 3])
        XCTAssertEqual(try rows(.not(cmp("b", .equal, .bool(true)))), [1, 3, 5])
        XCTAssertEqual(try rows(.constant(false)), [])
        XCTAssertEqual(try rows(.isIn(prop("i"), [.int(7), .int(-3), .null], [])), [1, 2, 5])
        XCTAssertEqual(try rows(.isIn(prop("s"), [.string("straße")], .caseInsensitive)), [4])
        XCTAssertEqual(try rows(cmp("t", .greater, .timestamp(Timestamp(seconds: 50, nanoseconds: 0)))), [0, 4, 6])
    }

    /// Lists long enough to be hashed answer as the short lists compared one by one: ints,
    /// strings byte-wise (a decomposed é is not the precomposed one), null never a member of a
    /// list of ints, a double candidate against a list of ints, and string options.
    func testLongInListsAnswerAsShortOnes() throws {
        let filler = (100..<120).map { Value.int(Int64($0)) }
        XCTAssertEqual(try rows(.isIn(prop("i"), InList([.int(7), .int(-3)] + filler), [])), [2, 5])
        XCTAssertEqual(try rows(.isIn(prop("i"), InList(filler), [])), [])
        XCTAssertEqual(try rows(.isIn(prop("d"), InList([.double(2.5)] + filler), [])), [4])
        XCTAssertEqual(try rows(.isIn(prop("d"), InList([.int(-3)] + filler.map { .double(Double($0.numericValue!) + 0.5) }), [])), [])
        let words = (0..<20).map { Value.string("word\($0)") }
        XCTAssertEqual(try rows(.isIn(prop("s"), InList(words + [.string("école"), .string("")]), [])), [0, 2])
        XCTAssertEqual(try rows(.isIn(prop("s"), InList(words + [.string("e\u{301}cole")]), [])), [])
        XCTAssertEqual(try rows(.isIn(prop("s"), InList(words + [.string("straße")]), .caseInsensitive)), [4])
        XCTAssertEqual(try rows(.isIn(prop("s"), InList(words + [.null]), [])), [1])
    }

    func testArithmeticAndColumnComparisons() throws {
        XCTAssertEqual(try rows(.compare(.arithmetic(prop("i"), .multiply, .constant(.int(2))), .greater, .constant(.int(12)), [])), [3, 5])
        XCTAssertEqual(try rows(.compare(prop("f"), .greater, prop("i"), [])), [2, 4, 6], "property against property; null never compares")
        XCTAssertEqual(try rows(.compare(.arithmetic(prop("i"), .divide, .constant(.int(0))), .equal, .constant(.null), [])), [0, 1, 2, 3, 4, 5, 6],
                       "integer division by zero is null")
    }

    func testPredicatesSeeUncommittedWrites() throws {
        try realm.beginWrite()
        let results = realm.objects(item).filter(cmp("i", .equal, .int(5)))
        XCTAssertEqual(try results.count(), 2)
        _ = try realm.create(item, values: [(p("n"), .int(99)), (p("i"), .int(5)), (p("f"), .float(0)), (p("b"), .bool(false))])
        XCTAssertEqual(try results.count(), 3, "live inside the write")
        try realm.cancelWrite()
        XCTAssertEqual(try results.count(), 2)
    }

    func testDenseKernelMatchesPerSlotEvaluation() throws {
        let schema = try Schema([ObjectSchema(name: "Dense", properties: [Property(name: "v", type: .int)])])
        let dense = try open(schema, path: directory + "/dense.realm")
        let info = try dense.classInfo(named: "Dense")
        let v = info.property(named: "v")!
        try dense.beginWrite()
        var values: [Int64] = []
        for i in 0..<2500 {
            let value = Int64((i * 7919) % 201) - 100
            values.append(value)
            _ = try dense.create(info, values: [(v, .int(value))])
        }
        // Holes: delete a few objects so some words are partial.
        for key in [3, 64, 65, 1000, 2047] as [Int64] {
            try dense.object(info, key: key).delete()
            values[Int(key)] = .min
        }
        try dense.commitWrite()
        for op in [ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual] {
            for c: Int64 in [-101, -100, 0, 17, 100, 101] {
                let expected = values.filter { $0 != .min && PredicateEvaluator.compare(.int($0), op, .int(c), []) }.count
                let got = try dense.objects(info).filter(.compare(.property(v), op, .constant(.int(c)), [])).count()
                XCTAssertEqual(got, expected, "\(op) \(c)")
            }
        }
    }
}

