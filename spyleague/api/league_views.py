"""API for leagues: a club's seasons, each adding up the tournament points of its events."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ..core.inputs import IdConverter
from ..tournaments import services as event_services
from ..tournaments.models import League
from ..tournaments.selectors import league_line, league_table_rows
from .errors import error_responses
from .serializers import LeagueLineSerializer, LeagueSerializer
from .views import as_drf, paged


@extend_schema_view(
    list=extend_schema(
        summary="Leagues, newest season first",
        parameters=[OpenApiParameter("club", str, description="Only this club's leagues (its slug)")],
        responses={200: LeagueSerializer(many=True), **error_responses()},
    ),
    create=extend_schema(
        summary="Start a league in a club you organise",
        responses={201: LeagueSerializer, **error_responses(403)},
    ),
    retrieve=extend_schema(
        summary="A league; its events are listed at /api/events/?league={id}",
        responses={200: LeagueSerializer, **error_responses(404)},
    ),
)
class LeagueViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet[League]
):
    serializer_class = LeagueSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_value_regex = IdConverter.regex

    def get_queryset(self) -> QuerySet[League]:
        rows = League.objects.select_related("club").annotate(event_count=Count("events"))
        club = self.request.query_params.get("club")
        rows = rows.filter(club__slug=club) if club else rows
        return rows.order_by("-starts", "name", "pk")

    def perform_create(self, serializer: Any) -> None:
        try:
            league = event_services.league_create(user=self.request.user, **serializer.validated_data)
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc
        league.event_count = 0  # type: ignore[attr-defined]  # a new season has no events yet
        serializer.instance = league

    @extend_schema(
        summary="The league's table: tournament points over its events, a page at a time",
        responses={200: LeagueLineSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def table(self, request: Request, pk: str) -> Response:
        rows = league_table_rows(league=self.get_object())
        return paged(self, rows, LeagueLineSerializer, each=league_line)
