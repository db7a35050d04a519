import CoreEngine

/// The plain writes this thread made through one realm, most recent run: the realm's change
/// counter went from `base` to `top` through them alone. A value read ahead at a counter value
/// in that run is then still what the realm shows, unless its object was written in the run.
///
/// A plain write sets a single value that is not a link (nor mixed, which may hold one): it
/// changes that property of that object and nothing else a read can see. Without this, every
/// write moved the counter and made every value read ahead stale, so a loop that writes the
/// objects it iterates (`for dog in dogs { dog.age += 1 }`) read each object again alone
/// (bench/swift phase h). Any other change (a create, a delete, a link, a collection, a commit,
/// a refresh, a cancelled write) moves the counter without extending the run, which ends it.
/// The Python binding keeps the same record (`_own_writes.py`).
struct OwnPlainWrites {
    /// The most objects a run records; the next plain write starts a new run (values read
    /// before it are then read again: bounded memory for a loop writing millions of objects).
    static let limit = 16384

    private var base: UInt64 = 0
    private var top: UInt64 = 0
    private var written = WrittenObjects()

    /// Whether `info` is written plainly (see above).
    static func isPlain(_ info: PropertyInfo) -> Bool {
        guard info.collection == .none else { return false }
        switch info.type {
        case .object, .linkingObjects, .mixed: return false
        default: return true
        }
    }

    /// Notes that the counter went from `before` to `after` through one plain write of the
    /// object `key` of `table`, made by this thread in its write transaction, and successful.
    mutating func note(from before: UInt64, to after: UInt64, table: UInt32, key: Int64) {
        if base != 0 && top == before && written.count < Self.limit {
            top = after
        } else {
            base = before
            top = after
            written.removeAll()
        }
        written.insert(table: table, key: key)
    }

    /// Whether a value of the object `key` of `table`, read at counter value `stamp`, is still
    /// current at `now`: only plain writes of other objects happened since.
    func keepsCurrent(readAt stamp: UInt64, now: UInt64, table: UInt32, key: Int64) -> Bool {
        covers(from: stamp, to: now) && !written.contains(table: table, key: key)
    }

    /// Whether the counter went from `stamp` to `now` through this run's plain writes alone.
    func covers(from stamp: UInt64, to now: UInt64) -> Bool {
        base != 0 && top == now && base <= stamp
    }
}

extension RealmHandle {
    /// Runs `write`, a write of the object `key` of `table` through this handle, and notes it as
    /// a plain write (see `OwnPlainWrites`) when `isPlain`: the counter's move across it is this
    /// write's alone.
    @inline(__always)
    func recordingWrite(of table: UInt32, key: Int64, isPlain: Bool, _ write: () throws -> Void) throws {
        let counter = engine.changeCounter.address
        let before = counter.pointee
        try write()
        if isPlain { shared.ownPlainWrites.note(from: before, to: counter.pointee, table: table, key: key) }
    }
}
