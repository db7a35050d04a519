/// The stored blocks a transaction has looked up, by block key: the bytes LMDB returned (valid
/// for the transaction's life) or nil where no block is stored.
///
/// Every value read goes through here (a point read of five properties looks up five blocks), so
/// it is an open-addressing table with a multiplicative hash of the key's two words rather than a
/// `Dictionary`, whose seeded SipHash cost more than the rest of the lookup (callgrind, C bench
/// phase b). Keys are block positions in the file, not user input, so an adversarial spread of
/// hashes would need a crafted file and could only slow lookups down, never confuse them.
struct StoredBlockCache {
    private struct Slot {
        var table: UInt32
        var column: UInt32
        var cluster: Int64
        var base: UnsafeRawPointer?
        var count: Int
        /// false: an empty slot.
        var used: Bool
    }

    private static let emptySlot = Slot(table: 0, column: 0, cluster: 0, base: nil, count: 0, used: false)
    private var slots: [Slot] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always) private static func hash(_ key: BlockKey) -> UInt64 {
        let high = UInt64(key.table) << 32 | UInt64(key.column)
        return (high &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: key.cluster) &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// `.some(bytes)` (bytes nil: known to be absent), or nil when the key was never stored here.
    func lookup(_ key: BlockKey) -> UnsafeRawBufferPointer?? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: Self.hash(key) >> 20) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if !slot.used { return nil }
                if slot.cluster == key.cluster && slot.column == key.column && slot.table == key.table {
                    return .some(slot.base.map { UnsafeRawBufferPointer(start: $0, count: slot.count) })
                }
                index = (index + 1) & mask
            }
        }
    }

    /// Records `bytes` for `key`, which must not be stored here yet.
    mutating func insert(_ key: BlockKey, _ bytes: UnsafeRawBufferPointer?) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(Slot(table: key.table, column: key.column, cluster: key.cluster,
                   base: bytes?.baseAddress, count: bytes?.count ?? 0, used: true))
        count += 1
    }

    mutating func removeAll() {
        slots = []
        count = 0
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        let key = BlockKey(table: slot.table, column: slot.column, cluster: slot.cluster)
        var index = Int(truncatingIfNeeded: Self.hash(key) >> 20) & mask
        while slots[index].used { index = (index + 1) & mask }
        slots[index] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.emptySlot, count: max(64, old.count * 2))
        for slot in old where slot.used { place(slot) }
    }
}
