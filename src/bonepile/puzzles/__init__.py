"""Puzzles mined from played games: positions where, from what the seat knew, one move is
clearly best (docs/PUZZLES.md).  A layer beside ``analysis/``: it reads the engine, the bots
and the analysis; the command line and the web server read it.

``model`` (the ``Puzzle`` and its JSON), ``mine`` (finding them), ``store`` (the shipped set,
the daily puzzle), ``judge`` (is an answer right, and why not), ``glicko2`` (ratings of
puzzles and solvers), ``moves`` (a step's moves as tokens)."""
