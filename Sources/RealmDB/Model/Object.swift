import CoreEngine
import Foundation

/// The base class of stored models. Declare properties with `@Persisted`:
///
/// ```swift
/// class Dog: Object {
///     @Persisted(primaryKey: true) var id: Int
///     @Persisted var name: String
///     @Persisted var owner: Person?
///     @Persisted var toys: List<Toy>
/// }
/// ```
///
/// A new object is unmanaged: its properties are plain values until `Realm.add(_:)` stores it;
/// from then on (and for every object a realm returns) reads and writes go to the realm, and
/// writes need a write transaction. A managed object belongs to the thread of its realm, unless
/// it is frozen (`freeze()`), which makes it readable from any thread.
///
/// Subclasses need a `required init()` only when they declare other initializers.
open class Object: CustomStringConvertible {
    /// The stored object this one reads and writes, once managed. An object a live `Results`
    /// hands out gets its accessor at the first use that needs one: reading its properties
    /// ahead (`ReadAhead`) does not, and allocating one per object was a large part of mapping
    /// the results of a query (`results.map(\.id)`, bench/swift phases d, e, g).
    var managed: ObjectAccessor? {
        if let accessor { return accessor }
        guard let deferredKey, let handle else { return nil }
        let made = handle.engine.unverifiedObject(deferredKey.classInfo, key: deferredKey.key)
        accessor = made
        return made
    }
    private var accessor: ObjectAccessor?
    /// The class and key of a managed object whose accessor is not made yet (never for a frozen
    /// one: making it is a write, and a frozen object may be read on several threads at once).
    private var deferredKey: (classInfo: ClassInfo, key: Int64)?
    /// The handle the managed object is read through (kept open while the object lives).
    var handle: RealmHandle?
    /// The class's properties in the handle's schema, by field.
    var binding: ClassBinding?
    /// Values read ahead for this object (see `ReadAhead`).
    var readAhead: ReadAhead?
    /// Set on a probe object that turns a Swift key path into property names (`KeyPathRecorder`).
    var keyPathRecorder: _KeyPathRecorder? {
        didSet { _rlmIsRecording = keyPathRecorder != nil }
    }
    /// Whether `managed` is set: read by `Persisted`'s inlined accessor.
    @usableFromInline final var _rlmIsManaged = false
    /// Whether `keyPathRecorder` is set: read by `Persisted`'s inlined accessor.
    @usableFromInline final var _rlmIsRecording = false

    /// A new unmanaged object, its properties at their initial values.
    public required init() {}

    /// A new unmanaged object with the values of a dictionary (property name to value) or an
    /// array (values in the order of the properties). Nested dictionaries and arrays make linked
    /// objects and list elements.
    public convenience init(value: Any) {
        self.init()
        engineOrTrap { try ObjectValues.assign(value, to: self) }
    }

    /// The realm managing this object, nil when unmanaged.
    public var realm: Realm? { handle.map(Realm.init(handle:)) }

    /// Whether the object was deleted or its realm closed (always false when unmanaged).
    public var isInvalidated: Bool {
        guard let managed else { return false }
        return !((try? managed.isValid()) ?? false)
    }

    /// Whether this is a frozen object: one version, readable from any thread, never changing.
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// The name of the primary-key property, or nil. Overriding it is the legacy form of
    /// `@Persisted(primaryKey: true)`.
    open class func primaryKey() -> String? { nil }

    /// Names of properties to index: the legacy form of `@Persisted(indexed: true)`.
    open class func indexedProperties() -> [String] { [] }

    /// Names of `@Persisted` properties not to store.
    open class func ignoredProperties() -> [String] { [] }

    /// Property name to the name stored in the file (for files shared with other SDKs).
    open class func propertiesMapping() -> [String: String] { [:] }

    /// Indexes over several properties, each a list of names (`[["age", "name"]]`): equality on
    /// the first ones and order on the next serve queries and sorts (a realmdb addition).
    open class func compoundIndexes() -> [[String]] { [] }

    /// The class name in the schema: the Swift class name without its module.
    open class func className() -> String { String(describing: self) }

    /// Reads or writes a property by name, as `value(forKey:)` and `setValue(_:forKey:)` do.
    public subscript(key: String) -> Any? {
        get { engineOrTrap { try ObjectValues.value(of: self, named: key) } }
        set { engineOrTrap { try ObjectValues.setValue(newValue, of: self, named: key) } }
    }

    /// The value of a property by name.
    public func value(forKey key: String) -> Any? { self[key] }

    /// Writes a property by name (inside a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) { self[key] = value }

    /// Whether both are the same stored object (or the same instance when unmanaged).
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if self === object { return true }
        guard let mine = managed, let theirs = object.managed else { return false }
        return mine.classInfo.tableID == theirs.classInfo.tableID && mine.key == theirs.key
            && mine.realm.filePath == theirs.realm.filePath
    }

    /// A frozen copy of this managed object: the version it reads now, usable on any thread.
    /// Freezing an unmanaged object, or inside a write, stops the program with a message, as
    /// Realm's SDK raises an exception.
    public func freeze() -> Self {
        engineOrTrap { try frozenCopy() }
    }

    /// The live version of a frozen object, on the thread of the realm it was frozen from; nil
    /// when it has been deleted since (or that realm was closed).
    public func thaw() -> Self? {
        guard let managed, let handle, managed.realm.isFrozen else { return self }
        guard let live = try? handle.live(), let thawed = try? managed.thaw() else { return nil }
        return Self.materialize(thawed, in: live)
    }

    /// `freeze()` that throws instead of stopping: `.logic` when unmanaged, `.wrongTransactionState`
    /// inside a write, `.invalidated` for a deleted object.
    public func frozenCopy() throws(RealmError) -> Self {
        guard let managed, let handle else { throw RealmError(.logic, "an unmanaged object cannot be frozen: add it to a realm first") }
        if managed.realm.isFrozen { return self }
        let frozenRealm = try handle.frozen()
        let frozen = try translatingErrors { try managed.freeze() }
        return Self.materialize(frozen, in: frozenRealm)
    }

    /// A managed object of this class for a stored one.
    static func materialize(_ accessor: ObjectAccessor, in handle: RealmHandle, binding: ClassBinding? = nil,
                            readAhead: ReadAhead? = nil) -> Self {
        let object = Self()
        object.attach(accessor, handle: handle, binding: binding)
        object.readAhead = readAhead
        return object
    }

    /// A managed object of this class for the stored one with `key`, read through a live handle:
    /// its accessor is made at its first use (see `managed`).
    static func materialize(_ classInfo: ClassInfo, key: Int64, in handle: RealmHandle, binding: ClassBinding,
                            readAhead: ReadAhead) -> Self {
        if handle.engine.isFrozen {
            return materialize(handle.engine.unverifiedObject(classInfo, key: key), in: handle, binding: binding, readAhead: readAhead)
        }
        let object = Self()
        object.deferredKey = (classInfo, key)
        object.attach(handle: handle, binding: binding)
        object.readAhead = readAhead
        return object
    }

    /// Makes this object the accessor of a stored one.
    func attach(_ accessor: ObjectAccessor, handle: RealmHandle, binding: ClassBinding? = nil) {
        self.accessor = accessor
        attach(handle: handle, binding: binding ?? handle.binding(of: type(of: self), classInfo: accessor.classInfo))
    }

    private func attach(handle: RealmHandle, binding: ClassBinding) {
        self.handle = handle
        self.binding = binding
        _rlmIsManaged = true
        for (index, field) in binding.encodedFields { field.setEncodingSource(of: self, fieldIndex: index) }
    }

    /// The managed property of a field, or nil when the object is unmanaged or the field is
    /// ignored. For a read of an object read on its own, its single values are read together
    /// first (see `ReadAhead`).
    @usableFromInline
    final func _rlmManagedProperty(fieldIndex: Int, reading: Bool) -> _ManagedProperty? {
        guard let managed, let binding, let handle, let bound = binding.properties[fieldIndex] else { return nil }
        // Not for a frozen object: several threads may read it at once, and none may write it.
        if reading, readAhead == nil, binding.singleValued.count > 1, bound.info.collection == .none, !managed.realm.isFrozen {
            readAhead = engineOrTrap { .row(try ObjectRow(accessor: managed, properties: binding.singleValued)) }
        }
        return _ManagedProperty(object: managed, bound: bound, realm: handle, readAhead: reading ? readAhead : nil)
    }

    /// Writes a plain value (see `OwnPlainWrites.isPlain`) of an object handed out by live results
    /// that has no accessor yet, by its class and key, as `db_object_set_value_by_key` does: a
    /// loop writing the objects it iterates (`for dog in dogs { dog.age += 1 }`) then makes no
    /// accessor per object (making and releasing one, and the `_ManagedProperty` of the write,
    /// cost a fifth of such a write). Returns false, writing nothing, for any other write.
    @usableFromInline
    final func _rlmWriteByKey<V: _Persistable>(_ value: V, fieldIndex: Int) -> Bool {
        guard accessor == nil, let deferredKey, let binding, let handle, let bound = binding.properties[fieldIndex],
              OwnPlainWrites.isPlain(bound.info) else { return false }
        engineOrTrap {
            try handle.recordingWrite(of: deferredKey.classInfo.tableID, key: deferredKey.key, isPlain: true) {
                try handle.engine.setValue(try value._rlmValue(in: handle).raw, for: bound.info, of: deferredKey.classInfo,
                                           key: deferredKey.key)
            }
        }
        return true
    }

    /// The value of a single-valued property as it was read ahead (with this object's page of
    /// results, or with the rest of its row), and the handle to convert it in; nil when there is
    /// none, or it is stale, and `_rlmManagedProperty` reads it. What `_rlmGet` reads for such a
    /// property, without building a `_ManagedProperty` (which retains four references).
    @usableFromInline
    final func _rlmReadAhead(fieldIndex: Int) -> (_StoredValue, RealmHandle)? {
        guard let readAhead, let binding, let handle, let bound = binding.properties[fieldIndex],
              let value = try? readAhead.value(of: bound) else { return nil }
        return (_StoredValue(value), handle)
    }

    /// While a key path is recorded: notes the field's name and returns the recorder.
    @usableFromInline
    final func _rlmRecord(fieldIndex: Int) -> _KeyPathRecorder? {
        guard let keyPathRecorder else { return nil }
        keyPathRecorder.names.append(ObjectSchemaDiscovery.metadata(of: type(of: self)).fields[fieldIndex].name)
        return keyPathRecorder
    }

    open var description: String {
        if self is DynamicObject, let managed {
            return managed.description
        }
        let schema = ObjectSchemaDiscovery.metadata(of: type(of: self))
        let fields = schema.properties.map { property -> String in
            let value = (try? ObjectValues.value(of: self, named: property.name)) ?? nil
            return "\t\(property.name) = \(value.map { "\($0)" } ?? "nil");"
        }
        return "\(schema.className) {\n\(fields.joined(separator: "\n"))\n}"
    }
}

/// A link to an object of another class is a property of an optional `Object` subclass.
extension Object: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.object, isOptional: true, objectType: self) }

    public static var _rlmDefault: Self {
        fatalError("RealmDB: a link to \(className()) must be optional: declare it as \(className())?")
    }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        guard let realm else { throw RealmError(.logic, "a linked object can only be stored through a realm") }
        let accessor = try realm.manage(self, update: .error)
        return _StoredValue(.link(ObjectLink(table: accessor.classInfo.tableID, key: accessor.key)))
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Self {
        guard case .link(let link) = value.raw else { throw typeMismatch(value, className()) }
        let accessor = try translatingErrors { () -> ObjectAccessor in
            try realm.engine.object(try realm.engine.classInfo(tableID: link.table), key: link.key)
        }
        return materialize(accessor, in: realm)
    }
}

extension Object {
    /// A linked object given as an object, or as a dictionary or array of its values.
    public static func _rlmConvert(_ value: Any?) throws -> Self {
        if let object = value as? Self { return object }
        if let value, value is [String: Any] || value is [Any] {
            let object = Self()
            try ObjectValues.assign(value, to: object)
            return object
        }
        throw RealmError(.wrongType, "\(value.map { "\(type(of: $0))" } ?? "nil") is not a \(className())")
    }
}
