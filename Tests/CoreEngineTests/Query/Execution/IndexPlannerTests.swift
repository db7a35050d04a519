import XCTest
@testable import CoreEngine

final class IndexPlannerTests: RealmTestCase {
    static let schema = try! Schema([ObjectSchema(name: "Row", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "n", type: .int, isOptional: true, isIndexed: true),
        Property(name: "s", type: .string, isIndexed: true),
        Property(name: "t", type: .timestamp, isIndexed: true),
    ])])

    func testIndexPathMatchesBruteForce() throws {
        let realm = try open(Self.schema)
        let row = try realm.classInfo(named: "Row")
        let n = row.property(named: "n")!, s = row.property(named: "s")!, t = row.property(named: "t")!
        var rng = SeededGenerator(seed: 42)
        let long = String(repeating: "x", count: 600)
        let words = ["apple", "Apple", "APPLE", "apricot", "\u{212A}iwi", "kiwi", "Kiwi", "", "a", "ab", "abc", "b", long, long + "y", long + "z", "école"]
        try realm.beginWrite()
        for id in 0..<3000 {
            _ = try realm.create(row, values: [
                (row.property(named: "id")!, .int(Int64(id))),
                (n, rng.next(10) == 0 ? .null : .int(Int64(rng.next(50) - 25))),
                (s, .string(words[rng.next(words.count)])),
                (t, .timestamp(Timestamp(seconds: Int64(rng.next(100) - 50), nanoseconds: Int32(rng.next(3)))))])
        }
        try realm.commitWrite()

        func constant(_ property: PropertyInfo) -> Value {
            switch property.type {
            case .int: return rng.next(12) == 0 ? .null : .int(Int64(rng.next(60) - 30))
            case .string: return .string(words[rng.next(words.count)])
            default: return .timestamp(Timestamp(seconds: Int64(rng.next(110) - 55), nanoseconds: Int32(rng.next(3))))
            }
        }
        let ops: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        func condition() -> CompiledPredicate {
            let property = [n, s, t][rng.next(3)]
            switch rng.next(5) {
            case 0: return .isIn(.property(property), [constant(property), constant(property)], [])
            case 1 where property.type == .string:
                let word = words[rng.next(words.count)]
                return .match(.property(property), .beginsWith, .constant(.string(String(word.prefix(rng.next(4) + 1)))),
                              rng.next(2) == 0 ? [] : .caseInsensitive)
            default:
                let op = ops[rng.next(ops.count)]
                return rng.next(4) == 0 ? .compare(.constant(constant(property)), op, .property(property), [])
                                        : .compare(.property(property), op, .constant(constant(property)), [])
            }
        }
        /// Brute force: each object's values, the evaluator's comparison semantics, no index or scan machinery.
        func bruteForce(_ predicate: CompiledPredicate) throws -> [Int64] {
            try realm.objectKeys(row).filter { key in
                let object = try realm.object(row, key: key)
                func value(_ operand: Operand) throws -> Value {
                    switch operand {
                    case let .property(p): return try object.value(of: p)
                    case let .constant(v): return v
                    case .arithmetic, .keyPath: XCTFail("not generated"); return .null
                    }
                }
                func holds(_ p: CompiledPredicate) throws -> Bool {
                    switch p {
                    case let .and(children): return try children.allSatisfy(holds)
                    case let .compare(a, op, b, options): return PredicateEvaluator.compare(try value(a), op, try value(b), options)
                    case let .match(a, op, b, options): return PredicateEvaluator.match(try value(a), op, try value(b), options, patternFolded: false)
                    case let .isIn(a, values, options):
                        let v = try value(a)
                        return values.values.contains { PredicateEvaluator.compare(v, .equal, $0, options) }
                    default: XCTFail("not generated"); return false
                    }
                }
                return try holds(predicate)
            }
        }
        var usedIndex = 0
        for round in 0..<400 {
            let predicate: CompiledPredicate = rng.next(3) == 0 ? .and([condition(), condition()]) : condition()
            let expected = try bruteForce(predicate)
            let got = try realm.objects(row).filter(predicate).keys()
            XCTAssertEqual(got, expected, "round \(round): \(predicate)")
            if try IndexPlanner(classInfo: row, predicate: predicate).accessPath(realm.currentTransaction()) != .clusterScan { usedIndex += 1 }
        }
        XCTAssertGreaterThan(usedIndex, 150, "most generated conditions are answered through an index")
    }

    /// The index keeps a string's first `maxPayload` bytes: a longer BEGINSWITH prefix gives
    /// candidates that share those bytes, confirmed against the stored strings.
    func testAPrefixLongerThanTheIndexKeepsIsConfirmed() throws {
        let realm = try open(Self.schema)
        let row = try realm.classInfo(named: "Row")
        let s = row.property(named: "s")!
        let long = String(repeating: "a", count: IndexKeyEncoding.maxPayload + 100)
        let words = [long + "bX", long + "aaX", long + "b", String(long.prefix(IndexKeyEncoding.maxPayload))] + (0..<200).map { "z\($0)" }
        try realm.beginWrite()
        for (id, word) in words.enumerated() {
            _ = try realm.create(row, values: [(row.primaryKey!, .int(Int64(id))), (s, .string(word)),
                                               (row.property(named: "t")!, .timestamp(Timestamp(seconds: 0, nanoseconds: 0)))])
        }
        try realm.commitWrite()
        for (prefix, expected) in [(long + "b", [0, 2]), (long + " ab", []), (long + "a", [1]), (long, [0, 1, 2])] as [(String, [Int64])] {
            let predicate = CompiledPredicate.match(.property(s), .beginsWith, .constant(.string(prefix)), [])
            guard case .indexCandidates = try IndexPlanner(classInfo: row, predicate: predicate).accessPath(realm.currentTransaction()) else {
                return XCTFail("a prefix longer than the index keeps gives candidates to confirm")
            }
            XCTAssertEqual(try realm.objects(row).filter(predicate).keys().sorted(), expected, "BEGINSWITH \(prefix.count) bytes")
        }
    }

    func testCaseInsensitivePrefixThroughTheIndexFindsKelvinSignAndDottedI() throws {
        let realm = try open(Self.schema)
        let row = try realm.classInfo(named: "Row")
        let s = row.property(named: "s")!
        try realm.beginWrite()
        let words = ["\u{212A}elvin", "kelvin", "KELVIN", "\u{130}stanbul", "istanbul"] + (0..<200).map { "z\($0)" }
        for (id, word) in words.enumerated() {
            _ = try realm.create(row, values: [(row.primaryKey!, .int(Int64(id))), (s, .string(word)),
                                               (row.property(named: "t")!, .timestamp(Timestamp(seconds: 0, nanoseconds: 0)))])
        }
        try realm.commitWrite()
        for (prefix, expected) in [("k", [0, 1, 2]), ("K", [0, 1, 2]), ("i", [3, 4])] as [(String, [Int64])] {
            let predicate = CompiledPredicate.match(.property(s), .beginsWith, .constant(.string(prefix)), .caseInsensitive)
            XCTAssertNotEqual(try IndexPlanner(classInfo: row, predicate: predicate).accessPath(realm.currentTransaction()), .clusterScan, "uses the index")
            XCTAssertEqual(try realm.objects(row).filter(predicate).keys(), expected, prefix)
        }
    }
}

