"""A whole game: hands to the target, leaders of later hands, totals, the game's end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import notation
from .commit import Seal
from .deals import hand_rng, new_seed
from .errors import IllegalMoveError
from .hand import Hand
from .leaders import rule_leader
from .scoring import HandResult
from .tiles import HI, LO, NAME, mask_of
from .variant import Variant, make_variant
from .view import PublicView, View, hand_view, public_view

#: the ``format`` of the records this engine reads and writes (RECORD.md)
FORMAT = "bonepile-record/1"


class Game:
    """A game of one variant: hands dealt one after another until the game ends.

    ``Game.new(name, options, seed=...)`` deals at random; ``Game(variant, auto_deal=False)``
    followed by ``next_hand(deal=...)`` for each hand plays given deals (as records do)."""

    def __init__(
        self,
        variant: Variant,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
        start_hand: int = 1,
        start_totals: Sequence[int] | None = None,
        start_bonus_rounds: int | None = None,
        auto_deal: bool = True,
        snapshots: bool = True,
    ):
        self.variant = variant
        #: hand n is dealt from ``deals.hand_rng(seed, n)``
        self.seed = new_seed() if seed is None else seed
        self.names = list(names) if names else None
        self.start_hand = start_hand
        nsides = len(variant.sides)
        self.start_totals = tuple(start_totals) if start_totals is not None else (0,) * nsides
        self.start_bonus_rounds = start_hand - 1 if start_bonus_rounds is None else start_bonus_rounds
        self.start_bonus_given = start_bonus_rounds is not None
        self.auto_deal = auto_deal
        #: keep a snapshot before each move so that ``undo`` is instant; a long-lived game
        #: that never undoes (a server's) saves the memory: ``undo`` then replays the hand
        self.snapshots = snapshots
        #: the options a record names (None: the variant's own, i.e. as given to make_variant)
        self.record_options: dict[str, Any] | None = None
        #: the commitment to ``seed`` (``engine/commit.py``) the record carries, if any
        self.seal: Seal | None = None
        self.hands: list[Hand] = []
        self.totals = list(self.start_totals)
        self.over = False
        self.winner: int | None = None
        if auto_deal:
            self.next_hand()

    @classmethod
    def new(
        cls,
        variant: str,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        names: Sequence[str] | None = None,
    ) -> Game:
        """A new game with random deals from ``seed``."""
        return cls(make_variant(variant, options), seed=seed, names=names)

    # ------------------------------------------------------------------ state
    @property
    def hand(self) -> Hand:
        return self.hands[-1]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.variant.sides

    @property
    def to_move(self) -> int | None:
        if self.over or not self.hands or self.hand.over:
            return None
        return self.hand.to_move

    def legal_moves(self) -> list[int]:
        if self.over or not self.hands:
            return []
        return self.hand.legal_moves()

    def legal_tokens(self) -> list[str]:
        return [self.token(m) for m in self.legal_moves()]

    def scores(self) -> list[int]:
        """Each side's total, including points scored so far in the hand being played."""
        if self.hands and not self.hand.over:
            return [a + b for a, b in zip(self.totals, self.hand.inplay)]
        return list(self.totals)

    def view(self, seat: int) -> View:
        return hand_view(self.hand, seat)

    def public_view(self) -> PublicView:
        """What every person at the table may see of the current hand (a spectator's view)."""
        return public_view(self.hand)

    # ------------------------------------------------------------------ moves
    def token(self, m: int, h: Hand | None = None) -> str:
        """The record token of move m in the current position of hand h (``notation.token``)."""
        return notation.token(h or self.hand, m)

    def parse(self, token: str, h: Hand | None = None) -> int:
        """The move a token names in the current position (checks arms, not legality;
        ``notation.parse``)."""
        return notation.parse(h or self.hand, token)

    def play(self, token: str) -> int:
        """Check and apply a move given as a record token; returns the move."""
        if self.over:
            raise IllegalMoveError("the game is already over")
        h = self.hand
        if h.over:
            raise IllegalMoveError(f"the hand is already over ({h.end})")
        m = h.check(self.parse(token, h))
        self._apply(m, token)
        return m

    def apply(self, m: int) -> None:
        """Check and apply a move given as an int."""
        if self.over:
            raise IllegalMoveError("the game is already over")
        self._apply(self.hand.check(m), None)

    def _apply(self, m: int, token: str | None) -> None:
        h = self.hand
        if h.given_tokens is None or len(h.given_tokens) != len(h.log):
            h.given_tokens = notation.hand_tokens(h)
        h.given_tokens.append(token if token is not None else notation.token(h, m))
        if self.snapshots:
            h.push(m)
        else:
            h.apply(m)
        if h.over:
            self._hand_over(h)

    def undo(self) -> int:
        """Take back the last move (across a hand boundary if the next hand has no move yet)."""
        if self.hands and not self.hand.log and len(self.hands) > 1:
            self.hands.pop()  # (the next deal will be the same one again: it is seeded)
            self.hands[-1] = self.hands[-1].copy()  # finished hands may be shared with copies
        if not self.hands or not self.hand.log:
            raise IllegalMoveError("nothing to undo")
        m = self.hand.pop()
        self._recompute()
        return m

    def _recompute(self) -> None:
        self.totals = list(self.start_totals)
        self.over = False
        self.winner = None
        for h in self.hands:
            if h.over:
                self.totals = [a + b for a, b in zip(self.totals, h.result.points)]  # type: ignore[union-attr]
                self._check_end(h)

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.hands = self.hands[:-1] + [self.hand.copy()] if self.hands else []
        g.totals = self.totals[:]
        return g

    # ------------------------------------------------------------------ hands
    def _hand_over(self, h: Hand) -> None:
        self.totals = [a + b for a, b in zip(self.totals, h.result.points)]  # type: ignore[union-attr]
        self._check_end(h)
        if not self.over and self.auto_deal:
            self.next_hand()

    def _check_end(self, h: Hand) -> None:
        v = self.variant
        res: HandResult = h.result  # type: ignore[assignment]
        if v.target_rule == "single_hand":
            self.over, self.winner = True, res.winner
        elif v.rounds is not None:  # penalties: after the rounds, the lowest total wins
            if h.number >= v.rounds or res.end == "unfinished":  # (h's own number: recomputed too)
                self.over = True
                low = min(self.totals)
                top = [i for i, t in enumerate(self.totals) if t == low]
                self.winner = top[0] if len(top) == 1 else None
        elif res.end == "unfinished":
            self.over, self.winner = True, h.first_to_target
        elif v.target is not None:
            reached = [i for i, t in enumerate(self.totals) if t >= v.target]
            if reached:
                best = max(self.totals[i] for i in reached)
                top = [i for i in reached if self.totals[i] == best]
                self.over = True
                if len(top) == 1:
                    self.winner = top[0]
                else:
                    self.winner = h.first_to_target if h.first_to_target in top else None

    def _bonus(self, number: int) -> int:
        v = self.variant
        if v.scoring != "quinientos":
            return 0
        if v.bonus_by_round_index:
            idx = number - 1
        else:
            idx = self.start_bonus_rounds + sum(
                1
                for h in self.hands
                if h.result is not None and h.end == "domino" and h.result.winner is not None
            )
        return v.round_bonuses[idx] if 0 <= idx < len(v.round_bonuses) else 0

    def leader_choosers(self) -> tuple[int, ...] | None:
        """The seats of the side that chooses the next hand's leader, where the rules let
        the winning side choose (Quinientos' ``winning_team_chooses``); else None."""
        if not self.hands or self.hand.result is None:
            return None
        res = self.hand.result
        _leader, _must, how = rule_leader(self.variant, [], res, self.hand.leader, False)
        return self.variant.sides[res.winner] if how == "choice" and res.winner is not None else None

    def deal_next(self) -> Hand:
        """The next hand as the rules deal it from the game's seed, not yet started: look at
        it (a person choosing the leader sees their own tiles), then ``next_hand(dealt=it)``.
        The same hand every time it is asked for."""
        if self.over:
            raise IllegalMoveError("the game is already over")
        if self.hands and not self.hand.over:
            raise IllegalMoveError("the current hand is not over")
        number = self.start_hand + len(self.hands)
        prev = self.hands[-1].result if self.hands else None
        if number != 1 and prev is None:
            raise ValueError("a hand after the start of a record needs its deal")
        return Hand.deal(
            self.variant,
            hand_rng(self.seed, number),
            number=number,
            prev=prev,
            prev_leader=self.hands[-1].leader if self.hands else None,
            totals=tuple(self.totals),
            bonus=self._bonus(number),
        )

    def next_hand(
        self,
        deal: Sequence[Sequence[int]] | None = None,
        boneyard: Sequence[int] | None = None,
        leader: int | None = None,
        starter_first: int | None = None,
        *,
        dealt: Hand | None = None,
    ) -> Hand:
        """Start the next hand: the seeded deal (``dealt``, from ``deal_next``, or dealt now),
        or the given ``deal`` (validated against the rules; raises ValueError with the
        reason).  With the seeded deal, ``leader`` is the winning side's choice where the
        rules let it choose (``leader_choosers``), and must be None otherwise."""
        if self.over:
            raise IllegalMoveError("the game is already over")
        if self.hands and not self.hand.over:
            raise IllegalMoveError("the current hand is not over")
        v = self.variant
        number = self.start_hand + len(self.hands)
        prev = self.hands[-1].result if self.hands else None
        prev_leader = self.hands[-1].leader if self.hands else None
        first = number == 1
        totals = tuple(self.totals)
        bonus = self._bonus(number)
        if deal is None:
            choosers = self.leader_choosers()
            h = self.deal_next() if dealt is None else dealt
            if leader is not None and leader != h.leader:
                if choosers is None:
                    raise ValueError("the rules decide who leads this hand")
                if leader not in choosers:
                    seats = ", ".join(map(str, choosers))
                    raise ValueError(f"leader must be a member of the winning side (seats {seats})")
                h = Hand(
                    v,
                    h.deal_rows,
                    h.boneyard,
                    leader,
                    must_lead=h.must_lead,
                    number=number,
                    totals=totals,
                    bonus=bonus,
                    starter_first=h.starter_first,
                )
        else:
            masks = [mask_of(r) for r in deal]
            rl, must, how = rule_leader(v, masks, prev, prev_leader, first)
            if how == "redeal":
                raise ValueError(
                    'no double was dealt; with no_double_lead "redeal" this deal is redealt, not played'
                )
            if how in ("chance", "choice", "unknown"):
                if leader is None:
                    why = {
                        "chance": "the rules draw it by lot",
                        "choice": "the winning side chooses it",
                        "unknown": "it depends on hands before the record",
                    }[how]
                    raise ValueError(f"leader is required ({why})")
                if how == "choice" and leader not in v.sides[prev.winner]:  # type: ignore[union-attr, index]
                    seats = ", ".join(map(str, v.sides[prev.winner]))  # type: ignore[union-attr, index]
                    raise ValueError(f"leader must be a member of the winning side (seats {seats})")
            else:
                if leader is not None and leader != rl:
                    why = {
                        "rotate": "next after the previous leader",
                        "winner": "the previous hand's winner",
                        "dominoer": "the player who went out last hand",
                        "double": f"holder of {NAME[must]}" if must >= 0 else "holder of the highest double",
                        "heaviest": f"holder of the heaviest tile {NAME[must] if must >= 0 else ''}",
                    }[how]
                    raise ValueError(f"leader must be seat {rl} ({why}), not {leader}")
                leader = rl
            assert leader is not None
            h = Hand(
                v,
                deal,
                boneyard or [],
                leader,
                must_lead=must,
                number=number,
                totals=totals,
                bonus=bonus,
                starter_first=starter_first,
            )
        self.hands.append(h)
        return h

    # ------------------------------------------------------------------ output
    def result(self) -> dict[str, Any]:
        """The replay summary of RECORD.md."""
        v = self.variant
        hands = []
        totals = list(self.start_totals)
        for h in self.hands:
            res = h.current_result()
            totals = [a + b for a, b in zip(totals, res.points)]
            hands.append(
                {
                    "leader": h.leader,
                    "end": res.end,
                    "winner": res.winner,
                    "points": list(res.points),
                    "totals": list(totals),
                    "pips": list(res.pips),
                    "breakdown": res.breakdown,
                }
            )
        return {
            "variant": v.name,
            "sides": [list(s) for s in v.sides],
            "hands": hands,
            "totals": totals,
            "winner": self.winner,
            "finished": self.over,
        }

    def record(self, reveal: bool | None = None) -> dict[str, Any]:
        """The game's record (RECORD.md): variant, options, names, start, and every hand's
        deal, boneyard, leader and move tokens.  ``record.dumps`` gives its stable text.
        With a ``seal``, the record's ``deals`` reveal the seed if ``reveal`` (by default:
        once the game is over) and give only the commitment otherwise."""
        v = self.variant
        options = self.record_options if self.record_options is not None else v.options
        doc: dict[str, Any] = {"format": FORMAT, "variant": v.name, "options": dict(options)}
        if v.pips != 6:  # RECORD.md "set": written only where it is not double-six
            doc["set"] = v.tile_set.name
        if self.names:
            doc["players"] = list(self.names)
        if self.start_hand != 1 or any(self.start_totals) or self.start_bonus_given:
            doc["start"] = {"hand": self.start_hand, "totals": list(self.start_totals)}
            if self.start_bonus_given:
                doc["start"]["bonus_rounds"] = self.start_bonus_rounds
        if self.seal is not None:
            doc["deals"] = self.seal.field(self.over if reveal is None else reveal)
        hands = []
        for h in self.hands:
            bone = [NAME[t] for t in h.boneyard]
            if h.starter_first is not None:
                t0 = h.boneyard[0]
                bone[0] = f"{h.starter_first}-{LO[t0] if h.starter_first == HI[t0] else HI[t0]}"
            hands.append(
                {
                    "deal": [[NAME[t] for t in row] for row in h.deal_rows],
                    "boneyard": bone,
                    "leader": h.leader,
                    "moves": notation.hand_tokens(h),
                }
            )
        doc["hands"] = hands
        return doc
