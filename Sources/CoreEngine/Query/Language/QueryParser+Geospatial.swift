/// The shapes after GEOWITHIN, as realm-core writes them:
/// ```
/// shape   = geoBox "(" point "," point ")" | geoCircle "(" point "," number ")"
///         | geoPolygon "(" ring ("," ring)* ")" | "$" digits
/// ring    = "{" point ("," point)* "}"
/// point   = "[" number "," number ["," number] "]"          (longitude, latitude, altitude)
/// number  = ["-"] integer | ["-"] float | "$" digits
/// ```
/// The shape names are matched in any letter case and are not reserved: a property may still
/// be called `geoBox`. Negative integers are accepted (realm-core asks for `-1.0`).
extension QueryParser {
    /// Parses a shape given as text, as an argument of `GEOWITHIN $n` is.
    package static func parseGeoShape(_ text: String) throws -> QueryGeoShape {
        var parser = try Parser(text)
        let shape = try parser.parseGeoShape()
        if case .argument = shape {
            throw parser.error("a shape given as an argument must be written out, not be another argument", at: 0)
        }
        guard parser.token.kind == .end else {
            throw parser.error("expected the end of the shape, \(parser.found)", at: parser.token.range.lowerBound)
        }
        return shape
    }
}

extension Parser {
    @inline(never)
    mutating func parseGeoShape() throws -> QueryGeoShape {
        let start = token.range.lowerBound
        if case let .argument(n) = token.kind {
            try advance()
            return .argument(n)
        }
        let expected = "GEOWITHIN expects geoBox(...), geoCircle(...), geoPolygon(...) or an argument $n"
        guard case let .identifier(name) = token.kind else { throw error("\(expected), \(found)", at: start) }
        let shapeName = name.lowercased()
        guard ["geobox", "geocircle", "geopolygon"].contains(shapeName) else { throw error("\(expected), \(found)", at: start) }
        try advance()
        try expect(.leftParen, "expected '(' after \(name)")
        let shape: QueryGeoShape
        switch shapeName {
        case "geobox":
            let lo = try parseGeoPoint()
            try expect(.comma, "geoBox expects two corners, [longitude, latitude] each: expected ','")
            shape = .box(lo, try parseGeoPoint())
        case "geocircle":
            let center = try parseGeoPoint()
            try expect(.comma, "geoCircle expects a centre [longitude, latitude] and a radius in radians: expected ','")
            shape = .circle(center, radius: try parseGeoNumber())
        default:
            var rings: [[QueryGeoPoint]] = []
            repeat {
                if !rings.isEmpty { try advance() }
                try expect(.leftBrace, "geoPolygon expects rings, each {[longitude, latitude], ...}")
                var ring = [try parseGeoPoint()]
                while token.kind == .comma {
                    try advance()
                    ring.append(try parseGeoPoint())
                }
                try expect(.rightBrace, "expected ',' or '}' in a ring of geoPolygon")
                rings.append(ring)
            } while token.kind == .comma
            shape = .polygon(rings)
        }
        try expect(.rightParen, "expected ')' to close \(name)(")
        return shape
    }

    private mutating func parseGeoPoint() throws -> QueryGeoPoint {
        try expect(.leftBracket, "expected a point [longitude, latitude]")
        var coordinates = [try parseGeoNumber()]
        try expect(.comma, "a point is [longitude, latitude]: expected ','")
        coordinates.append(try parseGeoNumber())
        if token.kind == .comma {
            try advance()
            coordinates.append(try parseGeoNumber())  // the altitude
        }
        try expect(.rightBracket, "expected ']' after a point's longitude, latitude and optional altitude")
        return QueryGeoPoint(coordinates)
    }

    private mutating func parseGeoNumber() throws -> QueryExpression {
        let start = token.range.lowerBound
        switch token.kind {
        case .minus:
            try advance()
            if let literal = try negativeNumberLiteral(start: start) { return literal }
        case .integer, .float, .argument, .keyword(.inf), .keyword(.infinity), .keyword(.nan):
            return try parseOperand()
        default:
            break
        }
        throw error("expected a number or an argument $n in a shape, \(found)", at: token.range.lowerBound)
    }
}
