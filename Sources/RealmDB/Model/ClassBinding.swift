import CoreEngine
import Foundation

/// A model class bound to one realm handle's schema: for each `@Persisted` field of the class,
/// the engine's property (nil for an ignored one). Made once per class and handle, shared by
/// every object of the class read through the handle, so that a property access is an array
/// index instead of a lookup by name.
final class ClassBinding {
    let classInfo: ClassInfo
    /// The class's `@Persisted` fields (`ObjectSchemaDiscovery.ClassMetadata.fields`).
    let fields: [AnyPersistedField]
    /// By field index.
    let properties: [BoundProperty?]
    /// The single-valued properties (scalars and links), read together by `ObjectRow`.
    let singleValued: [PropertyInfo]
    /// For a class that is `Encodable`: the stored fields, by field index, whose `@Persisted`
    /// storage learns its object when the object becomes managed, so that synthesized
    /// `encode(to:)` reads the realm (empty for other classes: attaching costs nothing).
    let encodedFields: [(index: Int, field: AnyPersistedField)]
    /// The Swift type of the primary key, when the class declares the schema's primary key.
    let primaryKeyType: (any _Persistable.Type)?

    init(metadata: ObjectSchemaDiscovery.ClassMetadata, classInfo: ClassInfo) {
        self.classInfo = classInfo
        fields = metadata.fields
        primaryKeyType = metadata.properties.first { $0.property.isPrimaryKey && $0.name == classInfo.primaryKey?.name }?.valueType
        let ignored = Set(metadata.fields.map(\.name)).subtracting(metadata.properties.map(\.name))
        var singleValued: [PropertyInfo] = []
        properties = metadata.fields.map { field in
            guard !ignored.contains(field.name), let info = classInfo.property(named: field.name) else { return nil }
            guard info.collection == .none, info.type != .linkingObjects else { return BoundProperty(info) }
            singleValued.append(info)
            return BoundProperty(info, slot: singleValued.count - 1)
        }
        self.singleValued = singleValued
        let stored = properties.map { $0 != nil }
        encodedFields = metadata.type is any Encodable.Type
            ? metadata.fields.enumerated().compactMap { index, field in stored[index] ? (index, field) : nil }
            : []
    }
}

/// One engine property, held by reference: handing it to each access costs one retain, where
/// copying a `PropertyInfo` retains each of its strings.
final class BoundProperty {
    let info: PropertyInfo
    /// For a single value: its position among the binding's `singleValued` properties, where
    /// values read ahead keep it (nil: not read ahead).
    let slot: Int?

    init(_ info: PropertyInfo, slot: Int? = nil) {
        self.info = info
        self.slot = slot
    }
}

extension RealmHandle {
    /// The binding of a model class to this handle's schema (made at first use, remade when
    /// the schema was bound again).
    func binding(of type: Object.Type, classInfo: ClassInfo) -> ClassBinding {
        if let last = lastBinding(of: type), last.classInfo === classInfo { return last }
        let id = ObjectIdentifier(type)
        let shared = self.shared
        shared.bindingLock.lock()
        if let binding = shared.bindings[id], binding.classInfo === classInfo {
            shared.bindingLock.unlock()
            remember(binding, of: type)
            return binding
        }
        shared.bindingLock.unlock()
        let binding = ClassBinding(metadata: ObjectSchemaDiscovery.metadata(of: type), classInfo: classInfo)
        shared.bindingLock.lock()
        shared.bindings[id] = binding
        shared.bindingLock.unlock()
        remember(binding, of: type)
        return binding
    }

    /// The binding of a model class to this handle's schema, with the class found by
    /// `classInfo(of:)`.
    func binding(of type: Object.Type) throws(RealmError) -> ClassBinding {
        if let last = lastBinding(of: type) { return last }
        return binding(of: type, classInfo: try classInfo(of: type))
    }

    /// The binding last made or found for `type` through this live realm, while the engine has
    /// not bound its classes again since (see `SharedHandleState.lastBinding`); nil otherwise,
    /// and always for a frozen realm (read from several threads at once).
    @inline(__always)
    func lastBinding(of type: Object.Type) -> ClassBinding? {
        guard let last = shared.lastBinding, last.type == ObjectIdentifier(type),
              last.stamp == engine.bindingCounter.address.pointee else { return nil }
        return last.binding
    }

    private func remember(_ binding: ClassBinding, of type: Object.Type) {
        guard !engine.isFrozen else { return }
        shared.lastBinding = (ObjectIdentifier(type), binding, engine.bindingCounter.address.pointee)
    }
}
