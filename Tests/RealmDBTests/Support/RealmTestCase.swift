import Foundation
import XCTest
import RealmDB

/// A test with its own directory and a configuration of the test models there.
class RealmTestCase: XCTestCase {
    var directory: URL!
    var configuration: Realm.Configuration!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("realmdb-swift-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("test.realm"),
                                            objectTypes: [Dog.self, Person.self, Toy.self, AllTypes.self])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func openRealm() throws -> Realm { try Realm(configuration: configuration) }

    /// Runs this thread's run loop until `condition` holds (or fails after `timeout` seconds).
    func runLoop(until condition: () -> Bool, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting on the run loop", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }

    /// Waits, without running the run loop, until `condition` holds (or fails after `timeout`
    /// seconds): for blocks called on a queue, an actor or another thread.
    func waitFor(_ condition: () -> Bool, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { XCTFail("timed out", file: file, line: line); return }
            usleep(5_000)
        }
    }

    /// Registers each observation (whose block appends "error" to `log` on `.error`) in turn and
    /// waits for its one error, then invalidates it.
    func expectOneErrorEach(_ log: QueueNotificationTests.Log, _ observations: [() -> NotificationToken],
                            file: StaticString = #filePath, line: UInt = #line) {
        for observe in observations {
            let token = observe()
            defer { token.invalidate() }
            waitFor({ log.all.count == 1 }, file: file, line: line)
            log.removeAll()
        }
    }

    /// Runs the run loop for a while, for checking that nothing arrives.
    func spinRunLoop(_ seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
    }

    /// Runs `body` on a new thread (with its own realm handles) and waits for it.
    func onOtherThread(_ body: @escaping () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        let done = expectation(description: "other thread")
        var failure: Error?
        let thread = Thread {
            do { try body() } catch { failure = error }
            done.fulfill()
        }
        thread.start()
        wait(for: [done], timeout: 30)
        if let failure { XCTFail("other thread: \(failure)", file: file, line: line) }
    }
}
