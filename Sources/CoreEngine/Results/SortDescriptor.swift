/// Sorting by a property (or a property through to-one links), ascending or descending.
package struct SortDescriptor: Sendable {
    package let path: PropertyPath
    package let ascending: Bool

    /// The property read (through `path.links`).
    package var property: PropertyInfo { path.property }

    package init(_ property: PropertyInfo, ascending: Bool = true) {
        self.init(path: PropertyPath(property: property), ascending: ascending)
    }

    package init(path: PropertyPath, ascending: Bool = true) {
        self.path = path
        self.ascending = ascending
    }
}
