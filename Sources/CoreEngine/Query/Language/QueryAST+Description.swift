// Canonical text of query trees: keywords in upper case, `==`/`!=` for `=`/`<>`, strings in
// double quotes, dates as `T<seconds>:<nanoseconds>`, and only the parentheses the tree needs.
// For every tree the parser can produce, `QueryParser.parse(q.description) == q`.

extension Query: CustomStringConvertible {
    /// The canonical text of the query.
    ///
    /// - Complexity: O(n) in the size of the tree.
    package var description: String {
        ([predicate.description] + suffixes.map(\.description)).joined(separator: " ")
    }
}

extension QuerySuffix: CustomStringConvertible {
    package var description: String {
        switch kind {
        case let .sort(keys): return "SORT(" + keys.map(\.description).joined(separator: ", ") + ")"
        case let .distinct(paths): return "DISTINCT(" + paths.map(\.description).joined(separator: ", ") + ")"
        case let .limit(n): return "LIMIT(\(n))"
        }
    }
}

extension QuerySortKey: CustomStringConvertible {
    package var description: String { keyPath.description + (ascending ? " ASC" : " DESC") }
}

extension QueryPredicate: CustomStringConvertible {
    /// OR binds loosest, then AND, then NOT, then comparisons.
    private var level: Int {
        switch kind {
        case .or: return 1
        case .and: return 2
        case .not: return 3
        default: return 4
        }
    }

    private func operand(_ child: QueryPredicate, parenthesizedBelow minimum: Int) -> String {
        child.level < minimum ? "(" + child.description + ")" : child.description
    }

    package var description: String {
        switch kind {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        // An operand that is itself a chain of the same operator was parenthesized in the text
        // after the first place (see QueryParser's chainStart), so it prints with parentheses.
        case let .or(operands): return operands.map { operand($0, parenthesizedBelow: 2) }.joined(separator: " OR ")
        case let .and(operands): return operands.map { operand($0, parenthesizedBelow: 3) }.joined(separator: " AND ")
        case let .not(p): return "NOT " + operand(p, parenthesizedBelow: 3)
        case let .comparison(c): return c.description
        case let .between(b): return b.description
        case let .geoWithin(g): return g.description
        }
    }
}

extension QueryQuantifier {
    fileprivate var prefix: String { rawValue + " " }
}

extension QueryStringOptions: CustomStringConvertible {
    /// `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
    package var description: String {
        guard caseInsensitive || diacriticInsensitive else { return "" }
        return "[" + (caseInsensitive ? "c" : "") + (diacriticInsensitive ? "d" : "") + "]"
    }
}

extension QueryComparison: CustomStringConvertible {
    package var description: String {
        (quantifier?.prefix ?? "") + lhs.description + " " + op.rawValue + options.description + " "
            + (rhsQuantifier?.prefix ?? "") + rhs.description
    }
}

extension QueryBetween: CustomStringConvertible {
    package var description: String {
        (quantifier?.prefix ?? "") + value.description + " BETWEEN {" + lower.description + ", " + upper.description + "}"
    }
}

extension QueryGeoWithin: CustomStringConvertible {
    package var description: String {
        (quantifier?.prefix ?? "") + location.description + " GEOWITHIN " + shape.description
    }
}

extension QueryGeoPoint: CustomStringConvertible {
    package var description: String { "[" + coordinates.map(\.description).joined(separator: ", ") + "]" }
}

extension QueryGeoShape: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .box(lo, hi): return "geoBox(\(lo), \(hi))"
        case let .circle(center, radius): return "geoCircle(\(center), \(radius))"
        case let .polygon(rings):
            return "geoPolygon(" + rings.map { "{" + $0.map(\.description).joined(separator: ", ") + "}" }.joined(separator: ", ") + ")"
        case let .argument(n): return "$\(n)"
        }
    }
}

extension QueryExpression: CustomStringConvertible {
    /// Additive 1, multiplicative 2, negation 3, operands 4.
    private var level: Int {
        switch kind {
        case let .arithmetic(op, _, _): return op.precedence
        case .negate: return 3
        default: return 4
        }
    }

    private var isNumberLiteral: Bool {
        switch kind {
        case .literal(.int), .literal(.double): return true
        default: return false
        }
    }

    private func operand(_ child: QueryExpression, parenthesizedBelow minimum: Int) -> String {
        child.level < minimum ? "(" + child.description + ")" : child.description
    }

    package var description: String {
        switch kind {
        case let .keyPath(path): return path.description
        case let .subquery(subquery):
            return "SUBQUERY(\(subquery.collection), $\(subquery.variable), \(subquery.predicate)).@\(subquery.aggregate)"
        case let .literal(literal): return literal.description
        case let .object(className, primaryKey): return "obj(\(QueryLiteral.string(className).description), \(primaryKey))"
        case let .objectLink(table, key): return "L\(table):\(key)"
        case let .argument(n): return "$\(n)"
        case let .keyPathArgument(n): return "$K\(n)"
        case let .list(items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case let .negate(x):
            // `-5` would read back as the literal -5, so a negated number keeps its parentheses;
            // a negated negative number prints as `- -5`, as it was written (`--5`): parentheses
            // would add a nesting level, and a query at the nesting limit would not read back.
            guard x.isNumberLiteral else { return "-" + operand(x, parenthesizedBelow: 3) }
            let number = x.description
            return number.hasPrefix("-") ? "- " + number : "-(" + number + ")"
        case let .arithmetic(op, a, b):
            return operand(a, parenthesizedBelow: op.precedence) + " " + op.rawValue + " "
                + operand(b, parenthesizedBelow: op.precedence + 1)
        }
    }
}

extension QueryKeyPath: CustomStringConvertible {
    package var description: String {
        let names = components.map { component -> String in
            var text = (component.isAtComponent ? "@" : "") + Self.escapingWhitespace(component.name)
            switch component.selector {
            case nil: break
            case .first?: text += "[FIRST]"
            case .last?: text += "[LAST]"
            case let .index(n)?: text += "[\(n)]"
            case let .key(key)?: text += "[" + QueryLiteral.string(key).description + "]"
            case .all?: text += "[*]"
            case let .argument(n)?: text += "[$\(n)]"
            }
            return text
        }
        return ((variable.map { ["$" + $0] } ?? []) + names).joined(separator: ".")
    }

    /// A name as the lexer reads it back: space, tab, newline and carriage return escaped.
    static func escapingWhitespace(_ name: String) -> String {
        // By scalar, as the lexer reads: a space followed by a combining mark is one Character
        // (" \u{618}"), which a comparison with " " would miss (a fuzzer's finding).
        guard name.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return name }
        var out = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case " ": out.append(contentsOf: "\\ ".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

extension QueryLiteral: CustomStringConvertible {
    package var description: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .double(_, text): return text
        case let .string(s): return Self.quoted(s)
        case let .timestamp(t): return "T\(t.seconds):\(t.nanoseconds)"
        case let .objectID(id): return "oid(" + Self.hex(id.bytes) + ")"
        case let .uuid(u):
            let h = Array(Self.hex(u.bytes))
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(h[$0]) }
            return "uuid(" + groups.joined(separator: "-") + ")"
        case let .binary(bytes): return "B64\"" + Self.base64(bytes) + "\""
        case let .decimal128(text): return "decimal128(" + text + ")"
        }
    }

    /// A double-quoted string literal that reads back as `s`.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let h = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : "=")
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 63)] : "=")
            i += 3
        }
        return out
    }
}
