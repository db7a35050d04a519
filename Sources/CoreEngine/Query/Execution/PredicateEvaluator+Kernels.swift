import CColumnKernels

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

        // Slots beyond the block and null slots have their answer; `matches` decides the others,
        // except in the first `wholeWords` words of 64 slots, which a column kernel decides at
        // once (`kernel(w)` gives word w's bits, SIMD), the nulls among them set afterwards.
        @inline(__always) func decide(wholeWords: Int, _ kernel: (Int) -> UInt64, _ matches: (Int) -> Bool) {
            mask.filter(wholeWords: wholeWords, by: { w in
                let nulls = block.nullWord(w)
                return kernel(w) & ~nulls | (nullMatches ? nulls : 0)
            }, slots: { slot in
                if slot >= count { return unwrittenMatches }
                if block.hasNulls && block.isNull(slot) { return nullMatches }
                return matches(slot)
            })
        }
        @inline(__always) func wordByWord(_ kernel: (Int) -> UInt64, _ matches: (Int) -> Bool) {
            decide(wholeWords: block.wholeWords, kernel, matches)
        }
        @inline(__always) func slotBySlot(_ matches: (Int) -> Bool) {
            decide(wholeWords: 0, { _ in 0 }, matches)
        }
        @inline(__always) func numeric(_ read: (UnsafeRawPointer) -> Double, _ c: Double) {
            let test = Self.doubleTest(op, c)
            slotBySlot { test(read(block.fixedAddress($0))) }
        }

        switch (property.type, constant) {
        case let (.int, .int(c)) where block.layout == .fixed && block.width == 8:
            let test = Self.intTest(op, c), kernelOp = op.kernelComparison
            wordByWord({ realmdb_compare_int64x64(block.fixedAddress($0 &* 64), kernelOp, c) },
                       { test(Int64(littleEndian: block.fixedAddress($0).loadUnaligned(as: Int64.self))) })
        case let (.int, .int(c)) where block.layout == .packedInt:
            // The constant as an offset from the block's base: below or above every offset the
            // block can hold, the comparison has one answer for every slot.
            let test = Self.intTest(op, c), kernelOp = op.kernelComparison, width = Int32(block.width)
            let offset = Int128(c) - Int128(block.base), largest = Int128(1) << (8 * block.width) - 1
            let uniform: UInt64? = offset < 0 ? (test(Int64.max) ? ~0 : 0) : offset > largest ? (test(Int64.min) ? ~0 : 0) : nil
            wordByWord({ uniform ?? realmdb_compare_packedx64(block.fixedAddress($0 &* 64), width, kernelOp, UInt64(offset)) },
                       { test(block.packedInt($0)) })
        case (.int, _) where block.layout == .fixed && block.width == 8 && constant.numericValue != nil && !constant.isNaN:
            numeric({ Double(Int64(littleEndian: $0.loadUnaligned(as: Int64.self))) }, constant.numericValue!)
        case (.double, _) where block.layout == .fixed && block.width == 8 && constant.numericValue != nil:
            let c = constant.numericValue!, test = Self.doubleTest(op, c), kernelOp = op.kernelComparison
            wordByWord({ realmdb_compare_doublex64(block.fixedAddress($0 &* 64), kernelOp, c) },
                       { test(Double(bitPattern: UInt64(littleEndian: block.fixedAddress($0).loadUnaligned(as: UInt64.self)))) })
        case (.float, _) where block.layout == .fixed && block.width == 4 && constant.numericValue != nil:
            numeric({ Double(Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))) }, constant.numericValue!)
        case let (.string, .string(c)) where options.isEmpty && (op == .equal || op == .notEqual) && block.layout == .variable:
            let bytes = Array(c.utf8), wantEqual = op == .equal
            slotBySlot { block.variableBytes($0).elementsEqual(bytes) == wantEqual }
        default:
            mask.filter { slot in
                Self.compare(block.value(at: slot, type: property.type, optional: property.isOptional), op, constant, options)
            }
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

extension ComparisonOperator {
    /// The same comparison, as the column kernels name it.
    var kernelComparison: realmdb_comparison_t {
        switch self {
        case .equal: return REALMDB_COMPARE_EQUAL
        case .notEqual: return REALMDB_COMPARE_NOT_EQUAL
        case .less: return REALMDB_COMPARE_LESS
        case .lessOrEqual: return REALMDB_COMPARE_LESS_OR_EQUAL
        case .greater: return REALMDB_COMPARE_GREATER
        case .greaterOrEqual: return REALMDB_COMPARE_GREATER_OR_EQUAL
        }
    }
}
