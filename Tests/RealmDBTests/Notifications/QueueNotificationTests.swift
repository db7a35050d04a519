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
        func removeAll() { lock.withLock { entries.removeAll() } }
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

        /// Waits until the counts recorded satisfy `condition` (at most ten seconds; the caller's
        /// assertions then report what arrived).
        func wait(until condition: ([Int]) -> Bool) async throws {
            let deadline = Date().addingTimeInterval(10)
            while !condition(counts), Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        }
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
        try await counter.wait { !$0.isEmpty }
        try await Task.detached {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }.value
        try await counter.wait { $0.last == 1 }
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

    // MARK: Every kind of collection

    final class Kennel: Object {
        @Persisted var name: String
        @Persisted var dogs: List<Dog>
        @Persisted var favorites: MutableSet<Dog>
    }

    /// Lists, sets, linking objects and `AnyRealmCollection` observed for a queue: each version
    /// handed over frozen, as the collection's own type, for commits of another thread.
    func testEveryKindOfCollectionOnAQueue() throws {
        configuration.objectTypes = [Kennel.self, Dog.self, Person.self, Toy.self]
        let realm = try openRealm()
        let kennel = Kennel(value: ["name": "K"]), rex = Dog(value: ["id": 1, "name": "Rex"])
        try realm.write {
            realm.add(kennel)
            realm.add(rex)
            realm.add(Person(value: ["name": "Ann"]))
        }
        let log = Log()
        let queue = DispatchQueue(label: "observer")
        func record<C: RealmCollection>(_ label: String, _ names: @escaping (C) -> [String]) -> (RealmCollectionChange<C>) -> Void {
            { change in
                dispatchPrecondition(condition: .onQueue(queue))
                switch change {
                case .initial(let c): log.append("\(label) initial \(names(c)) frozen=\(c.isFrozen)")
                case .update(let c, let d, let i, let m): log.append("\(label) \(names(c)) -\(d) +\(i) ~\(m) frozen=\(c.isFrozen)")
                case .error(let error): log.append("\(label) error \(error)")
                }
            }
        }
        let tokens = [
            kennel.dogs.observe(on: queue, record("list") { (dogs: List<Dog>) in dogs.map(\.name) }),
            kennel.favorites.observe(on: queue, record("set") { (dogs: MutableSet<Dog>) in dogs.map(\.name) }),
            rex.owners.observe(on: queue, record("owners") { (people: LinkingObjects<Person>) in people.map(\.name) }),
            AnyRealmCollection(kennel.dogs).observe(on: queue, record("any") { (dogs: AnyRealmCollection<Dog>) in dogs.map(\.name) }),
            kennel.dogs.observe(keyPaths: [\Dog.age], on: queue, record("list.age") { (dogs: List<Dog>) in dogs.map(\.name) }),
        ]
        waitFor { log.all.count == 5 }
        XCTAssertEqual(log.all.sorted(), ["any initial [] frozen=true", "list initial [] frozen=true", "list.age initial [] frozen=true",
                                          "owners initial [] frozen=true", "set initial [] frozen=true"])
        onOtherThread {
            let realm = try self.openRealm()
            let kennel = realm.objects(Kennel.self).first!, rex = realm.object(ofType: Dog.self, forPrimaryKey: 1)!
            try realm.write {
                kennel.dogs.append(rex)
                kennel.favorites.insert(rex)
                realm.objects(Person.self).first!.dogs.append(rex)
            }
        }
        waitFor { log.all.count == 10 }
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 1)!.name = "Max" }
        }
        waitFor { log.all.count >= 14 }
        usleep(200_000)
        XCTAssertEqual(Array(log.all.dropFirst(5)).sorted(), [
            "any [\"Max\"] -[] +[] ~[0] frozen=true", "any [\"Rex\"] -[] +[0] ~[] frozen=true",
            "list [\"Max\"] -[] +[] ~[0] frozen=true", "list [\"Rex\"] -[] +[0] ~[] frozen=true",
            "list.age [\"Rex\"] -[] +[0] ~[] frozen=true",  // the name is not among its key paths
            "owners [\"Ann\"] -[] +[0] ~[] frozen=true",
            "owners [\"Ann\"] -[] +[] ~[0] frozen=true",  // Ann's dogs changed: a change through a link counts
            "set [\"Max\"] -[] +[] ~[0] frozen=true", "set [\"Rex\"] -[] +[0] ~[] frozen=true",
        ])
        for token in tokens { token.invalidate() }
        let count = log.all.count
        try realm.write { kennel.dogs.append(Dog(value: ["id": 2])) }
        usleep(300_000)
        XCTAssertEqual(log.all.count, count, "nothing after invalidate()")
    }

    func testListChangesAsAStreamAndOnAnActor() async throws {
        configuration.objectTypes = [Kennel.self, Dog.self, Person.self, Toy.self]
        let configuration = self.configuration!
        let realm = try Realm(configuration: configuration)
        let kennel = Kennel(value: ["name": "K"])
        try realm.write { realm.add(kennel) }
        let dogs = UncheckedBox(kennel.dogs)
        let counter = Counter()
        let token = await dogs.value.observe(on: counter) { counter, change in
            if case .update(let dogs, _, _, _) = change { counter.record(dogs.count) }
        }
        let writer = Task.detached {
            try await Task.sleep(nanoseconds: 100_000_000)
            let realm = try Realm(configuration: configuration)
            for id in 1...3 {
                try realm.write { realm.objects(Kennel.self).first!.dogs.append(Dog(value: ["id": id])) }
            }
        }
        var seen: [Int] = []
        for await change in dogs.value.changes {
            switch change {
            case .initial(let list): seen.append(list.count); XCTAssertTrue(list.isFrozen)
            case .update(let list, _, _, _): seen.append(list.count)
            case .error(let error): XCTFail("\(error)")
            }
            if seen.last == 3 { break }
        }
        try await writer.value
        XCTAssertEqual(seen.first, 0)
        XCTAssertEqual(seen, seen.sorted(), "in commit order")
        let deadline = Date().addingTimeInterval(10)
        while await counter.counts.last != 3, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        let counts = await counter.counts
        XCTAssertEqual(counts.last, 3)
        XCTAssertEqual(counts, counts.sorted())
        token.invalidate()
    }

    func testSectionedResultsOnAQueue() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 3])) }
        let log = Log()
        let queue = DispatchQueue(label: "observer")
        func record(_ label: String) -> (SectionedResultsChange<SectionedResults<String, Dog>>) -> Void {
            { change in
                dispatchPrecondition(condition: .onQueue(queue))
                switch change {
                case .initial(let sections): log.append("\(label) initial \(sections.allKeys) frozen=\(sections.isFrozen)")
                case .update(let sections, _, let insertions, _, let sectionsToInsert, _):
                    log.append("\(label) \(sections.allKeys) +\(insertions.map { [$0[0], $0[1]] }) sections+\(Array(sectionsToInsert)) frozen=\(sections.isFrozen)")
                case .error(let error): log.append("\(label) error \(error)")
                }
            }
        }
        let byName = realm.objects(Dog.self).sectioned(by: \Dog.name)
        // The key function runs on the library's thread, reading the objects through its handle.
        let byInitial = realm.objects(Dog.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) { String($0.name.prefix(1)) }
        let tokens = [byName.observe(on: queue, record("name")), byInitial.observe(on: queue, record("initial"))]
        waitFor { log.all.count == 2 }
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 2, "name": "Bella", "age": 5])) }
        }
        waitFor { log.all.count == 4 }
        XCTAssertEqual(log.all.sorted(), [
            // A new section brings its objects: they are not listed again among the insertions.
            "initial [\"B\", \"R\"] +[] sections+[0] frozen=true", "initial initial [\"R\"] frozen=true",
            "name [\"Bella\", \"Rex\"] +[] sections+[0] frozen=true", "name initial [\"Rex\"] frozen=true",
        ])
        for token in tokens { token.invalidate() }
    }

    func testUnmanagedListCannotBeObservedOnAQueue() {
        let log = Log()
        let token = List<Dog>().observe(on: DispatchQueue(label: "q")) { change in
            if case .error(let error) = change { log.append("\((error as? RealmError)?.code ?? .internal)") }
        }
        waitFor { !log.all.isEmpty }
        XCTAssertEqual(log.all, ["invalidArgument"])
        token.invalidate()
    }
}

extension QueueNotificationTests {
    /// Deleting the object that owns an observed list ends the list: on the run loop and on a
    /// queue alike, the observer is told (its objects deleted) and nothing stops the program.
    func testDeletingTheOwnerOfAnObservedList() throws {
        configuration.objectTypes = [Kennel.self, Dog.self, Person.self, Toy.self]
        let realm = try openRealm()
        let kennel = Kennel(value: ["name": "K"])
        try realm.write {
            realm.add(kennel)
            kennel.dogs.append(Dog(value: ["id": 1, "name": "Rex"]))
        }
        let log = Log()
        var runLoopLog: [String] = []
        func describe(_ change: RealmCollectionChange<List<Dog>>) -> String {
            switch change {
            case .initial(let dogs): return "initial \(dogs.count)"
            case .update(let dogs, let deletions, let insertions, _): return "update \(dogs.isInvalidated ? "invalidated" : "\(dogs.count)") -\(deletions) +\(insertions)"
            case .error(let error): return "error \(error)"
            }
        }
        let tokens = [
            kennel.dogs.observe(on: DispatchQueue(label: "q")) { log.append(describe($0)) },
            kennel.dogs.observe { runLoopLog.append(describe($0)) },
            AnyRealmCollection(kennel.dogs).observe(on: DispatchQueue(label: "any")) { change in
                if case .update(let dogs, let deletions, _, _) = change { log.append("any invalidated=\(dogs.isInvalidated) -\(deletions)") }
            },
        ]
        waitFor { log.all.count == 1 }
        runLoop(until: { runLoopLog.count == 1 })
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.delete(realm.objects(Kennel.self)) }
        }
        waitFor { log.all.count == 3 }
        runLoop(until: { runLoopLog.count == 2 })
        XCTAssertEqual(log.all.sorted(), ["any invalidated=true -[0]", "initial 1", "update invalidated -[0] +[]"])
        XCTAssertEqual(runLoopLog, ["initial 1", "update invalidated -[0] +[]"])
        for token in tokens { token.invalidate() }
    }

    /// The same for a set, and for the linking objects of a deleted object (no crash, the
    /// observer is told).
    func testDeletingTheOwnerOfAnObservedSetOrTheTargetOfLinkingObjects() throws {
        configuration.objectTypes = [Kennel.self, Dog.self, Person.self, Toy.self]
        let realm = try openRealm()
        let kennel = Kennel(value: ["name": "K"]), rex = Dog(value: ["id": 1, "name": "Rex"])
        try realm.write {
            realm.add(kennel)
            kennel.favorites.insert(rex)
            realm.add(Person(value: ["name": "Ann", "dogs": [rex]]))
        }
        let log = Log()
        let queue = DispatchQueue(label: "q")
        let tokens = [
            kennel.favorites.observe(on: queue) { change in
                if case .update(let set, let deletions, _, _) = change { log.append("set invalidated=\(set.isInvalidated) -\(deletions)") }
            },
            rex.owners.observe(on: queue) { change in
                if case .update(let owners, let deletions, _, _) = change { log.append("owners \(owners.count) -\(deletions)") }
            },
        ]
        usleep(200_000)  // the initial calls
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write {
                realm.delete(realm.objects(Kennel.self))
                realm.delete(realm.objects(Dog.self))
            }
        }
        waitFor { log.all.count == 2 }
        XCTAssertEqual(log.all.sorted(), ["owners 0 -[0]", "set invalidated=true -[0]"])
        for token in tokens { token.invalidate() }
    }
}

extension QueueNotificationTests {
    /// Observing wrongly on a queue is an error delivered to the block, as on the run loop: a
    /// frozen collection or sections (they never change), an unknown key path.
    func testObservingWronglyOnAQueueIsAnError() throws {
        configuration.objectTypes = [Kennel.self, Dog.self, Person.self, Toy.self]
        let realm = try openRealm()
        let kennel = Kennel(value: ["name": "K"])
        try realm.write { realm.add(kennel) }
        let log = Log()
        let queue = DispatchQueue(label: "q")
        func code<C>(_ label: String) -> (RealmCollectionChange<C>) -> Void {
            { change in
                switch change {
                case .error(let error): log.append("\(label) \((error as? RealmError)?.code ?? .internal)")
                default: log.append("\(label) delivered")
                }
            }
        }
        let tokens = [
            kennel.dogs.freeze().observe(on: queue, code("frozen list")),
            realm.objects(Dog.self).freeze().observe(on: queue, code("frozen results")),
            kennel.dogs.observe(keyPaths: ["nosuch"], on: queue, code("bad key path")),
            realm.objects(Dog.self).sectioned(by: \Dog.name).freeze().observe(on: queue) { change in
                if case .error(let error) = change { log.append("frozen sections \((error as? RealmError)?.code ?? .internal)") } else { log.append("frozen sections delivered") }
            },
        ]
        let dog = Dog(value: ["id": 1])
        try realm.write { realm.add(dog) }
        let objectToken = dog.freeze().observe(on: queue) { (change: ObjectChange<Dog>) in
            if case .error(let error) = change { log.append("frozen object \((error as? RealmError)?.code ?? .internal)") } else { log.append("frozen object delivered") }
        }
        waitFor { log.all.count == 5 }
        try realm.write { kennel.dogs.append(dog) }  // no delivery for what is frozen
        usleep(300_000)
        XCTAssertEqual(log.all.sorted(), ["bad key path invalidArgument", "frozen list logic", "frozen object logic",
                                          "frozen results logic", "frozen sections logic"])
        for token in tokens { token.invalidate() }
        objectToken.invalidate()
    }
}
