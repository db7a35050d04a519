/// A property of the objects of a Results, possibly reached through to-one links
/// (`owner.name`): what sorts and DISTINCT read.
package struct PropertyPath: Sendable {
    /// The to-one link properties followed, in order (empty for the object's own property).
    package let links: [PropertyInfo]
    /// The property read on the object the links lead to: one scalar value.
    package let property: PropertyInfo

    package init(links: [PropertyInfo] = [], property: PropertyInfo) {
        self.links = links
        self.property = property
    }

    /// `owner.name`, for messages.
    package var name: String { (links.map(\.name) + [property.name]).joined(separator: ".") }

    /// The value for the object `key` of `table`: null when a link on the way is null.
    func value(table: UInt32, key: Int64, _ transaction: StorageTransaction) throws -> Value {
        var table = table, key = key
        for link in links {
            guard case let .link(target) = try transaction.value(table: table, column: link.column, key: key) else { return .null }
            table = target.table
            key = target.key
        }
        return try transaction.value(table: table, column: property.column, key: key)
    }
}
