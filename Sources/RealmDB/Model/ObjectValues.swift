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
        if object is DynamicObject, let managed = object.managed, let handle = object.handle {
            return try dynamicValue(of: managed, named: name, in: handle)
        }
        let property = try metadata(of: object, name)
        if let managed = object.managed, let handle = object.handle {
            let info = try translatingErrors { try managed.classInfo.requireProperty(named: name) }
            return try property.valueType._rlmGet(_ManagedProperty(object: managed, info: info, realm: handle))
        }
        return property.field.value(of: object)
    }

    static func setValue(_ value: Any?, of object: Object, named name: String) throws {
        if object is DynamicObject, let managed = object.managed {
            let info = try translatingErrors { try managed.classInfo.requireProperty(named: name) }
            if let linked = value as? Object, let target = linked.managed {
                return try translatingErrors { try managed.setValue(.link(ObjectLink(table: target.classInfo.tableID, key: target.key)), for: info) }
            }
            return try translatingErrors { try managed.setValue(try Value(swiftValue: value), for: info) }
        }
        let property = try metadata(of: object, name)
        let converted = try property.valueType._rlmConvert(value)
        if let managed = object.managed, let handle = object.handle {
            let info = try translatingErrors { try managed.classInfo.requireProperty(named: name) }
            try write(converted, as: property.valueType, _ManagedProperty(object: managed, info: info, realm: handle))
        } else {
            property.field.setValue(converted, of: object)
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

    /// A property of an object known only by its schema: scalars as their Swift values, links
    /// as objects (of the Swift class the realm knows for them, else `DynamicObject`), lists as arrays.
    static func dynamicValue(of accessor: ObjectAccessor, named name: String, in handle: RealmHandle) throws -> Any? {
        try translatingErrors {
            let info = try accessor.classInfo.requireProperty(named: name)
            func converted(_ value: Value) throws -> Any? {
                guard case .link = value else { return value.swiftValue }
                return try AnyRealmValue._rlmFrom(_StoredValue(value), in: handle).objectValue
            }
            switch info.collection {
            case .list: return try accessor.list(of: info).elements().map(converted) as [Any?]
            case .set: return try accessor.set(of: info).elements().map(converted) as [Any?]
            case .dictionary:
                return try Dictionary(uniqueKeysWithValues: accessor.dictionary(of: info).entries().map { ($0.key, try converted($0.value)) })
                    as [String: Any?]
            case .none:
                if info.type == .linkingObjects { return try accessor.linkingObjectKeys(of: info).count }
                return try converted(try accessor.value(of: info))
            }
        }
    }

    private static func metadata(of object: Object, _ name: String) throws -> ObjectSchemaDiscovery.PropertyMetadata {
        let metadata = ObjectSchemaDiscovery.metadata(of: type(of: object))
        guard let property = metadata.property(named: name) else {
            throw RealmError(.invalidArgument, "\(metadata.className) has no property named '\(name)'")
        }
        return property
    }
}
