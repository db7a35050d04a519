import CDBTypes
import CoreEngine

// Sectioned results: results grouped by a key path or a key function, read section by section,
// frozen and observed with section-level changesets.

/// Behind `db_sectioned_results_t`.
final class SectionedBox {
    let sectioned: SectionedResults
    init(_ sectioned: SectionedResults) { self.sectioned = sectioned }
}

/// Behind `db_sectioned_change_t` (borrowed during a callback).
final class SectionedChangeBox {
    let change: SectionedChange
    init(_ change: SectionedChange) { self.change = change }
}

private func sectionedBox(_ pointer: UnsafePointer<db_sectioned_results_t>?) throws -> SectionedResults {
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
///   DB_ERR_QUERY (unknown property, to-many link, not one scalar value), DB_ERR_INVALID_ARGUMENT.
@c public func db_results_sectioned_by_key_path(_ results: UnsafePointer<db_results_t>?, _ key_path: UnsafePointer<CChar>?,
                                               _ ascending: Bool) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try resultsBox(results).results.sectioned(by: try requireString(key_path, "key_path"), ascending: ascending)) }
}

/// Sorts results by `sort` (the first key should decide the section) and sections them by the
/// value at a key path. Sections appear in the order of their first object; every object of a
/// key is in its section even when the sort does not make them adjacent.
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

/// Releases sectioned results (and the key function's userdata). NULL is ignored.
@c public func db_sectioned_results_release(_ sectioned: UnsafeMutablePointer<db_sectioned_results_t>?) {
    releaseHandle(sectioned, as: SectionedBox.self)
}

/// The number of sections.
@c public func db_sectioned_results_count(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary { try require(out_count, "out_count").pointee = UInt(try sectionedBox(sectioned).count()) }
}

/// A section's key. Strings and binaries are lent until the next value-reading call on this thread.
/// @return DB_OK, DB_ERR_OUT_OF_RANGE, DB_ERR_CALLBACK (the key function failed).
@c public func db_sectioned_results_get_key(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                           _ out_key: UnsafeMutablePointer<db_value_t>?) -> db_status_e {
    boundary {
        let out = try require(out_key, "out_key")
        writeValues([try sectionedBox(sectioned).section(at: try count(section, "section")).key], to: out)
    }
}

/// The number of objects in a section.
@c public func db_sectioned_results_section_count(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                                 _ out_count: UnsafeMutablePointer<UInt>?) -> db_status_e {
    boundary {
        let out = try require(out_count, "out_count")
        out.pointee = UInt(try sectionedBox(sectioned).section(at: try count(section, "section")).objectKeys.count)
    }
}

/// The object at `item` of `section`.
/// @return A new object, or NULL with DB_ERR_OUT_OF_RANGE.
@c public func db_sectioned_results_get(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ section: UInt,
                                       _ item: UInt) -> UnsafeMutablePointer<db_object_t>? {
    boundary { wrapObject(try sectionedBox(sectioned).object(section: try count(section, "section"), item: try count(item, "item"))) }
}

/// Whether the realm of the sectioned results has been closed; true for NULL.
@c public func db_sectioned_results_is_invalidated(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> Bool {
    boundaryAnswer(true) { try unwrap(sectioned, "sectioned", as: SectionedBox.self).sectioned.isInvalidated }
}

/// The sections at the version their realm reads now, immutable, usable from any thread.
@c public func db_sectioned_results_freeze(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try sectionedBox(sectioned).freeze()) }
}

/// The live sectioned results.
@c public func db_sectioned_results_thaw(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> UnsafeMutablePointer<db_sectioned_results_t>? {
    boundary { wrapSectioned(try sectionedBox(sectioned).thaw()) }
}

/// Whether the sectioned results are frozen; false for NULL.
@c public func db_sectioned_results_is_frozen(_ sectioned: UnsafePointer<db_sectioned_results_t>?) -> Bool {
    boundaryAnswer(false) { try unwrap(sectioned, "sectioned", as: SectionedBox.self).sectioned.isFrozen }
}

/// Registers `callback` for changes to the sections: first the initial call, then, for all
/// commits since the previous call, sections inserted and deleted and objects inserted, deleted
/// and modified as (section, item) paths. To apply a change: remove `deletions` (old paths), then
/// `sections_deleted` (old indices, with their objects), insert `sections_inserted` (new indices,
/// with their objects), then `insertions` (new paths). Delivered as db_results_observe.
/// @return A token, or NULL with DB_ERR_WRONG_TRANSACTION_STATE, DB_ERR_LOGIC (frozen),
///   DB_ERR_INVALID_ARGUMENT, DB_ERR_CLOSED_REALM.
@c public func db_sectioned_results_observe(_ sectioned: UnsafePointer<db_sectioned_results_t>?, _ callback: db_sectioned_change_func_t?,
                                           _ userdata: UnsafeMutableRawPointer?, _ userdata_free: db_free_userdata_func_t?) -> UnsafeMutablePointer<db_notification_token_t>? {
    register(callback, userdata, userdata_free, call: { (function: db_sectioned_change_func_t, userdata, change: SectionedChange) in
        let changeBox = SectionedChangeBox(change)
        withExtendedLifetime(changeBox) {
            function(userdata, Unmanaged.passUnretained(changeBox).toOpaque().assumingMemoryBound(to: db_sectioned_change_t.self))
        }
    }) { body in try sectionedBox(sectioned).observe(body) }
}

/// The sizes of a sectioned change's lists, to size the arrays of db_sectioned_change_get_indices.
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
