/// A query condition bound to one class's properties, ready to evaluate.
///
/// The query language's parser produces a syntax tree; the query compiler type-checks it against
/// a class and lowers it to this form, in which every property is resolved to its column and every
/// argument to a value. The evaluator runs it one cluster (1024 objects) at a time.
public indirect enum CompiledPredicate: Sendable {
    case constant(Bool)
    case and([CompiledPredicate])
    case or([CompiledPredicate])
    case not(CompiledPredicate)
    /// `lhs op rhs` for ==, !=, <, <=, >, >=, with string options for strings.
    case compare(Operand, ComparisonOperator, Operand, StringOptions)
    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE on strings (and bytes for data).
    case match(Operand, StringOperator, Operand, StringOptions)
    /// `operand IN {values}`.
    case isIn(Operand, [Value], StringOptions)

    /// Conjunction that flattens nested ANDs and drops TRUEPREDICATE.
    public static func all(_ predicates: [CompiledPredicate]) -> CompiledPredicate {
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
            case let .arithmetic(a, _, b): visit(a); visit(b)
            }
        }
        func visit(_ predicate: CompiledPredicate) {
            switch predicate {
            case .constant: break
            case let .and(children), let .or(children): children.forEach(visit)
            case let .not(child): visit(child)
            case let .compare(a, _, b, _), let .match(a, _, b, _): visit(a); visit(b)
            case let .isIn(a, _, _): visit(a)
            }
        }
        visit(self)
        return result
    }
}

/// One side of a comparison.
public indirect enum Operand: Sendable {
    case property(PropertyInfo)
    case constant(Value)
    case arithmetic(Operand, ArithmeticOperator, Operand)
}

public enum ComparisonOperator: Sendable {
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

public enum StringOperator: Sendable {
    case beginsWith, endsWith, contains, like
}

public enum ArithmeticOperator: Sendable {
    case add, subtract, multiply, divide
}

/// The `[c]`, `[d]` and `[cd]` modifiers.
public struct StringOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}
