"""Hidden worlds consistent with a View: the determinizations the expert searches.

A *world* is an engine ``Hand`` rebuilt from a deal and a boneyard that agree with everything
the view shows, with the public history replayed on it by ``Hand.apply``.  Only the view is
read.  What a world must respect:

* the seat's own tiles, every seat's tile count, the tiles on the table, the boneyard's size;
* in games where a seat must play when it can (``turn == "must_play"``), a pass or a draw
  proves the seat held no tile fitting the open ends *at that moment*; a tile drawn later may
  carry that pip, so each hidden tile gets an arrival (dealt, or one of the seat's draws) and a
  tile may arrive no earlier than the last pass/draw it would contradict;
* a draw followed at once by a play of the same seat (must-play games) drew that tile;
* hand 1 under the highest-double lead rule: no one was dealt a double higher than the lead;
* blind games: each row is a queue, so every tile turned up and put back is known in place;
  only the tiles never turned up are hidden (the turned-up tile and the peek included);
* the rebuilt hand must reproduce the view: same seat to move, open ends, tile counts, legal
  moves, and the hand is not over (a world where the engine would have seen a block is void).

Worlds are drawn by a randomized constraint fill and checked by replay; a failed draw is
retried.  When the fill keeps dead-ending (about 1 view in 1,000 to 5,000 of the draw and block
games: stocks, passes and the first-lead rule leave few worlds), a complete backtracking search
takes over for that view, so a valid view always yields a world.  Only hard constraints are used: every consistent world is possible, none is
weighted by how likely the observed plays were.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..engine import Hand, Variant, View
from ..engine.hand import rule_leader
from ..engine.knowledge import PublicKnowledge, history_moves, layout_tiles
from ..engine.tiles import BIT, DOUBLE_MASK, IS_DOUBLE, PASS, bits, mask_of, tile_of


class InconsistentView(ValueError):
    """No world could be built for this view (a bug, or a view from other rules)."""


class Sampler:
    """Draws worlds for one view.  Build once per decision; ``sample(rng)`` many times."""

    def __init__(
        self,
        variant: Variant,
        view: View,
        *,
        tries: int = 200,
        public: PublicKnowledge | None = None,
        weights: dict[int, dict[int, float]] | None = None,
    ) -> None:
        """``public``: the view's public knowledge, when the caller has it already.
        ``weights``: per hidden tile, how likely each holder (a seat, -1 the boneyard) has
        it (``beliefs.Beliefs.weights``): open games then fill each tile's holder in
        proportion to its weight and the room the holder has left, instead of the room
        alone (None: every consistent deal alike)."""
        if view.variant != variant.name or view.players != variant.players:
            raise ValueError("the view is not of this variant")
        self.v = variant
        self.view = view
        self.tries = tries
        self.weights = weights
        self.moves = history_moves(view)
        self.public = public if public is not None else PublicKnowledge.from_view(variant, view)
        self.n = view.players
        self.me = view.seat
        self.failures = 0
        #: the dealt hands of the last world drawn (open games)
        self.last_deal: list[list[int]] = []
        lay = view.layout
        self.starter = lay.first if variant.starter else None
        self.starter_first = lay.first_left if variant.starter else None
        self.table = layout_tiles(view.layout)
        if view.blind:
            self._prepare_blind()
        else:
            self._prepare_open()

    # ------------------------------------------------------------------ open games
    def _prepare_open(self) -> None:
        v, view, n, me = self.v, self.view, self.n, self.me
        self.own = mask_of(view.hand)
        must = v.turn == "must_play"
        masks = self.public.fit_before
        hist = view.history
        # per seat: draws (event index), pinned draws (index -> tile), plays (tile -> index)
        self.draw_events: list[int] = []  # global draw order: event index
        self.draw_tile: dict[int, int] = {}  # event index -> tile, when known
        plays: list[dict[int, int]] = [{} for _ in range(n)]
        draws: list[list[int]] = [[] for _ in range(n)]
        constraints: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (event, mask)
        for i, e in enumerate(hist):
            if e.action == "play":
                plays[e.seat][e.tile] = i  # type: ignore[index]
            elif e.action == "draw":
                self.draw_events.append(i)
                draws[e.seat].append(i)
                if e.tile is not None:
                    self.draw_tile[i] = e.tile
                elif (
                    must and i + 1 < len(hist) and hist[i + 1].seat == e.seat and hist[i + 1].action == "play"
                ):
                    self.draw_tile[i] = hist[i + 1].tile  # type: ignore[assignment]  # the tile that fit
                if must:
                    constraints[e.seat].append((i, masks[i]))
            elif must:  # a forced pass
                constraints[e.seat].append((i, masks[i]))
        self.plays, self.draws, self.constraints = plays, draws, constraints
        self.unknown = self.v.all_tiles & ~self.own & ~self.table
        self.others = [s for s in range(n) if s != me]
        # a tile every current hidden tile of s must avoid: the passes/draws after s's last draw
        self.strict = [0] * n
        self.pinned_tiles = [0] * n
        for s in range(n):
            # the latest a tile held now can have arrived: s's last draw of an unknown tile
            last = max((i for i in draws[s] if i not in self.draw_tile), default=-1)
            for i, m in constraints[s]:
                if i > last:
                    self.strict[s] |= m
            self.pinned_tiles[s] = mask_of(t for i, t in self.draw_tile.items() if hist[i].seat == s)
        self.counts = view.tile_counts
        self.rest = view.boneyard_size
        #: per hidden tile: the seats that may hold it (-1: the boneyard), and how many
        self.allowed: dict[int, list[int]] = {
            t: [s for s in self.others if not self.strict[s] >> t & 1] + [-1] for t in bits(self.unknown)
        }
        self.n_allowed = [len(self.allowed.get(t, ())) for t in range(self.v.n_tiles)]
        self._pool = bits(self.unknown)
        # seats whose dealt tiles are simply the tiles they hold now and the ones they played:
        # no draws, and no play of a tile that a pass before it proved the seat lacked
        self._undrawn = [
            not draws[s]
            and not any(i < p and m >> t & 1 for t, p in plays[s].items() for i, m in constraints[s])
            for s in range(n)
        ]
        self.lead_check = view.hand_number == 1 and v.first_lead == "highest_double"
        #: the tiles this seat was dealt: those it holds or played, less the ones it drew
        self.my_deal = bits((self.own | mask_of(plays[me])) & ~self.pinned_tiles[me])

    def _sample_open(self, rng: random.Random) -> Hand | None:
        deal = self.sample_deal(rng)
        if deal is None:
            return None
        self.last_deal = deal[0]
        return self._replay(*deal)

    def sample_deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]] | None:
        """Open games: the dealt hands and the boneyard of a world that respects the hard
        facts about the hidden tiles, not yet checked by replaying the history (``build``);
        None when the random fill failed (draw again)."""
        v, n = self.v, self.n
        # 1. the hidden tiles now: other seats' hands and the undrawn boneyard
        pool = self._pool[:]
        rng.shuffle(pool)
        cap = {s: self.counts[s] for s in self.others}
        cap[-1] = self.rest
        # the most constrained tiles first
        allowed = self.allowed
        weights = self.weights
        if weights is None:
            pool.sort(key=self.n_allowed.__getitem__)
        else:  # then the surest tiles first, so a seat's room goes to what it surely holds
            na = self.n_allowed
            pool.sort(key=lambda t: (na[t], -max(weights.get(t, {}).values(), default=0.0)))
        held: dict[int, list[int]] = {s: [] for s in cap}
        room = dict(cap)
        for t in pool:
            opts = [s for s in allowed[t] if cap[s] > 0]
            if not opts:
                return None
            if weights is not None:
                wt = weights.get(t, {})
                ws = [wt.get(s, 0.0) * cap[s] / room[s] for s in opts]
                total_w = sum(ws)
                if total_w > 0:
                    x = rng.random() * total_w
                    j = 0
                    while j < len(opts) - 1 and x >= ws[j]:
                        x -= ws[j]
                        j += 1
                    s = opts[j]
                    cap[s] -= 1
                    held[s].append(t)
                    continue
            # as random.choices(opts, [cap[s] for s in opts]) (the same random numbers)
            total = 0
            cum = []
            for s in opts:
                total += cap[s]
                cum.append(total)
            x = rng.random() * total
            j = 0
            last = len(opts) - 1
            while j < last and cum[j] <= x:
                j += 1
            s = opts[j]
            cap[s] -= 1
            held[s].append(t)
        # 2. arrivals: which tile each hidden draw brought
        draw_tile = dict(self.draw_tile)
        initial: list[list[int]] = [[] for _ in range(n)]
        initial[self.me] = self.my_deal[:]
        for s in self.others:
            got = self._arrivals(s, held[s], draw_tile, rng)
            if got is None:
                return None
            initial[s] = got
        if self.lead_check:
            leader, _must, how = rule_leader(v, [mask_of(r) for r in initial], None, None, True)
            if how == "double" and leader != self.view.leader:
                return None
        boneyard = [draw_tile[i] for i in self.draw_events]
        rest = held[-1]
        rng.shuffle(rest)
        if self.starter is not None:
            boneyard = [self.starter] + boneyard
        boneyard += rest
        return initial, boneyard

    def build(self, deal: Sequence[Sequence[int]], boneyard: Sequence[int]) -> Hand | None:
        """The world of a ``sample_deal`` with the history replayed, or None if it does not
        reproduce the view."""
        return self._replay(deal, boneyard)

    def _arrivals(
        self, s: int, held: list[int], draw_tile: dict[int, int], rng: random.Random
    ) -> list[int] | None:
        """Give each unknown draw of seat s a tile; return s's dealt tiles."""
        if self._undrawn[s]:
            # (the held tiles avoid every pass of s: they were dealt only where allowed)
            return held + list(self.plays[s])
        slots = [i for i in self.draws[s] if i not in draw_tile]
        cons = self.constraints[s]
        pinned = self.pinned_tiles[s]
        cands = []  # (tile, earliest slot allowed, departure)
        for t in held:
            need = -1
            for i, m in cons:
                if m >> t & 1 and i > need:
                    need = i
            cands.append((t, need, 1 << 30))
        for t, p in self.plays[s].items():
            if pinned >> t & 1:
                continue
            need = -1
            for i, m in cons:
                if i < p and m >> t & 1 and i > need:
                    need = i
            cands.append((t, need, p))
        if not slots:
            if any(need >= 0 for _, need, _ in cands):
                return None
            return [t for t, _, _ in cands]
        rng.shuffle(cands)
        used = set()
        # tiles that must arrive by a draw: earliest departure first, each to a slot in range
        required = sorted((c for c in cands if c[1] >= 0), key=lambda c: c[2])
        free = set(slots)
        for t, need, dep in required:
            ok = [j for j in free if need <= j < dep]
            if not ok:
                return None
            j = rng.choice(sorted(ok))
            free.discard(j)
            draw_tile[j] = t
            used.add(t)
        for j in sorted(free):
            ok = [c[0] for c in cands if c[0] not in used and c[2] > j]
            if not ok:
                return None
            t = rng.choice(ok)
            draw_tile[j] = t
            used.add(t)
        return [t for t, _, _ in cands if t not in used]

    # ------------------------------------------------------------------ blind games
    def _prepare_blind(self) -> None:
        view, n = self.view, self.n
        turns: list[list[int]] = [[] for _ in range(n)]
        plays = [0] * n
        for e in view.history:
            turns[e.seat].append(e.tile)  # type: ignore[arg-type]  # turned tiles are public
            if e.action == "play":
                plays[e.seat] += 1
        if view.to_move is not None and view.turned_up is not None:
            turns[view.to_move].append(view.turned_up)
            if view.peek is not None:
                turns[view.to_move].append(view.peek)
        seen = self.table
        self.known_rows: list[list[int]] = []
        self.row_sizes = []
        for s in range(n):
            size = view.tile_counts[s] + plays[s]
            prefix = turns[s][:size]
            self.known_rows.append(prefix)
            self.row_sizes.append(size)
            seen |= mask_of(set(turns[s]))
        if self.starter is not None:
            seen |= BIT[self.starter]
        self.unknown = self.v.all_tiles & ~seen

    def _sample_blind(self, rng: random.Random) -> Hand | None:
        pool = bits(self.unknown)
        rng.shuffle(pool)
        rows = []
        pos = 0
        for s in range(self.n):
            k = self.row_sizes[s] - len(self.known_rows[s])
            rows.append(self.known_rows[s] + pool[pos : pos + k])
            pos += k
        boneyard = pool[pos:]
        if self.starter is not None:
            boneyard = [self.starter] + boneyard
        return self._replay(rows, boneyard)

    # ------------------------------------------------------------------ common
    def start_hand(self, deal: Sequence[Sequence[int]], boneyard: Sequence[int] = ()) -> Hand:
        """The hand as dealt (before any move of the public history), for this view's hand."""
        view = self.view
        must = -1
        if not self.moves and view.legal and all(m < PASS for m in view.legal):
            tiles = {tile_of(m) for m in view.legal}
            if len(tiles) == 1 and len(view.hand) > 1:
                must = tiles.pop()
        return Hand(
            self.v,
            deal,
            boneyard,
            view.leader,
            must_lead=must,
            number=view.hand_number,
            totals=view.totals,
            bonus=view.round_bonus,
            starter_first=self.starter_first,
        )

    def _replay(self, deal: Sequence[Sequence[int]], boneyard: Sequence[int]) -> Hand | None:
        view = self.view
        h = self.start_hand(deal, boneyard)
        for m in self.moves:
            if h.over:
                return None
            h.apply(m)
        if not agrees(h, view):
            return None
        return h

    def sample(self, rng: random.Random) -> Hand:
        """One world.  The random fill is tried ``tries`` times; when it keeps dead-ending
        (open games), a complete search takes over for this view and every later draw
        (``_search``).  Raises InconsistentView only when no world exists (or the search
        ran out of its budget)."""
        if not self._hard:
            draw = self._sample_blind if self.view.blind else self._sample_open
            for _ in range(self.tries):
                h = draw(rng)
                if h is not None:
                    return h
                self.failures += 1
            if self.view.blind:
                raise InconsistentView("no hidden deal agrees with this view")
            self._hard = True
        h = self._search(rng)
        if h is None:
            raise InconsistentView("no hidden deal agrees with this view")
        return h

    # ------------------------------------------------------------------ complete search
    #: set once the random fill failed ``tries`` times in a row: later draws search at once
    _hard = False
    #: complete searches run by this sampler
    searches = 0

    @property
    def hard(self) -> bool:
        """Does this view need the complete search (its random fill kept dead-ending)?  Callers
        that draw deals themselves (``sample_deal``) skip their own tries then."""
        return self._hard

    #: the most search nodes (tile placements, arrivals, replays) one search may visit
    search_budget = 200_000

    def _need(self, s: int, t: int, before: int = 1 << 30) -> int:
        """The last pass/draw of seat s before event ``before`` that proves s lacked tile t
        then (-1: none): t reached s's hand by a draw after it.  A double the first lead
        proves undealt (``_undealt``) must have come by a draw too (0: any draw)."""
        need = 0 if self._undealt() >> t & 1 else -1
        for i, m in self.constraints[s]:
            if i < before and m >> t & 1 and i > need:
                need = i
        return need

    def _undealt(self) -> int:
        """Hand 1 under the highest-double lead with the double to be led: the doubles above
        the one led were dealt to no one (the first-lead check, as a constraint)."""
        hist = self.view.history
        if not (self.lead_check and self.v.must_lead_double and hist):
            return 0
        first = hist[0]
        if first.action != "play" or first.seat != self.view.leader or not IS_DOUBLE[first.tile]:  # type: ignore[index]
            return 0
        return DOUBLE_MASK & ~((BIT[first.tile] << 1) - 1)  # type: ignore[index]

    #: the search nodes of the first attempt; each restart doubles them (see ``_search``)
    restart_nodes = 1_000

    def _search(self, rng: random.Random) -> Hand | None:
        """A world found by backtracking (``_search_once``), restarted with a new random order
        and twice the nodes whenever an attempt runs out of its nodes, until
        ``search_budget`` nodes are spent in all.  One order can lead the search into a
        subtree without a world that it then explores to the end (a Mexican Train view with
        four seats that drew: a placement early in the order leaves some tile no seat can
        take, found only deep below it: a third of the searches spent 20,000 nodes there
        in vain), while most orders reach a world in a few hundred nodes: restarts cut that
        tail.  An attempt that ends within its nodes has searched every placement: the
        view then has no world."""
        self.searches += 1
        left = self.search_budget
        size = self.restart_nodes
        while left > 0:
            nodes = min(size, left)
            h, spent = self._search_once(rng, nodes)
            if h is not None or not spent:
                return h
            left -= nodes
            size *= 2
        return None

    def _search_once(self, rng: random.Random, nodes: int) -> tuple[Hand | None, bool]:
        """A world found by backtracking: each hidden tile gets a holder (a seat the strict
        voids allow, or the boneyard, within the counts), in a random order weighted like the
        fill; a seat that drew keeps a placement only while the tiles that must have come by
        a draw can still get distinct draws in their windows (``_coverable``).  A complete
        placement then gets its draws' arrivals (``_arrival_choices``), the first-lead check
        and the replay; any failure backtracks.  Finds a world whenever one exists (within
        ``nodes``; the second value says whether they ran out); the random order keeps it a
        sample, and the rng keeps it deterministic."""
        pool = self._pool[:]
        rng.shuffle(pool)
        cap = {s: self.counts[s] for s in self.others}
        cap[-1] = self.rest
        if sum(cap.values()) != len(pool):  # counts that no placement can meet
            return None, False
        held: dict[int, list[int]] = {s: [] for s in cap}
        # seats whose hidden draws need arrivals: (unknown draw slots, played tiles that came
        # by an unknown draw or were dealt, with their windows)
        info: dict[int, tuple[list[int], list[tuple[int, int, int]]]] = {}
        required: dict[int, list[tuple[int, int, int]]] = {}
        for s in self.others:
            if self._undrawn[s]:
                continue
            slots = sorted(i for i in self.draws[s] if i not in self.draw_tile)
            played = [
                (t, self._need(s, t, p), p)
                for t, p in self.plays[s].items()
                if not self.pinned_tiles[s] >> t & 1
            ]
            info[s] = (slots, played)
            required[s] = [c for c in played if c[1] >= 0]
            if not _coverable(required[s], slots, fill=False):
                return None, False
        budget = [nodes]
        undealt = self._undealt()
        n_doubles = 0
        # the most constrained tiles first: fewest holders, a holder that drew counting half
        # when the tile would have to be one of its draws (their windows fill up)
        weak = {t: sum(1 for s in info if self._need(s, t) >= 0) for t in pool}
        pool.sort(key=lambda t: 2 * self.n_allowed[t] - weak[t])
        if self.lead_check:  # the doubles first, highest first: the lead rule prunes early
            doubles = sorted((t for t in pool if IS_DOUBLE[t]), reverse=True)
            n_doubles = len(doubles)
            pool = doubles + [t for t in pool if not IS_DOUBLE[t]]
        # a hand not over with nothing to draw is not blocked: when the seat's own tiles do not
        # fit the ends, some other seat holds a tile that does (where tiles are set aside, as
        # in Cuban, the placements that put every fitting tile there would fail only at the
        # replay, after a search of every placement below them)
        # (on trains each seat may play on its own trains: the hand goes on while any seat
        # holds a tile fitting a train open to it, not only the seat to move)
        fits = [self.public.fitting(s) for s in range(self.n)]
        fitting = 0
        for s in self.others:
            fitting |= fits[s]
        need_fit = (
            bool(fitting) and not self.view.over and self.view.drawable == 0 and not self.own & fits[self.me]
        )
        fit_after = [0] * (len(pool) + 1)  # tiles from position k on that fit some other seat
        for k in range(len(pool) - 1, -1, -1):
            fit_after[k] = fit_after[k + 1] + (fitting >> pool[k] & 1)
        fit_held = [0]  # fitting tiles placed with a seat
        # the first-lead rule, as the doubles are placed highest first (else 4^doubles
        # placements would be tried before the check at the last double prunes them).  A
        # double is *surely dealt* when it is this seat's (``my_deal``) or held or played by a
        # seat that never drew; the first double placed with such a seat is the highest
        # surely dealt one with the doubles known so, ``top`` (a double, its seat).  The cut:
        # when ``top``'s seat is not the leader and the leader neither holds (as placed so far)
        # nor played a double above it, no placement below this one is a world.  Proof: a
        # world passes the leaf's check only if the leader was dealt the highest double dealt
        # (``rule_leader`` names the holder of the highest double whenever one was dealt, and
        # ``top`` was); that double is above ``top`` (it is not ``top``: another seat's), and
        # a dealt tile is still held or was played; the leader's hidden doubles above ``top``
        # are placed already (highest first, and ``top`` is at least the double being placed),
        # and its plays are public, so none can come later.  (The cut once ignored the
        # leader's own doubles: a leader that drew, as the seat that led 6-6 and then drew in
        # three-player Muggins, had every world cut once a seat that never drew held a double.)
        leader = self.view.leader
        known = [(t, self.me) for t in self.my_deal if IS_DOUBLE[t]]
        known += [(t, x) for x in self.others if x not in info for t in self.plays[x] if IS_DOUBLE[t]]
        known_top = max(known, default=None)
        first_double = [False]  # a double has been placed with a seat that surely was dealt it
        holders = list(cap)
        room_of = [1 << holders.index(h) for h in holders]
        options = {t: sum(room_of[holders.index(h)] for h in self.allowed[t]) for t in pool}

        bone = room_of[holders.index(-1)]
        groups = [g for g in range(1, 1 << len(holders)) if g & bone]

        def room_enough(k: int) -> bool:
            """Hall's condition: for every set of holders, the tiles left that only they may
            take fit in their room (every tile may be in the boneyard: only the sets with the
            boneyard count)."""
            if cap[-1] >= len(pool) - k:
                return True
            kinds: dict[int, int] = {}
            for t in pool[k:]:
                kinds[options[t]] = kinds.get(options[t], 0) + 1
            rooms = [cap[h] for h in holders]
            for group in groups:
                room = sum(r for i, r in enumerate(rooms) if group >> i & 1)
                if sum(c for m, c in kinds.items() if not m & ~group) > room:
                    return False
            return True

        def place(k: int) -> Hand | None:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if k == n_doubles and n_doubles and not self._lead_possible(held, info):
                return None
            if k == len(pool):
                return self._search_leaf(held, info, rng, budget)
            t = pool[k]
            opts = [s for s in self.allowed[t] if cap[s] > 0 and (s in info or s < 0 or not undealt >> t & 1)]
            # a random order, each holder first with a chance in proportion to its room
            opts.sort(key=lambda s: rng.random() ** (1.0 / cap[s]), reverse=True)
            for s in opts:
                c = None
                lead_mark = False
                if k < n_doubles and s >= 0 and s not in info and not first_double[0]:
                    top = max(known_top, (t, s)) if known_top is not None else (t, s)
                    if top[1] != leader and not self._leader_above(top[0], held):
                        continue
                    first_double[0] = lead_mark = True
                if s in info:
                    need = self._need(s, t)
                    if need >= 0:
                        c = (t, need, 1 << 30)
                        required[s].append(c)
                        if not _coverable(required[s], info[s][0], fill=False):
                            required[s].pop()
                            if lead_mark:
                                first_double[0] = False
                            continue
                cap[s] -= 1
                held[s].append(t)
                fits_seat = s >= 0 and fits[s] >> t & 1
                fit_held[0] += fits_seat
                ok = room_enough(k + 1) and not (need_fit and not fit_held[0] and not fit_after[k + 1])
                if ok and s in info and not cap[s]:  # s's hand is complete: can every draw bring a tile?
                    full = [(x, self._need(s, x), 1 << 30) for x in held[s]] + info[s][1]
                    ok = _coverable(full, info[s][0], fill=True)
                h = place(k + 1) if ok else None
                if h is not None:
                    return h
                held[s].pop()
                cap[s] += 1
                fit_held[0] -= fits_seat
                if lead_mark:
                    first_double[0] = False
                if c is not None:
                    required[s].pop()
                if budget[0] < 0:
                    return None
            return None

        h = place(0)
        return h, budget[0] < 0

    def _leader_above(self, top: int, held: dict[int, list[int]]) -> bool:
        """Can the leader have been dealt a double above tile ``top``: does it hold one (this
        seat's deal, or the hidden tiles placed with it so far) or has it played one?"""
        leader = self.view.leader
        if leader is None:
            return False
        mine = self.my_deal if leader == self.me else held[leader] + list(self.plays[leader])
        return any(IS_DOUBLE[t] and t > top for t in mine)

    def _lead_possible(
        self, held: dict[int, list[int]], info: dict[int, tuple[list[int], list[tuple[int, int, int]]]]
    ) -> bool:
        """With every hidden double placed: can the leader still have been dealt the highest
        double dealt?  Doubles of seats without unknown draws were surely dealt; if the
        highest of those is not the leader's, the leader must hold or have played a higher
        one (a necessary condition; the leaf checks the rule itself)."""
        leader, me = self.view.leader, self.me
        if leader is None:
            return True
        sure = [(t, me) for t in self.my_deal if IS_DOUBLE[t]]
        for s in self.others:
            if s not in info:
                sure += [(t, s) for t in held[s] + list(self.plays[s]) if IS_DOUBLE[t]]
        if not sure:
            return True
        top, holder = max(sure)
        if holder == leader:
            return True
        if leader == me:
            return False  # the leader's deal is known and its best double is lower
        return any(IS_DOUBLE[t] and t > top for t in held[leader] + list(self.plays[leader]))

    def _search_leaf(
        self,
        held: dict[int, list[int]],
        info: dict[int, tuple[list[int], list[tuple[int, int, int]]]],
        rng: random.Random,
        budget: list[int],
    ) -> Hand | None:
        """The world of one complete placement of the hidden tiles, if some arrivals of the
        draws pass the first-lead check and the replay."""
        v, n, me = self.v, self.n, self.me
        initial: list[list[int]] = [[] for _ in range(n)]
        initial[me] = self.my_deal[:]
        seats = []
        for s in self.others:
            if s not in info:
                initial[s] = held[s] + list(self.plays[s])
                continue
            slots, played = info[s]
            cands = [(t, self._need(s, t), 1 << 30) for t in held[s]] + played
            if not _coverable(cands, slots, fill=True):
                return None
            seats.append((s, cands, slots))
        draw_tile = dict(self.draw_tile)
        rest = held[-1][:]
        rng.shuffle(rest)

        def arrive(k: int) -> Hand | None:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if k == len(seats):
                if self.lead_check:
                    leader, _must, how = rule_leader(v, [mask_of(r) for r in initial], None, None, True)
                    if how == "double" and leader != self.view.leader:
                        return None
                boneyard = [draw_tile[i] for i in self.draw_events]
                if self.starter is not None:
                    boneyard = [self.starter] + boneyard
                h = self._replay(initial, boneyard + rest)
                if h is not None:
                    self.last_deal = [r[:] for r in initial]
                return h
            s, cands, slots = seats[k]
            for arrivals in _arrival_choices(cands, slots, rng):
                draw_tile.update(arrivals)
                got = set(arrivals.values())
                initial[s] = [t for t, _n, _d in cands if t not in got]
                h = arrive(k + 1)
                if h is not None or budget[0] < 0:
                    return h
            return None

        return arrive(0)


def agrees(h: Hand, view: View) -> bool:
    """Does world ``h`` show the seat exactly what ``view`` shows?"""
    if h.over != view.over:
        return False
    if not h.over and h.to_move != view.to_move:
        return False
    if h.ends() != view.layout.ends:
        return False
    if h.rows is not None:
        if tuple(len(r) for r in h.rows) != view.tile_counts:
            return False
        if view.turned_up is not None and h.rows[h.to_move][0] != view.turned_up:
            return False
    else:
        if tuple(m.bit_count() for m in h.masks) != view.tile_counts:
            return False
        if h.masks[view.seat] != mask_of(view.hand):
            return False
    if h.drawable() != view.drawable:
        return False
    return not (view.to_move == view.seat and tuple(h.legal_moves()) != view.legal)


def _coverable(cands: Sequence[tuple[int, int, int]], slots: Sequence[int], *, fill: bool) -> bool:
    """Can the tiles ``cands`` (tile, need, departure) get distinct draws among ``slots``
    (event indices) so that each tile with ``need >= 0`` arrives by a draw in its window
    ``need <= slot < departure``, and (``fill``) every slot brings some tile that is still
    held after it (``slot < departure``)?  Matching by augmenting paths: first from the tiles
    that must arrive, then from the slots (which keeps those tiles matched)."""
    owner = [-1] * len(slots)  # slot -> tile
    where = [-1] * len(cands)  # tile -> slot
    adj = [[j for j, i in enumerate(slots) if c[1] <= i < c[2]] for c in cands]

    def from_tile(c: int, seen: list[bool]) -> bool:
        for j in adj[c]:
            if not seen[j]:
                seen[j] = True
                if owner[j] < 0 or from_tile(owner[j], seen):
                    owner[j], where[c] = c, j
                    return True
        return False

    for c, (_t, need, _d) in enumerate(cands):
        if need >= 0 and not from_tile(c, [False] * len(slots)):
            return False
    if not fill:
        return True
    radj: list[list[int]] = [[] for _ in slots]
    for c, js in enumerate(adj):
        for j in js:
            radj[j].append(c)

    def from_slot(j: int, seen: list[bool]) -> bool:
        for c in radj[j]:
            if not seen[c]:
                seen[c] = True
                if where[c] < 0 or from_slot(where[c], seen):
                    owner[j], where[c] = c, j
                    return True
        return False

    return all(owner[j] >= 0 or from_slot(j, [False] * len(cands)) for j in range(len(slots)))


def _arrival_choices(
    cands: Sequence[tuple[int, int, int]], slots: Sequence[int], rng: random.Random
) -> Iterator[dict[int, int]]:
    """Every way (in a random order) to give each slot a distinct tile of ``cands`` that
    ``_coverable`` allows, as {slot: tile}; each partial choice is kept only while the rest
    can still be completed, so no branch dead-ends."""
    used = [False] * len(cands)
    chosen: dict[int, int] = {}

    def pick(k: int) -> Iterator[dict[int, int]]:
        if k == len(slots):
            yield dict(chosen)
            return
        i = slots[k]
        opts = [c for c in range(len(cands)) if not used[c] and cands[c][1] <= i < cands[c][2]]
        rng.shuffle(opts)
        for c in opts:
            used[c] = True
            rest = [cands[x] for x in range(len(cands)) if not used[x]]
            if _coverable(rest, slots[k + 1 :], fill=True):
                chosen[i] = cands[c][0]
                yield from pick(k + 1)
                del chosen[i]
            used[c] = False

    yield from pick(0)
