import CDBTypes
import CoreEngine

// Notifications, in lifecycle order: db_*_observe registers a callback and returns a token; the
// changes the callback receives are borrowed handles read with db_collection_change_*,
// db_object_change_* and db_sectioned_change_*; the token is invalidated and released. (Delivery
// is the realm's: db_realm_deliver_notifications, db_realm_set_scheduler.)

/// The C callback and its userdata. Made before anything is checked, so that the userdata is
/// freed exactly once: when the token is released, or at once when registering fails.
final class CallbackBox<Function> {
    let function: Function?
    let userdata: UnsafeMutableRawPointer?
    let free: db_free_userdata_func_t?

    init(_ function: Function?, _ userdata: UnsafeMutableRawPointer?, _ free: db_free_userdata_func_t?) {
        self.function = function
        self.userdata = userdata
        self.free = free
    }

    deinit { free?(userdata) }
}

/// Behind `db_notification_token_t`: the engine's token and what the callback needs.
final class TokenBox {
    let token: NotificationToken
    /// Keeps the callback and its userdata alive; the engine's closure refers to it weakly.
    let callback: AnyObject
    /// The realm that delivers the calls (weak: a token does not keep a released realm alive).
    weak var realm: Realm?

    init(_ token: NotificationToken, _ callback: AnyObject, _ realm: Realm) {
        self.token = token
        self.callback = callback
        self.realm = realm
    }
}

/// Behind `db_collection_change_t` (borrowed during a callback).
final class CollectionChangeBox {
    let change: CollectionChange
    init(_ change: CollectionChange) { self.change = change }
}

/// Behind `db_object_change_t` (borrowed during a callback).
final class ObjectChangeBox {
    let change: ObjectChange
    let classInfo: ClassInfo
    init(_ change: ObjectChange, _ classInfo: ClassInfo) {
        self.change = change
        self.classInfo = classInfo
    }
}

/// Behind `db_sectioned_change_t` (borrowed during a callback).
final class SectionedChangeBox {
    let change: SectionedChange
    init(_ change: SectionedChange) { self.change = change }
}

private func keyPaths(_ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ count: UInt) throws -> [String]? {
    guard let paths else {
        if count > 0 { throw invalidArgument("'key_paths' must not be NULL when num_key_paths is not 0") }
        return nil
    }
    return try (0..<bufferCount(count, "num_key_paths", elementSize: MemoryLayout<UnsafePointer<CChar>?>.stride)).map { try requireString(paths[$0], "key_paths[\($0)]") }
}

/// Registers a callback through `observe`, wrapping the token; the engine's closure holds the
/// callback box weakly, so releasing the token frees the userdata. `observe` returns the token
/// and the realm that will deliver it.
func register<Function, Change>(_ function: Function?, _ userdata: UnsafeMutableRawPointer?,
                                _ userdata_free: db_free_userdata_func_t?,
                                call: @escaping (Function, UnsafeMutableRawPointer?, Change) -> Void,
                                _ observe: (@escaping (Change) -> Void) throws -> (NotificationToken, Realm)) -> UnsafeMutablePointer<db_notification_token_t>? {
    let box = CallbackBox(function, userdata, userdata_free)
    return boundary {
        _ = try require(function, "callback")
        let (token, realm) = try observe { [weak box] change in
            guard let box, let function = box.function else { return }
            call(function, box.userdata, change)
        }
        return wrap(TokenBox(token, box, realm), as: db_notification_token_t.self)
    }
}

/// Calls a collection callback with a borrowed change handle.
private func callCollection(_ function: db_collection_change_func_t, _ userdata: UnsafeMutableRawPointer?, _ change: CollectionChange) {
    let changeBox = CollectionChangeBox(change)
    withExtendedLifetime(changeBox) {
        function(userdata, Unmanaged.passUnretained(changeBox).toOpaque().assumingMemoryBound(to: db_collection_change_t.self))
    }
}

/// Registers `callback` for changes to results. The first call is the initial one (counts all 0,
/// `is_initial` set); later calls report, for every commit since the previous call, deletions
/// (old indices), insertions (new indices), modifications with their new indices, and moves
/// (also listed as a deletion and an insertion). Calls happen on the thread that delivers:
/// db_realm_deliver_notifications, db_realm_refresh, db_realm_commit.
/// @param key_paths What counts as a modification ("name", "toys.brand"), or NULL for every
///   property and, four links deep, the properties of linked objects. An empty list (non-NULL,
///   num_key_paths 0): only insertions and deletions count.
/// @param userdata Passed to callback; freed with userdata_free (may be NULL) when the token is
///   released, or at once when registering fails.
/// @return A token (release with db_notification_token_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_INVALID_ARGUMENT (unknown key path,
///   NULL callback, snapshot results), DB_ERR_LOGIC (frozen results), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_results_observe(_ results: UnsafePointer<db_results_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                 _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                                 _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: callCollection) { body in
        let source = try resultsBox(results).results
        return (try source.observe(keyPaths: try keyPaths(key_paths, num_key_paths), body), source.realm)
    }
}

/// Registers `callback` for changes to a list, as db_results_observe. A list of objects reports
/// its objects' changes (key paths apply to them); a list of values reports insertions,
/// deletions and moves of its values (key paths must be NULL).
/// @return A token (release with db_notification_token_release), or NULL with the errors of
///   db_results_observe (DB_ERR_INVALIDATED when the object has been deleted), DB_ERR_WRONG_THREAD.
@c public func db_list_observe(_ list: UnsafePointer<db_list_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                              _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                              _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    observeAccessor(list, "list", as: ListAccessor.self, key_paths, num_key_paths, callback, userdata, userdata_free)
}

/// Registers `callback` for changes to a set, as db_list_observe (indices in the set's order).
/// @return A token (release with db_notification_token_release), or NULL with the errors of
///   db_results_observe (DB_ERR_INVALIDATED when the object has been deleted), DB_ERR_WRONG_THREAD.
@c public func db_set_observe(_ set: UnsafePointer<db_set_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                             _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                             _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    observeAccessor(set, "set", as: SetAccessor.self, key_paths, num_key_paths, callback, userdata, userdata_free)
}

/// Registers `callback` for changes to a dictionary, as db_list_observe; indices are those of the
/// entries in key order, whatever the values are (null ones included). A key added is an
/// insertion, a key removed a deletion, and a key whose value was replaced (by another value,
/// another object or null) a modification; in a dictionary of objects, so is a key whose object
/// changed in a property the key paths select (all, and those of linked objects, without any).
/// @return A token (release with db_notification_token_release), or NULL with the errors of
///   db_results_observe (DB_ERR_INVALIDATED when the object has been deleted), DB_ERR_WRONG_THREAD.
@c public func db_dictionary_observe(_ dictionary: UnsafePointer<db_dictionary_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                    _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                                    _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    observeAccessor(dictionary, "dictionary", as: DictionaryAccessor.self, key_paths, num_key_paths, callback, userdata, userdata_free)
}

private func observeAccessor<Handle, Accessor: CollectionAccessor>(
    _ handle: UnsafePointer<Handle>?, _ name: String, as type: Accessor.Type,
    _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?, _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
    _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?
) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: callCollection) { body in
        let accessor = try collection(handle, name, as: type)
        return (try accessor.observe(keyPaths: try keyPaths(key_paths, num_key_paths), body), accessor.object.realm)
    }
}

/// Registers `callback` for changes to an object: deleted, or the properties written with their
/// old and new values. No initial call. Shallow by default: writes to linked objects count only
/// where key paths name them ("owner.name").
/// @return A token (release with db_notification_token_release), or NULL with the errors of
///   db_results_observe, or DB_ERR_INVALIDATED for a deleted object; DB_ERR_WRONG_THREAD.
@c public func db_object_observe(_ object: UnsafePointer<db_object_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                _ num_key_paths: UInt, _ callback: db_object_change_func_t?,
                                _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: { (function: db_object_change_func_t, userdata, change: (ObjectChange, ClassInfo)) in
        let changeBox = ObjectChangeBox(change.0, change.1)
        withExtendedLifetime(changeBox) {
            function(userdata, Unmanaged.passUnretained(changeBox).toOpaque().assumingMemoryBound(to: db_object_change_t.self))
        }
    }) { body in
        let accessor = try objectBox(object).object
        let classInfo = accessor.classInfo
        return (try accessor.observe(keyPaths: try keyPaths(key_paths, num_key_paths)) { body(($0, classInfo)) }, accessor.realm)
    }
}

/// Registers `callback` for changes to the sections: first the initial call, then, for all
/// commits since the previous call, sections inserted and deleted and objects inserted, deleted
/// and modified as (section, item) paths. To apply a change: remove `deletions` (old paths), then
/// `sections_deleted` (old indices, with their objects), insert `sections_inserted` (new indices,
/// with their objects), then `insertions` (new paths). Delivered as db_results_observe.
/// @param key_paths What counts as a modification ("name", "owner.name"), or NULL for every
///   property and, four links deep, the properties of linked objects. An empty list (non-NULL,
///   num_key_paths 0): only insertions, deletions and section changes count. When any callback of
///   the same sectioned results has something to report, every one is called, each with the
///   modifications its own key paths select.
/// @return A token (release with db_notification_token_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_LOGIC (frozen), DB_ERR_INVALID_ARGUMENT (unknown key
///   path, NULL callback), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_observe(_ sectioned: UnsafePointer<db_sectioned_results_t>?,
                                           _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?, _ num_key_paths: UInt,
                                           _ callback: db_sectioned_change_func_t?,
                                           _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: { (function: db_sectioned_change_func_t, userdata, change: SectionedChange) in
        let changeBox = SectionedChangeBox(change)
        withExtendedLifetime(changeBox) {
            function(userdata, Unmanaged.passUnretained(changeBox).toOpaque().assumingMemoryBound(to: db_sectioned_change_t.self))
        }
    }) { body in
        let source = try sectionedBox(sectioned)
        return (try source.observe(keyPaths: try keyPaths(key_paths, num_key_paths), body), source.realm)
    }
}

/// The sizes of a change's index lists, to size the arrays of db_collection_change_get_indices.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change or out_counts).
@c public func db_collection_change_get_counts(_ change: UnsafePointer<db_collection_change_t>?,
                                              _ out_counts: UnsafeMutablePointer<db_collection_change_counts_t>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: CollectionChangeBox.self).change
        let out = try require(out_counts, "out_counts")
        out.pointee = db_collection_change_counts_t(is_initial: change.isInitial, num_deletions: change.deletions.count,
                                                    num_insertions: change.insertions.count,
                                                    num_modifications: change.modifications.count,
                                                    num_moves: change.moves.count)
    }
}

/// Copies a change's indices into caller arrays sized from db_collection_change_get_counts; any
/// array may be NULL to skip it. Deletions, insertions and modifications are ascending;
/// modifications_new[i] is the new index of the element at old index modifications[i].
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change).
@c public func db_collection_change_get_indices(_ change: UnsafePointer<db_collection_change_t>?,
                                               _ out_deletions: UnsafeMutablePointer<UInt>?, _ out_insertions: UnsafeMutablePointer<UInt>?,
                                               _ out_modifications: UnsafeMutablePointer<UInt>?,
                                               _ out_modifications_new: UnsafeMutablePointer<UInt>?,
                                               _ out_moves: UnsafeMutablePointer<db_index_move_t>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: CollectionChangeBox.self).change
        func copy(_ indices: [Int], _ out: UnsafeMutablePointer<UInt>?) {
            guard let out else { return }
            for (i, index) in indices.enumerated() { out[i] = UInt(index) }
        }
        copy(change.deletions, out_deletions)
        copy(change.insertions, out_insertions)
        copy(change.modifications, out_modifications)
        copy(change.modificationsNew, out_modifications_new)
        if let out_moves {
            for (i, move) in change.moves.enumerated() { out_moves[i] = db_index_move_t(from: move.from, to: move.to) }
        }
    }
}

/// Whether the object was deleted (then it has no changed properties and no call follows).
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change or out_deleted).
@c public func db_object_change_is_deleted(_ change: UnsafePointer<db_object_change_t>?, _ out_deleted: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: ObjectChangeBox.self).change
        try require(out_deleted, "out_deleted").pointee = change == .deleted
    }
}

/// The number of changed properties (0 for a deletion).
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change or out_count).
@c public func db_object_change_get_num_properties(_ change: UnsafePointer<db_object_change_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: ObjectChangeBox.self).change
        guard case let .changed(properties) = change else { return try require(out_count, "out_count").pointee = 0 }
        try require(out_count, "out_count").pointee = UInt(properties.count)
    }
}

/// One changed property: its key and its values at the previous call and now (DB_VALUE_NULL
/// for lists, sets, dictionaries and linking objects). Strings and binaries are borrowed as for
/// db_object_get_value (see db_value_t); any output may be NULL.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_INVALID_ARGUMENT (NULL change).
@c public func db_object_change_get_property(_ change: UnsafePointer<db_object_change_t>?, _ index: UInt,
                                            _ out_property_key: UnsafeMutablePointer<db_property_key_t>?,
                                            _ out_old_value: UnsafeMutablePointer<db_value_t>?,
                                            _ out_new_value: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let box = try unwrap(change, "change", as: ObjectChangeBox.self)
        guard case let .changed(properties) = box.change, index < UInt(properties.count) else {
            throw DBError(.outOfRange, "property change \(index) is out of range")
        }
        let property = properties[Int(index)]
        out_property_key?.pointee = db_property_key_t(box.classInfo.property(named: property.name)?.columnID ?? 0)
        let state = ThreadState.current
        state.releaseBorrowed()
        out_old_value?.pointee = cValue(property.oldValue ?? .null, state)
        out_new_value?.pointee = cValue(property.newValue ?? .null, state)
    }
}

/// The sizes of a sectioned change's lists, to size the arrays of db_sectioned_change_get_indices.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change or out_counts).
@c public func db_sectioned_change_get_counts(_ change: UnsafePointer<db_sectioned_change_t>?,
                                             _ out_counts: UnsafeMutablePointer<db_sectioned_change_counts_t>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: SectionedChangeBox.self).change
        try require(out_counts, "out_counts").pointee = db_sectioned_change_counts_t(
            is_initial: change.isInitial, num_sections_inserted: change.sectionsInserted.count,
            num_sections_deleted: change.sectionsDeleted.count, num_insertions: change.insertions.count,
            num_deletions: change.deletions.count, num_modifications: change.modifications.count)
    }
}

/// Copies a sectioned change into caller arrays sized from db_sectioned_change_get_counts; any
/// array may be NULL to skip it. Everything is in ascending order.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL change).
@c public func db_sectioned_change_get_indices(_ change: UnsafePointer<db_sectioned_change_t>?,
                                              _ out_sections_inserted: UnsafeMutablePointer<UInt>?,
                                              _ out_sections_deleted: UnsafeMutablePointer<UInt>?,
                                              _ out_insertions: UnsafeMutablePointer<db_index_path_t>?,
                                              _ out_deletions: UnsafeMutablePointer<db_index_path_t>?,
                                              _ out_modifications: UnsafeMutablePointer<db_index_path_t>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: SectionedChangeBox.self).change
        for (i, index) in change.sectionsInserted.enumerated() { out_sections_inserted?[i] = UInt(index) }
        for (i, index) in change.sectionsDeleted.enumerated() { out_sections_deleted?[i] = UInt(index) }
        func copy(_ paths: [IndexPath], _ out: UnsafeMutablePointer<db_index_path_t>?) {
            for (i, path) in paths.enumerated() { out?[i] = db_index_path_t(section: path.section, item: path.item) }
        }
        copy(change.insertions, out_insertions)
        copy(change.deletions, out_deletions)
        copy(change.modifications, out_modifications)
    }
}

/// Whether the token's callback can still be called: false once the token has been invalidated
/// (db_notification_token_invalidate) or its realm closed or released. Any thread.
/// @return true while the callback is registered; false after that, and for NULL.
@c public func db_notification_token_is_valid(_ token: UnsafePointer<db_notification_token_t>?) -> Bool {
    boundaryAnswer(false) {
        let box = try unwrap(token, "token", as: TokenBox.self)
        guard let realm = box.realm else { return false }
        return !box.token.isInvalidated && !realm.isClosed
    }
}

/// Stops a token's calls without releasing it; once it returns, the callback is not running (a
/// call in progress on another thread is waited for) and will not run again. May be called from
/// inside the token's own callback, and from any thread. Invalidating twice is harmless.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL token).
@c public func db_notification_token_invalidate(_ token: UnsafeMutablePointer<db_notification_token_t>?) -> db_status_e {
    boundary { try unwrap(token, "token", as: TokenBox.self).token.invalidate() }
}

/// Invalidates a token (as db_notification_token_invalidate) and releases it, freeing the
/// callback's userdata. NULL is a no-op. Any thread.
@c public func db_notification_token_release(_ token: UnsafeMutablePointer<db_notification_token_t>?) {
    guard let token else { return }
    Unmanaged<TokenBox>.fromOpaque(UnsafeRawPointer(token)).takeUnretainedValue().token.invalidate()
    releaseHandle(token, as: TokenBox.self)
}
