import CDBTypes
import CoreEngine

// Writes of one property by object key, the class and property named once: a binding's loop of
// writes (`for o in results: o.score += 1` in Python) makes one call of three arguments per
// object. Through ctypes each argument of a call costs about as much as the engine's write of a
// number, so db_object_set_value_by_key's five (realm, class, object, property, value) cost
// more than the write itself.

/// Behind `db_property_writer_t`: the realm and the keys, looked up again at each write exactly
/// as db_object_set_value_by_key looks them up, so that both behave alike whatever happened to
/// the realm in between (closed, another thread, a schema change).
final class PropertyWriterBox {
    let writer: PointWriter

    init(_ writer: PointWriter) {
        self.writer = writer
    }

    var realm: Realm { writer.realm }

    func write(_ value: Value, objectKey: db_object_key_t) throws {
        try writer.write(value, key: objectKey)
    }
}

/// Names one property of a class for db_property_writer_set_int and db_property_writer_set_double.
/// The property must hold one value (not a collection, not linkingObjects); its type is checked at
/// each write, as db_object_set_value_by_key checks it.
/// @return A new writer (release with db_property_writer_release), or NULL with DB_ERR_NOT_FOUND
///   (class or property key), DB_ERR_WRONG_TYPE (a collection or linkingObjects property),
///   DB_ERR_INVALID_ARGUMENT (NULL realm), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_property_writer_new(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                     _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_property_writer_t>? {
    boundary {
        let engine = try realmBox(realm).realm
        let classInfo = try engine.classInfo(key: class_key)
        let property = try classInfo.property(key: property_key)  // the C API's message for a bad key
        return wrap(PropertyWriterBox(try PointWriter(realm: engine, classInfo: classInfo, columnID: property.columnID)),
                    as: db_property_writer_t.self)
    }
}

/// Writes an integer to the writer's property of the object with `object_key` (inside a write
/// transaction): as db_object_set_value_by_key with a DB_TYPE_INT value (an int property, a
/// double or float one converts it, a mixed one stores it).
/// @return DB_OK, DB_ERR_INVALIDATED (no object with this key), DB_ERR_INVALID_ARGUMENT (NULL
///   writer), or an error as for db_object_set_value_by_key (DB_ERR_WRONG_TRANSACTION_STATE,
///   DB_ERR_WRONG_TYPE, DB_ERR_LOGIC for a primary key, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD).
@c public func db_property_writer_set_int(_ writer: UnsafePointer<db_property_writer_t>?, _ object_key: db_object_key_t,
                                         _ value: Int64) -> db_status_e {
    boundary { try propertyWriterBox(writer).write(.int(value), objectKey: object_key) }
}

/// Writes a double to the writer's property of the object with `object_key` (inside a write
/// transaction): as db_object_set_value_by_key with a DB_TYPE_DOUBLE value (a double or mixed
/// property; a float one rounds it; an int property refuses it with DB_ERR_WRONG_TYPE).
/// @return DB_OK, DB_ERR_INVALIDATED (no object with this key), DB_ERR_INVALID_ARGUMENT (NULL
///   writer), or an error as for db_object_set_value_by_key (DB_ERR_WRONG_TRANSACTION_STATE,
///   DB_ERR_WRONG_TYPE, DB_ERR_LOGIC for a primary key, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD).
@c public func db_property_writer_set_double(_ writer: UnsafePointer<db_property_writer_t>?, _ object_key: db_object_key_t,
                                            _ value: Double) -> db_status_e {
    boundary { try propertyWriterBox(writer).write(.double(value), objectKey: object_key) }
}

/// Releases a writer. NULL is a no-op. Any thread.
@c public func db_property_writer_release(_ writer: UnsafeMutablePointer<db_property_writer_t>?) {
    releaseHandle(writer, as: PropertyWriterBox.self)
}

private func propertyWriterBox(_ pointer: UnsafePointer<db_property_writer_t>?) throws -> PropertyWriterBox {
    try unwrap(pointer, "writer", as: PropertyWriterBox.self)
}

/// Whether the writer can write: false once its realm has been closed. Reads only the handle: any
/// thread.
/// @return true while its realm is open; false once it is closed, and for NULL.
@c public func db_property_writer_is_valid(_ writer: UnsafePointer<db_property_writer_t>?) -> Bool {
    boundaryAnswer(false) { try !propertyWriterBox(writer).realm.isClosed }
}
