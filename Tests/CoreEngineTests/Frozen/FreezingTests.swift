import XCTest
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// Frozen realms, objects, results and collections: immutable views pinned to a version, read
/// from any thread while writes go on; thaw; observers refused; the version limit and file growth.
final class FreezingTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "scores", type: .int, collection: .list),
        ]),
    ])

    private var realm: Realm!
    private var dog: ClassInfo!
    private func d(_ name: String) -> PropertyInfo { dog.property(named: name)! }

    private func openDogs(configure: (inout RealmConfiguration) -> Void = { _ in }) throws {
        realm = try open(Self.schema, configure: configure)
        dog = try realm.classInfo(named: "Dog")
    }

    @discardableResult
    private func makeDog(_ name: String, _ age: Int64) throws -> ObjectAccessor {
        try realm.create(dog, values: [(d("name"), .string(name)), (d("age"), .int(age))])
    }

    func testFrozenViewsKeepTheirVersion() throws {
        try openDogs()
        var rex: ObjectAccessor!
        try realm.write {
            rex = try makeDog("Rex", 3)
            try rex.list(of: d("scores")).append(contentsOf: [.int(1), .int(2)])
        }
        let frozenRealm = try realm.freeze()
        let frozenRex = try rex.freeze()
        let frozenDogs = try realm.objects(dog).filter("age > 1").freeze()
        let frozenScores = try rex.list(of: d("scores")).freeze()
        XCTAssertTrue(frozenRealm.isFrozen && frozenRex.isFrozen && frozenDogs.isFrozen && frozenScores.isFrozen)
        XCTAssertFalse(realm.isFrozen || rex.isFrozen)
        try realm.write {
            try rex.setValue(.int(9), for: d("age"))
            try makeDog("Fido", 5)
            try rex.list(of: d("scores")).append(.int(3))
        }
        XCTAssertEqual(try frozenRex.value(of: d("age")), .int(3))
        XCTAssertEqual(try frozenDogs.count(), 1)
        XCTAssertEqual(try (frozenScores as? ListAccessor)?.elements(), [.int(1), .int(2)])
        XCTAssertEqual(try realm.objects(dog).filter("age > 1").count(), 2)
        XCTAssertEqual(try frozenRealm.objects(dog).count(), 1)
        XCTAssertEqual(try realm.freeze().objects(dog).count(), 2, "a new freeze sees the new version")

        // Frozen things cannot change or be observed.
        assertThrows(.logic) { try frozenRealm.beginWrite() }
        assertThrows(.logic) { _ = try frozenRealm.refresh() }
        assertThrows(.logic) { _ = try frozenDogs.observe { _ in } }
        assertThrows(.logic) { _ = try frozenRex.observe { _ in } }
        assertThrows(.logic) { _ = try frozenScores.observe { _ in } }
        assertThrows(.logic) { try frozenRex.setValue(.int(1), for: self.d("age")) }  // frozen, not "outside a write"

        // Thaw: the live equivalents.
        XCTAssertEqual(try frozenRex.thaw()?.value(of: d("age")), .int(9))
        XCTAssertEqual(try frozenDogs.thaw().count(), 2)
        XCTAssertEqual(try (frozenScores.thaw() as? ListAccessor)?.elements().count, 3)
        try realm.write { try rex.delete() }
        XCTAssertNil(try frozenRex.thaw(), "deleted since")
        XCTAssertNil(try frozenScores.thaw())
        XCTAssertEqual(try frozenRex.value(of: d("name")), .string("Rex"), "still readable frozen")
        XCTAssertTrue(try frozenRealm.thaw() === realm)
        assertThrows(.wrongTransactionState) {
            try self.realm.beginWrite()
            defer { try? self.realm.cancelWrite() }
            _ = try self.realm.freeze()
        }
    }

    func testFrozenViewsAreReadFromOtherThreadsWhileWritesContinue() throws {
        try openDogs()
        try realm.write { for i in 0..<50 { try makeDog("d\(i)", Int64(i)) } }
        let frozen = try realm.objects(dog).filter("age >= 10").freeze()
        let first = try realm.objects(dog).first()!.freeze()
        let failures = Counter(), reads = Counter()
        var readers: [TestThread] = []
        for _ in 0..<3 {
            readers.append(try spawn {
                for _ in 0..<200 {
                    if (try? frozen.count()) != 40 { failures.increment() }
                    if (try? first.value(of: self.d("name"))) != .string("d0") { failures.increment() }
                    reads.increment()
                }
            })
        }
        for i in 0..<100 {
            try realm.write {
                try makeDog("n\(i)", 20)
                try realm.objects(dog).first()!.setValue(.string("changed\(i)"), for: d("name"))
            }
        }
        readers.forEach { $0.join() }
        XCTAssertEqual(failures.value, 0)
        XCTAssertEqual(reads.value, 600)
        XCTAssertEqual(try realm.objects(dog).filter("age >= 10").count(), 140)
    }

    func testTheVersionLimitAndFileGrowth() throws {
        try openDogs { $0.maxActiveVersions = 3 }
        try realm.write { for i in 0..<2000 { try makeDog("d\(i)", Int64(i)) } }
        // Each frozen view pins the version it reads; the limit counts them.
        var views: [Realm] = [try realm.freeze()]
        try realm.write { try makeDog("x", 1) }
        views.append(try realm.freeze())
        try realm.write { try makeDog("y", 1) }
        views.append(try realm.freeze())
        XCTAssertEqual(try realm.activeVersionCount(), 3)
        // A write would add a fourth version while three are pinned.
        assertThrows(.tooManyActiveVersions) { try self.realm.beginWrite() }
        views.forEach { $0.close() }
        views = []
        try realm.write { try makeDog("z", 1) }

        // Writing while a frozen view pins an old version makes the file grow; once it is closed,
        // the freed pages are reused and the file stops growing.
        func fileSize() -> Int {
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
        func rewriteAll(_ commits: Int) throws {
            let all = try realm.objects(dog).keys()
            for c in 0..<commits {
                try realm.write {
                    for key in all.prefix(500) { try realm.object(dog, key: key).setValue(.int(Int64(c)), for: d("age")) }
                }
            }
        }
        try openDogsWithoutLimit()
        let pinned = try realm.freeze()
        let start = fileSize()
        try rewriteAll(150)
        let whilePinned = fileSize() - start
        pinned.close()
        try rewriteAll(20)  // let LMDB reclaim what the view pinned
        let released = fileSize()
        try rewriteAll(150)
        let afterRelease = fileSize() - released
        XCTAssertGreaterThan(whilePinned, 0, "a pinned version keeps old pages")
        XCTAssertLessThan(afterRelease, max(whilePinned / 4, 1), "after closing the view the file stops growing (grew \(whilePinned) bytes while pinned, \(afterRelease) after)")
    }

    private func openDogsWithoutLimit() throws {
        realm.close()
        try openDogs()
    }
}
