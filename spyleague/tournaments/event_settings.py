"""An event's settings as its organiser edits them, and the tiebreaks in words.

The form holds every setting an organiser may change after creating the event; which of them
may still change depends on how far the event has got (``services.event_update`` decides, and
refuses the rest in words). The page shows the ones that can no longer change as text, and
posts their stored values, so that only what the organiser changed reaches the service.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games import game_info
from pairing.standings import DEFAULT_POINTS, TIEBREAKS
from pairing.tables import MAX_TABLE, MIN_TABLE

from .models import MAX_ROUNDS, Event, League
from .services import CHANGEABLE_BEFORE_PAIRING, CHANGEABLE_UNTIL_FINISHED, DEFAULT_TIEBREAKS

# Each tiebreak in words: what it is called, and what it counts.
TIEBREAK_WORDS: dict[str, tuple[str, str]] = {
    "tournament_points": ("Tournament points", "the points for each place at a table, byes included"),
    "game_points": ("Game score", "the scores of the games themselves added up"),
    "opponents_average": (
        "Strength of opponents",
        "the average tournament points of every opponent met (Buchholz)",
    ),
    "buchholz_cut1": (
        "Buchholz cut 1",
        "each round is worth the average tournament points of the opponents at your table; they are "
        "added up and your weakest round is left out (a bye is worth nothing, and it is the round left out)",
    ),
    "sonneborn_berger": (
        "Sonneborn-Berger",
        "the tournament points of every opponent you beat, and half those of every opponent you tied "
        "with: at a table of any size you beat everyone who placed below you there, and tie with "
        "whoever shared your place",
    ),
    "wins": ("Wins", "games finished alone in first place"),
    "head_to_head": ("Head to head", "among the players still tied, who placed better when they met"),
}
assert set(TIEBREAK_WORDS) == set(TIEBREAKS), "every tiebreak needs its words"


def tiebreak_words(name: str, *, game: str) -> tuple[str, str]:
    """(name in words, what it counts) for a tiebreak, in the terms of the event's game."""
    words, why = TIEBREAK_WORDS[name]
    if name == "game_points" and game_info(game).lowest_wins:
        why += f", the lowest first ({game_info(game).title} is won by the lowest score)"
    return words, why


def tiebreaks_in_force(event: Event) -> list[str]:
    """The tiebreaks the standings use: the event's, or the default order when it names none."""
    return list(event.tiebreaks or DEFAULT_TIEBREAKS)


def _points_text(points: list[float]) -> str:
    return ", ".join(f"{p:g}" for p in points)


# What a bye's game score is, and why: the one rule for every round and every game.
BYE_GAME_SCORE = (
    "A bye's game score is the average game score of the players seated in that round (nothing "
    "while none of the round's results is in), in every round and for every game. A player on a bye "
    "did not play: counting nothing would make them the best of a game won by the lowest score "
    "(Black Spy, Spy vs Spy) and the worst of the others, and their own average would be a "
    "different rule in round 1 than later. The round's average scores them like the round's "
    "middle player, never like its winner."
)


def scoring_lines(event: Event) -> dict[str, Any]:
    """How the event scores, in words: its points by place at each table size it uses (with
    the average a seat can expect), what a bye scores, and the tiebreaks in order."""
    from .services import bye_scoring, points_scheme

    scheme = points_scheme(event)
    sizes = sorted(event.table_sizes, reverse=True)
    tables = []
    for size in sizes:
        points = scheme.by_size[size]
        tables.append(
            {
                "size": size,
                "points": " ".join(f"{p:g}" for p in points),
                "average": f"{sum(points) / size:.2f}".rstrip("0").rstrip("."),
                "own": size == event.table_size,
            }
        )
    bye = bye_scoring(event)
    if event.bye_rule == Event.ByeRule.WIN:
        bye_points = f"{scheme.win(bye.table_size):g} points, a win at a table of {bye.table_size}"
    elif event.bye_rule == Event.ByeRule.DRAW:
        bye_points = f"{scheme.draw(bye.table_size):g} points, a draw at a table of {bye.table_size}"
    elif event.bye_rule == Event.ByeRule.AVERAGE:
        bye_points = "the player's own average tournament points a game"
    else:
        bye_points = "no points"
    return {
        "tables": tables,
        "balanced": len(tables) > 1,
        "bye": f"A bye scores {bye_points}, and the round's average game score.",
        "tiebreaks": [tiebreak_words(t, game=event.game)[0] for t in tiebreaks_in_force(event)],
    }


class EventSettingsForm(forms.Form):
    """An existing event's settings. The tiebreaks come as two lists: ``order`` (every known
    tiebreak, in the order shown) and ``tiebreaks`` (the ticked ones); ``move`` ("up:wins")
    asks for one to move a place, without saving."""

    name = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    starts = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    league = forms.ModelChoiceField(
        queryset=League.objects.none(), required=False, empty_label="No league", label="Part of a league"
    )
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    points_by_place = forms.CharField(
        required=False,
        max_length=200,
        label="Tournament points by place",
        help_text="First place first, separated by commas, one number for each seat at a table. "
        "Empty: the default for the table size.",
    )
    bye_rule = forms.ChoiceField(choices=Event.ByeRule.choices, label="A bye scores")
    format = forms.ChoiceField(choices=Event.Format.choices)
    table_size = forms.IntegerField(min_value=MIN_TABLE, max_value=MAX_TABLE, help_text="Seats per table.")
    uneven = forms.ChoiceField(
        choices=Event.Uneven.choices,
        label="When the players do not fill the tables",
        help_text="Byes, or tables one seat shorter or longer, as far as the game allows.",
    )
    advance = forms.IntegerField(
        min_value=1,
        max_value=5,
        label="Go through",
        help_text="Knockout heats, and groups then knockout: how many of each table or group go through.",
    )
    groups = forms.IntegerField(
        min_value=0,
        max_value=64,
        label="Groups",
        help_text="Groups, then knockout: the number of groups (0: groups of about four).",
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": event.name,
                "kind": event.kind,
                "starts": event.starts,
                "league": event.league_id,
                "rounds": event.rounds,
                "points_by_place": _points_text(event.points_by_place or []),
                "bye_rule": event.bye_rule,
                "format": event.format,
                "table_size": event.table_size,
                "uneven": event.uneven,
                "advance": event.advance,
                "groups": event.groups,
            },
        )
        super().__init__(*args, **kwargs)
        self.event = event
        league_field = self.fields["league"]
        assert isinstance(league_field, forms.ModelChoiceField)
        league_field.queryset = League.objects.filter(club_id=event.club_id)

    # --- the tiebreaks, as posted -----------------------------------------------------------------

    def _posted(self, name: str) -> list[str]:
        data = self.data
        values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
        return [str(v) for v in (values if isinstance(values, list) else [values])]

    def tiebreak_order(self) -> list[str]:
        """Every known tiebreak in the order shown: as posted (unknown names left out, missing ones
        after the rest), the ``move`` asked for applied; unbound, the ones in force first."""
        if not self.is_bound:
            used = tiebreaks_in_force(self.event)
            return [*used, *(str(t) for t in TIEBREAKS if t not in used)]
        posted = list(dict.fromkeys(t for t in self._posted("order") if t in TIEBREAKS))
        order: list[str] = [*posted, *(t for t in TIEBREAKS if t not in posted)]
        direction, _, name = (self._posted("move") or [""])[0].partition(":")
        if name in order:
            i = order.index(name)
            j = i - 1 if direction == "up" else i + 1 if direction == "down" else i
            if 0 <= j < len(order):
                order[i], order[j] = order[j], order[i]
        return order

    def tiebreaks_ticked(self) -> set[str]:
        if not self.is_bound:
            return set(tiebreaks_in_force(self.event))
        return set(self._posted("tiebreaks"))

    def tiebreak_rows(self) -> list[dict[str, Any]]:
        """The rows the page lists, in order: name, words, ticked, and whether it can move."""
        order = self.tiebreak_order()
        ticked = self.tiebreaks_ticked()
        rows = []
        for i, name in enumerate(order):
            words, why = tiebreak_words(name, game=self.event.game)
            rows.append(
                {
                    "name": name,
                    "words": words,
                    "why": why,
                    "ticked": name in ticked,
                    "first": i == 0,
                    "last": i == len(order) - 1,
                }
            )
        return rows

    # --- cleaning -------------------------------------------------------------------------------

    def clean_points_by_place(self) -> list[float]:
        raw = (self.cleaned_data.get("points_by_place") or "").strip()
        if not raw:
            return []
        points = []
        for part in raw.replace(";", ",").split(","):
            if not part.strip():
                continue
            try:
                value = float(part)
            except ValueError:
                raise forms.ValidationError(
                    f"{part.strip()[:30]!r} is not a number: write numbers separated by commas, "
                    "e.g. 4, 2, 1, 0."
                ) from None
            if value != value or value in (float("inf"), float("-inf")):
                raise forms.ValidationError(f"{part.strip()[:30]!r} is not a number of points.")
            points.append(value)
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        unknown = [t for t in self._posted("tiebreaks") if t not in TIEBREAKS]
        if unknown:
            self.add_error(None, f"There is no tiebreak called {unknown[0][:40]!r}.")
        ticked = self.tiebreaks_ticked()
        chosen = [t for t in self.tiebreak_order() if t in ticked]
        if not chosen:
            self.add_error(None, "Tick at least one tiebreak: the standings are ordered by them.")
        data["tiebreaks"] = chosen
        return data

    def changes(self) -> dict[str, Any]:
        """What the organiser changed, compared with the settings in force. Empty points by place
        are the table size's default (no change when the event names none either), and the
        tiebreaks in force are no change when the event names none."""
        event = self.event
        out: dict[str, Any] = {}
        size = self.cleaned_data.get("table_size", event.table_size)
        for field, value in self.cleaned_data.items():
            current: Any = getattr(event, field)
            if field == "points_by_place" and not value and (current or size != event.table_size):
                value = list(DEFAULT_POINTS.get(size, ()))  # empty: the default for the table size
            if field == "tiebreaks":
                current = tiebreaks_in_force(event)
            elif field == "starts" and value is not None and current is not None:
                current = current.replace(second=0, microsecond=0)  # the page shows minutes
            if value != current:
                out[field] = value
        return out


def fixed_fields(event: Event) -> set[str]:
    """The settings that can no longer change, as far as the event has got."""
    fixed: set[str] = set()
    if event.round_set.exists():
        fixed |= CHANGEABLE_BEFORE_PAIRING
    if event.status == Event.Status.FINISHED:
        fixed |= CHANGEABLE_BEFORE_PAIRING | CHANGEABLE_UNTIL_FINISHED
    return fixed
