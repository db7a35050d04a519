/// Chooses a query's access path (`QueryPlan.AccessPath`): an index that answers or narrows it,
/// or a cluster scan.
///
/// Looks at the top-level conditions (the children of an AND, nested ANDs flattened, or the
/// predicate itself) that compare an indexed property with a constant: `==` (sized in O(1) by
/// LMDB's duplicate count), `IN`, ranges (`<`, `<=`, `>`, `>=`, `BETWEEN`) and `BEGINSWITH` (also
/// `[c]`, through the case variants of its first ASCII letters). A compound index serves
/// equalities on its leading properties plus a range or equality on the next one. The smallest
/// candidate set wins; a range or prefix that would return more than an eighth of the table is
/// abandoned, since a scan is cheaper then. Candidates are a superset unless the plan says it
/// is exact (every condition answered by the index).
struct IndexPlanner {
    let classInfo: ClassInfo
    let predicate: CompiledPredicate

    /// The top-level conditions, nested ANDs flattened.
    private var conjuncts: [CompiledPredicate] {
        func flatten(_ predicate: CompiledPredicate) -> [CompiledPredicate] {
            if case let .and(children) = predicate { return children.flatMap(flatten) }
            return [predicate]
        }
        return flatten(predicate)
    }

    /// What an index contributed: candidate keys (in index order) and whether they are exactly
    /// the matches.
    private struct IndexPlan {
        var keys: [Int64]
        var isExact: Bool
    }

    /// The cheapest way to the matches at `transaction`.
    func accessPath(_ transaction: StorageTransaction) throws -> QueryPlan.AccessPath {
        guard let best = try plan(transaction) else { return .clusterScan }
        return best.isExact ? .indexExact(best.keys) : .indexCandidates(best.keys)
    }

    /// The best index plan, or nil when no index helps.
    private func plan(_ transaction: StorageTransaction) throws -> IndexPlan? {
        let conjuncts = self.conjuncts
        let total = try transaction.objectCount(table: classInfo.tableID)
        let budget = max(total / 8, 64)
        // Compound scans cannot be sized before reading them: a tighter budget.
        var best: IndexPlan? = try compoundPlan(conjuncts, transaction, limit: max(budget / 4, 64))
        if let best, best.isExact || best.keys.count <= 8 { return best }
        // Conditions sized in O(1) (==, IN) first, so that ranges and prefixes, which can only be
        // sized by reading them, stop as soon as they are no better.
        for conjunct in conjuncts.sorted(by: { Self.isSized($0) && !Self.isSized($1) }) {
            let limit = min(best.map { $0.keys.count } ?? budget, budget)
            guard let keys = try candidates(conjunct, transaction, limit: limit) else { continue }
            if best == nil || keys.count < best!.keys.count {
                best = IndexPlan(keys: keys, isExact: conjuncts.count == 1 && isExactlyAnswered(conjunct))
            }
            if best!.keys.count <= 8 { break }
        }
        return best
    }

    /// Whether an index answers a condition exactly (no re-check): equality and IN always (long
    /// strings are confirmed against the stored value), ranges on fixed-width types (truncated
    /// long strings order only by their first bytes), case-sensitive string prefixes no longer
    /// than the index keeps of a string.
    private func isExactlyAnswered(_ condition: CompiledPredicate) -> Bool {
        switch condition {
        case let .compare(lhs, op, rhs, _):
            switch (lhs, rhs) {
            case let (.property(property), _), let (_, .property(property)):
                return op == .equal || property.type.fixedWidth != nil
            default:
                return false
            }
        case .isIn: return true
        case let .match(_, .beginsWith, .constant(.string(prefix)), options):
            // The index holds the first `maxPayload` bytes of each string: a longer prefix
            // gives candidates, which must be confirmed.
            return options.isEmpty && prefix.utf8.count <= IndexKeyEncoding.maxPayload
        default: return false
        }
    }

    /// The compound index plan that constrains the most leading properties, if any. Only plans
    /// with an equality on the first property are considered: a range alone cannot be sized
    /// without reading it (single-property indexes size ranges by their distinct values), and a
    /// compound index is ordered by later properties within equal values anyway. The plan
    /// constraining most properties runs first; a plan that would return more than `limit` keys
    /// is abandoned for the next.
    private func compoundPlan(_ conjuncts: [CompiledPredicate], _ transaction: StorageTransaction, limit: Int) throws -> IndexPlan? {
        // `answered`: how many conjuncts the plan uses. Each is a different conjunct (one per
        // property, and a range's two bounds are two comparisons), so a count is enough.
        typealias Candidate = (index: CompoundIndexSpec, equal: [Value], lower: StorageTransaction.IndexBound?,
                               upper: StorageTransaction.IndexBound?, answered: Int, score: Int)
        guard !classInfo.compoundIndexes.isEmpty else { return nil }
        let comparisons = conjuncts.map(comparison)
        var candidates: [Candidate] = []
        for (index, properties) in classInfo.compoundIndexes {
            var equal: [Value] = [], answered = 0
            equal.reserveCapacity(properties.count)
            var lower: StorageTransaction.IndexBound?, upper: StorageTransaction.IndexBound?
            for property in properties {
                if let found = comparisons.first(where: { $0?.property.columnID == property.columnID && $0?.op == .equal }) {
                    equal.append(found!.value)
                    answered += 1
                    continue
                }
                for case let (comparedProperty, op, value)? in comparisons where comparedProperty.columnID == property.columnID {
                    if (op == .greater || op == .greaterOrEqual) && lower == nil {
                        lower = .init(value: value, inclusive: op == .greaterOrEqual)
                        answered += 1
                    } else if (op == .less || op == .lessOrEqual) && upper == nil {
                        upper = .init(value: value, inclusive: op == .lessOrEqual)
                        answered += 1
                    }
                }
                break
            }
            guard !equal.isEmpty else { continue }
            candidates.append((index, equal, lower, upper, answered, equal.count + (lower != nil || upper != nil ? 1 : 0)))
        }
        if candidates.count > 1 { candidates.sort { $0.score > $1.score } }
        for candidate in candidates {
            guard let keys = try transaction.compoundIndexScan(table: classInfo.tableID, index: candidate.index, equal: candidate.equal,
                                                               lower: candidate.lower, upper: candidate.upper, limit: limit) else { continue }
            return IndexPlan(keys: keys, isExact: candidate.answered == conjuncts.count)
        }
        return nil
    }

    /// `property op constant` (either way round, normalized to that order) without string
    /// options, with the constant as the property's type; a null constant only for `==` on an
    /// optional property.
    private func comparison(_ condition: CompiledPredicate) -> (property: PropertyInfo, op: ComparisonOperator, value: Value)? {
        guard case let .compare(lhs, written, rhs, options) = condition, options.isEmpty else { return nil }
        let property: PropertyInfo, constant: Value, op: ComparisonOperator
        switch (lhs, rhs) {
        case let (.property(p), .constant(c)): (property, constant, op) = (p, c, written)
        case let (.constant(c), .property(p)): (property, constant, op) = (p, c, written.swapped)
        default: return nil
        }
        guard let value = typed(constant, for: property), !value.isNull || op == .equal else { return nil }
        return (property, op, value)
    }

    private func candidates(_ condition: CompiledPredicate, _ transaction: StorageTransaction, limit: Int) throws -> [Int64]? {
        let table = classInfo.tableID
        switch condition {
        case .compare:
            guard let (property, op, value) = comparison(condition), property.column.isIndexed else { return nil }
            switch op {
            case .equal:
                guard try transaction.indexCount(table: table, column: property.columnID, value: value) <= limit else { return nil }
                return try transaction.indexLookup(table: table, column: property.column, value: value)
            case .notEqual:
                return nil
            case .less, .lessOrEqual:
                return try transaction.indexRange(table: table, column: property.columnID, lower: nil,
                                                  upper: .init(value: value, inclusive: op == .lessOrEqual), limit: limit)
            case .greater, .greaterOrEqual:
                return try transaction.indexRange(table: table, column: property.columnID,
                                                  lower: .init(value: value, inclusive: op == .greaterOrEqual), upper: nil, limit: limit)
            }
        case let .isIn(.property(property), values, options):
            var keys: [Int64] = []
            guard property.column.isIndexed, options.isEmpty else { return nil }
            var looked = Set<Value>()  // a value listed twice (or 1 and 1.0) is looked up once
            for constant in values.values {
                guard let value = typed(constant, for: property) else { return nil }
                guard looked.insert(value).inserted else { continue }
                guard try transaction.indexCount(table: table, column: property.columnID, value: value) + keys.count <= limit else { return nil }
                keys += try transaction.indexLookup(table: table, column: property.column, value: value)
            }
            return keys
        case let .match(.property(property), .beginsWith, .constant(.string(prefix)), options)
            where property.column.isIndexed && property.type == .string && !options.contains(.diacriticInsensitive):
            var keys: [Int64] = []
            for variant in options.contains(.caseInsensitive) ? caseVariants(prefix) : [prefix] {
                guard let found = try transaction.indexPrefix(table: table, column: property.columnID, prefix: Array(variant.utf8),
                                                              limit: limit - keys.count) else { return nil }
                keys += found
            }
            return keys
        default:
            return nil
        }
    }

    private static func isSized(_ condition: CompiledPredicate) -> Bool {
        switch condition {
        case .isIn: return true
        case let .compare(_, op, _, _): return op == .equal
        default: return false
        }
    }

    /// The constant as the property's stored type (null only for an optional property), or nil
    /// when an index of the property cannot hold it.
    private func typed(_ constant: Value, for property: PropertyInfo) -> Value? {
        if constant.isNull { return property.isOptional ? .null : nil }
        guard constant.propertyType == property.type else { return nil }
        return constant
    }

    /// Spellings of a prefix that cover every string whose lowercase starts with the prefix's
    /// lowercase: the upper and lower case of each leading ASCII letter (and the Kelvin sign for k,
    /// the dotted capital I for i),
    /// up to the first non-ASCII character or 5 letters (at most 32 variants). The evaluator
    /// re-checks the full prefix.
    private func caseVariants(_ prefix: String) -> [String] {
        var variants = [""]
        for scalar in prefix.unicodeScalars.prefix(5) {
            guard scalar.isASCII else { break }
            var spellings = [String(scalar).lowercased(), String(scalar).uppercased()]
            // Scalars whose lowercase starts with an ASCII letter: the Kelvin sign ("k") and
            // the dotted capital I ("i" + combining dot).
            if scalar == "k" || scalar == "K" { spellings.append("\u{212A}") }
            if scalar == "i" || scalar == "I" { spellings.append("\u{130}") }
            // Deduplicate by bytes: Swift's String equality is canonical equivalence, under which
            // the Kelvin sign *is* "K" and a Set would drop it.
            var unique: [String] = []
            for spelling in spellings where !unique.contains(where: { $0.utf8.elementsEqual(spelling.utf8) }) {
                unique.append(spelling)
            }
            variants = variants.flatMap { v in unique.map { v + $0 } }
        }
        return variants
    }
}
