import XCTest
@testable import CoreEngine

/// The plan a query gets (Query/Execution/QueryPlan): its first step, the operations left after
/// it, and the access path `IndexPlanner` chooses per snapshot — and that each path finds the
/// same objects a scan does.
final class QueryPlanTests: PeopleTestCase {
    /// 200 people: ages 0-99 twice over (indexed), cities every tenth (indexed), score = id.
    override class var people: [Row] {
        (0..<200 as Range<Int64>).map { ($0, "p\($0)", $0 % 100, Double($0), $0 % 10 == 0 ? "c\($0 / 10)" : nil) }
    }

    private func accessPath(_ query: String) throws -> QueryPlan.AccessPath {
        let results = try realm.objects(person).filter(query)
        return try PredicateEvaluator(classInfo: person, predicate: results.predicate).accessPath(realm.currentTransaction())
    }

    private func scanned(_ query: String) throws -> [Int64] {
        let predicate = try realm.objects(person).filter(query).predicate
        return try PredicateEvaluator(classInfo: person, predicate: predicate)
            .matchingKeys(realm.currentTransaction(), through: .clusterScan)
    }

    func testAccessPathNamesHowTheMatchesAreReached() throws {
        let keyOfAge7 = try realm.objects(person).filter("age == 7").keys()
        XCTAssertEqual(keyOfAge7.count, 2)
        XCTAssertEqual(try accessPath("age == 7"), .indexExact(keyOfAge7), "an indexed equality is the answer itself")
        XCTAssertEqual(try accessPath("age IN {7, 8}").exactKeyCount, 4)
        guard case let .indexCandidates(keys) = try accessPath("age == 7 AND score > 50") else {
            return XCTFail("an indexed equality AND an unindexed condition: the index gives candidates")
        }
        XCTAssertEqual(keys.count, 2)
        XCTAssertEqual(try accessPath("score > 50"), .clusterScan, "no index on score")
        XCTAssertEqual(try accessPath("age >= 1"), .clusterScan, "a range over most of the table is cheaper to scan")
        XCTAssertEqual(try accessPath("name == 'p3' OR age == 1"), .clusterScan, "an OR is not planned through an index")
        for query in ["age == 7", "age IN {7, 8}", "age == 7 AND score > 50", "score > 50", "age >= 1", "city == 'c3'",
                      "city BEGINSWITH 'c1'", "name == 'p3' OR age == 1"] {
            XCTAssertEqual(try realm.objects(person).filter(query).keys().sorted(), try scanned(query), query)
        }
    }

    func testFirstStepAbsorbsALeadingSortAndItsLimit() throws {
        let all = realm.objects(person)
        let byAge = [SortDescriptor(p("age"))]
        let topK = try all.sorted(by: byAge).limit(3).sorted(by: [SortDescriptor(p("score"))]).plan()
        guard case let .indexOrderedTopK(descriptors, limit) = topK.firstStep else { return XCTFail("\(topK.firstStep)") }
        XCTAssertEqual(descriptors.map(\.path.name), ["age"])
        XCTAssertEqual(limit, 3)
        XCTAssertEqual(topK.remaining.count, 1, "the later sort stays")
        guard case .sortedScan(_, nil) = try all.sorted(by: byAge).plan().firstStep else { return XCTFail("a sort alone") }
        guard case .matchingKeys = try all.filter("age > 3").limit(2).plan().firstStep else { return XCTFail("a filter") }
        XCTAssertEqual(try all.filter("age > 3").limit(2).plan().remaining.count, 1)
        XCTAssertEqual(try ids(all.filter("age < 2").sorted(by: byAge).limit(3)), [0, 100, 1])
    }
}

private extension QueryPlan.AccessPath {
    var exactKeyCount: Int? {
        if case let .indexExact(keys) = self { return keys.count }
        return nil
    }
}
