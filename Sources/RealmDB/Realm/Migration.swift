import CoreEngine
import Foundation

/// What a `MigrationBlock` gets: the objects of the old and new schema, to copy and convert values.
///
/// ```swift
/// configuration.migrationBlock = { migration, oldVersion in
///     if oldVersion < 2 {
///         migration.enumerateObjects(ofType: "Person") { old, new in
///             new?["fullName"] = "\(old?["first"] ?? "") \(old?["last"] ?? "")"
///         }
///     }
/// }
/// ```
public final class Migration {
    private let migration: CoreEngine.Migration

    init(_ migration: CoreEngine.Migration, types: [String: Object.Type]) {
        self.migration = migration
    }

    /// Calls `block` with each object of a class: as it was (read-only) and as it is now (nil when
    /// the class is gone from the new schema).
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void) {
        engineOrTrap {
            try migration.enumerateObjects(ofType: typeName) { old, new in
                block(MigrationObject(old), new.map(MigrationObject.init))
            }
        }
    }

    /// Renames a property, keeping its values (call it before reading the property's new name).
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        engineOrTrap { try migration.renameProperty(onType: typeName, from: oldName, to: newName) }
    }

    /// Deletes the objects of a class that is no longer in the schema.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        engineOrTrap { try migration.deleteData(forType: typeName) }
        return true
    }
}

/// An object seen through its schema only (a migration's old or new object): properties by name,
/// with values as `Int`, `Double`, `Float`, `Bool`, `String`, `Data`, `Date`, `UUID`, `ObjectId`,
/// `Decimal128`, another `MigrationObject` for a link, `[Any?]` for a list, or nil.
public final class MigrationObject {
    let accessor: ObjectAccessor

    init(_ accessor: ObjectAccessor) { self.accessor = accessor }

    /// The value of a property by name; setting it writes the value. An unknown property name stops the program with a message.
    public subscript(key: String) -> Any? {
        get {
            engineOrTrap {
                let info = try accessor.classInfo.requireProperty(named: key)
                if info.collection == .list {
                    return try accessor.list(of: info).elements().map { self.dynamicValue($0) } as [Any?]
                }
                return dynamicValue(try accessor.value(of: info))
            }
        }
        set {
            engineOrTrap {
                let info = try accessor.classInfo.requireProperty(named: key)
                try accessor.setValue(try storedValue(newValue), for: info)
            }
        }
    }

    private func dynamicValue(_ value: Value) -> Any? {
        if case .link(let link) = value {
            return (try? accessor.realm.object(try accessor.realm.classInfo(tableID: link.table), key: link.key)).map(MigrationObject.init)
        }
        return value.swiftValue
    }

    private func storedValue(_ value: Any?) throws -> Value {
        if let object = value as? MigrationObject {
            return .link(ObjectLink(table: object.accessor.classInfo.tableID, key: object.accessor.key))
        }
        return try Value(swiftValue: value)
    }
}

extension Value {
    /// The natural Swift value of a stored value (links excepted).
    var swiftValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let flag): return flag
        case .int(let number): return Int(number)
        case .float(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .data(let bytes): return Data(bytes)
        case .timestamp(let stamp): return Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanoseconds) / 1e9)
        case .objectID(let id): return ObjectId(raw: id)
        case .uuid(let id): return UUID(storedBytes: id.bytes)
        case .decimal128(let number): return Decimal128(raw: number)
        case .link(let link): return link
        }
    }

    /// A stored value from a Swift value of one of the persisted types.
    init(swiftValue value: Any?) throws {
        guard let value, !isNil(value) else { self = .null; return }
        switch value {
        case let flag as Bool: self = .bool(flag)
        case let number as any BinaryInteger:
            guard let exact = Int64(exactly: number) else { throw RealmError(.outOfRange, "\(number) does not fit in 64 bits") }
            self = .int(exact)
        case let number as Float: self = .float(number)
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case let data as Data: self = .data([UInt8](data))
        case let date as Date: self = .timestamp(Timestamp(date))
        case let id as ObjectId: self = .objectID(id.raw)
        case let uuid as UUID: self = uuid._rlmValue(in: nil).raw
        case let number as Decimal128: self = .decimal128(number.raw)
        default: throw RealmError(.wrongType, "\(type(of: value)) is not a type a realm stores")
        }
    }
}

/// Whether a value is nil, also when it is an optional inside `Any`.
func isNil(_ value: Any) -> Bool {
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .optional && mirror.children.isEmpty
}
