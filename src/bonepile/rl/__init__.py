"""Reinforcement-learning interfaces over every bonepile variant.

* ``bonepile.rl.pettingzoo``: PettingZoo AEC environments (``env``, ``raw_env``);
* ``bonepile.rl.gym``: a single-agent Gymnasium environment against bonepile bots;
* ``bonepile.rl.openspiel``: OpenSpiel Python games (optional extra ``openspiel``);
* ``bonepile.rl.obs``: the observation vector and action mask they share, built only from
  a seat's ``View``.

The submodules import their libraries (extra ``rl``: numpy, gymnasium, pettingzoo); this
package itself imports nothing.
"""
