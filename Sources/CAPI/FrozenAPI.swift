import CDBTypes
import CoreEngine

// Frozen handles: db_*_freeze gives an immutable view pinned to the version the handle reads now,
// usable from any thread; db_*_thaw gives the live equivalent; db_*_is_frozen tells which.

/// An immutable realm reading this realm's current version forever, from any thread. It pins that
/// version (db_config_set_max_active_versions counts it): release it when done, or the file grows.
/// Freezing a frozen realm gives another handle to it.
/// @return A new realm (release with db_realm_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_realm_freeze(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary {
        let source = try realmBox(realm).realm
        let frozen = try source.freeze()
        return wrap(RealmBox(frozen, owning: frozen !== source || !source.isFrozen), as: db_realm_t.self)
    }
}

/// The live realm a frozen realm was frozen from, as another handle to it (releasing this handle
/// does not close that realm; db_realm_close would). For a live realm: another handle to itself.
/// @return A new handle, or NULL with DB_ERR_CLOSED_REALM (that realm has been closed).
@c public func db_realm_thaw(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { wrap(RealmBox(try realmBox(realm).realm.thaw(), owning: false), as: db_realm_t.self) }
}

/// Whether the realm is frozen; false for NULL.
@c public func db_realm_is_frozen(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(false) { try realmBox(realm).realm.isFrozen }
}

/// This object at the version its realm reads now, immutable, usable from any thread (it keeps
/// its frozen realm, and that version, until released).
/// @return A new object, or NULL with DB_ERR_INVALIDATED (deleted), DB_ERR_WRONG_TRANSACTION_STATE.
@c public func db_object_freeze(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary { wrapObject(try objectBox(object).object.freeze()) }
}

/// The live object in the realm a frozen object was frozen from.
/// @return A new object; NULL with no error (DB_OK) when it has been deleted since; else NULL with
///   DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD (use it on the live realm's thread).
@c public func db_object_thaw(_ object: UnsafePointer<db_object_t>?) -> UnsafeMutablePointer<db_object_t>? {
    boundary { try objectBox(object).object.thaw().map(wrapObject) }
}

/// Whether the object is frozen; false for NULL.
@c public func db_object_is_frozen(_ object: UnsafePointer<db_object_t>?) -> Bool {
    boundaryAnswer(false) { try objectBox(object).object.isFrozen }
}

/// These results at the version their realm reads now: the same query, sort and source,
/// evaluated against that version, usable from any thread.
@c public func db_results_freeze(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try resultsBox(results).results.freeze()) }
}

/// The live results in the realm these were frozen from.
@c public func db_results_thaw(_ results: UnsafePointer<db_results_t>?) -> UnsafeMutablePointer<db_results_t>? {
    boundary { wrapResults(try resultsBox(results).results.thaw()) }
}

/// Whether the results are frozen; false for NULL.
@c public func db_results_is_frozen(_ results: UnsafePointer<db_results_t>?) -> Bool {
    boundaryAnswer(false) { try resultsBox(results).results.isFrozen }
}

private func freezeCollection<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String,
                                                                    as type: Accessor.Type) -> UnsafeMutablePointer<Handle>? {
    boundary { wrap(CollectionBox(try collection(handle, name, as: type).freeze()), as: Handle.self) }
}

private func thawCollection<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String,
                                                                  as type: Accessor.Type) -> UnsafeMutablePointer<Handle>? {
    boundary { try collection(handle, name, as: type).thaw().map { wrap(CollectionBox($0), as: Handle.self) } }
}

private func isFrozen<Handle, Accessor: CollectionAccessor>(_ handle: UnsafePointer<Handle>?, _ name: String, as type: Accessor.Type) -> Bool {
    boundaryAnswer(false) { try collection(handle, name, as: type).isFrozen }
}

/// The list at the version its realm reads now, usable from any thread.
@c public func db_list_freeze(_ list: UnsafePointer<db_list_t>?) -> UnsafeMutablePointer<db_list_t>? {
    freezeCollection(list, "list", as: ListAccessor.self)
}

/// The live list; NULL with DB_OK when its object has been deleted since.
@c public func db_list_thaw(_ list: UnsafePointer<db_list_t>?) -> UnsafeMutablePointer<db_list_t>? {
    thawCollection(list, "list", as: ListAccessor.self)
}

/// Whether the list is frozen; false for NULL.
@c public func db_list_is_frozen(_ list: UnsafePointer<db_list_t>?) -> Bool { isFrozen(list, "list", as: ListAccessor.self) }

/// The set at the version its realm reads now, usable from any thread.
@c public func db_set_freeze(_ set: UnsafePointer<db_set_t>?) -> UnsafeMutablePointer<db_set_t>? {
    freezeCollection(set, "set", as: SetAccessor.self)
}

/// The live set; NULL with DB_OK when its object has been deleted since.
@c public func db_set_thaw(_ set: UnsafePointer<db_set_t>?) -> UnsafeMutablePointer<db_set_t>? {
    thawCollection(set, "set", as: SetAccessor.self)
}

/// Whether the set is frozen; false for NULL.
@c public func db_set_is_frozen(_ set: UnsafePointer<db_set_t>?) -> Bool { isFrozen(set, "set", as: SetAccessor.self) }

/// The dictionary at the version its realm reads now, usable from any thread.
@c public func db_dictionary_freeze(_ dictionary: UnsafePointer<db_dictionary_t>?) -> UnsafeMutablePointer<db_dictionary_t>? {
    freezeCollection(dictionary, "dictionary", as: DictionaryAccessor.self)
}

/// The live dictionary; NULL with DB_OK when its object has been deleted since.
@c public func db_dictionary_thaw(_ dictionary: UnsafePointer<db_dictionary_t>?) -> UnsafeMutablePointer<db_dictionary_t>? {
    thawCollection(dictionary, "dictionary", as: DictionaryAccessor.self)
}

/// Whether the dictionary is frozen; false for NULL.
@c public func db_dictionary_is_frozen(_ dictionary: UnsafePointer<db_dictionary_t>?) -> Bool {
    isFrozen(dictionary, "dictionary", as: DictionaryAccessor.self)
}
