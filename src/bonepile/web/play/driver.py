"""The driver of a table: one task per table plays what no person decides (the bots' turns,
forced turns, turns whose time ran out, the seats of people away longer than the grace
period), deals the next hands and lets a finished table go."""

from __future__ import annotations

import asyncio
import logging
import time

from ...engine.deals import derive
from ...engine.tiles import DRAW, PASS
from ...engine.view import View
from ..jobs.searches import Busy
from .table import STANDIN_LEVEL, LiveTable

log = logging.getLogger("bonepile.serve")

AGAIN = 0.0  # step again at once
DONE = -1.0  # the table left memory: stop driving it


async def drive(t: LiveTable) -> None:
    """Play what no person has to decide, then wait for the next change."""
    while True:
        try:
            timeout = await step(t)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not kill the table silently
            log.exception("table %s: driver step failed", t.id)
            timeout = 1.0
        if timeout == AGAIN:
            continue
        if timeout == DONE:
            return
        try:
            await asyncio.wait_for(t.wake.wait(), timeout)
        except TimeoutError:
            pass
        t.wake.clear()


def _min(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)


def stand_ins(t: LiveTable, now: float) -> float | None:
    """A bot stands in for each person away longer than the grace period; how long until the
    next one would."""
    grace = t.host.settings.grace
    wait: float | None = None
    for s in t.seats:
        if s.kind == "human" and s.token_hash is not None and not s.conns and not s.bot_playing:
            away = now - (s.away_since or now)
            if away >= grace:
                s.bot_playing = True
                t.changed()
            else:
                wait = _min(wait, grace - away)
    return wait


async def step(t: LiveTable) -> float | None:
    """Do one thing if something is to be done; AGAIN means "call again", DONE "stop", else
    how long to wait for a change (None: until woken)."""
    host = t.host
    settings = host.settings
    if t.status == "waiting":  # waiting for its players, at most table_ttl seconds
        age = time.time() - t.created
        if age < settings.table_ttl:
            return settings.table_ttl - age
        await host.expire(t)
        return DONE
    now = time.monotonic()
    g = t.game
    if t.ended:  # kept in memory a while for the people looking at it, then storage only
        if t.over_since is None:
            t.over_since = now
        if (
            not any(s.conns for s in t.seats)
            and not t.watchers
            and now - t.over_since >= settings.keep_finished
        ):
            host.let_go(t)
            return DONE
        return settings.keep_finished
    if t.status != "playing":
        return None
    if not t.has_people():  # a table of bots only stops once nobody has watched it a while
        if t.watchers:
            t.unwatched_since = None
        elif t.unwatched_since is None:
            t.unwatched_since = now
        elif now - t.unwatched_since >= settings.bots_unwatched:
            await host.expire(t, f"nobody watched it for {settings.bots_unwatched:.0f} s")
            return DONE
    if g.hands and t.has_people() and not any(s.conns for s in t.seats):
        return None  # no person at the table: its bots wait (an abandoned table costs nothing)
    wait = stand_ins(t, now)
    if t.pending_deal is not None:
        winners = t.winners()
        # a person on the winning side (here, or away for less than the grace period) chooses
        if any(t.seats[i].person for i in winners):
            return wait
        async with t.lock:  # nobody on the winning side is here to choose
            if t.pending_deal is not None:
                await t.choose_leader(t.pending_deal.leader, winners[0])
        t.announce()
        return AGAIN
    if g.hands and g.hand.over:
        # the people at the table (here, or away for less than the grace period) look at
        # the finished hand until each presses "next" (at most hand_pause seconds)
        people = [i for i, x in enumerate(t.seats) if x.person]
        waited = now - (t.hand_over_since or now)
        if people and not set(people) <= t.ready and waited < settings.hand_pause:
            return _min(wait, settings.hand_pause - waited)
        async with t.lock:
            if g.hands and g.hand.over and not g.over:
                await t.deal_next()
        t.announce()
        return AGAIN
    if not g.hands:
        async with t.lock:
            if not g.hands:
                await t.deal_first()
        t.announce()
        return AGAIN
    return await play_turn(t, now, wait)


def reply_due(t: LiveTable) -> float:
    """When a move played by the server (a bot's, a stand-in's, a forced one) is sent: the
    bot delay plus the expert's time budget after the turn began, the same for every
    position and every bot."""
    return t.turn_since + t.host.settings.bot_delay + t.host.settings.bot_time


async def searched_move(t: LiveTable, seat: int, view: View, due: float | None, level: str = "expert") -> int:
    """The move of a searching level (expert, strong) in a worker (``jobs.searches``); when no search could answer
    before the move is due, too many moves wait for one, or the search failed, the greedy
    bot's (no search: under load the server thinks less rather than answers late)."""
    host = t.host
    settings = host.settings
    try:
        return await host.searches.move(
            t.id,
            t.rules,
            view,
            seed=derive(t.seed, "bot", seat, t.seq),
            budget=settings.bot_time,
            due=due,
            level=level,
        )
    except Busy:
        pass
    except Exception:
        log.exception("table %s: a %s search failed; the greedy bot plays this move", t.id, level)
    return t.bot_for(seat, STANDIN_LEVEL).choose(view)


async def play_turn(t: LiveTable, now: float, wait: float | None) -> float | None:
    """The turn of the seat to move, when no person decides it (a bot's, a stand-in's, a
    forced one, one whose time ran out)."""
    host = t.host
    settings = host.settings
    g = t.game
    seat = g.to_move
    assert seat is not None
    s = t.seats[seat]
    view = t.view(seat)
    forced = len(view.legal) == 1 and (view.legal[0] in (PASS, DRAW) or view.blind)
    if not s.person:
        level = s.level if s.kind == "bot" else STANDIN_LEVEL
    elif forced and s.conns:
        level = "random"  # nothing to choose: played for the person, who sees it happen
    elif t.timer:
        left = t.timer - (now - t.turn_since)
        if left > 0:
            return _min(wait, left)
        level = "random" if forced else STANDIN_LEVEL  # out of time: a bot plays this turn
    else:
        return wait  # the person's turn (if away: until the grace period ends)
    # A move a person sees is sent at the same moment after the turn began whatever the
    # position (the bot delay and the expert's time budget): an answer at once would tell
    # the others that the bot had a single move, a slow one that it searched.
    due = reply_due(t) if t.humans_watching() else None
    seq = t.seq
    if len(view.legal) == 1 and level in ("random", "expert"):
        m = view.legal[0]  # nothing to choose (sent at the same moment as a searched move)
    elif level in ("expert", "strong"):  # a search: in the bot workers, off the event loop
        m = await searched_move(t, seat, view, due, level)
    else:
        m = t.bot_for(seat, level).choose(view)
    if due is None and not t.has_people():  # a table of bots only plays at a bounded rate
        due = time.monotonic() + settings.bot_delay
    if due is not None:
        left = due - time.monotonic()
        if left > 0:
            await asyncio.sleep(left)
    async with t.lock:
        if t.seq != seq or g.to_move != seat:
            return AGAIN  # someone acted meanwhile
        await t.commit_move(seat, m)
    t.announce()
    return AGAIN
