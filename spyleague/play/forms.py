from __future__ import annotations

from django import forms

from games import engines, most_seats_online

from .levels import all_levels


def playable_games() -> list[tuple[str, str]]:
    return [(e.slug, e.title) for e in engines()]


class MatchForm(forms.Form):
    game = forms.ChoiceField(choices=playable_games)
    seats = forms.IntegerField(min_value=1, max_value=most_seats_online(), initial=4)
    fill_with_bots = forms.BooleanField(
        required=False, initial=True, label="Fill the empty seats with bots and start now"
    )
    bot = forms.ChoiceField(choices=all_levels, initial="heuristic", label="Bot level")
