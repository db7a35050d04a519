/// Sorting object keys, as index lookups return them (in value order) before objects are read
/// cluster by cluster.
///
/// The standard library's `sorted()` is a generic stable merge sort: about 140 instructions per
/// key on the C bench's query d (2,210 keys). Object keys are small non-negative integers, so a
/// least-significant-digit radix sort over the bits they use takes two passes for a million
/// objects, a tenth of that. Already-sorted input returns after one comparison pass, and input
/// made of a few ascending runs (an index scan over a few values: query d reads 11 ages of one
/// city) goes to the standard sort, whose run merging beats the radix passes there.
extension Array where Element == Int64 {
    func sortedObjectKeys() -> [Int64] {
        var descents = 0, smallest = Int64.max, largest = Int64.min
        var previous = Int64.min
        for key in self {
            if key < previous { descents += 1 }
            previous = key
            smallest = Swift.min(smallest, key)
            largest = Swift.max(largest, key)
        }
        if descents == 0 { return self }
        // Few keys, few runs, or negative keys (never object keys, but keep any input correct).
        if count < 64 || descents < count / 64 || smallest < 0 { return sorted() }

        // Smaller digits for fewer keys, so that clearing the counts does not outweigh the keys.
        let digitBits = count >= 1 << 14 ? 11 : 8, radix = 1 << digitBits
        let usedBits = Int64.bitWidth - largest.leadingZeroBitCount
        var source = self
        var target = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var counts = [Int](repeating: 0, count: radix)
        var shift = 0
        while shift < usedBits {
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<radix { counts[i] = 0 }
                        for key in from { counts[Int(truncatingIfNeeded: key >> Int64(shift)) & (radix - 1)] += 1 }
                        var start = 0
                        for i in 0..<radix {
                            let n = counts[i]
                            counts[i] = start
                            start += n
                        }
                        for key in from {
                            let digit = Int(truncatingIfNeeded: key >> Int64(shift)) & (radix - 1)
                            to[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&source, &target)
            shift += digitBits
        }
        return source
    }
}
