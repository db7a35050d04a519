import XCTest
@testable import CoreEngine

final class ResultsTests: PeopleTestCase {
    override class var people: [Row] {
        [(1, "Cy", 30, 1.0, "Oslo"), (2, "ann", 20, 2.0, "Rome"), (3, "Bob", 30, 3.0, nil), (4, "Ann", nil, 4.0, "Oslo"), (5, "Dee", 20, 5.0, "Rome")]
    }

    private var all: Results { realm.objects(person) }

    func testLazyLiveResults() throws {
        let adults = all.filter(.compare(.property(p("age")), .greaterOrEqual, .constant(.int(30)), []))
        XCTAssertEqual(try adults.count(), 2)
        try realm.beginWrite()
        try createPerson(realm, id: 6, age: 40)
        XCTAssertEqual(try ids(adults), [1, 3, 6], "uncommitted objects are visible inside the write")
        try realm.commitWrite()
        let other = try open()
        try other.beginWrite()
        try other.object(other.classInfo(named: "Person"), primaryKey: .int(1))!.delete()
        try other.commitWrite()
        XCTAssertEqual(try ids(adults), [1, 3, 6], "the realm's pinned version")
        try realm.refresh()
        XCTAssertEqual(try ids(adults), [3, 6], "after refresh")
    }

    /// Counting through an index keeps the keys it found (reading them next costs no second
    /// index scan); the count and the keys follow every write, inside it and after it.
    func testCountThroughAnIndexKeepsItsKeysAndFollowsWrites() throws {
        let oslo = all.filter(.compare(.property(p("city")), .equal, .constant(.string("Oslo")), []))
        guard case .indexExact = try PredicateEvaluator(classInfo: person, predicate: oslo.predicate).accessPath(realm.currentTransaction()) else {
            return XCTFail("city is indexed: an equality is answered by the index")
        }
        XCTAssertEqual(try oslo.count(), 2)
        XCTAssertEqual(try ids(oslo), [1, 4])
        try realm.beginWrite()
        try createPerson(realm, id: 7, city: "Oslo")
        XCTAssertEqual(try oslo.count(), 3, "inside the write")
        try realm.object(person, primaryKey: .int(1))!.delete()
        XCTAssertEqual(try oslo.count(), 2)
        XCTAssertEqual(try ids(oslo), [4, 7])
        try realm.commitWrite()
        XCTAssertEqual(try oslo.count(), 2)
        XCTAssertEqual(try ids(oslo), [4, 7])
    }

    /// Live results read inside a write keep their keys across writes that cannot change them
    /// (another column of the class), and follow every write that can: the query's or the
    /// sort's column, a created or deleted object, a savepoint rolled back.
    func testResultsKeepTheirKeysAcrossWritesThatCannotChangeThem() throws {
        let twenties = try all.filter("age < 30")
        let byAge = all.sorted(by: [SortDescriptor(p("age"))])
        let everyone = all
        try realm.beginWrite()
        XCTAssertEqual(try ids(twenties), [2, 5])
        XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3])
        XCTAssertEqual(try ids(everyone), [1, 2, 3, 4, 5])
        let before = (twenties.evaluations, byAge.evaluations, everyone.evaluations)
        // A loop writing a column the results do not read, reading them at each step.
        for step in 0..<50 {
            let object = try byAge.object(at: step % 5)
            try object.setValue(.double(Double(step)), for: p("score"))
            _ = try twenties.count()
            _ = try everyone.object(at: step % 5)
        }
        XCTAssertEqual(twenties.evaluations, before.0, "score is not the query's")
        XCTAssertEqual(byAge.evaluations, before.1, "score is not the sort's")
        XCTAssertEqual(everyone.evaluations, before.2)
        // The query's column: membership follows at once.
        try realm.object(person, primaryKey: .int(1))!.setValue(.int(25), for: p("age"))
        XCTAssertEqual(try ids(twenties), [1, 2, 5])
        XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3], "age 25 sorts between 20 and 30")
        try realm.object(person, primaryKey: .int(2))!.setValue(.int(99), for: p("age"))
        XCTAssertEqual(try ids(byAge), [4, 5, 1, 3, 2], "the sort's column: the order follows")
        // A name written: neither reads it.
        let counts = (twenties.evaluations, byAge.evaluations)
        try realm.object(person, primaryKey: .int(3))!.setValue(.string("Bo"), for: p("name"))
        XCTAssertEqual(try ids(twenties), [1, 5])
        XCTAssertEqual(try ids(byAge), [4, 5, 1, 3, 2])
        XCTAssertEqual(twenties.evaluations, counts.0 + 1, "age 99 was written since the last read")
        XCTAssertEqual(byAge.evaluations, counts.1)
        // Objects created and deleted, and a savepoint rolled back.
        try createPerson(realm, id: 6, age: 21)
        XCTAssertEqual(try ids(twenties), [1, 5, 6])
        XCTAssertEqual(try ids(everyone), [1, 2, 3, 4, 5, 6])
        try realm.object(person, primaryKey: .int(5))!.delete()
        XCTAssertEqual(try ids(twenties), [1, 6])
        XCTAssertEqual(try ids(byAge), [4, 6, 1, 3, 2])
        try realm.beginSavepoint()
        try realm.object(person, primaryKey: .int(6))!.setValue(.int(50), for: p("age"))
        XCTAssertEqual(try ids(twenties), [1])
        try realm.rollbackSavepoint()
        XCTAssertEqual(try ids(twenties), [1, 6], "the savepoint's write undone")
        try realm.cancelWrite()
        XCTAssertEqual(try ids(twenties), [2, 5], "the write cancelled")
        XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3])
    }

    /// Across transactions too: results read in one transaction keep their keys in the next when
    /// the commits between wrote nothing they read, and follow every commit that did (this
    /// realm's, another handle's), but never keep what a cancelled write read.
    func testResultsKeepTheirKeysAcrossCommitsThatCannotChangeThem() throws {
        let twenties = try all.filter("age < 30")
        let byAge = all.sorted(by: [SortDescriptor(p("age"))])
        XCTAssertEqual(try ids(twenties), [2, 5])
        XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3])
        let before = (twenties.evaluations, byAge.evaluations)
        // Chunks of writes to a column neither reads, each committed, the results read in each.
        for chunk in 0..<10 {
            try realm.beginWrite()
            for position in 0..<5 {
                try byAge.object(at: position).setValue(.double(Double(chunk * 10 + position)), for: p("score"))
                _ = try twenties.count()
            }
            try realm.commitWrite()
            XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3])
        }
        XCTAssertEqual(twenties.evaluations, before.0)
        XCTAssertEqual(byAge.evaluations, before.1)
        // This realm's commit of the query's column.
        try realm.beginWrite()
        try realm.object(person, primaryKey: .int(1))!.setValue(.int(21), for: p("age"))
        try realm.commitWrite()
        XCTAssertEqual(try ids(twenties), [1, 2, 5])
        XCTAssertEqual(try ids(byAge), [4, 2, 5, 1, 3], "21 sorts after 20 and 20")
        // Another handle's commits: a name (read by neither), then an age; seen after refresh.
        let other = try open()
        let otherPerson = try other.classInfo(named: "Person")
        try other.beginWrite()
        try other.object(otherPerson, primaryKey: .int(2))!.setValue(.string("Anna"), for: otherPerson.property(named: "name")!)
        try other.commitWrite()
        try realm.refresh()
        let counts = (twenties.evaluations, byAge.evaluations)
        XCTAssertEqual(try ids(twenties), [1, 2, 5])
        XCTAssertEqual(twenties.evaluations, counts.0, "a name: nothing to evaluate")
        XCTAssertEqual(byAge.evaluations, counts.1)
        try other.beginWrite()
        try other.object(otherPerson, primaryKey: .int(5))!.setValue(.int(60), for: otherPerson.property(named: "age")!)
        try other.object(otherPerson, primaryKey: .int(3))!.delete()
        try other.commitWrite()
        other.close()
        XCTAssertEqual(try ids(twenties), [1, 2, 5], "the pinned version")
        try realm.refresh()
        XCTAssertEqual(try ids(twenties), [1, 2])
        XCTAssertEqual(try ids(byAge), [4, 2, 1, 5])
        // A cancelled write: what it showed is not kept.
        try realm.beginWrite()
        try createPerson(realm, id: 9, age: 22)
        XCTAssertEqual(try ids(twenties), [1, 2, 9])
        try realm.cancelWrite()
        XCTAssertEqual(try ids(twenties), [1, 2])
        XCTAssertEqual(try ids(byAge), [4, 2, 1, 5])
    }

    /// A delete clears links in other classes: results of those classes that read the link column
    /// follow it, though nothing wrote their table's column by name.
    func testResultsFollowLinksClearedByADeleteElsewhere() throws {
        let schema = try Schema([
            ObjectSchema(name: "Owner", properties: [Property(name: "id", type: .int, isPrimaryKey: true)]),
            ObjectSchema(name: "Pet", properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "owner", type: .object, isOptional: true, objectType: "Owner"),
                Property(name: "tags", type: .string, collection: .list),
            ]),
        ])
        let realm = try open(schema, path: path + ".pets")
        let owner = try realm.classInfo(named: "Owner"), pet = try realm.classInfo(named: "Pet")
        let petID = pet.property(named: "id")!, petOwner = pet.property(named: "owner")!
        try realm.beginWrite()
        let ann = try realm.create(owner, values: [(owner.property(named: "id")!, .int(1))])
        for id in 1...3 {
            try realm.create(pet, values: [(petID, .int(Int64(id))),
                                           (petOwner, id == 3 ? .null : .link(ObjectLink(table: owner.tableID, key: ann.key)))])
        }
        let ownerless = try realm.objects(pet).filter("owner == nil")
        XCTAssertEqual(try ownerless.count(), 1)
        try ann.delete()
        XCTAssertEqual(try ownerless.count(), 3, "the delete cleared the pets' links")
        // The same across a commit: read in one transaction, the owner deleted in the next.
        try realm.commitWrite()
        try realm.beginWrite()
        let bo = try realm.create(owner, values: [(owner.property(named: "id")!, .int(2))])
        try realm.object(pet, primaryKey: .int(1))!.setValue(.link(ObjectLink(table: owner.tableID, key: bo.key)), for: petOwner)
        try realm.commitWrite()
        XCTAssertEqual(try ownerless.count(), 2)
        try realm.beginWrite()
        try realm.object(owner, primaryKey: .int(2))!.delete()
        try realm.commitWrite()
        XCTAssertEqual(try ownerless.count(), 3, "the link cleared by a delete in another class's commit")
        try realm.beginWrite()
        // A query through a list (a key path) is evaluated again at every read after a write.
        let tagged = try realm.objects(pet).filter("tags.@count > 0")
        XCTAssertEqual(try tagged.count(), 0)
        try realm.object(pet, primaryKey: .int(2))!.list(of: pet.property(named: "tags")!).append(.string("old"))
        XCTAssertEqual(try tagged.count(), 1)
        try realm.cancelWrite()
        realm.close()
    }

    func testSortIsStableAndByCodePoint() throws {
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("age"))])), [4, 2, 5, 1, 3], "null first; ties keep key order")
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("age"), ascending: false)])), [1, 3, 2, 5, 4])
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("name"))])), [4, 3, 1, 5, 2], "'Ann' < 'Bob' < 'Cy' < 'Dee' < 'ann'")
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("age")), SortDescriptor(p("name"), ascending: false)])), [4, 2, 5, 1, 3])
    }

    func testDistinctAndLimitApplyInOrder() throws {
        XCTAssertEqual(try ids(all.distinct(by: [p("age")])), [1, 2, 4])
        XCTAssertEqual(try ids(all.distinct(by: [p("age"), p("city")])), [1, 2, 3, 4])
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("score"), ascending: false)]).limit(2)), [5, 4])
        XCTAssertEqual(try ids(try all.limit(2).sorted(by: [SortDescriptor(p("score"), ascending: false)])), [2, 1], "limit, then sort")
        XCTAssertEqual(try all.limit(0).count(), 0)
        assertThrows(.invalidArgument) { _ = try self.all.limit(-1) }
    }

    func testAccessors() throws {
        let sorted = all.sorted(by: [SortDescriptor(p("score"), ascending: false)])
        XCTAssertEqual(try value(sorted.object(at: 0), "id"), .int(5))
        XCTAssertEqual(try value(XCTUnwrap(sorted.first()), "id"), .int(5))
        XCTAssertEqual(try value(XCTUnwrap(sorted.last()), "id"), .int(1))
        assertThrows(.outOfRange) { _ = try sorted.object(at: -1) }
        assertThrows(.outOfRange) { _ = try sorted.object(at: 5) }
        let bob = try XCTUnwrap(realm.object(person, primaryKey: .int(3)))
        XCTAssertEqual(try sorted.index(of: bob), 2)
        XCTAssertEqual(try sorted.index(matching: .compare(.property(p("city")), .equal, .constant(.string("Oslo")), [])), 1)
        XCTAssertEqual(try sorted.objects(at: [0, 4]).map { try value($0, "id") }, [.int(5), .int(1)])
        let none = all.filter(.constant(false))
        XCTAssertNil(try none.first())
        XCTAssertNil(try none.last())
    }

    func testAggregatesSkipNullsAndHandleEmpty() throws {
        XCTAssertEqual(try all.aggregate(.min, of: p("age")), .int(20))
        XCTAssertEqual(try all.aggregate(.max, of: p("age")), .int(30))
        XCTAssertEqual(try all.aggregate(.sum, of: p("age")), .int(100))
        XCTAssertEqual(try all.aggregate(.average, of: p("age")), .double(25), "the null age is skipped")
        XCTAssertEqual(try all.aggregate(.sum, of: p("score")), .double(15))
        let none = all.filter(.constant(false))
        XCTAssertNil(try none.aggregate(.min, of: p("age")))
        XCTAssertNil(try none.aggregate(.average, of: p("score")))
        XCTAssertEqual(try none.aggregate(.sum, of: p("age")), .int(0))
        XCTAssertEqual(try all.limit(2).aggregate(.sum, of: p("score")), .double(3), "with operations: over the limited objects")
        assertThrows(.wrongType) { _ = try self.all.aggregate(.sum, of: self.p("name")) }
    }

    /// Int sums are exact: an overflow on the way that cancels out is no error; a sum beyond
    /// 64 bits is `.outOfRange`, never a wrapped number (the in-place scan, the path through
    /// keys and a query's `@sum` alike). Int arithmetic in a query that leaves 64 bits is a double.
    func testIntSumsAreExactOrAnError() throws {
        try realm.beginWrite()
        for (id, age) in [(10, Int64.max), (11, Int64.max), (12, -5)] as [(Int64, Int64)] {
            try createPerson(realm, id: id, age: age)
        }
        try realm.commitWrite()
        let big = all.filter(.compare(.property(p("id")), .greaterOrEqual, .constant(.int(10)), []))
        assertThrows(.outOfRange) { _ = try big.aggregate(.sum, of: self.p("age")) }
        assertThrows(.outOfRange) { _ = try big.sorted(by: [SortDescriptor(self.p("id"))]).aggregate(.sum, of: self.p("age")) }
        try realm.beginWrite()
        try createPerson(realm, id: 13, age: -Int64.max)
        try realm.commitWrite()
        XCTAssertEqual(try big.aggregate(.sum, of: p("age")), .int(Int64.max - 5), "wrapped twice on the way, exact at the end")
        XCTAssertEqual(try big.aggregate(.average, of: p("age")), .double((Double(Int64.max) - 5) / 4))
        XCTAssertEqual(try all.filter("age + 1 > 9.2e18").count(), 2, "age + 1 is 2^63, not a wrapped negative")
        XCTAssertEqual(try all.filter("age * 2 < 0").count(), 2, "-5 and -(2^63 - 1): (2^63 - 1) * 2 does not wrap")
        XCTAssertEqual(try all.filter("age / -1 == -9223372036854775807").count(), 2)
    }

    /// A chain of AND/OR is a list, not nested pairs: 100,000 terms parse, compile and evaluate
    /// on a thread with a 256 KiB stack.
    func testLongChainsRunOnASmallStack() throws {
        let orChain = (0..<100_000).map { "age == \($0 % 40)" }.joined(separator: " OR ")
        let andChain = (0..<100_000).map { "id != \(1_000 + $0)" }.joined(separator: " AND ")
        let counts = CountsBox()
        let path = self.path
        let thread = try spawn(stackSize: 256 * 1024) {
            let realm = try self.open(path: path)
            defer { realm.close() }
            let results = realm.objects(try realm.classInfo(named: "Person"))
            counts.append(try results.filter(orChain).count())
            counts.append(try results.filter(andChain).count())
            counts.append(try results.filter("NOT (\(orChain))").count())
        }
        thread.join()
        XCTAssertEqual(counts.values, [4, 5, 1])
    }

    func testSetValueDeleteAllAndSnapshot() throws {
        let rome = all.filter(.compare(.property(p("city")), .equal, .constant(.string("Rome")), []))
        assertThrows(.wrongTransactionState) { try rome.setValue(.double(0), for: self.p("score")) }
        try realm.beginWrite()
        try rome.setValue(.double(9), for: p("score"))
        assertThrows(.logic) { try rome.setValue(.int(7), for: self.p("id")) }
        assertThrows(.wrongType) { try rome.setValue(.string("x"), for: self.p("score")) }
        try realm.commitWrite()
        XCTAssertEqual(try rome.values(of: p("score")), [.double(9), .double(9)])

        let snapshot = try all.snapshot()
        try realm.beginWrite()
        XCTAssertEqual(try rome.deleteAll(), 2)
        XCTAssertEqual(try all.count(), 3)
        XCTAssertEqual(try snapshot.count(), 5, "a snapshot keeps its objects")
        XCTAssertFalse(try snapshot.object(at: 1).isValid(), "deleted objects in a snapshot are invalid")
        try realm.commitWrite()
    }

    /// Deleting every object of a class sweeps its data at once: the outcome (objects, indexes,
    /// the commit record, notifications, savepoints, keys never reused) is that of deleting them
    /// one by one, which a snapshot of the same objects still does.
    func testDeletingEveryObjectOfTheClassAtOnceIsDeletingThemOneByOne() throws {
        var changes: [CollectionChange] = []
        let token = try all.sorted(by: [SortDescriptor(p("age"))]).observe { changes.append($0) }
        defer { token.invalidate() }
        try realm.deliverNotifications()
        try realm.beginWrite()
        try createPerson(realm, id: 6, age: 40, city: "Oslo")  // created and deleted in one write: no insertion
        try realm.object(person, primaryKey: .int(2))!.setValue(.int(21), for: p("age"))  // deleted: no modification
        try realm.beginSavepoint()
        XCTAssertEqual(try all.filter("age == 21 OR age != 21").deleteAll(), 6, "a query that every object matches")
        XCTAssertEqual(try all.count(), 0)
        try realm.rollbackSavepoint()
        XCTAssertEqual(try ids(all), [1, 2, 3, 4, 5, 6], "the savepoint brought every object back")
        XCTAssertEqual(try ids(all.filter(.compare(.property(p("city")), .equal, .constant(.string("Oslo")), []))), [1, 4, 6],
                       "and their index entries")
        XCTAssertEqual(try all.deleteAll(), 6)
        XCTAssertEqual(try all.count(), 0)
        XCTAssertNil(try realm.object(person, primaryKey: .int(3)), "the primary-key index is empty")
        let again = try createPerson(realm, id: 3, age: 30, city: "Oslo")
        XCTAssertEqual(again.key, 6, "keys are not reused")
        let record = try realm.commitWrite()
        XCTAssertEqual(record.tables[person.tableID]?.deletions, [0, 1, 2, 3, 4])
        XCTAssertEqual(record.tables[person.tableID]?.insertions, [6])
        XCTAssertEqual(record.tables[person.tableID]?.modifications ?? [:], [:])
        XCTAssertEqual(changes.last?.deletions, [0, 1, 2, 3, 4])
        XCTAssertEqual(changes.last?.insertions, [0])
        XCTAssertEqual(try ids(all.filter(.compare(.property(p("city")), .equal, .constant(.string("Oslo")), []))), [3])
        XCTAssertEqual(try realm.check().objects, 1, "objects, blocks and index entries agree")

        // A snapshot as many objects as the class, but not the same ones: only its own go.
        let snapshot = try all.snapshot()
        try realm.beginWrite()
        try again.delete()
        try createPerson(realm, id: 7)
        XCTAssertEqual(try snapshot.deleteAll(), 0, "a snapshot deletes its own objects, not the class")
        try realm.commitWrite()
        XCTAssertEqual(try ids(all), [7])
    }

    func testSetValuesWritesOneValuePerPosition() throws {
        let byScore = all.sorted(by: [SortDescriptor(p("score"), ascending: false)])  // ids 5, 4, 3, 2, 1
        assertThrows(.wrongTransactionState) { try byScore.setValues([.double(0)], for: self.p("score"), start: 0) }
        try realm.beginWrite()
        try byScore.setValues([.double(50), .double(40), .double(30)], for: p("score"), start: 1)
        XCTAssertEqual(try ids(all.sorted(by: [SortDescriptor(p("score"))])), [1, 5, 2, 3, 4], "ids 4, 3, 2 (positions 1-3) got 50, 40, 30")
        assertThrows(.outOfRange) { try byScore.setValues([.double(1), .double(2)], for: self.p("score"), start: 4) }
        assertThrows(.outOfRange) { try byScore.setValues([], for: self.p("score"), start: 6) }
        assertThrows(.wrongType) { try byScore.setValues([.double(1), .string("x")], for: self.p("score"), start: 0) }
        assertThrows(.logic) { try byScore.setValues([.int(9)], for: self.p("id"), start: 0) }
        try byScore.setValues([], for: p("score"), start: 5)
        try realm.commitWrite()
        XCTAssertEqual(try all.values(of: p("score")), [.double(1), .double(30), .double(40), .double(50), .double(5)],
                       "a failed batch wrote nothing")
    }

    func testSortThenLimitKeepsTheTopRowsAsAFullSortWould() throws {
        try realm.beginWrite()
        for id in 6..<3006 {
            // Many ties on age, names with shared prefixes, some null ages.
            try createPerson(realm, id: Int64(id), name: "n\((id * 7919) % 101)", age: id % 13 == 0 ? nil : Int64((id * 31) % 17), score: Double(id % 5))
        }
        try realm.commitWrite()
        // The scan skips rows whose first value sorts after the worst row kept; either direction.
        for descriptors in [[SortDescriptor(p("age")), SortDescriptor(p("name"), ascending: false)],
                            [SortDescriptor(p("age"), ascending: false), SortDescriptor(p("name"))],
                            [SortDescriptor(p("name")), SortDescriptor(p("age"))]] {
            let full = try ids(all.sorted(by: descriptors))
            for k in [0, 1, 10, 600, 1500, 5000] {
                let top = try ids(try all.sorted(by: descriptors).limit(k))
                XCTAssertEqual(top, Array(full.prefix(k)), "limit \(k), \(descriptors.map(\.ascending))")
            }
        }
        let descriptors = [SortDescriptor(p("age")), SortDescriptor(p("name"), ascending: false)]
        let filtered = try all.filter("score >= 3")
        XCTAssertEqual(try ids(try filtered.sorted(by: descriptors).limit(50)), Array(try ids(filtered.sorted(by: descriptors)).prefix(50)))
    }
}
