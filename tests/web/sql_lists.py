"""Does a query read a list's rows without a page's LIMIT? Read from the SQL itself (sqlglot).

A SELECT is fine when it

- has a LIMIT of at most ``MAX_LIMIT`` (the API's largest page; a ``get()`` asks for 21 rows);
- gives one row: aggregates only (a count, a sum), with no GROUP BY, or no table at all;
- reads the rows of a few given ids: its main table's primary key ``= 3`` or ``IN (3, 4, ...)``
  with at most ``MAX_LIMIT`` of them (the rows of a page, read after the page);
- reads the children of given parents through a relation that is bounded by the rules: one of
  ``BOUNDED`` (the seats of a table, the rounds of an event...) ``=`` or ``IN`` given ids;
- is one of ``KEPT_WHOLE``: a list read whole once per version and kept for every reader.

Anything else reads a list whose length grows with the data (the tables of a round, every
rated player, a club's members): it must be paged in the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from pairing.tables import MAX_TABLE
from spyleague.tournaments.models import MAX_ROUNDS

MAX_LIMIT = 500

# (table, column): the rows that one value of the column has are bounded by the rules; why.
BOUNDED: dict[tuple[str, str], str] = {
    ("tournaments_seat", "table_id"): f"a table seats at most {MAX_TABLE} players",
    ("scores_resultline", "result_id"): "a result has one line a seat",
    ("play_matchseat", "match_id"): "a match has the seats of its game (8 at most)",
    ("scores_scorepadseat", "scorepad_id"): "a scorepad has the seats of its table",
    ("ratings_rating", "player_id"): "a player has one rating a game",
    ("tournaments_round", "event_id"): f"an event has at most {MAX_ROUNDS} rounds",
}

# (table, the names it selects): a whole list read once per version of what it lists and kept
# for every reader, so that the readers' pages read only their rows; why it may be whole.
KEPT_WHOLE: dict[tuple[str, frozenset[str]], str] = {
    ("tournaments_standing", frozenset({"entrant_id", "place"})): (
        "the standings' order, two numbers a row, read once per version of the standings and "
        "kept (tournaments.event_parts): each page then reads its rows by id"
    ),
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    why: str


def _literal_ids(node: exp.Expression) -> int | None:
    """How many ids an ``= literal`` or ``IN (literals)`` gives, or None when it is not that."""
    if isinstance(node, exp.EQ):
        right = node.expression
        return 1 if isinstance(right, exp.Literal | exp.Paren) and not right.find(exp.Column) else None
    if isinstance(node, exp.In):
        if node.args.get("query") is not None:
            return None
        values = node.expressions
        if any(v.find(exp.Column) or v.find(exp.Select) for v in values):
            return None
        return len(values)
    return None


def _column(node: exp.Expression) -> exp.Column | None:
    this = node.this
    while isinstance(this, exp.Paren | exp.Tuple):
        inner = this.expressions if isinstance(this, exp.Tuple) else [this.this]
        if len(inner) != 1:
            return None
        this = inner[0]
    return this if isinstance(this, exp.Column) else None


def _tables(select: exp.Select) -> dict[str, str]:
    """alias (or name) -> table name, for the tables of this SELECT (not of its subqueries)."""
    out: dict[str, str] = {}
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += select.args.get("joins") or []
    for source in sources:
        if source is None:
            continue
        table = source.this if not isinstance(source, exp.Table) else source
        if isinstance(table, exp.Table):
            out[table.alias_or_name] = table.name
    return out


def _conjuncts(where: exp.Expression | None) -> list[exp.Expression]:
    if where is None:
        return []
    node = where.this if isinstance(where, exp.Where) else where
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _main_table(select: exp.Select) -> str | None:
    source = select.args.get("from_") or select.args.get("from")
    table = getattr(source, "this", None)
    return table.name if isinstance(table, exp.Table) else None


# On PostgreSQL ``QuerySet.iterator()`` reads through a server-side cursor: the query is the
# SELECT after this, which is judged as any other.
_CURSOR = re.compile(
    r'^\s*DECLARE\s+"?[\w]+"?\s+NO\s+SCROLL\s+CURSOR\s+(?:WITH(?:OUT)?\s+HOLD\s+)?FOR\s+', re.I
)


def judge(sql: str, *, dialect: str) -> Verdict:
    """Whether ``sql`` reads a bounded number of rows (see the module's docstring)."""
    sql = _CURSOR.sub("", sql, count=1)
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError:
        return Verdict(True, "not a query this checker reads")
    if not isinstance(tree, exp.Query) or not isinstance(tree, exp.Select | exp.Union):
        return Verdict(True, "not a SELECT")
    limit = tree.args.get("limit")
    if limit is not None:
        value = limit.expression if isinstance(limit, exp.Limit) else limit
        try:
            count = int(value.name)
        except (AttributeError, ValueError):
            return Verdict(False, f"a LIMIT that is not a number: {value}")
        if count > MAX_LIMIT:
            return Verdict(False, f"LIMIT {count}: more than a page ({MAX_LIMIT})")
        return Verdict(True, f"LIMIT {count}")
    if not isinstance(tree, exp.Select):
        return Verdict(False, "a UNION without a LIMIT")
    if not (tree.args.get("from_") or tree.args.get("from")):
        return Verdict(True, "no table")
    if not tree.args.get("group") and all(p.find(exp.AggFunc) for p in tree.expressions):
        return Verdict(True, "one row of aggregates")
    tables = _tables(tree)
    main = _main_table(tree)
    selected = frozenset(p.alias_or_name for p in tree.expressions)
    if main is not None and (main, selected) in KEPT_WHOLE:
        return Verdict(True, KEPT_WHOLE[(main, selected)])
    for term in _conjuncts(tree.args.get("where")):
        ids = _literal_ids(term)
        column = _column(term)
        if ids is None or column is None or ids > MAX_LIMIT:
            continue
        table = tables.get(column.table, main) if column.table else main
        if table == main and column.name == "id":
            return Verdict(True, f"{ids} given rows of {table}")
        if table is not None and (table, column.name) in BOUNDED:
            return Verdict(True, f"{BOUNDED[(table, column.name)]} ({ids} given)")
    return Verdict(False, "reads a list's rows without a LIMIT")
