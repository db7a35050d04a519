import CLMDB
import XCTest
@testable import CoreEngine

/// `DBError.lmdb`: LMDB's return codes as engine errors with a code and a message that says what
/// to do.
final class LMDBErrorTests: XCTestCase {
    func testCodesAndMessages() {
        XCTAssertEqual(DBError.lmdb(MDB_READERS_FULL, "begin").code, .tooManyActiveVersions)
        XCTAssertEqual(DBError.lmdb(MDB_INVALID, "open").code, .fileFormat)
        XCTAssertEqual(DBError.lmdb(ENOENT, "open").code, .fileAccess)
        let full = DBError.lmdb(MDB_TXN_FULL, "delete")
        XCTAssertEqual(full.code, .storage)
        XCTAssertTrue(full.message.contains("MDB_TXN_FULL"), full.message)
        XCTAssertTrue(full.message.contains("several smaller writes"), full.message)
    }
}
