import Foundation
import XCTest
@testable import RealmDB

/// Maps observed as programs observe them (`person.favorites.observe { ... }`): the changes told
/// as keys (`RealmMapChange`), on the run loop, on a queue, on an actor and as an AsyncStream,
/// for commits of this thread, other threads and another process; maps of values and of objects,
/// null values, key paths, the owner deleted, and what cannot be observed.
final class MapObservationTests: RealmTestCase {
    private func person(_ realm: Realm, name: String = "Ann") throws -> Person {
        let person = Person(value: ["name": name])
        try realm.write { realm.add(person) }
        return person
    }

    private func dog(_ realm: Realm, _ id: Int, _ name: String) -> Dog {
        let dog = Dog(value: ["id": id, "name": name])
        realm.add(dog)
        return dog
    }

    private func describe<Value>(_ change: RealmMapChange<Map<String, Value>>) -> String {
        switch change {
        case .initial(let map): return "initial \(map.keys)"
        case .update(let map, let deletions, let insertions, let modifications):
            return "update \(map.isInvalidated ? [] : map.keys) -\(deletions) +\(insertions) ~\(modifications)"
        case .error(let error): return "error \((error as? RealmError)?.code ?? .internal)"
        }
    }

    func testMapOfValuesOnTheRunLoop() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        try realm.write { ann.scores["b"] = 2 }
        var seen: [String] = []
        let token = ann.scores.observe { change in seen.append(self.describe(change)) }
        runLoop(until: { seen.count == 1 })
        XCTAssertEqual(seen, ["initial [\"b\"]"])
        // This thread's commit delivers on its return: keys, not positions.
        try realm.write {
            ann.scores["a"] = 1
            ann.scores["c"] = 3
        }
        XCTAssertEqual(seen.last, "update [\"a\", \"b\", \"c\"] -[] +[\"a\", \"c\"] ~[]")
        let id = ann.id
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write {
                let scores = realm.object(ofType: Person.self, forPrimaryKey: id)!.scores
                scores["b"] = 20
                scores.removeObject(for: "a")
            }
        }
        runLoop(until: { seen.count == 3 })
        XCTAssertEqual(seen.last, "update [\"b\", \"c\"] -[\"a\"] +[] ~[\"b\"]")
        try realm.write { ann.scores["c"] = 3 }  // the same value: nothing changed
        try realm.write { ann.scores["d"] = 4 }
        XCTAssertEqual(seen.last, "update [\"b\", \"c\", \"d\"] -[] +[\"d\"] ~[]")
        XCTAssertEqual(seen.count, 4)
        token.invalidate()
        try realm.write { ann.scores["e"] = 5 }
        XCTAssertEqual(seen.count, 4, "nothing after invalidate()")
    }

    /// A map of objects: the key whose dog changed is modified, wherever it sits among null
    /// values; pointing a key at another dog or at nil modifies it; key paths select what counts.
    func testMapOfObjectsReportsTheKeysOfChangedObjects() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        var rex: Dog!, fido: Dog!
        try realm.write {
            rex = dog(realm, 1, "Rex")
            fido = dog(realm, 2, "Fido")
            ann.favorites["a"] = nil as Dog?
            ann.favorites["b"] = rex
            ann.favorites["c"] = fido
        }
        var all: [String] = [], ages: [String] = []
        let tokens = [ann.favorites.observe { all.append(self.describe($0)) },
                      ann.favorites.observe(keyPaths: ["age"]) { ages.append(self.describe($0)) }]
        runLoop(until: { all.count == 1 && ages.count == 1 })
        XCTAssertEqual(all, ["initial [\"a\", \"b\", \"c\"]"])
        try realm.write { fido.name = "Fido 2" }
        XCTAssertEqual(all.last, "update [\"a\", \"b\", \"c\"] -[] +[] ~[\"c\"]")
        XCTAssertEqual(ages.count, 1, "a name is not an age: no call")
        try realm.write { fido.age = 3 }
        XCTAssertEqual(ages.last, "update [\"a\", \"b\", \"c\"] -[] +[] ~[\"c\"]")
        try realm.write {
            ann.favorites["a"] = rex
            ann.favorites["b"] = nil as Dog?
        }
        XCTAssertEqual(all.last, "update [\"a\", \"b\", \"c\"] -[] +[] ~[\"a\", \"b\"]")
        try realm.write { realm.delete(fido) }
        XCTAssertEqual(all.last, "update [\"a\", \"b\", \"c\"] -[] +[] ~[\"c\"]", "the key stays, its dog now nil")
        XCTAssertNil(ann.favorites["c"] ?? nil)
        for token in tokens { token.invalidate() }
    }

    func testDeletingTheOwnerReportsEveryKeyDeletedOnce() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        try realm.write { ann.scores["x"] = 1; ann.scores["y"] = 2 }
        var seen: [String] = []
        var invalidated: [Bool] = []
        let token = ann.scores.observe { change in
            seen.append(self.describe(change))
            if case .update(let map, _, _, _) = change { invalidated.append(map.isInvalidated) }
        }
        defer { token.invalidate() }
        runLoop(until: { seen.count == 1 })
        try realm.write { realm.delete(ann) }
        try realm.write { realm.add(Person(value: ["name": "Bob"])) }
        spinRunLoop(0.2)
        XCTAssertEqual(seen, ["initial [\"x\", \"y\"]", "update [] -[\"x\", \"y\"] +[] ~[]"])
        XCTAssertEqual(invalidated, [true])
    }

    func testQueueGetsFrozenMapsForCommitsOfEveryThread() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        let log = QueueNotificationTests.Log()
        let queue = DispatchQueue(label: "favorites")
        let token = ann.favorites.observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let map): log.append("initial \(map.count) frozen=\(map.isFrozen)")
            case .update(let map, let deletions, let insertions, let modifications):
                // The block reads the frozen map: the dogs' names at that version.
                let names = map.keys.map { "\($0)=\((map[$0] ?? nil)?.name ?? "nil")" }
                log.append("update \(names) -\(deletions) +\(insertions) ~\(modifications) frozen=\(map.isFrozen)")
            case .error(let error): log.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        waitFor { log.all.count == 1 }
        let id = ann.id
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write {
                realm.object(ofType: Person.self, forPrimaryKey: id)!.favorites["k"] = Dog(value: ["id": 7, "name": "Max"])
            }
        }
        waitFor { log.all.count == 2 }
        // This thread never runs its run loop: the library's thread observes.
        try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 7)!.name = "Max 2" }
        waitFor { log.all.count == 3 }
        XCTAssertEqual(log.all, ["initial 0 frozen=true",
                                 "update [\"k=Max\"] -[] +[\"k\"] ~[] frozen=true",
                                 "update [\"k=Max 2\"] -[] +[] ~[\"k\"] frozen=true"])
    }

    func testAsyncStreamAndActorOfAMap() async throws {
        let configuration = self.configuration!
        let realm = try Realm(configuration: configuration)
        let ann = try person(realm)
        let scores = UncheckedBox(ann.scores)
        let id = ann.id
        let writer = Task.detached {
            try await Task.sleep(nanoseconds: 100_000_000)
            let realm = try Realm(configuration: configuration)
            for score in 1...3 {
                try realm.write { realm.object(ofType: Person.self, forPrimaryKey: id)!.scores["k\(score)"] = score }
            }
        }
        var inserted: [String] = []
        for await change in scores.value.changes {
            switch change {
            case .initial(let map): XCTAssertTrue(map.isFrozen)
            case .update(let map, _, let insertions, _):
                XCTAssertTrue(map.isFrozen)
                inserted += insertions
            case .error(let error): XCTFail("\(error)")
            }
            if inserted.count == 3 { break }
        }
        try await writer.value
        XCTAssertEqual(inserted, ["k1", "k2", "k3"], "in commit order")

        let counter = QueueNotificationTests.Counter()
        let token = await scores.value.observe(on: counter) { counter, change in
            switch change {
            case .initial(let map): counter.record(map.values.reduce(0, +))
            case .update(let map, _, _, let modifications): counter.record(map.values.reduce(0, +) * 100 + modifications.count)
            case .error: counter.record(-1)
            }
        }
        try await counter.wait { !$0.isEmpty }
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.object(ofType: Person.self, forPrimaryKey: id)!.scores["k1"] = 10 }
        }.value
        try await counter.wait { $0.count == 2 }
        let sums = await counter.counts
        XCTAssertEqual(sums, [6, 1501], "15 in all, one key modified")
        token.invalidate()
    }

    func testAnotherProcessesWritesArrive() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        try realm.write { ann.scores["gone"] = 0 }
        var updates: [String] = []
        var initial = false
        let token = ann.scores.observe { change in
            if case .initial = change { initial = true }
            if case .update = change { updates.append(self.describe(change)) }
        }
        defer { token.invalidate() }
        runLoop(until: { initial })
        // Python, through libdb.so.
        let output = try PythonProcess.run("""
            import realmdb
            with realmdb.open(PATH) as realm:
                ann = realm.objects("Person").filter("name == 'Ann'")[0]
                with realm.write():
                    ann.scores["from python"] = 1
                    del ann.scores["gone"]
            print("ok")
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(output, "ok\n")
        runLoop(until: { !updates.isEmpty })
        XCTAssertEqual(updates, ["update [\"from python\"] -[\"gone\"] +[\"from python\"] ~[]"])
    }

    func testWhatCannotBeObservedIsAnErrorNotACrash() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        var errors: [String] = []
        func record<Value>(_ change: RealmMapChange<Map<String, Value>>) {
            if case .error(let error) = change { errors.append("\((error as? RealmError)?.code ?? .internal)") } else { errors.append("no error") }
        }
        XCTAssertTrue(ann.scores.observe(keyPaths: ["self"]) { record($0) }.isInvalidated, "values have no key paths")
        XCTAssertTrue(ann.favorites.observe(keyPaths: ["nope"]) { record($0) }.isInvalidated)
        XCTAssertTrue(Map<String, Int>().observe { record($0) }.isInvalidated)
        let frozen = ann.scores.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertTrue(frozen.observe { record($0) }.isInvalidated)
        try realm.write {
            XCTAssertTrue(ann.scores.observe { record($0) }.isInvalidated)
        }
        XCTAssertEqual(errors, ["invalidArgument", "invalidArgument", "invalidArgument", "logic", "wrongTransactionState"])
        // The same on a queue: one error each.
        let log = QueueNotificationTests.Log()
        let queue = DispatchQueue(label: "errors")
        expectOneErrorEach(log, [{ ann.scores.observe(keyPaths: ["x"], on: queue) { if case .error = $0 { log.append("error") } } },
                                 { Map<String, Int>().observe(on: queue) { if case .error = $0 { log.append("error") } } },
                                 { frozen.observe(on: queue) { if case .error = $0 { log.append("error") } } }])
        var seen = 0
        let token = ann.scores.observe { _ in seen += 1 }
        runLoop(until: { seen == 1 })
        token.invalidate()
    }

    func testFreezeAndThaw() throws {
        let realm = try openRealm()
        let ann = try person(realm)
        try realm.write { ann.scores["a"] = 1 }
        let frozen = ann.scores.freeze()
        try realm.write { ann.scores["b"] = 2 }
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(ann.scores.isFrozen)
        XCTAssertEqual(frozen.keys, ["a"], "a frozen map keeps its version")
        let thawed = try XCTUnwrap(frozen.thaw())
        XCTAssertFalse(thawed.isFrozen)
        XCTAssertEqual(thawed.keys, ["a", "b"])
        let unmanaged = Map<String, Int>()
        XCTAssertFalse(unmanaged.freeze().isFrozen)
        XCTAssertNotNil(unmanaged.thaw())
    }
}
