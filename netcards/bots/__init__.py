"""Bots: players that see only their seat's view and the legal actions, like a human client.

Importing the package registers every level with `registry.py`, whichever of its modules is
asked for; the order here is the order `bot_levels` lists them in.
"""

# isort: off
from netcards.bots import random_bot  # noqa: F401  (each level registers itself)
from netcards.bots import heuristic  # noqa: F401
from netcards.bots import search  # noqa: F401

# isort: on
