import CDBTypes
import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

// db_object_t, in lifecycle order: create and find objects; read and write their values; their
// keys, description and backlinks; delete; validity; frozen views; release. (Their list, set and
// dictionary properties open in ListAPI, SetAPI and DictionaryAPI.)

/// Throws DB_ERR_INVALIDATED unless the object exists in its open realm.
private func requireLive(_ accessor: ObjectAccessor) throws {
    guard try accessor.isValid() else { throw DBError(.invalidated, "the object has been deleted or its realm closed") }
}

func upsertMode(_ mode: db_upsert_mode_e) throws -> UpsertMode {
    guard let mode = UpsertMode(rawValue: Int32(bitPattern: mode.rawValue)) else {
        throw invalidArgument("unknown upsert mode \(mode.rawValue)")
    }
    return mode
}

/// Creates an object with all its initial values in one call (or updates the object with the same
/// primary key, as `mode` allows). Must be called inside a write transaction.
///
/// Optional properties left out are null; every required property must be given.
/// @param property_keys `count` keys (from db_realm_find_property); may be NULL when count is 0.
/// @param values `count` values, copied.
/// @return A new object handle (release with db_object_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_READ_ONLY, DB_ERR_MISSING_VALUE, DB_ERR_WRONG_TYPE,
///   DB_ERR_NOT_NULLABLE, DB_ERR_DUPLICATE_PRIMARY_KEY (mode DB_UPSERT_NONE), DB_ERR_NOT_FOUND
///   (unknown class or property key), DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_create(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                               _ property_keys: UnsafePointer<db_property_key_t>?, _ values: UnsafePointer<db_value_t>?,
                               _ count: UInt, _ mode: db_upsert_mode_e) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let box = try realmBox(realm)
        let count = try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride)
        let classInfo = try box.realm.classInfo(key: class_key)
        let assignments = Array(zip(try properties(property_keys, count, of: classInfo), try engineValues(values, count, "values")))
        return wrapObject(try box.realm.create(classInfo, values: assignments, upsert: try upsertMode(mode)))
    }
}

/// Creates many objects in one call: `num_objects` rows of `num_keys` values each (row-major).
///
/// On failure, rows before the failing one remain in the write transaction (cancel the write to
/// discard them); the error message names the failing row.
/// @param[out] out_num_created Set to num_objects on success; may be NULL.
/// @return DB_OK or an error as for db_object_create (DB_ERR_WRONG_TRANSACTION_STATE, ...,
///   DB_ERR_WRONG_THREAD).
@c public func db_object_create_many(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                    _ property_keys: UnsafePointer<db_property_key_t>?, _ num_keys: UInt,
                                    _ values: UnsafePointer<db_value_t>?, _ num_objects: UInt, _ mode: db_upsert_mode_e,
                                    _ out_num_created: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let created = try createRows(realm, class_key, property_keys, num_keys, values, num_objects, mode) { _, _ in }
        out_num_created?.pointee = UInt(created)
    }
}

/// As db_object_create_many, and reports each row's object key: the object created, or with an
/// upsert mode the existing object it updated. Use the keys to link the objects afterwards
/// (DB_VALUE_LINK values) without a handle per object.
/// @param[out] out_keys `num_objects` keys, in row order; on failure, the rows before the failing
///   one are filled in.
/// @return DB_OK or an error as for db_object_create (DB_ERR_INVALID_ARGUMENT for a NULL out_keys;
///   DB_ERR_WRONG_THREAD, ...).
@c public func db_object_create_many_with_keys(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                              _ property_keys: UnsafePointer<db_property_key_t>?, _ num_keys: UInt,
                                              _ values: UnsafePointer<db_value_t>?, _ num_objects: UInt, _ mode: db_upsert_mode_e,
                                              _ out_keys: UnsafeMutablePointer<db_object_key_t>?) -> db_status_e {
    boundary {
        let keys = try require(out_keys, "out_keys")
        _ = try createRows(realm, class_key, property_keys, num_keys, values, num_objects, mode) { row, key in
            keys[row] = db_object_key_t(key)
        }
    }
}

/// Creates `num_objects` rows (row-major values), calling `created` with each row's object key.
private func createRows(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                        _ property_keys: UnsafePointer<db_property_key_t>?, _ num_keys: UInt,
                        _ values: UnsafePointer<db_value_t>?, _ num_objects: UInt, _ mode: db_upsert_mode_e,
                        _ created: (Int, Int64) -> Void) throws -> Int {
    let box = try realmBox(realm)
    let num_keys = try bufferCount(num_keys, "num_keys", elementSize: MemoryLayout<db_value_t>.stride)
    let num_objects = try bufferCount(num_objects, "num_objects", elementSize: MemoryLayout<db_value_t>.stride)
    let (total, overflow) = num_keys.multipliedReportingOverflow(by: num_objects)
    guard !overflow, total <= maxBufferBytes / MemoryLayout<db_value_t>.stride else {
        throw invalidArgument("num_keys * num_objects (\(num_keys) * \(num_objects)) is more values than any array can hold")
    }
    let classInfo = try box.realm.classInfo(key: class_key)
    let columns = try properties(property_keys, num_keys, of: classInfo)
    let upsert = try upsertMode(mode)
    if total > 0 { _ = try require(values, "values") }
    try box.realm.createMany(classInfo, properties: columns, count: num_objects, upsert: upsert, row: { row in
        try engineValues(values.map { $0 + row * num_keys }, num_keys, "values")
    }, created: created)
    return num_objects
}

/// Creates an embedded object as the value of a to-one link property (inside a write transaction),
/// deleting the embedded object it held before; its required properties start at their type's
/// default. Embedded objects cannot be created with
/// db_object_create: they exist only inside their parent.
/// @return A new object handle for the embedded object (release with db_object_release; set its
///   properties with db_object_set_value), or NULL with DB_ERR_LOGIC (not a link to an embedded
///   class), DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALIDATED, DB_ERR_NOT_FOUND,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_create_embedded(_ object: UnsafeMutablePointer<db_object_t>?,
                                        _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let accessor = try objectBox(object).object
        return wrapObject(try accessor.createEmbedded(for: accessor.classInfo.property(key: property_key)))
    }
}

/// Finds an object by primary key.
/// @param[out] out_found Set to whether it exists; may be NULL.
/// @return A new object handle (release with db_object_release), or NULL: with no error (DB_OK)
///   when absent, else with DB_ERR_LOGIC (the class has no primary key), DB_ERR_WRONG_TYPE,
///   DB_ERR_NOT_FOUND (class key), DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_find_with_primary_key(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                              _ primary_key: UnsafePointer<db_value_t>?,
                                              _ out_found: UnsafeMutablePointer<Bool>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let box = try realmBox(realm)
        let key = try engineValue(try require(primary_key, "primary_key").pointee)
        let object = try box.realm.object(box.realm.classInfo(key: class_key), primaryKey: key)
        out_found?.pointee = object != nil
        return object.map(wrapObject)
    }
}

/// The object with a given object key.
/// @return A new object handle (release with db_object_release), or NULL with DB_ERR_NOT_FOUND,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_object_get_by_key(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                   _ object_key: db_object_key_t) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let box = try realmBox(realm)
        return wrapObject(try box.realm.object(box.realm.classInfo(key: class_key), key: object_key))
    }
}

/// Finds the key of an object by primary key, without making a handle: with
/// db_object_get_values_by_key and db_object_set_value_by_key, a binding can keep an object as
/// its (class key, object key) pair and read or write it with one call each.
/// @param[out] out_key The object's key; left as it was when there is no such object.
/// @param[out] out_found Set to whether it exists.
/// @return DB_OK (found or not), DB_ERR_LOGIC (the class has no primary key), DB_ERR_WRONG_TYPE,
///   DB_ERR_NOT_FOUND (class key), DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_object_find_key_with_primary_key(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                                  _ primary_key: UnsafePointer<db_value_t>?,
                                                  _ out_key: UnsafeMutablePointer<db_object_key_t>?,
                                                  _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let lookup = try PrimaryKeyArguments(realm, class_key, primary_key, out_key, out_found)
        lookup.report(try lookup.realm.objectKey(lookup.classInfo, primaryKey: lookup.primaryKey))
    }
}

/// The arguments of a lookup by primary key, checked: the realm, the class, the key value, and
/// where the caller wants the answer.
private struct PrimaryKeyArguments {
    let realm: Realm
    let classInfo: ClassInfo
    let primaryKey: Value
    private let outKey: UnsafeMutablePointer<db_object_key_t>
    private let found: UnsafeMutablePointer<Bool>

    init(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t, _ primary_key: UnsafePointer<db_value_t>?,
         _ out_key: UnsafeMutablePointer<db_object_key_t>?, _ out_found: UnsafeMutablePointer<Bool>?) throws {
        self.realm = try realmBox(realm).realm
        primaryKey = try engineValue(try require(primary_key, "primary_key").pointee)
        outKey = try require(out_key, "out_key")
        found = try require(out_found, "out_found")
        classInfo = try self.realm.classInfo(key: class_key)
    }

    /// Tells the caller the key found (nil: no such object; `out_key` is then left as it was).
    func report(_ key: Int64?) {
        if let key { outKey.pointee = key }
        found.pointee = key != nil
    }
}

/// Finds an object by primary key and reads several of its properties, in one call and without a
/// handle: db_object_find_key_with_primary_key followed by db_object_get_values_by_key (the point
/// read of a binding that keeps objects as keys, in one boundary crossing instead of two).
/// @param[out] out_values `count` values, as db_object_get_values_by_key writes them; left as they
///   were when there is no such object.
/// @param buffer Caller memory for the values' bytes, as for db_object_get_values_by_key; may be NULL.
/// @param buffer_size The size of `buffer` in bytes.
/// @param[out] out_key The object's key; left as it was when there is no such object.
/// @param[out] out_found Set to whether it exists.
/// @return DB_OK (found or not), or an error as for db_object_find_key_with_primary_key (DB_ERR_LOGIC,
///   DB_ERR_WRONG_TYPE, ...) or db_object_get_values_by_key (DB_ERR_NOT_FOUND for a property key,
///   ..., DB_ERR_WRONG_THREAD); no value is written on an error.
@c public func db_object_get_values_by_primary_key(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                                  _ primary_key: UnsafePointer<db_value_t>?,
                                                  _ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt,
                                                  _ out_values: UnsafeMutablePointer<db_value_t>?,
                                                  _ buffer: UnsafeMutableRawPointer?, _ buffer_size: UInt,
                                                  _ out_key: UnsafeMutablePointer<db_object_key_t>?,
                                                  _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let lookup = try PrimaryKeyArguments(realm, class_key, primary_key, out_key, out_found)
        // The lookup and the read under one lock; a miss checks the property keys a hit reads
        // with, so that an error does not depend on whether the object exists.
        var request = try ValuesRequest(property_keys, count, out_values, buffer, buffer_size)
        lookup.report(try lookup.realm.readValues(of: lookup.classInfo, primaryKey: lookup.primaryKey,
                                                  columnIDs: request.keys) { request.write($0, $1) })
        request.releaseBorrowed()
    }
}

/// Reads several properties of the object with a given key, without a handle (see
/// db_object_find_key_with_primary_key): as db_object_get_values on that object's handle.
/// @param[out] out_values `count` values. Their strings and binaries are copied into `buffer` in
///   order, back to back, until one does not fit (they point there: valid while the caller keeps
///   the buffer); that one and those after it are borrowed as for db_object_get_value.
/// @param buffer Caller memory for the values' bytes, so that a binding reads them without a call
///   per string; may be NULL (`buffer_size` is then ignored and every value is borrowed).
/// @param buffer_size The size of `buffer` in bytes.
/// @return DB_OK, DB_ERR_INVALIDATED (no object with this key in the version the realm reads:
///   deleted, or never created), DB_ERR_NOT_FOUND (class or property key), DB_ERR_WRONG_TYPE (a
///   collection property), DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD;
///   no value is written on an error.
@c public func db_object_get_values_by_key(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                          _ object_key: db_object_key_t,
                                          _ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt,
                                          _ out_values: UnsafeMutablePointer<db_value_t>?,
                                          _ buffer: UnsafeMutableRawPointer?, _ buffer_size: UInt) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let classInfo = try box.realm.classInfo(key: class_key)
        var request = try ValuesRequest(property_keys, count, out_values, buffer, buffer_size)
        try box.realm.readValues(of: classInfo, key: object_key, columnIDs: request.keys) { request.write($0, $1) }
        request.releaseBorrowed()
    }
}

/// Writes one property of the object with a given key, without a handle (inside a write
/// transaction): as db_object_set_value on that object's handle.
/// @return DB_OK, DB_ERR_INVALIDATED (no object with this key, as for db_object_get_values_by_key),
///   or an error as for db_object_set_value (DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_WRONG_TYPE,
///   ..., DB_ERR_WRONG_THREAD).
@c public func db_object_set_value_by_key(_ realm: UnsafeMutablePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                         _ object_key: db_object_key_t, _ property_key: db_property_key_t,
                                         _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let engine = try realmBox(realm).realm
        let classInfo = try engine.classInfo(key: class_key)
        let property = try classInfo.property(key: property_key)
        try engine.setValue(try engineValue(try require(value, "value").pointee), for: property, of: classInfo, key: object_key)
    }
}

/// Reads one property.
/// @param[out] out_value Strings and binaries in it are borrowed: valid until the next successful
///   call on this thread with a db_value_t output (see db_value_t).
/// @return DB_OK, DB_ERR_NOT_FOUND (property key), DB_ERR_INVALIDATED, DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_get_value(_ object: UnsafePointer<db_object_t>?, _ property_key: db_property_key_t,
                                  _ out_value: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let out = try require(out_value, "out_value")
        let value = try accessor.value(of: accessor.classInfo.property(key: property_key))
        let state = ThreadState.current
        state.releaseBorrowed()
        out.pointee = cValue(value, state)
    }
}

/// Reads several properties in one call (the fast path for bindings).
/// @param[out] out_values `count` values; borrowed as for db_object_get_value.
/// @return DB_OK, or an error as for db_object_get_value (DB_ERR_NOT_FOUND, ..., DB_ERR_WRONG_THREAD;
///   no value is written then).
@c public func db_object_get_values(_ object: UnsafePointer<db_object_t>?, _ property_keys: UnsafePointer<db_property_key_t>?,
                                   _ count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        try readValues(of: accessor, property_keys, count, out_values)
    }
}

/// The arguments of a read of several properties, checked: the property keys, where their values
/// go, and the caller's buffer for their bytes (strings and binaries are copied there while they
/// fit; the others are borrowed as db_value_t outputs are). The body of db_object_get_values
/// (with no buffer), db_object_get_values_by_key and db_object_get_values_by_primary_key.
struct ValuesRequest {
    let keys: UnsafeBufferPointer<Int64>
    private let out: UnsafeMutablePointer<db_value_t>?
    private var caller: CallerBytes
    private let state: ThreadState
    private var releasedBorrowed = false

    init(_ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?,
         _ buffer: UnsafeMutableRawPointer? = nil, _ buffer_size: UInt = 0) throws {
        let count = try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride)
        keys = count == 0 ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(start: try require(property_keys, "property_keys"), count: count)
        out = count > 0 ? try require(out_values, "out_values") : nil
        caller = try CallerBytes(buffer, buffer_size)
        state = ThreadState.current
    }

    /// Writes the value of `keys[index]`. The values the thread's previous call lent are
    /// released first (db.h: a call that fails before writing leaves them).
    mutating func write(_ index: Int, _ contents: StoredContents) {
        releaseBorrowed()
        var value = db_value_t()
        // Numbers and in-place bytes inline; the rest through cValue, whose `place` closure
        // costs a retain of the thread state per value.
        switch contents {
        case let .value(.int(i)):
            value.type = DB_VALUE_INT; value.integer = i
        case let .value(.double(d)):
            value.type = DB_VALUE_DOUBLE; value.dnum = d
        case let .value(.bool(b)):
            value.type = DB_VALUE_BOOL; value.boolean = b
        case .value(.null):
            value.type = DB_VALUE_NULL
        case let .text(bytes):
            value.type = DB_VALUE_STRING
            value.string = db_string_t(data: caller.place(bytes, state).assumingMemoryBound(to: CChar.self), size: bytes.count)
        case let .binary(bytes):
            value.type = DB_VALUE_DATA
            value.binary = db_binary_t(data: caller.place(bytes, state).assumingMemoryBound(to: UInt8.self), size: bytes.count)
        case let .value(other):
            let state = state
            value = cValue(other) { caller.place($0, state) }
        }
        out![index] = value
    }

    /// Ends a call that succeeded: it released the lent values even when it wrote none.
    mutating func releaseBorrowed() {
        if !releasedBorrowed { state.releaseBorrowed() }
        releasedBorrowed = true
    }
}

private func readValues(of accessor: ObjectAccessor, _ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt,
                        _ out_values: UnsafeMutablePointer<db_value_t>?) throws {
    var request = try ValuesRequest(property_keys, count, out_values)
    try accessor.forEachValue(ofColumnIDs: request.keys) { request.write($0, $1) }
    request.releaseBorrowed()
}

/// Reads one property by public name (slower than by key).
/// @return DB_OK, DB_ERR_NOT_FOUND (no such property), or an error as for db_object_get_value
///   (DB_ERR_INVALIDATED, ..., DB_ERR_WRONG_THREAD).
@c public func db_object_get_value_by_name(_ object: UnsafePointer<db_object_t>?, _ property_name: UnsafePointer<CChar>?,
                                          _ out_value: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let name = try requireString(property_name, "property_name")
        let out = try require(out_value, "out_value")
        let value = try accessor.value(of: accessor.classInfo.requireProperty(named: name))
        let state = ThreadState.current
        state.releaseBorrowed()
        out.pointee = cValue(value, state)
    }
}

/// Writes one property (inside a write transaction). Integers widen to float, double and
/// decimal128 properties; float and double convert to each other.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_READ_ONLY, DB_ERR_WRONG_TYPE,
///   DB_ERR_NOT_NULLABLE, DB_ERR_LOGIC (changing a primary key outside a migration),
///   DB_ERR_INVALIDATED, DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_set_value(_ object: UnsafeMutablePointer<db_object_t>?, _ property_key: db_property_key_t,
                                  _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let property = try accessor.classInfo.property(key: property_key)
        try accessor.setValue(try engineValue(try require(value, "value").pointee), for: property)
    }
}

/// Writes several properties in one call; all are validated before any is written.
/// @return DB_OK, or an error as for db_object_set_value (DB_ERR_WRONG_TYPE, ..., DB_ERR_WRONG_THREAD;
///   nothing is written then).
@c public func db_object_set_values(_ object: UnsafeMutablePointer<db_object_t>?, _ property_keys: UnsafePointer<db_property_key_t>?,
                                   _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let count = try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride)
        let columns = try properties(property_keys, count, of: accessor.classInfo)
        try accessor.setValues(Array(zip(columns, try engineValues(values, count, "values"))))
    }
}

/// Writes one property by public name.
/// @return DB_OK, DB_ERR_NOT_FOUND (no such property), or an error as for db_object_set_value
///   (DB_ERR_WRONG_TYPE, ..., DB_ERR_WRONG_THREAD).
@c public func db_object_set_value_by_name(_ object: UnsafeMutablePointer<db_object_t>?, _ property_name: UnsafePointer<CChar>?,
                                          _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let property = try accessor.classInfo.requireProperty(named: try requireString(property_name, "property_name"))
        try accessor.setValue(try engineValue(try require(value, "value").pointee), for: property)
    }
}

/// The object's key within its class (stable; never reused).
/// @return DB_OK, DB_ERR_INVALIDATED (deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_get_key(_ object: UnsafePointer<db_object_t>?, _ out_key: UnsafeMutablePointer<db_object_key_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let out = try require(out_key, "out_key")
        try requireLive(accessor)
        out.pointee = accessor.key
    }
}

/// The key of the object's class.
/// @return DB_OK, DB_ERR_INVALIDATED (deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_get_class_key(_ object: UnsafePointer<db_object_t>?, _ out_class_key: UnsafeMutablePointer<db_class_key_t>?) -> db_status_e {
    boundary {
        let accessor = try objectBox(object).object
        let out = try require(out_class_key, "out_class_key")
        try requireLive(accessor)
        out.pointee = accessor.classInfo.tableID
    }
}

/// A readable description: "Person {\n\tid = 1;\n\tname = 'Ann';\n}".
/// @return A new string (free with db_string_free), or NULL with DB_ERR_INVALIDATED,
///   DB_ERR_INVALID_ARGUMENT or DB_ERR_WRONG_THREAD.
@c public func db_object_description(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<CChar>? {
    boundary {
        let accessor = try objectBox(object).object
        try requireLive(accessor)
        return strdup(accessor.description)
    }
}

/// The realm the object belongs to (a frozen object's frozen realm), as another handle to it:
/// releasing it does not close the realm.
/// @return A new handle (release with db_realm_release), or NULL with DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD or DB_ERR_INVALID_ARGUMENT.
@c public func db_object_get_realm(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { try otherHandle(to: try objectBox(object).object.realm) }
}

/// The objects of class `origin_class` whose property `origin_property` links to `object`, as
/// live results (any link property, declared as linkingObjects or not).
/// @return New results (release with db_results_release), or NULL with DB_ERR_NOT_FOUND (class or
///   property key), DB_ERR_WRONG_TYPE (not a link property), DB_ERR_INVALIDATED,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_get_backlinks(_ object: UnsafePointer<db_object_t>?, _ origin_class: db_class_key_t,
                                      _ origin_property: db_property_key_t) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let accessor = try objectBox(object).object
        guard try accessor.isValid() else { throw DBError(.invalidated, "the object has been deleted or its realm closed") }
        let originClass = try accessor.realm.classInfo(key: origin_class)
        let property = try originClass.property(key: origin_property)
        return wrapResults(try accessor.backlinks(fromClass: originClass, columnID: property.columnID))
    }
}

/// A linkingObjects property of the object, as live results.
/// @return New results (release with db_results_release), or NULL with DB_ERR_WRONG_TYPE (not a
///   linkingObjects property), DB_ERR_NOT_FOUND, DB_ERR_INVALIDATED, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_get_linking_objects(_ object: UnsafePointer<db_object_t>?,
                                            _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let accessor = try objectBox(object).object
        guard try accessor.isValid() else { throw DBError(.invalidated, "the object has been deleted or its realm closed") }
        return wrapResults(try accessor.linkingObjects(of: accessor.classInfo.property(key: property_key)))
    }
}

/// Deletes the object from its realm (inside a write transaction). The handle stays allocated
/// (release it) but is invalid.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_READ_ONLY, DB_ERR_INVALIDATED,
///   DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_delete(_ object: UnsafeMutablePointer<db_object_t>?) -> db_status_e {
    boundary { try objectBox(object).object.delete() }
}

/// Whether the object exists in its realm's current version: false after deletion, after its
/// realm closed, and for NULL. Confined like the object: on another thread than its realm's (or in
/// a fork child) the answer is false, with DB_ERR_WRONG_THREAD as the last error.
/// @return true while the object exists and its realm is open; false otherwise (the last error says
///   why: DB_OK for a deleted object, DB_ERR_INVALID_ARGUMENT for NULL, DB_ERR_WRONG_THREAD).
@c public func db_object_is_valid(_ object: UnsafePointer<db_object_t>?) -> Bool {
    boundaryBool { try objectBox(object).object.isValid() }
}

/// Whether two handles refer to the same database object (same file, class and key). Reads only
/// the handles: any thread.
/// @return true for the same object; false for different ones, and if either is NULL.
@c public func db_object_equals(_ a: UnsafePointer<db_object_t>?, _ b: UnsafePointer<db_object_t>?) -> Bool {
    boundaryBool { try objectBox(a, "a").object == objectBox(b, "b").object }
}

/// This object at the version its realm reads now, immutable, usable from any thread (it keeps
/// its frozen realm, and that version, until released).
/// @return A new object (release with db_object_release), or NULL with DB_ERR_INVALIDATED
///   (deleted), DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_object_freeze(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary { wrapObject(try objectBox(object).object.freeze()) }
}

/// The live object in the realm a frozen object was frozen from.
/// @return A new object (release with db_object_release); NULL with no error (DB_OK) when it has
///   been deleted since; else NULL with DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD (call it on the live realm's thread).
@c public func db_object_thaw(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary { try objectBox(object).object.thaw().map(wrapObject) }
}

/// Whether the object is frozen. Reads only the handle: any thread.
/// @return true for a frozen object; false for a live one and for NULL.
@c public func db_object_is_frozen(_ object: UnsafePointer<db_object_t>?) -> Bool {
    boundaryAnswer(false) { try objectBox(object).object.isFrozen }
}

/// Releases an object handle (the object itself stays in the realm). NULL is a no-op. Any thread.
@c public func db_object_release(_ object: UnsafeMutablePointer<db_object_t>?) {
    releaseHandle(object, as: ObjectBox.self)
}
