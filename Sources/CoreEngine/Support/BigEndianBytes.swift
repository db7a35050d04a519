extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, most significant first: the order in which LMDB compares keys,
    /// so that keys sort numerically. Byte by byte: `append(contentsOf:)` of an integer's raw
    /// bytes took the generic sequence path, about 120 instructions for 8 bytes, and every index
    /// entry, lookup and block key appends several (callgrind, C bench phases a, b and i).
    @inline(__always)
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}
