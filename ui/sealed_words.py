"""What a sealed table's host is told, in the same words on the host form and the command line."""

from __future__ import annotations

from ui.i18n import N_

SEALED_NO_CLOCK = N_(
    "a sealed table has no turn clock: no bot can play a sealed seat's turn, only its player "
    "holds its keys"
)
"""Why a sealed table and a turn clock exclude each other: the clock's bot would need the keys."""
