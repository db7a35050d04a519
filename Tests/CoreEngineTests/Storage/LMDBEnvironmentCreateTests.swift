import XCTest
import Dispatch
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// Creating a file: complete under `<path>-creating`, then renamed into place; leftovers reused,
/// concurrent creators sharing one file (LMDBEnvironment+Create).
final class LMDBEnvironmentCreateTests: RealmTestCase {
    private func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private func inode(_ path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    private func write(_ path: String, bytes: Int) {
        var generator = SystemRandomNumberGenerator()
        let data = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        data.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
    }

    private func personCount(_ realm: Realm) throws -> Int {
        try realm.objects(realm.classInfo(named: "Person")).count()
    }

    private func addPerson(_ realm: Realm, id: Int64) throws {
        try realm.beginWrite()
        try createPerson(realm, id: id)
        try realm.commitWrite()
    }

    func testANewFileIsCompleteBeforeItHasItsName() throws {
        try LMDBEnvironment.createFileIfMissing(at: path)
        XCTAssertTrue(exists(path))
        XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: path)))
        XCTAssertFalse(exists(path + "-lock"), "the file was built without a lock file")
        // A realmdb file with nothing committed: a dynamic read-only open reads it.
        let readOnly = try open(nil) { $0.readOnly = true }
        XCTAssertEqual(try readOnly.version(), 0)
        XCTAssertTrue(readOnly.schema.objectSchemas.isEmpty)
        readOnly.close()
        // Opening it with a schema treats it as new: no migration function runs.
        var migrated = false
        let realm = try open(version: 3, migration: { _, _ in migrated = true })
        XCTAssertFalse(migrated)
        XCTAssertEqual(try realm.schemaVersion(), 3)
        XCTAssertEqual(try realm.version(), 1, "the schema's commit is the file's first")
    }

    func testOpeningCreatesNoOtherFiles() throws {
        let realm = try open()
        try addPerson(realm, id: 1)
        realm.close()
        let names = try FileManagerLike.names(in: directory)
        XCTAssertEqual(names, ["test.realm", "test.realm-lock"])
    }

    func testACrashedCreatorsFileIsReusedAndRemoved() throws {
        for size in [0, 100, 4096, 50_000] {
            let target = directory + "/leftover-\(size).realm"
            write(LMDBEnvironment.creationPath(for: target), bytes: size)
            let realm = try open(path: target)
            try addPerson(realm, id: 7)
            realm.close()
            XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: target)), "size \(size)")
            XCTAssertEqual(try personCount(try open(path: target)), 1)
        }
    }

    func testASecondNameOfAnotherRealmIsNotEmptied() throws {
        // What a crash inside link-then-unlink leaves (file systems without renameat2).
        let other = directory + "/other.realm"
        let first = try open(path: other)
        try addPerson(first, id: 1)
        first.close()
        XCTAssertEqual(link(other, LMDBEnvironment.creationPath(for: path)), 0)
        let created = try open()
        XCTAssertEqual(try personCount(created), 0)
        XCTAssertNotEqual(inode(path), inode(other))
        XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: path)))
        XCTAssertEqual(try personCount(try open(path: other)), 1)
    }

    func testAStaleLockFileIsReplaced() throws {
        write(path + "-lock", bytes: 8192)
        let realm = try open()
        try addPerson(realm, id: 1)
        realm.close()
        XCTAssertEqual(try personCount(try open()), 1)
    }

    func testAnExistingFileIsLeftAsItIs() throws {
        let realm = try open()
        try addPerson(realm, id: 1)
        let before = inode(path)
        realm.close()
        try LMDBEnvironment.createFileIfMissing(at: path)
        XCTAssertEqual(inode(path), before)
        XCTAssertEqual(try personCount(try open()), 1)
        XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: path)))
    }

    func testConcurrentCreatorsShareOneFile() throws {
        // Each call opens its own descriptor of <path>-creating, so the creators' locks exclude
        // each other as those of processes do.
        for round in 0..<25 {
            let target = directory + "/shared-\(round).realm"
            let inodes = NSLockLike()
            var seen: [ino_t?] = []
            var failures: [String] = []
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    try LMDBEnvironment.createFileIfMissing(at: target)
                    let number = inode(target)
                    inodes.locked { seen.append(number) }
                } catch {
                    inodes.locked { failures.append("\(error)") }
                }
            }
            XCTAssertEqual(failures, [], "round \(round)")
            XCTAssertEqual(Set(seen.compactMap { $0 }).count, 1, "round \(round): every creator saw one file")
            XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: target)), "round \(round)")
            let realm = try open(path: target)
            try addPerson(realm, id: 1)
            realm.close()
        }
    }

    func testReadOnlyOpenOfAMissingFileCreatesNothing() throws {
        assertThrows(.fileAccess) { _ = try open(configure: { $0.readOnly = true }) }
        XCTAssertEqual(try FileManagerLike.names(in: directory), [])
    }

    func testInMemoryRealmsAreNotCreatedThroughATemporaryName() throws {
        let realm = try open(path: "creation-test-memory") { $0.inMemory = true }
        try addPerson(realm, id: 1)
        let file = try XCTUnwrap(realm.filePath)
        XCTAssertFalse(exists(LMDBEnvironment.creationPath(for: file)))
        realm.close()
        XCTAssertFalse(exists(file))
        XCTAssertEqual(try FileManagerLike.names(in: directory), [])
    }

    func testAnUnwritableDirectoryIsAFileAccessError() throws {
        if geteuid() == 0 { throw XCTSkip("root may write anywhere") }
        let locked = directory + "/locked"
        XCTAssertEqual(mkdir(locked, 0o555), 0)
        defer { rmdir(locked) }
        assertThrows(.fileAccess) { _ = try open(path: locked + "/x.realm") }
    }
}

/// Directory listings for the tests (sorted names, without "." and "..").
enum FileManagerLike {
    static func names(in directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw XCTSkip("cannot list \(directory)") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
