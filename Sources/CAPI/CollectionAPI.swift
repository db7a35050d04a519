import CDBTypes
import CoreEngine

// What db_list_t, db_set_t and db_dictionary_t share: the handle boxes, reading values out to
// C, aggregates of scalar elements and live results of linked objects.

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

/// Creates an embedded object as the value of a to-one link property (inside a write transaction),
/// deleting the embedded object it held before; its required properties start at their type's
/// default. Embedded objects cannot be created with
/// db_object_create: they exist only inside their parent.
/// @return A new object handle for the embedded object (set its properties with
///   db_object_set_value), or NULL with DB_ERR_LOGIC (not a link to an embedded class),
///   DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_INVALIDATED, DB_ERR_NOT_FOUND.
@c public func db_object_create_embedded(_ object: UnsafeMutablePointer<db_object_t>?,
                                        _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_object_t>? {
    boundary {
        let accessor = try objectBox(object).object
        return wrapObject(try accessor.createEmbedded(for: accessor.classInfo.property(key: property_key)))
    }
}

/// The objects of class `origin_class` whose property `origin_property` links to `object`, as
/// live results (any link property, declared as linkingObjects or not).
/// @return New results (release with db_results_release), or NULL with DB_ERR_NOT_FOUND (class or
///   property key), DB_ERR_WRONG_TYPE (not a link property), DB_ERR_INVALIDATED.
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
/// @return New results, or NULL with DB_ERR_WRONG_TYPE (not a linkingObjects property),
///   DB_ERR_NOT_FOUND, DB_ERR_INVALIDATED.
@c public func db_object_get_linking_objects(_ object: UnsafePointer<db_object_t>?,
                                            _ property_key: db_property_key_t) -> UnsafeMutablePointer<db_results_t>? {
    boundary {
        let accessor = try objectBox(object).object
        guard try accessor.isValid() else { throw DBError(.invalidated, "the object has been deleted or its realm closed") }
        return wrapResults(try accessor.linkingObjects(of: accessor.classInfo.property(key: property_key)))
    }
}
