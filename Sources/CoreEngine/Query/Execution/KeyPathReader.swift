/// Reads the values of compiled key paths (`CompiledKeyPath`) for objects of one transaction.
///
/// Objects reached through links are read block by block: the last block of each column is kept
/// (zero-copy), so objects created together, whose keys are close, cost one block lookup per
/// cluster rather than one per value. Collections are decoded from their slot as they are read;
/// `@count` of a list or set reads only the element count at the start of the encoding.
///
/// The transaction must not change while a reader is in use. Inside a write, the evaluator first
/// writes every decoded block back (`StorageTransaction.writeBackBlocks`), so that the stored
/// blocks this reader sees are the write's current state.
final class KeyPathReader {
    let transaction: StorageTransaction
    private var lastBlocks: [UInt64: (cluster: Int64, view: ColumnBlockView?)] = [:]
    /// Per SUBQUERY: its evaluator and the cluster it read last.
    private var subqueries: [ObjectIdentifier: SubqueryState] = [:]

    private struct SubqueryState {
        let evaluator: PredicateEvaluator
        var scan: ClusterScan?
    }

    init(_ transaction: StorageTransaction) {
        self.transaction = transaction
    }

    // MARK: Slots

    /// The block holding an object's slot of a column (nil when never written).
    private func block(table: UInt32, column: UInt32, key: Int64) throws -> ColumnBlockView? {
        let cluster = key >> Int64(StorageKeys.clusterShift)
        let id = UInt64(table) << 32 | UInt64(column)
        if let cached = lastBlocks[id], cached.cluster == cluster { return cached.view }
        let view = try transaction.storedBlockView(BlockKey(table: table, column: column, cluster: cluster))
        lastBlocks[id] = (cluster, view)
        return view
    }

    /// The stored slot value (links as object keys, collections and mixed values encoded).
    func slot(table: UInt32, column: ColumnSpec, key: Int64) throws -> Value {
        let slot = Int(key & StorageKeys.clusterMask)
        guard let view = try block(table: table, column: column.id, key: key) else {
            return column.isOptional ? .null : column.type.defaultValue
        }
        return view.value(at: slot, type: column.type, optional: column.isOptional)
    }

    /// The value a reader sees: links as `.link`, mixed values decoded.
    func value(table: UInt32, column: ColumnSpec, key: Int64) throws -> Value {
        let stored = try slot(table: table, column: column, key: key)
        return column.isScalar ? stored : column.userValue(stored)
    }

    /// A collection's contents (a dictionary as key, value, key, value, ...).
    func collection(table: UInt32, column: ColumnSpec, key: Int64) throws -> [Value] {
        let slot = Int(key & StorageKeys.clusterMask)
        guard let view = try block(table: table, column: column.id, key: key), slot < view.count, !view.isNull(slot) else { return [] }
        let bytes = view.variableBytes(slot)
        if bytes.isEmpty { return [] }
        let contents = try PackedValues.decode(Array(bytes))
        return CollectionOrdering.mayNeedNormalizing(column) ? CollectionOrdering.normalizedSet(contents) : contents
    }

    /// The object keys a list or set of objects holds, read straight from its encoding.
    func linkKeys(table: UInt32, column: ColumnSpec, key: Int64) throws -> [Int64] {
        let slot = Int(key & StorageKeys.clusterMask)
        guard let view = try block(table: table, column: column.id, key: key), slot < view.count, !view.isNull(slot) else { return [] }
        let bytes = view.variableBytes(slot)
        if bytes.isEmpty { return [] }
        if let keys = PackedValues.linkKeys(bytes) { return keys }
        return try PackedValues.decode(Array(bytes)).compactMap(Self.linkKey)
    }

    /// The number of elements (dictionary: entries) of a collection, without decoding it.
    func collectionCount(table: UInt32, column: ColumnSpec, key: Int64) throws -> Int {
        let slot = Int(key & StorageKeys.clusterMask)
        guard let view = try block(table: table, column: column.id, key: key), slot < view.count, !view.isNull(slot) else { return 0 }
        // A set stored out of order may hold a value twice: count what reading it gives.
        if CollectionOrdering.mayNeedNormalizing(column) { return try collection(table: table, column: column, key: key).count }
        let bytes = view.variableBytes(slot)
        var count: UInt64 = 0, shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { break }
            count |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        // A dictionary is encoded as its keys and values, alternating.
        return Int(clamping: count) / (column.isDictionary ? 2 : 1)
    }

    // MARK: Hops

    /// The keys of the objects one hop leads to from the object `key` of `table`.
    func follow(_ hop: LinkHop, table: UInt32, key: Int64) throws -> [Int64] {
        switch hop.kind {
        case .link:
            if case let .int(target) = try slot(table: table, column: hop.column, key: key) { return [target] }
            return []
        case let .list(position):
            let keys = try linkKeys(table: table, column: hop.column, key: key)
            guard let position else { return keys }
            return position.pick(keys).map { [$0] } ?? []
        case .set:
            return try linkKeys(table: table, column: hop.column, key: key)
        case .dictionary:
            let contents = try collection(table: table, column: hop.column, key: key)
            return stride(from: 1, to: contents.count, by: 2).compactMap { Self.linkKey(contents[$0]) }
        case let .dictionaryEntry(wanted):
            let contents = try collection(table: table, column: hop.column, key: key)
            let keys = stride(from: 0, to: contents.count, by: 2).map { contents[$0] }
            let entry = CollectionOrdering.search(.string(wanted), in: keys)
            guard entry.found, let target = Self.linkKey(contents[2 * entry.index + 1]) else { return [] }
            return [target]
        case .backlinks:
            return try backlinkOrigins(to: ObjectLink(table: table, key: key), column: hop.column, originTable: hop.target.tableID)
        }
    }

    /// The objects whose `column` links to `target`, once per link: an object whose list holds
    /// the target twice comes twice, so that backlink counts, aggregates and SUBQUERYs count
    /// links, as realm-core does (ANY, ALL and NONE are unaffected by repeats).
    func backlinkOrigins(to target: ObjectLink, column: ColumnSpec, originTable: UInt32) throws -> [Int64] {
        let origins = try transaction.backlinks(to: target, column: column.id)
        guard case let .collection(kind, _, _) = column.kind, kind == .list || kind == .dictionary else { return origins }
        var result: [Int64] = []
        result.reserveCapacity(origins.count)
        for origin in origins {
            let links: Int
            if kind == .list {
                links = try linkKeys(table: originTable, column: column, key: origin).reduce(0) { $0 + ($1 == target.key ? 1 : 0) }
            } else {
                let contents = try collection(table: originTable, column: column, key: origin)
                links = stride(from: 1, to: contents.count, by: 2).reduce(0) { $0 + (Self.linkKey(contents[$1]) == target.key ? 1 : 0) }
            }
            result += repeatElement(origin, count: max(1, links))
        }
        return result
    }

    private static func linkKey(_ value: Value) -> Int64? {
        if case let .link(link) = value { return link.key }
        return nil
    }

    // MARK: Key paths

    /// The values of a key path for the object `key` of `table` (the queried class).
    ///
    /// A path of to-one hops that reaches no object (a null link on the way) yields one null, so
    /// that `owner.name == nil` holds for an object without an owner, as in Realm.
    func values(_ path: CompiledKeyPath, table: UInt32, key: Int64) throws -> [Value] {
        var objects = [key], currentTable = table
        for hop in path.hops {
            var next: [Int64] = []
            for object in objects { next += try follow(hop, table: currentTable, key: object) }
            objects = next
            currentTable = hop.target.tableID
            if objects.isEmpty { break }
        }
        if objects.isEmpty {
            // A null to-one link on the way reaches no object: counts through it are 0 and sums
            // empty (realm-core treats it as an empty collection); other values are null.
            if path.isMultiValued { return [] }
            switch path.leaf {
            case .count, .subquery: return [.int(0)]
            case let .aggregate(.sum, values):
                let accumulator = Accumulator(aggregate: .sum, type: values.elementType == .mixed ? .double : values.elementType)
                return [try accumulator.result() ?? .null]
            default: return [.null]
            }
        }
        var result: [Value] = []
        for object in objects { try appendLeaf(path.leaf, table: currentTable, key: object, to: &result) }
        return result
    }

    private func appendLeaf(_ leaf: KeyPathLeaf, table: UInt32, key: Int64, to result: inout [Value]) throws {
        switch leaf {
        case let .property(property):
            result.append(try value(table: table, column: property.column, key: key))
        case let .elements(property, position):
            var contents = try collection(table: table, column: property.column, key: key)
            if property.collection == .dictionary { contents = stride(from: 1, to: contents.count, by: 2).map { contents[$0] } }
            if let position {
                result.append(position.pick(contents) ?? .null)
            } else {
                result += contents
            }
        case let .keys(property):
            let contents = try collection(table: table, column: property.column, key: key)
            result += stride(from: 0, to: contents.count, by: 2).map { contents[$0] }
        case let .entry(property, wanted):
            let contents = try collection(table: table, column: property.column, key: key)
            let entry = CollectionOrdering.search(.string(wanted), in: stride(from: 0, to: contents.count, by: 2).map { contents[$0] })
            result.append(entry.found ? contents[2 * entry.index + 1] : .null)
        case let .objects(hop):
            let target = hop.target.tableID
            result += try follow(hop, table: table, key: key).map { .link(ObjectLink(table: target, key: $0)) }
        case let .typeName(inner):
            var values: [Value] = []
            try appendLeaf(inner, table: table, key: key, to: &values)
            result += values.map { .string(Self.typeName(of: $0)) }
        case let .length(inner):
            var values: [Value] = []
            try appendLeaf(inner, table: table, key: key, to: &values)
            result += values.map(Self.length)
        case let .elementLengths(property):
            var values: [Value] = []
            try appendLeaf(.elements(property, nil), table: table, key: key, to: &values)
            for value in values {
                if case .null = value { result.append(.int(0)); continue }
                let length = Self.length(value)
                if case .int = length { result.append(length) }
            }
        case let .count(counted):
            result.append(.int(Int64(try count(counted, table: table, key: key))))
        case let .aggregate(aggregate, values):
            result.append(try self.aggregate(aggregate, values, table: table, key: key))
        case let .subquery(hop, condition):
            result.append(.int(Int64(try countMatching(condition, among: try follow(hop, table: table, key: key)))))
        }
    }

    /// How many of `keys` (repeats counted) match a SUBQUERY's condition: the keys are evaluated
    /// a cluster at a time, as a query evaluates its class, and the last cluster read is kept.
    private func countMatching(_ condition: SubqueryCondition, among keys: [Int64]) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let id = ObjectIdentifier(condition)
        var state = subqueries[id] ?? SubqueryState(evaluator: PredicateEvaluator(classInfo: condition.target, predicate: condition.predicate))
        state.evaluator.attach(self)
        defer { subqueries[id] = state }
        let sorted = keys.sortedObjectKeys()
        var count = 0, i = 0
        while i < sorted.count {
            let cluster = sorted[i] >> Int64(StorageKeys.clusterShift)
            var end = i
            while end < sorted.count && sorted[end] >> Int64(StorageKeys.clusterShift) == cluster { end += 1 }
            defer { i = end }
            let scan: ClusterScan
            if let last = state.scan, last.cluster == cluster {
                scan = last
            } else {
                guard let read = try transaction.clusterScan(table: condition.target.tableID, cluster: cluster,
                                                             columns: state.evaluator.columns) else { continue }
                scan = read
                state.scan = read
            }
            let slots = sorted[i..<end].map { Int($0 & StorageKeys.clusterMask) }
            var mask = SlotMask(slots: slots) & SlotMask(presence: scan)
            try state.evaluator.filter(condition.predicate, &mask, scan)
            for slot in slots where mask.contains(slot) { count += 1 }
        }
        return count
    }

    /// Ends the reader's use: drops the SUBQUERY evaluators (which refer back to it).
    func close() {
        subqueries = [:]
        lastBlocks = [:]
    }

    private func count(_ counted: CountedCollection, table: UInt32, key: Int64) throws -> Int {
        switch counted {
        case let .collection(property):
            return try collectionCount(table: table, column: property.column, key: key)
        case let .hop(hop):
            return try follow(hop, table: table, key: key).count
        case .allBacklinks:
            // Every link to the object, once per link (see `backlinkOrigins`).
            let target = ObjectLink(table: table, key: key)
            var total = 0
            for (origin, column) in transaction.linkingColumns(to: table) {
                if case let .collection(kind, _, _) = column.kind, kind == .list || kind == .dictionary {
                    total += try backlinkOrigins(to: target, column: column, originTable: origin).count
                } else {
                    total += try transaction.backlinkCount(to: target, column: column.id)
                }
            }
            return total
        }
    }

    private func aggregate(_ aggregate: Results.Aggregate, _ values: AggregatedValues, table: UInt32, key: Int64) throws -> Value {
        var accumulator = Accumulator(aggregate: aggregate, type: values.elementType == .mixed ? .double : values.elementType)
        switch values {
        case let .collection(property):
            var contents = try collection(table: table, column: property.column, key: key)
            if property.collection == .dictionary { contents = stride(from: 1, to: contents.count, by: 2).map { contents[$0] } }
            for value in contents {
                if property.type == .mixed { accumulator.addMixed(value) } else { accumulator.add(value) }
            }
        case let .hop(hop, property):
            let target = hop.target.tableID
            for object in try follow(hop, table: table, key: key) {
                accumulator.add(try value(table: target, column: property.column, key: object))
            }
        }
        return try accumulator.result() ?? .null
    }

    /// `@size` of a value: the bytes of a string (UTF-8) or of binary data; null otherwise.
    static func length(_ value: Value) -> Value {
        switch value {
        case let .string(s): return .int(Int64(s.utf8.count))
        case let .data(d): return .int(Int64(d.count))
        default: return .null
        }
    }

    /// The name `@type` gives a value (see `QueryCompiler.typeNames`).
    static func typeName(of value: Value) -> String {
        guard let type = value.propertyType else { return "null" }
        switch type {
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .data: return "binary"
        case .timestamp: return "timestamp"
        case .objectID: return "objectid"
        case .uuid: return "uuid"
        case .decimal128: return "decimal128"
        case .object, .linkingObjects: return "objectlink"
        case .mixed: return "mixed"
        }
    }
}
