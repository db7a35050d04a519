/// One value as a point read hands it over (`StorageTransaction.contents`): the stored bytes of a
/// string or binary in place, anything else as a `Value`.
///
/// A C caller copies a string's bytes into its own buffer; going through `Value` first built a
/// `String` (validated, and allocated when longer than 15 bytes) only to copy it out again.
/// The bytes are valid while the transaction that read them neither writes nor ends.
package enum StoredContents {
    case value(Value)
    /// A string's UTF-8 bytes (ASCII; other text is handed over as `.value`).
    case text(UnsafeRawBufferPointer)
    /// A binary's bytes.
    case binary(UnsafeRawBufferPointer)

    /// The value as a `Value`, its bytes copied.
    var value: Value {
        switch self {
        case let .value(value): return value
        case let .text(bytes): return .string(String(decoding: bytes, as: UTF8.self))
        case let .binary(bytes): return .data(Array(bytes))
        }
    }

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
