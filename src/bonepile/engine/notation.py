"""Move notation: the one place where a move (an int) becomes text and text becomes a move.

RECORD.md ("Tiles and move tokens") fixes the tokens: ``a-b`` plays that tile (the first tile
of a layout is written as it is laid, ``a`` facing ``L``), ``a-b@E`` plays it on arm ``E``
(required exactly where two or more arms take the tile), ``draw`` and ``pass``.  Records, the
engine's ``Game.token``/``Game.parse``, the command line and the web server all write and read
moves through this module; ``normalize`` turns the looser spellings a person may type
(``Draw``, ``6-4 l``, ``6 4``, ``12 10``) into a token.

A move int is ``move(tile, arm)`` for a play (on the first tile the low bits say which way it
is laid: 0 high pip on ``L``, 1 low pip on ``L``), ``PASS`` or ``DRAW`` (``tiles.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .tiles import ARM_NAMES, DRAW, HI, LO, NAME, OTHER, PASS, arm_of, move, parse_tile, tile_of

if TYPE_CHECKING:
    from .hand import Hand

__all__ = ["hand_tokens", "move_token", "normalize", "parse", "token"]


def move_token(m: int, *, first: bool, arm: bool = True, names: Sequence[str] = ARM_NAMES) -> str:
    """The token of move ``m`` from the two facts it depends on: ``first`` (no tile is on the
    table yet: the tile is written as it is laid) and ``arm`` (write ``@E`` on a later tile).

    With ``arm=True`` (the default) a later tile always names its arm, a token that is valid
    wherever the move is legal; ``token`` gives the canonical one, which names the arm only
    where it must.  ``names``: the layout's arm names (``Hand.arm_names``)."""
    if m == PASS:
        return "pass"
    if m == DRAW:
        return "draw"
    t, code = tile_of(m), arm_of(m)
    if first:
        return f"{HI[t]}-{LO[t]}" if code == 0 else f"{LO[t]}-{HI[t]}"
    return f"{NAME[t]}@{names[code]}" if arm else NAME[t]


def token(h: Hand, m: int) -> str:
    """The canonical (record) token of move ``m`` in hand ``h``'s current position: ``@E``
    exactly when two or more arms take the tile."""
    if m >= PASS:
        return "pass" if m == PASS else "draw"
    if h.placed == 0:
        return move_token(m, first=True)
    return move_token(m, first=False, arm=len(h.fits(tile_of(m))) > 1, names=h.arm_names)


def parse(h: Hand, text: str) -> int:
    """The move a token names in hand ``h``'s current position.  Checks the token and its arm
    against the table (InvalidMoveError, IllegalMoveError, AmbiguousMoveError), not whether
    the move is legal for the seat to move (``Hand.check`` does that)."""
    if text == "pass":
        return PASS
    if text == "draw":
        return DRAW
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move token must be a string, not {text!r}")
    tile_part, _, arm_part = text.partition("@")
    parsed = parse_tile(tile_part)
    index = h.arm_index
    if parsed is None or ("@" in text and arm_part not in index):
        raise InvalidMoveError(
            f'not a move token (expected "a-b", "a-b@E" with E one of {" ".join(index)}, "draw" or "pass")'
        )
    t, a, _b = parsed
    if t >= h.v.n_tiles:
        tset = h.v.tile_set
        raise InvalidMoveError(
            f"not a move token of this game: {tile_part} is not a tile of the {tset.name} set (pips 0-{tset.pips})"
        )
    if h.placed == 0:
        if arm_part:
            raise InvalidMoveError(f"@{arm_part} on the first tile: no arm exists yet")
        return move(t, 0 if a == HI[t] else 1)
    fits = h.fits(t)
    if arm_part:
        arm = index[arm_part]
        if h.pip[arm] < 0:
            if h.v.layout == "chicken_foot":
                raise IllegalMoveError(h.why_illegal(move(t, arm)))
            if h.v.layout == "trains":
                raise IllegalMoveError(f"train {arm_part} is not in this game ({h.v.players} players)")
            if h.spin < 0:
                raise IllegalMoveError(f"arm {arm_part} does not exist yet (no spinner on the table)")
            raise IllegalMoveError(
                f"arm {arm_part} does not exist yet (the spinner's L and R sides must be played first)"
            )
        if arm not in fits:
            if OTHER[t * 13 + h.pip[arm]] >= 0 or arm not in h.open_arms:
                raise IllegalMoveError(h.why_illegal(move(t, arm)))
            raise IllegalMoveError(f"{NAME[t]} does not fit arm {arm_part} (open end {h.pip[arm]})")
        return move(t, arm)
    if not fits:
        ends = ", ".join(f"{k} {p}" for k, p in h.ends().items())
        raise IllegalMoveError(f"{NAME[t]} fits no open end ({ends})")
    if len(fits) > 1:
        names = h.arm_names
        choices = " or ".join(f"{NAME[t]}@{names[a]}" for a in fits)
        raise AmbiguousMoveError(
            f"ambiguous: {NAME[t]} fits arms {' and '.join(names[a] for a in fits)}; write {choices}"
        )
    return move(t, fits[0])


def hand_tokens(h: Hand) -> list[str]:
    """The tokens of every move of hand ``h`` so far: the ones given when the hand was read
    from a record or played by token, else the canonical ones."""
    if h.given_tokens is not None and len(h.given_tokens) == len(h.log):
        return list(h.given_tokens)
    g = h.fresh()
    out = []
    for _, m, _ in h.log:
        out.append(token(g, m))
        g.apply(m)
    return out


#: a tile as a person may type it: two pips (0..12) with a separator, or two single digits
#: run together ("64"); then maybe an arm
#: a play typed loosely: the tile, then maybe its arm: after "@" any layout's arm name in either
#: case (a line's L R U D, a train's 1..8 or M, a chicken foot's A..Z, AA..AF), after a space
#: a line's arm letter only (``6 4 1`` is not a tile and a train)
_LOOSE_PLAY = re.compile(
    r"(?:(\d{1,2})\s*[-|/ ]\s*(\d{1,2})|(\d)(\d))\s*(?:@\s*([A-Za-z]{1,2}|\d)|([lrudLRUD]))?"
)


def normalize(text: str) -> str:
    """The token a person most likely means: ``Draw`` and `` PASS `` -> ``draw``, ``pass``;
    ``6-4 l``, ``6-4@l``, ``6 4 L``, ``6|4``, ``6/4``, ``64`` -> ``6-4@L`` / ``6-4``; ``12-3@m`` ->
    ``12-3@M``, ``9-4@g`` -> ``9-4@G`` (a train's, a chicken foot's arm).  Text that is
    not such a spelling comes back stripped, as it is (``parse`` then says what is wrong)."""
    c = text.strip()
    if c.lower() in ("draw", "pass"):
        return c.lower()
    m = _LOOSE_PLAY.fullmatch(c)
    if m:
        a, b = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        tok = f"{int(a)}-{int(b)}"
        arm = m.group(5) or m.group(6)
        return tok + (f"@{arm.upper()}" if arm else "")
    return c
