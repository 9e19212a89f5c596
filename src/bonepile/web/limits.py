"""Rates per client address: a token bucket for each address, refilled at ``rate`` a minute
up to ``burst`` (what one address may do at once).  Every rate of the server reads this one
class: tables created, profiles made, spectators' sockets opened."""

from __future__ import annotations

import time


class Buckets:
    """A token bucket per key (a client address).  ``take`` spends one token, or says how many
    seconds to wait for the next one."""

    FORGET_PAST = 10000  # addresses remembered before the ones with a full bucket are forgotten

    def __init__(self, per_minute: float, burst: float | None = None):
        self.rate = per_minute / 60.0
        self.burst = 2 * per_minute if burst is None else burst
        self.held: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: str, now: float | None = None) -> float:
        """0.0 when ``key`` may act now (one token spent), else the seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens, when = self.held.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < 1:
            self.held[key] = (tokens, now)
            return (1 - tokens) / self.rate if self.rate > 0 else float("inf")
        self.held[key] = (tokens - 1, now)
        if len(self.held) > self.FORGET_PAST:
            self.held = {
                k: (n, w) for k, (n, w) in self.held.items() if n + (now - w) * self.rate < self.burst
            }
        return 0.0
