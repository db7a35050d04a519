/// Keys for the engine's per-operation dictionaries and sets, hashed without `Hasher`: a write
/// looks up its table's counters, indexes and change record for every value it sets, object it
/// creates or object it deletes, and SipHash over a `UInt32` or `Int64` key cost about 80
/// instructions a lookup, a sixth of a write of one value by key (callgrind,
/// `db_object_set_value_by_key`). The values are ids and keys the engine allocates, not text a
/// user chooses; every bit of one reaches the low bits that pick a bucket (see `BlockKey`).

/// A table or column id as a dictionary key.
struct FastID: Hashable {
    let id: UInt32

    init(_ id: UInt32) { self.id = id }

    func _rawHashValue(seed: Int) -> Int { mixedHash(UInt64(id), seed: seed) }
}

/// An object key as a dictionary or set key.
struct FastObjectKey: Hashable {
    let key: Int64

    init(_ key: Int64) { self.key = key }

    func _rawHashValue(seed: Int) -> Int { mixedHash(UInt64(bitPattern: key), seed: seed) }
}

/// A 64-bit value mixed with the table's seed (a multiply and xor-shift finalizer), for the
/// `_rawHashValue(seed:)` of the engine's keys (these, and `BlockKey`).
@inline(__always)
func mixedHash(_ value: UInt64, seed: Int) -> Int {
    var x = (value ^ UInt64(bitPattern: Int64(seed))) &* 0x9E37_79B9_7F4A_7C15
    x ^= x >> 32
    x &*= 0xD6E8_FEB8_6659_FD93
    x ^= x >> 32
    return Int(truncatingIfNeeded: x)
}

/// A (table, column) pair as a dictionary key.
struct FastColumnKey: Hashable {
    let bits: UInt64

    init(table: UInt32, column: UInt32) { bits = UInt64(table) << 32 | UInt64(column) }

    func _rawHashValue(seed: Int) -> Int { mixedHash(bits, seed: seed) }
}
