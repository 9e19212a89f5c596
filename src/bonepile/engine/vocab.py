"""The engine's vocabulary: the kinds written as strings in variants, results and views.

They stay plain strings at run time (records, JSON and option values use them as they are);
these ``Literal`` types let the type checker hold every use to the words that exist.
"""

from __future__ import annotations

from typing import Literal

#: how a turn goes: play if you can, else draw while drawable, else pass; play, draw or
#: pass at will; turn up the front tile of your row
TurnRule = Literal["must_play", "voluntary", "blind"]
#: who leads the first hand: the holder of the highest double, or a draw by lot
FirstLead = Literal["highest_double", "chance"]
#: who leads a later hand
LaterLead = Literal["rotate", "winner", "dominoer", "first", "chance", "team_choice"]
#: when no double is dealt
NoDoubleLead = Literal["random", "heaviest_tile", "redeal"]
#: points scored during play, read off the ends' count after each tile: "fives" (the count
#: when a multiple of 5), "fives_and_threes" (count/5 when a multiple of 5, plus count/3
#: when a multiple of 3: 15 scores 3 + 5 = 8)
InPlay = Literal["fives", "fives_and_threes"]
#: how a hand is scored
Scoring = Literal["lowest", "quinientos", "none", "result_only", "opponents", "penalty"]
#: the table's shape: ``Variant.layout``
LayoutKind = Literal["line", "trains", "chicken_foot"]
#: individual "lowest" scoring: sum(opponent - own) or sum(opponents) - own
Formula = Literal["each", "once"]
#: how partnerships score a hand
TeamScoring = Literal["side_value", "lowest_individual"]
#: Cinque's optional end-of-hand score
EndBonus = Literal["allfives"]
#: partnership "quinientos" scoring: who wins a blocked hand: the side with fewer pips (a tie:
#: nobody), the same with a tie going to the side that led the hand, or the player who
#: blocked against the player before them in turn order (a tie: the blocker)
BlockedRule = Literal["lowest_side", "lowest_side_leader_ties", "blocker_vs_previous"]
#: Billitonnen: who wins a blocked hand
BlockedWinner = Literal["lowest_pips", "fewest_tiles", "none"]
#: when the game ends
TargetRule = Literal["finish_hand", "immediate", "single_hand"]
#: how a hand ended
HandEnd = Literal["domino", "blocked", "unfinished"]
#: one action of the public history
Action = Literal["play", "pass", "draw"]
#: how a hand's leader was found (``hand.rule_leader``)
LeadHow = Literal[
    "unknown", "choice", "rotate", "chance", "winner", "dominoer", "double", "redeal", "heaviest"
]
#: the way play goes round the table (seats are numbered in turn order either way: in a
#: clockwise game seat i+1 sits on seat i's left, in a counterclockwise game on its right)
Direction = Literal["clockwise", "counterclockwise"]
#: an arm of the layout
ArmName = Literal["L", "R", "U", "D"]
