import Foundation
import Synchronization

/// Storage key path → index of its field in its class's fields (`ObjectSchemaDiscovery`), read
/// at every access to a `@Persisted` property, so without a lock: readers probe an immutable
/// table reached through an atomic pointer; a writer copies it with the new entry and
/// publishes the copy. Tables are never freed (a reader may still be probing an old one); there
/// is one entry per persisted property of the program, so they stay small.
///
/// Keyed by the key path object, which is kept alive here, so that its address cannot be
/// reused for another: Swift makes one object per key path literal.
enum FieldIndexTable {
    /// Slot 0 holds the capacity (a power of two) in `index`; slots 1... the entries, an empty
    /// one with `keyPath` 0.
    private struct Entry {
        var keyPath: UInt
        var index: Int
    }

    private static let current = Atomic<UInt>(0)
    private static let writer = NSLock()
    nonisolated(unsafe) private static var keyPaths: [AnyKeyPath] = []  // guarded by `writer`
    nonisolated(unsafe) private static var entries: [(keyPath: UInt, index: Int)] = []  // guarded by `writer`

    @inline(__always) private static func slot(of keyPath: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(keyPath) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The index recorded for `keyPath`, or nil.
    static func index(of keyPath: AnyKeyPath) -> Int? {
        let address = current.load(ordering: .acquiring)
        guard let table = UnsafePointer<Entry>(bitPattern: address) else { return nil }
        let id = UInt(bitPattern: ObjectIdentifier(keyPath))
        let mask = table[0].index - 1
        var slot = slot(of: id, mask: mask)
        while true {
            let entry = table[1 + slot]
            if entry.keyPath == id { return entry.index }
            if entry.keyPath == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Records the index of `keyPath` (again is harmless).
    static func record(_ keyPath: AnyKeyPath, index: Int) {
        writer.withLock {
            let id = UInt(bitPattern: ObjectIdentifier(keyPath))
            guard !entries.contains(where: { $0.keyPath == id }) else { return }
            keyPaths.append(keyPath)
            entries.append((id, index))
            var capacity = 8
            while capacity < entries.count * 2 { capacity *= 2 }
            let table = UnsafeMutablePointer<Entry>.allocate(capacity: capacity + 1)
            table.initialize(repeating: Entry(keyPath: 0, index: 0), count: capacity + 1)
            table[0].index = capacity
            for entry in entries {
                var slot = slot(of: entry.keyPath, mask: capacity - 1)
                while table[1 + slot].keyPath != 0 { slot = (slot + 1) & (capacity - 1) }
                table[1 + slot] = Entry(keyPath: entry.keyPath, index: entry.index)
            }
            current.store(UInt(bitPattern: table), ordering: .releasing)
        }
    }
}
