"""Checking a record's sealed deals: the revealed seed and salt against the commitment, and every
hand re-dealt from the seed against the record's deal and boneyard (RECORD.md, "Extensions").

``verify(doc)`` returns a ``Verdict`` whose findings say, hand by hand, what matched or exactly
which seat or boneyard place holds another tile than the seed deals.  The CLI (``bonepile
verify``) and the web server (``GET /api/tables/{id}/verify``) both print or send it."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from .commit import Seal, check, read_seal
from .deals import hand_rng
from .errors import RecordError
from .game import Game
from .hand import Hand, deal_attempt
from .leaders import rule_leader
from .record import replay
from .scoring import HandResult
from .tiles import IS_DOUBLE, NAME, mask_of
from .variant import Variant

#: a hand whose history is unknown is compared with at most this many successive redeals
_MAX_ATTEMPTS = 64


@dataclass(frozen=True)
class Finding:
    """One difference between a recorded hand and the hand the seed deals."""

    hand: int  # 1-based index in the record's "hands" (as RECORD.md's errors count)
    number: int  # the rules' hand number the seed deals (differs when the record has "start")
    seat: int | None  # None: the boneyard
    position: int | None  # 1-based place in a row or the boneyard where order matters
    recorded: str | None  # the tile the record has there (None: none)
    dealt: str | None  # the tile the seed deals there (None: none)
    message: str


@dataclass
class Verdict:
    """What a check found.  ``status``: ``"verified"`` (commitment and every hand match),
    ``"mismatch"`` (something differs: see ``commitment_ok`` and ``findings``), ``"sealed"``
    (a commitment but the seed is not revealed yet), ``"none"`` (no commitment at all)."""

    status: str
    commitment: str | None = None
    seed: int | None = None
    commitment_ok: bool | None = None
    hands: int = 0
    hands_ok: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: the rule the record breaks, when its deals differ from the seed's before that point
    #: (the hands after it are not checked)
    record_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def as_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "ok": self.ok,
            "commitment": self.commitment,
            "seed": self.seed,
            "commitment_ok": self.commitment_ok,
            "hands": self.hands,
            "hands_ok": self.hands_ok,
            "findings": [asdict(f) for f in self.findings],
            "record_error": self.record_error,
        }

    def lines(self) -> list[str]:
        """The verdict in words, one line each (English, for the terminal)."""
        if self.status == "none":
            return ['no commitment: nothing to verify (the record has no "deals" object)']
        if self.status == "sealed":
            return [
                f"commitment {self.commitment}: the seed is not revealed yet, so the deals cannot be checked"
            ]
        out = []
        if self.commitment_ok:
            out.append(f"commitment {self.commitment}: matches the revealed seed {self.seed} and salt")
        else:
            out.append(f"commitment {self.commitment}: does NOT match the revealed seed {self.seed} and salt")
        out.extend(f.message for f in self.findings)
        if self.record_error is not None:
            out.append(f"the record also breaks the rules from there on (record error: {self.record_error})")
        out.append(f"{self.hands_ok} of {self.hands} hands dealt exactly as seed {self.seed} deals them")
        out.append("verified: the deals are the ones committed to" if self.ok else "NOT verified")
        return out


def verify(doc: dict[str, Any]) -> Verdict:
    """Check a record's sealed deals.  RecordError if the record itself is invalid."""
    seal = read_seal(doc)
    if seal is None:
        replay(doc)  # an invalid record is reported as such, not as "nothing to verify"
        return Verdict("none")
    try:
        game = replay(doc)
    except RecordError as e:
        # a deal changed usually breaks the moves played from it: where the hands up to the
        # one that breaks a rule can be dealt again, say which tiles differ (and the rule)
        found = _up_to_error(doc, seal, e)
        if found is None:
            raise
        return found
    if not seal.revealed:
        return Verdict("sealed", commitment=seal.commitment)
    return verify_game(game, seal)


def _up_to_error(doc: dict[str, Any], seal: Seal, e: RecordError) -> Verdict | None:
    """The verdict on the hands before the record's first error and that hand's deal, if the
    deals differ from the seed's there; None when they match (the error is the record's own)."""
    if not seal.revealed or e.hand is None or not isinstance(doc.get("hands"), list):
        return None
    hands = doc["hands"][: e.hand]
    last = hands[-1]
    if not isinstance(last, dict):
        return None
    cut = dict(doc, hands=[*hands[:-1], dict(last, moves=[])])
    try:
        game = replay(cut)
    except RecordError:
        return None
    verdict = verify_game(game, seal)
    if not verdict.findings:
        return None
    verdict.record_error = str(e)
    verdict.hands = len(doc["hands"])
    return verdict


def verify_game(game: Game, seal: Seal) -> Verdict:
    """Check a replayed game's hands against its revealed seal."""
    assert seal.seed is not None and seal.salt is not None
    seed = seal.seed
    ok = check(seed, seal.salt, seal.commitment)
    v = game.variant
    findings: list[Finding] = []
    good = 0
    for i, h in enumerate(game.hands):
        if i:
            prev: HandResult | None = game.hands[i - 1].result
            prev_leader: int | None = game.hands[i - 1].leader
            known = True
        else:
            prev, prev_leader, known = None, None, game.start_hand == 1
        rng = hand_rng(seed, h.number)
        if v.layout != "line":  # the centre double is not dealt: the layout's own deal
            again = Hand.deal(v, rng, number=h.number, prev=prev, prev_leader=prev_leader)
            candidates = [(again.deal_rows, again.boneyard)]
        else:
            candidates = _dealt(v, rng, prev, prev_leader, known)
        recorded = (h.deal_rows, h.boneyard)
        if any(_same(v, recorded, c) for c in candidates):
            good += 1
            continue
        findings.extend(_differences(v, i + 1, h.number, recorded, candidates[-1]))
    status = "verified" if ok and not findings else "mismatch"
    return Verdict(status, seal.commitment, seed, ok, len(game.hands), good, findings)


Dealt = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def _dealt(
    v: Variant, rng: random.Random, prev: HandResult | None, prev_leader: int | None, known: bool
) -> list[Dealt]:
    """The deal the seed gives (as ``Hand.deal`` draws it).  When the hand's history is unknown
    (the first hand of a record that starts later), every deal the rules might have redealt
    before the one kept: each deal without a double where the rules redeal such deals."""
    out: list[Dealt] = []
    for _ in range(_MAX_ATTEMPTS):
        deal, bone, _lot = deal_attempt(v, rng)
        masks = list(map(mask_of, deal))
        out.append((tuple(map(tuple, deal)), tuple(bone)))
        if known:
            if rule_leader(v, masks, prev, prev_leader)[2] != "redeal":
                return out[-1:]
            continue
        no_double = not any(IS_DOUBLE[t] for row in deal for t in row)
        if not (no_double and v.no_double_lead == "redeal"):
            return out
    return out


def _same(v: Variant, recorded: Dealt, dealt: Dealt) -> bool:
    rows, bone = recorded
    drows, dbone = dealt
    if bone != dbone or len(rows) != len(drows):
        return False
    if v.blind:  # a row's order is the order its tiles are turned up
        return rows == drows
    return all(sorted(a) == sorted(b) for a, b in zip(rows, drows))


def _differences(v: Variant, hi: int, number: int, recorded: Dealt, dealt: Dealt) -> list[Finding]:
    rows, bone = recorded
    drows, dbone = dealt
    at = f"hand {hi}" + (f" (hand {number} of the game)" if number != hi else "")
    out: list[Finding] = []

    def name(t: int | None) -> str | None:
        return None if t is None else NAME[t]

    for s, (row, drow) in enumerate(zip(rows, drows)):
        if v.blind:
            for p in range(max(len(row), len(drow))):
                a = row[p] if p < len(row) else None
                b = drow[p] if p < len(drow) else None
                if a != b:
                    msg = f"{at}, seat {s}, row place {p + 1}: the record has {_shown(a)}, the seed deals {_shown(b)}"
                    out.append(Finding(hi, number, s, p + 1, name(a), name(b), msg))
            continue
        extra = sorted(set(row) - set(drow))
        missing = sorted(set(drow) - set(row))
        for k in range(max(len(extra), len(missing))):
            a = extra[k] if k < len(extra) else None
            b = missing[k] if k < len(missing) else None
            msg = f"{at}, seat {s}: the record deals {_shown(a)} where the seed deals {_shown(b)}"
            out.append(Finding(hi, number, s, None, name(a), name(b), msg))
    for p in range(max(len(bone), len(dbone))):
        a = bone[p] if p < len(bone) else None
        b = dbone[p] if p < len(dbone) else None
        if a != b:
            msg = f"{at}, boneyard place {p + 1}: the record has {_shown(a)}, the seed deals {_shown(b)}"
            out.append(Finding(hi, number, None, p + 1, name(a), name(b), msg))
    return out


def _shown(t: int | None) -> str:
    return "no tile" if t is None else NAME[t]
