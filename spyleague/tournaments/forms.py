from django import forms

from games import games
from pairing.tables import MAX_TABLE, MIN_TABLE

from ..core.limits import DESCRIPTION_MAX
from .models import Event


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=[(g.slug, g.title) for g in games()])
    kind = forms.ChoiceField(choices=Event.Kind.choices, initial=Event.Kind.TOURNAMENT)
    format = forms.ChoiceField(choices=Event.Format.choices, initial=Event.Format.SWISS)
    rounds = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=5,
        help_text="Swiss: the number of rounds. A round robin has as many as it needs for everyone to "
        "meet everyone, a knockout as many as its draw needs.",
    )
    table_size = forms.IntegerField(
        min_value=MIN_TABLE,
        max_value=MAX_TABLE,
        initial=4,
        help_text="Seats per table (Black Spy 3-6, Spies! 2-5 ..., Spy vs Spy any number).",
    )
    bye_rule = forms.ChoiceField(
        choices=Event.ByeRule.choices, initial=Event.ByeRule.WIN, label="A bye scores"
    )
    uneven = forms.ChoiceField(
        choices=Event.Uneven.choices,
        initial=Event.Uneven.BYES,
        required=False,
        label="When the players do not fill the tables",
        help_text="Byes, or tables one seat shorter or longer, as far as the game allows "
        "(Black Spy 3-6, Mister Spy 2-6, Spies! 2-5 ...).",
    )
    advance = forms.IntegerField(
        min_value=1,
        max_value=5,
        initial=2,
        required=False,
        label="Going through",
        help_text="Knockout heats and groups: how many of each table or group go through. "
        "Heats play on until one final table decides the event.",
    )
    groups = forms.IntegerField(
        min_value=0,
        max_value=64,
        initial=0,
        required=False,
        label="Groups",
        help_text="Groups, then knockout: the number of groups (0 or empty: groups of about four).",
    )
    points_by_place = forms.CharField(
        required=False,
        max_length=1000,
        label="Tournament points by place",
        help_text="First place first, separated by commas, e.g. 4,2,1,0. "
        "Empty: the default for the table size.",
    )
    tiebreaks = forms.CharField(
        required=False,
        max_length=500,
        label="Tiebreaks, in order",
        help_text="Empty: tournament points, game score, strength of opponents, wins, head to head. "
        "Reorder or leave out any of them, here or on the event's Settings page.",
    )
    starts = forms.DateTimeField(required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def clean_points_by_place(self) -> list[float] | None:
        raw = (self.cleaned_data.get("points_by_place") or "").strip()
        if not raw:
            return None
        try:
            return [float(part) for part in raw.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError("Write numbers separated by commas, e.g. 4,2,1,0.") from None

    def clean_tiebreaks(self) -> list[str] | None:
        from .event_settings import TIEBREAK_WORDS

        raw = (self.cleaned_data.get("tiebreaks") or "").strip()
        if not raw:
            return None
        # Each tiebreak by the name the Settings page gives it ("strength of opponents"), or by
        # the name the API takes ("opponents_average").
        known = {words.lower(): name for name, (words, _) in TIEBREAK_WORDS.items()}
        known.update({name: name for name in TIEBREAK_WORDS})
        given = [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]
        unknown = [part for part in given if " ".join(part.lower().split()) not in known]
        if unknown:
            choices = ", ".join(words.lower() for words, _ in TIEBREAK_WORDS.values())
            raise forms.ValidationError(f"There is no tiebreak called “{unknown[0]}”: choose from {choices}.")
        names = [known[" ".join(part.lower().split())] for part in given]
        if len(set(names)) != len(names):
            raise forms.ValidationError("Name each tiebreak once.")
        return names

    def clean(self) -> dict[str, object]:
        from .models import table_size_problem

        data = super().clean() or {}
        data["advance"] = data.get("advance") or 2
        data["groups"] = data.get("groups") or 0
        data["uneven"] = data.get("uneven") or Event.Uneven.BYES
        points, size = data.get("points_by_place"), data.get("table_size")
        if isinstance(points, list) and isinstance(size, int) and len(points) != size:
            self.add_error(
                "points_by_place", f"Give {size} numbers, one for each place at a table of {size}."
            )
        game, size = data.get("game"), data.get("table_size")
        if (
            isinstance(game, str)
            and isinstance(size, int)
            and (problem := table_size_problem(game=game, table_size=size))
        ):
            self.add_error("table_size", problem)
        return data


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(
        choices=[("", "Several games"), *[(g.slug, g.title) for g in games()]], required=False
    )
    starts = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=DESCRIPTION_MAX
    )
