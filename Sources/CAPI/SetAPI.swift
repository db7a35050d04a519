import CDBTypes
import CoreEngine

// db_set_t, in lifecycle order (opened from an object; read and changed; validity; frozen views;
// release): a set property of one object: no duplicates, elements in sorted order (nulls first,
// numbers by value, strings by code point), which is the order of db_set_get. Changes need a
// write transaction.

private func set(_ pointer: UnsafePointer<db_set_t>?) throws -> SetAccessor { try collection(pointer, "set", as: SetAccessor.self) }

private func set(_ pointer: UnsafeMutablePointer<db_set_t>?) throws -> SetAccessor { try collection(pointer, "set", as: SetAccessor.self) }

/// Opens a set property of an object.
/// @return A new set handle (release with db_set_release), or NULL with DB_ERR_WRONG_TYPE (not a
///   set property), DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALIDATED (its object deleted,
///   or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_get_set(_ object: UnsafePointer<db_object_t>?, _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_set_t>? {
    boundary { try openCollection(object, property_key, as: db_set_t.self) { try $0.set(of: $1) } }
}

/// The number of elements.
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_size(_ set: UnsafePointer<db_set_t>?, _ out_size: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.set(set)
        try require(out_size, "out_size").pointee = UInt(try accessor.count())
    }
}

/// The element at `index` in the set's order.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_INVALIDATED (its object deleted, or its realm
///   closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_get(_ set: UnsafePointer<db_set_t>?, _ index: UInt, _ out_value: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let elements = try CAPI.set(set).elements()
        let out = try require(out_value, "out_value")
        let index = try count(index, "index")
        guard index < elements.count else {
            throw DBError(.outOfRange, "index \(index) is out of range (\(elements.count) elements)")
        }
        writeValues([elements[index]], to: out)
    }
}

/// Batch read of elements from position `start`, as db_list_get_values.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_get_values(_ set: UnsafePointer<db_set_t>?, _ start: UInt, _ max_count: UInt,
                                _ out_values: UnsafeMutablePointer<db_value_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try copyValues(try CAPI.set(set).elements(), start: start, maxCount: max_count, out_values: out_values, out_count: out_count) }
}

/// Whether the set holds `value`.
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_contains(_ set: UnsafePointer<db_set_t>?, _ value: UnsafePointer<db_value_t>?,
                              _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.set(set)
        let found = try require(out_found, "out_found")
        found.pointee = try accessor.contains(try engineValue(try require(value, "value").pointee))
    }
}

/// Adds `value`.
/// @param[out] out_inserted false when it was already there; may be NULL.
/// @return DB_OK, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_WRONG_TRANSACTION_STATE,
///   DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_set_insert(_ set: UnsafeMutablePointer<db_set_t>?, _ value: UnsafePointer<db_value_t>?,
                            _ out_inserted: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let inserted = try CAPI.set(set).insert(try engineValue(try require(value, "value").pointee))
        out_inserted?.pointee = inserted
    }
}

/// Removes `value`.
/// @param[out] out_erased false when it was not there; may be NULL.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_erase(_ set: UnsafeMutablePointer<db_set_t>?, _ value: UnsafePointer<db_value_t>?,
                           _ out_erased: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let erased = try CAPI.set(set).remove(try engineValue(try require(value, "value").pointee))
        out_erased?.pointee = erased
    }
}

/// Removes every element.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_clear(_ set: UnsafeMutablePointer<db_set_t>?) -> db_status_e {
    boundary { try CAPI.set(set).removeAll() }
}

/// Replaces every element with `values[0 ..< count]` (duplicates collapse; all checked first).
/// @return DB_OK, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_WRONG_TRANSACTION_STATE (outside a
///   write), DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_set_assign(_ set: UnsafeMutablePointer<db_set_t>?, _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary { try CAPI.set(set).replaceAll(with: try engineValues(values, try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride), "values")) }
}

/// Adds every value of `values[0 ..< count]` (union; all checked first).
/// @return DB_OK, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_WRONG_TRANSACTION_STATE (outside a
///   write), DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_set_union(_ set: UnsafeMutablePointer<db_set_t>?, _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary { try CAPI.set(set).formUnion(try engineValues(values, try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride), "values")) }
}

/// Keeps only the elements that are among `values[0 ..< count]` (intersection).
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_intersect(_ set: UnsafeMutablePointer<db_set_t>?, _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary { try CAPI.set(set).formIntersection(try engineValues(values, try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride), "values")) }
}

/// Removes the elements that are among `values[0 ..< count]` (difference).
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_subtract(_ set: UnsafeMutablePointer<db_set_t>?, _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary { try CAPI.set(set).subtract(try engineValues(values, try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride), "values")) }
}

/// The positions of the values of a set of scalars or mixed values that a query naming each value
/// `self` matches, in the set's order (the positions of db_set_get): as db_list_positions_matching.
/// @return DB_OK, DB_ERR_QUERY (with the offset of the token at fault), DB_ERR_WRONG_TYPE (a set of
///   objects: filter db_set_to_results instead), DB_ERR_INVALIDATED (its object deleted, or its
///   realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_positions_matching(_ set: UnsafePointer<db_set_t>?, _ query: UnsafePointer<CChar>?,
                                        _ args: UnsafePointer<db_query_arg_t>?, _ num_args: UInt,
                                        _ out_positions: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
                                        _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try positionsMatching(try CAPI.set(set), query, args, num_args, out_positions, capacity, out_count) }
}

/// min, max, sum or average of a set of scalars, as db_list_aggregate.
/// @return DB_OK, DB_ERR_WRONG_TYPE (elements that are objects, or of a type that cannot be
///   aggregated), DB_ERR_NOT_SUPPORTED (decimal128 sum or average), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_aggregate(_ set: UnsafePointer<db_set_t>?, _ aggregate: db_aggregate_e,
                               _ out_value: UnsafeMutablePointer<db_value_t>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary { try CAPI.aggregate(try CAPI.set(set), aggregate, out_value, out_found) }
}

/// The objects of a set of objects as live results.
/// @return New results (release with db_results_release), or NULL with DB_ERR_WRONG_TYPE (a set of
///   scalars), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_to_results(_ set: UnsafePointer<db_set_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try CAPI.set(set).results()) }
}

/// Whether the set's object still exists and its realm is open. Confined like the set: on
/// another thread than its realm's (or in a fork child) the answer is false, with
/// DB_ERR_WRONG_THREAD as the last error.
/// @return true while its object exists and its realm is open; false otherwise, and for NULL.
@c public func db_set_is_valid(_ set: UnsafePointer<db_set_t>?) -> Bool {
    boundaryBool { try CAPI.set(set).isValid() }
}

/// The set at the version its realm reads now, immutable, usable from any thread.
/// @return A new set (release with db_set_release), or NULL with DB_ERR_WRONG_TRANSACTION_STATE
///   (inside a write), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_set_freeze(_ set: UnsafePointer<db_set_t>?) -> UnsafeMutablePointer<db_set_t>? {
    freezeCollection(set, "set", as: SetAccessor.self)
}

/// The live set in the realm this one was frozen from (for a live set: another handle to it).
/// @return A new set (release with db_set_release); NULL with no error (DB_OK) when its object has
///   been deleted since; else NULL with DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT or
///   DB_ERR_WRONG_THREAD (call it on the live realm's thread).
@c public func db_set_thaw(_ set: UnsafePointer<db_set_t>?) -> UnsafeMutablePointer<db_set_t>? {
    thawCollection(set, "set", as: SetAccessor.self)
}

/// Whether the set is frozen. Reads only the handle: any thread.
/// @return true for a frozen set; false for a live one and for NULL.
@c public func db_set_is_frozen(_ set: UnsafePointer<db_set_t>?) -> Bool { isFrozen(set, "set", as: SetAccessor.self) }

/// Releases a set handle. NULL is a no-op. Any thread.
@c public func db_set_release(_ set: UnsafeMutablePointer<db_set_t>?) {
    releaseHandle(set, as: CollectionBox.self)
}
