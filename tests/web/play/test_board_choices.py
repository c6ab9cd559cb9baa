"""A board never offers two choices that look the same: within one group of buttons, two buttons
that do different things say different things.

Spies!' police set-up once listed every police city twice (a button "Berlin" for a strength 3
piece beside a button "Berlin" for a strength 2 one) with nothing to tell them apart. Here every
game is played from its start with random legal moves by people (no bots), and at every step each
seat still to act reads its board; the buttons are grouped by the element that holds them.
"""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.state import match_state

pytestmark = pytest.mark.django_db

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Buttons(HTMLParser):
    """The board's move forms: (the element holding the form, what its button is called: its
    aria-label, else its words; the action)."""

    def __init__(self, act_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.act_url = act_url
        self.stack: list[int] = []
        self.opened = 0
        self.form: dict[str, Any] | None = None
        self.in_button = False
        self.found: list[tuple[int, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("action") == self.act_url and "data-compose" not in a:
            self.form = {"parent": self.stack[-1] if self.stack else 0, "words": [], "action": ""}
        elif self.form is not None and tag == "input" and a.get("name") == "action":
            self.form["action"] = a.get("value") or ""
        elif self.form is not None and tag == "button":
            self.in_button = True
            if a.get("aria-label"):  # what the button is called, for eyes and for screen readers
                self.form["label"] = a["aria-label"]
        if tag not in VOID:
            self.opened += 1
            self.stack.append(self.opened)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self.in_button = False
        if tag == "form" and self.form is not None:
            words = self.form.get("label") or " ".join("".join(self.form["words"]).split())
            self.found.append((self.form["parent"], words, self.form["action"]))
            self.form = None
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.form is not None and self.in_button:
            self.form["words"].append(data)


def look_alike(html: str, act_url: str) -> list[str]:
    parser = Buttons(act_url)
    parser.feed(html)
    seen: dict[tuple[int, str], str] = {}
    out = []
    for parent, words, action in parser.found:
        key = (parent, words)
        other = seen.setdefault(key, action)
        if other != action and json.loads(other) != json.loads(action):
            out.append(f"{words!r}: {other} and {action}")
    return out


def test_look_alike_buttons_are_found_only_within_one_group() -> None:
    url = "/play/matches/1/act/"

    def form(words: str, action: str) -> str:
        field = f'<input type="hidden" name="action" value=\'{action}\'>'
        return f'<form method="post" action="{url}">{field}<button>{words}</button></form>'

    same_group = f"<div>{form('Berlin', '{"s": 3}')}{form('Berlin', '{"s": 2}')}</div>"
    groups = f"<div><p>3</p>{form('Berlin', '{"s": 3}')}</div><div>{form('Berlin', '{"s": 2}')}</div>"
    assert look_alike(same_group, url) and not look_alike(groups, url)


@pytest.mark.parametrize(
    ("slug", "seats", "steps"),
    [("black-spy", 3, 40), ("mister-spy", 3, 60), ("spycatcher", 3, 80), ("spies", 5, 90)],
)
def test_no_board_offers_two_choices_that_look_the_same(
    client: Any, make_user: Any, django_capture_on_commit_callbacks: Any, slug: str, seats: int, steps: int
) -> None:
    engine = get_engine(slug)
    people = [make_user(username=f"p{i}") for i in range(seats)]
    match = services.match_create(user=people[0], game=slug, seats=seats, seed=11)
    for person in people[1:]:
        services.match_join(user=person, match_id=match.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(user=people[0], match_id=match.pk)
    act_url = reverse("play:act", args=[match.pk])
    rng = random.Random(slug)
    problems: list[str] = []
    boards = 0
    for _ in range(steps):
        match = Match.objects.get(pk=match.pk)
        state = match_state(match)
        if engine.outcome(state) is not None:
            break
        acting = sorted(engine.to_act(state))
        for seat in acting:
            client.force_login(people[seat])
            html = client.get(match.get_absolute_url()).content.decode()
            boards += 1
            problems += [
                f"{slug}, version {match.version}, seat {seat}: {p}" for p in look_alike(html, act_url)
            ]
        seat = rng.choice(acting)
        with django_capture_on_commit_callbacks(execute=True):
            services.match_move_submit(
                match_id=match.pk,
                user=people[seat],
                action=rng.choice(engine.legal(state, seat)),
                version=match.version,
            )
    assert boards >= 10
    assert not problems, "buttons that look the same in one group:\n" + "\n".join(problems[:20])
