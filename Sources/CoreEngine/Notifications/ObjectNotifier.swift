/// What happened to an observed object.
package enum ObjectChange: Equatable, Sendable {
    /// The object was deleted; no notification follows.
    case deleted
    /// Observed properties were written (writing a property its own value counts, as in Realm).
    case changed([PropertyChange])
}

/// One changed property of an object: its value at the previous notification and now. Collections
/// (lists, sets, dictionaries, linking objects) have no values here: both are nil.
package struct PropertyChange: Equatable, Sendable {
    package var name: String
    package var oldValue: Value?
    package var newValue: Value?

    package init(name: String, oldValue: Value?, newValue: Value?) {
        self.name = name
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

/// The callback registered on one object and the property values it last reported.
final class ObjectNotifier {
    weak var token: NotificationToken?
    let classInfo: ClassInfo
    let key: Int64
    let paths: ObservedKeyPaths
    let callback: (ObjectChange) -> Void
    /// The object's observed properties (all, or those the key paths start with).
    private let properties: [PropertyInfo]
    private var values: [UInt32: Value] = [:]
    private var version: UInt64
    private var finished = false

    init(token: NotificationToken, object: ObjectAccessor, paths: ObservedKeyPaths, transaction: StorageTransaction,
         callback: @escaping (ObjectChange) -> Void) throws {
        self.token = token
        classInfo = object.classInfo
        key = object.key
        self.paths = paths
        self.callback = callback
        properties = object.classInfo.properties.filter { paths.rootColumns?.contains($0.columnID) ?? true }
        version = transaction.version
        values = try snapshot(transaction)
    }

    var isUnused: Bool { finished || token == nil || token!.isInvalidated }

    private func snapshot(_ transaction: StorageTransaction) throws -> [UInt32: Value] {
        var values: [UInt32: Value] = [:]
        for property in properties where property.column.holdsSingleValue {
            values[property.columnID] = try transaction.value(table: classInfo.tableID, column: property.column, key: key)
        }
        return values
    }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        guard !isUnused, transaction.version != version, let token else { return [] }
        let changes = try CoalescedChanges(transaction, from: version, to: transaction.version)
        version = transaction.version
        let table = classInfo.tableID
        let callback = self.callback
        if !(try transaction.objectExists(table: table, key: key)) {
            finished = true
            return [{ token.deliver { callback(.deleted) } }]
        }
        var changedColumns = Set<UInt32>()
        if changes.isComplete, let own = changes.tables[table] {
            for property in properties where own.modifications[property.columnID]?.contains(key) == true {
                changedColumns.insert(property.columnID)
            }
        }
        // Linked objects count only where key paths name them: report the link property.
        for path in paths.linkPaths where try paths.keysReaching(path, changes, transaction).contains(key) {
            changedColumns.insert(path.hops[0].column.id)
        }
        let now = try snapshot(transaction)
        if !changes.isComplete {
            // The commits' records are gone (older than those kept): values are compared; what
            // has no single value (collections, and the objects behind observed links) may have
            // changed, and is reported rather than missed.
            for property in properties where !property.column.holdsSingleValue || values[property.columnID] != now[property.columnID] {
                changedColumns.insert(property.columnID)
            }
            for path in paths.linkPaths { changedColumns.insert(path.hops[0].column.id) }
        }
        let old = values
        values = now
        guard !changedColumns.isEmpty else { return [] }
        let changed = properties.filter { changedColumns.contains($0.columnID) }.map {
            PropertyChange(name: $0.name, oldValue: old[$0.columnID], newValue: now[$0.columnID])
        }
        return [{ token.deliver { callback(.changed(changed)) } }]
    }
}
