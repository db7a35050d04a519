// The C benchmark's workload (bench/c/peers_bench.c, from ../shared/bench/peers.py) through the
// typed Swift API, written as a Swift program would write it (one object at a time), beside the
// same operations through the engine directly (CoreEngine, what RealmDB wraps): the difference
// is what the typed layer costs. Every answer is checked against the workload's expected values.
//
//   bench/run_swift_bench.sh [N]        (builds in release, writes the workload, runs this)
//   realmdb-swift-bench <workload file> [scratch directory]
import CoreEngine
import Foundation
import RealmDB

final class Person: RealmDB.Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var name: String
    @Persisted var age: Int
    @Persisted var score: Double
    @Persisted var city: String

    override class func compoundIndexes() -> [[String]] { [["age", "name"], ["city", "age"]] }
}

struct Row { let id: Int; let name: String; let age: Int; let score: Double; let city: String }

struct Workload {
    var rows: [Row] = []
    var reads: [Int] = []
    var c = 0, dCount = 0, dSum = 0, eCount = 0, eSum = 0, gID = 0, gAge = 0
    var fSum = 0.0
    var gName = ""

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields[0] {
            case "row": rows.append(Row(id: Int(fields[1])!, name: fields[2], age: Int(fields[3])!, score: Double(fields[4])!, city: fields[5]))
            case "read": reads.append(Int(fields[1])!)
            case "expect":
                (c, dCount, dSum, eCount, eSum) = (Int(fields[1])!, Int(fields[2])!, Int(fields[3])!, Int(fields[4])!, Int(fields[5])!)
                fSum = Double(fields[6])!
                (gID, gAge, gName) = (Int(fields[7])!, Int(fields[8])!, fields[9])
            default: break
            }
        }
    }
}

let queryRepeats = 20
let top = 100

func check(_ condition: Bool, _ what: String) {
    if !condition {
        FileHandle.standardError.write("realmdb-swift-bench: wrong answer: \(what)\n".data(using: .utf8)!)
        exit(1)
    }
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Phase a..j, seconds each.
typealias Phases = [String: Double]

/// The phases through RealmDB, as the README teaches: each one's work, timed by `runTyped` and
/// profiled alone by `profileTyped`.
struct TypedPhases {
    let realm: RealmDB.Realm
    let w: Workload
    var people: RealmDB.Results<Person> { realm.objects(Person.self) }

    func a() throws {
        try realm.write {
            for row in w.rows {
                let person = Person()
                person.id = row.id
                person.name = row.name
                person.age = row.age
                person.score = row.score
                person.city = row.city
                realm.add(person)
            }
        }
    }

    func b() {
        var ageSum = 0
        for id in w.reads {
            let person = realm.object(ofType: Person.self, forPrimaryKey: id)!
            ageSum += person.age
            _ = (person.id, person.name, person.score, person.city)
        }
        check(ageSum > 0, "b")
    }

    func c() { check(people.where { $0.age > 50 }.count == w.c, "c") }

    func d() {
        let ids = people.where { $0.age.contains(20...30) && $0.city == "city_7" }.map(\.id)
        check(ids.count == w.dCount && ids.reduce(0, +) == w.dSum, "d")
    }

    func e() {
        let ids = people.where { $0.name.starts(with: "ab") }.map(\.id)
        check(ids.count == w.eCount && ids.reduce(0, +) == w.eSum, "e")
    }

    // The same three through the batch reads (value(forKey:)), which Realm's SDK offers too.
    func dBatch() {
        let ids = people.where { $0.age.contains(20...30) && $0.city == "city_7" }.value(forKey: "id").map { $0 as! Int }
        check(ids.count == w.dCount && ids.reduce(0, +) == w.dSum, "d batch")
    }

    func eBatch() {
        let ids = people.where { $0.name.starts(with: "ab") }.value(forKey: "id").map { $0 as! Int }
        check(ids.count == w.eCount && ids.reduce(0, +) == w.eSum, "e batch")
    }

    func gBatch() {
        let first = people.sorted(by: [SortDescriptor(keyPath: \Person.age), SortDescriptor(keyPath: \Person.name)]).prefix(top)
        let ids = first.value(forKey: "id"), ages = first.value(forKey: "age"), names = first.value(forKey: "name")
        check(ids.count == top && ids[0] as? Int == w.gID && ages[0] as? Int == w.gAge && names[0] as? String == w.gName, "g batch")
    }

    func f() {
        let sum: Double = people.sum(of: \Person.score)
        let average: Double? = people.average(of: \Person.score)
        check(abs(sum - w.fSum) <= 1e-6 * abs(w.fSum) && average != nil, "f")
    }

    func g() {
        let first = people.sorted(by: [SortDescriptor(keyPath: \Person.age), SortDescriptor(keyPath: \Person.name)]).prefix(top)
        let rows = first.map { ($0.id, $0.age, $0.name) }
        check(rows.count == top && rows[0].0 == w.gID && rows[0].1 == w.gAge && rows[0].2 == w.gName, "g")
    }

    func h() throws {
        try realm.write {
            for person in people { person.score += 1 }
        }
    }

    func i() throws {
        try realm.write {
            for id in stride(from: 2, through: w.rows.count, by: 2) {
                realm.delete(realm.object(ofType: Person.self, forPrimaryKey: id)!)
            }
        }
    }
}

/// Through RealmDB, as the README teaches.
func runTyped(_ w: Workload, path: String) throws -> Phases {
    var phases: Phases = [:]
    let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Person.self])
    do {
        let typed = TypedPhases(realm: try Realm(configuration: configuration), w: w)
        phases["a"] = try time { try typed.a() }
        phases["b"] = time { typed.b() }
        phases["c"] = time { for _ in 0..<queryRepeats { typed.c() } }
        phases["d"] = time { for _ in 0..<queryRepeats { typed.d() } }
        phases["e"] = time { for _ in 0..<queryRepeats { typed.e() } }
        phases["d batch"] = time { for _ in 0..<queryRepeats { typed.dBatch() } }
        phases["e batch"] = time { for _ in 0..<queryRepeats { typed.eBatch() } }
        phases["g batch"] = time { for _ in 0..<queryRepeats { typed.gBatch() } }
        phases["f"] = time { for _ in 0..<queryRepeats { typed.f() } }
        phases["g"] = time { for _ in 0..<queryRepeats { typed.g() } }
        phases["h"] = try time { try typed.h() }
        phases["i"] = try time { try typed.i() }
    }
    phases["j"] = try time {
        let realm = try Realm(configuration: configuration)
        check(realm.objects(Person.self).count == w.rows.count - w.rows.count / 2, "j")
    }
    return phases
}

/// Runs one typed phase (`reps` times, once for a, h and i) inside `profiledPhase`, after the
/// insert it needs, for `bench/run_swift_bench.sh --callgrind`, which counts the instructions of
/// that call alone; prints how many operations it made (objects for a, b, h, i; queries else).
func profileTyped(_ phase: String, reps: Int, _ w: Workload, path: String) throws {
    let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Person.self])
    let typed = TypedPhases(realm: try Realm(configuration: configuration), w: w)
    if phase != "a" { try typed.a() }
    let queries: [String: () -> Void] = [
        "c": typed.c, "d": typed.d, "e": typed.e, "f": typed.f, "g": typed.g,
        "d-batch": typed.dBatch, "e-batch": typed.eBatch, "g-batch": typed.gBatch,
    ]
    let operations: Int
    switch phase {
    case "a": try profiledPhase { try typed.a() }; operations = w.rows.count
    case "b": profiledPhase { for _ in 0..<reps { typed.b() } }; operations = reps * w.reads.count
    case "h": try profiledPhase { try typed.h() }; operations = w.rows.count
    case "i": try profiledPhase { try typed.i() }; operations = w.rows.count / 2
    default:
        guard let query = queries[phase] else {
            FileHandle.standardError.write("realmdb-swift-bench: no phase \(phase) to profile (a, b, c, d, e, f, g, h, i, d-batch, e-batch, g-batch)\n".data(using: .utf8)!)
            exit(2)
        }
        profiledPhase { for _ in 0..<reps { query() } }
        operations = reps
    }
    print("operations \(operations)")
}

/// The call `--callgrind` counts the instructions of (see `profileTyped`).
@inline(never) func profiledPhase(_ body: () throws -> Void) rethrows { try body() }

/// The same operations through the engine (CoreEngine) directly: one call per object where the
/// typed run makes one, values as the engine's `Value`s.
func runEngine(_ w: Workload, path: String) throws -> Phases {
    var phases: Phases = [:]
    var configuration = RealmConfiguration(path: path)
    let properties = [
        Property(name: "id", type: .int, isPrimaryKey: true), Property(name: "name", type: .string, isIndexed: true),
        Property(name: "age", type: .int), Property(name: "score", type: .double), Property(name: "city", type: .string),
    ]
    configuration.schema = try Schema([ObjectSchema(name: "Person", properties: properties,
                                                    compoundIndexes: [["age", "name"], ["city", "age"]])])
    do {
        let realm = try CoreEngine.Realm(configuration: configuration)
        let person = try realm.classInfo(named: "Person")
        let p = ["id", "name", "age", "score", "city"].map { person.property(named: $0)! }
        phases["a"] = try time {
            try realm.beginWrite()
            for row in w.rows {
                _ = try realm.create(person, values: [(p[0], .int(Int64(row.id))), (p[1], .string(row.name)), (p[2], .int(Int64(row.age))),
                                                      (p[3], .double(row.score)), (p[4], .string(row.city))])
            }
            _ = try realm.commitWrite()
        }
        var ageSum: Int64 = 0
        phases["b"] = try time {
            for id in w.reads {
                let object = try realm.object(person, primaryKey: .int(Int64(id)))!
                if case .int(let age) = try object.value(of: p[2]) { ageSum += age }
                _ = try object.values(of: [p[0], p[1], p[3], p[4]])
            }
        }
        check(ageSum > 0, "b")
        let all = realm.objects(person)
        phases["c"] = try time {
            for _ in 0..<queryRepeats { check(try all.filter("age > $0", arguments: [.value(.int(50))]).count() == w.c, "c") }
        }
        func ids(_ results: CoreEngine.Results) throws -> [Int64] {
            try results.values(of: p[0]).map { if case .int(let id) = $0 { return id } else { return 0 } }
        }
        phases["d"] = try time {
            for _ in 0..<queryRepeats {
                let found = try ids(try all.filter("age BETWEEN {$0, $1} AND city == $2",
                                                   arguments: [.value(.int(20)), .value(.int(30)), .value(.string("city_7"))]))
                check(found.count == w.dCount && Int(found.reduce(0, +)) == w.dSum, "d")
            }
        }
        phases["e"] = try time {
            for _ in 0..<queryRepeats {
                let found = try ids(try all.filter("name BEGINSWITH $0", arguments: [.value(.string("ab"))]))
                check(found.count == w.eCount && Int(found.reduce(0, +)) == w.eSum, "e")
            }
        }
        phases["f"] = try time {
            for _ in 0..<queryRepeats {
                guard case .double(let sum)? = try all.aggregate(.sum, of: p[3]) else { return check(false, "f") }
                _ = try all.aggregate(.average, of: p[3])
                check(abs(sum - w.fSum) <= 1e-6 * abs(w.fSum), "f")
            }
        }
        phases["g"] = try time {
            for _ in 0..<queryRepeats {
                let first = try all.sorted(by: [CoreEngine.SortDescriptor(p[2]), CoreEngine.SortDescriptor(p[1])]).limit(top)
                let ids = try first.values(of: p[0]), ages = try first.values(of: p[2]), names = try first.values(of: p[1])
                check(ids.count == top && ids[0] == .int(Int64(w.gID)) && ages[0] == .int(Int64(w.gAge)) && names[0] == .string(w.gName), "g")
            }
        }
        phases["h"] = try time {
            try realm.beginWrite()
            let snapshot = try all.snapshot()
            for index in 0..<(try snapshot.count()) {
                let object = try snapshot.object(at: index)
                if case .double(let score) = try object.value(of: p[3]) { try object.setValue(.double(score + 1), for: p[3]) }
            }
            _ = try realm.commitWrite()
        }
        phases["i"] = try time {
            try realm.beginWrite()
            for id in stride(from: 2, through: w.rows.count, by: 2) {
                try realm.object(person, primaryKey: .int(Int64(id)))!.delete()
            }
            _ = try realm.commitWrite()
        }
        realm.close()
    }
    phases["j"] = try time {
        let realm = try CoreEngine.Realm(configuration: configuration)
        check(try realm.objectCount(try realm.classInfo(named: "Person")) == w.rows.count - w.rows.count / 2, "j")
        realm.close()
    }
    return phases
}

var arguments = Array(CommandLine.arguments.dropFirst())
var profiled: (phase: String, reps: Int)?
if arguments.first == "--profile" {
    guard arguments.count >= 4, let reps = Int(arguments[2]), reps > 0 else {
        FileHandle.standardError.write("usage: realmdb-swift-bench --profile PHASE REPS <workload file> [scratch directory] (REPS > 0)\n".data(using: .utf8)!)
        exit(2)
    }
    profiled = (arguments[1], reps)
    arguments.removeFirst(3)
}
guard !arguments.isEmpty else {
    FileHandle.standardError.write("usage: realmdb-swift-bench [--profile PHASE REPS] <workload file> [scratch directory]\n".data(using: .utf8)!)
    exit(2)
}
let workload: Workload
do {
    workload = try Workload(path: arguments[0])
} catch {
    FileHandle.standardError.write("realmdb-swift-bench: cannot read the workload \(arguments[0]): \(error.localizedDescription)\n".data(using: .utf8)!)
    exit(2)
}
let scratch = arguments.count > 1 ? arguments[1] : NSTemporaryDirectory()
let n = workload.rows.count
func path(_ name: String) -> String {
    let file = (scratch as NSString).appendingPathComponent("swift-bench-\(getpid())-\(name).realm")
    for suffix in ["", "-lock"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    return file
}
if let profiled {
    let file = path("profile")
    try profileTyped(profiled.phase, reps: profiled.reps, workload, path: file)
    for suffix in ["", "-lock"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    exit(0)
}
// Engine first, then typed, then engine again and typed again: the medians of two alternated runs.
var engineRuns: [Phases] = [], typedRuns: [Phases] = []
for round in 0..<2 {
    engineRuns.append(try runEngine(workload, path: path("engine\(round)")))
    typedRuns.append(try runTyped(workload, path: path("typed\(round)")))
}
for round in 0..<2 { for name in ["engine\(round)", "typed\(round)"] { for suffix in ["", "-lock"] { try? FileManager.default.removeItem(atPath: path(name) + suffix) } } }

let phaseNames: [(String, String, Int)] = [
    ("a", "insert, one object at a time, 1 txn", n), ("b", "point read by primary key, 5 properties", workload.reads.count),
    ("c", "count age > 50", queryRepeats), ("d", "ids of age 20..30 AND city", queryRepeats),
    ("e", "ids of name BEGINSWITH 'ab'", queryRepeats), ("f", "sum + avg(score)", queryRepeats),
    ("g", "sorted by age, name: first 100, 3 properties each", queryRepeats), ("h", "score += 1 on every object, 1 txn", n),
    ("i", "delete half by primary key, 1 txn", n / 2), ("j", "reopen + count", 1),
]
func best(_ runs: [Phases], _ phase: String) -> Double { runs.map { $0[phase]! }.min()! }
func format(_ seconds: Double, _ count: Int) -> String {
    let per = seconds / Double(count)
    return per >= 1e-3 ? String(format: "%.2f ms", per * 1e3) : String(format: "%.2f µs", per * 1e6)
}
print("N = \(n); best of 2 alternated runs; per operation (per object for a, b, h, i; per query for c-g)")
print("")
print("| phase | engine (CoreEngine) | RealmDB, one object at a time | ratio | RealmDB, batch read | ratio |")
print("|---|---:|---:|---:|---:|---:|")
for (phase, title, count) in phaseNames {
    let engineSeconds = best(engineRuns, phase), typedSeconds = best(typedRuns, phase)
    var row = "| \(phase) \(title) | \(format(engineSeconds, count)) | \(format(typedSeconds, count)) | \(String(format: "%.2f", typedSeconds / engineSeconds))x |"
    if typedRuns[0]["\(phase) batch"] != nil {
        let batchSeconds = best(typedRuns, "\(phase) batch")
        row += " \(format(batchSeconds, count)) | \(String(format: "%.2f", batchSeconds / engineSeconds))x |"
    } else {
        row += " | |"
    }
    print(row)
}
