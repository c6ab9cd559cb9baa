"""Tournament algorithms for Spy League: pure Python, no Django, plain data in and out.

Players are ``int`` ids. Inputs and outputs are frozen dataclasses (or plain sequences of ids).
Everything that uses chance takes a ``seed`` and uses its own ``random.Random(seed)``, so the
same inputs and seed always give the same answer. Errors an organiser can cause raise
``ValueError`` (``TableSizeError`` for table sizes) with a sentence a person can read.

The API
=======

Rounds and history (:mod:`pairing.history`)
    ``Round(tables, byes)``: tables are tuples of player ids in seat order (seat 0 deals or
    starts). A list of rounds is an event's history; rounds are numbered from 1.
    ``EventHistory(rounds)`` answers who met whom (``met_in``, ``opponents``), byes and seats.
    ``PlayerStanding(player, points)``: the present players in standings order, best first. Any
    object with ``player`` and ``points`` attributes works (``StandingsRow`` does).
    Drops: leave the player out of the standings. Late entries: add them; they have no history.
    ``RoundPlan``: a proposed ``round``, its ``repeated_pairs`` (with the rounds they met in), a
    proven ``repeat_lower_bound``, ``repeats_minimal`` and the points ``spread``.

Table sizes (:mod:`pairing.tables`)
    ``split_tables(n, preferred, allowed)`` -> sizes, e.g. ``(4, 3, 3)`` for 10 at 4s and 3s.
    ``plan_tables(n, preferred, allowed, max_byes=...)`` -> ``TablePlan(sizes, byes)``.

Swiss
    ``swiss_round(standings, history, preferred=, allowed=, max_byes=, seed=)`` picks one of:
    ``pair_swiss(standings, history, seed=)`` (:mod:`pairing.swiss`): two-player rounds by
    maximum-weight matching; ``minimum_repeats(players, history)`` is the exact minimum.
    ``seat_swiss_tables(standings, history, preferred=, allowed=, max_byes=, seed=)``
    (:mod:`pairing.seating`): tables of 2 to 6 by local search, then for rounds of up to 64
    players an exact branch and bound (:mod:`pairing.exact`) that finds and proves the fewest
    repeats within a step budget, and a spread pass; ``greedy_tables`` is the standings-order
    baseline and ``repeat_lower_bound`` the proven bound.

Round robin (:mod:`pairing.round_robin`)
    ``round_robin_pairs(players)`` -> every round of the circle method.
    ``group_schedule(players, preferred=, allowed=, rounds=, seed=)`` -> ``GroupSchedule``;
    built-in repeat-free designs and the exact schedule search live in :mod:`pairing.designs`.

Knockout (:mod:`pairing.knockout`)
    ``seed_by_rating``, ``bracket_order``, ``first_round(players_by_seed)`` -> ``Match``es,
    ``next_round(winners)``; heats: ``heat_round`` and ``heat_qualifiers``; groups:
    ``snake_groups(players_by_seed, group_count)`` then ``groups_to_bracket(rankings, advance)``.

Explanations (:mod:`pairing.explain`)
    ``explain_repeats(round, history, standings, names)`` -> one ``RepeatExplanation`` (with a
    ``text``) per repeated pair; ``check_swap(round, a, b, history, standings, names)`` ->
    ``SwapCheck(round, warnings)``. A repeat counts as forced when the round is at its proven
    minimum, which for rounds of up to 64 players may come from the exact search.

Standings (:mod:`pairing.standings`)
    ``compute_standings(rounds, tiebreaks=, points=, bye=, lowest_wins=)`` over ``RoundResult``
    (``TableResult`` of ``SeatResult(player, place, game_score, tournament_points)``) ->
    ``StandingsRow``s with shared ranks. ``PointsScheme`` and ``ByeScoring`` configure scoring.

Ratings (:mod:`pairing.ratings`)
    ``recompute_ratings(results)`` with each result a sequence of ``(player, place)`` ->
    ``RatingTable(ratings, history)`` using openskill's Plackett-Luce model.

Spy vs Spy (:mod:`pairing.spy_vs_spy`)
    ``spy_vs_spy_places(players, races)`` with ``Race(piles, finishing_order)`` ->
    ``SpyVsSpyPlaces(status, places, replay_between, message)``.

Rulings
=======

Where the brief or the rule text leaves a choice open, this package decides as follows (each is
named in a test: ``test_ruling_<n>_...``).

1. Byes in two-player Swiss go to the lowest-standing player without a bye; a second bye is only
   given when every present player has had one (a third when everyone has had two, and so on);
   avoiding a repeated pairing comes before giving the bye to the lowest player, which comes before
   score differences.
2. Repeats are counted in pairs (a pair that met before, however often), the unit of a plan's
   ``repeats`` and ``repeat_lower_bound``. Two-player Swiss always gives the fewest repeated pairs
   possible and, among pairings with that many, the fewest further meetings: a third meeting is
   worse than a second, but one pair meeting a third time beats two pairs meeting a second time.
   Multiplayer seating weighs them in the same order.
3. Multiplayer Swiss weighs repeated pairs above any points spread (lexicographic cost), and
   puts larger tables at the top when sizes are mixed.
4. Seat order: seat 0 goes to whoever has sat there least (then to someone who was not in seat 0
   last game); other seats minimise the times each player already sat there.
5. Tournament points by place default to: 2 seats 3/0 (draw 1 each); 3 seats 3/1/0; 4 seats
   4/2/1/0; 5 seats 5/3/2/1/0; 6 seats 6/4/3/2/1/0. Tied players share the points of the places
   they cover equally, except an all-way tie at 2 seats, which scores the draw value.
6. A "win" (for the wins tiebreak) is a sole first place; a shared first is not a win, nor is a
   bye.
7. Byes score per ``ByeScoring``: default the points of a 2-seat win; "average" means the
   player's own average per game over the whole event. A bye's game points are the average game
   score of the players seated in its round (0 while none of the round's results is in), the
   same rule in every round and whichever score wins (``lowest_wins``): a bye scores like the
   round's average player, so it never beats a table's winner by game points it did not play for.
   (The player's own average was a different figure in round 1, where it is 0, the best score
   of a lowest-wins game, than later.)
8. Opponents' average counts each opponent once per meeting, every other player at a
   multiplayer table being an opponent; it uses the opponents' final tournament points.
9. Head-to-head is computed only among the players still tied when it is applied: +1 for each
   time one placed ahead of another of them, -1 for each time behind.
10. Knockout heats: a tie across the qualifying cut goes to the better seed; qualifiers are
    re-seeded by heat place, then previous seed.
11. Groups into knockout: group winners are seeded first in group order, then runners-up, etc.
12. Spy vs Spy: the game ends after the first race in which any pile is 0 or below; the lowest
    pile wins (the rule text: -1 beats 0 "at the same time"), and finishing order does not break
    a tie for the win: equal lowest piles need a replay race among those players, who race on
    from their piles. The rule text only names the winner: other places go by pile, then by
    finishing order in the race that ended the game.
13. Ratings: a table is one Plackett-Luce match of one-player teams ranked by place; ties share a
    rank (openskill's own handling).
14. Tables of another size than the event's (``uneven``: one seat shorter or longer) pay their
    usual points scaled so that a seat's average equals the event's tables' (``balanced_scheme``),
    and the Swiss seating gives those tables to the players who have had the fewest of them: a
    second one only when everyone present has had one, unless avoiding it would repeat a pairing.
15. Buchholz cut 1 and Sonneborn-Berger at multiplayer tables: a round is worth the average
    points of the opponents at the table (a bye nothing, and it is the round cut); a beaten
    opponent is one who placed below you at the table, a tied one shared your place (half).
"""

from .explain import RepeatExplanation, SwapCheck, SwapWarning, check_swap, explain_repeats
from .history import EventHistory, PlayerStanding, Ranked, RepeatedPair, Round, RoundPlan
from .knockout import (
    Match,
    bracket_order,
    first_round,
    groups_to_bracket,
    heat_qualifiers,
    heat_round,
    next_round,
    seed_by_rating,
    snake_groups,
)
from .ratings import PlayerRating, RatingPoint, RatingTable, recompute_ratings
from .round_robin import GroupSchedule, group_schedule, round_robin_pairs
from .seating import greedy_tables, repeat_lower_bound, seat_swiss_tables
from .spy_vs_spy import Race, SpyVsSpyPlaces, spy_vs_spy_places
from .standings import (
    ByeScoring,
    PointsScheme,
    RoundResult,
    SeatResult,
    StandingsRow,
    TableResult,
    balanced_scheme,
    compute_standings,
)
from .swiss import minimum_repeats, pair_swiss, swiss_round
from .tables import TablePlan, TableSizeError, plan_tables, split_tables

__all__ = [
    "ByeScoring",
    "EventHistory",
    "GroupSchedule",
    "Match",
    "PlayerRating",
    "PlayerStanding",
    "PointsScheme",
    "Race",
    "Ranked",
    "RatingPoint",
    "RatingTable",
    "RepeatExplanation",
    "RepeatedPair",
    "Round",
    "RoundPlan",
    "RoundResult",
    "SeatResult",
    "SpyVsSpyPlaces",
    "StandingsRow",
    "SwapCheck",
    "SwapWarning",
    "TablePlan",
    "TableResult",
    "TableSizeError",
    "balanced_scheme",
    "bracket_order",
    "check_swap",
    "compute_standings",
    "explain_repeats",
    "first_round",
    "greedy_tables",
    "group_schedule",
    "groups_to_bracket",
    "heat_qualifiers",
    "heat_round",
    "minimum_repeats",
    "next_round",
    "pair_swiss",
    "plan_tables",
    "recompute_ratings",
    "repeat_lower_bound",
    "round_robin_pairs",
    "seat_swiss_tables",
    "seed_by_rating",
    "snake_groups",
    "split_tables",
    "spy_vs_spy_places",
    "swiss_round",
]
