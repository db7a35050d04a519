import XCTest
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// `Realm.writeCopy(toFile:)`, `Realm.fileSpace()` and `RealmConfiguration.shouldCompactOnLaunch`.
final class RealmCompactionTests: RealmTestCase {
    private func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// A realm whose file is mostly free space: 3000 people written, 2500 deleted, then closed.
    private func makeMostlyFreeFile() throws {
        let realm = try open(Self.personSchema) { realm in
            for id in 1...3000 { try self.createPerson(realm, id: Int64(id), name: String(repeating: "n", count: 200) + "\(id)") }
        }
        try realm.write {
            let person = try realm.classInfo(named: "Person")
            for id in 501...3000 { try XCTUnwrap(realm.object(person, primaryKey: .int(Int64(id)))).delete() }
        }
        realm.close()
    }

    private func assertHoldsTheSurvivors(_ realm: Realm, file: StaticString = #filePath, line: UInt = #line) throws {
        let person = try realm.classInfo(named: "Person")
        XCTAssertEqual(try realm.objectCount(person), 500, file: file, line: line)
        let last = try XCTUnwrap(realm.object(person, primaryKey: .int(500)), file: file, line: line)
        XCTAssertEqual(try value(last, "name"), .string(String(repeating: "n", count: 200) + "500"), file: file, line: line)
        XCTAssertNil(try realm.object(person, primaryKey: .int(501)), file: file, line: line)
        _ = try realm.check()
    }

    func testWriteCopyIsCompactAndComplete() throws {
        try makeMostlyFreeFile()
        let realm = try open()
        let space = try realm.fileSpace()
        XCTAssertEqual(space.fileBytes, fileSize(path))
        XCTAssertLessThan(space.usedBytes, space.fileBytes / 2, "3000 written, 2500 deleted: most pages are free")
        let copy = directory + "/copy.realm"
        try realm.writeCopy(toFile: copy)
        XCTAssertLessThan(fileSize(copy), space.fileBytes / 2)
        XCTAssertLessThanOrEqual(fileSize(copy), space.usedBytes + 4 * 4096)
        XCTAssertEqual(access(copy + "-creating", F_OK), -1, "no build file is left behind")
        // The source stays open and writable; the copy is a realm of its own.
        try realm.write { try self.createPerson(realm, id: 9999) }
        let copied = try open(path: copy)
        try assertHoldsTheSurvivors(copied)
        XCTAssertEqual(try copied.version(), try realm.version() - 1, "the copy holds the version before the last commit")
        try copied.write { try self.createPerson(copied, id: 10_000) }
        XCTAssertNil(try realm.object(realm.classInfo(named: "Person"), primaryKey: .int(10_000)))
    }

    /// One transaction that creates objects and deletes them again may leave pages that LMDB
    /// counts but never wrote past the file's end: free pages, not damage (see
    /// LMDBEnvironmentTruncationTests). Copies and compaction on launch go ahead.
    func testPagesAllocatedAndFreedInOneWriteAreNotDamage() throws {
        let realm = try open(Self.personSchema) { try self.createPerson($0, id: 1, name: "Kept") }
        try realm.write {
            let person = try realm.classInfo(named: "Person")
            for id in 2...3000 { try self.createPerson(realm, id: Int64(id), name: String(repeating: "x", count: 100)) }
            XCTAssertEqual(try realm.objects(person).filter("id > 1").deleteAll(), 2999)
        }
        let space = try realm.fileSpace()
        try realm.writeCopy(toFile: directory + "/copy.realm")
        realm.close()
        let compacted = try open { $0.shouldCompactOnLaunch = { _ in true } }
        XCTAssertLessThan(fileSize(path), space.fileBytes)
        XCTAssertEqual(try compacted.objectCount(compacted.classInfo(named: "Person")), 1)
        _ = try compacted.check()
        compacted.close()
        let copy = try open(path: directory + "/copy.realm")
        XCTAssertEqual(try copy.objectCount(copy.classInfo(named: "Person")), 1)
    }

    func testWriteCopyRefusals() throws {
        let realm = try open(Self.personSchema) { try self.createPerson($0, id: 1) }
        let copy = directory + "/copy.realm"
        try realm.writeCopy(toFile: copy)
        let before = fileSize(copy)
        assertThrows(.fileAccess) { try realm.writeCopy(toFile: copy) }  // exists: never overwritten
        XCTAssertEqual(fileSize(copy), before)
        assertThrows(.fileAccess) { try realm.writeCopy(toFile: self.path) }
        assertThrows(.fileAccess) { try realm.writeCopy(toFile: self.directory + "/missing/copy.realm") }
        assertThrows(.invalidArgument) { try realm.writeCopy(toFile: "") }
        try realm.beginWrite()
        assertThrows(.wrongTransactionState) { try realm.writeCopy(toFile: self.directory + "/other.realm") }
        try realm.cancelWrite()
        realm.close()
        assertThrows(.closedRealm) { try realm.writeCopy(toFile: self.directory + "/other.realm") }
        assertThrows(.closedRealm) { _ = try realm.fileSpace() }
    }

    func testInMemoryRealmCopiesToAFile() throws {
        let memory = try open(path: "compaction-memory") { $0.inMemory = true }
        try memory.write { try self.createPerson(memory, id: 7, name: "Kept") }
        let copy = directory + "/from-memory.realm"
        try memory.writeCopy(toFile: copy)
        memory.close()
        let realm = try open(path: copy)
        XCTAssertEqual(try value(XCTUnwrap(realm.object(realm.classInfo(named: "Person"), primaryKey: .int(7))), "name"), .string("Kept"))
    }

    func testCompactOnLaunchReplacesTheFileWhenAsked() throws {
        try makeMostlyFreeFile()
        let before = fileSize(path)
        var seen: [FileSpace] = []
        let realm = try open { $0.shouldCompactOnLaunch = { space in seen.append(space); return true } }
        XCTAssertEqual(seen.count, 1)
        XCTAssertEqual(seen.first?.fileBytes, before)
        XCTAssertLessThan(fileSize(path), before / 2)
        XCTAssertEqual(access(path + "-compacting", F_OK), -1)
        try assertHoldsTheSurvivors(realm)
        try realm.write { try self.createPerson(realm, id: 20_000) }  // writable, on the new file
        realm.close()
        let reopened = try open()
        XCTAssertNotNil(try reopened.object(reopened.classInfo(named: "Person"), primaryKey: .int(20_000)))
    }

    func testCompactOnLaunchDeclinedOrFailedLeavesTheFile() throws {
        try makeMostlyFreeFile()
        let before = fileSize(path)
        try open { $0.shouldCompactOnLaunch = { _ in false } }.close()
        XCTAssertEqual(fileSize(path), before)
        struct Refused: Error {}
        XCTAssertThrowsError(try open { $0.shouldCompactOnLaunch = { _ in throw Refused() } }) { XCTAssertTrue($0 is Refused) }
        XCTAssertEqual(fileSize(path), before)
        try assertHoldsTheSurvivors(try open())
    }

    func testCompactOnLaunchWaitsForTheLastHandle() throws {
        try makeMostlyFreeFile()
        let before = fileSize(path)
        let first = try open()
        var calls = 0
        let second = try open { $0.shouldCompactOnLaunch = { _ in calls += 1; return true } }
        XCTAssertEqual(calls, 0, "not asked while this process has the file open")
        XCTAssertEqual(fileSize(path), before)
        first.close()
        second.close()
        // Not for in-memory or read-only realms either.
        try open(path: "compaction-memory-2") { $0.inMemory = true; $0.shouldCompactOnLaunch = { _ in calls += 1; return true } }.close()
        try open { $0.readOnly = true; $0.shouldCompactOnLaunch = { _ in calls += 1; return true } }.close()
        XCTAssertEqual(calls, 0)
    }

    func testCompactionFunctionCannotOpenTheSameFile() throws {
        try makeMostlyFreeFile()
        var inner: Error?
        let realm = try open {
            $0.shouldCompactOnLaunch = { _ in
                do { _ = try self.open() } catch { inner = error }
                return false
            }
        }
        XCTAssertEqual((inner as? DBError)?.code, .logic)
        try assertHoldsTheSurvivors(realm)
    }

    func testOtherThreadsWaitForTheCompaction() throws {
        try makeMostlyFreeFile()
        let started = Counter()
        var other: TestThread?
        let realm = try open {
            $0.shouldCompactOnLaunch = { _ in
                // Another thread opens the file while this one compacts it: it must wait, then
                // open the compacted file (never the replaced one) and write to it.
                other = try spawn {
                    started.increment()
                    let realm = try self.open()
                    XCTAssertEqual(try realm.objectCount(realm.classInfo(named: "Person")), 500)
                    try realm.write { try self.createPerson(realm, id: 30_000) }
                    realm.close()
                }
                XCTAssertTrue(started.wait(atLeast: 1, seconds: 10))
                usleep(50_000)
                return true
            }
        }
        other?.join()
        _ = try realm.refresh()
        XCTAssertNotNil(try realm.object(realm.classInfo(named: "Person"), primaryKey: .int(30_000)), "both handles share one file")
        try assertHoldsTheSurvivorsAnd30000(realm)
    }

    private func assertHoldsTheSurvivorsAnd30000(_ realm: Realm) throws {
        XCTAssertEqual(try realm.objectCount(realm.classInfo(named: "Person")), 501)
        _ = try realm.check()
    }
}
