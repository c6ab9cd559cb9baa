from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games import InvalidOptions, game_info
from games.black_spy.scoring import ALL_BLACK_OTHERS, CAPTURE_SUBTRACT, DEAL_TOTAL_NO_GOOD_SPIES

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import clubs_of, has_club_role, player_for_user
from ..core.inputs import Refused, found, reasons, row_id, whole_number
from ..tournaments.models import Table
from . import scorepad as pads
from .models import Result, Scorepad
from .services import NothingChanged, result_confirm

VARIANTS = [
    ("no_good_spies", f"No Good Spies (coloured Spies score 0; deals total {DEAL_TOTAL_NO_GOOD_SPIES})"),
    (
        "capture_or_release",
        f"Capture or Release (all black: give {ALL_BLACK_OTHERS} or subtract {-CAPTURE_SUBTRACT})",
    ),
    ("going_back", "Going Back (exceed the end value; exactly it, or half of it, halves the score)"),
    ("the_mole", "The Mole"),
    ("calling_color", "Calling Color"),
    ("following_rank", "Following Rank"),
]
BLACK_RANKS = [
    (1, "Informer"),
    (2, "Interrogator"),
    (3, "Infiltrator"),
    (4, "Saboteur"),
    (5, "Assassin"),
    (6, "Agent"),
    (8, "Double Agent"),
    (9, "Code Breaker"),
    (10, "Deputy Director"),
    (11, "Director"),
]


def _black_figures() -> dict[str, int]:
    """Black Spy's numbers as the pad's forms say them, from the engine's tables."""
    from games.black_spy import scoring
    from games.black_spy.cards import BLACK_CARDS, BLACK_SPY, COLOURS, DECK_ID

    return {
        "cards": BLACK_CARDS,
        "spies": DECK_ID.count(BLACK_SPY),
        "coloured_spies": len(COLOURS) - 1,
        "others": scoring.ALL_BLACK_OTHERS,
        "taker": scoring.all_black_points(3, 0)[0],
    }


BLACK_FIGURES = _black_figures()


def _race_figures(half_decks: bool) -> dict[str, int]:
    """Spy vs Spy's numbers as the race sheet says them, from the engine's scoring."""
    from games.spy_vs_spy import scoring

    return {"first": scoring.FIRST_REMOVES, "bonus": scoring.bonus_points(half_decks)}


# The new-pad form shows six seats; "More seats" adds four at a time. Spy vs Spy is for any number
# of players (its package's ruling "players"), so a pad takes as many as the game is listed for.
PAD_SLOTS, PAD_MORE = 6, 4
MAX_PAD_SEATS = max(game_info(g).seats.stop - 1 for g in ("black-spy", "spy-vs-spy"))


def _slots_typed(data: Any) -> int:
    """How many seats the form had: one past the highest ``player_i``/``name_i`` it sent (bounded)."""
    highest = -1
    for key in data:
        kind, _, number = str(key).partition("_")
        if kind in ("player", "name") and number.isdigit() and int(number) < MAX_PAD_SEATS:
            highest = max(highest, int(number))
    return max(PAD_SLOTS, highest + 1)


@login_required
def pad_new(request: HttpRequest) -> HttpResponse:
    table = None
    table_raw = request.GET.get("table") or request.POST.get("table")
    if table_raw:
        table = found(Table.objects.select_related("round__event__club"), table_raw, what="Table")
        existing = Scorepad.objects.filter(table=table).first()
        if existing:
            return redirect("scores:pad", pk=existing.pk)
    errors: list[str] = []
    status = 400
    if table is not None:
        try:
            pads.may_score_table(request.user, table)  # the form too is only for those who may
        except ValidationError as exc:
            errors.extend(str(m) for m in exc.messages)
    typed: dict[str, str] = {k: str(v) for k, v in request.POST.items()} if request.method == "POST" else {}
    me = player_for_user(request.user)
    if table is None and request.method != "POST" and me is not None:
        typed = {"player_0": str(me.pk)}  # you are usually at the table
    more = request.method == "POST" and "more" in request.POST  # "More seats": show the form again
    if request.method == "POST" and not errors and not more:
        offered = {p.pk: p for p in pads.players_for(request.user)}
        chosen: list[Player] = []
        for i in range(_slots_typed(request.POST)):
            pid, name = request.POST.get(f"player_{i}", ""), request.POST.get(f"name_{i}", "").strip()
            if pid:
                player = offered.get(row_id(pid, what=f"Player {i + 1}"))
                if player is None:
                    errors.append(f"Player {i + 1}: choose one of your clubs' players, or type a new name.")
                else:
                    chosen.append(player)
            elif len(name) > 80:
                errors.append(f"Player {i + 1}: a name is at most 80 characters.")
            elif name:
                chosen.append(Player(name=name))
        game = request.POST.get("game") or "black-spy"
        options: dict[str, Any] = {key: True for key, _ in VARIANTS if request.POST.get(key)}
        if request.POST.get("half_decks"):
            options["half_decks"] = True
        if request.POST.get("end_value"):
            try:
                options["end_value"] = whole_number(
                    request.POST["end_value"], what="The end value", low=1, high=10_000
                )
            except Refused as exc:
                errors.append(str(exc))
        club_raw = request.POST.get("club")
        club = found(Club, club_raw, what="Club") if club_raw else None
        if (
            club is not None
            and table is None
            and not has_club_role(user=request.user, club=club, role=Role.PLAYER)
        ):
            raise PermissionDenied(f"You are not a member of {club.name}: keep the pad without a club.")
        if table is not None:
            chosen = [
                s.entrant.player for s in table.seats.select_related("entrant__player").order_by("position")
            ]
            club = table.round.event.club
            options = {**table.round.event.options, **options}
            game = table.round.event.game
        if not errors:
            try:
                pad = pads.scorepad_open(
                    user=request.user, players=chosen, options=options, club=club, table=table, game=game
                )
            except ValidationError as exc:
                errors.extend(str(m) for m in exc.messages)
            except PermissionDenied as exc:
                errors.append(str(exc))
                status = 403
            except InvalidOptions as exc:  # a variant or end value the rules refuse: say it in words
                errors.append(str(exc))
            else:
                return redirect("scores:pad", pk=pad.pk)
    if more:
        errors, status = [], 200
    return render(
        request,
        "scores/pad_new.html",
        {
            "errors": errors,
            "typed": typed,
            "players": pads.players_for(request.user),
            "slots": [
                {
                    "i": i,
                    "player": (typed or {}).get(f"player_{i}", ""),
                    "name": (typed or {}).get(f"name_{i}", ""),
                }
                for i in range(
                    min(MAX_PAD_SEATS, max(PAD_SLOTS, _slots_typed(typed) + (PAD_MORE if more else 0)))
                )
            ],
            "more_seats": _slots_typed(typed) < MAX_PAD_SEATS,
            "table": table,
            **_pad_options(table, typed),
            "clubs": clubs_of(me) if me is not None else [],
        },
        status=status if errors else 200,
    )


def _round_to_correct(pad: Scorepad, raw: Any) -> Any:
    """The pad's round that ``?round=`` asks to correct (the "Correct" link), or None."""
    if not raw or not str(raw).isdigit() or len(str(raw)) > 5:
        return None
    return pad.deals.filter(number=int(raw)).first()


def _pad_options(table: Table | None, typed: dict[str, str]) -> dict[str, Any]:
    """What the new-pad form offers: the game (a table's own, or the one chosen) and the options
    of that game only, ticked as typed (or, on a table, as its event plays them)."""
    from games.black_spy.scoring import END_VALUES

    game = table.round.event.game if table is not None else typed.get("game", "black-spy")
    game = game if game in pads.GAMES else "black-spy"
    # A table's event plays its variants whatever the pad says: they show ticked, and fixed.
    fixed = {k for k, v in table.round.event.options.items() if v} if table is not None else set()
    ticked = {key: True for key, value in typed.items() if value} | dict.fromkeys(fixed, True)
    seats = table.seats.count() if table is not None else None
    return {
        "game": game,
        "variants": [(key, label, bool(ticked.get(key)), key in fixed) for key, label in VARIANTS],
        "half_decks": bool(ticked.get("half_decks")),
        # Half decks are for two players: offered on a table only when it seats two.
        "offer_half_decks": seats is None or seats == 2,
        "end_value": typed.get("end_value")
        or (
            str(table.round.event.options["end_value"]) if "end_value" in fixed and table is not None else ""
        ),
        "end_values": " / ".join(str(v) for v in END_VALUES.values()),
        "black_players": game_info("black-spy").players,
        "race_players": game_info("spy-vs-spy").players,
    }


def _pad_context(request: HttpRequest, pad: Scorepad, **extra: Any) -> dict[str, Any]:
    current = pads.pad_state(pad)
    names = pads.names_of(pad)
    end = current.end_value
    rows = [
        {
            "position": i,
            "name": name,
            "total": total,
            "percent": max(0, min(100, round(100 * total / end))) if end else 0,
            "winner": i in current.winners,
        }
        for i, (name, total) in enumerate(zip(names, current.totals, strict=True))
    ]
    deals = list(pad.deals.order_by("number"))
    result = pad.result
    me = request.user
    can_confirm = bool(
        result
        and result.status == Result.Status.REPORTED
        and getattr(me, "is_authenticated", False)
        and (
            (result.entered_by_id != me.pk and any(p.user_id == me.pk for p in pads.players_of(pad)))
            or (result.club is not None and has_club_role(user=me, club=result.club, role=Role.SCORER))
        )
    )
    # The form starts from what was typed (when it comes back with a problem), else from the round
    # being corrected, as it stands.
    typed = extra.get("typed")
    if typed is None and extra.get("editing"):
        deal = pad.deals.filter(number=extra["editing"]).first()
        if deal is not None:
            typed = {f"points_{i}": "" if p is None else str(p) for i, p in enumerate(deal.points)}
            first = deal.taken.get("first") if isinstance(deal.taken, dict) else None
            typed["first"] = "" if first is None else str(first)
            typed["choice"] = deal.choice
    is_race = pad.game == "spy-vs-spy"
    return {
        "pad": pad,
        "round_word": "race" if is_race else "deal",
        "rounds_word": "races" if is_race else "deals",
        "first_typed": (typed or {}).get("first", ""),
        "choice_typed": (typed or {}).get("choice", ""),
        # Correcting a round of a game that is over corrects its result: the form asks why.
        "needs_reason": bool(extra.get("editing") and pad.result_id),
        "tally": current,
        "rows": rows,
        "winner_names": [row["name"] for row in rows if row["winner"]],
        "names": names,
        "deals": deals,
        "lines": list(zip(deals, current.lines, strict=False)),
        "rules": pads.rules_of(pad),
        "can_enter": pads.can_enter(user=request.user, pad=pad),
        "changes": pad.changes.select_related("who"),
        "black_ranks": BLACK_RANKS,
        "black": BLACK_FIGURES,
        "race": _race_figures(bool(pad.options.get("half_decks"))),
        "can_confirm": can_confirm,
        "result": result,
        "entry_rows": [
            {"i": i, "name": name, "value": (typed or {}).get(f"points_{i}", "")}
            for i, name in enumerate(names)
        ],
        **extra,
    }


def pad_detail(request: HttpRequest, pk: int) -> HttpResponse:
    pad = get_object_or_404(Scorepad.objects.select_related("club", "result"), pk=pk)
    extra: dict[str, Any] = {}
    # "Correct" on a round opens the pad with that round in the form, as it stands.
    deal = _round_to_correct(pad, request.GET.get("round"))
    if deal is not None and pads.can_enter(user=request.user, pad=pad):
        extra["editing"] = deal.number
    return render(request, "scores/pad.html", _pad_context(request, pad, **extra))


def _read_deal(
    request: HttpRequest, players: int, *, blanks: bool = False
) -> tuple[list[int | None] | None, list[pads.TakenEntry] | None, str, list[str]]:
    """The round as typed. ``blanks``: an empty box means the player sat the round out (Spy vs Spy)."""
    mode = request.POST.get("mode", "points")
    errors: list[str] = []
    choice = request.POST.get("choice", "")
    if mode == "taken":
        takens = []
        for i in range(players):
            try:
                spies = int(request.POST.get(f"spies_{i}") or 0)
                coloured = int(request.POST.get(f"coloured_{i}") or 0)
                ranks = tuple(int(r) for r in request.POST.getlist(f"ranks_{i}"))
            except ValueError:
                errors.append(f"Player {i + 1}: counts are whole numbers.")
                continue
            takens.append(pads.TakenEntry(spies, ranks, coloured))
        return None, takens, choice, errors
    points: list[int | None] = []
    for i in range(players):
        raw = request.POST.get(f"points_{i}", "").strip()
        if blanks and not raw:
            points.append(None)
            continue
        try:
            points.append(int(raw))
        except ValueError:
            errors.append(
                f"Player {i + 1}: {raw!r} is not a whole number of points."
                if raw
                else f"Player {i + 1} has no points entered."
            )
    return points, None, choice, errors


@require_POST
def pad_deal(request: HttpRequest, pk: int) -> HttpResponse:
    pad = get_object_or_404(Scorepad, pk=pk)
    players = pad.seats.count()
    number_raw = request.POST.get("number")
    number = whole_number(number_raw, what="The round number", low=1, high=10_000) if number_raw else None
    points, takens, choice, errors = _read_deal(request, players, blanks=pad.game == "spy-vs-spy")
    first_raw = request.POST.get("first", "")
    first = whole_number(first_raw, what="Who raced first", low=0, high=players - 1) if first_raw else None
    status = 400
    if not errors:
        try:
            if number:
                pads.scorepad_deal_correct(
                    user=request.user,
                    pad=pad,
                    number=number,
                    points=points,
                    takens=takens,
                    choice=choice,
                    first=first,
                    reason=request.POST.get("note", ""),
                )
            else:
                pads.scorepad_deal_add(
                    user=request.user, pad=pad, points=points, takens=takens, choice=choice, first=first
                )
        except NothingChanged as exc:
            messages.info(request, " ".join(exc.messages))
            return redirect("scores:pad", pk=pad.pk)
        except ValidationError as exc:
            errors.extend(str(m) for m in exc.messages)
        except PermissionDenied as exc:
            errors.append(str(exc))
            status = 403
    if errors:
        pad.refresh_from_db()
        context = _pad_context(request, pad, errors=errors, typed=request.POST, editing=number)
        return render(request, "scores/pad.html", context, status=status)
    pad.refresh_from_db()
    if pad.status == Scorepad.Status.FINISHED:
        messages.success(request, "The game is over.")
    return redirect("scores:pad", pk=pad.pk)


@login_required
@require_POST
def pad_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    pad = get_object_or_404(Scorepad, pk=pk)
    try:
        if pad.result is None:
            raise ValidationError("The game is not over yet.")
        result_confirm(user=request.user, result=pad.result)
    except (ValidationError, PermissionDenied) as exc:
        status = 403 if isinstance(exc, PermissionDenied) else 400
        return render(
            request, "scores/pad.html", _pad_context(request, pad, errors=[reasons(exc)]), status=status
        )
    messages.success(request, "Result confirmed: it now counts for standings and ratings.")
    return redirect("scores:pad", pk=pad.pk)


@login_required
def pad_list(request: HttpRequest) -> HttpResponse:
    """The scorepads the user opened or has a seat on, newest first."""
    me = player_for_user(request.user)
    yours = Q(created_by_id=request.user.pk)
    if me is not None:
        yours |= Q(seats__player=me)
    pads_list = (
        Scorepad.objects.filter(yours).distinct().prefetch_related("seats__player").order_by("-created")[:50]
    )
    return render(request, "scores/pad_list.html", {"pads": pads_list})
