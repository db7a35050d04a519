/// The stored blocks a transaction has looked up, by block key: the bytes LMDB returned (valid
/// for the transaction's life) or nil where no block is stored, and for column blocks the parsed
/// header (`ColumnBlockView`), so that reading many values of one block checks it once.
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
        /// The bytes parsed as a column block, once a reader asked for them so.
        var view: ColumnBlockView?
        /// false: an empty slot.
        var used: Bool
    }

    private static let emptySlot = Slot(table: 0, column: 0, cluster: 0, base: nil, count: 0, view: nil, used: false)
    private var slots: [Slot] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always) private static func hash(_ key: BlockKey) -> UInt64 {
        let high = UInt64(key.table) << 32 | UInt64(key.column)
        return (high &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: key.cluster) &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// `.some(bytes)` (bytes nil: known to be absent), or nil when the key was never stored here.
    func lookup(_ key: BlockKey) -> UnsafeRawBufferPointer?? {
        guard let index = position(of: key) else { return nil }
        let slot = slots[index]
        return .some(slot.base.map { UnsafeRawBufferPointer(start: $0, count: slot.count) })
    }

    /// What is known of `key` as a column block.
    enum Known {
        /// Never looked up.
        case unknown
        /// No block is stored.
        case absent
        /// Looked up as bytes, not yet parsed.
        case bytes(UnsafeRawBufferPointer)
        case view(ColumnBlockView)
    }

    func lookupView(_ key: BlockKey) -> Known {
        guard let index = position(of: key) else { return .unknown }
        return slots.withUnsafeBufferPointer { slots in
            // Field by field: copying the whole slot out cost as much as finding it.
            if let view = slots[index].view { return .view(view) }
            guard let base = slots[index].base else { return .absent }
            return .bytes(UnsafeRawBufferPointer(start: base, count: slots[index].count))
        }
    }

    private func position(of key: BlockKey) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: Self.hash(key) >> 20) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if !slot.used { return nil }
                if slot.cluster == key.cluster && slot.column == key.column && slot.table == key.table { return index }
                index = (index + 1) & mask
            }
        }
    }

    /// Records `bytes` for `key`, which must not be stored here yet (with their parse, if any).
    mutating func insert(_ key: BlockKey, _ bytes: UnsafeRawBufferPointer?, view: ColumnBlockView? = nil) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(Slot(table: key.table, column: key.column, cluster: key.cluster,
                   base: bytes?.baseAddress, count: bytes?.count ?? 0, view: view, used: true))
        count += 1
    }

    /// Records the parse of the bytes stored for `key` (looked up as bytes before).
    mutating func setView(_ key: BlockKey, _ view: ColumnBlockView) {
        guard let index = position(of: key) else { return }
        slots[index].view = view
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
