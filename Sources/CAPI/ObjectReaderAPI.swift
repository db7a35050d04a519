import CDBTypes
import CoreEngine

// Point reads of one object at a time, the class and the properties named once: a binding's loop
// of reads (`realm.object_for_primary_key("Person", i)` then its attributes, in Python) makes one
// call of two to four arguments per object, where db_object_get_values_by_primary_key takes ten
// (through ctypes each argument costs about 0.1 us). The values land in memory the reader owns,
// whose address the binding learns once.

/// The most bytes a reader keeps for the strings and binaries of one read: larger ones are lent
/// as db_value_t outputs are.
private let maxReaderBufferBytes = 1 << 24

/// Behind `db_object_reader_t`: the realm, the keys, and the memory of the values (`count`
/// db_value_t, then `bufferSize` bytes for their strings and binaries). The class is looked up
/// again at each read exactly as db_object_get_values_by_key looks it up, so that both behave
/// alike whatever happened to the realm in between (closed, another thread, a schema change).
final class ObjectReaderBox {
    let reader: PointReader
    private let propertyKeys: UnsafeMutableBufferPointer<db_property_key_t>
    let values: UnsafeMutablePointer<db_value_t>
    private let bufferSize: Int

    init(_ reader: PointReader, propertyKeys: UnsafeBufferPointer<db_property_key_t>, bufferSize: Int) {
        self.reader = reader
        self.propertyKeys = .allocate(capacity: max(propertyKeys.count, 1))
        _ = self.propertyKeys.initialize(from: propertyKeys)
        let valueBytes = MemoryLayout<db_value_t>.stride * max(propertyKeys.count, 1)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: valueBytes + bufferSize,
                                                      alignment: MemoryLayout<db_value_t>.alignment)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: valueBytes + bufferSize)
        values = memory.bindMemory(to: db_value_t.self, capacity: max(propertyKeys.count, 1))
        self.bufferSize = bufferSize
    }

    deinit {
        propertyKeys.deallocate()
        UnsafeMutableRawPointer(values).deallocate()
    }

    var realm: Realm { reader.realm }

    private var count: Int { propertyKeys.count }

    private func request() throws -> ValuesRequest {
        try ValuesRequest(UnsafePointer(propertyKeys.baseAddress), UInt(count), values,
                          UnsafeMutableRawPointer(values + count), UInt(bufferSize))
    }

    /// Reads the properties of the object with `objectKey`.
    func read(objectKey: db_object_key_t) throws {
        var request = try request()
        try reader.read(key: objectKey) { request.write($0, $1) }
        request.releaseBorrowed()
    }

    /// Finds the object with `primaryKey` and reads its properties; its key, or nil when there is none.
    func find(primaryKey: Value) throws -> Int64? {
        var request = try request()
        let key = try reader.find(primaryKey: primaryKey) { request.write($0, $1) }
        request.releaseBorrowed()
        return key
    }
}

/// Names a class and the properties each read gives, in order, for db_object_reader_read and
/// db_object_reader_find. The keys are checked now, and again at each read.
/// @param property_keys `count` keys (copied); may be NULL when count is 0. Single-valued
///   properties only (not collections, not linkingObjects).
/// @param buffer_size The bytes the reader keeps for the strings and binaries of a read (at most
///   16 MiB): they are copied there in order while they fit, and lent after that as
///   db_value_t outputs are (see db_object_get_values_by_key). 0: every one is lent.
/// @return A new reader (release with db_object_reader_release), or NULL with DB_ERR_NOT_FOUND
///   (class or property key), DB_ERR_WRONG_TYPE (a collection or linkingObjects property),
///   DB_ERR_INVALID_ARGUMENT (NULL realm, NULL keys, buffer_size over 16 MiB),
///   DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_object_reader_new(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                   _ property_keys: UnsafePointer<db_property_key_t>?, _ count: UInt,
                                   _ buffer_size: UInt) -> UnsafeMutablePointer<db_object_reader_t>? {
    boundary {
        let engine = try realmBox(realm).realm
        let classInfo = try engine.classInfo(key: class_key)
        let count = try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride)
        let keys = UnsafeBufferPointer(start: count == 0 ? nil : try require(property_keys, "property_keys"), count: count)
        guard buffer_size <= UInt(maxReaderBufferBytes) else {
            throw invalidArgument("'buffer_size' (\(buffer_size)) is more than a reader keeps (\(maxReaderBufferBytes) bytes)")
        }
        let reader = try PointReader(realm: engine, classInfo: classInfo, columnIDs: keys)
        return wrap(ObjectReaderBox(reader, propertyKeys: keys, bufferSize: Int(buffer_size)),
                    as: db_object_reader_t.self)
    }
}

/// Where the reader's reads land: its `count` values, followed in the same allocation by its
/// `buffer_size` bytes for their strings and binaries. Each read overwrites them. Any thread.
/// @return The reader's values: borrowed, valid until the reader is released; NULL for NULL.
@c public func db_object_reader_values(_ reader: UnsafePointer<db_object_reader_t>?) -> UnsafePointer<db_value_t>? {
    boundary { UnsafePointer(try objectReaderBox(reader).values) }
}

/// Reads the reader's properties of the object with `object_key` into the reader's values: as
/// db_object_get_values_by_key.
/// @return DB_OK, DB_ERR_INVALIDATED (no object with this key), DB_ERR_INVALID_ARGUMENT (NULL
///   reader), or an error as for db_object_get_values_by_key (DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD, ...); the values are left as they were on an error.
@c public func db_object_reader_read(_ reader: UnsafeMutablePointer<db_object_reader_t>?,
                                    _ object_key: db_object_key_t) -> db_status_e {
    boundary { try objectReaderBox(reader).read(objectKey: object_key) }
}

/// Finds the object with a primary key and reads the reader's properties of it into the reader's
/// values: as db_object_get_values_by_primary_key.
/// @param[out] out_key The object's key; left as it was when there is no such object.
/// @param[out] out_found Set to whether it exists (the values are left as they were when not).
/// @return DB_OK (found or not), DB_ERR_LOGIC (the class has no primary key), DB_ERR_WRONG_TYPE,
///   DB_ERR_INVALID_ARGUMENT (NULL reader, primary_key, out_key or out_found), or an error as for
///   db_object_get_values_by_primary_key (DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD, ...).
@c public func db_object_reader_find(_ reader: UnsafeMutablePointer<db_object_reader_t>?,
                                    _ primary_key: UnsafePointer<db_value_t>?,
                                    _ out_key: UnsafeMutablePointer<db_object_key_t>?,
                                    _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let box = try objectReaderBox(reader)
        let primaryKey = try engineValue(try require(primary_key, "primary_key").pointee)
        let outKey = try require(out_key, "out_key")
        let found = try require(out_found, "out_found")
        let key = try box.find(primaryKey: primaryKey)
        if let key { outKey.pointee = key }
        found.pointee = key != nil
    }
}

/// Whether the reader can read: false once its realm has been closed. Reads only the handle: any
/// thread.
/// @return true while its realm is open; false once it is closed, and for NULL.
@c public func db_object_reader_is_valid(_ reader: UnsafePointer<db_object_reader_t>?) -> Bool {
    boundaryAnswer(false) { try !objectReaderBox(reader).realm.isClosed }
}

/// Releases a reader (and its values). NULL is a no-op. Any thread.
@c public func db_object_reader_release(_ reader: UnsafeMutablePointer<db_object_reader_t>?) {
    releaseHandle(reader, as: ObjectReaderBox.self)
}

private func objectReaderBox(_ pointer: UnsafePointer<db_object_reader_t>?) throws -> ObjectReaderBox {
    try unwrap(pointer, "reader", as: ObjectReaderBox.self)
}
