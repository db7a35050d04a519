import CoreEngine

/// The base class of objects that live inside another object: an `Address` of a `Person`.
///
/// ```swift
/// class Address: EmbeddedObject {
///     @Persisted var street: String
///     @Persisted var city: String
/// }
/// class Person: Object {
///     @Persisted var address: Address?
///     @Persisted var previous: List<Address>
/// }
/// ```
///
/// An embedded object belongs to exactly one parent: it is created by assigning it to the
/// parent's property (or appending it to the list), deleted with the parent or when replaced,
/// and it cannot be added, queried or deleted on its own.
open class EmbeddedObject: Object {
    /// Stores this unmanaged object as the new embedded object `create` makes in its parent.
    func storeEmbedded(in handle: RealmHandle, create: ([(PropertyInfo, Value)]) throws -> ObjectAccessor) throws {
        guard managed == nil else {
            throw RealmError(.logic, "this \(type(of: self).className()) is already embedded in an object: give the new parent a new one (or a copy)")
        }
        _ = try handle.store(self, as: try handle.classInfo(of: type(of: self)), create: create)
    }
}

extension Optional where Wrapped: _Persistable {
    /// Assigning an embedded object creates it in the parent; other values are stored as they are.
    static func storeLink(_ value: Wrapped?, _ property: _ManagedProperty) throws -> Bool {
        guard let embedded = value as? EmbeddedObject else { return false }
        try embedded.storeEmbedded(in: property.realm) { values in
            try property.object.createEmbedded(for: property.info, values: values)
        }
        return true
    }
}
