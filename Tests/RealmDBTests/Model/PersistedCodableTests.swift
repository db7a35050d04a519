import Foundation
import XCTest
import RealmDB

/// Models that only declare `Codable`: Swift synthesizes their coding from the `@Persisted` storage.
final class CodableOwner: Object, Codable {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var name: String
    @Persisted var nickname: String?
    @Persisted var born: Date
    @Persisted var balance: Decimal128
    @Persisted var pet: CodablePet?
    @Persisted var pets: List<CodablePet>
    @Persisted var tags: List<String>
    @Persisted var lucky: MutableSet<Int>
    @Persisted var scores: Map<String, Double>
}

final class CodablePet: Object, Codable {
    @Persisted var name: String
    @Persisted var age: Int8
    @Persisted var owner: CodableOwner?
}

final class CodableAddress: EmbeddedObject, Codable {
    @Persisted var street: String
    @Persisted var city: String
}

final class CodableContact: Object, Codable {
    @Persisted(primaryKey: true) var name: String
    @Persisted var home: CodableAddress?
    @Persisted var previous: List<CodableAddress>
}

final class CodableMixed: Object, Codable {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var any: AnyRealmValue
    @Persisted var many: List<AnyRealmValue>
}

final class PersistedCodableTests: RealmTestCase {
    private let ownerJSON = #"""
        {"id": "65a1b2c3d4e5f60718293a4b", "name": "Ann", "born": 0, "balance": "12.50",
         "pet": {"name": "Rex", "age": 3}, "pets": [{"name": "Fido", "age": 1}, {"name": "Spot", "age": 2}],
         "tags": ["a", "b"], "lucky": [7, 3, 7], "scores": {"maths": 1.5, "art": 2}}
        """#

    private func codableRealm() throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("codable.realm"),
                                                     objectTypes: [CodableOwner.self, CodablePet.self]))
    }

    private func decodeOwner(_ json: String) throws -> CodableOwner {
        try JSONDecoder().decode(CodableOwner.self, from: Data(json.utf8))
    }

    /// The encoded object as a dictionary, for comparing without depending on key order.
    private func encoded<T: Encodable>(_ value: T) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: try encoder.encode(value)) as? [String: Any])
    }

    func testDecodingMakesAnUnmanagedObjectThatAddStores() throws {
        let owner = try decodeOwner(ownerJSON)
        XCTAssertNil(owner.realm)
        XCTAssertEqual(owner.id.stringValue, "65a1b2c3d4e5f60718293a4b")
        XCTAssertEqual(owner.name, "Ann")
        XCTAssertNil(owner.nickname, "a missing optional decodes as nil")
        XCTAssertEqual(owner.born, Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(owner.balance.stringValue, "12.50", "the exact decimal, trailing zero kept")
        XCTAssertEqual(owner.pet?.name, "Rex")
        XCTAssertEqual(owner.pets.map(\.name), ["Fido", "Spot"])
        XCTAssertEqual(Array(owner.tags), ["a", "b"])
        XCTAssertEqual(Set(owner.lucky), [3, 7])
        XCTAssertEqual(owner.scores["art"], 2)

        let realm = try codableRealm()
        try realm.write { realm.add(owner) }
        let stored = try XCTUnwrap(realm.object(ofType: CodableOwner.self, forPrimaryKey: try ObjectId(string: "65a1b2c3d4e5f60718293a4b")))
        XCTAssertEqual(stored.pet?.name, "Rex")
        XCTAssertEqual(stored.pets.map(\.age), [1, 2])
        XCTAssertEqual(stored.scores["maths"], 1.5)
        XCTAssertEqual(realm.objects(CodablePet.self).count, 3)
    }

    func testEncodingAManagedObjectReadsTheRealm() throws {
        let realm = try codableRealm()
        let owner = try decodeOwner(ownerJSON)
        try realm.write { realm.add(owner) }
        // Writes after add change the stored values only: the storage still holds the decoded ones.
        try realm.write {
            owner.name = "Anna"
            owner.nickname = "An"
            owner.pet?.age = 4
            owner.pets.remove(at: 0)
            owner.tags.append("c")
            owner.lucky.insert(9)
            owner.scores["art"] = nil
        }
        for object in [owner, try XCTUnwrap(realm.objects(CodableOwner.self).first)] {
            let json = try encoded(object)
            XCTAssertEqual(json["id"] as? String, "65a1b2c3d4e5f60718293a4b")
            XCTAssertEqual(json["name"] as? String, "Anna")
            XCTAssertEqual(json["nickname"] as? String, "An")
            XCTAssertEqual(json["balance"] as? String, "12.50")
            XCTAssertEqual((json["pet"] as? [String: Any])?["age"] as? Int, 4)
            XCTAssertEqual((json["pets"] as? [[String: Any]])?.map { $0["name"] as? String }, ["Spot"])
            XCTAssertEqual(json["tags"] as? [String], ["a", "b", "c"])
            XCTAssertEqual(Set(json["lucky"] as? [Int] ?? []), [3, 7, 9])
            XCTAssertEqual(json["scores"] as? [String: Double], ["maths": 1.5])
        }
    }

    func testEncodingAnUnmanagedObjectAndRoundTrip() throws {
        let pet = CodablePet(value: ["name": "Rex", "age": 3])
        XCTAssertEqual(try encoded(pet)["name"] as? String, "Rex")
        XCTAssertTrue(try encoded(pet)["owner"] is NSNull)

        let realm = try codableRealm()
        try realm.write { realm.add(try decodeOwner(ownerJSON)) }
        let data = try JSONEncoder().encode(try XCTUnwrap(realm.objects(CodableOwner.self).first))
        let copy = try JSONDecoder().decode(CodableOwner.self, from: data)
        copy.name = "Copy"
        try realm.write { realm.add(copy, update: .modified) }
        XCTAssertEqual(realm.objects(CodableOwner.self).count, 1)
        XCTAssertEqual(realm.objects(CodableOwner.self).first?.name, "Copy")
        XCTAssertEqual(realm.objects(CodableOwner.self).first?.pets.count, 2)
    }

    func testFrozenObjectsEncodeOnAnyThread() throws {
        let realm = try codableRealm()
        try realm.write { realm.add(try decodeOwner(ownerJSON)) }
        let frozen = try XCTUnwrap(realm.objects(CodableOwner.self).first).freeze()
        try realm.write { realm.objects(CodableOwner.self).first?.name = "Later" }
        var name: String?
        var pets: [[String: Any]]?
        onOtherThread {
            name = try self.encoded(frozen)["name"] as? String
            pets = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(frozen.pets)) as? [[String: Any]]
        }
        XCTAssertEqual(name, "Ann", "the frozen version")
        XCTAssertEqual(pets?.map { $0["name"] as? String }, ["Fido", "Spot"])
    }

    func testADeletedObjectThrowsEncodingError() throws {
        let realm = try codableRealm()
        let owner = try decodeOwner(ownerJSON)
        try realm.write { realm.add(owner) }
        try realm.write { realm.delete(owner) }
        XCTAssertThrowsError(try JSONEncoder().encode(owner)) { error in
            guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else {
                return XCTFail("expected EncodingError.invalidValue, got \(error)")
            }
            XCTAssertTrue(context.debugDescription.contains("CodableOwner"), context.debugDescription)
        }
    }

    func testALiveObjectOnAnotherThreadThrowsEncodingError() throws {
        let realm = try codableRealm()
        let owner = try decodeOwner(ownerJSON)
        try realm.write { realm.add(owner) }
        var failure: Error?
        onOtherThread { failure = Result { try JSONEncoder().encode(owner) }.failure }
        XCTAssertTrue(failure is EncodingError, "\(String(describing: failure))")
        XCTAssertEqual(try encoded(owner)["name"] as? String, "Ann", "the owning thread still encodes it")
    }

    func testACycleOfLinksThrowsInsteadOfOverflowingTheStack() throws {
        let realm = try codableRealm()
        let owner = try decodeOwner(ownerJSON)
        try realm.write {
            realm.add(owner)
            owner.pet?.owner = owner
        }
        XCTAssertThrowsError(try JSONEncoder().encode(owner)) { error in
            guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else {
                return XCTFail("expected EncodingError.invalidValue, got \(error)")
            }
            XCTAssertTrue(context.debugDescription.contains("cycle"), context.debugDescription)
        }
        try realm.write { owner.pet?.owner = nil }
        XCTAssertEqual(try encoded(owner)["name"] as? String, "Ann", "the depth is reset after the failure")
    }

    func testEmbeddedObjectsDecodeAndEncodeInsideTheirParent() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("contacts.realm"),
                                                                 objectTypes: [CodableContact.self]))
        let json = #"{"name": "Ann", "home": {"street": "1 Main", "city": "Oslo"}, "previous": [{"street": "2 Old", "city": "Bergen"}]}"#
        let contact = try JSONDecoder().decode(CodableContact.self, from: Data(json.utf8))
        try realm.write { realm.add(contact) }
        try realm.write { contact.home?.city = "Tromsø" }
        let encoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(contact)) as? [String: Any])
        XCTAssertEqual((encoded["home"] as? [String: Any])?["city"] as? String, "Tromsø")
        XCTAssertEqual((encoded["previous"] as? [[String: Any]])?.first?["street"] as? String, "2 Old")
    }

    /// A mixed value encodes as what it holds, and decodes as the JSON type it reads.
    func testAnyRealmValueEncodesWhatItHoldsAndDecodesWhatItReads() throws {
        let realm = try Realm(configuration: Realm.Configuration(
            fileURL: directory.appendingPathComponent("mixed.realm"),
            objectTypes: [CodableMixed.self, CodableOwner.self, CodablePet.self, Dog.self]))
        let id = try ObjectId(string: "65a1b2c3d4e5f60718293a4b")
        let values: [AnyRealmValue] = [.none, .int(-3), .bool(true), .double(2.5), .float(0.5), .string("x"),
                                       .objectId(id), .decimal128(try Decimal128(string: "1.25")),
                                       .date(Date(timeIntervalSince1970: 10)), .data(Data([1, 2]))]
        let mixed = CodableMixed(value: ["id": 1])
        mixed.many.append(objectsIn: values)
        let pet = CodablePet(value: ["name": "Rex", "age": 3])
        mixed.any = .object(pet)
        try realm.write { realm.add(mixed) }
        for object in [mixed, CodableMixed(value: ["id": 2, "many": values, "any": AnyRealmValue.object(pet)])] {
            let json = try encoded(object)
            let many = try XCTUnwrap(json["many"] as? [Any])
            XCTAssertEqual(many.count, values.count)
            XCTAssertTrue(many[0] is NSNull)
            XCTAssertEqual(many[1] as? Int, -3)
            XCTAssertEqual(many[2] as? Bool, true)
            XCTAssertEqual(many[3] as? Double, 2.5)
            XCTAssertEqual(many[5] as? String, "x")
            XCTAssertEqual(many[6] as? String, "65a1b2c3d4e5f60718293a4b")
            XCTAssertEqual(many[7] as? String, "1.25")
            XCTAssertEqual(many[8] as? Double, 10 - Date.timeIntervalBetween1970AndReferenceDate)
            XCTAssertEqual(many[9] as? String, "AQI=")
            XCTAssertEqual((json["any"] as? [String: Any])?["name"] as? String, "Rex", "a Codable object encodes as itself")
        }
        let decoded = try JSONDecoder().decode(CodableMixed.self, from: Data("""
            {"id": 3, "any": 7, "many": [null, true, 1, 1.5, "65a1b2c3d4e5f60718293a4b", -9223372036854775808, 1e300]}
            """.utf8))
        XCTAssertEqual(decoded.any, .int(7))
        XCTAssertEqual(Array(decoded.many), [.none, .bool(true), .int(1), .double(1.5), .string("65a1b2c3d4e5f60718293a4b"),
                                             .int(Int.min), .double(1e300)])
        try realm.write { realm.add(decoded) }
        XCTAssertEqual(realm.object(ofType: CodableMixed.self, forPrimaryKey: 3)?.many.count, 7)
        // What it cannot be: a collection, an object, or a link to a class that is not Encodable.
        for bad in [#"{"id": 4, "any": [1]}"#, #"{"id": 4, "any": {"a": 1}}"#] {
            XCTAssertThrowsError(try JSONDecoder().decode(CodableMixed.self, from: Data(bad.utf8))) { error in
                guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
            }
        }
        try realm.write { mixed.any = .object(Dog(value: ["id": 1, "name": "Plain"])) }
        XCTAssertThrowsError(try JSONEncoder().encode(mixed)) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
    }

    func testBadInputIsADecodingError() throws {
        /// An owner's JSON with some members replaced (nil: left out), as raw JSON text.
        func owner(_ changes: [String: String?]) -> String {
            var members: [String: String] = ["id": #""65a1b2c3d4e5f60718293a4b""#, "name": #""Ann""#, "born": "0",
                                             "balance": #""1""#, "pets": "[]", "tags": "[]", "lucky": "[]", "scores": "{}"]
            for (key, value) in changes { members[key] = value }
            return "{" + members.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
        func decodingError(_ changes: [String: String?]) -> DecodingError? {
            Result { try decodeOwner(owner(changes)) }.failure as? DecodingError
        }
        guard case .dataCorrupted? = decodingError(["id": #""not-an-object-id""#]) else { return XCTFail("a malformed ObjectId") }
        guard case .keyNotFound? = decodingError(["name": nil]) else { return XCTFail("a missing required property") }
        guard case .dataCorrupted? = decodingError(["balance": #""1\u0000""#]) else { return XCTFail("a decimal with a NUL") }
        guard case .dataCorrupted? = decodingError(["pet": #"{"name": "Rex", "age": 300}"#]) else {
            return XCTFail("300 does not fit an Int8")
        }
        guard case .typeMismatch? = decodingError(["name": "5"]) else { return XCTFail("a number for a string") }
        guard case .typeMismatch? = decodingError(["scores": "[1, 2]"]) else { return XCTFail("an array for a map") }
        XCTAssertEqual(try decodeOwner(owner(["balance": "2.25"])).balance, try Decimal128(string: "2.25"), "a decimal from a number")
        XCTAssertEqual(try decodeOwner(owner(["nickname": "null"])).nickname, nil)
        XCTAssertEqual(try decodeOwner(owner(["name": #""A\u0000B""#])).name, "A\u{0}B", "NUL inside a string is kept")
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
