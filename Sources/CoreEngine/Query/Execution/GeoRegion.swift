#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the earth as GeoJSON writes it: longitude, then latitude, in degrees.
package struct GeoPoint: Equatable, Sendable {
    package var longitude: Double
    package var latitude: Double

    package init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// Longitude in -180...180 and latitude in -90...90 (NaN is neither).
    var isValid: Bool { abs(longitude) <= 180 && abs(latitude) <= 90 }

    /// The point as a unit vector from the earth's centre.
    var unitVector: UnitVector {
        let lat = latitude * .pi / 180, lng = longitude * .pi / 180
        return UnitVector(x: cos(lat) * cos(lng), y: cos(lat) * sin(lng), z: sin(lat))
    }
}

/// The region on the right of `GEOWITHIN`, as realm-core defines it on a sphere:
/// - a circle: the points within `radius` radians of its centre (great-circle distance);
/// - a polygon: an outer ring and holes, each ring a closed list of points joined by
///   great-circle arcs, its inside being the smaller of the two regions it bounds;
/// - a box: the polygon with the corners `lo`, (`lo`'s longitude, `hi`'s latitude), `hi` and
///   (`hi`'s longitude, `lo`'s latitude), so its sides are great-circle arcs, not parallels.
///
/// Built once when a query compiles (which also validates the shape, with the same rules as
/// realm-core: closed rings of three distinct points or more, that do not cross themselves or
/// each other, holes inside the outer ring); `contains` is then tested per object.
package struct GeoRegion: Sendable {
    private enum Shape: Sendable {
        case circle(center: UnitVector, radius: Double)
        case polygon(outer: SphericalLoop, holes: [SphericalLoop])
    }

    private let shape: Shape

    /// A reason a shape is not a valid region, with the part of the shape it is about.
    package struct Invalid: Error {
        package let message: String
    }

    package static func circle(center: GeoPoint, radiusRadians radius: Double) throws(Invalid) -> GeoRegion {
        try check(center)
        guard radius >= 0 else { throw Invalid(message: "the radius of a circle must be a number of radians, 0 or more (it is \(radius))") }
        return GeoRegion(shape: .circle(center: center.unitVector, radius: radius))
    }

    package static func box(_ lo: GeoPoint, _ hi: GeoPoint) throws(Invalid) -> GeoRegion {
        let ring = [lo, GeoPoint(longitude: lo.longitude, latitude: hi.latitude), hi,
                    GeoPoint(longitude: hi.longitude, latitude: lo.latitude), lo]
        return try polygon([ring])
    }

    /// `rings[0]` is the outer ring, the others are holes in it; each ring is closed (its last
    /// point is its first).
    /// The most points a ring may have.
    package static let maximumRingPoints = 5_000

    package static func polygon(_ rings: [[GeoPoint]]) throws(Invalid) -> GeoRegion {
        guard !rings.isEmpty else { throw Invalid(message: "a polygon needs at least one ring") }
        var loops: [SphericalLoop] = []
        for (index, ring) in rings.enumerated() {
            guard ring.count <= maximumRingPoints else {
                throw Invalid(message: "ring \(index) has \(ring.count) points; at most \(maximumRingPoints) are allowed, since checking that a ring does not cross itself takes time in the square of its points")
            }
            for point in ring { try check(point) }
            guard ring.count >= 2, ring.first == ring.last else {
                throw Invalid(message: "ring \(index) is not closed: its last point must be its first")
            }
            var vertices: [UnitVector] = []
            for point in ring.dropLast() {
                let vector = point.unitVector
                if let last = vertices.last, last == vector { continue }
                vertices.append(vector)
            }
            if vertices.count > 1, vertices.first == vertices.last { vertices.removeLast() }
            guard vertices.count >= 3 else {
                throw Invalid(message: "ring \(index) must have at least 3 different points, it has \(vertices.count)")
            }
            let loop = try SphericalLoop(vertices, ring: index)
            if index > 0 {
                guard loops[0].contains(loop), !loops[0].crosses(loop) else {
                    throw Invalid(message: "ring \(index) is not inside the first ring: the rings after the first are holes in it")
                }
                for (other, hole) in loops.enumerated().dropFirst() where hole.crosses(loop) || hole.contains(loop) || loop.contains(hole) {
                    throw Invalid(message: "rings \(other) and \(index) overlap: holes may not cross or contain each other")
                }
            }
            loops.append(loop)
        }
        return GeoRegion(shape: .polygon(outer: loops[0], holes: Array(loops.dropFirst())))
    }

    private static func check(_ point: GeoPoint) throws(Invalid) {
        guard point.isValid else {
            throw Invalid(message: "longitude/latitude [\(point.longitude), \(point.latitude)] is out of bounds (longitude -180 to 180, latitude -90 to 90)")
        }
    }

    /// Whether the region holds the point (its boundary included for a circle).
    package func contains(_ point: GeoPoint) -> Bool {
        guard point.isValid else { return false }
        let p = point.unitVector
        switch shape {
        case let .circle(center, radius):
            return center.angle(to: p) <= radius
        case let .polygon(outer, holes):
            return outer.contains(p) && !holes.contains { $0.contains(p) }
        }
    }
}

/// A direction from the earth's centre, of length 1.
struct UnitVector: Equatable, Sendable {
    var x, y, z: Double

    func dot(_ o: UnitVector) -> Double { x * o.x + y * o.y + z * o.z }
    func cross(_ o: UnitVector) -> UnitVector { UnitVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x) }
    var length: Double { (x * x + y * y + z * z).squareRoot() }
    func plus(_ o: UnitVector, times k: Double) -> UnitVector { UnitVector(x: x + k * o.x, y: y + k * o.y, z: z + k * o.z) }
    var normalized: UnitVector { let l = length; return UnitVector(x: x / l, y: y / l, z: z / l) }

    /// The great-circle angle between two directions, in radians (exact near 0 and π).
    func angle(to o: UnitVector) -> Double { atan2(cross(o).length, dot(o)) }

    /// The sign of the triple product a·(b×c): positive when a, b, c turn counterclockwise seen
    /// from outside the sphere.
    static func orientation(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Int {
        let d = a.cross(b).dot(c)
        return d > 0 ? 1 : d < 0 ? -1 : 0
    }

    /// Whether the great-circle arcs ab and cd cross at a point inside both.
    static func arcsCross(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, _ d: UnitVector) -> Bool {
        let acb = -orientation(a, b, c)
        guard acb != 0, acb == orientation(a, b, d) else { return false }
        return -orientation(c, d, b) == acb && orientation(c, d, a) == acb
    }

    /// The turn at b on the path a → b → c: positive to the left (counterclockwise).
    static func turn(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        let angle = a.cross(b).angle(to: b.cross(c))
        return orientation(a, b, c) > 0 ? angle : -angle
    }
}

/// A closed ring of great-circle arcs whose inside is the smaller region it bounds (on the
/// left of its edges, once the ring is turned counterclockwise).
struct SphericalLoop: Sendable {
    let vertices: [UnitVector]
    /// Points near vertices, whose side is known: a point's side is a reference's, flipped at
    /// each edge the arc between them crosses.
    private let references: [(point: UnitVector, inside: Bool)]

    init(_ given: [UnitVector], ring: Int) throws(GeoRegion.Invalid) {
        let n = given.count
        for i in 0..<n {
            for j in (i + 1)..<n where given[i] == given[j] {
                throw GeoRegion.Invalid(message: "ring \(ring) is not valid: it passes through the same point twice")
            }
        }
        for i in 0..<n {
            for j in stride(from: i + 2, to: n, by: 1) where !(i == 0 && j == n - 1) {
                if UnitVector.arcsCross(given[i], given[(i + 1) % n], given[j], given[(j + 1) % n]) {
                    throw GeoRegion.Invalid(message: "ring \(ring) is not valid: its edges \(i) and \(j) cross")
                }
            }
        }
        // Gauss-Bonnet: the area on the left is 2π minus the total turn, so a ring that turns
        // clockwise in all has more than half the sphere on its left; reverse it.
        var turning = 0.0
        for i in 0..<n { turning += UnitVector.turn(given[(i + n - 1) % n], given[i], given[(i + 1) % n]) }
        let vertices = turning < 0 ? Array(given.reversed()) : given
        self.vertices = vertices
        // A point just inside the corner at a vertex is inside the ring; two vertices apart, so
        // that one of them is never nearly opposite a tested point.
        self.references = [1, n / 2 + 1].map { index in
            let previous = vertices[(index + n - 1) % n], vertex = vertices[index % n], next = vertices[(index + 1) % n]
            func toward(_ other: UnitVector) -> UnitVector { other.plus(vertex, times: -vertex.dot(other)).normalized }
            var bisector = toward(previous).plus(toward(next), times: 1)
            if bisector.length < 1e-12 { bisector = vertex.cross(toward(next)) }  // a straight corner: its left
            let point = vertex.plus(bisector.normalized, times: 1e-7).normalized
            let leftOfIncoming = UnitVector.orientation(previous, vertex, point) > 0
            let leftOfOutgoing = UnitVector.orientation(vertex, next, point) > 0
            let convex = UnitVector.orientation(previous, vertex, next) >= 0
            return (point, convex ? leftOfIncoming && leftOfOutgoing : leftOfIncoming || leftOfOutgoing)
        }
    }

    func contains(_ p: UnitVector) -> Bool {
        let reference = references.max { $0.point.dot(p) < $1.point.dot(p) }!
        var inside = reference.inside
        let n = vertices.count
        for i in 0..<n where UnitVector.arcsCross(reference.point, p, vertices[i], vertices[(i + 1) % n]) {
            inside.toggle()
        }
        return inside
    }

    /// Whether every vertex of `other` is inside this ring.
    func contains(_ other: SphericalLoop) -> Bool { other.vertices.allSatisfy(contains) }

    /// Whether an edge of this ring crosses an edge of `other`.
    func crosses(_ other: SphericalLoop) -> Bool {
        let n = vertices.count, m = other.vertices.count
        for i in 0..<n {
            for j in 0..<m where UnitVector.arcsCross(vertices[i], vertices[(i + 1) % n], other.vertices[j], other.vertices[(j + 1) % m]) {
                return true
            }
        }
        return false
    }
}
