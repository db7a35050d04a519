import CoreEngine
import Foundation

/// Models made `Codable` by declaring it (`class Dog: Object, Codable { @Persisted var name: String }`):
/// Swift synthesizes `init(from:)` and `encode(to:)` from the `@Persisted` storage, and these
/// conformances make that storage decode and encode its value.
///
/// - Decoding makes an unmanaged object, to `add` to a realm. A missing key for an optional
///   property decodes as nil; for any other property it is `DecodingError.keyNotFound`.
/// - Encoding an unmanaged object encodes its values. Encoding a managed one (live or frozen)
///   reads the realm: links encode the linked objects, lists and sets arrays of their elements,
///   maps objects of their entries. A deleted object, a realm read on the wrong thread, or links
///   nested more than `_EncodingSource.maximumDepth` deep (a cycle of links) throw
///   `EncodingError.invalidValue`, as nothing is half-written by the property that failed.
extension Persisted: Decodable where Value: Decodable {
    /// Decodes the value of an unmanaged object's property.
    public init(from decoder: Decoder) throws {
        self.init(wrappedValue: try Value(from: decoder))
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the property's value: the stored one when its object is managed.
    public func encode(to encoder: Encoder) throws {
        guard let source = encodingSource, let object = source.object else {
            return try unmanagedValue.encode(to: encoder)
        }
        let value: Value = try object._rlmStoredValue(fieldIndex: source.fieldIndex, codingPath: encoder.codingPath)
        try _EncodingSource.nested(at: encoder.codingPath) { try value.encode(to: encoder) }
    }
}

extension KeyedDecodingContainer {
    /// An optional `@Persisted` property whose key is missing decodes as nil (as a plain
    /// optional property's synthesized decoding does), not as `DecodingError.keyNotFound`.
    public func decode<V: _Persistable & Decodable & ExpressibleByNilLiteral>(
        _ type: Persisted<V>.Type, forKey key: Key
    ) throws -> Persisted<V> {
        try decodeIfPresent(type, forKey: key) ?? Persisted(wrappedValue: nil)
    }
}

/// Where the `@Persisted` storage of a managed object reads its value when encoded: the object
/// that holds the storage (not retained: the storage lives inside it) and the field's index.
@usableFromInline
struct _EncodingSource {
    @usableFromInline unowned(unsafe) var object: Object?
    @usableFromInline var fieldIndex: Int

    init(object: Object, fieldIndex: Int) {
        self.object = object
        self.fieldIndex = fieldIndex
    }

    /// How deeply managed objects may nest through links and collections in one encoding:
    /// deeper is taken for a cycle of links (`dog.owner.dogs[0].owner...`), which would
    /// otherwise recurse until the stack ran out.
    static let maximumDepth = 64

    private static let depthKey = "RealmDB.encodingDepth"

    /// Runs `body` one nesting level deeper; past `maximumDepth`, throws instead.
    static func nested<T>(at codingPath: [CodingKey], _ body: () throws -> T) throws -> T {
        let thread = Thread.current.threadDictionary
        let depth = (thread[depthKey] as? Int) ?? 0
        guard depth < maximumDepth else {
            throw EncodingError.invalidValue(depth, EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "managed objects nest more than \(maximumDepth) levels deep here: a cycle of links cannot be encoded"))
        }
        thread[depthKey] = depth + 1
        defer { thread[depthKey] = depth }
        return try body()
    }
}

extension Object {
    /// The stored value of a field of this managed object, for `Persisted.encode(to:)`; what
    /// the property would read, with its failures thrown as `EncodingError`.
    final func _rlmStoredValue<Value: _Persistable>(fieldIndex: Int, codingPath: [CodingKey]) throws -> Value {
        do {
            // Not `reading: true`: that reads the object's row ahead, stopping the program when it fails.
            guard let property = _rlmManagedProperty(fieldIndex: fieldIndex, reading: false) else {
                throw RealmError(.logic, "the property is not stored")
            }
            return try Value._rlmGet(property)
        } catch {
            let name = ObjectSchemaDiscovery.metadata(of: type(of: self)).fields[fieldIndex].name
            throw EncodingError.invalidValue(name, EncodingError.Context(
                codingPath: codingPath, debugDescription: "cannot read \(name) of a managed \(type(of: self)): \(error)",
                underlyingError: error))
        }
    }
}
