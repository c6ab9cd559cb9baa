"""Club roles, enforced on every API endpoint (not only hidden in templates)."""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.views import APIView

from ..clubs.models import Club, Role
from ..clubs.selectors import has_club_role


def club_of(obj: Any) -> Club | None:
    if isinstance(obj, Club):
        return obj
    for path in ("club", "event.club"):
        current: Any = obj
        for part in path.split("."):
            current = getattr(current, part, None)
        if isinstance(current, Club):
            return current
    return None


class ClubRoleOrReadOnly(permissions.BasePermission):
    """Anyone may read; writing an object needs a role in its club (``required_role`` on the view)."""

    message = "You need a role in this club to do that."

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        club = club_of(obj)
        role = getattr(view, "required_role", Role.ORGANISER)
        return club is not None and has_club_role(user=request.user, club=club, role=role)
