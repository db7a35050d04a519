import CDBTypes
import CoreEngine

// Notifications: db_*_observe registers a callback and returns a token; the changes it receives
// are borrowed handles read with db_collection_change_* and db_object_change_*.

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

    init(_ token: NotificationToken, _ callback: AnyObject) {
        self.token = token
        self.callback = callback
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

private func keyPaths(_ paths: UnsafePointer<UnsafePointer<CChar>?>?, _ count: UInt) throws -> [String]? {
    guard let paths else {
        if count > 0 { throw invalidArgument("'key_paths' must not be NULL when num_key_paths is not 0") }
        return nil
    }
    return try (0..<bufferCount(count, "num_key_paths", elementSize: MemoryLayout<UnsafePointer<CChar>?>.stride)).map { try requireString(paths[$0], "key_paths[\($0)]") }
}

/// Registers a callback through `observe`, wrapping the token; the engine's closure holds the
/// callback box weakly, so releasing the token frees the userdata.
func register<Function, Change>(_ function: Function?, _ userdata: UnsafeMutableRawPointer?,
                                        _ userdata_free: db_free_userdata_func_t?,
                                        call: @escaping (Function, UnsafeMutableRawPointer?, Change) -> Void,
                                        _ observe: (@escaping (Change) -> Void) throws -> NotificationToken) -> UnsafeMutablePointer<db_notification_token_t>? {
    let box = CallbackBox(function, userdata, userdata_free)
    return boundary {
        _ = try require(function, "callback")
        let token = try observe { [weak box] change in
            guard let box, let function = box.function else { return }
            call(function, box.userdata, change)
        }
        return wrap(TokenBox(token, box), as: db_notification_token_t.self)
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
///   NULL callback, snapshot results), DB_ERR_CLOSED_REALM.
@c public func db_results_observe(_ results: UnsafePointer<db_results_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                                 _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                                 _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: callCollection) { body in
        try resultsBox(results).results.observe(keyPaths: try keyPaths(key_paths, num_key_paths), body)
    }
}

/// Registers `callback` for changes to a list, as db_results_observe. A list of objects reports
/// its objects' changes (key paths apply to them); a list of values reports insertions,
/// deletions and moves of its values (key paths must be NULL).
@c public func db_list_observe(_ list: UnsafePointer<db_list_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                              _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                              _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    observeAccessor(list, "list", as: ListAccessor.self, key_paths, num_key_paths, callback, userdata, userdata_free)
}

/// Registers `callback` for changes to a set, as db_list_observe (indices in the set's order).
@c public func db_set_observe(_ set: UnsafePointer<db_set_t>?, _ key_paths: UnsafePointer<UnsafePointer<CChar>?>?,
                             _ num_key_paths: UInt, _ callback: db_collection_change_func_t?,
                             _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    observeAccessor(set, "set", as: SetAccessor.self, key_paths, num_key_paths, callback, userdata, userdata_free)
}

/// Registers `callback` for changes to a dictionary, as db_list_observe; indices are those of the
/// entries in key order, and an entry whose value changed is a modification.
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
        try collection(handle, name, as: type).observe(keyPaths: try keyPaths(key_paths, num_key_paths), body)
    }
}

/// Registers `callback` for changes to an object: deleted, or the properties written with their
/// old and new values. No initial call. Shallow by default: writes to linked objects count only
/// where key paths name them ("owner.name").
/// @return A token, or NULL with the errors of db_results_observe, or DB_ERR_INVALIDATED for a
///   deleted object.
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
        return try accessor.observe(keyPaths: try keyPaths(key_paths, num_key_paths)) { body(($0, classInfo)) }
    }
}

/// Stops a token's calls without releasing it; once it returns, the callback is not running (a
/// call in progress on another thread is waited for) and will not run again. May be called from
/// inside the token's own callback.
@c public func db_notification_token_invalidate(_ token: UnsafeMutablePointer<db_notification_token_t>?) -> db_status_e {
    boundary { try unwrap(token, "token", as: TokenBox.self).token.invalidate() }
}

/// Invalidates a token (as db_notification_token_invalidate) and releases it, freeing the
/// callback's userdata. NULL is ignored.
@c public func db_notification_token_release(_ token: UnsafeMutablePointer<db_notification_token_t>?) {
    guard let token else { return }
    Unmanaged<TokenBox>.fromOpaque(UnsafeRawPointer(token)).takeUnretainedValue().token.invalidate()
    releaseHandle(token, as: TokenBox.self)
}

/// Calls the notification callbacks registered through this realm handle that have something to
/// report (initial calls, changes since each one's last call), on the calling thread.
/// db_realm_refresh and db_realm_commit do this too.
/// @return DB_OK, DB_ERR_CLOSED_REALM.
@c public func db_realm_deliver_notifications(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.deliverNotifications() }
}

/// Sets how a realm's owner is woken when its file gets a commit from any handle, thread or
/// process: `notify(userdata)` is called from a library thread, and the owner then calls
/// db_realm_refresh on its own thread. `notify` is called once a commit is readable (so the
/// refresh it prompts sees it): at once through inotify on the data file, or within 250 ms
/// without inotify. It is also called once soon after it is set, and after each new
/// observer's registration, so that initial calls are delivered without a commit. Without a
/// scheduler, notifications wait for the owner's next db_realm_refresh, db_realm_commit or
/// db_realm_deliver_notifications. `notify` should only schedule the refresh (post to the
/// owner's event loop): it must not wait for the owner's thread.
/// @param notify NULL removes the scheduler; removing it (or closing the realm) waits for a call
///   in progress on another thread (never call it from inside `notify` for another realm).
/// @param userdata Freed with userdata_free when the scheduler is replaced or removed, or the
///   realm is closed or released.
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_set_scheduler(_ realm: UnsafeMutablePointer<db_realm_t>?, _ notify: db_scheduler_notify_func_t?,
                                     _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> db_status_e {
    let box = CallbackBox(notify, userdata, userdata_free)
    return boundary {
        let realm = try realmBox(realm).realm
        guard let notify else { return try realm.setScheduler(nil) }
        // The watcher keeps the closure, and with it the box, until the scheduler is removed.
        try realm.setScheduler { notify(box.userdata) }
    }
}

/// The sizes of a change's index lists, to size the arrays of db_collection_change_get_indices.
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
@c public func db_object_change_is_deleted(_ change: UnsafePointer<db_object_change_t>?, _ out_deleted: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: ObjectChangeBox.self).change
        try require(out_deleted, "out_deleted").pointee = change == .deleted
    }
}

/// The number of changed properties (0 for a deletion).
@c public func db_object_change_get_num_properties(_ change: UnsafePointer<db_object_change_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let change = try unwrap(change, "change", as: ObjectChangeBox.self).change
        guard case let .changed(properties) = change else { return try require(out_count, "out_count").pointee = 0 }
        try require(out_count, "out_count").pointee = UInt(properties.count)
    }
}

/// One changed property: its key and its values at the previous call and now (DB_VALUE_NULL
/// for lists, sets, dictionaries and linking objects). Strings and binaries are lent until the
/// next value-reading call on this thread; any output may be NULL.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE.
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
