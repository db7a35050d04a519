/// A value passed with a query for `$n`: one value, or a list (for `IN $n`).
public enum QueryArgument: Sendable {
    case value(Value)
    case list([Value])
}

/// Type-checks a parsed query against a class and lowers it to a `CompiledPredicate` plus the
/// results operations of its `SORT`, `DISTINCT` and `LIMIT` suffixes.
///
/// Every error is a `DBError(.query)` whose offset is the byte offset of the offending token:
/// an unknown property, a value of the wrong type, a missing argument, an operator that does not
/// apply (BEGINSWITH on an int), `[c]` on a non-string.
public struct QueryCompiler {
    public let classInfo: ClassInfo
    public let arguments: [QueryArgument]

    public init(classInfo: ClassInfo, arguments: [QueryArgument] = []) {
        self.classInfo = classInfo
        self.arguments = arguments
    }

    /// Parses and compiles query text.
    public func compile(_ text: String) throws -> (predicate: CompiledPredicate, operations: [ResultsOperation]) {
        try compile(QueryParser.parse(text))
    }

    public func compile(_ query: Query) throws -> (predicate: CompiledPredicate, operations: [ResultsOperation]) {
        let predicate = try lower(query.predicate)
        let operations = try query.suffixes.map { suffix -> ResultsOperation in
            switch suffix.kind {
            case let .sort(keys):
                return .sort(try keys.map { SortDescriptor(try property($0.keyPath), ascending: $0.ascending) })
            case let .distinct(paths):
                return .distinct(try paths.map(property))
            case let .limit(count):
                guard let count = Int(exactly: count) else { throw error("LIMIT is too large", suffix.range) }
                return .limit(count)
            }
        }
        return (predicate, operations)
    }

    // MARK: Predicates

    private func lower(_ predicate: QueryPredicate) throws -> CompiledPredicate {
        switch predicate.kind {
        case .truePredicate: return .constant(true)
        case .falsePredicate: return .constant(false)
        case let .and(a, b): return .all([try lower(a), try lower(b)])
        case let .or(a, b):
            var children: [CompiledPredicate] = []
            for child in [try lower(a), try lower(b)] {
                if case let .or(nested) = child { children += nested } else { children.append(child) }
            }
            return .or(children)
        case let .not(child): return .not(try lower(child))
        case let .comparison(comparison): return try lower(comparison)
        case let .between(between):
            try rejectQuantifier(between.quantifier, predicate.range)
            let value = try operand(between.value)
            let lower = try operand(between.lower), upper = try operand(between.upper)
            try checkComparable(value, lower, between.lower.range)
            try checkComparable(value, upper, between.upper.range)
            return .and([.compare(value.operand, .greaterOrEqual, lower.operand, []), .compare(value.operand, .lessOrEqual, upper.operand, [])])
        }
    }

    private func lower(_ comparison: QueryComparison) throws -> CompiledPredicate {
        try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
        var options = StringOptions()
        if comparison.options.caseInsensitive { options.insert(.caseInsensitive) }
        if comparison.options.diacriticInsensitive { options.insert(.diacriticInsensitive) }
        let lhs = try operand(comparison.lhs)

        if comparison.op == .in {
            let values: [Value]
            switch comparison.rhs.kind {
            case let .list(elements):
                values = try elements.map { element in
                    let typed = try operand(element)
                    guard case let .constant(value) = typed.operand else {
                        throw error("the elements of an IN list must be values", element.range)
                    }
                    try checkComparable(lhs, typed, element.range)
                    return try coerce(value, toMatch: lhs, element.range)
                }
            case let .argument(index):
                let list = try argumentList(index, comparison.rhs.range)
                values = try list.map { value in
                    let typed = Typed(operand: .constant(value), type: value.propertyType)
                    try checkComparable(lhs, typed, comparison.rhs.range)
                    return try coerce(value, toMatch: lhs, comparison.rhs.range)
                }
            case .keyPath:
                throw error("IN with a list property arrives with list properties (relationships issue)", comparison.rhs.range)
            default:
                throw error("IN expects a list {a, b, ...} or a list argument", comparison.rhs.range)
            }
            try checkOptions(options, lhs, comparison)
            return .isIn(lhs.operand, values, options)
        }

        var rhs = try operand(comparison.rhs)
        if comparison.op.isStringOperator {
            for side in [(lhs, comparison.lhs.range), (rhs, comparison.rhs.range)] {
                guard side.0.type == nil || side.0.type == .string || side.0.type == .data else {
                    throw error("\(comparison.op.rawValue) applies to strings and data, not \(side.0.type!.name)", side.1)
                }
            }
            try checkComparable(lhs, rhs, comparison.rhs.range)
            try checkOptions(options, lhs, comparison)
            let op: StringOperator
            switch comparison.op {
            case .beginsWith: op = .beginsWith
            case .endsWith: op = .endsWith
            case .contains: op = .contains
            default: op = .like
            }
            return .match(lhs.operand, op, rhs.operand, options)
        }

        try checkComparable(lhs, rhs, comparison.rhs.range)
        try checkOptions(options, lhs, comparison)
        if case let .constant(value) = rhs.operand { rhs = Typed(operand: .constant(try coerce(value, toMatch: lhs, comparison.rhs.range)), type: rhs.type) }
        let op: ComparisonOperator
        switch comparison.op {
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .less: op = .less
        case .lessOrEqual: op = .lessOrEqual
        case .greater: op = .greater
        default: op = .greaterOrEqual
        }
        return .compare(lhs.operand, op, rhs.operand, options)
    }

    // MARK: Operands

    /// An operand and its type (nil for null).
    private struct Typed {
        var operand: Operand
        var type: PropertyType?
    }

    private func operand(_ expression: QueryExpression) throws -> Typed {
        switch expression.kind {
        case let .keyPath(path):
            let property = try self.property(path)
            return Typed(operand: .property(property), type: property.type)
        case let .literal(literal):
            let value = try self.value(literal, expression.range)
            return Typed(operand: .constant(value), type: value.propertyType)
        case let .argument(index):
            guard index >= 0, index < arguments.count else {
                throw error("argument $\(index) was not given (the query has \(arguments.count) argument\(arguments.count == 1 ? "" : "s"))", expression.range)
            }
            guard case let .value(value) = arguments[index] else {
                throw error("argument $\(index) is a list; lists are allowed only after IN", expression.range)
            }
            return Typed(operand: .constant(value), type: value.propertyType)
        case .list:
            throw error("a list {...} is allowed only after IN", expression.range)
        case let .negate(inner):
            let typed = try operand(inner)
            try requireNumeric(typed, inner.range)
            if case let .constant(value) = typed.operand {
                return Typed(operand: .constant(PredicateEvaluator.arithmetic(.int(0), .subtract, value)), type: typed.type)
            }
            return Typed(operand: .arithmetic(.constant(.int(0)), .subtract, typed.operand), type: typed.type)
        case let .arithmetic(op, a, b):
            let left = try operand(a), right = try operand(b)
            try requireNumeric(left, a.range)
            try requireNumeric(right, b.range)
            let arithmetic: ArithmeticOperator
            switch op {
            case .add: arithmetic = .add
            case .subtract: arithmetic = .subtract
            case .multiply: arithmetic = .multiply
            case .divide: arithmetic = .divide
            }
            let type: PropertyType = left.type == .int && right.type == .int ? .int : .double
            return Typed(operand: .arithmetic(left.operand, arithmetic, right.operand), type: type)
        }
    }

    private func property(_ path: QueryKeyPath) throws -> PropertyInfo {
        guard path.components.count == 1, let component = path.components.first, !component.isAtComponent else {
            throw error("key paths through links and collection operators arrive with the relationships issue", path.range)
        }
        guard let property = classInfo.property(named: component.name) else {
            throw error("'\(classInfo.name)' has no property named '\(component.name)'", path.range)
        }
        guard property.isScalar else {
            throw error("'\(classInfo.name).\(property.name)' is a \(property.property.typeDescription) property: queries on links, collections and mixed values are not supported yet", path.range)
        }
        return property
    }

    private func value(_ literal: QueryLiteral, _ range: Range<Int>) throws -> Value {
        switch literal {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .double(d, _): return .double(d)
        case let .string(s): return .string(s)
        case let .timestamp(t): return .timestamp(t)
        case let .objectID(o): return .objectID(o)
        case let .uuid(u): return .uuid(u)
        case let .binary(b): return .data(b)
        case let .decimal128(text):
            guard let decimal = Decimal128(parsing: text) else {
                throw error("'\(text)' is not a decimal128 value (at most 34 significant digits)", range)
            }
            return .decimal128(decimal)
        }
    }

    private func argumentList(_ index: Int, _ range: Range<Int>) throws -> [Value] {
        guard index >= 0, index < arguments.count else {
            throw error("argument $\(index) was not given (the query has \(arguments.count) arguments)", range)
        }
        switch arguments[index] {
        case let .list(values): return values
        case let .value(value): return [value]
        }
    }

    // MARK: Type rules

    private static let numeric: Set<PropertyType> = [.int, .float, .double, .decimal128]

    private func requireNumeric(_ typed: Typed, _ range: Range<Int>) throws {
        guard let type = typed.type, Self.numeric.contains(type) else {
            throw error("arithmetic needs numbers, not \(typed.type?.name ?? "null")", range)
        }
    }

    /// Two operands may be compared when either is null or both have compatible types.
    private func checkComparable(_ a: Typed, _ b: Typed, _ range: Range<Int>) throws {
        guard let x = a.type, let y = b.type else { return }
        if x == y || (Self.numeric.contains(x) && Self.numeric.contains(y)) { return }
        if (x == .string && y == .data) || (x == .data && y == .string) { return }
        throw error("cannot compare \(describe(a)) with \(describe(b))", range)
    }

    private func describe(_ typed: Typed) -> String {
        if case let .property(p) = typed.operand { return "\(p.type.name) property '\(p.name)'" }
        return "a value of type \(typed.type?.name ?? "null")"
    }

    private func checkOptions(_ options: StringOptions, _ lhs: Typed, _ comparison: QueryComparison) throws {
        guard !options.isEmpty else { return }
        guard lhs.type == .string || lhs.type == nil else {
            throw error("[c] and [d] apply to strings, not \(lhs.type!.name)", comparison.lhs.range)
        }
    }

    /// Converts a constant to the other side's property type when that is exact (numbers for
    /// decimal128 properties, strings for data properties), so comparisons need no conversion.
    private func coerce(_ value: Value, toMatch other: Typed, _ range: Range<Int>) throws -> Value {
        guard case let .property(property) = other.operand else { return value }
        switch (property.type, value) {
        case let (.decimal128, .int(i)): return .decimal128(Decimal128(integer: i))
        case let (.data, .string(s)): return .data(Array(s.utf8))
        default: return value
        }
    }

    private func rejectQuantifier(_ quantifier: QueryQuantifier?, _ range: Range<Int>) throws {
        if let quantifier {
            throw error("\(quantifier.rawValue) applies to collections, which arrive with the relationships issue", range)
        }
    }

    private func error(_ message: String, _ range: Range<Int>) -> DBError {
        DBError(.query, "\(message) (at offset \(range.lowerBound))", offset: range.lowerBound)
    }
}

extension Results {
    /// Narrows the results with a query string: its predicate is ANDed, its SORT, DISTINCT and
    /// LIMIT suffixes are appended in order.
    /// - Throws: `DBError(.query)` with the byte offset of the offending token.
    public func filter(_ query: String, arguments: [QueryArgument] = []) throws -> Results {
        let (predicate, suffixes) = try QueryCompiler(classInfo: classInfo, arguments: arguments).compile(query)
        return Results(realm: realm, classInfo: classInfo, predicate: .all([self.predicate, predicate]),
                       operations: operations + suffixes, source: source)
    }
}
