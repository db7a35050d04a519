import Foundation

/// A mixed value encodes as the value it holds, in the form its own type encodes (a number, a
/// string, a `Date` and `Data` as the encoder's strategies say, an `ObjectId` and a `Decimal128`
/// as strings, `.none` as null), so that JSON of a model with an `AnyRealmValue` property reads
/// as JSON of its values. A linked object encodes as itself when its class is `Encodable`, and
/// is `EncodingError.invalidValue` otherwise.
///
/// Decoding cannot tell which type wrote a value: null decodes as `.none`, `true` and `false`
/// as `.bool`, a whole number that fits in 64 bits as `.int`, any other number as `.double`,
/// and a string as `.string` (an `ObjectId`, `UUID` or date written as a string comes back as
/// that string). An array or an object is `DecodingError.typeMismatch`: a mixed value holds no
/// collection, and a linked object has no class to decode as.
extension AnyRealmValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.typeMismatch(AnyRealmValue.self, DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "an AnyRealmValue decodes from null, a bool, a number or a string, not from an array or an object"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .none: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .objectId(let value): try container.encode(value)
        case .decimal128(let value): try container.encode(value)
        case .uuid(let value): try container.encode(value)
        case .object(let object):
            guard let encodable = object as? any Encodable else {
                throw EncodingError.invalidValue(object, EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "\(type(of: object)) is not Encodable: declare it Codable to encode the AnyRealmValue that links to it"))
            }
            try _EncodingSource.nested(at: encoder.codingPath) { try container.encode(encodable) }
        }
    }
}
