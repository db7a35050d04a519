/// Comparisons of a property with a constant, reading the block's bytes directly.
extension PredicateEvaluator {
    func filterCompare(_ property: PropertyInfo, _ op: ComparisonOperator, _ constant: Value,
                       _ options: StringOptions, _ mask: inout SlotMask, _ scan: ClusterScan) throws {
        let block = self.block(property.columnID, in: scan)
        // The value every unwritten slot (and, for required properties, every null bit) reads as.
        let unwritten: Value = property.isOptional ? .null : property.type.defaultValue
        let unwrittenMatches = Self.compare(unwritten, op, constant, options)
        guard let block else {
            if !unwrittenMatches { mask = SlotMask() }
            return
        }
        let count = block.count
        let nullMatches = property.isOptional ? Self.compare(.null, op, constant, options) : unwrittenMatches

        @inline(__always) func numeric(_ read: (UnsafeRawPointer) -> Double, _ c: Double) {
            let test = Self.doubleTest(op, c)
            mask.filter { slot in
                if slot >= count { return unwrittenMatches }
                if block.hasNulls && block.isNull(slot) { return nullMatches }
                return test(read(block.fixedAddress(slot)))
            }
        }

        switch (property.type, constant) {
        case let (.int, .int(c)) where block.layout == .fixed && block.width == 8:
            // Full words of live, non-null slots: compare 64 values without branches.
            if !block.hasNulls {
                for w in 0..<SlotMask.wordCount where mask.words[w] == ~0 && (w + 1) * 64 <= count {
                    mask.words[w] = Self.denseInt(op, c, block.fixedAddress(w * 64))
                }
            }
            let test = Self.intTest(op, c)
            mask.filter { slot in
                if slot >= count { return unwrittenMatches }
                if block.hasNulls && block.isNull(slot) { return nullMatches }
                return test(Int64(littleEndian: block.fixedAddress(slot).loadUnaligned(as: Int64.self)))
            }
        case (.int, _) where block.layout == .fixed && block.width == 8 && constant.numericValue != nil && !constant.isNaN:
            numeric({ Double(Int64(littleEndian: $0.loadUnaligned(as: Int64.self))) }, constant.numericValue!)
        case (.double, _) where block.layout == .fixed && block.width == 8 && constant.numericValue != nil:
            numeric({ Double(bitPattern: UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self))) }, constant.numericValue!)
        case (.float, _) where block.layout == .fixed && block.width == 4 && constant.numericValue != nil:
            numeric({ Double(Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))) }, constant.numericValue!)
        case let (.string, .string(c)) where options.isEmpty && (op == .equal || op == .notEqual) && block.layout == .variable:
            let bytes = Array(c.utf8), wantEqual = op == .equal
            mask.filter { slot in
                if slot >= count { return unwrittenMatches }
                if block.hasNulls && block.isNull(slot) { return nullMatches }
                return block.variableBytes(slot).elementsEqual(bytes) == wantEqual
            }
        default:
            mask.filter { slot in
                Self.compare(block.value(at: slot, type: property.type, optional: property.isOptional), op, constant, options)
            }
        }
    }

    /// Bit i set when value i of the 64 at `base` satisfies `op c`.
    static func denseInt(_ op: ComparisonOperator, _ c: Int64, _ base: UnsafeRawPointer) -> UInt64 {
        @inline(__always) func run(_ test: (Int64) -> Bool) -> UInt64 {
            var bits: UInt64 = 0
            for i in 0..<64 {
                let v = Int64(littleEndian: base.loadUnaligned(fromByteOffset: i &* 8, as: Int64.self))
                bits |= (test(v) ? 1 : 0) &<< UInt64(i)
            }
            return bits
        }
        switch op {
        case .equal: return run { $0 == c }
        case .notEqual: return run { $0 != c }
        case .less: return run { $0 < c }
        case .lessOrEqual: return run { $0 <= c }
        case .greater: return run { $0 > c }
        case .greaterOrEqual: return run { $0 >= c }
        }
    }

    @inline(__always)
    static func intTest(_ op: ComparisonOperator, _ c: Int64) -> (Int64) -> Bool {
        switch op {
        case .equal: return { $0 == c }
        case .notEqual: return { $0 != c }
        case .less: return { $0 < c }
        case .lessOrEqual: return { $0 <= c }
        case .greater: return { $0 > c }
        case .greaterOrEqual: return { $0 >= c }
        }
    }

    /// IEEE comparisons: NaN matches only !=.
    @inline(__always)
    static func doubleTest(_ op: ComparisonOperator, _ c: Double) -> (Double) -> Bool {
        switch op {
        case .equal: return { $0 == c }
        case .notEqual: return { !($0 == c) }
        case .less: return { $0 < c }
        case .lessOrEqual: return { $0 <= c }
        case .greater: return { $0 > c }
        case .greaterOrEqual: return { $0 >= c }
        }
    }
}
