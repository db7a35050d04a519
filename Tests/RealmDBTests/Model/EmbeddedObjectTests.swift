import Foundation
import XCTest
@testable import RealmDB

/// Embedded objects live inside their parent: created by assignment, deleted with it.
final class EmbeddedObjectTests: RealmTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        configuration.objectTypes = [Contact.self]
    }

    func testAssignAppendAndQuery() throws {
        let realm = try openRealm()
        let contact = Contact(value: ["name": "Ann", "home": ["street": "1 Main", "city": "Oslo"]])
        contact.previous.append(Address(value: ["2 Old", "Bergen"]))
        try realm.write { realm.add(contact) }
        XCTAssertEqual(contact.home?.city, "Oslo")
        XCTAssertEqual(contact.previous.map(\.city), ["Bergen"])
        try realm.write {
            contact.home = Address(value: ["3 New", "Tromsø"])
            contact.previous.append(Address(value: ["4 Older", "Oslo"]))
            contact.byLabel["work"] = Address(value: ["5 Office", "Oslo"])
        }
        XCTAssertEqual(contact.home?.street, "3 New")
        XCTAssertEqual(contact.previous.count, 2)
        XCTAssertEqual(contact.byLabel["work"]??.street, "5 Office")
        XCTAssertEqual(realm.objects(Contact.self).where { $0.home.city == "Tromsø" }.count, 1)
        XCTAssertEqual(realm.objects(Contact.self).filter("ANY previous.city == 'Oslo'").count, 1)
        try realm.write { contact.home?.city = "Narvik" }
        XCTAssertEqual(contact.home?.city, "Narvik", "an embedded object is written in place")
        try realm.write { contact.previous[0] = Address(value: ["9 Swap", "Bodø"]) }
        XCTAssertEqual(contact.previous.map(\.city), ["Bodø", "Oslo"])
    }

    func testEmbeddedObjectsCannotStandAlone() throws {
        let realm = try openRealm()
        let contact = Contact(value: ["name": "Ann", "home": ["street": "1 Main", "city": "Oslo"]])
        try realm.write { realm.add(contact) }
        let other = Contact(value: ["name": "Bo"])
        try realm.write { realm.add(other) }
        // Reusing an embedded object that already has a parent, adding one alone, or querying the
        // class stops the program in Realm's SDK; the engine's own errors say why.
        XCTAssertThrowsError(try realm.handle.manage(Address(value: ["x", "y"]), update: .error)) { error in
            XCTAssertEqual((error as? RealmError)?.code, .logic, "\(error)")
        }
        let sameHome = contact.home!
        XCTAssertThrowsError(try realm.write {
            try sameHome.storeEmbedded(in: realm.handle) { _ in fatalError("not reached") }
        }) { error in
            XCTAssertTrue("\(error)".contains("already embedded"), "\(error)")
        }
        try realm.write { realm.delete(contact) }
        XCTAssertTrue(sameHome.isInvalidated, "deleted with its parent")
    }
}
