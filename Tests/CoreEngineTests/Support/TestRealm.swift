import XCTest
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// Shared fixtures: a temporary directory per test and a Person schema with every property type.
class RealmTestCase: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/realmdb-xctest-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        directory = String(cString: created)
    }

    override func tearDown() {
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(directory + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(directory)
    }

    var path: String { directory + "/test.realm" }

    static let personSchema = try! Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, isOptional: true, isIndexed: true),
            Property(name: "score", type: .double),
            Property(name: "city", persistedName: "town", type: .string, isOptional: true, isIndexed: true),
        ]),
    ])

    func open(_ schema: Schema? = RealmTestCase.personSchema, version: UInt64 = 0, path: String? = nil,
              migration: ((Migration, UInt64) throws -> Void)? = nil, configure: (inout RealmConfiguration) -> Void = { _ in }) throws -> Realm {
        var configuration = RealmConfiguration(path: path ?? self.path)
        configuration.schema = schema
        configuration.schemaVersion = version
        configuration.migration = migration
        configure(&configuration)
        return try Realm(configuration: configuration)
    }

    /// Opens a realm with `schema` and runs `fill` in one write transaction before returning it.
    func open(_ schema: Schema?, filling fill: (Realm) throws -> Void) throws -> Realm {
        let realm = try open(schema)
        try realm.beginWrite()
        try fill(realm)
        try realm.commitWrite()
        return realm
    }

    /// Creates a Person inside the caller's write transaction.
    @discardableResult
    func createPerson(_ realm: Realm, id: Int64, name: String = "Ann", age: Int64? = 30, score: Double = 1.5,
                      city: String? = nil, upsert: UpsertMode = .none) throws -> ObjectAccessor {
        let person = try realm.classInfo(named: "Person")
        var values: [(PropertyInfo, Value)] = [
            (person.property(named: "id")!, .int(id)),
            (person.property(named: "name")!, .string(name)),
            (person.property(named: "age")!, age.map(Value.int) ?? .null),
            (person.property(named: "score")!, .double(score)),
        ]
        if let city { values.append((person.property(named: "city")!, .string(city))) }
        return try realm.create(person, values: values, upsert: upsert)
    }

    func value(_ object: ObjectAccessor, _ name: String) throws -> Value {
        try object.value(of: object.classInfo.property(named: name)!)
    }

    func assertThrows(_ code: DBError.Code, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(code), nothing was thrown", file: file, line: line)
        } catch let error as DBError {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
        } catch {
            XCTFail("expected DBError(\(code)), got \(error)", file: file, line: line)
        }
    }
}

extension Realm {
    /// Runs `body` in a write transaction and commits it (tests only; on an error the write is
    /// left open, as the failing test ends anyway).
    func write(_ body: () throws -> Void) throws {
        try beginWrite()
        try body()
        try commitWrite()
    }
}
