"""Every service that checks a state and then writes takes its lock first.

Read from the source: in each module of the site's write paths, a public function that reads a
row's state (its ``status``, an entrant's ``dropped_after`` or ``checked_in``, a member's
``role``) and writes must, itself or through the module's own helpers it calls, take a lock
(``core.locks``' event lock and the helpers around it, ``select_for_update``, an advisory
``job_lock``). Otherwise two people acting at once both pass the check, and the second acts on
what it read before the first one's change. The two-thread tests on PostgreSQL
(``tests/web/tournaments/test_races.py``) show the locks at work; this one finds the service
written without one. Each service that takes the event lock also runs as ``atomic_retrying``, so
a transaction that still loses a deadlock runs again instead of failing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "spyleague"
MODULES = [
    "tournaments/services.py",
    "tournaments/rounds.py",
    "tournaments/guards.py",
    "tournaments/entrants.py",
    "tournaments/imports.py",
    "scores/services.py",
    "scores/scorepad.py",
    "clubs/services.py",
    "play/services.py",
    "play/moves.py",
    "play/bots.py",
]
# ``match_locked``: the match's row lock, the bottom of the play app's write path (``play.moves``).
LOCKS = {"select_for_update", "job_lock", "lock_event", "standings_lock", "match_locked"}
EVENT_LOCKS = {"lock_event", "locked_event", "locked_round", "locked_entrant", "table_locked"}
WRITES = {"save", "update", "delete", "create", "bulk_create", "get_or_create", "update_or_create"}
STATE = {"status", "dropped_after", "checked_in", "role"}
# Public functions that read a state and call a method of the same name as a write, but write no
# row: each with why.
READ_ONLY = {
    "plan_round": "plans a round in memory (dicts' update); round_pair saves it under the lock",
}
# The write path's own steps, each given a row its caller has locked (and saying so): with why.
LOCKED_BY_CALLER = {
    "touch": "play.moves: a change of seats to a match the service locked (match_locked)",
    "finish_if_decided": "tournaments.rounds: finishes an event its caller locked (a drop, fewer rounds)",
}


def _called(node: ast.AST) -> set[str]:
    names = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Attribute):
                names.add(n.func.attr)
            elif isinstance(n.func, ast.Name):
                names.add(n.func.id)
    return names


def _reads_state(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Attribute) and n.attr in STATE and isinstance(n.ctx, ast.Load)
        for n in ast.walk(node)
    )


def _closure(functions: dict[str, ast.FunctionDef], name: str, seen: set[str] | None = None) -> set[str]:
    """Everything ``name`` calls, through the module's own functions."""
    seen = set() if seen is None else seen
    if name in seen or name not in functions:
        return set()
    seen.add(name)
    direct = _called(functions[name])
    out = set(direct)
    for callee in direct:
        out |= _closure(functions, callee, seen)
    return out


def _offenders(module: str, source: str | None = None) -> list[str]:
    tree = ast.parse((ROOT / module).read_text() if source is None else source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = []
    for name, fn in functions.items():
        if name.startswith("_") or name in EVENT_LOCKS or name in READ_ONLY or name in LOCKED_BY_CALLER:
            continue
        reached = _closure(functions, name)
        reads = _reads_state(fn) or any(_reads_state(functions[c]) for c in reached if c in functions)
        if reads and reached & WRITES and not reached & (LOCKS | EVENT_LOCKS | {"_lock"}):
            out.append(f"{module}: {name} checks a state and writes without a lock")
        decorators = {ast.unparse(d) for d in fn.decorator_list}
        if _called(fn) & EVENT_LOCKS and "atomic_retrying" not in decorators:
            out.append(f"{module}: {name} takes the event's lock but is not @atomic_retrying")
    return out


@pytest.mark.parametrize("module", MODULES)
def test_every_service_that_checks_a_state_and_writes_locks_first(module: str) -> None:
    assert _offenders(module) == []


def test_the_check_finds_a_service_without_a_lock_and_one_without_its_retry() -> None:
    source = (
        "def round_close(*, rnd):\n"
        "    if rnd.status == 'draft':\n"
        "        rnd.status = 'published'\n"
        "        rnd.save()\n"
        "\n"
        "@transaction.atomic\n"
        "def round_open(*, rnd):\n"
        "    rnd = locked_round(rnd)\n"
        "    if rnd.status == 'published':\n"
        "        rnd.save()\n"
    )
    assert _offenders("example.py", source) == [
        "example.py: round_close checks a state and writes without a lock",
        "example.py: round_open takes the event's lock but is not @atomic_retrying",
    ]


def _chain(node: ast.AST) -> list[ast.Call]:
    """The calls of a method chain (``a.b(...).c(...)``), outermost first."""
    calls = []
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Call):
            calls.append(node)
            node = node.func
        else:
            node = node.value
    return calls


def test_a_row_lock_with_its_related_rows_locks_only_its_own_row() -> None:
    """``select_for_update`` beside ``select_related`` locks every joined row unless it says
    ``of``: a table's lock also locked its round and event (so every confirmation of an event
    waited for the one before), an event's lock its club. Each such lock names what it locks."""
    found, missing = 0, []
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            calls = _chain(node)
            names = {c.func.attr: c for c in calls if isinstance(c.func, ast.Attribute)}
            lock = names.get("select_for_update")
            if lock is None or "select_related" not in names or calls[0] is not node:
                continue
            found += 1
            if not any(k.arg == "of" for k in lock.keywords):
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found >= 3  # the table's, the entrant's and the event's locks at least
    assert not missing, f"select_for_update with select_related and no of=: {sorted(set(missing))}"
