import CDBTypes
import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

// db_schema_t: an immutable list of classes. The C view (db_class_info_t and db_property_info_t
// arrays with their strings) is built once per handle and freed with it.

/// Behind `db_schema_t`.
final class SchemaBox {
    let schema: Schema
    private var classInfos: [db_class_info_t] = []
    private var propertyArrays: [UnsafeMutablePointer<db_property_info_t>] = []
    private var indexArrays: [UnsafeMutablePointer<db_index_info_t>] = []
    private var nameArrays: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// - Parameter bound: the realm's classes, when the schema comes from an open realm (fills keys).
    init(_ schema: Schema, bound: [ClassInfo]? = nil) {
        self.schema = schema
        for objectSchema in schema.objectSchemas {
            let classInfo = bound?.first { $0.name == objectSchema.name }
            let array = UnsafeMutablePointer<db_property_info_t>.allocate(capacity: max(objectSchema.properties.count, 1))
            for (index, property) in objectSchema.properties.enumerated() {
                var flags = DB_PROPERTY_FLAG_NONE.rawValue
                if property.isOptional { flags |= DB_PROPERTY_FLAG_NULLABLE.rawValue }
                if property.isPrimaryKey { flags |= DB_PROPERTY_FLAG_PRIMARY_KEY.rawValue }
                if property.isIndexed { flags |= DB_PROPERTY_FLAG_INDEXED.rawValue }
                let key = classInfo?.property(named: property.name).map { db_property_key_t($0.columnID) } ?? -1
                array[index] = db_property_info_t(
                    name: keep(property.name), persisted_name: keep(property.persistedName),
                    type: db_property_type_e(rawValue: UInt32(property.type.rawValue)), flags: Int32(flags), key: key,
                    collection_type: db_collection_type_e(rawValue: UInt32(property.collection.rawValue)),
                    link_target: property.objectType.map(keep), link_origin_property: property.linkOriginProperty.map(keep))
            }
            propertyArrays.append(array)
            let indexes = UnsafeMutablePointer<db_index_info_t>.allocate(capacity: max(objectSchema.compoundIndexes.count, 1))
            for (i, names) in objectSchema.compoundIndexes.enumerated() {
                let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count)
                for (j, name) in names.enumerated() { list[j] = keep(name) }
                nameArrays.append(list)
                indexes[i] = db_index_info_t(properties: UnsafePointer(list), num_properties: names.count)
            }
            indexArrays.append(indexes)
            classInfos.append(db_class_info_t(name: keep(objectSchema.name), properties: UnsafePointer(array),
                                              num_properties: objectSchema.properties.count,
                                              key: classInfo?.tableID ?? 0,
                                              indexes: UnsafePointer(indexes), num_indexes: objectSchema.compoundIndexes.count,
                                              flags: Int32(objectSchema.isEmbedded ? DB_CLASS_FLAG_EMBEDDED.rawValue : 0)))
        }
    }

    deinit {
        for pointer in strings { free(pointer) }
        for array in propertyArrays { array.deallocate() }
        for array in indexArrays { array.deallocate() }
        for array in nameArrays { array.deallocate() }
    }

    private func keep(_ string: String) -> UnsafePointer<CChar> {
        let copy = strdup(string)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    var count: Int { classInfos.count }
    func classInfo(at index: Int) -> db_class_info_t { classInfos[index] }
}

func schemaBox(_ pointer: UnsafePointer<db_schema_t>?) throws -> SchemaBox { try unwrap(pointer, "schema", as: SchemaBox.self) }

/// Reads a C schema description into an engine schema.
func engineSchema(_ classes: UnsafePointer<db_class_info_t>?, _ count: Int) throws -> Schema {
    if count > 0 { _ = try require(classes, "classes") }
    var objectSchemas: [ObjectSchema] = []
    for c in 0..<count {
        let info = classes![c]
        let className = try requireString(info.name, "classes[\(c)].name")
        let numProperties = try bufferCount(info.num_properties, "classes[\(c)].num_properties", elementSize: MemoryLayout<db_property_info_t>.stride)
        if numProperties > 0 { _ = try require(info.properties, "classes[\(c)].properties") }
        var properties: [Property] = []
        for p in 0..<numProperties {
            let property = info.properties![p]
            let where_ = "classes[\(c)].properties[\(p)]"
            let name = try requireString(property.name, "\(where_).name")
            let persisted = property.persisted_name == nil ? nil : try requireString(property.persisted_name, "\(where_).persisted_name")
            guard property.type.rawValue <= UInt32(UInt8.max), let type = PropertyType(rawValue: UInt8(property.type.rawValue)) else {
                throw DBError(.schemaInvalid, "property '\(className).\(name)' has unknown type \(property.type.rawValue)")
            }
            let known = DB_PROPERTY_FLAG_NULLABLE.rawValue | DB_PROPERTY_FLAG_PRIMARY_KEY.rawValue | DB_PROPERTY_FLAG_INDEXED.rawValue
            guard property.flags >= 0, UInt32(property.flags) & ~known == 0 else {
                throw DBError(.schemaInvalid, "property '\(className).\(name)' has unknown flags \(property.flags)")
            }
            let flags = UInt32(property.flags)
            guard property.collection_type.rawValue <= UInt32(UInt8.max),
                  let collection = CollectionKind(rawValue: UInt8(property.collection_type.rawValue)) else {
                throw DBError(.schemaInvalid, "property '\(className).\(name)' has unknown collection type \(property.collection_type.rawValue)")
            }
            let target = property.link_target == nil ? nil : try requireString(property.link_target, "\(where_).link_target")
            let origin = property.link_origin_property == nil ? nil
                : try requireString(property.link_origin_property, "\(where_).link_origin_property")
            properties.append(Property(name: name, persistedName: persisted, type: type,
                                       isOptional: flags & DB_PROPERTY_FLAG_NULLABLE.rawValue != 0,
                                       isPrimaryKey: flags & DB_PROPERTY_FLAG_PRIMARY_KEY.rawValue != 0,
                                       isIndexed: flags & DB_PROPERTY_FLAG_INDEXED.rawValue != 0,
                                       collection: collection, objectType: target, linkOriginProperty: origin))
        }
        let numIndexes = try bufferCount(info.num_indexes, "classes[\(c)].num_indexes", elementSize: MemoryLayout<db_index_info_t>.stride)
        if numIndexes > 0 { _ = try require(info.indexes, "classes[\(c)].indexes") }
        var compoundIndexes: [[String]] = []
        for i in 0..<numIndexes {
            let index = info.indexes![i]
            let where_ = "classes[\(c)].indexes[\(i)]"
            let numIndexProperties = try bufferCount(index.num_properties, "\(where_).num_properties", elementSize: MemoryLayout<UnsafePointer<CChar>?>.stride)
            if numIndexProperties > 0 { _ = try require(index.properties, "\(where_).properties") }
            compoundIndexes.append(try (0..<numIndexProperties).map { try requireString(index.properties![$0], "\(where_).properties[\($0)]") })
        }
        guard info.flags >= 0, UInt32(info.flags) & ~DB_CLASS_FLAG_EMBEDDED.rawValue == 0 else {
            throw DBError(.schemaInvalid, "class '\(className)' has unknown flags \(info.flags)")
        }
        objectSchemas.append(ObjectSchema(name: className, properties: properties, compoundIndexes: compoundIndexes,
                                          isEmbedded: UInt32(info.flags) & DB_CLASS_FLAG_EMBEDDED.rawValue != 0))
    }
    return try Schema(objectSchemas)
}

/// Creates a schema from class descriptions.
///
/// The descriptions and their strings are copied; the `key` fields are ignored.
/// @param classes Array of `num_classes` class descriptions (may be NULL when num_classes is 0).
/// @return A new schema (release with db_schema_release), or NULL with DB_ERR_SCHEMA_INVALID
///   (duplicate names, a bad primary key or index type, unknown types or flags) or
///   DB_ERR_INVALID_ARGUMENT (NULL names).
@c public func db_schema_new(_ classes: UnsafePointer<db_class_info_t>?, _ num_classes: UInt) -> UnsafeMutablePointer<db_schema_t>? {
    boundary {
        wrap(SchemaBox(try engineSchema(classes, try bufferCount(num_classes, "num_classes", elementSize: MemoryLayout<db_class_info_t>.stride))), as: db_schema_t.self)
    }
}

/// Releases a schema. NULL is a no-op.
@c public func db_schema_release(_ schema: UnsafeMutablePointer<db_schema_t>?) {
    releaseHandle(schema, as: SchemaBox.self)
}

/// The number of classes in a schema.
/// @return The number of classes; 0 for NULL (with DB_ERR_INVALID_ARGUMENT as the last error).
@c public func db_schema_get_class_count(_ schema: UnsafePointer<db_schema_t>?) -> UInt {
    boundaryAnswer(0) { UInt(try schemaBox(schema).count) }
}

/// Describes one class of a schema.
/// @param[out] out_class Filled with the class; its strings and property array are borrowed from
///   the schema and valid until it is released. Keys are filled when the schema came from
///   db_realm_get_schema (else class key 0 and property keys -1).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, or DB_ERR_INVALID_ARGUMENT.
@c public func db_schema_get_class(_ schema: UnsafePointer<db_schema_t>?, _ index: UInt, _ out_class: UnsafeMutablePointer<db_class_info_t>?) -> db_status_e {
    boundary {
        let box = try schemaBox(schema)
        let out = try require(out_class, "out_class")
        guard index < UInt(box.count), let index = Int(exactly: index) else {
            throw DBError(.outOfRange, "class index \(index) is out of range (the schema has \(box.count) classes)")
        }
        out.pointee = box.classInfo(at: index)
    }
}

/// Finds a class by name.
/// @param[out] out_index The class's index for db_schema_get_class.
/// @return DB_OK, DB_ERR_NOT_FOUND, or DB_ERR_INVALID_ARGUMENT.
@c public func db_schema_find_class(_ schema: UnsafePointer<db_schema_t>?, _ name: UnsafePointer<CChar>?, _ out_index: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try schemaBox(schema)
        let name = try requireString(name, "name")
        let out = try require(out_index, "out_index")
        guard let index = box.schema.objectSchemas.firstIndex(where: { $0.name == name }) else {
            throw DBError(.notFound, "the schema has no class named '\(name)'")
        }
        out.pointee = UInt(index)
    }
}
