import XCTest
@testable import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

/// `Realm.reserveWrite()` and `releaseWriteReservation()`: waiting for the turn to write on
/// another thread, so that the realm's own thread begins its write without waiting.
final class RealmWriteReservationTests: RealmTestCase {
    private func personExists(_ realm: Realm, _ id: Int64) throws -> Bool {
        try realm.object(realm.classInfo(named: "Person"), primaryKey: .int(id)) != nil
    }

    func testAReservationWaitsForTheWriterThenHoldsOffTheNext() throws {
        let realm = try open()
        let writing = Counter(), reserved = Counter(), laterWriterBegan = Counter()
        let released = DispatchSemaphoreLite()
        // A writer on another thread holds the file.
        let writer = try spawn {
            let other = try self.open()
            try other.beginWrite()
            try self.createPerson(other, id: 1)
            writing.increment()
            released.wait()
            try other.commitWrite()
            other.close()
        }
        XCTAssertTrue(writing.wait(atLeast: 1, seconds: 30))
        let waiter = try spawn {
            try realm.reserveWrite()  // on a thread that is not the realm's
            reserved.increment()
        }
        usleep(200_000)
        XCTAssertEqual(reserved.value, 0, "the reservation waits while another thread writes")
        released.signal()
        writer.join()
        waiter.join()
        XCTAssertEqual(reserved.value, 1)
        // Another writer now waits for this realm, which has not begun its write yet.
        var laterSawOurObject = false
        let later = try spawn {
            let other = try self.open()
            try other.beginWrite()
            laterWriterBegan.increment()
            laterSawOurObject = try self.personExists(other, 2)
            try other.cancelWrite()
            other.close()
        }
        usleep(200_000)
        XCTAssertEqual(laterWriterBegan.value, 0, "a reserved turn holds off other writers")
        try realm.beginWrite()  // without waiting: the turn is this realm's
        XCTAssertTrue(try personExists(realm, 1), "the write starts from the latest version")
        try createPerson(realm, id: 2)
        try realm.commitWrite()
        later.join()
        XCTAssertTrue(laterSawOurObject, "the later writer began after this realm committed")
    }

    func testReservationStatesAndRelease() throws {
        let realm = try open()
        XCTAssertFalse(try realm.releaseWriteReservation(), "nothing to give back")
        try realm.reserveWrite()
        assertThrows(.wrongTransactionState) { try realm.reserveWrite() }
        XCTAssertTrue(try realm.releaseWriteReservation())
        XCTAssertFalse(try realm.releaseWriteReservation())
        // Given back: another thread writes at once.
        let other = try spawn {
            let second = try self.open()
            try second.write { try self.createPerson(second, id: 7) }
            second.close()
        }
        other.join()
        try realm.beginWrite()
        assertThrows(.wrongTransactionState) { try realm.reserveWrite() }
        try realm.cancelWrite()
        // The next write uses the reservation; the turn goes back at its end.
        try realm.reserveWrite()
        try realm.write { try self.createPerson(realm, id: 8) }
        XCTAssertFalse(try realm.releaseWriteReservation(), "the write used the reservation")

        let frozen = try realm.freeze()
        assertThrows(.logic) { try frozen.reserveWrite() }
        realm.close()
        let readOnly = try open(configure: { $0.readOnly = true; $0.schema = nil })
        assertThrows(.readOnly) { try readOnly.reserveWrite() }
    }

    func testASecondHandleOnTheSameThreadIsAnErrorNotADeadlock() throws {
        let a = try open(), b = try open()
        try a.reserveWrite()
        assertThrows(.wrongTransactionState) { try b.beginWrite() }
        assertThrows(.wrongTransactionState) { try b.reserveWrite() }
        try a.beginWrite()
        try a.cancelWrite()
        try b.beginWrite()
        try b.cancelWrite()
    }

    func testClosingEndsAWaitAndGivesTheTurnBack() throws {
        let realm = try open()
        let writing = Counter(), waitEnded = Counter()
        let released = DispatchSemaphoreLite()
        let writer = try spawn {
            let other = try self.open()
            try other.beginWrite()
            writing.increment()
            released.wait()
            try other.commitWrite()
            other.close()
        }
        XCTAssertTrue(writing.wait(atLeast: 1, seconds: 30))
        var outcome: DBError.Code?
        let waiter = try spawn {
            do { try realm.reserveWrite() } catch let error as DBError { outcome = error.code }
            waitEnded.increment()
        }
        usleep(100_000)
        realm.close()
        XCTAssertTrue(waitEnded.wait(atLeast: 1, seconds: 30), "closing the realm ends the wait")
        waiter.join()
        XCTAssertEqual(outcome, .closedRealm)
        released.signal()
        writer.join()

        // A realm closed while it holds a reservation gives the turn back.
        let holder = try open()
        try holder.reserveWrite()
        holder.close()
        let next = try open()
        try next.write { try self.createPerson(next, id: 3) }
        XCTAssertTrue(try personExists(next, 3))
    }
}
