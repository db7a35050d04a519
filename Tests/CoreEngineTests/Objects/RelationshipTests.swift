import XCTest
@testable import CoreEngine

/// Links, backlinks, lists, sets, dictionaries, embedded objects and mixed values.
final class RelationshipTests: RealmTestCase {
    static let graph = try! Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string, isPrimaryKey: true),
            Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
            Property(name: "best", type: .object, isOptional: true, objectType: "Dog"),
            Property(name: "friends", type: .object, collection: .set, objectType: "Person"),
            Property(name: "pets", type: .object, isOptional: true, collection: .dictionary, objectType: "Dog"),
            Property(name: "scores", type: .int, collection: .list),
            Property(name: "nicknames", type: .string, isOptional: true, collection: .list),
            Property(name: "tags", type: .string, collection: .set),
            Property(name: "meta", type: .string, collection: .dictionary),
            Property(name: "address", type: .object, isOptional: true, objectType: "Address"),
            Property(name: "addresses", type: .object, collection: .list, objectType: "Address"),
            Property(name: "any", type: .mixed),
            Property(name: "anys", type: .mixed, collection: .list),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owners", type: .linkingObjects, objectType: "Person", linkOriginProperty: "dogs"),
        ]),
        ObjectSchema(name: "Address", properties: [
            Property(name: "street", type: .string),
        ], isEmbedded: true),
    ])

    private var realm: Realm!
    private var person: ClassInfo!
    private var dog: ClassInfo!

    private func openGraph(path: String? = nil) throws {
        realm = try open(Self.graph, path: path)
        person = try realm.classInfo(named: "Person")
        dog = try realm.classInfo(named: "Dog")
    }

    private func p(_ name: String) -> PropertyInfo { person.property(named: name)! }

    private func makePerson(_ name: String) throws -> ObjectAccessor {
        try realm.create(person, values: [(p("name"), .string(name))])
    }

    private func makeDog(_ name: String, age: Int64 = 1) throws -> ObjectAccessor {
        try realm.create(dog, values: [(dog.property(named: "name")!, .string(name)), (dog.property(named: "age")!, .int(age))])
    }

    private func link(_ object: ObjectAccessor) -> Value { .link(ObjectLink(table: object.classInfo.tableID, key: object.key)) }

    // MARK: Schema

    func testSchemaRulesForLinksAndCollections() {
        func invalid(_ properties: [Property], embedded: Bool = false, _ fragment: String, line: UInt = #line) {
            let dog = ObjectSchema(name: "Dog", properties: [Property(name: "n", type: .int)])
            let schema = ObjectSchema(name: "P", properties: properties, isEmbedded: embedded)
            XCTAssertThrowsError(try Schema([schema, dog]), line: line) { error in
                XCTAssertEqual((error as? DBError)?.code, .schemaInvalid, line: line)
                XCTAssertTrue("\(error)".contains(fragment), "\(error)", line: line)
            }
        }
        invalid([Property(name: "d", type: .object, objectType: "Dog")], "always optional")
        invalid([Property(name: "d", type: .object, isOptional: true, objectType: "Cat")], "not in the schema")
        invalid([Property(name: "d", type: .object, isOptional: true, collection: .list, objectType: "Dog")], "cannot hold null")
        invalid([Property(name: "d", type: .object, collection: .dictionary, objectType: "Dog")], "Dog?{}")
        invalid([Property(name: "s", type: .int, isIndexed: true, collection: .list)], "cannot be indexed")
        invalid([Property(name: "s", type: .int, isPrimaryKey: true, collection: .set)], "primary key")
        invalid([Property(name: "id", type: .int, isPrimaryKey: true)], embedded: true, "embedded class")
        invalid([Property(name: "b", type: .linkingObjects, objectType: "Dog", linkOriginProperty: "n")], "does not link")
        invalid([Property(name: "b", type: .linkingObjects, objectType: "Dog", linkOriginProperty: "x")], "no property 'x'")
        invalid([Property(name: "s", type: .int, objectType: "Dog")], "only object and linkingObjects")
        let embeddedSet = try? Schema([
            ObjectSchema(name: "P", properties: [Property(name: "s", type: .object, collection: .set, objectType: "E")]),
            ObjectSchema(name: "E", properties: [Property(name: "x", type: .int)], isEmbedded: true),
        ])
        XCTAssertNil(embeddedSet, "a set of embedded objects is rejected")
        XCTAssertTrue(Property(name: "m", type: .mixed).isOptional, "mixed is always optional")
    }

    func testStoredSchemaKeepsLinksCollectionsAndEmbeddedAcrossReopen() throws {
        try openGraph()
        realm = nil
        let reopened = try open(nil)  // no declared schema: the file's own
        let stored = reopened.schema
        let person = try XCTUnwrap(stored.objectSchema(named: "Person"))
        XCTAssertEqual(person.property(named: "dogs")?.typeDescription, "Dog[]")
        XCTAssertEqual(person.property(named: "pets")?.typeDescription, "Dog?{}")
        XCTAssertEqual(person.property(named: "friends")?.typeDescription, "Person<>")
        XCTAssertEqual(person.property(named: "nicknames")?.typeDescription, "string?[]")
        XCTAssertEqual(person.property(named: "anys")?.typeDescription, "mixed[]")
        XCTAssertEqual(stored.objectSchema(named: "Dog")?.property(named: "owners")?.typeDescription, "linkingObjects(Person.dogs)")
        XCTAssertEqual(stored.objectSchema(named: "Address")?.isEmbedded, true)
        // Opening again with the declared schema is no change at all.
        _ = try open(Self.graph)
    }

    // MARK: To-one links

    func testToOneLinkReadsWritesAndIsClearedWhenTheTargetIsDeleted() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), rex = try makeDog("Rex")
        try ann.setValue(link(rex), for: p("best"))
        try realm.commitWrite()
        XCTAssertEqual(try ann.value(of: p("best")), link(rex))
        XCTAssertEqual(try ann.linkedObject(of: p("best")), rex)
        XCTAssertEqual(try rex.backlinkCount(), 1)

        try realm.beginWrite()
        try rex.delete()
        try realm.commitWrite()
        XCTAssertEqual(try ann.value(of: p("best")), .null)
        XCTAssertNil(try ann.linkedObject(of: p("best")))
    }

    func testLinkErrors() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), bob = try makePerson("Bob"), rex = try makeDog("Rex")
        assertThrows(.wrongType) { try ann.setValue(self.link(bob), for: self.p("best")) }  // a Person, not a Dog
        assertThrows(.wrongType) { try ann.setValue(.int(rex.key), for: self.p("best")) }
        assertThrows(.wrongType) { try ann.setValue(.link(ObjectLink(table: 999, key: 0)), for: self.p("best")) }
        assertThrows(.invalidated) { try ann.setValue(.link(ObjectLink(table: self.dog.tableID, key: 12345)), for: self.p("best")) }
        assertThrows(.wrongType) { _ = try ann.value(of: self.p("dogs")) }  // a list is read through its accessor
        assertThrows(.wrongType) { try ann.setValue(.null, for: self.p("dogs")) }
        try realm.commitWrite()
        assertThrows(.wrongTransactionState) { try ann.setValue(self.link(rex), for: self.p("best")) }
    }

    // MARK: Lists

    func testListOfScalarsOperations() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann")
        let scores = try ann.list(of: p("scores"))
        try scores.append(.int(3))
        try scores.append(contentsOf: [.int(1), .int(2), .int(3)])
        try scores.insert(.int(0), at: 0)
        XCTAssertEqual(try scores.elements(), [.int(0), .int(3), .int(1), .int(2), .int(3)])
        try scores.set(.int(9), at: 2)
        XCTAssertEqual(try scores.remove(at: 0), .int(0))
        try scores.move(from: 0, to: 3)
        XCTAssertEqual(try scores.elements(), [.int(9), .int(2), .int(3), .int(3)])
        try scores.swapAt(0, 1)
        XCTAssertEqual(try scores.elements(), [.int(2), .int(9), .int(3), .int(3)])
        XCTAssertEqual(try scores.index(of: .int(3)), 2)
        XCTAssertNil(try scores.index(of: .int(42)))
        XCTAssertEqual(try scores.count(), 4)
        assertThrows(.outOfRange) { _ = try scores.get(4) }
        assertThrows(.outOfRange) { _ = try scores.get(-1) }
        assertThrows(.outOfRange) { try scores.insert(.int(1), at: 5) }
        assertThrows(.outOfRange) { try scores.move(from: 0, to: 4) }
        assertThrows(.wrongType) { try scores.append(.string("x")) }
        assertThrows(.notNullable) { try scores.append(.null) }
        let nicknames = try ann.list(of: p("nicknames"))
        try nicknames.append(contentsOf: [.string("A"), .null])
        try realm.commitWrite()
        assertThrows(.wrongTransactionState) { try scores.append(.int(1)) }

        realm = nil
        try openGraph()
        let reopened = try XCTUnwrap(try realm.object(person, primaryKey: .string("Ann")))
        XCTAssertEqual(try reopened.list(of: p("scores")).elements(), [.int(2), .int(9), .int(3), .int(3)])
        XCTAssertEqual(try reopened.list(of: p("nicknames")).elements(), [.string("A"), .null])
        try realm.beginWrite()
        try reopened.list(of: p("scores")).removeAll()
        try realm.commitWrite()
        XCTAssertEqual(try reopened.list(of: p("scores")).count(), 0)
        assertThrows(.wrongType) { _ = try reopened.set(of: self.p("scores")) }
    }

    func testListOfObjectsLosesDeletedObjectsAndFeedsBacklinks() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), bob = try makePerson("Bob")
        let rex = try makeDog("Rex"), fido = try makeDog("Fido")
        try ann.list(of: p("dogs")).append(contentsOf: [link(rex), link(fido), link(rex)])
        try bob.list(of: p("dogs")).append(link(rex))
        try realm.commitWrite()
        let owners = dog.property(named: "owners")!
        XCTAssertEqual(try rex.linkingObjectKeys(of: owners), [ann.key, bob.key])
        XCTAssertEqual(try fido.linkingObjectKeys(of: owners), [ann.key])

        try realm.beginWrite()
        try ann.list(of: p("dogs")).remove(at: 0)  // one Rex remains in Ann's list
        try realm.commitWrite()
        XCTAssertEqual(try rex.linkingObjectKeys(of: owners), [ann.key, bob.key])

        try realm.beginWrite()
        try rex.delete()
        try realm.commitWrite()
        XCTAssertEqual(try ann.list(of: p("dogs")).elements(), [link(fido)])
        XCTAssertEqual(try bob.list(of: p("dogs")).count(), 0)

        try realm.beginWrite()
        try ann.list(of: p("dogs")).removeAll()
        try realm.commitWrite()
        XCTAssertEqual(try fido.linkingObjectKeys(of: owners), [])
        assertThrows(.wrongType) { _ = try fido.linkingObjectKeys(of: self.dog.property(named: "age")!) }
    }

    func testLinkToAnObjectOfAnotherRealmIsRejected() throws {
        try openGraph()
        let other = try open(Self.graph, path: directory + "/other.realm")
        try other.beginWrite()
        let otherDog = try other.classInfo(named: "Dog")
        let foreign = try other.create(otherDog, values: [(otherDog.property(named: "name")!, .string("Stray")),
                                                          (otherDog.property(named: "age")!, .int(3))])
        try other.commitWrite()
        try realm.beginWrite()
        let ann = try makePerson("Ann")
        // Same class key, but no such object in this realm.
        assertThrows(.invalidated) { try ann.list(of: self.p("dogs")).append(self.link(foreign)) }
        try realm.cancelWrite()
    }

    // MARK: Sets

    func testSetOperations() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), bob = try makePerson("Bob"), cy = try makePerson("Cy")
        let tags = try ann.set(of: p("tags"))
        XCTAssertTrue(try tags.insert(.string("b")))
        XCTAssertTrue(try tags.insert(.string("a")))
        XCTAssertFalse(try tags.insert(.string("b")))
        XCTAssertEqual(try tags.elements(), [.string("a"), .string("b")])
        try tags.formUnion([.string("c"), .string("a")])
        try tags.formIntersection([.string("a"), .string("c"), .string("z")])
        XCTAssertEqual(try tags.elements(), [.string("a"), .string("c")])
        try tags.subtract([.string("a")])
        XCTAssertTrue(try tags.contains(.string("c")))
        XCTAssertFalse(try tags.contains(.string("a")))
        XCTAssertFalse(try tags.remove(.string("nope")))
        let friends = try ann.set(of: p("friends"))
        try friends.formUnion([link(bob), link(cy), link(bob)])
        XCTAssertEqual(try friends.count(), 2)
        try cy.delete()
        XCTAssertEqual(try friends.elements(), [link(bob)])
        try realm.commitWrite()
    }

    static let bags = try! Schema([
        ObjectSchema(name: "Bag", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "things", type: .mixed, isOptional: true, collection: .set),
            Property(name: "decimals", type: .decimal128, collection: .set),
        ]),
    ])

    private func decimal(_ text: String) -> Value { .decimal128(Decimal128(parsing: text)!) }

    /// The fuzzer's finding: decimals were ranked after strings but among the numbers, so a set
    /// holding both lost track of its own elements.
    func testMixedSetKeepsDecimalsAmongTheNumbers() throws {
        realm = try open(Self.bags)
        let bag = try realm.classInfo(named: "Bag")
        try realm.beginWrite()
        let object = try realm.create(bag, values: [(bag.property(named: "id")!, .int(1))])
        let set = try object.set(of: bag.property(named: "things")!)
        for value in [Value.int(1), .string("x"), decimal("0"), decimal("-5")] { XCTAssertTrue(try set.insert(value)) }
        XCTAssertTrue(try set.contains(.int(1)))
        XCTAssertFalse(try set.insert(.int(1)), "1 is there already")
        XCTAssertEqual(try set.elements(), [decimal("-5"), decimal("0"), .int(1), .string("x")])
        XCTAssertTrue(try set.remove(.int(1)))
        XCTAssertFalse(try set.contains(.int(1)))
        try realm.commitWrite()
    }

    /// Random sets of mixed values against a model where two values are the same element exactly
    /// when they have the same type and the same value.
    func testRandomMixedSetsAgreeWithAModel() throws {
        realm = try open(Self.bags)
        let bag = try realm.classInfo(named: "Bag")
        // Groups of equal values; values of different groups are different elements.
        let groups: [[Value]] = [
            [.null], [.bool(true)], [.int(1)], [.int(-5)], [.int(9_007_199_254_740_993)], [.int(9_007_199_254_740_992)],
            [.double(1)], [.double(0.5)], [.double(0), .double(-0.0)], [.double(9_007_199_254_740_992)], [.double(.nan)],
            [.double(.infinity)], [.float(0.5)], [.float(1)], [decimal("1"), decimal("1.0"), decimal("1.000")],
            [decimal("0"), decimal("-0"), decimal("0E+400"), decimal("0E-300")], [decimal("-5")], [decimal("0.5")],
            [decimal("9007199254740993")], [decimal("0.1")], [decimal("0.1000000000000000000000000000000001")],
            [decimal("NaN")], [decimal("1E+6000")], [decimal("-Infinity")], [.string("x")], [.string("")], [.data([1])],
        ]
        var generator = SeededGenerator(seed: 20_240_601)
        try realm.beginWrite()
        for round in 0..<20 {
            let object = try realm.create(bag, values: [(bag.property(named: "id")!, .int(Int64(round)))])
            let set = try object.set(of: bag.property(named: "things")!)
            var present = Set<Int>()
            for _ in 0..<60 {
                let group = Int.random(in: 0..<groups.count, using: &generator)
                let value = groups[group].randomElement(using: &generator)!
                if Bool.random(using: &generator) {
                    XCTAssertEqual(try set.insert(value), present.insert(group).inserted, "insert \(value)")
                } else {
                    XCTAssertEqual(try set.remove(value), present.remove(group) != nil, "remove \(value)")
                }
                XCTAssertEqual(try set.count(), present.count)
            }
            for (index, group) in groups.enumerated() {
                for value in group { XCTAssertEqual(try set.contains(value), present.contains(index), "\(value) in the set") }
            }
            let elements = try set.elements()
            XCTAssertEqual(elements, elements.sorted { CollectionOrdering.compare($0, $1) < 0 })
        }
        try realm.commitWrite()
    }

    /// Sets written in an order older versions kept (decimals after strings, even a value twice)
    /// read in today's order, without repeats: lookups, inserts and counts are right.
    func testSetStoredOutOfOrderIsRepairedWhenRead() throws {
        do {
            realm = try open(Self.bags)
            let bag = try realm.classInfo(named: "Bag")
            try realm.beginWrite()
            let object = try realm.create(bag, values: [(bag.property(named: "id")!, .int(1))])
            let write = try realm.writeTransaction()
            try write.storeCollection([.int(1), .string("x"), decimal("-5"), decimal("0"), .int(1)], table: bag.tableID,
                                      column: bag.property(named: "things")!.column, key: object.key)
            try realm.commitWrite()
            realm.close()
        }
        realm = try open(Self.bags)
        let bag = try realm.classInfo(named: "Bag")
        let object = try XCTUnwrap(realm.object(bag, primaryKey: .int(1)))
        let set = try object.set(of: bag.property(named: "things")!)
        XCTAssertEqual(try set.elements(), [decimal("-5"), decimal("0"), .int(1), .string("x")])
        XCTAssertEqual(try set.count(), 4)
        XCTAssertTrue(try set.contains(.int(1)))
        XCTAssertEqual(try realm.objects(bag).filter("things.@count == 4").count(), 1)
        XCTAssertEqual(try realm.objects(bag).filter("ANY things == 1").count(), 1)
        try realm.beginWrite()
        XCTAssertFalse(try set.insert(.int(1)))
        XCTAssertTrue(try set.insert(decimal("3")))
        try realm.commitWrite()
        XCTAssertEqual(try set.elements(), [decimal("-5"), decimal("0"), .int(1), decimal("3"), .string("x")])
    }

    // MARK: Dictionaries

    func testDictionaryOperationsAndKeyRules() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), rex = try makeDog("Rex")
        let meta = try ann.dictionary(of: p("meta"))
        try meta.set(.string("red"), forKey: "color")
        try meta.update([("size", .string("L")), ("color", .string("blue"))])
        XCTAssertEqual(try meta.keys(), ["color", "size"])
        XCTAssertEqual(try meta.values(), [.string("blue"), .string("L")])
        XCTAssertEqual(try meta.value(forKey: "color"), .string("blue"))
        XCTAssertNil(try meta.value(forKey: "nope"))
        XCTAssertTrue(try meta.contains(key: "size"))
        XCTAssertTrue(try meta.remove(key: "size"))
        XCTAssertFalse(try meta.remove(key: "size"))
        for bad in ["", "a.b", "$x"] {
            assertThrows(.invalidArgument) { try meta.set(.string("v"), forKey: bad) }
        }
        assertThrows(.notNullable) { try meta.set(.null, forKey: "k") }
        let pets = try ann.dictionary(of: p("pets"))
        try pets.set(link(rex), forKey: "first")
        try pets.set(.null, forKey: "none")
        try rex.delete()
        XCTAssertEqual(try pets.value(forKey: "first"), .null, "the key stays, its value becomes null")
        XCTAssertEqual(try pets.count(), 2)
        try realm.commitWrite()
    }

    // MARK: Embedded objects

    func testEmbeddedObjectsAreOwnedByOneParent() throws {
        try openGraph()
        let address = try realm.classInfo(named: "Address")
        let street = address.property(named: "street")!
        try realm.beginWrite()
        let ann = try makePerson("Ann"), bob = try makePerson("Bob")
        assertThrows(.logic) { _ = try self.realm.create(address, values: [(street, .string("x"))]) }
        let home = try ann.createEmbedded(for: p("address"), values: [(street, .string("Main St"))])
        XCTAssertEqual(try ann.linkedObject(of: p("address"))?.value(of: street), .string("Main St"))
        assertThrows(.logic) { try bob.setValue(self.link(home), for: self.p("address")) }  // already owned
        assertThrows(.logic) { try bob.list(of: self.p("addresses")).append(self.link(home)) }
        assertThrows(.logic) { _ = try ann.createEmbedded(for: self.p("best")) }  // Dog is not embedded
        // Replacing the embedded object deletes the old one.
        let work = try ann.createEmbedded(for: p("address"), values: [(street, .string("Work Rd"))])
        XCTAssertFalse(try home.isValid())
        // A list of embedded objects: removing one deletes it; deleting the parent deletes the rest.
        let list = try bob.list(of: p("addresses"))
        let first = try list.insertEmbedded(at: 0, values: [(street, .string("1st"))])
        let second = try list.insertEmbedded(at: 1, values: [(street, .string("2nd"))])
        try list.remove(at: 0)
        XCTAssertFalse(try first.isValid())
        try bob.delete()
        XCTAssertFalse(try second.isValid())
        try ann.setValue(.null, for: p("address"))
        XCTAssertFalse(try work.isValid())
        XCTAssertEqual(try realm.objectCount(address), 0)
        try realm.commitWrite()
    }

    // MARK: Mixed

    func testMixedHoldsAnyValueOrALink() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann"), rex = try makeDog("Rex")
        let samples: [Value] = [.null, .bool(true), .int(-5), .float(1.5), .double(2.5), .string("s"), .data([1, 2]),
                                .timestamp(Timestamp(seconds: 3, nanoseconds: 4)), .objectID(ObjectID(bytes: Array(0..<12))!),
                                .uuid(UUIDValue(bytes: Array(0..<16))!), .decimal128(Decimal128(integer: 7)), link(rex)]
        for sample in samples {
            try ann.setValue(sample, for: p("any"))
            XCTAssertEqual(try ann.value(of: p("any")), sample)
        }
        try ann.list(of: p("anys")).append(contentsOf: samples)
        let address = try realm.classInfo(named: "Address")
        let home = try ann.createEmbedded(for: p("address"), values: [(address.property(named: "street")!, .string("x"))])
        assertThrows(.logic) { try ann.setValue(self.link(home), for: self.p("any")) }
        try realm.commitWrite()
        XCTAssertEqual(try ann.list(of: p("anys")).elements(), samples)
        try realm.beginWrite()
        try rex.delete()
        try realm.commitWrite()
        XCTAssertEqual(try ann.value(of: p("any")), .null)
        XCTAssertEqual(try ann.list(of: p("anys")).elements(), Array(samples.dropLast()))
    }

    // MARK: Deleting and migrating

    func testAddingLinkAndCollectionPropertiesIsAdditive() throws {
        try openGraph()
        try realm.beginWrite()
        let ann = try makePerson("Ann")
        try ann.list(of: p("dogs")).append(link(try makeDog("Rex")))
        try realm.commitWrite()
        XCTAssertEqual(try realm.objects(dog).count(), 1)
        realm = nil
        // Adding link and collection properties is additive: a higher version, no migration function.
        var extended = Self.graph.objectSchemas
        extended[1].properties.append(Property(name: "buddy", type: .object, isOptional: true, objectType: "Dog"))
        extended[1].properties.append(Property(name: "tricks", type: .string, collection: .set))
        let added = try open(try Schema(extended), version: 1)
        let dogClass = try added.classInfo(named: "Dog")
        let rex = try XCTUnwrap(try added.objectKeys(dogClass).first.map { try added.object(dogClass, key: $0) })
        XCTAssertEqual(try rex.value(of: dogClass.property(named: "buddy")!), .null)
        XCTAssertEqual(try rex.set(of: dogClass.property(named: "tricks")!).count(), 0)
    }

    func testRemovingALinkPropertyNeedsAMigrationButRemovingBacklinksDoesNot() throws {
        try openGraph()
        realm = nil
        var withoutBacklinks = Self.graph.objectSchemas
        withoutBacklinks[1].properties.removeAll { $0.name == "owners" }
        _ = try open(try Schema(withoutBacklinks))
        var withoutDogs = Self.graph.objectSchemas
        withoutDogs[0].properties.removeAll { $0.name == "dogs" }
        withoutDogs[1].properties.removeAll { $0.name == "owners" }
        XCTAssertThrowsError(try open(try Schema(withoutDogs))) { error in
            XCTAssertEqual((error as? DBError)?.code, .migrationRequired)
        }
        _ = try open(try Schema(withoutDogs), version: 1, migration: { _, _ in })
    }
}

extension RelationshipTests {
    func testQueriesSortsAndAggregatesRejectNonScalarPropertiesClearly() throws {
        try openGraph()
        try realm.beginWrite()
        _ = try makePerson("Ann")
        try realm.commitWrite()
        let everyone = realm.objects(person)
        XCTAssertThrowsError(try QueryCompiler(classInfo: person).compile("dogs.age == 1")) { error in
            XCTAssertTrue("\(error)".contains("need the realm's schema"), "\(error)")
        }
        assertThrows(.wrongType) { _ = try everyone.sorted(by: [CoreEngine.SortDescriptor(self.p("best"))]).keys() }
        assertThrows(.wrongType) { _ = try everyone.distinct(by: [self.p("tags")]).keys() }
        assertThrows(.wrongType) { _ = try everyone.aggregate(.sum, of: self.p("scores")) }
        assertThrows(.wrongType) { _ = try everyone.values(of: self.p("dogs")) }
    }
}

extension RelationshipTests {
    func testCollectionsOfObjectsAreLiveResultsAndScalarsAggregate() throws {
        try openGraph()
        let age = dog.property(named: "age")!
        try realm.beginWrite()
        let ann = try makePerson("Ann")
        let a = try makeDog("A", age: 5), b = try makeDog("B", age: 2), c = try makeDog("C", age: 9)
        let dogs = try ann.list(of: p("dogs"))
        try dogs.append(contentsOf: [link(c), link(a), link(b), link(a)])
        let results = try dogs.results()
        XCTAssertEqual(try results.keys(), [c.key, a.key, b.key, a.key], "list order, duplicates kept")
        XCTAssertEqual(try results.aggregate(.sum, of: age), .int(21))
        XCTAssertEqual(try results.sorted(by: [CoreEngine.SortDescriptor(age)]).keys(), [b.key, a.key, a.key, c.key])
        let older = results.filter(try QueryCompiler(classInfo: dog).compile("age > 3").predicate)
        XCTAssertEqual(try older.count(), 3)
        XCTAssertEqual(try results.filter("age > 3 SORT(age DESC)").keys(), [c.key, a.key, a.key], "a query string keeps the list as its source")
        try dogs.remove(at: 0)
        XCTAssertEqual(try older.count(), 2, "live: follows the list")
        assertThrows(.wrongType) { _ = try ann.linkingObjects(of: self.p("dogs")) }  // only linkingObjects properties
        try realm.commitWrite()
        XCTAssertEqual(try a.linkingObjects(of: dog.property(named: "owners")!).keys(), [ann.key])
        XCTAssertEqual(try a.backlinks(fromClass: person, columnID: p("dogs").columnID).count(), 1)

        try realm.beginWrite()
        let scores = try ann.list(of: p("scores"))
        try scores.append(contentsOf: [.int(4), .int(1), .int(4)])
        XCTAssertEqual(try scores.aggregate(.sum), .int(9))
        XCTAssertEqual(try scores.aggregate(.min), .int(1))
        XCTAssertEqual(try scores.aggregate(.average), .double(3))
        let values = try scores.elementValues()
        XCTAssertEqual(ValueListOrdering.sorted(Array(values.indices), of: values, ascending: false).map { values[$0] },
                       [.int(4), .int(4), .int(1)])
        XCTAssertEqual(ValueListOrdering.distinct(Array(values.indices), of: values).map { values[$0] }, [.int(4), .int(1)])
        XCTAssertEqual(try scores.positions(matching: "self >= $0", arguments: [.value(.int(4))]), [0, 2])
        assertThrows(.query) { _ = try scores.positions(matching: "age > 1", arguments: []) }
        assertThrows(.wrongType) { _ = try dogs.positions(matching: "self == nil", arguments: []) }
        XCTAssertNil(try makePerson("Empty").list(of: p("scores")).aggregate(.min))
        XCTAssertEqual(try makePerson("Zero").list(of: p("scores")).aggregate(.sum), .int(0))
        assertThrows(.wrongType) { _ = try ann.list(of: self.p("nicknames")).aggregate(.min) }
        try ann.list(of: p("anys")).append(contentsOf: [.int(1), .string("x"), .double(2.5)])
        XCTAssertEqual(try ann.list(of: p("anys")).aggregate(.sum), .double(3.5))
        assertThrows(.wrongType) { _ = try ann.list(of: self.p("scores")).results() }
        assertThrows(.wrongType) { _ = try ann.set(of: self.p("tags")).aggregate(.sum) }
        try realm.commitWrite()
    }
}
