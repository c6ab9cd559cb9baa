"""Spycatcher: the rules engine (slug ``spycatcher``, 2 to 6 players).

The rules followed are those in ``shared/rules/spycatcher.md``. The rule sheet refers to a board
and to four packs of location cards that it does not reproduce; the engine reads them from a board
file (``data/league.json``, invented and marked so; the format is in ``board.py``).

Cards
=====

52 influence cards (see ``cards.py``): ``court-1`` .. ``court-12``, ``government-1`` ..,
``press-1`` .., ``publisher-1`` .. ``publisher-12`` and one master card per suit, ``court-M``,
``government-M``, ``press-M``, ``publisher-M``. Location cards (permission cards) are named by the
board file (``court-permission-1`` .. on the shipped board).

Options (``ENGINE.options``)
============================

- ``board`` (text, default ``"league"``): the board file to play on (``data/<board>.json``).
  ``Spycatcher(boards={...})`` or ``Spycatcher.with_board_file(path)`` builds an engine that knows
  other boards (a club's own board file, the small test board).
- ``hand_size`` (7 or 5, default 7): see ruling 1.
- ``may_stay`` (default true): see ruling 9.
- ``turn_limit`` (rounds, default 150): see ruling 20.
- ``first_player`` (a seat, default none: the players roll for it, ruling 19).

Play
====

A turn: draw, discard, roll (or stay), move, then act upon the square. Actions (``legal`` lists
exactly the ones allowed; ``apply`` accepts nothing else):

- phase ``draw``: ``{"type": "draw", "from": "pack"}`` or ``{"type": "draw", "from": "discard"}``.
- phase ``discard``: ``{"type": "discard", "card": "press-7"}``.
- phase ``roll``: ``{"type": "roll"}`` (the die is seeded chance inside ``apply``), or
  ``{"type": "stay"}`` on a challenge square (ruling 9).
- phase ``move`` (only when the one-way system forks on the way): ``{"type": "move", "to": "c12"}``.
- phase ``seek`` (on a challenge square): ``{"type": "seek", "cards": ["court-5", "court-6",
  "court-7"]}``, ``{"type": "seek", "cards": ["court-M"]}``, or ``{"type": "pass"}``.
- phase ``window`` (every other player at once): ``{"type": "decline"}`` or
  ``{"type": "challenge", "cards": ["court-2", "court-9"]}`` (cards in card order, as listed).
- phase ``give``: ``{"type": "give", "card": "press-permission-4", "to": 2}``.
- phase ``replace``: ``{"type": "replace", "card": "court-permission-9"}``.

The engine also has ``reaction_window(state)`` (a challenge window is open: the web layer puts
it on a timer) and ``timeout_action(state, seat)`` (``{"type": "decline"}`` for a seat that did
not answer in time), ``events(state)`` (the whole public log) and ``board_drawing(state)`` (the
board file's content: squares with ``x``/``y`` and ``next``, circles with ``x``/``y``/``r``, for
drawing it as SVG).

View
====

``view(state, seat)`` (``seat=None``: a spectator) holds ``game``, ``seat``, ``seats``,
``board`` (its name), ``options``, ``first`` (who started), ``phase``, ``turn``, ``to_act``,
``round``, ``turn_limit``, ``hand`` (own cards only), ``hands`` (how many cards each seat holds),
``pack`` (cards left), ``discard`` (``top`` card and how many ``cards``), ``positions`` (square id
per seat), ``permissions`` (per seat, face up), ``location_packs`` (cards left per suit), ``roll``
(this turn's die), ``moving`` (where the move may end, while the player chooses), ``must_move``,
``missed_turns``, ``window`` (``seeker``, ``circle``, ``square``, ``face_down`` = how many cards
were laid, ``waiting``, ``cards`` = the face-down cards, only to the seeker, ``challenges`` = the
challenges played so far, face up, to everyone: ``seat``, ``cards`` and ``total``, in the order
they came, ``answer`` = a challenger's own answer, ``"decline"`` or its cards), ``instruction`` (a
give or replace waiting for the player's choice), ``events`` (the last 20 public events; a
challenge is the event ``challenge_played`` as it is played), ``over``, ``end`` and ``winner``.
Nothing in it shows another hand, the order of any pack, or the face-down cards before they are
turned over.

Outcome: the score is the number of permission cards held at the end, 5 for the winner (four
permissions and the book published); places follow the scores (ruling 21).

Rulings
=======

Where the rule text is silent, open or contradicts itself, the engine rules as follows (each is
tested in ``tests/games/spycatcher/test_rulings.py`` under a test named after it):

1. **Hand size.** The sheet deals seven cards and counts "a total of eight (8) cards held in the
   hand" after the first draw, but also says "You must always have five cards in your hand". The
   engine deals seven by default (eight after the draw, seven after the discard): the numbers of the
   set-up and of the sequence of play are stated twice, with figures, and agree. A match
   may choose the other reading (five dealt, six after the draw). "Always" is honoured:
   whenever the rules take cards out of a hand (seeking, challenging, replacing the hand), that
   player draws as many from the pack at once (a seeker and its challengers when the request is
   settled, ruling 7), so every hand is back to the hand size when a turn ends.
2. **The 52 influence cards** are four suits numbered 1 to 12 (48) and four master cards, one per
   suit. A master card has no number: it is never part of a run and adds nothing to a total.
3. **Master cards are played alone**, to seek permission or to challenge, and only in the circle of
   their own suit: a master card of another suit is no card of the correct suit ("No challenge can
   be made with cards of an incorrect suit").
4. **Who may seek permission.** A player may seek permission on a challenge square that the die
   brought the piece to (or where it stays, ruling 9), for a circle whose permission card the player
   does not hold (a player holds one of each at most), with a run of three numbers in sequence of the
   circle's suit or with its master card. Only true runs are offered, so the check "provided that
   they are a run" never fails. The player is asked even with nothing to play (passing is always
   allowed), so being asked reveals nothing about the hand.
5. **Face-down cards.** The table sees how many cards were laid face down. One card can only be the
   master card, against which "no challenge can be effective"; a challenge may still be made, and it
   fails (its cards are discarded all the same).
6. **The challenge window.** When permission is sought every other player is asked at once,
   whatever they hold, and may always decline. A challenge is one, two or three numbered
   cards of the circle's suit, or its master card, played "face up": the cards leave the
   challenger's hand at once and every player and spectator sees them (with their total) as soon
   as they are played, so a player still to answer knows what has been played before deciding.
   Who has answered shows too; a decline shows only as an answer without cards. The window
   closes when every player has answered (online, a player who does not answer in time
   declines). Each challenger's cards are totalled alone (challengers do not pool); a
   challenger beats the run with a greater total (an equal total does not beat it) or with the
   master card. If any challenger beats the run, the request is refused.
7. **Settling a request.** The face-down cards are turned over whatever happens. All cards played
   go to the bottom of the discard pile (the seeker's, then each challenger's from the seeker's
   left); the seeker draws as many new cards as were laid down, then each challenger as many as
   they played, in the same order. A refused seeker takes no permission card.
8. **Taking a location card.** On success the player takes the top card of the circle's pack. A
   permission card is kept face up; then its instruction is followed, and the turn ends. A location
   card that is not a permission card (a board file may have some; the shipped board has none) is
   followed and then put at the bottom of its pack.
9. **Staying on a challenge square.** After a refusal "the player must move on from the challenge
   square on his or her next turn", which only means something if a piece may otherwise stay. So
   (unless a match turns it off) a player whose piece stands on a challenge square of a circle whose
   permission card it still needs may, after drawing and discarding, stay instead of rolling, and
   then seek permission there. After a refusal the player must roll on the next turn. A match
   may turn staying off: then a player always rolls.
10. **Forced moves and forks.** A piece moves exactly the number rolled along the one-way links;
    where they fork, the player chooses where the move ends (asked only when there is a
    choice). Only where a move ends matters: squares passed over do nothing.
11. **The centre.** A piece without all four permission cards treats the centre as an ordinary
    square: it passes over it or stops on it, and nothing happens. A piece holding all four stops
    on the centre as soon as its move reaches it, whatever is left of the count (no exact throw is
    needed), and wins at once; so no piece goes past the centre when it can win. Reaching it through
    an instruction's move also wins; no instruction sends a piece straight to the centre.
12. **Action squares are obeyed at all times.** Wherever a piece stops, by the die, by another
    action square's "move on" or "go to", or by a location card's instruction, an action square
    there is obeyed; so a piece that "moves on 3" onto "report to MI5" reports to MI5. Only where
    a move ends counts (ruling 10). To guard against endless loops (square A sends the piece to
    B, and B back to A), **an action square is obeyed at most once a turn**: a piece that stops
    again on a square it has already obeyed this turn stays there, the game says so, and the
    turn ends. A board has finitely many squares, so every turn
    ends. Challenge squares are used only when the die brought the piece there: a piece sent
    onto one by an instruction does not seek permission that turn, but may stay there on its
    next turn (ruling 9).
13. **Roll again** works once a turn: the extra roll is a die move like the first, but a
    second "roll again" square reached in the same turn (a board may have several) does nothing
    more, so a turn has at most two rolls.
14. **Replace a permission card**: it goes to the bottom of its pack; nothing happens if the player
    holds none of that kind; when the card says "any", the player chooses which.
15. **Give a permission card**: the giver chooses the card and the player, among players who hold
    none of that kind and for whom it would not be the fourth. The gift is compulsory when one is
    possible and lapses when none is (an event says so).
16. **Replace your influence cards**: the hand goes to the bottom of the discard pile without being
    shown, and as many new cards are drawn from the pack.
17. **Pack and discard pile.** Only the top card of the discard pile shows and can be taken; cards
    put at its bottom are not seen again until they are shuffled. When the last card of the pack is
    taken, the whole discard pile (its top card too) is shuffled at once to be the new pack; if the
    pile is empty just then, the reshuffle happens at the next draw. At most 42 cards are ever in
    hands, so a draw always finds a card.
18. **Missed turns** are skipped whole (no draw, no move) and count as turns for the turn limit.
19. **Dealing and who starts.** The cards are dealt one at a time from the first seat, and the next
    card is turned face up to start the discard pile. Then every player rolls the die; the highest starts
    and tied highest players roll again (everyone sees the dice). A match may name the first
    player instead. Play goes clockwise, to the left.
20. **Turn limit.** The rule sheet ends the game only with a win, and a game can last for ever:
    permission cards are lost again to action squares and gifts, and a table can sit on half-runs
    that nobody completes (random bots need hundreds of rounds, sometimes thousands). So the game
    stops after a number of rounds the match sets (150 unless it says otherwise, where heuristic
    bots finish a four-player game in about 45 rounds and the longest of 200 in under 100), and the
    players are placed by the permission cards they hold.
21. **Scores and places.** A player's score is the number of permission cards held at the end; the
    winner's is 5. Places follow the scores, so the winner is first and the others are placed by
    their permission cards; equal scores share a place.
"""

from .board import Board, BoardError, board_from_dict, load_board, load_boards
from .engine import ENGINE, Spycatcher, SpycatcherState

__all__ = [
    "ENGINE",
    "Board",
    "BoardError",
    "Spycatcher",
    "SpycatcherState",
    "board_from_dict",
    "load_board",
    "load_boards",
]
