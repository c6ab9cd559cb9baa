"""The Spy vs Spy rules engine: every seat races its own cards at once.

See the package docstring for how the race maps onto actions, and for the Rulings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import IllegalAction, InvalidOptions, Option, Outcome, shuffled, validate_options

from .cards import DECK, RANK, card_name, fitting_piles
from .scoring import (
    FIRST_REMOVES,
    MAX_PILES,
    SQUARE,
    Standing,
    after_race,
    bonus_points,
    deck_size,
    places,
    start_points,
)

RACE = "race"  # the seats in ``racers`` flip and place their cards
TAKE = "take"  # everyone has finished; each seat without the bonus picks a pile
OVER = "over"

#: The most racers in one online race (the ruling ``players``; the rules themselves set no limit).
MAX_RACERS = 8

BOT_CARDS_PER_MINUTE = 90  # 1.5 cards a second: a brisk but beatable racer
BOT_SPEEDS = range(6, 601)  # from one card in ten seconds to ten cards a second


def _check_bot_speed(value: int) -> str | None:
    if value in BOT_SPEEDS:
        return None
    return f"bots race at {BOT_SPEEDS.start} to {BOT_SPEEDS.stop - 1} cards a minute, not {value}."


OPTIONS: dict[str, Option] = {
    "half_decks": Option(
        bool,
        False,
        "Two players share one deck, half each (a shorter game; the bonus is -10 instead of -20).",
    ),
    "bot_cards_per_minute": Option(
        int,
        BOT_CARDS_PER_MINUTE,
        "How fast bots race online, in cards per minute (90 is 1.5 cards a second).",
        _check_bot_speed,
    ),
}


@dataclass(frozen=True, slots=True)
class Spy:
    """One seat's cards.

    ``points_pile`` is face down (its last card is the top). ``debt`` counts points
    removed when the pile had too few cards, so ``score`` can go below zero.
    ``hand`` is the face-down racing hand, top card first. ``card`` is the card just
    flipped face up, waiting for a pile (or the card the seat is stuck on).
    ``piles`` are the face-up race piles, bottom card first.
    """

    points_pile: tuple[str, ...]
    debt: int = 0
    hand: tuple[str, ...] = ()
    card: str | None = None
    piles: tuple[tuple[str, ...], ...] = ()
    called: str | None = None
    came_round: bool = False
    stuck: bool = False
    finished: bool = False

    @property
    def score(self) -> int:
        return len(self.points_pile) - self.debt

    @property
    def done(self) -> bool:
        """The race is over for this seat (hand used up, or stuck): it only has to say finished."""
        return self.stuck or (self.card is None and not self.hand)

    @property
    def bonus(self) -> bool:
        """Finished with one or more empty spaces (fewer than six piles): the bonus."""
        return self.done and not self.stuck and len(self.piles) < MAX_PILES

    @property
    def leftover(self) -> tuple[str, ...]:
        """Cards still in hand when the race ended (the card it is stuck on first)."""
        return self.hand if self.card is None else (self.card, *self.hand)

    def cards(self) -> list[str]:
        """Every card this seat holds, wherever it is."""
        out = [*self.points_pile, *self.hand]
        if self.card is not None:
            out.append(self.card)
        for pile in self.piles:
            out.extend(pile)
        return out


@dataclass(frozen=True, slots=True)
class RaceRow:
    """One racer's result in a scored race."""

    seat: int
    place: int  # finishing order, 1 = finished first
    leftover: int  # cards left in hand, added to the points pile
    took: int | None  # index of the race pile taken; None with the bonus
    pile: int  # cards in that pile
    bonus: bool
    removed: int  # points removed (5 for the first finisher, or the bonus)
    change: int
    score: int


@dataclass(frozen=True, slots=True)
class RaceRecord:
    race: int
    tie_break: bool
    finish_order: tuple[int, ...]
    rows: tuple[RaceRow, ...]


@dataclass(frozen=True, slots=True)
class SpyVsSpyState:
    seats: int
    seed: int
    half_decks: bool
    race: int  # race number, from 1
    phase: str
    spies: tuple[Spy, ...]
    racers: tuple[int, ...]
    standing: Standing
    finish_order: tuple[int, ...] = ()
    must_take: frozenset[int] = frozenset()
    choices: tuple[int | None, ...] = ()
    history: tuple[RaceRecord, ...] = ()
    actions: int = 0  # actions applied since the start of the game
    race_began: int = 0  # ``actions`` when the current race began (0: the first race)


# --- one seat's race ------------------------------------------------------------


def _run(spy: Spy, hand: tuple[str, ...], piles: tuple[tuple[str, ...], ...]) -> Spy:
    """Flip cards until one fits a pile (the seat must then choose) or the race is over.

    A card that fits nowhere is moved without asking: a new pile while there are
    fewer than six, else the first such card is called and goes to the bottom,
    later ones go to the bottom silently, and once the called card has come round
    the first card that fits nowhere leaves the seat stuck.
    """
    called = spy.called
    came_round = spy.came_round
    while hand:
        card = hand[0]
        hand = hand[1:]
        if called is not None and not came_round and card == called:
            came_round = True
        rank = RANK[card]
        for pile in piles:
            if (rank - RANK[pile[-1]]) % 13 in (0, 1, 12):
                return Spy(spy.points_pile, spy.debt, hand, card, piles, called, came_round)
        if len(piles) < MAX_PILES:
            piles = (*piles, (card,))
        elif called is None:
            called = card
            hand = (*hand, card)
        elif not came_round:
            hand = (*hand, card)
        else:
            return Spy(spy.points_pile, spy.debt, hand, card, piles, called, came_round, stuck=True)
    return Spy(spy.points_pile, spy.debt, hand, None, piles, called, came_round)


def begin_race(spy: Spy) -> Spy:
    """Deal the square of four face-up piles from the racing hand and flip the first card."""
    hand = spy.hand
    if spy.card is not None:
        hand = (spy.card, *hand)
    for pile in spy.piles:
        hand = (*hand, *pile)
    deal = min(SQUARE, len(hand))
    piles = tuple((card,) for card in hand[:deal])
    return _run(Spy(spy.points_pile, spy.debt), hand[deal:], piles)


def place(spy: Spy, pile: int) -> Spy:
    """Put the flipped card on ``pile`` and flip on."""
    assert spy.card is not None
    piles = (*spy.piles[:pile], (*spy.piles[pile], spy.card), *spy.piles[pile + 1 :])
    return _run(replace(spy, card=None), spy.hand, piles)


# --- the engine -----------------------------------------------------------------


def start_from_decks(
    seats: int, seed: int, decks: Sequence[Sequence[str]], *, half_decks: bool = False
) -> SpyVsSpyState:
    """A game whose decks are already shuffled (top card first), e.g. to replay a table's deal.

    Each seat puts the top 5 cards (10 alone) of its deck face down as its points
    pile; the rest is its racing hand, from which the race square is dealt.
    """
    if len(decks) != seats:
        raise InvalidOptions(f"Expected {seats} decks, got {len(decks)}.")
    size = deck_size(half_decks)
    for seat, deck in enumerate(decks):
        if len(deck) != size:
            raise InvalidOptions(f"Seat {seat}'s deck has {len(deck)} cards, not {size}.")
        if len(set(deck)) != size or not set(deck) <= set(DECK):
            raise InvalidOptions(f"Seat {seat}'s deck is not made of distinct standard cards.")
    if half_decks and set(decks[0]) & set(decks[1]):
        raise InvalidOptions("The two halves must be the two halves of one deck.")
    start = start_points(seats)
    spies = tuple(
        begin_race(Spy(points_pile=tuple(deck[:start]), hand=tuple(deck[start:]))) for deck in decks
    )
    return SpyVsSpyState(
        seats=seats,
        seed=seed,
        half_decks=half_decks,
        race=1,
        phase=RACE,
        spies=spies,
        racers=tuple(range(seats)),
        standing=Standing(contenders=tuple(range(seats))),
        choices=(None,) * seats,
    )


def _pile_index(action: Mapping[str, Any]) -> int:
    if set(action) != {"type", "pile"}:
        raise IllegalAction(f'A "{action["type"]}" action has exactly a "type" and a "pile" number.')
    pile = action["pile"]
    if not isinstance(pile, int) or isinstance(pile, bool):
        raise IllegalAction(f"The pile must be a whole number, not {pile!r}.")
    return pile


def _score_race(state: SpyVsSpyState) -> SpyVsSpyState:
    """Add up the race once everyone has finished and chosen, then start the next race."""
    bonus = bonus_points(state.half_decks)
    first = state.finish_order[0]
    spies = list(state.spies)
    rows: list[RaceRow] = []
    for seat in sorted(state.racers):
        spy = spies[seat]
        points = list(spy.points_pile)
        back: list[str] = []
        if spy.bonus:
            took: int | None = None
            pile_size = 0
            leftover = 0
            removed = bonus
            for pile in spy.piles:
                back.extend(pile)
        else:
            took = state.choices[seat]
            assert took is not None
            pile_size = len(spy.piles[took])
            leftover = len(spy.leftover)
            points.extend(spy.leftover)
            points.extend(spy.piles[took])
            for index, pile in enumerate(spy.piles):
                if index != took:
                    back.extend(pile)
            removed = FIRST_REMOVES if seat == first else 0
        taken_off = min(removed, len(points))
        if taken_off:
            back.extend(points[-taken_off:])
            del points[-taken_off:]
        new = Spy(
            points_pile=tuple(points),
            debt=spy.debt + removed - taken_off,
            hand=tuple(shuffled(back, state.seed, "race", state.race + 1, seat)),
        )
        spies[seat] = new
        rows.append(
            RaceRow(
                seat=seat,
                place=state.finish_order.index(seat) + 1,
                leftover=leftover,
                took=took,
                pile=pile_size,
                bonus=spy.bonus,
                removed=removed,
                change=new.score - spy.score,
                score=new.score,
            )
        )
    record = RaceRecord(state.race, state.standing.tie_break, state.finish_order, tuple(rows))
    standing = after_race(state.standing, [spy.score for spy in spies])
    history = (*state.history, record)
    if standing.over:
        return replace(
            state, phase=OVER, spies=tuple(spies), standing=standing, history=history, must_take=frozenset()
        )
    racers = standing.contenders
    for seat in racers:
        spies[seat] = begin_race(spies[seat])
    return SpyVsSpyState(
        seats=state.seats,
        seed=state.seed,
        half_decks=state.half_decks,
        race=state.race + 1,
        phase=RACE,
        spies=tuple(spies),
        racers=racers,
        standing=standing,
        choices=(None,) * state.seats,
        history=history,
    )


class SpyVsSpy:
    slug = "spy-vs-spy"
    title = "Spy vs Spy"
    seats = range(1, MAX_RACERS + 1)  # online; start_from_decks and the score sheet take any number
    options: Mapping[str, Any] = OPTIONS
    real_time = True  # every racer acts at once, as fast as it can: the web layer paces bots

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> SpyVsSpyState:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
            raise InvalidOptions(f"Spy vs Spy needs at least 1 player, not {seats!r}.")
        if seats not in self.seats:
            raise InvalidOptions(
                f"An online race of Spy vs Spy takes 1 to {MAX_RACERS} racers, not {seats}; a larger table "
                "races at the table and keeps its score on a score sheet, which takes any number."
            )
        opts = validate_options(options, OPTIONS)
        half = bool(opts["half_decks"])
        if half and seats != 2:
            raise InvalidOptions("Half decks are only for a 2 player game (half the deck each).")
        if half:
            deck = shuffled(DECK, seed, "deck")
            decks = [deck[0::2], deck[1::2]]  # dealt out one each in turn
        else:
            decks = [shuffled(DECK, seed, "deck", seat) for seat in range(seats)]
        return start_from_decks(seats, seed, decks, half_decks=half)

    def to_act(self, state: SpyVsSpyState) -> frozenset[int]:
        if state.phase == RACE:
            return frozenset(seat for seat in state.racers if not state.spies[seat].finished)
        if state.phase == TAKE:
            return frozenset(seat for seat in state.must_take if state.choices[seat] is None)
        return frozenset()

    def legal(self, state: SpyVsSpyState, seat: int) -> list[dict[str, Any]]:
        if type(seat) is not int or seat not in self.to_act(state):
            return []
        spy = state.spies[seat]
        if state.phase == TAKE:
            return [{"type": "take", "pile": index} for index in range(len(spy.piles))]
        if spy.done:
            return [{"type": "finish"}]
        assert spy.card is not None
        return [{"type": "place", "pile": index} for index in fitting_piles(spy.card, spy.piles)]

    def _refuse(self, state: SpyVsSpyState, seat: int) -> IllegalAction:
        if state.phase == OVER:
            return IllegalAction("The game is over.")
        if seat not in state.racers:
            return IllegalAction(
                f"Seat {seat} is not in this race: it is a tie-break between seats "
                f"{', '.join(map(str, state.racers))} only."
            )
        if state.phase == RACE:
            return IllegalAction(f"Seat {seat} has already finished this race; wait for the others.")
        if seat in state.must_take:
            return IllegalAction(f"Seat {seat} has already chosen the pile to take; wait for the others.")
        return IllegalAction(f"Seat {seat} won the bonus and takes no pile this race.")

    def race_started(self, state: SpyVsSpyState) -> int:
        """How many actions had been applied when the current race began (0 for the first race)."""
        return state.race_began

    def apply(self, state: SpyVsSpyState, seat: int, action: dict[str, Any]) -> SpyVsSpyState:
        new = self._act(state, seat, action)
        actions = state.actions + 1
        began = actions if new.race != state.race else state.race_began
        return replace(new, actions=actions, race_began=began)

    def _act(self, state: SpyVsSpyState, seat: int, action: dict[str, Any]) -> SpyVsSpyState:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action is an object with a "type", e.g. {"type": "place", "pile": 0}.')
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            raise IllegalAction(f"There is no seat {seat!r} in this game.")
        if seat not in self.to_act(state):
            raise self._refuse(state, seat)
        kind = action["type"]
        spy = state.spies[seat]
        if state.phase == TAKE:
            if kind != "take":
                raise IllegalAction(f'The race is over: choose a pile to take with "take", not "{kind}".')
            pile = _pile_index(action)
            if not 0 <= pile < len(spy.piles):
                raise IllegalAction(f"You have piles 0 to {len(spy.piles) - 1}; there is no pile {pile}.")
            choices = (*state.choices[:seat], pile, *state.choices[seat + 1 :])
            state = replace(state, choices=choices)
            if all(choices[s] is not None for s in state.must_take):
                return _score_race(state)
            return state
        # the race
        if spy.done:
            if kind != "finish" or set(action) != {"type"}:
                what = "you are stuck" if spy.stuck else "your racing hand is used up"
                raise IllegalAction(f'Your race is over ({what}): say finished with {{"type": "finish"}}.')
            spies = (*state.spies[:seat], replace(spy, finished=True), *state.spies[seat + 1 :])
            order = (*state.finish_order, seat)
            state = replace(state, spies=spies, finish_order=order)
            if len(order) < len(state.racers):
                return state
            must_take = frozenset(s for s in state.racers if not spies[s].bonus)
            state = replace(state, phase=TAKE, must_take=must_take)
            return state if must_take else _score_race(state)
        assert spy.card is not None
        if kind == "finish":
            raise IllegalAction(f"You have not finished: the {card_name(spy.card)} must go on a pile first.")
        if kind != "place":
            raise IllegalAction(f'Place the {card_name(spy.card)} on a pile with "place", not "{kind}".')
        pile = _pile_index(action)
        if not 0 <= pile < len(spy.piles):
            raise IllegalAction(f"You have piles 0 to {len(spy.piles) - 1}; there is no pile {pile}.")
        fits = fitting_piles(spy.card, spy.piles)
        if pile not in fits:
            # Said with the pile tops, not the pile numbers: a person knows the piles by their tops.
            top = card_name(spy.piles[pile][-1])
            where = " or the ".join(card_name(spy.piles[index][-1]) for index in fits)
            raise IllegalAction(
                f"The {card_name(spy.card)} does not go on the {top}: a card goes on the same rank or one "
                f"above or below. It fits on the {where}."
            )
        spies = (*state.spies[:seat], place(spy, pile), *state.spies[seat + 1 :])
        return replace(state, spies=spies)

    def view(self, state: SpyVsSpyState, seat: int | None) -> dict[str, Any]:
        to_act = self.to_act(state)
        players = []
        for s, spy in enumerate(state.spies):
            players.append(
                {
                    "seat": s,
                    "score": spy.score,
                    "points_pile": len(spy.points_pile),
                    "hand": len(spy.hand),
                    "card": spy.card,
                    "piles": [list(pile) for pile in spy.piles],
                    "called": spy.called,
                    "called_came_round": spy.came_round,
                    "stuck": spy.stuck,
                    "done": s in state.racers and spy.done,
                    "finished": s in state.finish_order,
                    "bonus": s in state.racers and spy.bonus,
                    "must_take": s in state.must_take,
                    "has_chosen": state.phase == TAKE and state.choices[s] is not None,
                }
            )
        outcome = self.outcome(state)
        out: dict[str, Any] = {
            "game": self.slug,
            "seat": seat,
            "race": state.race,
            "phase": state.phase,
            "half_decks": state.half_decks,
            "bonus_points": bonus_points(state.half_decks),
            "tie_break": state.standing.tie_break,
            "racing": list(state.racers),
            "finish_order": list(state.finish_order),
            "to_act": sorted(to_act),
            "players": players,
            "scores": [spy.score for spy in state.spies],
            "history": [
                {
                    "race": record.race,
                    "tie_break": record.tie_break,
                    "finish_order": list(record.finish_order),
                    "rows": [
                        {
                            "seat": row.seat,
                            "place": row.place,
                            "leftover": row.leftover,
                            "took": row.took,
                            "pile": row.pile,
                            "bonus": row.bonus,
                            "removed": row.removed,
                            "change": row.change,
                            "score": row.score,
                        }
                        for row in record.rows
                    ],
                }
                for record in state.history
            ],
            "outcome": None if outcome is None else outcome.as_dict(),
        }
        if seat is not None and state.phase == TAKE:
            out["my_choice"] = state.choices[seat]
        return out

    def outcome(self, state: SpyVsSpyState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = tuple(spy.score for spy in state.spies)
        return Outcome(
            scores=scores,
            places=places(state.standing, state.seats),
            detail={
                "races": len(state.history),
                "tie_break_races": sum(1 for record in state.history if record.tie_break),
                "winner": state.standing.winner,
            },
        )


ENGINE = SpyVsSpy()
