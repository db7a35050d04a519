/// Evaluates a predicate one cluster at a time.
///
/// For each cluster the scan hands over the blocks of every column the predicate reads (zero-copy);
/// the evaluator starts from the presence mask and lets each condition clear the slots that fail
/// it. AND narrows the mask condition by condition, so later conditions look only at the slots
/// still standing; OR unions its children's results; NOT keeps what its child cleared.
/// Comparisons of a property with a constant read the block's bytes directly; everything else
/// reads values per slot.
struct PredicateEvaluator {
    let classInfo: ClassInfo
    let predicate: CompiledPredicate
    /// The columns the scan must provide, in the order of their blocks in `ClusterScan.blocks`.
    let columns: [UInt32]
    /// Reads key paths through links and collections during a run; nil when the predicate
    /// reads none (no allocation for plain queries).
    private let keyPaths: KeyPathContext?

    init(classInfo: ClassInfo, predicate: CompiledPredicate, extraColumns: [UInt32] = []) {
        self.classInfo = classInfo
        self.predicate = predicate
        var columns: [UInt32] = []
        for column in predicate.columns.map(\.columnID) + extraColumns where !columns.contains(column) {
            columns.append(column)
        }
        self.columns = columns
        keyPaths = predicate.readsKeyPaths ? KeyPathContext() : nil
    }

    /// Lets a SUBQUERY's evaluator read key paths through its outer query's reader.
    func attach(_ reader: KeyPathReader) {
        keyPaths?.reader = reader
    }

    /// The block of a column in the current cluster.
    func block(_ column: UInt32, in scan: ClusterScan) -> ColumnBlockView? {
        // A linear search: a predicate reads a few columns, and comparing them costs less than
        // hashing one key (this runs once per condition per cluster).
        columns.firstIndex(of: column).flatMap { scan.blocks[$0] }
    }

    /// The access path `IndexPlanner` chooses for this predicate at `transaction`.
    func accessPath(_ transaction: StorageTransaction) throws -> QueryPlan.AccessPath {
        try IndexPlanner(classInfo: classInfo, predicate: predicate).accessPath(transaction)
    }

    /// Calls `body` with every cluster that has matches and its mask of matches, in key order,
    /// reading the clusters the planner's access path names (see `run(_:through:_:)`).
    func run(_ transaction: StorageTransaction, _ body: (ClusterScan, SlotMask) throws -> Bool) throws {
        try run(transaction, through: try accessPath(transaction), body)
    }

    /// The keys of the matching objects, ascending. An exact index answers without reading any
    /// object.
    func matchingKeys(_ transaction: StorageTransaction, through access: QueryPlan.AccessPath) throws -> [Int64] {
        if case let .indexExact(keys) = access { return keys.sortedObjectKeys() }
        var keys: [Int64] = []
        try run(transaction, through: access) { scan, mask in
            mask.forEach { keys.append(scan.key($0)) }
            return true
        }
        return keys
    }

    /// How many objects match, without materializing them.
    func matchCount(_ transaction: StorageTransaction) throws -> Int {
        if case .constant(true) = predicate { return try transaction.objectCount(table: classInfo.tableID) }
        return try matchCount(transaction, through: try accessPath(transaction))
    }

    /// `matchCount` through an access path already chosen.
    func matchCount(_ transaction: StorageTransaction, through access: QueryPlan.AccessPath) throws -> Int {
        if case let .indexExact(keys) = access { return keys.count }
        var count = 0
        try run(transaction, through: access) { _, mask in
            count += mask.count
            return true
        }
        return count
    }

    /// Which of `keys` match (reading only their clusters).
    func matches(among keys: [Int64], _ transaction: StorageTransaction) throws -> Set<Int64> {
        var matching = Set<Int64>()
        try run(transaction, through: .indexCandidates(keys)) { scan, mask in
            mask.forEach { matching.insert(scan.key($0)) }
            return true
        }
        return matching
    }

    /// Calls `body` with every cluster that has matches, in key order: for index keys (exact or
    /// candidates alike: each is checked) only their clusters and slots; for a cluster scan,
    /// every cluster of the class.
    private func run(_ transaction: StorageTransaction, through access: QueryPlan.AccessPath,
                     _ body: (ClusterScan, SlotMask) throws -> Bool) throws {
        if let keyPaths {
            // Linked objects are read from stored blocks: a write's decoded blocks go back first.
            if transaction.isWrite { try transaction.writeBackBlocks(table: nil) }
            keyPaths.reader = KeyPathReader(transaction)
        }
        defer {
            keyPaths?.reader?.close()
            keyPaths?.reader = nil
        }
        switch access {
        case .clusterScan:
            try transaction.scanColumns(table: classInfo.tableID, columns: columns) { scan in
                var mask = SlotMask(presence: scan)
                try filter(predicate, &mask, scan)
                return mask.isEmpty ? true : try body(scan, mask)
            }
        case let .indexExact(indexKeys), let .indexCandidates(indexKeys):
            let keys = indexKeys.sortedObjectKeys()
            var i = 0
            while i < keys.count {
                let cluster = keys[i] >> Int64(StorageKeys.clusterShift)
                var slots: [Int] = []
                while i < keys.count && keys[i] >> Int64(StorageKeys.clusterShift) == cluster {
                    slots.append(Int(keys[i] & StorageKeys.clusterMask))
                    i += 1
                }
                guard let scan = try transaction.clusterScan(table: classInfo.tableID, cluster: cluster, columns: columns) else { continue }
                var mask = SlotMask(slots: slots) & SlotMask(presence: scan)
                try filter(predicate, &mask, scan)
                if !mask.isEmpty { guard try body(scan, mask) else { return } }
            }
        }
    }

    /// Clears the slots of `mask` for which `predicate` is false.
    func filter(_ predicate: CompiledPredicate, _ mask: inout SlotMask, _ scan: ClusterScan) throws {
        switch predicate {
        case let .constant(value):
            if !value { mask = SlotMask() }
        case let .and(children):
            for child in children {
                if mask.isEmpty { return }
                try filter(child, &mask, scan)
            }
        case let .or(children):
            var matched = SlotMask(), remaining = mask
            for child in children {
                if remaining.isEmpty { break }
                var childMask = remaining
                try filter(child, &childMask, scan)
                matched = matched | childMask
                remaining = remaining.subtracting(childMask)
            }
            mask = matched
        case let .not(child):
            var childMask = mask
            try filter(child, &childMask, scan)
            mask = mask.subtracting(childMask)
        case let .compare(lhs, op, rhs, options):
            if case let .property(property) = lhs, case let .constant(constant) = rhs {
                try filterCompare(property, op, constant, options, &mask, scan)
            } else if case let .constant(constant) = lhs, case let .property(property) = rhs {
                try filterCompare(property, op.swapped, constant, options, &mask, scan)
            } else {
                try mask.filter { slot in
                    Self.compare(try value(lhs, slot, scan), op, try value(rhs, slot, scan), options)
                }
            }
        case let .match(lhs, op, rhs, options):
            if case let .property(property) = lhs, case let .constant(.string(pattern)) = rhs, options.isEmpty,
               property.type == .string {
                let bytes = Array(pattern.utf8)
                let block = self.block(property.columnID, in: scan)
                // Unwritten slots read as null (optional: never matches) or "" (required).
                let unwrittenMatches = !property.isOptional && StringMatching.matches("", op, pattern)
                if op == .fullText {
                    let search = FullTextSearch(pattern)  // once per cluster, not once per string
                    mask.filter { slot in
                        guard let block, slot < block.count, !block.isNull(slot) else { return unwrittenMatches }
                        return search.matches(bytes: block.variableBytes(slot))
                    }
                } else {
                    mask.filter { slot in
                        guard let block, slot < block.count, !block.isNull(slot) else { return unwrittenMatches }
                        return StringMatching.matches(bytes: block.variableBytes(slot), op, bytes)
                    }
                }
            } else {
                let folded: String?
                if case let .constant(.string(pattern)) = rhs { folded = DiacriticFolding.fold(pattern, options) } else { folded = nil }
                try mask.filter { slot in
                    let text = try value(lhs, slot, scan)
                    let pattern = try folded.map(Value.string) ?? value(rhs, slot, scan)
                    return Self.match(text, op, pattern, options, patternFolded: folded != nil)
                }
            }
        case let .isIn(operand, values, options):
            try mask.filter { slot in
                let candidate = try value(operand, slot, scan)
                return values.contains(candidate, options: options)
            }
        case let .quantified(quantifier, path, test):
            try mask.filter { slot in
                let values = try keyPathValues(path, slot, scan)
                switch quantifier {
                case .any: return try values.contains { try passes($0, test, slot, scan) }
                case .all: return try values.allSatisfy { try passes($0, test, slot, scan) }
                case .none: return try !values.contains { try passes($0, test, slot, scan) }
                }
            }
        case let .elementwise(path, tests, differing):
            try mask.filter { slot in
                let values = try keyPathValues(path, slot, scan)
                guard values.count == tests.count else { return differing }
                return try zip(values, tests).allSatisfy { try passes($0, $1, slot, scan) }
            }
        case let .pairwise(left, op, right, options):
            try mask.filter { slot in
                let a = try keyPathValues(left, slot, scan), b = try keyPathValues(right, slot, scan)
                guard a.count == b.count else { return op == .notEqual }
                return zip(a, b).allSatisfy { Self.compare($0, op, $1, options) }
            }
        }
    }

    /// Whether one value of a quantified key path passes its test.
    private func passes(_ element: Value, _ test: ElementTest, _ slot: Int, _ scan: ClusterScan) throws -> Bool {
        switch test {
        case let .compare(op, .constant(constant), options):
            return Self.compare(element, op, constant, options)
        case let .compare(op, operand, options):
            return try otherValues(operand, slot, scan).contains { Self.compare(element, op, $0, options) }
        case let .quantifiedCompare(quantifier, op, operand, options):
            let others = try otherValues(operand, slot, scan)
            switch quantifier {
            case .any: return others.contains { Self.compare(element, op, $0, options) }
            case .all: return others.allSatisfy { Self.compare(element, op, $0, options) }
            case .none: return !others.contains { Self.compare(element, op, $0, options) }
            }
        case let .match(op, operand, options):
            return try otherValues(operand, slot, scan).contains { Self.match(element, op, $0, options, patternFolded: false) }
        case let .isIn(values, options):
            return values.contains(element, options: options)
        case let .geoWithin(test):
            guard case let .link(link) = element, link.table == test.table else { return false }
            guard let reader = keyPaths?.reader else { throw DBError(.internal, "a location was read outside a query run") }
            return try test.contains(link.key, reader)
        case let .not(inner):
            return try !passes(element, inner, slot, scan)
        case let .allOf(tests):
            return try tests.allSatisfy { try passes(element, $0, slot, scan) }
        }
    }

    /// The values of the other side of a quantified comparison (several for a multi-valued key path).
    private func otherValues(_ operand: Operand, _ slot: Int, _ scan: ClusterScan) throws -> [Value] {
        if case let .keyPath(path) = operand, path.isMultiValued { return try keyPathValues(path, slot, scan) }
        return [try value(operand, slot, scan)]
    }

    private func keyPathValues(_ path: CompiledKeyPath, _ slot: Int, _ scan: ClusterScan) throws -> [Value] {
        guard let reader = keyPaths?.reader else { throw DBError(.internal, "a key path was read outside a query run") }
        let values = try reader.values(path, table: classInfo.tableID, key: scan.key(slot))
        guard !path.arithmetic.isEmpty else { return values }
        var result = values
        for step in path.arithmetic {
            let other = try value(step.other, slot, scan)
            result = result.map { step.elementFirst ? Self.arithmetic($0, step.op, other) : Self.arithmetic(other, step.op, $0) }
        }
        return result
    }

    // MARK: Values

    /// The value of an operand for one slot.
    func value(_ operand: Operand, _ slot: Int, _ scan: ClusterScan) throws -> Value {
        switch operand {
        case let .constant(value): return value
        case let .property(property):
            guard let block = block(property.columnID, in: scan) else {
                return property.isOptional ? .null : property.type.defaultValue
            }
            return block.value(at: slot, type: property.type, optional: property.isOptional)
        case let .arithmetic(a, op, b):
            return Self.arithmetic(try value(a, slot, scan), op, try value(b, slot, scan))
        case let .keyPath(path):
            return try keyPathValues(path, slot, scan).first ?? .null
        }
    }

    /// Arithmetic on numbers: int with int stays int (division by zero gives null), unless the
    /// exact result does not fit in 64 bits: then it is the double nearest to it, never a wrapped
    /// int. Anything with a float, double or decimal is double. Null or a non-number gives null.
    static func arithmetic(_ a: Value, _ op: ArithmeticOperator, _ b: Value) -> Value {
        if case let .int(x) = a, case let .int(y) = b {
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
            case .divide:
                if y == 0 { return .null }
                (result, overflow) = x.dividedReportingOverflow(by: y)
            }
            guard overflow else { return .int(result) }
            let (wideX, wideY) = (Int128(x), Int128(y))
            switch op {
            case .add: return .double(Double(wideX + wideY))
            case .subtract: return .double(Double(wideX - wideY))
            case .multiply: return .double(Double(wideX * wideY))
            case .divide: return .double(Double(wideX / wideY))
            }
        }
        guard let x = a.numericValue, let y = b.numericValue else { return .null }
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide: return .double(x / y)
        }
    }

    /// Query comparison semantics (see `ValueOrdering`), with string options.
    static func compare(_ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: StringOptions) -> Bool {
        var a = a, b = b
        if !options.isEmpty, case let .string(x) = a, case let .string(y) = b {
            a = .string(DiacriticFolding.fold(x, options))
            b = .string(DiacriticFolding.fold(y, options))
        }
        switch op {
        case .equal: return ValueOrdering.equal(a, b)
        case .notEqual: return !ValueOrdering.equal(a, b)
        default:
            guard !a.isNull, !b.isNull, let order = ValueOrdering.compare(a, b) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// A string operator on one value. A null pattern is realm-core's: `LIKE NULL` matches null
    /// values only, and `CONTAINS`, `BEGINSWITH` and `ENDSWITH NULL` match every value (null
    /// included), as the empty pattern would; a null value matches no other pattern.
    static func match(_ text: Value, _ op: StringOperator, _ pattern: Value, _ options: StringOptions, patternFolded: Bool) -> Bool {
        if pattern.isNull { return op == .like ? text.isNull : true }
        switch (text, pattern) {
        case let (.string(t), .string(p)):
            return StringMatching.matches(DiacriticFolding.fold(t, options), op, patternFolded ? p : DiacriticFolding.fold(p, options))
        case let (.data(t), .data(p)):
            return t.withUnsafeBytes { StringMatching.matches(bytes: $0, op, p) }
        default:
            return false
        }
    }
}

/// The per-run state of an evaluator whose predicate reads key paths (a class, so that the
/// evaluator itself stays a value).
final class KeyPathContext {
    var reader: KeyPathReader?
}
