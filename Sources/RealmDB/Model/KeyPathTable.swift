import Foundation
import Synchronization

/// Key path → a number found for it once, read at every access to a `@Persisted` property, so
/// without a lock: readers probe an immutable table reached through an atomic pointer; a writer
/// copies it with the new entry and publishes the copy. Tables are never freed (a reader may
/// still be probing an old one); there is one entry per persisted property of the program, so
/// they stay small. Two tables: each storage key path's field index
/// (`ObjectSchemaDiscovery.fieldIndexes`) and its storage's offset in the instance
/// (`ObjectSchemaDiscovery.storageOffsets`).
///
/// Keyed by the key path object, which is kept alive here, so that its address cannot be
/// reused for another: Swift makes one object per key path literal.
final class KeyPathTable: Sendable {
    /// Slot 0 holds the capacity (a power of two) in `value`; slots 1... the entries, an empty
    /// one with `keyPath` 0.
    private struct Entry {
        var keyPath: UInt
        var value: Int
    }

    private let current = Atomic<UInt>(0)
    private let writer = NSLock()
    nonisolated(unsafe) private var keyPaths: [AnyKeyPath] = []  // guarded by `writer`
    nonisolated(unsafe) private var entries: [(keyPath: UInt, value: Int)] = []  // guarded by `writer`

    @inline(__always) private static func slot(of keyPath: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(keyPath) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The value recorded for `keyPath`, or nil.
    func value(for keyPath: AnyKeyPath) -> Int? {
        let address = current.load(ordering: .acquiring)
        guard let table = UnsafePointer<Entry>(bitPattern: address) else { return nil }
        let id = UInt(bitPattern: ObjectIdentifier(keyPath))
        let mask = table[0].value - 1
        var slot = Self.slot(of: id, mask: mask)
        while true {
            let entry = table[1 + slot]
            if entry.keyPath == id { return entry.value }
            if entry.keyPath == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Records the value of `keyPath` (again is harmless: the first value stays).
    func record(_ keyPath: AnyKeyPath, value: Int) {
        writer.withLock {
            let id = UInt(bitPattern: ObjectIdentifier(keyPath))
            guard !entries.contains(where: { $0.keyPath == id }) else { return }
            keyPaths.append(keyPath)
            entries.append((id, value))
            var capacity = 8
            while capacity < entries.count * 2 { capacity *= 2 }
            let table = UnsafeMutablePointer<Entry>.allocate(capacity: capacity + 1)
            table.initialize(repeating: Entry(keyPath: 0, value: 0), count: capacity + 1)
            table[0].value = capacity
            for entry in entries {
                var slot = Self.slot(of: entry.keyPath, mask: capacity - 1)
                while table[1 + slot].keyPath != 0 { slot = (slot + 1) & (capacity - 1) }
                table[1 + slot] = Entry(keyPath: entry.keyPath, value: entry.value)
            }
            current.store(UInt(bitPattern: table), ordering: .releasing)
        }
    }
}
