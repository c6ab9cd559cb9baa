"""Before I Kill You, Mister Spy: the rules engine (slug ``mister-spy``, 2 to 6 players).

The rules followed are those in ``shared/rules/mister-spy.md`` (not other editions).

Cards
=====

54 cards (see ``cards.py``): ``lair-2`` .. ``lair-4`` (5 each), ``taunt-A`` .. ``taunt-I``
(2 each), ``spy-2`` .. ``spy-8`` (5, 5, 4, 3, 2, 1, 1). Cards that reach the table get a
table id that says nothing about the card: ``L<n>`` for a card in a Lair (Lair card or
Deathtrap), ``S<n>`` for a Spy that is captured, played as a Double Agent, or scored.

Play
====

Options (``ENGINE.options``): ``dealer`` (a seat number, default 0). Nothing else.

The deck is shuffled by seeded chance and dealt (7/6/5/4/3 cards for 2/3/4/5/6 players).
The dealer (option ``dealer``, default seat 0) plays first and turns go to the left
(seat + 1). A turn begins with an automatic draw; if the deck is empty then, the game is
over and that seat gets no turn. The first seat to reach 33 points wins at once;
otherwise the high score wins when the deck runs out.

Actions (``legal`` lists exactly the ones allowed; ``apply`` accepts nothing else):

Phase ``turn`` (the seat whose turn it is, after its draw):

- ``{"type": "pass"}``
- ``{"type": "play_lair", "card": "lair-3"}``: a Secret Lair, face down, worth 1.
  ``{"type": "play_lair", "card": "taunt-C"}`` plays a taunt as a Deathtrap.
- ``{"type": "capture", "card": "spy-5", "reveal": ["lair-3"]}``: play a Spy from the hand
  into your own Lair. ``reveal`` lists the codes of the Secret Lairs you turn over to make
  the Lair large enough (sorted; ``[]`` for none).
- ``{"type": "steal_lair", "card": "spy-4", "lair": "L7"}``: play a Spy as a Double Agent to
  steal the Lair card ``L7`` of another player.
- ``{"type": "steal_spy", "from": 2}`` (an opponent's hand) or ``{"type": "steal_spy", "from": "deck"}``.

Phase ``stolen`` (after ``steal_spy``): ``{"type": "keep"}``, or ``capture`` / ``steal_lair``
with the stolen Spy (never against the seat it was stolen from).

Phase ``captive`` (the captor of a Spy): ``{"type": "kill"}`` or ``{"type": "taunt", "card": "taunt-A"}``.

Phase ``window`` (after each taunt; every opponent of the taunter at once):
``{"type": "let_pass"}`` or ``{"type": "foil", "card": "taunt-A"}`` (the taunt's letter).

``ENGINE.reaction_window(state)`` is true while such a window is open (the web layer puts it
on a timer), and ``ENGINE.timeout_action(state, seat)`` is what a seat still to answer does
when the time runs out: ``{"type": "let_pass"}`` (``None`` for a seat that is not asked).

View
====

``view(state, seat)`` (``seat=None``: a spectator) holds ``phase``, ``turn``, ``to_act``,
``hand`` (own cards only), ``hands`` (for every seat: how many cards and how many of them
are Spies, which their backs show), ``deck`` (cards left and whether the top card shows a
Spy back), ``lairs`` (per seat; a face-down card's ``card`` is ``null`` except to its owner,
who also sees ``deathtrap``), ``lair_sizes`` (Secret Lairs counted as 1), ``score_piles``
(Spies face up with their points and how many taunts are on them; the letters only to the
owner), ``scores``, ``discard`` (face up), ``captive`` (a Spy being taunted), ``window``
(``taunter``, ``spy``, ``spy_card``, ``taunt``, ``value``, ``stake`` = the doubled value,
``waiting`` = seats still to answer), ``stolen`` (the stolen Spy's value only to the thief and
to the seat it was taken from, ruling 16), ``events`` (the last 20 public events; ``ENGINE.events(state)``
gives them all), ``over`` and ``end``. Events never name a hidden card.

Rulings
=======

Where the rule text is silent or open, the engine rules as follows (each is tested in
``tests/games/mister_spy/test_rulings.py`` under a test named after it):

1. **Every opponent answers every taunt.** After each taunt all the taunter's opponents are
   asked together, whether or not they hold the matching letter, so being asked reveals
   nothing. Each of them may let it pass; only a player holding the other card of the letter
   may foil it. Answers are hidden until the window closes, which is when the last player has
   answered (online, a player who does not answer in time lets it pass).
2. **Order of foilers.** Each letter has two cards and the taunter has just played one, so at
   most one opponent can ever foil. Should several seats foil (impossible with this deck),
   the first of them from the taunter's left foils; the others keep their cards.
3. **A foiled taunt.** The Spy escapes to the discard pile together with every taunt card on
   it and the foiling card, all face up. The capture is over and the turn ends.
4. **The taunt letter is public while its window is open** (it is read aloud and the foil must
   match it); once the taunt succeeds it lies face down on the Spy and the board shows only the
   number of taunts on each Spy (the owner sees the letters). What happened never names it.
5. **Two matching taunts on one Spy** are not offered: a taunt whose letter is already on the
   captive cannot be played.
6. **Turning over Secret Lairs** happens only as part of a capture and only as needed: every
   card turned over must be needed (none could stay face down), chosen by value; the oldest
   face-down card of that value is turned over. Deathtraps are never turned over and count 1.
7. **Henchmen and Deathtrap victims** are never taunted; a henchman counts its printed value.
8. **Stealing a face-down Lair** turns it face up to settle the result. A stolen Lair card
   joins the thief's Lair face up; after a smaller Spy it stays with its owner, face up.
9. **Which Spy is stolen from a hand** is chosen at random among that hand's Spies, by seeded
   chance (the thief picks blind among the Spy backs). The thief and the robbed seat see its
   value; the others do not.
10. **Where Spies can be stolen from:** an opponent's hand (one holding a Spy) or the top of
    the deck (only when its top card is a Spy). Not the discard pile (escaped Spies have
    escaped), not score piles or henchmen, not your own hand.
11. **After stealing a Spy** the thief is always asked (keep, capture or Double Agent), even
    when only keeping it is possible, so the table learns nothing from the question. Only the
    stolen Spy may be played then; stealing the top card may empty the deck, which ends the
    game at the start of the next turn.
12. **When points count:** a Spy scores when it is killed, becomes a henchman or dies in a
    Deathtrap; a captive being taunted counts nothing yet. The game ends the moment any seat
    reaches 33, even out of turn (a Deathtrap, or a smaller Double Agent captured and killed by
    a Lair's owner).
13. **Ties when the deck runs out** share the place (no tie-break); with a 33-point win there
    is a single winner. The winner deals the next game (the rule "pass the deal to the
    winner"); among tied winners, the first from the dealer's left.
14. **Dealing** is one card at a time from the dealer's left; the dealer then draws and plays.
15. **Spies are never played as Secret Lairs** (only Lair cards and taunts are named), and
    you never steal from your own Lair (so you cannot play Spies into your own Deathtraps).
16. **Who sees a stolen Spy.** A Spy moves from one hidden place to another: only those who
    handle it see it. A Spy taken from the top of the deck is seen by the thief alone; one taken
    from a hand by the thief and the robbed seat. Every other seat and every spectator sees only
    its back until it is played. So for every card that moves out
    of sight (a draw, a Secret Lair): the table sees where it went and its back, never its face,
    and a spectator never sees more than a seat that is not involved.
"""

from .engine import ENGINE, MisterSpy, MisterSpyState

__all__ = ["ENGINE", "MisterSpy", "MisterSpyState"]
