import XCTest
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
@testable import CoreEngine

/// Collection and object notifications: initial calls, index changesets (checked against the
/// invariant), key-path filtering as the seeds describe, several tokens, invalidation, errors,
/// and a randomized property test over filtered, sorted, distinct and list results.
final class NotificationTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "toys", type: .object, collection: .list, objectType: "Toy"),
            Property(name: "scores", type: .int, collection: .list),
            Property(name: "meta", type: .string, collection: .dictionary),
            Property(name: "toyBox", type: .object, isOptional: true, collection: .dictionary, objectType: "Toy"),
            Property(name: "favorite", type: .object, isOptional: true, objectType: "Toy"),
        ]),
        ObjectSchema(name: "Toy", properties: [
            Property(name: "brand", type: .string),
            Property(name: "color", type: .string),
        ]),
    ])

    private var realm: Realm!
    private var dog: ClassInfo!
    private var toy: ClassInfo!

    private func d(_ name: String) -> PropertyInfo { dog.property(named: name)! }
    private func t(_ name: String) -> PropertyInfo { toy.property(named: name)! }

    private func openDogs() throws {
        realm = try open(Self.schema)
        dog = try realm.classInfo(named: "Dog")
        toy = try realm.classInfo(named: "Toy")
    }

    /// Opens the dogs' realm with Rex, 3, whose toys list holds Lego.
    private func openDogsWithRexPlayingWithLego() throws -> (rex: ObjectAccessor, lego: ObjectAccessor) {
        try openDogs()
        var rex: ObjectAccessor!, lego: ObjectAccessor!
        try realm.write {
            rex = try makeDog("Rex", 3)
            lego = try makeToy("Lego")
            try rex.list(of: d("toys")).append(link(lego))
        }
        return (rex, lego)
    }

    @discardableResult
    private func makeDog(_ name: String, _ age: Int64) throws -> ObjectAccessor {
        try realm.create(dog, values: [(d("name"), .string(name)), (d("age"), .int(age))])
    }

    private func makeToy(_ brand: String) throws -> ObjectAccessor {
        try realm.create(toy, values: [(t("brand"), .string(brand)), (t("color"), .string("red"))])
    }

    private func link(_ object: ObjectAccessor) -> Value { .link(ObjectLink(table: object.classInfo.tableID, key: object.key)) }

    /// Applies a changeset to the previous elements: deletions (old indices), then insertions (new indices).
    static func apply<T>(_ change: CollectionChange, to old: [T], new: [T]) -> [T] {
        var result = old
        for index in change.deletions.reversed() { result.remove(at: index) }
        for index in change.insertions { result.insert(new[index], at: index) }
        return result
    }

    func testFilteredResultsReportIndexChanges() throws {
        try openDogs()
        try realm.write { for (i, name) in ["a", "b", "c", "d"].enumerated() { try makeDog(name, Int64(i)) } }
        let adults = try realm.objects(dog).filter("age >= 1")
        var calls: [CollectionChange] = []
        let token = try adults.observe { calls.append($0) }
        XCTAssertTrue(calls.isEmpty, "the initial call comes at the next delivery")
        try realm.deliverNotifications()
        XCTAssertEqual(calls, [.initial])
        let b = try adults.object(at: 0), c = try adults.object(at: 1)
        try realm.write {
            try b.setValue(.int(0), for: d("age"))       // leaves the results (old index 0)
            try c.setValue(.string("C"), for: d("name")) // modified, stays (old 1, new 0)
            try makeDog("e", 5)                          // inserted at the end (new 2)
        }
        XCTAssertEqual(calls.count, 2)
        XCTAssertEqual(calls[1], CollectionChange(deletions: [0], insertions: [2], modifications: [1], modificationsNew: [0]))
        try realm.write { try makeDog("young", 0) }            // does not match: no call
        XCTAssertEqual(calls.count, 2)
        token.invalidate()
        try realm.write { try makeDog("f", 9) }
        XCTAssertEqual(calls.count, 2, "no call after invalidate")
    }

    func testSortedResultsReportMoves() throws {
        try openDogs()
        var dogs: [ObjectAccessor] = []
        try realm.write { for (i, name) in ["a", "b", "c"].enumerated() { dogs.append(try makeDog(name, Int64(i * 10))) } }
        let sorted = try realm.objects(dog).filter("TRUEPREDICATE SORT(age ASC)")
        var old = try sorted.keys()
        var last: CollectionChange?
        let token = try sorted.observe { last = $0 }
        try realm.deliverNotifications()
        try realm.write { try dogs[0].setValue(.int(25), for: d("age")) }  // a moves from first to last
        let change = try XCTUnwrap(last)
        XCTAssertEqual(change.moves, [CollectionChange.Move(from: 0, to: 2)])
        XCTAssertEqual(change.deletions, [0])
        XCTAssertEqual(change.insertions, [2])
        XCTAssertEqual(change.modifications, [0])
        XCTAssertEqual(change.modificationsNew, [2])
        let new = try sorted.keys()
        XCTAssertEqual(Self.apply(change, to: old, new: new), new)
        old = new
        _ = token
    }

    func testOneObjectMovingAmongManyIsFoundByItsOldValueAndMovedInPlace() throws {
        try openDogs()
        var dogs: [ObjectAccessor] = []
        try realm.write { for i in 0..<2_000 { dogs.append(try makeDog("d\(i)", Int64(i % 50))) } }
        let sorted = try realm.objects(dog).filter("TRUEPREDICATE SORT(age ASC, name DESC)")
        var previous = try sorted.keys()
        var changes: [CollectionChange] = []
        let token = try sorted.observe { changes.append($0) }
        try realm.deliverNotifications()
        // Each commit moves one dog, deletes one, adds one, or renames one (a tie-break change).
        for step in 0..<40 {
            try realm.write {
                let dog = dogs[(step * 37) % dogs.count]
                switch step % 4 {
                case 0: try dog.setValue(.int(Int64((step * 7) % 50)), for: d("age"))
                case 1: try dog.delete(); dogs.remove(at: (step * 37) % dogs.count)
                case 2: dogs.append(try makeDog("new\(step)", Int64(step % 50)))
                default: try dog.setValue(.string("z\(step)"), for: d("name"))
                }
            }
            let change = try XCTUnwrap(changes.last)
            let new = try sorted.keys()
            XCTAssertEqual(Self.apply(change, to: previous, new: new), new, "step \(step): \(change)")
            previous = new
        }
        XCTAssertEqual(changes.count, 41)
        XCTAssertEqual(realm.lock.withLock { realm.notifications.oldIndexLookups }.searches, 40)
        XCTAssertEqual(realm.lock.withLock { realm.notifications.oldIndexLookups }.scans, 0)
        _ = token
    }

    func testInvalidateLetsGoOfTheVersionSortedResultsKeep() throws {
        try openDogs()
        var dogs: [ObjectAccessor] = []
        try realm.write { for i in 0..<100 { dogs.append(try makeDog("d\(i)", Int64(i % 10))) } }
        let sorted = try realm.objects(dog).filter("TRUEPREDICATE SORT(age ASC)")
        var changes: [CollectionChange] = []
        let token = try sorted.observe { changes.append($0) }
        try realm.deliverNotifications()
        // Another handle commits: the realm's version and the notifier's are one, behind it.
        let other = try open(Self.schema)
        try other.write { try other.object(dog, key: dogs[0].key).setValue(.int(9), for: d("age")) }
        XCTAssertEqual(try realm.activeVersionCount(), 2)
        try realm.invalidate()
        XCTAssertEqual(try realm.activeVersionCount(), 1, "the notifier's snapshot went with the realm's")
        _ = try realm.refresh()
        XCTAssertEqual(changes.count, 2)
        XCTAssertEqual(realm.lock.withLock { realm.notifications.oldIndexLookups }.scans, 1, "no snapshot: one pass")
        XCTAssertEqual(try XCTUnwrap(changes.last).moves.count, 1)
        other.close()
        _ = token
    }

    func testManyObjectsMovingAreFoundByOnePassOverTheKeys() throws {
        try openDogs()
        var dogs: [ObjectAccessor] = []
        try realm.write { for i in 0..<5_000 { dogs.append(try makeDog("d\(i)", Int64(i % 50))) } }
        let sorted = try realm.objects(dog).filter("TRUEPREDICATE SORT(age DESC)")
        let previous = try sorted.keys()
        var changes: [CollectionChange] = []
        let token = try sorted.observe { changes.append($0) }
        try realm.deliverNotifications()
        // More objects than searching for each would be worth (5,000 / 8,192 of them): one pass.
        try realm.write { for i in stride(from: 0, to: 5_000, by: 50) { try dogs[i].setValue(.int(Int64(i % 7)), for: d("age")) } }
        let change = try XCTUnwrap(changes.last)
        let new = try sorted.keys()
        XCTAssertEqual(Self.apply(change, to: previous, new: new), new)
        XCTAssertEqual(change.modifications.count, 100)
        XCTAssertEqual(realm.lock.withLock { realm.notifications.oldIndexLookups }.scans, 1)
        XCTAssertEqual(realm.lock.withLock { realm.notifications.oldIndexLookups }.searches, 0)
        _ = token
    }

    func testKeyPathsFollowTheSeedsForToysAndToysBrand() throws {
        let (rex, lego) = try openDogsWithRexPlayingWithLego()
        let dogs = realm.objects(dog)
        var toysCalls: [CollectionChange] = [], brandCalls: [CollectionChange] = [], nameCalls: [CollectionChange] = []
        let t1 = try dogs.observe(keyPaths: ["toys"]) { toysCalls.append($0) }
        let t2 = try dogs.observe(keyPaths: ["toys.brand"]) { brandCalls.append($0) }
        let t3 = try realm.objects(dog).observe(keyPaths: ["name"]) { nameCalls.append($0) }
        try realm.deliverNotifications()
        XCTAssertEqual([toysCalls.count, brandCalls.count, nameCalls.count], [1, 1, 1])

        // A toy's color: neither "toys" nor "toys.brand" counts it; nothing is called.
        try realm.write { try lego.setValue(.string("blue"), for: t("color")) }
        XCTAssertEqual([toysCalls.count, brandCalls.count, nameCalls.count], [1, 1, 1])

        // A toy's brand: "toys.brand" is satisfied, so both tokens of that collection are called,
        // each with its own modifications; the other collection ("name") is not.
        try realm.write { try lego.setValue(.string("Duplo"), for: t("brand")) }
        XCTAssertEqual([toysCalls.count, brandCalls.count, nameCalls.count], [2, 2, 1])
        XCTAssertEqual(brandCalls.last?.modifications, [0])
        XCTAssertEqual(toysCalls.last?.modifications, [], "the toys token's own filter is not satisfied")

        // The list itself: both count it.
        try realm.write { try rex.list(of: d("toys")).append(link(try makeToy("Brio"))) }
        XCTAssertEqual(toysCalls.last?.modifications, [0])
        XCTAssertEqual(brandCalls.last?.modifications, [0])
        XCTAssertEqual(nameCalls.count, 1)

        // Inserting a dog is reported to every token.
        try realm.write { try makeDog("Fido", 1) }
        XCTAssertEqual(nameCalls.last?.insertions, [1])
        XCTAssertEqual(toysCalls.last?.insertions, [1])
        _ = (t1, t2, t3)
    }

    func testDefaultDepthFollowsLinks() throws {
        try openDogs()
        var lego: ObjectAccessor!
        try realm.write {
            let rex = try makeDog("Rex", 3)
            lego = try makeToy("Lego")
            try rex.list(of: d("toys")).append(link(lego))
            try makeDog("Solo", 4)
        }
        var calls: [CollectionChange] = []
        let token = try realm.objects(dog).observe { calls.append($0) }
        try realm.deliverNotifications()
        try realm.write { try lego.setValue(.string("blue"), for: t("color")) }
        XCTAssertEqual(calls.last?.modifications, [0], "a linked toy's change marks its dog modified")
        _ = token
    }

    func testObjectNotifications() throws {
        let (rex, lego) = try openDogsWithRexPlayingWithLego()
        var changes: [ObjectChange] = [], deep: [ObjectChange] = []
        let token = try rex.observe { changes.append($0) }
        let brandToken = try rex.observe(keyPaths: ["toys.brand"]) { deep.append($0) }
        try realm.deliverNotifications()
        XCTAssertTrue(changes.isEmpty, "no initial call")
        try realm.write { try rex.setValue(.int(4), for: d("age")) }
        XCTAssertEqual(changes, [.changed([PropertyChange(name: "age", oldValue: .int(3), newValue: .int(4))])])
        try realm.write { try rex.setValue(.int(4), for: d("age")) }
        XCTAssertEqual(changes.count, 2, "writing the same value counts")
        try realm.write { try lego.setValue(.string("Duplo"), for: t("brand")) }
        XCTAssertEqual(changes.count, 2, "shallow: a linked object's change does not count")
        XCTAssertEqual(deep.last, .changed([PropertyChange(name: "toys", oldValue: nil, newValue: nil)]))
        try realm.write { try rex.delete() }
        XCTAssertEqual(changes.last, .deleted)
        _ = (token, brandToken)
    }

    /// More commits than the records kept (`StorageTransaction.retainedChangeRecords`) between
    /// two deliveries: the object's values are compared, and a change behind a link the key paths
    /// observe is reported (it can no longer be told apart from none), never missed.
    func testObjectNotificationsAfterMoreCommitsThanTheRecordsKept() throws {
        let (rex, lego) = try openDogsWithRexPlayingWithLego()
        try realm.write { try rex.setValue(link(lego), for: d("favorite")) }
        var deep: [ObjectChange] = [], own: [ObjectChange] = [], favorite: [ObjectChange] = []
        let tokens = [try rex.observe(keyPaths: ["toys.brand"]) { deep.append($0) }, try rex.observe(keyPaths: ["age"]) { own.append($0) },
                      try rex.observe(keyPaths: ["favorite.brand"]) { favorite.append($0) }]
        try realm.deliverNotifications()
        let other = try Realm(configuration: { var c = RealmConfiguration(path: path); c.schema = Self.schema; return c }())
        let otherToy = try other.classInfo(named: "Toy"), otherDog = try other.classInfo(named: "Dog")
        try other.write {
            try other.objects(otherToy).object(at: 0).setValue(.string("Duplo"), for: otherToy.property(named: "brand")!)
            try other.objects(otherDog).object(at: 0).setValue(.int(9), for: otherDog.property(named: "age")!)
        }
        var filler: ObjectAccessor!
        try other.write {
            filler = try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("filler")), (otherDog.property(named: "age")!, .int(0))])
        }
        for i in 0..<Int(StorageTransaction.retainedChangeRecords) {
            try other.write { try filler.setValue(.int(Int64(i)), for: otherDog.property(named: "age")!) }
        }
        try realm.refresh()
        try realm.deliverNotifications()
        XCTAssertEqual(deep, [.changed([PropertyChange(name: "toys", oldValue: nil, newValue: nil)])])
        XCTAssertEqual(own, [.changed([PropertyChange(name: "age", oldValue: .int(3), newValue: .int(9))])])
        let favoriteLink = link(lego)
        XCTAssertEqual(favorite, [.changed([PropertyChange(name: "favorite", oldValue: favoriteLink, newValue: favoriteLink)])],
                       "through a to-one link too, whose own value did not change")
        _ = (tokens, lego)
    }

    func testCollectionsOfValuesAndOfObjects() throws {
        try openDogs()
        var rex: ObjectAccessor!
        try realm.write { rex = try makeDog("Rex", 1) }
        let scores = try rex.list(of: d("scores")), meta = try rex.dictionary(of: d("meta")), toys = try rex.list(of: d("toys"))
        var scoreCalls: [CollectionChange] = [], metaCalls: [CollectionChange] = [], toyCalls: [CollectionChange] = []
        let tokens = [try scores.observe { scoreCalls.append($0) }, try meta.observe { metaCalls.append($0) },
                      try toys.observe(keyPaths: ["brand"]) { toyCalls.append($0) }]
        XCTAssertThrowsError(try scores.observe(keyPaths: ["x"]) { _ in })
        try realm.deliverNotifications()
        XCTAssertEqual([scoreCalls.count, metaCalls.count, toyCalls.count], [1, 1, 1])
        var lego: ObjectAccessor!
        try realm.write {
            try scores.append(contentsOf: [.int(1), .int(2), .int(3)])
            try meta.set(.string("x"), forKey: "a")
            lego = try makeToy("Lego")
            try toys.append(link(lego))
        }
        XCTAssertEqual(scoreCalls.last?.insertions, [0, 1, 2])
        XCTAssertEqual(metaCalls.last?.insertions, [0])
        XCTAssertEqual(toyCalls.last?.insertions, [0])
        try realm.write {
            try scores.move(from: 2, to: 0)      // 3 1 2
            try meta.set(.string("y"), forKey: "a")
            try meta.set(.string("z"), forKey: "b")
            try lego.setValue(.string("Duplo"), for: t("brand"))
        }
        let moved = try XCTUnwrap(scoreCalls.last)
        XCTAssertEqual(moved.moves, [CollectionChange.Move(from: 2, to: 0)])
        XCTAssertEqual(Self.apply(moved, to: [1, 2, 3], new: [3, 1, 2]), [3, 1, 2])
        XCTAssertEqual(metaCalls.last, CollectionChange(insertions: [1], modifications: [0], modificationsNew: [0]))
        XCTAssertEqual(toyCalls.last?.modifications, [0])
        let calls = scoreCalls.count
        try realm.write { try rex.setValue(.int(2), for: d("age")) }
        XCTAssertEqual(scoreCalls.count, calls, "the owner's other properties do not change its list")
        try realm.write { try rex.delete() }
        XCTAssertEqual(scoreCalls.last?.deletions, [0, 1, 2], "the owner's deletion empties its collections")
        XCTAssertEqual(metaCalls.last?.deletions, [0, 1])
        _ = tokens
    }

    /// A dictionary of objects reports by key, in key order, as a dictionary of values does:
    /// null values keep their index, a key whose object was replaced (or set to null) is modified,
    /// and so is a key whose object changed where the key paths look.
    func testDictionaryOfObjectsReportsKeysInKeyOrder() throws {
        try openDogs()
        var rex: ObjectAccessor!, lego: ObjectAccessor!, duplo: ObjectAccessor!
        try realm.write {
            rex = try makeDog("Rex", 1)
            lego = try makeToy("Lego")
            duplo = try makeToy("Duplo")
        }
        let box = try rex.dictionary(of: d("toyBox"))
        var all: [CollectionChange] = [], colors: [CollectionChange] = []
        let tokens = [try box.observe { all.append($0) }, try box.observe(keyPaths: ["color"]) { colors.append($0) }]
        XCTAssertThrowsError(try box.observe(keyPaths: ["nope"]) { _ in })
        try realm.deliverNotifications()
        XCTAssertEqual(all, [.initial])
        try realm.write {
            try box.set(.null, forKey: "a")
            try box.set(link(lego), forKey: "b")
            try box.set(link(duplo), forKey: "c")
        }
        XCTAssertEqual(all.last?.insertions, [0, 1, 2])
        try realm.write { try duplo.setValue(.string("Duplo 2"), for: t("brand")) }
        XCTAssertEqual(all.last, CollectionChange(modifications: [2], modificationsNew: [2]),
                       "the key of the changed object, in key order (not among the non-null objects)")
        XCTAssertEqual(colors.last, CollectionChange(), "a change reported to one token is delivered to all, each with its own modifications")
        let colorCalls = colors.count
        try realm.write {
            try box.set(link(duplo), forKey: "a")  // null -> Duplo
            try box.set(.null, forKey: "c")         // Duplo -> null: the objects held are the same
        }
        XCTAssertEqual(all.last, CollectionChange(modifications: [0, 2], modificationsNew: [0, 2]))
        XCTAssertEqual(colors.count, colorCalls + 1)
        try realm.write {
            _ = try box.remove(key: "b")
            try box.set(link(lego), forKey: "d")
            try lego.setValue(.string("blue"), for: t("color"))
        }
        XCTAssertEqual(all.last, CollectionChange(deletions: [1], insertions: [2], modifications: [], modificationsNew: []),
                       "Lego moved from key b to key d: a deletion and an insertion; d is new, so not modified")
        try realm.write { try lego.delete() }
        XCTAssertEqual(all.last, CollectionChange(modifications: [2], modificationsNew: [2]), "the key of a deleted object stays, now null")
        try realm.write { try rex.delete() }
        XCTAssertEqual(all.last?.deletions, [0, 1, 2], "the owner's deletion removes every key")
        _ = tokens
    }

    /// Key paths select which changes of the held objects count.
    func testDictionaryOfObjectsFollowsKeyPaths() throws {
        try openDogs()
        var rex: ObjectAccessor!, lego: ObjectAccessor!
        try realm.write {
            rex = try makeDog("Rex", 1)
            lego = try makeToy("Lego")
            try rex.dictionary(of: d("toyBox")).set(link(lego), forKey: "k")
        }
        let box = try rex.dictionary(of: d("toyBox"))
        var colors: [CollectionChange] = []
        let token = try box.observe(keyPaths: ["color"]) { colors.append($0) }
        try realm.deliverNotifications()
        try realm.write { try lego.setValue(.string("Duplo"), for: t("brand")) }
        XCTAssertEqual(colors, [.initial], "a brand is not a color")
        try realm.write { try lego.setValue(.string("blue"), for: t("color")) }
        XCTAssertEqual(colors.last, CollectionChange(modifications: [0], modificationsNew: [0]))
        _ = token
    }

    /// A callback registered on a notifier while another handle's commit waits to be delivered
    /// gets its initial call at the new version, and not that commit's change on top of it (which
    /// the collection its initial call reads includes): results, sectioned results, a list of
    /// values and a dictionary, each shared with a callback registered before.
    func testACallbackRegisteredWhileACommitIsPendingGetsOnlyItsInitialCall() throws {
        try openDogs()
        var rex: ObjectAccessor!
        try realm.write { rex = try makeDog("Rex", 1) }
        let dogs = realm.objects(dog), sections = try realm.objects(dog).sectioned(by: "age")
        let scores = try rex.list(of: d("scores")), meta = try rex.dictionary(of: d("meta"))
        var early: [String: [Bool]] = [:], late: [String: [Bool]] = [:]
        func record(_ name: String, into log: @escaping (String, Bool) -> Void) -> (CollectionChange) -> Void {
            { log(name, $0.isInitial) }
        }
        let logEarly: (String, Bool) -> Void = { early[$0, default: []].append($1) }
        let logLate: (String, Bool) -> Void = { late[$0, default: []].append($1) }
        var tokens = [try dogs.observe(record("dogs", into: logEarly)), try scores.observe(record("scores", into: logEarly)),
                      try meta.observe(record("meta", into: logEarly)), try sections.observe { logEarly("sections", $0.isInitial) }]
        try realm.deliverNotifications()
        let other = try Realm(configuration: { var c = RealmConfiguration(path: path); c.schema = Self.schema; return c }())
        try other.write {
            let otherDog = try other.classInfo(named: "Dog")
            let otherRex = try other.objects(otherDog).object(at: 0)
            try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("Fido")), (otherDog.property(named: "age")!, .int(2))])
            try otherRex.list(of: otherDog.property(named: "scores")!).append(.int(7))
            try otherRex.dictionary(of: otherDog.property(named: "meta")!).set(.string("x"), forKey: "k")
        }
        tokens += [try dogs.observe(record("dogs", into: logLate)), try scores.observe(record("scores", into: logLate)),
                   try meta.observe(record("meta", into: logLate)), try sections.observe { logLate("sections", $0.isInitial) }]
        try realm.refresh()
        try realm.deliverNotifications()
        XCTAssertEqual(early, ["dogs": [true, false], "scores": [true, false], "meta": [true, false], "sections": [true, false]])
        XCTAssertEqual(late, ["dogs": [true], "scores": [true], "meta": [true], "sections": [true]],
                       "the late callbacks start at the new version")
        try realm.write { try scores.append(.int(8)) }
        XCTAssertEqual(late["scores"], [true, false], "and get the changes after it")
        _ = tokens
    }

    func testRegistrationErrorsAndInvalidationInsideTheCallback() throws {
        try openDogs()
        let dogs = realm.objects(dog)
        XCTAssertThrowsError(try dogs.observe(keyPaths: ["nope"]) { _ in }) { error in
            XCTAssertEqual((error as? DBError)?.code, .invalidArgument)
        }
        XCTAssertThrowsError(try dogs.observe(keyPaths: ["age.x"]) { _ in })
        try realm.beginWrite()
        XCTAssertThrowsError(try dogs.observe { _ in }) { error in
            XCTAssertEqual((error as? DBError)?.code, .wrongTransactionState)
        }
        try realm.cancelWrite()
        var count = 0
        var token: NotificationToken?
        token = try dogs.observe { _ in
            count += 1
            token?.invalidate()
        }
        try realm.deliverNotifications()
        try realm.write { try makeDog("a", 1) }
        XCTAssertEqual(count, 1, "invalidated from inside its own callback")
        var released = 0
        _ = try dogs.observe { _ in released += 1 }  // the token is released at once
        try realm.deliverNotifications()
        XCTAssertEqual(released, 0)
    }

    func testChangesFromAnotherHandleArriveAtRefresh() throws {
        try openDogs()
        let other = try open(Self.schema)
        let otherDog = try other.classInfo(named: "Dog")
        var calls: [CollectionChange] = []
        let token = try realm.objects(dog).observe { calls.append($0) }
        try realm.deliverNotifications()
        try other.beginWrite()
        _ = try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("x")), (otherDog.property(named: "age")!, .int(1))])
        try other.commitWrite()
        XCTAssertEqual(calls.count, 1)
        try realm.refresh()
        XCTAssertEqual(calls.last?.insertions, [0])
        _ = token
    }

    func testSchedulerIsWokenByCommitsFromAnotherThread() throws {
        try openDogs()
        let wakes = Counter()
        try realm.setScheduler { wakes.increment() }
        var calls: [CollectionChange] = []
        let token = try realm.objects(dog).observe { calls.append($0) }
        try realm.deliverNotifications()
        let path = self.path
        let writer = try spawn {
            let other = try Realm(configuration: { var c = RealmConfiguration(path: path); c.schema = Self.schema; return c }())
            let otherDog = try other.classInfo(named: "Dog")
            try other.beginWrite()
            _ = try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("x")), (otherDog.property(named: "age")!, .int(1))])
            try other.commitWrite()
            other.close()
        }
        writer.join()
        XCTAssertTrue(wakes.wait(atLeast: 1, seconds: 5), "the scheduler was not woken")
        // The writer's open and its commit may wake the scheduler separately: wait for the
        // changeset of the commit (version 2) to be computed on the watcher's thread.
        let computed = Counter()
        for _ in 0..<400 where computed.value == 0 {
            usleep(10_000)
            if realm.lock.withLock({ realm.notifications.precomputedVersion }) == 2 { computed.increment() }
        }
        try realm.refresh()
        XCTAssertEqual(calls.last?.insertions, [0])
        XCTAssertEqual(realm.lock.withLock { realm.notifications.precomputedDeliveries }, 1,
                       "the changeset was computed on the watcher's thread before the owner refreshed")
        try realm.setScheduler(nil)
        let before = wakes.value
        try realm.write { try makeDog("y", 2) }
        usleep(400_000)
        XCTAssertEqual(wakes.value, before, "no wake-up after the scheduler is removed")
        _ = token
    }

    func testARealmHandleBelongsToItsThread() throws {
        try openDogs()
        let results = realm.objects(dog)
        let realm = self.realm!
        let dog = self.dog!
        let thread = try spawn {
            for attempt in [{ _ = try realm.version() }, { try realm.beginWrite() }, { _ = try results.count() },
                            { _ = try results.observe { _ in } }, { try realm.deliverNotifications() },
                            { _ = try realm.objects(dog).keys() }] as [() throws -> Void] {
                XCTAssertThrowsError(try attempt()) { error in
                    XCTAssertEqual((error as? DBError)?.code, .wrongThread, "\(error)")
                }
            }
            try realm.setScheduler(nil)  // allowed anywhere
        }
        thread.join()
        XCTAssertEqual(try results.count(), 0, "still usable on its own thread")
    }

    func testInvalidatingFromAnotherThreadWaitsForTheCallback() throws {
        try openDogs()
        let entered = Counter(), finished = Counter()
        let token = try realm.objects(dog).observe { change in
            guard !change.isInitial else { return }
            entered.increment()
            usleep(300_000)
            finished.increment()
        }
        try realm.deliverNotifications()
        let invalidator = try spawn {
            _ = entered.wait(atLeast: 1, seconds: 5)
            token.invalidate()
            // When invalidate returns, the callback in progress has finished.
            XCTAssertEqual(finished.value, 1)
        }
        try realm.write { try makeDog("a", 1) }
        invalidator.join()
        try realm.write { try makeDog("b", 1) }
        XCTAssertEqual(entered.value, 1, "no call after invalidate")
    }

    /// Thousands of random writes; after each commit every callback must satisfy the invariant:
    /// deletions then insertions turn the previous elements into the new ones, and every object
    /// written in that commit that is in both is reported modified.
    func testRandomWritesKeepTheChangesetInvariant() throws {
        try openDogs()
        // REALMDB_NOTIFY_SEED and REALMDB_NOTIFY_COMMITS vary the run (defaults: 42, 1000).
        var rng = SeededGenerator(seed: getenv("REALMDB_NOTIFY_SEED").flatMap { UInt64(String(cString: $0)) } ?? 42)
        let commits = getenv("REALMDB_NOTIFY_COMMITS").flatMap { Int(String(cString: $0)) } ?? 1000
        var owner: ObjectAccessor!
        try realm.write {
            owner = try makeDog("owner", 100)
            for i in 0..<40 { try makeDog("d\(i)", Int64(i % 7)) }
        }
        let queries = ["age > 2", "age < 5 SORT(age DESC, name ASC)", "TRUEPREDICATE SORT(name DESC)",
                       "age != 3 DISTINCT(age)", "TRUEPREDICATE SORT(age ASC) LIMIT(10)", "name BEGINSWITH 'd1'"]
        struct Watched {
            let results: Results
            var previous: [Int64]
            var checked = 0
        }
        var watched: [Watched] = []
        var tokens: [NotificationToken] = []
        var written = Set<Int64>()
        var failures: [String] = []
        let sources = try queries.map { try realm.objects(dog).filter($0) } + [try owner.list(of: d("toys")).results()]
        for (index, results) in sources.enumerated() {
            watched.append(Watched(results: results, previous: try results.keys()))
            tokens.append(try results.observe { change in
                do {
                    let new = try watched[index].results.keys()
                    if !change.isInitial {
                        let applied = Self.apply(change, to: watched[index].previous, new: new)
                        if applied != new { failures.append("\(index): \(change) turned \(watched[index].previous) into \(applied), not \(new)") }
                        let old = watched[index].previous
                        // `written` holds dogs; the last results hold toys.
                        for key in written where index < queries.count && old.contains(key) && new.contains(key) {
                            let newIndexes = new.indices.filter { new[$0] == key }
                            if !newIndexes.contains(where: change.modificationsNew.contains) {
                                failures.append("\(index): \(key) was written but not reported modified in \(change)")
                            }
                        }
                        watched[index].checked += 1
                    }
                    watched[index].previous = new
                } catch {
                    failures.append("\(error)")
                }
            })
        }
        try realm.deliverNotifications()
        var toyKeys: [ObjectAccessor] = []
        try realm.write { for i in 0..<5 { toyKeys.append(try makeToy("t\(i)")) } }
        for _ in 0..<commits {
            written = []
            try realm.beginWrite()
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let all = try realm.objects(dog).keys().filter { $0 != owner.key }
                switch Int.random(in: 0..<6, using: &rng) {
                case 0:
                    try makeDog("n\(Int.random(in: 0..<30, using: &rng))", Int64.random(in: 0..<8, using: &rng))
                case 1 where all.count > 5:
                    let key = all.randomElement(using: &rng)!
                    try realm.object(dog, key: key).delete()
                    written.remove(key)
                case 2, 3:
                    guard let key = all.randomElement(using: &rng) else { continue }
                    let object = try realm.object(dog, key: key)
                    if Bool.random(using: &rng) {
                        try object.setValue(.int(Int64.random(in: 0..<8, using: &rng)), for: d("age"))
                    } else {
                        try object.setValue(.string("m\(Int.random(in: 0..<30, using: &rng))"), for: d("name"))
                    }
                    written.insert(key)
                case 4:
                    let list = try owner.list(of: d("toys"))
                    try list.append(link(toyKeys.randomElement(using: &rng)!))
                default:
                    let list = try owner.list(of: d("toys"))
                    let n = try list.elements().count
                    if n > 1 { try list.move(from: Int.random(in: 0..<n, using: &rng), to: Int.random(in: 0..<n, using: &rng)) }
                    else if n == 1 { _ = try list.remove(at: 0) }
                }
            }
            try realm.commitWrite()
        }
        XCTAssertEqual(failures, [], "\(failures.prefix(3))")
        for (index, entry) in watched.enumerated() { XCTAssertGreaterThan(entry.checked, 10, "results \(index) were rarely notified") }
        // The two sorted queries of whole classes found every old index by binary search in the
        // pinned snapshot of the previous version: the order the search assumes is the results'.
        let lookups = realm.lock.withLock { realm.notifications.oldIndexLookups }
        XCTAssertGreaterThan(lookups.searches, commits / 2)
        XCTAssertEqual(lookups.scans, 0)
        _ = tokens
    }
}
