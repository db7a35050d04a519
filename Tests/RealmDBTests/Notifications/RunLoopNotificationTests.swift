import Foundation
import XCTest
@testable import RealmDB

/// Notifications as programs get them: through the thread's run loop, for commits of this
/// thread, of other threads and of other processes, with blocks that call back into the library.
final class RunLoopNotificationTests: RealmTestCase {
    func testInitialThenOtherThreadsCommitsWithoutRefresh() throws {
        let realm = try openRealm()
        var changes: [String] = []
        let token = realm.objects(Dog.self).filter("age < 5").observe { change in
            switch change {
            case .initial(let dogs): changes.append("initial \(dogs.count)")
            case .update(let dogs, let deletions, let insertions, let modifications):
                changes.append("update \(dogs.count) -\(deletions) +\(insertions) ~\(modifications)")
            case .error(let error): changes.append("error \(error)")
            }
        }
        runLoop(until: { changes.count == 1 })
        XCTAssertEqual(changes, ["initial 0"])
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 2])) }
        }
        runLoop(until: { changes.count == 2 })
        XCTAssertEqual(changes.last, "update 1 -[] +[0] ~[]")
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 1)!.name = "Rexy" }
        }
        runLoop(until: { changes.count == 3 })
        XCTAssertEqual(changes.last, "update 1 -[] +[] ~[0]")
        token.invalidate()
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 2, "age": 1])) }
        }
        spinRunLoop(0.3)
        XCTAssertEqual(changes.count, 3, "nothing after invalidate()")
    }

    func testAnotherProcessesCommitsArriveAndSeeOurs() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 2])) }
        var insertions: [[Int]] = []
        var initial = false
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        let token = dogs.observe { change in
            if case .initial = change { initial = true }
            if case .update(_, _, let inserted, _) = change { insertions.append(inserted) }
        }
        defer { token.invalidate() }
        // (Until the initial call, later commits fold into it: it reports the newest version.)
        runLoop(until: { initial })
        // Python, through libdb.so: reads the Swift commit, then commits a dog of its own.
        let output = try PythonProcess.run("""
            import realmdb
            with realmdb.open(PATH) as realm:
                rex = realm.object_for_primary_key("Dog", 1)
                assert rex.name == "Rex" and rex.age == 2, (rex.name, rex.age)
                with realm.write():
                    realm.create("Dog", {"id": 2, "name": "Py", "age": 4})
            print("ok")
            """, realmPath: configuration.fileURL!.path)
        XCTAssertEqual(output, "ok\n")
        runLoop(until: { !insertions.isEmpty })
        XCTAssertEqual(insertions, [[1]])
        XCTAssertEqual(dogs.map(\.name), ["Rex", "Py"])
    }

    func testBlocksMayReadAndWriteTheRealm() throws {
        let realm = try openRealm()
        var seen: [[String]] = []
        var initial = false
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        let token = dogs.observe { change in
            if case .initial = change { initial = true }
            guard case .update(let dogs, _, _, _) = change else { return }
            seen.append(dogs.map(\.name))
            // A block that writes: unnamed dogs get a name (a second notification follows).
            let unnamed = dogs.filter("name == ''")
            if !unnamed.isEmpty {
                try! realm.write { unnamed.setValue("Unnamed", forKey: "name") }
            }
        }
        defer { token.invalidate() }
        // The initial call first: a commit that lands before it folds into it, with no update.
        runLoop(until: { initial })
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }
        runLoop(until: { seen.count >= 2 })
        XCTAssertEqual(seen.prefix(2).map { $0 }, [[""], ["Unnamed"]])
        XCTAssertEqual(realm.objects(Dog.self).first?.name, "Unnamed")
    }

    func testKeyPathsSelectWhatCountsAsAModification() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 2])) }
        var updates = 0
        let token = realm.objects(Dog.self).observe(keyPaths: ["name"]) { change in
            if case .update = change { updates += 1 }
        }
        defer { token.invalidate() }
        let dog = realm.objects(Dog.self)[0]
        try realm.write { dog.age = 3 }
        spinRunLoop(0.2)
        XCTAssertEqual(updates, 0, "age is not observed")
        try realm.write { dog.name = "Rexy" }
        runLoop(until: { updates == 1 })
    }

    func testWriteWithoutNotifying() throws {
        let realm = try openRealm()
        var updates = 0
        let token = realm.objects(Dog.self).observe { change in
            if case .update = change { updates += 1 }
        }
        defer { token.invalidate() }
        spinRunLoop(0.05)
        try realm.write(withoutNotifying: [token]) { realm.add(Dog(value: ["id": 1])) }
        spinRunLoop(0.2)
        XCTAssertEqual(updates, 0)
        try realm.write { realm.add(Dog(value: ["id": 2])) }
        runLoop(until: { updates == 1 })
    }

    func testInvalidatingFromInsideTheBlock() throws {
        let realm = try openRealm()
        var calls = 0
        var token: NotificationToken?
        token = realm.objects(Dog.self).observe { _ in
            calls += 1
            token?.invalidate()
        }
        runLoop(until: { calls == 1 })
        try realm.write { realm.add(Dog(value: ["id": 1])) }
        spinRunLoop(0.2)
        XCTAssertEqual(calls, 1)
        XCTAssertTrue(token!.isInvalidated)
    }

    func testReleasingTheRealmWhileObservedFromAnotherThreadsCommits() throws {
        var calls = 0
        weak var engine: AnyObject?
        do {
            let realm = try openRealm()
            engine = realm.handle.engine
            let token = realm.objects(Dog.self).observe { _ in calls += 1 }
            runLoop(until: { calls == 1 })
            token.invalidate()
        }
        // Run-loop delivery does not keep the engine realm (and its file) open.
        XCTAssertNil(engine, "the engine realm closes with its handle")
        // The handle is gone; commits of another thread must not wake anything that crashes.
        for id in 0..<20 {
            onOtherThread {
                let realm = try self.openRealm()
                try realm.write { realm.add(Dog(value: ["id": id])) }
            }
        }
        spinRunLoop(0.2)
        XCTAssertEqual(calls, 1)
    }
}

extension RunLoopNotificationTests {
    func testObservingWrongGivesAnErrorNotACrash() throws {
        let realm = try openRealm()
        var errors: [RealmError.Code] = []
        let badPath = realm.objects(Dog.self).observe(keyPaths: ["nosuch"]) { change in
            if case .error(let error) = change { errors.append((error as? RealmError)?.code ?? .internal) }
        }
        XCTAssertTrue(badPath.isInvalidated)
        try realm.write {
            _ = realm.objects(Dog.self).observe { change in
                if case .error(let error) = change { errors.append((error as? RealmError)?.code ?? .internal) }
            }
        }
        let frozen = realm.freeze().objects(Dog.self).observe { change in
            if case .error(let error) = change { errors.append((error as? RealmError)?.code ?? .internal) }
        }
        XCTAssertTrue(frozen.isInvalidated)
        XCTAssertEqual(errors, [.invalidArgument, .wrongTransactionState, .logic])
    }
}

extension RunLoopNotificationTests {
    /// A realm that was observed closes (its file and its version released) when the program
    /// lets go of it, with no commit to deliver: the registrations hold the results they watch,
    /// which hold the realm, so it used to stay open until a delivery that might never come.
    func testAnObservedRealmClosesWhenReleased() throws {
        weak var engine: AnyObject?
        do {
            let realm = try openRealm()
            engine = realm.handle.engine
        }
        XCTAssertNil(engine, "never observed")
        do {
            let realm = try openRealm()
            engine = realm.handle.engine
            let token = realm.objects(Dog.self).observe { _ in }
            token.invalidate()
        }
        XCTAssertNil(engine, "observed, invalidated before any call")
        var calls = 0
        do {
            let realm = try openRealm()
            engine = realm.handle.engine
            let dogs = realm.objects(Dog.self)
            let token = dogs.observe { _ in calls += 1 }
            let other = dogs.filter("age > 1").observe { _ in }
            runLoop(until: { calls == 1 })
            _ = (token, other)  // released, not invalidated
        }
        XCTAssertNil(engine, "observed, tokens released")
        // The file is free: another thread writes and reads it as usual.
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 1])) }
        }
        spinRunLoop(0.2)
        XCTAssertEqual(calls, 1)
    }
}
