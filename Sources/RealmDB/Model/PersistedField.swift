import CoreEngine

/// One `@Persisted` property's storage inside objects of a class: its name and its byte offset
/// in the instance, found once per class (`ObjectSchemaDiscovery`). Reading and writing an
/// unmanaged object's value goes straight to that storage, without reflection.
protocol AnyPersistedField: AnyObject {
    var name: String { get }
    var valueType: any _Persistable.Type { get }
    /// The options the declaration gave (`primaryKey:`, `indexed:`, `originProperty:`).
    func options(of object: Object) -> PersistedOptions
    /// Whether the probe marker is set (see `ObjectSchemaDiscovery.fieldIndex`).
    func isMarked(_ object: Object) -> Bool
    /// The unmanaged value.
    func value(of object: Object) -> Any
    /// Sets the unmanaged value; `value` is already of the property's type (`_rlmConvert`).
    func setValue(_ value: Any, of object: Object)
    /// The unmanaged value as the engine stores it (a single value).
    func storedValue(of object: Object, in handle: RealmHandle) throws -> Value
    /// Writes the unmanaged value to the stored object (links and collections).
    func copyValue(of object: Object, to property: _ManagedProperty) throws
    /// Tells the storage in a now managed `object` where `encode(to:)` reads its value.
    func setEncodingSource(of object: Object, fieldIndex: Int)
}

final class PersistedField<V: _Persistable>: AnyPersistedField {
    let name: String
    let offset: Int

    init(name: String, offset: Int) {
        self.name = name
        self.offset = offset
    }

    var valueType: any _Persistable.Type { V.self }

    /// The storage of this property in `object`, which must be of the class (or a subclass of
    /// the class) the offset was found in: stored properties keep their offsets in subclasses.
    @inline(__always)
    private func storage(_ object: Object) -> UnsafeMutablePointer<Persisted<V>> {
        Unmanaged.passUnretained(object).toOpaque().advanced(by: offset).assumingMemoryBound(to: Persisted<V>.self)
    }

    func options(of object: Object) -> PersistedOptions { storage(object).pointee.options }
    func isMarked(_ object: Object) -> Bool { storage(object).pointee.isProbeMarker }
    func value(of object: Object) -> Any { storage(object).pointee.unmanagedValue }
    func setValue(_ value: Any, of object: Object) { storage(object).pointee.unmanagedValue = value as! V }

    func storedValue(of object: Object, in handle: RealmHandle) throws -> Value {
        try storage(object).pointee.unmanagedValue._rlmValue(in: handle).raw
    }

    func copyValue(of object: Object, to property: _ManagedProperty) throws {
        try V._rlmSet(storage(object).pointee.unmanagedValue, property)
    }

    func setEncodingSource(of object: Object, fieldIndex: Int) {
        storage(object).pointee.encodingSource = _EncodingSource(object: object, fieldIndex: fieldIndex)
    }
}
