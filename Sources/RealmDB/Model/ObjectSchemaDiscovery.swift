@_spi(Reflection) import Swift
import CoreEngine
import Foundation

/// Finds the schema of `Object` subclasses without the Objective-C runtime: the Swift runtime
/// lists a class's stored fields (superclasses' first) with their types and offsets; each
/// `@Persisted` property is a field `_name` of type `Persisted<Value>`, whose `Value` says the
/// property's type. The options (`primaryKey:` ...) are read from a new instance. Cached per class.
enum ObjectSchemaDiscovery {
    /// One class: its schema name, its `@Persisted` fields, and the stored properties among them.
    /// A class, so that handing it out costs a retain: `add`, `delete` and lookups by primary key
    /// ask for it once per object, and copying it (arrays, the schema, a dictionary) cost more
    /// than a point read (callgrind, bench/swift).
    final class ClassMetadata {
        let type: Object.Type
        let className: String
        /// Every `@Persisted` field, in declaration order (superclasses first).
        let fields: [AnyPersistedField]
        /// The stored properties (fields not ignored), in the same order.
        let properties: [PropertyMetadata]
        let objectSchema: ObjectSchema
        let propertiesByName: [String: Int]

        init(type: Object.Type, className: String, fields: [AnyPersistedField], properties: [PropertyMetadata],
             objectSchema: ObjectSchema, propertiesByName: [String: Int]) {
            self.type = type
            self.className = className
            self.fields = fields
            self.properties = properties
            self.objectSchema = objectSchema
            self.propertiesByName = propertiesByName
        }

        func property(named name: String) -> PropertyMetadata? { propertiesByName[name].map { properties[$0] } }
    }

    struct PropertyMetadata {
        let name: String
        let valueType: any _Persistable.Type
        let property: Property
        let field: AnyPersistedField
    }

    private static let classes = LockedValue<[ObjectIdentifier: ClassMetadata]>([:])

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
        try schemaAndClasses(of: types).schema
    }

    /// `schema(of:)` and the classes it holds, by schema name: one walk over the links.
    static func schemaAndClasses(of types: [Object.Type]) throws(RealmError) -> (schema: Schema, classes: [String: Object.Type]) {
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
        return (try translatingErrors { try Schema(objectSchemas) }, names)
    }

    private static func discoverChecked(_ type: Object.Type) throws(RealmError) -> ClassMetadata {
        if let known = classes.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        let discovered = try discover(type)
        classes.withLock { $0[ObjectIdentifier(type)] = discovered }
        return discovered
    }

    /// The index in `type`'s fields of the property whose storage `keyPath` is, found once per
    /// key path: `mark` sets a marker through the key path on a new object, and the field that
    /// has it is the one. A subclass lists its superclass's fields first, so the index holds for
    /// subclasses too.
    static func fieldIndex(_ keyPath: AnyKeyPath, in type: Object.Type, mark: (Object) -> Void) -> Int {
        if let index = fieldIndexes.value(for: keyPath) { return index }
        let probe = type.init()
        mark(probe)
        guard let index = metadata(of: type).fields.firstIndex(where: { $0.isMarked(probe) }) else {
            fatalError("RealmDB: a @Persisted property of \(type) was not found among its fields")
        }
        fieldIndexes.record(keyPath, value: index)
        return index
    }

    /// Each storage key path's field index (`fieldIndex`).
    static let fieldIndexes = KeyPathTable()
    /// Each storage key path's offset in the instance (`storageOffset`).
    static let storageOffsets = KeyPathTable()

    /// The byte offset in `object` of the storage `keyPath` names, found once per key path from
    /// the address `address` projects in `object` (the key path's own projection, which makes
    /// no object: an `init()` that sets its properties must not start a discovery of its class).
    /// Stored properties keep their offsets in subclasses, so the offset holds for them too.
    static func storageOffset(_ keyPath: AnyKeyPath, in object: Object, address: (Object) -> UnsafeMutableRawPointer) -> Int {
        if let offset = storageOffsets.value(for: keyPath) { return offset }
        let offset = address(object) - Unmanaged.passUnretained(object).toOpaque()
        storageOffsets.record(keyPath, value: offset)
        return offset
    }

    /// The fields of a class whose type is `Persisted<...>`, with their offsets.
    private static func persistedFields(of type: Object.Type) -> [AnyPersistedField] {
        var fields: [AnyPersistedField] = []
        // `.classType` (raw value 1), written out: the static property is mutable shared state.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { name, offset, fieldType, _ in
            let label = String(cString: name)
            if label.hasPrefix("_"), let persisted = fieldType as? PersistedProperty.Type {
                fields.append(persisted.field(name: String(label.dropFirst()), offset: offset))
            }
            return true
        }
        return fields
    }

    private static func discover(_ type: Object.Type) throws(RealmError) -> ClassMetadata {
        let className = type.className()
        let ignored = Set(type.ignoredProperties())
        let indexed = Set(type.indexedProperties())
        let legacyPrimaryKey = type.primaryKey()
        let mapping = type.propertiesMapping()
        let fields = persistedFields(of: type)
        let sample = type.init()
        var properties: [PropertyMetadata] = []
        for field in fields where !ignored.contains(field.name) {
            let name = field.name
            let options = field.options(of: sample)
            let shape = field.valueType._rlmShape
            if shape.type == .linkingObjects, options.originProperty == nil {
                throw RealmError(.schemaInvalid, "\(className).\(name): declare linking objects with @Persisted(originProperty: \"...\")")
            }
            if shape.type == .object, !shape.isOptional, shape.collection == .none {
                throw RealmError(.schemaInvalid, "\(className).\(name): a link must be optional (declare it as \(shape.objectType.map { $0.className() } ?? "Object")?)")
            }
            let property = Property(name: name, persistedName: mapping[name], type: shape.type,
                                    isOptional: shape.isOptional,
                                    isPrimaryKey: options.isPrimaryKey || legacyPrimaryKey == name,
                                    isIndexed: options.isIndexed || indexed.contains(name),
                                    collection: shape.collection, objectType: shape.objectType?.className(),
                                    linkOriginProperty: options.originProperty)
            properties.append(PropertyMetadata(name: name, valueType: field.valueType, property: property, field: field))
        }
        if properties.isEmpty && !(type is DynamicObject.Type) {
            throw RealmError(.schemaInvalid, "\(className) has no @Persisted properties")
        }
        if let legacyPrimaryKey, !properties.contains(where: { $0.name == legacyPrimaryKey }) {
            throw RealmError(.schemaInvalid, "\(className).primaryKey() names '\(legacyPrimaryKey)', which is not a @Persisted property")
        }
        let objectSchema = ObjectSchema(name: className, properties: properties.map(\.property),
                                        compoundIndexes: type.compoundIndexes(), isEmbedded: type is EmbeddedObject.Type)
        return ClassMetadata(type: type, className: className, fields: fields, properties: properties, objectSchema: objectSchema,
                             propertiesByName: Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.name, $0) }))
    }
}
