import Foundation
import XCTest
import RealmDB

/// The same file driven from Swift and, in another process, from Python through libdb.so:
/// each sees the other's commits and gets notified of them on its own event loop.
final class CrossProcessTests: RealmTestCase {
    /// Python observes on an asyncio loop (the path its README teaches) while Swift commits;
    /// Python's callback reads the objects back through the library.
    func testPythonIsNotifiedOfSwiftCommits() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        let python = try PythonProcess("""
            import asyncio, realmdb
            async def main():
                with realmdb.open(PATH) as realm:
                    realm.attach_loop()
                    seen = asyncio.Event()
                    names = []
                    def changed(results, changes):
                        names.append(sorted(dog.name for dog in results))
                        if "FromSwift" in names[-1]:
                            seen.set()
                    token = realm.objects("Dog").observe(changed)
                    await asyncio.sleep(0.2)
                    print("ready", names[-1])
                    await asyncio.wait_for(seen.wait(), 20)
                    print("seen", names[-1])
                    token.invalidate()
            asyncio.run(main())
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(python.readLine(), "ready ['Rex']")
        try realm.write { realm.add(Dog(value: ["id": 2, "name": "FromSwift"])) }
        XCTAssertEqual(python.readLine(), "seen ['FromSwift', 'Rex']")
        let (status, errors) = python.finish()
        XCTAssertEqual(status, 0, errors)
    }

    /// A loop that writes the objects it iterates (plain values, written by key) is one commit
    /// of modifications that Python's observer gets on its event loop and reads back.
    func testPythonSeesTheModificationsOfALoopThatWritesWhatItIterates() throws {
        let realm = try openRealm()
        try realm.write { for id in 0..<50 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) } }
        let python = try PythonProcess("""
            import asyncio, realmdb
            async def main():
                with realmdb.open(PATH) as realm:
                    realm.attach_loop()
                    seen = asyncio.Event()
                    def changed(results, changes):
                        if not changes.initial and changes.modifications:
                            ages = [dog.age for dog in results]
                            print("modified", len(changes.modifications), changes.modifications[:3], ages[:3], sum(ages), flush=True)
                            seen.set()
                    token = realm.objects("Dog").sorted("id").observe(changed)
                    await asyncio.sleep(0.2)
                    print("ready", flush=True)
                    await asyncio.wait_for(seen.wait(), 20)
                    token.invalidate()
            asyncio.run(main())
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(python.readLine(), "ready")
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        try realm.write { for dog in dogs { dog.age += 100 } }
        XCTAssertEqual(python.readLine(), "modified 50 [0, 1, 2] [100, 101, 102] \((0..<50).reduce(0, +) + 50 * 100)")
        let (status, errors) = python.finish()
        XCTAssertEqual(status, 0, errors)
    }

    /// A writer process killed inside its write transaction loses its write, and the file stays
    /// writable: Swift's next write goes through and nothing committed before is lost.
    func testAWriterKilledMidTransactionLeavesTheFileWritable() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex"])) }
        let python = try PythonProcess("""
            import os, signal, realmdb
            realm = realmdb.open(PATH)
            realm.begin_write()
            realm.create("Dog", {"id": 2, "name": "Lost", "age": 1})
            print("writing", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(python.readLine(), "writing")
        let (status, errors) = python.finish()
        XCTAssertEqual(status, 9, "killed by SIGKILL: \(errors)")
        try realm.write { realm.add(Dog(value: ["id": 3, "name": "After"])) }
        realm.refresh()
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "id").map(\.name), ["Rex", "After"])
    }
}
