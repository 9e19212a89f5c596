"""``bonepile play``: a person against bots in the terminal.

Everything shown is built from the person's own ``View`` (``game.view(seat)``), plus the hand's
result once a hand is over (every hand is then revealed).  Deals come from ``--seed`` hand by
hand (``engine.deals``), so ``undo`` never changes the tiles of a hand.
"""

from __future__ import annotations

import random
from typing import Annotated

import typer

from ..bots import DEFAULT_LEVEL, LEVELS, BotError, ask, make_bot
from ..bots.hint import shown_figure
from ..bots.plugins import check as check_bot
from ..engine import BonepileError, Game, OptionError, View, make_variant
from ..engine import record as rec
from ..engine.commit import Seal
from ..engine.deals import derive
from ..engine.knowledge import PublicKnowledge
from ..engine.notation import normalize
from ..engine.tiles import DRAW, NAME, PASS
from .common import (
    Players,
    RuleOptions,
    VariantName,
    bots_option,
    fail,
    game_options,
    seed_option,
    split_bots,
)
from .screen import hand_text, layout_lines, rows_text

HELP = """Commands:
  a move token    e.g. 6-4, 6-4@L (arm L, R, U or D when a tile fits several ends), draw, pass
  a number        the move of that number in the list of legal moves
  hint            the expert bot's evaluation of every legal move
  undo            take back your last move (and the bots' moves after it)
  board           show the table again
  help            this text
  quit            save the record and leave (Ctrl-D and Ctrl-C do the same)"""


class Quit(Exception):
    pass


def bot_names(levels: list[str], seat: int) -> list[str]:
    """The seats' names as people read them: "you" for the person, "Casual bot" for the one
    bot of its level, "Casual bot 1", "Casual bot 2" where two share a level (a
    ``module:Class`` bot goes by its class)."""
    kinds = [levels[s].rsplit(":", 1)[-1] for s in range(len(levels))]
    kinds = [k if ":" in levels[s] else f"{k.capitalize()} bot" for s, k in enumerate(kinds)]
    out = []
    for s, kind in enumerate(kinds):
        if s == seat:
            out.append("you")
            continue
        same = [o for o in range(len(kinds)) if o != seat and kinds[o] == kind]
        out.append(kind if len(same) == 1 else f"{kind} {same.index(s) + 1}")
    return out


class PlaySession:
    def __init__(
        self,
        variant_name: str,
        options: dict,
        seat: int,
        levels: list[str],
        seed: int,
        record_path: str,
        console,
    ) -> None:
        self.v = make_variant(variant_name, options)
        self.seat = seat
        self.seed = seed
        self.record_path = record_path
        self.console = console
        n = self.v.players
        self.levels = levels
        names = bot_names(levels, seat)
        self.names = names
        self.bots = [
            None if s == seat else make_bot(levels[s], self.v, seed=derive(seed, "bot", s)) for s in range(n)
        ]
        self.game = Game(self.v, seed=seed, auto_deal=False, names=names)
        self.game.seal = Seal.make(seed)
        self.shown_hand = 0  # hands whose start has been announced
        self.shown_events = 0  # events of the current hand printed
        self.finished_shown = 0  # hands whose result has been printed
        self.failed = ""  # why a bot stopped the game (it crashed or broke the rules)
        self.last_points: tuple = ()  # in-play points of the current hand, as last printed

    # ----------------------------------------------------------------------------- names
    def side_name(self, side: int) -> str:
        return " & ".join(self.names[s] for s in self.v.sides[side])

    def seat_name(self, s: int) -> str:
        return "You" if s == self.seat else self.names[s]

    def print(self, *args, **kw) -> None:
        self.console.print(*args, **kw)

    # ----------------------------------------------------------------------------- loop
    def run(self) -> None:
        try:
            while not self.game.over:
                g = self.game  # undo replaces the game
                if not g.hands or g.hand.over:
                    self.deal(g)
                self.announce()
                h = g.hand
                s = h.to_move
                if s == self.seat:
                    view = g.view(s)
                    if len(view.legal) == 1 and (view.legal[0] in (PASS, DRAW) or view.blind):
                        g.apply(view.legal[0])  # forced: nothing to choose
                    else:
                        self.person_turn(view)
                else:
                    try:
                        m = ask(self.bots[s], self.levels[s], s, g.view(s), g.token)  # type: ignore[arg-type]
                    except BotError as e:
                        self.failed = str(e)
                        return
                    g.apply(m)
                self.announce()
            self.game_over()
        except (EOFError, KeyboardInterrupt, Quit):
            self.print("\nLeaving the game.")
        finally:
            self.save()

    def save(self) -> None:
        try:
            with open(self.record_path, "w", encoding="utf-8") as f:
                # the seed is on the screen from the start: the record reveals it even when the
                # person leaves before the end, so that the deals can be verified
                f.write(rec.dumps(self.game.record(reveal=True)))
            self.print(f"Record saved to {self.record_path} (bonepile replay {self.record_path})")
        except OSError as e:
            self.print(f"Could not save the record to {self.record_path}: {e.strerror}")

    # ----------------------------------------------------------------------------- output
    def announce(self) -> None:
        """Print what happened since the last call: a new hand, moves, a hand's result."""
        g = self.game
        if not g.hands:
            return
        if len(g.hands) > self.shown_hand:
            self.shown_hand = len(g.hands)
            self.shown_events = 0
            h = g.hand
            self.print()
            self.print(
                f"[bold]── Hand {h.number} ──[/] {self.seat_name(h.leader)} lead"
                + ("" if h.leader == self.seat else "s")
            )
            self.scores_line()
            view = g.view(self.seat)
            if not view.blind:
                self.print("Your tiles: " + " ".join(NAME[t] for t in view.hand))
            if view.blind:
                self.print(self.rows_line(view, self.seat))
            self.last_points = view.hand_points
        view = g.view(self.seat)
        for ev in view.history[self.shown_events :]:
            self.print(self.event_text(ev))
        if view.hand_points != self.last_points and not g.hand.over:
            gained = [
                f"+{b - a} {self.side_name(i)}"
                for i, (a, b) in enumerate(zip(self.last_points, view.hand_points))
                if b != a
            ]
            self.print(f"    scores {', '.join(gained)}")
        self.last_points = view.hand_points
        self.shown_events = len(view.history)
        if g.hand.over and self.finished_shown < len(g.hands):
            self.finished_shown = len(g.hands)
            self.hand_over(view)

    def event_text(self, ev) -> str:
        who = self.seat_name(ev.seat)
        you = ev.seat == self.seat
        if ev.action == "play":
            where = f" on {ev.arm}" if ev.arm else ""
            return f"  {who} {'play' if you else 'plays'} {NAME[ev.tile]}{where}"
        if ev.action == "draw":
            what = f" {NAME[ev.tile]}" if ev.tile is not None else ""
            return f"  {who} {'draw' if you else 'draws'}{what}"
        extra = f" ({NAME[ev.tile]} turned up, back to the row)" if ev.tile is not None else ""
        return f"  {who} {'pass' if you else 'passes'}{extra}"

    def scores_line(self) -> None:
        g = self.game
        if self.v.scoring == "result_only":
            return
        target = f" (target {self.v.target})" if self.v.target else ""
        self.print(
            "Scores: " + " · ".join(f"{self.side_name(i)} {t}" for i, t in enumerate(g.scores())) + target
        )

    def layout_lines(self, view: View) -> list:
        return layout_lines(view)

    def rows_text(self, view: View, s: int):
        return rows_text(view, s)

    def rows_line(self, view: View, s: int):
        from rich.text import Text

        t = Text(f"{'Your row' if s == self.seat else self.names[s] + ' row'}: ")
        t.append_text(self.rows_text(view, s))
        return t

    def render(self, view: View) -> None:

        self.print()
        self.print(
            f"[bold]{self.v.name}[/] · hand {view.hand_number} · you are seat {self.seat}"
            + (f" (partner: {self.names[(self.seat + 2) % 4]})" if self.v.teams else "")
        )
        self.scores_line()
        if any(view.hand_points):
            self.print(
                "This hand so far: "
                + ", ".join(f"{self.side_name(i)} {p}" for i, p in enumerate(view.hand_points))
            )
        for line in self.layout_lines(view):
            self.print(line)
        others = []
        for s in range(self.v.players):
            if s != self.seat:
                others.append(
                    f"{self.names[s]} {view.tile_counts[s]} tile" + ("" if view.tile_counts[s] == 1 else "s")
                )
        bone = ""
        if view.boneyard_size:
            bone = f" · boneyard {view.drawable} to draw" + (
                f" ({view.boneyard_size} in all)" if view.boneyard_size != view.drawable else ""
            )
        self.print("Others: " + ", ".join(others) + bone)
        if view.blind:
            for s in range(self.v.players):
                self.print(self.rows_line(view, s))
            if view.turned_up is not None:
                self.print(f"You turned up {NAME[view.turned_up]}")
            if view.peek is not None:
                self.print(f"You may peek: your next tile is {NAME[view.peek]}")
        else:
            self.print(hand_text(view))
        moves = self.move_list(view)
        self.print("Moves: " + "  ".join(f"{i}) {tok}" for i, tok in enumerate(moves, 1)))

    def choices(self, view: View) -> list[int]:
        """The legal moves, one per decision: a tile whose two ends are alike is listed once
        (``PublicKnowledge.decisions``)."""
        legal = list(view.legal)
        same = PublicKnowledge.from_view(self.v, view).decisions(legal)
        return [m for i, m in enumerate(legal) if same[i] == i]

    def move_list(self, view: View) -> list[str]:
        return [self.game.token(m) for m in self.choices(view)]

    def hand_over(self, view: View) -> None:
        g = self.game
        h = g.hand
        res = h.result
        assert res is not None
        self.print()
        if res.end == "domino" and res.dominoer is not None:
            self.print(f"[bold]Hand {h.number} over:[/] {self.seat_name(res.dominoer)} went out.")
        elif res.end == "blocked":
            self.print(f"[bold]Hand {h.number} over:[/] blocked, nobody can play.")
        else:
            self.print(f"[bold]Hand {h.number} over:[/] the target was reached during play.")
        if view.revealed:
            for s, tiles in enumerate(view.revealed):
                shown = " ".join(NAME[t] for t in tiles) or "-"
                self.print(f"  {self.seat_name(s):>10}: {shown}  ({res.pips[s]} pips)")
        bd = {k: x for k, x in res.breakdown.items() if k != "pips" and x not in (0, None, [])}
        if bd:
            self.print("  breakdown: " + ", ".join(f"{k.replace('_', ' ')} {x}" for k, x in bd.items()))
        if self.v.scoring == "result_only":
            win = "nobody" if res.winner is None else self.seat_name(res.winner)
            self.print(f"  Winner: {win}")
            return
        win = "nobody" if res.winner is None else self.side_name(res.winner)
        self.print(
            f"  Winner: {win}; points "
            + ", ".join(f"{self.side_name(i)} {p}" for i, p in enumerate(res.points))
        )
        self.scores_line()

    def game_over(self) -> None:
        g = self.game
        self.print()
        if g.winner is None:
            self.print("[bold]Game over:[/] no single winner.")
        elif self.v.scoring == "result_only":
            self.print(f"[bold]Game over:[/] {self.seat_name(g.winner)} won.")
        else:
            mine = self.seat in self.v.sides[g.winner]
            self.print(
                f"[bold]Game over:[/] {self.side_name(g.winner)} won" + (" — well played!" if mine else ".")
            )

    # ----------------------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        return self.console.input(prompt)

    def deal(self, g: Game) -> None:
        """Start the next hand (its tiles come from the game's seed); where the winning side
        chooses who leads and the person is on it, they are asked."""
        dealt = g.deal_next()
        seats = g.leader_choosers()
        leader = None if seats is None else self.choose_leader(g, seats, dealt.leader, dealt.deal_rows)
        g.next_hand(dealt=dealt, leader=leader)

    def choose_leader(self, game: Game, seats: tuple, default: int, deal_rows) -> int:
        if self.seat not in seats:
            return default  # the bots' side chooses (the seeded draw)
        partner = next(s for s in seats if s != self.seat)
        self.print()
        self.print("Your side won the last hand and chooses who leads the next one.")
        self.print("Your new tiles: " + " ".join(NAME[t] for t in deal_rows[self.seat]))
        while True:
            ans = (
                self.ask(
                    f"Who leads: me (seat {self.seat}) or partner ({self.names[partner]}, seat {partner})? "
                )
                .strip()
                .lower()
            )
            if ans in ("me", "m", "i", str(self.seat), "you"):
                return self.seat
            if ans in ("partner", "p", str(partner)):
                return partner
            if ans in ("quit", "exit", "q"):
                raise Quit
            self.print("Please answer me or partner.")

    def person_turn(self, view: View) -> None:
        self.render(view)
        while True:
            cmd = self.ask("Your move> ").strip()
            low = cmd.lower()
            if not cmd:
                self.print("Type a move (e.g. a number from the list), or help.")
                continue
            if low in ("help", "h", "?"):
                self.print(HELP, markup=False)
                continue
            if low in ("quit", "exit", "q"):
                raise Quit
            if low in ("board", "show", "b"):
                self.render(view)
                continue
            if low == "hint":
                self.hint()
                continue
            if low == "undo":
                if self.undo():
                    return
                continue
            if cmd.isdigit():
                k = int(cmd)
                listed = self.choices(view)
                if not 1 <= k <= len(listed):
                    self.print(f"No move {k}: choose 1 to {len(listed)}.")
                    continue
                self.game.apply(listed[k - 1])
                return
            token = normalize(cmd)
            try:
                self.game.play(token)
                return
            except BonepileError as e:
                self.print(f"Not a legal move: {e}. Type a number from the list, or help.", markup=False)

    def hint(self) -> None:
        from .. import bots  # looked up at call time (tests stand in for it)

        self.print("Thinking...")
        try:
            evals = bots.hint(self.game, seat=self.seat, seed=derive(self.seed, "hint"))
        except Exception as e:
            self.print(f"No hint available: {e}", markup=False)
            return
        from rich.table import Table

        # ranked by one figure (``bots.hint.shown_figure``), shown first; the others follow
        by_win = shown_figure(self.v) == "win"
        game = any(ev.game is not None for _tok, ev in evals)
        lead = "wins the hand" if by_win else "points expected"
        table = Table(title=f"The expert's view, best first by {lead}")
        cols = (
            ["#", "move", lead, "why"]
            + ([] if by_win else ["wins the hand"])
            + (["wins the game now"] if game else [])
        )
        for col in cols:
            table.add_column(col)
        for i, (tok, ev) in enumerate(evals, 1):
            win = "-" if ev.win is None else f"{ev.win:.0%}"
            row = [str(i), tok, win if by_win else f"{ev.value:+.1f}", ev.reason]
            if not by_win:
                row.append(win)
            if game:
                row.append("-" if ev.game is None else f"{ev.game:.0%}")
            table.add_row(*row)
        self.print(table)

    def undo(self) -> bool:
        g = undo_person(self.game, self.seat)
        if g is None:
            self.print("Nothing to undo: you have not chosen a move yet.")
            return False
        taken = sum(len(h.log) for h in self.game.hands) - sum(len(h.log) for h in g.hands)
        self.game = g
        self.shown_hand = len(g.hands)
        self.finished_shown = len([h for h in g.hands if h.over])
        self.shown_events = len(g.hand.log)
        self.last_points = g.view(self.seat).hand_points
        self.print(f"Took back your last move ({taken} move{'s' if taken != 1 else ''} undone).")
        return True


def undo_person(game: Game, seat: int) -> Game | None:
    """A copy of ``game`` back to just before ``seat``'s last chosen move (a move made where it
    had more than one legal move), with every move after it taken back; None if there is none."""
    g = game.copy()
    while True:
        if g.hand.log:
            who = g.hand.log[-1][0]
        elif len(g.hands) > 1:
            who = g.hands[-2].log[-1][0]
        else:
            return None
        g.undo()
        if who == seat and len(g.legal_moves()) > 1:
            return g


def play(
    variant: VariantName,
    players: Players = None,
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat, 0 to players-1 (play goes 0, 1, 2, ...).")
    ] = 0,
    bots: Annotated[
        str | None,
        bots_option(
            f"Bot level for the other seats ({', '.join(LEVELS)}; default {DEFAULT_LEVEL}): one "
            "for all, or one per other seat in seat order (comma-separated)."
        ),
    ] = None,
    option: RuleOptions = None,
    seed: Annotated[int | None, seed_option("Seed of the deals and the bots.")] = None,
    record: Annotated[str | None, typer.Option("--record", help="Where to save the game's record.")] = None,
    review: Annotated[
        bool | None,
        typer.Option(
            "--review/--no-review",
            help="At the end, review your inaccuracies, mistakes and blunders with the expert "
            "(default: ask, when playing at a terminal).",
        ),
    ] = None,
) -> None:
    """Play against bots in the terminal."""
    from rich.console import Console

    try:
        options, v = game_options(variant, option, players)
    except BonepileError as e:
        fail(f"error: {e}")
    if not 0 <= seat < v.players:
        fail(f"error: --seat must be 0 to {v.players - 1} for {v.players} players, not {seat}")
    names = split_bots(bots or DEFAULT_LEVEL)
    for b in names:
        try:
            check_bot(b)
        except BotError as e:
            fail(f"error: {e}")
    if len(names) == 1:
        names = names * (v.players - 1)
    if len(names) != v.players - 1:
        fail(f"error: --bots needs one level, or {v.players - 1} (one per other seat), not {len(names)}")
    levels = list(names)
    levels.insert(seat, "you")
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    path = record or f"bonepile-{variant}-{seed}.record.json"
    console = Console(highlight=False)
    console.print(
        f"bonepile play {variant} · seed {seed} · you are seat {seat} · "
        f"the record will be saved to {path} · type help for the commands"
    )
    try:
        session = PlaySession(variant, options, seat, levels, seed, path, console)
    except (BonepileError, OptionError) as e:
        fail(f"error: {e}")
    session.run()
    if session.failed:
        fail(f"error: {session.failed}")
    if review is not False:
        from .review import offer

        offer(session, ask=review is None)
