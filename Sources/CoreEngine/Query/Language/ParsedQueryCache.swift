#if canImport(Glibc)
import Glibc
#endif

/// The trees of query strings parsed lately, so that a query run again and again with other
/// arguments (`filter("age > $0", ...)` in a loop, as a program runs a prepared statement) is
/// parsed once. A tree depends on the text alone: arguments and the schema come in later, when
/// it is compiled.
///
/// Process-wide and bounded: at most `capacity` trees of texts up to `maxTextLength` bytes (a
/// longer text, such as a generated list of thousands of values, is parsed each time). When
/// full, the oldest half is dropped. Failed parses are not kept: they throw each time.
final class ParsedQueryCache: @unchecked Sendable {
    /// Emptied at exit, so that the process ends having released what it allocated (a leak
    /// checker cannot follow every pointer into a tree, and would report those it kept).
    static let shared: ParsedQueryCache = {
        let cache = ParsedQueryCache()
        atexit { ParsedQueryCache.shared.removeAll() }
        return cache
    }()

    static let capacity = 256
    static let maxTextLength = 2048

    private let lock = RecursiveLock(level: .leaf, name: "parsed query cache", heldAcrossFork: true)
    private var trees: [String: (tree: Query, age: Int)] = [:]
    private var clock = 0

    /// The tree of `text`, parsed by `parse` unless it was lately.
    func tree(of text: String, _ parse: (String) throws -> Query) rethrows -> Query {
        guard text.utf8.count <= Self.maxTextLength else { return try parse(text) }
        if let known = lock.withLock({ trees[text]?.tree }) { return known }
        let tree = try parse(text)
        lock.withLock {
            if trees.count >= Self.capacity {
                let cutoff = clock - Self.capacity / 2
                trees = trees.filter { $0.value.age >= cutoff }
                if trees.count >= Self.capacity { trees.removeAll(keepingCapacity: true) }
            }
            clock += 1
            trees[text] = (tree, clock)
        }
        return tree
    }

    /// Drops every tree kept.
    func removeAll() { lock.withLock { trees.removeAll() } }

    /// How many trees are kept (for tests).
    var count: Int { lock.withLock { trees.count } }
}
