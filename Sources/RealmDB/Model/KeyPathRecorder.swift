import Foundation

/// Turns a Swift key path of a model (`\Dog.name`, `\Dog.owner?.name`) into the property names
/// it reads (`["owner", "name"]`): reads it from a probe object whose `@Persisted` properties
/// record their names instead of reading values, and whose links return further probes.
/// Swift has no runtime mapping from a key path to a property name; this is the one Realm's SDK
/// uses too.
public final class _KeyPathRecorder {
    var names: [String] = []

    init() {}

    /// A new object of `type` that records into this recorder.
    func probe(_ type: Object.Type) -> Object {
        let object = type.init()
        object.keyPathRecorder = self
        return object
    }

    /// The property names `keyPath` reads, joined by "." (`"owner.name"`).
    /// - Throws: `.invalidArgument` for a key path that reads no `@Persisted` property.
    static func name<Root: Object>(of keyPath: PartialKeyPath<Root>) throws(RealmError) -> String {
        try entry(of: keyPath).name
    }

    /// The property `keyPath` reads when it is exactly one `@Persisted` property (`\.age`), else
    /// nil: the probe cannot see a step past the property (`\.age.byteSwapped` records "age"),
    /// so the key path's own description must show one component too. Worked out once per key
    /// path: describing one cost more than reading a column of 100 values (`map(\.id)`).
    static func singlePropertyName<Root: Object>(of keyPath: PartialKeyPath<Root>) -> String? {
        guard let entry = try? entry(of: keyPath) else { return nil }
        if let single = entry.single { return single ? entry.name : nil }
        let single = !entry.name.contains(".") && componentCount(of: keyPath) == 1
        cache.withLock { $0[ObjectIdentifier(keyPath)]?.single = single }
        return single ? entry.name : nil
    }

    /// How many components a key path's description shows after its root (`\Dog.<computed ...
    /// (Int)>` has one), or nil when it does not start with its root's name.
    static func componentCount(of keyPath: AnyKeyPath) -> Int? {
        let text = "\(keyPath)", root = "\\" + String(describing: type(of: keyPath).rootType)
        guard text.hasPrefix(root) else { return nil }
        var depth = 0, components = 0
        for character in text.dropFirst(root.count) {
            switch character {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            case "." where depth == 0: components += 1
            case "?", "!" where depth == 0: return nil  // optional chaining or unwrapping: more than a property
            default: break
            }
        }
        return components
    }

    private static func entry<Root: Object>(of keyPath: PartialKeyPath<Root>) throws(RealmError) -> Entry {
        let id = ObjectIdentifier(keyPath)
        if let known = cache.withLock({ $0[id] }) { return known }
        let entry = Entry(keyPath: keyPath, name: try record(keyPath))
        cache.withLock { $0[id] = entry }
        return entry
    }

    /// What is known of a key path: the names it reads and, once asked, whether it is one property.
    private struct Entry {
        /// Kept alive so that the key path's address, the cache's key, is not reused.
        let keyPath: AnyKeyPath
        let name: String
        var single: Bool?
    }

    /// Key path → what is known of it, keyed by the key path object: a key path literal is one
    /// object, so this holds one entry each.
    private static let cache = LockedValue<[ObjectIdentifier: Entry]>([:])

    private static func record<Root: Object>(_ keyPath: PartialKeyPath<Root>) throws(RealmError) -> String {
        let recorder = _KeyPathRecorder()
        let probe = recorder.probe(Root.self) as! Root
        _ = probe[keyPath: keyPath]
        guard !recorder.names.isEmpty else {
            throw RealmError(.invalidArgument, "the key path \(keyPath) of \(Root.className()) reads no @Persisted property")
        }
        return recorder.names.joined(separator: ".")
    }
}

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
