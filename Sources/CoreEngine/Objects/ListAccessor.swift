/// A list property of one object: ordered, duplicates allowed.
/// Positions are checked: an index out of range throws `.outOfRange`, never traps.
package final class ListAccessor: CollectionAccessor {
    package init(object: ObjectAccessor, property: PropertyInfo) throws {
        try super.init(object: object, property: property, kind: .list)
    }

    package func elements() throws -> [Value] { try contents() }

    package func get(_ index: Int) throws -> Value {
        let contents = try self.contents()
        try Self.check(index, within: contents.count)
        return contents[index]
    }

    /// The position of the first element equal to `value` (database equality), or nil.
    package func index(of value: Value) throws -> Int? {
        try contents().firstIndex(of: value)
    }

    /// Inserts at `index` (0 ... count).
    package func insert(_ value: Value, at index: Int) throws {
        let checked = try validate(value)
        try modify { contents in
            try Self.check(index, within: contents.count + 1)
            contents.insert(checked, at: index)
        }
    }

    package func append(_ value: Value) throws {
        try append(contentsOf: [value])
    }

    /// Appends several values; all are checked before any is added.
    package func append(contentsOf values: [Value]) throws {
        let checked = try values.map(validate)
        try modify { $0.append(contentsOf: checked) }
    }

    /// Replaces the element at `index` (an embedded object replaced this way is deleted).
    package func set(_ value: Value, at index: Int) throws {
        let checked = try validate(value)
        try modify { contents in
            try Self.check(index, within: contents.count)
            contents[index] = checked
        }
    }

    /// Replaces every element (assigning a whole list).
    package func replaceAll(with values: [Value]) throws {
        let checked = try values.map(validate)
        try modify { $0 = checked }
    }

    /// Removes and returns the element at `index`.
    @discardableResult
    package func remove(at index: Int) throws -> Value {
        try modify { contents in
            try Self.check(index, within: contents.count)
            return contents.remove(at: index)
        }
    }

    /// Moves the element at `from` so that it ends at `to` (both 0 ..< count).
    package func move(from: Int, to: Int) throws {
        try modify { contents in
            try Self.check(from, within: contents.count)
            try Self.check(to, within: contents.count)
            contents.insert(contents.remove(at: from), at: to)
        }
    }

    package func swapAt(_ i: Int, _ j: Int) throws {
        try modify { contents in
            try Self.check(i, within: contents.count)
            try Self.check(j, within: contents.count)
            contents.swapAt(i, j)
        }
    }

    package func removeAll() throws {
        try modify { $0.removeAll() }
    }

    /// Creates an embedded object and inserts the link to it at `index`.
    package func insertEmbedded(at index: Int, values: [(PropertyInfo, Value)] = []) throws -> ObjectAccessor {
        try realm.lock.withLock {
            try Self.check(index, within: try count() + 1)
            let child = try createEmbedded(values: values)
            try modify { $0.insert(.link(ObjectLink(table: child.classInfo.tableID, key: child.key)), at: index) }
            return child
        }
    }

    static func check(_ index: Int, within count: Int) throws {
        guard index >= 0, index < count else {
            throw DBError(.outOfRange, "index \(index) is out of range (\(count == 0 ? "empty" : "0 ..< \(count)"))")
        }
    }
}
