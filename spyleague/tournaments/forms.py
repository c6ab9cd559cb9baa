from django import forms

from games import games

from .models import Event


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=[(g.slug, g.title) for g in games()])
    kind = forms.ChoiceField(choices=Event.Kind.choices, initial=Event.Kind.TOURNAMENT)
    format = forms.ChoiceField(choices=Event.Format.choices, initial=Event.Format.SWISS)
    rounds = forms.IntegerField(min_value=1, max_value=30, initial=5)
    table_size = forms.IntegerField(min_value=2, max_value=6, initial=4, help_text="Seats per table.")
    bye_rule = forms.ChoiceField(
        choices=Event.ByeRule.choices, initial=Event.ByeRule.WIN, label="A bye scores"
    )
    advance = forms.IntegerField(
        min_value=1,
        max_value=5,
        initial=2,
        required=False,
        help_text="Knockout heats and groups: how many of each table or group go through.",
    )
    starts = forms.DateTimeField(required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def clean(self) -> dict[str, object]:
        from .services import table_size_problem

        data = super().clean() or {}
        data["advance"] = data.get("advance") or 2
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
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
