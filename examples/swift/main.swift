// A live query in Swift: `swift run realmdb-swift-example`.
// Opens a realm, observes the dogs younger than 5, and writes from another thread; the block on
// this thread's run loop sees each commit.
import Foundation
import RealmDB

final class Dog: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realmdb-swift-example-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("dogs.realm"), objectTypes: [Dog.self])

let realm = try Realm(configuration: configuration)
let puppies = realm.objects(Dog.self).filter("age < %@", 5).sorted(byKeyPath: "name")
var calls = 0
let token = puppies.observe { change in
    calls += 1
    switch change {
    case .initial(let dogs):
        print("initial: \(dogs.count) puppies")
    case .update(let dogs, let deletions, let insertions, let modifications):
        print("update: \(dogs.map(\.name)) deleted \(deletions) inserted \(insertions) modified \(modifications)")
    case .error(let error):
        print("error: \(error)")
    }
}

// Another thread writes: it opens its own handle of the same file.
let writer = Thread {
    let realm = try! Realm(configuration: configuration)
    for (id, name, age) in [(1, "Rex", 2), (2, "Fido", 7), (3, "Bella", 1)] {
        try! realm.write { realm.add(Dog(value: ["id": id, "name": name, "age": age])) }
    }
    try! realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 3)!.age = 4 }
}
writer.start()

let deadline = Date().addingTimeInterval(10)
while puppies.count < 2 || calls < 2, Date() < deadline {
    RunLoop.current.run(until: Date().addingTimeInterval(0.05))
}
RunLoop.current.run(until: Date().addingTimeInterval(0.3))
token.invalidate()
print("puppies now: \(puppies.map { "\($0.name) (\($0.age))" })")
