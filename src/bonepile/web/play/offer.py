"""A rematch question asked at a finished table (in memory only): who asked, who said yes,
who is still asked, who was away.  The flow of the question is ``rematch``."""

from __future__ import annotations

import asyncio
import time

from ..messages import RematchOffer, RematchStatus


class Offer:
    """A rematch asked for at a finished table."""

    def __init__(self, by: int, bots: list[int], people: list[int], here: list[int], wait: float):
        self.by = by
        self.status: RematchStatus = "asking"
        self.accepted: set[int] = {by, *bots}  # bots accept at once
        self.waiting: set[int] = {i for i in here if i != by}
        self.away: set[int] = {i for i in people if i not in here and i != by}
        self.declined: int | None = None
        self.until = time.monotonic() + wait
        self.table: str | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.starting = False  # everybody said yes: the new table is being stored

    def json(self) -> RematchOffer:
        asking = self.status == "asking"
        return {
            "status": self.status,
            "by": self.by,
            "accepted": sorted(self.accepted),
            "waiting": sorted(self.waiting),
            "away": sorted(self.away),
            "declined": self.declined,
            "deadline": max(0.0, round(self.until - time.monotonic(), 1)) if asking else None,
            "table": self.table,
        }

    def end(self, status: RematchStatus) -> None:
        self.status = status
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def came_back(self, seat: int) -> None:
        """A person's first socket opened while the question is open: they are asked too."""
        if self.status == "asking" and seat in self.away:
            self.away.discard(seat)
            self.waiting.add(seat)
