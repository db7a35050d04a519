/// A dictionary property of one object: string keys to values, keys in byte (code point) order.
/// Keys may not be empty, contain '.' or start with '$' (they would be ambiguous in key paths).
package final class DictionaryAccessor: CollectionAccessor {
    package init(object: ObjectAccessor, property: PropertyInfo) throws {
        try super.init(object: object, property: property, kind: .dictionary)
    }

    /// The entries in key order.
    package func entries() throws -> [(key: String, value: Value)] {
        let contents = try self.contents()
        return stride(from: 0, to: contents.count - 1, by: 2).map { (Self.key(contents[$0]), contents[$0 + 1]) }
    }

    package func keys() throws -> [String] { try entries().map(\.key) }
    package func values() throws -> [Value] { try entries().map(\.value) }

    /// The value for `key`, or nil when the key is absent (a present key may hold null).
    package func value(forKey key: String) throws -> Value? {
        let contents = try self.contents()
        let (index, found) = Self.search(key, in: contents)
        return found ? contents[index * 2 + 1] : nil
    }

    package func contains(key: String) throws -> Bool { try value(forKey: key) != nil }

    /// Sets the value for `key`, adding the key if needed.
    package func set(_ value: Value, forKey key: String) throws {
        try Self.checkKey(key)
        let checked = try validate(value)
        try modify { Self.set(checked, forKey: key, in: &$0) }
    }

    /// Removes a key; returns false when it was not there.
    @discardableResult
    package func remove(key: String) throws -> Bool {
        try modify { contents in
            let (index, found) = Self.search(key, in: contents)
            if found { contents.removeSubrange((index * 2)..<(index * 2 + 2)) }
            return found
        }
    }

    package func removeAll() throws {
        try modify { $0.removeAll() }
    }

    /// Sets several entries (all checked first).
    package func update(_ entries: [(String, Value)]) throws {
        let checked = try self.checked(entries)
        try modify { contents in for (key, value) in checked { Self.set(value, forKey: key, in: &contents) } }
    }

    /// Replaces every entry (assigning a whole dictionary).
    package func replaceAll(with entries: [(String, Value)]) throws {
        let checked = try self.checked(entries)
        try modify { contents in
            contents.removeAll()
            for (key, value) in checked { Self.set(value, forKey: key, in: &contents) }
        }
    }

    /// Creates an embedded object and stores the link to it under `key`.
    package func setEmbedded(forKey key: String, values: [(PropertyInfo, Value)] = []) throws -> ObjectAccessor {
        try Self.checkKey(key)
        return try realm.lock.withLock {
            let child = try createEmbedded(values: values)
            try modify { Self.set(.link(ObjectLink(table: child.classInfo.tableID, key: child.key)), forKey: key, in: &$0) }
            return child
        }
    }

    /// Entries with their keys checked and their values validated, before anything is written.
    private func checked(_ entries: [(String, Value)]) throws -> [(String, Value)] {
        try entries.map { key, value in
            try Self.checkKey(key)
            return (key, try validate(value))
        }
    }

    static func checkKey(_ key: String) throws {
        guard !key.isEmpty, !key.contains("."), !key.hasPrefix("$") else {
            throw DBError(.invalidArgument, "dictionary key '\(key)' is invalid: keys must be non-empty, without '.', and not start with '$'")
        }
    }

    private static func key(_ value: Value) -> String {
        if case let .string(s) = value { return s }
        return ""
    }

    /// The entry index of `key` (or where it would go) in key, value, ... contents.
    private static func search(_ key: String, in contents: [Value]) -> (index: Int, found: Bool) {
        var low = 0, high = contents.count / 2
        while low < high {
            let mid = (low + high) / 2
            let order = ValueOrdering.compareBytes(Self.key(contents[mid * 2]).utf8, key.utf8)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }

    private static func set(_ value: Value, forKey key: String, in contents: inout [Value]) {
        let (index, found) = search(key, in: contents)
        if found {
            contents[index * 2 + 1] = value
        } else {
            contents.insert(contentsOf: [.string(key), value], at: index * 2)
        }
    }
}
