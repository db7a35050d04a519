import CoreEngine
import Foundation

/// A realm: a file of objects (or an in-memory one) opened on this thread.
///
/// ```swift
/// Realm.Configuration.defaultConfiguration.objectTypes = [Dog.self, Person.self]
/// let realm = try Realm()
/// try realm.write {
///     realm.add(Dog(value: ["name": "Rex", "age": 3]))
/// }
/// let puppies = realm.objects(Dog.self).filter("age < 2")
/// ```
///
/// A live realm belongs to the thread that opened it; open it again on another thread (the same
/// file gives the same data). `freeze()` gives a read-only snapshot usable on any thread. Reads
/// see the version pinned at open and advance when the thread's run loop delivers notifications,
/// at `refresh()`, and after the thread's own writes.
///
/// Misuse that Realm's SDK reports with an exception (writing outside a write transaction,
/// reading a deleted object, adding a duplicate primary key) stops the program with a message
/// saying what was wrong; failures a program can expect (opening, committing, queries) throw
/// `Realm.Error`.
public struct Realm {
    let handle: RealmHandle

    init(handle: RealmHandle) { self.handle = handle }

    /// Opens `Configuration.defaultConfiguration`.
    public init() throws(RealmError) {
        try self.init(configuration: .defaultConfiguration)
    }

    /// Opens a realm, creating the file, applying schema changes and migrating as the
    /// configuration says. The thread's already open handle of the same file is reused.
    /// - Throws: `.fileAccess`, `.fileFormat`, `.schemaInvalid`, `.migrationRequired` (raise
    ///   `schemaVersion`), `.readOnly`.
    public init(configuration: Configuration) throws(RealmError) {
        handle = try RealmHandle.open(configuration)
    }

    /// Opens the file at `fileURL` with the default configuration's other settings.
    public init(fileURL: URL) throws(RealmError) {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    var engineRealm: CoreEngine.Realm { handle.engine }

    /// The configuration the realm was opened with.
    public var configuration: Configuration { handle.configuration }

    /// Whether a write transaction is open on this realm.
    public var isInWriteTransaction: Bool { engineRealm.isInWriteTransaction }

    /// Whether this is a frozen realm (one version, any thread, read only).
    public var isFrozen: Bool { engineRealm.isFrozen }

    /// Whether the realm holds no objects.
    public var isEmpty: Bool {
        engineOrTrap { try engineRealm.classes.allSatisfy { try engineRealm.objectCount($0) == 0 } }
    }

    // MARK: Writing

    /// Runs `block` in a write transaction and commits it; if `block` throws, cancels the
    /// transaction and rethrows. Notifications of the commit are delivered on return, but not
    /// to the tokens in `withoutNotifying`.
    /// - Throws: `.wrongTransactionState` if already in a write; errors of `block`; commit errors.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        try beginWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Begins a write transaction, waiting for other writers of the file (threads and processes).
    /// Reads move to the latest version.
    public func beginWrite() throws(RealmError) {
        try translatingErrors { try engineRealm.beginWrite() }
    }

    /// Commits the write transaction: its changes are durable when this returns.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws(RealmError) {
        for token in tokens { token.skipNextChange() }
        _ = try translatingErrors { try engineRealm.commitWrite() }
    }

    /// Drops the write transaction's changes (objects created in it become invalid).
    public func cancelWrite() {
        engineOrTrap { try engineRealm.cancelWrite() }
    }

    /// Stores an unmanaged object and the unmanaged objects it links to (inside a write).
    /// An object that already belongs to this realm is left as it is.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        engineOrTrap { _ = try handle.manage(object, update: update) }
    }

    /// Stores each object of a sequence.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for object in objects { add(object, update: update) }
    }

    /// Creates an object from a dictionary or array of values (or updates the stored object
    /// with its primary key, as `update` allows) and returns the managed object.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        let object = T()
        engineOrTrap { try ObjectValues.assign(value, to: object) }
        add(object, update: update)
        return object
    }

    /// Deletes a managed object (inside a write). Its `isInvalidated` becomes true.
    public func delete(_ object: Object) {
        engineOrTrap {
            guard let managed = object.managed else { throw RealmError(.logic, "an unmanaged object cannot be deleted: it is not in a realm") }
            try managed.delete()
        }
    }

    /// Deletes every object of a sequence.
    public func delete<S: Sequence>(_ objects: S) where S.Element: Object {
        for object in Array(objects) { delete(object) }
    }

    /// Deletes every object of a Results, in one pass.
    public func delete<Element: Object>(_ results: Results<Element>) {
        _ = engineOrTrap { try results.engineResults.deleteAll() }
    }

    /// Deletes every object of the realm (inside a write).
    public func deleteAll() {
        engineOrTrap {
            for classInfo in engineRealm.classes where !classInfo.isEmbedded {
                _ = try engineRealm.objects(classInfo).deleteAll()
            }
        }
    }

    // MARK: Reading

    /// Every object of a class, as live `Results`.
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        engineOrTrap {
            let classInfo = try handle.classInfo(of: type)
            if classInfo.isEmbedded {
                throw RealmError(.logic, "\(type.className()) is embedded: reach its objects through their parents")
            }
            return Results(engineRealm.objects(classInfo), handle: handle)
        }
    }

    /// The object of a class with a primary key, or nil.
    public func object<Element: Object, Key>(ofType type: Element.Type, forPrimaryKey key: Key) -> Element? {
        engineOrTrap {
            let binding = try handle.binding(of: type)
            let classInfo = binding.classInfo
            guard let primaryKey = classInfo.primaryKey else {
                throw RealmError(.logic, "\(type.className()) has no primary key")
            }
            let value: Value
            if let plain = Self.plainPrimaryKey(key, of: binding.primaryKeyType) {
                value = plain
            } else {
                guard let property = ObjectSchemaDiscovery.metadata(of: type).property(named: primaryKey.name) else {
                    throw RealmError(.schemaInvalid, "\(type.className()) has no property \(primaryKey.name)")
                }
                value = try ObjectValues.stored(try property.valueType._rlmConvert(key), as: property.valueType, in: handle)
            }
            return try engineRealm.object(classInfo, primaryKey: value).map { Element.materialize($0, in: handle, binding: binding) }
        }
    }

    /// A key of the primary key's own type (`type`), `Int` or `String`, as the engine stores it;
    /// nil for any other (then converted as `init(value:)` converts values, with its checks and
    /// errors).
    private static func plainPrimaryKey<Key>(_ key: Key, of type: (any _Persistable.Type)?) -> Value? {
        guard let type, ObjectIdentifier(type) == ObjectIdentifier(Key.self) else { return nil }
        if Key.self == Int.self { return .int(Int64(unsafeBitCast(key, to: Int.self))) }
        if Key.self == String.self { return .string(unsafeBitCast(key, to: String.self)) }
        return nil
    }

    /// Advances the realm to the latest version and delivers its notifications.
    /// - Returns: whether there was a newer version.
    @discardableResult
    public func refresh() -> Bool {
        engineOrTrap { try engineRealm.refresh() }
    }

    /// A frozen realm reading this realm's current version, usable on any thread.
    public func freeze() -> Realm {
        engineOrTrap { Realm(handle: try handle.frozen()) }
    }

    /// The live realm a frozen one was frozen from.
    public func thaw() -> Realm {
        engineOrTrap { Realm(handle: try handle.live()) }
    }

    /// Releases the version this realm reads (the next read takes the latest), so the file can
    /// reuse the space older versions hold.
    public func invalidate() {
        engineOrTrap { try engineRealm.invalidate() }
    }

    /// Writes a compacted copy of the realm to a new file.
    public func writeCopy(toFile fileURL: URL) throws(RealmError) {
        try translatingErrors { try engineRealm.writeCopy(toFile: fileURL.path) }
    }
}
