"""Quick match's pairing: who sits with whom.  Pure (no clock, no I/O): the caller gives the
time; ``web/play/quickmatch.py`` keeps the tickets, calls ``pair`` and opens the tables.

A *ticket* is one person waiting for a game (a variant with its options and a player count),
with their shown rating.  People are seated together when their ratings are close: each
ticket accepts a gap that starts at ``BASE_GAP`` and widens by ``WIDEN`` points a second it
has waited, up to ``MAX_GAP``; a group is formed only when the gap inside it (its highest
rating minus its lowest) is within every member's accepted gap.  A person who said "bots
after s seconds" and has waited that long is seated with whoever fits now and bots in the
other seats.  The oldest ticket is served first, so nobody waits behind newcomers.

An *invitation* is a ticket naming one person (``with_``): it is seated only with that
person's ticket naming it back, for the same game, the two of them and bots in any other seat;
nobody else takes it, and it takes nobody else.

One ticket per person (the caller's rule), and a ticket is in at most one group of a call:
no table ever has two seats for one person.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

BASE_GAP = 100.0  # shown rating points a new ticket accepts
WIDEN = 25.0  # points more per second waited
MAX_GAP = 1000.0  # the widest gap ever accepted


@dataclass
class Ticket:
    id: str
    person: str  # who waits (a profile id): one ticket each
    game: tuple[str, int, str]  # (variant, players, the options as canonical JSON)
    rating: int
    joined: float  # when it was queued (the caller's clock, seconds)
    bots_after: float | None = None  # seconds until bots may fill the seats left (None: never)
    level: str = "expert"  # the bots' level the person chose
    rated: bool = True  # the person wants a rated game
    with_: str | None = None  # an invitation: seated only with this person (who names this one)

    def gap(self, now: float) -> float:
        """The rating gap this ticket accepts at ``now``."""
        return min(MAX_GAP, BASE_GAP + WIDEN * max(0.0, now - self.joined))

    def bots_due(self, now: float) -> bool:
        return self.bots_after is not None and now - self.joined >= self.bots_after


@dataclass
class Group:
    """People to seat at one table (the first is the ticket the group was formed for), and
    the number of bots to add."""

    tickets: list[Ticket]
    bots: int
    level: str = "expert"
    seats: int = field(init=False)

    def __post_init__(self) -> None:
        self.seats = len(self.tickets) + self.bots


def fits(group: Sequence[Ticket], now: float) -> bool:
    """The group's rating spread is within every member's accepted gap."""
    if len(group) < 2:
        return True
    spread = max(t.rating for t in group) - min(t.rating for t in group)
    return all(spread <= t.gap(now) for t in group)


def _grow(first: Ticket, others: list[Ticket], want: int, now: float) -> list[Ticket]:
    """``first`` and up to ``want - 1`` of ``others``, nearest rating first, each added only
    while the group still fits."""
    group = [first]
    for t in sorted(others, key=lambda t: (abs(t.rating - first.rating), t.joined, t.id)):
        if len(group) >= want:
            break
        if fits([*group, t], now):
            group.append(t)
    return group


def pair(tickets: Iterable[Ticket], now: float) -> list[Group]:
    """The groups to seat now, oldest ticket first.  Every group holds people of one game;
    a group is full of people, or its first ticket's bots are due and the rest are bots."""
    by_game: dict[tuple[str, int, str], list[Ticket]] = {}
    ordered = sorted(tickets, key=lambda t: (t.joined, t.id))
    out: list[Group] = []
    invited = {(t.person, t.with_, t.game): t for t in ordered if t.with_ is not None}
    paired: set[str] = set()
    for t in ordered:
        if t.with_ is None or t.id in paired or t.with_ == t.person:
            continue
        mate = invited.get((t.with_, t.person, t.game))
        if mate is not None and mate.id not in paired:
            paired.update((t.id, mate.id))
            out.append(Group([t, mate], t.game[1] - 2, t.level))
    for t in ordered:
        if t.with_ is None:
            by_game.setdefault(t.game, []).append(t)
    for (_variant, players, _options), queue in by_game.items():
        taken: set[str] = set()
        for first in queue:
            if first.id in taken:
                continue
            free = [t for t in queue if t.id not in taken and t.id != first.id and t.person != first.person]
            group = _grow(first, free, players, now)
            if len(group) < players and not first.bots_due(now):
                continue
            if len({t.person for t in group}) != len(group):  # never two seats for one person
                continue
            taken.update(t.id for t in group)
            out.append(Group(group, players - len(group), first.level))
    return out
