/// A query condition bound to one class's properties, ready to evaluate.
///
/// The query language's parser produces a syntax tree; the query compiler type-checks it against
/// a class and lowers it to this form, in which every property is resolved to its column and every
/// argument to a value. The evaluator runs it one cluster (1024 objects) at a time.
package indirect enum CompiledPredicate: Sendable {
    case constant(Bool)
    case and([CompiledPredicate])
    case or([CompiledPredicate])
    case not(CompiledPredicate)
    /// `lhs op rhs` for ==, !=, <, <=, >, >=, with string options for strings.
    case compare(Operand, ComparisonOperator, Operand, StringOptions)
    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE on strings (and bytes for data).
    case match(Operand, StringOperator, Operand, StringOptions)
    /// `operand IN {values}`.
    case isIn(Operand, InList, StringOptions)
    /// A test of each value a multi-valued key path yields (`dogs.age > 5`, `'x' IN tags`):
    /// true when any (all, none) of them pass. ALL and NONE hold for an empty collection.
    case quantified(Quantifier, CompiledKeyPath, ElementTest)
    /// A collection compared with a list, neither quantified (`scores == {1, 2}`): position by
    /// position, as realm-core does. The values must be as many as the tests and pass the test
    /// at their position; with `differing` (for `!=`), a different count also matches.
    case elementwise(CompiledKeyPath, [ElementTest], differing: Bool)
    /// Two collections compared, neither quantified (`a == b`, `items.price < other.price`):
    /// position by position, as a collection and a list are. With `!=`, a different count, or a
    /// difference at every position, holds.
    case pairwise(CompiledKeyPath, ComparisonOperator, CompiledKeyPath, StringOptions)

    /// Conjunction that flattens nested ANDs and drops TRUEPREDICATE.
    package static func all(_ predicates: [CompiledPredicate]) -> CompiledPredicate {
        var parts: [CompiledPredicate] = []
        for predicate in predicates {
            switch predicate {
            case .constant(true): continue
            case let .and(children): parts.append(contentsOf: children)
            default: parts.append(predicate)
            }
        }
        if parts.isEmpty { return .constant(true) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// The columns the predicate reads.
    var columns: [PropertyInfo] {
        var seen = Set<UInt32>(), result: [PropertyInfo] = []
        func visit(_ operand: Operand) {
            switch operand {
            case let .property(property): if seen.insert(property.columnID).inserted { result.append(property) }
            case .constant: break
            case let .keyPath(path): visit(path)
            case let .arithmetic(a, _, b): visit(a); visit(b)
            }
        }
        // A key path's own reads go through the key path reader; arithmetic on its values may
        // read the queried object's properties (`scores * factor`).
        func visit(_ path: CompiledKeyPath) {
            for step in path.arithmetic { visit(step.other) }
        }
        func visit(_ test: ElementTest) {
            switch test {
            case let .compare(_, operand, _), let .match(_, operand, _), let .quantifiedCompare(_, _, operand, _): visit(operand)
            case .isIn, .geoWithin: break
            case let .not(inner): visit(inner)
            case let .allOf(tests): tests.forEach(visit)
            }
        }
        func visit(_ predicate: CompiledPredicate) {
            switch predicate {
            case .constant: break
            case let .and(children), let .or(children): children.forEach(visit)
            case let .not(child): visit(child)
            case let .compare(a, _, b, _), let .match(a, _, b, _): visit(a); visit(b)
            case let .isIn(a, _, _): visit(a)
            case let .quantified(_, path, test): visit(path); visit(test)
            case let .elementwise(path, tests, _): visit(path); tests.forEach(visit)
            case let .pairwise(left, _, right, _): visit(left); visit(right)
            }
        }
        visit(self)
        return result
    }

    /// Whether the predicate reads key paths through links or collections (which need a
    /// `KeyPathReader`).
    var readsKeyPaths: Bool {
        func visit(_ operand: Operand) -> Bool {
            switch operand {
            case .property, .constant: return false
            case .keyPath: return true
            case let .arithmetic(a, _, b): return visit(a) || visit(b)
            }
        }
        switch self {
        case .constant: return false
        case let .and(children), let .or(children): return children.contains { $0.readsKeyPaths }
        case let .not(child): return child.readsKeyPaths
        case let .compare(a, _, b, _), let .match(a, _, b, _): return visit(a) || visit(b)
        case let .isIn(a, _, _): return visit(a)
        case .quantified, .elementwise, .pairwise: return true
        }
    }
}

/// ANY (also written SOME, and implied for a key path through a collection), ALL or NONE.
package enum Quantifier: Sendable {
    case any, all, none
}

/// What a quantified condition asks of each value of its key path.
package indirect enum ElementTest: Sendable {
    /// `value op operand`; an operand that is itself a multi-valued key path passes when any of
    /// its values does.
    case compare(ComparisonOperator, Operand, StringOptions)
    /// `value op` any (all, none) of the values of `operand`, a multi-valued key path:
    /// `ANY a < ALL b` tests each value of `a` against all of `b`.
    case quantifiedCompare(Quantifier, ComparisonOperator, Operand, StringOptions)
    case match(StringOperator, Operand, StringOptions)
    case isIn(InList, StringOptions)
    /// The element is a link to an object holding a GeoJSON point inside a region.
    case geoWithin(GeoWithinTest)
    case not(ElementTest)
    /// Every test passes (BETWEEN: both bounds).
    case allOf([ElementTest])
}

/// One side of a comparison.
package indirect enum Operand: Sendable {
    case property(PropertyInfo)
    case constant(Value)
    case arithmetic(Operand, ArithmeticOperator, Operand)
    /// A key path through links or collections, or a collection operator (`owner.name`,
    /// `dogs.@count`): single-valued here, or the subject of a `.quantified` condition.
    case keyPath(CompiledKeyPath)
}

package enum ComparisonOperator: Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    /// The operator with its operands swapped (`a < b` is `b > a`).
    var swapped: ComparisonOperator {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }
}

package enum StringOperator: Sendable {
    case beginsWith, endsWith, contains, like
    /// TEXT: the words of a full-text search (`FullTextSearch`).
    case fullText
}

package enum ArithmeticOperator: Sendable {
    case add, subtract, multiply, divide
}

/// The `[c]`, `[d]` and `[cd]` modifiers.
package struct StringOptions: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let caseInsensitive = StringOptions(rawValue: 1)
    package static let diacriticInsensitive = StringOptions(rawValue: 2)
}
