"""Bots for the Ray tests (loaded as ``raybots:Class`` by Ray's worker processes, which find
this folder on their PYTHONPATH).

* ``KillOnce`` plays as the greedy bot.  The first time one of them moves in any process,
  it creates the file named by ``BONEPILE_KILL_MARKER`` (atomically: only one process ever
  does) and kills its own process with SIGKILL, as a machine lost mid-run would; the process
  whose id is ``BONEPILE_KILL_SPARE`` (the test's own) is never killed.  Every one that is
  built notes its seed and process in the file named by ``BONEPILE_SEED_LOG``.
* ``Illegal`` always answers an action that is not legal.
"""

from __future__ import annotations

import os
import signal

from bonepile.bots import Bot
from bonepile.bots.greedy import GreedyBot


class KillOnce(GreedyBot):
    name = "kill-once"

    def __init__(self, variant, *, seed=None):
        super().__init__(variant, seed=seed)
        log = os.environ.get("BONEPILE_SEED_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{seed} {os.getpid()}\n")

    def choose(self, view):
        marker = os.environ.get("BONEPILE_KILL_MARKER")
        if marker and str(os.getpid()) != os.environ.get("BONEPILE_KILL_SPARE"):
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(view)


class Illegal(Bot):
    name = "illegal"

    def choose(self, view):
        return 999
