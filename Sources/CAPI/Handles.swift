import CDBTypes
import CoreEngine

// Opaque handles are retained Swift objects behind typed C pointers. `wrap` hands one out (+1),
// `unwrap` borrows it, `release` drops the reference taken by `wrap`.

/// Behind `db_realm_t`. A borrowed realm (the one a migration hands out) must not be closed by C.
final class RealmBox {
    let realm: Realm
    let isBorrowed: Bool
    /// Whether releasing the handle closes the realm: false for the extra handles
    /// db_realm_thaw gives to a live realm that another handle owns.
    let ownsRealm: Bool

    init(_ realm: Realm, borrowed: Bool = false, owning: Bool = true) {
        self.realm = realm
        isBorrowed = borrowed
        ownsRealm = owning && !borrowed
    }
}

/// Behind `db_object_t`.
final class ObjectBox {
    let object: ObjectAccessor
    init(_ object: ObjectAccessor) { self.object = object }
}

func wrap<Box: AnyObject, Handle>(_ box: Box, as _: Handle.Type) -> UnsafeMutablePointer<Handle> {
    Unmanaged.passRetained(box).toOpaque().assumingMemoryBound(to: Handle.self)
}

func unwrap<Box: AnyObject, Handle>(_ pointer: UnsafePointer<Handle>?, _ name: String, as _: Box.Type) throws -> Box {
    guard let pointer else { throw invalidArgument("'\(name)' must not be NULL") }
    return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

func unwrap<Box: AnyObject, Handle>(_ pointer: UnsafeMutablePointer<Handle>?, _ name: String, as box: Box.Type) throws -> Box {
    try unwrap(UnsafePointer(pointer), name, as: box)
}

func releaseHandle<Box: AnyObject, Handle>(_ pointer: UnsafeMutablePointer<Handle>?, as _: Box.Type) {
    guard let pointer else { return }
    Unmanaged<Box>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

func realmBox(_ pointer: UnsafePointer<db_realm_t>?) throws -> RealmBox { try unwrap(pointer, "realm", as: RealmBox.self) }
func realmBox(_ pointer: UnsafeMutablePointer<db_realm_t>?) throws -> RealmBox { try unwrap(pointer, "realm", as: RealmBox.self) }
func objectBox(_ pointer: UnsafePointer<db_object_t>?, _ name: String = "object") throws -> ObjectBox { try unwrap(pointer, name, as: ObjectBox.self) }
func objectBox(_ pointer: UnsafeMutablePointer<db_object_t>?, _ name: String = "object") throws -> ObjectBox { try unwrap(pointer, name, as: ObjectBox.self) }

func wrapObject(_ object: ObjectAccessor) -> UnsafeMutablePointer<db_object_t> { wrap(ObjectBox(object), as: db_object_t.self) }

extension Realm {
    func classInfo(key: db_class_key_t) throws -> ClassInfo { try classInfo(tableID: key) }
}

extension ClassInfo {
    func property(key: db_property_key_t) throws -> PropertyInfo {
        guard key >= 0, key <= db_property_key_t(UInt32.max), let property = property(columnID: UInt32(key)) else {
            throw DBError(.notFound, "class '\(name)' has no property with key \(key)")
        }
        return property
    }
}
