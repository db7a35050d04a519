import XCTest
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

final class RealmTransactionTests: RealmTestCase {
    func testCommitIsVisibleAfterReopen() throws {
        do {
            let realm = try open()
            try realm.beginWrite()
            try createPerson(realm, id: 1, name: "Ann")
            try realm.commitWrite()
            realm.close()
        }
        let realm = try open()
        let person = try realm.classInfo(named: "Person")
        XCTAssertEqual(try realm.objectCount(person), 1)
        XCTAssertEqual(try value(XCTUnwrap(realm.object(person, primaryKey: .int(1))), "name"), .string("Ann"))
    }

    func testCancelDiscardsTheWrite() throws {
        let realm = try open()
        try realm.beginWrite()
        try createPerson(realm, id: 1)
        try realm.cancelWrite()
        XCTAssertEqual(try realm.objectCount(realm.classInfo(named: "Person")), 0)
        XCTAssertFalse(realm.isInWriteTransaction)
    }

    func testTransactionStateErrors() throws {
        let realm = try open()
        assertThrows(.wrongTransactionState) { try createPerson(realm, id: 1) }
        assertThrows(.wrongTransactionState) { try realm.commitWrite() }
        assertThrows(.wrongTransactionState) { try realm.cancelWrite() }
        try realm.beginWrite()
        assertThrows(.wrongTransactionState) { try realm.beginWrite() }
        assertThrows(.wrongTransactionState) { try realm.refresh() }
        assertThrows(.wrongTransactionState) { try realm.invalidate() }
        try realm.cancelWrite()
    }

    func testReadersKeepTheirSnapshotUntilRefresh() throws {
        let writer = try open()
        let reader = try open()
        let person = try reader.classInfo(named: "Person")
        XCTAssertEqual(try reader.objectCount(person), 0)
        try writer.beginWrite()
        try createPerson(writer, id: 1)
        try writer.commitWrite()
        XCTAssertEqual(try reader.objectCount(person), 0, "MVCC: the reader's pinned version does not change")
        XCTAssertTrue(try reader.refresh())
        XCTAssertEqual(try reader.objectCount(person), 1)
        XCTAssertFalse(try reader.refresh(), "already at the latest version")
        XCTAssertEqual(try reader.version(), try writer.version())
    }

    func testInvalidateReleasesThePinnedVersion() throws {
        let writer = try open()
        let reader = try open()
        _ = try reader.version()
        try writer.beginWrite(); try createPerson(writer, id: 1); try writer.commitWrite()
        XCTAssertEqual(try reader.activeVersionCount(), 2)
        try reader.invalidate()
        XCTAssertEqual(try reader.activeVersionCount(), 1)
        XCTAssertEqual(try reader.objectCount(reader.classInfo(named: "Person")), 1, "the next read pins the latest version")
    }

    func testMaxActiveVersionsFailsBeforeWriting() throws {
        let pinned = try open()
        _ = try pinned.version()  // pins the current version
        let writer = try open { $0.maxActiveVersions = 1 }
        assertThrows(.tooManyActiveVersions) { try writer.beginWrite() }
        XCTAssertFalse(writer.isInWriteTransaction)
        try pinned.invalidate()
        try writer.beginWrite()  // nothing else pinned: allowed
        try writer.commitWrite()
    }

    func testSecondWriterWaitsForTheFirst() throws {
        let first = try open()
        try first.beginWrite()
        try createPerson(first, id: 1)
        let started = DispatchSemaphoreLite()
        var secondSawFirstCommit = false
        let thread = Thread {
            let second = try! self.open()
            started.signal()
            try! second.beginWrite()  // blocks until `first` commits
            secondSawFirstCommit = (try? second.object(second.classInfo(named: "Person"), primaryKey: .int(1))) != nil
            try! second.cancelWrite()
            second.close()
        }
        thread.start()
        started.wait()
        usleep(200_000)
        try first.commitWrite()
        thread.join()
        XCTAssertTrue(secondSawFirstCommit, "the second writer started after the first committed and saw its object")
    }

    func testSameThreadSecondHandleWriteIsAnErrorNotADeadlock() throws {
        let a = try open(), b = try open()
        try a.beginWrite()
        assertThrows(.wrongTransactionState) { try b.beginWrite() }
        try a.cancelWrite()
        try b.beginWrite()
        try b.cancelWrite()
    }

    func testInMemoryRealmsAreSharedByIdentifierAndVanish() throws {
        let schema = RealmTestCase.personSchema
        let a = try open(schema, path: "shared-id") { $0.inMemory = true }
        let b = try open(schema, path: "shared-id") { $0.inMemory = true }
        try a.beginWrite(); try createPerson(a, id: 7); try a.commitWrite()
        try b.refresh()
        XCTAssertEqual(try b.objectCount(b.classInfo(named: "Person")), 1)
        let file = try XCTUnwrap(a.filePath)
        a.close(); b.close()
        XCTAssertNotEqual(access(file, F_OK), 0, "the temporary file is deleted with the last handle")
        let c = try open(schema, path: "shared-id") { $0.inMemory = true }
        XCTAssertEqual(try c.objectCount(c.classInfo(named: "Person")), 0)
    }

    func testReadOnlyRealm() throws {
        do {
            let realm = try open()
            try realm.beginWrite(); try createPerson(realm, id: 1); try realm.commitWrite()
        }
        let realm = try open { $0.readOnly = true }
        XCTAssertEqual(try realm.objectCount(realm.classInfo(named: "Person")), 1)
        assertThrows(.readOnly) { try realm.beginWrite() }
        assertThrows(.fileAccess) { _ = try self.open(path: self.directory + "/missing.realm") { $0.readOnly = true } }
    }

    func testClosedRealmErrors() throws {
        let realm = try open()
        try realm.beginWrite()
        let object = try createPerson(realm, id: 1)
        try realm.commitWrite()
        realm.close()
        realm.close()
        XCTAssertTrue(realm.isClosed)
        XCTAssertFalse(try object.isValid())
        assertThrows(.closedRealm) { _ = try object.value(of: object.classInfo.properties[0]) }
        assertThrows(.closedRealm) { try realm.beginWrite() }
    }

    func testEachCommitRecordsItsChanges() throws {
        let realm = try open()
        try realm.beginWrite()
        let ann = try createPerson(realm, id: 1)
        let bob = try createPerson(realm, id: 2)
        try realm.commitWrite()
        try realm.beginWrite()
        let name = ann.classInfo.property(named: "name")!
        try ann.setValue(.string("Anna"), for: name)
        try bob.delete()
        try createPerson(realm, id: 3)
        let set = try realm.commitWrite()
        let table = ann.classInfo.tableID
        XCTAssertEqual(set.tables[table]?.modifications, [name.columnID: [ann.key]])
        XCTAssertEqual(set.tables[table]?.deletions, [bob.key])
        XCTAssertEqual(set.tables[table]?.insertions, [bob.key + 1])
        XCTAssertEqual(try realm.commitRecord(version: set.version), set, "the record is stored with the commit")
    }

    func testNotARealmFileIsAFormatError() throws {
        let file = fopen(path, "w")!
        fputs(String(repeating: "not a database ", count: 1000), file)
        fclose(file)
        assertThrows(.fileFormat) { _ = try self.open() }
    }
}

/// A tiny semaphore (Dispatch is not needed for anything else).
final class DispatchSemaphoreLite: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var count = 0
    init() { pthread_mutex_init(&mutex, nil); pthread_cond_init(&condition, nil) }
    func signal() { pthread_mutex_lock(&mutex); count += 1; pthread_cond_signal(&condition); pthread_mutex_unlock(&mutex) }
    func wait() { pthread_mutex_lock(&mutex); while count == 0 { pthread_cond_wait(&condition, &mutex) }; count -= 1; pthread_mutex_unlock(&mutex) }
}

/// A joinable thread over pthreads.
final class Thread: @unchecked Sendable {
    private let body: () -> Void
    private var handle = pthread_t()
    init(_ body: @escaping () -> Void) { self.body = body }
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&handle, nil, { context in
            let thread = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
            thread.body()
            return nil
        }, context)
    }
    func join() { pthread_join(handle, nil) }
}
