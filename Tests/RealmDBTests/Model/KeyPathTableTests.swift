import Foundation
import Synchronization
import XCTest
@testable import RealmDB

/// The lock-free table of key paths: every recorded key path is found with its own value, one
/// never recorded is not, while other threads record and read at the same time.
final class KeyPathTableTests: XCTestCase {
    func testReadersSeeEveryRecordedIndexAndNoWrongOneWhileAWriterGrowsTheTable() {
        // Key paths with a subscript argument are distinct objects, one per evaluation.
        let keyPaths: [AnyKeyPath] = (0..<600).map { \[Int].[$0] }
        let unrecorded: AnyKeyPath = \[Int].[-1]
        let recorded = Atomic<Int>(0)
        let wrong = Atomic<Int>(0)
        let table = KeyPathTable()
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            if thread == 0 {
                for (index, keyPath) in keyPaths.enumerated() {
                    table.record(keyPath, value: index + 1000)
                    recorded.store(index + 1, ordering: .releasing)
                }
                table.record(keyPaths[0], value: 7)  // again: the first value stays
                return
            }
            var round = 0
            while recorded.load(ordering: .acquiring) < keyPaths.count || round < 3 {
                let known = recorded.load(ordering: .acquiring)
                for (index, keyPath) in keyPaths.enumerated() {
                    let found = table.value(for: keyPath)
                    if index < known ? found != index + 1000 : (found != nil && found != index + 1000) {
                        wrong.add(1, ordering: .relaxed)
                    }
                }
                if table.value(for: unrecorded) != nil { wrong.add(1, ordering: .relaxed) }
                round += 1
            }
        }
        XCTAssertEqual(wrong.load(ordering: .relaxed), 0)
        XCTAssertEqual(table.value(for: keyPaths[0]), 1000)
        XCTAssertEqual(table.value(for: keyPaths[599]), 1599)
    }
}
