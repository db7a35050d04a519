import XCTest
@testable import CoreEngine

/// Batch reads of bools, ints, floats and doubles as plain numbers (`StoredNumber`) give what
/// the reads of `Value`s give, for every layout a block of those types may have.
final class StoredNumberTests: RealmTestCase {
    static let numbers = try! Schema([
        ObjectSchema(name: "N", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "flag", type: .bool, isOptional: true),
            Property(name: "count", type: .int, isOptional: true),
            Property(name: "ratio", type: .float),
            Property(name: "amount", type: .double, isOptional: true),
            Property(name: "wide", type: .int),  // values too far apart to pack
            Property(name: "text", type: .string),
        ]),
    ])

    private static let numberNames = ["id", "flag", "count", "ratio", "amount", "wide"]

    private func values(_ id: Int64) -> [String: Value] {
        [
            "id": .int(id), "flag": id % 4 == 0 ? .null : .bool(id % 3 == 0),
            "count": id % 5 == 0 ? .null : .int(1_000 + id % 300), "ratio": .float(Float(id) / 8),
            "amount": id % 7 == 0 ? .null : .double(id % 11 == 0 ? -.infinity : Double(id) * -0.25),
            "wide": .int(id % 2 == 0 ? .max - id : .min + id), "text": .string("t\(id)"),
        ]
    }

    private func create(_ realm: Realm, _ id: Int64) throws {
        let n = try realm.classInfo(named: "N")
        _ = try realm.create(n, values: values(id).map { (n.property(named: $0.key)!, $0.value) })
    }

    private func readNumbers(_ results: Results, _ property: PropertyInfo, start: Int = 0, maxCount: Int = .max) throws -> [Value] {
        var read: [Value] = []
        let count = try results.readNumbers(of: property, start: start, maxCount: maxCount) { index, number in
            XCTAssertEqual(index, read.count)
            switch number {
            case .null: read.append(.null)
            case let .bool(b): read.append(.bool(b))
            case let .int(i): read.append(.int(i))
            case let .float(f): read.append(.float(f))
            case let .double(d): read.append(.double(d))
            }
        }
        XCTAssertEqual(count, read.count)
        return read
    }

    func testNumbersAreTheValuesOfEveryLayoutInAndOutOfAWrite() throws {
        let realm = try open(Self.numbers) { realm in for id in 0..<2_500 { try self.create(realm, Int64(id)) } }
        let n = try realm.classInfo(named: "N")
        let descending = realm.objects(n).sorted(by: [SortDescriptor(n.property(named: "id")!, ascending: false)])
        let ids = (0..<Int64(2_500)).reversed()
        for name in Self.numberNames {
            let property = n.property(named: name)!
            XCTAssertEqual(try readNumbers(descending, property), ids.map { values($0)[name]! }, name)
            XCTAssertEqual(try readNumbers(descending, property, start: 100, maxCount: 70),
                           ids.dropFirst(100).prefix(70).map { values($0)[name]! }, name)
        }
        // Inside a write: a changed block (decoded) next to stored ones, and a new object.
        try realm.beginWrite()
        try realm.object(n, primaryKey: .int(1_500))!.setValue(.int(-7), for: n.property(named: "count")!)
        try create(realm, 2_500)
        let byID = realm.objects(n).sorted(by: [SortDescriptor(n.property(named: "id")!)])
        var expected = (0...Int64(2_500)).map { values($0)["count"]! }
        expected[1_500] = .int(-7)
        XCTAssertEqual(try readNumbers(byID, n.property(named: "count")!), expected)
        try realm.cancelWrite()
        // A property that is not a number is not read as one; a snapshot's deleted object fails.
        assertThrows(.internal) { _ = try self.readNumbers(byID, n.property(named: "text")!) }
        let snapshot = try byID.snapshot()
        try realm.write { try realm.object(n, primaryKey: .int(3))!.delete() }
        assertThrows(.invalidated) { _ = try self.readNumbers(snapshot, n.property(named: "id")!) }
    }

    /// A block whose layout does not fit its column (a crafted file) reads as the defaults, as
    /// `value(at:)` reads it; a slot past the block's end reads as absent.
    func testABlockOfAnotherLayoutReadsAsDefaults() throws {
        var ints = ColumnBuffer(type: .int)
        for i in 0..<10 { ints.set(.int(Int64(i) + 5), at: i, optional: false) }
        let bytes = ints.encoded()
        try bytes.withUnsafeBytes { raw in
            let view = try ColumnBlockView(raw)
            XCTAssertEqual(view.number(at: 3, type: .int, optional: false), .int(8))
            XCTAssertEqual(view.number(at: 3, type: .double, optional: false), .double(0))
            XCTAssertEqual(view.number(at: 3, type: .bool, optional: true), .null)
            XCTAssertEqual(view.number(at: 10, type: .int, optional: false), .int(0))
            XCTAssertEqual(view.number(at: 10, type: .int, optional: true), .null)
            for type in [PropertyType.bool, .int, .float, .double] {
                XCTAssertEqual(view.number(at: 2, type: type, optional: false), StoredNumber(view.value(at: 2, type: type, optional: false)))
            }
        }
    }
}
