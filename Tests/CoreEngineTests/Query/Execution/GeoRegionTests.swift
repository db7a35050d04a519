import XCTest
@testable import CoreEngine

/// `GeoRegion`: realm-core's GEOWITHIN shapes on a sphere (great-circle distances and edges,
/// rings whose inside is the smaller region), with its validation rules.
final class GeoRegionTests: XCTestCase {
    private func p(_ longitude: Double, _ latitude: Double) -> GeoPoint { GeoPoint(longitude: longitude, latitude: latitude) }

    private func rejects(_ make: @autoclosure () throws -> GeoRegion, _ fragment: String, line: UInt = #line) {
        XCTAssertThrowsError(try make(), line: line) { error in
            let message = (error as? GeoRegion.Invalid)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(fragment), message, line: line)
        }
    }

    func testACircleHoldsThePointsWithinItsRadiusInRadians() throws {
        let circle = try GeoRegion.circle(center: p(0, 0), radiusRadians: 0.1)  // 5.73 degrees
        XCTAssertTrue(circle.contains(p(5, 0)))
        XCTAssertTrue(circle.contains(p(0, -5.7)))
        XCTAssertFalse(circle.contains(p(6, 0)))
        XCTAssertFalse(circle.contains(p(4.1, 4.1)), "5.8 degrees away along the diagonal")
        XCTAssertTrue(try GeoRegion.circle(center: p(10, 20), radiusRadians: 0).contains(p(10, 20)), "the boundary is inside")
        let pole = try GeoRegion.circle(center: p(0, 90), radiusRadians: 0.2)
        XCTAssertTrue(pole.contains(p(-170, 80)), "every longitude meets at the pole")
        XCTAssertTrue(try GeoRegion.circle(center: p(0, 0), radiusRadians: 4).contains(p(180, 0)), "a radius over pi holds the sphere")
        XCTAssertFalse(circle.contains(p(.nan, 0)))
        XCTAssertFalse(circle.contains(p(0, 91)), "a point that is not on the earth is in no shape")
    }

    func testABoxHasGreatCircleSidesAndEitherCornerOrder() throws {
        let box = try GeoRegion.box(p(0.2, 0.2), p(0.7, 0.7))
        XCTAssertTrue(box.contains(p(0.5, 0.5)))
        XCTAssertFalse(box.contains(p(0.1, 0.5)))
        XCTAssertFalse(box.contains(p(0.5, 0.8)))
        let reversed = try GeoRegion.box(p(0.7, 0.7), p(0.2, 0.2))
        XCTAssertTrue(reversed.contains(p(0.5, 0.5)) && !reversed.contains(p(0.1, 0.5)), "the smaller region either way")
        // The north side from (-60, 60) to (60, 60) is a great circle: at longitude 0 it reaches
        // 73.9 degrees, the south side 67.2, so the box there is 67.2...73.9, not 50...60.
        let wide = try GeoRegion.box(p(-60, 50), p(60, 60))
        XCTAssertTrue(wide.contains(p(0, 70)))
        XCTAssertFalse(wide.contains(p(0, 55)))
        XCTAssertTrue(wide.contains(p(-59, 55)), "near the corners it is where a map would draw it")
        let acrossTheDateLine = try GeoRegion.box(p(170, -20), p(-170, -10))
        XCTAssertTrue(acrossTheDateLine.contains(p(179.5, -15)))
        XCTAssertTrue(acrossTheDateLine.contains(p(-175, -15)))
        XCTAssertFalse(acrossTheDateLine.contains(p(0, -15)))
    }

    func testAPolygonWithAHoleAndAConcaveRing() throws {
        let square = [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]
        let hole = [p(4, 4), p(6, 4), p(6, 6), p(4, 6), p(4, 4)]
        let framed = try GeoRegion.polygon([square, hole])
        XCTAssertTrue(framed.contains(p(2, 2)))
        XCTAssertFalse(framed.contains(p(5, 5)), "in the hole")
        XCTAssertFalse(framed.contains(p(20, 20)))
        XCTAssertTrue(try GeoRegion.polygon([square.reversed()]).contains(p(5, 5)), "a clockwise ring means the same region")
        // An L: the notch at the upper right is outside.
        let ell = try GeoRegion.polygon([[p(0, 0), p(10, 0), p(10, 4), p(4, 4), p(4, 10), p(0, 10), p(0, 0)]])
        XCTAssertTrue(ell.contains(p(2, 8)))
        XCTAssertTrue(ell.contains(p(8, 2)))
        XCTAssertFalse(ell.contains(p(8, 8)))
        // Repeated adjacent points are one point, as in realm-core.
        XCTAssertTrue(try GeoRegion.polygon([[p(0, 0), p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]]).contains(p(5, 5)))
    }

    /// For a small convex ring turned counterclockwise, inside means left of every edge: the
    /// crossing count from a reference point must agree, wherever the ring is on the earth.
    func testRandomConvexRingsAgreeWithTheLeftOfEveryEdge() throws {
        var generator = SystemRandomNumberGenerator()
        var checked = 0, inside = 0
        for _ in 0..<200 {
            let center = p(Double.random(in: -180...180, using: &generator), Double.random(in: -80...80, using: &generator))
            let size = Double.random(in: 0.5...8, using: &generator)
            let count = Int.random(in: 3...9, using: &generator)
            let angles = (0..<count).map { _ in Double.random(in: 0..<(2 * .pi), using: &generator) }.sorted()
            guard Set(angles).count == count else { continue }
            var ring = angles.map { a -> GeoPoint in
                let lng = center.longitude + size * cos(a), lat = center.latitude + size * sin(a)
                return p(lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng, lat)
            }
            ring.append(ring[0])
            let region: GeoRegion
            do { region = try GeoRegion.polygon([ring]) } catch { continue }  // a degenerate draw
            let vertices = ring.dropLast().map(\.unitVector)
            for _ in 0..<50 {
                let probe = p(center.longitude + Double.random(in: -1.5...1.5, using: &generator) * size,
                              center.latitude + Double.random(in: -1.5...1.5, using: &generator) * size)
                guard probe.isValid else { continue }
                let v = probe.unitVector
                let sides = vertices.indices.map { UnitVector.orientation(vertices[$0], vertices[($0 + 1) % vertices.count], v) }
                guard !sides.contains(0) else { continue }  // on an edge's great circle
                let expected = sides.allSatisfy { $0 > 0 }
                XCTAssertEqual(region.contains(probe), expected, "\(ring) \(probe)")
                checked += 1
                if expected { inside += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 5000)
        XCTAssertGreaterThan(inside, 500, "the probes hit the inside too")
    }

    func testInvalidShapesAreRejectedWithTheReason() {
        rejects(try GeoRegion.circle(center: p(0, 0), radiusRadians: -1), "radius")
        rejects(try GeoRegion.circle(center: p(0, 0), radiusRadians: .nan), "radius")
        rejects(try GeoRegion.circle(center: p(181, 0), radiusRadians: 1), "out of bounds")
        rejects(try GeoRegion.box(p(0, 0), p(0, 0)), "at least 3 different points")
        rejects(try GeoRegion.box(p(0, -91), p(1, 1)), "out of bounds")
        rejects(try GeoRegion.polygon([]), "at least one ring")
        rejects(try GeoRegion.polygon([[p(0, 0), p(1, 0), p(1, 1), p(0, 1)]]), "not closed")
        rejects(try GeoRegion.polygon([[p(0, 0), p(2, 2), p(2, 0), p(0, 2), p(0, 0)]]), "cross")
        rejects(try GeoRegion.polygon([[p(0, 0), p(2, 0), p(1, 1), p(2, 2), p(0, 2), p(1, 1), p(0, 0)]]), "same point twice")
        rejects(try GeoRegion.polygon([[p(0, 0), p(1, 0), p(1, 1), p(0, 0)], [p(5, 5), p(6, 5), p(6, 6), p(5, 5)]]), "not inside the first ring")
        let square = [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]
        rejects(try GeoRegion.polygon([square, [p(1, 1), p(5, 1), p(5, 5), p(1, 1)], [p(2, 1.5), p(4, 1.5), p(4, 3), p(2, 1.5)]]), "holes may not cross or contain")
        let huge = (0...GeoRegion.maximumRingPoints).map { p(Double($0) / 100, 0) }
        rejects(try GeoRegion.polygon([huge]), "at most \(GeoRegion.maximumRingPoints)")
    }
}
