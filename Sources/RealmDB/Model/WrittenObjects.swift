/// The objects (table and key) a run of plain writes wrote (`OwnPlainWrites`): a set probed at
/// every read of a value read ahead while a loop writes, and added to at every plain write.
///
/// Open addressing with a multiplicative hash of the key: `Set` hashed each object with its
/// seeded SipHash, and inserting and probing cost about a fifth of a typed plain write in a loop
/// that writes the objects it iterates (bench/swift phase h). Emptied in time proportional to
/// what it holds, not to its capacity, since a run ends at any other change.
struct WrittenObjects {
    /// `tag` is the table plus one; 0 marks an empty slot.
    private struct Slot {
        var tag: UInt64 = 0
        var key: Int64 = 0
    }

    /// A power of two of slots, at most half of them used (or none yet).
    private var slots: [Slot] = []
    /// The slots in use, for `removeAll()`.
    private var used: [Int] = []

    /// How many objects it holds.
    var count: Int { used.count }

    private static func start(tag: UInt64, key: Int64, mask: Int) -> Int {
        let mixed = (UInt64(bitPattern: key) ^ (tag &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    func contains(table: UInt32, key: Int64) -> Bool {
        guard !slots.isEmpty else { return false }
        let tag = UInt64(table) + 1, mask = slots.count - 1
        var index = Self.start(tag: tag, key: key, mask: mask)
        while true {
            let slot = slots[index]
            if slot.tag == 0 { return false }
            if slot.tag == tag && slot.key == key { return true }
            index = (index + 1) & mask
        }
    }

    mutating func insert(table: UInt32, key: Int64) {
        if (used.count + 1) * 2 > slots.count { grow() }
        place(Slot(tag: UInt64(table) + 1, key: key))
    }

    mutating func removeAll() {
        for index in used { slots[index] = Slot() }
        used.removeAll(keepingCapacity: true)
    }

    private mutating func place(_ new: Slot) {
        let mask = slots.count - 1
        var index = Self.start(tag: new.tag, key: new.key, mask: mask)
        while true {
            let slot = slots[index]
            if slot.tag == 0 {
                slots[index] = new
                used.append(index)
                return
            }
            if slot.tag == new.tag && slot.key == new.key { return }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let held = used.map { slots[$0] }
        slots = Array(repeating: Slot(), count: Swift.max(64, slots.count * 2))
        used.removeAll(keepingCapacity: true)
        for slot in held { place(slot) }
    }
}
