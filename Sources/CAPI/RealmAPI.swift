import CDBTypes
import CoreEngine

// db_realm_t, in lifecycle order: open; transactions and savepoints; refresh and notification
// delivery; versions, checks and schema lookup; validity; frozen views; close and release.

/// Opens a realm.
///
/// Creates the file if needed (complete and synced before it gets its name, so that a crash never
/// leaves a partial file: see docs/FORMAT.md), applies additive schema changes, and runs the
/// migration function (inside the opening write transaction) when the schema version increases.
/// As in Realm, a new class or index needs nothing; a new property of an existing class needs a
/// higher schema version (DB_ERR_MIGRATION_REQUIRED names it otherwise) but no migration function.
/// @return A new realm (release with db_realm_release), or NULL with DB_ERR_FILE_ACCESS,
///   DB_ERR_FILE_FORMAT, DB_ERR_SCHEMA_INVALID (e.g. a schema version lower than the file's),
///   DB_ERR_MIGRATION_REQUIRED, DB_ERR_MIGRATION_FAILED, DB_ERR_DUPLICATE_PRIMARY_KEY (after a
///   migration) or DB_ERR_READ_ONLY. The realm is confined to the calling thread.
@c public func db_realm_open(_ config: UnsafePointer<db_config_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary {
        let box = try configBox(config)
        var configuration = box.configuration
        if let function = box.migration {
            configuration.migration = { migration, oldVersion in try runMigration(function, migration, oldVersion) }
        }
        return wrap(RealmBox(try Realm(configuration: configuration)), as: db_realm_t.self)
    }
}

/// Begins a write transaction, waiting while another thread or process writes to the same file
/// (without waiting when db_realm_reserve_write reserved the turn). The realm advances to the
/// latest version first.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (already writing, or this thread writes to the
///   file through another handle), DB_ERR_READ_ONLY, DB_ERR_TOO_MANY_ACTIVE_VERSIONS,
///   DB_ERR_CLOSED_REALM, DB_ERR_LOGIC (a frozen realm), DB_ERR_WRONG_THREAD.
@c public func db_realm_begin_write(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.beginWrite() }
}

/// Commits the write transaction durably (fsync) and pins the new version.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_STORAGE, DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_commit(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { _ = try realmBox(realm).realm.commitWrite() }
}

/// Rolls back the write transaction.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_realm_cancel_write(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.cancelWrite() }
}

/// Waits for the turn to write the realm's file, then reserves it for this realm's next
/// db_realm_begin_write, which then starts without waiting. For programs whose realm lives on a
/// thread that must not block (an event loop): call this on a worker thread, then begin the write
/// on the realm's own thread once it returns. Any thread of the process that opened the realm may
/// call it. Writers of the file, in this process and in others, each wait their turn; while this
/// realm holds the turn (reserved, then in its write transaction) every other writer waits, so
/// begin promptly, or give the turn back with db_realm_release_write_reservation. Closing the
/// realm gives it back too, and makes a wait in progress return DB_ERR_CLOSED_REALM.
/// @return DB_OK (reserved), DB_ERR_CLOSED_REALM, DB_ERR_READ_ONLY, DB_ERR_LOGIC (a frozen realm),
///   DB_ERR_WRONG_TRANSACTION_STATE (the realm is in a write, holds a reservation or is being
///   waited for already, or its thread writes through another handle: waiting would deadlock),
///   DB_ERR_STORAGE, DB_ERR_WRONG_THREAD (only in a fork child of the process that opened it).
@c public func db_realm_reserve_write(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.reserveWrite() }
}

/// Gives back a turn to write that db_realm_reserve_write reserved and no write has used yet
/// (the program decided not to write after all). Any thread of the process that opened the realm
/// may call it. On a closed realm it does nothing: closing gave the turn back.
/// @param[out] out_released Set to whether a reservation was given back (false: the realm held
///   none); may be NULL.
/// @return DB_OK, DB_ERR_WRONG_THREAD (only in a fork child of the process that opened it).
@c public func db_realm_release_write_reservation(_ realm: UnsafeMutablePointer<db_realm_t>?,
                                                  _ out_released: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let released = try realmBox(realm).realm.releaseWriteReservation()
        out_released?.pointee = released
    }
}

/// Takes a savepoint inside the write transaction: db_realm_rollback_savepoint undoes everything
/// done since (objects, values, collections, links and backlinks, counts, what observers will be
/// told), keeping what was done before; db_realm_release_savepoint keeps it. Savepoints nest;
/// committing keeps the changes of savepoints still open, cancelling discards everything. Use one
/// to make a change of several calls atomic: an object and its collections, an embedded object
/// and its values. Handles to objects created after a savepoint that is rolled back become invalid.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (not in a write transaction), DB_ERR_STORAGE,
///   DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_realm_begin_savepoint(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.beginSavepoint() }
}

/// Undoes everything done since the innermost open savepoint (see db_realm_begin_savepoint) and
/// removes that savepoint; the write transaction goes on.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (no savepoint open), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_rollback_savepoint(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.rollbackSavepoint() }
}

/// Keeps everything done since the innermost open savepoint and removes that savepoint: its changes
/// belong to the enclosing savepoint, if any, from then on.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (no savepoint open), DB_ERR_STORAGE (the changes
///   could not be kept and were rolled back), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
@c public func db_realm_release_savepoint(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.releaseSavepoint() }
}

/// Whether the realm is in a write transaction. Reads only the handle: any thread.
/// @return true inside a write; false outside one, for a closed realm and for NULL.
@c public func db_realm_is_in_write(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(false) { try realmBox(realm).realm.isInWriteTransaction }
}

/// Advances the realm to the latest version.
/// @param[out] out_did_advance Set to whether the version changed; may be NULL.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM,
///   DB_ERR_LOGIC (a frozen realm), DB_ERR_WRONG_THREAD.
@c public func db_realm_refresh(_ realm: UnsafeMutablePointer<db_realm_t>?, _ out_did_advance: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let advanced = try realmBox(realm).realm.refresh()
        out_did_advance?.pointee = advanced
    }
}

/// Releases the realm's pinned version so the file can reuse its space; the next read pins the
/// latest version. Objects stay usable.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM,
///   DB_ERR_LOGIC (a frozen realm), DB_ERR_WRONG_THREAD.
@c public func db_realm_invalidate(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.invalidate() }
}

/// Calls the notification callbacks registered through this realm handle that have something to
/// report (initial calls, changes since each one's last call), on the calling thread.
/// db_realm_refresh and db_realm_commit do this too.
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
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
/// Any thread may set or remove the scheduler; in a fork child of the process that opened the realm
/// this fails with DB_ERR_WRONG_THREAD.
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_LOGIC (a frozen realm), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD (in a fork child).
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

/// The version (commit counter) the realm reads.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_version), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_get_version(_ realm: UnsafePointer<db_realm_t>?, _ out_version: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_version, "out_version")
        out.pointee = try box.realm.version()
    }
}

/// The address of the realm's change counter: a number that moves whenever what the realm shows
/// may have changed (a write through the realm, a refresh or any other move to a new version, a
/// write begun, committed or cancelled, the realm closed), and only grows. A value read from the
/// realm while the counter held `n` is current while it still holds `n`: a binding can cache the
/// values it read and check them with one load instead of a call per read. Any thread may ask for
/// the address; read the counter on the realm's thread (a frozen realm's never moves). The
/// address stays valid until the handle is released.
/// @param[out] out_counter Set to the counter's address.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_counter), DB_ERR_CLOSED_REALM.
@c public func db_realm_get_change_counter(_ realm: UnsafePointer<db_realm_t>?,
                                           _ out_counter: UnsafeMutablePointer<UnsafePointer<UInt64>?>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_counter, "out_counter")
        guard !box.realm.isClosed else { throw DBError(.closedRealm, "the realm has been closed") }
        out.pointee = UnsafePointer(box.realm.changeCounter.address)
    }
}

/// The file's schema version.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_version), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_get_schema_version(_ realm: UnsafePointer<db_realm_t>?, _ out_version: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_version, "out_version")
        out.pointee = try box.realm.schemaVersion()
    }
}

/// The realm file's format number (docs/FORMAT.md) at the pinned version: 2 for the files this
/// library writes; 1 for a file written before record seals, until its first write upgrades it.
/// A file in a format this library cannot read does not open (DB_ERR_FILE_FORMAT names its number).
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_format), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_get_file_format(_ realm: UnsafePointer<db_realm_t>?, _ out_format: UnsafeMutablePointer<UInt32>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_format, "out_format")
        out.pointee = try box.realm.fileFormat()
    }
}

/// The number of distinct versions pinned by readers of the file in every process, plus the latest.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_count), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_get_active_version_count(_ realm: UnsafePointer<db_realm_t>?, _ out_count: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_count, "out_count")
        out.pointee = UInt64(try box.realm.activeVersionCount())
    }
}

/// Clears the reader slots of processes that died while reading (which pin their version, so
/// the file grows with every commit), then reports what pins old versions: readers, the oldest
/// one's lag and process. Writers also clear dead readers as they begin, at most every 100 ms.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_info), DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_get_version_info(_ realm: UnsafePointer<db_realm_t>?, _ out_info: UnsafeMutablePointer<db_version_info_t>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_info, "out_info")
        let info = try box.realm.versionInfo()
        out.pointee = db_version_info_t(active_versions: info.activeVersions, readers: info.readers,
                                        oldest_reader_lag: UInt64(info.oldestReaderLag), oldest_reader_pid: Int64(info.oldestReaderPID),
                                        stale_readers_cleared: info.staleReadersCleared)
    }
}

/// Reads the whole file at its latest version and checks it: every stored value decodes,
/// counters match the objects, links lead to live objects, text is UTF-8, each index holds
/// exactly one entry per object with its value, and every block belongs to the schema. Takes
/// time in proportion to the file; `progress` (may be NULL) is called as classes are done.
/// @param[out] out_report What was read (may be NULL).
/// @return DB_OK when the file is sound; DB_ERR_FILE_FORMAT naming the first damage found;
///   DB_ERR_WRONG_TRANSACTION_STATE inside a write; DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD,
///   DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_check(_ realm: UnsafePointer<db_realm_t>?, _ progress: db_check_progress_func_t?, _ userdata: UnsafeMutableRawPointer?,
                             _ out_report: UnsafeMutablePointer<db_check_report_t>?) -> db_status_e {
    boundary {
        let report = try realmBox(realm).realm.check { done, total in progress?(userdata, done, total) }
        out_report?.pointee = db_check_report_t(classes: report.classes, objects: report.objects, values: report.values,
                                                blocks: report.blocks, index_entries: report.indexEntries)
    }
}

/// Writes a compacted copy of the realm's latest committed version to a new file: only the pages in
/// use, so the copy is as small as the data allows (LMDB never shrinks a file itself; see
/// db_config_set_should_compact_on_launch). The copy is complete and synced before it gets its
/// name, so a crash never leaves a partial file at `path`. Works for in-memory realms too (their
/// data is saved to a file). Takes time in proportion to the data; the realm stays usable.
/// @param path The new file (its directory must exist; an existing file is never overwritten).
/// @return DB_OK; DB_ERR_FILE_ACCESS (`path` exists or cannot be written; nothing is left at it);
///   DB_ERR_WRONG_TRANSACTION_STATE inside a write (commit first: the copy holds committed data);
///   DB_ERR_FILE_FORMAT (this file is damaged); DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD,
///   DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_write_copy(_ realm: UnsafePointer<db_realm_t>?, _ path: UnsafePointer<CChar>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let path = try requireString(path, "path")
        guard !path.isEmpty else { throw invalidArgument("'path' must not be empty") }
        try box.realm.writeCopy(toFile: path)
    }
}

/// The realm file's size and the bytes of its pages in use; the rest is free space that later
/// commits reuse, and that compacting gives back (db_realm_write_copy,
/// db_config_set_should_compact_on_launch). For an in-memory realm: its temporary file.
/// @param[out] out_file_bytes The file's size.
/// @param[out] out_used_bytes The bytes in use (about the size of a compacted copy).
/// @return DB_OK, DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD, DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_get_file_space(_ realm: UnsafePointer<db_realm_t>?, _ out_file_bytes: UnsafeMutablePointer<UInt64>?,
                                      _ out_used_bytes: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let fileBytes = try require(out_file_bytes, "out_file_bytes")
        let usedBytes = try require(out_used_bytes, "out_used_bytes")
        let space = try box.realm.fileSpace()
        fileBytes.pointee = UInt64(space.fileBytes)
        usedBytes.pointee = UInt64(space.usedBytes)
    }
}

/// The realm's schema, with class and property keys filled in. Reads only the handle: any thread.
/// @return A new schema (release with db_schema_release), or NULL with DB_ERR_CLOSED_REALM or
///   DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_get_schema(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_schema_t>? {
    boundary {
        let box = try realmBox(realm)
        if box.realm.isClosed { throw DBError(.closedRealm, "the realm has been closed") }
        return wrap(SchemaBox(box.realm.schema, bound: box.realm.classes), as: db_schema_t.self)
    }
}

/// Finds a class's key by name.
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_find_class(_ realm: UnsafePointer<db_realm_t>?, _ class_name: UnsafePointer<CChar>?,
                                  _ out_class_key: UnsafeMutablePointer<db_class_key_t>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let name = try requireString(class_name, "class_name")
        let out = try require(out_class_key, "out_class_key")
        out.pointee = try box.realm.classInfo(named: name).tableID
    }
}

/// Finds a property's key by its public name. Keys are the fast path for get/set.
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_find_property(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                     _ property_name: UnsafePointer<CChar>?,
                                     _ out_property_key: UnsafeMutablePointer<db_property_key_t>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let name = try requireString(property_name, "property_name")
        let out = try require(out_property_key, "out_property_key")
        out.pointee = db_property_key_t(try box.realm.classInfo(key: class_key).requireProperty(named: name).columnID)
    }
}

/// Counts the objects of a class without reading them.
/// @return DB_OK, DB_ERR_NOT_FOUND (class key), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_realm_count_objects(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                     _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_count, "out_count")
        out.pointee = UInt(try box.realm.objectCount(box.realm.classInfo(key: class_key)))
    }
}

/// Whether the realm is open: false once it has been closed (db_realm_close, or the release of
/// the handle that owns it). Reads only the handle: any thread.
/// @return true while the realm is open; false once closed, and for NULL.
@c public func db_realm_is_valid(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(false) { try !realmBox(realm).realm.isClosed }
}

/// An immutable realm reading this realm's current version forever, from any thread. It pins that
/// version (db_config_set_max_active_versions counts it): release it when done, or the file grows.
/// Freezing a frozen realm gives another handle to it.
/// @return A new realm (release with db_realm_release), or NULL with DB_ERR_WRONG_TRANSACTION_STATE
///   (inside a write), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD, DB_ERR_INVALID_ARGUMENT. The
///   frozen realm may be used from any thread.
@c public func db_realm_freeze(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary {
        let source = try realmBox(realm).realm
        let frozen = try source.freeze()
        return wrap(RealmBox(frozen, owning: frozen !== source || !source.isFrozen), as: db_realm_t.self)
    }
}

/// The live realm a frozen realm was frozen from, as another handle to it (releasing this handle
/// does not close that realm; db_realm_close would). For a live realm: another handle to itself.
/// Any thread may call this; the live realm it returns is confined to the thread that opened it.
/// @return A new handle (release with db_realm_release), or NULL with DB_ERR_CLOSED_REALM (that
///   realm has been closed) or DB_ERR_INVALID_ARGUMENT.
@c public func db_realm_thaw(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { wrap(RealmBox(try realmBox(realm).realm.thaw(), owning: false), as: db_realm_t.self) }
}

/// Whether the realm is frozen. Reads only the handle: any thread.
/// @return true for a frozen realm; false for a live one and for NULL.
@c public func db_realm_is_frozen(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(false) { try realmBox(realm).realm.isFrozen }
}

/// Closes a realm: rolls back a write in progress, releases its version and the file.
/// Objects and collections of the realm become invalid. Closing twice is harmless. Any thread may
/// close a realm (it waits for a scheduler call in progress).
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT, or DB_ERR_LOGIC for the realm a migration lends.
@c public func db_realm_close(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        if box.isBorrowed { throw DBError(.logic, "the realm of a migration cannot be closed by the migration function") }
        box.realm.close()
    }
}

/// Releases a realm handle, closing it first if open and the handle owns it (not a handle from
/// db_realm_thaw; never the migration's borrowed realm, which must not be released). NULL is a
/// no-op. Any thread.
@c public func db_realm_release(_ realm: UnsafeMutablePointer<db_realm_t>?) {
    guard let realm, let box = try? realmBox(realm), !box.isBorrowed else { return }
    if box.ownsRealm { box.realm.close() }
    releaseHandle(realm, as: RealmBox.self)
}

/// Another handle to `realm` for a getter of an object, results or sections (the seeds' `realm`):
/// releasing it does not close the realm, which the caller's own handle owns.
func otherHandle(to realm: Realm) throws -> UnsafeMutablePointer<db_realm_t> {
    try realm.requireUsable()
    return wrap(RealmBox(realm, owning: false), as: db_realm_t.self)
}
