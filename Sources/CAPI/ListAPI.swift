import CDBTypes
import CoreEngine

// db_list_t, in lifecycle order (opened from an object; read and changed; validity; frozen views;
// release): a list property of one object. Reads see the realm's current state; changes need
// a write transaction (DB_ERR_WRONG_TRANSACTION_STATE otherwise). Indexes are checked
// (DB_ERR_OUT_OF_RANGE). Elements of a list of objects are DB_VALUE_LINK values.

private func list(_ pointer: UnsafePointer<db_list_t>?) throws -> ListAccessor { try collection(pointer, "list", as: ListAccessor.self) }

private func list(_ pointer: UnsafeMutablePointer<db_list_t>?) throws -> ListAccessor { try collection(pointer, "list", as: ListAccessor.self) }

/// Opens a list property of an object.
/// @return A new list handle (release with db_list_release), or NULL with DB_ERR_WRONG_TYPE (not a
///   list property), DB_ERR_NOT_FOUND (property key), DB_ERR_CLOSED_REALM, DB_ERR_INVALIDATED (its
///   object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_object_get_list(_ object: UnsafePointer<db_object_t>?, _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_list_t>? {
    boundary { try openCollection(object, property_key, as: db_list_t.self) { try $0.list(of: $1) } }
}

/// The number of elements.
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_size(_ list: UnsafePointer<db_list_t>?, _ out_size: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.list(list)
        try require(out_size, "out_size").pointee = UInt(try accessor.count())
    }
}

/// Reads the element at `index` (strings and binaries borrowed as for db_object_get_value).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_INVALIDATED (its object deleted, or its realm
///   closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_get(_ list: UnsafePointer<db_list_t>?, _ index: UInt, _ out_value: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.list(list)
        let out = try require(out_value, "out_value")
        writeValues([try accessor.get(try count(index, "index"))], to: out)
    }
}

/// Batch read: copies up to `max_count` elements from position `start` in one call.
/// @param[out] out_count How many were written (fewer at the end).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_get_values(_ list: UnsafePointer<db_list_t>?, _ start: UInt, _ max_count: UInt,
                                 _ out_values: UnsafeMutablePointer<db_value_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try copyValues(try CAPI.list(list).elements(), start: start, maxCount: max_count, out_values: out_values, out_count: out_count) }
}

/// The position of the first element equal to `value`.
/// @param[out] out_found Whether there is one; out_index is left alone when there is not.
/// @return DB_OK, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_find(_ list: UnsafePointer<db_list_t>?, _ value: UnsafePointer<db_value_t>?,
                           _ out_index: UnsafeMutablePointer<UInt>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.list(list)
        let found = try require(out_found, "out_found"), out = try require(out_index, "out_index")
        let index = try accessor.index(of: try engineValue(try require(value, "value").pointee))
        found.pointee = index != nil
        if let index { out.pointee = UInt(index) }
    }
}

/// Inserts `value` at `index` (0 ... size).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_LOGIC (an
///   embedded object that already has a parent), DB_ERR_INVALIDATED (a link to a deleted object),
///   DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_insert(_ list: UnsafeMutablePointer<db_list_t>?, _ index: UInt, _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.list(list)
        try accessor.insert(try engineValue(try require(value, "value").pointee), at: try count(index, "index"))
    }
}

/// Replaces the element at `index` (an embedded object replaced this way is deleted).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE,
///   DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object deleted, or
///   its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_set(_ list: UnsafeMutablePointer<db_list_t>?, _ index: UInt, _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let accessor = try CAPI.list(list)
        try accessor.set(try engineValue(try require(value, "value").pointee), at: try count(index, "index"))
    }
}

/// Replaces every element with `values[0 ..< count]` (all checked before any is written).
/// @return DB_OK, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_WRONG_TRANSACTION_STATE (outside a
///   write), DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_list_assign(_ list: UnsafeMutablePointer<db_list_t>?, _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary { try CAPI.list(list).replaceAll(with: try engineValues(values, try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride), "values")) }
}

/// Removes the element at `index`.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TRANSACTION_STATE (outside a write),
///   DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_list_erase(_ list: UnsafeMutablePointer<db_list_t>?, _ index: UInt) -> db_status_e {
    boundary { _ = try CAPI.list(list).remove(at: try count(index, "index")) }
}

/// Moves the element at `from_index` so that it ends at `to_index` (both 0 ..< size).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TRANSACTION_STATE (outside a write),
///   DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_list_move(_ list: UnsafeMutablePointer<db_list_t>?, _ from_index: UInt, _ to_index: UInt) -> db_status_e {
    boundary { try CAPI.list(list).move(from: try count(from_index, "from_index"), to: try count(to_index, "to_index")) }
}

/// Swaps the elements at two positions.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TRANSACTION_STATE (outside a write),
///   DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_list_swap(_ list: UnsafeMutablePointer<db_list_t>?, _ i: UInt, _ j: UInt) -> db_status_e {
    boundary { try CAPI.list(list).swapAt(try count(i, "i"), try count(j, "j")) }
}

/// Removes every element (embedded objects among them are deleted).
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_INVALIDATED (its object
///   deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_clear(_ list: UnsafeMutablePointer<db_list_t>?) -> db_status_e {
    boundary { try CAPI.list(list).removeAll() }
}

/// Creates an embedded object and inserts the link to it at `index`; its required properties
/// start at their defaults.
/// @return A new object handle (release with db_object_release), or NULL with DB_ERR_LOGIC (the
///   list does not hold embedded objects), DB_ERR_OUT_OF_RANGE, DB_ERR_WRONG_TRANSACTION_STATE,
///   DB_ERR_INVALIDATED (its object deleted, or its realm closed), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_list_insert_embedded(_ list: UnsafeMutablePointer<db_list_t>?, _ index: UInt) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let accessor = try CAPI.list(list)
        return wrapObject(try accessor.insertEmbedded(at: try count(index, "index")))
    }
}

/// min, max, sum or average of a list of scalars (nulls skipped).
/// @param[out] out_found false when there is no result (min, max and average of no values).
/// @return DB_OK, DB_ERR_WRONG_TYPE (a list of objects: aggregate db_list_to_results instead, or a
///   type that cannot be aggregated), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_aggregate(_ list: UnsafePointer<db_list_t>?, _ aggregate: db_aggregate_e,
                                _ out_value: UnsafeMutablePointer<db_value_t>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary { try CAPI.aggregate(try CAPI.list(list), aggregate, out_value, out_found) }
}

/// The positions of the values of a list of scalars or mixed values that a query matches, in list
/// order. The query names each value `self` (`self > $0`, `self BEGINSWITH[c] 'ab'`,
/// `self.@size < 4` for a string's UTF-8 length, `self.@type == 'string'` for a mixed value) and
/// is type-checked for the element type; other key paths, SORT, DISTINCT and LIMIT are refused.
/// @param args `num_args` arguments for `$0`, `$1`, ... (as for db_results_filter); may be NULL when num_args is 0.
/// @param[out] out_positions The first `capacity` positions, ascending; may be NULL when capacity is 0.
/// @param[out] out_count How many values match in all (call with capacity 0 to learn it).
/// @return DB_OK, DB_ERR_QUERY (with the offset of the token at fault), DB_ERR_WRONG_TYPE (a list of
///   objects: filter db_list_to_results instead), DB_ERR_INVALIDATED (its object deleted, or its
///   realm closed), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_positions_matching(_ list: UnsafePointer<db_list_t>?, _ query: UnsafePointer<CChar>?,
                                         _ args: UnsafePointer<db_query_arg_t>?, _ num_args: UInt,
                                         _ out_positions: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
                                         _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try positionsMatching(try CAPI.list(list), query, args, num_args, out_positions, capacity, out_count) }
}

/// The objects of a list of objects as live results, in list order with duplicates: filter, sort,
/// make distinct and aggregate them with the db_results_* functions.
/// @return New results (release with db_results_release), or NULL with DB_ERR_WRONG_TYPE (a list of
///   scalars), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_to_results(_ list: UnsafePointer<db_list_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try CAPI.list(list).results()) }
}

/// Whether the list's object still exists and its realm is open. Confined like the list: on
/// another thread than its realm's (or in a fork child) the answer is false, with
/// DB_ERR_WRONG_THREAD as the last error.
/// @return true while its object exists and its realm is open; false otherwise, and for NULL.
@c public func db_list_is_valid(_ list: UnsafePointer<db_list_t>?) -> Bool {
    boundaryBool { try CAPI.list(list).isValid() }
}

/// The list at the version its realm reads now, immutable, usable from any thread.
/// @return A new list (release with db_list_release), or NULL with DB_ERR_WRONG_TRANSACTION_STATE
///   (inside a write), DB_ERR_INVALIDATED (its object deleted, or its realm closed),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_list_freeze(_ list: UnsafePointer<db_list_t>?) -> UnsafeMutablePointer<db_list_t>? {
    freezeCollection(list, "list", as: ListAccessor.self)
}

/// The live list in the realm this one was frozen from (for a live list: another handle to it).
/// @return A new list (release with db_list_release); NULL with no error (DB_OK) when its object
///   has been deleted since; else NULL with DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT or
///   DB_ERR_WRONG_THREAD (call it on the live realm's thread).
@c public func db_list_thaw(_ list: UnsafePointer<db_list_t>?) -> UnsafeMutablePointer<db_list_t>? {
    thawCollection(list, "list", as: ListAccessor.self)
}

/// Whether the list is frozen. Reads only the handle: any thread.
/// @return true for a frozen list; false for a live one and for NULL.
@c public func db_list_is_frozen(_ list: UnsafePointer<db_list_t>?) -> Bool { isFrozen(list, "list", as: ListAccessor.self) }

/// Releases a list handle (the list itself stays in the object). NULL is a no-op. Any thread.
@c public func db_list_release(_ list: UnsafeMutablePointer<db_list_t>?) {
    releaseHandle(list, as: CollectionBox.self)
}
