import Foundation
import XCTest
@testable import RealmDB

/// Notifications on a dispatch queue, an actor and an AsyncStream: no run loop anywhere, frozen
/// collections handed over, and commits of other threads and processes.
final class QueueNotificationTests: RealmTestCase {
    /// Records what a queue block saw, from any thread.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func append(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    func waitFor(_ condition: () -> Bool, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { XCTFail("timed out", file: file, line: line); return }
            usleep(5_000)
        }
    }

    func testQueueGetsFrozenResultsForEveryCommit() throws {
        let realm = try openRealm()
        let log = Log()
        let queue = DispatchQueue(label: "observer")
        let token = realm.objects(Dog.self).sorted(byKeyPath: "id").observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let dogs): log.append("initial \(dogs.count) frozen=\(dogs.isFrozen)")
            case .update(let dogs, let deletions, let insertions, let modifications):
                log.append("update \(dogs.map(\.name)) -\(deletions) +\(insertions) ~\(modifications)")
            case .error(let error): log.append("error \(error)")
            }
        }
        waitFor { log.all.count == 1 }
        XCTAssertEqual(log.all, ["initial 0 frozen=true"])
        // This thread never runs its run loop: the library's thread observes.
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        waitFor { log.all.count == 2 }
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.objects(Dog.self).first!.name = "Rexy" }
        }
        waitFor { log.all.count == 3 }
        XCTAssertEqual(Array(log.all.dropFirst()), ["update [\"Rex\"] -[] +[0] ~[]", "update [\"Rexy\"] -[] +[] ~[0]"])
        token.invalidate()
        try realm.write { realm.add(Dog(value: ["id": 2])) }
        usleep(300_000)
        XCTAssertEqual(log.all.count, 3, "nothing after invalidate()")
    }

    func testQueueObservationOfABadKeyPathReportsAnError() throws {
        let realm = try openRealm()
        let log = Log()
        let token = realm.objects(Dog.self).observe(keyPaths: ["nosuch"], on: DispatchQueue(label: "q")) { change in
            if case .error(let error) = change { log.append("\((error as? RealmError)?.code ?? .internal)") }
        }
        defer { token.invalidate() }
        waitFor { !log.all.isEmpty }
        XCTAssertEqual(log.all, ["invalidArgument"])
    }

    func testAsyncStreamOfChanges() async throws {
        let configuration = self.configuration!
        let box = UncheckedBox(try Realm(configuration: configuration).objects(Dog.self))
        var seen: [Int] = []
        let writer = Task.detached {
            try await Task.sleep(nanoseconds: 100_000_000)
            let realm = try Realm(configuration: configuration)
            for id in 1...3 {
                try realm.write { realm.add(Dog(value: ["id": id])) }
            }
        }
        for await change in box.value.changes {
            switch change {
            case .initial(let dogs): seen.append(dogs.count)
            case .update(let dogs, _, _, _): seen.append(dogs.count)
            case .error(let error): XCTFail("\(error)")
            }
            if seen.last == 3 { break }
        }
        try await writer.value
        XCTAssertEqual(seen.first, 0)
        XCTAssertEqual(seen.last, 3)
        XCTAssertEqual(seen, seen.sorted(), "in commit order")
    }

    actor Counter {
        var counts: [Int] = []
        func record(_ count: Int) { counts.append(count) }
    }

    func testActorIsolatedBlock() async throws {
        let configuration = self.configuration!
        let counter = Counter()
        let results = UncheckedBox(try Realm(configuration: configuration).objects(Dog.self))
        let token = await results.value.observe(on: counter) { counter, change in
            switch change {
            case .initial(let dogs), .update(let dogs, _, _, _): counter.record(dogs.count)
            case .error: counter.record(-1)
            }
        }
        // (Until the initial call, commits fold into it.)
        var deadline = Date().addingTimeInterval(10)
        while await counter.counts.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }.value
        deadline = Date().addingTimeInterval(10)
        while await counter.counts.last != 1, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        let counts = await counter.counts
        XCTAssertEqual(counts.first, 0)
        XCTAssertEqual(counts.last, 1)
        token.invalidate()
    }

    func testObjectChangesOnTheRunLoopAndOnAQueue() throws {
        let realm = try openRealm()
        let dog = Dog(value: ["id": 1, "name": "Rex", "age": 2])
        try realm.write { realm.add(dog) }
        var changes: [String] = []
        let token = dog.observe { (change: ObjectChange<Dog>) in
            switch change {
            case .change(let object, let properties):
                changes.append("\(object.name): " + properties.map { "\($0.name) \($0.oldValue ?? "nil")->\($0.newValue ?? "nil")" }.joined(separator: ", "))
            case .deleted: changes.append("deleted")
            case .error(let error): changes.append("error \(error)")
            }
        }
        let log = Log()
        let queueToken = dog.observe(keyPaths: [\Dog.age], on: DispatchQueue(label: "q")) { (change: ObjectChange<Dog>) in
            if case .change(let object, let properties) = change {
                log.append("\(object.isFrozen) \(properties.map(\.name))")
            } else if case .deleted = change {
                log.append("deleted")
            }
        }
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 1)!.age = 3 }
        }
        runLoop(until: { changes.count == 1 })
        XCTAssertEqual(changes, ["Rex: age 2->3"])
        try realm.write { dog.name = "Max" }
        runLoop(until: { changes.count == 2 })
        XCTAssertEqual(changes.last, "Max: name Rex->Max")
        try realm.write { realm.delete(dog) }
        runLoop(until: { changes.count == 3 })
        XCTAssertEqual(changes.last, "deleted")
        waitFor { log.all.count == 2 }
        XCTAssertEqual(log.all, ["true [\"age\"]", "deleted"], "the queue saw the age change (frozen) and the deletion, not the name")
        token.invalidate()
        queueToken.invalidate()
    }

    /// Releasing a token without invalidating it stops delivery, as Realm's SDK: the library's
    /// observing thread holds the token only weakly.
    func testReleasingTheTokenStopsQueueAndActorDelivery() async throws {
        let configuration = self.configuration!
        let log = Log()
        let counter = Counter()
        let box = UncheckedBox(try Realm(configuration: configuration))
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        try box.value.write { box.value.add(dog) }
        var tokens: [NotificationToken]? = [
            box.value.objects(Dog.self).observe(on: DispatchQueue(label: "q")) { _ in log.append("results") },
            dog.observe(on: DispatchQueue(label: "o")) { (_: ObjectChange<Dog>) in log.append("object") },
            await box.value.objects(Dog.self).observe(on: counter) { counter, _ in counter.record(1) },
        ]
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let actorCalls = await counter.counts.count
            if !log.all.isEmpty && actorCalls > 0 { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(log.all, ["results"], "the initial call")
        XCTAssertNotNil(tokens)
        tokens = nil
        let actorCallsBefore = await counter.counts.count
        let before = (log.all.count, actorCallsBefore)
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                realm.add(Dog(value: ["id": 2]))
                realm.object(ofType: Dog.self, forPrimaryKey: 1)!.name = "Max"
            }
        }.value
        try await Task.sleep(nanoseconds: 500_000_000)
        let actorCallsAfter = await counter.counts.count
        let after = (log.all.count, actorCallsAfter)
        XCTAssertEqual(after.0, before.0, "no delivery after the tokens were released: \(log.all)")
        XCTAssertEqual(after.1, before.1)
    }

    func testUnmanagedObjectCannotBeObserved() {
        var error: RealmError?
        let token = Dog().observe { (change: ObjectChange<Dog>) in
            if case .error(let failure) = change { error = failure as? RealmError }
        }
        XCTAssertEqual(error?.code, .logic)
        token.invalidate()
    }
}
