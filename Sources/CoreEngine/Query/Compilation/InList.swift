/// The values on the right of `x IN {…}` (or `x IN $0` with a list argument).
///
/// Evaluated without an index, membership is tested once per object: a linear search made
/// `id IN $0` with 50,000 ids over 100,000 objects take 12 s. A list of integers or of strings
/// compared without options (the kinds of ids and names) is therefore also kept hashed, built
/// once when the query is compiled; other lists, and candidates of another kind than the list's
/// (a mixed property holding a double), are compared one by one as `==` compares them.
package final class InList: Sendable, ExpressibleByArrayLiteral {
    package let values: [Value]
    /// Set when every value is an int.
    private let integers: Set<Int64>?
    /// Set when every value is a string, as UTF-8 bytes (strings compare byte-wise, not by
    /// Unicode equivalence).
    private let strings: Set<[UInt8]>?

    /// Below this many values a linear search is as fast as hashing the candidate.
    static let hashedFrom = 8

    package init(_ values: [Value]) {
        self.values = values
        var integers: Set<Int64>? = values.count >= Self.hashedFrom ? [] : nil
        var strings: Set<[UInt8]>? = integers == nil ? nil : []
        for value in values where integers != nil || strings != nil {
            switch value {
            case let .int(x): integers?.insert(x); strings = nil
            case let .string(s): strings?.insert(Array(s.utf8)); integers = nil
            default: integers = nil; strings = nil
            }
        }
        self.integers = integers
        self.strings = strings
    }

    package convenience init(arrayLiteral values: Value...) { self.init(values) }

    /// Whether `candidate` equals one of the values, as `==` with `options` decides.
    func contains(_ candidate: Value, options: StringOptions) -> Bool {
        if options.isEmpty {
            if case let .int(x) = candidate, let integers { return integers.contains(x) }
            if case let .string(s) = candidate, let strings { return strings.contains(Array(s.utf8)) }
        }
        return values.contains { PredicateEvaluator.compare(candidate, .equal, $0, options) }
    }
}
