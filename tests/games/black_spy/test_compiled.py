"""The compiled engine and the plain Python one: the loader's choice, and the same games.

``scripts/build-engines`` compiles ``cards``, ``scoring`` and ``engine`` with mypyc next to
their sources; ``games.black_spy.COMPILED`` tells which modules were loaded. The whole
suite runs on those, so to run it on the plain Python modules while compiled ones are
built:

    SPYLEAGUE_PURE_PYTHON=1 .venv/bin/pytest tests/games/black_spy

These tests check the loader's staleness check, and play the same random games here and
in a plain Python subprocess: when this process runs compiled, that compares compiled
with plain Python move by move (legal lists, views, outcomes); when it does not, it still
checks that games do not depend on the process (hash seeds, set orders).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import games.black_spy
from games.black_spy import ENGINE, _loader
from games.black_spy import engine as bs

ROOT = Path(__file__).resolve().parents[3]
GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (3, 11, {}),
    (4, 12, {}),
    (4, 13, {"the_mole": True, "calling_color": True, "capture_or_release": True}),
    (5, 14, {"following_rank": True, "going_back": True, "no_good_spies": True}),
    (6, 15, {"the_mole": True, "youngest_first": [5, 4, 3, 2, 1, 0], "end_value": 60}),
]


def transcript() -> str:
    """A digest of random games: every step's seats, legal actions and action, the views
    of every seat and of a spectator after each deal, and the outcomes."""
    digest = hashlib.sha256()

    def add(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for players, seed, options in GAMES:
        rng = random.Random(seed)
        state = ENGINE.start(players, seed, options)
        deal = 1
        while acting := ENGINE.to_act(state):
            seat = rng.choice(sorted(acting))
            legal = ENGINE.legal(state, seat)
            action = legal[rng.randrange(len(legal))]
            add([sorted(acting), seat, legal, action])
            state = ENGINE.apply(state, seat, action)
            if state[bs.DEAL].number != deal or not ENGINE.to_act(state):
                deal = state[bs.DEAL].number
                add([ENGINE.view(state, s) for s in [*range(players), None]])
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        add(outcome.as_dict())
    return digest.hexdigest()


def run_pure(code: str) -> str:
    env = {**os.environ, _loader.PURE_PYTHON_ENV: "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_plain_python_plays_the_same_games_as_this_process() -> None:
    pure = run_pure("from tests.games.black_spy.test_compiled import transcript; print(transcript())")
    assert pure == transcript()


def test_the_pure_python_switch_loads_the_sources() -> None:
    code = (
        "import games.black_spy as p, games.black_spy.engine as e, games.black_spy.cards as c; "
        "print(p.COMPILED, e.__file__, c.__file__)"
    )
    compiled, engine_file, cards_file = run_pure(code).split()
    assert compiled == "False"
    assert engine_file == str(ROOT / "games" / "black_spy" / "engine.py")
    assert cards_file == str(ROOT / "games" / "black_spy" / "cards.py")


def test_the_package_says_which_modules_it_loaded() -> None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for module in (bs, games.black_spy.cards, games.black_spy.scoring):
        assert str(module.__file__).endswith(suffix) == games.black_spy.COMPILED


def fake_build(folder: Path) -> None:
    """Sources, compiled files (empty stand-ins) and a stamp as scripts/build-engines leaves them."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in _loader.COMPILED:
        (folder / f"{name}.py").write_text(f"# {name}\n")
    for name in (*_loader.COMPILED, f"{_loader.GROUP}__mypyc"):
        (folder / f"{name}{suffix}").write_bytes(b"")
    stamp = f"sources={_loader.sources_hash(folder)}\nbuild=0\n"
    (folder / f"{_loader.GROUP}.stamp").write_text(stamp)


def test_compiled_files_are_used_only_while_they_match_the_sources(tmp_path: Path) -> None:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in _loader.COMPILED:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    assert _loader.compiled_is_current(tmp_path) is None  # nothing built: the sources

    fake_build(tmp_path)
    assert _loader.compiled_is_current(tmp_path) is True

    (tmp_path / "engine.py").write_text("# engine, edited since the build\n")
    assert _loader.compiled_is_current(tmp_path) is False

    fake_build(tmp_path)
    (tmp_path / f"{_loader.GROUP}.stamp").unlink()  # a build that did not finish
    assert _loader.compiled_is_current(tmp_path) is False

    fake_build(tmp_path)
    (tmp_path / f"{_loader.GROUP}__mypyc{suffix}").unlink()  # one compiled file missing
    assert _loader.compiled_is_current(tmp_path) is False
