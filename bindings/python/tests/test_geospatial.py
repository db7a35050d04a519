"""GEOWITHIN from Python, as realm-core's SDKs store locations: an embedded object with a
``type`` ("Point") and ``coordinates`` ([longitude, latitude]). Circles (radius in radians),
boxes and polygons with holes; shapes written in the query, with arguments for numbers, or
given whole as a text argument; live results, on an event loop, moved by another process."""
from __future__ import annotations

import pytest

import realmdb

SCHEMA = [
    {"name": "Location", "embedded": True, "properties": {"type": "string", "coordinates": "double[]"}},
    {"name": "Place", "primary_key": "name", "properties": {"name": "string", "location": "Location?"}},
    {"name": "Trip", "primary_key": "title", "properties": {"title": "string", "stops": "Place[]"}},
]

#: Radians per kilometre on a sphere of the earth's mean radius.
KM = 1 / 6371.0


def point(longitude: float, latitude: float) -> dict:
    return {"type": "Point", "coordinates": [longitude, latitude]}


@pytest.fixture
def places(open_realm):
    r = open_realm(SCHEMA)
    with r.write():
        rome = r.create("Place", {"name": "Rome", "location": point(12.4964, 41.9028)})
        paris = r.create("Place", {"name": "Paris", "location": point(2.3522, 48.8566)})
        r.create("Place", {"name": "Suva", "location": point(178.4419, -18.1416)})
        r.create("Place", {"name": "Nowhere"})
        r.create("Place", {"name": "Area", "location": {"type": "Polygon", "coordinates": [12.5, 41.9]}})
        r.create("Place", {"name": "Short", "location": {"type": "Point", "coordinates": [12.5]}})
        r.create("Trip", {"title": "Italy", "stops": [rome]})
        r.create("Trip", {"title": "Grand tour", "stops": [paris, rome]})
    return r


def names(results) -> list:
    return sorted(o.name if hasattr(o, "name") else o.title for o in results)


def test_a_circle_finds_the_places_within_its_radius(places):
    near_rome = "location GEOWITHIN geoCircle([12.5, 41.9], $0)"
    assert names(places.objects("Place").filter(near_rome, 10 * KM)) == ["Rome"]
    assert names(places.objects("Place").filter(near_rome, 1200 * KM)) == ["Paris", "Rome"]  # 1,106 km apart
    assert names(places.objects("Place").filter(near_rome, 1000 * KM)) == ["Rome"]
    assert names(places.objects("Place").filter("location geoWithin geoCircle([$0, $1], $2)", 2.35, 48.86, 5 * KM)) == ["Paris"]


def test_boxes_and_polygons(places):
    assert names(places.objects("Place").filter("location GEOWITHIN geoBox([0, 40], [20, 50])")) == ["Paris", "Rome"]
    assert names(places.objects("Place").filter("location GEOWITHIN geoBox([20, 50], [0, 40])")) == ["Paris", "Rome"]
    # Across the date line: the sides are the short great-circle arcs.
    assert names(places.objects("Place").filter("location GEOWITHIN geoBox([170, -25], [-170, -10])")) == ["Suva"]
    square = "{[0, 40], [20, 40], [20, 50], [0, 50], [0, 40]}"
    around_rome = "{[10, 41], [14, 41], [14, 43], [10, 43], [10, 41]}"
    assert names(places.objects("Place").filter(f"location GEOWITHIN geoPolygon({square})")) == ["Paris", "Rome"]
    assert names(places.objects("Place").filter(f"location GEOWITHIN geoPolygon({square}, {around_rome})")) == ["Paris"]
    assert names(places.objects("Place").filter(f"NOT location GEOWITHIN geoPolygon({square})")) == ["Area", "Nowhere", "Short", "Suva"]


def test_a_shape_given_as_a_text_argument(places):
    assert names(places.objects("Place").filter("location GEOWITHIN $0", "geoCircle([2.35, 48.85], 0.001)")) == ["Paris"]
    assert names(places.objects("Place").filter("location GEOWITHIN $0", "GeoPolygon({[0, 40], [20, 40], [20, 50], [0, 40]})")) == ["Rome"]


def test_through_a_list_of_links_with_quantifiers(places):
    near_paris = "stops.location GEOWITHIN geoCircle([2.35, 48.85], 0.01)"
    assert names(places.objects("Trip").filter(near_paris)) == ["Grand tour"]
    assert names(places.objects("Trip").filter("ANY " + near_paris)) == ["Grand tour"]
    assert names(places.objects("Trip").filter("NONE " + near_paris)) == ["Italy"]
    assert names(places.objects("Trip").filter("ALL stops.location GEOWITHIN geoCircle([12.5, 41.9], 0.01)")) == ["Italy"]


@pytest.mark.parametrize("query, args, message", [
    ("location GEOWITHIN geoCircle([0, 0], -1)", (), "radius"),
    ("location GEOWITHIN geoCircle([0, 0], $0)", (float("nan"),), "numbers"),
    ("location GEOWITHIN geoCircle([0, 0], $0)", ("far",), "numbers"),
    ("location GEOWITHIN geoCircle([0, 0], $0)", (None,), "numbers"),
    ("location GEOWITHIN geoCircle([200, 0], 1)", (), "out of bounds"),
    ("location GEOWITHIN geoBox([1, 1], [1, 1])", (), "at least 3 different points"),
    ("location GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1]})", (), "not closed"),
    ("location GEOWITHIN geoPolygon({[0, 0], [2, 2], [2, 0], [0, 2], [0, 0]})", (), "cross"),
    ("location GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[5, 5], [6, 5], [6, 6], [5, 5]})", (), "holes in it"),
    ("location GEOWITHIN NULL", (), "GEOWITHIN expects"),
    ("location GEOWITHIN 'Rome'", (), "GEOWITHIN expects"),
    ("location GEOWITHIN $0", ("geoCircle([0, 0]",), "is not a shape"),
    ("location GEOWITHIN $0", ("geoCircle([0, 0], 1) OR TRUEPREDICATE",), "is not a shape"),
    ("location GEOWITHIN $0", ("geoCircle([0, 0], 1\x00)",), ""),
    ("location GEOWITHIN $0", (5,), "a shape written as text"),
    ("location GEOWITHIN $1", ("geoCircle([0, 0], 1)",), "argument $1 was not given"),
    ("name GEOWITHIN geoCircle([0, 0], 1)", (), "needs a link to objects holding a GeoJSON point"),
    ("ANY location GEOWITHIN geoCircle([0, 0], 1)", (), "through a collection"),
])
def test_bad_shapes_and_operands_are_clear_errors(places, query, args, message):
    with pytest.raises((realmdb.QueryError, ValueError)) as info:
        places.objects("Place").filter(query, *args)
    assert message in str(info.value)


def test_a_class_without_type_and_coordinates_is_refused(open_realm):
    r = open_realm([{"name": "Spot", "embedded": True, "properties": {"lat": "double", "lng": "double"}},
                    {"name": "Place", "properties": {"spot": "Spot?"}}])
    with pytest.raises(realmdb.QueryError, match="must have a string property 'type' and a list of doubles 'coordinates'"):
        r.objects("Place").filter("spot GEOWITHIN geoCircle([0, 0], 1)")


def test_live_results_follow_a_place_moved_by_another_process(run_python, tmp_realm_path):
    """On an event loop, as the README teaches: another process moves Paris next to Rome, and the
    observer of the places near Rome hears of it without any refresh()."""
    result = run_python(f"""
        import asyncio, realmdb
        PATH, SCHEMA = {tmp_realm_path!r}, {SCHEMA!r}
        MOVE = (
            "import realmdb\\n"
            "r = realmdb.open(%r, %r)\\n"
            "with r.write():\\n"
            "    r.object_for_primary_key('Place', 'Paris').location.coordinates = [12.49, 41.89]\\n"
            "r.close()\\n" % (PATH, SCHEMA))
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            with r.write():
                r.create("Place", {{"name": "Rome", "location": {{"type": "Point", "coordinates": [12.4964, 41.9028]}}}})
                r.create("Place", {{"name": "Paris", "location": {{"type": "Point", "coordinates": [2.3522, 48.8566]}}}})
            r.attach_loop()
            near = r.objects("Place").filter("location GEOWITHIN geoCircle([12.5, 41.9], 0.01)")
            seen, moved = [], asyncio.Event()
            def changed(results, changes):
                seen.append(sorted(p.name for p in results))  # reads back into the library
                if len(seen[-1]) == 2:
                    moved.set()
            token = near.observe(changed)
            writer = await asyncio.create_subprocess_exec(__import__("sys").executable, "-c", MOVE)
            assert await writer.wait() == 0
            await asyncio.wait_for(moved.wait(), 10)
            token.invalidate()
            r.close()
            print(seen[0], seen[-1])
        asyncio.run(main())
    """, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['Rome'] ['Paris', 'Rome']"
