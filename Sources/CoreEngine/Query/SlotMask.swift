/// One bit per slot of a cluster (1024 bits as 16 words): which objects are still candidates.
struct SlotMask: Equatable {
    static let wordCount = StorageKeys.clusterSize / 64
    var words: [UInt64]

    init(repeating word: UInt64 = 0) { words = [UInt64](repeating: word, count: Self.wordCount) }

    init(presence scan: ClusterScan) {
        self.init()
        scan.presenceWords(into: &words)
    }

    init(slots: [Int]) {
        self.init()
        for slot in slots { words[slot >> 6] |= 1 << UInt64(slot & 63) }
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

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
        for w in 0..<Self.wordCount where words[w] != 0 {
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
