/// Human-readable forms of values, for descriptions and error messages.
extension Value {
    /// Strings print as they are, dates as ISO 8601 UTC with nanoseconds, data as its size.
    package var displayString: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .float(f): return String(f)
        case let .double(d): return String(d)
        case let .string(s): return "'" + s + "'"
        case let .data(d): return "<\(d.count) bytes>"
        case let .timestamp(t): return t.iso8601
        case let .objectID(o): return "oid(" + hex(o.bytes) + ")"
        case let .uuid(u):
            let h = hex(u.bytes)
            let parts = [h.prefix(8), h.dropFirst(8).prefix(4), h.dropFirst(12).prefix(4), h.dropFirst(16).prefix(4), h.dropFirst(20)]
            return "uuid(" + parts.joined(separator: "-") + ")"
        case let .decimal128(d): return d.description
        case let .link(l): return "link(\(l.table), \(l.key))"
        }
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
}

extension Timestamp {
    /// "2024-03-01T12:00:00.000000001Z" (fraction omitted when zero).
    package var iso8601: String {
        // Beyond about ±292 billion years the civil-date arithmetic would overflow: print raw.
        guard abs(seconds) < Int64(1) << 62 else { return "T\(seconds):\(nanoseconds)" }
        // Normalize so that nanoseconds are in [0, 1e9).
        var seconds = seconds, nanos = Int64(nanoseconds)
        if nanos < 0 { seconds -= 1; nanos += 1_000_000_000 }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if nanos != 0 { text += "." + pad(nanos, 9) }
        return text + "Z"
    }
}
