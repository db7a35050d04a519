import CDBTypes
import CoreEngine

// What db_list_t, db_set_t and db_dictionary_t share (no C functions here: those are in ListAPI,
// SetAPI and DictionaryAPI): the handle box, opening, reading values out to C, aggregates of
// scalar elements, and frozen views.

/// Behind `db_list_t`, `db_set_t` and `db_dictionary_t`.
final class CollectionBox {
    let collection: CollectionAccessor
    init(_ collection: CollectionAccessor) { self.collection = collection }
}

func collection<Accessor: CollectionAccessor, Handle>(_ pointer: UnsafePointer<Handle>?, _ name: String, as _: Accessor.Type) throws -> Accessor {
    let box = try unwrap(pointer, name, as: CollectionBox.self)
    guard let accessor = box.collection as? Accessor else { throw invalidArgument("'\(name)' is not a handle of the right kind") }
    return accessor
}

func collection<Accessor: CollectionAccessor, Handle>(_ pointer: UnsafeMutablePointer<Handle>?, _ name: String, as type: Accessor.Type) throws -> Accessor {
    try collection(UnsafePointer(pointer), name, as: type)
}

/// Opens a collection property of an object as a handle of its kind.
func openCollection<Handle>(_ object: UnsafePointer<db_object_t>?, _ property_key: db_property_key_t, as _: Handle.Type,
                            _ make: (ObjectAccessor, PropertyInfo) throws -> CollectionAccessor) throws -> UnsafeMutablePointer<Handle> {
    let accessor = try objectBox(object).object
    let property = try accessor.classInfo.property(key: property_key)
    let opened = try make(accessor, property)
    _ = try opened.count()  // fails now, not later, for a deleted object or a closed realm
    return wrap(CollectionBox(opened), as: Handle.self)
}

/// Writes values to a C array, strings and binaries lent by the thread's state.
func writeValues(_ values: [Value], to out: UnsafeMutablePointer<db_value_t>?) {
    let state = ThreadState.current
    state.releaseBorrowed()
    for (index, value) in values.enumerated() { out![index] = cValue(value, state) }
}

/// Copies values[start ..< start + maxCount] out (the batch read shared by every collection).
func copyValues(_ values: [Value], start: UInt, maxCount: UInt, out_values: UnsafeMutablePointer<db_value_t>?,
                out_count: UnsafeMutablePointer<UInt>?) throws {
    let out = try require(out_count, "out_count")
    let start = try count(start, "start"), maxCount = try count(maxCount, "max_count")
    guard start <= values.count else {
        throw DBError(.outOfRange, "start \(start) is beyond the end (\(values.count) elements)")
    }
    let slice = Array(values[start..<(start + min(maxCount, values.count - start))])
    if !slice.isEmpty { _ = try require(out_values, "out_values") }
    writeValues(slice, to: out_values)
    out.pointee = UInt(slice.count)
}

func aggregate(_ accessor: CollectionAccessor, _ aggregate: db_aggregate_e, _ out_value: UnsafeMutablePointer<db_value_t>?,
               _ out_found: UnsafeMutablePointer<Bool>?) throws {
    let out = try require(out_value, "out_value"), found = try require(out_found, "out_found")
    let result = try accessor.aggregate(try aggregateKind(aggregate))
    writeValues([result ?? .null], to: out)
    found.pointee = result != nil
}

/// The positions of the values a query over values matches, ascending (db_list_positions_matching,
/// db_set_positions_matching): the first `capacity` into `out_positions`, how many in all into `out_count`.
func positionsMatching(_ accessor: CollectionAccessor, _ query: UnsafePointer<CChar>?, _ args: UnsafePointer<db_query_arg_t>?,
                       _ num_args: UInt, _ out_positions: UnsafeMutablePointer<UInt>?, _ capacity: UInt,
                       _ out_count: UnsafeMutablePointer<UInt>?) throws {
    let text = try requireString(query, "query")
    let arguments = try queryArguments(args, try bufferCount(num_args, "num_args", elementSize: MemoryLayout<db_query_arg_t>.stride))
    let out = try require(out_count, "out_count")
    let room = Int(min(capacity, UInt(Int.max)))
    let target = room > 0 ? try require(out_positions, "out_positions") : nil
    let positions = try accessor.positions(matching: text, arguments: arguments)
    for (i, position) in positions.prefix(room).enumerated() { target![i] = UInt(position) }
    out.pointee = UInt(positions.count)
}

/// The collection at the version its realm reads now, as a new handle of its kind (db_*_freeze).
func freezeCollection<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String,
                                                            as type: Accessor.Type) -> UnsafeMutablePointer<Handle>? {
    boundary { wrap(CollectionBox(try collection(handle, name, as: type).freeze()), as: Handle.self) }
}

/// The live collection a frozen one was frozen from, as a new handle; nil (with DB_OK) when its
/// object has been deleted since (db_*_thaw).
func thawCollection<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String,
                                                          as type: Accessor.Type) -> UnsafeMutablePointer<Handle>? {
    boundary { try collection(handle, name, as: type).thaw().map { wrap(CollectionBox($0), as: Handle.self) } }
}

/// Whether a collection handle is frozen; false for NULL (db_*_is_frozen).
func isFrozen<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String, as type: Accessor.Type) -> Bool {
    boundaryAnswer(false) { try collection(handle, name, as: type).isFrozen }
}
