"""The Spies! mapsheet and counters as data: the loader and its checks.

The data lives in ``games/spies/data/map.json`` (countries, cities, rail and air lines, sea zones)
and ``games/spies/data/counters.json`` (the starting set-up per power, the 40 secrets, the Action
chits, the 50 Event Tiles, the Time and Victory Record). Their format is described by the JSON
schemas in ``data/schema/``; ``load_board`` checks all of it, and more (references resolve, the
map is connected, every country has one capital, there are as many SECRET cities as secrets left
over after the draw, a tile coded for a power lists a city outside that power's territory, where
its own spies can earn the award, ...), and raises ``BoardError`` listing every problem with the
file, the item and the field it concerns.

A club that owns the real components can replace the two files without touching code. One
idea, the components as checked data: the loader and every check it makes of them, together.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

DATA: Final = Path(__file__).parent / "data"
MAP_FILE: Final = DATA / "map.json"
COUNTERS_FILE: Final = DATA / "counters.json"

POWER_CODES: Final = ("G", "I", "R", "F", "B")  # the fixed turn order of the rules
CHIT_KINDS: Final = ("discovery", "papers", "sanction", "recruit", "escape", "cover")
FIRST_YEAR: Final = 1933
LAST_YEAR: Final = 1939
COUNTRY_KINDS: Final = ("home", "colony", "neutral")


class BoardError(ValueError):
    """The map or counters data is not usable. ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = "\n".join(f"- {p}" for p in problems[:40])
        more = f"\n(and {len(problems) - 40} more)" if len(problems) > 40 else ""
        super().__init__(f"The Spies! board data has {len(problems)} problem(s):\n{shown}{more}")


@dataclass(frozen=True, slots=True)
class Country:
    id: str
    name: str
    kind: str  # home, colony, neutral
    power: int | None  # index into POWER_CODES


@dataclass(frozen=True, slots=True)
class City:
    id: str
    name: str
    country: str
    lon: float
    lat: float
    capital: bool
    port: bool
    police: bool
    secret: bool


@dataclass(frozen=True, slots=True)
class SeaZone:
    id: str
    name: str
    lon: float
    lat: float
    adjacent: tuple[str, ...]
    ports: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpyCounter:
    strength: int
    value: int


@dataclass(frozen=True, slots=True)
class PowerSetup:
    code: str
    name: str
    adjective: str
    home: str  # country id
    capital: str  # city id
    bank: int
    secrets: int
    chits: int
    spies_at_start: int
    spies: tuple[SpyCounter, ...]
    police: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SecretSpec:
    id: str
    value: int
    counterspy: bool
    strength: int  # a counterspy's strength (0 for a plain secret)


@dataclass(frozen=True, slots=True)
class ChitSpec:
    kind: str
    name: str
    count: int
    cost: int
    when: str
    text: str


@dataclass(frozen=True, slots=True)
class EventTile:
    id: str
    title: str
    power: int | None  # None: a random tile
    years: tuple[int, ...]
    cities: tuple[str, ...]
    chits: int
    money: int

    @property
    def award(self) -> str:
        """The tile's award code as printed: "1c", "2£", "1c 2£"."""
        parts = []
        if self.chits:
            parts.append(f"{self.chits}c")
        if self.money:
            parts.append(f"{self.money}£")
        return " ".join(parts) or "none"


@dataclass(frozen=True, eq=False)
class Board:
    """Everything static about a game of Spies!: the map, the counters and the fixed numbers."""

    countries: Mapping[str, Country]
    cities: Mapping[str, City]
    sea_zones: Mapping[str, SeaZone]
    rail: tuple[tuple[str, str], ...]
    air: tuple[tuple[str, str], ...]
    powers: tuple[PowerSetup, ...]  # in turn order
    secrets: tuple[SecretSpec, ...]
    chits: Mapping[str, ChitSpec]
    events: Mapping[str, EventTile]
    multipliers: Mapping[int, int]
    chits_in_hand: int
    move_spaces: int
    police_per_city: int
    cash_in_money: int
    cash_in_chits: int
    random_events_drawn: int
    sanction_marker_value: int
    raw_map: Mapping[str, Any] = field(repr=False, default_factory=dict)
    # derived
    neighbours: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    territory: tuple[frozenset[str], ...] = field(init=False, repr=False)
    home_cities: tuple[frozenset[str], ...] = field(init=False, repr=False)
    police_cities: tuple[tuple[str, ...], ...] = field(init=False, repr=False)
    secret_cities: tuple[str, ...] = field(init=False, repr=False)
    city_ids: tuple[str, ...] = field(init=False, repr=False)
    owner: Mapping[str, int | None] = field(init=False, repr=False)  # city -> territory owner
    neutral: frozenset[str] = field(init=False, repr=False)  # cities in neutral countries
    capitals: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.powers)
        adj: dict[str, set[str]] = {node: set() for node in (*self.cities, *self.sea_zones)}
        for a, b in (*self.rail, *self.air):
            adj[a].add(b)
            adj[b].add(a)
        for zone in self.sea_zones.values():
            for port in zone.ports:
                adj[port].add(zone.id)
                adj[zone.id].add(port)
            for other in zone.adjacent:
                adj[zone.id].add(other)
                adj[other].add(zone.id)
        object.__setattr__(self, "neighbours", {node: tuple(sorted(s)) for node, s in adj.items()})
        owner: dict[str, int | None] = {}
        for city in self.cities.values():
            owner[city.id] = self.countries[city.country].power
        object.__setattr__(self, "owner", owner)
        object.__setattr__(
            self,
            "territory",
            tuple(frozenset(c for c, p in owner.items() if p == i) for i in range(n)),
        )
        object.__setattr__(
            self,
            "home_cities",
            tuple(
                frozenset(c.id for c in self.cities.values() if c.country == self.powers[i].home)
                for i in range(n)
            ),
        )
        object.__setattr__(
            self,
            "police_cities",
            tuple(
                tuple(
                    sorted(
                        c.id for c in self.cities.values() if c.police and c.country == self.powers[i].home
                    )
                )
                for i in range(n)
            ),
        )
        object.__setattr__(
            self, "secret_cities", tuple(sorted(c.id for c in self.cities.values() if c.secret))
        )
        object.__setattr__(self, "city_ids", tuple(sorted(self.cities)))
        object.__setattr__(
            self,
            "neutral",
            frozenset(c.id for c in self.cities.values() if self.countries[c.country].kind == "neutral"),
        )
        object.__setattr__(self, "capitals", tuple(p.capital for p in self.powers))

    def is_sea(self, node: str) -> bool:
        return node in self.sea_zones

    def multiplier(self, year: int) -> int:
        return self.multipliers[year]

    def as_json(self) -> dict[str, Any]:
        """The map for drawing (SVG) and for the rules pages: cities, links, sea zones, powers."""
        return {
            "countries": [
                {
                    "id": c.id,
                    "name": c.name,
                    "kind": c.kind,
                    "power": None if c.power is None else POWER_CODES[c.power],
                }
                for c in self.countries.values()
            ],
            "cities": [
                {
                    "id": c.id,
                    "name": c.name,
                    "country": c.country,
                    "lon": c.lon,
                    "lat": c.lat,
                    "capital": c.capital,
                    "port": c.port,
                    "police": c.police,
                    "secret": c.secret,
                }
                for c in self.cities.values()
            ],
            "rail": [list(link) for link in self.rail],
            "air": [list(link) for link in self.air],
            "sea_zones": [
                {
                    "id": z.id,
                    "name": z.name,
                    "ship": {"lon": z.lon, "lat": z.lat},
                    "adjacent": list(z.adjacent),
                    "ports": list(z.ports),
                }
                for z in self.sea_zones.values()
            ],
            "powers": [
                {"code": p.code, "name": p.name, "capital": p.capital, "home": p.home} for p in self.powers
            ],
            "chits": [
                {"kind": c.kind, "name": c.name, "count": c.count, "cost": c.cost, "text": c.text}
                for c in self.chits.values()
            ],
            "years": [{"year": y, "multiplier": m} for y, m in self.multipliers.items()],
        }


# ---------------------------------------------------------------------------- checking


class _Checker:
    """Collects problems; every message names the file, the item and the field."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, message: str) -> None:
        self.problems.append(message)

    def obj(self, value: Any, where: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(f"{where} must be an object, not {_show(value)}.")
            return None
        return value

    def items(self, data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
        value = data.get(key)
        if not isinstance(value, list):
            self.add(f"{where}: field '{key}' must be a list, not {_show(value)}.")
            return []
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.add(f"{where}: {key}[{i}] must be an object, not {_show(item)}.")
            else:
                out.append(item)
        return out

    def field(self, item: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if key not in item:
            self.add(f"{where}: field '{key}' is missing.")
            return None
        value = item[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok:
            names = " or ".join(_kind_name(k) for k in kinds)
            self.add(f"{where}: field '{key}' must be {names}, not {_show(value)}.")
            return None
        return value

    def count(self, item: dict[str, Any], key: str, where: str, least: int = 0) -> int | None:
        value = self.field(item, key, int, where)
        if value is not None and value < least:
            self.add(f"{where}: field '{key}' must be {least} or more, not {value}.")
            return None
        return value  # type: ignore[no-any-return]

    def unknown(self, item: dict[str, Any], allowed: set[str], where: str) -> None:
        for key in sorted(set(item) - allowed):
            self.add(f"{where}: unknown field '{key}' (known: {', '.join(sorted(allowed))}).")


def _kind_name(kind: type) -> str:
    return {
        str: "a string",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }.get(kind, kind.__name__)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _label(kind: str, index: int, item: dict[str, Any], key: str = "id") -> str:
    ident = item.get(key)
    return f"{kind}[{index}] {ident!r}" if isinstance(ident, str) else f"{kind}[{index}]"


def _check_map(raw: Any, check: _Checker) -> dict[str, Any] | None:
    where = "map.json"
    data = check.obj(raw, where)
    if data is None:
        return None
    if data.get("format") != "spies-map/1":
        check.add(f"map.json: field 'format' must be \"spies-map/1\", not {_show(data.get('format'))}.")
    check.unknown(
        data,
        {
            "format",
            "title",
            "provenance",
            "invented_fields",
            "countries",
            "cities",
            "rail",
            "air",
            "sea_zones",
        },
        where,
    )
    countries: dict[str, Country] = {}
    homes: dict[int, str] = {}
    for i, item in enumerate(check.items(data, "countries", where)):
        w = f"map.json: {_label('countries', i, item)}"
        check.unknown(item, {"id", "name", "kind", "power", "note"}, w)
        cid = check.field(item, "id", str, w)
        name = check.field(item, "name", str, w)
        kind = check.field(item, "kind", str, w)
        power: int | None = None
        if kind is not None and kind not in COUNTRY_KINDS:
            check.add(f"{w}: field 'kind' must be one of {', '.join(COUNTRY_KINDS)}, not {_show(kind)}.")
            kind = None
        code = item.get("power")
        if kind == "neutral":
            if code is not None:
                check.add(f"{w}: field 'power' must be absent for a neutral country, not {_show(code)}.")
        elif kind is not None:
            if code not in POWER_CODES:
                check.add(
                    f"{w}: field 'power' must be one of {', '.join(POWER_CODES)} for a {kind} country, "
                    f"not {_show(code)}."
                )
            else:
                power = POWER_CODES.index(code)
                if kind == "home":
                    if power in homes:
                        check.add(f"{w}: power {code} already has a home country ({homes[power]!r}).")
                    homes[power] = cid or "?"
        if cid is not None:
            if cid in countries:
                check.add(f"{w}: id {cid!r} is used twice.")
            if name is not None and kind is not None:
                countries[cid] = Country(cid, name, kind, power)
    for power, code in enumerate(POWER_CODES):
        if power not in homes:
            check.add(f"map.json: countries: power {code} has no country of kind 'home'.")

    cities: dict[str, City] = {}
    for i, item in enumerate(check.items(data, "cities", where)):
        w = f"map.json: {_label('cities', i, item)}"
        check.unknown(
            item, {"id", "name", "country", "lon", "lat", "capital", "port", "police", "secret", "note"}, w
        )
        cid = check.field(item, "id", str, w)
        name = check.field(item, "name", str, w)
        country = check.field(item, "country", str, w)
        lon = check.field(item, "lon", (int, float), w)
        lat = check.field(item, "lat", (int, float), w)
        flags = {key: check.field(item, key, bool, w) for key in ("capital", "port", "police", "secret")}
        if lon is not None and not -180 <= lon <= 180:
            check.add(f"{w}: field 'lon' must be a longitude from -180 to 180, not {lon}.")
        if lat is not None and not -90 <= lat <= 90:
            check.add(f"{w}: field 'lat' must be a latitude from -90 to 90, not {lat}.")
        if country is not None and country not in countries:
            check.add(f"{w}: field 'country' names no country in 'countries': {country!r}.")
            country = None
        if flags["police"] and country is not None and countries[country].kind != "home":
            check.add(
                f"{w}: field 'police' is true, but only cities of a power's home country "
                "are coded for police."
            )
        if cid is None:
            continue
        if cid in cities:
            check.add(f"{w}: id {cid!r} is used twice.")
        if name is None or country is None or lon is None or lat is None or None in flags.values():
            continue
        cities[cid] = City(
            cid,
            name,
            country,
            float(lon),
            float(lat),
            bool(flags["capital"]),
            bool(flags["port"]),
            bool(flags["police"]),
            bool(flags["secret"]),
        )

    capitals: dict[str, list[str]] = {cid: [] for cid in countries}
    for city in cities.values():
        if city.capital:
            capitals[city.country].append(city.id)
    for cid, found in capitals.items():
        if len(found) != 1:
            check.add(
                f"map.json: countries {cid!r} must have one city marked 'capital', not "
                f"{len(found)}{': ' + ', '.join(found) if found else ''}."
            )

    links: dict[str, list[tuple[str, str]]] = {}
    for key in ("rail", "air"):
        seen: set[frozenset[str]] = set()
        links[key] = []
        for i, item in enumerate(check.items(data, key, where)):
            w = f"map.json: {key}[{i}]"
            check.unknown(item, {"from", "to", "note"}, w)
            a = check.field(item, "from", str, w)
            b = check.field(item, "to", str, w)
            bad = False
            for end, value in (("from", a), ("to", b)):
                if value is not None and value not in cities:
                    check.add(f"{w}: field '{end}' names no city: {value!r}.")
                    bad = True
            if a is None or b is None or bad:
                continue
            if a == b:
                check.add(f"{w}: the line joins {a!r} to itself.")
                continue
            pair = frozenset((a, b))
            if pair in seen:
                check.add(f"{w}: the {key} line {a}-{b} is listed twice.")
                continue
            seen.add(pair)
            links[key].append((a, b))

    zones: dict[str, SeaZone] = {}
    raw_zones = check.items(data, "sea_zones", where)
    zone_ids = {item.get("id") for item in raw_zones if isinstance(item.get("id"), str)}
    for i, item in enumerate(raw_zones):
        w = f"map.json: {_label('sea_zones', i, item)}"
        check.unknown(item, {"id", "name", "ship", "adjacent", "ports", "note"}, w)
        zid = check.field(item, "id", str, w)
        name = check.field(item, "name", str, w)
        ship = check.field(item, "ship", dict, w)
        adjacent = check.field(item, "adjacent", list, w)
        ports = check.field(item, "ports", list, w)
        slon = slat = None
        if ship is not None:
            slon = check.field(ship, "lon", (int, float), f"{w}, field 'ship'")
            slat = check.field(ship, "lat", (int, float), f"{w}, field 'ship'")
        if zid is not None and zid in cities:
            check.add(f"{w}: id {zid!r} is also a city's id; sea zones and cities need different ids.")
        if zid is not None and zid in zones:
            check.add(f"{w}: id {zid!r} is used twice.")
        good_adjacent: list[str] = []
        for other in adjacent or []:
            if other not in zone_ids:
                check.add(f"{w}: field 'adjacent' names no sea zone: {_show(other)}.")
            elif other == zid:
                check.add(f"{w}: field 'adjacent' lists the zone itself.")
            else:
                good_adjacent.append(other)
        good_ports: list[str] = []
        for port in ports or []:
            if port not in cities:
                check.add(f"{w}: field 'ports' names no city: {_show(port)}.")
            else:
                good_ports.append(port)
        if ports is not None and not ports:
            check.add(f"{w}: field 'ports' is empty; a spy at sea must always be able to land in its zone.")
        if None in (zid, name, slon, slat) or adjacent is None or ports is None:
            continue
        assert zid is not None and slon is not None and slat is not None
        zones[zid] = SeaZone(zid, name, float(slon), float(slat), tuple(good_adjacent), tuple(good_ports))
    for zone in zones.values():
        for other in zone.adjacent:
            if other in zones and zone.id not in zones[other].adjacent:
                check.add(
                    f"map.json: sea_zones {zone.id!r}: field 'adjacent' lists {other!r}, but {other!r} "
                    f"does not list {zone.id!r} (adjacency must go both ways)."
                )
    ports_of = {p for z in zones.values() for p in z.ports}
    for city in cities.values():
        if city.port != (city.id in ports_of):
            if city.port:
                check.add(
                    f"map.json: cities {city.id!r}: field 'port' is true but no sea zone lists it in 'ports'."
                )
            else:
                check.add(
                    f"map.json: cities {city.id!r}: field 'port' is false but a sea zone lists it in 'ports'."
                )
    if check.problems:
        return None
    if cities:
        adj: dict[str, set[str]] = {node: set() for node in (*cities, *zones)}
        for a, b in (*links["rail"], *links["air"]):
            adj[a].add(b)
            adj[b].add(a)
        for zone in zones.values():
            for port in zone.ports:
                adj[port].add(zone.id)
                adj[zone.id].add(port)
            for other in zone.adjacent:
                adj[zone.id].add(other)
        start = next(iter(cities))
        seen_nodes = {start}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in adj[node]:
                if nxt not in seen_nodes:
                    seen_nodes.add(nxt)
                    queue.append(nxt)
        cut_off = sorted(c for c in cities if c not in seen_nodes)
        if cut_off:
            check.add(
                f"map.json: these cities cannot be reached from {start!r} by rail, air or sea: "
                f"{', '.join(cut_off)}."
            )
    return {
        "countries": countries,
        "cities": cities,
        "sea_zones": zones,
        "rail": tuple(links["rail"]),
        "air": tuple(links["air"]),
        "raw": data,
    }


def _check_counters(raw: Any, world: dict[str, Any], check: _Checker) -> dict[str, Any] | None:
    where = "counters.json"
    data = check.obj(raw, where)
    if data is None:
        return None
    if data.get("format") != "spies-counters/1":
        check.add(
            f"counters.json: field 'format' must be \"spies-counters/1\", not {_show(data.get('format'))}."
        )
    check.unknown(
        data,
        {
            "format",
            "provenance",
            "invented_fields",
            "turn_order",
            "powers",
            "secrets",
            "chits",
            "unused_chits",
            "events",
            "years",
            "limits",
        },
        where,
    )
    if data.get("turn_order") != list(POWER_CODES):
        check.add(
            f"counters.json: field 'turn_order' must be {json.dumps(list(POWER_CODES))} (Germany, Italy, "
            f"Russia, France, Britain: the rules' fixed order), not {_show(data.get('turn_order'))}."
        )
    countries: dict[str, Country] = world["countries"]
    cities: dict[str, City] = world["cities"]

    limits_raw = check.field(data, "limits", dict, where) or {}
    limit_keys = (
        "chits_in_hand",
        "move_spaces",
        "police_per_city",
        "cash_in_money",
        "cash_in_chits",
        "random_events_drawn",
        "sanction_marker_value",
    )
    check.unknown(limits_raw, set(limit_keys), "counters.json: limits")
    limits: dict[str, int] = {}
    for key in limit_keys:
        least = 1 if key in ("chits_in_hand", "move_spaces", "police_per_city") else 0
        value = check.count(limits_raw, key, "counters.json: limits", least)
        if value is not None:
            limits[key] = value
    per_city = limits.get("police_per_city", 2)

    powers: list[PowerSetup] = []
    raw_powers = check.items(data, "powers", where)
    if len(raw_powers) != len(POWER_CODES):
        check.add(
            f"counters.json: field 'powers' must list the {len(POWER_CODES)} powers, not {len(raw_powers)}."
        )
    keys = {
        "code",
        "name",
        "adjective",
        "home",
        "capital",
        "bank",
        "secrets",
        "chits",
        "spies_at_start",
        "spies",
        "police",
    }
    for i, item in enumerate(raw_powers):
        w = f"counters.json: {_label('powers', i, item, 'code')}"
        check.unknown(item, keys, w)
        code = check.field(item, "code", str, w)
        if code is not None and (i >= len(POWER_CODES) or code != POWER_CODES[i]):
            check.add(
                f"{w}: field 'code' must follow the turn order G, I, R, F, B (expected "
                f"{POWER_CODES[i] if i < len(POWER_CODES) else 'nothing'!r}), not {code!r}."
            )
        name = check.field(item, "name", str, w)
        adjective = check.field(item, "adjective", str, w)
        home = check.field(item, "home", str, w)
        capital = check.field(item, "capital", str, w)
        numbers = {key: check.count(item, key, w) for key in ("bank", "secrets", "chits", "spies_at_start")}
        if home is not None and (
            home not in countries or countries[home].kind != "home" or countries[home].power != i
        ):
            check.add(
                f"{w}: field 'home' must name the home country of this power in map.json, not {home!r}."
            )
            home = None
        if capital is not None:
            if capital not in cities:
                check.add(f"{w}: field 'capital' names no city: {capital!r}.")
                capital = None
            elif home is not None and cities[capital].country != home:
                check.add(f"{w}: field 'capital' {capital!r} is not in the home country {home!r}.")
            elif not cities[capital].capital:
                check.add(f"{w}: field 'capital' {capital!r} is not marked as a capital in map.json.")
        spies_raw = check.field(item, "spies", list, w) or []
        spies: list[SpyCounter] = []
        for j, spy in enumerate(spies_raw):
            sw = f"{w}, spies[{j}]"
            if not isinstance(spy, dict):
                check.add(f"{sw} must be an object with 'strength' and 'value', not {_show(spy)}.")
                continue
            check.unknown(spy, {"strength", "value"}, sw)
            strength = check.count(spy, "strength", sw, 1)
            value = check.count(spy, "value", sw, 0)
            if strength is not None and value is not None:
                spies.append(SpyCounter(strength, value))
        police_raw = check.field(item, "police", list, w) or []
        police: list[int] = []
        for j, strength in enumerate(police_raw):
            if isinstance(strength, bool) or not isinstance(strength, int) or strength < 1:
                check.add(
                    f"{w}, police[{j}]: a police strength must be a whole number, 1 or more, "
                    f"not {_show(strength)}."
                )
            else:
                police.append(strength)
        start = numbers["spies_at_start"]
        if start is not None and start > len(spies):
            check.add(f"{w}: field 'spies_at_start' is {start} but the power has only {len(spies)} spies.")
        most = limits.get("chits_in_hand")
        if numbers["chits"] is not None and most is not None and numbers["chits"] > most:
            check.add(f"{w}: field 'chits' is {numbers['chits']}, more than the {most} a power may hold.")
        if home is not None:
            police_cities = [c for c in cities.values() if c.country == home and c.police]
            if police and not police_cities:
                check.add(f"{w}: the power has police but no city of {home!r} is coded for police.")
            elif len(police) > per_city * len(police_cities):
                check.add(
                    f"{w}: field 'police' has {len(police)} pieces but {len(police_cities)} police cities "
                    f"hold at most {per_city * len(police_cities)}."
                )
            territory = [c for c in cities.values() if countries[c.country].power == i]
            if numbers["secrets"] is not None and numbers["secrets"] > len(territory):
                check.add(
                    f"{w}: field 'secrets' is {numbers['secrets']} but the power's territory has only "
                    f"{len(territory)} cities (one secret per city)."
                )
        if None in (code, name, adjective, home, capital) or None in numbers.values():
            continue
        powers.append(
            PowerSetup(
                code,
                name,
                adjective,
                home,
                capital,
                numbers["bank"] or 0,
                numbers["secrets"] or 0,
                numbers["chits"] or 0,
                numbers["spies_at_start"] or 0,
                tuple(spies),
                tuple(police),
            )
        )

    secrets: list[SecretSpec] = []
    seen_ids: set[str] = set()
    for i, item in enumerate(check.items(data, "secrets", where)):
        w = f"counters.json: {_label('secrets', i, item)}"
        check.unknown(item, {"id", "value", "counterspy", "strength"}, w)
        sid = check.field(item, "id", str, w)
        value = check.count(item, "value", w)
        counterspy = item.get("counterspy", False)
        if not isinstance(counterspy, bool):
            check.add(f"{w}: field 'counterspy' must be true or false, not {_show(counterspy)}.")
            counterspy = False
        strength = 0
        if counterspy:
            strength = check.count(item, "strength", w, 1) or 0
        elif "strength" in item:
            check.add(f"{w}: field 'strength' is only for counterspies (set \"counterspy\": true).")
        if sid is not None:
            if sid in seen_ids:
                check.add(f"{w}: id {sid!r} is used twice.")
            seen_ids.add(sid)
        if sid is not None and value is not None:
            secrets.append(SecretSpec(sid, value, counterspy, strength))
    drawn = sum(p.secrets for p in powers)
    secret_cities = [c for c in cities.values() if c.secret]
    if len(powers) == len(POWER_CODES) and len(secrets) != drawn + len(secret_cities):
        check.add(
            f"counters.json: field 'secrets': the powers draw {drawn} secrets and map.json marks "
            f"{len(secret_cities)} cities SECRET, so there must be {drawn + len(secret_cities)} secrets, "
            f"not {len(secrets)}."
        )

    chits: dict[str, ChitSpec] = {}
    for i, item in enumerate(check.items(data, "chits", where)):
        w = f"counters.json: {_label('chits', i, item, 'kind')}"
        check.unknown(item, {"kind", "name", "count", "cost", "when", "text"}, w)
        kind = check.field(item, "kind", str, w)
        if kind is not None and kind not in CHIT_KINDS:
            check.add(f"{w}: field 'kind' must be one of {', '.join(CHIT_KINDS)}, not {kind!r}.")
            kind = None
        if kind in chits:
            check.add(f"{w}: kind {kind!r} is listed twice.")
        name = check.field(item, "name", str, w)
        count = check.count(item, "count", w)
        cost = check.count(item, "cost", w)
        when = check.field(item, "when", str, w)
        text = check.field(item, "text", str, w)
        if None not in (kind, name, count, cost, when, text):
            assert kind is not None
            chits[kind] = ChitSpec(kind, name, count or 0, cost or 0, when, text)
    for kind in CHIT_KINDS:
        if kind not in chits and not any(
            p.startswith("counters.json: chits") and kind in p for p in check.problems
        ):
            check.add(f"counters.json: field 'chits' has no entry of kind {kind!r}.")
    total_chits = sum(c.count for c in chits.values())
    if powers and total_chits < sum(p.chits for p in powers):
        check.add(
            f"counters.json: field 'chits': there are {total_chits} chits in all but the powers draw "
            f"{sum(p.chits for p in powers)} at set-up."
        )

    years: dict[int, int] = {}
    for i, item in enumerate(check.items(data, "years", where)):
        w = f"counters.json: years[{i}]"
        check.unknown(item, {"year", "multiplier"}, w)
        year = check.field(item, "year", int, w)
        multiplier = check.count(item, "multiplier", w)
        if year is not None and year != FIRST_YEAR + i:
            check.add(
                f"{w}: field 'year' must be {FIRST_YEAR + i} (the record runs 1933 to 1939 in order), "
                f"not {year}."
            )
            continue
        if year is not None and multiplier is not None:
            years[year] = multiplier
    if len(years) != LAST_YEAR - FIRST_YEAR + 1 and not any("years[" in p for p in check.problems):
        check.add(f"counters.json: field 'years' must list the seven years 1933 to 1939, not {len(years)}.")

    events: dict[str, EventTile] = {}
    for i, item in enumerate(check.items(data, "events", where)):
        w = f"counters.json: {_label('events', i, item)}"
        check.unknown(item, {"id", "title", "power", "years", "cities", "chits", "money"}, w)
        eid = check.field(item, "id", str, w)
        title = check.field(item, "title", str, w)
        code = item.get("power", "missing")
        power: int | None = None
        if code == "missing":
            check.add(f"{w}: field 'power' is missing (a power code, or null for a random tile).")
        elif code is not None:
            if code not in POWER_CODES:
                check.add(
                    f"{w}: field 'power' must be one of {', '.join(POWER_CODES)} or null, not {_show(code)}."
                )
            else:
                power = POWER_CODES.index(code)
        tile_years = check.field(item, "years", list, w)
        tile_cities = check.field(item, "cities", list, w)
        award_chits = check.count(item, "chits", w)
        award_money = check.count(item, "money", w)
        for year in tile_years or []:
            if isinstance(year, bool) or not isinstance(year, int) or not FIRST_YEAR <= year <= LAST_YEAR:
                check.add(f"{w}: field 'years' holds {_show(year)}; a tile's years run from 1933 to 1939.")
        if tile_years is not None and not tile_years:
            check.add(f"{w}: field 'years' is empty; a tile must be playable in at least one year.")
        for city in tile_cities or []:
            if city not in cities:
                check.add(f"{w}: field 'cities' names no city: {_show(city)}.")
        for city in sorted({c for c in tile_cities or [] if isinstance(c, str) and tile_cities.count(c) > 1}):
            check.add(f"{w}: field 'cities' lists {city!r} twice.")
        if tile_cities is not None and not tile_cities:
            check.add(f"{w}: field 'cities' is empty.")
        if (
            power is not None
            and tile_cities
            and all(city in cities and countries[cities[city].country].power == power for city in tile_cities)
        ):
            check.add(
                f"{w}: field 'cities' lists only cities of {POWER_CODES[power]}'s own territory, where its "
                "spies earn nothing: a tile coded for a power must list a city outside its territory."
            )
        if eid is not None and eid in events:
            check.add(f"{w}: id {eid!r} is used twice.")
        if None in (eid, title, tile_years, tile_cities, award_chits, award_money) or code == "missing":
            continue
        assert eid is not None and tile_years is not None and tile_cities is not None
        events[eid] = EventTile(
            eid,
            title,
            power,
            tuple(y for y in tile_years if isinstance(y, int)),
            tuple(c for c in tile_cities if c in cities),
            award_chits or 0,
            award_money or 0,
        )
    randoms = sum(1 for e in events.values() if e.power is None)
    need = limits.get("random_events_drawn", 0) * len(POWER_CODES)
    if randoms < need:
        check.add(
            f"counters.json: field 'events' has {randoms} random tiles but the five powers draw "
            f"{limits.get('random_events_drawn', 0)} each ({need})."
        )
    for i, code in enumerate(POWER_CODES):
        if events and not any(e.power == i for e in events.values()):
            check.add(f"counters.json: field 'events' has no tile coded for power {code}.")

    if check.problems:
        return None
    return {
        "powers": tuple(powers),
        "secrets": tuple(secrets),
        "chits": chits,
        "events": events,
        "years": years,
        "limits": limits,
    }


def board_from_json(map_data: Any, counters_data: Any) -> Board:
    """Build a ``Board`` from the two parsed JSON documents, or raise ``BoardError``."""
    check = _Checker()
    world = _check_map(map_data, check)
    if world is None:
        raise BoardError(check.problems)
    counters = _check_counters(counters_data, world, check)
    if counters is None:
        raise BoardError(check.problems)
    limits = counters["limits"]
    return Board(
        countries=world["countries"],
        cities=world["cities"],
        sea_zones=world["sea_zones"],
        rail=world["rail"],
        air=world["air"],
        powers=counters["powers"],
        secrets=counters["secrets"],
        chits=counters["chits"],
        events=counters["events"],
        multipliers=counters["years"],
        chits_in_hand=limits["chits_in_hand"],
        move_spaces=limits["move_spaces"],
        police_per_city=limits["police_per_city"],
        cash_in_money=limits["cash_in_money"],
        cash_in_chits=limits["cash_in_chits"],
        random_events_drawn=limits["random_events_drawn"],
        sanction_marker_value=limits["sanction_marker_value"],
        raw_map=world["raw"],
    )


def _read(path: Path, name: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError([f"{name}: cannot be read ({exc.strerror or exc})."]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(
            [f"{name}: is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."]
        ) from None


def load_board(map_path: Path | str | None = None, counters_path: Path | str | None = None) -> Board:
    """Read and check the board files (the shipped ones by default)."""
    map_file = Path(map_path) if map_path is not None else MAP_FILE
    counters_file = Path(counters_path) if counters_path is not None else COUNTERS_FILE
    return board_from_json(_read(map_file, "map.json"), _read(counters_file, "counters.json"))


@cache
def default_board() -> Board:
    """The shipped board, read once."""
    return load_board()
