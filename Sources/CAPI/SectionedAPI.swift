import CDBTypes
import CoreEngine

// db_sectioned_results_t, in lifecycle order: results grouped by a key path or a key function;
// read section by section; validity; frozen views; release. (Observing them, and the
// db_sectioned_change_t they report, are in NotificationAPI.swift.)

/// Behind `db_sectioned_results_t`.
final class SectionedBox {
    let sectioned: SectionedResults
    init(_ sectioned: SectionedResults) { self.sectioned = sectioned }
}

/// The sectioned results behind a handle; DB_ERR_CLOSED_REALM once their realm has been closed.
func sectionedBox(_ pointer: UnsafePointer<db_sectioned_results_t>?) throws -> SectionedResults {
    let box = try unwrap(pointer, "sectioned", as: SectionedBox.self)
    if box.sectioned.isInvalidated { throw DBError(.closedRealm, "the realm has been closed") }
    return box.sectioned
}

private func wrapSectioned(_ sectioned: SectionedResults) -> UnsafeMutablePointer<db_sectioned_results_t> {
    wrap(SectionedBox(sectioned), as: db_sectioned_results_t.self)
}

/// Sorts results by a key path (a property, through to-one links) and makes a section for each of
/// its values, in that order.
/// @return New sectioned results (release with db_sectioned_results_release), or NULL with
///   DB_ERR_QUERY (unknown property, to-many link, not one scalar value), DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_CLOSED_REALM. Nothing is evaluated yet: the sections are computed when first read.
@c public func db_results_sectioned_by_key_path(_ results: UnsafePointer<db_results_t>?, _ key_path: UnsafePointer<CChar>?,
                                               _ ascending: Bool) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try resultsBox(results).results.sectioned(by: try requireString(key_path, "key_path"), ascending: ascending)) }
}

/// Sorts results by `sort` (the first key should decide the section) and sections them by the
/// value at a key path. Sections appear in the order of their first object; every object of a
/// key is in its section even when the sort does not make them adjacent.
/// @return New sectioned results (release with db_sectioned_results_release), or NULL with the
///   errors of db_results_sectioned_by_key_path.
@c public func db_results_sectioned_by_key_path_sorted(_ results: UnsafePointer<db_results_t>?, _ key_path: UnsafePointer<CChar>?,
                                                      _ sort: UnsafePointer<db_sort_path_t>?, _ num_sort: UInt) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary {
        let box = try resultsBox(results)
        return wrapSectioned(try box.results.sectioned(by: try requireString(key_path, "key_path"),
                                                       sortedBy: try sortDescriptors(box.results, sort, num_sort)))
    }
}

/// Sorts results by `sort` (none: their own order) and sections them by the key `fn` gives each
/// object, called on the realm's thread whenever the sections are evaluated.
/// @param userdata Passed to fn; freed with userdata_free when the sectioned results are
///   released, or at once when this call fails.
/// @return New sectioned results (release with db_sectioned_results_release), or NULL with
///   DB_ERR_QUERY (a sort key path), DB_ERR_INVALID_ARGUMENT (NULL fn), DB_ERR_CLOSED_REALM.
@c public func db_results_sectioned_by_function(_ results: UnsafePointer<db_results_t>?, _ sort: UnsafePointer<db_sort_path_t>?,
                                               _ num_sort: UInt, _ fn: db_section_key_func_t?, _ userdata: UnsafeMutableRawPointer?,
                                               _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    let box = CallbackBox(fn, userdata, userdata_free)
    return boundary {
        let function = try require(fn, "fn")
        let source = try resultsBox(results).results
        let sectioned = source.sectioned(sortedBy: try sortDescriptors(source, sort, num_sort)) { object in
            let objectBox = ObjectBox(object)
            var key = db_value_t()
            let ok = withExtendedLifetime(objectBox) {
                function(box.userdata, Unmanaged.passUnretained(objectBox).toOpaque().assumingMemoryBound(to: db_object_t.self), &key)
            }
            guard ok else { throw DBError(.callback, "the section key function returned false") }
            return try engineValue(key)
        }
        return wrapSectioned(sectioned)
    }
}

/// The number of sections.
/// @return DB_OK, DB_ERR_CALLBACK (the key function failed), DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_count(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try require(out_count, "out_count").pointee = UInt(try sectionedBox(sectioned).count()) }
}

/// A section's key. Strings and binaries are borrowed as for db_object_get_value (see db_value_t).
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_CALLBACK (the key function failed),
///   DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_get_key(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                           _ out_key: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let out = try require(out_key, "out_key")
        writeValues([try sectionedBox(sectioned).section(at: try count(section, "section")).key], to: out)
    }
}

/// The number of objects in a section.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_CALLBACK, DB_ERR_CLOSED_REALM,
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_section_count(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                                 _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let out = try require(out_count, "out_count")
        out.pointee = UInt(try sectionedBox(sectioned).section(at: try count(section, "section")).objectKeys.count)
    }
}

/// The object at `item` of `section`.
/// @return A new object (release with db_object_release), or NULL with DB_ERR_OUT_OF_RANGE,
///   DB_ERR_CALLBACK, DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT, DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_get(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                       _ item: UInt) -> UnsafeMutablePointer<db_object_t>? {
    boundary { wrapObject(try sectionedBox(sectioned).object(section: try count(section, "section"), item: try count(item, "item"))) }
}

/// Whether the sectioned results can be read: false once their realm has been closed. Reads only
/// the handle: any thread.
/// @return true while their realm is open; false once it is closed, and for NULL.
@c public func db_sectioned_results_is_valid(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> Bool {
    boundaryAnswer(false) { try !unwrap(sectioned, "sectioned", as: SectionedBox.self).sectioned.isInvalidated }
}

/// The realm the sectioned results read (a frozen realm for frozen ones), as another handle to it:
/// releasing it does not close the realm.
/// @return A new handle (release with db_realm_release), or NULL with DB_ERR_CLOSED_REALM,
///   DB_ERR_WRONG_THREAD or DB_ERR_INVALID_ARGUMENT.
@c public func db_sectioned_results_get_realm(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> UnsafeMutablePointer<db_realm_t>? {
    boundary { try otherHandle(to: try sectionedBox(sectioned).realm) }
}

/// The sections at the version their realm reads now, immutable, usable from any thread.
/// @return New sectioned results (release with db_sectioned_results_release), or NULL with
///   DB_ERR_WRONG_TRANSACTION_STATE (inside a write), DB_ERR_CLOSED_REALM, DB_ERR_INVALID_ARGUMENT,
///   DB_ERR_WRONG_THREAD.
@c public func db_sectioned_results_freeze(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try sectionedBox(sectioned).freeze()) }
}

/// The live sectioned results in the realm these were frozen from (for live ones: the same
/// sections). Any thread may call this; the live results it returns are confined to that realm's
/// thread.
/// @return New sectioned results (release with db_sectioned_results_release), or NULL with
///   DB_ERR_CLOSED_REALM or DB_ERR_INVALID_ARGUMENT.
@c public func db_sectioned_results_thaw(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try sectionedBox(sectioned).thaw()) }
}

/// Whether the sectioned results are frozen. Reads only the handle: any thread.
/// @return true for frozen sectioned results; false for live ones and for NULL.
@c public func db_sectioned_results_is_frozen(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> Bool {
    boundaryAnswer(false) { try unwrap(sectioned, "sectioned", as: SectionedBox.self).sectioned.isFrozen }
}

/// Releases sectioned results (and the key function's userdata). NULL is a no-op. Any thread.
@c public func db_sectioned_results_release(_ sectioned: UnsafeMutablePointer<db_sectioned_results_t>?) {
    releaseHandle(sectioned, as: SectionedBox.self)
}
