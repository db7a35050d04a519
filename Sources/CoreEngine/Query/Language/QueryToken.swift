/// A reserved word of the query language. Matched case-insensitively; `rawValue` is the
/// canonical (printed) spelling.
package enum QueryKeyword: String, CaseIterable, Sendable {
    case and = "AND", or = "OR", not = "NOT"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE", text = "TEXT"
    case `in` = "IN", between = "BETWEEN", geoWithin = "GEOWITHIN"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE", subquery = "SUBQUERY"
    case sort = "SORT", distinct = "DISTINCT", limit = "LIMIT"
    case asc = "ASC", ascending = "ASCENDING", desc = "DESC", descending = "DESCENDING"
    case `true` = "true", `false` = "false", null = "null", `nil` = "nil"
    /// Float literals: `inf` and `infinity` are positive infinity, `nan` a quiet NaN.
    case inf = "inf", infinity = "infinity", nan = "nan"

    private static let byLowercasedSpelling: [String: QueryKeyword] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// The keyword spelled `word` in any letter case, or nil.
    ///
    /// - Complexity: O(`word.count`).
    package init?(word: String) {
        guard let keyword = Self.byLowercasedSpelling[word.lowercased()] else { return nil }
        self = keyword
    }

    /// Keywords that may also name a property when they start a key path: they can never
    /// begin a value, so `limit > 5` and `SORT(desc DESC)` are unambiguous. Every keyword may
    /// name a key path component after a `.`.
    package var canNameProperty: Bool {
        switch self {
        case .sort, .distinct, .limit, .asc, .ascending, .desc, .descending, .text, .geoWithin: return true
        default: return false
        }
    }
}

/// The collection operators and special key path components accepted after `@`.
package let queryAtComponents: Set<String> = ["count", "size", "sum", "avg", "min", "max", "keys", "values", "type", "links"]

/// One lexical token of a query, with the UTF-8 byte range it was read from.
package struct QueryToken: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        /// A property name (letters incl. Unicode letters, digits, `_`; not starting with a digit).
        case identifier(String)
        case keyword(QueryKeyword)
        /// `@count`, `@sum`, ...: the lowercased name without the `@`.
        case atComponent(String)
        /// `$n`.
        case argument(Int)
        /// `$name`: a SUBQUERY variable (the name without `$`).
        case variable(String)
        /// `$K<n>`: a key path given as argument n (a string such as "owner.name").
        case keyPathArgument(Int)
        /// A decimal or hex integer literal's magnitude; the sign is a separate `-` token.
        case integer(UInt64)
        /// A float literal and its exact source text (for exact decimal128 conversion).
        case float(Double, text: String)
        /// A string literal, escapes resolved.
        case string(String)
        case timestamp(Timestamp)
        case objectID(ObjectID)
        /// `L<class>:<object>`: realm-core's link literal, a class key and an object key.
        case objectLink(table: UInt32, key: Int64)
        case uuid(UUIDValue)
        /// `B64"..."`, decoded.
        case binary([UInt8])
        /// `decimal128(...)`: the text between the parentheses, exactly as written.
        case decimal128(String)
        /// `[c]`, `[d]`, `[cd]` or `[dc]` (any letter case).
        case modifier(caseInsensitive: Bool, diacriticInsensitive: Bool)
        /// `==` or `=`.
        case equal
        /// `!=` or `<>`.
        case notEqual
        case less, greater
        /// `<=` or `=<`.
        case lessOrEqual
        /// `>=` or `=>`.
        case greaterOrEqual
        case ampersandAmpersand, pipePipe, bang
        case plus, minus, star, slash
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot, at
        /// End of input; its range is empty at `text.utf8.count`.
        case end
    }

    package var kind: Kind
    /// UTF-8 byte offsets into the query string.
    package var range: Range<Int>

    package init(_ kind: Kind, _ range: Range<Int>) {
        self.kind = kind
        self.range = range
    }
}

extension QueryToken.Kind {
    /// How the token is named in error messages: `'=='`, `'AND'`, `end of query`, `string 'abc'`.
    package var displayName: String {
        switch self {
        case let .identifier(name): return "'\(name)'"
        case let .keyword(k): return "'\(k.rawValue)'"
        case let .atComponent(name): return "'@\(name)'"
        case let .argument(n): return "'$\(n)'"
        case let .variable(name): return "'$\(name)'"
        case let .keyPathArgument(n): return "'$K\(n)'"
        case let .integer(v): return "number \(v)"
        case let .float(_, text): return "number \(text)"
        case .string: return "a string"
        case .timestamp: return "a date"
        case .objectID: return "an oid(...)"
        case let .objectLink(table, key): return "link L\(table):\(key)"
        case .uuid: return "a uuid(...)"
        case .binary: return "a B64 literal"
        case .decimal128: return "a decimal128(...)"
        case let .modifier(c, d): return "'[" + (c ? "c" : "") + (d ? "d" : "") + "]'"
        case .equal: return "'=='"
        case .notEqual: return "'!='"
        case .less: return "'<'"
        case .greater: return "'>'"
        case .lessOrEqual: return "'<='"
        case .greaterOrEqual: return "'>='"
        case .ampersandAmpersand: return "'&&'"
        case .pipePipe: return "'||'"
        case .bang: return "'!'"
        case .plus: return "'+'"
        case .minus: return "'-'"
        case .star: return "'*'"
        case .slash: return "'/'"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .leftBrace: return "'{'"
        case .rightBrace: return "'}'"
        case .leftBracket: return "'['"
        case .rightBracket: return "']'"
        case .comma: return "','"
        case .dot: return "'.'"
        case .at: return "'@'"
        case .end: return "end of query"
        }
    }
}
