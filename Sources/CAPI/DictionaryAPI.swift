import CDBTypes
import CoreEngine

// db_dictionary_t, in lifecycle order (opened from an object; read and changed; validity; frozen views;
// release): a dictionary property of one object: string keys (non-empty, no '.', not
// starting with '$'; DB_ERR_INVALID_ARGUMENT otherwise) to values, in key (code point) order.
// Keys are passed as NUL-terminated UTF-8 and returned as DB_VALUE_STRING values.

private func dictionary(_ pointer: UnsafePointer<db_dictionary_t>?) throws -> DictionaryAccessor {
    try collection(pointer, "dictionary", as: DictionaryAccessor.self)
}

private func dictionary(_ pointer: UnsafeMutablePointer<db_dictionary_t>?) throws -> DictionaryAccessor {
    try collection(pointer, "dictionary", as: DictionaryAccessor.self)
}

/// Opens a dictionary property of an object.
/// @return A new dictionary handle (release with db_dictionary_release), or NULL with
///   DB_ERR_WRONG_TYPE (not a dictionary property), DB_ERR_NOT_FOUND, DB_ERR_INVALIDATED (its
///   object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_get_dictionary(_ object: UnsafePointer<db_object_t>?, _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_dictionary_t>? {
    boundary { try openCollection(object, property_key, as: db_dictionary_t.self) { try $0.dictionary(of: $1) } }
}

/// The number of entries.
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_size(_ dictionary: UnsafePointer<db_dictionary_t>?, _ out_size: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.dictionary(dictionary)
        try require(out_size, "out_size").pointee = UInt(try accessor.count())
    }
}

/// Batch read of entries in key order from position `start`: keys (DB_VALUE_STRING) and values.
/// @param[out] out_count How many entries were written (fewer at the end).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_get_entries(_ dictionary: UnsafePointer<db_dictionary_t>?, _ start: UInt, _ max_count: UInt,
                                        _ out_keys: UnsafeMutablePointer<db_value_t>?, _ out_values: UnsafeMutablePointer<db_value_t>?,
                                        _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let entries = try CAPI.dictionary(dictionary).entries()
        let out = try require(out_count, "out_count")
        let start = try count(start, "start"), maxCount = try count(max_count, "max_count")
        guard start <= entries.count else { throw DBError(.outOfRange, "start \(start) is beyond the end (\(entries.count) entries)") }
        let slice = Array(entries[start..<(start + min(maxCount, entries.count - start))])
        if !slice.isEmpty { _ = try require(out_keys, "out_keys"); _ = try require(out_values, "out_values") }
        let state = ThreadState.current
        state.releaseBorrowed()
        for (index, entry) in slice.enumerated() {
            out_keys![index] = cValue(.string(entry.key), state)
            out_values![index] = cValue(entry.value, state)
        }
        out.pointee = UInt(slice.count)
    }
}

/// The value for `key`.
/// @param[out] out_found false when the key is absent (a present key may hold null).
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_find(_ dictionary: UnsafePointer<db_dictionary_t>?, _ key: UnsafePointer<CChar>?,
                                 _ out_value: UnsafeMutablePointer<db_value_t>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.dictionary(dictionary)
        let out = try require(out_value, "out_value"), found = try require(out_found, "out_found")
        let value = try accessor.value(forKey: try requireString(key, "key"))
        writeValues([value ?? .null], to: out)
        found.pointee = value != nil
    }
}

/// Sets the value for `key`, adding the key if needed.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (a bad key or NULL), DB_ERR_WRONG_TYPE,
///   DB_ERR_NOT_NULLABLE, DB_ERR_LOGIC, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALIDATED (its
///   object deleted, or its realm closed), DB_ERR_WRONG_THREAD.
@c public func db_dictionary_insert(_ dictionary: UnsafeMutablePointer<db_dictionary_t>?, _ key: UnsafePointer<CChar>?,
                                   _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.dictionary(dictionary)
        try accessor.set(try engineValue(try require(value, "value").pointee), forKey: try requireString(key, "key"))
    }
}

/// Removes `key`.
/// @param[out] out_erased false when it was not there; may be NULL.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_erase(_ dictionary: UnsafeMutablePointer<db_dictionary_t>?, _ key: UnsafePointer<CChar>?,
                                  _ out_erased: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let erased = try CAPI.dictionary(dictionary).remove(key: try requireString(key, "key"))
        out_erased?.pointee = erased
    }
}

/// Removes every entry.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_clear(_ dictionary: UnsafeMutablePointer<db_dictionary_t>?) -> db_status_e {
    boundary { try CAPI.dictionary(dictionary).removeAll() }
}

/// Creates an embedded object and stores the link to it under `key`.
/// @return A new object handle (release with db_object_release), or NULL with DB_ERR_LOGIC (the
///   dictionary does not hold embedded objects), DB_ERR_INVALID_ARGUMENT (a bad key or NULL),
///   DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_WRONG_THREAD.
@c public func db_dictionary_insert_embedded(_ dictionary: UnsafeMutablePointer<db_dictionary_t>?,
                                            _ key: UnsafePointer<CChar>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary { wrapObject(try CAPI.dictionary(dictionary).setEmbedded(forKey: try requireString(key, "key"))) }
}

/// min, max, sum or average of the values of a dictionary of scalars, as db_list_aggregate.
/// @return DB_OK, DB_ERR_WRONG_TYPE (elements that are objects, or of a type that cannot be
///   aggregated), DB_ERR_NOT_SUPPORTED (decimal128 sum or average), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_aggregate(_ dictionary: UnsafePointer<db_dictionary_t>?, _ aggregate: db_aggregate_e,
                                      _ out_value: UnsafeMutablePointer<db_value_t>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary { try CAPI.aggregate(try CAPI.dictionary(dictionary), aggregate, out_value, out_found) }
}

/// The objects a dictionary of objects holds (non-null values, in key order) as live results.
/// @return New results (release with db_results_release), or NULL with DB_ERR_WRONG_TYPE (a
///   dictionary of scalars), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_to_results(_ dictionary: UnsafePointer<db_dictionary_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try CAPI.dictionary(dictionary).results()) }
}

/// Whether the dictionary's object still exists and its realm is open. Confined like the dictionary: on
/// another thread than its realm's (or in a fork child) the answer is false, with
/// DB_ERR_WRONG_THREAD as the last error.
/// @return true while its object exists and its realm is open; false otherwise, and for NULL.
@c public func db_dictionary_is_valid(_ dictionary: UnsafePointer<db_dictionary_t>?) -> Bool {
    boundaryBool { try CAPI.dictionary(dictionary).isValid() }
}

/// The dictionary at the version its realm reads now, immutable, usable from any thread.
/// @return A new dictionary (release with db_dictionary_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_INVALIDATED (its object deleted, or
///   its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_dictionary_freeze(_ dictionary: UnsafePointer<db_dictionary_t>?) -> UnsafeMutablePointer<db_dictionary_t>? {
    freezeCollection(dictionary, "dictionary", as: DictionaryAccessor.self)
}

/// The live dictionary in the realm this one was frozen from (for a live dictionary: another handle to it).
/// @return A new dictionary (release with db_dictionary_release); NULL with no error (DB_OK) when
///   its object has been deleted since; else NULL with DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT
///   or DB_ERR_WRONG_THREAD (call it on the live realm's thread).
@c public func db_dictionary_thaw(_ dictionary: UnsafePointer<db_dictionary_t>?) -> UnsafeMutablePointer<db_dictionary_t>? {
    thawCollection(dictionary, "dictionary", as: DictionaryAccessor.self)
}

/// Whether the dictionary is frozen. Reads only the handle: any thread.
/// @return true for a frozen dictionary; false for a live one and for NULL.
@c public func db_dictionary_is_frozen(_ dictionary: UnsafePointer<db_dictionary_t>?) -> Bool {
    isFrozen(dictionary, "dictionary", as: DictionaryAccessor.self)
}

/// Releases a dictionary handle. NULL is a no-op. Any thread.
@c public func db_dictionary_release(_ dictionary: UnsafeMutablePointer<db_dictionary_t>?) {
    releaseHandle(dictionary, as: CollectionBox.self)
}
