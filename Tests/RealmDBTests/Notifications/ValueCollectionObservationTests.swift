import Foundation
import XCTest
@testable import RealmDB

/// Lists and sets of values observed on their own (`item.scores.observe { ... }`), as programs
/// get it: on the run loop, on a queue, on an actor and as an AsyncStream, for commits of this
/// thread, other threads and another process, with blocks that read and write the realm.
final class ValueCollectionObservationTests: RealmTestCase {
    private func item(_ realm: Realm, scores: [Int] = []) throws -> AllTypes {
        let item = AllTypes(value: ["id": 1])
        try realm.write {
            realm.add(item)
            item.scores.append(objectsIn: scores)
        }
        return item
    }

    private func describe<C: Sequence>(_ change: RealmCollectionChange<C>) -> String {
        switch change {
        case .initial(let values): return "initial \(Array(values))"
        case .update(let values, let deletions, let insertions, let modifications):
            return "update \(Array(values)) -\(deletions) +\(insertions) ~\(modifications)"
        case .error(let error): return "error \((error as? RealmError)?.code ?? .internal)"
        }
    }

    func testListOfValuesOnTheRunLoop() throws {
        let realm = try openRealm()
        let scores = try item(realm, scores: [1, 2, 3]).scores
        var seen: [String] = []
        let token = scores.observe { change in seen.append(self.describe(change)) }
        runLoop(until: { seen.count == 1 })
        XCTAssertEqual(seen, ["initial [1, 2, 3]"])
        // This thread's commit delivers on its return; another thread's through the run loop.
        try realm.write { scores.append(4) }
        XCTAssertEqual(seen.last, "update [1, 2, 3, 4] -[] +[3] ~[]")
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { _ = realm.object(ofType: AllTypes.self, forPrimaryKey: 1)!.scores.remove(at: 0) }
        }
        runLoop(until: { seen.count == 3 })
        XCTAssertEqual(seen.last, "update [2, 3, 4] -[0] +[] ~[]")
        // A value replaced in place: the old value goes, the new one comes, at the same position.
        try realm.write { scores[1] = 30 }
        XCTAssertEqual(seen.last, "update [2, 30, 4] -[1] +[1] ~[]")
        token.invalidate()
        try realm.write { scores.append(5) }
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: AllTypes.self, forPrimaryKey: 1)!.scores.append(6) }
        }
        spinRunLoop(0.3)
        XCTAssertEqual(seen.count, 4, "nothing after invalidate()")
    }

    func testBlocksMayReadAndWriteTheRealm() throws {
        let realm = try openRealm()
        let item = try item(realm)
        var sums: [Int] = []
        let token = item.scores.observe { change in
            guard case .update(let scores, _, _, _) = change else { return }
            sums.append(scores.sum())
            // A block that writes: a negative score is replaced by 0 (a second update follows).
            if let index = scores.firstIndex(where: { $0 < 0 }) {
                try! realm.write { scores[index] = 0 }
            }
        }
        defer { token.invalidate() }
        runLoop(until: { true })
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: AllTypes.self, forPrimaryKey: 1)!.scores.append(objectsIn: [5, -2]) }
        }
        runLoop(until: { sums.count >= 2 })
        XCTAssertEqual(sums.prefix(2).map { $0 }, [3, 5])
        XCTAssertEqual(Array(item.scores), [5, 0])
    }

    func testDeletingTheOwnerReportsEveryValueDeletedOnce() throws {
        let realm = try openRealm()
        let item = try item(realm, scores: [7, 8])
        var seen: [String] = []
        var invalidated: [Bool] = []
        let token = item.scores.observe { change in
            switch change {
            case .initial: seen.append("initial")
            case .update(let scores, let deletions, let insertions, _):
                seen.append("update -\(deletions) +\(insertions)")
                invalidated.append(scores.isInvalidated)
            case .error(let error): seen.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        runLoop(until: { seen.count == 1 })
        try realm.write { realm.delete(item) }
        try realm.write { realm.add(AllTypes(value: ["id": 2])) }
        spinRunLoop(0.2)
        XCTAssertEqual(seen, ["initial", "update -[0, 1] +[]"])
        XCTAssertEqual(invalidated, [true])
    }

    func testSetOfValuesOnAQueueGetsFrozenSets() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann"])
        try realm.write { realm.add(person) }
        let log = QueueNotificationTests.Log()
        let queue = DispatchQueue(label: "tags")
        let token = person.tags.observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let tags): log.append("initial \(tags.count) frozen=\(tags.isFrozen)")
            case .update(let tags, _, let insertions, _): log.append("update \(Array(tags).sorted()) +\(insertions.count) frozen=\(tags.isFrozen)")
            case .error(let error): log.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        waitFor { log.all.count == 1 }
        let id = person.id
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: Person.self, forPrimaryKey: id)!.tags.insert("blue") }
        }
        waitFor { log.all.count == 2 }
        // This thread never runs its run loop: the library's thread observes.
        try realm.write { person.tags.insert("red") }
        waitFor { log.all.count == 3 }
        XCTAssertEqual(log.all, ["initial 0 frozen=true", "update [\"blue\"] +1 frozen=true", "update [\"blue\", \"red\"] +1 frozen=true"])
    }

    func testAsyncStreamAndActorOfAList() async throws {
        let configuration = self.configuration!
        let realm = try Realm(configuration: configuration)
        let scores = UncheckedBox(try item(realm).scores)
        let writer = Task.detached {
            try await Task.sleep(nanoseconds: 100_000_000)
            let realm = try Realm(configuration: configuration)
            for score in 1...3 {
                try realm.write { realm.object(ofType: AllTypes.self, forPrimaryKey: 1)!.scores.append(score) }
            }
        }
        var counts: [Int] = []
        for await change in scores.value.changes {
            switch change {
            case .initial(let values), .update(let values, _, _, _):
                XCTAssertTrue(values.isFrozen)
                counts.append(values.count)
            case .error(let error): XCTFail("\(error)")
            }
            if counts.last == 3 { break }
        }
        try await writer.value
        XCTAssertEqual(counts.first, 0)
        XCTAssertEqual(counts, counts.sorted(), "in commit order")

        let counter = QueueNotificationTests.Counter()
        let token = await scores.value.observe(on: counter) { counter, change in
            switch change {
            case .initial(let values), .update(let values, _, _, _): counter.record(values.sum())
            case .error: counter.record(-1)
            }
        }
        try await counter.wait { !$0.isEmpty }
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.object(ofType: AllTypes.self, forPrimaryKey: 1)!.scores.append(10) }
        }.value
        try await counter.wait { $0.last == 16 }
        let sums = await counter.counts
        XCTAssertEqual(sums.first, 6)
        XCTAssertEqual(sums.last, 16)
        token.invalidate()
    }

    func testAnotherProcessesAppendsArrive() throws {
        let realm = try openRealm()
        let tags = try item(realm).tags
        var updates: [[String?]] = []
        var initial = false
        let token = tags.observe { change in
            if case .initial = change { initial = true }
            if case .update(let tags, _, _, _) = change { updates.append(Array(tags)) }
        }
        defer { token.invalidate() }
        runLoop(until: { initial })
        // Python, through libdb.so.
        let output = try PythonProcess.run("""
            import realmdb
            with realmdb.open(PATH) as realm:
                item = realm.object_for_primary_key("AllTypes", 1)
                with realm.write():
                    item.tags.append("from python")
                    item.tags.append(None)
            print("ok")
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(output, "ok\n")
        runLoop(until: { !updates.isEmpty })
        XCTAssertEqual(updates, [["from python", nil]])
    }

    func testWhatCannotBeObservedIsAnErrorNotACrash() throws {
        let realm = try openRealm()
        let item = try item(realm, scores: [1])
        var errors: [String] = []
        func record<C>(_ change: RealmCollectionChange<C>) {
            if case .error(let error) = change { errors.append("\((error as? RealmError)?.code ?? .internal)") } else { errors.append("no error") }
        }
        // Values have no key paths.
        let keyed = item.scores.observe(keyPaths: ["self"]) { record($0) }
        XCTAssertTrue(keyed.isInvalidated)
        // Unmanaged, frozen, inside a write transaction.
        let unmanaged = List<Int>().observe { record($0) }
        XCTAssertTrue(unmanaged.isInvalidated)
        let frozen = item.scores.freeze().observe { record($0) }
        XCTAssertTrue(frozen.isInvalidated)
        try realm.write {
            let inWrite = item.scores.observe { record($0) }
            XCTAssertTrue(inWrite.isInvalidated)
        }
        XCTAssertEqual(errors, ["invalidArgument", "invalidArgument", "logic", "wrongTransactionState"])
        // The same on a queue: one error each.
        let log = QueueNotificationTests.Log()
        let queue = DispatchQueue(label: "errors")
        expectOneErrorEach(log, [{ item.scores.observe(keyPaths: ["x"], on: queue) { if case .error = $0 { log.append("error") } } },
                                 { List<Int>().observe(on: queue) { if case .error = $0 { log.append("error") } } },
                                 { item.scores.freeze().observe(on: queue) { if case .error = $0 { log.append("error") } } }])
        // The realm still works, and an observation made now does.
        var seen = 0
        let token = item.scores.observe { _ in seen += 1 }
        runLoop(until: { seen == 1 })
        token.invalidate()
    }

    /// A thread of the library freezes each change it hands over, which opens the file again:
    /// with the file gone (a test's directory removed while its observers still deliver, as CI
    /// once hit), the change is `.error`, where it stopped the program.
    func testAChangeThatCannotBeFrozenIsAnErrorNotACrash() throws {
        let realm = try openRealm()
        let item = try item(realm, scores: [1])
        let log = QueueNotificationTests.Log()
        let queue = DispatchQueue(label: "removed")
        let lists = item.scores.observe(on: queue) { log.append("list \(self.describe($0))") }
        let results = realm.objects(AllTypes.self).observe(on: queue) { change in
            if case .error = change { log.append("results error") } else { log.append("results ok") }
        }
        let sections = realm.objects(AllTypes.self).sectioned(by: \.id, ascending: true).observe(on: queue) { change in
            if case .error = change { log.append("sections error") } else { log.append("sections ok") }
        }
        defer { [lists, results, sections].forEach { $0.invalidate() } }
        waitFor { log.all.count == 3 }
        try FileManager.default.removeItem(at: directory)  // the realm still writes: its file stays open
        try realm.write { item.scores.append(2) }
        waitFor { log.all.count == 6 }
        XCTAssertEqual(log.all.sorted(), ["list error fileAccess", "list initial [1]", "results error", "results ok",
                                          "sections error", "sections ok"].sorted())
    }

    func testAMapIsObservedThroughItsObject() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann"])
        try realm.write { realm.add(person) }
        var changed: [[String]] = []
        let token = person.observe(keyPaths: ["scores"]) { (change: ObjectChange<Person>) in
            if case .change(_, let properties) = change { changed.append(properties.map(\.name)) }
        }
        defer { token.invalidate() }
        try realm.write { person.name = "Anne" }  // not observed
        try realm.write { person.scores["math"] = 9 }
        runLoop(until: { !changed.isEmpty })
        XCTAssertEqual(changed, [["scores"]])
    }
}
