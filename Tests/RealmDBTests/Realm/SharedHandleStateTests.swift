import CoreEngine
import Foundation
import XCTest
@testable import RealmDB

/// What a thread's handles of a realm share, and how it ends: it closes its engine realm when
/// the last handle goes, even when that happens inside the realm's own delivery.
final class SharedHandleStateTests: RealmTestCase {
    /// The last handle of a realm can go inside the realm's own delivery: a block that held the
    /// realm is dropped when the engine prepares a delivery, under the realm's lock. The realm
    /// is then closed by the delivery's end, not under that lock (where closing took the commit
    /// watcher's lock against the lock order, fatal in debug builds).
    func testTheLastHandleReleasedByItsOwnDeliveryClosesAfterIt() throws {
        var calls = 0
        var engine: CoreEngine.Realm?
        do {
            let realm = try openRealm()
            engine = realm.handle.engine
            let token = realm.objects(Dog.self).observe { _ in
                calls += 1
                _ = realm.objects(Dog.self).count  // the block holds the realm
            }
            runLoop(until: { calls == 1 })
            token.invalidate()  // dropped at the engine's next delivery, with the realm it holds
        }
        let closed = { engine?.isClosed ?? false }
        XCTAssertFalse(closed(), "held by its own notifier until it delivers")
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }
        let deadline = Date().addingTimeInterval(5)
        while !closed() && Date() < deadline { spinRunLoop(0.05) }
        XCTAssertTrue(closed(), "closed once the delivery that dropped its last handle ended")
        XCTAssertEqual(calls, 1)
    }
}
