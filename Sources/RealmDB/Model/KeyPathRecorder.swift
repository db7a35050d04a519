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
        let id = ObjectIdentifier(keyPath)
        if let known = cache.withLock({ $0[id]?.name }) { return known }
        let name = try record(keyPath)
        cache.withLock { $0[id] = (keyPath, name) }
        return name
    }

    /// Key path → names, keyed by the key path object, which the entry keeps alive (so that its
    /// address is not reused): a key path literal is one object, so this holds one entry each.
    private static let cache = LockedValue<[ObjectIdentifier: (keyPath: AnyKeyPath, name: String)]>([:])

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
