/// Parses Realm Query Language text into a `Query` tree.
///
/// Grammar (keywords case-insensitive; `a | b` alternatives, `[x]` optional, `x*` repetition):
/// ```
/// query       = or suffix* END
/// suffix      = SORT "(" sortKey ("," sortKey)* ")" | DISTINCT "(" keyPath ("," keyPath)* ")"
///             | LIMIT "(" integer ")"
/// sortKey     = keyPath [ASC | ASCENDING | DESC | DESCENDING]          (default ASC)
/// or          = and ((OR | "||") and)*
/// and         = not ((AND | "&&") not)*
/// not         = (NOT | "!") not | atom
/// atom        = TRUEPREDICATE | FALSEPREDICATE | "(" or ")" | [quantifier] comparison
/// quantifier  = ANY | SOME | ALL | NONE
/// comparison  = additive (op | IN) [modifier] [quantifier] additive
///             | additive BETWEEN "{" additive "," additive "}"
/// list        = "{" [additive ("," additive)*] "}"
/// op          = "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
///             | BEGINSWITH | ENDSWITH | CONTAINS | LIKE
/// modifier    = "[c]" | "[d]" | "[cd]" | "[dc]"        (only after ==, !=, IN and string operators)
/// additive    = multiplicative (("+" | "-") multiplicative)*
/// multiplicative = unary (("*" | "/") unary)*
/// unary       = "-" unary | primary                   (`-` before a number literal folds into it)
/// primary     = "(" additive ")" | literal | "$" digits | keyPath | subquery | list
/// subquery    = SUBQUERY "(" keyPath "," "$" name "," or ")" "." ("@count" | "@size")
/// keyPath     = ["$" name "."] component ("." component)*    (or "$" name alone)
/// component   = (name | "@" name) ["[" (FIRST | LAST | digits | string) "]"]
/// ```
/// A parenthesis at the start of a condition may hold either a condition or a value:
/// `(a + 1) * 2 > 3` and `(a > 1) AND b == 2` both parse, without backtracking.
///
/// Decisions beyond Realm's own parser: `[d]` and `[cd]` exist; the direction in `SORT` is
/// optional; SORT, DISTINCT, LIMIT, ASC, ASCENDING, DESC and DESCENDING may also name a
/// property (any keyword may after a `.`); `inf`, `infinity` and `nan` are reserved float
/// literals; `[d]` also in SUBQUERY; a query must have a predicate
/// (use `TRUEPREDICATE`). Nesting deeper than `maxDepth` is an error rather than a stack overflow.
package enum QueryParser {
    /// The deepest nesting of parentheses, `NOT`s and unary minuses accepted.
    ///
    /// Parsing recurses once per level, and a level costs up to about 2.5 KB of stack in
    /// release builds (about 7 KB in debug builds), so 100 levels fit in a 512 KiB secondary
    /// thread (1 MiB in debug). Real queries nest a few levels; long AND/OR chains are loops,
    /// not nesting, and have no limit.
    package static let maxDepth = 100

    /// Parses a query string.
    ///
    /// Pure syntax: property names, argument indexes and operand types are checked later,
    /// against a schema and arguments.
    ///
    /// - Parameter text: The query, e.g. `age > $0 AND name BEGINSWITH[c] 'a' SORT(age DESC) LIMIT(10)`.
    /// - Returns: The tree, whose nodes carry UTF-8 byte ranges into `text`.
    /// - Throws: `DBError` with code `.query`, a message that names the problem and where it is,
    ///   and `offset`, the UTF-8 byte offset of the offending token (`text.utf8.count` for an
    ///   unexpected end). Never traps, whatever the input.
    /// - Complexity: O(n) in the length of `text`, once: the trees of texts parsed lately are
    ///   kept (`ParsedQueryCache`). Valid on any thread; no transaction needed.
    package static func parse(_ text: String) throws -> Query {
        try ParsedQueryCache.shared.tree(of: text, parseUncached)
    }

    /// Parses a query string without looking for its tree among those parsed lately.
    static func parseUncached(_ text: String) throws -> Query {
        var parser = try Parser(text)
        return try parser.parseQuery()
    }

    /// Parses a key path alone, such as `owner.name` (for sorting by a key path given as text).
    /// - Throws: `DBError(.query)` with the offset of the offending token.
    package static func parseKeyPath(_ text: String) throws -> QueryKeyPath {
        var parser = try Parser(text)
        let path = try parser.parseKeyPath(context: "")
        guard parser.token.kind == .end else {
            throw parser.error("expected the end of the key path, \(parser.found)", at: parser.token.range.lowerBound)
        }
        return path
    }
}

/// A parenthesized group at the start of a condition holds either a condition or a value.
enum Parsed {
    case predicate(QueryPredicate)
    /// A value followed by `)`: only returned where the caller allowed it.
    case value(QueryExpression)
}

extension QueryParser {
    /// The first operands of a chain: a parenthesized chain of the same operator in first place
    /// joins it (`(a AND b) AND c` is `a AND b AND c`, as both operators are left-associative);
    /// elsewhere it stays apart (`a AND (b AND c)`).
    static func chainStart(_ first: QueryPredicate, or: Bool) -> [QueryPredicate] {
        switch first.kind {
        case let .or(operands) where or: return operands
        case let .and(operands) where !or: return operands
        default: return [first]
        }
    }
}

/// The recursive-descent parser behind `QueryParser`: the current token and the nesting depth.
/// Predicates are parsed here, expressions in QueryParser+Expressions.swift.
struct Parser {
    var lexer: QueryLexer
    /// The current (not yet consumed) token.
    var token: QueryToken
    /// The last consumed token.
    var previous: QueryToken?
    var depth = 0

    init(_ text: String) throws {
        lexer = QueryLexer(text)
        token = try lexer.next()
    }

    var previousEnd: Int { previous?.range.upperBound ?? 0 }

    /// Never inlined: the lexer's frame must not become part of every recursive parse frame.
    @inline(never)
    mutating func advance() throws {
        previous = token
        token = try lexer.next()
    }

    // MARK: - Errors

    func error(_ message: String, at offset: Int) -> DBError {
        DBError(.query, "\(message) at offset \(offset)", offset: offset)
    }

    /// A token as quoted in messages: its source text when short, else a description.
    func quote(_ t: QueryToken) -> String {
        if t.kind == .end { return "end of query" }
        return t.range.count <= 30 ? "'" + lexer.text(t.range) + "'" : t.kind.displayName
    }

    var found: String { "found " + quote(token) }

    func source(_ range: Range<Int>) -> String {
        range.count <= 30 ? "'" + lexer.text(range) + "'" : "'" + lexer.text(range.lowerBound..<(range.lowerBound + 27)) + "...'"
    }

    @inline(never)
    mutating func enter() throws {
        depth += 1
        guard depth <= QueryParser.maxDepth else {
            throw error("the query is nested too deeply (more than \(QueryParser.maxDepth) levels)", at: token.range.lowerBound)
        }
    }

    mutating func leave() { depth -= 1 }

    @inline(never)
    mutating func enterArithmetic() throws {
        depth += 1
        guard depth <= QueryParser.maxDepth else {
            throw error("the arithmetic is too long or nested too deeply (more than \(QueryParser.maxDepth) operators and levels): split it, or use an aggregate such as @sum",
                        at: token.range.lowerBound)
        }
    }

    mutating func expect(_ kind: QueryToken.Kind, _ message: @autoclosure () -> String) throws {
        guard token.kind == kind else { throw error(message() + ", " + found, at: token.range.lowerBound) }
        try advance()
    }

    // MARK: - Query and suffixes

    mutating func parseQuery() throws -> Query {
        if token.kind == .end {
            throw error("the query is empty (use TRUEPREDICATE to match every object)", at: token.range.lowerBound)
        }
        if [.keyword(.sort), .keyword(.distinct), .keyword(.limit)].contains(token.kind) {
            var lookahead = lexer
            if (try? lookahead.next())?.kind == .leftParen {
                throw error("a query needs a condition before \(quote(token)) (use TRUEPREDICATE \(quote(token).dropFirst().dropLast())(...))",
                            at: token.range.lowerBound)
            }
        }
        let predicate = try predicateOf(parseOr(allowValue: false))
        var suffixes: [QuerySuffix] = []
        while true {
            switch token.kind {
            case .keyword(.sort), .keyword(.distinct), .keyword(.limit):
                suffixes.append(try parseSuffix())
            case .end:
                return Query(predicate: predicate, suffixes: suffixes, range: 0..<token.range.upperBound)
            case .rightParen:
                throw error("unmatched ')'", at: token.range.lowerBound)
            default:
                let after = previous.map { " after " + quote($0) } ?? ""
                let expected = suffixes.isEmpty ? "AND, OR, SORT, DISTINCT, LIMIT" : "SORT, DISTINCT, LIMIT"
                throw error("expected \(expected) or the end of the query\(after), \(found)", at: token.range.lowerBound)
            }
        }
    }

    mutating func parseSuffix() throws -> QuerySuffix {
        let start = token.range.lowerBound
        let name = quote(token)
        let keyword = token.kind
        try advance()
        try expect(.leftParen, "expected '(' after \(name)")
        switch keyword {
        case .keyword(.limit):
            guard case let .integer(n) = token.kind, n <= UInt64(Int64.max) else {
                throw error("LIMIT expects a non-negative integer, \(found)", at: token.range.lowerBound)
            }
            try advance()
            try expect(.rightParen, "expected ')' after the LIMIT count")
            return QuerySuffix(.limit(Int64(n)), range: start..<previousEnd)
        case .keyword(.sort):
            var keys: [QuerySortKey] = []
            repeat {
                if !keys.isEmpty { try advance() }
                let path = try parseKeyPath(context: "in SORT(...)")
                var ascending = true
                switch token.kind {
                case .keyword(.asc), .keyword(.ascending): try advance()
                case .keyword(.desc), .keyword(.descending): ascending = false; try advance()
                default: break
                }
                keys.append(QuerySortKey(path, ascending: ascending, range: path.range.lowerBound..<previousEnd))
            } while token.kind == .comma
            try expect(.rightParen, "expected ASC, DESC, ',' or ')' in SORT(...)")
            return QuerySuffix(.sort(keys), range: start..<previousEnd)
        default:
            var paths: [QueryKeyPath] = []
            repeat {
                if !paths.isEmpty { try advance() }
                paths.append(try parseKeyPath(context: "in DISTINCT(...)"))
            } while token.kind == .comma
            try expect(.rightParen, "expected ',' or ')' in DISTINCT(...)")
            return QuerySuffix(.distinct(paths), range: start..<previousEnd)
        }
    }

    // MARK: - Predicates

    @inline(never)
    func predicateOf(_ parsed: Parsed) throws -> QueryPredicate {
        switch parsed {
        case let .predicate(p): return p
        case let .value(e):
            throw error("expected a comparison operator after \(source(e.range)), \(found)", at: token.range.lowerBound)
        }
    }

    /// A chain of ORs, in one list (a loop: a chain of any length costs no stack).
    mutating func parseOr(allowValue: Bool) throws -> Parsed {
        let start = token.range.lowerBound
        return try chainRest(parseAnd(allowValue: allowValue), start: start, or: true)
    }

    /// A chain of ANDs, in one list.
    mutating func parseAnd(allowValue: Bool) throws -> Parsed {
        let start = token.range.lowerBound
        return try chainRest(parseNot(allowValue: allowValue), start: start, or: false)
    }

    /// `first` and the operands after it that `OR` (or `AND`) joins to it, as one list; `first`
    /// alone when no operator follows.
    mutating func chainRest(_ first: Parsed, start: Int, or: Bool) throws -> Parsed {
        func joins(_ kind: QueryToken.Kind) -> Bool {
            or ? kind == .keyword(.or) || kind == .pipePipe : kind == .keyword(.and) || kind == .ampersandAmpersand
        }
        guard joins(token.kind) else { return first }
        var operands = QueryParser.chainStart(try predicateOf(first), or: or)
        while joins(token.kind) {
            try advance()
            operands.append(try predicateOf(or ? parseAnd(allowValue: false) : parseNot(allowValue: false)))
        }
        return .predicate(QueryPredicate(or ? .or(operands) : .and(operands), range: start..<previousEnd))
    }

    mutating func parseNot(allowValue: Bool) throws -> Parsed {
        guard token.kind == .keyword(.not) || token.kind == .bang else { return try parseAtom(allowValue: allowValue) }
        let start = token.range.lowerBound
        try enter()
        defer { leave() }
        try advance()
        let operand = try predicateOf(parseNot(allowValue: false))
        return .predicate(QueryPredicate(.not(operand), range: start..<previousEnd))
    }

    // The functions on the recursion path (parseOr, parseAnd, chainRest, parseNot, parseAtom, parseGroup,
    // parseAdditive, parseMultiplicative, arithmeticRest, parseUnary, parsePrimary) are kept small and call
    // `@inline(never)` helpers for everything else, so that each nesting level costs little stack:
    // `maxDepth` levels must fit in a secondary thread's stack.

    mutating func parseAtom(allowValue: Bool) throws -> Parsed {
        switch token.kind {
        case .leftParen: return try parseGroup(allowValue: allowValue)
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none): return try parseQuantified()
        case .keyword(.truePredicate), .keyword(.falsePredicate): return .predicate(try parseConstantPredicate())
        default:
            let start = token.range.lowerBound
            let lhs = try parseAdditive()
            return try parseComparison(lhs, quantifier: nil, start: start, allowValue: allowValue)
        }
    }

    @inline(never)
    mutating func parseConstantPredicate() throws -> QueryPredicate {
        let start = token.range.lowerBound
        switch token.kind {
        case .keyword(.truePredicate):
            try advance()
            return QueryPredicate(.truePredicate, range: start..<previousEnd)
        default:
            try advance()
            return QueryPredicate(.falsePredicate, range: start..<previousEnd)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count` (or `.@size`).
    @inline(never)
    mutating func parseSubquery() throws -> QueryExpression {
        let start = token.range.lowerBound
        try enter()
        defer { leave() }
        try advance()
        try expect(.leftParen, "expected '(' after SUBQUERY")
        let collection = try parseKeyPath(context: "naming the collection of SUBQUERY")
        try expect(.comma, "expected ',' after the collection of SUBQUERY")
        guard case let .variable(variable) = token.kind else {
            throw error("expected a variable such as $x after the collection of SUBQUERY, \(found)", at: token.range.lowerBound)
        }
        try advance()
        try expect(.comma, "expected ',' after the SUBQUERY variable")
        let predicate = try predicateOf(parseOr(allowValue: false))
        try expectClosingParen(openedAt: start)
        guard token.kind == .dot else {
            throw error("SUBQUERY(...) must be followed by .@count or .@size, \(found)", at: token.range.lowerBound)
        }
        try advance()
        guard case let .atComponent(name) = token.kind, name == "count" || name == "size" else {
            throw error("SUBQUERY(...) must be followed by .@count or .@size, \(found)", at: token.range.lowerBound)
        }
        try advance()
        let subquery = QuerySubquery(collection: collection, variable: variable, predicate: predicate, aggregate: name)
        return QueryExpression(.subquery(subquery), range: start..<previousEnd)
    }

    @inline(never)
    mutating func parseQuantified() throws -> Parsed {
        let start = token.range.lowerBound
        let quantifier: QueryQuantifier = token.kind == .keyword(.all) ? .all : token.kind == .keyword(.none) ? .none : .any
        try advance()
        let lhs = try parseAdditive()
        return try parseComparison(lhs, quantifier: quantifier, start: start, allowValue: false)
    }

    /// `(` at the start of a condition: a parenthesized condition, or a value that goes on as
    /// the left-hand side of a comparison, as in `(a + 1) * 2 > 3`.
    mutating func parseGroup(allowValue: Bool) throws -> Parsed {
        let start = token.range.lowerBound
        try enter()
        defer { leave() }
        try advance()
        let inner = try parseOr(allowValue: true)
        try expectClosingParen(openedAt: start)
        switch inner {
        case let .predicate(p):
            try rejectOperatorAfterCondition()
            return .predicate(p)
        case let .value(e):
            return try continueGroupValue(e, start: start, allowValue: allowValue)
        }
    }

    @inline(never)
    mutating func expectClosingParen(openedAt start: Int) throws {
        try expect(.rightParen, "expected ')' to close the '(' at offset \(start)")
    }

    @inline(never)
    func rejectOperatorAfterCondition() throws {
        if Self.comparisonOperator(token.kind) != nil || token.kind == .keyword(.between) || token.kind == .keyword(.geoWithin)
            || Self.isArithmetic(token.kind) {
            throw error("a condition in parentheses cannot be compared or used in arithmetic, \(found)", at: token.range.lowerBound)
        }
    }

    @inline(never)
    mutating func continueGroupValue(_ value: QueryExpression, start: Int, allowValue: Bool) throws -> Parsed {
        let lhs = try arithmeticRest(arithmeticRest(value, start: start, precedence: 2), start: start, precedence: 1)
        return try parseComparison(lhs, quantifier: nil, start: start, allowValue: allowValue)
    }

    static func comparisonOperator(_ kind: QueryToken.Kind) -> QueryComparisonOperator? {
        switch kind {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .keyword(.beginsWith): return .beginsWith
        case .keyword(.endsWith): return .endsWith
        case .keyword(.contains): return .contains
        case .keyword(.like): return .like
        case .keyword(.text): return .text
        case .keyword(.in): return .in
        default: return nil
        }
    }

    static func isArithmetic(_ kind: QueryToken.Kind) -> Bool { arithmeticOperator(kind) != nil }

    static func arithmeticOperator(_ kind: QueryToken.Kind) -> QueryArithmeticOperator? {
        switch kind {
        case .plus: return .add
        case .minus: return .subtract
        case .star: return .multiply
        case .slash: return .divide
        default: return nil
        }
    }

    /// The operator and right-hand side after `lhs`. With `allowValue`, a bare value followed by
    /// `)` is returned as `.value` for the enclosing parenthesis to continue.
    @inline(never)
    mutating func parseComparison(_ lhs: QueryExpression, quantifier: QueryQuantifier?, start: Int, allowValue: Bool) throws -> Parsed {
        if token.kind == .keyword(.between) {
            try advance()
            if case .modifier = token.kind {
                throw error("\(quote(token)) cannot follow BETWEEN (only ==, !=, IN, BEGINSWITH, ENDSWITH, CONTAINS and LIKE take [c], [d] or [cd])",
                            at: token.range.lowerBound)
            }
            try expect(.leftBrace, "BETWEEN expects {lower, upper}")
            let lower = try parseAdditive()
            try expect(.comma, "BETWEEN expects {lower, upper}: expected ','")
            let upper = try parseAdditive()
            try expect(.rightBrace, "BETWEEN expects {lower, upper}: expected '}'")
            let between = QueryBetween(lhs, lower: lower, upper: upper, quantifier: quantifier)
            return .predicate(QueryPredicate(.between(between), range: start..<previousEnd))
        }
        if token.kind == .keyword(.geoWithin) {
            try advance()
            let shapeStart = token.range.lowerBound
            let shape = try parseGeoShape()
            let geo = QueryGeoWithin(lhs, shape, quantifier: quantifier, shapeRange: shapeStart..<previousEnd)
            return .predicate(QueryPredicate(.geoWithin(geo), range: start..<previousEnd))
        }
        guard let op = Self.comparisonOperator(token.kind) else {
            if allowValue && quantifier == nil && token.kind == .rightParen { return .value(lhs) }
            throw error("expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, TEXT, IN, BETWEEN or GEOWITHIN)"
                + " after \(source(lhs.range)), \(found)", at: token.range.lowerBound)
        }
        let opToken = token
        try advance()
        var options = QueryStringOptions.none
        switch token.kind {
        case let .modifier(c, d):
            guard op.acceptsStringOptions else {
                throw error("\(quote(token)) cannot follow \(quote(opToken)) (only ==, !=, IN, BEGINSWITH, ENDSWITH, CONTAINS and LIKE take [c], [d] or [cd])",
                            at: token.range.lowerBound)
            }
            options = QueryStringOptions(caseInsensitive: c, diacriticInsensitive: d)
            try advance()
        case .leftBracket:
            throw error("\(bracketText(at: token.range.lowerBound)) is not a string operator modifier (use [c], [d] or [cd])",
                        at: token.range.lowerBound)
        default: break
        }
        // `ANY {...}`, `ALL $0`, `NONE {...}`, `ALL scores`: a quantifier over the right-hand list
        // or collection.
        var rhsQuantifier: QueryQuantifier?
        switch token.kind {
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            let quantifierToken = token
            rhsQuantifier = token.kind == .keyword(.all) ? QueryQuantifier.all : token.kind == .keyword(.none) ? QueryQuantifier.none : .any
            try advance()
            switch token.kind {
            case .leftBrace, .argument, .identifier, .atComponent, .variable: break
            case let .keyword(k) where k.canNameProperty: break
            default:
                throw error("\(quote(quantifierToken)) after \(quote(opToken)) must be followed by a list {...}, a list argument $n or a collection, \(found)",
                            at: token.range.lowerBound)
            }
        default: break
        }
        let rhs = try parseAdditive()
        let comparison = QueryComparison(lhs, op, rhs, options: options, quantifier: quantifier, rhsQuantifier: rhsQuantifier)
        return .predicate(QueryPredicate(.comparison(comparison), range: start..<previousEnd))
    }

    /// `[x]` as written (up to a short length), for the bad-modifier message.
    func bracketText(at offset: Int) -> String {
        var end = offset + 1
        while end < lexer.bytes.count, end - offset < 12, lexer.bytes[end] != UInt8(ascii: "]") { end += 1 }
        if end < lexer.bytes.count, lexer.bytes[end] == UInt8(ascii: "]") { return "'" + lexer.text(offset..<(end + 1)) + "'" }
        return "'['"
    }

    @inline(never)
    mutating func parseList() throws -> QueryExpression {
        let start = token.range.lowerBound
        // A list nests a level, as a parenthesis does: its items are expressions, which may be
        // lists (`{{{...`), and without the limit a long run of braces overflowed the stack.
        try enter()
        defer { leave() }
        try advance()
        var items: [QueryExpression] = []
        if token.kind != .rightBrace {
            while true {
                items.append(try parseAdditive())
                if token.kind == .comma { try advance(); continue }
                guard token.kind == .rightBrace else {
                    throw error("expected ',' or '}' in a list, \(found)", at: token.range.lowerBound)
                }
                break
            }
        }
        try advance()
        return QueryExpression(.list(items), range: start..<previousEnd)
    }
}
