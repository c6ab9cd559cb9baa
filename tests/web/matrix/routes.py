"""Every URL the site answers, from the URL resolver, and every operation of the API schema.

Pages are the resolver's routes that no schema operation resolves to; API operations are the
schema's (method, path) pairs. Left out, and why:

- the admin's own sub-URLs (everything under ``admin/`` but ``admin/`` and ``admin/login/``):
  Django's model admin, for staff only, which none of the matrix's roles is; ``admin/`` and
  ``admin/login/`` stay in the matrix to check that club roles do not open it;
- the format-suffix twins of the API's routes (``api/clubs\\.(?P<format>...)`` beside
  ``api/clubs/``, ``api/<drf_format_suffix:format>`` beside ``api/``): the same view asked for
  another renderer; the route they repeat is in the matrix.

Static files are not in the URLconf (WhiteNoise serves them before the resolver), so there is
nothing to leave out for them.
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, resolve

ADMIN_KEPT = {"admin/", "admin/login/"}
FORMAT_SUFFIX = re.compile(r"\\\.\(\?P<format>\[a-z0-9\]\+\)/\?\$$")


def _join(first: str, second: str) -> str:
    """As the resolver joins routes (``ResolverMatch.route``): the inner ``^`` is dropped."""
    return first + second.removeprefix("^") if first else second


def url_routes(patterns: Any = None, prefix: str = "") -> list[str]:
    """Every route of the URLconf, as the full route string the resolver reports."""
    routes: list[str] = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = _join(prefix, str(entry.pattern))
        if isinstance(entry, URLResolver):
            routes += url_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            routes.append(route)
    return routes


def exclusion(route: str, routes: set[str]) -> str | None:
    """Why a route is left out of the matrix, or None."""
    if route.startswith("admin/") and route not in ADMIN_KEPT:
        return "the Django admin's own pages, for staff only"
    base = FORMAT_SUFFIX.sub("/$", route)
    if base != route and base in routes:
        return f"the format-suffix twin of {base}"
    if route == "api/<drf_format_suffix:format>" and "api/" in routes:
        return "the format-suffix twin of api/"
    return None


def schema_operations() -> set[tuple[str, str]]:
    """(METHOD, path) of every operation in the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    }


def sample_path(path: str) -> str:
    """A schema path with each parameter filled with a value of the right shape."""
    return re.sub(r"\{(\w+)\}", lambda m: "x" if m.group(1) in {"slug", "game", "code"} else "1", path)


def route_of_operation(path: str) -> str:
    return resolve(sample_path(path)).route


def page_routes() -> tuple[set[str], dict[str, str]]:
    """(the routes the page matrix must list, the routes left out with the reason)."""
    routes = url_routes()
    everything = set(routes)
    api = {route_of_operation(path) for _, path in schema_operations()}
    left_out = {r: why for r in routes if (why := exclusion(r, everything))}
    return everything - api - set(left_out), left_out
