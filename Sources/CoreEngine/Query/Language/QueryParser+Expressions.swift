/// The expression grammar of the query language: arithmetic, operands (literals, arguments,
/// key paths with subscripts and collection operators). Predicates are in QueryParser.swift.
extension Parser {
    // MARK: - Expressions

    mutating func parseAdditive() throws -> QueryExpression {
        let start = token.range.lowerBound
        return try arithmeticRest(parseMultiplicative(), start: start, precedence: 1)
    }

    mutating func parseMultiplicative() throws -> QueryExpression {
        let start = token.range.lowerBound
        return try arithmeticRest(parseUnary(), start: start, precedence: 2)
    }

    /// `first (op operand)*` for the operators of one precedence, grouped left to right; each
    /// operand is parsed at the next tighter level.
    mutating func arithmeticRest(_ first: QueryExpression, start: Int, precedence: Int) throws -> QueryExpression {
        var left = first
        // Each operator nests the expression one level deeper, as a parenthesis does: a chain
        // `a + b + c ...` counts toward `maxDepth`, so compiling it cannot overflow the stack.
        var levels = 0
        defer { for _ in 0..<levels { leave() } }
        while let op = Self.arithmeticOperator(token.kind), op.precedence == precedence {
            try enterArithmetic()
            levels += 1
            try advance()
            let right = precedence == 1 ? try parseMultiplicative() : try parseUnary()
            left = QueryExpression(.arithmetic(op, left, right), range: start..<previousEnd)
        }
        return left
    }

    mutating func parseUnary() throws -> QueryExpression {
        guard token.kind == .minus else { return try parsePrimary() }
        let start = token.range.lowerBound
        try enter()
        defer { leave() }
        try advance()
        if let literal = try negativeNumberLiteral(start: start) { return literal }
        let operand = try parseUnary()
        return QueryExpression(.negate(operand), range: start..<previousEnd)
    }

    /// `-` followed by a number literal is the negative literal (so that -9223372036854775808
    /// is an Int64); nil when no number follows.
    @inline(never)
    mutating func negativeNumberLiteral(start: Int) throws -> QueryExpression? {
        let literal: QueryLiteral
        switch token.kind {
        case let .integer(magnitude):
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw error("integer -\(magnitude) does not fit in a 64-bit signed integer", at: start)
            }
            literal = .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        case let .float(value, text): literal = .double(-value, text: "-" + text)
        case .keyword(.inf), .keyword(.infinity): literal = .double(-Double.infinity, text: "-inf")
        case .keyword(.nan): literal = .double(-Double.nan, text: "-nan")
        default: return nil
        }
        try advance()
        return QueryExpression(.literal(literal), range: start..<previousEnd)
    }

    mutating func parsePrimary() throws -> QueryExpression {
        guard token.kind == .leftParen else { return try parseOperand() }
        let start = token.range.lowerBound
        try enter()
        defer { leave() }
        try advance()
        let inner = try parseAdditive()
        try expectClosingParen(openedAt: start)
        return inner
    }

    /// A literal, an argument or a key path.
    @inline(never)
    mutating func parseOperand() throws -> QueryExpression {
        let start = token.range.lowerBound
        let literal: QueryLiteral
        switch token.kind {
        case let .integer(magnitude):
            guard magnitude <= UInt64(Int64.max) else {
                throw error("integer \(magnitude) does not fit in a 64-bit signed integer", at: start)
            }
            literal = .int(Int64(magnitude))
        case let .float(value, text): literal = .double(value, text: text)
        case let .string(s): literal = .string(s)
        case let .timestamp(t): literal = .timestamp(t)
        case let .objectID(id): literal = .objectID(id)
        case let .uuid(u): literal = .uuid(u)
        case let .binary(b): literal = .binary(b)
        case let .decimal128(text): literal = .decimal128(text)
        case .keyword(.true): literal = .bool(true)
        case .keyword(.false): literal = .bool(false)
        case .keyword(.null), .keyword(.nil): literal = .null
        case .keyword(.inf), .keyword(.infinity): literal = .double(.infinity, text: "inf")
        case .keyword(.nan): literal = .double(.nan, text: "nan")
        case let .argument(n):
            try advance()
            return QueryExpression(.argument(n), range: start..<previousEnd)
        case let .keyPathArgument(n):
            try advance()
            if token.kind == .dot || token.kind == .leftBracket {
                throw error("a key path argument $K\(n) is a whole key path: nothing may follow it", at: token.range.lowerBound)
            }
            return QueryExpression(.keyPathArgument(n), range: start..<previousEnd)
        case let .objectLink(table, key):
            try advance()
            return QueryExpression(.objectLink(table: table, key: key), range: start..<previousEnd)
        case let .identifier(word) where word.lowercased() == "obj" && nextByteIsOpeningParenthesis:
            return try parseObjectLiteral()
        case let .identifier(word) where (word.lowercased() == "bin" || word.lowercased() == "binary") && nextByteIsOpeningParenthesis:
            return try parseBinaryLiteral()
        case .identifier, .atComponent, .variable:
            let path = try parseKeyPath(context: "")
            return QueryExpression(.keyPath(path), range: path.range)
        case let .keyword(k) where k.canNameProperty:
            let path = try parseKeyPath(context: "")
            return QueryExpression(.keyPath(path), range: path.range)
        case .leftBrace:
            // A list is a side of a comparison or an operand of arithmetic (`{8, 10} / 2`); the
            // compiler says where else it cannot go.
            return try parseList()
        case .keyword(.subquery):
            return try parseSubquery()
        default:
            guard let previous else {
                throw error("expected a condition such as name == 'x', \(found)", at: start)
            }
            switch previous.kind {
            case .keyword(.and), .keyword(.or), .keyword(.not), .ampersandAmpersand, .pipePipe, .bang:
                throw error("expected a condition after \(quote(previous)), \(found)", at: start)
            default:
                throw error("expected a value after \(quote(previous)), \(found)", at: start)
            }
        }
        try advance()
        return QueryExpression(.literal(literal), range: start..<previousEnd)
    }

    /// Whether the text right after the current token (spaces skipped) is `(`: `obj(` is an
    /// object literal, `obj` alone a property name.
    var nextByteIsOpeningParenthesis: Bool {
        var i = token.range.upperBound
        while i < lexer.bytes.count, lexer.bytes[i] == UInt8(ascii: " ") || lexer.bytes[i] == UInt8(ascii: "\t") { i += 1 }
        return i < lexer.bytes.count && lexer.bytes[i] == UInt8(ascii: "(")
    }

    /// `bin('text')`, `binary("text")` or `bin(B64"...")`: binary data, the UTF-8 bytes of the
    /// string (realm-core's spelling of a data literal).
    @inline(never)
    mutating func parseBinaryLiteral() throws -> QueryExpression {
        let start = token.range.lowerBound
        try advance()
        try expect(.leftParen, "expected '(' after bin")
        let bytes: [UInt8]
        switch token.kind {
        case let .string(text): bytes = Array(text.utf8)
        case let .binary(data): bytes = data
        default: throw error("bin(...) holds a string or B64\"...\", \(found)", at: token.range.lowerBound)
        }
        try advance()
        try expectClosingParen(openedAt: start)
        return QueryExpression(.literal(.binary(bytes)), range: start..<previousEnd)
    }

    /// `obj('Class', primaryKey)`, the primary key a literal or an argument.
    @inline(never)
    mutating func parseObjectLiteral() throws -> QueryExpression {
        let start = token.range.lowerBound
        try advance()
        try expect(.leftParen, "expected '(' after obj")
        guard case let .string(className) = token.kind else {
            throw error("obj(...) starts with the class name as a string, as in obj('Person', 5), \(found)", at: token.range.lowerBound)
        }
        try advance()
        try expect(.comma, "expected ',' after the class name of obj(...)")
        let primaryKey = try parseUnary()
        switch primaryKey.kind {
        case .literal, .argument: break
        default: throw error("the primary key of obj(...) is a literal or an argument", at: primaryKey.range.lowerBound)
        }
        try expectClosingParen(openedAt: start)
        return QueryExpression(.object(className: className, primaryKey: primaryKey), range: start..<previousEnd)
    }

    /// `[$variable "."] component ("." component)*`, each component optionally followed by a
    /// subscript; the first component may not be a reserved word.
    mutating func parseKeyPath(context: String) throws -> QueryKeyPath {
        let start = token.range.lowerBound
        var components: [QueryKeyPath.Component] = []
        var variable: String?
        func component(_ t: QueryToken, first: Bool) -> QueryKeyPath.Component? {
            switch t.kind {
            case let .identifier(name): return .init(name, range: t.range)
            case let .atComponent(name): return .init(name, isAtComponent: true, range: t.range)
            case let .keyword(k) where !first || k.canNameProperty: return .init(lexer.text(t.range), range: t.range)
            default: return nil
            }
        }
        if case let .variable(name) = token.kind {
            variable = name
            try advance()
            guard token.kind == .dot else { return QueryKeyPath([], variable: name, range: start..<previousEnd) }
            try advance()
        }
        guard let first = component(token, first: variable == nil) else {
            throw error("expected a key path\(context.isEmpty ? "" : " " + context), \(found)", at: token.range.lowerBound)
        }
        try advance()
        components.append(first)
        if try !appendSizeSubscriptIfPresent(to: &components) { components[components.count - 1].selector = try parseSubscriptIfPresent() }
        while token.kind == .dot {
            try advance()
            guard let next = component(token, first: false) else {
                throw error("expected a property name after '.', \(found)", at: token.range.lowerBound)
            }
            try advance()
            components.append(next)
            if try !appendSizeSubscriptIfPresent(to: &components) { components[components.count - 1].selector = try parseSubscriptIfPresent() }
        }
        return QueryKeyPath(components, variable: variable, range: start..<previousEnd)
    }

    /// `[SIZE]` after a component: realm-core's spelling of `.@size`, appended as that.
    /// - Returns: whether there was one.
    mutating func appendSizeSubscriptIfPresent(to components: inout [QueryKeyPath.Component]) throws -> Bool {
        guard token.kind == .leftBracket else { return false }
        let bytes = lexer.bytes
        var i = token.range.upperBound
        func skipSpaces() { while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 } }
        skipSpaces()
        guard i + 4 <= bytes.count, String(decoding: bytes[i..<(i + 4)], as: UTF8.self).uppercased() == "SIZE" else { return false }
        i += 4
        skipSpaces()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else { return false }
        let start = token.range.lowerBound
        try advance()  // [
        try advance()  // SIZE
        try expect(.rightBracket, "expected ']' after SIZE")
        components.append(QueryKeyPath.Component("size", isAtComponent: true, range: start..<previousEnd))
        return true
    }

    /// `[FIRST]`, `[LAST]`, `[n]`, `['key']`, `[*]` or `[$n]` right after a key path component.
    @inline(never)
    mutating func parseSubscriptIfPresent() throws -> QuerySubscript? {
        guard token.kind == .leftBracket else { return nil }
        let start = token.range.lowerBound
        try advance()
        let result: QuerySubscript
        switch token.kind {
        case let .identifier(word) where word.uppercased() == "FIRST": result = .first
        case let .identifier(word) where word.uppercased() == "LAST": result = .last
        case let .integer(n) where n <= UInt64(Int64.max): result = .index(Int64(n))
        case let .string(key): result = .key(key)
        case .star: result = .all
        case let .argument(n): result = .argument(n)
        default:
            throw error("expected FIRST, LAST, a position, a dictionary key, * or an argument in '[...]', \(found)", at: token.range.lowerBound)
        }
        try advance()
        try expect(.rightBracket, "expected ']' to close the '[' at offset \(start)")
        return result
    }
}
