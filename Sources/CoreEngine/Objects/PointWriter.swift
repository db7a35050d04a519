/// A point write prepared once: one single-valued property of a class, resolved when it is made,
/// so that each write of it takes the realm's lock once and looks nothing up by id, where
/// `Realm.setValue` is handed the class and property at every call: the engine side of the C
/// API's `db_property_writer_t`, through which a binding writes one number per object.
/// Confined like its realm.
package final class PointWriter {
    package let realm: Realm
    private let columnID: UInt32
    /// The class as the realm bound it when `property` was resolved (see `PointReader.classInfo`).
    private var classInfo: ClassInfo
    private var property: PropertyInfo

    /// - Throws: `.notFound` (no such property), `.wrongType` (a collection or backlinks).
    package init(realm: Realm, classInfo: ClassInfo, columnID: UInt32) throws {
        self.realm = realm
        self.columnID = columnID
        self.classInfo = classInfo
        property = try classInfo.requireProperty(columnID: columnID)
        try property.requireSingleValue(in: classInfo)
    }

    /// Writes `value` to the property of the object with `key`, as `Realm.setValue` writes it.
    /// - Throws: as `Realm.setValue`, and `.notFound` when the property left the schema.
    package func write(_ value: Value, key: Int64) throws {
        try realm.lock.withLock {
            let current = try realm.boundClass(tableID: classInfo.tableID)
            if current !== classInfo {
                property = try current.requireProperty(columnID: columnID)
                classInfo = current
            }
            try realm.setValueLocked(value, for: property, of: classInfo, key: key)
        }
    }
}
