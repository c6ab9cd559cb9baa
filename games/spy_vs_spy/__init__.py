"""Spy vs Spy: a real-time racing card game for any number of players (online races: 1 to 8).

Rules: shared/rules/spy-vs-spy.md. Protocol and card codes: shared/design/engines.md.
Cards are ``<rank><suit>``: rank A 2 .. 10 J Q K, suit S H D C; no jokers.

How the game is played through the protocol
-------------------------------------------

Decks
    Every seat races with a full 52-card deck of its own. With ``half_decks``
    (2 players only) one deck is shuffled and dealt out in half, 26 cards each, and
    the bonus is -10 instead of -20.

Start
    Each seat puts the top 5 cards of its shuffled deck face down as its points
    pile (10 cards in a single-player game); the rest is its racing hand. Four
    cards are dealt face up from the hand (the square of four piles) and the top
    card of the hand is flipped at once.

The race
    Every racing seat is in ``to_act`` at the same time and acts on its own cards
    only. A seat's flipped card waits face up; ``legal`` lists
    ``{"type": "place", "pile": i}`` for every pile it goes on (same rank, or one
    above or below, with K-A-2 wrap-around). ``apply`` puts it there and flips the
    next card. A card that fits nowhere is moved inside ``apply`` without asking:
    onto a new pile while there are fewer than 6; once there are 6, the first such
    card is called (shown to all as ``called``) and put at the bottom of the hand,
    later ones go to the bottom silently, and once the called card has come round
    the first card that fits nowhere leaves the seat stuck. So every placed card
    costs one action and every other card none.

Finishing
    A seat whose racing hand is used up, or that is stuck, says finished with
    ``{"type": "finish"}``. The finishing order is the order in which ``apply``
    receives these actions.

End of a race
    When every racer has finished, every racer without the bonus picks one of its
    race piles with ``{"type": "take", "pile": i}``; these choices are made at the
    same time (all such seats are in ``to_act``). Then the race is scored:
    leftover cards and the taken pile go to the points pile; the first finisher
    removes 5 cards; a seat that finished with fewer than 6 piles (one or two empty
    spaces) removes 20 cards (10 with half decks) instead, takes no pile and never
    adds the 5 on top. Removed cards go back with the race piles left on the table;
    they are shuffled into that seat's racing hand for the next race.

End of the game
    The normal game is the full (tournament) game: races repeat until, after a
    race has been scored, some seat's score is 0 or below. The lowest such score
    wins; seats tied on it race again among themselves until one alone has the
    lowest score at 0 or below. Single player:
    the same rules, with -5 at the end of every race.

View
    Public to everyone (and to a spectator, ``seat`` None): every seat's face-up
    piles, its flipped card, its called card, the number of cards in its racing
    hand and in its points pile, its score, who is stuck, done, finished and in
    which order, the race number, and each scored race in ``history``. Never shown,
    to anyone: the order or faces of the unflipped racing hands (one's own
    included) and the faces of the points piles. During the take phase a seat sees
    its own pending choice (``my_choice``), and only whether the others have chosen.

Online play
    The engine is marked ``real_time``: there are no turns, so the web layer paces
    its bots instead of letting them act as soon as they may. The option
    ``bot_cards_per_minute`` (6 to 600, default 90, i.e. 1.5 cards a second) says
    how fast; it changes nothing in the rules. ``race_started(state)`` gives the
    number of actions applied when the current race began, so the web layer can
    find in its move log when the race started ("3, 2, 1, go").

How many race online
    ``start_from_decks`` (a table's own decks) and the score sheet (``check_sheet``) have
    no upper limit, and the registry lists the game for 1 to 99 players (tables, score
    sheets and tournaments; pages print a range, so 99 stands for "as many as you like").
    ``ENGINE.seats``, the online race, is 1 to 8 (``MAX_RACERS``): each other racer is a
    panel of its own on the race page (cards left, piles, the card in hand, the called
    card), two panels a row on a computer and one on a phone, and a racer watches them
    while racing. With 8 racers that is 7 panels in four rows on a computer, the racer's
    own piles and the first row in view together; more push most rivals far below the
    racer's own cards (about 200 pixels a row, and two screens of rivals on a phone at
    10). Every placed card also refreshes every watcher's view of the rivals, so the
    traffic grows with the square of the racers.

Rulings
-------

Where the rule text is silent or ambiguous; each has a test named ``test_ruling_<name>``.

players
    The text is "for unlimited amount of players" ("you can play with as many people as
    you want"), and nothing in its rules depends on the number: every player races their
    own deck. So any number of players from 1 may play at a table, on the score sheet and
    in a tournament. An online race takes 1 to 8 racers: the race page shows every rival
    beside your own cards, and more would push most of them out of sight; a larger table
    races at the table and keeps its score on the score sheet.
card_values
    Every card is worth one point: a score is the number of cards in the points
    pile ("your beginning 5 points (cards)", "-20 points (cards)").
negative_scores
    A removal (the 5, or the bonus) larger than the points pile empties the pile
    and the rest is kept as a debt, so a score can go below 0 (the text's "-1").
    Cards added later (only possible in a tie-break race) count against the debt.
points_pile_is_counted_not_seen
    Nobody sees the faces of a points pile, its owner included; its size and the
    score are public ("you can count how many cards you have there", and scores
    are added up in the open after each race).
flipping_is_automatic
    The next card is flipped as soon as the previous one is down; a flipped card is
    face up and so public. Placing takes an action even when only one pile fits,
    because the race is about how fast each card is put down.
no_choosing_a_new_pile
    A new pile is made only, and always, when the card fits nowhere; there is no
    action to start a new pile, skip a card, or put a card that fits at the bottom.
called_card_comes_round
    When the called card comes round it is played like any other card: it goes
    down if it now fits, otherwise the seat is stuck at once. From then on the first
    card that fits nowhere leaves the seat stuck. The card it is stuck on counts
    as a leftover card.
never_stuck_before_the_called_card
    Until the called card comes round, every card that fits nowhere goes to the
    bottom, and the called card comes round within one pass of the hand, so no
    seat is stuck before it. A card that fits nowhere always has an automatic move
    (new pile, call, bottom or stuck): no seat is ever left with a card it can
    neither place nor move.
saying_finished
    A racer says finished once their hand is used up or they are stuck (it is then their
    only move), and not before.
own_piles
    Each seat takes one of its own race piles ("the six piles created through the
    race"), so decks never mix and each half of a half deck stays with its owner.
    A seat's choice is hidden from the others until every choice is in.
bonus_at_any_rank
    The bonus goes to every seat that finishes with fewer than 6 piles, whatever its
    finishing rank, and to several seats in the same race if they all manage it. It
    can only be earned by using up the racing hand, since a seat is stuck only
    with 6 piles.
bonus_first_finisher
    A first finisher with the bonus removes the bonus only; the 5 do not pass to the
    second finisher.
removed_cards
    Removed cards come off the top of the points pile (it is face down, so which
    ones does not matter) and go back with that seat's remaining race piles.
tie_break_races
    Points are added up only when the whole race is over. The lowest score at 0 or
    below among the seats still in the running wins. Seats tied on it race again,
    alone; the others sit out with their cards. If after a tie-break race none of
    the tied seats is at 0 or below, they race again; if several are still tied
    on the lowest score, only those race again.
places
    The winner is first. Then come the seats that dropped out of the running, the
    ones that dropped out later first, each group ranked by its score when it
    dropped out (equal scores share a place). So a seat that tied for the win
    places above every seat that did not, whatever its tie-break races brought.
    Ties for lower places are shared, not raced off.
single_player
    The lone seat always finishes first, so it removes 5 at the end of every race,
    unless it earns the bonus (-20; the 5 never stack on it).
cheating
    The engine only accepts correct placements, so the text's cheating penalty never
    arises and is not implemented.

A fact rather than a ruling: every race starts with at least 5 cards in each racing
hand (a race without the bonus leaves 5 piles on the table), so the square of four
can always be dealt.
"""

from .engine import ENGINE, SpyVsSpy, SpyVsSpyState

__all__ = ["ENGINE", "SpyVsSpy", "SpyVsSpyState"]
