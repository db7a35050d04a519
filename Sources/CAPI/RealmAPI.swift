import CDBTypes
import CoreEngine

// db_realm_t: open, close, transactions, versions, schema lookup.

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
///   migration) or DB_ERR_READ_ONLY.
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

/// Closes a realm: rolls back a write in progress, releases its version and the file.
/// Objects of the realm become invalid. Closing twice is harmless.
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT, or DB_ERR_LOGIC for the realm a migration lends.
@c public func db_realm_close(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        if box.isBorrowed { throw DBError(.logic, "the realm of a migration cannot be closed by the migration function") }
        box.realm.close()
    }
}

/// Releases a realm handle, closing it first if open (unless it is a migration's borrowed realm,
/// which must not be released). NULL is a no-op.
@c public func db_realm_release(_ realm: UnsafeMutablePointer<db_realm_t>?) {
    guard let realm, let box = try? realmBox(realm), !box.isBorrowed else { return }
    if box.ownsRealm { box.realm.close() }
    releaseHandle(realm, as: RealmBox.self)
}

/// Whether the realm is closed; true for NULL.
@c public func db_realm_is_closed(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(true) { try realmBox(realm).realm.isClosed }
}

/// Begins a write transaction, waiting while another thread or process writes to the same file.
/// The realm advances to the latest version first.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (already writing, or this thread writes to the
///   file through another handle), DB_ERR_READ_ONLY, DB_ERR_TOO_MANY_ACTIVE_VERSIONS, DB_ERR_CLOSED_REALM.
@c public func db_realm_begin_write(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.beginWrite() }
}

/// Commits the write transaction durably (fsync) and pins the new version.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_STORAGE, DB_ERR_CLOSED_REALM.
@c public func db_realm_commit(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { _ = try realmBox(realm).realm.commitWrite() }
}

/// Rolls back the write transaction.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_CLOSED_REALM.
@c public func db_realm_cancel_write(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.cancelWrite() }
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
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (no savepoint open), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
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

/// Whether the realm is in a write transaction; false for NULL or a closed realm.
@c public func db_realm_is_in_write(_ realm: UnsafePointer<db_realm_t>?) -> Bool {
    boundaryAnswer(false) { try realmBox(realm).realm.isInWriteTransaction }
}

/// Advances the realm to the latest version.
/// @param[out] out_did_advance Set to whether the version changed; may be NULL.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM.
@c public func db_realm_refresh(_ realm: UnsafeMutablePointer<db_realm_t>?, _ out_did_advance: UnsafeMutablePointer<Bool>?) -> db_status_e {
    boundary {
        let advanced = try realmBox(realm).realm.refresh()
        out_did_advance?.pointee = advanced
    }
}

/// Releases the realm's pinned version so the file can reuse its space; the next read pins the
/// latest version. Objects stay usable.
/// @return DB_OK, DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM.
@c public func db_realm_invalidate(_ realm: UnsafeMutablePointer<db_realm_t>?) -> db_status_e {
    boundary { try realmBox(realm).realm.invalidate() }
}

/// The version (commit counter) the realm reads.
@c public func db_realm_get_version(_ realm: UnsafePointer<db_realm_t>?, _ out_version: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_version, "out_version")
        out.pointee = try box.realm.version()
    }
}

/// The file's schema version.
@c public func db_realm_get_schema_version(_ realm: UnsafePointer<db_realm_t>?, _ out_version: UnsafeMutablePointer<UInt64>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_version, "out_version")
        out.pointee = try box.realm.schemaVersion()
    }
}

/// The number of distinct versions pinned by readers of the file in every process, plus the latest.
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
/// @return DB_OK, DB_ERR_INVALID_ARGUMENT (NULL out_info), DB_ERR_CLOSED_REALM, DB_ERR_WRONG_THREAD.
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

/// The realm's schema, with class and property keys filled in.
/// @return A new schema (release with db_schema_release), or NULL with DB_ERR_CLOSED_REALM.
@c public func db_realm_get_schema(_ realm: UnsafePointer<db_realm_t>?) -> UnsafeMutablePointer<db_schema_t>? {
    boundary {
        let box = try realmBox(realm)
        if box.realm.isClosed { throw DBError(.closedRealm, "the realm has been closed") }
        return wrap(SchemaBox(box.realm.schema, bound: box.realm.classes), as: db_schema_t.self)
    }
}

/// Finds a class's key by name.
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT.
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
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT.
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
@c public func db_realm_count_objects(_ realm: UnsafePointer<db_realm_t>?, _ class_key: db_class_key_t,
                                     _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let box = try realmBox(realm)
        let out = try require(out_count, "out_count")
        out.pointee = UInt(try box.realm.objectCount(box.realm.classInfo(key: class_key)))
    }
}
