import CColumnKernels
/// The stored form of one property of the objects in one cluster (see docs/FORMAT.md):
///
///     u8 layout (1 fixed, 2 variable, 4 packed int; 3 marks presence blocks) | u8 flags (bit 0: null bitmap present) | u16 width | u32 count
///     [null bitmap: ceil(count / 8) bytes, padded to a multiple of 8]   bit set = null
///     fixed:      count * width bytes
///     variable:   (count + 1) u32 offsets, then the bytes
///     packed int: i64 base, then count unsigned offsets of `width` bytes (1, 2 or 4): a slot holds
///                 base + its offset (ints whose block spans less than 2^32 take 1, 2 or 4 bytes)
///
/// Slots at or beyond `count` read as null (optional properties) or the type's default.
enum ColumnBlockLayout: UInt8 {
    case fixed = 1
    case variable = 2
    case packedInt = 4
}

let columnBlockHeaderSize = 8

@inline(__always) func nullBitmapSize(_ count: Int) -> Int { ((count + 7) / 8 + 7) & ~7 }

/// A read-only, zero-copy view of an encoded column block inside LMDB's map.
/// Valid only while the transaction that produced the bytes is open.
struct ColumnBlockView {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let hasNulls: Bool
    let layout: ColumnBlockLayout
    let width: Int
    /// What a packed int block's offsets add to (0 for other layouts).
    let base: Int64
    private let dataOffset: Int

    /// - Throws: `.fileFormat` if the bytes are not a well-formed block.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= columnBlockHeaderSize, let layout = ColumnBlockLayout(rawValue: bytes[0]) else {
            throw DBError(.fileFormat, "corrupt column block header")
        }
        self.bytes = bytes
        self.layout = layout
        hasNulls = bytes[1] & 1 != 0
        width = Int(bytes[2]) | Int(bytes[3]) << 8
        count = Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
        var start = columnBlockHeaderSize + (hasNulls ? nullBitmapSize(count) : 0)
        if layout == .packedInt {
            guard width == 1 || width == 2 || width == 4, bytes.count >= start + 8 else {
                throw DBError(.fileFormat, "corrupt packed column block header")
            }
            base = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: Int64.self))
            start += 8
        } else {
            base = 0
        }
        dataOffset = start
        let needed = layout == .variable ? dataOffset + (count + 1) * 4 : dataOffset + count * width
        guard bytes.count >= needed else { throw DBError(.fileFormat, "truncated column block") }
        if layout == .variable {
            let end = Int(offset(count))
            guard end <= bytes.count - needed else { throw DBError(.fileFormat, "truncated column block data") }
        }
    }

    @inline(__always) func isNull(_ slot: Int) -> Bool {
        hasNulls && bytes[columnBlockHeaderSize + slot >> 3] & (1 << UInt8(slot & 7)) != 0
    }

    @inline(__always) private func offset(_ index: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: dataOffset + index * 4, as: UInt32.self).littleEndian
    }

    /// The raw bytes of a variable-width slot (slot < count); none in a block of another layout
    /// (a damaged or crafted file: its bytes are not offsets, and reading them as such trapped).
    func variableBytes(_ slot: Int) -> UnsafeRawBufferPointer {
        guard layout == .variable, slot >= 0, slot < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = Int(offset(slot)), end = Int(offset(slot + 1))
        let base = dataOffset + (count + 1) * 4
        guard start <= end, base + end <= bytes.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: bytes[(base + start)..<(base + end)])
    }

    /// Starts loading the memory a read of `slot` reads first (its value, or a text's offsets),
    /// so that a row's columns, each in its own block, load at once rather than one by one.
    @inline(__always) func prefetch(_ slot: Int) {
        guard slot >= 0, slot < count, let start = bytes.baseAddress else { return }
        realmdb_prefetch(start + dataOffset + slot * (layout == .variable ? 4 : width))
    }

    /// Address of a fixed-width slot (slot < count).
    @inline(__always) func fixedAddress(_ slot: Int) -> UnsafeRawPointer {
        bytes.baseAddress! + dataOffset + slot * width
    }

    /// Whether this block's layout is one a column storing `type` writes: reads of any other
    /// return defaults, so `check()` reports it (a sealed block of another column's layout is
    /// no accident of the disk).
    func fits(_ type: PropertyType) -> Bool {
        switch layout {
        case .variable: return type == .string || type == .data
        case .fixed: return width == type.fixedWidth
        case .packedInt: return type == .int
        }
    }

    /// How many words of 64 slots (as a `SlotMask` counts them) lie wholly within `count`: the
    /// words the column kernels can read 64 values at a time.
    var wholeWords: Int { count / 64 }

    /// The null bits of word `word` of the slots (bit i set: slot 64 * word + i is null), for a
    /// word within `wholeWords`.
    @inline(__always) func nullWord(_ word: Int) -> UInt64 {
        guard hasNulls else { return 0 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: columnBlockHeaderSize + word * 8, as: UInt64.self))
    }

    /// The int in a slot of a packed int block (slot < count).
    @inline(__always) func packedInt(_ slot: Int) -> Int64 {
        let address = fixedAddress(slot)
        let offset: UInt64
        switch width {
        case 1: offset = UInt64(address.load(as: UInt8.self))
        case 2: offset = UInt64(UInt16(littleEndian: address.loadUnaligned(as: UInt16.self)))
        default: offset = UInt64(UInt32(littleEndian: address.loadUnaligned(as: UInt32.self)))
        }
        return base &+ Int64(bitPattern: offset)
    }

    /// The value in `slot` interpreted as `type`.
    func value(at slot: Int, type: PropertyType, optional: Bool) -> Value {
        if slot >= count || isNull(slot) { return optional ? .null : type.defaultValue }
        switch type {
        case .string:
            return .string(String(decoding: variableBytes(slot), as: UTF8.self))
        case .data:
            return .data(Array(variableBytes(slot)))
        case .int where layout == .packedInt:
            return .int(packedInt(slot))
        default:
            guard layout == .fixed, width == type.fixedWidth else { return optional ? .null : type.defaultValue }
            return FixedWidthCodec.read(type, at: fixedAddress(slot))
        }
    }

    /// The value in `slot` as a point read hands it over: a string's bytes in place when they are
    /// ASCII, a binary's always. Text that is not ASCII is decoded as `value(at:)` decodes it
    /// (with repairs), so that a crafted file reads the same both ways.
    func contents(at slot: Int, type: PropertyType, optional: Bool) -> StoredContents {
        guard type == .string || type == .data, layout == .variable, slot < count, !isNull(slot) else {
            return .value(value(at: slot, type: type, optional: optional))
        }
        let bytes = variableBytes(slot)
        if type == .data { return .binary(bytes) }
        return StoredContents.isASCII(bytes) ? .text(bytes) : .value(.string(String(decoding: bytes, as: UTF8.self)))
    }
}

/// A decoded, mutable column block, kept in a write transaction's cache until commit.
struct ColumnBuffer {
    let type: PropertyType
    private(set) var count = 0
    /// One bit per slot, set = null; empty until a null is stored.
    private var nulls: [UInt8] = []
    private var fixed: [UInt8] = []
    /// Variable-width values: slot i holds `arena[spans[i]]`, all in one allocation (no array
    /// per string). A rewritten or cleared slot leaves its old bytes behind as `garbage`, which
    /// `encoded()` skips and `set` compacts away once it outweighs the live bytes.
    private var arena: [UInt8] = []
    private var spans: [Span] = []
    private var garbage = 0
    private let width: Int

    private struct Span {
        var start: UInt32
        var length: UInt32
        static let empty = Span(start: 0, length: 0)
    }

    init(type: PropertyType) {
        self.type = type
        width = type.fixedWidth ?? 0
    }

    /// About how many bytes the buffer holds (what `StorageTransaction.writeBackIfLarge` bounds).
    var approximateBytes: Int { nulls.count + fixed.count + arena.count + spans.count * MemoryLayout<Span>.stride }

    /// Decodes a stored block.
    init(type: PropertyType, decoding view: ColumnBlockView) {
        self.init(type: type)
        count = view.count
        if view.hasNulls {
            nulls = Array(view.bytes[columnBlockHeaderSize..<(columnBlockHeaderSize + (count + 7) / 8)])
        }
        if let width = type.fixedWidth {
            if view.layout == .fixed && view.width == width {
                fixed = Array(UnsafeRawBufferPointer(start: view.fixedAddress(0), count: count * width))
            } else if type == .int && view.layout == .packedInt {
                fixed = [UInt8](unsafeUninitializedCapacity: count * 8) { buffer, initialized in
                    for slot in 0..<count {
                        UnsafeMutableRawPointer(buffer.baseAddress! + slot * 8).storeBytes(of: view.packedInt(slot).littleEndian, as: Int64.self)
                    }
                    initialized = count * 8
                }
            } else {
                fixed = [UInt8](repeating: 0, count: count * width)
            }
        } else {
            spans = Array(repeating: .empty, count: count)
            if view.layout == .variable {
                for slot in 0..<count { spans[slot] = append(view.variableBytes(slot)) }
            }
        }
    }

    func isNull(_ slot: Int) -> Bool {
        slot >= count || (slot >> 3 < nulls.count && nulls[slot >> 3] & (1 << UInt8(slot & 7)) != 0)
    }

    func value(at slot: Int, optional: Bool) -> Value {
        if slot >= count || isNull(slot) { return optional ? .null : type.defaultValue }
        switch type {
        case .string: return .string(withBytes(slot) { String(decoding: $0, as: UTF8.self) })
        case .data: return .data(withBytes(slot) { Array($0) })
        default: return fixed.withUnsafeBytes { FixedWidthCodec.read(type, at: $0.baseAddress! + slot * width) }
        }
    }

    private func withBytes<R>(_ slot: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let span = spans[slot]
        return arena.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[Int(span.start)..<Int(span.start + span.length)])) }
    }

    /// Appends bytes to the arena; returns where they are. Empty bytes take no room and keep the
    /// empty span (compaction moves only spans that hold bytes: an empty one elsewhere would be
    /// left pointing past the compacted arena).
    private mutating func append(_ bytes: UnsafeRawBufferPointer) -> Span {
        guard !bytes.isEmpty else { return .empty }
        let span = Span(start: UInt32(arena.count), length: UInt32(bytes.count))
        arena.append(contentsOf: bytes)
        return span
    }

    /// Gives `slot` the bytes `bytes` (its old ones become garbage).
    private mutating func setBytes(_ slot: Int, _ bytes: UnsafeRawBufferPointer) {
        garbage += Int(spans[slot].length)
        spans[slot] = .empty
        if garbage > 4096 && garbage > arena.count / 2 { compactArena() }
        if !bytes.isEmpty { spans[slot] = append(bytes) }
    }

    private mutating func compactArena() {
        var compacted: [UInt8] = []
        compacted.reserveCapacity(arena.count - garbage)
        for slot in spans.indices where spans[slot].length > 0 {
            let span = spans[slot]
            spans[slot].start = UInt32(compacted.count)
            compacted.append(contentsOf: arena[Int(span.start)..<Int(span.start + span.length)])
        }
        arena = compacted
        garbage = 0
    }

    private mutating func setNull(_ slot: Int, _ isNull: Bool) {
        let byte = slot >> 3, bit = UInt8(1) << UInt8(slot & 7)
        if isNull {
            if nulls.count <= byte { nulls.append(contentsOf: repeatElement(0, count: byte + 1 - nulls.count)) }
            nulls[byte] |= bit
        } else if byte < nulls.count {
            nulls[byte] &= ~bit
        }
    }

    /// Stores `value` (already coerced to `type`) in `slot`, growing the block as needed.
    /// Slots added in between read as null when `optional`, else as the default value.
    mutating func set(_ value: Value, at slot: Int, optional: Bool) {
        if slot >= count {
            let oldCount = count
            count = slot + 1
            if width > 0 {
                fixed.append(contentsOf: repeatElement(0, count: (count - oldCount) * width))
            } else {
                spans.append(contentsOf: repeatElement(.empty, count: count - oldCount))
            }
            if optional { for s in oldCount..<slot { setNull(s, true) } }
        }
        setNull(slot, value.isNull)
        switch value {
        case var .string(s): s.withUTF8 { setBytes(slot, UnsafeRawBufferPointer($0)) }
        case let .data(d): d.withUnsafeBytes { setBytes(slot, $0) }
        case .null where width == 0: setBytes(slot, UnsafeRawBufferPointer(start: nil, count: 0))
        default:
            let width = self.width
            fixed.withUnsafeMutableBytes { FixedWidthCodec.write(value, at: $0.baseAddress! + slot * width, width: width) }
        }
    }

    /// Clears a deleted object's slot (frees its bytes for variable-width types).
    mutating func clear(_ slot: Int) {
        guard slot < count else { return }
        if width == 0 { setBytes(slot, UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    /// The range of the ints of the block's non-null slots, when it fits in 32 bits: the base
    /// and width (1, 2 or 4 bytes) of their packed form. Nil for other types, and when packing
    /// would not save a byte.
    private func packing(hasNulls: Bool) -> (base: Int64, width: Int)? {
        guard type == .int, count > 0 else { return nil }
        var low = Int64.max, high = Int64.min
        fixed.withUnsafeBytes { raw in
            for slot in 0..<count where !(hasNulls && isNull(slot)) {
                let v = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: slot * 8, as: Int64.self))
                low = Swift.min(low, v)
                high = Swift.max(high, v)
            }
        }
        if low > high { low = 0; high = 0 }  // every slot null
        let span = UInt64(bitPattern: high &- low)  // high >= low: the difference fits in UInt64
        let width = span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : span <= 0xFFFF_FFFF ? 4 : 8
        return count * width + 8 < count * 8 ? (low, width) : nil
    }

    /// The stored form. Ints are packed (layout 4) when their range allows.
    func encoded() -> [UInt8] {
        let hasNulls = nulls.contains { $0 != 0 }
        let packed = packing(hasNulls: hasNulls)
        var out = [UInt8]()
        let storedWidth = packed?.width ?? width
        let payload = width > 0 ? count * storedWidth + (packed == nil ? 0 : 8) : (count + 1) * 4 + arena.count - garbage
        out.reserveCapacity(columnBlockHeaderSize + (hasNulls ? nullBitmapSize(count) : 0) + payload)
        let layout: ColumnBlockLayout = packed != nil ? .packedInt : width > 0 ? .fixed : .variable
        out.append(layout.rawValue)
        out.append(hasNulls ? 1 : 0)
        out.append(UInt8(storedWidth & 0xFF)); out.append(UInt8(storedWidth >> 8))
        withUnsafeBytes(of: UInt32(count).littleEndian) { out.append(contentsOf: $0) }
        if hasNulls {
            let size = nullBitmapSize(count)
            out.append(contentsOf: nulls.prefix(size))
            out.append(contentsOf: repeatElement(0, count: size - min(nulls.count, size)))
        }
        if let packed {
            withUnsafeBytes(of: packed.base.littleEndian) { out.append(contentsOf: $0) }
            fixed.withUnsafeBytes { raw in
                for slot in 0..<count {
                    // A null slot stores offset 0.
                    let v = hasNulls && isNull(slot) ? packed.base : Int64(littleEndian: raw.loadUnaligned(fromByteOffset: slot * 8, as: Int64.self))
                    let offset = UInt64(bitPattern: v &- packed.base)
                    switch packed.width {
                    case 1: out.append(UInt8(truncatingIfNeeded: offset))
                    case 2: withUnsafeBytes(of: UInt16(truncatingIfNeeded: offset).littleEndian) { out.append(contentsOf: $0) }
                    default: withUnsafeBytes(of: UInt32(truncatingIfNeeded: offset).littleEndian) { out.append(contentsOf: $0) }
                    }
                }
            }
        } else if width > 0 {
            out.append(contentsOf: fixed)
        } else {
            var offset: UInt32 = 0
            for span in spans {
                withUnsafeBytes(of: offset.littleEndian) { out.append(contentsOf: $0) }
                offset += span.length
            }
            withUnsafeBytes(of: offset.littleEndian) { out.append(contentsOf: $0) }
            arena.withUnsafeBytes { arena in
                for span in spans where span.length > 0 {
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: arena[Int(span.start)..<Int(span.start + span.length)]))
                }
            }
        }
        return out
    }
}
