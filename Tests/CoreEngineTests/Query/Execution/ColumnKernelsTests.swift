import CColumnKernels
import XCTest
@testable import CoreEngine

/// The column kernels (Sources/CColumnKernels) against plain Swift, alone and inside scans and
/// aggregates: whole words of 64 slots go through the kernels, the rest slot by slot, and both
/// must give the same answers, with nulls, NaN, -0.0, extreme values and deleted objects.
final class ColumnKernelsTests: RealmTestCase {
    private struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ z >> 30) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ z >> 27) &* 0x94D0_49BB_1331_11EB
            return z ^ z >> 31
        }
    }

    private static let operators: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]

    private static func holds<T: Comparable>(_ a: T, _ op: ComparisonOperator, _ b: T) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return !(a == b)
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }

    /// Runs `body` with the SIMD loops (where the CPU has them), then with the portable ones.
    private func eachLoop(_ body: () throws -> Void) rethrows {
        try body()
        let previous = realmdb_column_kernels_use_simd(0)
        defer { _ = realmdb_column_kernels_use_simd(previous) }
        try body()
    }

    // MARK: - The kernels alone

    func testIntComparisonsMatchSwiftAtTheExtremes() {
        eachLoop {
            var rng = SplitMix(state: 1)
            let special: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
            for round in 0..<200 {
                let values: [Int64] = (0..<64).map { _ in
                    rng.next() % 3 == 0 ? special[Int(rng.next() % UInt64(special.count))] : Int64(bitPattern: rng.next()) >> (rng.next() % 64)
                }
                let constant = round % 2 == 0 ? special[round % special.count] : values[Int(rng.next() % 64)]
                for op in Self.operators {
                    let bits = values.withUnsafeBytes { realmdb_compare_int64x64($0.baseAddress!, op.kernelComparison, constant) }
                    for (i, v) in values.enumerated() {
                        XCTAssertEqual(bits >> UInt64(i) & 1 == 1, Self.holds(v, op, constant), "\(v) \(op) \(constant)")
                    }
                }
            }
        }
    }

    func testDoubleComparisonsFollowIEEE() {
        eachLoop {
            var rng = SplitMix(state: 2)
            let special: [Double] = [.nan, -.infinity, .infinity, -0.0, 0.0, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, 1.5]
            for round in 0..<200 {
                let values: [Double] = (0..<64).map { _ in
                    rng.next() % 3 == 0 ? special[Int(rng.next() % UInt64(special.count))] : Double(Int64(bitPattern: rng.next()) % 1000) / 8
                }
                let constant = round % 3 == 0 ? special[round % special.count] : values[Int(rng.next() % 64)]
                for op in Self.operators {
                    let bits = values.withUnsafeBytes { realmdb_compare_doublex64($0.baseAddress!, op.kernelComparison, constant) }
                    for (i, v) in values.enumerated() {
                        XCTAssertEqual(bits >> UInt64(i) & 1 == 1, Self.holds(v, op, constant), "\(v) \(op) \(constant)")
                    }
                }
            }
        }
    }

    func testSumsAreExactForIntsAndLaneOrderedForDoubles() {
        eachLoop {
            var rng = SplitMix(state: 3)
            for _ in 0..<200 {
                let ints: [Int64] = (0..<64).map { _ in rng.next() % 4 == 0 ? .max : Int64(bitPattern: rng.next()) }
                let doubles: [Double] = (0..<64).map { _ in Double(Int64(bitPattern: rng.next()) % 1_000_000) / 7 }
                let mask = rng.next() % 4 == 0 ? ~0 : rng.next()
                var exact = realmdb_int128_t(low: 5, high: -1)  // -2^64 + 5: the kernel adds to what it holds
                let added = ints.withUnsafeBytes { realmdb_sum_int64x64($0.baseAddress!, mask, &exact) }
                var expected: Int128 = Int128(-1) << 64 | 5
                var lanes = [0.0, 0.0, 0.0, 0.0]
                for i in 0..<64 where mask >> UInt64(i) & 1 == 1 {
                    expected += Int128(ints[i])
                    lanes[i % 4] += doubles[i]
                }
                XCTAssertEqual(Int(added), mask.nonzeroBitCount)
                XCTAssertEqual(Int128(exact.high) << 64 | Int128(exact.low), expected)
                let sum = doubles.withUnsafeBytes { realmdb_sum_doublex64($0.baseAddress!, mask) }
                XCTAssertEqual(sum.bitPattern, ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])).bitPattern)
            }
        }
    }

    func testPackedOffsetsCompareAndSumAsUnsignedNumbers() {
        eachLoop {
            var rng = SplitMix(state: 5)
            for width in [1, 2, 4] {
                let largest = UInt64(1) << UInt64(8 * width) - 1
                for round in 0..<100 {
                    let offsets: [UInt64] = (0..<64).map { _ in
                        switch rng.next() % 4 {
                        case 0: return 0
                        case 1: return largest
                        default: return rng.next() & largest
                        }
                    }
                    var bytes = [UInt8]()
                    for v in offsets { for b in 0..<width { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * b))) } }
                    let constant = [0, largest, largest / 2, offsets[round % 64]][round % 4]
                    for op in Self.operators {
                        let bits = bytes.withUnsafeBytes { realmdb_compare_packedx64($0.baseAddress!, Int32(width), op.kernelComparison, constant) }
                        for (i, v) in offsets.enumerated() {
                            XCTAssertEqual(bits >> UInt64(i) & 1 == 1, Self.holds(v, op, constant), "width \(width): \(v) \(op) \(constant)")
                        }
                    }
                    let mask = rng.next()
                    let sum = bytes.withUnsafeBytes { realmdb_sum_packedx64($0.baseAddress!, Int32(width), mask) }
                    XCTAssertEqual(sum, (0..<64).filter { mask >> UInt64($0) & 1 == 1 }.reduce(0) { $0 + offsets[$1] })
                }
            }
        }
    }

    // MARK: - Inside scans and aggregates

    static let schema = try! Schema([ObjectSchema(name: "Item", properties: [
        Property(name: "n", type: .int),
        Property(name: "i", type: .int, isOptional: true),
        Property(name: "d", type: .double, isOptional: true),
        Property(name: "r", type: .int),
    ])])

    /// 2,500 objects over three clusters (1,024 slots each), then every 9th deleted: whole words,
    /// a partial last word, holes in the presence bits, nulls in some words and not in others.
    private func fill() throws -> (Realm, ClassInfo, [(n: Int64, i: Int64?, d: Double?, r: Int64)]) {
        let realm = try open(Self.schema)
        let item = try realm.classInfo(named: "Item")
        func p(_ name: String) -> PropertyInfo { item.property(named: name)! }
        var rng = SplitMix(state: 4)
        var rows: [(n: Int64, i: Int64?, d: Double?, r: Int64)] = []
        try realm.beginWrite()
        for n in 0..<2_500 {
            // Nulls only in the second cluster's words, so that both word kinds occur.
            let i: Int64? = (1_024..<2_048).contains(n) && rng.next() % 5 == 0 ? nil : Int64(bitPattern: rng.next() % 200) - 100
            let d: Double? = rng.next() % 11 == 0 ? nil : [Double.nan, -0.0, 0.0, 2.5][Int(rng.next() % 8) % 4 == 0 ? Int(rng.next() % 4) : 3] * (n % 2 == 0 ? 1 : Double(n % 50))
            let r = n < 640 ? Int64.max - Int64(n) : Int64(n)
            rows.append((Int64(n), i, d, r))
            _ = try realm.create(item, values: [(p("n"), .int(Int64(n))), (p("i"), i.map(Value.int) ?? .null),
                                                (p("d"), d.map(Value.double) ?? .null), (p("r"), .int(r))])
        }
        for n in stride(from: 0, to: 2_500, by: 9) {
            _ = try realm.objects(item).filter(.compare(.property(p("n")), .equal, .constant(.int(Int64(n))), [])).deleteAll()
        }
        try realm.commitWrite()
        return (realm, item, rows.filter { $0.n % 9 != 0 })
    }

    func testScansAgreeWithAFilterOfEveryRow() throws {
        let (realm, item, rows) = try fill()
        try eachLoop { try scansAgreeWithAFilter(realm, item, rows) }
    }

    private func scansAgreeWithAFilter(_ realm: Realm, _ item: ClassInfo, _ rows: [(n: Int64, i: Int64?, d: Double?, r: Int64)]) throws {
        func p(_ name: String) -> PropertyInfo { item.property(named: name)! }
        func matching(_ predicate: CompiledPredicate) throws -> [Int64] {
            try realm.objects(item).filter(predicate).values(of: p("n")).map { guard case let .int(n) = $0 else { return -1 }; return n }
        }
        for op in Self.operators {
            for c: Int64 in [-101, -100, 0, 37, 99, 100] {
                let expected = rows.filter { row in row.i.map { Self.holds($0, op, c) } ?? (op == .notEqual) }.map(\.n)
                XCTAssertEqual(try matching(.compare(.property(p("i")), op, .constant(.int(c)), [])), expected, "i \(op) \(c)")
            }
            for c in [0.0, -0.0, 2.5, 40.0, Double.nan] {
                let expected = rows.filter { row in row.d.map { Self.holds($0, op, c) } ?? (op == .notEqual) }.map(\.n)
                XCTAssertEqual(try matching(.compare(.property(p("d")), op, .constant(.double(c)), [])), expected, "d \(op) \(c)")
            }
        }
    }

    func testAggregatesAgreeWithSwift() throws {
        let (realm, item, rows) = try fill()
        func p(_ name: String) -> PropertyInfo { item.property(named: name)! }
        let all = realm.objects(item)
        let ints = rows.compactMap(\.i), doubles = rows.compactMap(\.d).filter { !$0.isNaN }
        XCTAssertEqual(try all.aggregate(.sum, of: p("i")), .int(ints.reduce(0, +)))
        XCTAssertEqual(try all.aggregate(.average, of: p("i")), .double(Double(ints.reduce(0, +)) / Double(ints.count)))
        XCTAssertEqual(try all.aggregate(.min, of: p("i")), .int(ints.min()!))
        let evens = all.filter(.compare(.property(p("i")), .greater, .constant(.int(0)), []))
        XCTAssertEqual(try evens.aggregate(.sum, of: p("i")), .int(ints.filter { $0 > 0 }.reduce(0, +)), "masked words")
        // Doubles: NaN makes the sum NaN, whatever the order.
        guard case let .double(withNaN)? = try all.aggregate(.sum, of: p("d")) else { return XCTFail("a double sum") }
        XCTAssertTrue(withNaN.isNaN)
        let finite = all.filter(.compare(.property(p("d")), .greaterOrEqual, .constant(.double(-1e308)), []))
        guard case let .double(sum)? = try finite.aggregate(.sum, of: p("d")) else { return XCTFail("a double sum") }
        XCTAssertEqual(sum, doubles.reduce(0, +), accuracy: 1e-9 * doubles.map(abs).reduce(0, +))
        // The first 640 values of r are near Int64.max: their sum overflows 64 bits on the way.
        XCTAssertThrowsError(try all.aggregate(.sum, of: p("r"))) { XCTAssertEqual(($0 as? DBError)?.code, .outOfRange, "\($0)") }
        let nearMax = all.filter(.compare(.property(p("n")), .less, .constant(.int(640)), []))
        XCTAssertEqual(try nearMax.aggregate(.average, of: p("r")),
                       .double(Double(rows.filter { $0.n < 640 }.reduce(Int128(0)) { $0 + Int128($1.r) }) / Double(rows.filter { $0.n < 640 }.count)))
        // As many values near -Int64.max: the sum leaves 64 bits on the way and comes back.
        let nearMaxRows = rows.filter { $0.n < 640 }, negated = Int64.max - 639
        try realm.beginWrite()
        for k in 0..<nearMaxRows.count {
            _ = try realm.create(item, values: [(p("n"), .int(10_000 + Int64(k))), (p("r"), .int(-negated))])
        }
        try realm.commitWrite()
        let expected = nearMaxRows.reduce(Int128(0)) { $0 + Int128($1.r) } - Int128(nearMaxRows.count) * Int128(negated)
        let extremes = all.filter(.or([.compare(.property(p("r")), .greater, .constant(.int(Int64.max / 2)), []),
                                       .compare(.property(p("r")), .less, .constant(.int(-Int64.max / 2)), [])]))
        XCTAssertEqual(try extremes.aggregate(.sum, of: p("r")), .int(Int64(expected)))
    }
}
