from __future__ import annotations

from django import forms

from games import engines


def playable_games() -> list[tuple[str, str]]:
    return [(e.slug, e.title) for e in engines()]


class MatchForm(forms.Form):
    game = forms.ChoiceField(choices=playable_games)
    seats = forms.IntegerField(min_value=1, max_value=6, initial=4)
    fill_with_bots = forms.BooleanField(
        required=False, initial=True, label="Fill the empty seats with bots and start now"
    )
    bot = forms.ChoiceField(
        choices=[("heuristic", "Heuristic bot"), ("random", "Random bot")], initial="heuristic"
    )
