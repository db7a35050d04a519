import CColumnKernels

/// min, max, sum and average of a property over the results, and reading a property of every object.
extension Results {
    package enum Aggregate: Sendable {
        case min, max, sum, average
    }

    /// Aggregates a property over the matching objects, skipping nulls.
    /// - Returns: nil for min, max and average of no values; sum of no values is 0. Sums keep the
    ///   property's type (int, float, double); averages are doubles.
    /// - Throws: `.wrongType` for a property that cannot be aggregated (min/max: int, float, double,
    ///   decimal128, date; sum/average: int, float, double), `.notSupported` for decimal128 sums,
    ///   `.outOfRange` for an int sum beyond 64 bits.
    package func aggregate(_ aggregate: Aggregate, of property: PropertyInfo) throws -> Value? {
        try checkAggregatable(aggregate, property)
        var accumulator = Accumulator(aggregate: aggregate, type: property.type)
        if isSnapshot || !operations.isEmpty || !isWholeClass {
            let keys = try self.keys()
            try realm.lock.withLock {
                let transaction = try realm.currentTransaction()
                for key in keys where try transaction.objectExists(table: classInfo.tableID, key: key) {
                    accumulator.add(try transaction.value(table: classInfo.tableID, column: property.column, key: key))
                }
            }
        } else {
            // Scan in place: no object is materialized.
            try realm.lock.withLock {
                let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate, extraColumns: [property.columnID])
                try evaluator.run(try realm.currentTransaction()) { scan, mask in
                    guard let block = evaluator.block(property.columnID, in: scan) else {
                        if !property.isOptional { for _ in 0..<mask.count { accumulator.add(property.type.defaultValue) } }
                        return true
                    }
                    accumulator.addAll(block, mask, property)
                    return true
                }
            }
        }
        return try accumulator.result()
    }

    private func checkAggregatable(_ aggregate: Aggregate, _ property: PropertyInfo) throws {
        let allowed: [PropertyType]
        switch aggregate {
        case .min, .max: allowed = [.int, .float, .double, .decimal128, .timestamp]
        case .sum, .average: allowed = [.int, .float, .double, .decimal128]
        }
        guard allowed.contains(property.type), property.isScalar else {
            throw DBError(.wrongType, "cannot compute the \(aggregate) of '\(classInfo.name).\(property.name)' of type \(property.property.typeDescription)")
        }
        if property.type == .decimal128 && (aggregate == .sum || aggregate == .average) {
            throw DBError(.notSupported, "the \(aggregate) of decimal128 properties is not supported yet")
        }
    }

    /// The property's value for every object, in results order.
    package func values(of property: PropertyInfo) throws -> [Value] {
        try values(of: property, start: 0, maxCount: .max)
    }

    /// The property's value for the objects at positions `start ..< start + maxCount` (fewer at the end).
    /// - Throws: `.outOfRange` when `start` is beyond the end.
    package func values(of property: PropertyInfo, start: Int, maxCount: Int) throws -> [Value] {
        // One lock for both steps: live results' keys are then those of the current state
        // (keys() re-evaluates when it changed), so only a snapshot's objects can be gone.
        try realm.lock.withLock {
            try property.requireSingleValue(in: classInfo)
            return try realm.currentTransaction().values(table: classInfo.tableID, column: property.column,
                                                         keys: try keys(start: start, maxCount: maxCount), checkPresence: isSnapshot)
        }
    }
}

extension Results {
    /// As `values(of:start:maxCount:)`, handing each value to `body` with its position from
    /// `start` as a point read hands it over: ASCII text and binaries as their stored bytes, valid
    /// until this thread next writes, refreshes or closes the realm. Nothing reaches `body`
    /// unless every object is live.
    /// - Returns: how many values `body` received.
    package func readContents(of property: PropertyInfo, start: Int, maxCount: Int,
                              _ body: (Int, StoredContents) -> Void) throws -> Int {
        try withLiveKeys(of: property, start: start, maxCount: maxCount) { keys, transaction in
            try transaction.contents(table: classInfo.tableID, column: property.column, keys: keys, checkPresence: false, body)
        }
    }

    /// As `readContents(of:start:maxCount:_:)` for a property of bools, ints, floats or doubles
    /// (`StoredNumber.holds`), handing each value over as a plain number.
    package func readNumbers(of property: PropertyInfo, start: Int, maxCount: Int,
                             _ body: (Int, StoredNumber) -> Void) throws -> Int {
        try withLiveKeys(of: property, start: start, maxCount: maxCount) { keys, transaction in
            try transaction.numbers(table: classInfo.tableID, column: property.column, keys: keys, checkPresence: false, body)
        }
    }

    /// Calls `read` with the keys at positions `start ..< start + maxCount`, every one of them a
    /// live object (a snapshot's deleted object fails the call before `read` is called), and the
    /// transaction to read them in; returns how many keys there were.
    private func withLiveKeys(of property: PropertyInfo, start: Int, maxCount: Int,
                              _ read: (ArraySlice<Int64>, StorageTransaction) throws -> Void) throws -> Int {
        try realm.lock.withLock {
            try property.requireSingleValue(in: classInfo)
            let keys = try keys(start: start, maxCount: maxCount)
            let transaction = try realm.currentTransaction()
            if isSnapshot { for key in keys { try requirePresent(key, transaction) } }
            try read(keys, transaction)
            return keys.count
        }
    }
}

extension Results {
    /// The values of a key path (a property, through to-one links: `owner.name`) for the objects
    /// at positions `start ..< start + maxCount`, in results order: the seeds' `value(forKeyPath:)`.
    /// A null link on the way gives null.
    /// - Throws: `.outOfRange` (start beyond the end), `.invalidated` (a snapshot's deleted object).
    package func values(ofKeyPath path: PropertyPath, start: Int, maxCount: Int) throws -> [Value] {
        try realm.lock.withLock {
            let keys = try keys(start: start, maxCount: maxCount)
            let transaction = try realm.currentTransaction()
            return try keys.map { key in
                try requirePresent(key, transaction)
                return try path.value(table: classInfo.tableID, key: key, transaction)
            }
        }
    }

    /// For each object from position `start`, up to `maxCount` of them, the values a key path
    /// reaches (Realm's `value(forKeyPath:)` through to-many links): the names of each person's
    /// dogs for `dogs.name`, one value for a path through to-one links (null where a link is
    /// null), the elements for a collection.
    package func valueLists(ofKeyPath path: CompiledKeyPath, start: Int, maxCount: Int) throws -> [[Value]] {
        try realm.lock.withLock {
            let keys = try keys(start: start, maxCount: maxCount)
            let transaction = try realm.currentTransaction()
            // Linked objects are read from stored blocks: a write's decoded blocks go back first.
            if transaction.isWrite { try transaction.writeBackBlocks(table: nil) }
            let reader = KeyPathReader(transaction)
            defer { reader.close() }
            return try keys.map { key in
                try requirePresent(key, transaction)
                return try reader.values(path, table: classInfo.tableID, key: key)
            }
        }
    }

    /// The keys at positions `start ..< start + maxCount` (fewer at the end), for the batch
    /// reads above; called with the realm's lock held, so live results' keys are current.
    /// - Throws: `.outOfRange` when `start` is beyond the end.
    private func keys(start: Int, maxCount: Int) throws -> ArraySlice<Int64> {
        let all = try self.keys()
        guard start >= 0, start <= all.count else {
            throw DBError(.outOfRange, "start \(start) is beyond the end (\(all.count) objects)")
        }
        return all[start..<(start + min(maxCount, all.count - start))]
    }

    /// Only a snapshot's objects can be gone from under the lock: a deleted one is an error.
    private func requirePresent(_ key: Int64, _ transaction: StorageTransaction) throws {
        if isSnapshot, try !transaction.objectExists(table: classInfo.tableID, key: key) {
            throw DBError(.invalidated, "an object of the snapshot has been deleted")
        }
    }
}

/// Running state of an aggregate.
struct Accumulator {
    let aggregate: Results.Aggregate
    let type: PropertyType
    var best: Value?
    /// Int sums are exact: 128 bits hold any sum of fewer than 2^64 int64 values, so an overflow
    /// on the way that later cancels out is no error; only the result must fit in 64 bits.
    var intSum: Int128 = 0
    var doubleSum = 0.0
    var count = 0

    init(aggregate: Results.Aggregate, type: PropertyType) {
        self.aggregate = aggregate
        self.type = type
    }

    mutating func add(_ value: Value) {
        switch (aggregate, value) {
        case (_, .null): return
        case (.min, _), (.max, _):
            if value.isNaN { return }
            guard let current = best else { best = value; return }
            let order = ValueOrdering.sortCompare(value, current)
            if aggregate == .min ? order < 0 : order > 0 { best = value }
        case let (_, .int(i)) where type == .int:
            addInt(i)
        default:
            // Mixed values (an accumulator of type double) add ints as doubles too.
            if let d = value.numericValue { doubleSum += d; count += 1 }
        }
    }

    @inline(__always)
    mutating func addInt(_ value: Int64) {
        intSum += Int128(value)
        count += 1
    }

    /// Adds an element of a collection of mixed values: only numbers (and dates, which min and
    /// max compare) count; strings and other values are skipped.
    mutating func addMixed(_ value: Value) {
        if value.numericValue != nil || value.propertyType == .timestamp { add(value) }
    }

    /// Adds the masked slots of a block, reading doubles and ints in place: whole words of 64
    /// slots without nulls in the column kernels, the others slot by slot.
    mutating func addAll(_ block: ColumnBlockView, _ mask: SlotMask, _ property: PropertyInfo) {
        let summing = aggregate == .sum || aggregate == .average
        let packed = summing && type == .int && block.layout == .packedInt
        let reading = summing && block.layout == .fixed && block.width == 8 && (type == .int || type == .double)
        guard reading || packed else {
            mask.forEach { add(block.value(at: $0, type: property.type, optional: property.isOptional)) }
            return
        }
        let whole = min(block.wholeWords, SlotMask.wordCount)
        var exact = realmdb_int128_t(low: 0, high: 0)
        for w in 0..<SlotMask.wordCount where mask.words[w] != 0 {
            let bits = mask.words[w]
            if w < whole {
                let present = bits & ~block.nullWord(w), values = block.fixedAddress(w &* 64)
                if packed {
                    let offsets = realmdb_sum_packedx64(values, Int32(block.width), present)
                    intSum += Int128(block.base) * Int128(present.nonzeroBitCount) + Int128(offsets)
                    count += present.nonzeroBitCount
                } else if type == .int {
                    count += Int(realmdb_sum_int64x64(values, present, &exact))
                } else {
                    doubleSum += realmdb_sum_doublex64(values, present)
                    count += present.nonzeroBitCount
                }
                continue
            }
            var rest = bits
            while rest != 0 {
                let slot = w << 6 | rest.trailingZeroBitCount
                rest &= rest &- 1
                guard slot < block.count, !block.isNull(slot) else { continue }
                if packed {
                    addInt(block.packedInt(slot))
                    continue
                }
                let raw = block.fixedAddress(slot).loadUnaligned(as: UInt64.self)
                if type == .int {
                    addInt(Int64(bitPattern: UInt64(littleEndian: raw)))
                } else {
                    doubleSum += Double(bitPattern: UInt64(littleEndian: raw))
                    count += 1
                }
            }
        }
        intSum += Int128(exact.high) << 64 | Int128(exact.low)
    }

    /// The aggregate of the values added.
    /// - Throws: `.outOfRange` when an int sum does not fit in 64 bits.
    func result() throws -> Value? {
        switch aggregate {
        case .min, .max: return best
        case .average:
            guard count > 0 else { return nil }
            return .double((type == .int ? Double(intSum) : doubleSum) / Double(count))
        case .sum:
            switch type {
            case .int:
                guard let sum = Int64(exactly: intSum) else {
                    throw DBError(.outOfRange, "the sum of these integers (about \(Double(intSum))) does not fit in a 64-bit integer")
                }
                return .int(sum)
            case .float: return .float(Float(doubleSum))
            default: return .double(doubleSum)
            }
        }
    }
}
