"""Black Spy (Alan R. Moon, Z-Man Games): trick taking for 3 to 6, avoid the black cards.

``ENGINE`` follows the protocol of ``shared/design/engines.md``. Cards are ``blue-1`` ..
``black-11``; the six Black Spies are all ``black-7``. Options: ``no_good_spies``,
``capture_or_release``, ``the_mole``, ``calling_color``, ``following_rank``, ``going_back``
(booleans), ``end_value`` (a positive int) and ``youngest_first`` (The Mole's tie-break:
the seats from youngest to oldest; default seat order).

Actions
-------
- ``{"type": "pass", "card": c}``: the pass is made one card at a time. During the pass
  every seat that has not yet passed three cards is in ``to_act``; ``legal`` lists one
  action per distinct card in hand. A card passed cannot be taken back. The cards still to
  pass may also go together, ``{"type": "pass", "cards": [c1, c2, c3]}`` (what the board
  sends once a player has chosen and confirmed three): all of them or none.
- ``{"type": "play", "card": c}``; ``{"type": "call", "color": c}`` (Calling Color: blue,
  yellow, red or green); ``{"type": "mole", "cards": [c1, c2, c3]}`` (the three cards in
  deck order, as ``legal`` lists them); ``{"type": "all_black", "choice": "give"|"subtract"}``
  (Capture or Release).
- ``legal`` lists each distinct action once (one ``black-7`` however many are held). The
  dicts it returns are shared and read-only (``dict(action)`` gives a copy to change);
  ``apply`` accepts any equal dict.

What a seat sees (``view``)
---------------------------
Its own hand, the current trick, cumulative scores, the deal number, the dealer, the
first-dealer draws, the pass direction and target, whose turn it is, every hand's size,
who has finished passing, the cards it passed and (once the pass is complete) the cards it
received, the colour called, how many tricks each player has taken, the last completed
trick, the score sheet (``history``), the end value, the options and The Mole as that seat
knows it. Never another hand, the Mole's cards (unless choosing) or cards in transit.
``view(state, None)`` is the spectator's view: the same without a hand or passes.

Speed: the compiled build
-------------------------
``scripts/build-engines`` compiles ``cards``, ``scoring`` and ``engine`` with mypyc (it
comes with mypy) into ``.so`` files next to the sources, which Python then imports
first; ``actions``, ``bots``, ``scorepad`` and this module stay plain Python. The
package uses the compiled files only while they were built from the sources as they are
(``_loader`` checks a stamp of their hash), so an edited source is never shadowed by an
old build; ``SPYLEAGUE_PURE_PYTHON=1`` ignores them, and without a C compiler there are
none: the same code runs as plain Python, slower. ``COMPILED`` tells which is in use.
The engine behaves the same either way (the whole test suite runs both ways:
``SPYLEAGUE_PURE_PYTHON=1 pytest tests/games/black_spy``).

Chance
------
The engine draws its own randomness, not through ``games.core.chance``: every shuffle
(each deal's deck, each round of the first-dealer draws) comes from
``cards.shuffled(seed, event, number)``, a Fisher-Yates shuffle of the 60 cards driven by
SFC32, a small 32-bit generator whose 96-bit starting state is hashed (MurmurHash3's
finaliser) from the game's seed, the kind of event and its number. So a game is still
determined by its seed and moves alone (no global random state, no clock), one event's
draws never shift another's, and compiled and plain Python give the same deals; it is
only much cheaper than seeding a Mersenne Twister per deal. (Changing it changes which
deal a seed gives: the golden replays were regenerated when it was introduced.)

Rulings
-------
1. First dealer: each player draws one card from a shuffled deck; only the rank counts
   (a Black Spy and a coloured Spy are both 7s). Players tied for the highest rank draw
   again from a reshuffled full deck until one is alone. Every round of draws is shown.
2. The deal: one card at a time, starting with the player to the dealer's left; the next
   deal is dealt by the player to the dealer's left.
3. The pass: it is made every deal, one card at a time or the three together (online, a
   player picks three and confirms them), and a card passed cannot be taken back. The cards
   change hands only when every seat has passed three, so no one sees cards passed to
   them before then (stricter than the rule's "until he has passed his three", which an
   online table cannot otherwise enforce fairly). 3, 5 and 6 players alternate left,
   right; 4 players go left, right, across.
4. First lead: whoever holds the Red 1 after the pass leads, any card that is not black
   (the Red 1 itself is not required).
5. Following: a card of the colour led or of the rank led (Following Rank: or of the rank
   of the card played just before it in the trick); with none of those, any card. Only
   the colour led can win a trick, so a card following by rank in another colour never
   wins it. Among equal cards (Black Spies) the first played wins.
6. Taken tricks are face down: every seat and spectator sees how many tricks each player
   has taken in the deal and the last completed trick (until the next one is complete; a
   new deal starts with none); no one, the taker included, may look back at earlier
   tricks or see the points taken until the deal is scored into ``history``.
7. All 16 black cards: the taker scores 0 and every other player 60. With Capture or
   Release the taker chooses before the deal is recorded: give (the normal rule) or
   subtract (taker -60, every other player 0). The coloured Spies
   then count 0, which the fixed all-black scores already imply.
8. End of the game: checked only once a deal is scored. If several players reach the end
   value in the same deal, the game simply ends; the lowest score wins whoever ended it.
   Players tied for the lowest score share first place (no extra deal is played), and
   the next place is counted on as in sport (1, 1, 3, ...).
9. Going Back: after each deal, a player whose score changed in that deal and now stands at
   exactly the end value, or exactly half of it, has it halved, rounded down (a lower
   score is better, so rounding favours the player); the halved score is not checked
   again (150 becomes 75 and stays 75). Halving comes first, then the end check: the game
   ends only when a score exceeds the end value, so a player halved in the deal that
   ends the game keeps the halved score. Half of an odd end value is never reached.
10. The Mole: "at the end of a deal" is read as the end of the dealing. From the second
   deal on, the dealer sets aside 3 cards per player and deals the rest (60/n - 3 each);
   then, before the pass, players choose from The Mole in order of the scores at that
   moment (as recorded after the previous deal), highest first, ties broken youngest
   first. Each chooser but the last takes three cards; the lowest score receives the last
   three without choosing. The chosen cards join the
   hand at once, so every deal still uses all 60 cards. Only the chooser sees the cards
   left in The Mole; everyone sees the order, whose turn it is and how many cards are left;
   each seat sees the cards it took.
11. Calling Color: the dealer calls after the pass, with the cards received in hand. The
   player to the dealer's left leads, or the next player to the left who holds the colour
   called; the first lead must be of that colour. The Red 1 rule does not apply.
12. The end value: a match may set its own, which replaces the default (200/150/120/100
   by player count), Going Back's half included.
"""

import sys

from . import _loader

# True when the mypyc-compiled modules are in use (see ``_loader`` and scripts/build-engines).
COMPILED = _loader.load(sys.modules[__name__])

from .engine import ENGINE, BlackSpyEngine, State  # noqa: E402

__all__ = ["COMPILED", "ENGINE", "BlackSpyEngine", "State"]
