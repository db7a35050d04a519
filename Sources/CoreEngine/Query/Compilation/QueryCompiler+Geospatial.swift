/// `GEOWITHIN`: where a location, stored as realm-core stores GeoJSON points, lies in a shape.
///
/// The location is a link (to one object, or through a collection with ANY, ALL or NONE) to
/// objects with a string property `type` and a list of doubles `coordinates`; an object is a
/// point when its type is "Point" (in any letter case) and it has at least a longitude and a
/// latitude. realm-core asks for an embedded class; any class with these properties is taken here.
extension QueryCompiler {
    func lowerGeoWithin(_ geo: QueryGeoWithin) throws -> CompiledPredicate {
        let location = try operand(geo.location)
        let range = geo.location.range
        guard let table = linkTarget(location), let target = try classes?.existingClass(tableID: table) ?? (table == classInfo.tableID ? classInfo : nil) else {
            throw error("GEOWITHIN needs a link to objects holding a GeoJSON point on its left, not '\(geo.location)'", range)
        }
        guard let type = target.property(named: "type"), type.type == .string, type.collection == .none,
              let coordinates = target.property(named: "coordinates"), coordinates.type == .double, coordinates.collection == .list else {
            throw error("GEOWITHIN needs a link to objects holding a GeoJSON point: class '\(target.name)' must have a string property 'type' and a list of doubles 'coordinates'", range)
        }
        let test = GeoWithinTest(region: try region(geo.shape, geo.shapeRange), table: target.tableID, type: type.column, coordinates: coordinates.column)
        let path: CompiledKeyPath
        switch location.operand {
        case let .keyPath(compiled): path = compiled
        case let .property(property): path = CompiledKeyPath(hops: [], leaf: .property(property))
        default: throw error("GEOWITHIN needs a key path on its left", range)
        }
        if !path.isMultiValued { try rejectQuantifier(geo.quantifier, range) }
        return .quantified(quantifier(geo.quantifier), path, .geoWithin(test))
    }

    /// The region of a shape; `range` is the shape's place in the query. A shape given as an
    /// argument's text reports every error there (its own offsets are in another text).
    private func region(_ shape: QueryGeoShape, _ range: Range<Int>, fromArgument: Bool = false) throws -> GeoRegion {
        func point(_ point: QueryGeoPoint) throws -> GeoPoint {
            GeoPoint(longitude: try number(point.coordinates[0]), latitude: try number(point.coordinates[1]))
        }
        func number(_ expression: QueryExpression) throws -> Double {
            guard case let .constant(value) = try operand(expression).operand, let number = value.numericValue, !number.isNaN else {
                throw error("a shape's coordinates and radius are numbers, not '\(expression)'", fromArgument ? range : expression.range)
            }
            return number
        }
        do {
            switch shape {
            case let .box(lo, hi):
                return try GeoRegion.box(try point(lo), try point(hi))
            case let .circle(center, radius):
                return try GeoRegion.circle(center: try point(center), radiusRadians: try number(radius))
            case let .polygon(rings):
                return try GeoRegion.polygon(try rings.map { ring in try ring.map(point) })
            case let .argument(index):
                let text = try textArgument(index, written: "$\(index)", range,
                                            otherwise: "GEOWITHIN $\(index) takes a shape written as text, such as \"geoCircle([12.5, 41.9], 0.01)\"")
                let parsed: QueryGeoShape
                do {
                    parsed = try QueryParser.parseGeoShape(text)
                } catch let failure as DBError {
                    throw error("argument $\(index) is not a shape: \(failure.message)", range)
                }
                return try region(parsed, range, fromArgument: true)
            }
        } catch let invalid as GeoRegion.Invalid {
            throw error("the shape after GEOWITHIN is not valid: \(invalid.message)", range)
        }
    }

}

/// What `GEOWITHIN` asks of each object a location links to.
package struct GeoWithinTest: Sendable {
    let region: GeoRegion
    /// The class of the linked objects, and its `type` and `coordinates` columns.
    let table: UInt32
    let type: ColumnSpec
    let coordinates: ColumnSpec

    /// Whether the linked object `key` is a GeoJSON point inside the region: its type is
    /// "Point" in any letter case, and its coordinates hold a longitude and a latitude (and
    /// perhaps an altitude, which does not count).
    func contains(_ key: Int64, _ reader: KeyPathReader) throws -> Bool {
        guard case let .string(type) = try reader.value(table: table, column: self.type, key: key), type.lowercased() == "point" else {
            return false
        }
        let values = try reader.collection(table: table, column: coordinates, key: key)
        guard values.count >= 2, let longitude = values[0].numericValue, let latitude = values[1].numericValue else { return false }
        return region.contains(GeoPoint(longitude: longitude, latitude: latitude))
    }
}
