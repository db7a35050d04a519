import XCTest
@testable import CoreEngine

/// Compound indexes: maintenance through creates, updates, deletes and migrations; the planner's
/// equality-plus-range plans; and sorts with a limit served from an index, each checked against
/// brute force over the same objects.
final class CompoundIndexTests: RealmTestCase {
    static let properties = [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "n", type: .int, isOptional: true),
        Property(name: "s", type: .string, isIndexed: true),
        Property(name: "t", type: .timestamp),
        Property(name: "b", type: .bool),
    ]
    static let schema = try! Schema([ObjectSchema(name: "Row", properties: properties,
                                                  compoundIndexes: [["n", "s"], ["s", "t"], ["b", "n", "s"]])])
    static let words = ["apple", "Apple", "apricot", "kiwi", "", "a", "ab", "abc", "b", "école", "x\u{0}y", "x",
                        String(repeating: "L", count: 300) + "1", String(repeating: "L", count: 300) + "0"]

    private var realm: Realm!
    private var row: ClassInfo!
    private var rng = SeededGenerator(seed: 7)
    private func p(_ name: String) -> PropertyInfo { row.property(named: name)! }

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open(Self.schema) { realm in
            self.row = try realm.classInfo(named: "Row")
            for id in 0..<1200 { _ = try realm.create(self.row, values: self.randomValues(id: Int64(id))) }
        }
    }

    private func randomValue(_ name: String) -> Value {
        switch name {
        case "n": return rng.next(10) == 0 ? .null : .int(Int64(rng.next(20) - 10))
        case "s": return .string(Self.words[rng.next(Self.words.count)])
        case "t": return .timestamp(Timestamp(seconds: Int64(rng.next(30) - 15), nanoseconds: Int32(rng.next(2))))
        default: return .bool(rng.next(2) == 0)
        }
    }

    private func randomValues(id: Int64) -> [(PropertyInfo, Value)] {
        [(p("id"), .int(id))] + ["n", "s", "t", "b"].map { (p($0), randomValue($0)) }
    }

    private func bruteForce(_ predicate: CompiledPredicate) throws -> [Int64] {
        try realm.objectKeys(row).filter { key in
            let object = try realm.object(row, key: key)
            func holds(_ p: CompiledPredicate) throws -> Bool {
                switch p {
                case let .constant(value): return value
                case let .and(children): return try children.allSatisfy(holds)
                case let .compare(.property(property), op, .constant(constant), options):
                    return PredicateEvaluator.compare(try object.value(of: property), op, constant, options)
                default: XCTFail("not generated"); return false
                }
            }
            return try holds(predicate)
        }
    }

    /// Equalities on leading properties of an index plus a range on the next, sometimes with a
    /// condition no index covers.
    private func randomQuery() -> CompiledPredicate {
        let index = row.compoundIndexes[rng.next(row.compoundIndexes.count)].properties
        var parts: [CompiledPredicate] = []
        let equalCount = rng.next(index.count + 1)
        for property in index.prefix(equalCount) {
            parts.append(.compare(.property(property), .equal, .constant(randomValue(property.name)), []))
        }
        if equalCount < index.count {
            let next = index[equalCount]
            let ops: [ComparisonOperator] = [.less, .lessOrEqual, .greater, .greaterOrEqual]
            for _ in 0..<(1 + rng.next(2)) {
                parts.append(.compare(.property(next), ops[rng.next(ops.count)], .constant(randomValue(next.name)), []))
            }
        }
        if rng.next(4) == 0 { parts.append(.compare(.property(p("id")), .notEqual, .constant(.int(Int64(rng.next(1200)))), [])) }
        parts.shuffle(using: &rng)
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private func checkQueries(_ rounds: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        var compound = 0
        for round in 0..<rounds {
            let predicate = randomQuery()
            let expected = try bruteForce(predicate)
            XCTAssertEqual(try realm.objects(row).filter(predicate).keys(), expected, "round \(round): \(predicate)", file: file, line: line)
            XCTAssertEqual(try realm.objects(row).filter(predicate).count(), expected.count, file: file, line: line)
            if try IndexPlanner(classInfo: row, predicate: predicate).accessPath(realm.currentTransaction()) != .clusterScan { compound += 1 }
        }
        return compound
    }

    func testEqualityAndRangeThroughCompoundIndexesMatchBruteForce() throws {
        XCTAssertGreaterThan(try checkQueries(200), 100, "most generated queries use an index")
    }

    func testIndexesFollowUpdatesDeletesAndUpserts() throws {
        try realm.beginWrite()
        var nextID: Int64 = 10_000
        for _ in 0..<800 {
            let key = Int64(rng.next(1200))
            guard try realm.currentTransaction().objectExists(table: row.tableID, key: key) else { continue }
            let object = try realm.object(row, key: key)
            switch rng.next(4) {
            case 0: try object.delete()
            case 1: _ = try realm.create(row, values: randomValues(id: nextID), upsert: .none); nextID += 1
            case 2: _ = try realm.create(row, values: randomValues(id: key < 1200 ? try intID(object) : key), upsert: .modified)
            default:
                let name = ["n", "s", "t", "b"][rng.next(4)]
                try object.setValue(randomValue(name), for: p(name))
            }
        }
        _ = try checkQueries(100)  // inside the write: uncommitted values through the index
        try realm.commitWrite()
        _ = try checkQueries(100)
        // Nothing stale: every entry of every compound index names a live object with those values.
        try assertOneEntryPerObjectInEachCompoundIndex()
    }

    private func assertOneEntryPerObjectInEachCompoundIndex(file: StaticString = #filePath, line: UInt = #line) throws {
        let transaction = try realm.currentTransaction()
        for (index, _) in row.compoundIndexes {
            var entries = 0
            try transaction.lmdb.scan(transaction.environment.indexDB, prefix: StorageKeys.blockPrefix(table: row.tableID, column: index.id)) { _, _ in
                entries += 1; return true
            }
            XCTAssertEqual(entries, try realm.objectCount(row), "one entry per object in index \(index.id)", file: file, line: line)
        }
    }

    /// Deleting half of the objects at once (Results.deleteAll, reading each object's indexed
    /// values to remove its entries): afterwards every index, single and compound, holds exactly
    /// the live objects. (Its first run found empty strings trapping after a compaction.)
    func testABatchDeleteRemovesEveryIndexEntry() throws {
        let doomed = try realm.objects(row).filter(.or([
            .compare(.property(p("b")), .equal, .constant(.bool(true)), []),
            .compare(.property(p("n")), .equal, .constant(.null), []),
        ]))
        let expectedGone = try doomed.count()
        XCTAssertGreaterThan(expectedGone, 500)
        try realm.beginWrite()
        XCTAssertEqual(try doomed.deleteAll(), expectedGone)
        _ = try checkQueries(50)  // inside the write
        try realm.commitWrite()
        XCTAssertEqual(try realm.objectCount(row), 1200 - expectedGone)
        _ = try checkQueries(100)
        try assertOneEntryPerObjectInEachCompoundIndex()
        let report = try realm.check()  // the primary key's and s's indexes, entry by entry
        XCTAssertEqual(report.indexEntries, 2 * (1200 - expectedGone))
    }

    func testMigrationAddsAndDropsCompoundIndexes() throws {
        realm = nil
        let changed = try Schema([ObjectSchema(name: "Row", properties: Self.properties, compoundIndexes: [["t", "n"]])])
        let reopened = try open(changed)
        let info = try reopened.classInfo(named: "Row")
        XCTAssertEqual(info.compoundIndexes.map { $0.properties.map(\.name) }, [["t", "n"]], "additive: no migration needed")
        let t = info.property(named: "t")!, n = info.property(named: "n")!
        let predicate = CompiledPredicate.and([.compare(.property(t), .equal, .constant(.timestamp(Timestamp(seconds: 3, nanoseconds: 0))), []),
                                               .compare(.property(n), .greater, .constant(.int(0)), [])])
        guard case let .indexExact(keys) = try IndexPlanner(classInfo: info, predicate: predicate).accessPath(reopened.currentTransaction()) else {
            return XCTFail("an equality and a range on the compound index's properties are answered by it")
        }
        XCTAssertEqual(try reopened.objects(info).filter(predicate).count(), keys.count)
        XCTAssertGreaterThan(keys.count, 0)
        XCTAssertEqual(reopened.schema.objectSchema(named: "Row")?.compoundIndexes, [["t", "n"]])
    }

    func testSchemaValidation() {
        func invalid(_ indexes: [[String]]) {
            assertThrows(.schemaInvalid) { _ = try Schema([ObjectSchema(name: "Row", properties: Self.properties, compoundIndexes: indexes)]) }
        }
        invalid([["n"]])
        invalid([["n", "n"]])
        invalid([["n", "missing"]])
        invalid([["n", "s"], ["n", "s"]])
        let withDouble = Self.properties + [Property(name: "d", type: .double)]
        assertThrows(.schemaInvalid) { _ = try Schema([ObjectSchema(name: "Row", properties: withDouble, compoundIndexes: [["n", "d"]])]) }
    }

    func testSortWithLimitServedByIndexMatchesFullSort() throws {
        let sorts: [[String]] = [["n", "s"], ["s", "t"], ["b", "n", "s"], ["s"]]
        for names in sorts {
            for ascending in [true, false] {
                let descriptors = names.map { CoreEngine.SortDescriptor(p($0), ascending: ascending) }
                for predicate in [CompiledPredicate.constant(true), randomQuery(),
                                  .compare(.property(p("b")), .equal, .constant(.bool(true)), [])] {
                    for limit in [1, 7, 100, 3000] {
                        let served = try IndexedSort(classInfo: row, predicate: predicate, descriptors: descriptors)
                            .keys(realm.currentTransaction(), limit: limit)
                        let expected = try bruteSort(bruteForce(predicate), descriptors).prefix(limit)
                        XCTAssertEqual(try realm.objects(row).filter(predicate).sorted(by: descriptors).limit(limit).keys(), Array(expected),
                                       "\(names) ascending \(ascending) limit \(limit) \(predicate)")
                        // Long strings share their first bytes in the index: such runs are not served.
                        if let served { XCTAssertEqual(served, Array(expected)) }
                    }
                }
            }
        }
        // Mixed directions or properties no index covers fall back to sorting.
        XCTAssertNil(try IndexedSort(classInfo: row, predicate: .constant(true),
                                     descriptors: [CoreEngine.SortDescriptor(p("n")), CoreEngine.SortDescriptor(p("s"), ascending: false)])
            .keys(realm.currentTransaction(), limit: 5))
        XCTAssertNil(try IndexedSort(classInfo: row, predicate: .constant(true), descriptors: [CoreEngine.SortDescriptor(p("s")), CoreEngine.SortDescriptor(p("n"))])
            .keys(realm.currentTransaction(), limit: 5))
    }

    func testIndexServesSortWhenNoValueIsTruncated() throws {
        let short = try Schema([ObjectSchema(name: "Row", properties: Self.properties, compoundIndexes: [["n", "s"]])])
        let other = try open(short, path: directory + "/short.realm")
        let info = try other.classInfo(named: "Row")
        try other.beginWrite()
        for id in 0..<300 {
            _ = try other.create(info, values: [(info.property(named: "id")!, .int(Int64(id))), (info.property(named: "n")!, .int(Int64(id % 7))),
                                                (info.property(named: "s")!, .string(Self.words[id % 12])),
                                                (info.property(named: "t")!, .timestamp(Timestamp(seconds: 0, nanoseconds: 0))),
                                                (info.property(named: "b")!, .bool(false))])
        }
        try other.commitWrite()
        let filter = CompiledPredicate.compare(.property(info.property(named: "id")!), .greater, .constant(.int(100)), [])
        for ascending in [true, false] {
            for predicate in [CompiledPredicate.constant(true), filter] {
                let descriptors = ["n", "s"].map { CoreEngine.SortDescriptor(info.property(named: $0)!, ascending: ascending) }
                let served = try XCTUnwrap(IndexedSort(classInfo: info, predicate: predicate, descriptors: descriptors)
                    .keys(other.currentTransaction(), limit: 20))
                // The unlimited sort does not use the index: it is the reference.
                XCTAssertEqual(served, try other.objects(info).filter(predicate).sorted(by: descriptors).keys().prefix(20).map { $0 })
            }
        }
    }

    /// The walk stops serving at a key whose string was cut in the index, and only there: a
    /// string of exactly the index's byte budget, or one that escaping makes longer, is served.
    func testSortGivesUpAtACutStringAndOnlyThere() throws {
        let schema = try Schema([ObjectSchema(name: "Row", properties: Self.properties, compoundIndexes: [["n", "s"]])])
        let other = try open(schema, path: directory + "/cut.realm")
        let info = try other.classInfo(named: "Row")
        let budget = CompoundIndexKeyEncoding.budget(componentCount: 2)
        var nextID: Int64 = 0
        func add(_ s: String) throws {
            try other.write {
                _ = try other.create(info, values: [(info.property(named: "id")!, .int(nextID)), (info.property(named: "n")!, .int(0)),
                                                    (info.property(named: "s")!, .string(s)),
                                                    (info.property(named: "t")!, .timestamp(Timestamp(seconds: 0, nanoseconds: 0))),
                                                    (info.property(named: "b")!, .bool(false))])
            }
            nextID += 1
        }
        func served(_ names: [String], ascending: Bool) throws -> [Int64]? {
            let descriptors = names.map { CoreEngine.SortDescriptor(info.property(named: $0)!, ascending: ascending) }
            let keys = try IndexedSort(classInfo: info, predicate: .constant(true), descriptors: descriptors)
                .keys(other.currentTransaction(), limit: 50)
            if let keys {
                XCTAssertEqual(keys, try other.objects(info).sorted(by: descriptors).keys().prefix(50).map { $0 }, "\(names) \(ascending)")
            }
            return keys
        }
        try add("a")
        try add(String(repeating: "z", count: budget))                        // fills the budget, not cut
        try add(String(repeating: "\u{0}", count: budget / 2 + 1))            // escaped past the budget's bytes, not cut
        for ascending in [true, false] {
            XCTAssertNotNil(try served(["n", "s"], ascending: ascending), "compound, ascending \(ascending)")
            XCTAssertNotNil(try served(["s"], ascending: ascending), "single, ascending \(ascending)")
        }
        try add(String(repeating: "z", count: budget + 1))                    // cut in the compound index only
        try add(String(repeating: "y", count: IndexKeyEncoding.maxPayload - 1))  // under the single index's payload
        for ascending in [true, false] {
            XCTAssertNil(try served(["n", "s"], ascending: ascending), "compound, ascending \(ascending)")
            XCTAssertNotNil(try served(["s"], ascending: ascending), "single, ascending \(ascending)")
        }
        try add(String(repeating: "y", count: IndexKeyEncoding.maxPayload))      // cut in the single index too
        for ascending in [true, false] {
            XCTAssertNil(try served(["s"], ascending: ascending), "single, ascending \(ascending)")
        }
    }

    private func intID(_ object: ObjectAccessor) throws -> Int64 {
        guard case let .int(id) = try object.value(of: p("id")) else { XCTFail("id"); return -1 }
        return id
    }

    private func bruteSort(_ keys: [Int64], _ descriptors: [CoreEngine.SortDescriptor]) throws -> [Int64] {
        let rows = try keys.map { key in (key, try descriptors.map { try realm.object(row, key: key).value(of: $0.property) }) }
        return rows.sorted { a, b in
            for (i, d) in descriptors.enumerated() {
                let order = ValueOrdering.sortCompare(a.1[i], b.1[i])
                if order != 0 { return d.ascending ? order < 0 : order > 0 }
            }
            return a.0 < b.0
        }.map { $0.0 }
    }
}
