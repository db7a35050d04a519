import XCTest
@testable import CoreEngine

/// The lock order of LockOrder.swift, checked in debug builds: a blocking acquisition against
/// the order is reported; re-entry, `tryLock` and acquisitions in order are not.
final class LockOrderTests: XCTestCase {
    private var violations: [String] = []

    override func setUp() {
        violations = []
        LockOrderChecker.violationHandler = { [unowned self] in self.violations.append($0) }
    }

    override func tearDown() {
        LockOrderChecker.violationHandler = nil
    }

    func testLocksTakenInOrderPass() {
        let callback = RecursiveLock(level: .callback, name: "token")
        let scheduler = RecursiveLock(level: .scheduler, name: "subscriber")
        let realm = RecursiveLock(level: .realm, name: "realm")
        let leaf = RecursiveLock(level: .leaf, name: "table")
        callback.withLock { scheduler.withLock { realm.withLock { realm.withLock { leaf.withLock {} } } } }
        XCTAssertEqual(violations, [])
        XCTAssertTrue(LockOrderChecker.held.entries.isEmpty, "every lock released")
    }

    func testTakingATokenUnderARealmIsReported() {
        let realm = RecursiveLock(level: .realm, name: "realm")
        let token = RecursiveLock(level: .callback, name: "token delivery")
        realm.withLock { token.withLock {} }
        XCTAssertEqual(violations.count, 1)
        XCTAssertTrue(violations[0].contains("taking token delivery (callback) while holding realm (realm)"), violations[0])
    }

    func testTwoLeavesOrTwoRealmsNestedAreReported() {
        let a = RecursiveLock(level: .leaf, name: "a"), b = RecursiveLock(level: .leaf, name: "b")
        a.withLock { b.withLock {} }
        let r1 = RecursiveLock(level: .realm, name: "r1"), r2 = RecursiveLock(level: .realm, name: "r2")
        r1.withLock { r2.withLock {} }
        XCTAssertEqual(violations.count, 2)
    }

    func testTryLockOutOfOrderIsAllowed() {
        let realm = RecursiveLock(level: .realm, name: "realm")
        let scheduler = RecursiveLock(level: .scheduler, name: "subscriber")
        let leaf = RecursiveLock(level: .leaf, name: "table")
        leaf.withLock {
            if realm.tryLock() {
                realm.unlock()
            }
        }
        scheduler.withLock {}
        XCTAssertEqual(violations, [])
    }

    func testTokensMayNest() {
        let first = RecursiveLock(level: .callback, name: "token 1"), second = RecursiveLock(level: .callback, name: "token 2")
        first.withLock { second.withLock {} }
        XCTAssertEqual(violations, [])
    }

    /// Every engine path the notification tests drive runs with the checker on (debug builds stop
    /// at a violation); this one mixes a callback that reads its results, closes a scheduler and
    /// invalidates its own token.
    func testANotificationCallbackThatCallsBackIntoTheRealmKeepsTheOrder() throws {
        var template = Array("/tmp/realmdb-lockorder-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer { unlink(directory + "/t.realm"); unlink(directory + "/t.realm-lock"); rmdir(directory) }
        var configuration = RealmConfiguration(path: directory + "/t.realm")
        configuration.schema = RealmTestCase.personSchema
        let realm = try Realm(configuration: configuration)
        defer { realm.close() }
        try realm.setScheduler {}
        let person = try realm.classInfo(named: "Person")
        let people = realm.objects(person)
        var counts: [Int] = []
        var token: NotificationToken?
        token = try people.observe { _ in
            counts.append((try? people.count()) ?? -1)
            if counts.count == 2 {
                try? realm.setScheduler(nil)
                token?.invalidate()
            }
        }
        try realm.refresh()
        try realm.beginWrite()
        _ = try realm.create(person, values: [(person.property(named: "id")!, .int(1)), (person.property(named: "name")!, .string("a")),
                                              (person.property(named: "score")!, .double(0))])
        try realm.commitWrite()
        XCTAssertEqual(counts, [0, 1])
        XCTAssertEqual(violations, [])
    }
}
