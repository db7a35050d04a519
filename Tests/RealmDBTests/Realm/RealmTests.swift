import Foundation
import XCTest
@testable import RealmDB

/// Opening realms, write transactions, and the errors a program can expect.
final class RealmTests: RealmTestCase {
    func testTheThreadReusesItsHandle() throws {
        let first = try openRealm()
        let second = try openRealm()
        XCTAssertTrue(first.handle.shared === second.handle.shared, "one open realm per file and thread, as Realm's SDK")
        XCTAssertTrue(first.handle.engine === second.handle.engine)
        var other: SharedHandleState?
        onOtherThread { other = try self.openRealm().handle.shared }
        XCTAssertFalse(other === first.handle.shared, "another thread opens its own realm")
    }

    func testWriteCommitsAndCancelsOnThrow() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        struct Stop: Error {}
        XCTAssertThrowsError(try realm.write {
            realm.add(Dog(value: ["id": 2, "name": "Max"]))
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(Dog.self).map(\.name), ["Rex"], "the throwing block's write was cancelled")
        let value = try realm.write { () -> Int in
            realm.add(Dog(value: ["id": 3]))
            return 7
        }
        XCTAssertEqual(value, 7)
    }

    func testBeginCommitCancel() throws {
        let realm = try openRealm()
        try realm.beginWrite()
        XCTAssertThrowsError(try realm.beginWrite()) { error in
            XCTAssertEqual((error as? RealmError)?.code, .wrongTransactionState)
        }
        realm.add(Dog(value: ["id": 1]))
        realm.cancelWrite()
        XCTAssertTrue(realm.isEmpty)
        try realm.beginWrite()
        realm.add(Dog(value: ["id": 1]))
        try realm.commitWrite()
        XCTAssertFalse(realm.isEmpty)
        XCTAssertThrowsError(try realm.commitWrite()) { error in
            XCTAssertEqual((error as? RealmError)?.code, .wrongTransactionState)
        }
    }

    func testAnotherThreadsCommitIsSeenAfterRefresh() throws {
        let realm = try openRealm()
        XCTAssertEqual(realm.objects(Dog.self).count, 0)
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        }
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(Dog.self).first?.name, "Rex")
    }

    func testDeleteAllAndDeleteResults() throws {
        let realm = try openRealm()
        try realm.write {
            for id in 0..<10 { realm.add(Dog(value: ["id": id, "age": id])) }
            realm.add(Toy(value: ["ball", "Acme"]))
        }
        try realm.write { realm.delete(realm.objects(Dog.self).filter("age >= 5")) }
        XCTAssertEqual(realm.objects(Dog.self).count, 5)
        try realm.write { realm.deleteAll() }
        XCTAssertTrue(realm.isEmpty)
    }

    func testInMemoryRealmsShareByIdentifier() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "swift-\(UUID().uuidString)", objectTypes: [Toy.self])
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Toy(value: ["ball", "Acme"])) }
        onOtherThread {
            let other = try Realm(configuration: configuration)
            XCTAssertEqual(other.objects(Toy.self).first?.brand, "Acme")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: configuration.inMemoryIdentifier!))
    }

    func testReadOnlyRealmRefusesWrites() throws {
        try openRealm().write { try openRealm().add(Toy(value: ["ball", "Acme"])) }
        var readOnly = configuration!
        readOnly.readOnly = true
        onOtherThread {
            let realm = try Realm(configuration: readOnly)
            XCTAssertEqual(realm.objects(Toy.self).count, 1)
            XCTAssertThrowsError(try realm.beginWrite()) { error in
                XCTAssertEqual((error as? RealmError)?.code, .readOnly)
            }
        }
    }

    func testObjectForPrimaryKeyFindsEveryKindOfKey() throws {
        let keysConfiguration = Realm.Configuration(fileURL: directory.appendingPathComponent("keys.realm"),
                                                    objectTypes: [Dog.self, LegacyKeyed.self])
        let realm = try Realm(configuration: keysConfiguration)
        let ids = [Int.min, -1, 0, 1, Int.max]
        let codes = ["", "a\0b", "é🙂", String(repeating: "k", count: 10_000), "K"]
        let ann = Person(value: ["name": "Ann"])
        try realm.write {
            for (id, code) in zip(ids, codes) {
                realm.add(Dog(value: ["id": id, "name": "dog \(id)"]))
                realm.add(LegacyKeyed(value: ["code": code, "rank": id]))
            }
            realm.add(ann)
        }
        for (id, code) in zip(ids, codes) {
            XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: id)?.name, "dog \(id)")
            XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: Int64(id))?.name, "dog \(id)", "another integer type")
            XCTAssertEqual(realm.object(ofType: LegacyKeyed.self, forPrimaryKey: code)?.rank, id)
        }
        XCTAssertNil(realm.object(ofType: Dog.self, forPrimaryKey: 2))
        XCTAssertNil(realm.object(ofType: LegacyKeyed.self, forPrimaryKey: "k"), "keys are compared exactly")
        XCTAssertNil(realm.object(ofType: LegacyKeyed.self, forPrimaryKey: "a"), "not up to a NUL")
        XCTAssertEqual(realm.object(ofType: Person.self, forPrimaryKey: ann.id)?.name, "Ann")
        XCTAssertNil(realm.object(ofType: Person.self, forPrimaryKey: ObjectId.generate()))
    }

    func testTheLastClassLookedUpFollowsTheSchemaAndTheRealmsClose() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        let handle = realm.handle
        let dogs = try handle.classInfo(of: Dog.self)
        XCTAssertTrue(try handle.classInfo(of: Dog.self) === dogs)
        XCTAssertTrue(try handle.classInfo(of: Person.self) !== dogs, "another class: its own")
        XCTAssertTrue(try handle.classInfo(of: Dog.self) === dogs)
        // Another thread adds a class to the file: this realm binds its classes again when it
        // sees that version, and the class looked up last is looked up again.
        let wider = Realm.Configuration(fileURL: configuration.fileURL,
                                        objectTypes: [Dog.self, Person.self, Toy.self, AllTypes.self, LegacyKeyed.self])
        onOtherThread {
            let other = try Realm(configuration: wider)
            try other.write { other.add(LegacyKeyed(value: ["code": "a"])) }
        }
        realm.refresh()
        let rebound = try handle.classInfo(of: Dog.self)
        XCTAssertTrue(rebound !== dogs, "the classes were bound again")
        XCTAssertTrue(realm.objects(Dog.self).first?.name == "Rex")
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.name, "Rex")
        handle.engine.close()
        XCTAssertThrowsError(try handle.classInfo(of: Dog.self), "a closed realm: no class, cached or not") { error in
            XCTAssertEqual((error as? RealmError)?.code, .closedRealm)
        }
    }

    func testAClassOutsideTheSchemaSaysHowToAddIt() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("toys.realm"),
                                                                 objectTypes: [Toy.self]))
        XCTAssertThrowsError(try realm.handle.classInfo(of: Bird.self)) { error in
            XCTAssertEqual((error as? RealmError)?.code, .schemaInvalid)
            XCTAssertTrue("\(error)".contains("Realm.Configuration.objectTypes"), "\(error)")
        }
    }

    func testDamagedFileIsAnErrorNotACrash() throws {
        let url = directory.appendingPathComponent("damaged.realm")
        try openRealm().write { try openRealm().add(Toy(value: ["ball", "Acme"])) }
        try FileManager.default.copyItem(at: configuration.fileURL!, to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100)
        try handle.close()
        var damaged = configuration!
        damaged.fileURL = url
        onOtherThread {
            XCTAssertThrowsError(try Realm(configuration: damaged)) { error in
                XCTAssertEqual((error as? RealmError)?.code, .fileFormat, "\(error)")
            }
        }
        try Data("not a realm".utf8).write(to: url)
        onOtherThread {
            XCTAssertThrowsError(try Realm(configuration: damaged)) { error in
                XCTAssertEqual((error as? RealmError)?.code, .fileFormat, "\(error)")
            }
        }
    }

    func testAFileIsNotADirectory() throws {
        var configuration = self.configuration!
        configuration.fileURL = URL(fileURLWithPath: "/proc/version/x.realm")
        XCTAssertThrowsError(try Realm(configuration: configuration)) { error in
            XCTAssertEqual((error as? RealmError)?.code, .fileAccess, "\(error)")
        }
    }

    func testFrozenRealmReadsOneVersionOnAnyThread() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Toy(value: ["ball", "Acme"])) }
        let frozen = realm.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { realm.add(Toy(value: ["bone", "Chewy"])) }
        XCTAssertEqual(frozen.objects(Toy.self).count, 1)
        let box = UncheckedBox(frozen)
        onOtherThread { XCTAssertEqual(box.value.objects(Toy.self).first?.name, "ball") }
        XCTAssertEqual(frozen.thaw().objects(Toy.self).count, 2)
    }

    func testWriteCopyAndDeleteFiles() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Toy(value: ["ball", "Acme"])) }
        let copy = directory.appendingPathComponent("copy.realm")
        try realm.writeCopy(toFile: copy)
        var copyConfiguration = configuration!
        copyConfiguration.fileURL = copy
        onOtherThread {
            XCTAssertEqual(try Realm(configuration: copyConfiguration).objects(Toy.self).count, 1)
        }
        XCTAssertTrue(try Realm.deleteFiles(for: copyConfiguration))
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))
        XCTAssertFalse(try Realm.deleteFiles(for: copyConfiguration))
    }
}
