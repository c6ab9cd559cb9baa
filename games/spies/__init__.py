"""Spies!: the rules engine (slug ``spies``, 2 to 5 players).

The rules followed are the standard game in ``shared/rules/spies.md``. The mapsheet and the
counter sheet the text refers to are data: ``data/map.json`` and ``data/counters.json`` (loaded and
checked by ``board.py``; the format is in ``data/schema/``). The shipped files use real cities, rail
and air lines of the 1930s; every value the published components would give (police cities,
SECRET cities, strengths, values, costs, event awards, multipliers, ...) is invented for this
edition and marked so in the files. A club with the real components replaces the files.

Powers and seats
================

Five powers in the fixed turn order Germany (G), Italy (I), Russia (R), France (F), Britain (B).
Seats are players: 5 seats play one power each; 4 seats: seat 0 plays Germany and Italy;
3 seats: seat 0 Germany and Italy, seat 2 France and Britain; 2 seats: seat 0 Germany and Italy,
seat 1 France and Britain, and Russia alternates by year (ruling 20). A player's powers never act
against each other nor pass chits, money or secrets between them (ruling 21).
``ENGINE.acting_power(state)`` (and ``view["acting"]``) says for which power the seat in ``to_act``
acts.

Options (``ENGINE.options``): ``turn_minutes`` (0..60, default 0: no limit; the rules suggest 5)
and ``offers_per_turn`` (0..10, default 3).

Actions
=======

``legal`` lists exactly the actions allowed; ``apply`` accepts nothing else. Pieces are named by
their table ids (``G-spy-2``, ``F-police-1``), secrets by ``S1`` .. ``S40``, tiles by their data ids,
powers by their codes.

Set-up (each power in turn order; ``view["placing_secret"]`` names the secret being placed):

- ``{"type": "place_secret", "city": c}``: the power's next secret, in a city of its territory
  that holds no secret.
- ``{"type": "place_police", "strength": s, "city": c}``: a police piece of that strength, in a
  police city of the home country holding fewer than 2 of its police.
- ``{"type": "place_spy", "strength": s, "value": v, "city": c}`` (any city) and
  ``{"type": "spies_done"}`` (place no more; up to the Starting Set-Up number may be placed).

A turn (the power whose turn it is):

- event step: ``{"type": "play_event", "tile": t}`` (a tile marked with the current year) or
  ``{"type": "discard_event", "tile": t}`` (any tile, face down).
- police step: ``{"type": "police", "city": c}`` re-places the next police piece
  (``view["step"]["police_next"]``) in a city of the home country; ``{"type": "police_done"}``
  leaves the rest where they are.
- search step: ``{"type": "search", "spy": id}``, ``{"type": "searches_done"}`` (skipped when no
  enemy spy shares a city with the power's police).
- movement step: ``{"type": "move", "spy": id, "to": node}`` (one space: a city or a sea zone),
  ``{"type": "discover", "spy": id, "secret": sid}``, ``{"type": "sanction", "spy": id, "target": id}``,
  ``{"type": "recruit", "strength": s, "value": v}``, ``{"type": "escape", "spy": id}`` (a captured
  spy), ``{"type": "guard", "spy": id, "secret": sid}``, ``{"type": "hand", "spy": id, "to": id}``,
  ``{"type": "cash", "spy": id}``, ``{"type": "end_turn"}``.
- diplomacy, in any of those steps: ``{"type": "offer", "to": code}`` opens an offer; then
  ``{"type": "offer_add", "item": "give_chit" | "ask_chit", "chit": kind}``,
  ``{"type": "offer_add", "item": "give_money" | "ask_money", "amount": 1 | 5}``,
  ``{"type": "offer_add", "item": "grant" | "ask", "concession": code}``,
  ``{"type": "offer_add", "item": "give_secret" | "ask_secret", "secret": sid}``,
  ``{"type": "offer_send"}``, ``{"type": "offer_cancel"}``.

Windows (one seat answers, outside the turn order; ``ENGINE.reaction_window(state)`` is true):

- ``arrival``: ``{"type": "search", "spy": id}`` or ``{"type": "decline"}``.
- ``evade``: ``{"type": "papers"}``, ``{"type": "escape"}`` (if held and affordable) or
  ``{"type": "decline"}``.
- ``cover``: ``{"type": "cover"}`` (if held and affordable) or ``{"type": "decline"}``.
- ``offer``: ``{"type": "accept"}`` (if able) or ``{"type": "decline"}``.
- ``surplus``: ``{"type": "return_chit", "chit": kind}`` (a power over 7 chits returns one).

``ENGINE.timeout_action(state, seat)`` gives what the site plays when time runs out (``decline``
in windows); ``ENGINE.turn_clock(state)`` gives the per-turn limit to enforce (see ruling 22): with
the option ``turn_minutes`` set it returns ``{"key", "seconds"}``, and when the key's time runs out
the site calls ``timeout_action`` for the seat in ``to_act`` until the key changes.

View
====

``view(state, seat)`` (``None``: a spectator) holds ``year``, ``multiplier``, ``turn``, ``phase``,
``acting``, ``to_act``, ``step`` (mover, spaces used, spies moved, spies searched, the police piece
to re-place, offers made), ``window``, ``offer`` (terms only to its two sides), ``spies``, ``police``
(every piece on or off the map; ``strength`` and ``value`` only where the viewer knows them),
``secrets`` (where, status, origin, controller; ``value``/``counterspy``/``strength`` only where
known), ``power_info`` (per power: money, chit and tile counts, records and victory points; hand,
tiles, discards and reserves only for the powers the seat sees), ``cup``, ``played_tiles``,
``neutral_box``, ``events`` (the last 30 events the seat may read) and ``over``.
``ENGINE.board()`` gives the map for drawing (cities with longitude and latitude, lines, zones).

Rulings
=======

Where the text is silent, leaves a point to the mapsheet, or is open, the engine rules as follows
(each is tested in ``tests/games/spies/test_rulings.py`` under a test named after it):

1. **Territory and home country.** A power's territory is its home country and its colonies
   (the countries the map marks as its colonies); its home country is the home country only, where
   its police serve. A power's original secrets are those it drew and placed at set-up; all others
   (SECRET cities, other powers') are foreign to it.
2. **Set-up order.** The bank, the tile draw (7 own + 3 random) and the secret draw are automatic;
   then each power in turn order places its secrets (one at a time, in table order), its police
   and its spies; the chit draw follows when all five have set up.
3. **What the table sees.** Face-down pieces show their nationality, not their strength; pieces get
   table ids in the order they reach the map (a timed-out set-up, ruling 22, and the bots place
   theirs in a random order, so the ids say nothing of strengths); secrets are ``S1`` .. ``S40``
   in shuffled order.
   Captured and sanctioned spies, cashed or counted secrets and removed counterspies lie face up.
   A secret's place of origin (which power placed it, or a SECRET city) is public.
4. **Re-arranging police** is "among your home country cities": any city of the home country, not
   only those coded for police (set-up alone uses those). The pieces are re-placed one at a time in
   table order (each in a city holding fewer than 2 pieces already re-placed this step); the power
   may leave the rest where they are, but only if no city then holds more than 2. Every arrangement
   can be reached and the step always ends.
5. **Control.** Police control their power's uncontrolled original secrets in their city
   automatically (at set-up, after re-arranging, and when a secret there is left uncontrolled);
   a spy takes control of its power's uncontrolled original secret in its territory with
   ``guard``. A piece controls at most one secret; a spy always carries the secret it controls;
   it passes it with ``hand`` to another spy of its power in the same city (or, for an original
   secret in the home country, to a police piece there). Police that move away lose control.
6. **Searches.** In the search step each enemy spy in a city with the power's police may be
   searched once, in the order the searcher chooses; all its police in the city add their
   strengths. The spy's owner is always asked (Papers, Escape or decline) even without chits, so
   the question tells nothing; Papers and Escape both avoid the comparison. Both sides then see
   both strengths; the table sees only the result.
7. **Arrival searches.** Each time a spy moves into a city (stopping or passing through) holding
   police of another power, that power is asked to search or decline. Spies placed, recruited or
   escaping have not moved. A capture ends the spy's move.
8. **Counterspies** compare strengths only when another power controls them; one nobody controls
   is removed with no effect. Papers and Escape avoid searches, not counterspies. A counterspy has
   no victory-point value. A capture by a counterspy in a neutral country's city goes to the
   Spies Captured in Neutral Countries box, elsewhere to the controller's record.
9. **Discovery** is played by a spy that controls nothing, on a secret in its city that no piece
   of its power controls (its power's own uncontrolled originals in its territory are guarded,
   not discovered). Unless the controller covers it, the discoverer sees the secret: a counterspy
   is checked (ruling 8); any other secret comes under the spy's control, taken from an enemy if
   need be. A covered Discovery shows nothing.
10. **Cover** (the mapsheet summary is not available; this is the club's reading): played on
    another power's turn against its Sanction of your spy or its Discovery of a secret you
    control; the chit played against you is spent for nothing. The defender is always asked.
11. **Sanction:** your spy in the same city as an enemy spy removes it from play for good (no
    strength comparison, no Papers or Escape); a secret it controlled is left uncontrolled; you
    place a Sanctioned Spy marker (worth what the counter sheet gives it) on your record under the year.
12. **Recruit** brings one of your spies not yet in play (chosen by strength) into your capital,
    face down; it has not moved and may move this turn. **Escape** during your movement brings one
    of your captured spies (a record or the neutral box) back to your capital, face up; the captor
    loses it; it may move this turn unless it had already begun moving this turn.
13. **When chits are played:** Discovery, Sanction, Recruit and Escape in your movement step (by
    any of your spies, before, between or in the middle of moves, never while a spy is at sea);
    Papers and Escape when one of your spies is searched; Cover in its window. A chit costs its full
    price and goes back to the cup.
14. **Movement** is one space at a time; a spy begins moving with its first step and beginning
    another spy finishes it. A spy may step to sea only with a space left to land, so it is never
    stranded; while a spy is at sea only its own steps are allowed.
15. **Cashing in** is a move the player makes (it does not happen by itself) when a spy controlling
    a foreign secret is in its power's capital, at any time of the movement step: 20£ and a chit;
    the secret goes face up on the record under the year.
16. **Event Tiles:** a power with no tile left skips the event step. Awarded chits are drawn power
    by power in turn order while the cup lasts; a draw from an empty cup gives nothing.
17. **More than 7 chits:** the power returns chits one at a time, of its choice, face down; powers
    over the limit answer in turn order from the power whose turn it is.
18. **Diplomacy:** only the power whose turn it is makes offers, in its event, police, search or
    movement step (not while a spy is at sea), at most 3 a turn (a match may allow another number),
    to a power of another player. An offer gives and asks chits (by kind), money (1 or 5 at a time),
    concessions (promises the engine records but does not enforce) and secrets; never Event Tiles. A
    secret changes hands on the map: a secret one side controls (by a spy or a police piece) passes
    to a spy of the other side in the same city that controls nothing (the first in table order; one
    such spy for each secret traded there). It travels face down: the receiver sees its face only
    once it has it, and a counterspy so received is turned face up and removed with no effect (it is
    a trap for a discovering spy, not a secret to hold or cash in). Any secret the other side
    controls where you have a free spy may be asked for, so asking shows nothing. The other side
    accepts (only if it holds what is asked) or declines. The terms are seen by the two sides; the
    table sees the money and the number of chits change hands, and which spies take which secrets.
19. **The end:** after Britain's 1939 turn each power's original secrets (not counterspies) in its
    territory and not controlled by another power go to its record under 1939. Foreign secrets not
    cashed in score nothing.
20. **Scores and fewer players:** a power's victory points are the sum of value times multiplier on
    its record; ties go to the richer power. A seat running two powers is ranked by its better power
    (points, then money); the final scores list every power. In the two-player game Russia is played
    by the player of Germany and Italy in 1933, 1935, 1937 and 1939 and by the player of France and
    Britain in the other years; it is scored but belongs to neither player. Russia's own things (its
    pieces' strengths, chits, tiles, reserve and original secrets) are open to both players, who
    take turns handling them. What is learned is learned by a player, not by the cardboard power: a
    secret's face seen, the strengths of a comparison, while running Russia, stay with the player
    who ran it that year, and the other player does not see them, not even when Russia passes to it
    (so the player running Russia may hold, and cash in, a secret whose face only the other player
    has seen).
21. **Two powers, one player** ("you cannot exchange Action chits, money, or secrets between
    them"): a player's powers never act against each other nor pass value between them. No
    search (in the search step or on arrival) of a spy of the player's other power, no Sanction of
    it, no Discovery of a secret the other power controls or that began the game in its territory,
    nor such a secret taken in a trade with a third power (ruling 18: it is neither offered nor
    asked for), no Escape from its record, no cash-in of its original secret, no offer to it. In
    the two-player game Russia counts, in the years a player runs it, as one of that player's
    powers.
22. **Time limit:** a match may give each turn a few minutes (the rules suggest 5). When the time
    runs out the site finishes the turn for the player, step by step: it discards the first Event
    Tile, keeps the police, ends the searches, lands a spy at sea and ends the turn. A set-up that
    times out is completed at random within the rules: each secret in a random city of the
    territory; police drawn at random (not strongest first, so the table ids say nothing) in random
    police cities with room; spies drawn at random into random cities of the map, up to the Starting
    Set-Up number. The chance is seeded by the game.
"""

from .engine import ENGINE, Spies, SpiesState

__all__ = ["ENGINE", "Spies", "SpiesState"]
