/// A set property of one object: no duplicates (by database equality), elements kept in sorted
/// order (`CollectionOrdering`), which is also the order of iteration.
package final class SetAccessor: CollectionAccessor {
    package init(object: ObjectAccessor, property: PropertyInfo) throws {
        try super.init(object: object, property: property, kind: .set)
    }

    package func elements() throws -> [Value] { try contents() }

    package func contains(_ value: Value) throws -> Bool {
        CollectionOrdering.search(value, in: try contents()).found
    }

    /// Adds a value; returns false when it was already there.
    @discardableResult
    package func insert(_ value: Value) throws -> Bool {
        let checked = try validate(value)
        return try modify { Self.insert(checked, into: &$0) }
    }

    /// Removes a value; returns false when it was not there.
    @discardableResult
    package func remove(_ value: Value) throws -> Bool {
        try modify { contents in
            let (index, found) = CollectionOrdering.search(value, in: contents)
            if found { contents.remove(at: index) }
            return found
        }
    }

    package func removeAll() throws {
        try modify { $0.removeAll() }
    }

    /// Adds every value (set union); all are checked first.
    package func formUnion(_ values: [Value]) throws {
        let checked = try values.map(validate)
        try modify { contents in for value in checked { _ = Self.insert(value, into: &contents) } }
    }

    /// Keeps only the elements that are also in `values`.
    package func formIntersection(_ values: [Value]) throws {
        let other = values.sorted { CollectionOrdering.compare($0, $1) < 0 }
        try modify { contents in contents.removeAll { !CollectionOrdering.search($0, in: other).found } }
    }

    /// Removes every element that is in `values`.
    package func subtract(_ values: [Value]) throws {
        let other = values.sorted { CollectionOrdering.compare($0, $1) < 0 }
        try modify { contents in contents.removeAll { CollectionOrdering.search($0, in: other).found } }
    }

    /// Replaces every element (assigning a whole set; duplicates collapse).
    package func replaceAll(with values: [Value]) throws {
        let checked = try values.map(validate)
        try modify { contents in
            contents.removeAll()
            for value in checked { _ = Self.insert(value, into: &contents) }
        }
    }

    private static func insert(_ value: Value, into contents: inout [Value]) -> Bool {
        let (index, found) = CollectionOrdering.search(value, in: contents)
        if !found { contents.insert(value, at: index) }
        return !found
    }
}
