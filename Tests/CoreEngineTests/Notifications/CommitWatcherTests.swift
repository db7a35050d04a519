import XCTest
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
@testable import CoreEngine

/// The commit watcher and a realm's scheduler, driven as a host's event loop drives them: the
/// scheduler only signals the owner's loop, which refreshes; callbacks call back into the realm.
final class CommitWatcherTests: RealmTestCase {
    /// The owner's event loop: waits for wake-ups and refreshes, as `attach_loop` does.
    private final class OwnerLoop: @unchecked Sendable {
        let wakes = Counter()
        var handled = 0

        /// Refreshes once per wake-up until `done()` holds (or `seconds` pass).
        func run(_ realm: Realm, seconds: Double, until done: () -> Bool) throws {
            let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + seconds
            while !done() && Double(DispatchTime.now().uptimeNanoseconds) / 1e9 < deadline {
                if wakes.value > handled {
                    handled = wakes.value
                    try realm.refresh()
                } else {
                    usleep(1_000)
                }
            }
        }
    }

    private func openPeople() throws -> (Realm, ClassInfo) {
        let realm = try open()
        return (realm, try realm.classInfo(named: "Person"))
    }

    private func commitPeople(_ ids: Range<Int64>, pauseMicroseconds: UInt32 = 0) throws -> TestThread {
        let path = self.path
        return try spawn {
            var configuration = RealmConfiguration(path: path)
            configuration.schema = RealmTestCase.personSchema
            let writer = try Realm(configuration: configuration)
            defer { writer.close() }
            for id in ids {
                try writer.beginWrite()
                try self.createPerson(writer, id: id)
                try writer.commitWrite()
                if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
            }
        }
    }

    /// The deadlock of issue 13: the callback holds its token while the watcher computes
    /// changesets ahead under the realm's lock; the callback then reads its results (the realm's
    /// lock). Before the lock order, the watcher waited for the token under the realm's lock.
    func testACallbackReadingItsResultsWhileTheWatcherComputesAheadDoesNotDeadlock() throws {
        let finished = Counter()
        let counts = CountsBox()
        let path = self.path
        let owner = try spawn {
            var configuration = RealmConfiguration(path: path)
            configuration.schema = RealmTestCase.personSchema
            let realm = try Realm(configuration: configuration)
            defer { realm.close() }
            let loop = OwnerLoop()
            try realm.setScheduler { loop.wakes.increment() }
            let people = realm.objects(try realm.classInfo(named: "Person"))
            let token = try people.observe { change in
                // After the first commit, hold the token while the next commit lands and the
                // watcher wakes.
                if !change.isInitial && counts.values.count == 1 { usleep(600_000) }
                counts.append((try? people.count()) ?? -1)
            }
            try loop.run(realm, seconds: 20) { counts.values.last == 2 }
            token.invalidate()
            finished.increment()
        }
        XCTAssertTrue(counts.wait(count: 1, seconds: 10), "the initial call arrived through the scheduler")
        let first = try commitPeople(1..<2)
        first.join()
        usleep(200_000)  // the owner is now inside the callback for the first commit
        let second = try commitPeople(2..<3)
        second.join()
        XCTAssertTrue(finished.wait(atLeast: 1, seconds: 15), "the owner's loop deadlocked (counts so far: \(counts.values))")
        owner.join()
        XCTAssertEqual(counts.values.first, 0)
        XCTAssertEqual(counts.values.last, 2)
    }

    /// A registration's initial call is delivered through the scheduler, without a commit.
    func testTheInitialCallArrivesThroughTheScheduler() throws {
        let (realm, person) = try openPeople()
        defer { realm.close() }
        let wakes = Counter()
        try realm.setScheduler { wakes.increment() }
        XCTAssertTrue(wakes.wait(atLeast: 1, seconds: 2), "setting the scheduler wakes the host once")
        let before = wakes.value
        var calls: [CollectionChange] = []
        let token = try realm.objects(person).observe { calls.append($0) }
        XCTAssertTrue(wakes.wait(atLeast: before + 1, seconds: 2), "a new observer wakes the host for its initial call")
        try realm.refresh()
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.isInitial ?? false)
        try realm.setScheduler(nil)
        _ = token
    }

    /// Every commit from another thread reaches an owner that refreshes only when woken: the
    /// last commit is seen within the watcher's longest interval, never left for a later commit.
    func testEveryCommitReachesAnOwnerThatRefreshesOnlyWhenWoken() throws {
        let (realm, person) = try openPeople()
        defer { realm.close() }
        let loop = OwnerLoop()
        try realm.setScheduler { loop.wakes.increment() }
        let people = realm.objects(person)
        var seen = 0
        var mostLate = 0.0
        let token = try people.observe { _ in seen = (try? people.count()) ?? -1 }
        for round in 0..<20 {
            let base = Int64(round * 10)
            let writer = try commitPeople(base..<(base + 10), pauseMicroseconds: UInt32.random(in: 0...3000))
            writer.join()
            let committed = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
            let target = Int(base) + 10
            let deadline = committed + 2
            try loop.run(realm, seconds: deadline - committed) { seen >= target }
            mostLate = max(mostLate, Double(DispatchTime.now().uptimeNanoseconds) / 1e9 - committed)
            XCTAssertEqual(seen, target, "round \(round): the last commit was not announced")
        }
        XCTAssertLessThan(mostLate, 1.0, "a commit took \(mostLate) s to be announced")
        try realm.setScheduler(nil)
        token.invalidate()
    }

    /// What `latestReadableVersion` reports is what a new read transaction sees.
    func testTheAnnouncedVersionIsTheReadableOne() throws {
        let (realm, _) = try openPeople()
        defer { realm.close() }
        let environment = try XCTUnwrap(realm.environment)
        try realm.beginWrite()
        try createPerson(realm, id: 1)
        try realm.commitWrite()
        let readable = try XCTUnwrap(environment.latestReadableVersion())
        XCTAssertEqual(readable, environment.latestWrittenVersion())
        try realm.refresh()
        XCTAssertEqual(realm.transaction?.lmdb.snapshotID, readable)
    }
}

/// Counts recorded by a callback on another thread.
final class CountsBox: @unchecked Sendable {
    private let lock = NSLockLike()
    private var stored: [Int] = []
    var values: [Int] { lock.locked { stored } }
    func append(_ value: Int) { lock.locked { stored.append(value) } }
    func wait(count: Int, seconds: Double) -> Bool {
        let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + seconds
        while values.count < count {
            if Double(DispatchTime.now().uptimeNanoseconds) / 1e9 > deadline { return false }
            usleep(2_000)
        }
        return true
    }
}
