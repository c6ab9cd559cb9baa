"""The Spies! map's unchanging part: the projection, the land and the routes (drawn once).

Cities stand at their longitude and latitude (an equirectangular projection true at 45°N). There
are no country outlines in the board data, so land is the area nearer a city than any other place
(a Voronoi cell), clipped to a radius so the sea shows between coasts; a few points of open sea
and of inland country (below, not places of the game) shape the coasts and fill the interiors.
Each country's land takes its colour; borders are the cell edges between two countries.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Final

from django.utils.html import escape

from games.spies.board import POWER_CODES, Board, default_board

BOARD: Final[Board] = default_board()

Point = tuple[float, float]
Segment = tuple[Point, Point]

#: An equirectangular projection true at 45°N, in map units (the SVG's user space).
SCALE: Final = 21.0
LON_WEST: Final = -15.5
LAT_NORTH: Final = 62.0
LAT_SOUTH: Final = 20.5
LON_EAST: Final = 53.5
COS0: Final = math.cos(math.radians(45.0))
WIDTH: Final = round((LON_EAST - LON_WEST) * COS0 * SCALE)
HEIGHT: Final = round((LAT_NORTH - LAT_SOUTH) * SCALE)
LAND_RADIUS: Final = 2.4 * SCALE  # how far land reaches from a city when nothing is nearer
CIRCLE_SIDES: Final = 28

#: Points of open sea that shape the coasts (not places of the game: nothing stands there).
#: The sea zones' ships are sea too.
SEA_POINTS: Final = (
    (-9.5, 47.0),  # off Brittany
    (-11.0, 38.5),  # off Portugal
    (2.5, 41.0),  # off Catalonia
    (1.0, 39.6),  # Balearic Sea
    (3.6, 40.2),  # north of Majorca
    (5.0, 37.8),  # off Algeria
    (8.2, 43.4),  # Ligurian Sea
    (7.6, 42.1),  # west of Corsica
    (10.3, 42.4),  # east of Corsica
    (9.2, 41.25),  # Strait of Bonifacio
    (7.6, 39.6),  # west of Sardinia
    (8.8, 37.9),  # south of Sardinia
    (10.4, 38.8),  # Sardinia channel
    (12.5, 37.0),  # Sicily channel
    (18.0, 33.5),  # Gulf of Sidra
    (20.0, 38.5),  # Ionian coast
    (16.0, 41.8),  # Adriatic, south
    (13.0, 44.5),  # Adriatic, north
    (24.0, 36.0),  # off Crete
    (28.5, 35.0),  # south of Rhodes
    (33.0, 35.7),  # off Cyprus
    (31.0, 42.0),  # Black Sea, west
    (37.0, 44.0),  # Black Sea, east
    (35.0, 46.0),  # Sea of Azov
    (51.5, 42.0),  # Caspian Sea
    (51.0, 39.5),  # Caspian Sea, south
    (21.5, 61.0),  # Gulf of Bothnia
    (24.0, 59.7),  # Gulf of Finland
    (19.8, 57.8),  # Baltic, west
    (21.0, 55.8),  # Baltic, east
    (11.5, 54.8),  # Kiel bay
    (8.0, 56.2),  # Skagerrak
    (3.0, 52.5),  # North Sea, south
    (-1.5, 55.2),  # off Northumberland
    (-5.5, 52.0),  # St George's channel
    (-4.5, 54.8),  # North Channel
    (-8.0, 56.5),  # Hebrides
    (-1.0, 49.8),  # Channel
    (-4.0, 49.0),  # Channel, west
    (33.0, 31.8),  # off Sinai
    (34.0, 27.0),  # Gulf of Suez
    (34.95, 29.25),  # Gulf of Aqaba
    (39.0, 21.5),  # Red Sea, south
)


#: Points inland that fill the countries between their cities (not places of the game either).
LAND_POINTS: Final = (
    ("russia", 40.0, 55.5),
    ("russia", 45.0, 51.5),
    ("russia", 36.0, 51.5),
    ("russia", 31.5, 53.0),
    ("russia", 31.0, 57.5),
    ("russia", 35.5, 60.0),
    ("russia", 42.0, 58.5),
    ("russia", 48.0, 56.0),
    ("russia", 50.0, 53.0),
    ("russia", 42.0, 47.5),
    ("russia", 46.5, 44.5),
    ("russia", 28.5, 61.0),
    ("finland", 26.0, 62.0),
    ("finland", 23.0, 62.2),
    ("sweden", 15.0, 61.0),
    ("sweden", 14.5, 57.0),
    ("norway", 8.5, 61.0),
    ("poland", 20.0, 51.0),
    ("poland", 24.5, 52.5),
    ("russia", 28.5, 49.5),
    ("romania", 27.0, 47.3),
    ("turkey", 34.0, 39.0),
    ("turkey", 38.5, 38.5),
    ("turkey", 30.0, 38.5),
    ("turkey", 42.0, 39.8),
    ("spain", -4.0, 40.0),
    ("spain", -2.0, 38.3),
    ("spain", -6.5, 41.5),
    ("spain", 0.0, 41.5),
    ("portugal", -8.0, 39.5),
    ("france", 2.5, 47.0),
    ("france", 0.0, 46.0),
    ("france", 4.5, 45.0),
    ("france", 1.5, 44.0),
    ("egypt", 30.5, 27.0),
    ("egypt", 27.0, 28.0),
    ("egypt", 31.0, 24.0),
    ("libya", 17.5, 29.5),
    ("libya", 22.5, 29.5),
    ("libya", 13.5, 29.0),
    ("algeria", 3.0, 34.0),
    ("algeria", -0.5, 33.5),
    ("algeria", 7.0, 33.0),
    ("tunisia", 9.5, 34.5),
    ("morocco", -6.5, 31.5),
    ("morocco", -3.0, 33.0),
    ("saudi_arabia", 40.0, 26.0),
    ("saudi_arabia", 43.0, 23.5),
    ("saudi_arabia", 38.5, 29.0),
    ("saudi_arabia", 45.0, 27.5),
    ("transjordan", 37.5, 31.0),
    ("syria", 38.5, 35.0),
    ("iraq", 42.0, 33.5),
    ("iraq", 45.5, 31.0),
    ("persia", 49.0, 34.5),
    ("persia", 50.5, 31.0),
    ("persia", 47.0, 37.5),
    ("yugoslavia", 19.0, 44.0),
    ("romania", 24.5, 46.0),
    ("bulgaria", 25.0, 42.7),
    ("greece", 22.0, 39.5),
    ("hungary", 19.5, 46.8),
    ("czechoslovakia", 22.0, 48.7),
    ("germany", 10.0, 51.5),
    ("ireland", -8.0, 52.5),
    ("britain", -3.5, 52.5),
    ("britain", -4.0, 57.3),
    ("italy", 16.0, 40.7),
)


def project(lon: float, lat: float) -> Point:
    """Longitude and latitude to map units (x to the east, y to the south)."""
    return ((lon - LON_WEST) * COS0 * SCALE, (LAT_NORTH - lat) * SCALE)


def num(value: float) -> str:
    """A coordinate as short as it can be written (one decimal)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _clip(
    polygon: list[Point], tags: list[int | None], normal: Point, limit: float, tag: int
) -> tuple[list[Point], list[int | None]]:
    """Keep the part of a convex polygon where ``normal · p <= limit``. ``tags[k]`` names the line
    the edge from vertex k to vertex k+1 lies on (a site's index; -1 the sea; None the circle), so
    borders between countries can be told from coasts."""
    out: list[Point] = []
    out_tags: list[int | None] = []
    n = len(polygon)
    for k in range(n):
        p, q, t = polygon[k], polygon[(k + 1) % n], tags[k]
        dp = normal[0] * p[0] + normal[1] * p[1] - limit
        dq = normal[0] * q[0] + normal[1] * q[1] - limit
        if dp <= 0:
            out.append(p)
            out_tags.append(t)
            if dq > 0:
                f = dp / (dp - dq)
                out.append((p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])))
                out_tags.append(tag)
        elif dq <= 0:
            f = dp / (dp - dq)
            out.append((p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1])))
            out_tags.append(t)
    return out, out_tags


@cache
def _land() -> tuple[dict[str, list[Point]], list[Segment], list[Segment]]:
    """The land of each city and inland point (polygons), the borders and the coast, in map units."""
    sites: list[tuple[str, str, Point]] = [
        (city.id, city.country, project(city.lon, city.lat)) for city in BOARD.cities.values()
    ]
    sites += [(f"land-{k}", country, project(lon, lat)) for k, (country, lon, lat) in enumerate(LAND_POINTS)]
    sea = [project(z.lon, z.lat) for z in BOARD.sea_zones.values()] + [project(*pt) for pt in SEA_POINTS]
    cells: dict[str, list[Point]] = {}
    borders: list[Segment] = []
    coast: list[Segment] = []
    reach = 2 * LAND_RADIUS
    others: list[tuple[int, Point]] = [(j, site[2]) for j, site in enumerate(sites)] + [
        (-1, pt) for pt in sea
    ]
    for i, (site_id, country, (cx, cy)) in enumerate(sites):
        polygon: list[Point] = [
            (
                cx + LAND_RADIUS * math.cos(2 * math.pi * k / CIRCLE_SIDES),
                cy + LAND_RADIUS * math.sin(2 * math.pi * k / CIRCLE_SIDES),
            )
            for k in range(CIRCLE_SIDES)
        ]
        tags: list[int | None] = [None] * CIRCLE_SIDES
        for j, (ox, oy) in others:
            if j == i or abs(ox - cx) > reach or abs(oy - cy) > reach:
                continue
            limit = (ox * ox + oy * oy - cx * cx - cy * cy) / 2
            polygon, tags = _clip(polygon, tags, (ox - cx, oy - cy), limit, j)
            if not polygon:
                break
        cells[site_id] = polygon
        for k, tag in enumerate(tags):
            edge = (polygon[k], polygon[(k + 1) % len(polygon)])
            if tag is None or tag == -1:
                coast.append(edge)
            elif tag > i and sites[tag][1] != country:
                borders.append(edge)
    return cells, borders, coast


def _country_look(country_id: str) -> str:
    country = BOARD.countries[country_id]
    if country.power is None:
        return "sp-neutral"
    return f"sp-{country.kind} sp-{POWER_CODES[country.power]}"


def _polygon_path(points: list[Point]) -> str:
    if not points:
        return ""
    return "M" + "L".join(f"{num(x)},{num(y)}" for x, y in points) + "Z"


def _segments_path(segments: Iterable[Segment]) -> str:
    return "".join(f"M{num(a[0])},{num(a[1])}L{num(b[0])},{num(b[1])}" for a, b in segments)


def node_xy(node: str) -> Point:
    """Where a city or a sea zone's ship is drawn."""
    if node in BOARD.cities:
        city = BOARD.cities[node]
        return project(city.lon, city.lat)
    zone = BOARD.sea_zones[node]
    return project(zone.lon, zone.lat)


def node_name(node: str | None) -> str:
    """A city or a sea zone in words."""
    if node is None:
        return "nowhere"
    if node in BOARD.cities:
        return BOARD.cities[node].name
    if node in BOARD.sea_zones:
        return f"the {BOARD.sea_zones[node].name}"
    return str(node)


def _arc(a: Point, b: Point) -> str:
    """An air line: a gentle curve, so it is not mistaken for a railway."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    bend = 0.12
    cx, cy = mx - dy * bend, my + dx * bend
    return f"M{num(a[0])},{num(a[1])}Q{num(cx)},{num(cy)} {num(b[0])},{num(b[1])}"


@cache
def map_background() -> str:
    """The unchanging part of the map (land, borders, routes), drawn once per process."""
    cells, borders, coast = _land()
    by_country: dict[str, list[str]] = defaultdict(list)
    for city in BOARD.cities.values():
        by_country[city.country].append(_polygon_path(cells[city.id]))
    for k, (country_id, _, _) in enumerate(LAND_POINTS):
        by_country[country_id].append(_polygon_path(cells[f"land-{k}"]))
    parts: list[str] = [f'<rect class="sp-sea-bg" x="0" y="0" width="{WIDTH}" height="{HEIGHT}"/>']
    parts.append('<g class="sp-land">')
    for country_id, paths in by_country.items():
        parts.append(
            f'<path class="sp-country {_country_look(country_id)}" data-country="{escape(country_id)}" '
            f'd="{"".join(paths)}"><title>{escape(BOARD.countries[country_id].name)}</title></path>'
        )
    parts.append("</g>")
    parts.append(f'<path class="sp-coast" d="{_segments_path(coast)}"/>')
    parts.append(f'<path class="sp-border" d="{_segments_path(borders)}"/>')
    # Country names, at the middle of their cities (home countries large, the others small).
    parts.append('<g class="sp-country-names" aria-hidden="true">')
    members: dict[str, list[Point]] = defaultdict(list)
    for city in BOARD.cities.values():
        members[city.country].append(project(city.lon, city.lat))
    for country_id, points in members.items():
        country = BOARD.countries[country_id]
        x = sum(pt[0] for pt in points) / len(points)
        y = sum(pt[1] for pt in points) / len(points)
        home = country.kind == "home"
        size = "sp-cn-home" if home else ("sp-cn-small" if len(points) < 2 else "sp-cn")
        label = country.name.upper() if home else country.name
        parts.append(
            f'<text class="{size}" x="{num(x)}" y="{num(y + (26 if home else 18))}">{escape(label)}</text>'
        )
    parts.append("</g>")
    # Routes: sea lanes (port to ship, ship to ship), rail lines and air lines.
    lanes: list[Segment] = []
    for zone in BOARD.sea_zones.values():
        ship = project(zone.lon, zone.lat)
        lanes.extend((ship, node_xy(port)) for port in zone.ports)
        lanes.extend((ship, node_xy(other)) for other in zone.adjacent if other > zone.id)
    rail = _segments_path((node_xy(a), node_xy(b)) for a, b in BOARD.rail)
    air = "".join(_arc(node_xy(a), node_xy(b)) for a, b in BOARD.air)
    parts.append(f'<path class="sp-lane" d="{_segments_path(lanes)}"/>')
    parts.append(f'<path class="sp-rail" d="{rail}"/>')
    parts.append(f'<path class="sp-air" d="{air}"/>')
    return "".join(parts)


SHIP: Final = "M-8,0L8,0L5,5L-5,5ZM-1,0L-1,-9L6,-1.5L-1,-1.5Z"
STAR: Final = "M0,-7.5L2,-2.4L7.2,-2.3L3.1,1L4.5,6.1L0,3.1L-4.5,6.1L-3.1,1L-7.2,-2.3L-2,-2.4Z"
