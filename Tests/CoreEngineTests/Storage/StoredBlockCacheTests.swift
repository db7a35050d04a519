import XCTest
@testable import CoreEngine

/// The stored-block lookup cache: what was inserted is found again (bytes or a known absence)
/// through growth, keys that differ in one field only stay apart, and removeAll forgets.
final class StoredBlockCacheTests: XCTestCase {
    func testFindsWhatWasInsertedThroughGrowth() {
        var cache = StoredBlockCache()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 10_000, alignment: 8)
        defer { storage.deallocate() }
        var expected: [(BlockKey, UnsafeRawBufferPointer?)] = []
        for table in UInt32(1)...3 {
            for column in UInt32(0)...4 {
                for cluster in Int64(0)..<200 {
                    let key = BlockKey(table: table, column: column, cluster: cluster)
                    let offset = Int(cluster) * 40 + Int(column)
                    let bytes: UnsafeRawBufferPointer? = cluster % 7 == 0
                        ? nil : UnsafeRawBufferPointer(rebasing: storage[offset..<offset + Int(table)])
                    XCTAssertNil(cache.lookup(key), "\(key) before insertion")
                    cache.insert(key, bytes)
                    expected.append((key, bytes))
                }
            }
        }
        XCTAssertEqual(cache.count, expected.count)
        for (key, bytes) in expected {
            guard let found = cache.lookup(key) else { return XCTFail("\(key) lost") }
            XCTAssertEqual(found?.baseAddress, bytes?.baseAddress, "\(key)")
            XCTAssertEqual(found?.count, bytes?.count, "\(key)")
        }
        XCTAssertNil(cache.lookup(BlockKey(table: 4, column: 0, cluster: 0)))
        XCTAssertNil(cache.lookup(BlockKey(table: 1, column: 0, cluster: -1)))
        cache.removeAll()
        XCTAssertTrue(cache.isEmpty)
        XCTAssertNil(cache.lookup(expected[0].0))
    }
}
