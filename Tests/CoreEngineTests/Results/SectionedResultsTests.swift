import XCTest
@testable import CoreEngine

/// Sectioned results: grouping by a key path or a function, order, access, freeze/thaw, and
/// section changesets checked against their invariant over random writes.
final class SectionedResultsTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
        ]),
    ])

    private var realm: Realm!
    private var dog: ClassInfo!
    private func d(_ name: String) -> PropertyInfo { dog.property(named: name)! }

    private func openDogs() throws {
        realm = try open(Self.schema)
        dog = try realm.classInfo(named: "Dog")
    }

    @discardableResult
    private func makeDog(_ name: String, _ age: Int64) throws -> ObjectAccessor {
        try realm.create(dog, values: [(d("name"), .string(name)), (d("age"), .int(age))])
    }

    private func firstLetter(_ object: ObjectAccessor) throws -> Value {
        guard case let .string(name) = try object.value(of: object.classInfo.property(named: "name")!) else { return .null }
        return .string(String(name.prefix(1)))
    }

    private func names(_ section: SectionedResults.Section) throws -> [String] {
        try section.objectKeys.map { key in
            guard case let .string(name) = try realm.object(dog, key: key).value(of: d("name")) else { return "?" }
            return name
        }
    }

    /// Applies a section change to the previous sections (see `SectionedChange`).
    static func apply(_ change: SectionedChange, to old: [SectionedResults.Section], new: [SectionedResults.Section]) -> [[Int64]] {
        var sections = old.map(\.objectKeys)
        for path in change.deletions.reversed() { sections[path.section].remove(at: path.item) }
        for index in change.sectionsDeleted.reversed() { sections.remove(at: index) }
        for index in change.sectionsInserted { sections.insert(new[index].objectKeys, at: index) }
        for path in change.insertions { sections[path.section].insert(new[path.section].objectKeys[path.item], at: path.item) }
        return sections
    }

    func testSectionsByKeyPathAndByFunction() throws {
        try openDogs()
        try realm.beginWrite()
        for (name, age) in [("Rex", 3), ("Ace", 5), ("Bo", 3), ("Rio", 1), ("Amy", 5)] { try makeDog(name, Int64(age)) }
        try realm.commitWrite()
        let byAge = try realm.objects(dog).sectioned(by: "age")
        XCTAssertEqual(try byAge.sections().map(\.key), [.int(1), .int(3), .int(5)])
        XCTAssertEqual(try names(byAge.section(at: 1)), ["Rex", "Bo"], "results order (key order for ties)")
        let descending = try realm.objects(dog).sectioned(by: "age", ascending: false)
        XCTAssertEqual(try descending.sections().map(\.key), [.int(5), .int(3), .int(1)])
        let byLetter = realm.objects(dog).sectioned(sortedBy: [CoreEngine.SortDescriptor(d("name"))], key: firstLetter)
        XCTAssertEqual(try byLetter.sections().map(\.key), [.string("A"), .string("B"), .string("R")])
        XCTAssertEqual(try names(byLetter.section(at: 0)), ["Ace", "Amy"])
        XCTAssertEqual(try byLetter.object(section: 2, item: 1).value(of: d("name")), .string("Rio"))
        XCTAssertEqual(try byLetter.count(), 3)
        assertThrows(.outOfRange) { _ = try byLetter.section(at: 3) }
        assertThrows(.outOfRange) { _ = try byLetter.object(section: 0, item: 2) }
        XCTAssertThrowsError(try realm.objects(dog).sectioned(by: "nope"))
        // An age-ordered sort with letter keys: sections still group every object of a key.
        let mixed = realm.objects(dog).sectioned(sortedBy: [CoreEngine.SortDescriptor(d("age"))], key: firstLetter)
        XCTAssertEqual(try mixed.sections().map(\.key), [.string("R"), .string("B"), .string("A")])
        XCTAssertEqual(try names(mixed.section(at: 0)), ["Rio", "Rex"])

        // Live, and frozen.
        let frozen = try byLetter.freeze()
        try realm.beginWrite()
        try makeDog("Cy", 2)
        try realm.commitWrite()
        XCTAssertEqual(try byLetter.count(), 4)
        XCTAssertEqual(try frozen.count(), 3)
        XCTAssertTrue(frozen.isFrozen && !byLetter.isFrozen)
        XCTAssertEqual(try frozen.thaw().count(), 4)
        assertThrows(.logic) { _ = try frozen.observe { _ in } }
        XCTAssertFalse(byLetter.isInvalidated)
        realm.close()
        XCTAssertTrue(byLetter.isInvalidated)
    }

    /// A key function is the caller's code: it runs with no realm lock held, so it may read this
    /// realm and close another (as a garbage collector releasing a realm does) — on the direct
    /// path and on the notification path alike. Under the lock, closing another realm breaks the
    /// lock order (a trap in debug builds, a deadlock risk across threads).
    func testAKeyFunctionMayCloseAnotherRealmWhileSectionsAreEvaluated() throws {
        try openDogs()
        try realm.write { for name in ["Ann", "Bob", "Abe"] { try makeDog(name, 1) } }
        var others: [Realm] = []
        let sectioned = realm.objects(dog).sectioned(sortedBy: [CoreEngine.SortDescriptor(d("name"))]) { object in
            others.popLast()?.close()
            return try self.firstLetter(object)
        }
        others = [try open(Self.schema, path: directory + "/other-1.realm")]
        XCTAssertEqual(try sectioned.sections().map(\.key), [.string("A"), .string("B")])
        XCTAssertTrue(others.isEmpty, "the key function ran and closed the other realm")
        var changes: [SectionedChange] = []
        let token = try sectioned.observe { changes.append($0) }
        try realm.deliverNotifications()
        others = [try open(Self.schema, path: directory + "/other-2.realm")]
        try realm.write { try makeDog("Cy", 1) }
        XCTAssertTrue(others.isEmpty, "the notification path ran the key function")
        XCTAssertEqual(changes.count, 2)
        XCTAssertEqual(changes.last?.sectionsInserted, [2], "section C")
        XCTAssertEqual(try sectioned.sections().map(\.key), [.string("A"), .string("B"), .string("C")])
        _ = token
    }

    /// A key function that throws during a notification skips that delivery; the next one
    /// reports everything since the last sections reported.
    func testAKeyFunctionThatThrowsSkipsOneDeliveryAndLosesNothing() throws {
        try openDogs()
        try realm.write { try makeDog("Ann", 1) }
        var failing = false
        let sectioned = realm.objects(dog).sectioned(sortedBy: [CoreEngine.SortDescriptor(d("name"))]) { object in
            if failing { throw DBError(.invalidArgument, "the key function failed") }
            return try self.firstLetter(object)
        }
        var changes: [SectionedChange] = []
        let token = try sectioned.observe { changes.append($0) }
        try realm.deliverNotifications()
        failing = true
        try realm.write { try makeDog("Bob", 1) }
        XCTAssertEqual(changes.count, 1, "only the initial call: the failed delivery is skipped")
        failing = false
        try realm.write { try makeDog("Cy", 1) }
        XCTAssertEqual(changes.count, 2)
        XCTAssertEqual(changes.last?.sectionsInserted, [1, 2], "B and C, both since the last report")
        _ = token
    }

    /// With a scheduler, the sections' change after another thread's commit is computed on the
    /// commit watcher's thread before the owner is woken; the owner's refresh only delivers it.
    func testSectionsAreComputedAheadOffTheOwnersThread() throws {
        try openDogs()
        try realm.write { for i in 0..<50 { try makeDog("d\(i)", Int64(i % 5)) } }
        let wakes = Counter()
        try realm.setScheduler { wakes.increment() }
        defer { try? realm.setScheduler(nil) }
        var changes: [SectionedChange] = []
        let token = try realm.objects(dog).sectioned(by: "age").observe { changes.append($0) }
        try realm.deliverNotifications()
        let (path, schema) = (self.path, Self.schema)
        let writer = try spawn {
            let other = try Realm(configuration: { var c = RealmConfiguration(path: path); c.schema = schema; return c }())
            let otherDog = try other.classInfo(named: "Dog")
            try other.beginWrite()
            _ = try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("new")), (otherDog.property(named: "age")!, .int(9))])
            try other.object(otherDog, key: 3).setValue(.int(0), for: otherDog.property(named: "age")!)
            try other.commitWrite()
            other.close()
        }
        writer.join()
        XCTAssertTrue(wakes.wait(atLeast: 1, seconds: 5), "the scheduler was not woken")
        let version = try realm.lock.withLock { try realm.currentTransaction().version } + 1
        for _ in 0..<400 where realm.lock.withLock({ realm.notifications.precomputedVersion }) != version { usleep(10_000) }
        try realm.refresh()
        XCTAssertEqual(realm.lock.withLock { realm.notifications.precomputedDeliveries }, 1,
                       "the change was computed on the watcher's thread before the owner refreshed")
        XCTAssertEqual(changes.last?.sectionsInserted, [5], "a section for age 9, after ages 0 to 4")
        XCTAssertEqual(changes.last?.insertions, [IndexPath(section: 0, item: 1)], "dog 3 (age 3 before) after dog 0 among age 0")
        XCTAssertEqual(changes.last?.deletions, [IndexPath(section: 3, item: 0)])
        XCTAssertEqual(try realm.objects(dog).sectioned(by: "age").sections().map(\.objectKeys.count), [11, 10, 10, 9, 10, 1])
        _ = token
    }

    /// Key paths choose what counts as a modification for each callback; when one callback has
    /// something to report, every callback of the sections is called with its own modifications.
    func testKeyPathsChooseWhatCountsAsAModification() throws {
        try openDogs()
        try realm.write { for (name, age) in [("Rex", 1), ("Fido", 1), ("Max", 2)] { try makeDog(name, Int64(age)) } }
        let sectioned = try realm.objects(dog).sectioned(by: "age")
        var byName: [SectionedChange] = [], byNothing: [SectionedChange] = [], everything: [SectionedChange] = []
        let tokens = [try sectioned.observe(keyPaths: ["name"]) { byName.append($0) },
                      try sectioned.observe(keyPaths: []) { byNothing.append($0) },
                      try sectioned.observe { everything.append($0) }]
        try realm.deliverNotifications()
        XCTAssertEqual([byName.count, byNothing.count, everything.count], [1, 1, 1], "the initial calls")
        // A new name: a modification for the name callback and the default one; the empty
        // key paths callback is called too, with no modification.
        try realm.write { try realm.object(dog, key: 1).setValue(.string("Fido II"), for: d("name")) }
        XCTAssertEqual(byName.last?.modifications, [IndexPath(section: 0, item: 1)])
        XCTAssertEqual(everything.last?.modifications, [IndexPath(section: 0, item: 1)])
        XCTAssertEqual(byNothing.count, 2)
        XCTAssertEqual(byNothing.last?.modifications, [])
        // A new age moves the dog to another section: an insertion and a deletion for everyone.
        try realm.write { try realm.object(dog, key: 0).setValue(.int(2), for: d("age")) }
        XCTAssertEqual([byName.count, byNothing.count, everything.count], [3, 3, 3])
        XCTAssertEqual(byNothing.last?.insertions, [IndexPath(section: 1, item: 0)])
        assertThrows(.invalidArgument) { _ = try sectioned.observe(keyPaths: ["nope"]) { _ in } }
        _ = tokens
    }

    func testSectionChangesKeepTheirInvariantOverRandomWrites() throws {
        try openDogs()
        var rng = SeededGenerator(seed: 7)
        let letters = ["A", "B", "C", "D", "E"]
        try realm.beginWrite()
        for i in 0..<30 { try makeDog(letters.randomElement(using: &rng)! + "\(i)", Int64.random(in: 0..<5, using: &rng)) }
        try realm.commitWrite()
        let watched = [realm.objects(dog).sectioned(sortedBy: [CoreEngine.SortDescriptor(d("name"))], key: firstLetter),
                       try realm.objects(dog).filter("age > 0").sectioned(by: "age", ascending: false)]
        var previous = try watched.map { try $0.sections() }
        var failures: [String] = [], written = Set<Int64>(), calls = [0, 0]
        var tokens: [NotificationToken] = []
        for (index, sectioned) in watched.enumerated() {
            tokens.append(try sectioned.observe { change in
                do {
                    let new = try sectioned.sections()
                    if !change.isInitial {
                        calls[index] += 1
                        let applied = Self.apply(change, to: previous[index], new: new)
                        if applied != new.map(\.objectKeys) { failures.append("\(index): \(change) gave \(applied), not \(new.map(\.objectKeys))") }
                        let oldKeys = Set(previous[index].flatMap(\.objectKeys))
                        for (s, section) in new.enumerated() {
                            for (i, key) in section.objectKeys.enumerated() where written.contains(key) && oldKeys.contains(key) {
                                let path = IndexPath(section: s, item: i)
                                let replaced = change.sectionsInserted.contains(s) || change.insertions.contains(path)
                                if !replaced && !change.modifications.contains(path) {
                                    failures.append("\(index): \(key) written but not modified in \(change)")
                                }
                            }
                        }
                    }
                    previous[index] = new
                } catch { failures.append("\(error)") }
            })
        }
        try realm.deliverNotifications()
        for _ in 0..<600 {
            written = []
            try realm.beginWrite()
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let all = try realm.objects(dog).keys()
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: try makeDog(letters.randomElement(using: &rng)! + "n", Int64.random(in: 0..<5, using: &rng))
                case 1 where all.count > 5:
                    let key = all.randomElement(using: &rng)!
                    try realm.object(dog, key: key).delete()
                    written.remove(key)
                default:
                    guard let key = all.randomElement(using: &rng) else { continue }
                    let object = try realm.object(dog, key: key)
                    if Bool.random(using: &rng) {
                        try object.setValue(.int(Int64.random(in: 0..<5, using: &rng)), for: d("age"))
                    } else {
                        try object.setValue(.string(letters.randomElement(using: &rng)! + "m"), for: d("name"))
                    }
                    written.insert(key)
                }
            }
            try realm.commitWrite()
        }
        XCTAssertEqual(failures, [], "\(failures.prefix(3))")
        // The sections by age (the second) found every touched object's old place by binary search
        // in the pinned snapshot of the previous version; the first are by a key function.
        let lookups = realm.lock.withLock { realm.notifications.oldIndexLookups }
        XCTAssertGreaterThan(lookups.searches, 300)
        XCTAssertEqual(lookups.scans, 0)
        XCTAssertGreaterThan(calls[0], 100)
        XCTAssertGreaterThan(calls[1], 100)
        _ = tokens
    }
}
