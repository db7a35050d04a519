/// A query over the values of a list or set of values, which names each value `self`:
/// `self > 3`, `self BEGINSWITH[c] 'ab'`, `self IN {1, 2}`, `self BETWEEN {1, 5} OR self == nil`.
///
/// The query is type-checked as a query over objects is (its errors are `DBError(.query)` with
/// the offset of the token at fault), against a class whose one property, `self`, has the
/// element type; then it runs on each value. `self.@size` (of a string or binary) and
/// `self.@type` (of a mixed value) read the value as they read a property; other key paths, and
/// `SORT`, `DISTINCT` and `LIMIT`, are refused: a value has no properties, and its collection is
/// sorted and made distinct by its own operations (`ValueListOrdering`).
package struct ValueFilter: Sendable {
    private let predicate: CompiledPredicate

    /// Compiles `query` for values of `elementType` (null allowed when `isOptional`).
    package init(_ query: String, arguments: [QueryArgument] = [], elementType: PropertyType, isOptional: Bool) throws {
        let parsed = try QueryParser.parse(query)
        if let suffix = parsed.suffixes.first {
            throw DBError(.query, "SORT, DISTINCT and LIMIT do not apply to a query over values (sort or make them distinct instead)",
                          offset: suffix.range.lowerBound)
        }
        let column = StoredColumn(id: 1, name: "self", type: elementType, isOptional: isOptional, isPrimaryKey: false,
                                  isIndexed: false)
        let table = StoredTable(id: 0, name: "\(elementType.name)\(isOptional ? "?" : "") value", columns: [column])
        let values = try ClassInfo(objectSchema: ObjectSchema(name: table.name, properties: [
            Property(name: "self", type: elementType, isOptional: isOptional),
        ]), table: table)
        predicate = try QueryCompiler(classInfo: values, arguments: arguments).compile(parsed).predicate
        try Self.check(predicate)
    }

    /// Whether `value` matches.
    package func matches(_ value: Value) -> Bool { Self.evaluate(predicate, value) }

    /// `positions` of `values` whose value matches, in their order.
    package func filtered(_ positions: [Int], of values: [Value]) -> [Int] {
        positions.filter { matches(values[$0]) }
    }

    /// Refuses what the compiler accepts for objects but a value cannot have: key paths through
    /// links or into collections.
    private static func check(_ predicate: CompiledPredicate) throws {
        switch predicate {
        case .constant: return
        case let .and(children), let .or(children): try children.forEach(check)
        case let .not(child): try check(child)
        case let .compare(a, _, b, _), let .match(a, _, b, _): try check(a); try check(b)
        case let .isIn(a, _, _): try check(a)
        case let .quantified(_, path, test) where !path.isMultiValued:
            // `self.@type == 'string'`: one value, tested as a collection's element is.
            try check(.keyPath(path))
            try check(test)
        case .quantified, .elementwise, .pairwise:
            throw DBError(.query, "a query over values compares each value (self) with values: it has no collections to quantify")
        }
    }

    private static func check(_ test: ElementTest) throws {
        switch test {
        case let .compare(_, operand, _), let .quantifiedCompare(_, _, operand, _), let .match(_, operand, _): try check(operand)
        case .isIn: return
        case let .not(inner): try check(inner)
        case let .allOf(tests): try tests.forEach(check)
        case .geoWithin: throw DBError(.query, "GEOWITHIN needs objects with a location, not values")
        }
    }

    private static func check(_ operand: Operand) throws {
        switch operand {
        case .property, .constant: return
        case let .arithmetic(a, _, b): try check(a); try check(b)
        case let .keyPath(path):
            guard path.hops.isEmpty, readsTheValue(path.leaf) else {
                throw DBError(.query, "a value has no properties: name it self (or self.@size, self.@type)")
            }
            for step in path.arithmetic { try check(step.other) }
        }
    }

    private static func readsTheValue(_ leaf: KeyPathLeaf) -> Bool {
        switch leaf {
        case .property: return true
        case let .length(inner), let .typeName(inner): return readsTheValue(inner)
        default: return false
        }
    }

    /// What `leaf` reads from `value` (a leaf `readsTheValue` accepts).
    private static func read(_ leaf: KeyPathLeaf, _ value: Value) -> Value {
        switch leaf {
        case let .length(inner): return KeyPathReader.length(read(inner, value))
        case let .typeName(inner): return .string(KeyPathReader.typeName(of: read(inner, value)))
        default: return value
        }
    }

    private static func evaluate(_ predicate: CompiledPredicate, _ value: Value) -> Bool {
        switch predicate {
        case let .constant(result): return result
        case let .and(children): return children.allSatisfy { evaluate($0, value) }
        case let .or(children): return children.contains { evaluate($0, value) }
        case let .not(child): return !evaluate(child, value)
        case let .compare(a, op, b, options):
            return PredicateEvaluator.compare(operand(a, value), op, operand(b, value), options)
        case let .match(a, op, b, options):
            return PredicateEvaluator.match(operand(a, value), op, operand(b, value), options, patternFolded: false)
        case let .isIn(a, list, options):
            return list.contains(operand(a, value), options: options)
        case let .quantified(quantifier, path, test):
            let passes = self.passes(operand(.keyPath(path), value), test, value)
            return quantifier == .none ? !passes : passes
        case .elementwise, .pairwise:
            return false  // refused by check(_:)
        }
    }

    /// Whether `element` (read from `value`) passes `test`, as `PredicateEvaluator` tests an element.
    private static func passes(_ element: Value, _ test: ElementTest, _ value: Value) -> Bool {
        switch test {
        case let .compare(op, other, options):
            return PredicateEvaluator.compare(element, op, operand(other, value), options)
        case let .quantifiedCompare(quantifier, op, other, options):
            let passes = PredicateEvaluator.compare(element, op, operand(other, value), options)
            return quantifier == .none ? !passes : passes
        case let .match(op, other, options):
            return PredicateEvaluator.match(element, op, operand(other, value), options, patternFolded: false)
        case let .isIn(list, options): return list.contains(element, options: options)
        case let .not(inner): return !passes(element, inner, value)
        case let .allOf(tests): return tests.allSatisfy { passes(element, $0, value) }
        case .geoWithin: return false  // refused by check(_:)
        }
    }

    private static func operand(_ operand: Operand, _ value: Value) -> Value {
        switch operand {
        case .property: return value
        case let .constant(constant): return constant
        case let .arithmetic(a, op, b): return PredicateEvaluator.arithmetic(self.operand(a, value), op, self.operand(b, value))
        case let .keyPath(path):
            var result = read(path.leaf, value)
            for step in path.arithmetic {
                let other = self.operand(step.other, value)
                result = step.elementFirst ? PredicateEvaluator.arithmetic(result, step.op, other)
                    : PredicateEvaluator.arithmetic(other, step.op, result)
            }
            return result
        }
    }
}
