import CDBTypes
import CoreEngine

// db_migration_t: what a migration function can do, on the thread that runs it, during the call:
// its realm and schemas, then the objects and properties it changes.

/// Behind `db_migration_t`: valid only during the migration function call.
final class MigrationBox {
    let migration: Migration
    /// The migration's realm, lent to C as a borrowed db_realm_t.
    let realm: UnsafeMutablePointer<db_realm_t>

    init(_ migration: Migration) {
        self.migration = migration
        realm = wrap(RealmBox(migration.realm, borrowed: true), as: db_realm_t.self)
    }

    deinit { Unmanaged<RealmBox>.fromOpaque(UnsafeRawPointer(realm)).release() }
}

func migrationBox(_ pointer: UnsafePointer<db_migration_t>?) throws -> MigrationBox { try unwrap(pointer, "migration", as: MigrationBox.self) }
func migrationBox(_ pointer: UnsafeMutablePointer<db_migration_t>?) throws -> MigrationBox { try unwrap(pointer, "migration", as: MigrationBox.self) }

/// Runs a C migration function; false from it fails the migration.
func runMigration(_ function: MigrationFunction, _ migration: Migration, _ oldVersion: UInt64) throws {
    let box = MigrationBox(migration)
    let handle = Unmanaged.passRetained(box).toOpaque().assumingMemoryBound(to: db_migration_t.self)
    defer { Unmanaged<MigrationBox>.fromOpaque(UnsafeRawPointer(handle)).release() }
    guard function.function(function.userdata, handle, oldVersion) else {
        var error = db_error_t()
        let detail = db_get_last_error(&error) ? ": last error: " + String(cString: error.message) : ""
        throw DBError(.migrationFailed, "the migration function returned false" + detail)
    }
}

/// The realm being migrated, under the new schema, in the migration's write transaction.
/// Create objects with db_object_create and delete them with db_object_delete through it.
/// @return The migration's realm: borrowed, valid until the migration function returns; do not
///   close or release it. NULL with DB_ERR_INVALID_ARGUMENT for a NULL migration.
@c public func db_migration_get_realm(_ migration: UnsafeMutablePointer<db_migration_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { try migrationBox(migration).realm }
}

/// The file's schema before the migration (persisted names as names).
/// @return A new schema (release with db_schema_release), with keys filled in: the class and
///   property keys of the file, which the old objects of db_migration_enumerate_objects read with
///   (db_object_get_value, db_object_get_list, ... on an old object); NULL with
///   DB_ERR_INVALID_ARGUMENT for a NULL migration.
@c public func db_migration_get_old_schema(_ migration: UnsafePointer<db_migration_t>?) -> UnsafeMutablePointer<db_schema_t>? {
    boundary {
        let migration = try migrationBox(migration).migration
        return wrap(SchemaBox(migration.oldSchema, bound: migration.oldClassInfos), as: db_schema_t.self)
    }
}

/// The schema being migrated to.
/// @return A new schema (release with db_schema_release), with keys filled in; NULL with
///   DB_ERR_INVALID_ARGUMENT for a NULL migration.
@c public func db_migration_get_new_schema(_ migration: UnsafePointer<db_migration_t>?) -> UnsafeMutablePointer<db_schema_t>? {
    boundary {
        let box = try migrationBox(migration)
        return wrap(SchemaBox(box.migration.newSchema, bound: box.migration.realm.classes), as: db_schema_t.self)
    }
}

/// Calls fn for every object of a class of the old schema, with the object under the old schema
/// (read-only) and under the new one (NULL if the class is not in the new schema).
/// @return DB_OK, DB_ERR_NOT_FOUND (no such class in the old schema), DB_ERR_CALLBACK (fn returned
///   false), DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD (not the migration function's thread), or
///   an error from the engine.
@c public func db_migration_enumerate_objects(_ migration: UnsafeMutablePointer<db_migration_t>?, _ class_name: UnsafePointer<CChar>?,
                                             _ fn: db_migration_object_func_t?, _ userdata: UnsafeMutableRawPointer?) -> db_status_e {
    boundary {
        let box = try migrationBox(migration)
        let name = try requireString(class_name, "class_name")
        let fn = try require(fn, "fn")
        try box.migration.enumerateObjects(ofType: name) { old, new in
            let oldHandle = wrapObject(old)
            let newHandle = new.map(wrapObject)
            defer {
                db_object_release(oldHandle)
                db_object_release(newHandle)
            }
            guard fn(userdata, UnsafePointer(oldHandle), newHandle) else {
                throw DBError(.callback, "the enumeration callback returned false")
            }
        }
    }
}

/// Moves the values of a property of the old schema into a property of the new schema
/// (the old one must be gone from the new schema, the new one absent from the old; same type).
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_LOGIC, DB_ERR_WRONG_TYPE, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD (not the migration function's thread).
@c public func db_migration_rename_property(_ migration: UnsafeMutablePointer<db_migration_t>?, _ class_name: UnsafePointer<CChar>?,
                                           _ old_name: UnsafePointer<CChar>?, _ new_name: UnsafePointer<CChar>?) -> db_status_e {
    boundary {
        let box = try migrationBox(migration)
        try box.migration.renameProperty(onType: try requireString(class_name, "class_name"),
                                         from: try requireString(old_name, "old_name"),
                                         to: try requireString(new_name, "new_name"))
    }
}

/// Deletes every object of a class of the old schema (and the class itself if the new schema
/// does not have it).
/// @return DB_OK, DB_ERR_NOT_FOUND, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD (not the migration
///   function's thread).
@c public func db_migration_delete_data(_ migration: UnsafeMutablePointer<db_migration_t>?, _ class_name: UnsafePointer<CChar>?) -> db_status_e {
    boundary { try migrationBox(migration).migration.deleteData(forType: try requireString(class_name, "class_name")) }
}
