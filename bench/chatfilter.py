"""What the chat word filter costs: reading a list of N words (made up, 3 to 9 letters, a
tenth of them phrases of two words) at start-up, then masking chat lines of 200 characters
(random words, one in ten lines holding a listed word, some spelled out or with repeated
letters) on the event loop.

    PYTHONPATH=src python bench/chatfilter.py [--words 2000] [--lines 2000]
"""

from __future__ import annotations

import argparse
import random
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))


def main() -> None:
    from bonepile.web.play.chatfilter import ChatFilter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=2000)
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
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


if __name__ == "__main__":
    main()
