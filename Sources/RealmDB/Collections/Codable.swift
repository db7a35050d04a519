/// Collections encode as arrays of their elements (as Realm's SDK: `JSONEncoder().encode(dogs)`),
/// maps as objects of their entries, for element types that are `Encodable`. The collection
/// properties of a `Codable` model decode from the same forms into unmanaged collections (see
/// `Persisted+Codable.swift`).
extension Results: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension Map: Encodable where Value: Encodable {
    /// The entries as an object, keys in the stored order.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: MapCodingKey.self)
        for (key, value) in entries { try container.encode(value, forKey: MapCodingKey(stringValue: key)) }
    }
}

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the elements of an array.
    public convenience init(from decoder: Decoder) throws {
        self.init()
        append(objectsIn: try [Element](from: decoder))
    }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the elements of an array.
    public convenience init(from decoder: Decoder) throws {
        self.init()
        insert(objectsIn: try [Element](from: decoder))
    }
}

extension Map: Decodable where Value: Decodable {
    /// An unmanaged map of the entries of an object, in the order the decoder gives its keys.
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: MapCodingKey.self)
        for key in container.allKeys { self[Key(stringKey: key.stringValue)] = try container.decode(Value.self, forKey: key) }
    }
}

/// A map's keys as coding keys.
struct MapCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension Sequence where Element: Encodable {
    /// The elements, in order, as an unkeyed container.
    func encodeElements(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
