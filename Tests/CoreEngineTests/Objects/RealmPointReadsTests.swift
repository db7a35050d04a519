import XCTest
@testable import CoreEngine

/// Point reads (Realm+PointReads): the values of one object by key or primary key, with strings
/// and binaries handed over as their stored bytes.
final class RealmPointReadsTests: RealmTestCase {
    static let notes = try! Schema([
        ObjectSchema(name: "Note", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "text", type: .string),
            Property(name: "bytes", type: .data),
            Property(name: "maybe", type: .string, isOptional: true),
            Property(name: "stars", type: .int),
        ]),
    ])

    /// What `contents` hands over, with bytes copied out (they are valid only during the call).
    enum Read: Equatable {
        case value(Value), text([UInt8]), binary([UInt8])
    }

    private func read(_ realm: Realm, primaryKey: Int64, _ names: [String]) throws -> (Int64?, [Read]) {
        let note = try realm.classInfo(named: "Note")
        let ids = names.map { Int64(note.property(named: $0)!.columnID) }
        var reads: [Read?] = Array(repeating: nil, count: ids.count)
        let key = try ids.withUnsafeBufferPointer { ids in
            try realm.readValues(of: note, primaryKey: .int(primaryKey), columnIDs: ids) { index, contents in
                switch contents {
                case let .value(value): reads[index] = .value(value)
                case let .text(bytes): reads[index] = .text(Array(bytes))
                case let .binary(bytes): reads[index] = .binary(Array(bytes))
                }
            }
        }
        return (key, key == nil ? [] : reads.map { $0! })
    }

    private func create(_ realm: Realm, _ id: Int64, _ text: String, _ bytes: [UInt8], _ maybe: String?) throws {
        let note = try realm.classInfo(named: "Note")
        _ = try realm.create(note, values: [
            (note.property(named: "id")!, .int(id)), (note.property(named: "text")!, .string(text)),
            (note.property(named: "bytes")!, .data(bytes)), (note.property(named: "maybe")!, maybe.map(Value.string) ?? .null),
            (note.property(named: "stars")!, .int(id * 10)),
        ])
    }

    func testStoredTextAndBytesAreHandedOverInPlaceAndEverythingElseAsValues() throws {
        let realm = try open(Self.notes) { realm in
            try create(realm, 1, "plain ascii, longer than fifteen bytes", [0, 255, 7], nil)
            try create(realm, 2, "naïve ☃", [], "")
        }
        let names = ["text", "bytes", "maybe", "stars", "id"]
        let (first, one) = try read(realm, primaryKey: 1, names)
        XCTAssertNotNil(first)
        XCTAssertEqual(one, [.text(Array("plain ascii, longer than fifteen bytes".utf8)), .binary([0, 255, 7]),
                             .value(.null), .value(.int(10)), .value(.int(1))])
        // Text beyond ASCII is decoded as every other read decodes it; an empty string and empty
        // bytes are still a string and bytes.
        let (_, two) = try read(realm, primaryKey: 2, names)
        XCTAssertEqual(two, [.value(.string("naïve ☃")), .binary([]), .text([]), .value(.int(20)), .value(.int(2))])
        let (missing, none) = try read(realm, primaryKey: 3, names)
        XCTAssertNil(missing)
        XCTAssertEqual(none, [])
    }

    func testInsideAWriteTheChangedValuesAreRead() throws {
        let realm = try open(Self.notes) { realm in try create(realm, 1, "before", [1], nil) }
        try realm.beginWrite()
        try realm.object(try realm.classInfo(named: "Note"), primaryKey: .int(1))!
            .setValue(.string("after"), for: try realm.classInfo(named: "Note").property(named: "text")!)
        try create(realm, 2, "new", [2], "x")
        XCTAssertEqual(try read(realm, primaryKey: 1, ["text"]).1, [.value(.string("after"))])
        XCTAssertEqual(try read(realm, primaryKey: 2, ["text", "maybe"]).1, [.value(.string("new")), .value(.string("x"))])
        try realm.cancelWrite()
        XCTAssertEqual(try read(realm, primaryKey: 1, ["text"]).1, [.text(Array("before".utf8))])
        XCTAssertNil(try read(realm, primaryKey: 2, ["text"]).0)
    }

    func testBadPropertyKeysAndGoneObjectsAreErrorsWhetherOrNotTheObjectExists() throws {
        let realm = try open(Self.notes) { realm in try create(realm, 1, "x", [], nil) }
        let note = try realm.classInfo(named: "Note")
        for id: Int64 in [-1, 1 << 40, 9999] {
            for primaryKey: Int64 in [1, 2] {  // found, and not
                assertThrows(.notFound) {
                    _ = try [id].withUnsafeBufferPointer { try realm.readValues(of: note, primaryKey: .int(primaryKey), columnIDs: $0) { _, _ in } }
                }
            }
        }
        assertThrows(.wrongType) {
            _ = try [Int64(0)].withUnsafeBufferPointer { try realm.readValues(of: note, primaryKey: .string("1"), columnIDs: $0) { _, _ in } }
        }
        let key = try read(realm, primaryKey: 1, []).0!
        try realm.beginWrite()
        try realm.object(note, key: key).delete()
        try realm.commitWrite()
        assertThrows(.invalidated) {
            try [Int64(note.property(named: "text")!.columnID)].withUnsafeBufferPointer {
                try realm.readValues(of: note, key: key, columnIDs: $0) { _, _ in XCTFail("a deleted object has no values") }
            }
        }
    }

    /// `Results.readContents`, the batch form the C API's column reads use, hands over what a
    /// point read hands over for each object, in results order, and fails before handing over
    /// anything when a snapshot's object is gone.
    func testResultsHandOverEachObjectAsAPointReadDoes() throws {
        let realm = try open(Self.notes) { realm in
            try create(realm, 3, "third", [3, 3], "c")
            try create(realm, 1, "plain ascii, longer than fifteen bytes", [0, 255, 7], nil)
            try create(realm, 2, "naïve ☃", [], "")
        }
        let note = try realm.classInfo(named: "Note")
        let byID = realm.objects(note).sorted(by: [SortDescriptor(note.property(named: "id")!)])
        func batch(_ results: Results, _ name: String, start: Int = 0, maxCount: Int = .max) throws -> [Read] {
            var reads: [Read] = []
            let count = try results.readContents(of: note.property(named: name)!, start: start, maxCount: maxCount) { index, contents in
                XCTAssertEqual(index, reads.count)
                switch contents {
                case let .value(value): reads.append(.value(value))
                case let .text(bytes): reads.append(.text(Array(bytes)))
                case let .binary(bytes): reads.append(.binary(Array(bytes)))
                }
            }
            XCTAssertEqual(count, reads.count)
            return reads
        }
        for name in ["text", "bytes", "maybe", "stars", "id"] {
            let pointReads = try (1...3).map { try read(realm, primaryKey: $0, [name]).1[0] }
            XCTAssertEqual(try batch(byID, name), pointReads, name)
            XCTAssertEqual(try batch(byID, name, start: 1, maxCount: 1), [pointReads[1]], name)
        }
        XCTAssertEqual(try batch(byID, "text", start: 3), [])
        assertThrows(.outOfRange) { _ = try batch(byID, "text", start: 4) }

        // Inside a write, the values the write changed are read.
        func decoded(_ read: Read) -> Value {
            switch read {
            case let .value(value): return value
            case let .text(bytes): return .string(String(decoding: bytes, as: UTF8.self))
            case let .binary(bytes): return .data(bytes)
            }
        }
        try realm.beginWrite()
        try realm.object(note, primaryKey: .int(1))!.setValue(.string("after"), for: note.property(named: "text")!)
        try create(realm, 4, "fourth", [4], nil)
        XCTAssertEqual(try batch(byID, "text").map(decoded), ["after", "naïve ☃", "third", "fourth"].map(Value.string))
        XCTAssertEqual(try batch(byID, "text"), try (1...4).map { try read(realm, primaryKey: $0, ["text"]).1[0] })
        try realm.cancelWrite()

        let snapshot = try byID.snapshot()
        try realm.write { try realm.object(note, primaryKey: .int(2))!.delete() }
        assertThrows(.invalidated) {
            _ = try snapshot.readContents(of: note.property(named: "text")!, start: 0, maxCount: .max) { _, _ in
                XCTFail("nothing is handed over when an object is gone")
            }
        }
        XCTAssertEqual(try batch(byID, "id"), [.value(.int(1)), .value(.int(3))])
    }

    /// Reads of many objects, spread over clusters, hand over each object's own values: a point
    /// read starts the loads of every column before reading any (`readLiveRow`), and a batch read
    /// of live results does it for runs of 64 keys (`forEachStoredSlot`); a slot mixed up between
    /// columns, keys or runs would show here. Deleted objects in between read as gone.
    func testReadsSpreadOverClustersHandOverEachObjectsOwnValues() throws {
        let count: Int64 = 2_500  // three clusters
        let realm = try open(Self.notes) { realm in
            for id in 0..<count {
                try create(realm, id, id % 7 == 0 ? "" : "note \(id)", id % 5 == 0 ? [] : [UInt8(id & 0xFF)], id % 3 == 0 ? nil : "m\(id)")
            }
        }
        let note = try realm.classInfo(named: "Note")
        let gone: Set<Int64> = [0, 1023, 1024, 1500, 2499]
        var keys: [Int64: Int64] = [:]
        for id in gone { keys[id] = try read(realm, primaryKey: id, []).0 }
        try realm.write { for id in gone { try realm.object(note, primaryKey: .int(id))!.delete() } }

        func expected(_ id: Int64) -> [Read] {
            [.text(Array((id % 7 == 0 ? "" : "note \(id)").utf8)), .binary(id % 5 == 0 ? [] : [UInt8(id & 0xFF)]),
             id % 3 == 0 ? .value(.null) : .text(Array("m\(id)".utf8)), .value(.int(id * 10)), .value(.int(id))]
        }
        let names = ["text", "bytes", "maybe", "stars", "id"]
        for id in stride(from: count - 1, through: 0, by: -13) where !gone.contains(id) {
            XCTAssertEqual(try read(realm, primaryKey: id, names).1, expected(id), "id \(id)")
        }
        for id in gone {
            XCTAssertNil(try read(realm, primaryKey: id, names).0)
            assertThrows(.invalidated) {
                try [Int64(note.property(named: "text")!.columnID)].withUnsafeBufferPointer {
                    try realm.readValues(of: note, key: keys[id]!, columnIDs: $0) { _, _ in XCTFail("a deleted object has no values") }
                }
            }
        }

        // Descending by stars: every key in another order than the clusters', in runs of 64.
        let live = (0..<count).filter { !gone.contains($0) }
        let byStars = realm.objects(note).sorted(by: [SortDescriptor(note.property(named: "stars")!, ascending: false)])
        for (index, name) in names.enumerated() {
            for (start, maxCount) in [(0, Int.max), (63, 130), (live.count - 1, 5)] {
                var reads: [Read] = []
                _ = try byStars.readContents(of: note.property(named: name)!, start: start, maxCount: maxCount) { _, contents in
                    switch contents {
                    case let .value(value): reads.append(.value(value))
                    case let .text(bytes): reads.append(.text(Array(bytes)))
                    case let .binary(bytes): reads.append(.binary(Array(bytes)))
                    }
                }
                let ids = live.reversed().dropFirst(start).prefix(maxCount)
                XCTAssertEqual(reads, ids.map { expected($0)[index] }, "\(name) from \(start)")
            }
        }
    }

    func testOnlyASCIIIsHandedOverAsText() {
        let ascii = Array("0123456789abcdefghij".utf8)
        for length in 0...ascii.count {
            XCTAssertTrue(ascii.prefix(length).withUnsafeBytes { StoredContents.isASCII($0) })
            for position in 0..<length {  // a high bit at every position, in and after the 8-byte words
                var bytes = Array(ascii.prefix(length))
                bytes[position] = 0x80
                XCTAssertFalse(bytes.withUnsafeBytes { StoredContents.isASCII($0) }, "\(length) \(position)")
            }
        }
    }
}
