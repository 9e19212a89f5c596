"""The bot workers of `bonepile serve` (web/jobs/searches.py): the experts' searches run in worker
processes from the seat's View only, the tables take turns with one search each at a time,
the budget shrinks (to a floor) as the queue grows, the queues are bounded, a seat's hint
searches are rate-limited, and threads stand in where no process can start.

The scheduling tests hold the executor and the clock: a job ends when the test says so."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bonepile.bots.hint import likely_tiles
from bonepile.engine import Game, View, make_variant
from bonepile.web.jobs import searches as workers
from bonepile.web.jobs.searches import FLOOR, HINT_BURST, HINTS_WAITING, Busy, Searches, TooManyHints
from webutil import InProcess, Sock, run, wait_until

RULES = ("block", {"players": 4})


class HeldExecutor(Executor):
    """An executor whose jobs end when the test sets their result."""

    def __init__(self, fail_with: BaseException | None = None, refuse: bool = False):
        self.jobs: list[tuple[tuple, Future]] = []
        self.fail_with = fail_with
        self.refuse = refuse

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        if self.refuse:
            raise RuntimeError("no process can be started here")
        f: Future = Future()
        if self.fail_with is not None:
            f.set_exception(self.fail_with)
        self.jobs.append((args, f))
        return f


def a_view() -> View:
    g = Game.new("block", {}, seed=5)
    return g.view(g.to_move)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def started(ex: HeldExecutor) -> list[int]:
    """The seeds of the jobs started so far, in order (the tests use the seed as a name)."""
    return [args[3] for args, _f in ex.jobs]


async def finish(ex: HeldExecutor, seed: int, result=0) -> None:
    for args, f in ex.jobs:
        if args[3] == seed:
            f.set_result(result)
    await settle()


def test_tables_take_turns_with_one_search_each_at_a_time():
    async def go():
        s = Searches(2, processes=False)
        s._pool = ex = HeldExecutor()
        view = a_view()
        # table A asks three times, B, C and D once each; the seed names the job
        futs = [
            s.move(tid, RULES, view, seed=seed, budget=0.1, due=None)
            for tid, seed in [("A", 11), ("A", 12), ("A", 13), ("B", 21), ("C", 31), ("D", 41)]
        ]
        assert started(ex) == [11, 21]  # two workers
        await finish(ex, 11, result=7)
        assert futs[0].done() and futs[0].result() == 7
        assert started(ex) == [11, 21, 31]  # C's turn comes before A's second
        await finish(ex, 21)
        assert started(ex) == [11, 21, 31, 41]  # and D's
        await finish(ex, 31)
        assert started(ex) == [11, 21, 31, 41, 12]
        await finish(ex, 41)
        assert started(ex) == [11, 21, 31, 41, 12]  # A has one running: its third waits
        await finish(ex, 12)
        assert started(ex) == [11, 21, 31, 41, 12, 13]
        await finish(ex, 13)
        assert all(f.done() for f in futs)
        assert s.waiting == {"move": 0, "hint": 0} and not s._running

    run(go(), 30)


def test_a_hint_storm_at_one_table_delays_another_tables_bot_by_one_search_at_most():
    async def go():
        s = Searches(1, processes=False)
        s._pool = ex = HeldExecutor()
        view = a_view()
        for seat in range(4):  # every seat of table A asks for hints (two each)
            for k in range(2):
                s.hint("A", seat, RULES, view, seed=100 + 10 * seat + k, budget=0.5)
        s.move("B", RULES, view, seed=1, budget=0.1, due=None)
        assert started(ex) == [100]
        await finish(ex, 100)
        assert started(ex) == [100, 1]  # B's bot comes next, before A's seven other hints
        s.close()

    run(go(), 30)


def test_the_budget_shrinks_with_the_queue_to_the_floor_and_never_past_the_due_moment():
    async def go():
        now = [100.0]
        s = Searches(2, processes=False, clock=lambda: now[0])
        s._pool = ex = HeldExecutor()
        view = a_view()
        for i in range(2):  # fill the two workers
            s.move(f"t{i}", RULES, view, seed=i, budget=0.1, due=None)
        assert list(s.budgets) == [0.1, 0.1]  # nothing waits: the full budget
        for i in range(2, 100):
            s.move(f"t{i}", RULES, view, seed=i, budget=0.1, due=None)
        await finish(ex, 0)  # 97 wait and 1 runs when the next starts: 0.6 s * 2 / 98
        assert s.budgets[-1] == pytest.approx(0.6 * 2 / 98)
        for i in range(100, 1000):
            s.move(f"t{i}", RULES, view, seed=i, budget=0.1, due=None)
        await finish(ex, 1)
        assert s.budgets[-1] == FLOOR  # very busy: the floor
        # a move due soon gets what is left before it is due (less a margin), not more
        t = Searches(2, processes=False, clock=lambda: now[0])
        t._pool = HeldExecutor()
        t.move("x", RULES, view, seed=1, budget=0.1, due=now[0] + 0.05)
        assert t.budgets[-1] == pytest.approx(0.05 - workers.MARGIN)
        s.close()
        t.close()

    run(go(), 30)


def test_the_budget_shrinks_when_more_searches_are_asked_for_than_the_workers_can_do():
    async def go():
        now = [0.0]
        s = Searches(2, processes=False, clock=lambda: now[0])
        s._pool = ex = HeldExecutor()
        view = a_view()
        for i in range(100):  # a hundred a second, each ending at once (the queue stays empty)
            now[0] += 0.01
            s.move(f"t{i}", RULES, view, seed=i, budget=0.1, due=None)
            await finish(ex, i)
        assert s.asked_rate(now[0]) == pytest.approx(100)
        assert s.budgets[0] == 0.1  # before the rate was known
        assert s.budgets[-1] == pytest.approx(workers.BUSY * 2 / 100)  # 80% of two workers
        s.stretch = 2.0  # the searches take twice their budget (the machine is busy)
        now[0] += 0.01
        s.move("u", RULES, view, seed=500, budget=0.1, due=None)
        assert s.budgets[-1] == pytest.approx(workers.BUSY * 2 / 100 / 2, rel=0.02)
        s.close()

    run(go(), 30)


def test_a_move_no_search_could_answer_by_its_due_moment_is_refused_so_the_bot_plays_greedily():
    async def go():
        now = [100.0]
        s = Searches(1, processes=False, clock=lambda: now[0])
        s._pool = ex = HeldExecutor()
        view = a_view()
        with pytest.raises(Busy):  # due already: not even a floor search fits
            s.move("A", RULES, view, seed=1, budget=0.1, due=now[0] + FLOOR / 2)
        # searches take 0.2 s: with one running on the one worker, the next would wait 0.2 s
        s.took = 0.2
        s.move("A", RULES, view, seed=2, budget=0.1, due=now[0] + 0.7)
        b = s.move("B", RULES, view, seed=3, budget=0.1, due=now[0] + 0.7)  # waits 0.2 s: fits
        c = s.move("C", RULES, view, seed=4, budget=0.1, due=now[0] + 0.7)  # 0.4 s: fits
        with pytest.raises(Busy, match="in time"):
            s.move("D", RULES, view, seed=5, budget=0.1, due=now[0] + 0.5)  # 0.6 s: not
        assert started(ex) == [2]
        # the worker is slower than thought: when B's and C's turns come, they are nearly due
        now[0] += 0.697
        await finish(ex, 2)
        assert isinstance(b.exception(), Busy) and isinstance(c.exception(), Busy)
        assert started(ex) == [2]  # neither was searched
        s.close()

    run(go(), 30)


def test_a_seats_hint_searches_are_rate_limited_and_the_hint_queue_is_bounded():
    async def go():
        now = [0.0]
        s = Searches(1, processes=False, clock=lambda: now[0])
        s._pool = HeldExecutor()
        view = a_view()
        for i in range(int(HINT_BURST)):
            s.hint("T", 0, RULES, view, seed=i, budget=0.5)
        with pytest.raises(TooManyHints, match="at most 20 a minute"):
            s.hint("T", 0, RULES, view, seed=99, budget=0.5)
        s.hint("T", 1, RULES, view, seed=98, budget=0.5)  # another seat has its own bucket
        now[0] += 60 / workers.HINT_RATE  # one search's worth of time
        s.hint("T", 0, RULES, view, seed=97, budget=0.5)
        with pytest.raises(TooManyHints):
            s.hint("T", 0, RULES, view, seed=96, budget=0.5)
        # the queue: one table's seven hints wait behind its running one (the bound is 8)
        assert s.waiting["hint"] == 6
        u = Searches(1, processes=False)
        u._pool = HeldExecutor()
        for seat in range(HINTS_WAITING + 1):  # one runs, 8 wait
            u.hint(f"U{seat}", 0, RULES, view, seed=seat, budget=0.5)
        with pytest.raises(Busy, match="busy"):
            u.hint("V", 0, RULES, view, seed=50, budget=0.5)
        s.close()
        u.close()

    run(go(), 30)


def test_the_moves_queue_is_bounded(monkeypatch):
    monkeypatch.setattr(workers, "MOVES_WAITING", 3)

    async def go():
        s = Searches(1, processes=False)
        s._pool = HeldExecutor()
        view = a_view()
        for i in range(4):  # one starts, three wait
            s.move(f"t{i}", RULES, view, seed=i, budget=0.1, due=None)
        with pytest.raises(Busy):
            s.move("late", RULES, view, seed=9, budget=0.1, due=None)
        s.close()

    run(go(), 30)


def test_a_table_that_leaves_drops_its_waiting_searches():
    async def go():
        s = Searches(1, processes=False)
        s._pool = ex = HeldExecutor()
        view = a_view()
        s.move("A", RULES, view, seed=1, budget=0.1, due=None)
        waiting = s.move("A", RULES, view, seed=2, budget=0.1, due=None)
        s.move("B", RULES, view, seed=3, budget=0.1, due=None)
        s.forget("A")
        assert waiting.cancelled() and s.waiting["move"] == 1  # B's
        await finish(ex, 1)
        await finish(ex, 3)
        assert started(ex) == [1, 3]

    run(go(), 30)


def test_only_the_seats_view_is_sent_to_a_worker():
    async def go():
        s = Searches(1, processes=False)
        s._pool = ex = HeldExecutor()
        s.move("A", RULES, a_view(), seed=1, budget=0.1, due=None)
        ((args, _f),) = ex.jobs
        kind, rules, view, seed, budget, level = args
        assert (kind, rules, seed, budget, level) == ("move", RULES, 1, 0.1, "expert")
        assert type(view) is View
        sent = pickle.dumps(args)
        for name in (b"bonepile.engine.hand", b"bonepile.engine.game", b"Hand", b"Game"):
            assert name not in sent
        s.close()

    run(go(), 30)


def test_a_worker_search_plays_a_legal_move_and_gives_an_opinion_of_every_legal_move():
    view = a_view()
    assert workers.search("move", RULES, view, 3, 0.02) in view.legal
    evals, likely = workers.search("hint", RULES, view, 3, 0.02)
    assert sorted(e.action for e in evals) == sorted(view.legal)
    assert likely == likely_tiles(make_variant(*RULES), view)
    # the strong level searches at its own fixed budget: the same move whatever the budget
    strong = {workers.search("move", RULES, view, 3, b, "strong") for b in (0.001, 5.0)}
    assert len(strong) == 1 and strong <= set(view.legal)


def test_threads_stand_in_where_no_process_can_start():
    async def go():
        view = a_view()
        for pool in (HeldExecutor(refuse=True), HeldExecutor(fail_with=BrokenProcessPool("no start"))):
            s = Searches(1, processes=True)
            s._pool = pool
            m = await asyncio.wait_for(s.move("A", RULES, view, seed=1, budget=0.02, due=None), 30)
            assert m in view.legal
            assert s.processes is False
            s.close()

    run(go(), 60)


def test_a_killed_worker_is_replaced_by_new_processes_never_by_threads():
    """Issue 27, item 4: a worker killed while idle broke the pool, the next search's submit
    raised BrokenProcessPool (a RuntimeError) and every later search ran in threads of the
    server for good.  Now the pool is replaced: the next search runs in a new process."""

    async def go():
        view = a_view()
        s = Searches(1, processes=True)
        try:
            assert await s.move("A", RULES, view, seed=1, budget=0.01, due=None) in view.legal
            pool = s._pool
            assert isinstance(pool, ProcessPoolExecutor)
            (victim,) = [p.pid for p in pool._processes.values()]
            os.kill(victim, signal.SIGKILL)
            end = asyncio.get_running_loop().time() + 30
            while not pool._broken:  # the pool notices its worker is gone
                assert asyncio.get_running_loop().time() < end, "the pool did not notice"
                await asyncio.sleep(0.05)
            for seed in (2, 3):
                assert await s.move("A", RULES, view, seed=seed, budget=0.01, due=None) in view.legal
            assert s.processes is True and s.renewed == 1
            assert isinstance(s._pool, ProcessPoolExecutor) and s._pool is not pool
            pids = {p.pid for p in s._pool._processes.values()}
            assert pids and victim not in pids and os.getpid() not in pids
        finally:
            s.close()

    run(go(), 120)


# ---------------------------------------------------------------------------- in a server
@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("workers") / "db"
    # a bot delay, so that a search has time to start before its move is due however busy
    # the machine running the tests is
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=0.1, bot_delay=0.2) as s:
        yield s


def expert_table(srv, level: str = "expert") -> dict:
    return srv.create(
        {
            "variant": "block",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": level}] * 3,
        }
    )


async def play_until(srv, made, searched: int, timeout: float = 60) -> None:
    """Play the person's seat (the first legal move) until ``searched`` searches ran."""
    s = await Sock.open(srv.ws, made["id"], made["token"])
    end = asyncio.get_running_loop().time() + timeout
    while srv.server.searches.searched < searched:
        assert asyncio.get_running_loop().time() < end, "the bots did not search"
        try:
            msg = await s.recv(1)
        except TimeoutError:
            continue
        if msg["type"] != "state" or msg["view"] is None:
            continue
        if msg["phase"] == "play" and msg["view"]["to_move"] == 0 and not msg["forced"]:
            await s.send({"type": "move", "move": msg["view"]["legal"][0]["move"]})
        elif msg["phase"] == "hand_over" and 0 not in msg["ready"]:
            await s.send({"type": "next"})
    await s.close()


@pytest.mark.parametrize("level", ["expert", "strong"])
def test_the_server_searches_in_worker_processes(srv, level):
    made = expert_table(srv, level)
    before = srv.server.searches.searched
    run(play_until(srv, made, before + 3), 120)
    searches = srv.server.searches
    assert searches.processes is True and searches._worked
    pids = {p.pid for p in searches._pool._processes.values()}  # type: ignore[union-attr]
    assert pids and os.getpid() not in pids


def test_with_the_moves_queue_full_the_experts_play_greedily_and_the_game_goes_on(srv, monkeypatch):
    monkeypatch.setattr(workers, "MOVES_WAITING", 0)
    made = expert_table(srv)
    t = srv.server.tables[made["id"]]
    before = srv.server.searches.searched

    async def go():
        s = await Sock.open(srv.ws, made["id"], made["token"])
        msg = await s.state()
        while t.seq < 12:
            if msg["type"] == "state" and msg["view"] is not None:
                if msg["phase"] == "play" and msg["view"]["to_move"] == 0 and not msg["forced"]:
                    await s.send({"type": "move", "move": msg["view"]["legal"][0]["move"]})
                elif msg["phase"] == "hand_over" and 0 not in msg["ready"]:
                    await s.send({"type": "next"})
            msg = await s.recv(30)
        await s.close()

    run(go(), 120)
    wait_until(lambda: t.seq >= 12, 30, "twelve moves")
    assert srv.server.searches.searched == before  # no search: the greedy bot played
