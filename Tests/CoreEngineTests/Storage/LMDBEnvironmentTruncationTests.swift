import XCTest
import CLMDB
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// `LMDBEnvironment.truncationDescription`: a file shorter than the pages LMDB counts is damaged
/// only when pages in use are missing. Pages one transaction allocated and freed again are never
/// written, and may lie past the end of a healthy file.
final class LMDBEnvironmentTruncationTests: RealmTestCase {
    /// A realm whose last write created `count` objects and deleted them again: the pages that
    /// write allocated and freed are in the free list, and LMDB counts them whether or not it wrote them.
    private func fileWithPagesFreedInOneWrite(_ file: String, count: Int = 3_000, nameLength: Int = 100) throws {
        let realm = try open(path: file)
        try realm.write { try self.createPerson(realm, id: 1, name: "Kept") }
        try realm.write {
            let person = try realm.classInfo(named: "Person")
            for id in 2...count { try self.createPerson(realm, id: Int64(id), name: String(repeating: "x", count: nameLength)) }
            XCTAssertEqual(try realm.objects(person).filter("id > 1").deleteAll(), count - 1)
        }
        realm.close()
    }

    private func readOnly(_ file: String) throws -> OpaquePointer {
        try LMDBEnvironment.openEnvironment(path: file, flags: UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_RDONLY | MDB_NOLOCK))
    }

    private func lastPageEnd(_ env: OpaquePointer) -> Int {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        mdb_env_info(env, &info)
        mdb_env_stat(env, &stat)
        return (Int(info.me_last_pgno) + 1) * Int(stat.ms_psize)
    }

    private func fileSize(_ file: String) -> Int {
        var info = stat()
        return stat(file, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Whether the freed pages fall at the end of the file depends on the order the write gave its
    /// pages back (which follows the per-process seeds of Swift's hashing, so one process can
    /// repeat one order), so files of several sizes are made until some end short of their
    /// counted pages.
    func testFreePagesPastTheEndAreNotDamage() throws {
        var short = 0
        for attempt in 0..<40 where short < 3 {
            let file = directory + "/attempt-\(attempt).realm"
            try fileWithPagesFreedInOneWrite(file, count: 3_000 + 97 * attempt, nameLength: 100 + 20 * (attempt % 5))
            let env = try readOnly(file)
            defer { mdb_env_close(env) }
            guard fileSize(file) < lastPageEnd(env) else { continue }
            short += 1
            XCTAssertNil(LMDBEnvironment.truncationDescription(env, path: file))
            let realm = try open(path: file)
            try realm.writeCopy(toFile: file + ".copy")
            XCTAssertEqual(try realm.objectCount(realm.classInfo(named: "Person")), 1)
            realm.close()
        }
        XCTAssertGreaterThan(short, 0, "no file ended short of its pages: the case is not tested")
    }

    /// A file that ends inside its last page (not on a page boundary): every such cut of the
    /// last page is described as damage, never a trap (a fuzzer's finding: the range of
    /// missing pages was computed past the last page).
    func testAFileEndingInsideItsLastPageIsDamage() throws {
        let realm = try open(path: path)
        try realm.write { try self.createPerson(realm, id: 1, name: "Kept") }
        realm.close()
        let end: Int = try {
            let env = try readOnly(path)
            defer { mdb_env_close(env) }
            return lastPageEnd(env)
        }()
        XCTAssertEqual(fileSize(path), end, "the file holds every page it counts")
        for cut in [end - 1, end - 100, end - 4095] {
            let copy = directory + "/cut-\(cut).realm"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            XCTAssertEqual(truncate(copy, off_t(min(cut, fileSize(copy)))), 0)
            let env = try readOnly(copy)
            defer { mdb_env_close(env) }
            let description = try XCTUnwrap(LMDBEnvironment.truncationDescription(env, path: copy), "cut at \(cut)")
            XCTAssertTrue(description.contains("is truncated"), description)
        }
    }

    func testPagesInUsePastTheEndAreDamage() throws {
        try fileWithPagesFreedInOneWrite(path)
        XCTAssertEqual(truncate(path, 2 * 4096), 0)  // the meta pages only: the tree's pages are gone
        let env = try readOnly(path)
        defer { mdb_env_close(env) }
        let description = try XCTUnwrap(LMDBEnvironment.truncationDescription(env, path: path))
        XCTAssertTrue(description.contains("is truncated: it has 8192 bytes"), description)
    }
}
