import CDBTypes
import CoreEngine

// Creates of one object at a time, the class, the properties of the rows and the upsert mode
// named once: a binding's loop of creates (`realm.create("Person", {...})` in Python) makes one
// call of three arguments per object, where db_object_create_many_with_keys takes eight (through
// ctypes each argument costs about 0.1 us).

/// Behind `db_object_creator_t`: the realm, the keys and the mode, looked up again at each create
/// exactly as db_object_create_many_with_keys looks them up, so that both behave alike whatever
/// happened to the realm in between (closed, another thread, a schema change).
final class ObjectCreatorBox {
    let realm: Realm
    let classKey: db_class_key_t
    let propertyKeys: [db_property_key_t]
    let mode: UpsertMode

    init(realm: Realm, classKey: db_class_key_t, propertyKeys: [db_property_key_t], mode: UpsertMode) {
        self.realm = realm
        self.classKey = classKey
        self.propertyKeys = propertyKeys
        self.mode = mode
    }

    /// Creates (or upserts) the object of one row of values, giving its key.
    func create(_ values: UnsafePointer<db_value_t>?) throws -> Int64 {
        let classInfo = try realm.classInfo(key: classKey)
        let columns = try propertyKeys.withUnsafeBufferPointer { try properties($0.baseAddress, $0.count, of: classInfo) }
        var made: Int64 = -1
        try realm.createMany(classInfo, properties: columns, count: 1, upsert: mode, row: { _ in
            try engineValues(values, columns.count, "values")
        }, created: { _, key in made = key })
        return made
    }
}

/// Names a class, the properties each row gives (in order) and an upsert mode for
/// db_object_creator_create. The keys are checked now, and again at each create.
/// @param property_keys `count` keys (copied); may be NULL when count is 0.
/// @return A new creator (release with db_object_creator_release), or NULL with DB_ERR_NOT_FOUND
///   (class or property key), DB_ERR_INVALID_ARGUMENT (NULL realm, NULL keys, an unknown mode,
///   a property given twice), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_object_creator_new(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                    _ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt,
                                    _ mode: db_upsert_mode_e) -> UnsafeMutablePointer<db_object_creator_t>? {
    boundary {
        let engine = try realmBox(realm).realm
        let classInfo = try engine.classInfo(key: class_key)
        let count = try bufferCount(count, "count", elementSize: MemoryLayout<db_property_key_t>.stride)
        let columns = try properties(property_keys, count, of: classInfo)
        if Set(columns.map(\.columnID)).count != columns.count {
            throw invalidArgument("a property is given twice in property_keys")
        }
        let keys = count == 0 ? [] : Array(UnsafeBufferPointer(start: property_keys, count: count))
        return wrap(ObjectCreatorBox(realm: engine, classKey: class_key, propertyKeys: keys, mode: try upsertMode(mode)),
                    as: db_object_creator_t.self)
    }
}

/// Creates one object from `values`, the values of the creator's properties in its order (inside a
/// write transaction): as db_object_create_many_with_keys with one row. With an upsert mode, an
/// existing object with the row's primary key is updated instead.
/// @param values The row: as many values as the creator has properties; may be NULL for none.
/// @param[out] out_key The key of the object created or updated.
/// @return DB_OK or an error as for db_object_create_many_with_keys (DB_ERR_DUPLICATE_PRIMARY_KEY,
///   DB_ERR_MISSING_VALUE, DB_ERR_WRONG_TYPE, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALID_ARGUMENT
///   for a NULL creator or out_key, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD, ...); nothing is
///   created on an error.
@c public func db_object_creator_create(_ creator: UnsafePointer<db_object_creator_t>?,
                                       _ values: UnsafePointer<db_value_t>?,
                                       _ out_key: UnsafeMutablePointer<db_object_key_t>?) -> db_status_e {
    boundary {
        let box = try unwrap(creator, "creator", as: ObjectCreatorBox.self)
        let out = try require(out_key, "out_key")
        out.pointee = db_object_key_t(try box.create(values))
    }
}

/// Whether the creator can create: false once its realm has been closed. Reads only the handle:
/// any thread.
/// @return true while its realm is open; false once it is closed, and for NULL.
@c public func db_object_creator_is_valid(_ creator: UnsafePointer<db_object_creator_t>?) -> Bool {
    boundaryAnswer(false) { try !unwrap(creator, "creator", as: ObjectCreatorBox.self).realm.isClosed }
}

/// Releases a creator. NULL is a no-op. Any thread.
@c public func db_object_creator_release(_ creator: UnsafeMutablePointer<db_object_creator_t>?) {
    releaseHandle(creator, as: ObjectCreatorBox.self)
}
