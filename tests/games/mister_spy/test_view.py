"""Hidden information as the cards show it: what ``view`` shows each seat and a spectator."""

from __future__ import annotations

import json

import pytest

from games.mister_spy import ENGINE, MisterSpyState

from .tables import play, table


def dumped(state: MisterSpyState, seat: int | None) -> str:
    return json.dumps(ENGINE.view(state, seat))


def test_you_see_your_own_hand_and_only_how_many_cards_and_spies_the_others_hold() -> None:
    state = table([["lair-2", "spy-5"], ["spy-7", "spy-2", "taunt-H"], []])
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["lair-2", "spy-5"]
    assert view["hands"] == [
        {"seat": 0, "cards": 2, "spies": 1},
        {"seat": 1, "cards": 3, "spies": 2},
        {"seat": 2, "cards": 0, "spies": 0},
    ]
    for card in ("spy-7", "taunt-H"):
        assert card not in dumped(state, 0)
        assert card not in dumped(state, 2)
        assert card not in dumped(state, None)
    assert ENGINE.view(state, None)["hand"] is None


def test_spies_have_a_different_back_so_everyone_sees_whether_the_top_of_the_deck_is_a_spy() -> None:
    spy_on_top = table([[], []], deck=["spy-8", "lair-2"])
    lair_on_top = table([[], []], deck=["lair-2", "spy-8"])
    for seat in (None, 0, 1):
        assert ENGINE.view(spy_on_top, seat)["deck"] == {"cards": 54, "top_is_spy": True}
        assert ENGINE.view(lair_on_top, seat)["deck"] == {"cards": 54, "top_is_spy": False}
        assert "spy-8" not in dumped(spy_on_top, seat) and "lair-2" not in dumped(lair_on_top, seat)
    empty = table([[], []], full_deck=False)
    assert ENGINE.view(empty, 0)["deck"] == {"cards": 0, "top_is_spy": None}


def test_secret_lairs_and_deathtraps_are_face_down_to_everyone_but_their_owner() -> None:
    state = table([[], [], []], lairs=[[("lair-4", False), ("taunt-G", False), ("lair-3", True)], [], []])
    own = ENGINE.view(state, 0)["lairs"][0]
    assert own == [
        {"id": "L1", "face_up": False, "size": 1, "card": "lair-4", "deathtrap": False},
        {"id": "L2", "face_up": False, "size": 1, "card": "taunt-G", "deathtrap": True},
        {"id": "L3", "face_up": True, "size": 3, "card": "lair-3"},
    ]
    for seat in (None, 1, 2):
        theirs = ENGINE.view(state, seat)["lairs"][0]
        assert [c["card"] for c in theirs] == [None, None, "lair-3"]
        assert all("deathtrap" not in c for c in theirs)
        assert ENGINE.view(state, seat)["lair_sizes"] == [5, 0, 0]
        assert "lair-4" not in dumped(state, seat) and "taunt-G" not in dumped(state, seat)


def test_taunt_cards_on_a_spy_are_face_down_only_their_number_shows() -> None:
    state = table([["spy-2", "taunt-F"], [], []], lairs=[[("lair-2", True)], [], []])
    state = play(
        state,
        (0, {"type": "capture", "card": "spy-2", "reveal": []}),
        (0, {"type": "taunt", "card": "taunt-F"}),
    )
    # while the window is open the letter is public (read aloud)
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(state, seat)["window"]["taunt"] == "taunt-F"
    state = play(state, (1, {"type": "let_pass"}), (2, {"type": "let_pass"}))
    captive = ENGINE.view(state, 1)["captive"]
    assert captive["taunts"] == 1 and captive["value"] == 4 and "taunt_cards" not in captive
    assert ENGINE.view(state, 0)["captive"]["taunt_cards"] == ["taunt-F"]
    state = ENGINE.apply(state, 0, {"type": "kill"})
    pile = ENGINE.view(state, 2)["score_piles"][0]
    assert pile == [{"id": "S2", "card": "spy-2", "how": "killed", "taunts": 1, "points": 4}]
    assert ENGINE.view(state, 0)["score_piles"][0][0]["taunt_cards"] == ["taunt-F"]
    for seat in (None, 1, 2):
        assert "taunt-F" not in dumped(state, seat)


def test_a_spy_stolen_from_a_hand_is_seen_only_by_the_thief_and_its_owner() -> None:
    state = table([[], ["spy-6"], []])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": 1})
    assert ENGINE.view(state, 0)["stolen"] == {"seat": 0, "from": 1, "card": "spy-6"}
    assert ENGINE.view(state, 1)["stolen"] == {"seat": 0, "from": 1, "card": "spy-6"}
    for seat in (None, 2):
        assert ENGINE.view(state, seat)["stolen"] == {"seat": 0, "from": 1, "card": None}
        assert "spy-6" not in dumped(state, seat)
    state = ENGINE.apply(state, 0, {"type": "keep"})
    assert "spy-6" not in dumped(state, 2)


def test_a_spy_stolen_from_the_deck_is_seen_only_by_the_thief() -> None:
    state = table([[], []], deck=["spy-7"])
    state = ENGINE.apply(state, 0, {"type": "steal_spy", "from": "deck"})
    assert ENGINE.view(state, 0)["stolen"]["card"] == "spy-7"
    assert ENGINE.view(state, 1)["stolen"] == {"seat": 0, "from": "deck", "card": None}
    assert "spy-7" not in dumped(state, 1)


def test_played_spies_lairs_revealed_by_a_steal_and_the_discard_pile_are_public() -> None:
    state = table([["spy-2"], []], lairs=[[], [("lair-4", False)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-2", "lair": "L1"})
    for seat in (None, 0, 1):
        view = ENGINE.view(state, seat)
        assert view["captive"]["card"] == "spy-2"
        assert view["lairs"][1][0]["card"] == "lair-4" and view["lairs"][1][0]["face_up"]
    state = table([["spy-5"], []], lairs=[[], [("taunt-B", False)]])
    state = ENGINE.apply(state, 0, {"type": "steal_lair", "card": "spy-5", "lair": "L1"})
    assert ENGINE.view(state, None)["discard"] == ["taunt-B"]
    assert ENGINE.view(state, None)["score_piles"][1][0]["how"] == "deathtrap"


def test_the_view_is_json_and_rejects_unknown_seats() -> None:
    state = ENGINE.start(5, 3, {})
    for seat in (None, 0, 4):
        json.dumps(ENGINE.view(state, seat))
    for bad in (5, -1, True, "0"):
        with pytest.raises(ValueError, match="no seat"):
            ENGINE.view(state, bad)  # type: ignore[arg-type]


def test_events_are_public_and_never_name_a_hidden_card() -> None:
    state = table(
        [["spy-2", "taunt-F", "lair-3"], ["spy-6"]], lairs=[[("lair-2", True)], []], deck=["taunt-C"]
    )
    state = play(
        state,
        (0, {"type": "capture", "card": "spy-2", "reveal": []}),
        (0, {"type": "taunt", "card": "taunt-F"}),
        (1, {"type": "let_pass"}),
        (0, {"type": "kill"}),
        (1, {"type": "play_lair", "card": "taunt-C"}),
        (0, {"type": "steal_spy", "from": 1}),
        (0, {"type": "keep"}),
    )
    events = ENGINE.view(state, None)["events"]
    assert ENGINE.view(state, 0)["events"] == events == ENGINE.view(state, 1)["events"]
    text = json.dumps(events)
    for hidden in ("taunt-F", "taunt-C", "spy-6", "lair-3"):
        assert hidden not in text
    assert [e["event"] for e in events][-7:] == [
        "kill",
        "draw",
        "play_lair",
        "draw",
        "steal_spy",
        "keep",
        "draw",
    ]
