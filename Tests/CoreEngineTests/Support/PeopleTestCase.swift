import XCTest
@testable import CoreEngine

/// A test case whose every test starts with a realm of `personSchema` holding `people`: the
/// shared fixture of the query, results and storage tests.
class PeopleTestCase: RealmTestCase {
    typealias Row = (id: Int64, name: String, age: Int64?, score: Double, city: String?)

    var realm: Realm!
    var person: ClassInfo!

    /// The people each test starts with; a subclass states its own.
    class var people: [Row] { [] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open(Self.personSchema) { realm in
            for row in type(of: self).people {
                try self.createPerson(realm, id: row.id, name: row.name, age: row.age, score: row.score, city: row.city)
            }
        }
        person = try realm.classInfo(named: "Person")
    }

    /// A property of Person by name.
    func p(_ name: String) -> PropertyInfo { person.property(named: name)! }

    /// The ids of `results`, in results order.
    func ids(_ results: Results) throws -> [Int64] {
        try results.values(of: p("id")).map { guard case let .int(i) = $0 else { return -1 }; return i }
    }
}
