"""The map and counters data: the shipped files validate; broken files give clear errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from games.spies.board import (
    COUNTERS_FILE,
    MAP_FILE,
    POWER_CODES,
    BoardError,
    board_from_json,
    default_board,
    load_board,
)

SCHEMAS = MAP_FILE.parent / "schema"


def shipped() -> tuple[dict[str, Any], dict[str, Any]]:
    return json.loads(MAP_FILE.read_text()), json.loads(COUNTERS_FILE.read_text())


def problems(map_data: Any, counters_data: Any) -> list[str]:
    with pytest.raises(BoardError) as info:
        board_from_json(map_data, counters_data)
    return info.value.problems


# The shipped data ---------------------------------------------------------------


def test_the_shipped_map_and_counters_validate() -> None:
    board = load_board()
    assert len(board.cities) >= 100
    assert len(board.secrets) == 40
    assert len(board.events) == 50
    assert [p.code for p in board.powers] == list(POWER_CODES)


def test_the_shipped_files_match_their_json_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    map_data, counters_data = shipped()
    jsonschema.validate(map_data, json.loads((SCHEMAS / "map.schema.json").read_text()))
    jsonschema.validate(counters_data, json.loads((SCHEMAS / "counters.schema.json").read_text()))


def test_the_map_has_the_five_home_countries_with_their_capitals() -> None:
    board = default_board()
    capitals = {p.code: p.capital for p in board.powers}
    assert capitals == {"G": "berlin", "I": "rome", "R": "moscow", "F": "paris", "B": "london"}
    for i, power in enumerate(board.powers):
        assert board.cities[power.capital].capital
        assert board.cities[power.capital].police, "the capital is coded for police"
        assert power.capital in board.home_cities[i]


def test_eight_cities_are_marked_secret_in_neutral_countries() -> None:
    board = default_board()
    assert len(board.secret_cities) == 8
    assert set(board.secret_cities) <= board.neutral


def test_police_cities_lie_in_home_countries_only() -> None:
    board = default_board()
    for city in board.cities.values():
        if city.police:
            assert board.countries[city.country].kind == "home", city.id


def test_colonies_belong_to_their_powers_territory_but_not_their_home_country() -> None:
    board = default_board()
    france = POWER_CODES.index("F")
    assert "algiers" in board.territory[france]
    assert "algiers" not in board.home_cities[france]
    assert "madrid" in board.neutral


def test_cities_have_real_coordinates_in_europe_the_middle_east_and_north_africa() -> None:
    board = default_board()
    for city in board.cities.values():
        assert -15 <= city.lon <= 60 and 20 <= city.lat <= 65, city.id
    # a few checks against real geography
    assert board.cities["paris"].lon < board.cities["berlin"].lon < board.cities["moscow"].lon
    assert board.cities["rome"].lat < board.cities["berlin"].lat < board.cities["stockholm"].lat


def test_ports_and_sea_zones_agree_and_every_zone_has_a_port() -> None:
    board = default_board()
    ports = {p for zone in board.sea_zones.values() for p in zone.ports}
    assert ports == {c.id for c in board.cities.values() if c.port}
    for zone in board.sea_zones.values():
        assert zone.ports
        for other in zone.adjacent:
            assert zone.id in board.sea_zones[other].adjacent


def test_the_movement_graph_joins_rail_air_and_sea() -> None:
    board = default_board()
    assert "paris" in board.neighbours["london"]  # air
    assert "dover" in board.neighbours["london"]  # rail
    assert "north_sea" in board.neighbours["london"]  # to sea
    assert "baltic" in board.neighbours["north_sea"]  # by sea
    assert "hamburg" in board.neighbours["north_sea"]  # from sea


def test_the_map_has_the_ports_islands_and_capitals_of_the_era() -> None:
    board = default_board()
    ports = {"gdynia": "poland", "memel": "lithuania", "durazzo": "albania", "aqaba": "transjordan"}
    for city, country in ports.items():
        assert board.cities[city].country == country and board.cities[city].port, city
    islands = {
        "cagliari": "italy",
        "ajaccio": "france",
        "bastia": "france",
        "canea": "greece",
        "palma": "spain",
    }
    for city, country in islands.items():
        assert board.cities[city].country == country and board.cities[city].port, city
    assert board.countries["spanish_morocco"].kind == "neutral"
    assert board.cities["tetuan"].capital and board.cities["tetuan"].country == "spanish_morocco"
    assert board.cities["jeddah"].capital  # Saudi Arabia's diplomatic capital
    for country in board.countries:
        capitals = [c.id for c in board.cities.values() if c.country == country and c.capital]
        assert len(capitals) == 1, (country, capitals)
    # Albania and Lithuania are reached by sea now; the Memel Ultimatum names Memel
    assert "adriatic" in board.neighbours["durazzo"] and "baltic" in board.neighbours["memel"]
    assert "memel" in board.events["X15"].cities


def test_every_country_tile_names_a_city_outside_its_powers_territory() -> None:
    board = default_board()
    for tile in board.events.values():
        if tile.power is not None:
            assert any(city not in board.territory[tile.power] for city in tile.cities), tile.id
        assert len(set(tile.cities)) == len(tile.cities), tile.id


def test_the_counters_give_forty_secrets_and_the_chits_of_the_rules() -> None:
    board = default_board()
    drawn = sum(p.secrets for p in board.powers)
    assert drawn + len(board.secret_cities) == 40
    assert set(board.chits) == {"discovery", "papers", "sanction", "recruit", "escape", "cover"}
    assert any(s.counterspy for s in board.secrets)
    assert all(s.strength > 0 for s in board.secrets if s.counterspy)


def test_seven_event_tiles_per_power_and_fifteen_random() -> None:
    board = default_board()
    for i in range(5):
        assert sum(1 for e in board.events.values() if e.power == i) == 7
    assert sum(1 for e in board.events.values() if e.power is None) == 15


def test_every_invented_field_is_marked_in_the_files() -> None:
    map_data, counters_data = shipped()
    assert set(map_data["invented_fields"]["cities"]) >= {"police", "secret"}
    assert "invented" in map_data["provenance"]
    for key in ("powers", "secrets", "chits", "events", "years"):
        assert counters_data["invented_fields"][key], key
    assert "invented" in counters_data["provenance"]


def test_a_club_can_load_replacement_files_from_another_place(tmp_path: Path) -> None:
    map_data, counters_data = shipped()
    counters_data["powers"][0]["bank"] = 99
    (tmp_path / "m.json").write_text(json.dumps(map_data))
    (tmp_path / "c.json").write_text(json.dumps(counters_data))
    board = load_board(tmp_path / "m.json", tmp_path / "c.json")
    assert board.powers[0].bank == 99


# Broken data -----------------------------------------------------------------------


def test_a_city_with_a_bad_latitude_is_named_with_its_field() -> None:
    map_data, counters_data = shipped()
    broken = copy.deepcopy(map_data)
    paris = next(c for c in broken["cities"] if c["id"] == "paris")
    paris["lat"] = 123
    found = problems(broken, counters_data)
    assert any("'paris'" in p and "'lat'" in p and "123" in p for p in found), found


def test_a_missing_field_is_named() -> None:
    map_data, counters_data = shipped()
    del map_data["cities"][0]["country"]
    found = problems(map_data, counters_data)
    assert any("cities[0]" in p and "'country' is missing" in p for p in found), found


def test_a_rail_line_to_an_unknown_city_is_named() -> None:
    map_data, counters_data = shipped()
    map_data["rail"].append({"from": "paris", "to": "atlantis"})
    found = problems(map_data, counters_data)
    assert any("rail[" in p and "'to'" in p and "atlantis" in p for p in found), found


def test_one_way_sea_adjacency_is_refused() -> None:
    map_data, counters_data = shipped()
    zone = next(z for z in map_data["sea_zones"] if z["id"] == "red_sea")
    zone["adjacent"].append("black_sea")
    found = problems(map_data, counters_data)
    assert any("'red_sea'" in p and "both ways" in p for p in found), found


def test_a_port_flag_without_a_sea_zone_is_refused() -> None:
    map_data, counters_data = shipped()
    madrid = next(c for c in map_data["cities"] if c["id"] == "madrid")
    madrid["port"] = True
    found = problems(map_data, counters_data)
    assert any("'madrid'" in p and "'port'" in p for p in found), found


def test_a_cut_off_city_is_refused() -> None:
    map_data, counters_data = shipped()
    map_data["cities"].append(
        {
            "id": "reykjavik",
            "name": "Reykjavik",
            "country": "denmark",
            "lon": -21.9,
            "lat": 64.1,
            "capital": False,
            "port": False,
            "police": False,
            "secret": False,
        }
    )
    found = problems(map_data, counters_data)
    assert any("cannot be reached" in p and "reykjavik" in p for p in found), found


def test_police_outside_a_home_country_are_refused() -> None:
    map_data, counters_data = shipped()
    madrid = next(c for c in map_data["cities"] if c["id"] == "madrid")
    madrid["police"] = True
    found = problems(map_data, counters_data)
    assert any("'madrid'" in p and "police" in p for p in found), found


def test_the_secret_count_must_match_the_draw_and_the_secret_cities() -> None:
    map_data, counters_data = shipped()
    counters_data["secrets"].pop()
    found = problems(map_data, counters_data)
    assert any("there must be 40 secrets, not 39" in p for p in found), found


def test_a_counterspy_needs_a_strength() -> None:
    map_data, counters_data = shipped()
    item = next(s for s in counters_data["secrets"] if s.get("counterspy"))
    del item["strength"]
    found = problems(map_data, counters_data)
    assert any(repr(item["id"]) in p and "'strength' is missing" in p for p in found), found


def test_an_event_tile_with_a_year_off_the_track_is_named() -> None:
    map_data, counters_data = shipped()
    counters_data["events"][0]["years"] = [1932]
    found = problems(map_data, counters_data)
    assert any("events[0] 'G1'" in p and "1932" in p for p in found), found


def test_a_country_tile_that_lists_only_its_own_powers_cities_is_refused() -> None:
    map_data, counters_data = shipped()
    counters_data["events"][0]["cities"] = ["berlin", "leipzig"]
    found = problems(map_data, counters_data)
    assert any("events[0] 'G1'" in p and "only cities of G's own territory" in p for p in found), found


def test_a_tile_listing_a_city_twice_is_refused() -> None:
    map_data, counters_data = shipped()
    counters_data["events"][1]["cities"] = ["munich", "prague", "munich"]
    found = problems(map_data, counters_data)
    assert any("events[1] 'G2'" in p and "'munich' twice" in p for p in found), found


def test_a_country_needs_one_capital() -> None:
    map_data, counters_data = shipped()
    next(c for c in map_data["cities"] if c["id"] == "jeddah")["capital"] = False
    next(c for c in map_data["cities"] if c["id"] == "porto")["capital"] = True
    found = problems(map_data, counters_data)
    assert any("'saudi_arabia' must have one city marked 'capital', not 0" in p for p in found), found
    assert any("'portugal' must have one city marked 'capital', not 2: lisbon, porto" in p for p in found), (
        found
    )


def test_a_capital_outside_the_home_country_is_refused() -> None:
    map_data, counters_data = shipped()
    counters_data["powers"][0]["capital"] = "vienna"
    found = problems(map_data, counters_data)
    assert any("powers[0] 'G'" in p and "'capital'" in p for p in found), found


def test_too_many_police_for_the_police_cities_is_refused() -> None:
    map_data, counters_data = shipped()
    counters_data["powers"][1]["police"] = [1] * 20
    found = problems(map_data, counters_data)
    assert any("powers[1] 'I'" in p and "hold at most" in p for p in found), found


def test_the_turn_order_is_fixed() -> None:
    map_data, counters_data = shipped()
    counters_data["turn_order"] = ["B", "F", "R", "I", "G"]
    found = problems(map_data, counters_data)
    assert any("turn_order" in p for p in found), found


def test_unknown_fields_are_reported_with_the_known_ones() -> None:
    map_data, counters_data = shipped()
    map_data["cities"][3]["colour"] = "red"
    found = problems(map_data, counters_data)
    assert any("unknown field 'colour'" in p and "known:" in p for p in found), found


def test_bad_json_and_missing_files_are_explained(tmp_path: Path) -> None:
    bad = tmp_path / "map.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError, match=r"map.json: is not valid JSON"):
        load_board(bad, COUNTERS_FILE)
    with pytest.raises(BoardError, match=r"cannot be read"):
        load_board(tmp_path / "nothing.json", COUNTERS_FILE)


def test_every_problem_is_listed_at_once() -> None:
    map_data, counters_data = shipped()
    map_data["cities"][0]["lat"] = "north"
    map_data["cities"][1]["lon"] = 500
    found = problems(map_data, counters_data)
    assert len(found) >= 2
    message = str(BoardError(found))
    assert "problem(s)" in message and "north" in message
