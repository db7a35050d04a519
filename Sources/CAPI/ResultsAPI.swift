import CDBTypes
import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

// db_results_t, in lifecycle order: results of a class, narrowed, sorted, made distinct, limited
// or snapshotted; counts, objects, aggregates, batch reads and writes; validity; frozen views;
// release.

/// Behind `db_results_t`.
final class ResultsBox {
    let results: Results
    init(_ results: Results) { self.results = results }
}

/// The results behind a handle; after db_realm_close every db_results_* call but release fails
/// with DB_ERR_CLOSED_REALM (snapshots too, and deriving new results).
func resultsBox(_ pointer: UnsafePointer<db_results_t>?) throws -> ResultsBox {
    let box = try unwrap(pointer, "results", as: ResultsBox.self)
    if box.results.realm.isClosed { throw DBError(.closedRealm, "the realm has been closed") }
    return box
}

func resultsBox(_ pointer: UnsafeMutablePointer<db_results_t>?) throws -> ResultsBox { try unwrap(pointer, "results", as: ResultsBox.self) }

func aggregateKind(_ aggregate: db_aggregate_e) throws -> Results.Aggregate {
    switch aggregate {
    case DB_AGGREGATE_MIN: return .min
    case DB_AGGREGATE_MAX: return .max
    case DB_AGGREGATE_SUM: return .sum
    case DB_AGGREGATE_AVERAGE: return .average
    default: throw invalidArgument("unknown aggregate \(aggregate.rawValue)")
    }
}

func wrapResults(_ results: Results) -> UnsafeMutablePointer<db_results_t> { wrap(ResultsBox(results), as: db_results_t.self) }

func queryArguments(_ args: UnsafePointer<db_query_arg_t>?, _ count: Int) throws -> [QueryArgument] {
    if count == 0 { return [] }
    let args = try require(args, "args")
    return try (0..<count).map { index in
        let arg = args[index]
        let values = try engineValues(arg.values, try bufferCount(arg.num_values, "args[\(index)].num_values", elementSize: MemoryLayout<db_value_t>.stride), "args[\(index)].values")
        if arg.is_list { return .list(values) }
        guard values.count == 1 else {
            throw invalidArgument("args[\(index)] is not a list, so num_values must be 1 (got \(values.count))")
        }
        return .value(values[0])
    }
}

/// All objects of a class, as live results.
/// @return New results (release with db_results_release), or NULL with DB_ERR_NOT_FOUND (class
///   key), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_from_class(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try realmBox(realm)
        return wrapResults(box.realm.objects(try box.realm.classInfo(key: class_key)))
    }
}

/// Narrows results with a Realm Query Language string (and its SORT/DISTINCT/LIMIT suffixes).
/// @param query NUL-terminated UTF-8, e.g. "age > $0 AND name BEGINSWITH[c] $1 SORT(age DESC) LIMIT(10)".
/// @param args `num_args` arguments for $0, $1, ... (copied); may be NULL when num_args is 0.
/// Nothing is evaluated yet: the query is checked against the schema, and read when the results are.
/// @return New results (release with db_results_release), or NULL with DB_ERR_QUERY
///   (db_get_last_error's offset is the byte offset of the offending token),
///   DB_ERR_INVALID_ARGUMENT or DB_ERR_CLOSED_REALM.
@c public func db_results_filter(_ results: UnsafePointer<db_results_t>?, _ query: UnsafePointer<CChar>?,
                                _ args: UnsafePointer<db_query_arg_t>?, _ num_args: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        let text = try requireString(query, "query")
        let arguments = try queryArguments(args, try bufferCount(num_args, "num_args", elementSize: MemoryLayout<db_query_arg_t>.stride))
        return wrapResults(try box.results.filter(text, arguments: arguments))
    }
}

/// Sorts results by one or several properties (stable; strings by Unicode code point, nulls first).
/// @return New results (release with db_results_release), or NULL with DB_ERR_NOT_FOUND (property
///   key), DB_ERR_INVALID_ARGUMENT or DB_ERR_CLOSED_REALM.
@c public func db_results_sort(_ results: UnsafePointer<db_results_t>?, _ keys: UnsafePointer<db_sort_key_t>?,
                              _ num_keys: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        let n = try bufferCount(num_keys, "num_keys", elementSize: MemoryLayout<db_sort_key_t>.stride)
        if n > 0 { _ = try require(keys, "keys") }
        let descriptors = try (0..<n).map { SortDescriptor(try box.results.classInfo.property(key: keys![$0].property_key), ascending: keys![$0].ascending) }
        return wrapResults(box.results.sorted(by: descriptors))
    }
}

/// Sorts results by key paths: properties of the class or, through to-one links, of the objects
/// they link to (`"owner.name"`; a null link on the way sorts as null, first when ascending).
/// @return New results (release with db_results_release), or NULL with DB_ERR_QUERY (an unknown
///   property, a to-many link on the way, a property without one scalar value; the error's offset
///   is within the key path), DB_ERR_INVALID_ARGUMENT or DB_ERR_CLOSED_REALM.
@c public func db_results_sort_by_key_paths(_ results: UnsafePointer<db_results_t>?, _ keys: UnsafePointer<db_sort_path_t>?,
                                           _ num_keys: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        return wrapResults(box.results.sorted(by: try sortDescriptors(box.results, keys, num_keys, "keys")))
    }
}

/// Sort descriptors from C key paths (db_sort_path_t), resolved against the results' class.
func sortDescriptors(_ results: Results, _ keys: UnsafePointer<db_sort_path_t>?, _ count: UInt,
                     _ name: String = "sort") throws -> [SortDescriptor] {
    let n = try bufferCount(count, "num_" + name, elementSize: MemoryLayout<db_sort_path_t>.stride)
    if n > 0 { _ = try require(keys, name) }
    return try (0..<n).map { i in
        SortDescriptor(path: try results.propertyPath(try requireString(keys![i].key_path, "key_path")), ascending: keys![i].ascending)
    }
}

/// Keeps the first object of each distinct combination of the values at the given key paths
/// (properties, possibly through to-one links, as for db_results_sort_by_key_paths).
/// @return New results (release with db_results_release), or NULL with the errors of
///   db_results_sort_by_key_paths.
@c public func db_results_distinct_by_key_paths(_ results: UnsafePointer<db_results_t>?,
                                               _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                               _ num_key_paths: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        let n = try bufferCount(num_key_paths, "num_key_paths", elementSize: MemoryLayout<UnsafePointer<CChar>?>.stride)
        if n > 0 { _ = try require(key_paths, "key_paths") }
        let paths = try (0..<n).map { try box.results.propertyPath(try requireString(key_paths![$0], "key_path")) }
        return wrapResults(box.results.distinct(byPaths: paths))
    }
}

/// Keeps the first object of each distinct combination of the given properties.
/// @return New results (release with db_results_release), or NULL with DB_ERR_NOT_FOUND (property
///   key), DB_ERR_INVALID_ARGUMENT or DB_ERR_CLOSED_REALM.
@c public func db_results_distinct(_ results: UnsafePointer<db_results_t>?, _ property_keys: UnsafePointer<db_property_key_t>?,
                                  _ num_keys: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        return wrapResults(box.results.distinct(by: try properties(property_keys, try bufferCount(num_keys, "num_keys", elementSize: MemoryLayout<db_property_key_t>.stride), of: box.results.classInfo)))
    }
}

/// Keeps at most `limit` objects.
/// @return New results (release with db_results_release), or NULL with DB_ERR_INVALID_ARGUMENT or
///   DB_ERR_CLOSED_REALM.
@c public func db_results_limit(_ results: UnsafePointer<db_results_t>?, _ limit: UInt) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let box = try resultsBox(results)
        return wrapResults(try box.results.limit(try count(limit, "limit")))
    }
}

/// A frozen list of the results' current objects (later writes do not change which objects it holds).
/// @return New results (release with db_results_release), or NULL with DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD (it reads the objects now).
@c public func db_results_snapshot(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try resultsBox(results).results.snapshot()) }
}

/// The number of objects. Without sort/distinct/limit this counts in place, reading no objects.
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_count(_ results: UnsafePointer<db_results_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let out = try require(out_count, "out_count")
        out.pointee = UInt(try box.results.count())
    }
}

/// The object at a position.
/// @return A new object handle (release with db_object_release), or NULL with DB_ERR_OUT_OF_RANGE,
///   DB_ERR_INVALIDATED (a snapshot's object was deleted), DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_get(_ results: UnsafePointer<db_results_t>?, _ index: UInt) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let box = try resultsBox(results)
        guard let i = Int(exactly: index) else { throw DBError(.outOfRange, "index \(index) is out of range") }
        return wrapObject(try box.results.object(at: i))
    }
}

/// The position of an object in the results.
/// @param[out] out_index The position; may be NULL to ask only whether the object is there.
/// @param[out] out_found false (and out_index untouched) when the object is not in the results.
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_index_of(_ results: UnsafePointer<db_results_t>?, _ object: UnsafePointer<db_object_t>?,
                                  _ out_index: UnsafeMutablePointer<UInt>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let accessor = try objectBox(object).object
        let found = try require(out_found, "out_found")
        if let index = try box.results.index(of: accessor) {
            out_index?.pointee = UInt(index)
            found.pointee = true
        } else {
            found.pointee = false
        }
    }
}

/// The position of the first object of the results that matches a query (Realm's
/// `index(matching:)`), in the results' own order.
/// @param query A condition of the Realm Query Language (no SORT, DISTINCT or LIMIT), with `$n`
///   arguments as for db_results_filter.
/// @param[out] out_index The position; may be NULL to ask only whether an object matches.
/// @param[out] out_found false (and out_index untouched) when no object matches.
/// @return DB_OK, DB_ERR_QUERY (with the byte offset of the offending token), DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_index_matching(_ results: UnsafePointer<db_results_t>?, _ query: UnsafePointer<CChar>?,
                                        _ args: UnsafePointer<db_query_arg_t>?, _ num_args: UInt,
                                        _ out_index: UnsafeMutablePointer<UInt>?, _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let text = try requireString(query, "query")
        let arguments = try queryArguments(args, try bufferCount(num_args, "num_args", elementSize: MemoryLayout<db_query_arg_t>.stride))
        let found = try require(out_found, "out_found")
        if let index = try box.results.index(matching: text, arguments: arguments) {
            out_index?.pointee = UInt(index)
            found.pointee = true
        } else {
            found.pointee = false
        }
    }
}

/// min, max, sum or average of a property over the results (nulls skipped). Sums keep the
/// property's type; averages are doubles. Ints are summed exactly (an overflow on the way is no
/// error, only a sum beyond 64 bits) and their average divides that sum. Doubles are added in
/// four interleaved lanes, so the last bits of a sum may differ from a left-to-right sum's.
/// @param[out] out_found false when there is no value (min, max, average of no values); sum of no
///   values is 0 with out_found true.
/// @return DB_OK, DB_ERR_WRONG_TYPE (a property that cannot be aggregated), DB_ERR_NOT_SUPPORTED
///   (decimal128 sum/average), DB_ERR_OUT_OF_RANGE (an int sum beyond 64 bits), DB_ERR_NOT_FOUND
///   (property key), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_aggregate(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t,
                                   _ aggregate: db_aggregate_e, _ out_value: UnsafeMutablePointer<db_value_t>?,
                                   _ out_found: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let property = try box.results.classInfo.property(key: property_key)
        let out = try require(out_value, "out_value"), found = try require(out_found, "out_found")
        let result = try box.results.aggregate(try aggregateKind(aggregate), of: property)
        let state = ThreadState.current
        state.releaseBorrowed()
        out.pointee = cValue(result ?? .null, state)
        found.pointee = result != nil
    }
}

/// Batch read: copies a property of up to `max_count` objects, starting at position `start`,
/// into `out_values` in one call (strings and binaries borrowed as for db_object_get_value).
/// @param[out] out_count How many values were written (fewer at the end of the results).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_INVALIDATED (a snapshot's
///   object was deleted), DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_results_get_values(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t,
                                    _ start: UInt, _ max_count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?,
                                    _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        try readColumn(results, property_key, start, max_count, out_values, nil, 0, out_count)
    }
}

/// Batch read through links (Realm's `value(forKeyPath:)`): the value of a key path, a property
/// reached through to-one links ("owner.name"), for up to `max_count` objects from position
/// `start`, as db_results_get_values (strings and binaries borrowed). A null link on the way
/// gives DB_VALUE_NULL.
/// @param[out] out_count How many values were written (fewer at the end of the results).
/// @return DB_OK, DB_ERR_QUERY (a key path that names no property, goes through a to-many link or
///   ends at a collection, which db_results_get_value_lists_by_key_path reads; with its byte
///   offset), DB_ERR_OUT_OF_RANGE (start beyond the end),
///   DB_ERR_INVALIDATED (a snapshot's object was deleted), DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_get_values_by_key_path(_ results: UnsafePointer<db_results_t>?, _ key_path: UnsafePointer<CChar>?,
                                                _ start: UInt, _ max_count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?,
                                                _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let path = try box.results.valuePath(try requireString(key_path, "key_path"))
        let out = try require(out_count, "out_count")
        let maxCount = try count(max_count, "max_count")
        if maxCount > 0 { _ = try require(out_values, "out_values") }
        let values = try box.results.values(ofKeyPath: path, start: try count(start, "start"), maxCount: maxCount)
        let state = ThreadState.current
        state.releaseBorrowed()
        for (index, value) in values.enumerated() { out_values![index] = cValue(value, state) }
        out.pointee = UInt(values.count)
    }
}

/// Batch read through any links (Realm's `value(forKeyPath:)` through to-many links): for each
/// object from position `start`, the values a key path reaches: "dogs.name" gives the names of
/// each person's dogs, "scores" a list's elements, "dogs.@count" one count, "owner.name" one
/// value (DB_VALUE_NULL where a link is null). Every key path a query takes may be used.
///
/// The values of up to `max_objects` objects go back to back into `out_values`; those of the
/// i-th object are `out_values[out_offsets[i] ..< out_offsets[i + 1]]`. Objects are written
/// whole: the call stops before an object whose values do not fit in `values_capacity`. When not
/// even the first one fits, nothing is written, `*out_object_count` is 0 and `*out_value_count`
/// is how many values that object has: call again with room for them. Strings and binaries are
/// borrowed, as by db_results_get_values.
/// @param out_values Room for `values_capacity` values (may be NULL when it is 0).
/// @param out_offsets Room for `max_objects + 1` offsets.
/// @param[out] out_object_count How many objects were read (fewer at the end of the results).
/// @param[out] out_value_count How many values were written (or, see above, are needed).
/// @param[out] out_single_valued If not NULL, whether the key path gives exactly one value per
///   object (a property through to-one links), so that a caller may return one value each.
/// @return DB_OK, DB_ERR_QUERY (a key path that names no property, with its byte offset),
///   DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_INVALIDATED (a snapshot's object was
///   deleted), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_get_value_lists_by_key_path(_ results: UnsafePointer<db_results_t>?, _ key_path: UnsafePointer<CChar>?,
                                                     _ start: UInt, _ max_objects: UInt,
                                                     _ out_values: UnsafeMutablePointer<db_value_t>?, _ values_capacity: UInt,
                                                     _ out_offsets: UnsafeMutablePointer<UInt>?,
                                                     _ out_object_count: UnsafeMutablePointer<UInt>?,
                                                     _ out_value_count: UnsafeMutablePointer<UInt>?,
                                                     _ out_single_valued: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let path = try box.results.valueListPath(try requireString(key_path, "key_path"))
        let objectCount = try require(out_object_count, "out_object_count")
        let valueCount = try require(out_value_count, "out_value_count")
        let offsets = try require(out_offsets, "out_offsets")
        let maxObjects = try count(max_objects, "max_objects")
        let capacity = try count(values_capacity, "values_capacity")
        if capacity > 0 { _ = try require(out_values, "out_values") }
        let lists = try box.results.valueLists(ofKeyPath: path, start: try count(start, "start"), maxCount: maxObjects)
        let state = ThreadState.current
        state.releaseBorrowed()
        var written = 0, objects = 0
        offsets[0] = 0
        for list in lists {
            guard written + list.count <= capacity else {
                if objects == 0 { valueCount.pointee = UInt(list.count) }
                break
            }
            for value in list {
                out_values![written] = cValue(value, state)
                written += 1
            }
            objects += 1
            offsets[objects] = UInt(written)
        }
        objectCount.pointee = UInt(objects)
        if objects > 0 || lists.isEmpty { valueCount.pointee = UInt(written) }
        out_single_valued?.pointee = !path.isMultiValued
    }
}

/// Batch read as db_results_get_values, with the strings and binaries copied into a buffer of the
/// caller's, in order and back to back, until one does not fit (that one and those after it are
/// borrowed): a binding reads a column of strings from its own memory, in one piece, instead of
/// one string at a time, and the thread allocates nothing for them.
/// @param buffer Caller memory for the values' bytes; may be NULL (`buffer_size` is then ignored
///   and every value is borrowed).
/// @param buffer_size The size of `buffer` in bytes.
/// @param[out] out_count How many values were written (fewer at the end of the results).
/// @return As db_results_get_values (DB_OK, DB_ERR_OUT_OF_RANGE, ..., DB_ERR_WRONG_THREAD).
@c public func db_results_get_values_into(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t,
                                         _ start: UInt, _ max_count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?,
                                         _ buffer: UnsafeMutableRawPointer?, _ buffer_size: UInt,
                                         _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        try readColumn(results, property_key, start, max_count, out_values, buffer, buffer_size, out_count)
    }
}

/// The body of db_results_get_values (no buffer) and db_results_get_values_into.
private func readColumn(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t,
                        _ start: UInt, _ max_count: UInt, _ out_values: UnsafeMutablePointer<db_value_t>?,
                        _ buffer: UnsafeMutableRawPointer?, _ buffer_size: UInt,
                        _ out_count: UnsafeMutablePointer<UInt>?) throws {
    let box = try resultsBox(results)
    let property = try box.results.classInfo.property(key: property_key)
    let out = try require(out_count, "out_count")
    let maxCount = try count(max_count, "max_count")
    if maxCount > 0 { _ = try require(out_values, "out_values") }
    var caller = try CallerBytes(buffer, buffer_size)
    let first = try count(start, "start")
    let state = ThreadState.current
    // Values that lend no memory go straight to the caller, with no array between (a failed
    // read, of a damaged file, may leave some written; none is borrowed).
    switch property.type {
    case .bool, .int, .float, .double:
        let read = try box.results.readNumbers(of: property, start: first, maxCount: maxCount) { index, number in
            out_values![index] = cValue(number)
        }
        state.releaseBorrowed()
        out.pointee = UInt(read)
        return
    case .timestamp, .objectID, .uuid, .decimal128:
        let read = try box.results.readContents(of: property, start: first, maxCount: maxCount) { index, value in
            out_values![index] = cValue(value) { caller.place($0, state) }
        }
        state.releaseBorrowed()
        out.pointee = UInt(read)
        return
    case .string, .data:
        break
    default:
        let values = try box.results.values(of: property, start: first, maxCount: maxCount)
        state.releaseBorrowed()
        for (index, value) in values.enumerated() { out_values![index] = cValue(value) { caller.place($0, state) } }
        out.pointee = UInt(values.count)
        return
    }
    // Strings and binaries arrive as their stored bytes, valid until this thread next writes or
    // refreshes; they are copied out only once the read succeeded, so that a failed call keeps
    // what the last one lent. (Other values are cheaper as they were: wrapping them cost more.)
    var contents: [StoredContents] = []
    contents.reserveCapacity(min(maxCount, 4096))
    let read = try box.results.readContents(of: property, start: first, maxCount: maxCount) { _, value in
        contents.append(value)
    }
    state.releaseBorrowed()
    for (index, value) in contents.enumerated() { out_values![index] = cValue(value) { caller.place($0, state) } }
    out.pointee = UInt(read)
}

/// Batch read of object keys (for db_object_get_by_key), as db_results_get_values.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (start beyond the end), DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_get_keys(_ results: UnsafePointer<db_results_t>?, _ start: UInt, _ max_count: UInt,
                                  _ out_keys: UnsafeMutablePointer<db_object_key_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let out = try require(out_count, "out_count")
        let maxCount = try count(max_count, "max_count")
        if maxCount > 0 { _ = try require(out_keys, "out_keys") }
        let keys = try box.results.keys()
        let first = try count(start, "start")
        guard first <= keys.count else { throw DBError(.outOfRange, "start \(first) is beyond the end (\(keys.count) objects)") }
        let slice = keys[first..<min(keys.count, first + min(maxCount, keys.count))]
        for (index, key) in slice.enumerated() { out_keys![index] = key }
        out.pointee = UInt(slice.count)
    }
}

/// Sets a property on every object of the results (inside a write transaction).
/// @return DB_OK, DB_ERR_WRONG_TYPE, DB_ERR_NOT_NULLABLE, DB_ERR_WRONG_TRANSACTION_STATE (outside a
///   write), DB_ERR_LOGIC (a primary key), DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_set_value(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t,
                                   _ value: UnsafePointer<db_value_t>?) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let property = try box.results.classInfo.property(key: property_key)
        try box.results.setValue(try engineValue(try require(value, "value").pointee), for: property)
    }
}

/// Batch write: sets a property of the objects at positions `start ..< start + count` to
/// `values[0] ..< values[count]`, one value each, in one call (inside a write transaction).
///
/// The counterpart of db_results_get_values: read a property in batches, compute, write it back.
/// Positions are those of the results when the call starts (a sorted results may reorder after
/// the write). Every value is checked before any is written.
/// @param values `count` values (may be NULL when count is 0).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE (the positions run past the end), DB_ERR_WRONG_TYPE,
///   DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_LOGIC (a primary key),
///   DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_set_values(_ results: UnsafePointer<db_results_t>?, _ property_key: db_property_key_t, _ start: UInt,
                                    _ values: UnsafePointer<db_value_t>?, _ count: UInt) -> db_status_e {
    boundary {
        let box = try resultsBox(results)
        let property = try box.results.classInfo.property(key: property_key)
        let n = try bufferCount(count, "count", elementSize: MemoryLayout<db_value_t>.stride)
        if n > 0 { _ = try require(values, "values") }
        let converted = try (0..<n).map { try engineValue(values![$0]) }
        try box.results.setValues(converted, for: property, start: try CAPI.count(start, "start"))
    }
}

/// Deletes every object of the results (inside a write transaction).
/// @param[out] out_num_deleted May be NULL.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (outside a write), DB_ERR_READ_ONLY,
///   DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_results_delete_all(_ results: UnsafePointer<db_results_t>?, _ out_num_deleted: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let deleted = try resultsBox(results).results.deleteAll()
        out_num_deleted?.pointee = UInt(deleted)
    }
}

/// Whether the results can be read: false once their realm has been closed (a snapshot's deleted
/// objects fail one by one, with DB_ERR_INVALIDATED). Reads only the handle: any thread.
/// @return true while their realm is open; false once it is closed, and for NULL.
@c public func db_results_is_valid(_ results: UnsafePointer<db_results_t>?) -> Bool {
    boundaryAnswer(false) { try !unwrap(results, "results", as: ResultsBox.self).results.realm.isClosed }
}

/// A readable description, as Realm gives one: "Results<Person> (\n\t[0] Person {\n\t\tname = Ann;
/// \n\t},\n...)", the first 100 objects and how many more there are.
/// A snapshot's deleted object shows as "[invalid object]".
/// @return A new string (free it with db_string_free), or NULL with DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD or DB_ERR_INVALID_ARGUMENT.
@c public func db_results_description(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<CChar>? {
    boundary { strdup(try resultsBox(results).results.description()) }
}

/// The realm the results read (a frozen realm for frozen results), as another handle to it:
/// releasing it does not close the realm.
/// @return A new handle (release with db_realm_release), or NULL with DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD or DB_ERR_INVALID_ARGUMENT.
@c public func db_results_get_realm(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { try otherHandle(to: try resultsBox(results).results.realm) }
}

/// These results at the version their realm reads now: the same query, sort and source,
/// evaluated against that version, usable from any thread.
/// @return New results (release with db_results_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_results_freeze(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try resultsBox(results).results.freeze()) }
}

/// The live results in the realm these were frozen from (for live results: the same results).
/// Any thread may call this; the live results it returns are confined to that realm's thread.
/// @return New results (release with db_results_release), or NULL with DB_ERR_CLOSED_REALM (that
///   realm has been closed) or DB_ERR_INVALID_ARGUMENT.
@c public func db_results_thaw(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try resultsBox(results).results.thaw()) }
}

/// Whether the results are frozen. Reads only the handle: any thread.
/// @return true for frozen results; false for live ones and for NULL.
@c public func db_results_is_frozen(_ results: UnsafePointer<db_results_t>?) -> Bool {
    boundaryAnswer(false) { try resultsBox(results).results.isFrozen }
}

/// Releases results. NULL is a no-op. Any thread.
@c public func db_results_release(_ results: UnsafeMutablePointer<db_results_t>?) {
    releaseHandle(results, as: ResultsBox.self)
}
