"""The shared, read-only action dicts that ``legal`` lists.

This module is never compiled (see ``scripts/build-engines``): a compiled subclass of
``dict`` would not keep the overridden mutators, and these dicts must stay read-only.
"""

from __future__ import annotations

from typing import Any, NoReturn


class FrozenAction(dict[str, Any]):
    """A read-only action dict, shared between calls of ``legal``. Copies become plain dicts."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("Actions listed by legal() are shared and read-only; copy one with dict(action).")

    __setitem__ = _read_only
    __delitem__ = _read_only
    __ior__ = _read_only
    clear = _read_only
    pop = _read_only
    popitem = _read_only
    setdefault = _read_only
    update = _read_only

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return dict(self)
