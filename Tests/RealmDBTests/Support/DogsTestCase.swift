import Foundation
import XCTest
import RealmDB

/// A test whose realm starts with 600 dogs: ids and ages 0 to 599, names "d0" to "d599" (more
/// than two pages of values read ahead: the fixture of the read-ahead tests).
class DogsTestCase: RealmTestCase {
    var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm()
        try realm.write {
            for id in 0..<600 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) }
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }
}
