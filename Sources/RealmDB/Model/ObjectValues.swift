import CoreEngine

/// Reading and writing an object's properties by name (`subscript`, `value(forKey:)`,
/// `init(value:)`), where the Swift type of each property is known only from its metadata.
enum ObjectValues {
    /// Assigns a dictionary (name to value) or an array (values in property order).
    static func assign(_ value: Any, to object: Object) throws {
        let metadata = ObjectSchemaDiscovery.metadata(of: type(of: object))
        if let dictionary = value as? [String: Any] {
            for (name, element) in dictionary { try setValue(element, of: object, named: name) }
        } else if let array = value as? [Any] {
            guard array.count <= metadata.properties.count else {
                throw RealmError(.invalidArgument, "\(array.count) values for the \(metadata.properties.count) properties of \(metadata.className)")
            }
            for (property, element) in zip(metadata.properties, array) { try setValue(element, of: object, named: property.name) }
        } else {
            throw RealmError(.invalidArgument, "the value of a \(metadata.className) is a dictionary or an array, not \(type(of: value))")
        }
    }

    static func value(of object: Object, named name: String) throws -> Any? {
        let property = try metadata(of: object, name)
        if let managed = object.managed, let handle = object.handle {
            let info = try translatingErrors { try managed.classInfo.requireProperty(named: name) }
            return try property.valueType._rlmGet(_ManagedProperty(object: managed, info: info, realm: handle))
        }
        if let value = object.unmanagedValuesByName[name] { return value }
        return ObjectSchemaDiscovery.persistedChildren(of: object).first { $0.0 == name }?.1.anyValue
    }

    static func setValue(_ value: Any?, of object: Object, named name: String) throws {
        let property = try metadata(of: object, name)
        let converted = try property.valueType._rlmConvert(value)
        if let managed = object.managed, let handle = object.handle {
            let info = try translatingErrors { try managed.classInfo.requireProperty(named: name) }
            try write(converted, as: property.valueType, _ManagedProperty(object: managed, info: info, realm: handle))
        } else {
            object.unmanagedValuesByName[name] = converted
        }
    }

    /// Writes a value already known to be of type `type` to a managed property.
    static func write<T: _Persistable>(_ value: Any, as type: T.Type, _ property: _ManagedProperty) throws {
        try T._rlmSet(value as! T, property)
    }

    /// A value already known to be of type `type`, as the engine stores it.
    static func stored<T: _Persistable>(_ value: Any, as type: T.Type, in handle: RealmHandle) throws -> Value {
        try (value as! T)._rlmValue(in: handle).raw
    }

    private static func metadata(of object: Object, _ name: String) throws -> ObjectSchemaDiscovery.PropertyMetadata {
        let metadata = ObjectSchemaDiscovery.metadata(of: type(of: object))
        guard let property = metadata.property(named: name) else {
            throw RealmError(.invalidArgument, "\(metadata.className) has no property named '\(name)'")
        }
        return property
    }
}
