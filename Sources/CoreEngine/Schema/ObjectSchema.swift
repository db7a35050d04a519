/// The declared shape of one class: its name and properties.
package struct ObjectSchema: Hashable, Sendable {
    package var name: String
    package var properties: [Property]
    /// Compound indexes: each lists two or more indexable properties (public names) in key order.
    /// One serves equality on a leading run of its properties plus a range on the next, and sorts
    /// by exactly its properties (see `IndexPlanner` and `IndexedSort`).
    package var compoundIndexes: [[String]]
    /// Objects of an embedded class are owned by exactly one parent (through a link, list or
    /// dictionary property), are created by assigning them there and are deleted with it.
    package var isEmbedded: Bool

    package init(name: String, properties: [Property], compoundIndexes: [[String]] = [], isEmbedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.compoundIndexes = compoundIndexes
        self.isEmbedded = isEmbedded
    }

    package var primaryKey: Property? { properties.first(where: \.isPrimaryKey) }

    package func property(named name: String) -> Property? { properties.first { $0.name == name } }
}
