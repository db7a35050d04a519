import CDBTypes
import CoreEngine

// db_config_t: how to open a realm.

/// Behind `db_config_t`.
final class ConfigBox {
    var configuration: RealmConfiguration
    var migration: MigrationFunction?
    var shouldCompact: ShouldCompactFunction?

    init(path: String) { configuration = RealmConfiguration(path: path) }
}

/// A C migration function with its userdata; frees the userdata when the last config using it goes away.
final class MigrationFunction {
    let function: db_migration_func_t
    let userdata: UnsafeMutableRawPointer?
    let free: db_free_userdata_func_t?

    init(function: db_migration_func_t, userdata: UnsafeMutableRawPointer?, free: db_free_userdata_func_t?) {
        self.function = function
        self.userdata = userdata
        self.free = free
    }

    deinit { free?(userdata) }
}

/// A C compaction decision function with its userdata; frees the userdata with the config.
final class ShouldCompactFunction {
    let function: db_should_compact_func_t
    let userdata: UnsafeMutableRawPointer?
    let free: db_free_userdata_func_t?

    init(function: db_should_compact_func_t, userdata: UnsafeMutableRawPointer?, free: db_free_userdata_func_t?) {
        self.function = function
        self.userdata = userdata
        self.free = free
    }

    deinit { free?(userdata) }

    func decide(_ space: FileSpace) -> Bool { function(userdata, UInt64(space.fileBytes), UInt64(space.usedBytes)) }
}

func configBox(_ pointer: UnsafePointer<db_config_t>?) throws -> ConfigBox { try unwrap(pointer, "config", as: ConfigBox.self) }
func configBox(_ pointer: UnsafeMutablePointer<db_config_t>?) throws -> ConfigBox { try unwrap(pointer, "config", as: ConfigBox.self) }

/// Creates an open configuration.
///
/// Defaults: no schema (open with the file's own schema), schema version 0, on disk, writable,
/// no limit on active versions, no migration function, no compaction on launch.
/// @param path The file path (created if missing; its directory must exist), or the identifier of
///   an in-memory realm (see db_config_set_in_memory). Copied.
/// @return A new config (release with db_config_release), or NULL with DB_ERR_INVALID_ARGUMENT.
@c public func db_config_new(_ path: UnsafePointer<CChar>?) -> UnsafeMutablePointer<db_config_t>? {
    boundary {
        let path = try requireString(path, "path")
        guard !path.isEmpty else { throw invalidArgument("'path' must not be empty") }
        return wrap(ConfigBox(path: path), as: db_config_t.self)
    }
}

/// Releases a config (and, if no open realm still needs it, its migration userdata). NULL is a no-op.
@c public func db_config_release(_ config: UnsafeMutablePointer<db_config_t>?) {
    releaseHandle(config, as: ConfigBox.self)
}

/// Sets the declared schema (copied). Opening checks it against the file's schema.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config or schema).
@c public func db_config_set_schema(_ config: UnsafeMutablePointer<db_config_t>?, _ schema: UnsafePointer<db_schema_t>?) -> db_status_e {
    boundary {
        let box = try configBox(config)
        box.configuration.schema = try schemaBox(schema).schema
    }
}

/// Sets the schema version. A higher version than the file's runs the migration function.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config).
@c public func db_config_set_schema_version(_ config: UnsafeMutablePointer<db_config_t>?, _ version: UInt64) -> db_status_e {
    boundary { try configBox(config).configuration.schemaVersion = version }
}

/// Makes the path an in-memory identifier: handles with the same identifier in this process share
/// the data, which is deleted when the last of them closes.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config).
@c public func db_config_set_in_memory(_ config: UnsafeMutablePointer<db_config_t>?, _ in_memory: Bool) -> db_status_e {
    boundary { try configBox(config).configuration.inMemory = in_memory }
}

/// Opens read-only: writes fail with DB_ERR_READ_ONLY; the file must exist with a matching schema.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config).
@c public func db_config_set_read_only(_ config: UnsafeMutablePointer<db_config_t>?, _ read_only: Bool) -> db_status_e {
    boundary { try configBox(config).configuration.readOnly = read_only }
}

/// Limits how many versions readers of the file may pin at once (0: no limit). db_realm_begin_write
/// fails with DB_ERR_TOO_MANY_ACTIVE_VERSIONS when the commit would exceed it.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config).
@c public func db_config_set_max_active_versions(_ config: UnsafeMutablePointer<db_config_t>?, _ max_versions: UInt64) -> db_status_e {
    boundary { try configBox(config).configuration.maxActiveVersions = max_versions }
}

/// Sets the migration function (NULL removes it).
/// @param fn Called by db_realm_open on the opening thread when the schema version increases.
/// @param userdata Passed to fn; freed with userdata_free (may be NULL) when the config and every
///   realm opened with it are released.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config; the userdata is not freed then).
@c public func db_config_set_migration_function(_ config: UnsafeMutablePointer<db_config_t>?, _ fn: db_migration_func_t?,
                                               _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> db_status_e {
    boundary {
        let box = try configBox(config)
        box.migration = fn.map { MigrationFunction(function: $0, userdata: userdata, free: userdata_free) }
        if fn == nil { userdata_free?(userdata) }
    }
}

/// Sets the function that decides, as a file opens, whether to compact it first (NULL: never, the
/// default). LMDB reuses the space that deletes and old versions free, but never shrinks the file;
/// compacting rewrites it with only the pages in use (as db_realm_write_copy does). The function
/// runs only when no process has the file open, not for in-memory or read-only realms; compaction
/// takes time in proportion to the data, and a crash during it leaves the old file or the new one.
/// @param fn See db_should_compact_func_t. A typical choice: compact when the file is over 100 MiB
///   and less than half of it is in use.
/// @param userdata Passed to fn; freed with userdata_free (may be NULL) with the config.
/// @return DB_OK, or DB_ERR_INVALID_ARGUMENT (NULL config; the userdata is not freed then).
@c public func db_config_set_should_compact_on_launch(_ config: UnsafeMutablePointer<db_config_t>?, _ fn: db_should_compact_func_t?,
                                                     _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> db_status_e {
    boundary {
        let box = try configBox(config)
        let function = fn.map { ShouldCompactFunction(function: $0, userdata: userdata, free: userdata_free) }
        box.shouldCompact = function
        box.configuration.shouldCompactOnLaunch = function.map { function in { function.decide($0) } }
        if fn == nil { userdata_free?(userdata) }
    }
}
