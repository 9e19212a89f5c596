"""Who meets whom in a round of a tournament: Swiss pairing, the round robin's circle method,
and the side each entrant takes at its table.

Entrants are ints (their numbers in the field); an entrant is one player in individual games
and one pair in partnership games, so a pair always stays together.  A table holds as many
entrants as the game has sides.  Nothing here plays a game or knows the rules: the functions
take the standings order and who has met whom, and return tables (tuples of entrants, in side
order: the entrant at index ``j`` plays side ``j``).  The field must be a whole number of
tables; ``tournament.fill`` adds bots to make it so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

#: the Swiss search tries this many partial pairings before settling for a greedy one (never
#: reached by fields of a few dozen entrants over a few rounds)
SEARCH_CAP = 200_000

Table = tuple[int, ...]


def _met(met: Mapping[int, Set[int]], a: int, b: int) -> bool:
    return b in met.get(a, ())


def swiss(order: Sequence[int], met: Mapping[int, Set[int]], table_size: int = 2) -> list[Table]:
    """The tables of a Swiss round.  ``order``: every entrant, best standing first;
    ``met[e]``: the entrants ``e`` has already sat with.

    Tables of two: the first entrant without a table meets the nearest one below it that it has
    not met, with backtracking, so no two entrants meet twice while a pairing without a rematch
    exists (if the search is cut, or none exists, the nearest entrant met the fewest times is
    taken).  Larger tables: filled in standings order, each seat taken by the entrant below who
    has met the fewest of those already at the table."""
    n = len(order)
    if table_size < 2:
        raise ValueError(f"a table needs at least two entrants, not {table_size}")
    if n % table_size:
        raise ValueError(f"{n} entrants do not fill tables of {table_size}")
    if len(set(order)) != n:
        raise ValueError("an entrant is listed twice")
    if table_size == 2:
        found = _pair_without_rematch(order, met)
        if found is not None:
            return found
        return _greedy(order, met, 2)
    return _greedy(order, met, table_size)


def _pair_without_rematch(order: Sequence[int], met: Mapping[int, Set[int]]) -> list[Table] | None:
    n = len(order)
    failed: set[int] = set()  # masks of the entrants left that cannot be paired
    nodes = 0

    def search(left: int) -> list[Table] | None:
        nonlocal nodes
        if not left:
            return []
        if left in failed:
            return None
        nodes += 1
        if nodes > SEARCH_CAP:
            raise _Cut
        i = (left & -left).bit_length() - 1
        rest = left & ~(1 << i)
        j_mask = rest
        while j_mask:
            j = (j_mask & -j_mask).bit_length() - 1
            j_mask &= j_mask - 1
            if _met(met, order[i], order[j]):
                continue
            tail = search(rest & ~(1 << j))
            if tail is not None:
                return [(order[i], order[j]), *tail]
        failed.add(left)
        return None

    try:
        return search((1 << n) - 1)
    except _Cut:
        return None


class _Cut(Exception):
    pass


def _greedy(order: Sequence[int], met: Mapping[int, Set[int]], size: int) -> list[Table]:
    left = list(order)
    tables: list[Table] = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(len(left)),
                key=lambda k: (sum(_met(met, left[k], t) for t in table), k),
            )
            table.append(left.pop(best))
        tables.append(tuple(table))
    return tables


def round_robin(n: int, number: int) -> list[Table]:
    """Round ``number`` (0-based) of a round robin of ``n`` entrants (``n`` even) by the circle
    method: entrant 0 stays, the others turn one place per round; over ``n - 1`` rounds every
    two entrants meet exactly once.  The fixed entrant changes side every round."""
    if n < 2 or n % 2:
        raise ValueError(f"a round robin needs an even number of entrants, not {n}")
    if not 0 <= number < n - 1:
        raise ValueError(f"a round robin of {n} entrants has {n - 1} rounds; no round {number + 1}")
    others = list(range(1, n))
    k = number % (n - 1)
    ring = [0, *others[k:], *others[:k]]
    tables: list[Table] = [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]
    if number % 2:
        tables[0] = (tables[0][1], tables[0][0])
    return tables


def met_from(tables: Sequence[Table]) -> dict[int, set[int]]:
    """Who has sat with whom, from the tables of the rounds played."""
    met: dict[int, set[int]] = {}
    for t in tables:
        for a in t:
            met.setdefault(a, set()).update(b for b in t if b != a)
    return met


def rematches(tables: Sequence[Table], met: Mapping[int, Set[int]]) -> int:
    """How many pairs of entrants sit together again at these tables."""
    return sum(_met(met, t[i], t[j]) for t in tables for i in range(len(t)) for j in range(i + 1, len(t)))
