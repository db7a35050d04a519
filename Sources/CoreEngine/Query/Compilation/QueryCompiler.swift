/// A value passed with a query for `$n`: one value, or a list (for `IN $n`).
package enum QueryArgument: Sendable {
    case value(Value)
    case list([Value])
}

/// Type-checks a parsed query against a class and lowers it to a `CompiledPredicate` plus the
/// results operations of its `SORT`, `DISTINCT` and `LIMIT` suffixes.
///
/// Every error is a `DBError(.query)` whose offset is the byte offset of the offending token:
/// an unknown property, a value of the wrong type, a missing argument, an operator that does not
/// apply (BEGINSWITH on an int), `[c]` on a non-string.
package struct QueryCompiler {
    package let classInfo: ClassInfo
    package let arguments: [QueryArgument]
    /// The realm's classes, for key paths through links (without it, only the class's own
    /// properties can be named).
    package let classes: ClassLookup?
    /// Inside a SUBQUERY: its variable, with which every key path starts.
    let variable: String?

    package init(classInfo: ClassInfo, arguments: [QueryArgument] = [], classes: ClassLookup? = nil) {
        self.init(classInfo: classInfo, arguments: arguments, classes: classes, variable: nil)
    }

    init(classInfo: ClassInfo, arguments: [QueryArgument], classes: ClassLookup?, variable: String?) {
        self.classInfo = classInfo
        self.arguments = arguments
        self.classes = classes
        self.variable = variable
    }

    /// Parses and compiles query text.
    package func compile(_ text: String) throws -> (predicate: CompiledPredicate, operations: [ResultsOperation]) {
        try compile(QueryParser.parse(text))
    }

    package func compile(_ query: Query) throws -> (predicate: CompiledPredicate, operations: [ResultsOperation]) {
        let predicate = try lowerPredicate(query.predicate)
        let operations = try query.suffixes.map { suffix -> ResultsOperation in
            switch suffix.kind {
            case let .sort(keys):
                return .sort(try keys.map { SortDescriptor(path: try propertyPath($0.keyPath), ascending: $0.ascending) })
            case let .distinct(paths):
                return .distinct(try paths.map { try propertyPath($0) })
            case let .limit(count):
                guard let count = Int(exactly: count) else { throw error("LIMIT is too large", suffix.range) }
                return .limit(count)
            }
        }
        return (predicate, operations)
    }

    // MARK: Predicates

    func lowerPredicate(_ predicate: QueryPredicate) throws -> CompiledPredicate {
        switch predicate.kind {
        case .truePredicate: return .constant(true)
        case .falsePredicate: return .constant(false)
        case let .and(operands): return .all(try operands.map(lowerPredicate))
        case let .or(operands):
            var children: [CompiledPredicate] = []
            for child in try operands.map(lowerPredicate) {
                if case let .or(nested) = child { children += nested } else { children.append(child) }
            }
            return .or(children)
        case let .not(child): return .not(try lowerPredicate(child))
        case let .comparison(comparison): return try lower(comparison)
        case let .geoWithin(geoWithin): return try lowerGeoWithin(geoWithin)
        case let .between(between):
            let value = try operand(between.value)
            let lower = try operand(between.lower), upper = try operand(between.upper)
            try checkComparable(value, lower, between.lower.range)
            try checkComparable(value, upper, between.upper.range)
            try checkOrderable(value, between.value.range)
            if case let .keyPath(path) = value.operand, path.isMultiValued {
                // Each value must lie in the range (not one value above lower and another below upper).
                return .quantified(quantifier(between.quantifier), path,
                                   .allOf([.compare(.greaterOrEqual, lower.operand, []), .compare(.lessOrEqual, upper.operand, [])]))
            }
            try rejectQuantifier(between.quantifier, predicate.range)
            return .and([.compare(value.operand, .greaterOrEqual, lower.operand, []), .compare(value.operand, .lessOrEqual, upper.operand, [])])
        }
    }

    private func lower(_ comparison: QueryComparison) throws -> CompiledPredicate {
        var comparison = comparison
        // `$K<n>` sides become the key paths they give, so every rule for key paths applies.
        if case let .keyPathArgument(n) = comparison.lhs.kind { comparison.lhs = try keyPathArgument(n, comparison.lhs.range) }
        if case let .keyPathArgument(n) = comparison.rhs.kind { comparison.rhs = try keyPathArgument(n, comparison.rhs.range) }
        comparison = try bindingObjectKeys(comparison)
        if let list = try leftHandList(comparison) {
            return try lowerLeftList(comparison, list)
        }
        return try lower(comparison, lhs: try operand(comparison.lhs))
    }

    /// `comparison` with its left-hand side already compiled (a list on the left compiles one
    /// comparison per value of the list).
    private func lower(_ comparison: QueryComparison, lhs: Typed) throws -> CompiledPredicate {
        if comparison.op == .text { try checkFullTextSearch(comparison, lhs) }
        var options = StringOptions()
        if comparison.options.caseInsensitive { options.insert(.caseInsensitive) }
        if comparison.options.diacriticInsensitive { options.insert(.diacriticInsensitive) }

        if comparison.op == .in, case .keyPath = comparison.rhs.kind {
            // `x IN collection`: ANY element of the collection equals x (ALL, NONE when written:
            // `5 IN ALL scores`).
            let rhs = try operand(comparison.rhs)
            guard case let .keyPath(path) = rhs.operand, path.isMultiValued else {
                throw error("IN needs a list {a, b, ...}, a list argument or a collection on its right, not '\(comparison.rhs)'", comparison.rhs.range)
            }
            if case let .keyPath(left) = lhs.operand, left.isMultiValued {
                return try lowerTwoCollections(comparison, left, lhs, .equal, path, rhs, options)
            }
            try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
            try checkComparable(rhs, lhs, comparison.lhs.range)
            try checkOptions(options, rhs, comparison)
            return .quantified(quantifier(comparison.rhsQuantifier), path, .compare(.equal, lhs.operand, options))
        }

        if case let .keyPath(path) = lhs.operand, case .typeName = path.leaf {
            return try lowerTypeComparison(comparison, path)
        }

        if let list = try rightHandList(comparison) {
            return try lowerListComparison(comparison, lhs, list, options)
        }
        if comparison.op == .in {
            throw error("IN expects a list {a, b, ...}, a list argument or a collection", comparison.rhs.range)
        }

        var lhsSide = lhs, rhsSide = try operand(comparison.rhs)
        if case let .keyPath(left) = lhsSide.operand, left.isMultiValued, case let .keyPath(right) = rhsSide.operand, right.isMultiValued {
            return try lowerTwoCollections(comparison, left, lhsSide, comparison.op, right, rhsSide, options)
        }
        var op = comparison.op
        var pathQuantifier = comparison.quantifier
        // A collection on the right only (`5 < scores`, `5 < ALL scores`): compare from its side.
        if case let .keyPath(path) = rhsSide.operand, path.isMultiValued, !lhsSide.isMultiValued, !op.isStringOperator {
            try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
            swap(&lhsSide, &rhsSide)
            op = op.swappedComparison
            pathQuantifier = comparison.rhsQuantifier
        } else if let written = comparison.rhsQuantifier {
            if op.isStringOperator && !lhsSide.isMultiValued {
                throw error("\(op.rawValue) takes a collection on its left only: \(written.rawValue) before a collection on its right is not supported",
                            comparison.rhs.range)
            }
            throw error("\(written.rawValue) before a collection on the right needs one value (or a list {...}) on the left, as in 5 < ALL scores",
                        comparison.rhs.range)
        }
        if case let .keyPath(path) = lhsSide.operand, path.isMultiValued {
            try checkComparable(lhsSide, rhsSide, comparison.rhs.range)
            try checkOptions(options, lhsSide, comparison)
            try checkLinkOperator(op, lhsSide, rhsSide, comparison.rhs.range)
            if op.isStringOperator {
                try checkStringOperands(op, [(lhsSide, comparison.lhs.range), (rhsSide, comparison.rhs.range)])
                return .quantified(quantifier(pathQuantifier), path, .match(stringOperator(op), rhsSide.operand, options))
            }
            var other = rhsSide.operand
            if case let .constant(value) = other { other = .constant(try coerce(value, toMatch: path.valueType, comparison.rhs.range)) }
            return .quantified(quantifier(pathQuantifier), path, .compare(comparisonOperator(op), other, options))
        }
        if rhsSide.isMultiValued {
            throw error("a collection can be compared only from the left-hand side of \(op.rawValue)", comparison.rhs.range)
        }
        try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
        try checkLinkOperator(op, lhs, rhsSide, comparison.rhs.range)

        var rhs = rhsSide
        if comparison.op.isStringOperator {
            try checkStringOperands(comparison.op, [(lhs, comparison.lhs.range), (rhs, comparison.rhs.range)])
            try checkComparable(lhs, rhs, comparison.rhs.range)
            try checkOptions(options, lhs, comparison)
            // `NULL CONTAINS name` matches nothing (realm-core); `NULL LIKE name` matches null names.
            if case .constant(.null) = lhs.operand, comparison.op != .like { return .constant(false) }
            return .match(lhs.operand, stringOperator(comparison.op), rhs.operand, options)
        }

        try checkComparable(lhs, rhs, comparison.rhs.range)
        try checkOptions(options, lhs, comparison)
        if case let .constant(value) = rhs.operand { rhs = Typed(operand: .constant(try coerce(value, toMatch: lhs, comparison.rhs.range)), type: rhs.type) }
        return .compare(lhs.operand, comparisonOperator(comparison.op), rhs.operand, options)
    }

    /// Two collections compared (`a == b`, `ANY items.price < ALL other.price`), as realm-core
    /// reads them: with a quantifier on either side, the left's quantifier (ANY when none) over
    /// its values, each tested against the right's values under the right's quantifier (ANY when
    /// none); with neither, position by position. (realm-core refuses two lists of values; here
    /// they compare as collections reached through links do.)
    private func lowerTwoCollections(_ comparison: QueryComparison, _ left: CompiledKeyPath, _ lhs: Typed,
                                     _ op: QueryComparisonOperator, _ right: CompiledKeyPath, _ rhs: Typed,
                                     _ options: StringOptions) throws -> CompiledPredicate {
        if op.isStringOperator {
            throw error("\(op.rawValue) cannot compare two collections: compare one of them with a value or a list", comparison.rhs.range)
        }
        try checkComparable(lhs, rhs, comparison.rhs.range)
        try checkLinkOperator(op, lhs, rhs, comparison.rhs.range)
        try checkOptions(options, lhs, comparison)
        let compared = comparisonOperator(op)
        if comparison.quantifier == nil && comparison.rhsQuantifier == nil {
            return .pairwise(left, compared, right, options)
        }
        return .quantified(quantifier(comparison.quantifier), left,
                           .quantifiedCompare(quantifier(comparison.rhsQuantifier), compared, .keyPath(right), options))
    }

    /// The elements of the right-hand side when it is a list: `{a, b}`, or an argument given
    /// as a list (or any argument after ANY, ALL or NONE); nil otherwise.
    private func rightHandList(_ comparison: QueryComparison) throws -> [ListElement]? {
        switch comparison.rhs.kind {
        case let .list(elements):
            return try listValues(elements)
        case let .argument(index):
            guard index >= 0, index < arguments.count else { return nil }  // reported by operand(_:)
            if case .value = arguments[index] {
                if let quantifier = comparison.rhsQuantifier {
                    throw error("\(quantifier.rawValue) before $\(index) needs an argument given as a list", comparison.rhs.range)
                }
                guard comparison.op == .in else { return nil }  // `x IN $0` with one value: a list of one
            }
            return try argumentList(index, comparison.rhs.range).map { ListElement(range: comparison.rhs.range, constant: $0) }
        case .keyPath:
            return nil  // a quantifier before it applies to the collection (`5 < ALL scores`)
        case .arithmetic:
            // `{8, 10} / 2` is a list; `scores * 2` a collection, which a quantifier may precede.
            return try listOperand(comparison.rhs)
        default:
            if let quantifier = comparison.rhsQuantifier {
                throw error("\(quantifier.rawValue) after an operator is followed by a list {...}, a list argument or a collection", comparison.rhs.range)
            }
            return nil
        }
    }

    /// realm-core's `O<n>` on either side of `comparison` (or in a list there), made the link to
    /// the object with key n of the class the other side links to. A class's own property named
    /// like that stays the property.
    private func bindingObjectKeys(_ comparison: QueryComparison) throws -> QueryComparison {
        func bind(_ expression: QueryExpression, against other: QueryExpression) throws -> QueryExpression {
            if case let .list(items) = expression.kind {
                return QueryExpression(.list(try items.map { try bind($0, against: other) }), range: expression.range)
            }
            guard let key = objectKey(expression) else { return expression }
            var isList = false
            if case .list = other.kind { isList = true }
            let otherSide: Typed? = objectKey(other) == nil && !isList ? try operand(other) : nil
            guard let otherSide, let target = linkTarget(otherSide) else {
                throw error("O\(key) is an object key: the other side must be a link, or a collection of links, to objects of one class", expression.range)
            }
            return QueryExpression(.objectLink(table: target, key: key), range: expression.range)
        }
        var bound = comparison
        bound.lhs = try bind(comparison.lhs, against: comparison.rhs)
        bound.rhs = try bind(comparison.rhs, against: comparison.lhs)
        return bound
    }

    /// The key of a bare `O<n>` that names no property of the class.
    private func objectKey(_ expression: QueryExpression) -> Int64? {
        guard case let .keyPath(path) = expression.kind, path.variable == nil, path.components.count == 1,
              let component = path.components.first, !component.isAtComponent, component.selector == nil,
              component.name.count > 1, component.name.first == "O",
              component.name.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
              classInfo.property(named: component.name) == nil else { return nil }
        return Int64(component.name.dropFirst())
    }

    /// The values of a list literal `{a, b}`, each with its range.
    private func listValues(_ elements: [QueryExpression]) throws -> [ListElement] {
        try elements.map { element in
            guard case let .constant(value) = try operand(element).operand else {
                throw error("the elements of a list {...} must be values (literals or arguments)", element.range)
            }
            return ListElement(range: element.range, constant: value)
        }
    }

    /// The values of the left-hand side when it is a list: `{a, b}`, or an argument given as a
    /// list; nil otherwise.
    private func leftHandList(_ comparison: QueryComparison) throws -> [ListElement]? {
        try listOperand(comparison.lhs)
    }

    /// `{a, b} op rhs`, `ALL {a, b} op rhs` (and list arguments), as realm-core reads them: the
    /// list's quantifier (ANY when none is written) over `a op rhs`, `b op rhs`, each compiled
    /// as a comparison with one value on the left (so `rhs` may be a value, or a collection with
    /// its own quantifier: `ANY {1, 2} == ALL scores`). A list and a collection without either
    /// quantifier compare position by position, as a collection and a list do. With a string
    /// operator, each value is tested against one string (`{'Ann', 'Bo'} BEGINSWITH name`).
    private func lowerLeftList(_ comparison: QueryComparison, _ list: [ListElement]) throws -> CompiledPredicate {
        if try listOperand(comparison.rhs) != nil {
            throw error("two lists cannot be compared: one side must be a property or a value", comparison.rhs.range)
        }
        let rhs = try operand(comparison.rhs)
        if comparison.op == .in && !rhs.isMultiValued {
            throw error("IN needs a collection on its right, not '\(comparison.rhs)'", comparison.rhs.range)
        }
        if comparison.quantifier == nil, comparison.rhsQuantifier == nil, !comparison.op.isStringOperator,
           case let .keyPath(path) = rhs.operand, path.isMultiValued {
            var options = StringOptions()
            if comparison.options.caseInsensitive { options.insert(.caseInsensitive) }
            if comparison.options.diacriticInsensitive { options.insert(.diacriticInsensitive) }
            try checkOptions(options, rhs, comparison)
            let op = (comparison.op == .in ? QueryComparisonOperator.equal : comparison.op).swappedComparison
            let tests = try list.map { element -> ElementTest in
                try checkComparable(rhs, element.typed, element.range)
                try checkLinkOperator(op, rhs, element.typed, element.range)
                return .compare(comparisonOperator(op), try coerce(element, toMatch: rhs), options)
            }
            return .elementwise(path, tests, differing: op == .notEqual)
        }
        var single = comparison
        single.quantifier = nil
        let parts = try list.map { element -> CompiledPredicate in
            single.lhs = QueryExpression(kind: comparison.lhs.kind, range: element.range)
            return try lower(single, lhs: element.typed)
        }
        switch comparison.quantifier ?? .any {
        case .any: return parts.isEmpty ? .constant(false) : .or(parts)
        case .all: return .all(parts)
        case .none: return parts.isEmpty ? .constant(true) : .not(.or(parts))
        }
    }

    /// `x op {a, b}`, `x op ANY|ALL|NONE {a, b}` (and list arguments), with realm-core's meaning:
    /// for one value x, `op` holds for any (all, none) of the list's values, any when no
    /// quantifier is written; `IN` is `==`. A collection with a quantifier of its own
    /// (`ALL scores > ANY {1, 2}`) or before the list applies the list's test to any (all, none)
    /// of its values. A collection and a list without either quantifier compare position by
    /// position (`scores == {1, 2}`: exactly these values in this order).
    private func lowerListComparison(_ comparison: QueryComparison, _ lhs: Typed,
                                     _ list: [ListElement], _ options: StringOptions) throws -> CompiledPredicate {
        let op = comparison.op == .in ? .equal : comparison.op
        try checkOptions(options, lhs, comparison)
        let operands = try list.map { element in
            try checkComparable(lhs, element.typed, element.range)
            try checkLinkOperator(op, lhs, element.typed, element.range)
            if op.isStringOperator { try checkStringOperands(op, [(lhs, comparison.lhs.range), (element.typed, element.range)]) }
            return try coerce(element, toMatch: lhs)
        }
        if op.isStringOperator && list.isEmpty { try checkStringOperands(op, [(lhs, comparison.lhs.range)]) }
        // Constants (all but `{8, 10} / age`) are looked up in a hashed list for == and IN.
        let constants: [Value]? = operands.allSatisfy { if case .constant = $0 { return true } else { return false } }
            ? operands.map { if case let .constant(value) = $0 { return value } else { return .null } } : nil
        func test(_ operand: Operand) -> ElementTest {
            op.isStringOperator ? .match(stringOperator(op), operand, options) : .compare(comparisonOperator(op), operand, options)
        }
        if case let .keyPath(path) = lhs.operand, path.isMultiValued {
            if comparison.quantifier == nil && comparison.rhsQuantifier == nil {
                return .elementwise(path, operands.map(test), differing: op == .notEqual)
            }
            let each: ElementTest
            switch comparison.rhsQuantifier ?? .any {
            case .any:
                if op == .equal, let constants { each = .isIn(InList(constants), options) } else { each = .not(.allOf(operands.map { .not(test($0)) })) }
            case .all: each = .allOf(operands.map(test))
            case .none:
                if op == .equal, let constants { each = .not(.isIn(InList(constants), options)) } else { each = .allOf(operands.map { .not(test($0)) }) }
            }
            return .quantified(quantifier(comparison.quantifier), path, each)
        }
        try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
        func condition(_ operand: Operand) -> CompiledPredicate {
            op.isStringOperator ? .match(lhs.operand, stringOperator(op), operand, options)
                : .compare(lhs.operand, comparisonOperator(op), operand, options)
        }
        switch comparison.rhsQuantifier ?? .any {
        case .any:
            if op == .equal, let constants { return .isIn(lhs.operand, InList(constants), options) }
            return operands.isEmpty ? .constant(false) : .or(operands.map(condition))
        case .all:
            return .all(operands.map(condition))
        case .none:
            if op == .equal, let constants { return .not(.isIn(lhs.operand, InList(constants), options)) }
            return operands.isEmpty ? .constant(true) : .not(.or(operands.map(condition)))
        }
    }

    private func stringOperator(_ op: QueryComparisonOperator) -> StringOperator {
        switch op {
        case .beginsWith: return .beginsWith
        case .endsWith: return .endsWith
        case .contains: return .contains
        case .text: return .fullText
        default: return .like
        }
    }

    private func comparisonOperator(_ op: QueryComparisonOperator) -> ComparisonOperator {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        default: return .greaterOrEqual
        }
    }

    /// TEXT: a string (or strings) on the left, one search string with a word to look for on
    /// the right.
    private func checkFullTextSearch(_ comparison: QueryComparison, _ lhs: Typed) throws {
        guard lhs.type == .string || lhs.type == nil else {
            throw error("TEXT searches strings, not \(lhs.type.map { $0.name } ?? "null")", comparison.lhs.range)
        }
        let search: Value
        switch comparison.rhs.kind {
        case .literal, .argument:
            guard case let .constant(value) = try operand(comparison.rhs).operand else { fallthrough }
            search = value
        default:
            throw error("TEXT takes one string of words to search for (a literal or an argument)", comparison.rhs.range)
        }
        guard case let .string(text) = search else {
            throw error("TEXT takes a string of words to search for, not \(search.propertyType?.name ?? "null")", comparison.rhs.range)
        }
        if comparison.rhsQuantifier != nil {
            throw error("TEXT takes one string of words to search for, not a list", comparison.rhs.range)
        }
        if FullTextSearch(text).isEmpty {
            throw error("TEXT needs a word to search for (letters or digits), not '\(text)'", comparison.rhs.range)
        }
    }

    private func checkStringOperands(_ op: QueryComparisonOperator, _ sides: [(Typed, Range<Int>)]) throws {
        for side in sides {
            guard side.0.type == nil || side.0.type == .string || side.0.type == .data else {
                throw error("\(op.rawValue) applies to strings and data, not \(side.0.type!.name)", side.1)
            }
        }
    }

    /// Links compare only for equality (`owner == $0`, `owner != nil`), and only with objects
    /// of the class they link to.
    private func checkLinkOperator(_ op: QueryComparisonOperator, _ a: Typed, _ b: Typed, _ range: Range<Int>) throws {
        guard a.type == .object || b.type == .object else { return }
        guard op == .equal || op == .notEqual || op == .in else {
            throw error("objects compare only with ==, != and IN, not \(op.rawValue)", range)
        }
        for (side, other) in [(a, b), (b, a)] {
            guard case let .constant(.link(link)) = other.operand, let target = linkTarget(side), target != link.table else { continue }
            let linked = (try? classes?.existingClass(tableID: target))??.name ?? "another class"
            let given = (try? classes?.existingClass(tableID: link.table))??.name ?? "another class"
            throw error("a link to '\(linked)' cannot be compared with an object of class '\(given)'", range)
        }
    }

    /// The table the objects of a link-valued operand belong to (nil for other operands).
    func linkTarget(_ typed: Typed) -> UInt32? {
        switch typed.operand {
        case let .property(property): return property.type == .object ? property.linkTarget : nil
        case let .keyPath(path):
            switch path.leaf {
            case let .property(property), let .elements(property, _), let .entry(property, _):
                return property.type == .object ? property.linkTarget : nil
            case let .objects(hop): return hop.target.tableID
            default: return nil
            }
        default: return nil
        }
    }

    private func checkOrderable(_ typed: Typed, _ range: Range<Int>) throws {
        if typed.type == .object { throw error("objects have no order: BETWEEN does not apply", range) }
    }

    /// `mixed.@type == 'double'`, `!= 'numeric'`, `IN {'int', 'string'}`.
    private func lowerTypeComparison(_ comparison: QueryComparison, _ path: CompiledKeyPath) throws -> CompiledPredicate {
        var names: [Value] = []
        let op: QueryComparisonOperator
        switch (comparison.op, comparison.rhs.kind, comparison.rhsQuantifier) {
        case (.equal, .list, nil), (.equal, .list, .any?), (.equal, .argument, .any?), (.in, _, nil), (.in, _, .any?): op = .in
        case (.equal, .list, QueryQuantifier.none?), (.equal, .argument, QueryQuantifier.none?), (.in, _, QueryQuantifier.none?): op = .in
        case (_, _, let quantifier?):
            throw error("@type compares with a list through IN, == ANY or == NONE, not \(comparison.op.rawValue) \(quantifier.rawValue)", comparison.rhs.range)
        default: op = comparison.op
        }
        let negated = comparison.rhsQuantifier == QueryQuantifier.none
        switch (op, comparison.rhs.kind) {
        case (.in, .list(let items)):
            for item in items {
                guard case let .constant(value) = try operand(item).operand else { throw error("@type is compared with type names", item.range) }
                names += try typeNames(value, item.range)
            }
        case (.in, .argument(let index)):
            for value in try argumentList(index, comparison.rhs.range) { names += try typeNames(value, comparison.rhs.range) }
        case (.equal, .keyPath), (.notEqual, .keyPath):
            // `mixed.@type == other.@type`: the two type names (one per value) are the same.
            let rhs = try operand(comparison.rhs)
            guard case let .keyPath(other) = rhs.operand, case .typeName = other.leaf else {
                throw error("@type is compared with a type name or with another @type", comparison.rhs.range)
            }
            let op: ComparisonOperator = comparison.op == .equal ? .equal : .notEqual
            if path.isMultiValued { return .quantified(quantifier(comparison.quantifier), path, .compare(op, rhs.operand, [])) }
            try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
            if other.isMultiValued { return .quantified(.any, other, .compare(op, .keyPath(path), [])) }
            return .compare(.keyPath(path), op, rhs.operand, [])
        case (.equal, _), (.notEqual, _):
            guard case let .constant(value) = try operand(comparison.rhs).operand else {
                throw error("@type is compared with a type name", comparison.rhs.range)
            }
            names = try typeNames(value, comparison.rhs.range)
        default:
            throw error("@type compares only with ==, != and IN", comparison.lhs.range)
        }
        let test: ElementTest = comparison.op == .notEqual || negated ? .not(.isIn(InList(names), [])) : .isIn(InList(names), [])
        if path.isMultiValued { return .quantified(quantifier(comparison.quantifier), path, test) }
        try rejectQuantifier(comparison.quantifier, comparison.lhs.range)
        // One value: a quantifier over that single value is the same test.
        return .quantified(.any, path, test)
    }

    func quantifier(_ quantifier: QueryQuantifier?) -> Quantifier {
        switch quantifier {
        case .all?: return .all
        case .none?: return .none
        default: return .any
        }
    }

    // MARK: Operands

    /// An operand and its type (nil for null).
    /// An element of a list literal or a list argument, with the range it was written at: a
    /// constant, or with arithmetic on a property (`{8, 10} / age`) a value of each object.
    struct ListElement {
        let range: Range<Int>
        let typed: Typed

        init(range: Range<Int>, typed: Typed) {
            self.range = range
            self.typed = typed
        }

        init(range: Range<Int>, constant value: Value) {
            self.init(range: range, typed: Typed(operand: .constant(value), type: value.propertyType))
        }
    }

    struct Typed {
        var operand: Operand
        var type: PropertyType?

        var isMultiValued: Bool {
            if case let .keyPath(path) = operand { return path.isMultiValued }
            return false
        }
    }

    func operand(_ expression: QueryExpression) throws -> Typed {
        switch expression.kind {
        case let .keyPath(path):
            switch try resolve(path) {
            case let .property(property):
                return Typed(operand: .property(property), type: property.type)
            case let .path(compiled):
                return Typed(operand: .keyPath(compiled), type: compiled.valueType)
            }
        case let .subquery(subquery):
            return Typed(operand: .keyPath(try self.subquery(subquery, expression.range)), type: .int)
        case let .object(className, primaryKeyExpression):
            return try objectLiteral(className, primaryKeyExpression, expression.range)
        case let .keyPathArgument(index):
            return try operand(try keyPathArgument(index, expression.range))
        case let .objectLink(table, key):
            guard let target = try classes?.existingClass(tableID: table) ?? (table == classInfo.tableID ? classInfo : nil) else {
                throw error("L\(table):\(key) names class key \(table), which no class of the realm has", expression.range)
            }
            return Typed(operand: .constant(.link(ObjectLink(table: target.tableID, key: key))), type: .object)
        case let .literal(literal):
            let value = try self.value(literal, expression.range)
            return Typed(operand: .constant(value), type: value.propertyType)
        case let .argument(index):
            guard index >= 0, index < arguments.count else { throw missingArgument("$\(index)", expression.range) }
            guard case let .value(value) = arguments[index] else {
                throw error("argument $\(index) is a list; a list is allowed only as a side of a comparison (as in age IN $\(index), age > ANY $\(index) or ALL $\(index) IN scores)", expression.range)
            }
            return Typed(operand: .constant(value), type: value.propertyType)
        case .list:
            throw error("a list {...} is allowed only as a side of a comparison (as in age IN {1, 2}, age > ANY {1, 2} or ALL {1, 2} IN scores)", expression.range)
        case let .negate(inner):
            let typed = try operand(inner)
            try requireNumeric(typed, inner.range)
            if case let .constant(value) = typed.operand {
                return Typed(operand: .constant(PredicateEvaluator.arithmetic(.int(0), .subtract, value)), type: typed.type)
            }
            return Typed(operand: .arithmetic(.constant(.int(0)), .subtract, typed.operand), type: typed.type)
        case let .arithmetic(op, a, b):
            for side in [a, b] where isList(side) {
                throw error("a list {...} in arithmetic is allowed only as a side of a comparison (as in {8, 10} / 2 > ANY scores)", side.range)
            }
            let left = try operand(a), right = try operand(b)
            if left.isMultiValued && right.isMultiValued {
                throw error("arithmetic between two collections is not supported: one side must have one value (or use an aggregate such as @sum)", b.range)
            }
            try requireNumeric(left, a.range)
            try requireNumeric(right, b.range)
            let arithmetic = arithmeticOperator(op)
            let type: PropertyType = left.type == .int && right.type == .int ? .int : .double
            if case let .constant(x) = left.operand, case let .constant(y) = right.operand {
                return Typed(operand: .constant(PredicateEvaluator.arithmetic(x, arithmetic, y)), type: type)
            }
            // A collection with one value (`scores * 2`): the arithmetic applies to each of its
            // values, and the result is compared as the collection would be.
            for (collection, other, elementFirst) in [(left, right, true), (right, left, false)] {
                if case var .keyPath(path) = collection.operand, path.isMultiValued {
                    path.arithmetic.append(ElementArithmetic(op: arithmetic, other: other.operand, elementFirst: elementFirst, resultType: type))
                    return Typed(operand: .keyPath(path), type: type)
                }
            }
            return Typed(operand: .arithmetic(left.operand, arithmetic, right.operand), type: type)
        }
    }

    private func arithmeticOperator(_ op: QueryArithmeticOperator) -> ArithmeticOperator {
        switch op {
        case .add: return .add
        case .subtract: return .subtract
        case .multiply: return .multiply
        case .divide: return .divide
        }
    }

    /// Whether an expression is a list literal or an argument given as a list.
    private func isList(_ expression: QueryExpression) -> Bool {
        switch expression.kind {
        case .list: return true
        case let .argument(index):
            guard index >= 0, index < arguments.count, case .list = arguments[index] else { return false }
            return true
        default: return false
        }
    }

    /// The values of an expression that is a list, `nil` for any other: a list literal, an
    /// argument given as a list, or arithmetic between a list and one constant value
    /// (`{8, 10} / 2` is `{4, 5}`, as in realm-core).
    func listOperand(_ expression: QueryExpression) throws -> [ListElement]? {
        switch expression.kind {
        case let .list(elements):
            return try listValues(elements)
        case let .argument(index):
            guard index >= 0, index < arguments.count, case .list = arguments[index] else { return nil }
            return try argumentList(index, expression.range).map { ListElement(range: expression.range, constant: $0) }
        case let .arithmetic(op, a, b):
            let lists = (try listOperand(a), try listOperand(b))
            let list: [ListElement], listSide: QueryExpression, other: QueryExpression, listFirst: Bool
            switch lists {
            case (nil, nil): return nil
            case (.some, .some): throw error("arithmetic between two lists is not supported: one side must be one value", b.range)
            case let (.some(values), nil): (list, listSide, other, listFirst) = (values, a, b, true)
            case let (nil, .some(values)): (list, listSide, other, listFirst) = (values, b, a, false)
            }
            let typed = try operand(other)
            if typed.isMultiValued {
                throw error("arithmetic on a list {...} needs one value on its other side, not the collection '\(other)'", listSide.range)
            }
            try requireNumeric(typed, other.range)
            let arithmetic = arithmeticOperator(op)
            return try list.map { element in
                if element.typed.type != nil { try requireNumeric(element.typed, element.range) }
                let type: PropertyType = element.typed.type == .int && typed.type == .int ? .int : .double
                let (x, y) = listFirst ? (element.typed.operand, typed.operand) : (typed.operand, element.typed.operand)
                if case let .constant(p) = x, case let .constant(q) = y {
                    return ListElement(range: element.range, constant: PredicateEvaluator.arithmetic(p, arithmetic, q))
                }
                // `{8, 10} / age`: a value of each object.
                return ListElement(range: element.range, typed: Typed(operand: .arithmetic(x, arithmetic, y), type: type))
            }
        default:
            return nil
        }
    }

    /// A SORT or DISTINCT key given as text, e.g. `owner.name`.
    package func propertyPath(_ text: String) throws -> PropertyPath {
        try propertyPath(QueryParser.parseKeyPath(text))
    }

    /// A key path whose value is read for each object (`value(forKeyPath:)`): a property with one
    /// value (a scalar, a mixed or a link), through any number of to-one links.
    package func valuePath(_ text: String) throws -> PropertyPath {
        try propertyPath(QueryParser.parseKeyPath(text), purpose: "a value's key path", scalarOnly: false)
    }

    /// A key path whose values are read for each object, through any links (`value(forKeyPath:)`
    /// through to-many links: `dogs.name`, `scores`, `dogs.@count`, `@links.Person.dogs.name`):
    /// every form a query's key path takes.
    package func valueListPath(_ text: String) throws -> CompiledKeyPath {
        switch try resolve(QueryParser.parseKeyPath(text)) {
        case let .property(property): return CompiledKeyPath(hops: [], leaf: .property(property))
        case let .path(path): return path
        }
    }

    /// A SORT or DISTINCT key: a property with one scalar value, through any number of to-one links.
    func propertyPath(_ path: QueryKeyPath, purpose: String = "SORT and DISTINCT", scalarOnly: Bool = true) throws -> PropertyPath {
        var links: [PropertyInfo] = []
        var current = classInfo
        for (index, component) in path.components.enumerated() {
            guard !component.isAtComponent, component.selector == nil else {
                throw error("\(purpose) can name properties only, through to-one links (owner.name), not \(component.display)", component.range)
            }
            guard let property = current.property(named: component.name) else {
                throw error("'\(current.name)' has no property named '\(component.name)'", component.range)
            }
            if index == path.components.count - 1 {
                guard scalarOnly ? property.isScalar : property.column.holdsSingleValue else {
                    let needed = scalarOnly ? "one scalar value" : "one value"
                    throw error("\(purpose) cannot end at '\(current.name).\(property.name)' (\(property.property.typeDescription)): only properties with \(needed) can be used", component.range)
                }
                return PropertyPath(links: links, property: property)
            }
            guard property.type == .object, property.collection == .none, let target = property.linkTarget,
                  let next = try classes?.existingClass(tableID: target) else {
                throw error("\(purpose) can follow only to-one links; '\(current.name).\(property.name)' is \(property.property.typeDescription)", component.range)
            }
            links.append(property)
            current = next
        }
        throw error("expected a property", path.range)
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

    /// `obj('Class', primaryKey)`: a link to that object, or null when no object has the key (as
    /// realm-core, which looks the object up when the query is built).
    private func objectLiteral(_ className: String, _ primaryKeyExpression: QueryExpression, _ range: Range<Int>) throws -> Typed {
        guard let lookup = classes else { throw error("obj(...) needs the realm's schema", range) }
        guard let target = try lookup.existingClass(named: className) else {
            throw error("obj(...) names no class of the schema: there is no class named '\(className)'", range)
        }
        guard target.primaryKey != nil else {
            throw error("obj(...) finds objects by primary key; class '\(className)' has none", range)
        }
        guard case let .constant(value) = try operand(primaryKeyExpression).operand else {
            throw error("the primary key of obj(...) is a literal or an argument", primaryKeyExpression.range)
        }
        let key: Int64?
        do {
            key = try lookup.objectKey(target, primaryKey: value)
        } catch let failure as DBError where failure.code == .wrongType || failure.code == .invalidArgument {
            throw error("obj('\(className)', ...): \(failure.message)", primaryKeyExpression.range)
        }
        guard let key else { return Typed(operand: .constant(.null), type: .object) }
        return Typed(operand: .constant(.link(ObjectLink(table: target.tableID, key: key))), type: .object)
    }

    /// `$K<n>`: argument n, a string, read as a key path of the queried class.
    private func keyPathArgument(_ index: Int, _ range: Range<Int>) throws -> QueryExpression {
        let text = try textArgument(index, written: "$K\(index)", range,
                                    otherwise: "$K\(index) is a key path argument: give it as a string such as \"owner.name\"")
        let path: QueryKeyPath
        do {
            path = try QueryParser.parseKeyPath(text)
        } catch let error as DBError {
            throw self.error("$K\(index) ('\(text)') is not a key path: \(error.message)", range)
        }
        // Offsets of the path's parts are in the argument's text: report them at `$K<n>` instead.
        let components = path.components.map { QueryKeyPath.Component($0.name, isAtComponent: $0.isAtComponent, selector: $0.selector, range: range) }
        return QueryExpression(.keyPath(QueryKeyPath(components, variable: path.variable, range: range)), range: range)
    }

    /// Argument `index` as text (a key path's or a shape's), written `written` in the query; an
    /// error with the message `otherwise` when it is not a string.
    func textArgument(_ index: Int, written: String, _ range: Range<Int>, otherwise: String) throws -> String {
        guard index >= 0, index < arguments.count else { throw missingArgument(written, range) }
        guard case let .value(.string(text)) = arguments[index] else { throw error(otherwise, range) }
        return text
    }

    func missingArgument(_ written: String, _ range: Range<Int>) -> DBError {
        error("argument \(written) was not given (the query has \(arguments.count) argument\(arguments.count == 1 ? "" : "s"))", range)
    }

    func argumentList(_ index: Int, _ range: Range<Int>) throws -> [Value] {
        guard index >= 0, index < arguments.count else { throw missingArgument("$\(index)", range) }
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
        guard let x = a.type, let y = b.type, x != .mixed, y != .mixed else { return }
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
        guard case let .property(property) = other.operand else {
            if case let .keyPath(path) = other.operand { return try coerce(value, toMatch: path.valueType, range) }
            return value
        }
        return try coerce(value, toMatch: property.type, range)
    }

    /// A list element's operand, its constant converted as `coerce(_:toMatch:_:)` converts one.
    private func coerce(_ element: ListElement, toMatch other: Typed) throws -> Operand {
        guard case let .constant(value) = element.typed.operand else { return element.typed.operand }
        return .constant(try coerce(value, toMatch: other, element.range))
    }

    private func coerce(_ value: Value, toMatch type: PropertyType?, _ range: Range<Int>) throws -> Value {
        switch (type, value) {
        case let (.decimal128?, .int(i)): return .decimal128(Decimal128(integer: i))
        case let (.data?, .string(s)): return .data(Array(s.utf8))
        default: return value
        }
    }

    func rejectQuantifier(_ quantifier: QueryQuantifier?, _ range: Range<Int>) throws {
        if let quantifier {
            throw error("\(quantifier.rawValue) applies to a key path through a collection (as in \(quantifier.rawValue) dogs.age > 5)", range)
        }
    }

    func error(_ message: String, _ range: Range<Int>) -> DBError {
        DBError(.query, "\(message) (at offset \(range.lowerBound))", offset: range.lowerBound)
    }
}
