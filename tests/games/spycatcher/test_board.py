"""The board as data: the shipped board, the loader's error messages, and another board played to the end."""

from __future__ import annotations

import copy
import json
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from games.core import InvalidOptions, describe_options
from games.spycatcher import ENGINE, BoardError, Spycatcher, board_from_dict, load_board, load_boards
from games.spycatcher.board import DATA
from games.spycatcher.bots import BOTS, HeuristicBot, play_game
from games.spycatcher.cards import SUITS

from .tables import LEAGUE, TINY, TINY_ENGINE, TINY_PATH, all_cards, all_location_cards

SHIPPED = json.loads((DATA / "league.json").read_text())


def tiny_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TINY_PATH.read_text())
    return data


def problems(data: object) -> list[str]:
    with pytest.raises(BoardError) as caught:
        board_from_dict(data, where="under test")
    assert str(caught.value).startswith("The Spycatcher board under test is not valid:\n- ")
    return caught.value.problems


def square(data: dict[str, Any], sid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(sq for sq in data["squares"] if sq["id"] == sid)
    return found


# The shipped board ---------------------------------------------------------------------


def test_the_shipped_board_loads_at_import_and_is_the_default() -> None:
    assert ENGINE.options["board"].default == "league"
    assert set(load_boards()) == {"league"} == set(ENGINE.boards)
    assert ENGINE.start(4, 1, {}).board is LEAGUE


def test_the_shipped_board_marks_every_invented_value() -> None:
    assert SHIPPED["invented"] is True and "invented" in SHIPPED["note"]
    assert "no copy" in SHIPPED["note"]
    items = [*SHIPPED["squares"], *SHIPPED["circles"], *(c for p in SHIPPED["packs"].values() for c in p)]
    assert items and all(item["invented"] is True for item in items)


def test_the_shipped_board_has_mi5_the_centre_and_four_circles_ringed_by_challenge_squares() -> None:
    kinds = Counter(sq.kind for sq in LEAGUE.squares)
    assert kinds["mi5"] == kinds["centre"] == 1 and kinds["action"] == 20
    for circle in SHIPPED["circles"]:
        ring = [sq for sq in LEAGUE.squares if sq.circle == circle["suit"]]
        assert len(ring) == 8
        # the ring surrounds the circle: every challenge square is next to it
        assert all(abs(sq.x - circle["x"]) <= 1 and abs(sq.y - circle["y"]) <= 1 for sq in ring)
        # a piece can go round the ring, and leave it
        assert any(len(sq.next) == 2 for sq in ring)


def test_the_shipped_board_uses_the_instructions_the_rules_name() -> None:
    texts = [sq.text for sq in LEAGUE.squares if sq.kind == "action"]
    assert sum("report to MI5 for questioning" in t for t in texts) >= 2
    assert any("replace your influence cards" in t for t in texts)
    assert {
        sq.instruction.kind
        for sq in LEAGUE.squares
        if sq.instruction and sq.instruction.do == "replace_permission"
    } == set(SUITS)
    assert any("give a permission card to a player of your choice" in t for t in texts)


def test_the_shipped_location_cards_are_13_permission_cards_per_pack_with_instructions() -> None:
    for suit in SUITS:
        pack = LEAGUE.packs[suit]
        assert len(pack) == 13 and all(card.permission for card in pack)
        assert Counter(card.instruction.do for card in pack)["nothing"] == 9
        assert all(card.text and card.title for card in pack)


def test_the_shipped_board_can_be_drawn_squares_never_overlap() -> None:
    width, height = SHIPPED["size"]["width"], SHIPPED["size"]["height"]
    boxes = []
    for sq in SHIPPED["squares"]:
        half = sq.get("size", 1) / 2
        assert half <= sq["x"] <= width - half and half <= sq["y"] <= height - half
        boxes.append((sq["id"], sq["x"] - half, sq["y"] - half, sq["x"] + half, sq["y"] + half))
    for (a, ax0, ay0, ax1, ay1), (b, bx0, by0, bx1, by1) in combinations(boxes, 2):
        overlap = min(ax1, bx1) - max(ax0, bx0) > 1e-9 and min(ay1, by1) - max(ay0, by0) > 1e-9
        assert not overlap, (a, b)


def test_board_drawing_is_the_file_and_a_fresh_copy_each_time() -> None:
    state = ENGINE.start(2, 1, {})
    drawing = ENGINE.board_drawing(state)
    assert drawing == SHIPPED == ENGINE.board_drawing("league")
    drawing["squares"].clear()
    assert ENGINE.board_drawing(state) == SHIPPED
    json.dumps(drawing)


def test_the_board_option_names_a_board_file_and_unknown_boards_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="there is no board 'real'"):
        ENGINE.start(2, 1, {"board": "real"})
    with pytest.raises(InvalidOptions, match="must be a str"):
        ENGINE.start(2, 1, {"board": 3})
    described = describe_options(ENGINE.options)
    assert [o["name"] for o in described] == ["board", "hand_size", "may_stay", "turn_limit", "first_player"]
    json.dumps(described)


# Another board -----------------------------------------------------------------------


def test_a_club_board_file_plays_to_the_end_with_the_heuristic_bots() -> None:
    engine = Spycatcher.with_board_file(TINY_PATH)
    assert engine.options["board"].default == "tiny"
    bot = HeuristicBot({"tiny": TINY})
    for seats, seed in ((2, 1), (4, 2), (6, 3)):
        state, _ = play_game([bot] * seats, seed, {}, engine=engine)
        outcome = engine.outcome(state)
        assert outcome is not None and outcome.detail["end"] == "centre", (seats, seed)
        winner = outcome.detail["winner"]
        assert sorted(outcome.detail["permissions"][winner]) == sorted(SUITS)
        assert TINY.squares[state.positions[winner]].kind == "centre"
        assert all_cards(state) == Counter(all_cards(engine.start(seats, seed, {})))
        assert all_location_cards(state) == Counter(c.id for p in TINY.packs.values() for c in p)


def test_a_board_object_can_be_given_to_the_engine_beside_the_shipped_ones() -> None:
    engine = Spycatcher({"league": LEAGUE, "tiny": TINY})
    assert engine.options["board"].default == "league"
    state = engine.start(3, 9, {"board": "tiny"})
    assert state.board is TINY and engine.view(state, 0)["positions"] == ["mi5"] * 3
    state, _ = play_game([BOTS["random"]] * 3, 9, {"board": "tiny", "turn_limit": 30}, engine=engine)
    assert engine.outcome(state) is not None


def test_the_heuristic_bot_still_plays_legally_on_a_board_it_does_not_know() -> None:
    state, moves = play_game([HeuristicBot({})] * 2, 4, {"turn_limit": 20}, engine=TINY_ENGINE)
    assert TINY_ENGINE.outcome(state) is not None and moves


# The loader's error messages ------------------------------------------------------------


def test_a_board_must_be_an_object_with_its_fields() -> None:
    assert problems([]) == ["the board must be a JSON object, not list."]
    data = tiny_data()
    data["colour"] = "red"
    del data["note"]
    found = problems(data)
    assert found[0].startswith("field 'colour' is not a board field (known: circles, format,")
    assert found[1] == "field 'note' is missing."


def test_the_format_name_and_size_are_checked() -> None:
    data = tiny_data()
    data["format"] = "spycatcher-board/2"
    data["name"] = "Tiny Board"
    data["size"] = {"width": 0, "height": 5}
    found = problems(data)
    assert found[:3] == [
        "field 'format': must be 'spycatcher-board/1', not 'spycatcher-board/2'.",
        "field 'name': 'Tiny Board' must be lower-case letters, digits and '-'.",
        "field 'size', 'width': must be a positive number, not 0.",
    ]
    assert "square 'mi5', field 'x': 2.5 is off the board (0 to 0)." in found


def test_a_link_to_a_square_that_does_not_exist_names_the_square_and_the_field() -> None:
    data = tiny_data()
    square(data, "a3")["next"] = ["press-z"]
    assert "square 'a3', field 'next': links to 'press-z', which is not a square on this board." in problems(
        data
    )


def test_duplicate_ids_self_links_double_links_and_dead_ends() -> None:
    data = tiny_data()
    data["squares"].append(copy.deepcopy(square(data, "a1")))
    square(data, "a3")["next"] = ["a3"]
    square(data, "gov-a")["next"] = ["gov-b", "gov-b"]
    square(data, "press-b")["next"] = []
    found = problems(data)
    assert "square 'a1', field 'id': two squares have this id." in found
    assert "square 'a3', field 'next': a square cannot link to itself." in found
    assert "square 'gov-a', field 'next': links to 'gov-b' twice." in found
    assert "square 'press-b', field 'next': every square needs a way on (a move is forced)." in found


def test_kinds_mi5_and_the_centre_are_checked() -> None:
    data = tiny_data()
    square(data, "a1")["kind"] = "mi5"
    square(data, "a3")["kind"] = "trapdoor"
    data["squares"] = [sq for sq in data["squares"] if sq["id"] != "centre"]
    found = problems(data)
    assert (
        "square 'a3', field 'kind': 'trapdoor' is not a kind of square "
        "(known: blank, action, challenge, mi5, centre)." in found
    )
    assert "field 'squares': there must be exactly one 'mi5' square, not 2." in found
    assert "field 'squares': there must be exactly one 'centre' square, not 0." in found


def test_a_challenge_square_needs_its_circle_and_only_challenge_squares_have_one() -> None:
    data = tiny_data()
    del square(data, "court-a")["circle"]
    square(data, "a1")["circle"] = "court"
    found = problems(data)
    assert (
        "square 'court-a', field 'circle': a challenge square needs the suit of its circle "
        "(court, government, press, publisher), not None."
    ) in found
    assert "square 'a1', field 'circle': only challenge squares ring a circle." in found


def test_action_squares_need_a_valid_instruction_and_their_words() -> None:
    data = tiny_data()
    del square(data, "a2")["instruction"]
    square(data, "a4")["instruction"] = {"do": "teleport"}
    square(data, "a4")["text"] = ""
    square(data, "a1").update(kind="action", text="Go.", instruction={"do": "move", "steps": 20})
    square(data, "a3").update(kind="action", text="Go.", instruction={"do": "go_to", "square": "centre"})
    found = problems(data)
    assert "square 'a2', field 'instruction': an action square needs one." in found
    assert "square 'a4', field 'text': an action square needs its words, as printed." in found
    assert any(
        p.startswith("square 'a4', field 'instruction': 'teleport' is not an instruction") for p in found
    )
    assert "square 'a1', field 'instruction', 'steps': must be a whole number from 1 to 12, not 20." in found
    assert (
        "square 'a3', field 'instruction', 'square': "
        "use 'go_to_mi5' for MI5; nothing sends a piece to the centre."
    ) in found


def test_instructions_check_their_arguments() -> None:
    data = tiny_data()
    square(data, "a2")["instruction"] = {"do": "replace_permission"}
    square(data, "a4")["instruction"] = {"do": "go_to_mi5", "steps": 2}
    square(data, "a1").update(kind="action", text="x", instruction={"do": "nothing"})
    found = problems(data)
    assert (
        "square 'a2', field 'instruction', 'kind': 'replace_permission' needs a suit "
        "(court, government, press, publisher) or 'any', not None."
    ) in found
    assert "square 'a4', field 'instruction': 'go_to_mi5' takes no 'steps'." in found
    assert (
        "square 'a1', field 'instruction': 'nothing' is for location cards; a square that does nothing is a "
        "blank square."
    ) in found


def test_squares_must_say_whether_they_are_invented_and_sit_on_the_board() -> None:
    data = tiny_data()
    del square(data, "a1")["invented"]
    square(data, "a3")["invented"] = "yes"
    square(data, "a4")["x"] = 9
    square(data, "gov-a")["y"] = "top"
    square(data, "gov-b")["colour"] = "blue"
    found = problems(data)
    assert "square 'a1', field 'invented': missing." in found
    assert "square 'a3', field 'invented': must be true or false, not 'yes'." in found
    assert "square 'a4', field 'x': 9 is off the board (0 to 5)." in found
    assert "square 'gov-a', field 'y': must be a number, not 'top'." in found
    assert any(p.startswith("square 'gov-b', field 'colour': not a field here") for p in found)


def test_every_square_is_reachable_from_mi5_and_leads_to_the_centre() -> None:
    data = tiny_data()
    data["squares"].append(
        {"id": "island", "kind": "blank", "x": 2.5, "y": 1.5, "next": ["a1"], "invented": True}
    )
    assert problems(data) == ["square 'island': cannot be reached from MI5 along the one-way links."]
    data = tiny_data()
    data["squares"].append(
        {"id": "trap", "kind": "blank", "x": 2.5, "y": 1.5, "next": ["trap2"], "invented": True}
    )
    data["squares"].append(
        {"id": "trap2", "kind": "blank", "x": 1.5, "y": 2.5, "next": ["trap"], "invented": True}
    )
    square(data, "a3")["next"] = ["press-a", "trap"]
    assert problems(data) == [
        "square 'trap': there is no way from it to the centre along the one-way links.",
        "square 'trap2': there is no way from it to the centre along the one-way links.",
    ]


def test_the_four_circles_are_needed_once_each() -> None:
    data = tiny_data()
    data["circles"][1]["suit"] = "court"
    data["circles"][2]["r"] = -1
    found = problems(data)
    assert "circle 'court', field 'suit': there are two court circles." in found
    assert "circle 'press', field 'r': must be a positive number, not -1." in found
    assert "field 'circles': there is no government circle (one is needed for each suit)." in found
    data = tiny_data()
    for sq in data["squares"]:
        if sq.get("circle") == "press":
            sq["kind"] = "blank"
            del sq["circle"]
    assert problems(data) == ["circle 'press': no challenge square rings it."]


def test_location_cards_are_checked_field_by_field() -> None:
    data = tiny_data()
    court = data["packs"]["court"]
    court[1]["permission"] = "yes"
    court[2]["instruction"] = {"do": "roll_again"}
    del court[3]["title"]
    court[4]["id"] = court[5]["id"]
    data["packs"]["spies"] = []
    del data["packs"]["press"]
    found = problems(data)
    assert "location card 'tc1', field 'permission': must be true or false, not 'yes'." in found
    assert (
        "location card 'tc2', field 'instruction': "
        "a location card ends the turn, so it cannot say 'roll_again'."
    ) in found
    assert "location card 'tc3', field 'title': missing." in found
    assert "location card 'tc5', field 'id': two location cards have this id." in found
    assert "field 'packs': 'spies' is not a suit (court, government, press, publisher)." in found
    assert "pack 'press': missing, or not a list of location cards." in found


def test_each_pack_needs_six_permission_cards() -> None:
    data = tiny_data()
    data["packs"]["government"][0]["permission"] = False
    assert problems(data) == [
        "pack 'government': has 5 permission cards; "
        "it needs at least 6 so that six players can each hold one."
    ]


def test_a_board_file_is_read_and_its_name_must_match_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": ')
    with pytest.raises(
        BoardError, match=r"file broken.json is not valid:\n- it is not JSON: Expecting value"
    ):
        load_board(bad)
    renamed = tmp_path / "other.json"
    renamed.write_text(TINY_PATH.read_text())
    with pytest.raises(BoardError, match="field 'name': 'tiny' must match the file name 'other'"):
        load_board(renamed)
    with pytest.raises(BoardError, match="cannot be read"):
        load_board(tmp_path / "missing.json")
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "tiny.json").write_text(TINY_PATH.read_text())
    assert list(load_boards(folder)) == ["tiny"]
