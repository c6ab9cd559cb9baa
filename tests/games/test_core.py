"""The engine protocol's shared pieces and the rule that games/ never imports Django."""

import ast
from pathlib import Path

import pytest

from games import UnknownGame, game_info, games
from games.core import InvalidOptions, Option, Outcome, chance, places_from_scores, shuffled, validate_options

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
PAIRING_DIR = Path(__file__).resolve().parents[2] / "pairing"
FORBIDDEN = ("django", "rest_framework", "celery", "psycopg", "drf_spectacular", "django_htmx", "spyleague")


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in {
            "import_module",
            "__import__",
        }:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    roots.add(arg.value.split(".")[0])
    return roots


@pytest.mark.parametrize("folder", [GAMES_DIR, PAIRING_DIR], ids=["games", "pairing"])
def test_pure_packages_never_import_the_web_stack(folder: Path) -> None:
    files = sorted(folder.rglob("*.py"))
    if folder == GAMES_DIR:
        assert files, "games/ has no Python files"
    offenders = {
        str(path.relative_to(folder.parent)): sorted(imported_roots(path) & set(FORBIDDEN)) for path in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_import_scan_catches_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom django.db import models\nimport celery.app\n")
    assert imported_roots(bad) & set(FORBIDDEN) == {"django", "celery"}


def test_chance_is_seeded_and_labelled() -> None:
    assert chance(7, "deal", 1).random() == chance(7, "deal", 1).random()
    assert chance(7, "deal", 1).random() != chance(7, "deal", 2).random()
    assert chance(7, "deal", 1).random() != chance(8, "deal", 1).random()
    deck = list(range(60))
    assert shuffled(deck, 3, "x") == shuffled(deck, 3, "x")
    assert sorted(shuffled(deck, 3, "x")) == deck
    assert deck == list(range(60))


def test_places_share_ties_and_skip() -> None:
    assert places_from_scores([10, 30, 10, 5], lowest_wins=True) == (2, 4, 2, 1)
    assert places_from_scores([10, 30, 10, 5], lowest_wins=False) == (2, 1, 2, 4)
    outcome = Outcome(scores=(1, 1, 0), places=(1, 1, 3))
    assert outcome.winners == {0, 1}


def test_options_are_validated_with_clear_errors() -> None:
    schema = {
        "flag": Option(bool, False, "a flag"),
        "limit": Option(int, None, "a limit", lambda v: None if v > 0 else "must be positive"),
    }
    assert validate_options({}, schema) == {"flag": False, "limit": None}
    assert validate_options({"flag": True, "limit": 3}, schema) == {"flag": True, "limit": 3}
    with pytest.raises(InvalidOptions, match="Unknown option"):
        validate_options({"flga": True}, schema)
    with pytest.raises(InvalidOptions, match="true or false"):
        validate_options({"flag": 1}, schema)
    with pytest.raises(InvalidOptions, match="must be positive"):
        validate_options({"limit": -1}, schema)


def test_registry_lists_all_five_games() -> None:
    slugs = [info.slug for info in games()]
    assert slugs == ["black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies"]
    assert game_info("black-spy").lowest_wins
    with pytest.raises(UnknownGame):
        game_info("chess")


def test_actions_are_compared_strictly_as_json() -> None:
    from games.core import is_listed, same_json

    assert same_json({"type": "play", "n": 1}, {"type": "play", "n": 1})
    assert not same_json({"n": True}, {"n": 1})
    assert not same_json({"n": 1.0}, {"n": 1})
    assert not same_json([1, 2], [1, 2, 3])
    legal = [{"type": "pass"}, {"type": "play", "card": "red-1"}]
    assert is_listed({"type": "play", "card": "red-1"}, legal)
    assert not is_listed({"type": "play", "card": "red-2"}, legal)
    assert not is_listed({"type": "pass", "extra": 1}, legal)


def test_the_event_log_appends_without_copying() -> None:
    from games.core import LogEntry, log_events

    log = None
    for n in range(5):
        log = LogEntry({"n": n}, log)
    assert [e["n"] for e in log_events(log)] == [0, 1, 2, 3, 4]
    assert [e["n"] for e in log_events(log, limit=2)] == [3, 4]
    assert log_events(None) == []
