import CoreEngine
import Foundation

/// A 12-byte, roughly time-ordered identifier (BSON ObjectId), the usual primary key of synced
/// Realm models: 4 bytes of seconds since 1970, 5 random bytes fixed per process, 3 bytes of a counter.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    var raw: ObjectID

    init(raw: ObjectID) { self.raw = raw }

    /// The zero ObjectId (`000000000000000000000000`).
    public init() { raw = ObjectID(uncheckedBytes: [UInt8](repeating: 0, count: 12)) }

    /// Parses 24 hexadecimal digits; throws `.invalidArgument` for anything else.
    public init(string: String) throws(RealmError) {
        let digits = Array(string.utf8)
        guard digits.count == 24 else {
            throw RealmError(.invalidArgument, "an ObjectId is 24 hexadecimal digits, not \(digits.count) characters: '\(string)'")
        }
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<12 {
            guard let high = Self.nibble(digits[2 * index]), let low = Self.nibble(digits[2 * index + 1]) else {
                throw RealmError(.invalidArgument, "'\(string)' is not an ObjectId: it has a character that is not a hexadecimal digit")
            }
            bytes[index] = high << 4 | low
        }
        raw = ObjectID(uncheckedBytes: bytes)
    }

    /// A new ObjectId, unique within this process and very likely across processes.
    public static func generate() -> ObjectId {
        var bytes = [UInt8](repeating: 0, count: 12)
        let seconds = UInt32(truncatingIfNeeded: time(nil))
        let count = Generator.next()
        for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: seconds >> (24 - 8 * UInt32(index))) }
        for index in 0..<5 { bytes[4 + index] = Generator.processBytes[index] }
        for index in 0..<3 { bytes[9 + index] = UInt8(truncatingIfNeeded: count >> (16 - 8 * UInt32(index))) }
        return ObjectId(raw: ObjectID(uncheckedBytes: bytes))
    }

    /// The 24 lowercase hexadecimal digits.
    public var stringValue: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(24)
        for byte in raw.bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { stringValue }

    /// Whether `a`'s bytes sort before `b`'s, so ObjectIds order by their creation time first.
    public static func < (a: ObjectId, b: ObjectId) -> Bool { a.raw < b.raw }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The per-process random bytes and the counter of `generate()`.
    private enum Generator {
        static let processBytes: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
        nonisolated(unsafe) private static var counter = UInt32.random(in: 0..<0xFF_FFFF)
        private static let lock = NSLock()
        static func next() -> UInt32 {
            lock.withLock {
                counter = (counter &+ 1) & 0xFF_FFFF
                return counter
            }
        }
    }
}

/// An ObjectId encodes as its 24 hexadecimal digits, and decodes from them.
extension ObjectId: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { self = try ObjectId(string: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
