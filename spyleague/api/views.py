from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import CharField, Exists, OuterRef, Q, QuerySet, Value
from django.db.models.functions import Cast, Concat
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games import games

from ..clubs import services as club_services
from ..clubs.models import Club, Membership, Player, Role
from ..clubs.selectors import club_list, has_club_role
from ..core.inputs import IdConverter, row_id
from ..core.models import Job
from ..play.levels import levels
from ..tournaments import services as event_services
from ..tournaments.models import Event
from .errors import error_responses
from .permissions import ClubRoleOrReadOnly
from .serializers import (
    ClubSerializer,
    EntrantSerializer,
    EventSerializer,
    GameSerializer,
    GuestSerializer,
    JobSerializer,
    MembershipSerializer,
    PlayerSerializer,
    RoleSerializer,
)


def paged(
    view: Any,
    rows: QuerySet[Any] | Sequence[Any],
    serializer: type[serializers.BaseSerializer[Any]],
    *,
    each: Callable[[Any], Any] | None = None,
    lines: Callable[[list[Any]], list[Any]] | None = None,
) -> Response:
    """A list of rows other than the view's own (a club's members...), paged like every list.

    ``rows`` is a query, so that the page is what the database reads (its LIMIT and OFFSET);
    ``each`` shapes a row of the page for the serializer (a figure worked out in Python), or
    ``lines`` the whole page at once (what a few more queries about the page's rows give)."""
    page = view.paginator.paginate_queryset(rows, view.request, view=view)
    items = [each(row) for row in page] if each is not None else page
    items = lines(items) if lines is not None else items
    response: Response = view.paginator.get_paginated_response(serializer(items, many=True).data)
    return response


def as_drf(exc: DjangoValidationError) -> ValidationError:
    """A service's refusal as the API's 400: by field, and what concerns no field as ``detail``."""
    if not hasattr(exc, "error_dict"):
        return ValidationError({"detail": exc.messages})
    errors = dict(exc.message_dict)
    if NON_FIELD_ERRORS in errors:
        errors["detail"] = errors.pop(NON_FIELD_ERRORS)
    return ValidationError(errors)


@extend_schema(responses={200: GameSerializer(many=True), **error_responses()})
@api_view(["GET"])
@permission_classes([permissions.AllowAny])
def game_list(request: Request) -> Response:
    data = [
        {
            "slug": g.slug,
            "title": g.title,
            "min_seats": g.seats.start,
            "max_seats": g.seats.stop - 1,
            "lowest_wins": g.lowest_wins,
            "has_engine": g.has_engine,
            "bots": [{"name": name, "level": level} for name, level in levels(g.slug)]
            if g.has_engine
            else [],
        }
        for g in games()
    ]
    return Response(GameSerializer(data, many=True).data)


@extend_schema(responses={200: PlayerSerializer, **error_responses(403)})
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def me(request: Request) -> Response:
    player = club_services.player_ensure_for_user(user=request.user)  # type: ignore[arg-type]
    return Response(PlayerSerializer(player).data)


CLUB_SLUG = OpenApiParameter(
    "slug", str, OpenApiParameter.PATH, pattern=r"^[-a-zA-Z0-9_]{1,100}$", description="The club's slug"
)


@extend_schema_view(
    list=extend_schema(responses={200: ClubSerializer(many=True), **error_responses()}),
    create=extend_schema(responses={201: ClubSerializer, **error_responses(403)}),
    retrieve=extend_schema(parameters=[CLUB_SLUG], responses={200: ClubSerializer, **error_responses(404)}),
    update=extend_schema(
        parameters=[CLUB_SLUG], responses={200: ClubSerializer, **error_responses(403, 404)}
    ),
    partial_update=extend_schema(
        parameters=[CLUB_SLUG], responses={200: ClubSerializer, **error_responses(403, 404)}
    ),
    destroy=extend_schema(parameters=[CLUB_SLUG], responses={204: None, **error_responses(403, 404)}),
)
class ClubViewSet(viewsets.ModelViewSet[Club]):
    serializer_class = ClubSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, ClubRoleOrReadOnly]
    lookup_field = "slug"
    required_role = Role.ORGANISER

    def get_queryset(self) -> QuerySet[Club]:
        return club_list()

    def perform_create(self, serializer: Any) -> None:
        try:
            club = club_services.club_create(user=self.request.user, **serializer.validated_data)  # type: ignore[arg-type]
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc
        serializer.instance = club

    def perform_destroy(self, instance: Club) -> None:
        try:
            club_services.club_delete(user=self.request.user, club=instance)
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc

    @extend_schema(
        summary="The club's members, by name, a page at a time like every list",
        parameters=[CLUB_SLUG],
        responses={200: MembershipSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def members(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        rows = club.memberships.select_related("player").order_by("player__name", "pk")
        return paged(self, rows, MembershipSerializer)

    @extend_schema(
        request=None,
        parameters=[CLUB_SLUG],
        responses={201: MembershipSerializer, **error_responses(403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def join(self, request: Request, slug: str) -> Response:
        membership = club_services.club_join(user=request.user, club=self.get_object())  # type: ignore[arg-type]
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=GuestSerializer,
        parameters=[CLUB_SLUG],
        responses={201: MembershipSerializer, **error_responses(403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def guests(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        body = GuestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            membership = club_services.guest_add(
                user=request.user, club=club, name=body.validated_data["name"]
            )
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RoleSerializer,
        parameters=[CLUB_SLUG],
        responses={200: MembershipSerializer, **error_responses(403, 404)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"members/(?P<membership_id>\d+)/role",
        permission_classes=[permissions.IsAuthenticated],
    )
    def set_role(self, request: Request, slug: str, membership_id: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        body = RoleSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        membership = Membership.objects.filter(club=club, pk=membership_id).first()
        if membership is None:
            raise ValidationError({"membership": "That person is not a member of this club."})
        try:
            membership = club_services.member_set_role(
                user=request.user, club=club, membership=membership, role=body.validated_data["role"]
            )
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc
        return Response(MembershipSerializer(membership).data)


@extend_schema_view(
    list=extend_schema(responses={200: PlayerSerializer(many=True), **error_responses()}),
    retrieve=extend_schema(responses={200: PlayerSerializer, **error_responses(404)}),
)
class PlayerViewSet(viewsets.ReadOnlyModelViewSet[Player]):
    serializer_class = PlayerSerializer
    lookup_value_regex = IdConverter.regex
    queryset = Player.objects.order_by("name")


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("club", str, description="Only this club's events (its slug)"),
            OpenApiParameter("league", int, description="Only the events of this league (its id)"),
        ],
        responses={200: EventSerializer(many=True), **error_responses()},
    ),
    create=extend_schema(responses={201: EventSerializer, **error_responses(403)}),
    retrieve=extend_schema(responses={200: EventSerializer, **error_responses(404)}),
    update=extend_schema(responses={200: EventSerializer, **error_responses(403, 404)}),
    partial_update=extend_schema(responses={200: EventSerializer, **error_responses(403, 404)}),
    destroy=extend_schema(responses={204: None, **error_responses(403, 404)}),
)
class EventViewSet(viewsets.ModelViewSet[Event]):
    serializer_class = EventSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, ClubRoleOrReadOnly]
    required_role = Role.ORGANISER
    lookup_value_regex = IdConverter.regex

    def get_queryset(self) -> QuerySet[Event]:
        qs = Event.objects.select_related("club").order_by("-created", "-pk")
        club = self.request.query_params.get("club")
        league = self.request.query_params.get("league")
        if club:
            qs = qs.filter(club__slug=club)
        if league:
            qs = qs.filter(league_id=row_id(league, what="The league"))
        return qs

    def perform_create(self, serializer: Any) -> None:
        data = dict(serializer.validated_data)
        club = data.pop("club")
        if not has_club_role(user=self.request.user, club=club, role=Role.ORGANISER):
            raise PermissionDenied("Only the club's organisers can create events.")
        data["points_by_place"] = data.get("points_by_place") or None
        data["tiebreaks"] = data.get("tiebreaks") or None
        try:
            serializer.instance = event_services.event_create(club=club, user=self.request.user, **data)
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc

    def perform_update(self, serializer: Any) -> None:
        try:
            serializer.instance = event_services.event_update(
                user=self.request.user, event=serializer.instance, **serializer.validated_data
            )
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc

    def perform_destroy(self, instance: Event) -> None:
        try:
            event_services.event_delete(user=self.request.user, event=instance)
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc

    @extend_schema(
        summary="Finish the event (organisers): a draft round is discarded; refused while a "
        "published round's tables wait for a result",
        request=None,
        responses={200: EventSerializer, **error_responses(403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def finish(self, request: Request, pk: str) -> Response:
        event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
        try:
            event = event_services.finish_event(user=request.user, event=event)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except DjangoValidationError as exc:
            raise as_drf(exc) from exc
        return Response(EventSerializer(event).data)

    @extend_schema(
        summary="The event's entrants, by name, a page at a time like every list",
        responses={200: EntrantSerializer(many=True), **error_responses(404)},
    )
    @action(detail=True, methods=["get"])
    def entrants(self, request: Request, pk: str) -> Response:
        event = self.get_object()
        rows = event.entrants.select_related("player").order_by("player__name", "pk")
        return paged(self, rows, EntrantSerializer)


def jobs_visible_to(user: Any) -> QuerySet[Job]:
    """The background jobs someone may follow, newest first.

    - The jobs they queued themselves.
    - An event's pairing and standings jobs, to the organisers of the event's club, whoever
      queued them: a standings job queued by a confirmed result has no owner, and the
      organisers are the ones who act on what it finds.
    - A game's ratings jobs that nobody queued (a result queues them, not a person), to the
      organisers of the clubs with an event of that game: the ratings are the game's across
      every club, so no single event owns the job, but it is their events' results it counts.
    - Every job, to staff.
    Nobody else sees a job without an owner: its label names the event.
    """
    jobs = Job.objects.order_by("-created", "-pk")
    if not getattr(user, "is_authenticated", False):
        return jobs.none()
    if user.is_staff or user.is_superuser:
        return jobs
    organised = Club.objects.filter(memberships__player__user=user, memberships__role=Role.ORGANISER)
    events = Event.objects.filter(club__in=organised).annotate(
        pair_key=Concat(Value("pair:"), Cast("pk", CharField())),
        standings_key=Concat(Value("standings:"), Cast("pk", CharField())),
    )
    theirs = Q(pair_key=OuterRef("key")) | Q(standings_key=OuterRef("key"))
    # Their games' ratings jobs, asked in the same query (not a list of every event read first).
    ratings_keys = Event.objects.filter(club__in=organised).annotate(
        ratings_key=Concat(Value("ratings:"), "game", output_field=CharField())
    )
    return jobs.filter(
        Q(created_by=user)
        | Q(kind__in=("pairing", "standings")) & Exists(events.filter(theirs))
        | Q(kind="ratings", created_by__isnull=True)
        & Exists(ratings_keys.filter(ratings_key=OuterRef("key")))
    )


@extend_schema_view(
    list=extend_schema(
        summary="The background jobs you may follow, newest first: those you queued, and as an "
        "organiser your events' pairing and standings jobs and your games' ratings jobs",
        responses={200: JobSerializer(many=True), **error_responses(403)},
    ),
    retrieve=extend_schema(
        summary="A background job you may follow: its progress and result",
        responses={200: JobSerializer, **error_responses(403, 404)},
    ),
)
class JobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Job]):
    serializer_class = JobSerializer
    lookup_value_regex = IdConverter.regex
    queryset = Job.objects.all()
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self) -> QuerySet[Job]:
        if getattr(self, "swagger_fake_view", False):
            return Job.objects.all()
        return jobs_visible_to(self.request.user)
