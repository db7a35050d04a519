/// Collections encode as arrays of their elements (as Realm's SDK: `JSONEncoder().encode(dogs)`),
/// for element types that are `Encodable`. A model class is made `Encodable` by writing its
/// `encode(to:)` with its properties (synthesized conformance would read the property
/// wrappers' storage, not the realm).
extension Results: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws { try encodeElements(to: encoder) }
}

extension Sequence where Element: Encodable {
    /// The elements, in order, as an unkeyed container.
    func encodeElements(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
