"""Queries compiled once a process: the hot reads and row locks skip Django's SQL compiler.

Django writes a query's SQL anew each time it is evaluated. For the reads and locks that every
move, result and page makes (a match locked with its seats, a table with its round and event),
that costs 1 to 2 ms of CPU a query, more than PostgreSQL takes to answer it, and it was a fifth
of the web workers' CPU and most of the bots' under the big day's load. Django has no bound
parameters in its ORM, so ``Prepared`` adds them for one narrow case: a function that builds a
queryset from plain values (ints and strings) is compiled once per database and kind of values,
and later calls run the same SQL with their own values in place.

Safe by construction rather than by trust:

* the first call compiles its own query and a probe of the same shape built from marker values;
  the SQL is kept only when both compile to the same text and every marker comes out in the
  parameters untouched (a lookup that wraps or converts its value, ``contains`` or a JSON key,
  is never kept, nor a query whose SQL depends on the value);
* a call with any other kind of value (``None``, a model, a bool, an int beyond a 32-bit column,
  an empty list) is compiled as Django would, every time; a list of ints or strings (``__in``)
  is learned once for each length it comes in;
* every call still builds its own queryset (cheap: a fifth of the compile), so the rows, the
  related objects, ``prefetch_related`` and the converters are Django's own; only ``as_sql`` is
  skipped, and a row lock outside a transaction is refused as Django refuses it;
* the result is evaluated at once (``list``, ``one``), so nothing can chain onto a query whose
  SQL is fixed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.query import Query
from django.db.transaction import TransactionManagementError

MAX_ITEMS = 500  # the longest list a shape is learned for (``__in``); longer ones go Django's way
INT_LIMIT = 2**31  # a value beyond an integer column's range changes the SQL (Django refuses it)
_PROBE_INT = 2_000_000_000  # markers: within that range, far above any id or number this site has
_PROBE_STR = "\x1fprobe-{}\x1f"
_UNKNOWN: Any = object()


def _scalar(value: Any) -> bool:
    kind = type(value)
    return kind is str or (kind is int and -INT_LIMIT <= value < INT_LIMIT)


def _listed(value: Any) -> bool:
    return type(value) in (list, tuple)


def _plain(value: Any) -> bool:
    """An int or a str, or a list or tuple of them (each length a shape of its own: ``__in``)."""
    if _listed(value):
        return 0 < len(value) <= MAX_ITEMS and all(_scalar(v) for v in value)
    return _scalar(value)


def _kind(value: Any) -> object:
    return (type(value), len(value)) if _listed(value) else type(value)


def _probe(index: int, value: Any) -> Any:
    def one(at: int, item: Any) -> Any:
        return _PROBE_INT + at if type(item) is int else _PROBE_STR.format(at)

    if _listed(value):
        return type(value)(one(1000 * (index + 1) + j, v) for j, v in enumerate(value))
    return one(index, value)


def _items(values: tuple[Any, ...]) -> list[tuple[tuple[int, int | None], Any]]:
    """Each value's place and value, a list's items one by one."""
    out: list[tuple[tuple[int, int | None], Any]] = []
    for i, value in enumerate(values):
        if _listed(value):
            out += [((i, j), item) for j, item in enumerate(value)]
        else:
            out.append(((i, None), value))
    return out


@dataclass(frozen=True)
class _Shape:
    """What the compiler learned of one query's shape, and where each call's values go."""

    sql: str
    slots: tuple[tuple[int, int | None] | None, ...]  # per parameter: the argument (and item) it is, or None
    constants: tuple[Any, ...]
    compiler_class: Any
    select: Any
    klass_info: Any
    annotation_col_map: Any
    col_count: int
    has_extra_select: bool
    for_update: bool

    def params(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(
            c if slot is None else args[slot[0]] if slot[1] is None else args[slot[0]][slot[1]]
            for slot, c in zip(self.slots, self.constants, strict=True)
        )


class _PreparedQuery(Query):
    """A ``Query`` whose select compiler takes its SQL from a learned shape."""

    _shape: _Shape
    _args: tuple[Any, ...]

    def get_compiler(self, using: Any = None, connection: Any = None, elide_empty: bool = True) -> Any:
        compiler: Any = super().get_compiler(using, connection, elide_empty)
        shape = self._shape
        if compiler.__class__ is not shape.compiler_class:  # a count, an aggregate: Django's own way
            return compiler
        compiler.select, compiler.klass_info = shape.select, shape.klass_info
        compiler.annotation_col_map = shape.annotation_col_map
        compiler.col_count, compiler.has_extra_select = shape.col_count, shape.has_extra_select
        params = shape.params(self._args)

        def as_sql(*_: Any, **__: Any) -> tuple[str, tuple[Any, ...]]:
            link = compiler.connection
            if shape.for_update and link.get_autocommit() and link.features.supports_transactions:
                raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
            return shape.sql, params

        compiler.as_sql = as_sql
        return compiler

    def clone(self) -> Query:
        copy = super().clone()
        copy.__class__ = Query  # anything chained onto it is compiled as usual
        return copy


class Prepared[T]:
    """``build(*values)`` compiled once per database and kind of values, then reused.

    ``build`` must return a queryset that depends on its arguments only through lookups'
    values; ``list(*values)`` and ``one(*values)`` evaluate it.
    """

    def __init__(self, build: Callable[..., QuerySet[Any, T]]) -> None:
        self.build = build
        self._shapes: dict[tuple[str, tuple[object, ...]], _Shape | None] = {}
        self.learned = 0  # shapes learned, kept or not (tests read it)

    def queryset(self, *args: Any) -> QuerySet[Any, T]:
        qs = self.build(*args)
        if not all(_plain(a) for a in args) or type(qs.query) is not Query:
            return qs
        key = (qs.db, tuple(_kind(a) for a in args))
        shape = self._shapes.get(key, _UNKNOWN)
        if shape is _UNKNOWN:
            try:
                shape = self._shapes[key] = self._learn(qs, args)
                self.learned += 1
            except Exception:  # not compilable here (a row lock outside a transaction):
                return qs  # Django says why when it runs, and the next call learns again
        if shape is not None:
            qs.query.__class__ = _PreparedQuery
            qs.query._shape, qs.query._args = shape, args  # type: ignore[attr-defined]
        return qs

    def list(self, *args: Any) -> list[T]:
        return list(self.queryset(*args))

    def one(self, *args: Any) -> T | None:
        """The first row, or None: ``build`` orders and slices as it needs (``[:1]``)."""
        rows = self.list(*args)
        return rows[0] if rows else None

    def _learn(self, qs: QuerySet[Any, T], args: tuple[Any, ...]) -> _Shape | None:
        connection = connections[qs.db]
        try:
            compiler = qs.query.clone().get_compiler(connection=connection)
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # its SQL depends on the values: never kept
            return None
        if not sql or not isinstance(compiler, SQLCompiler):
            return None
        probes = tuple(_probe(i, a) for i, a in enumerate(args))
        try:
            probe_sql, probe_params = self.build(*probes).query.get_compiler(connection=connection).as_sql()
        except EmptyResultSet:
            return None
        if probe_sql != sql or len(probe_params) != len(params):
            return None
        slots: list[tuple[int, int | None] | None] = []
        pairs = zip(_items(probes), _items(args), strict=True)
        marked = {(type(p), p): (place, real) for (place, p), (_, real) in pairs}
        for value, probe in zip(params, probe_params, strict=True):
            found = marked.get((type(probe), probe))
            if found is not None:
                place, real = found
                if type(value) is not type(real) or value != real:
                    return None  # the value was converted on its way in: not a plain slot
                slots.append(place)
            elif type(value) is type(probe) and value == probe:
                slots.append(None)
            else:
                return None  # a parameter made from a value (wrapped, cast): never reused
        return _Shape(
            sql=sql,
            slots=tuple(slots),
            constants=tuple(params),
            compiler_class=type(compiler),
            select=compiler.select,
            klass_info=compiler.klass_info,
            annotation_col_map=compiler.annotation_col_map,
            col_count=compiler.col_count or 0,
            has_extra_select=compiler.has_extra_select,
            for_update=bool(qs.query.select_for_update),
        )


def prefetched(instance: Any, name: str, rows: list[Any]) -> list[Any]:
    """Put ``rows`` (the instance's related rows of a reverse foreign key ``name``, as a
    ``Prepared`` read them) where ``prefetch_related(name)`` puts them, so that
    ``instance.<name>.all()`` reads them without a query, each row knowing its instance."""
    manager = getattr(instance, name)
    field = manager.field
    for row in rows:
        field.set_cached_value(row, instance)
    queryset = manager.get_queryset()
    queryset._result_cache = rows
    queryset._prefetch_done = True
    if not hasattr(instance, "_prefetched_objects_cache"):
        instance._prefetched_objects_cache = {}
    instance._prefetched_objects_cache[field.remote_field.cache_name] = queryset
    return rows
