import Foundation
import XCTest
import RealmDB

/// Schema versions and migrations, with the classes of two versions of a program.
final class MigrationTests: RealmTestCase {
    enum V1 {
        final class Person: Object {
            @Persisted var first: String
            @Persisted var last: String
            @Persisted var age: Int
        }
    }

    enum V2 {
        final class Person: Object {
            @Persisted var fullName: String
            @Persisted var years: Int
        }
    }

    func testMigrationBlockConvertsAndRenames() throws {
        let url = directory.appendingPathComponent("people.realm")
        onOtherThread {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [V1.Person.self]))
            try realm.write {
                realm.add(V1.Person(value: ["first": "Ann", "last": "Lee", "age": 30]))
                realm.add(V1.Person(value: ["first": "Bo", "last": "Ng", "age": 41]))
            }
        }
        onOtherThread {
            XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [V2.Person.self]))) { error in
                XCTAssertEqual((error as? RealmError)?.code, .migrationRequired, "\(error)")
            }
        }
        var oldVersions: [UInt64] = []
        let configuration = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { migration, oldVersion in
            oldVersions.append(oldVersion)
            migration.renameProperty(onType: "Person", from: "age", to: "years")
            migration.enumerateObjects(ofType: "Person") { old, new in
                new?["fullName"] = "\(old?["first"] as? String ?? "") \(old?["last"] as? String ?? "")"
            }
        }, objectTypes: [V2.Person.self])
        let realm = try Realm(configuration: configuration)
        XCTAssertEqual(oldVersions, [0])
        XCTAssertEqual(realm.objects(V2.Person.self).sorted(byKeyPath: "years").map(\.fullName), ["Ann Lee", "Bo Ng"])
        XCTAssertEqual(realm.objects(V2.Person.self).map(\.years).sorted(), [30, 41])
    }

    func testDeleteRealmIfMigrationNeeded() throws {
        let url = directory.appendingPathComponent("throwaway.realm")
        onOtherThread {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [V1.Person.self]))
            try realm.write { realm.add(V1.Person(value: ["first": "Ann"])) }
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, deleteRealmIfMigrationNeeded: true,
                                                                 objectTypes: [V2.Person.self]))
        XCTAssertEqual(realm.objects(V2.Person.self).count, 0, "the old file was deleted")
    }
}
