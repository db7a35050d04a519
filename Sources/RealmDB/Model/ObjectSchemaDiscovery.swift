import CoreEngine
import Foundation

/// Finds the schema of `Object` subclasses by reflection (`Mirror`), without the Objective-C
/// runtime: each `@Persisted` property is a stored `Persisted<Value>` named `_name`, and its
/// `Value` type says the property's type. Results are cached per class.
enum ObjectSchemaDiscovery {
    /// One class: its schema name and properties, in declaration order (superclasses first).
    struct ClassMetadata {
        let type: Object.Type
        let className: String
        let properties: [PropertyMetadata]
        let objectSchema: ObjectSchema
        let propertiesByName: [String: Int]

        func property(named name: String) -> PropertyMetadata? { propertiesByName[name].map { properties[$0] } }
    }

    struct PropertyMetadata {
        let name: String
        let valueType: any _Persistable.Type
        let property: Property
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var classes: [ObjectIdentifier: ClassMetadata] = [:]
    nonisolated(unsafe) private static var propertyNames: [AnyKeyPath: String] = [:]

    /// The schema of `type` (a programming error in the class stops with a message).
    static func metadata(of type: Object.Type) -> ClassMetadata {
        do {
            return try discoverChecked(type)
        } catch {
            fatalError("RealmDB: \(error)")
        }
    }

    /// The schema of the given classes and of every class they link to.
    static func schema(of types: [Object.Type]) throws(RealmError) -> Schema {
        var pending = types
        var seen = Set<ObjectIdentifier>()
        var objectSchemas: [ObjectSchema] = []
        var names: [String: Object.Type] = [:]
        while let type = pending.popLast() {
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            let metadata = try discoverChecked(type)
            if let other = names[metadata.className], other != type {
                throw RealmError(.schemaInvalid, "two classes are named '\(metadata.className)' (\(String(reflecting: other)) and \(String(reflecting: type))): override className() in one")
            }
            names[metadata.className] = type
            objectSchemas.append(metadata.objectSchema)
            pending.append(contentsOf: metadata.properties.compactMap { $0.valueType._rlmShape.objectType })
        }
        objectSchemas.sort { $0.name < $1.name }
        return try translatingErrors { try Schema(objectSchemas) }
    }

    private static func discoverChecked(_ type: Object.Type) throws(RealmError) -> ClassMetadata {
        lock.lock()
        if let known = classes[ObjectIdentifier(type)] { lock.unlock(); return known }
        lock.unlock()
        let discovered = try discover(type)
        lock.lock()
        classes[ObjectIdentifier(type)] = discovered
        lock.unlock()
        return discovered
    }

    /// The name of the property whose storage `keyPath` is, found once per key path: set a
    /// marker through the key path on a new object and look for it by reflection.
    static func propertyName<O: Object, V>(_ keyPath: ReferenceWritableKeyPath<O, Persisted<V>>, of type: O.Type) -> String {
        lock.lock()
        if let name = propertyNames[keyPath] { lock.unlock(); return name }
        lock.unlock()
        let probe = O()
        probe[keyPath: keyPath].isProbeMarker = true
        guard let name = persistedChildren(of: probe).first(where: { $0.1.isProbeMarker })?.0 else {
            fatalError("RealmDB: a @Persisted property of \(O.self) was not found by reflection")
        }
        lock.lock()
        propertyNames[keyPath] = name
        lock.unlock()
        return name
    }

    /// The `@Persisted` properties of an object: (name, storage), superclasses' first.
    static func persistedChildren(of object: Object) -> [(String, PersistedProperty)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, current.subjectType != Object.self {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        return mirrors.reversed().flatMap { mirror in
            mirror.children.compactMap { child -> (String, PersistedProperty)? in
                guard let label = child.label, label.hasPrefix("_"), let persisted = child.value as? PersistedProperty else { return nil }
                return (String(label.dropFirst()), persisted)
            }
        }
    }

    private static func discover(_ type: Object.Type) throws(RealmError) -> ClassMetadata {
        let className = type.className()
        let ignored = Set(type.ignoredProperties())
        let indexed = Set(type.indexedProperties())
        let legacyPrimaryKey = type.primaryKey()
        let mapping = type.propertiesMapping()
        var properties: [PropertyMetadata] = []
        for (name, persisted) in persistedChildren(of: type.init()) where !ignored.contains(name) {
            let shape = persisted.valueType._rlmShape
            if shape.type == .linkingObjects, persisted.options.originProperty == nil {
                throw RealmError(.schemaInvalid, "\(className).\(name): declare linking objects with @Persisted(originProperty: \"...\")")
            }
            if shape.type == .object, !shape.isOptional, shape.collection == .none {
                throw RealmError(.schemaInvalid, "\(className).\(name): a link must be optional (declare it as \(shape.objectType.map { $0.className() } ?? "Object")?)")
            }
            let property = Property(name: name, persistedName: mapping[name], type: shape.type,
                                    isOptional: shape.isOptional,
                                    isPrimaryKey: persisted.options.isPrimaryKey || legacyPrimaryKey == name,
                                    isIndexed: persisted.options.isIndexed || indexed.contains(name),
                                    collection: shape.collection, objectType: shape.objectType?.className(),
                                    linkOriginProperty: persisted.options.originProperty)
            properties.append(PropertyMetadata(name: name, valueType: persisted.valueType, property: property))
        }
        if properties.isEmpty {
            throw RealmError(.schemaInvalid, "\(className) has no @Persisted properties")
        }
        if let legacyPrimaryKey, !properties.contains(where: { $0.name == legacyPrimaryKey }) {
            throw RealmError(.schemaInvalid, "\(className).primaryKey() names '\(legacyPrimaryKey)', which is not a @Persisted property")
        }
        let objectSchema = ObjectSchema(name: className, properties: properties.map(\.property),
                                        compoundIndexes: type.compoundIndexes(), isEmbedded: type is EmbeddedObject.Type)
        return ClassMetadata(type: type, className: className, properties: properties, objectSchema: objectSchema,
                             propertiesByName: Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.name, $0) }))
    }
}
