/// One bit per slot of a cluster (1024 bits as 16 words): which objects are still candidates.
/// The words are stored inline (no heap allocation per cluster or per copy).
struct SlotMask: Equatable {
    static let wordCount = 16
    var words: InlineArray<16, UInt64>

    init(repeating word: UInt64 = 0) { words = InlineArray(repeating: word) }

    init(presence scan: ClusterScan) {
        self.init()
        for i in 0..<Self.wordCount {
            words[i] = UInt64(littleEndian: scan.presence.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
        }
    }

    static func == (a: SlotMask, b: SlotMask) -> Bool {
        (0..<wordCount).allSatisfy { a.words[$0] == b.words[$0] }
    }

    init(slots: [Int]) {
        self.init()
        for slot in slots { words[slot >> 6] |= 1 << UInt64(slot & 63) }
    }

    @inline(__always) func contains(_ slot: Int) -> Bool { words[slot >> 6] & (1 << UInt64(slot & 63)) != 0 }

    var isEmpty: Bool {
        for i in 0..<Self.wordCount where words[i] != 0 { return false }
        return true
    }

    var count: Int {
        var total = 0
        for i in 0..<Self.wordCount { total &+= words[i].nonzeroBitCount }
        return total
    }

    static func & (a: SlotMask, b: SlotMask) -> SlotMask {
        var result = a
        for i in 0..<wordCount { result.words[i] &= b.words[i] }
        return result
    }

    static func | (a: SlotMask, b: SlotMask) -> SlotMask {
        var result = a
        for i in 0..<wordCount { result.words[i] |= b.words[i] }
        return result
    }

    /// Slots in `self` and not in `other`.
    func subtracting(_ other: SlotMask) -> SlotMask {
        var result = self
        for i in 0..<Self.wordCount { result.words[i] &= ~other.words[i] }
        return result
    }

    /// Keeps the slots for which `test` is true; visits only the slots that are set.
    @inline(__always)
    mutating func filter(_ test: (Int) throws -> Bool) rethrows {
        try filter(wholeWords: 0, by: { _ in 0 }, slots: test)
    }

    /// Keeps the slots for which the test is true, deciding the first `wholeWords` words 64 slots
    /// at a time (`word(w)` gives the bits of word w that pass) and the other words slot by slot.
    @inline(__always)
    mutating func filter(wholeWords: Int, by word: (Int) -> UInt64, slots test: (Int) throws -> Bool) rethrows {
        let whole = min(wholeWords, Self.wordCount)
        for w in 0..<whole where words[w] != 0 { words[w] &= word(w) }
        for w in whole..<Self.wordCount where words[w] != 0 {
            var bits = words[w], kept: UInt64 = 0
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                if try test(w << 6 | bit) { kept |= 1 << UInt64(bit) }
                bits &= bits &- 1
            }
            words[w] = kept
        }
    }

    /// Calls `body` with every set slot in ascending order.
    @inline(__always)
    func forEach(_ body: (Int) throws -> Void) rethrows {
        for w in 0..<Self.wordCount where words[w] != 0 {
            var bits = words[w]
            while bits != 0 {
                try body(w << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }
}
