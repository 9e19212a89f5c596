"""What the chat word filter costs and what it catches.

1. Reading a list of N words (made up, 3 to 9 letters, a tenth of them phrases of two words)
   at start-up, then masking chat lines of 200 characters (random words, one in ten lines
   holding a listed word, some spelled out or with repeated letters).
2. The worst lines a client can send (200 of U+FDFA, which folds into 18 characters; long
   runs of a letter; spelled-out letters), per line, this filter and the filter of an older
   commit side by side (``--old REV``, read with ``git show``).
3. Disguised forms of listed words (leetspeak, Cyrillic and Greek look-alikes, separators,
   repeated letters): how many pass unmasked, this filter and the older one.

    PYTHONPATH=src python bench/chatfilter.py [--words 2000] [--lines 2000] [--old 380b444]
"""

from __future__ import annotations

import argparse
import random
import string
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

#: the listed words of part 3, and their disguises (each should be masked)
LISTED = ["frack", "smeg", "gorram", "kill", "shazbot", "son of a gun"]
DISGUISED = [
    # leetspeak
    "fr4ck",
    "fr@ck",
    "$meg",
    "5m3g",
    "sm3g",
    "g0rr4m",
    "g0rram",
    "k1ll",
    "ki11",
    "k!ll",
    "sh4zb0t",
    "$h@zb07",
    "s0n of 4 gun",
    "50n 0f a gun",
    # Cyrillic and Greek look-alikes (а е о р с у х к м т і ѕ, α ο ρ κ τ ε ι)
    "frаck",
    "frасk",
    "ѕmеg",
    "gоrrаm",
    "kіll",
    "shаzbоt",
    "sоn оf а gun",
    "frαck",
    "gοrrαm",
    "κill",
    "shazbοτ",
    "smεg",
    "kιll",
    # separators and spacing
    "f.r.a.c.k",
    "f r a c k",
    "f-r-a-c-k",
    "f_r_a_c_k",
    "f . r . a . c . k",
    "s/m/e/g",
    "k|i|l|l",
    "s.h.a.z.b.o.t",
    "g~o~r~r~a~m",
    # case, accents, repeats, and mixed
    "FRAAACK",
    "Smééég",
    "K1LLLL",
    "fr4aack",
    "ѕ m 3 g",
]


def word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))


def old_filter_class(rev: str) -> Any:
    """The ChatFilter class of the commit ``rev`` (None if git cannot show it)."""
    try:
        src = subprocess.run(
            ["git", "show", f"{rev}:src/bonepile/web/play/chatfilter.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    mod = types.ModuleType("old_chatfilter")
    exec(compile(src, f"{rev}:chatfilter.py", "exec"), mod.__dict__)
    return mod.ChatFilter


def per_line(f: Any, line: str, seconds: float = 0.3) -> float:
    """Milliseconds ``f.mask(line)`` takes, on average over ``seconds``."""
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        f.mask(line)
        n += 1
    return (time.perf_counter() - t0) / n * 1e3


def main() -> None:
    from bonepile.web.play.chatfilter import ChatFilter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old", default="380b444", help="the commit whose filter is compared")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    listed = [word(rng) if rng.random() > 0.1 else f"{word(rng)} {word(rng)}" for _ in range(a.words)]
    t0 = time.perf_counter()
    f = ChatFilter(listed)
    built = time.perf_counter() - t0
    lines = []
    for _ in range(a.lines):
        parts = [word(rng) for _ in range(30)]
        if rng.random() < 0.1:
            w = rng.choice(listed)
            parts[rng.randrange(len(parts))] = rng.choice([w, ".".join(w), w.upper(), w[0] * 3 + w[1:]])
        lines.append(" ".join(parts)[:200])
    took = []
    masked = 0
    for line in lines:
        t = time.perf_counter()
        out = f.mask(line)
        took.append(time.perf_counter() - t)
        masked += out != line
    took.sort()
    print(f"{f.size} words and phrases read in {built:.2f} s")
    print(
        f"{len(lines)} lines of 200 characters: median {took[len(took) // 2] * 1e3:.3f} ms, "
        f"p99 {took[int(len(took) * 0.99)] * 1e3:.3f} ms, max {took[-1] * 1e3:.3f} ms; {masked} masked"
    )

    Old = old_filter_class(a.old)
    worst = {
        "200 x U+FDFA": "\ufdfa" * 200,
        "200 x a": "a" * 200,
        "f.f.f. (200)": "f." * 100,
        "a a a (200)": "a " * 100,
    }
    print(f"\nworst lines, ms per line ({a.words} words; this | {a.old} | ratio)")
    for size in (4, a.words):
        words = listed[:size]
        new = ChatFilter(words)
        old = Old(words) if Old else None
        for name, line in worst.items():
            t_new = per_line(new, line)
            t_old = per_line(old, line) if old else float("nan")
            print(f"  {size:5d} words, {name:14s} {t_new:7.3f} | {t_old:7.3f} | {t_old / t_new:5.1f}x")

    print(f"\n{len(DISGUISED)} disguised forms of {len(LISTED)} listed words: passing unmasked")
    for name, cls in (("this", ChatFilter), (a.old, Old)):
        if cls is None:
            continue
        g = cls(LISTED)
        passed = [d for d in DISGUISED if g.mask(d) == d]
        print(f"  {name:8s} {len(passed):2d} of {len(DISGUISED)} pass: {' '.join(passed)}")


if __name__ == "__main__":
    main()
