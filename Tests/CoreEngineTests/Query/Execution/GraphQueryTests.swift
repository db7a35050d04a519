import XCTest
@testable import CoreEngine

/// Queries across links and collections: key paths through links, ANY/ALL/NONE, collection
/// operators, SUBQUERY, backlinks, dictionaries, list positions, link comparisons, @type, IN a
/// collection, and sorting and DISTINCT through to-one links.
final class GraphQueryTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string, isPrimaryKey: true),
            Property(name: "age", type: .int),
            Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
            Property(name: "best", type: .object, isOptional: true, objectType: "Dog"),
            Property(name: "friends", type: .object, collection: .set, objectType: "Person"),
            Property(name: "pets", type: .object, isOptional: true, collection: .dictionary, objectType: "Dog"),
            Property(name: "scores", type: .int, collection: .list),
            Property(name: "tags", type: .string, collection: .set),
            Property(name: "meta", type: .int, collection: .dictionary),
            Property(name: "extra", type: .mixed),
            Property(name: "extras", type: .mixed, collection: .list),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int),
            Property(name: "owner", type: .object, isOptional: true, objectType: "Person"),
            Property(name: "owners", type: .linkingObjects, objectType: "Person", linkOriginProperty: "dogs"),
        ]),
    ])

    private var realm: Realm!
    private var person: ClassInfo!
    private var dog: ClassInfo!
    private var people: [String: ObjectAccessor] = [:]
    private var dogs: [String: ObjectAccessor] = [:]

    private func p(_ name: String) -> PropertyInfo { person.property(named: name)! }
    private func d(_ name: String) -> PropertyInfo { dog.property(named: name)! }
    private func link(_ object: ObjectAccessor) -> Value { .link(ObjectLink(table: object.classInfo.tableID, key: object.key)) }

    /// Ann (30): dogs Rex 5, Fido 12, Rex again; best Fido; friends Bob; pets a: Rex; scores 1 5 9;
    ///   tags x y; meta a 1, b 7; extra 2.5; extras 1 'x'
    /// Bob (40): dogs Max 2; friends Ann, Cy; scores (none); meta c 3; extra 'hi'
    /// Cy (50): nothing; extra null
    /// Dogs: Rex 5 (owner Ann), Fido 12 (owner Ann), Max 2 (owner Bob), Stray 1 (no owner).
    private func makeGraph() throws {
        realm = try open(Self.schema)
        person = try realm.classInfo(named: "Person")
        dog = try realm.classInfo(named: "Dog")
        try realm.beginWrite()
        for (name, age) in [("Ann", 30), ("Bob", 40), ("Cy", 50)] {
            people[name] = try realm.create(person, values: [(p("name"), .string(name)), (p("age"), .int(Int64(age)))])
        }
        for (name, age, owner) in [("Rex", 5, "Ann"), ("Fido", 12, "Ann"), ("Max", 2, "Bob"), ("Stray", 1, nil)] as [(String, Int64, String?)] {
            var values = [(d("name"), Value.string(name)), (d("age"), .int(age))]
            if let owner { values.append((d("owner"), link(people[owner]!))) }
            dogs[name] = try realm.create(dog, values: values)
        }
        let ann = people["Ann"]!, bob = people["Bob"]!, cy = people["Cy"]!
        try ann.list(of: p("dogs")).append(contentsOf: [link(dogs["Rex"]!), link(dogs["Fido"]!), link(dogs["Rex"]!)])
        try ann.setValue(link(dogs["Fido"]!), for: p("best"))
        try ann.set(of: p("friends")).formUnion([link(bob)])
        try ann.dictionary(of: p("pets")).set(link(dogs["Rex"]!), forKey: "a")
        try ann.list(of: p("scores")).append(contentsOf: [.int(1), .int(5), .int(9)])
        try ann.set(of: p("tags")).formUnion([.string("x"), .string("y")])
        try ann.dictionary(of: p("meta")).update([("a", .int(1)), ("b", .int(7))])
        try ann.setValue(.double(2.5), for: p("extra"))
        try ann.list(of: p("extras")).append(contentsOf: [.int(1), .string("x")])
        try bob.list(of: p("dogs")).append(link(dogs["Max"]!))
        try bob.set(of: p("friends")).formUnion([link(ann), link(cy)])
        try bob.dictionary(of: p("meta")).set(.int(3), forKey: "c")
        try bob.setValue(.string("hi"), for: p("extra"))
        try realm.commitWrite()
    }

    /// The names of the people (or dogs) a query matches, in key order.
    private func names(_ query: String, _ classInfo: ClassInfo? = nil, _ arguments: [QueryArgument] = [],
                       file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let target = classInfo ?? person!
        do {
            let results = try realm.objects(target).filter(query, arguments: arguments)
            return try results.keys().map { key in
                guard case let .string(name) = try ObjectAccessor(realm: realm, classInfo: target, key: key)
                    .value(of: target.property(named: "name")!) else { return "?" }
                return name
            }
        } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return []
        }
    }

    private func rejects(_ query: String, _ fragment: String, _ classInfo: ClassInfo? = nil, _ arguments: [QueryArgument] = [],
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try realm.objects(classInfo ?? person).filter(query, arguments: arguments), query, file: file, line: line) { error in
            XCTAssertEqual((error as? DBError)?.code, .query, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(fragment), "\(query): \(error)", file: file, line: line)
        }
    }

    func testKeyPathsThroughToOneLinks() throws {
        try makeGraph()
        XCTAssertEqual(names("owner.name == 'Ann'", dog), ["Rex", "Fido"])
        XCTAssertEqual(names("owner.age > 35", dog), ["Max"])
        XCTAssertEqual(names("owner.name == nil", dog), ["Stray"], "a null link reads as null along the path")
        XCTAssertEqual(names("owner.best.name == 'Fido'", dog), ["Rex", "Fido"])
        XCTAssertEqual(names("best.age > 10"), ["Ann"])
        XCTAssertEqual(names("owner.name BEGINSWITH[c] 'a' AND age < 10", dog), ["Rex"])
        XCTAssertEqual(names("owner == $0", dog, [.value(link(people["Bob"]!))]), ["Max"])
        XCTAssertEqual(names("owner == nil", dog), ["Stray"])
        XCTAssertEqual(names("owner != nil", dog), ["Rex", "Fido", "Max"])
        XCTAssertEqual(names("best == $0", nil, [.value(link(dogs["Fido"]!))]), ["Ann"])
        XCTAssertThrowsError(try realm.objects(dog).filter("owner > $0", arguments: [.value(link(people["Bob"]!))])) { error in
            XCTAssertTrue("\(error)".contains("objects compare only"), "\(error)")
        }
        rejects("owner.nope == 1", "'Person' has no property named 'nope'", dog)
        rejects("age.x == 1", "is not a link", dog)
    }

    /// Following a link looks classes up in the realm: a realm that cannot answer (closed here)
    /// is reported as itself, not as a query that names no such class.
    func testALinkPathOnAClosedRealmIsAClosedRealmErrorNotABadQuery() throws {
        try makeGraph()
        let dogs = realm.objects(dog)
        realm.close()
        for query in ["owner.name == 'Ann'", "@links.Person.dogs.@count > 0"] {
            XCTAssertThrowsError(try dogs.filter(query), query) { error in
                XCTAssertEqual((error as? DBError)?.code, .closedRealm, "\(query): \(error)")
            }
        }
        XCTAssertThrowsError(try dogs.sorted(by: []).filter("TRUEPREDICATE SORT(owner.name ASC)")) { error in
            XCTAssertEqual((error as? DBError)?.code, .closedRealm, "\(error)")
        }
    }

    func testToManyKeyPathsWithQuantifiers() throws {
        try makeGraph()
        XCTAssertEqual(names("dogs.age > 10"), ["Ann"], "implicit ANY")
        XCTAssertEqual(names("ANY dogs.age > 10"), ["Ann"])
        XCTAssertEqual(names("SOME dogs.name == 'Max'"), ["Bob"])
        XCTAssertEqual(names("ALL dogs.age > 3"), ["Ann", "Cy"], "ALL holds for an empty list")
        XCTAssertEqual(names("NONE dogs.age > 3"), ["Bob", "Cy"])
        XCTAssertEqual(names("ALL dogs.age BETWEEN {1, 5}"), ["Bob", "Cy"])
        XCTAssertEqual(names("friends.name == 'Cy'"), ["Bob"])
        XCTAssertEqual(names("friends.dogs.name == 'Max'"), ["Ann"], "two to-many hops")
        XCTAssertEqual(names("pets.age == 5"), ["Ann"])
        XCTAssertEqual(names("pets['a'].name == 'Rex'"), ["Ann"])
        XCTAssertEqual(names("dogs == $0", nil, [.value(link(dogs["Fido"]!))]), ["Ann"])
        XCTAssertEqual(names("ANY dogs.name IN {'Max', 'Nope'}"), ["Bob"])
        XCTAssertEqual(names("dogs.name == ANY {'Max', 'Nope'}"), ["Bob"], "a quantifier on either side: membership")
        XCTAssertEqual(names("dogs.name IN {'Max', 'Nope'}"), [], "no quantifier: position by position, as realm-core")
        XCTAssertEqual(names("dogs.name IN {'Max'}"), ["Bob"])
        XCTAssertEqual(names("dogs.name == {'Rex', 'Fido', 'Rex'}"), ["Ann"], "every position, in order")
        XCTAssertEqual(names("dogs.name == {'Rex', 'Rex', 'Fido'}"), [])
        XCTAssertEqual(names("dogs.name != {'Rex', 'Fido', 'Rex'}"), ["Bob", "Cy"], "a different length differs")
        XCTAssertEqual(names("ALL dogs.age > ANY {3, 100}"), ["Ann", "Cy"], "ALL over the dogs, ANY over the list")
        XCTAssertEqual(names("NOT dogs.age > 10"), ["Bob", "Cy"])
        rejects("ANY age > 3", "applies to a key path through a collection")
    }

    /// `value(forKeyPath:)` through to-many links: a list of values per object, read with the
    /// query's key path reader, inside a write too (its decoded blocks go back first).
    func testValueListsThroughAnyLinks() throws {
        try makeGraph()
        let people = try realm.objects(person)
        func lists(_ path: String, start: Int = 0, max: Int = 10) throws -> [[Value]] {
            try people.valueLists(ofKeyPath: try people.valueListPath(path), start: start, maxCount: max)
        }
        XCTAssertEqual(try lists("dogs.name"), [[.string("Rex"), .string("Fido"), .string("Rex")], [.string("Max")], []])
        XCTAssertEqual(try lists("best.age"), [[.int(12)], [.null], [.null]])
        XCTAssertEqual(try lists("friends.dogs.@count", start: 1, max: 1), [[.int(3), .int(0)]])
        XCTAssertFalse(try people.valueListPath("best.age").isMultiValued)
        XCTAssertTrue(try people.valueListPath("dogs.name").isMultiValued)
        try realm.beginWrite()
        try people.keys().first.map { try ObjectAccessor(realm: realm, classInfo: person, key: $0) }!.list(of: p("dogs")).append(link(dogs["Max"]!))
        XCTAssertEqual(try lists("dogs.name", max: 1), [[.string("Rex"), .string("Fido"), .string("Rex"), .string("Max")]], "a write's own change")
        try realm.cancelWrite()
        XCTAssertThrowsError(try lists("dogs.name", start: 4))
        XCTAssertThrowsError(try people.valueListPath("dogs.nope"))
    }

    /// realm-core's arithmetic on collections: a collection with one value gives one value per
    /// element, compared as the collection itself would be; a list with a constant is a list.
    func testArithmeticOnCollectionsAndLists() throws {
        try makeGraph()
        // Ann: 30, dogs 5, 12, 5, scores 1, 5, 9. Bob: 40, dog 2. Cy: 50, no dogs.
        XCTAssertEqual(names("dogs.age * 2 > 20"), ["Ann"])
        XCTAssertEqual(names("ALL dogs.age * 2 >= 4"), ["Ann", "Bob", "Cy"], "ALL holds for no dogs")
        XCTAssertEqual(names("ALL dogs.age * 2 > 4"), ["Ann", "Cy"])
        XCTAssertEqual(names("NONE dogs.age + 1 == 6"), ["Bob", "Cy"])
        XCTAssertEqual(names("dogs.age + age > 41"), ["Ann", "Bob"], "the other operand is the person's own age")
        XCTAssertEqual(names("100 - scores == 91"), ["Ann"], "the collection on the right of the operator")
        XCTAssertEqual(names("20 < ALL dogs.age * 2"), ["Cy"], "a quantifier before a collection on the right")
        XCTAssertEqual(names("(scores + 1) * 2 == {4, 12, 20}"), ["Ann"], "position by position, as the collection")
        XCTAssertEqual(names("dogs.age / 0 == NULL"), ["Ann", "Bob"], "integer division by zero gives null")
        XCTAssertEqual(names("dogs.age * $0 > 20", person, [.value(.int(2))]), ["Ann"])
        XCTAssertEqual(names("dogs.age * 2 > scores.@max"), ["Ann"], "one value of the person on the other side")
        // Lists with a constant are folded: `{8, 10} / 2` is `{4, 5}`.
        XCTAssertEqual(names("{8, 10} / 2 == ANY scores"), ["Ann"])
        XCTAssertEqual(names("ALL {8, 10} / 2 >= ANY dogs.age"), ["Bob"], "realm-core's own example")
        XCTAssertEqual(names("age > ALL {40, 80} / 2"), ["Cy"])
        XCTAssertEqual(names("age == 10 * $0", person, [.list([.int(3), .int(5)])]), ["Ann", "Cy"])
        XCTAssertEqual(names("age IN {null, 3} * 10"), ["Ann"], "a null element gives null")
        rejects("dogs.age * scores > 1", "arithmetic between two collections")
        rejects("{1, 2} * {1, 2} == scores", "arithmetic between two lists")
        // A list with a property: a value of each object per element.
        XCTAssertEqual(names("{600, 1500} / age > 35"), ["Ann", "Bob"], "Ann: 20, 50; Bob: 15, 37.5; Cy: 12, 30")
        XCTAssertEqual(names("ALL {600, 1500} / age > 15"), ["Ann"])
        XCTAssertEqual(names("(age + {1}) * 2 == 82"), ["Bob"])
        XCTAssertEqual(names("age IN {60, 100} / 2"), ["Ann", "Cy"])
        XCTAssertEqual(names("age + $0 == 45", person, [.list([.int(5), .int(15)])]), ["Ann", "Bob"])
        rejects("{1, 2} * scores > 3", "needs one value on its other side, not the collection 'scores'")
        rejects("dogs.name * 2 > 1", "arithmetic needs numbers")
        rejects("{'a'} * 2 == ANY scores", "arithmetic needs numbers")
        rejects("{1, 2} + 1 == {2, 3}", "two lists cannot be compared")
        rejects("scores * 2 BEGINSWITH 'a'", "cannot compare")
    }

    func testCollectionOperators() throws {
        try makeGraph()
        XCTAssertEqual(names("dogs.@count > 2"), ["Ann"], "duplicates count")
        XCTAssertEqual(names("dogs.@size == 0"), ["Cy"])
        XCTAssertEqual(names("dogs.@avg.age > 7"), ["Ann"])
        XCTAssertEqual(names("dogs.@sum.age == 2"), ["Bob"])
        XCTAssertEqual(names("dogs.@min.age == 5"), ["Ann"])
        XCTAssertEqual(names("dogs.@max.age < 3"), ["Bob"])
        XCTAssertEqual(names("dogs.@avg.age == nil"), ["Cy"], "the average of nothing is null")
        XCTAssertEqual(names("dogs.@sum.age == 0"), ["Cy"], "the sum of nothing is 0")
        XCTAssertEqual(names("scores.@count == 3 AND scores.@sum == 15 AND scores.@avg == 5"), ["Ann"])
        XCTAssertEqual(names("scores.@min == 1 AND scores.@max == 9"), ["Ann"])
        XCTAssertEqual(names("scores > 8"), ["Ann"])
        XCTAssertEqual(names("ALL scores > 0"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("scores[FIRST] == 1 AND scores[LAST] == 9 AND scores[1] == 5"), ["Ann"])
        XCTAssertEqual(names("scores[7] == 1"), [], "a position past the end matches nothing")
        XCTAssertEqual(names("dogs[FIRST].name == 'Rex' AND dogs[1].age == 12"), ["Ann"])
        XCTAssertEqual(names("dogs[LAST].name == 'Max'"), ["Bob"])
        XCTAssertEqual(names("tags.@count == 2 AND 'x' IN tags"), ["Ann"])
        XCTAssertEqual(names("'z' IN tags"), [])
        XCTAssertEqual(names("friends.@count == 2"), ["Bob"])
        XCTAssertEqual(names("dogs.@count * 2 == 6"), ["Ann"], "an aggregate is one value, usable in arithmetic")
        rejects("dogs.@avg.name > 1", "@avg needs numbers")
        rejects("tags.@sum > 1", "@sum needs numbers")
        rejects("age.@count > 1", "applies to strings, binary data and collections")
        rejects("dogs.@keys == 'a'", "cannot follow dogs")
        rejects("tags[FIRST] == 'x'", "apply to lists")
    }

    func testDictionaries() throws {
        try makeGraph()
        XCTAssertEqual(names("meta['b'] == 7"), ["Ann"])
        XCTAssertEqual(names("meta['zz'] == nil"), ["Ann", "Bob", "Cy"], "an absent key reads as null")
        XCTAssertEqual(names("meta.@keys == 'c'"), ["Bob"])
        XCTAssertEqual(names("ANY meta.@keys BEGINSWITH 'a'"), ["Ann"])
        XCTAssertEqual(names("meta.@values > 5"), ["Ann"])
        XCTAssertEqual(names("meta > 5"), ["Ann"], "a dictionary compares by its values")
        XCTAssertEqual(names("meta.@count == 1"), ["Bob"])
        XCTAssertEqual(names("meta.@sum == 8"), ["Ann"])
        XCTAssertEqual(names("ALL meta.@values < 5"), ["Bob", "Cy"])
        rejects("scores.@keys == 'a'", "applies to dictionaries")
        rejects("scores['a'] == 1", "only dictionaries are subscripted by a key")
    }

    func testBacklinks() throws {
        try makeGraph()
        XCTAssertEqual(names("owners.name == 'Ann'", dog), ["Rex", "Fido"])
        XCTAssertEqual(names("owners.@count == 0", dog), ["Stray"])
        XCTAssertEqual(names("@links.Person.dogs.name == 'Bob'", dog), ["Max"])
        XCTAssertEqual(names("@links.Person.dogs.@count > 0", dog), ["Rex", "Fido", "Max"])
        XCTAssertEqual(names("@links.Person.best.@count == 1", dog), ["Fido"])
        // Every link counts, as in realm-core: Rex is twice in Ann's dogs and once in her pets
        // (Rex.owner links to people); Fido is in Ann's dogs and is Bob's best.
        XCTAssertEqual(names("@links.@count == 3", dog), ["Rex"])
        XCTAssertEqual(names("@links.@count == 2", dog), ["Fido"])
        XCTAssertEqual(names("owners.@count == 2", dog), ["Rex"], "Ann's list links to Rex twice")
        XCTAssertEqual(names("@links.@count == 0", dog), ["Stray"])
        XCTAssertEqual(names("@links.Dog.owner.name == 'Fido'"), ["Ann"])
        XCTAssertEqual(names("@links.Person.friends.@count == 1"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("@links.Person.friends.name == 'Ann'"), ["Bob"])
        rejects("@links.Person.scores.@count > 0", "not a property that links to 'Dog'", dog)
        rejects("@links.Nope.x.@count > 0", "no class named 'Nope'", dog)
    }

    func testSubquery() throws {
        try makeGraph()
        XCTAssertEqual(names("SUBQUERY(dogs, $d, $d.age > 3).@count > 1"), ["Ann"], "Rex twice and Fido")
        XCTAssertEqual(names("SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count == 2"), ["Ann"])
        XCTAssertEqual(names("SUBQUERY(dogs, $dog, $dog.age < 3).@size == 1"), ["Bob"])
        XCTAssertEqual(names("SUBQUERY(friends, $f, $f.dogs.@count > 0).@count == 1"), ["Ann", "Bob"])
        XCTAssertEqual(names("SUBQUERY(friends, $f, $f.dogs.@count == 0).@count == 1"), ["Bob"])
        XCTAssertEqual(names("SUBQUERY(owners, $o, $o.age < 35).@count == 1", dog), ["Fido"])
        XCTAssertEqual(names("SUBQUERY(owners, $o, $o.age < 35).@count == 2", dog), ["Rex"], "each link: Ann lists Rex twice")
        XCTAssertEqual(names("SUBQUERY(friends, $f, SUBQUERY($f.dogs, $d, $d.age > 10).@count > 0).@count > 0"), ["Bob"])
        rejects("SUBQUERY(dogs, $d, age > 3).@count > 0", "start with the variable $d")
        rejects("SUBQUERY(scores, $s, $s > 3).@count > 0", "collection of objects")
        rejects("SUBQUERY(dogs, $d, $d.age > 3) > 0", "must be followed by .@count")
    }

    func testMixedTypeAndValues() throws {
        try makeGraph()
        XCTAssertEqual(names("extra.@type == 'double'"), ["Ann"])
        XCTAssertEqual(names("extra.@type == 'numeric'"), ["Ann"])
        XCTAssertEqual(names("extra.@type == 'String'"), ["Bob"])
        XCTAssertEqual(names("extra.@type == 'null'"), ["Cy"])
        XCTAssertEqual(names("extra.@type != 'null'"), ["Ann", "Bob"])
        XCTAssertEqual(names("extra.@type IN {'string', 'double'}"), ["Ann", "Bob"])
        XCTAssertEqual(names("extras.@type == 'string'"), ["Ann"])
        XCTAssertEqual(names("extra > 2"), ["Ann"])
        XCTAssertEqual(names("extra == 'hi'"), ["Bob"])
        XCTAssertEqual(names("extras == 'x'"), ["Ann"])
        rejects("extra.@type == 'colour'", "type name")
        rejects("extra.@type > 'int'", "only with ==")
    }

    /// A list literal (or list argument) after any operator, quantified or not, with realm-core's
    /// meaning: a value against the list is ANY unless ALL or NONE is written; a collection and a
    /// list with no quantifier compare position by position; empty lists: ANY false, ALL and NONE true.
    func testListsAfterEveryOperator() throws {
        try makeGraph()
        XCTAssertEqual(names("age > {35, 45}"), ["Bob", "Cy"])
        XCTAssertEqual(names("age > ALL {35, 45}"), ["Cy"])
        XCTAssertEqual(names("age == NONE {30, 50}"), ["Bob"])
        XCTAssertEqual(names("age != {30, 50}"), ["Ann", "Bob", "Cy"], "differs from some element")
        XCTAssertEqual(names("age != ALL {30, 50}"), ["Bob"])
        XCTAssertEqual(names("age == ANY {}"), [])
        XCTAssertEqual(names("age == ALL {}"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("age == NONE {}"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("name BEGINSWITH[c] {'a', 'c'}"), ["Ann", "Cy"])
        XCTAssertEqual(names("name LIKE NONE {'A*', '?o?'}"), ["Cy"])
        XCTAssertEqual(names("age < ANY $0", nil, [.list([.int(35), .int(10)])]), ["Ann"])
        XCTAssertEqual(names("age IN ALL $0", nil, [.list([.int(40)])]), ["Bob"])
        XCTAssertEqual(names("scores == {1, 5, 9}"), ["Ann"], "position by position")
        XCTAssertEqual(names("scores == {9, 5, 1}"), [])
        XCTAssertEqual(names("scores == {}"), ["Bob", "Cy"], "empty lists are equal")
        XCTAssertEqual(names("scores > {0, 4, 8}"), ["Ann"], "every position greater")
        XCTAssertEqual(names("scores == ANY {5, 7}"), ["Ann"])
        XCTAssertEqual(names("ALL scores < ANY {6, 2}"), ["Bob", "Cy"], "9 is not below 6 or 2; empty: ALL holds")
        XCTAssertEqual(names("NONE scores == ANY {5}"), ["Bob", "Cy"])
        XCTAssertEqual(names("scores == ALL {}"), ["Ann"], "ANY score (none for Bob and Cy) passes ALL of nothing")
        XCTAssertEqual(names("dogs.age == ANY {2, 100}"), ["Bob"], "through a to-many hop")
        XCTAssertEqual(names("extra.@type == ANY {'string', 'double'}"), ["Ann", "Bob"])
        XCTAssertEqual(names("extra.@type == NONE {'string', 'double'}"), ["Cy"])
        rejects("age > ANY 5", "must be followed by a list")
        rejects("age > ANY $0", "needs an argument given as a list", nil, [.value(.int(1))])
        XCTAssertEqual(names("age + {1} > 40"), ["Bob", "Cy"])
        rejects("age == {1}.@count", "expected")
        rejects("age == {name}", "must be values")
        rejects("age > {'x'}", "cannot compare")
        rejects("ANY age == {1}", "applies to a key path through a collection")
    }

    /// A list (or a list argument) on the left, as realm-core reads it: its quantifier (ANY when
    /// none is written) over one comparison per value; with a collection on the right and no
    /// quantifier on either side, position by position. A quantifier may precede a collection on
    /// the right when the left is one value or a list.
    func testListsBeforeTheOperator() throws {
        try makeGraph()
        XCTAssertEqual(names("{30, 50} == age"), ["Ann", "Cy"])
        XCTAssertEqual(names("ALL {30, 50} == age"), [])
        XCTAssertEqual(names("NONE {30, 50} == age"), ["Bob"])
        XCTAssertEqual(names("{35, 45} < age"), ["Bob", "Cy"], "35 < 40, 35 < 50")
        XCTAssertEqual(names("ANY {} == age"), [])
        XCTAssertEqual(names("ALL {} == age"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("{1, 5, 9} == scores"), ["Ann"], "position by position")
        XCTAssertEqual(names("{9, 5, 1} == scores"), [])
        XCTAssertEqual(names("{} == scores"), ["Bob", "Cy"])
        XCTAssertEqual(names("{0, 4, 8} < scores"), ["Ann"], "every position below")
        XCTAssertEqual(names("{1, 5, 9} IN scores"), ["Ann"], "IN between a list and a collection is ordered equality")
        XCTAssertEqual(names("ANY {5, 7} IN scores"), ["Ann"])
        XCTAssertEqual(names("ALL {5, 9} IN scores"), ["Ann"])
        XCTAssertEqual(names("ALL {5, 7} IN scores"), [])
        XCTAssertEqual(names("ALL {} IN scores"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("ANY {6, 2} > ALL scores"), ["Bob", "Cy"], "no value above 9; ALL of nothing holds")
        XCTAssertEqual(names("ANY {10, 2} > ALL scores"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("5 < ANY scores"), ["Ann"])
        XCTAssertEqual(names("10 > ALL scores"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("9 IN NONE scores"), ["Bob", "Cy"])
        XCTAssertEqual(names("$0 == age", nil, [.list([.int(40), .int(41)])]), ["Bob"])
        XCTAssertEqual(names("ALL $0 IN scores", nil, [.list([.int(1), .int(9)])]), ["Ann"])
        rejects("{1} == {1}", "two lists cannot be compared")
        rejects("$0 == {1}", "two lists cannot be compared", nil, [.list([.int(1)])])
        XCTAssertEqual(names("{'Annie', 'Cyril'} BEGINSWITH name"), ["Ann", "Cy"], "each value against one string")
        XCTAssertEqual(names("ALL {'Annie', 'Anna'} BEGINSWITH name"), ["Ann"])
        XCTAssertEqual(names("{'xbobx'} CONTAINS[c] name"), ["Bob"])
        rejects("{'A'} BEGINSWITH tags", "a collection can be compared only from the left-hand side of BEGINSWITH")
        rejects("{1} IN age", "IN needs a collection")
        rejects("'x' BEGINSWITH ALL tags", "takes a collection on its left only")
        rejects("{'x'} == age", "cannot compare")
    }

    /// realm-core's key path forms: `@size` of strings and data, `@count`/`@links`/`@type` after a
    /// to-one link, `@type` names and aliases, `dict[*]`, `dict.key`, `dict[$0]`, counts through
    /// a null link, SUBQUERY variables with `-`.
    func testRealmCoreKeyPathForms() throws {
        try makeGraph()
        XCTAssertEqual(names("name.@size == 3"), ["Ann", "Bob"])
        XCTAssertEqual(names("name.@count == 2"), ["Cy"])
        XCTAssertEqual(names("extra.@size == 2"), ["Bob"], "a mixed string: its length; other types have none")
        XCTAssertEqual(names("best.name.@size == 4"), ["Ann"])
        XCTAssertEqual(names("SUBQUERY(dogs, $d, $d.name.@size == 4).@count == 1"), ["Ann"])
        // `length` after a collection of strings: each element's length (realm-core's suffix).
        XCTAssertEqual(names("tags.length == 1"), ["Ann"])
        XCTAssertEqual(names("ALL tags.LENGTH == 1"), ["Ann", "Bob", "Cy"], "ALL holds for no tags")
        XCTAssertEqual(names("2 IN tags.length"), [])
        XCTAssertEqual(names("extras.length == 1"), ["Ann"], "the mixed string 'x'; the int has no length")
        rejects("scores.length == 1", "has no property 'length'")
        rejects("tags.length.x == 1", "nothing can follow")
        rejects("age.@size > 1", "applies to strings, binary data and collections")
        XCTAssertEqual(names("best.@count == 1"), ["Ann"], "0 or 1, the objects the link reaches")
        XCTAssertEqual(names("best.@count == 0"), ["Bob", "Cy"])
        XCTAssertEqual(names("owner.@links.Person.friends.@count == 1", dog), ["Rex", "Fido", "Max"], "Bob lists Ann, Ann lists Bob")
        XCTAssertEqual(names("owner.@links.Person.friends.@count == 0", dog), ["Stray"], "no owner: no links")
        XCTAssertEqual(names("best.@links.@count == 2"), ["Ann"], "Fido: in Ann's dogs, Ann's best")
        XCTAssertEqual(names("best.@type == 'objectlink'"), ["Ann"])
        XCTAssertEqual(names("best.@type == 'null'"), ["Bob", "Cy"])
        XCTAssertEqual(names("dogs.@type == 'link'"), ["Ann", "Bob"], "each object of the list")
        XCTAssertEqual(names("extra.@type == 'FLOAT' OR extra.@type == 'Double'"), ["Ann"], "any letter case")
        XCTAssertEqual(names("extra.@type == 'int64'"), [])
        XCTAssertEqual(names("extras.@type == 'long'"), ["Ann"])
        XCTAssertEqual(names("extra.@type == 'object'"), [], "a dictionary nested in a mixed, as realm-core")
        XCTAssertEqual(names("extra.@type == extra.@type"), ["Ann", "Bob", "Cy"])
        XCTAssertEqual(names("extras.@type == extra.@type"), [])
        XCTAssertEqual(names("meta[*] == 7"), ["Ann"])
        XCTAssertEqual(names("meta.b == 7"), ["Ann"], "a key after a dictionary of values")
        XCTAssertEqual(names("meta.b == nil"), ["Bob", "Cy"], "an absent key is null")
        XCTAssertEqual(names("meta[$0] == 3", nil, [.value(.string("c"))]), ["Bob"])
        XCTAssertEqual(names("scores[$0] == 5", nil, [.value(.int(1))]), ["Ann"], "an integer argument is a position")
        XCTAssertEqual(names("pets.a.age == 5"), ["Ann"], "a key after a dictionary of objects")
        XCTAssertEqual(names("pets[*].age == 5"), ["Ann"])
        XCTAssertEqual(names("friends[*].name == 'Cy'"), ["Bob"])
        XCTAssertEqual(names("owner.meta.a == 1", dog), ["Rex", "Fido"])
        XCTAssertEqual(names("owner.scores.@count == 0", dog), ["Max", "Stray"], "a null link reaches an empty collection")
        XCTAssertEqual(names("owner.scores.@sum == 0", dog), ["Max", "Stray"])
        XCTAssertEqual(names("owner.scores.@max == nil", dog), ["Max", "Stray"])
        XCTAssertEqual(names("SUBQUERY(dogs, $a-dog_1, $a-dog_1.age > 10).@count == 1"), ["Ann"])
        rejects("age[*] == 1", "cannot be subscripted")
        rejects("best[*].age == 1", "cannot be subscripted")
        rejects("meta[$0] == 1", "needs a string", nil, [.value(.double(1.5))])
    }

    /// `obj('Class', primaryKey)`: the object, looked up when the query is compiled; a key no
    /// object has is a null link (so `== obj(...)` then matches null links, as in realm-core).
    func testObjectLiterals() throws {
        try makeGraph()
        XCTAssertEqual(names("owner == obj('Person', 'Ann')", dog), ["Rex", "Fido"])
        XCTAssertEqual(names("OBJ(\"Person\", 'Bob') == owner", dog), ["Max"])
        XCTAssertEqual(names("owner != obj('Person', 'Ann')", dog), ["Max", "Stray"])
        XCTAssertEqual(names("owner == obj('Person', 'Nobody')", dog), ["Stray"], "no such object: a null link")
        XCTAssertEqual(names("owner IN {obj('Person', 'Bob'), obj('Person', 'Cy')}", dog), ["Max"])
        XCTAssertEqual(names("friends == obj('Person', $0)", nil, [.value(.string("Cy"))]), ["Bob"])
        XCTAssertEqual(names("owner == obj('Person', 'Ann') AND age > 10", dog), ["Fido"])
        let obj = "obj"  // a property may still be named obj
        XCTAssertEqual(try realm.objects(person).filter("name != '\(obj)'").count(), 3)
        rejects("owner == obj('Nope', 1)", "no class named 'Nope'", dog)
        rejects("owner == obj('Dog', 1)", "has none", dog)
        rejects("owner == obj('Person', 5)", "expected a value of type string", dog)
        rejects("best == obj('Person', 'Ann')", "a link to 'Dog' cannot be compared with an object of class 'Person'")
        rejects("owner > obj('Person', 'Ann')", "objects compare only with ==, != and IN", dog)
        rejects("owner == obj(Person, 'Ann')", "starts with the class name as a string", dog)
        rejects("owner == obj('Person', name)", "a literal or an argument", dog)
    }

    /// realm-core's key literals: `O<n>`, the object with key n of the class the other side links
    /// to (a property of that name stays the property), and `L<class>:<object>`, a link by keys.
    func testKeyLiterals() throws {
        try makeGraph()
        let fido = dogs["Fido"]!.key, rex = dogs["Rex"]!.key, table = dog.tableID
        XCTAssertEqual(names("best == O\(fido)"), ["Ann"])
        XCTAssertEqual(names("O\(fido) == best"), ["Ann"])
        XCTAssertEqual(names("best != O\(fido)"), ["Bob", "Cy"], "null links differ from it")
        XCTAssertEqual(names("ANY dogs == O\(rex)"), ["Ann"])
        XCTAssertEqual(names("O\(rex) IN dogs"), ["Ann"])
        XCTAssertEqual(names("best IN {O\(rex), O\(fido)}"), ["Ann"])
        XCTAssertEqual(names("best == O999"), [], "no such object: nothing links to it")
        XCTAssertEqual(names("best == L\(table):\(fido)"), ["Ann"])
        XCTAssertEqual(names("owner == L\(person.tableID):\(people["Ann"]!.key)", dog), ["Rex", "Fido"])
        XCTAssertEqual(try QueryParser.parse("best == L3:4").description, "best == L3:4")
        rejects("best == L\(table + 100):1", "which no class of the realm has")
        rejects("best == L\(person.tableID):\(fido)", "cannot be compared with an object of class 'Person'")
        rejects("age == O1", "the other side must be a link")
        rejects("extra == O1", "the other side must be a link")
        rejects("O1 == O2", "the other side must be a link")
        rejects("best > O1", "objects compare only with ==, != and IN")
        rejects("best == L1:2x", "after link literal")
    }

    /// Two collections: each side's quantifier (ANY when none) when either is written, position
    /// by position when neither is.
    func testTwoCollectionsCompared() throws {
        try makeGraph()
        // Ann: scores 1 5 9, dog ages 5 12 5; Bob: no scores, one dog of 2; Cy: neither.
        XCTAssertEqual(names("ANY scores == ANY dogs.age"), ["Ann"])
        XCTAssertEqual(names("scores == ANY dogs.age"), ["Ann"])
        XCTAssertEqual(names("scores == dogs.age"), ["Cy"], "position by position: only two empty collections are equal")
        XCTAssertEqual(names("scores IN dogs.age"), ["Cy"])
        XCTAssertEqual(names("scores != dogs.age"), ["Ann", "Bob", "Cy"], "every position differs, or the counts do")
        XCTAssertEqual(names("ALL dogs.age > ANY scores"), ["Ann", "Cy"])
        XCTAssertEqual(names("ANY dogs.age > ALL scores"), ["Ann", "Bob"], "12 is above every score; Bob has none")
        XCTAssertEqual(names("NONE dogs.age == ANY scores"), ["Bob", "Cy"])
        XCTAssertEqual(names("ALL dogs.age IN ALL dogs.age"), ["Bob", "Cy"], "Ann's dogs are not all the same age")
        rejects("dogs.name BEGINSWITH tags", "cannot compare two collections")
        rejects("scores == tags", "cannot compare")
    }

    /// TEXT: full-text search (see FullTextSearchTests for words and terms), on a string
    /// property, through a link and over a collection of strings.
    func testFullTextSearch() throws {
        try makeGraph()
        XCTAssertEqual(names("name TEXT 'ann'"), ["Ann"])
        XCTAssertEqual(names("name text 'b* -bob'"), [])
        XCTAssertEqual(names("name TEXT $0", nil, [.value(.string("CY"))]), ["Cy"])
        XCTAssertEqual(names("best.name TEXT 'fido'"), ["Ann"])
        XCTAssertEqual(names("ANY tags TEXT 'x'"), ["Ann"])
        XCTAssertEqual(names("ANY dogs.name TEXT 'ma*'"), ["Bob"])
        rejects("age TEXT 'x'", "TEXT searches strings, not int")
        rejects("name TEXT ''", "TEXT needs a word to search for")
        rejects("name TEXT '-ann'", "TEXT needs a word to search for")
        rejects("name TEXT name", "TEXT takes one string")
        rejects("name TEXT {'a'}", "TEXT takes one string")
        rejects("name TEXT 5", "not int")
        rejects("name TEXT[c] 'ann'", "cannot follow 'TEXT'")
    }

    /// realm-core's `$K<n>`: a key path given as a string argument, used as a whole path.
    func testKeyPathArguments() throws {
        try makeGraph()
        XCTAssertEqual(names("$K0 > 10", dog, [.value(.string("age"))]), ["Fido"])
        XCTAssertEqual(names("$K0 == $1", dog, [.value(.string("owner.name")), .value(.string("Bob"))]), ["Max"])
        XCTAssertEqual(names("$K0 != null", nil, [.value(.string("best"))]), ["Ann"])
        XCTAssertEqual(names("5 IN $K0", nil, [.value(.string("scores"))]), ["Ann"])
        XCTAssertEqual(names("ALL $K0 > 1", nil, [.value(.string("dogs.age"))]), ["Ann", "Bob", "Cy"])
        rejects("$K0 == 1", "give it as a string", nil, [.value(.int(1))])
        rejects("$K0 == 1", "has no property named 'nope'", nil, [.value(.string("nope"))])
        rejects("$K0 == 1", "is not a key path", nil, [.value(.string("a..b"))])
        rejects("$K1 == 1", "was not given", nil, [.value(.string("age"))])
    }

    func testSortAndDistinctThroughToOneLinks() throws {
        try makeGraph()
        // Owners: Rex Ann(30), Fido Ann(30), Max Bob(40), Stray none (null sorts first).
        XCTAssertEqual(names("TRUEPREDICATE SORT(owner.age DESC, name ASC)", dog), ["Max", "Fido", "Rex", "Stray"])
        XCTAssertEqual(names("TRUEPREDICATE SORT(owner.name ASC)", dog), ["Stray", "Rex", "Fido", "Max"])
        XCTAssertEqual(names("TRUEPREDICATE DISTINCT(owner.name)", dog), ["Rex", "Max", "Stray"])
        XCTAssertEqual(names("age > 1 SORT(owner.best.age DESC)", dog), ["Rex", "Fido", "Max"])
        let path = PropertyPath(links: [d("owner")], property: p("age"))
        let sorted = try realm.objects(dog).sorted(by: [CoreEngine.SortDescriptor(path: path, ascending: false)])
        XCTAssertEqual(try sorted.keys().first, dogs["Max"]!.key)
        rejects("TRUEPREDICATE SORT(dogs.age)", "can follow only to-one links")
        rejects("TRUEPREDICATE SORT(owner)", "only properties with one scalar value", dog)
    }

    func testQueriesSeeUncommittedWritesAcrossLinks() throws {
        try makeGraph()
        let results = try realm.objects(person).filter("dogs.@count > 0 AND ANY dogs.age > 10")
        XCTAssertEqual(try results.count(), 1)
        try realm.beginWrite()
        try dogs["Max"]!.setValue(.int(20), for: d("age"))
        XCTAssertEqual(try results.count(), 2, "a write's change to a linked object is seen inside the write")
        try dogs["Fido"]!.delete()
        XCTAssertEqual(try results.count(), 1, "a deleted dog leaves the lists that held it")
        try realm.cancelWrite()
        XCTAssertEqual(try results.count(), 1)
    }
}
